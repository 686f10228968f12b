/* test_scenario_json.c - the scenario's JSON reader (scenario_json.c): fields
 * and costs from a file, all-reduce forms, malformed and mistyped input, a
 * failed parse leaving the scenario as it was, files and their CSV paths,
 * every example scenario in assets/, and beats: "beats", "auto_beats" and
 * --beats auto|none|FILE. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "json_text.h"
#include "scenario.h"
#include "talk_file.h"
#include "support/check.h"
#include "support/scratch.h"
#include "timeline.h"

#ifndef PPFLOW_SOURCE_DIR
#define PPFLOW_SOURCE_DIR "."
#endif

/* Doubles are compared to 1e-12 relative (assert_near_rel). */
#define REL 1e-12

/* A scratch directory for the scenario and CSV files the tests read. */
static char scratch[256];

static bool parse(scenario *sc, const char *json, ppf_error *err)
{
    *err = (ppf_error){0};
    return scenario_parse_json(sc, json, strlen(json), err);
}

static void parse_ok(scenario *sc, const char *json)
{
    ppf_error err = {0};
    bool ok = parse(sc, json, &err);
    if (!ok)
        print_message("JSON %s\nrejected: %s\n", json, err.message);
    assert_true(ok);
}

/* Parses expecting failure over a default scenario, which must not change. */
static void parse_bad(const char *json, ppf_error *err)
{
    scenario sc;
    scenario_init(&sc);
    scenario before = sc;
    bool ok = parse(&sc, json, err);
    if (ok)
        print_message("JSON %s was accepted\n", json);
    assert_false(ok);
    assert_memory_equal(&sc, &before, sizeof sc);
    scenario_deinit(&sc);
}

/* ---- JSON ---------------------------------------------------------------- */

static void test_json_overrides(void **state)
{
    (void)state;
    scenario sc;
    scenario_init(&sc);
    parse_ok(&sc, "{\"microbatches\": 12, \"dp\": 1}");
    assert_int_equal(sc.microbatches, 12);
    assert_int_equal(sc.dp, 1);
    assert_int_equal(sc.stages, 4); /* untouched */
    assert_string_equal(sc.schedule, "1f1b");
    assert_int_equal(sc.set_mask, (1u << FIELD_MICROBATCHES) | (1u << FIELD_DP));
    assert_string_equal(sc.source, "built-in default");

    parse_ok(
        &sc,
        "{\n"
        "  \"description\": \"every field\",\n"
        "  \"schedule\": \"interleaved-1f1b\",\n"
        "  \"stages\": 2, \"microbatches\": 4, \"virtual\": 2, \"dp\": 8,\n"
        "  \"layers_per_stage\": 3,\n"
        "  \"d_model\": 4, \"d_hidden\": 6, \"batch\": 30, \"stage_gap\": 0, \"replica_gap\": 5,\n"
        "  \"costs\": {\"f\": 1.25, \"b\": [2, 2.5], \"i\": 1, \"w\": [1, 1.5], \"fb\": 3,\n"
        "            \"p2p\": 0.05, \"allreduce\": 4},\n"
        "  \"beats\": [{\"after\": \"1B0\", \"title\": \"first round trip\"}],\n"
        "  \"auto_beats\": false\n"
        "}\n");
    assert_string_equal(sc.schedule, "interleaved-1f1b");
    assert_int_equal(sc.stages, 2);
    assert_int_equal(sc.microbatches, 4);
    assert_int_equal(sc.virtual_stages, 2);
    assert_int_equal(sc.dp, 8);
    assert_int_equal(sc.layers_per_stage, 3);
    assert_int_equal(sc.d_model, 4);
    assert_int_equal(sc.d_hidden, 6);
    assert_int_equal(sc.batch, 30);
    assert_int_equal(sc.stage_gap, 0);
    assert_int_equal(sc.replica_gap, 5);
    assert_int_equal(sc.f.count, 1);
    assert_near_rel(sc.f.values[0], 1.25, REL);
    assert_int_equal(sc.b.count, 2);
    assert_near_rel(sc.b.values[1], 2.5, REL);
    assert_int_equal(sc.w.count, 2);
    assert_near_rel(sc.w.values[1], 1.5, REL);
    assert_near_rel(sc.p2p.values[0], 0.05, REL);
    assert_int_equal(sc.allreduce.mode, ALLREDUCE_TIME);
    assert_near_rel(sc.allreduce.time, 4, REL);
    assert_int_equal(sc.beats.count, 1);
    assert_string_equal(sc.beats.items[0].after, "1B0");
    assert_string_equal(sc.beats.items[0].title, "first round trip");
    assert_true(sc.beats.no_auto);
    assert_int_equal(sc.set_mask, (1u << FIELD_COUNT) - 1);

    /* A flag after the file overrides it. */
    ppf_error set_err = {0};
    assert_true(scenario_set(&sc, "b", "3", &set_err));
    assert_int_equal(sc.b.count, 1);
    assert_near_rel(sc.b.values[0], 3, REL);
    scenario_deinit(&sc);

    /* Text need not be NUL-terminated. */
    scenario_init(&sc);
    const char *text = "{\"stages\": 2}garbage";
    ppf_error err = {0};
    assert_true(scenario_parse_json(&sc, text, 13, &err));
    assert_int_equal(sc.stages, 2);
    assert_false(scenario_parse_json(&sc, text, strlen(text), &err));
    assert_message(&err, "malformed JSON at line 1, column 14");
    scenario_deinit(&sc);
}

static void test_json_allreduce_forms(void **state)
{
    (void)state;
    scenario sc;
    scenario_init(&sc);
    parse_ok(&sc, "{\"costs\": {\"allreduce\": 2.5}}");
    assert_int_equal(sc.allreduce.mode, ALLREDUCE_TIME);
    assert_near_rel(sc.allreduce.time, 2.5, REL);
    parse_ok(&sc, "{\"costs\": {\"allreduce\": \"1GB/100GB/tree/1e-6\"}}");
    assert_int_equal(sc.allreduce.mode, ALLREDUCE_TREE);
    assert_near_rel(sc.allreduce.bytes, 1e9, REL);
    assert_near_rel(sc.allreduce.latency, 1e-6, REL);
    parse_ok(&sc, "{\"costs\": {\"allreduce\": {\"time\": 3}}}");
    assert_int_equal(sc.allreduce.mode, ALLREDUCE_TIME);
    assert_near_rel(sc.allreduce.time, 3, REL);
    parse_ok(&sc, "{\"costs\": {\"allreduce\": {\"bytes\": 2e9, \"bandwidth\": \"50GB\"}}}");
    assert_int_equal(sc.allreduce.mode, ALLREDUCE_RING);
    assert_near_rel(sc.allreduce.bytes, 2e9, REL);
    assert_near_rel(sc.allreduce.bandwidth, 5e10, REL);
    assert_near_rel(sc.allreduce.latency, 0, REL);
    parse_ok(&sc, "{\"costs\": {\"allreduce\": {\"bytes\": \"1GiB\", \"bandwidth\": 1e10, "
                  "\"algorithm\": \"tree\","
                  " \"latency\": 5e-6}}}");
    assert_int_equal(sc.allreduce.mode, ALLREDUCE_TREE);
    assert_near_rel(sc.allreduce.bytes, 1073741824.0, REL);
    assert_near_rel(sc.allreduce.latency, 5e-6, REL);
    parse_ok(
        &sc,
        "{\"costs\": {\"allreduce\": {\"bytes\": 1, \"bandwidth\": 1, \"algorithm\": \"ring\"}}}");
    assert_int_equal(sc.allreduce.mode, ALLREDUCE_RING);
    scenario_deinit(&sc);
}

static void test_json_malformed(void **state)
{
    (void)state;
    ppf_error err;
    parse_bad("{\n  \"stages\": 4,\n  \"microbatches\": ]\n}", &err);
    assert_message(&err, "malformed JSON at line 3, column 19");
    parse_bad("{\"stages\": 4", &err);
    assert_message(&err, "malformed JSON", "line 1", "end of text");
    parse_bad("{} x", &err);
    assert_message(&err, "malformed JSON at line 1, column 4");
    parse_bad("", &err);
    assert_message(&err, "empty");
    parse_bad(" \n ", &err);
    assert_message(&err, "empty");
    parse_bad("{\"stages\": 4,}", &err);
    assert_message(&err, "malformed JSON");
    parse_bad("{\"schedule\": \"1f1b\n\x01\"", &err);
    assert_message(&err, "malformed JSON");

    scenario sc;
    scenario_init(&sc);
    assert_false(scenario_parse_json(&sc, "{\"stages\":\0 4}", 14, &err));
    assert_message(&err, "NUL byte at line 1, column 11");
    scenario_deinit(&sc);
}

static void test_json_structure(void **state)
{
    (void)state;
    ppf_error err;
    parse_bad("[1, 2]", &err);
    assert_message(&err, "top level must be a JSON object", "an array");
    parse_bad("4", &err);
    assert_message(&err, "top level must be a JSON object", "a number");
    parse_bad("{\"stagse\": 4}", &err);
    assert_message(&err, "unknown field \"stagse\"", "known: schedule, stages", "layers_per_stage",
                   "costs", "description");
    parse_bad("{\"f\": 1}", &err);
    assert_message(&err, "unknown field \"f\"");
    parse_bad("{\"layers-per-stage\": 1}", &err);
    assert_message(&err, "unknown field \"layers-per-stage\"");
    parse_bad("{\"costs\": {\"forward\": 1}}", &err);
    assert_message(&err, "unknown field \"costs.forward\"",
                   "known: f, b, i, w, fb, p2p, allreduce");
    parse_bad("{\"costs\": {\"stages\": 1}}", &err);
    assert_message(&err, "unknown field \"costs.stages\"");
    parse_bad("{\"stages\": 4, \"stages\": 5}", &err);
    assert_message(&err, "\"stages\" appears twice");
    parse_bad("{\"costs\": {\"f\": 1, \"f\": 2}}", &err);
    assert_message(&err, "\"costs.f\" appears twice");
    parse_bad("{\"costs\": {}, \"costs\": {}}", &err);
    assert_message(&err, "\"costs\" appears twice");
    parse_bad("{\"description\": \"a\", \"description\": \"b\"}", &err);
    assert_message(&err, "\"description\" appears twice");
    parse_bad("{\"costs\": {\"allreduce\": {\"time\": 1, \"time\": 2}}}", &err);
    assert_message(&err, "costs.allreduce", "\"time\" appears twice");
}

static void test_json_types(void **state)
{
    (void)state;
    static const struct {
        const char *json, *piece1, *piece2;
    } bad[] = {
        {"{\"stages\": \"4\"}", "stages = \"4\": must be an integer from 1 to 4096",
         "not a string"},
        {"{\"stages\": 2.5}", "stages = 2.5: must be an integer from 1 to 4096", ""},
        {"{\"stages\": 0}", "stages = 0: must be an integer", ""},
        {"{\"stages\": 4097}", "stages = 4097: must be an integer", ""},
        {"{\"stages\": 1e300}", "stages = 1e300: must be an integer", ""},
        /* Out of range numbers show as written, not as cJSON prints them. */
        {"{\"stages\": 1e999}", "stages = 1e999: must be an integer", ""},
        {"{\"dp\": 99999999999999999999}", "dp = 99999999999999999999: must be", ""},
        {"{\"costs\": {\"f\": [1, 2, -1E+999]}}", "costs.f[2] = -1E+999: costs must be", ""},
        {"{\"costs\": {\"allreduce\": {\"time\": 1e400}}}", "costs.allreduce.time = 1e400", ""},
        /* cJSON would end a string at \u0000: "stages\u0000x" would read as "stages". */
        {"{\"stages\\u0000x\": 4}", "\\u0000 (a NUL character) at line 1, column 9", ""},
        {"{\"schedule\": \"gpipe\\u0000\"}", "\\u0000 (a NUL character)", ""},
        {"{\"microbatches\": 0}", "microbatches = 0: must be an integer from 1 to 1000000", ""},
        {"{\"microbatches\": null}", "microbatches = null", "not null"},
        {"{\"virtual\": true}", "virtual = true", "not a boolean"},
        {"{\"dp\": [2]}", "dp = [2]", "not an array"},
        {"{\"layers_per_stage\": -3}", "layers_per_stage = -3", "from 1 to 1024"},
        {"{\"schedule\": 5}", "schedule = 5: must be a string", "not a number"},
        {"{\"schedule\": \"gpip\"}", "schedule = \"gpip\": unknown schedule (known: gpipe",
         "csv:PATH)"},
        {"{\"description\": 5}", "description = 5: must be a string", ""},
        {"{\"costs\": 5}", "costs = 5: must be an object", ""},
        {"{\"costs\": {\"f\": \"1\"}}", "costs.f = \"1\"", "not a string"},
        {"{\"costs\": {\"f\": [1, 2, -1]}}", "costs.f[2] = -1: costs must be finite numbers >= 0",
         ""},
        {"{\"costs\": {\"b\": -1}}", "costs.b = -1: costs must be finite numbers >= 0", ""},
        {"{\"costs\": {\"b\": [1, \"2\"]}}", "costs.b[1] = \"2\"", "finite numbers"},
        {"{\"costs\": {\"w\": []}}", "costs.w = []", "one number per rank"},
        {"{\"costs\": {\"p2p\": {}}}", "costs.p2p = {}", "not an object"},
        {"{\"costs\": {\"allreduce\": true}}", "costs.allreduce = true", "not a boolean"},
        {"{\"costs\": {\"allreduce\": -2}}", "costs.allreduce = -2", ">= 0"},
        {"{\"costs\": {\"allreduce\": \"1G/0\"}}", "costs.allreduce = \"1G/0\"", "bandwidth"},
        {"{\"costs\": {\"allreduce\": {\"bytes\": 1}}}", "costs.allreduce = {\"bytes\":1}",
         "\"bandwidth\""},
        {"{\"costs\": {\"allreduce\": {\"bytes\": 1, \"bandwidth\": 0}}}",
         "costs.allreduce.bandwidth = 0", "> 0"},
        {"{\"costs\": {\"allreduce\": {\"bytes\": -1, \"bandwidth\": 1}}}",
         "costs.allreduce.bytes = -1", ">= 0"},
        {"{\"costs\": {\"allreduce\": {\"bytes\": 1, \"bandwidth\": 1, \"algorithm\": \"star\"}}}",
         "costs.allreduce.algorithm = \"star\"", "\"ring\" or \"tree\""},
        {"{\"costs\": {\"allreduce\": {\"bytes\": 1, \"bandwidth\": 1, \"latency\": \"x\"}}}",
         "costs.allreduce.latency = \"x\"", ""},
        {"{\"costs\": {\"allreduce\": {\"time\": 1, \"bytes\": 1}}}", "costs.allreduce",
         "not both"},
        {"{\"costs\": {\"allreduce\": {\"seconds\": 1}}}",
         "costs.allreduce: unknown field \"seconds\"", "time"},
        {"{\"costs\": {\"allreduce\": {\"time\": -1}}}", "costs.allreduce.time = -1", ">= 0"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        ppf_error err;
        parse_bad(bad[k].json, &err);
        assert_message(&err, bad[k].piece1, bad[k].piece2);
    }
}

/* A failed parse leaves everything as it was, even after fields applied. */
static void test_json_atomic(void **state)
{
    (void)state;
    scenario sc;
    scenario_init(&sc);
    ppf_error set_err = {0};
    assert_true(scenario_set(&sc, "f", "1,2,3,4", &set_err));
    scenario before = sc;
    ppf_error err;
    assert_false(parse(&sc, "{\"stages\": 8, \"costs\": {\"f\": [5], \"b\": -1}}", &err));
    assert_memory_equal(&sc, &before, sizeof sc);
    assert_int_equal(sc.f.count, 4);
    assert_near_rel(sc.f.values[3], 4, REL);
    scenario_deinit(&sc);
}

/* ---- files --------------------------------------------------------------- */

static void test_load_file(void **state)
{
    (void)state;
    char path[300];
    scratch_put(path, sizeof path, scratch, "scenario.json",
                "{\"schedule\": \"gpipe\", \"microbatches\": 6}");
    scenario sc;
    scenario_init(&sc);
    ppf_error err = {0};
    assert_true(scenario_load_file(&sc, path, &err));
    assert_string_equal(sc.schedule, "gpipe");
    assert_int_equal(sc.microbatches, 6);
    assert_string_equal(sc.source, path);

    /* Messages from a file start with its path. */
    scratch_put(path, sizeof path, scratch, "costs.json", "{\n\"costs\": {\"f\": [1, 2, -1]}\n}");
    assert_false(scenario_load_file(&sc, path, &err));
    char expect[400];
    snprintf(expect, sizeof expect, "%s: costs.f[2] = -1: costs must be finite numbers >= 0", path);
    assert_string_equal(err.message, expect);

    scratch_put(path, sizeof path, scratch, "oops.json", "{\n\n   oops");
    assert_false(scenario_load_file(&sc, path, &err));
    snprintf(expect, sizeof expect, "%s: malformed JSON at line 3, column ", path);
    assert_message(&err, expect);

    assert_false(scenario_load_file(&sc, "/nonexistent/dir/x.json", &err));
    assert_message(&err, "/nonexistent/dir/x.json: cannot open", "No such file");
    assert_false(scenario_load_file(&sc, "/tmp", &err));
    assert_message(&err, "/tmp: is a directory, not a scenario file");
    assert_int_equal(sc.microbatches, 6);
    scenario_deinit(&sc);
}

/* csv:PATH in a file is relative to the file's folder. */
static void test_load_file_csv_path(void **state)
{
    (void)state;
    char path[300], want[320];
    scratch_put(path, sizeof path, scratch, "relative.json", "{\"schedule\": \"csv:pipe.csv\"}");
    scenario sc;
    scenario_init(&sc);
    ppf_error err = {0};
    assert_true(scenario_load_file(&sc, path, &err));
    snprintf(want, sizeof want, "csv:%s/pipe.csv", scratch);
    assert_string_equal(sc.schedule, want);
    scratch_put(path, sizeof path, scratch, "absolute.json",
                "{\"schedule\": \"csv:/abs/pipe.csv\"}");
    assert_true(scenario_load_file(&sc, path, &err));
    assert_string_equal(sc.schedule, "csv:/abs/pipe.csv");
    scenario_deinit(&sc);
}

/* default.json says what the built-in default is: the same fields and, once
 * resolved, the same cost of every action on every rank. */
static void check_same_as_default(const scenario *sc)
{
    scenario def;
    scenario_init(&def);
    assert_string_equal(sc->schedule, def.schedule);
    assert_int_equal(sc->stages, def.stages);
    assert_int_equal(sc->microbatches, def.microbatches);
    assert_int_equal(sc->virtual_stages, def.virtual_stages);
    assert_int_equal(sc->dp, def.dp);
    assert_int_equal(sc->layers_per_stage, def.layers_per_stage);
    ppf_error err = {0};
    program pa, pb;
    timeline_costs a, b;
    assert_true(scenario_build(sc, &pa, &a, &err));
    assert_true(scenario_build(&def, &pb, &b, &err));
    assert_int_equal(a.ranks, b.ranks);
    for (int r = 0; r < a.ranks; r++) {
        assert_near_rel(a.f[r], b.f[r], REL);
        assert_near_rel(a.b[r], b.b[r], REL);
        assert_near_rel(a.i[r], b.i[r], REL);
        assert_near_rel(a.w[r], b.w[r], REL);
        assert_near_rel(a.fb[r], b.fb[r], REL);
        assert_near_rel(a.p2p[r], b.p2p[r], REL);
    }
    /* The default shows communication: p2p and all-reduce both take time. */
    assert_gt(b.p2p[0], 0);
    assert_int_equal(a.allreduce.mode, b.allreduce.mode);
    assert_int_equal(b.allreduce.mode, ALLREDUCE_RING);
    assert_near_rel(a.allreduce.bytes, b.allreduce.bytes, REL);
    assert_near_rel(a.allreduce.bandwidth, b.allreduce.bandwidth, REL);
    assert_near_rel(a.allreduce.latency, b.allreduce.latency, REL);
    assert_gt(allreduce_stage_time(&b.allreduce, b.dp, 1), 0);
    timeline_costs_deinit(&a);
    timeline_costs_deinit(&b);
    program_deinit(&pa);
    program_deinit(&pb);
    scenario_deinit(&def);
}

/* textbook.json is the default with free transfers: the closed form
 * (M + P - 1)(F + B) holds exactly. */
static void check_textbook(const scenario *sc)
{
    ppf_error err = {0};
    program p;
    timeline_costs c;
    assert_true(scenario_build(sc, &p, &c, &err));
    for (int r = 0; r < c.ranks; r++)
        assert_true(c.p2p[r] == 0);
    assert_int_equal(c.allreduce.mode, ALLREDUCE_NONE);
    timeline tl;
    assert_true(timeline_simulate(&tl, &p, &c, &err));
    double want = (sc->microbatches + sc->stages - 1) * (c.f[0] + c.b[0]);
    assert_near_rel(tl.makespan, want, REL);
    timeline_deinit(&tl);
    timeline_costs_deinit(&c);
    program_deinit(&p);
}

/* Every example scenario parses, builds and simulates; default.json is the
 * built-in default. */
static void test_assets(void **state)
{
    (void)state;
    const char *dir_path = PPFLOW_SOURCE_DIR "/assets";
    DIR *dir = opendir(dir_path);
    if (!dir)
        fail_msg("cannot open %s: the example scenarios ship with ppflow", dir_path);
    int count = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir_path, e->d_name);
        if (talk_file_detect(path))
            continue; /* a talk (test_talk.c) */
        scenario sc;
        scenario_init(&sc);
        ppf_error err = {0};
        bool ok = scenario_load_file(&sc, path, &err);
        if (!ok)
            print_message("%s\n", err.message);
        assert_true(ok);
        program p;
        timeline_costs c;
        ok = scenario_build(&sc, &p, &c, &err);
        if (!ok)
            print_message("%s: %s\n", path, err.message);
        assert_true(ok);
        timeline tl;
        ok = timeline_simulate(&tl, &p, &c, &err);
        if (!ok)
            print_message("%s: %s\n", path, err.message);
        assert_true(ok);
        assert_gt(tl.makespan, 0);
        timeline_deinit(&tl);
        timeline_costs_deinit(&c);
        program_deinit(&p);

        if (strcmp(e->d_name, "default.json") == 0)
            check_same_as_default(&sc);
        if (strcmp(e->d_name, "textbook.json") == 0)
            check_textbook(&sc);
        scenario_deinit(&sc);
        count++;
    }
    closedir(dir);
    print_message("%d example scenarios\n", count);
    assert_ge(count, 10);
}

/* ---- beats ------------------------------------------------------------------ */

static void test_json_beats(void **state)
{
    (void)state;
    scenario sc;
    scenario_init(&sc);
    assert_int_equal(sc.beats.count, 0);
    assert_false(sc.beats.no_auto);
    parse_ok(&sc, "{\"beats\": [{\"t\": 12.5, \"title\": \"steady state\", \"caption\": \"Say "
                  "this.\", \"camera\": \"top\", \"notes\": \"line one\\nline two\"},"
                  " {\"after\": \"3B0\", \"title\": \"loss\"}], \"auto_beats\": false}");
    assert_int_equal(sc.beats.count, 2);
    assert_true(sc.beats.no_auto);
    assert_true(sc.set_mask & (1u << FIELD_BEATS));
    const beat_spec *b = &sc.beats.items[0];
    assert_near_rel(b->t, 12.5, REL);
    assert_string_equal(b->after, "");
    assert_string_equal(b->title, "steady state");
    assert_string_equal(b->caption, "Say this.");
    assert_string_equal(b->camera, "top");
    assert_string_equal(b->notes, "line one\nline two");
    assert_string_equal(sc.beats.items[1].after, "3B0");
    /* A later text's beats replace these whole; auto_beats stays as set. */
    parse_ok(&sc, "{\"beats\": [{\"t\": 0, \"title\": \"only\"}]}");
    assert_int_equal(sc.beats.count, 1);
    assert_true(sc.beats.no_auto);
    parse_ok(&sc, "{\"auto_beats\": true, \"beats\": []}");
    assert_int_equal(sc.beats.count, 0);
    assert_false(sc.beats.no_auto);
    /* A copy owns its beats. */
    parse_ok(&sc, "{\"beats\": [{\"t\": 1, \"title\": \"a\"}]}");
    scenario copy;
    scenario_copy(&copy, &sc);
    assert_ptr_not_equal(copy.beats.items, sc.beats.items);
    scenario_deinit(&sc);
    assert_string_equal(copy.beats.items[0].title, "a");
    scenario_deinit(&copy);
}

/* Text of n copies of c, for strings one byte over a limit. */
static char *repeat(char c, size_t n)
{
    char *s = malloc(n + 1);
    assert_non_null(s);
    memset(s, c, n);
    s[n] = '\0';
    return s;
}

static void test_json_beats_refused(void **state)
{
    (void)state;
    static const struct {
        const char *json;
        const char *field, *rule;
    } bad[] = {
        {"{\"beats\": {}}", "beats = {}", "must be an array"},
        {"{\"beats\": [1]}", "beats[0] = 1", "must be an object"},
        {"{\"beats\": [{\"title\": \"x\"}]}", "beats[0]", "needs \"t\""},
        {"{\"beats\": [{\"t\": 1, \"after\": \"0F0\", \"title\": \"x\"}]}", "beats[0]", "not both"},
        {"{\"beats\": [{\"t\": -1, \"title\": \"x\"}]}", "beats[0].t = -1", "from 0"},
        {"{\"beats\": [{\"t\": \"1\", \"title\": \"x\"}]}", "beats[0].t = \"1\"", "a number"},
        {"{\"beats\": [{\"t\": 1e999, \"title\": \"x\"}]}", "beats[0].t = 1e999", "a number"},
        {"{\"beats\": [{\"t\": 1}]}", "beats[0]", "needs a \"title\""},
        {"{\"beats\": [{\"t\": 1, \"title\": \"\"}]}", "beats[0].title = \"\"", "not be empty"},
        {"{\"beats\": [{\"t\": 1, \"title\": 5}]}", "beats[0].title = 5", "must be a string"},
        {"{\"beats\": [{\"t\": 1, \"title\": \"a\\nb\"}]}", "beats[0].title", "one line"},
        {"{\"beats\": [{\"t\": 1, \"title\": \"x\", \"caption\": \"\\u001b[2J\"}]}",
         "beats[0].caption", "no control characters"},
        {"{\"beats\": [{\"t\": 1, \"title\": \"x\", \"colour\": 1}]}", "beats[0]",
         "unknown field \"colour\" (known: t, after, title, caption, camera, notes)"},
        {"{\"beats\": [{\"t\": 1, \"title\": \"x\", \"title\": \"y\"}]}", "beats[0]",
         "\"title\" appears twice"},
        {"{\"beats\": [{\"t\": 1, \"title\": \"x\"}, {\"after\": \"0SEND_F0\", \"title\": "
         "\"y\"}]}",
         "beats[1].after = \"0SEND_F0\"", "compute action"},
        {"{\"beats\": [{\"after\": 30, \"title\": \"y\"}]}", "beats[0].after = 30",
         "must be a string"},
        {"{\"auto_beats\": 0}", "auto_beats = 0", "true or false"},
        {"{\"auto_beats\": true, \"auto_beats\": false}", "auto_beats", "appears twice"},
        {"{\"beats\": [], \"beats\": []}", "\"beats\"", "appears twice"},
        {"{\"beat\": []}", "unknown field \"beat\"", "beats, auto_beats"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        ppf_error err;
        parse_bad(bad[k].json, &err);
        assert_message(&err, bad[k].field, bad[k].rule);
    }
    /* One byte over each limit, named by its place in the list. */
    static const struct {
        const char *key;
        size_t max;
    } limits[] = {{"title", BEAT_TITLE_MAX},
                  {"caption", BEAT_CAPTION_MAX},
                  {"camera", BEAT_CAMERA_MAX},
                  {"notes", BEAT_NOTES_MAX},
                  {"after", BEAT_AFTER_MAX}};
    for (size_t k = 0; k < sizeof limits / sizeof limits[0]; k++) {
        char *value = repeat('a', limits[k].max);
        size_t size = limits[k].max + 256;
        char *json = malloc(size);
        const bool after = strcmp(limits[k].key, "after") == 0;
        const bool title = strcmp(limits[k].key, "title") == 0;
        snprintf(json, size,
                 "{\"beats\": [{\"t\": 1, \"title\": \"a\"}, {\"t\": 2, \"title\": \"b\"},"
                 " {%s%s\"%s\": \"%s\"}]}",
                 after ? "" : "\"t\": 3, ", title ? "" : "\"title\": \"c\", ", limits[k].key,
                 value);
        ppf_error err;
        parse_bad(json, &err);
        char field[32], rule[48];
        snprintf(field, sizeof field, "beats[2].%s", limits[k].key);
        snprintf(rule, sizeof rule, "longer than %zu bytes", limits[k].max - 1);
        assert_message(&err, field, rule);
        /* At the limit it fits (an "after" that long is no action name). */
        value[limits[k].max - 1] = '\0';
        snprintf(json, size, "{\"beats\": [{\"t\": 3, %s\"%s\": \"%s\"}]}",
                 title ? "" : "\"title\": \"c\", ", limits[k].key, value);
        if (!after) {
            scenario sc;
            scenario_init(&sc);
            parse_ok(&sc, json);
            scenario_deinit(&sc);
        }
        free(json);
        free(value);
    }
    /* More than BEATS_MAX. */
    size_t size = (BEATS_MAX + 1) * 32 + 64, o = 0;
    char *json = malloc(size);
    o += (size_t)snprintf(json + o, size - o, "{\"beats\": [");
    for (int k = 0; k <= BEATS_MAX; k++)
        o += (size_t)snprintf(json + o, size - o, "%s{\"t\": %d, \"title\": \"b\"}", k ? "," : "",
                              k);
    snprintf(json + o, size - o, "]}");
    ppf_error err;
    parse_bad(json, &err);
    assert_message(&err, "beats has 1001 items", "at most 1000");
    free(json);
}

/* --beats auto|none|FILE through scenario_set, as the command line sets it. */
static void test_beats_flag(void **state)
{
    (void)state;
    scenario sc;
    scenario_init(&sc);
    parse_ok(&sc, "{\"beats\": [{\"t\": 1, \"title\": \"mine\"}]}");
    ppf_error err = {0};
    assert_true(scenario_set(&sc, "beats", "auto", &err));
    assert_int_equal(sc.beats.count, 0);
    assert_false(sc.beats.no_auto);
    assert_true(scenario_set(&sc, "beats", "none", &err));
    assert_int_equal(sc.beats.count, 0);
    assert_true(sc.beats.no_auto);

    char path[512];
    scratch_put(path, sizeof path, scratch, "talk.json",
                "{\"description\": \"x\", \"beats\": [{\"after\": \"0F0\", \"title\": \"go\"}]}");
    assert_true(scenario_set(&sc, "beats", path, &err));
    assert_int_equal(sc.beats.count, 1);
    assert_string_equal(sc.beats.items[0].after, "0F0");
    assert_false(sc.beats.no_auto); /* auto_beats defaults to true */
    assert_true(sc.set_mask & (1u << FIELD_BEATS));

    /* A bad file names itself and leaves the beats as they were. */
    static const struct {
        const char *name, *text, *why;
    } bad[] = {
        {"scenario.json", "{\"schedule\": \"gpipe\"}",
         "unknown field \"schedule\" (a beats file holds beats, auto_beats, description)"},
        {"title.json", "{\"beats\": [{\"t\": 1}]}", "beats[0]: needs a \"title\""},
        {"empty.json", "", "{\"beats\": [...]"},
        {"array.json", "[]", "must be a JSON object {\"beats\": [...]"},
        {"broken.json", "{\"beats\": [", "malformed JSON"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        scratch_put(path, sizeof path, scratch, bad[k].name, bad[k].text);
        assert_false(scenario_set(&sc, "beats", path, &err));
        assert_message(&err, bad[k].name, bad[k].why);
        assert_int_equal(sc.beats.count, 1);
    }
    assert_false(scenario_set(&sc, "beats", "/nonexistent/beats.json", &err));
    assert_message(&err, "/nonexistent/beats.json", "cannot open");
    assert_false(scenario_set(&sc, "beats", scratch, &err));
    assert_message(&err, "is a directory, not a beats file");
    assert_false(scenario_set(&sc, "beats", "", &err));
    assert_message(&err, "beats = \"\"", "auto, none");
    assert_int_equal(sc.beats.count, 1);

    beat_specs specs;
    scratch_put(path, sizeof path, scratch, "off.json", "{\"auto_beats\": false}");
    assert_true(scenario_load_beats_file(&specs, path, false, &err));
    assert_int_equal(specs.count, 0);
    assert_true(specs.no_auto);
    beat_specs_deinit(&specs);
    scenario_deinit(&sc);
}

/* The forms of text that is not UTF-8, each after "ab" (so at byte offset
 * 2 of its value): a stray byte, an overlong NUL, a surrogate, a code point
 * past U+10FFFF. */
static const char *const not_utf8[] = {"\xFF", "\xC0\x80", "\xED\xA0\x80", "\xF4\x90\x80\x80"};

/* Every text field of a scenario refuses invalid UTF-8 with one line naming
 * the field and the byte offset, and leaves the scenario as it was: JSON
 * readers would refuse the `--format json` and beats.json made from it. */
static void test_json_refuses_invalid_utf8(void **state)
{
    (void)state;
    static const struct {
        const char *json; /* %s: the bad bytes */
        const char *field;
    } fields[] = {
        {"{\"beats\": [{\"t\": 1, \"title\": \"ab%s\"}]}", "beats[0].title = \"ab"},
        {"{\"beats\": [{\"t\": 1, \"title\": \"x\", \"caption\": \"ab%s\"}]}",
         "beats[0].caption = \"ab"},
        {"{\"beats\": [{\"t\": 1, \"title\": \"x\"}, {\"t\": 2, \"title\": \"y\", \"notes\": "
         "\"ab%s\"}]}",
         "beats[1].notes = \"ab"},
        {"{\"beats\": [{\"t\": 1, \"title\": \"x\", \"camera\": \"ab%s\"}]}",
         "beats[0].camera = \"ab"},
        {"{\"beats\": [{\"after\": \"ab%s\", \"title\": \"x\"}]}", "beats[0].after = \"ab"},
        {"{\"description\": \"ab%s\"}", "description = \"ab"},
        {"{\"schedule\": \"ab%s\"}", "schedule = \"ab"},
        {"{\"costs\": {\"allreduce\": \"ab%s\"}}", "costs.allreduce = \"ab"},
        {"{\"stages\": 2, \"ab%s\": 1}", "a field name = \"ab"},
        {"{\"beats\": [{\"t\": 1, \"ab%s\": \"x\"}]}", "a field name in beats[0] = \"ab"},
    };
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++)
        for (size_t b = 0; b < sizeof not_utf8 / sizeof not_utf8[0]; b++) {
            char json[256];
            snprintf(json, sizeof json, fields[f].json, not_utf8[b]);
            ppf_error err = {0};
            parse_bad(json, &err);
            char at[64];
            snprintf(at, sizeof at, "invalid UTF-8 at byte offset 2 of the value (0x%02X)",
                     (unsigned char)not_utf8[b][0]);
            assert_message(&err, fields[f].field, at, "text must be UTF-8");
        }
    /* The same through --beats FILE, the file named first. */
    char path[512], text[128];
    snprintf(text, sizeof text, "{\"beats\": [{\"t\": 1, \"title\": \"ok\xE2\x80\"}]}");
    scratch_put(path, sizeof path, scratch, "cut.json", text);
    scenario sc;
    scenario_init(&sc);
    ppf_error err = {0};
    assert_false(scenario_set(&sc, "beats", path, &err));
    assert_message(&err, "cut.json: beats[0].title = \"ok\\xE2\\x80\"",
                   "invalid UTF-8 at byte offset 2");
    /* Valid UTF-8 of every length is text like any other. */
    parse_ok(&sc, "{\"description\": \"é ∇ 😀\", \"beats\": [{\"t\": 1, \"title\": \"∇W ≈ 0\"}]}");
    assert_string_equal(sc.beats.items[0].title, "∇W ≈ 0");
    scenario_deinit(&sc);

    /* json_text_string checks a value given it by any reader, not only
     * one that walked the document first. */
    cJSON *bad = cJSON_CreateString("title\xED\xA0\x80");
    char out[64];
    assert_false(json_text_string(bad, "slides[3].title", false, out, sizeof out, &err));
    assert_message(&err, "slides[3].title = \"title\\xED\\xA0\\x80\"",
                   "invalid UTF-8 at byte offset 5");
    cJSON_Delete(bad);
}

static int setup(void **state)
{
    return scratch_setup(state, scratch, sizeof scratch, "ppflow_test_scenario_json");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_overrides),
        cmocka_unit_test(test_json_allreduce_forms),
        cmocka_unit_test(test_json_malformed),
        cmocka_unit_test(test_json_structure),
        cmocka_unit_test(test_json_types),
        cmocka_unit_test(test_json_atomic),
        cmocka_unit_test(test_load_file),
        cmocka_unit_test(test_load_file_csv_path),
        cmocka_unit_test(test_assets),
        cmocka_unit_test(test_json_beats),
        cmocka_unit_test(test_json_beats_refused),
        cmocka_unit_test(test_beats_flag),
        cmocka_unit_test(test_json_refuses_invalid_utf8),
    };
    return cmocka_run_group_tests(tests, setup, scratch_teardown);
}
