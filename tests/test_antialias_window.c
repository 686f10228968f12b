/* Anti-aliasing in the live window (GLFW under Xvfb, GLX on llvmpipe): the
 * window draws into its own framebuffer, where the smoothed view goes back
 * as quads (scene_aa.h) rather than by a copy. A screenshot of the default
 * window against one with --aa off, the same frame paused at t = 12:
 * pixels of the 3D view differ (its edges were smoothed), and nothing
 * outside it does (the timeline panel, its kept pixels, the HUD: the 2D
 * overlay is drawn over the smoothed view, not through the filter). The
 * same frame drawn twice gives the same screenshot.
 *
 * Skipped (exit status 77) without xvfb-run, Xvfb, xauth or xdotool.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "image_png.h"
#include "support/check.h"
#include "support/scratch.h"
#include "support/x_run.h"

static image shot(const char *name, const char *aa, state_line *st)
{
    char path[400], script[600];
    scratch_join(path, sizeof path, x_run_scratch(), name);
    snprintf(script, sizeof script, "frames 3\nprint\nscreenshot %s\nquit\n", path);
    char script_name[64];
    snprintf(script_name, sizeof script_name, "%s.script", name + 2);
    char *out = run_script(PPFLOW_EXE, script_name, script,
                           X_RUN_ARGS("--size", "1280x720", "--time", "12", "--aa", aa));
    state_line states[4];
    const int n = parse_states(out, states, 4);
    free(out);
    assert_true(n >= 1);
    *st = states[n - 1];
    image img = {0};
    ppf_error err = {{0}};
    if (!image_read_png(path, &img, &err))
        fail_msg("screenshot: %s", err.message);
    return img;
}

static void test_window_view_smoothed(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_antialias_window");
    state_line st;
    image off = shot("a/off.png", "off", &st);
    image on = shot("a/on.png", "auto", &st);
    image again = shot("a/again.png", "auto", &st);
    assert_int_equal(on.width, off.width);
    assert_int_equal(on.height, off.height);
    assert_int_equal(on.width, st.fb_w);
    if (memcmp(on.rgba, again.rgba, (size_t)on.width * on.height * 4) != 0)
        fail_msg("the same frame drawn twice gives two screenshots");
    const frame_layout l = frame_layout_compute(st.fb_w, st.fb_h, (float)st.split, (float)st.ui);
    long inside = 0, outside = 0;
    for (int y = 0; y < on.height; y++)
        for (int x = 0; x < on.width; x++) {
            const size_t k = ((size_t)y * (size_t)on.width + (size_t)x) * 4;
            if (!memcmp(on.rgba + k, off.rgba + k, 3))
                continue;
            if (x >= (int)l.view_x && x < (int)(l.view_x + l.view_w) && y >= (int)l.view_y &&
                y < (int)(l.view_y + l.view_h))
                inside++;
            else
                outside++;
        }
    print_message("window %dx%d: %ld pixels of the 3D view smoothed, %ld changed outside it\n",
                  on.width, on.height, inside, outside);
    assert_true(inside > 100);
    assert_int_equal(outside, 0);
    image_deinit(&off);
    image_deinit(&on);
    image_deinit(&again);
}

int main(void)
{
    struct CMUnitTest tests[] = {
        cmocka_unit_test(test_window_view_smoothed),
    };
    return x_run_main("ppflow_test_antialias_window", tests, sizeof tests / sizeof tests[0]);
}
