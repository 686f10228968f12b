/* Tests of talk files (core/scenario/talk_file.h) and of the talk built from them
 * (app/talk.h):
 *
 *   - a good talk: the base, a slide's scenario file and its own keys apply
 *     in that order, with paths relative to the talk file; title, notes and
 *     camera are kept per slide.
 *   - bad talks: each refused with one line that starts with the file and
 *     names the place (slides[2].virtual, slides = [], an unknown key).
 *   - every talk in assets/ loads and builds, each slide a scenario that
 *     simulates; assets/talk.json's beats are the ones its captions speak of.
 *   - the talk: a talk gives one session per slide with the command line's
 *     flags on each; a scenario gives a talk of one; a slide that fails to
 *     build, or names an unknown camera, is named.
 *   - the budget over a talk: slides that together reach it build, one
 *     more replica is refused naming the sum; talk_build_slide builds the
 *     slide shown and no other, whatever the others would cost.
 */
#include "support/check.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget.h"
#include "talk.h"
#include "scene.h"
#include "support/scratch.h"
#include "talk_file.h"

static char scratch[256];

/* Writes text as `name` in the scratch directory; its path into path. */
static void put(char *path, size_t size, const char *name, const char *text)
{
    scratch_put(path, size, scratch, name, text);
}

/* The talk text must be refused with one line holding `want`. */
static void expect_refused(const char *text, const char *want)
{
    char path[512];
    put(path, sizeof path, "bad.json", text);
    talk_file t;
    ppf_error err = {{0}};
    bool ok = talk_file_load(&t, path, false, &err);
    if (ok || !strstr(err.message, want) || strchr(err.message, '\n') ||
        strncmp(err.message, path, strlen(path)) != 0)
        fail_msg("%s\n  gave: %s\n  want: %s: ...%s...", text, ok ? "(accepted)" : err.message,
                 path, want);
    assert_int_equal(t.count, 0); /* left zeroed */
    talk_file_deinit(&t);
}

static void test_good_talk(void **state)
{
    (void)state;
    char base[512], other[512], path[512];
    put(base, sizeof base, "base.json", "{\"stages\": 3, \"microbatches\": 6, \"dp\": 1}");
    put(other, sizeof other, "other.json", "{\"schedule\": \"gpipe\", \"microbatches\": 5}");
    put(path, sizeof path, "talk.json",
        "{\"talk\": \"Schedules\", \"base\": \"base.json\", \"description\": \"x\",\n"
        " \"slides\": [\n"
        "  {\"title\": \"GPipe\", \"notes\": \"line 1\\nline 2\", \"schedule\": \"gpipe\"},\n"
        "  {\"schedule\": \"1f1b\", \"camera\": \"top\", \"beats\": [{\"t\": 1, \"title\": "
        "\"one\"}]},\n"
        "  {\"title\": \"From a file\", \"scenario\": \"other.json\", \"microbatches\": 9}\n"
        " ]}\n");
    talk_file t;
    ppf_error err = {{0}};
    if (!talk_file_load(&t, path, false, &err))
        fail_msg("%s", err.message);
    assert_string_equal(t.title, "Schedules");
    assert_int_equal(t.count, 3);
    assert_string_equal(t.slides[0].title, "GPipe");
    assert_string_equal(t.slides[0].notes, "line 1\nline 2");
    assert_string_equal(t.slides[0].sc.schedule, "gpipe");
    assert_int_equal(t.slides[0].sc.stages, 3); /* from the base */
    assert_int_equal(t.slides[0].sc.microbatches, 6);
    assert_string_equal(t.slides[1].title, "");
    assert_string_equal(t.slides[1].camera, "top");
    assert_string_equal(t.slides[1].sc.schedule, "1f1b");
    assert_int_equal(t.slides[1].sc.beats.count, 1);
    assert_int_equal(t.slides[0].sc.beats.count, 0); /* a slide's beats are its own */
    /* base, then the slide's file (relative to the talk), then its keys */
    assert_string_equal(t.slides[2].sc.schedule, "gpipe");
    assert_int_equal(t.slides[2].sc.stages, 3);
    assert_int_equal(t.slides[2].sc.microbatches, 9);
    talk_file_deinit(&t);
    talk_file_deinit(&t); /* twice is harmless */

    /* a base given as an object; a relative csv path from the talk's folder */
    put(path, sizeof path, "talk2.json",
        "{\"base\": {\"stages\": 2, \"costs\": {\"b\": 3}}, \"slides\": [{}, {\"stages\": 5}]}");
    if (!talk_file_load(&t, path, false, &err))
        fail_msg("%s", err.message);
    assert_int_equal(t.count, 2);
    assert_int_equal(t.slides[0].sc.stages, 2);
    assert_int_equal(t.slides[1].sc.stages, 5);
    assert_int_equal(t.slides[1].sc.b.count, 1);
    talk_file_deinit(&t);
    put(path, sizeof path, "talk3.json", "{\"slides\": [{\"schedule\": \"csv:x.csv\"}]}");
    if (!talk_file_load(&t, path, false, &err))
        fail_msg("%s", err.message);
    char want[600];
    snprintf(want, sizeof want, "csv:%s/x.csv", scratch);
    assert_string_equal(t.slides[0].sc.schedule, want);
    talk_file_deinit(&t);
}

static void test_detect(void **state)
{
    (void)state;
    char path[512];
    put(path, sizeof path, "t.json", "{\"slides\": []}");
    assert_true(talk_file_detect(path));
    put(path, sizeof path, "s.json", "{\"schedule\": \"gpipe\"}");
    assert_false(talk_file_detect(path));
    put(path, sizeof path, "m.json", "{\"slides\": ");
    assert_false(talk_file_detect(path)); /* the scenario reader says what is wrong */
    assert_false(talk_file_detect("/nonexistent/talk.json"));
}

static void test_bad_talks(void **state)
{
    (void)state;
    char other[512];
    put(other, sizeof other, "bad_stages.json", "{\"stages\": 0}");
    expect_refused("{\"slides\": []}", ": slides = []: a talk needs at least one slide");
    expect_refused("{\"talk\": \"x\"}", ": needs \"slides\"");
    expect_refused("{\"slides\": {}}", ": slides = {}: must be an array of slides, not an object");
    expect_refused("{\"slides\": [{}], \"slide\": 1}", ": unknown field \"slide\"");
    expect_refused("{\"slides\": [{}], \"talk\": 3}", ": talk = 3: must be a string");
    expect_refused("{\"slides\": [{}, {}, {\"virtual\": 99}]}",
                   ": slides[2].virtual = 99: must be an integer from 1 to 64");
    expect_refused("{\"slides\": [{\"tilte\": \"x\"}]}", ": slides[0]: unknown field \"tilte\"");
    expect_refused("{\"slides\": [{\"tilte\": \"x\"}]}", "title, notes, camera, scenario)");
    expect_refused("{\"slides\": [{}, 3]}", ": slides[1] = 3: must be an object");
    expect_refused("{\"slides\": [{\"title\": \"a\\nb\"}]}",
                   ": slides[0].title = \"a\\x0Ab\": must be one line");
    expect_refused("{\"slides\": [{\"title\": 1, \"title\": 2}]}",
                   ": slides[0]: field \"title\" appears twice");
    expect_refused("{\"slides\": [{\"beats\": [{\"t\": 1}]}]}",
                   ": slides[0].beats[0]: needs a \"title\"");
    expect_refused("{\"slides\": [{\"scenario\": \"missing.json\"}]}", ": slides[0].scenario: ");
    expect_refused("{\"slides\": [{\"scenario\": \"missing.json\"}]}", "missing.json: cannot open");
    expect_refused("{\"slides\": [{\"scenario\": \"bad_stages.json\"}]}",
                   "bad_stages.json: stages = 0: must be an integer from 1");
    expect_refused("{\"base\": \"missing.json\", \"slides\": [{}]}", ": base: ");
    expect_refused("{\"base\": {\"dp\": -1}, \"slides\": [{}]}", ": base.dp = -1");
    expect_refused("{\"base\": 1, \"slides\": [{}]}", ": base = 1: must be a scenario file's path");
    expect_refused("{\"slides\": [{}]", "malformed JSON at line 1");
    expect_refused("[]", "the top level must be a JSON object");
    expect_refused("", "empty: expected a JSON object");
}

/* Every text field of a talk, and of the scenarios it holds, refuses
 * invalid UTF-8 with the field's place and the byte offset; a base file
 * names itself. Each form: a stray byte, an overlong NUL, a surrogate, a
 * code point past U+10FFFF. */
static void test_talk_refuses_invalid_utf8(void **state)
{
    (void)state;
    static const char *const forms[] = {"\xFF", "\xC0\x80", "\xED\xA0\x80", "\xF4\x90\x80\x80"};
    static const struct {
        const char *json; /* %s: the bad bytes, after "ab" */
        const char *field;
    } fields[] = {
        {"{\"talk\": \"ab%s\", \"slides\": [{}]}", ": talk = \"ab"},
        {"{\"description\": \"ab%s\", \"slides\": [{}]}", ": description = \"ab"},
        {"{\"slides\": [{}, {\"title\": \"ab%s\"}]}", ": slides[1].title = \"ab"},
        {"{\"slides\": [{\"notes\": \"ab%s\"}]}", ": slides[0].notes = \"ab"},
        {"{\"slides\": [{\"camera\": \"ab%s\"}]}", ": slides[0].camera = \"ab"},
        {"{\"slides\": [{\"beats\": [{\"t\": 1, \"title\": \"ab%s\"}]}]}",
         ": slides[0].beats[0].title = \"ab"},
        {"{\"base\": {\"description\": \"ab%s\"}, \"slides\": [{}]}", ": base.description = \"ab"},
        {"{\"slides\": [{\"scenario\": \"ab%s.json\"}]}", ": slides[0].scenario = \"ab"},
    };
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++)
        for (size_t b = 0; b < sizeof forms / sizeof forms[0]; b++) {
            char text[256], want[160];
            snprintf(text, sizeof text, fields[f].json, forms[b]);
            snprintf(want, sizeof want, "%s", fields[f].field);
            expect_refused(text, want);
            snprintf(want, sizeof want, "invalid UTF-8 at byte offset 2 of the value (0x%02X)",
                     (unsigned char)forms[b][0]);
            expect_refused(text, want);
        }
    char base[512];
    put(base, sizeof base, "base_bad.json", "{\"beats\": [{\"t\": 1, \"title\": \"x\xFF\"}]}");
    expect_refused("{\"base\": \"base_bad.json\", \"slides\": [{}]}",
                   "base_bad.json: beats[0].title = \"x\\xFF\": invalid UTF-8 at byte offset 1");
}

/* The talk's JSON text parses the same without a file (talk_file_parse_json). */
static void test_parse_text(void **state)
{
    (void)state;
    talk_file t;
    ppf_error err = {{0}};
    const char *text = "{\"slides\": [{\"schedule\": \"zb-h1\"}]}xx";
    assert_true(talk_file_parse_json(&t, text, strlen(text) - 2, NULL, false, &err));
    assert_string_equal(t.slides[0].sc.schedule, "zb-h1");
    talk_file_deinit(&t);
    assert_false(talk_file_parse_json(&t, "{\"slides\": 1}", 13, NULL, false, &err));
    assert_non_null(strstr(err.message, "slides = 1: must be an array"));
}

/* Every talk in assets/ builds whole, each slide a different schedule. */
static void test_asset_talks(void **state)
{
    (void)state;
    const char *dir_path = PPFLOW_SOURCE_DIR "/assets";
    DIR *dir = opendir(dir_path);
    assert_non_null(dir);
    int talks = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir_path, e->d_name);
        if (!talk_file_detect(path))
            continue;
        talks++;
        talk d;
        ppf_error err = {{0}};
        if (!talk_build(&d, &(talk_desc){.path = path, .with_scene = true}, &err))
            fail_msg("%s", err.message);
        assert_true(d.is_talk);
        assert_ge(d.count, 2);
        for (int k = 0; k < d.count; k++) {
            assert_true(d.slides[k]->has_scene);
            assert_ge(d.slides[k]->beats.count, 2);
            assert_true(d.info[k].title[0] != '\0');
            for (int b = 0; b < d.slides[k]->beats.count; b++)
                assert_true(d.slides[k]->beats.beats[b].caption[0] != '\0');
        }
        talk_deinit(&d);
    }
    closedir(dir);
    assert_ge(talks, 1);
}

/* assets/talk.json: the slides the README names, with the closed-form
 * bubbles its last captions quote. */
static void test_example_talk(void **state)
{
    (void)state;
    talk d;
    ppf_error err = {{0}};
    if (!talk_build(&d, &(talk_desc){.path = PPFLOW_SOURCE_DIR "/assets/talk.json"}, &err))
        fail_msg("%s", err.message);
    assert_int_equal(d.count, 4);
    const char *schedules[] = {"gpipe", "1f1b", "interleaved-1f1b", "zb-h1"};
    const double makespans[] = {33, 33, 28.5, 27};
    for (int k = 0; k < 4; k++) {
        const session *s = d.slides[k];
        assert_string_equal(s->sc.schedule, schedules[k]);
        assert_true(s->tl.makespan == makespans[k]);
        /* the last beat is the end, where the caption gives the bubble */
        const beat_list *bl = &s->beats;
        assert_true(bl->beats[bl->count - 1].t == s->tl.makespan);
        assert_true(bl->beats[0].t == 0);
    }
    talk_deinit(&d);
}

static void test_deck(void **state)
{
    (void)state;
    char path[512];
    put(path, sizeof path, "talk.json",
        "{\"slides\": [{\"title\": \"A\", \"schedule\": \"gpipe\", \"notes\": \"n\"},"
        " {\"schedule\": \"1f1b\", \"camera\": \"top\"}]}");
    talk d;
    ppf_error err = {{0}};
    const session_flag flags[] = {{"microbatches", "4"}, {"dp", "1"}};
    if (!talk_build(&d, &(talk_desc){.path = path, .flags = flags, .flag_count = 2}, &err))
        fail_msg("%s", err.message);
    assert_int_equal(d.count, 2);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(d.slides[k]->prog.microbatches, 4); /* the flags on every slide */
        assert_false(d.slides[k]->has_scene);
    }
    assert_string_equal(talk_slide_title(&d, 0), "A");
    assert_string_equal(talk_slide_title(&d, 1), d.slides[1]->hud_title);
    assert_string_equal(d.info[0].notes, "n");
    assert_false(d.info[0].has_camera);
    assert_true(d.info[1].has_camera);
    assert_int_equal(d.info[1].camera, camera_preset_find("top"));
    talk_deinit(&d);

    /* a scenario, or none: a talk of one */
    assert_true(talk_build(&d, &(talk_desc){.with_scene = true}, &err));
    assert_int_equal(d.count, 1);
    assert_false(d.is_talk);
    assert_true(d.slides[0]->has_scene);
    talk_deinit(&d);
    assert_true(talk_build(&d, &(talk_desc){.path = PPFLOW_SOURCE_DIR "/assets/gpipe.json"}, &err));
    assert_int_equal(d.count, 1);
    assert_string_equal(d.slides[0]->sc.schedule, "gpipe");
    talk_deinit(&d);

    /* a slide that cannot be built, an unknown camera, a bad flag */
    put(path, sizeof path, "deck_bad.json",
        "{\"slides\": [{}, {\"beats\": [{\"after\": \"9B0\", \"title\": \"x\"}]}]}");
    assert_false(talk_build(&d, &(talk_desc){.path = path}, &err));
    assert_int_equal(d.count, 0);
    assert_non_null(strstr(err.message, "deck_bad.json: slides[1]: beats[0].after = \"9B0\""));
    put(path, sizeof path, "deck_camera.json", "{\"slides\": [{\"camera\": \"topp\"}]}");
    assert_false(talk_build(&d, &(talk_desc){.path = path}, &err));
    assert_non_null(strstr(err.message, "deck_camera.json: slides[0]: camera = \"topp\": unknown"));
    const session_flag bad[] = {{"stages", "0"}};
    assert_false(talk_build(&d, &(talk_desc){.path = path, .flags = bad, .flag_count = 1}, &err));
    put(path, sizeof path, "deck_ok.json", "{\"slides\": [{}]}");
    assert_false(talk_build(&d, &(talk_desc){.path = path, .flags = bad, .flag_count = 1}, &err));
    assert_non_null(strstr(err.message, "stages"));
    assert_null(strstr(err.message, "slides["));
    talk_deinit(&d);
}

/* The largest D whose two slides of P=4, K=1024, M=8 draw at most the
 * object budget together. */
static int largest_replicas_for_two(void)
{
    int lo = 1, hi = 100000; /* lo fits, hi does not */
    while (hi - lo > 1) {
        const int mid = lo + (hi - lo) / 2;
        *(2 * scene_count_objects(4, 1024, 8, mid) <= BUDGET_MAX_OBJECTS ? &lo : &hi) = mid;
    }
    return lo;
}

/* Every slide of a talk is held at once: their sum is held to the budget,
 * counted before any slide is simulated. Two slides that each fit and
 * together reach it exactly build; one replica more is refused, naming the
 * talk, the sum and the largest slide; a slide that alone is far over the
 * budget (2e12 actions) is refused as quickly, by the sum. */
static void test_deck_total(void **state)
{
    (void)state;
    const int d_max = largest_replicas_for_two();
    char path[512], text[400];
    const char *form = "{\"base\": {\"stages\": 4, \"microbatches\": 8, \"layers_per_stage\": "
                       "1024, \"dp\": %d}, \"slides\": [{\"title\": \"a\"}, {\"schedule\": "
                       "\"gpipe\"}]}";
    snprintf(text, sizeof text, form, d_max);
    put(path, sizeof path, "under.json", text);
    talk d;
    ppf_error err = {{0}};
    if (!talk_build(&d, &(talk_desc){.path = path, .with_scene = true}, &err))
        fail_msg("%s", err.message);
    assert_int_equal(d.count, 2);
    assert_true(d.slides[1]->has_scene);
    talk_deinit(&d);
    /* without the scenes nothing is drawn: the objects do not count */
    snprintf(text, sizeof text, form, d_max + 1);
    put(path, sizeof path, "over.json", text);
    if (!talk_build(&d, &(talk_desc){.path = path}, &err))
        fail_msg("%s", err.message);
    talk_deinit(&d);
    assert_false(talk_build(&d, &(talk_desc){.path = path, .with_scene = true}, &err));
    assert_int_equal(d.count, 0);
    assert_message(&err, "over.json: 2 slides: ", " objects to draw in all (the most, slides[",
                   "at most 5e7 for everything one command builds");
    /* the command line's flags count: fewer replicas fit again */
    char half[16];
    snprintf(half, sizeof half, "%d", d_max / 2);
    const session_flag fewer[] = {{"dp", half}};
    if (!talk_build(&d,
                    &(talk_desc){.path = path, .flags = fewer, .flag_count = 1, .with_scene = true},
                    &err))
        fail_msg("%s", err.message);
    talk_deinit(&d);
    put(path, sizeof path, "far.json",
        "{\"slides\": [{}, {\"stages\": 4096, \"microbatches\": 1000000, \"virtual\": 64, "
        "\"schedule\": \"looped-bfs\"}]}");
    assert_false(talk_build(&d, &(talk_desc){.path = path}, &err));
    assert_message(&err, "far.json: 2 slides: ", "actions in all (the most, slides[1]: ");
}

/* A CSV slide is counted by its cells, from one walk over its file, before
 * anything is built; once the slides before it are over the budget a CSV
 * is not read, and the message says so. */
static void test_deck_total_with_csv(void **state)
{
    (void)state;
    char csv[512], path[512], cells[128] = "0F0,0B0";
    for (int k = 0; k < 99; k++)
        strcat(cells, ",");
    strcat(cells, "\n");
    put(csv, sizeof csv, "cells101.csv", cells); /* 2 actions and 99 idle cells */
    /* 100 x (3 x 66397 + 808) = 19999900 and the CSV's 101 cells */
    put(path, sizeof path, "csv_total.json",
        "{\"slides\": [{\"schedule\": \"zb-h1\", \"stages\": 100, \"microbatches\": 66397}, "
        "{\"schedule\": \"csv:cells101.csv\"}]}");
    talk d;
    ppf_error err = {{0}};
    assert_false(talk_build(&d, &(talk_desc){.path = path}, &err));
    assert_message(&err, "csv_total.json: 2 slides: 20000001 actions in all (the most, slides[0]");
    put(path, sizeof path, "csv_unread.json",
        "{\"base\": {\"schedule\": \"zb-h1\", \"stages\": 100, \"microbatches\": 66397}, "
        "\"slides\": [{}, {}, {\"schedule\": \"csv:cells101.csv\"}, {\"schedule\": "
        "\"csv:no-such.csv\"}]}");
    assert_false(talk_build(&d, &(talk_desc){.path = path}, &err));
    assert_message(&err, "csv_unread.json: 4 slides (2 CSV slides past the limit not read): "
                         "39999800 actions in all");
    /* counted by the rules its build reads it by: confined, a CSV outside
     * the talk's folder is refused unread, as its build refuses it */
    put(path, sizeof path, "csv_outside.json",
        "{\"slides\": [{}, {\"schedule\": \"csv:/etc/passwd\"}]}");
    assert_false(talk_build(&d, &(talk_desc){.path = path, .confine = true}, &err));
    assert_message(&err, "csv_outside.json: slides[1]: schedule = \"csv:/etc/passwd\": leads "
                         "outside the folder");
    assert_null(strstr(err.message, "root"));
    /* within the budget, a CSV slide that cannot be read is named as its build names it */
    put(path, sizeof path, "csv_missing.json",
        "{\"slides\": [{}, {\"schedule\": \"csv:no-such.csv\"}]}");
    assert_false(talk_build(&d, &(talk_desc){.path = path}, &err));
    assert_message(&err,
                   "csv_missing.json: slides[1]: schedule = \"csv:", "no-such.csv\": cannot open");
}

/* A command that shows one slide builds that one: talk_build_slide gives a
 * talk of one, says which slide it is, and neither builds nor counts the
 * others (far over the budget here, alone and together); a --slide past the
 * last is named. */
static void test_deck_one_slide(void **state)
{
    (void)state;
    char path[512];
    put(path, sizeof path, "one.json",
        "{\"slides\": [{\"title\": \"a\"}, {\"title\": \"b\", \"schedule\": \"gpipe\"}, "
        "{\"stages\": 4096, \"microbatches\": 1000000}]}");
    talk d;
    ppf_error err = {{0}};
    for (int slide = 0; slide <= 2; slide++) {
        if (!talk_build_slide(&d, &(talk_desc){.path = path, .with_scene = true}, slide, &err))
            fail_msg("--slide %d: %s", slide, err.message);
        assert_int_equal(d.count, 1);
        assert_int_equal(d.first, slide > 0 ? slide - 1 : 0);
        assert_int_equal(d.talk_count, 3);
        assert_true(d.slides[0]->has_scene);
        assert_string_equal(d.info[0].title, slide == 2 ? "b" : "a");
        assert_string_equal(d.slides[0]->sc.schedule, slide == 2 ? "gpipe" : "1f1b");
        talk_deinit(&d);
    }
    assert_false(talk_build_slide(&d, &(talk_desc){.path = path}, 3, &err));
    assert_message(&err, "one.json: slides[2]: stages x (");
    assert_false(talk_build_slide(&d, &(talk_desc){.path = path}, 4, &err));
    assert_message(&err, "--slide = 4: the talk has 3 slides");
    assert_false(talk_build(&d, &(talk_desc){.path = path}, &err));
    assert_message(&err, "one.json: 3 slides: ");
    /* a scenario is one slide */
    assert_true(talk_build_slide(&d, &(talk_desc){}, 1, &err));
    assert_int_equal(d.count, 1);
    talk_deinit(&d);
    assert_false(talk_build_slide(&d, &(talk_desc){}, 2, &err));
    assert_message(&err, "--slide = 2: a scenario is one slide");
}

int main(void)
{
    if (!scratch_init(scratch, sizeof scratch, "ppflow_test_talk"))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_talk),
        cmocka_unit_test(test_detect),
        cmocka_unit_test(test_bad_talks),
        cmocka_unit_test(test_parse_text),
        cmocka_unit_test(test_talk_refuses_invalid_utf8),
        cmocka_unit_test(test_asset_talks),
        cmocka_unit_test(test_example_talk),
        cmocka_unit_test(test_deck),
        cmocka_unit_test(test_deck_total),
        cmocka_unit_test(test_deck_total_with_csv),
        cmocka_unit_test(test_deck_one_slide),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    scratch_deinit(scratch);
    return failed;
}
