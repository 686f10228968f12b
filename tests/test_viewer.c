/* Tests of the live viewer in a real X server (Xvfb), as a user drives it.
 *
 *   - script: `ppflow --script FILE` under `xvfb-run`: a drag in the timeline
 *     scrubs to the time under the pointer and stops playback, `h` shows the
 *     help, `t` switches to the light theme; the screenshots show the
 *     cursor at that time in the palette's colour and a lighter background.
 *   - xdotool: our own Xvfb, ppflow with no script, and real X input
 *     (XTEST) from xdotool: a drag, `p` (a numbered screenshot in the
 *     working directory) and `q`; the state printed on quit and the
 *     screenshot agree with the x where the button was released.
 *   - hostile scripts (nan, inf, huge scroll, bad frame counts, an unknown
 *     verb, a long line, a folder, a pipe, a file over 1 MiB): refused with
 *     exit status 2 and one line naming the file and line, quickly, with no
 *     display at all (so nothing can have opened); needs no X tools.
 *   - a long script: about 3000 commands before one frame (the queue holds
 *     256) are all applied, and the largest values a script may hold leave
 *     the state finite; the wheel's zoom-out stops where the scene is still
 *     seen (`scroll -60` once went to distance 89419).
 *   - the UI scale: ctrl+= twice, ctrl+-, ctrl+0 change it (state line
 *     `ui=`), it stops at its largest, ctrl+0 brings the start's back, and
 *     the HUD card in the screenshots grows with it and shrinks back.
 *   - the window resized by xdotool (1280x720 -> 700x1000 -> 1280x720): the
 *     camera is fitted again each time, and back where it started.
 *   - the window destroyed from outside (`xdotool windowclose`): ppflow
 *     ends with status 0, prints its state, and no X error.
 *   - no heap churn: 120 frames of playback at 1280x720 ask the kernel for
 *     heap (brk) a handful of times, not at every frame (llvmpipe's scene
 *     memory freed and taken back each frame cost ~110 brk calls a frame;
 *     app/main.c keeps it); counted by strace, skipped without it.
 *
 * The tests that need X are skipped, with a message and exit status 77
 * (CTest: "Skipped", not a failure), when xvfb-run, Xvfb, xauth or xdotool
 * are not on PATH
 * (tools/deps.sh installs them). Every child runs with a time limit
 * and is killed on every failure path; files go into one scratch directory
 * (the working directory of ppflow, TMPDIR for xvfb-run, XDG_CACHE_HOME for
 * Mesa's shader cache), removed at the end. PPFLOW_EXE is the program. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "frame.h"
#include "image_png.h"
#include "support/ppflow_run.h"
#include "support/x_run.h"
#include "timeline_panel.h"

enum { STATES_MAX = 8 };

/* ---- the state line ---------------------------------------------------------- */

/* The time a scrub at framebuffer x gives: the panel's x -> t mapping
 * (timeline_panel.h) with the layout the state line printed, clamped to
 * [0, makespan] like the viewer does. */
static double time_at_x(const state_line *s, double x, double makespan)
{
    double t = s->t0 + (x - s->plot_x) / s->plot_w * (s->t1 - s->t0);
    return t < 0 ? 0 : t > makespan ? makespan : t;
}

/* The state line prints the plot to 0.01 px and t to 1e-6: a time is right
 * if it is within 0.01 px of the expected one (half a pixel is 50 times that). */
static void expect_time(double t, double expected, const state_line *s, const char *what)
{
    double tol = 0.01 * (s->t1 - s->t0) / s->plot_w + 2e-6;
    if (fabs(t - expected) > tol)
        fail_msg("%s: t = %.6f, expected %.6f (+- %.6f; %.2f px off)", what, t, expected, tol,
                 (t - expected) / (s->t1 - s->t0) * s->plot_w);
}

/* ---- screenshots --------------------------------------------------------------- */

static bool near_colour(const uint8_t *px, rgba8 c, int tol)
{
    return abs(px[0] - c.r) <= tol && abs(px[1] - c.g) <= tol && abs(px[2] - c.b) <= tol;
}

/* Of nine heights across the plot (10%..90%), how many have `c` within one
 * pixel of column x. */
static int column_matches(const image *img, const state_line *s, int x, rgba8 c)
{
    int hits = 0;
    for (int k = 0; k < 9; k++) {
        int y = (int)lround(s->plot_y + s->plot_h * (0.1 + 0.1 * k));
        bool hit = false;
        for (int dx = -1; dx <= 1 && !hit; dx++) {
            int xx = x + dx;
            if (xx >= 0 && xx < img->width && y >= 0 && y < img->height)
                hit = near_colour(img->rgba + ((size_t)y * img->width + xx) * 4, c, 24);
        }
        hits += hit;
    }
    return hits;
}

/* The screenshot has the framebuffer's size and the cursor, in colour c, at
 * the column of time t: on at least `min_hits` of nine heights, and not 30
 * pixels to either side (so that the colour is the cursor's, not the plot's). */
static void expect_cursor(const char *png, const state_line *s, double t, rgba8 c, int min_hits)
{
    image img = {0};
    ppf_error err = {{0}};
    if (!image_read_png(png, &img, &err))
        fail_msg("screenshot: %s", err.message);
    if (img.width != s->fb_w || img.height != s->fb_h)
        fail_msg("%s is %dx%d, the framebuffer %dx%d", png, img.width, img.height, s->fb_w,
                 s->fb_h);
    int x = (int)lround(s->plot_x + (t - s->t0) / (s->t1 - s->t0) * s->plot_w);
    int on = column_matches(&img, s, x, c);
    int left = column_matches(&img, s, x - 30, c), right = column_matches(&img, s, x + 30, c);
    image_deinit(&img);
    if (on < min_hits || left > 2 || right > 2)
        fail_msg("%s: cursor colour #%02x%02x%02x at x = %d on %d of 9 heights (want >= %d), "
                 "at x - 30 on %d, at x + 30 on %d (want <= 2)",
                 png, c.r, c.g, c.b, x, on, min_hits, left, right);
}

/* Mean luma of a 9x9 block around (x, y). */
static double luma_at(const char *png, int x, int y)
{
    image img = {0};
    ppf_error err = {{0}};
    if (!image_read_png(png, &img, &err))
        fail_msg("screenshot: %s", err.message);
    assert_true(x >= 4 && y >= 4 && x + 4 < img.width && y + 4 < img.height);
    double sum = 0;
    for (int yy = y - 4; yy <= y + 4; yy++)
        for (int xx = x - 4; xx <= x + 4; xx++) {
            const uint8_t *p = img.rgba + ((size_t)yy * img.width + xx) * 4;
            sum += 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
        }
    image_deinit(&img);
    return sum / 81;
}

/* ---- fixtures ---------------------------------------------------------------- */

#define MAKESPAN                                                                                   \
    40.0 /* the default scenario: 1f1b P=4 M=8 D=2, p2p 0.25, all-reduce 3 (test_cli checks it) */
/* ppflow --size 1280x720 on a script under xvfb-run (x_run.h); returns its
 * standard output (free it). The exit status must be 0. */
static char *run_1280(const char *name, const char *script)
{
    return run_script(PPFLOW_EXE, name, script, X_RUN_ARGS("--size", "1280x720"));
}

/* The viewer's state line after two frames with no input: its layout. */
static state_line first_layout(void)
{
    char *out = run_1280("layout.script", "frames 2\nprint\nquit\n");
    state_line st[STATES_MAX];
    assert_int_equal(parse_states(out, st, STATES_MAX), 2);
    free(out);
    return st[0];
}

/* ---- test A: a script --------------------------------------------------------- */

static void test_script_scrub_help_theme(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_viewer");
    /* First the layout, so that the drag below lands in the plot whatever
     * the margins are. */
    const state_line l = first_layout();
    assert_string_equal(l.theme, "dark");
    assert_int_equal(l.playing, 0);
    assert_int_equal(l.help, 0);
    assert_int_equal(l.fb_w, 1280);
    assert_int_equal(l.fb_h, 720);

    /* Script coordinates are window coordinates; the plot is in framebuffer pixels. */
    double sx = (double)l.win_w / l.fb_w, sy = (double)l.win_h / l.fb_h;
    int y = (int)lround((l.plot_y + 0.55 * l.plot_h) * sy);
    int x_down = (int)lround((l.plot_x + 0.20 * l.plot_w) * sx);
    int x_last = (int)lround((l.plot_x + 0.41 * l.plot_w) * sx);
    char shot_dark[400], shot_light[400], script[2048];
    scratch_join(shot_dark, sizeof shot_dark, x_run_scratch(), "a/dark.png");
    scratch_join(shot_light, sizeof shot_light, x_run_scratch(), "a/light.png");
    snprintf(script, sizeof script,
             "# play, then drag the cursor in the timeline (scrubbing stops playback)\n"
             "frames 2\n"
             "key space\n"
             "frames 3\n"
             "print\n"
             "down left %d %d\n"
             "frames 1\n"
             "print\n"
             "move %d %d\n"
             "move %d %d\n"
             "move %d %d\n"
             "move %d %d\n"
             "frames 2\n"
             "screenshot %s\n"
             "up left %d %d\n"
             "print\n"
             "key t\n"
             "screenshot %s\n"
             "key h\n"
             "quit\n",
             x_down, y, x_down + 40, y + 2, x_down + 90, y - 3, x_last - 5, y + 1, x_last, y,
             shot_dark, x_last, y, shot_light);
    char *out = run_1280("drag.script", script);
    state_line st[STATES_MAX];
    int n = parse_states(out, st, STATES_MAX);
    if (n != 4)
        fail_msg("expected 3 print lines and the --print-state line, got %d:\n%s", n, out);
    free(out);

    /* after `key space`: playing */
    assert_int_equal(st[0].playing, 1);
    /* the press alone scrubs, and stops playback */
    expect_time(st[1].t, time_at_x(&l, x_down / sx, MAKESPAN), &l, "after the button press");
    assert_int_equal(st[1].playing, 0);
    /* the drag: t follows the last position */
    double t = time_at_x(&l, x_last / sx, MAKESPAN);
    expect_time(st[2].t, t, &l, "after the drag");
    assert_int_equal(st[2].playing, 0);
    assert_string_equal(st[2].theme, "dark");
    assert_int_equal(st[2].help, 0);
    /* the layout did not move while scrubbing */
    assert_true(st[2].t0 == l.t0 && st[2].t1 == l.t1 && st[2].plot_x == l.plot_x &&
                st[2].plot_w == l.plot_w);
    /* h and t: help shown, light theme; time untouched */
    assert_int_equal(st[3].help, 1);
    assert_string_equal(st[3].theme, "light");
    expect_time(st[3].t, t, &l, "at quit");
    assert_int_equal(st[3].playing, 0);

    /* the screenshots: the cursor where t is, in each palette's colour (the
     * light one before the help card, which at the legibility floor covers
     * the plot of a 720-line window) */
    expect_cursor(shot_dark, &st[2], st[2].t, theme_get(THEME_DARK).timeline.cursor, 7);
    expect_cursor(shot_light, &st[3], st[3].t, theme_get(THEME_LIGHT).timeline.cursor, 7);
    /* the light theme's 3D background: middle-left of the view, clear of the HUD */
    int bx = 16, by = (int)lround(l.split * l.fb_h * 0.5);
    double dark = luma_at(shot_dark, bx, by), light = luma_at(shot_light, bx, by);
    if (!(light > dark + 80))
        fail_msg("3D background luma at (%d, %d): dark theme %.1f, light theme %.1f", bx, by, dark,
                 light);
    /* xvfb-run cleaned its temporary directory up */
    char tmp[300];
    scratch_join(tmp, sizeof tmp, x_run_scratch(), "tmp");
    assert_int_equal(scratch_count(tmp, NULL), 0);
}

/* ---- test C: hostile scripts are refused before anything opens ------------------- */

#define BAD_SCRIPT_SECONDS 10.0 /* a refusal reads one small file: it must not take long */

/* Runs ppflow --script path with no display at all: a script refused before
 * the window opens says so (exit status 2, one line naming `where`, which
 * holds `why`); one checked after glfwInit would say "no display" instead. */
static void expect_refused(const char *path, const char *where, const char *why)
{
    char out[400], err[400];
    scratch_join(out, sizeof out, x_run_scratch(), "c.out");
    scratch_join(err, sizeof err, x_run_scratch(), "c.err");
    const char *argv[] = {PPFLOW_EXE, "--script", path, "--print-state", NULL};
    double start = now_seconds();
    pid_t pid = spawn_start(argv, &(spawn_desc){.out = out, .err = err, .ppflow = true});
    int code = spawn_finish(pid, BAD_SCRIPT_SECONDS, "ppflow with a bad script");
    double took = now_seconds() - start;
    char *text, *log;
    spawn_read_outputs(out, err, &text, &log);
    size_t len = strlen(log);
    bool one_line = len > 0 && log[len - 1] == '\n' && strchr(log, '\n') == log + len - 1;
    if (code != 2 || !one_line || strncmp(log, "ppflow: ", 8) != 0 || !strstr(log, where) ||
        !strstr(log, why) || text[0])
        fail_msg("%s: want exit status 2 and one line \"ppflow: %s...%s...\" on stderr, nothing "
                 "on stdout; got status %d, stderr:\n%.2000s\nstdout:\n%.500s",
                 path, where, why, code, log, text);
    print_message("refused in %.2f s: %s", took, log);
    free(text);
    free(log);
}

static void test_script_hostile_refused(void **state)
{
    (void)state;
    /* No Xvfb needed: nothing may open, so ppflow runs with no display. */
    char dir[300];
    x_run_dir("c", dir, sizeof dir);
    char long_line[700] = "key a";
    memset(long_line + 5, ' ', 600);
    long_line[605] = '\n';
    long_line[606] = '\0';
    char long_script[800];
    snprintf(long_script, sizeof long_script, "# fine\nframes 1\n%s", long_line);
    const struct {
        const char *name, *text;
        int line;
        const char *why;
    } cases[] = {
        {"nan.script", "frames 1\nmove nan 10\n", 2, "\"nan\""},
        {"inf.script", "move 10 -inf\n", 1, "\"-inf\""},
        {"overflow.script", "down left 1e999 10\n", 1, "\"1e999\""},
        {"far.script", "move 1000001 10\n", 1, "-1000000 to 1000000"},
        {"hex.script", "move 0x10 10\n", 1, "\"0x10\""},
        {"scroll.script", "# zoom a lot\nscroll 1e9\n", 2, "-100 to 100"},
        {"scroll_nan.script", "scroll nan shift\n", 1, "\"nan\""},
        {"long.script", long_script, 3, "longer than 512"},
        {"frames_junk.script", "frames 12abc\n", 1, "\"12abc\""},
        {"frames_zero.script", "frames 0\n", 1, "1 to 100000"},
        {"frames_huge.script", "frames 99999999999999999999\n", 1, "1 to 100000"},
        {"frames_sum.script", "frames 60000\nframes 60000\n", 2, "over 100000"},
        {"verb.script", "key t\njump 10 10\n", 2, "unknown verb \"jump\""},
        {"key.script", "key hyper\n", 1, "\"hyper\""},
        {"screenshot.script", "screenshot   \n", 1, "needs a PATH"},
        {"print.script", "print now\n", 1, "\"now\""},
        {"control.script", "key a\x1b[2J\n", 1, "control character 0x1b"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char path[400], where[500];
        scratch_join(path, sizeof path, dir, cases[k].name);
        scratch_write(path, cases[k].text);
        snprintf(where, sizeof where, "%s:%d: ", path, cases[k].line);
        expect_refused(path, where, cases[k].why);
    }

    /* a folder, a file that is not there, a pipe, a file over 1 MiB */
    char where[500], path[400];
    snprintf(where, sizeof where, "%s: ", dir);
    expect_refused(dir, where, "folder");
    scratch_join(path, sizeof path, dir, "missing.script");
    snprintf(where, sizeof where, "%s: ", path);
    expect_refused(path, where, "cannot read");
    scratch_join(path, sizeof path, dir, "fifo.script");
    assert_int_equal(mkfifo(path, 0644), 0); /* nothing writes to it: it must not block */
    snprintf(where, sizeof where, "%s: ", path);
    expect_refused(path, where, "not a regular file");
    scratch_join(path, sizeof path, dir, "big.script");
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    for (int k = 0; k < 150000; k++) /* 1.2 MB of valid lines */
        fputs("move 1 1\n", f);
    assert_int_equal(fclose(f), 0);
    snprintf(where, sizeof where, "%s: ", path);
    expect_refused(path, where, "1 MiB");
    /* nothing was written by any of them: only the scripts, the pipe and the big file */
    assert_int_equal(scratch_count(dir, NULL), (int)(sizeof cases / sizeof cases[0]) + 2);
}

/* ---- test D: a long script is replayed whole, extreme values included --------------- */

static void test_script_long_replayed_whole(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_viewer");
    const state_line l = first_layout();
    double sx = (double)l.win_w / l.fb_w, sy = (double)l.win_h / l.fb_h;

    /* A drag of 1000 moves (two commands each: scrub and hover) and 1001
     * `key t`, all before one frame: about 3000 commands, where the queue
     * holds 256 between two frames. Dropping any would leave t short of the
     * last x, or the theme dark. */
    enum { MOVES = 1000, TOGGLES = 1001 };
    size_t cap = 64 * (MOVES + TOGGLES) + 4096, n = 0;
    char *script = malloc(cap);
    assert_non_null(script);
    double y = (l.plot_y + 0.55 * l.plot_h) * sy, x0 = (l.plot_x + 0.10 * l.plot_w) * sx;
    double step = 0.5 * l.plot_w * sx / MOVES, x_last = x0 + MOVES * step;
#define ADD(...) (n += (size_t)snprintf(script + n, cap - n, __VA_ARGS__), assert_true(n < cap))
    ADD("frames 1\ndown left %.3f %.3f\n", x0, y);
    for (int k = 1; k <= MOVES; k++)
        ADD("move %.3f %.3f\n", x0 + k * step, y);
    ADD("up left %.3f %.3f\n", x_last, y);
    for (int k = 0; k < TOGGLES; k++)
        ADD("key t\n");
    ADD("frames 1\nprint\n");
    /* The largest values a script may hold, in the 3D view and the panel:
     * the camera and the timeline stay finite (no assert, no nan). */
    double view_x = 0.5 * l.fb_w * sx, view_y = 0.3 * l.split * l.fb_h * sy;
    ADD("down left %.1f %.1f\nmove 1000000 -1000000\nmove -1000000 1000000\nup left 0 0\n", view_x,
        view_y);
    ADD("down right %.1f %.1f\nmove 1000000 1000000\nup right 0 0\n", view_x, view_y);
    ADD("move %.1f %.1f\n", view_x, view_y);
    for (int k = 0; k < 3; k++)
        ADD("scroll 100\nscroll -100\nscroll -100\n");
    ADD("move %.1f %.3f\nscroll 100\nscroll -100\nscroll -100 shift\nscroll 100 shift\n", x0, y);
    for (int k = 0; k < 40; k++)
        ADD("key plus\n");
    for (int k = 0; k < 80; k++)
        ADD("key minus\n");
    ADD("key 0\nkey 3\nframes 2\nprint\nquit\n");
#undef ADD
    char *out = run_1280("long.script", script);
    state_line st[STATES_MAX];
    free(script);
    int got = parse_states(out, st, STATES_MAX);
    if (got != 3)
        fail_msg("expected 2 print lines and the --print-state line, got %d:\n%s", got, out);
    expect_time(st[0].t, time_at_x(&l, x_last / sx, MAKESPAN), &l, "after 1000 moves");
    assert_int_equal(st[0].playing, 0);
    assert_string_equal(st[0].theme, "light"); /* an odd number of toggles */
    if (strstr(out, "nan") || strstr(out, "inf"))
        fail_msg("a state line holds nan or inf:\n%s", out);
    free(out);
}

/* ---- the wheel's 3D zoom is bounded ------------------------------------------------ */

static void test_script_zoom_bounded(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_viewer");
    const state_line l = first_layout();
    double sx = (double)l.win_w / l.fb_w, sy = (double)l.win_h / l.fb_h;
    char script[512];
    /* the pointer in the 3D view, clear of the HUD */
    snprintf(script, sizeof script,
             "frames 1\nmove %.1f %.1f\nscroll -60\nframes 1\nprint\nscroll -60\nscroll -60\n"
             "frames 1\nprint\nscroll 100\nscroll 100\nframes 1\nprint\nquit\n",
             0.5 * l.fb_w * sx, 0.4 * l.split * l.fb_h * sy);
    char *out = run_1280("zoom.script", script);
    state_line st[STATES_MAX];
    int n = parse_states(out, st, STATES_MAX);
    if (n != 4)
        fail_msg("expected 3 print lines and the --print-state line, got %d:\n%s", n, out);
    free(out);
    /* out: further than the fit, but at most CAMERA_ZOOM_OUT (4) times as far
     * as the fit to the whole view (the start fits the smaller free area) */
    for (int k = 0; k < 2; k++)
        if (!(st[k].distance > 1.5 * l.distance && st[k].distance < 4.01 * l.distance))
            fail_msg("after scroll -60: distance %.1f, the fit's %.1f", st[k].distance, l.distance);
    assert_near(st[1].distance, st[0].distance, 1e-3 * st[0].distance);
    /* in: closer, but not into the scene's middle */
    if (!(st[2].distance < 0.5 * l.distance && st[2].distance > 0.02 * l.distance))
        fail_msg("after scroll 100 twice: distance %.3f, the fit's %.1f", st[2].distance,
                 l.distance);
}

/* ---- the UI scale from the keyboard ------------------------------------------------ */

/* The HUD card's outline (the grid colour, opaque) in the top-left third of
 * a screenshot: its first row from the top, then the run of that colour
 * down its left side and along its top; false if there is none. */
static bool hud_card_size(const char *png, rgba8 grid, int *w, int *h)
{
    image img = {0};
    ppf_error err = {{0}};
    if (!image_read_png(png, &img, &err))
        fail_msg("screenshot: %s", err.message);
    const int tol = 6;
#define PX(x, y) (img.rgba + ((size_t)(y)*img.width + (x)) * 4)
    bool found = false;
    for (int y = 0; y < img.height / 3 && !found; y++)
        for (int x = 0; x < img.width / 3 && !found; x++)
            if (near_colour(PX(x, y), grid, tol)) {
                int yy = y, xx = x;
                while (yy < img.height && near_colour(PX(x, yy), grid, tol))
                    yy++;
                while (xx < img.width && near_colour(PX(xx, y), grid, tol))
                    xx++;
                *w = xx - x, *h = yy - y;
                found = true;
            }
#undef PX
    image_deinit(&img);
    return found;
}

static void test_script_ui_scale_keys(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_viewer");
    char shot[3][400], script[2048];
    for (int k = 0; k < 3; k++) {
        char name[32];
        snprintf(name, sizeof name, "a/ui%d.png", k);
        scratch_join(shot[k], sizeof shot[k], x_run_scratch(), name);
    }
    snprintf(script, sizeof script,
             "frames 2\nprint\nscreenshot %s\n"
             "key equal ctrl\nframes 1\nprint\n"
             "key equal ctrl\nframes 1\nprint\nscreenshot %s\n"
             "key minus ctrl\nframes 1\nprint\n"
             "key 0 ctrl\nframes 1\nprint\nscreenshot %s\n"
             "key plus ctrl\nkey plus ctrl\nkey plus ctrl\nkey plus ctrl\nkey plus ctrl\n"
             "key plus ctrl\nkey plus ctrl\nframes 1\nprint\n"
             "key 0 ctrl\nquit\n",
             shot[0], shot[1], shot[2]);
    char *out = run_1280("ui.script", script);
    state_line st[STATES_MAX];
    int n = parse_states(out, st, STATES_MAX);
    if (n != 7)
        fail_msg("expected 6 print lines and the --print-state line, got %d:\n%s", n, out);
    /* 1, 1.25, 1.5625, 1.25, back to 1, the largest after seven more steps
     * (1.25^7 = 4.8), and 1 on quit; the state line prints 3 decimals */
    const double want[7] = {1, 1.25, 1.5625, 1.25, 1, FRAME_UI_SCALE_MAX, 1};
    for (int k = 0; k < n; k++)
        if (fabs(st[k].ui - want[k]) > 0.0006)
            fail_msg("state line %d: ui = %.4f, want %.4f:\n%s", k, st[k].ui, want[k], out);
    free(out);
    /* the keys scale text, not the time or the view of the timeline's range */
    assert_true(st[1].t == st[0].t && st[4].t0 == st[0].t0 && st[4].t1 == st[0].t1);
    assert_true(st[4].plot_x == st[0].plot_x && st[4].plot_h == st[0].plot_h);

    /* the HUD card: larger text makes it taller and wider, and ctrl+0 its size of the start */
    rgba8 grid = theme_get(THEME_DARK).grid;
    int w[3], h[3];
    for (int k = 0; k < 3; k++)
        if (!hud_card_size(shot[k], grid, &w[k], &h[k]))
            fail_msg("%s: no HUD card outline (#%02x%02x%02x) in the top-left third", shot[k],
                     grid.r, grid.g, grid.b);
    print_message("HUD card: %dx%d at ui 1, %dx%d at 1.5625, %dx%d after ctrl+0\n", w[0], h[0],
                  w[1], h[1], w[2], h[2]);
    if (!(h[1] > 1.35 * h[0] && w[1] > 1.2 * w[0]))
        fail_msg("the HUD card at ui 1.5625 is %dx%d, at 1 %dx%d: want it 1.35 times as tall and "
                 "1.2 times as wide at least",
                 w[1], h[1], w[0], h[0]);
    if (abs(w[2] - w[0]) > 1 || abs(h[2] - h[0]) > 1)
        fail_msg("after ctrl+0 the HUD card is %dx%d, at the start %dx%d", w[2], h[2], w[0], h[0]);
}

/* ---- test B: real input from xdotool --------------------------------------------- */

static void test_xdotool_drag_screenshot_quit(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_viewer");
    char display[32], dir[300], out[400], err[400], shot[400];
    pid_t xvfb = start_xvfb(display, sizeof display);
    x_run_dir("b", dir, sizeof dir);
    scratch_join(out, sizeof out, x_run_scratch(), "b.out");
    scratch_join(err, sizeof err, x_run_scratch(), "b.err");
    scratch_join(shot, sizeof shot, dir, "ppflow-screenshot-001.png");
    const char *argv[] = {PPFLOW_EXE, "--size", "1280x720", "--print-state", NULL};
    pid_t ppflow = spawn_start(
        argv,
        &(spawn_desc){.cwd = dir, .out = out, .err = err, .display = display, .ppflow = true});

    /* the window, once it is mapped (no window manager: it sits at 0,0) */
    char window[32] = "";
    double end = now_seconds() + WAIT_SECONDS;
    while (!window[0]) {
        expect_alive(ppflow, err, "its window");
        if (now_seconds() > end)
            fail_msg("no visible window named ppflow after %.0f s", WAIT_SECONDS);
        char *ids = XDO(display, "search", "--onlyvisible", "--name", "^ppflow");
        sscanf(ids, "%31s", window);
        free(ids);
        if (!window[0])
            sleep_seconds(0.1);
    }

    /* A drag in the timeline: the panel is the bottom 30% of the window
     * (checked against the printed plot below). Starts from the 3D view so
     * that the first move into the panel is a real motion. */
    const int y = 612, x_down = 300, x_last = 451;
    char ys[16], xs[5][16];
    snprintf(ys, sizeof ys, "%d", y);
    const int xv[5] = {x_down, x_down + 37, x_down + 80, x_last - 4, x_last};
    for (int k = 0; k < 5; k++)
        snprintf(xs[k], sizeof xs[k], "%d", xv[k]);
    free(XDO(display, "mousemove", "--window", window, "100", "100",       /* 3D view */
             "mousemove", "--window", window, xs[0], ys, "mousedown", "1", /* press */
             "mousemove", "--window", window, xs[1], ys, "mousemove", "--window", window, xs[2], ys,
             "mousemove", "--window", window, xs[3], ys, "mousemove", "--window", window, xs[4], ys,
             "mouseup", "1"));
    /* p: a screenshot in the working directory; q only once it is there (a
     * q in the same frame as p would quit before the frame is drawn) */
    free(XDO(display, "key", "p"));
    end = now_seconds() + WAIT_SECONDS;
    while (!scratch_exists(shot)) {
        expect_alive(ppflow, err, "the screenshot");
        if (now_seconds() > end)
            fail_msg("no %s after %.0f s (did the window get the key?)", shot, WAIT_SECONDS);
        sleep_seconds(0.05);
    }
    free(XDO(display, "key", "q"));
    char *log, *text = spawn_finish_ok(ppflow, RUN_SECONDS, "ppflow after q", out, err, &log);
    if (!strstr(log, "saved ppflow-screenshot-001.png"))
        fail_msg("ppflow did not report the screenshot; stderr:\n%.3000s", log);
    free(log);
    int status = spawn_stop(xvfb, 5.0);
    if (!WIFEXITED(status) && !(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM))
        fail_msg("Xvfb ended with status %d", status);
    char lock[64];
    snprintf(lock, sizeof lock, "/tmp/.X%s-lock", display + 1);
    if (scratch_exists(lock))
        fail_msg("%s is left behind after Xvfb stopped", lock);

    state_line st[STATES_MAX];
    int n = parse_states(text, st, STATES_MAX);
    if (n != 1)
        fail_msg("expected one state line (--print-state), got %d:\n%s", n, text);
    free(text);
    const state_line s = st[0];
    /* no HiDPI scaling under Xvfb: window coordinates are framebuffer pixels */
    assert_int_equal(s.fb_w, s.win_w);
    assert_int_equal(s.fb_h, s.win_h);
    assert_int_equal(s.fb_w, 1280);
    assert_int_equal(s.fb_h, 720);
    if (y <= s.plot_y || y >= s.plot_y + s.plot_h || x_down <= s.plot_x ||
        x_last >= s.plot_x + s.plot_w)
        fail_msg("the drag (x %d..%d, y %d) is not inside the plot %.2f:%.2f:%.2f:%.2f: update "
                 "the test's coordinates",
                 x_down, x_last, y, s.plot_x, s.plot_y, s.plot_w, s.plot_h);
    expect_time(s.t, time_at_x(&s, x_last, MAKESPAN), &s, "after the xdotool drag");
    assert_int_equal(s.playing, 0);
    assert_string_equal(s.theme, "dark");
    expect_cursor(shot, &s, s.t, theme_get(THEME_DARK).timeline.cursor, 7);
    assert_int_equal(scratch_count(dir, NULL), 1); /* only the screenshot */
}

/* ---- the window resized, and destroyed, from outside -------------------------------- */

/* ppflow on a display of our own, --size 1280x720 --print-state, and its
 * window once it is mapped (its id into `window`). */
static pid_t start_viewer(const char *display, const char *out, const char *err, char *window,
                          size_t size)
{
    char dir[300];
    x_run_dir("e", dir, sizeof dir);
    const char *argv[] = {PPFLOW_EXE, "--size", "1280x720", "--print-state", NULL};
    pid_t ppflow = spawn_start(
        argv,
        &(spawn_desc){.cwd = dir, .out = out, .err = err, .display = display, .ppflow = true});
    window[0] = '\0';
    double end = now_seconds() + WAIT_SECONDS;
    while (!window[0]) {
        expect_alive(ppflow, err, "its window");
        if (now_seconds() > end)
            fail_msg("no visible window named ppflow after %.0f s", WAIT_SECONDS);
        char *ids = XDO(display, "search", "--onlyvisible", "--name", "^ppflow");
        snprintf(window, size, "%.31s", ids);
        window[strcspn(window, " \n")] = '\0';
        free(ids);
        if (!window[0])
            sleep_seconds(0.1);
    }
    return ppflow;
}

/* Sends `q` to the window and returns the state line ppflow printed. */
static state_line quit_and_state(const char *display, const char *window, pid_t ppflow,
                                 const char *out, const char *err)
{
    free(XDO(display, "mousemove", "--window", window, "100", "100"));
    free(XDO(display, "key", "q"));
    char *text = spawn_finish_ok(ppflow, RUN_SECONDS, "ppflow after q", out, err, NULL);
    state_line st[STATES_MAX];
    if (parse_states(text, st, STATES_MAX) != 1)
        fail_msg("expected one state line, got:\n%s", text);
    free(text);
    return st[0];
}

static void test_xdotool_resize_refits(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_viewer");
    const state_line start = first_layout();
    char display[32], out[400], err[400], window[32];
    pid_t xvfb = start_xvfb(display, sizeof display);
    scratch_join(out, sizeof out, x_run_scratch(), "e.out");
    scratch_join(err, sizeof err, x_run_scratch(), "e.err");

    /* tall: the camera is fitted again (test_viewer_state checks that every
     * corner of the scene is in view; here, that the window's resize reached
     * the camera at all) */
    pid_t ppflow = start_viewer(display, out, err, window, sizeof window);
    free(XDO(display, "windowsize", "--sync", window, "700", "1000"));
    state_line tall = quit_and_state(display, window, ppflow, out, err);
    assert_int_equal(tall.fb_w, 700);
    assert_int_equal(tall.fb_h, 1000);
    if (!(fabs(tall.distance - start.distance) > 0.02 * start.distance))
        fail_msg("at 700x1000 the camera is at %.2f, at 1280x720 %.2f: not fitted again",
                 tall.distance, start.distance);

    /* and back: the camera it started with, not a tiny scene */
    ppflow = start_viewer(display, out, err, window, sizeof window);
    free(XDO(display, "windowsize", "--sync", window, "700", "1000"));
    free(XDO(display, "windowsize", "--sync", window, "1280", "720"));
    state_line back = quit_and_state(display, window, ppflow, out, err);
    assert_int_equal(back.fb_w, 1280);
    assert_int_equal(back.fb_h, 720);
    if (fabs(back.distance - start.distance) > 1e-3 * start.distance)
        fail_msg("back at 1280x720 the camera is at %.4f, it started at %.4f", back.distance,
                 start.distance);
    spawn_stop(xvfb, 5.0);
}

static void test_xdotool_windowclose(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_viewer");
    char display[32], out[400], err[400], window[32];
    pid_t xvfb = start_xvfb(display, sizeof display);
    scratch_join(out, sizeof out, x_run_scratch(), "e.out");
    scratch_join(err, sizeof err, x_run_scratch(), "e.err");
    for (int run = 0; run < 2; run++) {
        pid_t ppflow = start_viewer(display, out, err, window, sizeof window);
        if (run == 1) /* playing: frames are being drawn when it goes */
            free(XDO(display, "mousemove", "--window", window, "100", "100", "key", "space"));
        free(XDO(display, "windowclose", window));
        int code = spawn_finish(ppflow, RUN_SECONDS, "ppflow after its window was destroyed");
        char *text, *log;
        spawn_read_outputs(out, err, &text, &log);
        if (code != 0 || strstr(log, "X Error") || strstr(log, "error"))
            fail_msg("run %d: the window destroyed from outside: exit status %d (want 0), "
                     "stderr:\n%.3000s",
                     run, code, log);
        state_line st[STATES_MAX];
        if (parse_states(text, st, STATES_MAX) != 1)
            fail_msg("run %d: expected the state line on quit, got:\n%s", run, text);
        free(text);
        free(log);
    }
    spawn_stop(xvfb, 5.0);
}

/* ---- heap traffic ---------------------------------------------------------------- */

static void test_no_heap_churn(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_viewer");
#ifdef __SANITIZE_ADDRESS__
    /* ASan's allocator takes no heap from brk, and LeakSanitizer cannot run under strace */
    print_message("test_viewer: SKIPPED: heap churn is not measured in a sanitizer build\n");
    skip();
#endif
    if (!spawn_on_path("strace"))
        skip_for_missing_tool("test_viewer: heap churn: strace is not on PATH (tools/deps.sh "
                              "installs it)");
    char dir[300], script[400], counts[400], out[400], err[400];
    x_run_dir("h", dir, sizeof dir);
    scratch_join(script, sizeof script, dir, "play.script");
    scratch_join(counts, sizeof counts, dir, "brk.txt");
    scratch_join(out, sizeof out, x_run_scratch(), "h.out");
    scratch_join(err, sizeof err, x_run_scratch(), "h.err");
    enum { FRAMES = 120 };
    char text[64];
    snprintf(text, sizeof text, "key space\nframes %d\nquit\n", FRAMES);
    scratch_write(script, text);
    const char *argv[] = {"xvfb-run", "-a",   "-s",        SCREEN_ARGS, "strace", "-f",
                          "-c",       "-e",   "trace=brk", "-o",        counts,   PPFLOW_EXE,
                          "--script", script, "--size",    "1280x720",  NULL};
    pid_t pid = spawn_start(
        argv, &(spawn_desc){.cwd = dir, .out = out, .err = err, .ppflow = true, .group = true});
    free(spawn_finish_ok(pid, RUN_SECONDS, "ppflow under strace", out, err, NULL));
    char *summary = child_read_file(counts, NULL);
    assert_non_null(summary);
    long calls = 0; /* strace -c: "... calls errors brk", or no row when there were none */
    for (const char *p = summary; *p;) {
        size_t len = strcspn(p, "\n");
        double pct, secs;
        long usecs, n;
        if (sscanf(p, "%lf %lf %ld %ld", &pct, &secs, &usecs, &n) == 4 && strstr(p, "brk") &&
            (size_t)(strstr(p, "brk") - p) < len)
            calls = n;
        p += len + (p[len] == '\n');
    }
    free(summary);
    print_message("heap: %ld brk calls over %d frames of playback\n", calls, FRAMES);
    if (calls > 64)
        fail_msg("%ld brk calls over %d frames: the heap goes back to the kernel and is taken "
                 "again as frames are drawn (app/main.c keeps it)",
                 calls, FRAMES);
}

/* ---- runner ------------------------------------------------------------------ */

int main(void)
{
    struct CMUnitTest tests[] = {
        cmocka_unit_test(test_script_scrub_help_theme),
        cmocka_unit_test(test_script_hostile_refused),
        cmocka_unit_test(test_script_long_replayed_whole),
        cmocka_unit_test(test_xdotool_drag_screenshot_quit),
        cmocka_unit_test(test_script_zoom_bounded),
        cmocka_unit_test(test_script_ui_scale_keys),
        cmocka_unit_test(test_xdotool_resize_refits),
        cmocka_unit_test(test_xdotool_windowclose),
        cmocka_unit_test(test_no_heap_churn),
    };
    return x_run_main("ppflow_test_viewer", tests, sizeof tests / sizeof tests[0]);
}
