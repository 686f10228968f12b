/* Tests of the viewer's frame times (frame_times.h) without a window:
 * hand-worked summaries, frames after a wait left out, the ring's oldest
 * frames replaced, the readout's text; and the ways to reach them: F3 in
 * both modes and a script's `key f3` and `frametimes N`, its limits refused. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <GLFW/glfw3.h>

#include "frame_times.h"
#include "keymap.h"
#include "support/check.h"
#include "viewer_script.h"

static frame_times ft; /* large: not on the stack */

/* Frames of these lengths (ms), each counted, from clock 10 s. */
static double play(const double *ms, int n)
{
    double clock = 10;
    frame_times_init(&ft);
    frame_times_mark(&ft, clock, true); /* the first only starts the clock */
    for (int k = 0; k < n; k++) {
        clock += ms[k] / 1e3;
        frame_times_mark(&ft, clock, true);
    }
    return clock;
}

static void test_summaries(void **state)
{
    (void)state;
    frame_times_init(&ft);
    frame_times_summary s = frame_times_last(&ft, 10);
    assert_int_equal(s.count, 0);
    assert_true(s.fps == 0 && s.worst_ms == 0);
    const double ms[5] = {10, 20, 30, 40, 100};
    play(ms, 5);
    s = frame_times_last(&ft, 5);
    assert_int_equal(s.count, 5);
    assert_near(s.mean_ms, 40, 1e-6);
    assert_near(s.median_ms, 30, 1e-6);
    assert_near(s.worst_ms, 100, 1e-6);
    assert_near(s.fps, 25, 1e-6); /* 5 frames in 200 ms */
    s = frame_times_last(&ft, 2); /* the newest two: 40 and 100 */
    assert_int_equal(s.count, 2);
    assert_near(s.median_ms, 70, 1e-6);
    s = frame_times_last(&ft, 100); /* as many as there are */
    assert_int_equal(s.count, 5);
    assert_int_equal(frame_times_last(&ft, 0).count, 0);
    /* the last 150 ms: the frames that ended at 0, 100 and 140 ms before the newest */
    s = frame_times_since(&ft, 0.15);
    assert_int_equal(s.count, 3);
    assert_near(s.worst_ms, 100, 1e-6);
    assert_near(s.mean_ms, (30 + 40 + 100) / 3.0, 1e-6);
}

/* A frame after a wait for input is not a slow frame; the ring keeps the newest. */
static void test_waits_and_ring(void **state)
{
    (void)state;
    frame_times_init(&ft);
    frame_times_mark(&ft, 1.0, true);
    frame_times_mark(&ft, 1.016, true);
    frame_times_mark(&ft, 9.0, false); /* 8 s paused */
    frame_times_mark(&ft, 9.016, true);
    frame_times_summary s = frame_times_last(&ft, 10);
    assert_int_equal(s.count, 2);
    assert_near(s.worst_ms, 16, 1e-6);

    frame_times_init(&ft);
    double clock = 0;
    frame_times_mark(&ft, clock, true);
    for (int k = 0; k < FRAME_TIMES_KEPT + 100; k++) {
        clock += k < 100 ? 0.5 : 0.010; /* the first 100 slow, then 10 ms */
        frame_times_mark(&ft, clock, true);
    }
    s = frame_times_last(&ft, FRAME_TIMES_KEPT);
    assert_int_equal(s.count, FRAME_TIMES_KEPT);
    assert_near(s.worst_ms, 10, 1e-6); /* the slow ones are gone */
    assert_near(s.fps, 100, 1e-6);
}

static void test_readout_text(void **state)
{
    (void)state;
    char text[64];
    frame_times_init(&ft);
    frame_times_summary s = frame_times_since(&ft, 1);
    frame_times_format(&s, text, sizeof text);
    assert_string_equal(text, "– fps");
    const double ms[4] = {16, 16.5, 16.7, 18.1}; /* mean 16.825: 59.4 fps */
    play(ms, 4);
    s = frame_times_since(&ft, 1);
    frame_times_format(&s, text, sizeof text);
    assert_string_equal(text, "59 fps · 16.8 ms (worst 18.1)");
}

/* Parses a one-line script; false (and the message in err) if it is refused. */
static bool parse_one(const char *line, viewer_script_event *e, ppf_error *err)
{
    size_t n = strlen(line);
    char *text = malloc(n + 1);
    assert_non_null(text);
    memcpy(text, line, n + 1);
    viewer_script sc = {0};
    bool ok = viewer_script_parse(&sc, text, n, "t.script", err);
    if (ok) {
        assert_int_equal(sc.count, 1);
        *e = sc.events[0];
    }
    viewer_script_deinit(&sc);
    return ok;
}

static void test_key_and_script(void **state)
{
    (void)state;
    for (keymap_mode m = KEYMAP_WINDOW; m <= KEYMAP_PRESENT; m++) {
        const keymap_key *k = keymap_find(GLFW_KEY_F3, 0, m);
        assert_non_null(k);
        assert_int_equal(k->command, CMD_FRAME_TIMES);
        assert_false(k->on_repeat);
        /* on the card of both modes */
        frame_help_item card[KEYMAP_ROWS_MAX];
        const int n = keymap_card(card, KEYMAP_ROWS_MAX, m);
        bool listed = false;
        for (int r = 0; r < n; r++)
            listed |= strcmp(card[r].keys, "F3") == 0;
        assert_true(listed);
    }
    viewer_script_event e;
    ppf_error err = {{0}};
    assert_true(parse_one("key f3\n", &e, &err));
    assert_true(e.verb == VIEWER_SCRIPT_KEY && e.key == GLFW_KEY_F3 && e.mods == 0);
    assert_true(parse_one("frametimes 240\n", &e, &err));
    assert_int_equal(e.verb, VIEWER_SCRIPT_FRAME_TIMES);
    assert_int_equal(e.frames, 240);
    char line[64];
    snprintf(line, sizeof line, "frametimes %d\n", FRAME_TIMES_KEPT);
    assert_true(parse_one(line, &e, &err));
    static const char *const refused[] = {"frametimes\n", "frametimes 0\n", "frametimes 12x\n",
                                          "frametimes 1 2\n", "frametimes 1025\n"};
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        err = (ppf_error){{0}};
        if (parse_one(refused[k], &e, &err))
            fail_msg("\"%s\" was taken", refused[k]);
        if (!strstr(err.message, "frametimes"))
            fail_msg("\"%s\": %s (want the verb named)", refused[k], err.message);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summaries),
        cmocka_unit_test(test_waits_and_ring),
        cmocka_unit_test(test_readout_text),
        cmocka_unit_test(test_key_and_script),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
