/* terminal.h - what the report writes to a terminal with: text in columns
 * and colours (inside app/report; report.h is the room's public header).
 *
 *   text      terminal_text_width counts display columns of UTF-8 text (one
 *             per code point: the report's glyphs are all single-width);
 *             terminal_pad, terminal_put_cell and terminal_print_parts lay
 *             text out in fields and in lines that fit a width.
 *   colours   a colour of the theme (render/theme.h) as an SGR escape: the
 *             exact RGB where the terminal takes 24-bit colour (COLORTERM
 *             says "truecolor" or "24bit"), else the nearest entry of the
 *             xterm 256-colour palette (its 6x6x6 cube and its grey ramp;
 *             the 16 system colours are left out, as every terminal
 *             redefines them).
 *
 * What it does not do: decide whether to colour at all (report_want_colour
 * in report.h, which the CLI calls), or know what the colours mean
 * (gantt.c picks them from the theme).
 *
 * Errors: none; write errors stay in the FILE's error flag.
 */
#ifndef PPFLOW_TERMINAL_H
#define PPFLOW_TERMINAL_H

#include <stdbool.h>
#include <stdio.h>

#include "colour.h"

typedef enum terminal_colours {
    TERMINAL_COLOURS_256 = 0, /* the xterm 256-colour palette */
    TERMINAL_COLOURS_TRUE,    /* 24-bit RGB */
} terminal_colours;

/* Display columns of UTF-8 text. */
int terminal_text_width(const char *s);
/* Writes n spaces (none when n <= 0). */
void terminal_pad(FILE *f, int n);
/* Writes s left- or right-aligned in a field of `width` columns. */
void terminal_put_cell(FILE *f, const char *s, int width, bool right);
/* Prints the parts on one line, three spaces apart, starting a new line
 * where the next part would reach the width (each part is narrower than
 * REPORT_MIN_WIDTH), and ends the line. */
void terminal_print_parts(FILE *f, const char *const *parts, int n, int width);

/* The colours the terminal takes, from $COLORTERM. */
terminal_colours terminal_colours_from_env(void);
/* The index (16..255) of the xterm palette entry nearest to c in RGB
 * distance (the lower index on a tie). */
int terminal_xterm256(rgba8 c);
/* Writes the SGR escape that sets the background (or text) colour to c. */
void terminal_set_colour(FILE *f, terminal_colours mode, rgba8 c, bool background);
/* Writes the SGR escape that sets the text to dark (black) on a light
 * background, else to bright white: the label rule of the window. */
void terminal_set_label_on(FILE *f, rgba8 background);
/* Writes the SGR escape that turns bold on or off. */
void terminal_set_bold(FILE *f, bool on);
/* Writes the SGR escape that resets colours and attributes. */
void terminal_reset(FILE *f);

#endif
