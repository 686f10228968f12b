/* Tests of the comparison's window (viewer_compare.h) in a real window
 * (Xvfb), on `ppflow --compare 1f1b,zb-h1 --size 1280x720` (P=4, M=8,
 * D=2: makespans 40 and 33, so the shared scale is [0, 40]):
 *
 *   - a scripted scrub in the SECOND pane's timeline moves every pane: the
 *     state line's pane_t (each pane's t as drawn, the t its HUD shows) are
 *     all the time under the pointer, and in the screenshot the cursor's
 *     column sits at that fraction of the shared scale in each pane's plot;
 *   - o switches the arrangement, x adds the last pane's sibling (three
 *     panes, on the same t), shift+X removes it;
 *   - a linked orbit in the second pane turns every pane's camera alike;
 *     after l (unlinked) an orbit turns only the pane under the pointer;
 *   - in a single window (`ppflow --time 12`, paused), x makes two panes,
 *     both at t = 12, the second the sibling's schedule; shift+X gives the
 *     single window back: the same state line as before x and the same
 *     screenshot, byte for byte.
 * The pane rectangles come from a first run's state line (pane_plot), so
 * the script's pointer lands where the layout puts the panes. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image_png.h"
#include "support/check.h"
#include "support/x_run.h"

enum { PANES_MAX = 4 };
#define LONGEST 40.0 /* 1F1B's makespan at P=4, M=8: the shared scale */

/* The comparison's keys of one state line. */
typedef struct panes_line {
    int panes, linked, active;
    char arrange[16];
    double t[PANES_MAX], yaw[PANES_MAX];
    double plot[PANES_MAX][4]; /* x, y, w, h in framebuffer pixels */
} panes_line;

static int read_list(const char *line, const char *key, double *out, int max)
{
    const char *p = strstr(line, key);
    if (!p)
        fail_msg("no %s in the state line: %s", key, line);
    p += strlen(key);
    int n = 0;
    while (n < max) {
        char *end;
        out[n] = strtod(p, &end);
        if (end == p)
            break;
        n++;
        if (*end != ':' && *end != ';')
            break;
        p = end + 1;
    }
    return n;
}

static panes_line parse_panes(const char *line)
{
    panes_line l = {0};
    const char *p = strstr(line, " panes=");
    if (!p || sscanf(p, " panes=%d arrange=%15s linked=%d active=%d", &l.panes, l.arrange,
                     &l.linked, &l.active) != 4)
        fail_msg("no panes in the state line: %s", line);
    assert_int_equal(read_list(line, " pane_t=", l.t, PANES_MAX), l.panes);
    assert_int_equal(read_list(line, " pane_yaw=", l.yaw, PANES_MAX), l.panes);
    double plots[PANES_MAX * 4];
    assert_int_equal(read_list(line, " pane_plot=", plots, PANES_MAX * 4), l.panes * 4);
    for (int k = 0; k < l.panes; k++)
        for (int i = 0; i < 4; i++)
            l.plot[k][i] = plots[k * 4 + i];
    return l;
}

/* The state lines of a run, in order. */
static int run_panes(const char *name, const char *script, panes_line *out, int max)
{
    char *text = run_script(PPFLOW_EXE, name, script,
                            X_RUN_ARGS("--compare", "1f1b,zb-h1", "--size", "1280x720"));
    int n = 0;
    for (char *p = text; *p && n < max;) {
        const size_t len = strcspn(p, "\n");
        if (strncmp(p, "t=", 2) == 0) {
            char line[4096];
            snprintf(line, sizeof line, "%.*s", (int)len, p);
            out[n++] = parse_panes(line);
        }
        p += len + (p[len] == '\n');
    }
    free(text);
    return n;
}

/* The layout as the window opens. */
static panes_line opening(void)
{
    panes_line l[2];
    const int n = run_panes("open.script", "frames 2\nprint\nquit\n", l, 2);
    assert_ge(n, 1);
    assert_int_equal(l[0].panes, 2);
    assert_string_equal(l[0].arrange, "side_by_side");
    return l[0];
}

/* The cursor's column in a plot: the middle of the run of the cursor's
 * yellow across a row of the plot; the first of a few rows where the
 * pointer's tooltip does not cover it. */
static double cursor_column(const image *img, const double plot[4])
{
    for (int row = 1; row < 10; row++) {
        const int y = (int)(plot[1] + plot[3] * row / 10.0);
        int first = -1, last = -1;
        for (int x = (int)plot[0] - 3; x <= (int)(plot[0] + plot[2]) + 3; x++) {
            if (x < 0 || x >= img->width || y < 0 || y >= img->height)
                continue;
            const uint8_t *p = img->rgba + ((size_t)y * img->width + x) * 4;
            if (p[0] > 200 && p[1] > 180 && p[2] < 120) {
                if (first < 0)
                    first = x;
                last = x;
            }
        }
        if (first >= 0 && last - first < 12) /* one line, not a run of bars */
            return (first + last) / 2.0;
    }
    fail_msg("no cursor in the plot (x %.0f .. %.0f, y %.0f .. %.0f)", plot[0], plot[0] + plot[2],
             plot[1], plot[1] + plot[3]);
    return -1;
}

static void test_scrub_in_the_second_pane_moves_every_pane(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_compare_window");
    const panes_line open = opening();
    /* press at a quarter of the second pane's plot, drag to 60% of it */
    const double *pl = open.plot[1];
    const double y = pl[1] + pl[3] * 0.3;
    const double x0 = pl[0] + pl[2] * 0.25, x1 = pl[0] + pl[2] * 0.6;
    char script[512];
    snprintf(script, sizeof script,
             "frames 2\nmove %.0f %.0f\ndown left %.0f %.0f\nmove %.0f %.0f\nup left %.0f %.0f\n"
             "frames 3\nscreenshot scrub.png\nprint\nquit\n",
             x0, y, x0, y, x1, y, x1, y);
    panes_line l[2];
    assert_int_equal(run_panes("scrub.script", script, l, 2), 2);
    const panes_line *s = &l[0];
    assert_int_equal(s->active, 2);
    const double want = ((double)(int)(x1 + 0.5) - pl[0]) / pl[2] * LONGEST;
    for (int k = 0; k < s->panes; k++) {
        print_message("pane %d: t = %.6f (want %.6f)\n", k + 1, s->t[k], want);
        if (fabs(s->t[k] - s->t[0]) > 1e-9)
            fail_msg("pane %d shows t = %.6f, pane 1 %.6f", k + 1, s->t[k], s->t[0]);
    }
    if (fabs(s->t[0] - want) > LONGEST / pl[2] * 1.01)
        fail_msg("t = %.6f after a scrub to %.0f; want %.6f (the time under the pointer)", s->t[0],
                 x1, want);

    char dir[512], path[600];
    x_run_dir("a", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/scrub.png", dir);
    image img = {0};
    ppf_error err = {{0}};
    if (!image_read_png(path, &img, &err))
        fail_msg("screenshot: %s", err.message);
    double fraction[PANES_MAX];
    for (int k = 0; k < s->panes; k++) {
        const double col = cursor_column(&img, s->plot[k]);
        fraction[k] = (col - s->plot[k][0]) / s->plot[k][2];
        print_message("pane %d: cursor at x = %.1f, %.4f of the scale\n", k + 1, col, fraction[k]);
        /* the column of t on the shared scale, within the line's width */
        if (fabs(fraction[k] - s->t[k] / LONGEST) * s->plot[k][2] > 3)
            fail_msg("pane %d: the cursor at %.4f of the scale, t at %.4f", k + 1, fraction[k],
                     s->t[k] / LONGEST);
    }
    for (int k = 1; k < s->panes; k++)
        if (fabs(fraction[k] - fraction[0]) * s->plot[k][2] > 2)
            fail_msg("the cursor at %.4f of pane %d's scale, %.4f of pane 1's", fraction[k], k + 1,
                     fraction[0]);
    image_deinit(&img);
}

static void test_layout_switch_and_sibling(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_compare_window");
    panes_line l[4];
    assert_int_equal(run_panes("panes.script",
                               "frames 2\nkey end\nkey o\nframes 2\nprint\nkey x\nframes 2\nprint\n"
                               "key x shift\nframes 2\nprint\nquit\n",
                               l, 4),
                     4);
    assert_string_equal(l[0].arrange, "stacked");
    assert_int_equal(l[0].panes, 2);
    assert_int_equal(l[1].panes, 3); /* the sibling: a third schedule at P=4, M=8 */
    for (int k = 0; k < l[1].panes; k++)
        if (fabs(l[1].t[k] - LONGEST) > 1e-9)
            fail_msg("pane %d of 3 at t = %.6f; want the end, %.1f", k + 1, l[1].t[k], LONGEST);
    assert_int_equal(l[2].panes, 2);
}

static void test_linked_orbit_turns_every_pane(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_compare_window");
    const panes_line open = opening();
    /* the second pane's 3D view: above its timeline */
    const double x = open.plot[1][0] + open.plot[1][2] * 0.5, y = open.plot[1][1] * 0.6;
    char script[768];
    snprintf(script, sizeof script,
             "frames 2\nprint\nmove %.0f %.0f\ndown left %.0f %.0f\nmove %.0f %.0f\n"
             "up left %.0f %.0f\nframes 2\nprint\nkey l\nmove %.0f %.0f\ndown left %.0f %.0f\n"
             "move %.0f %.0f\nup left %.0f %.0f\nframes 2\nprint\nquit\n",
             x, y, x, y, x + 80, y, x + 80, y, x, y, x, y, x + 80, y, x + 80, y);
    panes_line l[3];
    assert_int_equal(run_panes("orbit.script", script, l, 3), 3);
    for (int k = 0; k < 2; k++) {
        if (!(fabs(l[1].yaw[k] - l[0].yaw[k]) > 0.05))
            fail_msg("linked: pane %d's yaw %.4f -> %.4f; want it turned", k + 1, l[0].yaw[k],
                     l[1].yaw[k]);
    }
    assert_lt(fabs(l[1].yaw[1] - l[1].yaw[0]), 1e-4);
    assert_int_equal(l[2].linked, 0);
    assert_lt(fabs(l[2].yaw[0] - l[1].yaw[0]), 1e-4); /* unlinked: the first stays */
    assert_gt(fabs(l[2].yaw[1] - l[1].yaw[1]), 0.05); /* the one under the pointer turns */
}

/* A file's bytes; fails the test when it cannot be read. */
static char *slurp(const char *path, long *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    *size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)*size + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)*size, f), (size_t)*size);
    fclose(f);
    return buf;
}

static void test_sibling_from_a_single_window_and_back(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_compare_window");
    char *text = run_script(PPFLOW_EXE, "sibling.script",
                            "frames 2\nprint\nscreenshot single.png\nkey x\nframes 2\nprint\n"
                            "key x shift\nframes 2\nprint\nscreenshot back.png\nquit\n",
                            X_RUN_ARGS("--size", "1280x720", "--time", "12"));
    char *lines[3];
    int n = 0;
    for (char *p = text; *p;) {
        const size_t len = strcspn(p, "\n");
        if (strncmp(p, "t=", 2) == 0 && n < 3)
            lines[n++] = p;
        if (!p[len])
            break;
        p[len] = '\0';
        p += len + 1;
    }
    assert_int_equal(n, 3);
    assert_null(strstr(lines[0], " panes="));
    const panes_line two = parse_panes(lines[1]);
    assert_int_equal(two.panes, 2);
    assert_int_equal(two.linked, 1);
    for (int k = 0; k < 2; k++)
        if (fabs(two.t[k] - 12) > 1e-9)
            fail_msg("pane %d at t = %.6f after x; want 12", k + 1, two.t[k]);
    /* the next schedule of ppflow's table that runs at P=4, M=8 */
    if (!strstr(lines[1], " pane_schedule=1f1b:interleaved-1f1b"))
        fail_msg("x: want 1f1b beside interleaved-1f1b: %s", lines[1]);
    if (strcmp(lines[0], lines[2]) != 0)
        fail_msg("shift+X: the state line\n%s\nwant as before x\n%s", lines[2], lines[0]);
    char dir[512], a[600], b[600];
    x_run_dir("a", dir, sizeof dir);
    snprintf(a, sizeof a, "%s/single.png", dir);
    snprintf(b, sizeof b, "%s/back.png", dir);
    long na, nb;
    char *pa = slurp(a, &na), *pb = slurp(b, &nb);
    if (na != nb || memcmp(pa, pb, (size_t)na) != 0)
        fail_msg("the screenshot after x, shift+X differs from the one before x");
    free(pa);
    free(pb);
    free(text);
}

int main(void)
{
    struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scrub_in_the_second_pane_moves_every_pane),
        cmocka_unit_test(test_layout_switch_and_sibling),
        cmocka_unit_test(test_linked_orbit_turns_every_pane),
        cmocka_unit_test(test_sibling_from_a_single_window_and_back),
    };
    return x_run_main("ppflow_test_compare_window", tests, sizeof tests / sizeof tests[0]);
}
