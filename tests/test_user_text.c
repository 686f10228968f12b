/* test_user_text.c - text a user wrote, through the ppflow program as an
 * attacker would give it (PPFLOW_EXE as a child process):
 *
 *   - on a terminal: file names and titles holding an OSC title sequence
 *     (ESC ] 0 ; ... BEL), a CSI colour, a C1 control (U+009B, a CSI on
 *     many terminals), bidi controls (U+202E, U+2066) and a line separator
 *     never reach standard output or error raw: `schedule --compare` (the
 *     table, its messages), `--format beats`, `--format json` shown as it
 *     is, and the messages that quote refused text; each comes out in
 *     quote.h's escaped form;
 *   - invalid UTF-8 (a stray 0xFF, the overlong C0 80, the surrogate
 *     ED A0 80, F4 90 80 80 past U+10FFFF) in each text field of a
 *     scenario, a talk and a beats file is refused with exit status 2 and
 *     one line naming the field and the byte offset, before any window or
 *     file;
 *   - everything ppflow writes as JSON (`--format json`, a comparison's
 *     JSON, per-beat beats.json) is valid UTF-8 and parses back to the text
 *     given.
 * The checks of the output (assert_terminal_safe, assert_valid_utf8) are
 * the tests' own (support/check.h), not ppflow's quote.h and utf8.h. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "support/ppflow_run.h"

static char scratch[256];

#define RUN(...) PPFLOW_RUN(scratch, __VA_ARGS__)

/* Hostile names: each would act on a terminal shown raw. */
#define OSC_TITLE "\x1b]0;owned\x07"
#define CSI_RED "\x1b[31m"
#define C1_CSI "\xC2\x9B"
#define RLO "\xE2\x80\xAE"
#define LRI "\xE2\x81\xA6"
#define LSEP "\xE2\x80\xA8"

/* Both outputs of a run: what a terminal would show. */
static void expect_terminal_safe(const child_result *r)
{
    assert_terminal_safe(r->out, r->out_len);
    assert_terminal_safe(r->err, strlen(r->err));
}

/* ---- the terminal ----------------------------------------------------------- */

/* `ppflow schedule A.json B.json C.json D.json`: the sides' names are
 * their file names, shown escaped in the table and in its lines. */
static void test_compare_file_names(void **state)
{
    (void)state;
    static const char *const names[] = {OSC_TITLE "a.json", CSI_RED "b.json", C1_CSI "2Jc.json",
                                        RLO "d" LSEP "e.json"};
    static const char *const shown[] = {"\\x1B]0;owned\\x07a", "\\x1B[31mb", "\\xC2\\x9B2Jc",
                                        "\\u202Ed\\u2028e"};
    char path[4][400];
    for (int k = 0; k < 4; k++)
        scratch_put(path[k], sizeof path[k], scratch, names[k], "{\"schedule\": \"1f1b\"}");
    child_result r = RUN("schedule", path[0], path[1], path[2], path[3]);
    child_expect_status(&r, 0);
    expect_terminal_safe(&r);
    for (int k = 0; k < 4; k++)
        if (!strstr(r.out, shown[k]))
            fail_msg("side %d is not shown as %s in:\n%s", k + 1, shown[k], r.out);
    assert_non_null(strstr(r.out, "\nagainst \\x1B]0;owned\\x07a:\n"));
    child_result_deinit(&r);

    /* --compare with the files in a list: the same names */
    char list[1700];
    snprintf(list, sizeof list, "%s,%s", path[3], path[1]);
    r = RUN("schedule", "--compare", list);
    child_expect_status(&r, 0);
    expect_terminal_safe(&r);
    assert_non_null(strstr(r.out, "\\u202Ed\\u2028e"));
    child_result_deinit(&r);

    /* its JSON: valid, safe, and no name in it to go wrong */
    r = RUN("schedule", "--compare", list, "--format", "json");
    child_expect_status(&r, 0);
    assert_valid_utf8(r.out, r.out_len);
    expect_terminal_safe(&r);
    child_result_deinit(&r);

    /* a side that fails names itself escaped, on one line */
    char bad[400];
    scratch_put(bad, sizeof bad, scratch, RLO OSC_TITLE "bad.json", "{\"stages\": 0}");
    r = RUN("schedule", path[0], bad);
    child_expect_status(&r, 2);
    child_expect_one_line(&r, "ppflow: ", "\\u202E\\x1B]0;owned\\x07bad.json");
    expect_terminal_safe(&r);
    child_result_deinit(&r);
}

/* A scenario whose beats hold what a terminal acts on and a reader lets
 * through (bidi controls are text: a title in Hebrew needs them; a note
 * may break lines), in both spellings JSON allows: \u escapes and the raw
 * UTF-8 bytes. */
static const char hostile_beats[] =
    "{\"auto_beats\": false, \"beats\": ["
    "{\"t\": 1, \"title\": \"a \\u202eevil \\u2066x\", \"caption\": \"c " RLO " x " LRI "z\"},"
    "{\"t\": 2, \"title\": \"fine ∇W\", \"caption\": \"\\u2069end\", \"notes\": "
    "\"n\\u2028m " RLO "\"}]}";

/* `--format beats` shows titles and captions escaped; `--format json` keeps
 * the text, escaped as JSON, and reads back to it; what a reader refuses
 * (controls, C1 included; a line separator in one line) is refused with a
 * message that is itself escaped. */
static void test_beats_text(void **state)
{
    (void)state;
    char path[300];
    scratch_put(path, sizeof path, scratch, "hostile.json", hostile_beats);
    child_result r = RUN("schedule", path, "--format", "beats");
    child_expect_status(&r, 0);
    expect_terminal_safe(&r);
    assert_non_null(strstr(r.out, "\n1  1  a \\u202Eevil \\u2066x  c \\u202E x \\u2066z\n"));
    /* the title column is as wide as the escaped title */
    assert_non_null(strstr(r.out, "\n2  2  fine ∇W"
                                  "               \\u2069end\n"));
    child_result_deinit(&r);

    r = RUN("schedule", path, "--format", "json");
    child_expect_status(&r, 0);
    assert_valid_utf8(r.out, r.out_len);
    expect_terminal_safe(&r);
    assert_non_null(strstr(r.out, "\"title\":\"a \\u202eevil \\u2066x\""));
    assert_non_null(strstr(r.out, "\"notes\":\"n\\u2028m \\u202e\""));
    cJSON *doc = cJSON_Parse(r.out);
    assert_non_null(doc);
    const cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "beats"), 0);
    assert_string_equal(cJSON_GetObjectItem(first, "title")->valuestring, "a " RLO "evil " LRI "x");
    assert_string_equal(cJSON_GetObjectItem(first, "caption")->valuestring, "c " RLO " x " LRI "z");
    cJSON_Delete(doc);
    child_result_deinit(&r);

    /* refused text, quoted in the message by the same rule */
    static const struct {
        const char *json, *shown;
    } refused[] = {
        {"{\"beats\": [{\"t\": 1, \"title\": \"a\\u009b31m" RLO "\"}]}",
         "beats[0].title = \"a\\xC2\\x9B31m\\u202E\": must be one line"},
        {"{\"beats\": [{\"t\": 1, \"title\": \"x\", \"caption\": \"" C1_CSI "2J\"}]}",
         "beats[0].caption = \"\\xC2\\x9B2J\": must be one line"},
        {"{\"beats\": [{\"t\": 1, \"title\": \"x\", \"caption\": \"a" LSEP "b\"}]}",
         "beats[0].caption = \"a\\u2028b\": must be one line"},
        {"{\"beats\": [{\"t\": 1, \"title\": \"x\", \"notes\": \"\\u001b]0;t\\u0007\"}]}",
         "beats[0].notes = \"\\x1B]0;t\\x07\": must be text"},
    };
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        scratch_put(path, sizeof path, scratch, "refused.json", refused[k].json);
        r = RUN("schedule", path, "--format", "beats");
        child_expect_status(&r, 2);
        child_expect_one_line(&r, "ppflow: ", refused[k].shown);
        expect_terminal_safe(&r);
        child_result_deinit(&r);
    }
}

/* Per-beat beats.json: valid UTF-8, safe to cat, the titles read back. */
static void test_per_beat_index(void **state)
{
    (void)state;
    char path[300], dir[300], index[400];
    scratch_put(path, sizeof path, scratch, "hostile.json", hostile_beats);
    scratch_join(dir, sizeof dir, scratch, "out/");
    child_result r =
        RUN("render", path, "--per-beat", "--size", "64x64", "--speed", "40", "-q", "-o", dir);
    child_expect_status(&r, 0);
    expect_terminal_safe(&r);
    child_result_deinit(&r);
    scratch_join(index, sizeof index, dir, "beats.json");
    size_t len = 0;
    char *text = child_read_file(index, &len);
    assert_non_null(text);
    assert_valid_utf8(text, len);
    assert_terminal_safe(text, len);
    assert_non_null(strstr(text, "\"a \\u202eevil \\u2066x\""));
    cJSON *doc = cJSON_Parse(text);
    assert_non_null(doc);
    const cJSON *second = cJSON_GetArrayItem(doc, 1);
    assert_string_equal(cJSON_GetObjectItem(second, "caption")->valuestring, "\xE2\x81\xA9"
                                                                             "end");
    assert_string_equal(cJSON_GetObjectItem(second, "notes")->valuestring, "n" LSEP "m " RLO);
    cJSON_Delete(doc);
    free(text);
}

/* ---- UTF-8 ------------------------------------------------------------------- */

/* The four forms, each after "ab": so at byte offset 2 of its value. */
static const char *const not_utf8[] = {"\xFF", "\xC0\x80", "\xED\xA0\x80", "\xF4\x90\x80\x80"};

/* Each text field a user gives, with the bad bytes in place of %s. */
static const struct {
    const char *file; /* a scenario, a talk, or a beats file for --beats */
    const char *json;
    const char *field; /* as the message names it */
} text_fields[] = {
    {"scenario.json", "{\"beats\": [{\"t\": 1, \"title\": \"ab%s\"}]}", "beats[0].title"},
    {"scenario.json", "{\"beats\": [{\"t\": 1, \"title\": \"x\", \"caption\": \"ab%s\"}]}",
     "beats[0].caption"},
    {"scenario.json", "{\"beats\": [{\"t\": 1, \"title\": \"x\", \"notes\": \"ab%s\"}]}",
     "beats[0].notes"},
    {"scenario.json", "{\"beats\": [{\"t\": 1, \"title\": \"x\", \"camera\": \"ab%s\"}]}",
     "beats[0].camera"},
    {"scenario.json", "{\"description\": \"ab%s\"}", "description"},
    {"scenario.json", "{\"schedule\": \"ab%s\"}", "schedule"},
    {"talk.json", "{\"talk\": \"ab%s\", \"slides\": [{}]}", "talk"},
    {"talk.json", "{\"slides\": [{}, {\"title\": \"ab%s\"}]}", "slides[1].title"},
    {"talk.json", "{\"slides\": [{\"notes\": \"ab%s\"}]}", "slides[0].notes"},
    {"talk.json", "{\"description\": \"ab%s\", \"slides\": [{}]}", "description"},
    {"talk.json", "{\"slides\": [{\"beats\": [{\"t\": 1, \"title\": \"ab%s\"}]}]}",
     "slides[0].beats[0].title"},
    {"beats.json", "{\"beats\": [{\"t\": 1, \"title\": \"ab%s\"}]}", "beats[0].title"},
};

/* Every field, every form: exit 2, one line naming the file, the field and
 * the offset, nothing on standard output. */
static void test_invalid_utf8_refused(void **state)
{
    (void)state;
    for (size_t f = 0; f < sizeof text_fields / sizeof text_fields[0]; f++)
        for (size_t b = 0; b < sizeof not_utf8 / sizeof not_utf8[0]; b++) {
            char json[256], path[300], want[200];
            snprintf(json, sizeof json, text_fields[f].json, not_utf8[b]);
            scratch_put(path, sizeof path, scratch, text_fields[f].file, json);
            const bool beats_file = strcmp(text_fields[f].file, "beats.json") == 0;
            child_result r = beats_file ? RUN("schedule", "--beats", path, "--format", "json")
                                        : RUN("schedule", path, "--format", "json");
            snprintf(want, sizeof want, "%s: %s = \"ab\\x%02X", text_fields[f].file,
                     text_fields[f].field, (unsigned char)not_utf8[b][0]);
            child_expect_status(&r, 2);
            child_expect_one_line(&r, "ppflow: ", want);
            assert_non_null(strstr(r.err, ": invalid UTF-8 at byte offset 2 of the value"));
            assert_int_equal(r.out_len, 0);
            expect_terminal_safe(&r);
            child_result_deinit(&r);
        }
    /* The other commands read the same way, before a window or a file. */
    char json[128], path[300], png[300];
    snprintf(json, sizeof json, "{\"slides\": [{\"title\": \"ok\xE2\x80\"}]}");
    scratch_put(path, sizeof path, scratch, "talk.json", json);
    scratch_join(png, sizeof png, scratch, "x.png");
    child_result r = RUN("render", path, "--still", "1", "-o", png);
    child_expect_status(&r, 2);
    child_expect_one_line(&r, "ppflow: ", "slides[0].title = \"ok\\xE2\\x80\"");
    child_result_deinit(&r);
    r = RUN("present", path);
    child_expect_status(&r, 2);
    child_expect_one_line(&r, "ppflow: ", "invalid UTF-8 at byte offset 2");
    child_result_deinit(&r);
    assert_false(scratch_exists(png));
}

static int setup(void **state)
{
    return scratch_setup(state, scratch, sizeof scratch, "ppflow_test_user_text");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_compare_file_names, scratch_before_each),
        cmocka_unit_test_setup(test_beats_text, scratch_before_each),
        cmocka_unit_test_setup(test_per_beat_index, scratch_before_each),
        cmocka_unit_test_setup(test_invalid_utf8_refused, scratch_before_each),
    };
    return cmocka_run_group_tests(tests, setup, scratch_teardown);
}
