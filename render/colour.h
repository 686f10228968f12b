/* colour.h - one colour (rgba8) and the few things done to it: written as
 * hex, given another alpha, mixed with another, lightened or darkened, and the
 * question "is it light?" that picks dark or light text on it.
 *
 * For: theme.c (which writes its table in hex), the timeline panel, the
 * frame's HUD and labels, and the terminal Gantt (app/report), which is why
 * it is pure C with no GL: app/report and the fuzz build use it without a
 * display.
 *
 * What it does not do: no colour spaces (sRGB bytes throughout, mixed
 * linearly in those bytes, as draw2d blends), no named colours (theme.h
 * holds every colour the program shows), no terminal codes (app/report).
 *
 * Errors: none; every function takes any value.
 */
#ifndef PPFLOW_COLOUR_H
#define PPFLOW_COLOUR_H

#include <stdbool.h>
#include <stdint.h>

/* A colour, 8 bits per channel, straight (not premultiplied) alpha. */
typedef struct rgba8 {
    uint8_t r, g, b, a;
} rgba8;

/* Longest colour_format_hex text, with the NUL: "#RRGGBBAA". */
enum { COLOUR_HEX_MAX = 10 };

/* An opaque colour from 0xRRGGBB. */
rgba8 colour_hex(uint32_t rgb);
/* The colour as 0xRRGGBB (alpha dropped). */
uint32_t colour_rgb(rgba8 c);
/* "#RRGGBB" (uppercase) for an opaque colour, "#RRGGBBAA" otherwise; returns buf. */
const char *colour_format_hex(rgba8 c, char buf[COLOUR_HEX_MAX]);
/* The same colour with alpha a. */
rgba8 colour_with_alpha(rgba8 c, uint8_t a);
/* a + (b - a) * f per channel, alpha included, rounded to nearest (f in 0..1). */
rgba8 colour_mix(rgba8 a, rgba8 b, float f);
/* colour_mix towards white by f, alpha kept as c's. */
rgba8 colour_lighten(rgba8 c, float f);
/* colour_mix towards black by f, alpha kept as c's. */
rgba8 colour_darken(rgba8 c, float f);
/* True when dark text reads better on c than light text (luma above 150 of
 * 255, Rec. 601 weights): the rule for labels on bars in the window and in
 * the terminal. */
bool colour_is_light(rgba8 c);

#endif
