/* test_draw_calls.c - whole frames draw their 2D overlay in a few draw
 * calls (draw2d batches by fill wherever no pixel is shared): the default
 * scenario, D=8 P=16 M=64 and P=64 M=512 D=8, at 1280x720, a frame playing
 * and one with the key card. Fails when a change makes the overlay one call
 * per bar again (1,879 and 61,589 calls before batching). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "offscreen.h"
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_scenario),
        cmocka_unit_test(test_large_scenarios),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
