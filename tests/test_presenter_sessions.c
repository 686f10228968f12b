/* Every way the shown session changes, with the presenter's window open, in
 * a real X server (Xvfb): a what-if that grows the scene (r: P + 1, m: M x
 * 2), one that changes the schedule (n), undo (ctrl+Z), a talk's slide
 * change (PgDn past the last beat), a comparison added and removed (x,
 * shift+X), a what-if while two panes are shown, and a third pane added,
 * what-ifs and their undo in it, and the panes removed again.
 *
 * A renderer kept for the session it was made for would draw the old
 * scene into arrays sized for it (a heap overflow under ASan, a crash or a
 * stale picture in release). So each run must exit 0 (the ASan build's
 * ppflow aborts on any error), say the new sizes in its state line, and
 * its presenter's "now" preview must be, pixel for pixel, the one a fresh
 * ppflow opened on the changed scenario draws: the preview shows the
 * session as it is now, not as the renderer last knew it.
 *
 * Skipped, with a message and exit status 77 (CTest: "Skipped"), when
 * xvfb-run, Xvfb or xauth are not on PATH (tools/deps.sh installs them).
 * PPFLOW_EXE is the program, PPFLOW_TALK the talk shipped in assets/. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image_png.h"
#include "presenter_view.h"
#include "support/check.h"
#include "support/x_run.h"

enum { STATES_MAX = 8 };
/* The presenter's window under Xvfb: its size before it is placed
 * (presenter.c), the audience's window the size asked with --size. */
enum { PRESENTER_W = 1280, PRESENTER_H = 720 };
#define AUDIENCE_SIZE "1280x720"

/* The value of key in the run's last state line. */
static int last_int(const char *out, const char *key)
{
    static char lines[STATES_MAX][X_RUN_LINE_MAX];
    const int n = state_texts(out, lines, STATES_MAX);
    if (n < 1)
        fail_msg("no state line in:\n%s", out);
    char v[64];
    return atoi(key_text(lines[n - 1], key, v, sizeof v));
}

static image read_shot(const char *name)
{
    char dir[512], path[700];
    x_run_dir("a", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    image img = {0};
    ppf_error err = {{0}};
    if (!image_read_png(path, &img, &err))
        fail_msg("%s: %s", name, err.message);
    return img;
}

/* Runs ppflow on a script that ends with the presenter's screenshot `shot`,
 * with --presenter and the extra arguments; returns its output (free it). */
static char *run_presenter(const char *name, const char *events, const char *shot,
                           const char *const *args)
{
    char script[2048];
    snprintf(script, sizeof script, "frames 2\n%sframes 3\nprint\npresenter-screenshot %s\nquit\n",
             events, shot);
    const char *all[16] = {"--presenter", "--size", AUDIENCE_SIZE};
    int n = 3;
    for (int k = 0; args && args[k] && n < 15; k++)
        all[n++] = args[k];
    all[n] = NULL;
    return run_script(PPFLOW_EXE, name, script, all);
}

/* The "now" previews of two presenter screenshots are the same pixels. */
static void expect_same_preview(const char *changed, const char *fresh)
{
    image a = read_shot(changed), b = read_shot(fresh);
    assert_int_equal(a.width, PRESENTER_W);
    assert_int_equal(a.height, PRESENTER_H);
    assert_int_equal(b.width, a.width);
    assert_int_equal(b.height, a.height);
    const presenter_layout l = presenter_layout_compute(a.width, a.height, 16.0f / 9, 1);
    long differ = 0, lit = 0;
    for (int y = l.now.y; y < l.now.y + l.now.h; y++)
        for (int x = l.now.x; x < l.now.x + l.now.w; x++) {
            const uint8_t *p = a.rgba + ((size_t)y * (size_t)a.width + (size_t)x) * 4;
            const uint8_t *q = b.rgba + ((size_t)y * (size_t)b.width + (size_t)x) * 4;
            differ += memcmp(p, q, 3) != 0;
            lit += p[0] + p[1] + p[2] > 3 * 60; /* bars, boxes, labels: not the background */
        }
    print_message("%s against %s: %ld of %d preview pixels differ, %ld lit\n", changed, fresh,
                  differ, l.now.w * l.now.h, lit);
    if (lit < 200)
        fail_msg("%s: the now preview is empty (%ld lit pixels)", changed, lit);
    if (differ)
        fail_msg("%s: %ld pixels of the now preview differ from %s, a fresh ppflow's", changed,
                 differ, fresh);
    image_deinit(&a);
    image_deinit(&b);
}

/* events, then the presenter's screenshot, against a fresh run with args. */
static void check_change(const char *name, const char *events, const char *key, int want,
                         const char *const *fresh_args)
{
    char shot[128], fresh_shot[128], script[128];
    snprintf(shot, sizeof shot, "%s.png", name);
    snprintf(fresh_shot, sizeof fresh_shot, "%s-fresh.png", name);
    snprintf(script, sizeof script, "%s.script", name);
    char *out = run_presenter(script, events, shot, NULL);
    if (key)
        assert_int_equal(last_int(out, key), want);
    free(out);
    snprintf(script, sizeof script, "%s-fresh.script", name);
    out = run_presenter(script, "", fresh_shot, fresh_args);
    if (key)
        assert_int_equal(last_int(out, key), want);
    free(out);
    expect_same_preview(shot, fresh_shot);
}

static void test_whatif_grows_the_scene(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_presenter_sessions");
    check_change("stages", "key r\nframes 3\n", "stages", 5, X_RUN_ARGS("--stages", "5"));
    check_change("microbatches", "key m\nframes 3\n", "microbatches", 16,
                 X_RUN_ARGS("--microbatches", "16"));
}

static void test_whatif_schedule_and_undo(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_presenter_sessions");
    /* the next schedule at the same P and M: the scene keeps its sizes and
     * address, only its build differs */
    check_change("schedule", "key n\nframes 3\n", NULL, 0,
                 X_RUN_ARGS("--schedule", "interleaved-1f1b"));
    check_change("undo", "key r\nframes 3\nkey r\nframes 3\nkey z ctrl\nframes 3\n", "stages", 5,
                 X_RUN_ARGS("--stages", "5"));
}

static void test_comparison_then_whatif(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_presenter_sessions");
    /* two panes, a what-if of the first, back to one: the presenter shows
     * the rebuilt session throughout */
    check_change("compare", "key x\nframes 3\nkey r\nframes 3\nkey x shift\nframes 3\n", "stages",
                 5, X_RUN_ARGS("--stages", "5"));
    check_change("compare-after", "key x\nframes 3\nkey x shift\nframes 3\nkey r\nframes 3\n",
                 "stages", 5, X_RUN_ARGS("--stages", "5"));
    /* a third pane added, two what-ifs and an undo (the kept session swapped
     * back into the first pane), the third pane removed, then one frame */
    check_change("compare-three",
                 "key x\nframes 3\nkey x\nframes 3\nkey r\nframes 3\nkey r\nframes 3\n"
                 "key z ctrl\nframes 3\nkey x shift\nframes 3\nkey x shift\nframes 3\n",
                 "stages", 5, X_RUN_ARGS("--stages", "5"));
}

static void test_slide_change(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_presenter_sessions");
    /* the last beat of slide 1, then Next: slide 2's first beat */
    char *out = run_presenter("slide.script", "key end\nframes 3\nkey pagedown\nframes 3\n",
                              "slide.png", X_RUN_ARGS(PPFLOW_TALK, "--present"));
    assert_int_equal(last_int(out, "slide"), 2);
    free(out);
    out = run_presenter("slide-fresh.script", "", "slide-fresh.png",
                        X_RUN_ARGS(PPFLOW_TALK, "--present", "--slide", "2"));
    assert_int_equal(last_int(out, "slide"), 2);
    free(out);
    expect_same_preview("slide.png", "slide-fresh.png");
}

int main(void)
{
    struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whatif_grows_the_scene),
        cmocka_unit_test(test_whatif_schedule_and_undo),
        cmocka_unit_test(test_comparison_then_whatif),
        cmocka_unit_test(test_slide_change),
    };
    return x_run_main("ppflow_test_presenter_sessions", tests, sizeof tests / sizeof tests[0]);
}
