/* Tests of a talk file in the live viewer, in a real X server (Xvfb), driven
 * by a script as a clicker drives it:
 *
 *   - assets/talk.json presenting (--present, a fast --speed): PgDn through
 *     every beat of slide 1 lands exactly on each (slide=1, beat=N, t the
 *     beat's time); the next PgDn shows slide 2's first beat (slide=2,
 *     beat=1, t its time); PgUp there goes back to slide 1's last beat, its
 *     end state; presenting mode is kept throughout.
 *   - a small talk written here: --slide 2 starts on slide 2, PgUp on its
 *     first beat goes to slide 1, Next at the last slide's last beat stays;
 *     a scenario is slide 1 of 1.
 *
 * The expected times come from the talk the program builds (app/talk.h),
 * not from numbers copied here. Skipped, with a message and exit status 77
 * (CTest: "Skipped"), when xvfb-run, Xvfb or xauth are not on PATH
 * (tools/deps.sh installs them). PPFLOW_EXE is the program. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "talk.h"
#include "support/check.h"
#include "support/scratch.h"
#include "support/child.h"
#include "support/x_run.h"

enum { STATES_MAX = 64 };
#define TALK PPFLOW_SOURCE_DIR "/assets/talk.json"

/* The state printed after each step: on this slide and beat, paused, at t
 * (the state line prints t to 1e-6). */
static void expect_on(const state_line *s, int slide, int beat, double t, const char *what)
{
    if (s->slide != slide || s->beat != beat || fabs(s->t - t) > 2e-6 || s->playing != 0 ||
        s->presenting != 1)
        fail_msg("%s: slide=%d beat=%d t=%.6f playing=%d presenting=%d; want slide=%d beat=%d "
                 "t=%.6f playing=0 presenting=1",
                 what, s->slide, s->beat, s->t, s->playing, s->presenting, slide, beat, t);
}

static talk build(const char *path)
{
    talk d;
    ppf_error err = {{0}};
    if (!talk_build(&d, &(talk_desc){.path = path}, &err))
        fail_msg("%s", err.message);
    return d;
}

/* Appends one PgDn (or PgUp) and a print: the beat is played to at the
 * fastest speed, which reaches any beat of these talks well within the
 * frames given. */
static void step(char *script, size_t size, const char *key)
{
    size_t n = strlen(script);
    snprintf(script + n, size - n, "key %s\nframes 20\nprint\n", key);
}

static void test_example_talk_next_slide(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_talk_window");
    talk d = build(TALK);
    assert_ge(d.count, 2);
    const beat_list *one = &d.slides[0]->beats, *two = &d.slides[1]->beats;
    assert_true(one->count >= 2 && one->count + 2 < STATES_MAX);
    char script[4096] = "frames 2\nprint\n";
    for (int k = 1; k < one->count; k++)
        step(script, sizeof script, "pagedown");
    strcat(script, "presenter-screenshot pres-1.png\n");
    step(script, sizeof script, "pagedown"); /* past slide 1's last beat */
    strcat(script, "presenter-screenshot pres-2.png\n");
    step(script, sizeof script, "pageup"); /* back before slide 2's first */
    strcat(script, "quit\n");
    /* The fastest speed --speed takes for slide 1: SESSION_SPEED_RANGE times
     * its default (1/1000 s a time unit). */
    char speed[32];
    snprintf(speed, sizeof speed, "%g", session_default_speed(d.slides[0]) * 999);
    char *out = run_script(
        PPFLOW_EXE, "talk.script", script,
        X_RUN_ARGS(TALK, "--present", "--presenter", "--speed", speed, "--size", "1280x720"));
    state_line st[STATES_MAX];
    const int n = parse_states(out, st, STATES_MAX);
    free(out);
    assert_int_equal(n, one->count + 3); /* each print, and --print-state on quit */
    expect_on(&st[0], 1, 1, one->beats[0].t, "the start");
    char what[64];
    for (int k = 1; k < one->count; k++) {
        snprintf(what, sizeof what, "PgDn to slide 1's beat %d", k + 1);
        expect_on(&st[k], 1, k + 1, one->beats[k].t, what);
    }
    expect_on(&st[one->count], 2, 1, two->beats[0].t, "PgDn after slide 1's last beat");
    expect_on(&st[one->count + 1], 1, one->count, one->beats[one->count - 1].t,
              "PgUp on slide 2's first beat");
    /* the presenter's window followed the slides (its previews made again
     * for the new scene): a page on each, and they differ */
    char dir[300], path[2][400];
    x_run_dir("a", dir, sizeof dir);
    size_t size[2];
    char *png[2];
    for (int k = 0; k < 2; k++) {
        scratch_join(path[k], sizeof path[k], dir, k ? "pres-2.png" : "pres-1.png");
        png[k] = child_read_file(path[k], &size[k]);
        if (!png[k])
            fail_msg("no presenter screenshot %s", path[k]);
    }
    assert_true(size[0] != size[1] || memcmp(png[0], png[1], size[0]) != 0);
    free(png[0]);
    free(png[1]);
    talk_deinit(&d);
}

static void test_small_talk_edges(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_talk_window");
    char path[512];
    scratch_put(path, sizeof path, x_run_scratch(), "small.json",
                "{\"talk\": \"Two slides\", \"base\": {\"dp\": 1},\n"
                " \"slides\": [{\"title\": \"GPipe\", \"schedule\": \"gpipe\"},\n"
                "  {\"title\": \"1F1B\", \"schedule\": \"1f1b\", \"camera\": \"top\",\n"
                "   \"auto_beats\": false, \"beats\": [{\"t\": 0, \"title\": \"start\"},\n"
                "   {\"after\": \"3B0\", \"title\": \"first backward done\"}]}]}\n");
    talk d = build(path);
    const beat_list *one = &d.slides[0]->beats, *two = &d.slides[1]->beats;
    assert_int_equal(two->count, 2);
    char script[1024] = "frames 2\nprint\n";
    step(script, sizeof script, "pagedown"); /* slide 2's second, last beat */
    step(script, sizeof script, "pagedown"); /* the last slide's last beat: stays */
    step(script, sizeof script, "home");     /* its first beat */
    step(script, sizeof script, "pageup");   /* slide 1's last beat */
    strcat(script, "quit\n");
    char speed[32];
    snprintf(speed, sizeof speed, "%g", session_default_speed(d.slides[1]) * 999);
    char *out = run_script(PPFLOW_EXE, "small.script", script,
                           X_RUN_ARGS(path, "--slide", "2", "--present", "--speed", speed));
    state_line st[STATES_MAX];
    const int n = parse_states(out, st, STATES_MAX);
    free(out);
    assert_int_equal(n, 6);
    expect_on(&st[0], 2, 1, 0, "--slide 2");
    expect_on(&st[1], 2, 2, two->beats[1].t, "PgDn on slide 2");
    expect_on(&st[2], 2, 2, two->beats[1].t, "PgDn on the last slide's last beat");
    expect_on(&st[3], 2, 1, 0, "Home");
    expect_on(&st[4], 1, one->count, one->beats[one->count - 1].t, "PgUp on slide 2's first");
    talk_deinit(&d);

    /* a scenario is a talk of one slide */
    out = run_script(PPFLOW_EXE, "one.script", "frames 2\nkey pagedown\nframes 1\nquit\n",
                     X_RUN_ARGS("--present"));
    assert_int_equal(parse_states(out, st, STATES_MAX), 1);
    free(out);
    assert_int_equal(st[0].slide, 1);
}

int main(void)
{
    struct CMUnitTest tests[] = {
        cmocka_unit_test(test_example_talk_next_slide),
        cmocka_unit_test(test_small_talk_edges),
    };
    return x_run_main("ppflow_test_talk_window", tests, sizeof tests / sizeof tests[0]);
}
