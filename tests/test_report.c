/* Tests of the terminal Gantt's colours (app/report): every action kind in
 * the colour the window gives it (render/theme.h), exact in a 24-bit
 * terminal and the nearest xterm 256-colour entry otherwise (the palette
 * and the search written out here again, independently of terminal.c), with
 * the label ink the window's contrast rule picks; and the kinds apart from
 * one another. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "support/check.h"
#include "support/run_fixture.h"
#include "terminal.h"
#include "theme.h"
#include "timeline.h"

/* ---- the xterm 256-colour palette, from its definition ------------------ */

/* The RGB of entry n (16..255): a 6x6x6 cube with channel levels 0, 95,
 * 135, 175, 215, 255, then a ramp of 24 greys from 8 in steps of 10. */
static rgba8 xterm_entry(int n)
{
    static const uint8_t level[6] = {0, 95, 135, 175, 215, 255};
    if (n >= 232) {
        const uint8_t g = (uint8_t)(8 + 10 * (n - 232));
        return (rgba8){g, g, g, 255};
    }
    n -= 16;
    return (rgba8){level[n / 36], level[n / 6 % 6], level[n % 6], 255};
}

/* The nearest entry by squared RGB distance over the whole palette, the
 * first one on a tie. */
static int xterm_nearest(rgba8 c)
{
    int best = -1;
    long best_d = 0;
    for (int n = 16; n < 256; n++) {
        const rgba8 e = xterm_entry(n);
        const long dr = e.r - c.r, dg = e.g - c.g, db = e.b - c.b;
        const long d = dr * dr + dg * dg + db * db;
        if (best < 0 || d < best_d) {
            best = n;
            best_d = d;
        }
    }
    return best;
}

/* ---- a chart with every kind ------------------------------------------------ */

/* DualPipeV, P=2, M=4, D=2 with an all-reduce of 1: F, B, I, W, overlapped
 * F+B pairs and all-reduce rows, printed in colour into *text (to free). */
static void gantt_text(const char *colorterm, char **text)
{
    run_fixture x = {0};
    run_fixture_init(
        &x, &(run_fixture_desc){.schedule = "dualpipev", .P = 2, .M = 4, .D = 2, .allreduce = 1});
    if (colorterm)
        setenv("COLORTERM", colorterm, 1);
    else
        unsetenv("COLORTERM");
    size_t size = 0;
    FILE *f = open_memstream(text, &size);
    assert_non_null(f);
    report_gantt(&x.tl, f, 120, true);
    assert_int_equal(fclose(f), 0);
    run_fixture_deinit(&x);
}

/* What the escapes before `at` last set: the background or text colour as
 * RGB (24-bit) or a palette index (256), and the text attribute 30 or 97. */
typedef struct sgr {
    bool truecolour;
    int index; /* 256: the palette entry */
    rgba8 rgb; /* 24-bit */
    int ink;   /* 30 (black) or 97 (bright white), 0 when none was set */
} sgr;

static sgr sgr_before(const char *text, const char *at, bool background)
{
    const char *lead = background ? "\x1b[48;" : "\x1b[38;";
    const char *found = NULL;
    for (const char *s = text; (s = strstr(s, lead)) && s < at; s++)
        found = s;
    if (!found)
        fail_msg("no %s colour before \"%.12s\"", background ? "background" : "text", at);
    sgr out = {0};
    unsigned r, g, b;
    int n;
    if (sscanf(found + 5, "2;%u;%u;%um", &r, &g, &b) == 3) {
        out.truecolour = true;
        out.rgb = (rgba8){(uint8_t)r, (uint8_t)g, (uint8_t)b, 255};
    } else if (sscanf(found + 5, "5;%dm", &n) == 1) {
        out.index = n;
    } else {
        fail_msg("unreadable colour escape \"%.16s\"", found);
    }
    const char *end = strchr(found, 'm') + 1;
    if (strncmp(end, "\x1b[30m", 5) == 0)
        out.ink = 30;
    else if (strncmp(end, "\x1b[97m", 5) == 0)
        out.ink = 97;
    return out;
}

/* The window's rule for text on a bar (Rec. 601 luma above 150: dark text). */
static int ink_for(rgba8 fill)
{
    return 0.299 * fill.r + 0.587 * fill.g + 0.114 * fill.b > 150 ? 30 : 97;
}

static void expect_colour(const sgr *got, rgba8 want, bool truecolour, const char *what)
{
    char a[COLOUR_HEX_MAX], b[COLOUR_HEX_MAX];
    if (truecolour) {
        if (!got->truecolour || colour_rgb(got->rgb) != colour_rgb(want))
            fail_msg("%s: %s in the terminal, %s in the theme", what,
                     got->truecolour ? colour_format_hex(got->rgb, a) : "a palette index",
                     colour_format_hex(want, b));
    } else if (got->truecolour || got->index != xterm_nearest(want)) {
        fail_msg("%s: palette entry %d in the terminal, %d is nearest to the theme's %s", what,
                 got->index, xterm_nearest(want), colour_format_hex(want, b));
    }
}

/* The legend's sample of each kind, and the theme's colour for it. */
typedef struct kind_case {
    const char *sample;
    rgba8 colour;
} kind_case;

static int kind_cases(kind_case out[6])
{
    const theme th = theme_get(THEME_DARK);
    const timeline_palette *pal = &th.timeline;
    out[0] = (kind_case){"F3", theme_action_colour(pal, ACTION_F)};
    out[1] = (kind_case){"B3", theme_action_colour(pal, ACTION_B)};
    out[2] = (kind_case){"I3", theme_action_colour(pal, ACTION_I)};
    out[3] = (kind_case){"W3", theme_action_colour(pal, ACTION_W)};
    out[4] = (kind_case){"F7B3", theme_action_colour(pal, ACTION_OVERLAP_F_B)};
    out[5] = (kind_case){"A5", pal->allreduce};
    return 6;
}

static void check_kinds(const char *colorterm, bool truecolour)
{
    char *text = NULL;
    gantt_text(colorterm, &text);
    kind_case kinds[6];
    const int n = kind_cases(kinds);
    for (int k = 0; k < n; k++) {
        char sample[32];
        snprintf(sample, sizeof sample, "\x1b[1m%s\x1b[0m", kinds[k].sample);
        const char *at = strstr(text, sample);
        if (!at)
            fail_msg("no legend sample %s in:\n%s", kinds[k].sample, text);
        const sgr got = sgr_before(text, at, true);
        expect_colour(&got, kinds[k].colour, truecolour, kinds[k].sample);
        if (got.ink != ink_for(kinds[k].colour))
            fail_msg("%s: label ink %d, the window's rule gives %d", kinds[k].sample, got.ink,
                     ink_for(kinds[k].colour));
    }
    /* The rows wear the legend's colours: rank 0 starts with F0, unshaded. */
    const char *row = strstr(text, "rank 0");
    assert_non_null(row);
    const char *first = strstr(row, "\x1b[1mF0");
    assert_non_null(first);
    sgr got = sgr_before(row, first, true);
    expect_colour(&got, kinds[0].colour, truecolour, "rank 0's F0");
    /* Idle time is dim text, the theme's secondary text colour. */
    const char *idle = strstr(text, "··\x1b[0m idle");
    assert_non_null(idle);
    got = sgr_before(text, idle, false);
    expect_colour(&got, theme_get(THEME_DARK).text_dim, truecolour, "idle");
    free(text);
}

static void test_truecolour_is_the_theme(void **state)
{
    (void)state;
    check_kinds("truecolor", true);
    check_kinds("24bit", true);
}

static void test_256_is_the_nearest_entry(void **state)
{
    (void)state;
    check_kinds(NULL, false);
    check_kinds("", false);
}

/* The terminal's kinds stay apart: I is not the p2p orange, an overlapped
 * F+B not the all-reduce purple, and no two kinds share a palette entry. */
static void test_kinds_apart(void **state)
{
    (void)state;
    kind_case kinds[6];
    const int n = kind_cases(kinds);
    const theme th = theme_get(THEME_DARK);
    assert_int_not_equal(colour_rgb(kinds[2].colour), colour_rgb(th.timeline.p2p));
    assert_int_not_equal(colour_rgb(kinds[4].colour), colour_rgb(th.timeline.allreduce));
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            if (xterm_nearest(kinds[a].colour) == xterm_nearest(kinds[b].colour))
                fail_msg("%s and %s share palette entry %d", kinds[a].sample, kinds[b].sample,
                         xterm_nearest(kinds[a].colour));
}

/* terminal_xterm256 against the search over the whole palette, on a grid
 * of colours that includes the midpoints between levels (the ties). */
static void test_xterm256_is_the_nearest_entry(void **state)
{
    (void)state;
    int values[80], n = 0;
    for (int v = 0; v <= 255; v += 5)
        values[n++] = v;
    static const int ties[] = {47, 48, 114, 115, 116, 154, 155, 156, 194, 195, 196, 234, 235, 236};
    for (size_t k = 0; k < sizeof ties / sizeof ties[0]; k++)
        values[n++] = ties[k];
    for (int r = 0; r < n; r++)
        for (int g = 0; g < n; g++)
            for (int b = 0; b < n; b++) {
                const rgba8 c = {(uint8_t)values[r], (uint8_t)values[g], (uint8_t)values[b], 255};
                const int got = terminal_xterm256(c), want = xterm_nearest(c);
                if (got != want)
                    fail_msg("#%02X%02X%02X: entry %d, the nearest is %d", c.r, c.g, c.b, got,
                             want);
            }
}

/* Without colour the chart has no escapes at all. */
static void test_plain_has_no_escapes(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "1f1b", .P = 2, .M = 4});
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    report_gantt(&x.tl, f, 80, false);
    fclose(f);
    assert_null(strchr(text, '\x1b'));
    assert_non_null(strstr(text, "F0"));
    free(text);
    run_fixture_deinit(&x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truecolour_is_the_theme),
        cmocka_unit_test(test_256_is_the_nearest_entry),
        cmocka_unit_test(test_kinds_apart),
        cmocka_unit_test(test_xterm256_is_the_nearest_entry),
        cmocka_unit_test(test_plain_has_no_escapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
