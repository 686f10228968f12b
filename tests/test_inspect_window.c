/* Tests of inspecting in the live window, in a real X server (Xvfb),
 * driven by a script with clicks computed from the state line's plot and
 * rows and the actions' times from `ppflow schedule --format json`, on the
 * hand-worked 1F1B P=4 M=8 p2p 0.5 (tests/test_inspect.c works it out):
 *
 *   - a click on 3F2's bar selects it: it waited 1.00 for 2F2's output,
 *     whose delay is 0.5 (all of it the p2p hop), and t stays where it was;
 *     `]` moves to its consumer 3B2, `[` twice back to 3F2 and on to 2F2;
 *     Esc clears the selection and a click on 1F3 selects it: it waited
 *     8.00 for its rank, busy with 1B0 (its input's delay 8.5).
 *   - `c`: the critical path's colour outlines the last action's bar (the
 *     path ends there), and was not there before the key.
 *   - shift+drag over ranks 0-2: the area's busy, idle, bubble and counts
 *     by kind equal sums computed here from the JSON timeline.
 *   - a click in the 3D view at the pixel where rank 3's running action
 *     (3F4 at t 20, from the JSON) has its lit matmul box (the state line's
 *     aim=, printed while that action is selected from its bar) selects it
 *     and leaves t; a click on empty space in the 3D view clears it.
 *
 * Skipped, with a message and exit status 77 (CTest: "Skipped"), when
 * xvfb-run, Xvfb or xauth are not on PATH (tools/deps.sh installs them).
 * PPFLOW_EXE is the program. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "image_png.h"
#include "support/check.h"
#include "support/child.h"
#include "support/scratch.h"
#include "support/x_run.h"
#include "theme.h"

enum { STATES_MAX = 16, LINE_MAX_CHARS = X_RUN_LINE_MAX };

#define SCENARIO "--stages", "4", "--microbatches", "8", "--p2p", "0.5", "--dp", "1"
#define T_SHOWN 20.0 /* --time: where the window is paused */

static double key_double(const char *line, const char *key)
{
    char v[64];
    return atof(key_text(line, key, v, sizeof v));
}

static void expect_key(const char *line, const char *key, const char *want)
{
    char v[LINE_MAX_CHARS];
    if (strcmp(key_text(line, key, v, sizeof v), want) != 0)
        fail_msg("%s=%s, want %s, in: %s", key, v, want, line);
}

static void expect_near(const char *line, const char *key, double want, double tol)
{
    const double got = key_double(line, key);
    if (!(fabs(got - want) <= tol))
        fail_msg("%s=%.9g, want %.9g (within %g), in: %s", key, got, want, tol, line);
}

/* ---- the JSON timeline --------------------------------------------------------- */

static cJSON *schedule_json(void)
{
    char dir[400];
    x_run_dir("capture", dir, sizeof dir);
    child_result r =
        child_run(&(child_desc){.exe = PPFLOW_EXE,
                                .capture_dir = dir,
                                .args = CHILD_ARGS("schedule", SCENARIO, "--format", "json")});
    if (r.status != 0)
        fail_msg("ppflow schedule: status %d: %s", r.status, r.err);
    cJSON *doc = cJSON_Parse(r.out);
    child_result_deinit(&r);
    if (!doc)
        fail_msg("ppflow schedule's JSON does not parse");
    return doc;
}

typedef struct found {
    int rank;
    double start, end;
} found;

static found find_action(const cJSON *doc, const char *text)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(doc, "actions"))
    {
        if (strcmp(cJSON_GetObjectItem(e, "text")->valuestring, text) == 0)
            return (found){cJSON_GetObjectItem(e, "rank")->valueint,
                           cJSON_GetObjectItem(e, "start")->valuedouble,
                           cJSON_GetObjectItem(e, "end")->valuedouble};
    }
    fail_msg("no %s in the JSON timeline", text);
    return (found){-1, 0, 0};
}

/* ---- where things are on screen -------------------------------------------------- */

typedef struct geometry {
    double plot_x, plot_w, t0, t1;  /* the plot and its time range */
    double row_y, row_pitch, bar_h; /* the rows */
} geometry;

static geometry geometry_of(const char *line)
{
    const state_line s = parse_state(line);
    char rows[64];
    key_text(line, "rows", rows, sizeof rows);
    geometry g = {.plot_x = s.plot_x, .plot_w = s.plot_w, .t0 = s.t0, .t1 = s.t1};
    if (sscanf(rows, "%lf:%lf:%lf", &g.row_y, &g.row_pitch, &g.bar_h) != 3)
        fail_msg("rows=%s", rows);
    /* no HiDPI scaling under Xvfb: window coordinates are framebuffer pixels */
    assert_int_equal(s.fb_w, s.win_w);
    return g;
}

static double x_of(const geometry *g, double t)
{
    return g->plot_x + (t - g->t0) / (g->t1 - g->t0) * g->plot_w;
}

static double y_of(const geometry *g, int rank)
{
    return g->row_y + rank * g->row_pitch + 0.5 * g->bar_h;
}

static char *run(const char *name, const char *script)
{
    return run_script(PPFLOW_EXE, name, script,
                      X_RUN_ARGS(SCENARIO, "--size", "1280x720", "--time", "20"));
}

static geometry first_geometry(void)
{
    char *out = run("layout.script", "frames 2\nprint\nquit\n");
    static char lines[STATES_MAX][LINE_MAX_CHARS];
    if (state_texts(out, lines, STATES_MAX) != 2)
        fail_msg("expected a print and --print-state:\n%s", out);
    free(out);
    return geometry_of(lines[0]);
}

/* ---- tests ----------------------------------------------------------------------- */

static void test_click_selects_and_walks(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_inspect_window");
    cJSON *doc = schedule_json();
    const found f32 = find_action(doc, "3F2"), f13 = find_action(doc, "1F3");
    /* the hand-worked times (test_inspect.c) */
    assert_same_double(f32.start, 11.5);
    assert_same_double(f13.start, 12.5);
    cJSON_Delete(doc);
    const geometry g = first_geometry();
    const double x32 = x_of(&g, 0.5 * (f32.start + f32.end)), y32 = y_of(&g, f32.rank);
    const double x13 = x_of(&g, 0.5 * (f13.start + f13.end)), y13 = y_of(&g, f13.rank);
    char script[2048];
    snprintf(script, sizeof script,
             "frames 2\n"
             "down left %.2f %.2f\nup left %.2f %.2f\nprint\n"
             "key bracketright\nprint\n"
             "key bracketleft\nkey bracketleft\nprint\n"
             "key escape\nprint\n"
             "down left %.2f %.2f\nup left %.2f %.2f\nprint\n"
             "key escape\nkey escape\nprint\n"
             "quit\n",
             x32, y32, x32, y32, x13, y13, x13, y13);
    char *out = run("click.script", script);
    static char lines[STATES_MAX][LINE_MAX_CHARS];
    const int n = state_texts(out, lines, STATES_MAX);
    if (n != 7)
        fail_msg("expected 6 prints and --print-state, got %d:\n%s", n, out);
    free(out);
    /* 3F2: waited 1.00 for 2F2 from rank 2 (ready 11.5, its rank free at
     * 10.5); the input's delay is its p2p hop, 0.5; a click leaves t */
    expect_key(lines[0], "selected", "3F2");
    expect_key(lines[0], "selected_rank", "3");
    expect_key(lines[0], "waited_for", "2F2");
    expect_near(lines[0], "wait", 1.0, 1e-9);
    expect_near(lines[0], "delay", 0.5, 1e-9);
    expect_near(lines[0], "p2p", 0.5, 1e-9);
    assert_same_double(parse_state(lines[0]).t, T_SHOWN);
    /* ] : its consumer, 3B2 on its own rank; [ [ : back, then to 2F2 */
    expect_key(lines[1], "selected", "3B2");
    expect_key(lines[2], "selected", "2F2");
    /* Esc clears; t never moved */
    expect_key(lines[3], "selected", "-");
    assert_same_double(parse_state(lines[3]).t, T_SHOWN);
    /* 1F3: its input came at 4.5, its rank was busy with 1B0 until 12.5 */
    expect_key(lines[4], "selected", "1F3");
    expect_key(lines[4], "waited_for", "rank");
    expect_key(lines[4], "busy_with", "1B0");
    expect_near(lines[4], "wait", 8.0, 1e-9);
    expect_near(lines[4], "delay", 8.5, 1e-9);
    assert_same_double(parse_state(lines[4]).t, T_SHOWN);
    /* Esc twice: the selection, then nothing more to clear; never quits */
    expect_key(lines[5], "selected", "-");
}

/* Pixels of the colour c (within tol per channel) in the box [x0, x1] x [y0, y1]. */
static int colour_in_box(const image *img, int x0, int y0, int x1, int y1, rgba8 c, int tol)
{
    int n = 0;
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            if (x < 0 || y < 0 || x >= img->width || y >= img->height)
                continue;
            const uint8_t *p = img->rgba + ((size_t)y * img->width + x) * 4;
            n += abs(p[0] - c.r) <= tol && abs(p[1] - c.g) <= tol && abs(p[2] - c.b) <= tol;
        }
    return n;
}

static image read_shot(const char *name)
{
    char path[400];
    scratch_join(path, sizeof path, x_run_scratch(), "a/");
    size_t n = strlen(path);
    snprintf(path + n, sizeof path - n, "%s", name);
    image img = {0};
    ppf_error err = {{0}};
    if (!image_read_png(path, &img, &err))
        fail_msg("%s: %s", name, err.message);
    return img;
}

static void test_critical_path_and_area(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_inspect_window");
    cJSON *doc = schedule_json();
    const double makespan = cJSON_GetObjectItem(doc, "makespan")->valuedouble;
    /* the path ends at what ends last: rank 0's last backward */
    const found last = find_action(doc, "0B7");
    assert_same_double(last.end, makespan);
    const geometry g = first_geometry();
    /* an area from t 7 on rank 0 to t 21 on rank 2 */
    const double ax0 = x_of(&g, 7), ay0 = y_of(&g, 0), ax1 = x_of(&g, 21), ay1 = y_of(&g, 2);
    char script[1024];
    snprintf(script, sizeof script,
             "frames 2\n"
             "screenshot plain.png\n"
             "key c\nprint\n"
             "screenshot critical.png\n"
             "key c\n"
             "down left %.2f %.2f shift\nmove %.2f %.2f\nup left %.2f %.2f\nprint\n"
             "quit\n",
             ax0, ay0, ax1, ay1, ax1, ay1);
    char *out = run("critical.script", script);
    static char lines[STATES_MAX][LINE_MAX_CHARS];
    const int n = state_texts(out, lines, STATES_MAX);
    if (n != 3)
        fail_msg("expected 2 prints and --print-state, got %d:\n%s", n, out);
    free(out);
    expect_key(lines[0], "critical", "1");
    expect_key(lines[1], "critical", "0");

    /* the path's outline just under the last bar, in the critical colour,
     * and not before the key */
    const rgba8 c = theme_get(THEME_DARK).timeline.critical;
    const int bx0 = (int)ceil(x_of(&g, last.start)) + 2, bx1 = (int)floor(x_of(&g, last.end)) - 2;
    const int by = (int)floor(g.row_y + last.rank * g.row_pitch + g.bar_h);
    image plain = read_shot("plain.png"), crit = read_shot("critical.png");
    const int before = colour_in_box(&plain, bx0, by - 1, bx1, by + 4, c, 24);
    const int after = colour_in_box(&crit, bx0, by - 1, bx1, by + 4, c, 24);
    image_deinit(&plain);
    image_deinit(&crit);
    if (before != 0 || after < bx1 - bx0)
        fail_msg("critical colour under 0B7 (x %d..%d, y %d..%d): %d pixels before c, %d after",
                 bx0, bx1, by - 1, by + 4, before, after);

    /* the area: sums from the JSON over the range the window took */
    const char *a = lines[1];
    char range[128], ranks[64], counts[64];
    double t0, t1;
    int r0, r1;
    if (sscanf(key_text(a, "area", range, sizeof range), "%lf:%lf", &t0, &t1) != 2 ||
        sscanf(key_text(a, "area_ranks", ranks, sizeof ranks), "%d:%d", &r0, &r1) != 2)
        fail_msg("area keys: %s", a);
    assert_int_equal(r0, 0);
    assert_int_equal(r1, 2);
    assert_true(fabs(t0 - 7) < 0.1 && fabs(t1 - 21) < 0.1);
    double busy = 0;
    int count[5] = {0};
    static const char *kinds[5] = {"F", "B", "I", "W", "F+B"};
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(doc, "actions"))
    {
        const int r = cJSON_GetObjectItem(e, "rank")->valueint;
        const double s = cJSON_GetObjectItem(e, "start")->valuedouble;
        const double en = cJSON_GetObjectItem(e, "end")->valuedouble;
        if (r < r0 || r > r1)
            continue;
        const double o = fmin(en, t1) - fmax(s, t0);
        if (o <= 0)
            continue;
        busy += o;
        for (int k = 0; k < 5; k++)
            count[k] += strcmp(cJSON_GetObjectItem(e, "kind")->valuestring, kinds[k]) == 0;
    }
    cJSON_Delete(doc);
    const double width = t1 - t0, idle = (r1 - r0 + 1) * width - busy;
    /* the printed range has 6 decimals: the sums may differ by a few of its units */
    expect_near(a, "area_busy", busy, 1e-4);
    expect_near(a, "area_idle", idle, 1e-4);
    expect_near(a, "area_bubble", idle / ((r1 - r0 + 1) * width), 1e-5);
    char want[64];
    snprintf(want, sizeof want, "%d:%d:%d:%d:%d", count[0], count[1], count[2], count[3], count[4]);
    key_text(a, "area_counts", counts, sizeof counts);
    if (strcmp(counts, want) != 0)
        fail_msg("area_counts=%s, from the JSON %s", counts, want);
    assert_true(count[0] > 0 && count[1] > 0);
}

/* The compute action running on `rank` at t, from the JSON timeline. */
static found running_at(const cJSON *doc, int rank, double t, char *text, size_t size)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(doc, "actions"))
    {
        const double s = cJSON_GetObjectItem(e, "start")->valuedouble;
        const double en = cJSON_GetObjectItem(e, "end")->valuedouble;
        if (cJSON_GetObjectItem(e, "rank")->valueint == rank && s <= t && t < en) {
            snprintf(text, size, "%s", cJSON_GetObjectItem(e, "text")->valuestring);
            return (found){rank, s, en};
        }
    }
    fail_msg("nothing runs on rank %d at %g", rank, t);
    return (found){-1, 0, 0};
}

static void test_click_in_3d_selects(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_inspect_window");
    cJSON *doc = schedule_json();
    char text[64];
    const found a = running_at(doc, 3, T_SHOWN, text, sizeof text);
    cJSON_Delete(doc);
    assert_string_equal(text, "3F4"); /* the hand-worked timeline's */
    const geometry g = first_geometry();
    /* its bar selected: where its lit box is in the 3D view */
    const double bx = x_of(&g, 0.5 * (a.start + a.end)), by = y_of(&g, a.rank);
    char script[1024];
    snprintf(script, sizeof script,
             "frames 2\nprint\ndown left %.2f %.2f\nup left %.2f %.2f\nprint\nquit\n", bx, by, bx,
             by);
    char *out = run("aim.script", script);
    static char lines[STATES_MAX][LINE_MAX_CHARS];
    if (state_texts(out, lines, STATES_MAX) != 3)
        fail_msg("expected 2 prints and --print-state:\n%s", out);
    free(out);
    expect_key(lines[0], "aim", "-"); /* nothing selected, nothing to aim at */
    expect_key(lines[1], "selected", text);
    char aim[64];
    double ax, ay;
    if (sscanf(key_text(lines[1], "aim", aim, sizeof aim), "%lf:%lf", &ax, &ay) != 2)
        fail_msg("aim=%s", aim);
    const state_line sl = parse_state(lines[1]);
    assert_true(ax > 0 && ax < sl.fb_w && ay > 0 && ay < sl.plot_y); /* in the 3D view */

    /* a fresh window: a click there selects it, t stays; a click on the
       view's top-left corner (empty space) clears */
    snprintf(script, sizeof script,
             "frames 2\ndown left %.2f %.2f\nup left %.2f %.2f\nprint\n"
             "down left 2 2\nup left 2 2\nprint\nquit\n",
             ax, ay, ax, ay);
    out = run("pick.script", script);
    if (state_texts(out, lines, STATES_MAX) != 3)
        fail_msg("expected 2 prints and --print-state:\n%s", out);
    free(out);
    expect_key(lines[0], "selected", text);
    expect_key(lines[0], "selected_rank", "3");
    assert_same_double(parse_state(lines[0]).t, T_SHOWN);
    expect_key(lines[1], "selected", "-");
    assert_same_double(parse_state(lines[1]).t, T_SHOWN);
}

int main(void)
{
    struct CMUnitTest tests[] = {
        cmocka_unit_test(test_click_selects_and_walks),
        cmocka_unit_test(test_critical_path_and_area),
        cmocka_unit_test(test_click_in_3d_selects),
    };
    return x_run_main("ppflow_test_inspect_window", tests, sizeof tests / sizeof tests[0]);
}
