/* Tests of a comparison (core/timeline/compare.h, app/comparison.h, render/compare_view.h
 * through `ppflow schedule --compare` and `ppflow render --compare`): the
 * strip's numbers are those `ppflow schedule --format json` prints for each
 * side, the difference lines of a hand-worked case, one-line errors naming
 * the side, a still whose panes share one clock and one time scale, and
 * stills whose gaps between panes are rules of the grid's colour. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "compare_view.h"
#include "comparison.h"
#include "image_png.h"
#include "number_text.h"
#include "support/ppflow_run.h"
#include "theme.h"

static char scratch[256];

#define RUN(...) PPFLOW_RUN(scratch, __VA_ARGS__)

static int setup(void **state)
{
    return scratch_setup(state, scratch, sizeof scratch, "ppflow_test_compare");
}

static cJSON *parse_ok(const child_result *r)
{
    if (r->status != 0)
        fail_msg("status %d, stderr: %s", r->status, r->err);
    cJSON *j = cJSON_Parse(r->out);
    assert_non_null(j);
    return j;
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    assert_true(cJSON_IsNumber(v));
    return v->valuedouble;
}

static int json_peak_max(const cJSON *o)
{
    int peak = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(o, "per_rank"))
    {
        const int p = (int)num(r, "peak_activations");
        peak = p > peak ? p : peak;
    }
    return peak;
}

/* Each side of `--compare list` (with the flags) against its own
 * `ppflow schedule --schedule NAME --format json`, and the strip's numbers
 * and differences against those JSON numbers. */
static void check_sides_against_json(const char *list, const char *const *names, int n,
                                     const session_flag *flags, int flag_count)
{
    comparison c;
    ppf_error err = {{0}};
    if (!comparison_build(
            &c, &(comparison_desc){.list = list, .flags = flags, .flag_count = flag_count}, &err))
        fail_msg("%s", err.message);
    assert_int_equal(c.count, n);

    const char *args[16] = {"schedule", "--compare", list, "--format", "json"};
    int a = 5;
    for (int k = 0; k < flag_count; k++) {
        static char flag[8][64];
        snprintf(flag[k], sizeof flag[k], "--%s", flags[k].field);
        args[a++] = flag[k];
        args[a++] = flags[k].value;
    }
    child_result rc =
        child_run(&(child_desc){.exe = PPFLOW_EXE, .args = args, .capture_dir = scratch});
    cJSON *array = parse_ok(&rc);
    assert_true(cJSON_IsArray(array));
    assert_int_equal(cJSON_GetArraySize(array), n);

    const cJSON *first = cJSON_GetArrayItem(array, 0);
    for (int k = 0; k < n; k++) {
        /* the same side alone */
        const char *one[16] = {"schedule", "--schedule", names[k], "--format", "json"};
        for (int j = 5; j < a; j++)
            one[j] = args[j];
        child_result r1 =
            child_run(&(child_desc){.exe = PPFLOW_EXE, .args = one, .capture_dir = scratch});
        cJSON *alone = parse_ok(&r1);
        const cJSON *side = cJSON_GetArrayItem(array, k);
        /* the array's object is the single schedule's JSON, key for key */
        char *x = cJSON_PrintUnformatted(side), *y = cJSON_PrintUnformatted(alone);
        assert_string_equal(x, y);
        free(x);
        free(y);

        /* the strip's numbers are the JSON's */
        const compare_metrics *m = &c.result.side[k];
        assert_lt(fabs(m->makespan - num(side, "makespan")), 1e-6);
        assert_lt(fabs(m->bubble_fraction - num(side, "bubble_fraction")), 1e-6);
        assert_lt(fabs(m->allreduce_exposed - num(side, "allreduce_exposed")), 1e-6);
        assert_int_equal(m->peak_max, json_peak_max(side));

        /* and so are the words */
        char want[128];
        if (k == 0) {
            snprintf(want, sizeof want, "%s: makespan %s, bubble %.1f%%, peak activations %d",
                     names[0], number_text_of(num(side, "makespan")).s,
                     100 * num(side, "bubble_fraction"), json_peak_max(side));
            assert_non_null(strstr(c.result.line[0], want));
        } else {
            const double rel = num(side, "makespan") / num(first, "makespan") - 1;
            if (fabs(rel) >= 0.0005)
                snprintf(want, sizeof want, "%s: makespan %s%.1f%%", names[k],
                         rel < 0 ? "\xe2\x88\x92" : "+", fabs(rel) * 100);
            else
                snprintf(want, sizeof want, "%s: makespan equal", names[k]);
            if (!strstr(c.result.line[k], want))
                fail_msg("\"%s\" does not hold \"%s\"", c.result.line[k], want);
            char b0[16], b1[16];
            snprintf(b0, sizeof b0, "%.1f%%", 100 * num(first, "bubble_fraction"));
            snprintf(b1, sizeof b1, "%.1f%%", 100 * num(side, "bubble_fraction"));
            if (strcmp(b0, b1) != 0) {
                snprintf(want, sizeof want, "bubble %s -> %s", b0, b1);
                if (!strstr(c.result.line[k], want))
                    fail_msg("\"%s\" does not hold \"%s\"", c.result.line[k], want);
            }
        }
        cJSON_Delete(alone);
        child_result_deinit(&r1);
    }
    cJSON_Delete(array);
    child_result_deinit(&rc);
    comparison_deinit(&c);
}

static void test_strip_numbers_equal_json(void **state)
{
    (void)state;
    /* the default scenario: slow transfers and an exposed all-reduce */
    static const char *const three[] = {"1f1b", "zb-h1", "interleaved-1f1b"};
    check_sides_against_json("1f1b,zb-h1,interleaved-1f1b", three, 3, NULL, 0);
    static const char *const four[] = {"gpipe", "1f1b", "zb-h1", "zbv"};
    const session_flag flags[] = {{"stages", "4"}, {"microbatches", "12"}, {"dp", "4"}};
    check_sides_against_json("gpipe,1f1b,zb-h1,zbv", four, 4, flags, 3);
}

/* Worked by hand: P=4, M=8, F=1, B=2 (I=W=1), free transfers. 1F1B and
 * GPipe take (M+P-1)(F+B) = 33 with bubble 3/11 = 27.3%; ZB-H1 takes
 * M(F+I+W) + (P-1)(F+I-W) = 24 + 3 = 27, -18.2%, its idle 4 x 27 - 4 x 24
 * = 12 of 108 = 11.1%. Live activations: 1F1B P-rank (4, 3, 2, 1), ZB-H1
 * 4 on every rank (a W keeps its activations), GPipe M = 8. */
static void test_difference_strings(void **state)
{
    (void)state;
    const session_flag flags[] = {{"p2p", "0"}, {"allreduce", "none"}};
    comparison c;
    ppf_error err = {{0}};
    assert_true(comparison_build(
        &c, &(comparison_desc){.list = "1f1b,zb-h1,gpipe", .flags = flags, .flag_count = 2}, &err));
    assert_string_equal(c.result.line[0], "1f1b: makespan 33, bubble 27.3%, peak activations 4, "
                                          "exposed all-reduce 0");
    assert_string_equal(c.result.line[1],
                        "zb-h1: makespan \xe2\x88\x92"
                        "18.2%, bubble 27.3% -> 11.1%, peak activations 4 -> 4, per rank "
                        "differs, exposed all-reduce equal");
    assert_string_equal(c.result.line[2], "gpipe: makespan equal, bubble equal, peak activations "
                                          "4 -> 8, exposed all-reduce equal");
    comparison_deinit(&c);

    /* the same schedule twice: everything equal */
    assert_true(comparison_build(
        &c, &(comparison_desc){.list = "1f1b,1f1b", .flags = flags, .flag_count = 2}, &err));
    assert_string_equal(c.result.diff[1], "makespan equal, bubble equal, peak activations equal, "
                                          "exposed all-reduce equal");
    comparison_deinit(&c);
}

/* Exit 2, nothing on stdout, one line naming `names`. */
static void expect_bad(child_result r, const char *names)
{
    child_expect_status(&r, 2);
    child_expect_one_line(&r, "ppflow: ", names);
    assert_int_equal(r.out_len, 0);
    child_result_deinit(&r);
}

static void test_bad_sides(void **state)
{
    (void)state;
    expect_bad(RUN("schedule", "--compare", "1f1b,zb-h2"), "side 2 (\"zb-h2\")");
    expect_bad(RUN("schedule", "--compare", "1f1b"), "--compare");
    expect_bad(RUN("schedule", "--compare", "1f1b,gpipe,zb-h1,zbv,1f1b"), "at most 4");
    expect_bad(RUN("schedule", "--compare", "1f1b,,zb-h1"), "none empty");
    expect_bad(RUN("schedule", "--compare", "1f1b,zbv", "--virtual", "1"), "side 2 (\"zbv\")");
    expect_bad(RUN("schedule", "--compare", "1f1b,gpipe", "--format", "gantt"), "table or json");
    expect_bad(RUN("schedule", PPFLOW_SOURCE_DIR "/assets/1f1b.json", "nope.json"),
               "side 2 (\"nope.json\")");
    expect_bad(RUN("render", "--compare", "1f1b,gpipe", "--still", "1", "-o", "x.svg"), ".png");
    expect_bad(RUN("render", "--compare", "1f1b,gpipe", "--still", "99", "-o", "x.png"), "--still");
}

/* Scenario files as sides, named by their files. */
static void test_files_as_sides(void **state)
{
    (void)state;
    child_result r = RUN("schedule", PPFLOW_SOURCE_DIR "/assets/gpipe.json",
                         PPFLOW_SOURCE_DIR "/assets/zb-h1.json");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "against gpipe:"));
    assert_non_null(strstr(r.out, "  zb-h1: makespan "));
    child_result_deinit(&r);
}

/* The x of the cursor's column in the row band at y: the middle of the
 * run of pixels of the cursor's colour within [x0, x1). */
static double cursor_x(const image *img, int x0, int x1, int y, rgba8 cursor)
{
    int first = -1, last = -1;
    for (int x = x0; x < x1; x++) {
        const uint8_t *p = img->rgba + ((size_t)y * (size_t)img->width + (size_t)x) * 4;
        if (abs(p[0] - cursor.r) < 8 && abs(p[1] - cursor.g) < 8 && abs(p[2] - cursor.b) < 8) {
            first = first < 0 ? x : first;
            last = x;
        }
    }
    if (first < 0)
        fail_msg("no cursor in row %d from x %d to %d", y, x0, x1);
    return (first + last + 1) / 2.0;
}

static bool near(const uint8_t *p, rgba8 c)
{
    return abs(p[0] - c.r) < 6 && abs(p[1] - c.g) < 6 && abs(p[2] - c.b) < 6;
}

/* The PNG a `ppflow render --still` run r wrote to path, width pixels wide. */
static image still_read(child_result r, const char *path, int width)
{
    if (r.status != 0)
        fail_msg("status %d: %s", r.status, r.err);
    child_result_deinit(&r);
    image img = {0};
    ppf_error err = {{0}};
    assert_true(image_read_png(path, &img, &err));
    assert_int_equal(img.width, width);
    return img;
}

/* Where row y's bars (and idle time) end: from the plot's right edge
 * leftwards, the first run of 4 pixels that are not the panel's background
 * (tick lines across the rows are thinner). */
static int row_end_x(const image *img, int x0, int x1, int y, const timeline_palette *pal)
{
    int run = 0;
    for (int x = x1 - 1; x >= x0; x--) {
        const uint8_t *p = img->rgba + ((size_t)y * (size_t)img->width + (size_t)x) * 4;
        run = near(p, pal->background) || near(p, pal->row_alt) ? 0 : run + 1;
        if (run == 4)
            return x + 4;
    }
    return x0;
}

/* A still of two sides: both cursors at the same fraction of the shared
 * scale, and the faster schedule's row ends left of the slower one's, at
 * its makespan over the longest. GPipe 33 against ZB-H1 27 (worked above). */
static void test_still_panes_share_clock(void **state)
{
    (void)state;
    const int w = 1280, h = 720;
    const double t = 12;
    char path[512];
    snprintf(path, sizeof path, "%s/cmp.png", scratch);
    image img = still_read(RUN("render", "--compare", "gpipe,zb-h1", "--p2p", "0", "--allreduce",
                               "none", "--still", "12", "--size", "1280x720", "-o", path),
                           path, w);
    ppf_error err = {{0}};

    /* the geometry, as the still lays it out */
    const session_flag flags[] = {{"p2p", "0"}, {"allreduce", "none"}};
    comparison c;
    assert_true(comparison_build(
        &c, &(comparison_desc){.list = "gpipe,zb-h1", .flags = flags, .flag_count = 2}, &err));
    const timeline *tls[COMPARE_MAX_SIDES];
    comparison_timelines(&c, tls);
    const double longest = compare_longest_makespan(tls, 2);
    assert_true(longest == 33);
    const compare_layout l = compare_layout_compute(w, h, 2, COMPARE_ARRANGE_AUTO, 1);
    assert_int_equal(l.arrange, COMPARE_ARRANGE_SIDE_BY_SIDE);
    const timeline_palette pal = theme_get(THEME_DARK).timeline;
    double frac_cursor[2], frac_end[2];
    for (int k = 0; k < 2; k++) {
        const frame_layout fl = frame_layout_in(l.pane[k], 0, 1);
        timeline_view tv;
        compare_view_timeline(&tv, tls[k], longest);
        frame_layout_place_timeline(&fl, &tv);
        const int x0 = (int)ceilf(tv.plot_x), x1 = (int)floorf(tv.plot_x + tv.plot_w);
        /* rank 1's bars: clear of the cursor's handle at the top */
        const int y = (int)(tv.row_y + tv.row_pitch + tv.bar_h / 2);
        frac_cursor[k] = (cursor_x(&img, x0, x1, y, pal.cursor) - tv.plot_x) / tv.plot_w;
        frac_end[k] = (row_end_x(&img, x0, x1, y, &pal) - tv.plot_x) / tv.plot_w;
        /* within two pixels of where t and the makespan fall on the shared scale */
        assert_lt(fabs(frac_cursor[k] - t / longest) * tv.plot_w, 2);
        assert_lt(fabs(frac_end[k] - tls[k]->makespan / longest) * tv.plot_w, 2);
    }
    assert_lt(fabs(frac_cursor[0] - frac_cursor[1]), 0.003);
    assert_lt(frac_end[1], frac_end[0] - 0.1); /* ZB-H1 ends first */
    comparison_deinit(&c);
    image_deinit(&img);
}

/* A still of four panes in a grid and of three side by side, in both
 * themes: every pixel outside the panes and the strip is the grid's colour
 * (the rules between panes), and each pane's corner shows the background
 * (the window is cleared once for all panes, compare_view.c). */
static void test_still_gaps_are_rules(void **state)
{
    (void)state;
    static const struct {
        const char *list, *size, *theme;
        int count, w, h;
    } cases[] = {
        {"1f1b,zb-h1,gpipe,interleaved-1f1b", "1920x1080", "dark", 4, 1920, 1080},
        {"1f1b,zb-h1,gpipe", "1280x720", "light", 3, 1280, 720},
    };
    for (size_t n = 0; n < sizeof cases / sizeof cases[0]; n++) {
        char path[512];
        snprintf(path, sizeof path, "%s/gaps%zu.png", scratch, n);
        image img = still_read(RUN("render", "--compare", cases[n].list, "--still", "5", "--size",
                                   cases[n].size, "--theme", cases[n].theme, "-o", path),
                               path, cases[n].w);
        const compare_layout l =
            compare_layout_compute(cases[n].w, cases[n].h, cases[n].count, COMPARE_ARRANGE_AUTO, 1);
        const theme th = theme_get(strcmp(cases[n].theme, "light") == 0 ? THEME_LIGHT : THEME_DARK);
        long gap_pixels = 0;
        for (int y = 0; y < img.height; y++)
            for (int x = 0; x < img.width; x++) {
                bool inside =
                    x >= l.strip.x0 && x < l.strip.x1 && y >= l.strip.y0 && y < l.strip.y1;
                for (int k = 0; k < l.count && !inside; k++) {
                    const frame_viewport *p = &l.pane[k];
                    inside = x >= p->x && x < p->x + p->w && y >= p->y && y < p->y + p->h;
                }
                if (inside)
                    continue;
                const uint8_t *px = img.rgba + ((size_t)y * (size_t)img.width + (size_t)x) * 4;
                if (px[0] != th.grid.r || px[1] != th.grid.g || px[2] != th.grid.b)
                    fail_msg("%s: pixel (%d, %d) between the panes is %d,%d,%d, not the grid's "
                             "colour",
                             cases[n].list, x, y, px[0], px[1], px[2]);
                gap_pixels++;
            }
        assert_gt(gap_pixels, 0);
        for (int k = 0; k < l.count; k++) {
            const uint8_t *px =
                img.rgba +
                ((size_t)(l.pane[k].y + 1) * (size_t)img.width + (size_t)(l.pane[k].x + 1)) * 4;
            assert_true(px[0] == th.background.r && px[1] == th.background.g &&
                        px[2] == th.background.b);
        }
        image_deinit(&img);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_strip_numbers_equal_json, scratch_before_each),
        cmocka_unit_test_setup(test_difference_strings, scratch_before_each),
        cmocka_unit_test_setup(test_bad_sides, scratch_before_each),
        cmocka_unit_test_setup(test_files_as_sides, scratch_before_each),
        cmocka_unit_test_setup(test_still_panes_share_clock, scratch_before_each),
        cmocka_unit_test_setup(test_still_gaps_are_rules, scratch_before_each),
    };
    return cmocka_run_group_tests(tests, setup, scratch_teardown);
}
