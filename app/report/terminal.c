/* terminal.c - text columns, colours and the size of a terminal. See
 * terminal.h and, for the last two functions, report.h. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "terminal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "report.h"

/* ---- text ------------------------------------------------------------------ */

int terminal_text_width(const char *s)
{
    int w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

void terminal_pad(FILE *f, int n)
{
    for (; n > 0; n--)
        fputc(' ', f);
}

void terminal_put_cell(FILE *f, const char *s, int width, bool right)
{
    int w = terminal_text_width(s);
    if (right)
        terminal_pad(f, width - w);
    fputs(s, f);
    if (!right)
        terminal_pad(f, width - w);
}

void terminal_print_parts(FILE *f, const char *const *parts, int n, int width)
{
    int used = 0;
    for (int k = 0; k < n; k++) {
        int w = terminal_text_width(parts[k]);
        if (used && used + 3 + w >= width) {
            fputc('\n', f);
            used = 0;
        }
        if (used) {
            fputs("   ", f);
            used += 3;
        }
        fputs(parts[k], f);
        used += w;
    }
    fputc('\n', f);
}

/* ---- colours --------------------------------------------------------------- */

terminal_colours terminal_colours_from_env(void)
{
    const char *ct = getenv("COLORTERM");
    return ct && (strstr(ct, "truecolor") || strstr(ct, "24bit")) ? TERMINAL_COLOURS_TRUE
                                                                  : TERMINAL_COLOURS_256;
}

/* The cube's channel levels (index 16 + 36 r + 6 g + b) and the grey ramp
 * (index 232 + k, level 8 + 10 k). */
static const int cube_level[6] = {0, 95, 135, 175, 215, 255};

static int square(int v)
{
    return v * v;
}

/* The nearest cube level of one channel (the lower on a tie). */
static int nearest_level(int v)
{
    int best = 0;
    for (int k = 1; k < 6; k++)
        if (abs(cube_level[k] - v) < abs(cube_level[best] - v))
            best = k;
    return best;
}

int terminal_xterm256(rgba8 c)
{
    /* The cube is a grid, so its nearest entry is the nearest level in each
     * channel; the ramp is searched whole. The cube wins a tie: its indexes
     * are lower. */
    const int r = nearest_level(c.r), g = nearest_level(c.g), b = nearest_level(c.b);
    int best = 16 + 36 * r + 6 * g + b;
    int best_d =
        square(cube_level[r] - c.r) + square(cube_level[g] - c.g) + square(cube_level[b] - c.b);
    for (int k = 0; k < 24; k++) {
        const int level = 8 + 10 * k;
        const int d = square(level - c.r) + square(level - c.g) + square(level - c.b);
        if (d < best_d) {
            best_d = d;
            best = 232 + k;
        }
    }
    return best;
}

void terminal_set_colour(FILE *f, terminal_colours mode, rgba8 c, bool background)
{
    const int ground = background ? 48 : 38;
    if (mode == TERMINAL_COLOURS_TRUE)
        fprintf(f, "\x1b[%d;2;%u;%u;%um", ground, c.r, c.g, c.b);
    else
        fprintf(f, "\x1b[%d;5;%dm", ground, terminal_xterm256(c));
}

void terminal_set_label_on(FILE *f, rgba8 background)
{
    fputs(colour_is_light(background) ? "\x1b[30m" : "\x1b[97m", f);
}

void terminal_set_bold(FILE *f, bool on)
{
    fputs(on ? "\x1b[1m" : "\x1b[22m", f);
}

void terminal_reset(FILE *f)
{
    fputs("\x1b[0m", f);
}

/* ---- the terminal behind a FILE ------------------------------------------- */

int report_terminal_width(FILE *f)
{
    const char *env = getenv("COLUMNS");
    if (env && *env) {
        char *end;
        long v = strtol(env, &end, 10);
        if (*end == '\0' && v > 0)
            return v < REPORT_MIN_WIDTH   ? REPORT_MIN_WIDTH
                   : v > REPORT_MAX_WIDTH ? REPORT_MAX_WIDTH
                                          : (int)v;
    }
#ifdef TIOCGWINSZ
    struct winsize ws;
    if (isatty(fileno(f)) && ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col < REPORT_MIN_WIDTH ? REPORT_MIN_WIDTH : ws.ws_col;
#endif
    return REPORT_DEFAULT_WIDTH;
}

bool report_want_colour(FILE *f)
{
    const char *no = getenv("NO_COLOR");
    if (no && *no)
        return false;
    return isatty(fileno(f));
}
