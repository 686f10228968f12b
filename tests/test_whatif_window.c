/* Tests of live what-if in the viewer, in a real X server (Xvfb), driven by
 * a script that types into the command line as a lecturer does:
 *
 *   - `:` then "stages 8" and Enter: P is 8 and the timeline the window
 *     shows is, byte for byte, the JSON of a fresh `ppflow schedule
 *     --stages 8 --format json`; while typing, the letters (s, t, a, g are
 *     viewer keys) acted on nothing but the line.
 *   - a bad value (`microbatches 0`, `schedule nope`) and a direct key
 *     whose scenario the schedule refuses (M halved below P for 1f1b)
 *     change nothing and show their one-line error (the state line's
 *     whatif_error, and the card drawn in the frame); Esc clears it.
 *   - undo (ctrl+Z) after a change gives the first screenshot back byte for
 *     byte, paused at the same t, the undo stack empty again; it swaps the
 *     session the change replaced back in (the first one's build, not a
 *     new one) while the budget lets the window keep it, and builds it
 *     again when it did not.
 *   - the window holds every slide and pane within the budget: a what-if
 *     or a pane (x) that fits alone but not beside what the window holds
 *     is refused, naming the sum.
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

#include "support/check.h"
#include "support/child.h"
#include "support/scratch.h"
#include "support/x_run.h"

enum { STATES_MAX = 16, LINE_MAX_CHARS = X_RUN_LINE_MAX };

static int key_int(const char *line, const char *key)
{
    char v[64];
    return atoi(key_text(line, key, v, sizeof v));
}

static void expect_key(const char *line, const char *key, const char *want)
{
    char v[LINE_MAX_CHARS];
    if (strcmp(key_text(line, key, v, sizeof v), want) != 0)
        fail_msg("%s=%s, want %s, in: %s", key, v, want, line);
}

static void expect_error_has(const char *line, const char *piece)
{
    char v[LINE_MAX_CHARS];
    key_text(line, "whatif_error", v, sizeof v);
    if (!strstr(v, piece))
        fail_msg("whatif_error=%s, want it to say %s", v, piece);
}

/* ppflow schedule ARGS --format json's standard output (free it). */
static char *schedule_json(const char *stages, size_t *len)
{
    char dir[400];
    x_run_dir("capture", dir, sizeof dir);
    child_result r = child_run(
        &(child_desc){.exe = PPFLOW_EXE,
                      .capture_dir = dir,
                      .args = CHILD_ARGS("schedule", "--stages", stages, "--format", "json")});
    if (r.status != 0)
        fail_msg("ppflow schedule: status %d: %s", r.status, r.err);
    char *out = r.out;
    *len = r.out_len;
    r.out = NULL;
    child_result_deinit(&r);
    return out;
}

static char *file_in_a(const char *name, size_t *len)
{
    char path[400];
    scratch_join(path, sizeof path, x_run_scratch(), "a/");
    size_t n = strlen(path);
    snprintf(path + n, sizeof path - n, "%s", name);
    char *text = child_read_file(path, len);
    if (!text)
        fail_msg("%s was not written", path);
    return text;
}

static void test_command_line_changes_p(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_whatif_window");
    char *out = run_script(PPFLOW_EXE, "stages.script",
                           "frames 2\n"
                           "print\n"
                           "key colon\n" /* as typing ":" */
                           "type stages 8\n"
                           "frames 1\n"
                           "print\n"
                           "key enter\n"
                           "frames 2\n"
                           "print\n"
                           "timeline stages8.json\n"
                           "quit\n",
                           X_RUN_ARGS("--size", "1280x720"));
    static char lines[STATES_MAX][LINE_MAX_CHARS];
    const int n = state_texts(out, lines, STATES_MAX);
    if (n != 4)
        fail_msg("expected 3 prints and --print-state, got %d:\n%s", n, out);
    free(out);
    state_line first = parse_state(lines[0]), typing = parse_state(lines[1]);
    assert_int_equal(key_int(lines[0], "stages"), 4);
    assert_int_equal(key_int(lines[0], "line"), 0);
    /* typing: the line is open, and s (zoom), t (theme), a (pan), g acted on nothing else */
    assert_int_equal(key_int(lines[1], "line"), 1);
    assert_string_equal(typing.theme, "dark");
    assert_true(typing.t0 == first.t0 && typing.t1 == first.t1);
    assert_true(typing.t == first.t && typing.playing == 0);
    assert_int_equal(key_int(lines[1], "stages"), 4);
    /* Enter: P = 8, the line closed, one change to undo, no error */
    assert_int_equal(key_int(lines[2], "stages"), 8);
    assert_int_equal(key_int(lines[2], "line"), 0);
    assert_int_equal(key_int(lines[2], "undo"), 1);
    expect_key(lines[2], "whatif_error", "\"\"");
    expect_key(lines[2], "schedule", "1f1b");
    /* the timeline shown is a fresh `ppflow schedule --stages 8`'s, byte for byte */
    size_t shown_len, fresh_len;
    char *shown = file_in_a("stages8.json", &shown_len);
    char *fresh = schedule_json("8", &fresh_len);
    assert_gt(fresh_len, 1000);
    if (shown_len != fresh_len || memcmp(shown, fresh, fresh_len) != 0)
        fail_msg("the window's timeline (%zu bytes) differs from ppflow schedule --stages 8's "
                 "(%zu bytes)",
                 shown_len, fresh_len);
    /* and its timeline view was refitted to the new iteration */
    state_line after = parse_state(lines[2]);
    char makespan[64];
    key_text(lines[2], "makespan", makespan, sizeof makespan);
    assert_near(after.t1, atof(makespan), 1e-6);
    assert_true(strstr(fresh, "\"ranks\":8,") != NULL);
    free(shown);
    free(fresh);
}

static void test_bad_value_changes_nothing(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_whatif_window");
    char shot[400];
    scratch_join(shot, sizeof shot, x_run_scratch(), "a/error.png");
    char *out = run_script(PPFLOW_EXE, "bad.script",
                           "frames 2\n"
                           "print\n"
                           "type :microbatches 0\n"
                           "key enter\n"
                           "frames 1\n"
                           "print\n"
                           "screenshot error.png\n"
                           "key escape\n"
                           "type :schedule nope\n"
                           "key enter\n"
                           "print\n"
                           "key escape\n"
                           "print\n"
                           "key m shift\n"
                           "key m shift\n"
                           "frames 1\n"
                           "print\n"
                           "screenshot refused.png\n"
                           "key escape\n"
                           "frames 1\n"
                           "screenshot cleared.png\n"
                           "quit\n",
                           X_RUN_ARGS("--size", "1280x720"));
    static char lines[STATES_MAX][LINE_MAX_CHARS];
    const int n = state_texts(out, lines, STATES_MAX);
    if (n != 6)
        fail_msg("expected 5 prints and --print-state, got %d:\n%s", n, out);
    free(out);
    const char *makespan0 = strstr(lines[0], " makespan=");
    assert_non_null(makespan0);
    /* microbatches 0: the flag's own message, the line still open to fix it */
    expect_error_has(lines[1], "microbatches = \\\"0\\\": must be an integer from 1");
    assert_int_equal(key_int(lines[1], "line"), 1);
    /* schedule nope */
    expect_error_has(lines[2], "schedule = \\\"nope\\\": unknown schedule");
    /* Esc: closed, the error gone */
    assert_int_equal(key_int(lines[3], "line"), 0);
    expect_key(lines[3], "whatif_error", "\"\"");
    /* half the micro-batches: 8 -> 4 is fine, 4 -> 2 is below P for 1f1b: refused */
    assert_int_equal(key_int(lines[4], "microbatches"), 4);
    assert_int_equal(key_int(lines[4], "undo"), 1);
    expect_error_has(lines[4], "microbatches = 2: 1f1b needs at least as many micro-batches");
    /* nothing else changed along the way */
    for (int k = 0; k < 4; k++) {
        assert_int_equal(key_int(lines[k], "stages"), 4);
        assert_int_equal(key_int(lines[k], "microbatches"), 8);
        expect_key(lines[k], "schedule", "1f1b");
        assert_int_equal(key_int(lines[k], "undo"), 0);
        assert_true(strncmp(strstr(lines[k], " makespan="), makespan0, 20) == 0);
    }
    /* the error is drawn (the card at the foot of the 3D view), and Esc takes it away */
    size_t a_len, b_len;
    char *refused = file_in_a("refused.png", &a_len);
    char *cleared = file_in_a("cleared.png", &b_len);
    assert_true(a_len != b_len || memcmp(refused, cleared, a_len) != 0);
    free(refused);
    free(cleared);
    free(file_in_a("error.png", &a_len));
}

static void test_undo_restores_the_picture(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_whatif_window");
    char *out = run_script(PPFLOW_EXE, "undo.script",
                           "frames 2\n"
                           "print\n"
                           "screenshot before.png\n"
                           "type :stages 8\n"
                           "key enter\n"
                           "frames 1\n"
                           "print\n"
                           "screenshot changed.png\n"
                           "key z ctrl\n"
                           "frames 1\n"
                           "print\n"
                           "screenshot undone.png\n"
                           "key z ctrl\n"
                           "frames 1\n"
                           "quit\n",
                           X_RUN_ARGS("--size", "1280x720", "--time", "13"));
    static char lines[STATES_MAX][LINE_MAX_CHARS];
    const int n = state_texts(out, lines, STATES_MAX);
    if (n != 4)
        fail_msg("expected 3 prints and --print-state, got %d:\n%s", n, out);
    free(out);
    state_line before = parse_state(lines[0]), changed = parse_state(lines[1]),
               undone = parse_state(lines[2]);
    assert_int_equal(key_int(lines[1], "stages"), 8);
    assert_int_equal(key_int(lines[2], "stages"), 4);
    assert_int_equal(key_int(lines[2], "undo"), 0);
    /* the change kept the session it replaced, and undo swapped it back */
    char g0[32], g1[32], g2[32];
    key_text(lines[0], "generation", g0, sizeof g0);
    key_text(lines[1], "generation", g1, sizeof g1);
    key_text(lines[2], "generation", g2, sizeof g2);
    assert_true(g0[0] != '\0');
    assert_string_not_equal(g1, g0);
    assert_string_equal(g2, g0);
    assert_int_equal(key_int(lines[1], "undo_kept"), 1);
    assert_int_equal(key_int(lines[2], "undo_kept"), 0);
    /* the moment kept: the same fraction of the iteration, paused */
    char m0[64], m1[64];
    const double f0 = before.t / atof(key_text(lines[0], "makespan", m0, sizeof m0));
    assert_near(changed.t / atof(key_text(lines[1], "makespan", m1, sizeof m1)), f0, 1e-6);
    assert_near(undone.t, before.t, 1e-6);
    assert_int_equal(before.playing, 0);
    assert_int_equal(undone.playing, 0);
    /* the camera kept its preset, fitted to each scene */
    assert_gt(changed.distance, before.distance);
    assert_near(undone.distance, before.distance, 1e-4);
    /* undo gives the first picture back, byte for byte */
    size_t b_len, c_len, u_len;
    char *b = file_in_a("before.png", &b_len);
    char *c = file_in_a("changed.png", &c_len);
    char *u = file_in_a("undone.png", &u_len);
    assert_true(b_len != c_len || memcmp(b, c, b_len) != 0);
    if (b_len != u_len || memcmp(b, u, b_len) != 0)
        fail_msg("the screenshot after undo (%zu bytes) differs from the first (%zu bytes)", u_len,
                 b_len);
    free(b);
    free(c);
    free(u);
    /* undo past the first: nothing to undo, said, nothing changed */
    expect_error_has(lines[3], "nothing to undo");
    assert_int_equal(key_int(lines[3], "stages"), 4);
}

/* The window holds every slide of a talk and every pane: a what-if that
 * fits alone but not beside the other slide is refused, naming the sum,
 * one that fits beside it is made; x whose sibling (V = 2: twice the
 * actions) would take the window past the budget is refused the same way.
 * Looped BFS at V = 64 is counted 8 V P idle steps a rank, so the talk is
 * near the budget yet cheap to build. */
static void test_window_stays_within_the_budget(void **state)
{
    (void)state;
    x_run_skip_without_tools("test_whatif_window");
    char talk[400];
    scratch_put(talk, sizeof talk, x_run_scratch(), "budget-talk.json",
                "{\"base\": {\"schedule\": \"looped-bfs\", \"stages\": 128, \"virtual\": 64, "
                "\"microbatches\": 1}, \"slides\": [{\"title\": \"a\"}, {\"title\": \"b\"}]}");
    char *out = run_script(PPFLOW_EXE, "budget.script",
                           "frames 2\n"
                           "type :stages 160\n"
                           "key enter\n"
                           "frames 1\n"
                           "print\n"
                           "key escape\n"
                           "type :stages 140\n"
                           "key enter\n"
                           "frames 1\n"
                           "print\n"
                           "key z ctrl\n"
                           "frames 1\n"
                           "print\n"
                           "quit\n",
                           X_RUN_ARGS(talk, "--size", "800x600"));
    static char lines[STATES_MAX][LINE_MAX_CHARS];
    int n = state_texts(out, lines, STATES_MAX);
    if (n != 4)
        fail_msg("expected 3 prints and --print-state, got %d:\n%s", n, out);
    free(out);
    /* 160 x 82,120 + 128 x 65,736 counted actions */
    expect_error_has(lines[0], "what-if: 21553408 actions in all");
    assert_int_equal(key_int(lines[0], "stages"), 128);
    assert_int_equal(key_int(lines[0], "undo"), 0);
    expect_key(lines[1], "whatif_error", "\"\"");
    assert_int_equal(key_int(lines[1], "stages"), 140);
    /* the session it replaced did not fit beside the new one and the other
     * slide: undo keeps its scenario only, and builds it again */
    assert_int_equal(key_int(lines[1], "undo"), 1);
    assert_int_equal(key_int(lines[1], "undo_kept"), 0);
    expect_key(lines[2], "whatif_error", "\"\"");
    assert_int_equal(key_int(lines[2], "stages"), 128);
    assert_int_equal(key_int(lines[2], "undo"), 0);
    char g0[32], g2[32];
    key_text(lines[0], "generation", g0, sizeof g0);
    key_text(lines[2], "generation", g2, sizeof g2);
    assert_string_not_equal(g2, g0);

    out = run_script(PPFLOW_EXE, "budget-x.script",
                     "frames 2\n"
                     "key x\n"
                     "frames 1\n"
                     "print\n"
                     "quit\n",
                     X_RUN_ARGS("--microbatches", "600000", "--size", "800x600"));
    n = state_texts(out, lines, STATES_MAX);
    if (n != 2)
        fail_msg("expected 1 print and --print-state, got %d:\n%s", n, out);
    free(out);
    expect_error_has(lines[0], "x: another pane: 21600448 actions in all");
    assert_null(strstr(lines[0], "panes="));
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    struct CMUnitTest tests[] = {
        cmocka_unit_test(test_command_line_changes_p),
        cmocka_unit_test(test_bad_value_changes_nothing),
        cmocka_unit_test(test_undo_restores_the_picture),
        cmocka_unit_test(test_window_stays_within_the_budget),
    };
    return x_run_main("ppflow_test_whatif_window", tests, sizeof tests / sizeof tests[0]);
}
