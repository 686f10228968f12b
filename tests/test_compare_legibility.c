/* test_compare_legibility.c - a comparison read from the back row: at
 * 1920x1080, with 2, 3 and 4 panes (render/compare_view.h drawing each
 * pane's whole frame and the strip), every string drawn has capitals at
 * least 22 px tall (1/50 of the height) and no two strings overlap, the
 * strip's lines included. The panes' views are the live window's
 * (viewer_compare.h: each pane's text as large as a whole window's frame,
 * capitals of 1/50 of the window's height, the legend once, in the first
 * pane), at a few moments each, with each pane's beat caption (and once
 * with F3's frame-rate readout, which the legend keeps clear of). Measured
 * from every text_draw call (text_font.stats) of every pane's font and
 * the strip's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comparison.h"
#include "offscreen.h"
#include "support/check.h"
#include "support/frame_fixture.h"

enum { MAX_RECTS = 8192, W = 1920, H = 1080 };

static text_rect rects[MAX_RECTS];
static char texts[MAX_RECTS][TEXT_STATS_TEXT_MAX];

/* The window's rule for a pane's text (viewer_compare.h), written out
 * again: the frame's capitals for the window's height over the pane's. */
static float pane_factor(int pane_h)
{
    if (pane_h <= 0 || H <= pane_h)
        return 1.0f;
    const float want = fmaxf(ceilf(H / 50.0f), FRAME_MIN_CAP_PX);
    return want / fmaxf(ceilf(pane_h / 50.0f), FRAME_MIN_CAP_PX);
}

static void check_panes(int count)
{
    static const char *const lists[] = {"1f1b,zb-h1", "1f1b,zb-h1,gpipe",
                                        "1f1b,zb-h1,gpipe,interleaved-1f1b"};
    comparison cmp;
    ppf_error err = {{0}};
    if (!comparison_build(&cmp, &(comparison_desc){.list = lists[count - 2], .with_scene = true},
                          &err))
        fail_msg("%s", err.message);
    offscreen o;
    if (!offscreen_init_compare(&o, (const session *const *)cmp.sides, cmp.count, W, H, &err))
        fail_msg("%s", err.message);
    text_stats stats = {.rects = rects, .rect_capacity = MAX_RECTS, .texts = texts};
    o.compare->font.stats = &stats;
    o.frame.font.stats = &stats; /* every pane's */
    const timeline *tls[COMPARE_MAX_SIDES];
    comparison_timelines(&cmp, tls);
    const double longest = compare_longest_makespan(tls, count);
    const char *strip[COMPARE_MAX_SIDES];
    for (int k = 0; k < count; k++)
        strip[k] = cmp.result.line[k];
    for (int m = 0; m < 3; m++) {
        const double t = longest * (0.15 + 0.35 * m);
        compare_frame v =
            offscreen_default_compare(&o, t, THEME_DARK, CAMERA_PRESET_DEFAULT, 1, strip);
        const compare_layout l = compare_layout_compute(W, H, count, v.arrange, 1);
        for (int k = 0; k < count; k++) {
            frame_view *p = &v.pane[k];
            p->ui_scale = pane_factor(l.pane[k].h);
            p->cam = session_camera(cmp.sides[k], CAMERA_PRESET_DEFAULT, l.pane[k].w, l.pane[k].h,
                                    0, p->ui_scale);
            p->show_legend = k == 0;
            /* F3's readout, under the first pane's HUD, at one moment */
            p->frame_times = k == 0 && m == 1 ? "60 fps · 16.4 ms (worst 18.1)" : NULL;
            p->caption = session_beat_caption(cmp.sides[k], t);
            p->t = t > cmp.sides[k]->tl.makespan ? cmp.sides[k]->tl.makespan : t;
        }
        text_stats_reset(&stats);
        offscreen_draw_compare(&o, &v);
        char what[128];
        snprintf(what, sizeof what, "%d panes (%s) at t=%.2f", count,
                 l.arrange == COMPARE_ARRANGE_SIDE_BY_SIDE ? "side by side"
                 : l.arrange == COMPARE_ARRANGE_STACKED    ? "stacked"
                                                           : "grid",
                 t);
        const int overlaps = frame_text_overlaps(&stats, what);
        print_message("%s: %d strings, smallest capital %.1f px, %d overlaps (panes %dx%d)\n", what,
                      stats.count, stats.min_cap_px, overlaps, l.pane[0].w, l.pane[0].h);
        assert_true(stats.rect_count > 10 && stats.rect_count < MAX_RECTS);
        assert_ge(stats.min_cap_px, 22.0f);
        assert_int_equal(overlaps, 0);
        /* each pane's HUD whole: its title keeps the schedule and V, its
           bubble line the percentage, whatever they leave out to fit */
        for (int k = 0; k < count; k++) {
            char want[64];
            snprintf(want, sizeof want, "%s", cmp.sides[k]->prog.schedule);
            int titles = 0;
            for (int i = 0; i < stats.rect_count; i++) {
                const char *s = texts[i];
                const bool cut = strstr(s, "…") != NULL;
                if (strncmp(s, "bubble ", 7) == 0 && cut)
                    fail_msg("%s: a HUD's bubble line cut short: %s", what, s);
                if (strncmp(s, want, strlen(want)) == 0 && strstr(s, " V=")) {
                    titles++;
                    if (cut)
                        fail_msg("%s: pane %d's title cut short: %s", what, k, s);
                }
            }
            assert_true(titles >= 1);
        }
    }
    offscreen_deinit(&o);
    comparison_deinit(&cmp);
}

static void test_two_panes(void **state)
{
    (void)state;
    check_panes(2);
}

static void test_three_panes(void **state)
{
    (void)state;
    check_panes(3);
}

static void test_four_panes(void **state)
{
    (void)state;
    check_panes(4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_panes),
        cmocka_unit_test(test_three_panes),
        cmocka_unit_test(test_four_panes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
