/* Tests of presenting mode in a real window (Xvfb), driven the way a
 * lecturer's clicker drives it: scripted key presses (x_run.h), with
 * `--present --speed` on the default scenario (1F1B, P=4, M=8, D=2).
 *
 *   - PgDn from the start lands on every automatic beat in turn, paused,
 *     with t the beat's time (as `ppflow schedule --format beats` prints
 *     them); PgUp then goes back to the previous beat's end state, paused;
 *   - a held PgDn (one press, then the keyboard's repeats) advances one beat;
 *   - G 3 Enter lands on beat 3;
 *   - B blacks the screen out (the screenshot is black), and while it is
 *     black PgDn, G 5 Enter and Home change nothing; B brings the picture back;
 *   - Esc backs out of presenting mode and does not quit, nor does a second
 *     Esc in the window; ctrl+Q quits.
 *   - `--present` on a 1920x1080 screen, the window asked at 1280x720: the
 *     timeline's bars reach the plot's right end (its kept pixels are of
 *     the fullscreen size, not of the window's before it).
 * test_presenting checks the same behaviours without a window, to the last
 * bit of t; here they come through the window's keys and the script. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image_png.h"
#include "support/ppflow_run.h"
#include "support/x_run.h"

enum { BEATS_MAX_HERE = 32, STATES_MAX = 64 };
/* Timeline units a second: the whole iteration (40) in 40 ms, so a beat is
 * reached within a frame or two of the 30 the script waits. */
#define SPEED "1000"

/* The beats' times, from `ppflow schedule --format beats` (its table rows
 * start with the number and the time). */
static int beat_times(double *t, int max)
{
    child_result r = PPFLOW_RUN(x_run_scratch(), "schedule", "--format", "beats");
    child_expect_status(&r, 0);
    int n = 0;
    for (const char *p = r.out; *p;) {
        size_t len = strcspn(p, "\n");
        int number;
        double time;
        if (sscanf(p, "%d %lf", &number, &time) == 2) {
            assert_lt(n, max);
            assert_int_equal(number, n + 1);
            t[n++] = time;
        }
        p += len + (p[len] == '\n');
    }
    child_result_deinit(&r);
    return n;
}

/* A script's text, appended to. */
typedef struct script_text {
    char text[8192];
    size_t len;
} script_text;

static void add(script_text *s, const char *line)
{
    size_t n = strlen(line);
    assert_lt(s->len + n + 2, sizeof s->text);
    memcpy(s->text + s->len, line, n);
    s->len += n;
    s->text[s->len++] = '\n';
    s->text[s->len] = '\0';
}

static void expect_on_beat(const state_line *s, int beat, const double *times, const char *what)
{
    if (s->beat != beat || fabs(s->t - times[beat - 1]) > 1e-6 || s->playing != 0)
        fail_msg("%s: t = %.6f beat=%d playing=%d; want beat %d at t = %.6f, paused", what, s->t,
                 s->beat, s->playing, beat, times[beat - 1]);
}

static void test_clicker_through_the_beats(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_present_window");
    double times[BEATS_MAX_HERE];
    const int n = beat_times(times, BEATS_MAX_HERE);
    assert_ge(n, 5);
    assert_true(times[0] == 0); /* the talk starts on its first beat */

    script_text sc = {.len = 0};
    add(&sc, "frames 2");
    add(&sc, "print");
    for (int k = 1; k < n; k++) { /* PgDn to every beat */
        add(&sc, "key pagedown");
        add(&sc, "frames 30");
        add(&sc, "print");
    }
    add(&sc, "key pageup"); /* back to the end state of beat n-1 */
    add(&sc, "frames 2");
    add(&sc, "print");
    add(&sc, "key home"); /* beat 1; then a held PgDn */
    add(&sc, "key pagedown");
    for (int k = 0; k < 8; k++)
        add(&sc, "key pagedown repeat");
    add(&sc, "frames 30");
    add(&sc, "print");
    add(&sc, "key g"); /* G 3 Enter */
    add(&sc, "key 3");
    add(&sc, "key enter");
    add(&sc, "frames 2");
    add(&sc, "print");
    add(&sc, "key escape"); /* out of presenting mode, still running */
    add(&sc, "frames 2");
    add(&sc, "print");
    add(&sc, "key escape"); /* in the window: nothing to back out of, no quit */
    add(&sc, "frames 2");
    add(&sc, "print");
    add(&sc, "key q ctrl");

    char *out = run_script(PPFLOW_EXE, "clicker.script", sc.text,
                           X_RUN_ARGS("--size", "1280x720", "--present", "--speed", SPEED));
    state_line st[STATES_MAX];
    const int got = parse_states(out, st, STATES_MAX);
    /* the script's n + 5 prints, and --print-state's line on quit */
    if (got != n + 6)
        fail_msg("%d state lines, want %d:\n%s", got, n + 6, out);
    free(out);

    int i = 0;
    assert_int_equal(st[i].presenting, 1);
    expect_on_beat(&st[i++], 1, times, "at the start");
    for (int k = 2; k <= n; k++) {
        char what[64];
        snprintf(what, sizeof what, "PgDn number %d", k - 1);
        assert_int_equal(st[i].presenting, 1);
        expect_on_beat(&st[i++], k, times, what);
    }
    expect_on_beat(&st[i++], n - 1, times, "PgUp from the last beat");
    expect_on_beat(&st[i++], 2, times, "a held PgDn from beat 1");
    expect_on_beat(&st[i++], 3, times, "G 3 Enter");
    assert_int_equal(st[i].presenting, 0); /* Esc: windowed, still on beat 3 */
    expect_on_beat(&st[i++], 3, times, "after Esc");
    assert_int_equal(st[i].presenting, 0);
    expect_on_beat(&st[i++], 3, times, "after a second Esc");
    expect_on_beat(&st[i++], 3, times, "on ctrl+Q");
}

/* The share of a PNG's pixels whose every channel is at most `level`. */
static double dark_share(const char *png, int level, int *w, int *h)
{
    image img = {0};
    ppf_error err = {{0}};
    if (!image_read_png(png, &img, &err))
        fail_msg("screenshot: %s", err.message);
    size_t dark = 0, count = (size_t)img.width * img.height;
    for (size_t k = 0; k < count; k++) {
        const uint8_t *p = img.rgba + k * 4;
        dark += p[0] <= level && p[1] <= level && p[2] <= level;
    }
    *w = img.width, *h = img.height;
    image_deinit(&img);
    return (double)dark / (double)count;
}

static void test_blackout(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_present_window");
    double times[BEATS_MAX_HERE];
    const int n = beat_times(times, BEATS_MAX_HERE);
    assert_ge(n, 5);
    const char *script = "key pagedown\n"
                         "frames 30\n"
                         "screenshot picture.png\n"
                         "key b\n"
                         "frames 2\n"
                         "screenshot black.png\n"
                         "print\n"
                         "key pagedown\n" /* none of these act while it is black */
                         "key g\nkey 5\nkey enter\n"
                         "key home\n"
                         "key space\n"
                         "frames 30\n"
                         "screenshot still-black.png\n"
                         "print\n"
                         "key period\n" /* . as well as B brings the picture back */
                         "frames 2\n"
                         "screenshot back.png\n"
                         "print\n"
                         "key q ctrl\n";
    char *out = run_script(PPFLOW_EXE, "blackout.script", script,
                           X_RUN_ARGS("--size", "1280x720", "--present", "--speed", SPEED));
    state_line st[STATES_MAX];
    const int got = parse_states(out, st, STATES_MAX);
    if (got != 4)
        fail_msg("%d state lines, want 4:\n%s", got, out);
    free(out);
    assert_int_equal(st[0].blackout, 1);
    expect_on_beat(&st[0], 2, times, "blacked out on beat 2");
    assert_int_equal(st[1].blackout, 1);
    expect_on_beat(&st[1], 2, times, "PgDn, G 5 Enter, Home and Space while black");
    assert_int_equal(st[2].blackout, 0);
    expect_on_beat(&st[2], 2, times, "the picture back");

    char dir[300], path[400];
    x_run_dir("a", dir, sizeof dir);
    const char *names[] = {"picture.png", "black.png", "still-black.png", "back.png"};
    double dark[4];
    for (int k = 0; k < 4; k++) {
        int w, h;
        scratch_join(path, sizeof path, dir, names[k]);
        dark[k] = dark_share(path, 2, &w, &h);
        print_message("%s: %dx%d, %.1f%% black\n", names[k], w, h, 100 * dark[k]);
        assert_true(w >= 1280 && h >= 720); /* fullscreen on Xvfb's 1280x800 screen */
    }
    if (!(dark[1] == 1.0 && dark[2] == 1.0))
        fail_msg("blackout: %.4f%% and %.4f%% of the pixels black, want all", 100 * dark[1],
                 100 * dark[2]);
    if (!(dark[0] < 0.5 && dark[3] < 0.5))
        fail_msg("the picture: %.1f%% and %.1f%% black, want it drawn", 100 * dark[0],
                 100 * dark[3]);
}

/* Columns of the plot's last `share` (of its width) with a coloured pixel
 * (a bar: green F, vermillion B, purple all-reduce; not the grey rows,
 * hatching or text), in the screenshot at path. */
static int coloured_columns(const char *path, const state_line *st, double share, int *columns)
{
    image img = {0};
    ppf_error err = {{0}};
    if (!image_read_png(path, &img, &err))
        fail_msg("screenshot: %s", err.message);
    const int x1 = (int)(st->plot_x + st->plot_w) - 1, x0 = (int)(x1 - share * st->plot_w);
    const int y0 = (int)st->plot_y, y1 = (int)(st->plot_y + st->plot_h);
    assert_true(x0 >= 0 && x1 < img.width && y0 >= 0 && y1 <= img.height);
    int n = 0;
    for (int x = x0; x <= x1; x++) {
        bool coloured = false;
        for (int y = y0; y < y1 && !coloured; y++) {
            const uint8_t *p = img.rgba + ((size_t)y * (size_t)img.width + (size_t)x) * 4;
            const int hi = p[0] > p[1] ? (p[0] > p[2] ? p[0] : p[2]) : (p[1] > p[2] ? p[1] : p[2]);
            const int lo = p[0] < p[1] ? (p[0] < p[2] ? p[0] : p[2]) : (p[1] < p[2] ? p[1] : p[2]);
            coloured = hi - lo > 80;
        }
        n += coloured;
    }
    *columns = x1 - x0 + 1;
    image_deinit(&img);
    return n;
}

/* Presenting from start-up on a screen larger than the window asked for:
 * the window goes fullscreen before its first frame, and the timeline's
 * kept still part (its bars) must be of the screen's size, not the
 * window's: its bars reach the plot's right end, the iteration's end. */
static void test_present_from_startup_fills_the_screen(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_present_window");
    char *out = run_script_on("1920x1080", PPFLOW_EXE, "startup.script",
                              "frames 4\nscreenshot startup.png\nprint\nquit\n",
                              X_RUN_ARGS("--size", "1280x720", "--present"));
    state_line st[STATES_MAX];
    const int got = parse_states(out, st, STATES_MAX);
    if (got < 1)
        fail_msg("no state line:\n%s", out);
    free(out);
    assert_int_equal(st[0].fb_w, 1920);
    assert_int_equal(st[0].fb_h, 1080);
    char dir[300], path[400];
    x_run_dir("a", dir, sizeof dir);
    scratch_join(path, sizeof path, dir, "startup.png");
    int columns;
    const int n = coloured_columns(path, &st[0], 0.05, &columns);
    print_message("the plot's last 5%%: %d of %d columns hold a bar\n", n, columns);
    if (n < columns / 2)
        fail_msg("the timeline's bars stop short of the plot's right end (%d of its last %d "
                 "columns hold a bar): the kept still part is of another size",
                 n, columns);
}

int main(void)
{
    struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clicker_through_the_beats),
        cmocka_unit_test(test_blackout),
        cmocka_unit_test(test_present_from_startup_fills_the_screen),
    };
    return x_run_main("ppflow_test_present_window", tests, sizeof tests / sizeof tests[0]);
}
