/* Tests of the frame-rate readout (F3) and a script's `frametimes` in the
 * live window, in a real X server (Xvfb), paused so that only the readout
 * changes the picture:
 *
 *   - F3 puts a card with the readout's text under the HUD: the screenshot
 *     differs from the one before the key under the HUD, and hardly
 *     anywhere else; the state line says frame_times=1. A second F3 takes it
 *     away: the picture is the one before the first press again, and
 *     frame_times=0.
 *   - `frametimes 20` after 30 frames prints the last 20 frames' times:
 *     20 frames, a median and a worst time over 0 and under 10 s, fps over
 *     0. No timing bar: the machine's speed is not this test's business.
 *
 * Skipped, with a message and exit status 77 (CTest: "Skipped"), when
 * xvfb-run, Xvfb or xauth are not on PATH (tools/deps.sh installs them).
 * PPFLOW_EXE is the program. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image_png.h"
#include "support/check.h"
#include "support/scratch.h"
#include "support/x_run.h"

enum { W = 1280, H = 720 };

static image read_png(const char *path)
{
    image img = {0};
    ppf_error err = {{0}};
    if (!image_read_png(path, &img, &err))
        fail_msg("screenshot: %s", err.message);
    if (img.width != W || img.height != H)
        fail_msg("%s is %dx%d, want %dx%d", path, img.width, img.height, W, H);
    return img;
}

/* Pixels that differ by more than 48 in a channel, inside the rectangle
 * [x0, x1) x [y0, y1) and outside it. */
static void count_changed(const image *a, const image *b, int x0, int y0, int x1, int y1,
                          int *inside, int *outside)
{
    *inside = *outside = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const uint8_t *p = a->rgba + ((size_t)y * W + x) * 4;
            const uint8_t *q = b->rgba + ((size_t)y * W + x) * 4;
            const bool changed =
                abs(p[0] - q[0]) > 48 || abs(p[1] - q[1]) > 48 || abs(p[2] - q[2]) > 48;
            if (changed && x >= x0 && x < x1 && y >= y0 && y < y1)
                (*inside)++;
            else if (changed)
                (*outside)++;
        }
}

/* The value of `key` in the n-th line of out that starts with `prefix`. */
static void nth_value(const char *out, const char *prefix, int n, const char *key, char *value,
                      size_t size)
{
    const char *p = out;
    for (int k = 0; p; k++) {
        const char *line = strncmp(p, prefix, strlen(prefix)) == 0 ? p : NULL;
        if (line && n-- == 0) {
            char one[X_RUN_LINE_MAX];
            size_t len = strcspn(line, "\n");
            snprintf(one, sizeof one, "%.*s", (int)len, line);
            if (!key_text(one, key, value, size))
                fail_msg("no %s= in: %s", key, one);
            return;
        }
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    fail_msg("no line %d starting \"%s\" in:\n%s", n, prefix, out);
}

static void test_readout_toggles(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_frame_times_window");
    char shot[3][400], script[2048];
    for (int k = 0; k < 3; k++) {
        char name[32];
        snprintf(name, sizeof name, "a/fps%d.png", k);
        scratch_join(shot[k], sizeof shot[k], x_run_scratch(), name);
    }
    snprintf(script, sizeof script,
             "frames 2\nscreenshot %s\n"
             "key f3\nframes 30\nscreenshot %s\nprint\nframetimes 20\n"
             "key f3\nframes 1\nscreenshot %s\nprint\nquit\n",
             shot[0], shot[1], shot[2]);
    char *out = run_script(PPFLOW_EXE, "fps.script", script, X_RUN_ARGS("--size", "1280x720"));
    char v[64];
    nth_value(out, "t=", 0, "frame_times", v, sizeof v);
    assert_string_equal(v, "1");
    nth_value(out, "t=", 1, "frame_times", v, sizeof v);
    assert_string_equal(v, "0");
    /* the viewer's own frame times: plausible, not fast */
    nth_value(out, "frametimes ", 0, "frames", v, sizeof v);
    assert_int_equal(atoi(v), 20);
    nth_value(out, "frametimes ", 0, "median_ms", v, sizeof v);
    const double median = atof(v);
    nth_value(out, "frametimes ", 0, "worst_ms", v, sizeof v);
    const double worst = atof(v);
    nth_value(out, "frametimes ", 0, "fps", v, sizeof v);
    const double fps = atof(v);
    print_message("frametimes: median %.2f ms, worst %.2f ms, %.1f fps\n", median, worst, fps);
    if (!(median > 0 && worst >= median && worst < 1e4 && fps > 0))
        fail_msg("frametimes: median %g ms, worst %g ms, fps %g:\n%s", median, worst, fps, out);
    free(out);

    /* the readout's card under the HUD (top-left, below the HUD's three lines) */
    image off = read_png(shot[0]), on = read_png(shot[1]), back = read_png(shot[2]);
    const int x0 = 0, y0 = H / 8, x1 = W / 3, y1 = H / 3;
    int in, outside;
    count_changed(&off, &on, x0, y0, x1, y1, &in, &outside);
    print_message("F3: %d pixels changed under the HUD, %d elsewhere\n", in, outside);
    if (in < 800 || outside > in / 4)
        fail_msg("F3: %d pixels changed under the HUD (want >= 800), %d elsewhere (want <= %d)", in,
                 outside, in / 4);
    count_changed(&off, &back, 0, 0, 0, 0, &in, &outside);
    if (outside > 20)
        fail_msg("F3 again: %d pixels differ from the picture before the first F3", outside);
    image_deinit(&off);
    image_deinit(&on);
    image_deinit(&back);
}

int main(void)
{
    struct CMUnitTest tests[] = {
        cmocka_unit_test(test_readout_toggles),
    };
    return x_run_main("ppflow_test_frame_times_window", tests, sizeof tests / sizeof tests[0]);
}
