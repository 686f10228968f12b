/* Tests of the presenter's window (--presenter) and --monitor on two
 * monitors, in an X server of our own: Xorg with the dummy video driver
 * (Xvfb always gives GLFW one monitor; ../ENVIRONMENT notes say why), a
 * second monitor added with xrandr.
 *
 *   - without a display: the talk's clock starts at the first Next, ctrl+T
 *     sets it back until the next one; the presenter's page keeps the
 *     previews inside the window, beside the text, at the audience's aspect,
 *     with text a lecturer reads from a step away.
 *   - two monitors (DUMMY0 1280x720, the primary, and DUMMY1 1920x1080 to
 *     its right): `--monitor 3` is refused with exit status 2 and one line
 *     naming the two monitors; `--present --presenter` with a script that
 *     goes to the beat with the lecturer's notes and turns the laser on
 *     puts the audience fullscreen on monitor 2 (the projector) and the
 *     presenter's window fullscreen on monitor 1 (state line); both
 *     screenshots have their monitor's size; the presenter's shows its
 *     page (background, notes in the text column), the audience's frame
 *     small (the 3D view's background inside the "now" preview) and the
 *     laser dot where the audience window has it, mapped into the preview.
 *     Then `xrandr --output DUMMY1 --off` (the projector unplugged): ppflow
 *     keeps running, ctrl+Q (real X input from xdotool) quits it with
 *     status 0, and its last state line has the audience as a window on
 *     monitor 1, still presenting.
 *
 * Skipped (exit status 77, CTest's "Skipped") when Xorg, its dummy driver,
 * xrandr or xdotool is missing or Xorg does not start (tools/deps.sh
 * installs xserver-xorg-video-dummy and x11-xserver-utils). Every child
 * runs with a time limit; Xorg is stopped by its pid after each test,
 * failed or not. PPFLOW_EXE is the program. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "image_png.h"
#include "presenter_view.h"
#include "session.h"
#include "support/ppflow_run.h"
#include "support/spawn.h"
#include "theme.h"
#include "viewer_state.h"

#define RUN_SECONDS 90.0  /* the longest a ppflow run may take before it is killed */
#define TOOL_SECONDS 20.0 /* one xrandr or xdotool command */
#define WAIT_SECONDS 40.0 /* for Xorg, a window, a state line to appear */
#define SKIP_EXIT_CODE 77 /* tests/CMakeLists.txt: SKIP_RETURN_CODE */
#define DUMMY_DRIVER "/usr/lib/xorg/modules/drivers/dummy_drv.so"

static char scratch[256];
static bool skipped;

/* ---- without a display: the clock and the page's layout ---------------------- */

static void test_talk_clock_and_layout(void **state)
{
    (void)state;
    session *s = calloc(1, sizeof *s);
    ppf_error err = {{0}};
    if (!session_build(s, NULL, NULL, 0, &err) || !session_build_scene(s, &err))
        fail_msg("default session: %s", err.message);
    viewer_state v;
    viewer_state_init(&v, s, 1920, 1080);
    viewer_state_set_speed(&v, session_default_speed(s));
    viewer_state_place_timeline(&v);
    viewer_state_set_presenting(&v, true);
    assert_near(viewer_state_talk_seconds(&v, 100), -1, 0);
    viewer_state_apply(&v, &(command){CMD_PRESET, 1, 0}, 100); /* not an advance */
    assert_near(viewer_state_talk_seconds(&v, 101), -1, 0);
    viewer_state_apply(&v, &(command){CMD_BEAT_NEXT, 0, 0}, 102);
    assert_near(viewer_state_talk_seconds(&v, 107.5), 5.5, 1e-9);
    assert_int_equal(viewer_state_shown_beat(&v), 1);             /* playing to beat 2 */
    viewer_state_apply(&v, &(command){CMD_BEAT_NEXT, 0, 0}, 110); /* lands; the clock runs on */
    assert_near(viewer_state_talk_seconds(&v, 112), 10, 1e-9);
    viewer_state_apply(&v, &(command){CMD_CLOCK_RESET, 0, 0}, 120);
    assert_near(viewer_state_talk_seconds(&v, 130), -1, 0);
    viewer_state_apply(&v, &(command){CMD_ENTER, 0, 0}, 140); /* Enter is Next too */
    assert_near(viewer_state_talk_seconds(&v, 141), 1, 1e-9);
    session_deinit(s);
    free(s);

    const int sizes[][2] = {{1280, 720}, {1920, 1080}, {1024, 768}, {800, 1280}, {320, 200}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        const int w = sizes[k][0], h = sizes[k][1];
        presenter_layout l = presenter_layout_compute(w, h, 16.0f / 9, 1);
        const frame_viewport *vp[2] = {&l.now, &l.next};
        for (int j = 0; j < 2; j++) {
            if (vp[j]->w <= 0 || vp[j]->h <= 0)
                fail_msg("%dx%d: preview %d is empty", w, h, j);
            if (vp[j]->x < 0 || vp[j]->y < 0 || vp[j]->x + vp[j]->w > w || vp[j]->y + vp[j]->h > h)
                fail_msg("%dx%d: preview %d (%d,%d %dx%d) leaves the window", w, h, j, vp[j]->x,
                         vp[j]->y, vp[j]->w, vp[j]->h);
            if ((float)vp[j]->x < l.text.x1)
                fail_msg("%dx%d: preview %d starts at x=%d, in the text column (to %.0f)", w, h, j,
                         vp[j]->x, l.text.x1);
            if (vp[j]->y < l.bar_y1)
                fail_msg("%dx%d: preview %d overlaps the top bar", w, h, j);
        }
        if (l.next.y < l.now.y + l.now.h)
            fail_msg("%dx%d: the previews overlap", w, h);
        if (h >= 600) { /* a screen, not a thumbnail: the aspect kept, the text large */
            assert_near((double)l.now.w / l.now.h, 16.0 / 9, 0.02);
            if (l.body_px * 24 < h - 24 || l.clock_px <= l.body_px || l.title_px <= l.body_px)
                fail_msg("%dx%d: text sizes body %d title %d clock %d", w, h, l.body_px, l.title_px,
                         l.clock_px);
            if (l.text.x1 - l.text.x0 < 0.4f * (float)w)
                fail_msg("%dx%d: the text column is %.0f px wide", w, h, l.text.x1 - l.text.x0);
        }
    }
}

/* ---- children ---------------------------------------------------------------------- */

/* Runs a tool (xrandr, xdotool) on the display; fails the test unless it
 * exits 0. */
static void tool(const char *display, const char *const *argv)
{
    char out[400], err[400];
    scratch_join(out, sizeof out, scratch, "tool.out");
    scratch_join(err, sizeof err, scratch, "tool.err");
    pid_t pid = spawn_start(argv, &(spawn_desc){.out = out, .err = err, .display = display});
    int code = spawn_finish(pid, TOOL_SECONDS, argv[0]);
    if (code != 0) {
        char *log = child_read_file(err, NULL);
        fail_msg("%s %s exited with %d: %.1000s", argv[0], argv[1], code, log ? log : "");
    }
}
#define TOOL(display, ...) tool(display, (const char *const[]){__VA_ARGS__, NULL})

static const char xorg_conf[] =
    "Section \"ServerFlags\"\n"
    "    Option \"AutoAddDevices\" \"false\"\n"
    "    Option \"AutoEnableDevices\" \"false\"\n"
    "EndSection\n"
    "Section \"Device\"\n"
    "    Identifier \"dummy\"\n"
    "    Driver \"dummy\"\n"
    "    VideoRam 256000\n" /* the default is too small to grow the screen */
    "EndSection\n"
    "Section \"Monitor\"\n"
    "    Identifier \"monitor\"\n"
    "    HorizSync 5.0-1000.0\n"
    "    VertRefresh 5.0-200.0\n"
    "    Modeline \"1280x720\" 74.25 1280 1390 1430 1650 720 725 730 750 +hsync +vsync\n"
    "EndSection\n"
    "Section \"Screen\"\n"
    "    Identifier \"screen\"\n"
    "    Device \"dummy\"\n"
    "    Monitor \"monitor\"\n"
    "    DefaultDepth 24\n"
    "    SubSection \"Display\"\n"
    "        Depth 24\n"
    "        Modes \"1280x720\"\n"
    "    EndSubSection\n"
    "EndSection\n";

/* Starts Xorg with the dummy driver on a display it picks itself
 * (-displayfd), its config and log in the scratch directory; returns its pid, or 0 (and says why)
 * when it does not start: the test is then skipped. */
static pid_t start_xorg(char *display, size_t size)
{
    char dir[300], conf[400], err[400];
    scratch_join(dir, sizeof dir, scratch, "x");
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        fail_msg("cannot create %s: %s", dir, strerror(errno));
    scratch_join(conf, sizeof conf, dir, "xorg.conf");
    scratch_write(conf, xorg_conf);
    scratch_join(err, sizeof err, dir, "xorg.err");
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    char fd_arg[16];
    snprintf(fd_arg, sizeof fd_arg, "%d", fds[1]);
    /* relative paths: Xorg takes only those from a user who is not root */
    const char *argv[] = {"Xorg",     "-displayfd", fd_arg,      "-noreset",   "-nolisten",
                          "tcp",      "-config",    "xorg.conf", "-configdir", "xorg.conf.d",
                          "-logfile", "xorg.log",   NULL};
    pid_t pid = spawn_start(argv, &(spawn_desc){.cwd = dir, .err = err});
    close(fds[1]);
    char buf[32] = "";
    size_t n = 0;
    const double end = now_seconds() + WAIT_SECONDS;
    while (n < sizeof buf - 1 && !strchr(buf, '\n') && now_seconds() < end) {
        struct pollfd p = {.fd = fds[0], .events = POLLIN};
        if (poll(&p, 1, 100) <= 0) {
            if (child_has_exited(pid))
                break;
            continue;
        }
        ssize_t got = read(fds[0], buf + n, sizeof buf - 1 - n);
        if (got <= 0)
            break;
        n += (size_t)got;
        buf[n] = '\0';
    }
    close(fds[0]);
    int number = -1;
    if (!strchr(buf, '\n') || sscanf(buf, "%d", &number) != 1 || number < 0) {
        char *log = child_read_file(err, NULL);
        print_message("test_presenter: SKIPPED: Xorg with the dummy driver did not start; its "
                      "stderr:\n%.1500s\n",
                      log ? log : "");
        free(log);
        spawn_stop(pid, 2.0);
        return 0;
    }
    snprintf(display, size, ":%d", number);
    return pid;
}

/* ---- the state line and the screenshots ----------------------------------------------- */

/* The value of `key=` in the last state line of out, as an int (two with "%dx%d"). */
static int state_int(const char *out, const char *key, int *second)
{
    const char *line = out, *p;
    while ((p = strstr(line + 1, "\nt=")))
        line = p + 1;
    char pat[64];
    snprintf(pat, sizeof pat, " %s=", key);
    const char *v = strstr(line, pat);
    int a = 0, b = 0;
    if (!v || sscanf(v + strlen(pat), second ? "%dx%d" : "%d", &a, &b) != (second ? 2 : 1))
        fail_msg("no %s= in the state line: %.600s", key, line);
    if (second)
        *second = b;
    return a;
}

static image read_png(const char *path)
{
    image img = {0};
    ppf_error err = {{0}};
    if (!image_read_png(path, &img, &err))
        fail_msg("screenshot: %s", err.message);
    return img;
}

static const uint8_t *pixel(const image *img, int x, int y)
{
    assert_true(x >= 0 && y >= 0 && x < img->width && y < img->height);
    return img->rgba + ((size_t)y * img->width + x) * 4;
}

static bool near(const uint8_t *px, rgba8 c, int tol)
{
    return abs(px[0] - c.r) <= tol && abs(px[1] - c.g) <= tol && abs(px[2] - c.b) <= tol;
}

/* Pixels near the laser's red within r of (x, y). */
static int red_near(const image *img, int x, int y, int r)
{
    int hits = 0;
    for (int yy = y - r; yy <= y + r; yy++)
        for (int xx = x - r; xx <= x + r; xx++)
            if (xx >= 0 && yy >= 0 && xx < img->width && yy < img->height)
                hits += near(pixel(img, xx, yy), (rgba8){230, 20, 20, 255}, 40);
    return hits;
}

/* Pixels far from the background colour in a rectangle: ink. */
static int ink_in(const image *img, int x0, int y0, int x1, int y1, rgba8 background)
{
    int hits = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
            hits += !near(pixel(img, x, y), background, 60);
    return hits;
}

/* ---- two monitors ------------------------------------------------------------------------ */

static const char beats_json[] =
    "{\"beats\": [{\"after\": \"3F0\", \"title\": \"the pipe is full\",\n"
    "  \"caption\": \"Every stage now has work: the bubble ends here.\",\n"
    "  \"notes\": \"Point at the last stage: its first forward ends the warm-up.\\n"
    "Ask: how many micro-batches are in flight on stage 0 now?\"}]}\n";

/* To the beat with the notes (the third: start, the first forward at the
 * last rank, this one), the laser on at (900, 300), both windows saved. */
static const char script[] = "frames 3\n"
                             "key pagedown\n"
                             "key pagedown\n"
                             "frames 2\n"
                             "key pagedown\n"
                             "frames 2\n"
                             "key pagedown\n"
                             "key l ctrl\n"
                             "move 900 300\n"
                             "frames 3\n"
                             "screenshot audience.png\n"
                             "presenter-screenshot presenter.png\n"
                             "print\n";

static void test_two_monitors(void **state)
{
    (void)state;
    if (skipped)
        skip_for_missing_tool("test_presenter: Xorg's dummy driver, xrandr or xdotool is missing");
    char display[32];
    pid_t xorg = start_xorg(display, sizeof display);
    if (!xorg) {
        skipped = true;
        skip_for_missing_tool("test_presenter: Xorg with the dummy driver did not start");
    }
    TOOL(display, "xrandr", "--newmode", "1920x1080_60", "148.50", "1920", "2008", "2052", "2200",
         "1080", "1084", "1089", "1125", "+hsync", "+vsync");
    TOOL(display, "xrandr", "--addmode", "DUMMY1", "1920x1080_60");
    TOOL(display, "xrandr", "--output", "DUMMY1", "--mode", "1920x1080_60", "--right-of", "DUMMY0");
    /* GLFW reads the outputs the server has cached (RRGetScreenResourcesCurrent);
     * a full query makes the dummy driver's new output part of them */
    TOOL(display, "xrandr", "--query");

    char dir[300], out[400], err[400];
    scratch_join(dir, sizeof dir, scratch, "run");
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        fail_msg("cannot create %s: %s", dir, strerror(errno));
    scratch_join(out, sizeof out, scratch, "ppflow.out");
    scratch_join(err, sizeof err, scratch, "ppflow.err");
    char path[400];
    scratch_join(path, sizeof path, dir, "beats.json");
    scratch_write(path, beats_json);
    scratch_join(path, sizeof path, dir, "s.script");
    scratch_write(path, script);

    /* A monitor that is not there: one line naming those that are (also
     * the wait until ppflow sees both monitors, at most 20 tries). */
    for (int tries = 0;; tries++) {
        const char *argv[] = {PPFLOW_EXE, "--monitor", "3", "--script", "s.script", NULL};
        pid_t pid = spawn_start(
            argv,
            &(spawn_desc){.cwd = dir, .out = out, .err = err, .display = display, .ppflow = true});
        assert_int_equal(spawn_finish(pid, RUN_SECONDS, "ppflow --monitor 3"), 2);
        char *text, *log;
        spawn_read_outputs(out, err, &text, &log);
        const bool both = strstr(log, "DUMMY0") && strstr(log, "DUMMY1");
        if (child_count_lines(log) != 1 || !strstr(log, "--monitor 3") || (!both && tries >= 20))
            fail_msg("--monitor 3: expected one line naming DUMMY0 and DUMMY1, got:\n%s", log);
        free(text);
        free(log);
        if (both)
            break;
        sleep_seconds(0.25);
    }

    const char *argv[] = {PPFLOW_EXE, "--present", "--presenter",   "--beats", "beats.json",
                          "--script", "s.script",  "--print-state", NULL};
    pid_t ppflow = spawn_start(
        argv,
        &(spawn_desc){.cwd = dir, .out = out, .err = err, .display = display, .ppflow = true});
    /* the script's print: both screenshots are saved by then */
    char *text = NULL;
    const double end = now_seconds() + WAIT_SECONDS;
    for (;;) {
        free(text);
        text = child_read_file(out, NULL);
        if (text && strstr(text, "presenter_fb="))
            break;
        if (child_has_exited(ppflow) || now_seconds() > end) {
            char *log = child_read_file(err, NULL);
            fail_msg("no state line from ppflow --presenter (%s); stderr:\n%.2000s",
                     child_has_exited(ppflow) ? "it ended" : "timed out", log ? log : "");
        }
        sleep_seconds(0.1);
    }
    int h2 = 0;
    assert_int_equal(state_int(text, "presenting", NULL), 1);
    assert_int_equal(state_int(text, "beat", NULL), 3);
    assert_int_equal(state_int(text, "fullscreen", NULL), 1);
    assert_int_equal(state_int(text, "monitor", NULL), 2); /* the projector, not the primary */
    assert_int_equal(state_int(text, "presenter_monitor", NULL), 1);
    assert_int_equal(state_int(text, "fb", &h2), 1920);
    assert_int_equal(h2, 1080);
    assert_int_equal(state_int(text, "presenter_fb", &h2), 1280);
    assert_int_equal(h2, 720);
    free(text);

    /* the audience's frame: its monitor's size, the laser where the pointer is */
    scratch_join(path, sizeof path, dir, "audience.png");
    image aud = read_png(path);
    assert_int_equal(aud.width, 1920);
    assert_int_equal(aud.height, 1080);
    if (red_near(&aud, 900, 300, 6) < 20)
        fail_msg("audience: no laser dot at (900, 300)");
    /* the presenter's page */
    scratch_join(path, sizeof path, dir, "presenter.png");
    image pres = read_png(path);
    assert_int_equal(pres.width, 1280);
    assert_int_equal(pres.height, 720);
    const theme th = theme_get(THEME_DARK);
    const presenter_layout l = presenter_layout_compute(1280, 720, 1920.0f / 1080, 1);
    if (!near(pixel(&pres, 2, 719 - 2), th.panel, 8))
        fail_msg("presenter: the page's background is not the panel colour");
    /* the notes, in the text column under the title and caption */
    const int notes_y0 = (int)(l.text.y0 + 3.5f * (float)l.body_px);
    const int ink =
        ink_in(&pres, (int)l.text.x0, notes_y0, (int)l.text.x1, notes_y0 + 2 * l.body_px, th.panel);
    if (ink < 500)
        fail_msg("presenter: %d pixels of text where the notes go (want >= 500)", ink);
    /* the audience's frame small: the 3D view's background, the laser mapped */
    assert_false(near((const uint8_t[]){th.panel.r, th.panel.g, th.panel.b}, th.background, 2));
    if (!near(pixel(&pres, l.now.x + 4, l.now.y + 4), th.background, 8))
        fail_msg("presenter: no frame in the \"now\" preview");
    const int lx = l.now.x + (int)lroundf(900.0f * (float)l.now.w / 1920);
    const int ly = l.now.y + (int)lroundf(300.0f * (float)l.now.h / 1080);
    if (red_near(&pres, lx, ly, 4) < 4)
        fail_msg("presenter: no laser dot at (%d, %d), where the audience has it", lx, ly);
    if (red_near(&pres, l.next.x + l.next.w / 2, l.next.y + l.next.h / 2, l.next.h / 2) > 0)
        fail_msg("presenter: a laser dot in the next beat's preview");
    image_deinit(&aud);
    image_deinit(&pres);

    /* the projector unplugged: ppflow goes on; ctrl+Q from a real keyboard quits */
    TOOL(display, "xrandr", "--output", "DUMMY1", "--off");
    sleep_seconds(2.0);
    if (child_has_exited(ppflow)) {
        char *log = child_read_file(err, NULL);
        fail_msg("ppflow ended when a monitor went away; stderr:\n%.2000s", log ? log : "");
    }
    TOOL(display, "xdotool", "mousemove", "200", "200");
    TOOL(display, "xdotool", "key", "ctrl+q");
    char *log = NULL;
    text = spawn_finish_ok(ppflow, RUN_SECONDS, "ppflow after ctrl+Q", out, err, &log);
    assert_int_equal(state_int(text, "presenting", NULL), 1);
    assert_int_equal(state_int(text, "fullscreen", NULL), 0); /* a window again */
    assert_int_equal(state_int(text, "monitor", NULL), 1);
    assert_int_equal(state_int(text, "window", &h2), 1280); /* its size from before */
    assert_int_equal(h2, 720);
    if (strstr(log, "X error"))
        fail_msg("ppflow reported an X error:\n%s", log);
    free(text);
    free(log);
    int status = spawn_stop(xorg, 5.0);
    (void)status; /* SIGTERM: Xorg's own exit status says nothing about ppflow */
}

/* ---- fixtures ----------------------------------------------------------------------- */

static int setup(void **state)
{
    (void)state;
    const char *tools[] = {"Xorg", "xrandr", "xdotool"};
    for (size_t k = 0; k < sizeof tools / sizeof tools[0]; k++)
        if (!spawn_on_path(tools[k])) {
            print_message("test_presenter: SKIPPED: %s is not on PATH (tools/deps.sh installs "
                          "xserver-xorg-video-dummy, x11-xserver-utils and xdotool)\n",
                          tools[k]);
            skipped = true;
        }
    if (!skipped && access(DUMMY_DRIVER, R_OK) != 0) {
        print_message("test_presenter: SKIPPED: no %s (tools/deps.sh installs "
                      "xserver-xorg-video-dummy)\n",
                      DUMMY_DRIVER);
        skipped = true;
    }
    if (!scratch_init(scratch, sizeof scratch, "ppflow_test_presenter"))
        return -1;
    char path[300];
    scratch_join(path, sizeof path, scratch, "tmp");
    if (mkdir(path, 0755) != 0)
        return -1;
#ifdef PPFLOW_NO_DLCLOSE_SO
    spawn_init(scratch, PPFLOW_NO_DLCLOSE_SO);
#else
    spawn_init(scratch, NULL);
#endif
    return 0;
}

/* Also after a failed test: no Xorg or ppflow outlives it. */
static int after_each(void **state)
{
    (void)state;
    spawn_stop_all();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    spawn_stop_all();
    scratch_deinit(scratch);
    return 0;
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_talk_clock_and_layout),
        cmocka_unit_test_teardown(test_two_monitors, after_each),
    };
    int failed = cmocka_run_group_tests(tests, setup, teardown);
    return failed == 0 && skipped ? SKIP_EXIT_CODE : failed;
}
