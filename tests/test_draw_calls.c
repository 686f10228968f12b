/* test_draw_calls.c - whole frames draw their 2D overlay in a few draw
 * calls (draw2d batches by fill wherever no pixel is shared): the default
 * scenario, D=8 P=16 M=64 and P=64 M=512 D=8, at 1280x720, a frame playing
 * and one with the key card. Fails when a change makes the overlay one call
 * per bar again (1,879 and 61,589 calls before batching). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "offscreen.h"
#include "timeline_panel.h"
#include "support/frame_fixture.h"

enum { W = 1280, H = 720 };

static int draw_calls(const session_flag *flags, int n, double t_fraction, bool help)
{
    frame_fixture *x = frame_fixture_new(NULL, flags, n, W, H);
    frame_view v = offscreen_default_view(&x->o, x->s.tl.makespan * t_fraction, THEME_DARK,
                                          CAMERA_PRESET_DEFAULT);
    v.show_help = help;
    frame_fixture_draw(x, &v);
    const int calls = x->o.frame.batch.draw_calls;
    frame_fixture_free(x);
    return calls;
}

static void test_default_scenario(void **state)
{
    (void)state;
    const int playing = draw_calls(NULL, 0, 0.4, false);
    const int help = draw_calls(NULL, 0, 0.7, true);
    print_message("default: %d draw calls, %d with the key card\n", playing, help);
    assert_in_range(playing, 1, 60);
    assert_in_range(help, 1, 60);
}

static void test_large_scenarios(void **state)
{
    (void)state;
    const session_flag medium[] = {{"stages", "16"}, {"microbatches", "64"}, {"dp", "8"}};
    const session_flag large[] = {{"stages", "64"}, {"microbatches", "512"}, {"dp", "8"}};
    const int m = draw_calls(medium, 3, 0.3, false);
    const int l = draw_calls(large, 3, 0.15, false);
    print_message("P=16 M=64 D=8: %d draw calls; P=64 M=512 D=8: %d\n", m, l);
    assert_in_range(m, 1, 60);
    assert_in_range(l, 1, 150);
}

/* The timeline's still part is kept as pixels and drawn again while the
 * view stays: a frame drawn that way is the same bytes as one drawn from
 * scratch, at another t, with a hover, after a zoom and in another theme.
 * (One headless context at a time: the frames from scratch come first.) */
enum { STEPS = 6 };

/* Step i's view, of x's session (a view points into its session). */
static frame_view step_view(frame_fixture *x, int i)
{
    const double T = x->s.tl.makespan;
    static const double t[STEPS] = {0.3, 0.55, 0.56, 0.56, 0.3, 0.3};
    frame_view v = offscreen_default_view(&x->o, T * t[i], i == 5 ? THEME_LIGHT : THEME_DARK,
                                          CAMERA_PRESET_DEFAULT);
    if (i == 2)
        v.hover = (timeline_panel_hover){TIMELINE_HIT_ACTION, 0, 3};
    if (i >= 3) { /* zoomed in */
        timeline_panel_view_init(&v.timeline, &x->s.tl);
        v.timeline.t0 = T * 0.2, v.timeline.t1 = T * 0.45;
    }
    return v;
}

/* as_quad: the kept pixels go back by a quad, as into a window, instead of
 * by a copy into the offscreen renderbuffer */
static void check_still_part(const session_flag *flags, int n, bool as_quad)
{
    /* step 1 moves the cursor (numbers step aside from it); 2 hovers */
    const bool reused[STEPS] = {false, true, true, false, true, false};
    uint8_t *fresh[STEPS];
    for (int i = 0; i < STEPS; i++) {
        frame_fixture *x = frame_fixture_new(NULL, flags, n, W, H);
        const frame_view v = step_view(x, i);
        frame_fixture_draw(x, &v);
        assert_false(timeline_panel_reused(&x->o.cache[0].panel));
        fresh[i] = malloc((size_t)W * H * 4);
        memcpy(fresh[i], x->pixels, (size_t)W * H * 4);
        frame_fixture_free(x);
    }
    frame_fixture *x = frame_fixture_new(NULL, flags, n, W, H);
    x->o.frame.batch.put_as_quad = as_quad;
    for (int i = 0; i < STEPS; i++) {
        const frame_view v = step_view(x, i);
        frame_fixture_draw(x, &v);
        assert_int_equal(timeline_panel_reused(&x->o.cache[0].panel), reused[i]);
        size_t differ = 0;
        for (size_t b = 0; b < (size_t)W * H * 4; b++)
            differ += x->pixels[b] != fresh[i][b];
        if (differ)
            fail_msg("step %d (%s): %zu bytes differ from the frame drawn from scratch", i,
                     as_quad ? "a quad" : "a copy", differ);
        free(fresh[i]);
    }
    frame_fixture_free(x);
}

static void test_still_part_kept(void **state)
{
    (void)state;
    const session_flag large[] = {{"stages", "64"}, {"microbatches", "512"}, {"dp", "8"}};
    for (int as_quad = 0; as_quad <= 1; as_quad++) {
        check_still_part(NULL, 0, as_quad);
        check_still_part(large, 3, as_quad);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_scenario),
        cmocka_unit_test(test_large_scenarios),
        cmocka_unit_test(test_still_part_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
