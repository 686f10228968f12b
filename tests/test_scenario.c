/* test_scenario.c - the scenario: defaults and the field table, flags, costs,
 * all-reduce specs, building. The JSON reader and files: test_scenario_json.c. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "support/check.h"
#include "support/scratch.h"
#include "timeline.h"

/* Doubles are compared to 1e-12 relative (assert_near_rel). */
#define REL 1e-12

/* A scratch directory for the scenario and CSV files the tests read. */
static char scratch[256];

/* Sets a field expecting success. */
static void set_ok(scenario *sc, const char *field, const char *value)
{
    ppf_error err = {0};
    bool ok = scenario_set(sc, field, value, &err);
    if (!ok)
        print_message("scenario_set(%s, %s): %s\n", field, value, err.message);
    assert_true(ok);
}

/* Sets a field expecting failure, and that the scenario did not change. */
static void set_bad(const char *field, const char *value, ppf_error *err)
{
    scenario sc;
    scenario_init(&sc);
    scenario before = sc;
    *err = (ppf_error){0};
    bool ok = scenario_set(&sc, field, value, err);
    if (ok)
        print_message("scenario_set(%s, \"%s\") was accepted\n", field, value);
    assert_false(ok);
    assert_memory_equal(&sc, &before, sizeof sc);
    scenario_deinit(&sc);
}

/* Builds expecting success. */
static void build_ok(const scenario *sc, program *p, timeline_costs *c)
{
    ppf_error err = {0};
    bool ok = scenario_build(sc, p, c, &err);
    if (!ok)
        print_message("scenario_build: %s\n", err.message);
    assert_true(ok);
}

static void assert_zeroed(const void *p, size_t size)
{
    const unsigned char *b = p;
    for (size_t k = 0; k < size; k++)
        assert_int_equal(b[k], 0);
}
/* ---- defaults and the field table ---------------------------------------- */

static void test_default(void **state)
{
    (void)state;
    scenario sc;
    scenario_init(&sc);
    assert_string_equal(sc.schedule, "1f1b");
    assert_int_equal(sc.stages, 4);
    assert_int_equal(sc.microbatches, 8);
    assert_int_equal(sc.virtual_stages, 0);
    assert_int_equal(sc.dp, 2);
    assert_int_equal(sc.layers_per_stage, 2);
    assert_int_equal(sc.f.count, 0);
    assert_int_equal(sc.b.count, 0);
    assert_int_equal(sc.i.count, 0);
    assert_int_equal(sc.w.count, 0);
    assert_int_equal(sc.fb.count, 0);
    assert_int_equal(sc.p2p.count, 0);
    /* Communication takes time by default, so that it is seen. */
    assert_int_equal(sc.allreduce.mode, ALLREDUCE_RING);
    assert_near_rel(sc.allreduce.bytes, 3, REL);
    assert_near_rel(sc.allreduce.bandwidth, 1, REL);
    assert_int_equal(sc.set_mask, 0);
    assert_string_equal(sc.source, "built-in default");
    scenario_deinit(&sc);
    assert_int_equal(sc.stages, 0);
    scenario_deinit(&sc); /* twice is fine */
}

static void test_field_table(void **state)
{
    (void)state;
    static const char *flags[FIELD_COUNT] = {"schedule",  "stages",      "microbatches",
                                             "virtual",   "dp",          "layers-per-stage",
                                             "d-model",   "d-hidden",    "batch",
                                             "stage-gap", "replica-gap", "f",
                                             "b",         "i",           "w",
                                             "fb",        "p2p",         "allreduce",
                                             "beats"};
    static const char *keys[FIELD_COUNT] = {"schedule",  "stages",      "microbatches",
                                            "virtual",   "dp",          "layers_per_stage",
                                            "d_model",   "d_hidden",    "batch",
                                            "stage_gap", "replica_gap", "f",
                                            "b",         "i",           "w",
                                            "fb",        "p2p",         "allreduce",
                                            "beats"};
    int n = 0;
    const scenario_field *t = scenario_fields(&n);
    assert_int_equal(n, FIELD_COUNT);
    for (int k = 0; k < n; k++) {
        assert_int_equal(t[k].id, k);
        assert_string_equal(t[k].flag, flags[k]);
        assert_string_equal(t[k].json, keys[k]);
        assert_true(t[k].is_cost == (k >= FIELD_F && k <= FIELD_ALLREDUCE));
        assert_non_null(t[k].arg);
        assert_non_null(t[k].help);
        assert_null(strchr(t[k].help, '\n'));
        assert_ptr_equal(scenario_field_find(flags[k]), &t[k]);
        assert_ptr_equal(scenario_field_find(keys[k]), &t[k]);
    }
    assert_ptr_equal(scenario_field_find("costs.b"), &t[FIELD_B]);
    assert_null(scenario_field_find("layers"));
    assert_null(scenario_field_find(""));
    assert_null(scenario_field_find("costs"));
}

/* The table's defaults are the built-in scenario, and the default --help
 * shows for a field is a value that the field takes. */
static void test_field_defaults(void **state)
{
    (void)state;
    int n = 0;
    const scenario_field *t = scenario_fields(&n);
    scenario sc;
    scenario_init(&sc);
    for (int k = 0; k < n; k++) {
        char def[64];
        scenario_field_default(&t[k], def, sizeof def);
        if (t[k].type == SCENARIO_FIELD_INT) {
            const int v = *(const int *)((const char *)&sc + t[k].offset);
            assert_int_equal(v, (int)t[k].def);
            if (k != FIELD_VIRTUAL) /* 0: the schedule's own */
                assert_true(v >= t[k].min && v <= t[k].max);
        }
        if (!strstr(t[k].help, "{default}"))
            continue;
        scenario tmp;
        scenario_init(&tmp);
        ppf_error err = {0};
        if (!scenario_set(&tmp, t[k].flag, def, &err))
            fail_msg("--%s %s (its default): %s", t[k].flag, def, err.message);
        scenario_deinit(&tmp);
    }
    assert_string_equal(sc.schedule, t[FIELD_SCHEDULE].def_text);
    char def[64];
    scenario_field_default(&t[FIELD_STAGES], def, sizeof def);
    assert_string_equal(def, "4");
    scenario_field_default(&t[FIELD_ALLREDUCE], def, sizeof def);
    assert_string_equal(def, "3/1/ring");
    scenario_field_default(&t[FIELD_P2P], def, sizeof def);
    assert_string_equal(def, "0.25");
    scenario_deinit(&sc);
}

/* A copy owns its cost lists. */
static void test_copy_is_deep(void **state)
{
    (void)state;
    scenario sc, copy;
    scenario_init(&sc);
    set_ok(&sc, "b", "1,2,3,4");
    scenario_copy(&copy, &sc);
    assert_ptr_not_equal(copy.b.values, sc.b.values);
    sc.b.values[0] = 9;
    assert_same_double(copy.b.values[0], 1);
    scenario_deinit(&sc);
    assert_int_equal(copy.b.count, 4);
    scenario_deinit(&copy);
}

/* ---- scenario_set -------------------------------------------------------- */

static void test_set_integers(void **state)
{
    (void)state;
    scenario sc;
    scenario_init(&sc);
    set_ok(&sc, "stages", "8");
    set_ok(&sc, "microbatches", "16");
    set_ok(&sc, "virtual", "3");
    set_ok(&sc, "dp", "+4");
    set_ok(&sc, "layers-per-stage", "5");
    assert_int_equal(sc.stages, 8);
    assert_int_equal(sc.microbatches, 16);
    assert_int_equal(sc.virtual_stages, 3);
    assert_int_equal(sc.dp, 4);
    assert_int_equal(sc.layers_per_stage, 5);
    set_ok(&sc, "layers_per_stage", "1024");
    assert_int_equal(sc.layers_per_stage, 1024);
    set_ok(&sc, "stages", "4096");
    set_ok(&sc, "microbatches", "1000000");
    set_ok(&sc, "virtual", "64");
    set_ok(&sc, "dp", "1000000");
    assert_int_equal(sc.set_mask, (1u << FIELD_STAGES) | (1u << FIELD_MICROBATCHES) |
                                      (1u << FIELD_VIRTUAL) | (1u << FIELD_DP) |
                                      (1u << FIELD_LAYERS_PER_STAGE));
    scenario_deinit(&sc);
}

static void test_set_integers_bad(void **state)
{
    (void)state;
    static const struct {
        const char *field, *value, *path, *range;
    } cases[] = {
        {"stages", "0", "stages", "from 1 to 4096"},
        {"stages", "-1", "stages", "from 1 to 4096"},
        {"stages", "4097", "stages", "from 1 to 4096"},
        {"stages", "abc", "stages", "from 1 to 4096"},
        {"stages", "4x", "stages", "from 1 to 4096"},
        {"stages", " 4", "stages", "from 1 to 4096"},
        {"stages", "", "stages", "from 1 to 4096"},
        {"stages", "1.5", "stages", "from 1 to 4096"},
        {"stages", "99999999999999999999999", "stages", "from 1 to 4096"},
        {"microbatches", "0", "microbatches", "from 1 to 1000000"},
        {"microbatches", "1000001", "microbatches", "from 1 to 1000000"},
        {"virtual", "0", "virtual", "from 1 to 64"},
        {"virtual", "65", "virtual", "from 1 to 64"},
        {"dp", "0", "dp", "from 1 to 1000000"},
        {"layers-per-stage", "0", "layers_per_stage", "from 1 to 1024"},
        {"layers-per-stage", "1025", "layers_per_stage", "from 1 to 1024"},
        {"d-model", "0", "d_model", "from 1 to 4096"},
        {"batch", "4097", "batch", "from 1 to 4096"},
        {"stage-gap", "-1", "stage_gap", "from 0 to 4096"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        ppf_error err;
        set_bad(cases[k].field, cases[k].value, &err);
        char expect[128];
        snprintf(expect, sizeof expect, "%s = \"%s\": must be an integer", cases[k].path,
                 cases[k].value);
        assert_message(&err, expect, cases[k].range);
    }
    ppf_error err;
    set_bad("microbatches", "0", &err);
    assert_string_equal(err.message, "microbatches = \"0\": must be an integer from 1 to 1000000");
}

static void test_set_schedule(void **state)
{
    (void)state;
    static const char *names[] = {"gpipe",      "1f1b",     "interleaved-1f1b",
                                  "looped-bfs", "zb-h1",    "interleaved-zb",
                                  "zbv",        "dualpipev"};
    scenario sc;
    scenario_init(&sc);
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        set_ok(&sc, "schedule", names[k]);
        assert_string_equal(sc.schedule, names[k]);
    }
    set_ok(&sc, "schedule", "Interleaved_1F1B"); /* stored under its canonical name */
    assert_string_equal(sc.schedule, "interleaved-1f1b");
    set_ok(&sc, "schedule", "csv:some/file.csv");
    assert_string_equal(sc.schedule, "csv:some/file.csv");
    assert_int_equal(sc.set_mask, 1u << FIELD_SCHEDULE);
    scenario_deinit(&sc);

    ppf_error err;
    set_bad("schedule", "gpip", &err);
    assert_string_equal(
        err.message, "schedule = \"gpip\": unknown schedule (known: gpipe, 1f1b, interleaved-1f1b, "
                     "looped-bfs, zb-h1, interleaved-zb, zbv, dualpipev, csv:PATH)");
    set_bad("schedule", "", &err);
    assert_message(&err, "schedule = \"\"", "unknown schedule");
    set_bad("schedule", "csv:", &err);
    assert_message(&err, "schedule = \"csv:\"", "path");
    char long_path[400];
    memset(long_path, 'a', sizeof long_path - 1);
    long_path[sizeof long_path - 1] = '\0';
    memcpy(long_path, "csv:", 4);
    set_bad("schedule", long_path, &err);
    assert_message(&err, "schedule = \"csv:aaa", "...", "too long", "255");
}

static void test_set_costs(void **state)
{
    (void)state;
    scenario sc;
    scenario_init(&sc);
    set_ok(&sc, "f", "1.5");
    assert_int_equal(sc.f.count, 1);
    assert_near_rel(sc.f.values[0], 1.5, REL);
    set_ok(&sc, "b", "1,2,3,4.25");
    assert_int_equal(sc.b.count, 4);
    assert_near_rel(sc.b.values[3], 4.25, REL);
    set_ok(&sc, "b", " 2 , 3 ");
    assert_int_equal(sc.b.count, 2);
    assert_near_rel(sc.b.values[1], 3, REL);
    set_ok(&sc, "i", "0");
    set_ok(&sc, "w", "1e-3");
    assert_near_rel(sc.w.values[0], 1e-3, REL);
    set_ok(&sc, "fb", "2.5");
    set_ok(&sc, "p2p", "0.05");
    set_ok(&sc, "costs.p2p", "0.1");
    assert_near_rel(sc.p2p.values[0], 0.1, REL);
    assert_int_equal(sc.set_mask, (1u << FIELD_F) | (1u << FIELD_B) | (1u << FIELD_I) |
                                      (1u << FIELD_W) | (1u << FIELD_FB) | (1u << FIELD_P2P));
    scenario_deinit(&sc);

    ppf_error err;
    set_bad("b", "-1", &err);
    assert_string_equal(err.message, "costs.b = \"-1\": costs must be finite numbers >= 0");
    set_bad("f", "nan", &err);
    assert_message(&err, "costs.f = \"nan\"", "finite numbers >= 0");
    set_bad("f", "inf", &err);
    assert_message(&err, "costs.f = \"inf\"", "finite");
    set_bad("f", "1e999", &err);
    assert_message(&err, "costs.f = \"1e999\"", "finite");
    set_bad("w", "", &err);
    assert_message(&err, "costs.w = \"\"", "finite numbers >= 0");
    set_bad("i", "1,,2", &err);
    assert_message(&err, "costs.i = \"1,,2\"", "item 2 is empty");
    set_bad("fb", "1,x,2", &err);
    assert_message(&err, "costs.fb = \"1,x,2\"", "item 2 is \"x\"");
    set_bad("p2p", "1,2,", &err);
    assert_message(&err, "costs.p2p = \"1,2,\"", "item 3 is empty");
    set_bad("p2p", "0x10", &err);
    assert_message(&err, "costs.p2p = \"0x10\"");
    set_bad("f", "1 2", &err);
    assert_message(&err, "costs.f = \"1 2\"");
}

static void test_cost_list_parse(void **state)
{
    (void)state;
    cost_list c;
    ppf_error err = {0};
    assert_true(cost_list_parse(&c, "costs.f", "3,4", &err));
    assert_int_equal(c.count, 2);
    assert_near_rel(c.values[0], 3, REL);
    assert_near_rel(c.values[1], 4, REL);
    cost_list_deinit(&c);
    assert_int_equal(c.count, 0);
    assert_null(c.values);
    cost_list_deinit(&c);

    assert_false(cost_list_parse(&c, "costs.f", "-0.5", &err));
    assert_int_equal(c.count, 0);
    assert_null(c.values);
    assert_message(&err, "costs.f = \"-0.5\"");

    /* More values than there can be ranks. */
    size_t n = 5000;
    char *text = malloc(2 * n);
    for (size_t k = 0; k < n; k++) {
        text[2 * k] = '1';
        text[2 * k + 1] = ',';
    }
    text[2 * n - 1] = '\0';
    assert_false(cost_list_parse(&c, "costs.b", text, &err));
    assert_message(&err, "costs.b", "5000 values", "4096");
    assert_lt(strlen(err.message), 300);
    free(text);
}

static void test_set_unknown_field(void **state)
{
    (void)state;
    ppf_error err;
    set_bad("ranks", "4", &err);
    assert_message(&err, "unknown field \"ranks\"", "stages", "layers-per-stage", "allreduce");
}

/* Odd values stay one printable line, escaped and cut. */
static void test_message_one_line(void **state)
{
    (void)state;
    ppf_error err;
    set_bad("stages", "4\nrm -rf /\x1b[31m", &err);
    assert_message(&err, "stages = \"4\\x0Arm -rf /\\x1B[31m\"");
    set_bad("schedule", "\"quoted\" \\ back", &err);
    assert_message(&err, "schedule = \"\\\"quoted\\\" \\\\ back\"");
    set_bad("schedule", "gpipe\xff\xfe", &err);
    assert_message(&err, "\\xFF\\xFE");
    set_bad("schedule", "caf\xc3\xa9", &err); /* valid UTF-8 is kept */
    assert_message(&err, "caf\xc3\xa9");
    set_bad("schedule",
            "a\xe2\x80\xa8"
            "b",
            &err); /* U+2028 LINE SEPARATOR is not: quote.h shows it as \u2028 */
    assert_message(&err, "a\\u2028b");
    char big[2000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    set_bad("microbatches", big, &err);
    assert_message(&err, "microbatches = \"xxx", "...\"", "from 1 to 1000000");
    assert_lt(strlen(err.message), 200);
}

/* ---- all-reduce ---------------------------------------------------------- */

static void test_allreduce_parse(void **state)
{
    (void)state;
    allreduce_cost ar;
    ppf_error err = {0};
    assert_true(allreduce_parse(&ar, "4", &err));
    assert_int_equal(ar.mode, ALLREDUCE_TIME);
    assert_near_rel(ar.time, 4, REL);
    assert_true(allreduce_parse(&ar, "4.5", &err));
    assert_int_equal(ar.mode, ALLREDUCE_TIME);
    assert_near_rel(ar.time, 4.5, REL);
    assert_true(allreduce_parse(&ar, "none", &err));
    assert_int_equal(ar.mode, ALLREDUCE_NONE);

    assert_true(allreduce_parse(&ar, "1.5GB/100GB/ring/5e-6", &err));
    assert_int_equal(ar.mode, ALLREDUCE_RING);
    assert_near_rel(ar.bytes, 1.5e9, REL);
    assert_near_rel(ar.bandwidth, 1e11, REL);
    assert_near_rel(ar.latency, 5e-6, REL);

    assert_true(allreduce_parse(&ar, "1GiB/10Gi/tree", &err));
    assert_int_equal(ar.mode, ALLREDUCE_TREE);
    assert_near_rel(ar.bytes, 1073741824.0, REL);
    assert_near_rel(ar.bandwidth, 10 * 1073741824.0, REL);
    assert_near_rel(ar.latency, 0, REL);

    assert_true(allreduce_parse(&ar, "64KiB/1k", &err));
    assert_int_equal(ar.mode, ALLREDUCE_RING);
    assert_near_rel(ar.bytes, 65536, REL);
    assert_near_rel(ar.bandwidth, 1000, REL);
    assert_true(allreduce_parse(&ar, "2K/3M", &err));
    assert_near_rel(ar.bytes, 2000, REL);
    assert_near_rel(ar.bandwidth, 3e6, REL);
    assert_true(allreduce_parse(&ar, "1TiB/2T/ring/1Mi", &err));
    assert_near_rel(ar.bytes, 1099511627776.0, REL);
    assert_near_rel(ar.bandwidth, 2e12, REL);
    assert_near_rel(ar.latency, 1048576, REL);
    assert_true(allreduce_parse(&ar, "100B/0.5", &err));
    assert_near_rel(ar.bytes, 100, REL);
    assert_near_rel(ar.bandwidth, 0.5, REL);
    assert_true(allreduce_parse(&ar, "0/1", &err));
    assert_near_rel(ar.bytes, 0, REL);

    static const struct {
        const char *text, *piece;
    } bad[] = {
        {"", "give a time"},
        {"abc", "give a time"},
        {"-1", "give a time"},
        {"nan", "give a time"},
        {"1G", "give a time"},
        {"1G/0", "bandwidth \"0\""},
        {"1G/-5", "bandwidth \"-5\""},
        {"1G/x", "bandwidth \"x\""},
        {"1G//ring", "bandwidth \"\""},
        {"-1G/1G", "bytes \"-1G\""},
        {"inf/1", "bytes \"inf\""},
        {"1m/1", "bytes \"1m\""},
        {"1GBB/1", "bytes \"1GBB\""},
        {"1e999/1", "bytes \"1e999\""},
        {"1G/1G/star", "algorithm \"star\""},
        {"1G/1G/", "algorithm \"\""},
        {"1G/1G/ring/-1", "latency \"-1\""},
        {"1G/1G/tree/x", "latency \"x\""},
        {"1G/1G/ring/1/2", "too many parts"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        allreduce_cost before = {.mode = ALLREDUCE_TIME, .time = 7};
        ar = before;
        err = (ppf_error){0};
        if (allreduce_parse(&ar, bad[k].text, &err))
            print_message("allreduce \"%s\" was accepted\n", bad[k].text);
        assert_false(allreduce_parse(&ar, bad[k].text, &err));
        assert_memory_equal(&ar, &before, sizeof ar);
        char expect[64];
        snprintf(expect, sizeof expect, "costs.allreduce = \"%s\"", bad[k].text);
        assert_message(&err, expect, bad[k].piece);
    }

    scenario sc;
    scenario_init(&sc);
    set_ok(&sc, "allreduce", "1G/10G/tree/1e-5");
    assert_int_equal(sc.allreduce.mode, ALLREDUCE_TREE);
    assert_int_equal(sc.set_mask, 1u << FIELD_ALLREDUCE);
    scenario_deinit(&sc);
    set_bad("allreduce", "1G/0", &err);
    assert_message(&err, "costs.allreduce = \"1G/0\"", "> 0");
}

/* ---- building ------------------------------------------------------------ */

static void test_build_default_costs(void **state)
{
    (void)state;
    scenario sc;
    scenario_init(&sc);
    program p;
    timeline_costs c;
    build_ok(&sc, &p, &c);
    assert_int_equal(p.ranks, 4);
    assert_int_equal(p.microbatches, 8);
    assert_int_equal(c.ranks, 4);
    assert_int_equal(c.dp, 2);
    assert_int_equal(c.allreduce.mode, ALLREDUCE_RING);
    /* ring at D = 2: 2(D-1)/D x 3 / 1 = 3 time units, 3 F */
    assert_near_rel(allreduce_stage_time(&c.allreduce, c.dp, 1), 3, REL);
    for (int r = 0; r < 4; r++) {
        assert_near_rel(c.f[r], 1, REL);
        assert_near_rel(c.b[r], 2, REL);
        assert_near_rel(c.i[r], 1, REL);
        assert_near_rel(c.w[r], 1, REL);
        assert_near_rel(c.fb[r], 3, REL);
        assert_near_rel(c.p2p[r], 0.25, REL);
    }
    timeline_costs_deinit(&c);
    program_deinit(&p);
    scenario_deinit(&sc);
}

static void test_build_costs(void **state)
{
    (void)state;
    scenario sc;
    scenario_init(&sc);
    set_ok(&sc, "f", "1,2,3,4");
    set_ok(&sc, "b", "4");
    set_ok(&sc, "p2p", "0.05");
    set_ok(&sc, "allreduce", "1GB/100GB");
    set_ok(&sc, "dp", "8");
    program p;
    timeline_costs c;
    build_ok(&sc, &p, &c);
    for (int r = 0; r < 4; r++) {
        assert_near_rel(c.f[r], r + 1, REL);
        assert_near_rel(c.b[r], 4, REL);
        assert_near_rel(c.i[r], 2, REL);
        assert_near_rel(c.w[r], 2, REL);
        assert_near_rel(c.fb[r], r + 1 + 4, REL);
        assert_near_rel(c.p2p[r], 0.05, REL);
    }
    assert_int_equal(c.dp, 8);
    assert_int_equal(c.allreduce.mode, ALLREDUCE_RING);
    assert_near_rel(c.allreduce.bytes, 1e9, REL);
    timeline_costs_deinit(&c);
    program_deinit(&p);

    /* I only: W = B - I. */
    set_ok(&sc, "i", "1.5");
    build_ok(&sc, &p, &c);
    assert_near_rel(c.i[0], 1.5, REL);
    assert_near_rel(c.w[0], 2.5, REL);
    timeline_costs_deinit(&c);
    program_deinit(&p);
    scenario_deinit(&sc);

    /* W only, default B: I = 2 - W. */
    scenario_init(&sc);
    set_ok(&sc, "w", "0.5,0.5,0.5,2");
    build_ok(&sc, &p, &c);
    assert_near_rel(c.b[0], 2, REL);
    assert_near_rel(c.i[0], 1.5, REL);
    assert_near_rel(c.w[0], 0.5, REL);
    assert_near_rel(c.i[3], 0, REL);
    timeline_costs_deinit(&c);
    program_deinit(&p);

    /* I and W without B: B = I + W, and FB = F + B. */
    set_ok(&sc, "i", "1");
    set_ok(&sc, "w", "3");
    build_ok(&sc, &p, &c);
    assert_near_rel(c.b[2], 4, REL);
    assert_near_rel(c.fb[2], 5, REL);
    timeline_costs_deinit(&c);
    program_deinit(&p);

    /* FB given. */
    set_ok(&sc, "fb", "2.5");
    build_ok(&sc, &p, &c);
    assert_near_rel(c.fb[1], 2.5, REL);
    timeline_costs_deinit(&c);
    program_deinit(&p);
    scenario_deinit(&sc);
}

static void build_bad(const scenario *sc, ppf_error *err)
{
    program p;
    timeline_costs c;
    memset(&p, 0xAB, sizeof p);
    memset(&c, 0xAB, sizeof c);
    *err = (ppf_error){0};
    assert_false(scenario_build(sc, &p, &c, err));
    assert_zeroed(&p, sizeof p);
    assert_zeroed(&c, sizeof c);
}

static void test_build_bad(void **state)
{
    (void)state;
    ppf_error err;
    scenario sc;
    scenario_init(&sc);
    set_ok(&sc, "f", "1,2,3");
    build_bad(&sc, &err);
    assert_string_equal(err.message, "costs.f has 3 values: give one, or one per rank (4)");
    scenario_deinit(&sc);

    scenario_init(&sc);
    set_ok(&sc, "i", "3"); /* more than the default B = 2 */
    build_bad(&sc, &err);
    assert_message(&err, "costs.i = 3", "costs.b = 2", "costs.w", "negative");
    set_ok(&sc, "b", "1,1,5,5");
    build_bad(&sc, &err);
    assert_message(&err, "costs.i = 3 on rank 0");
    scenario_deinit(&sc);

    scenario_init(&sc);
    set_ok(&sc, "w", "2.5");
    build_bad(&sc, &err);
    assert_message(&err, "costs.w = 2.5", "costs.i", "negative");
    scenario_deinit(&sc);

    /* The schedule's own rule: 1F1B needs M >= P. */
    scenario_init(&sc);
    set_ok(&sc, "microbatches", "2");
    build_bad(&sc, &err);
    assert_gt(strlen(err.message), 0);
    scenario_deinit(&sc);

    /* The size guard, before anything is allocated. */
    scenario_init(&sc);
    set_ok(&sc, "schedule", "interleaved-1f1b");
    set_ok(&sc, "stages", "4096");
    set_ok(&sc, "microbatches", "1000000");
    set_ok(&sc, "virtual", "64");
    build_bad(&sc, &err);
    assert_message(&err, "4096 x (64 x 1000000 x 3", "8e11 actions", "at most 2e7");
    set_ok(&sc, "virtual", "2");
    set_ok(&sc, "stages", "64");
    set_ok(&sc, "microbatches", "600000");
    build_bad(&sc, &err);
    assert_message(&err, "64 x (2 x 600000 x 3");
    scenario_deinit(&sc);
}

/* GPipe order for 2 ranks and 3 micro-batches. */
static const char *small_csv = "0F0,0F1,0F2,0B0,0B1,0B2\n"
                               "1F0,1F1,1F2,1B0,1B1,1B2\n";

static void test_build_csv(void **state)
{
    (void)state;
    char path[300], spec[320];
    scratch_put(path, sizeof path, scratch, "small.csv", small_csv);
    snprintf(spec, sizeof spec, "csv:%s", path);

    scenario sc;
    scenario_init(&sc); /* P = 4, M = 8 by default, but not set: the CSV decides */
    set_ok(&sc, "schedule", spec);
    set_ok(&sc, "f", "1,2");
    program p;
    timeline_costs c;
    build_ok(&sc, &p, &c);
    assert_int_equal(p.ranks, 2);
    assert_int_equal(p.stages, 2);
    assert_int_equal(p.microbatches, 3);
    assert_int_equal(c.ranks, 2);
    assert_near_rel(c.f[1], 2, REL);
    timeline tl;
    ppf_error err = {0};
    bool ok = timeline_simulate(&tl, &p, &c, &err);
    if (!ok)
        print_message("simulate: %s\n", err.message);
    assert_true(ok);
    timeline_deinit(&tl);
    timeline_costs_deinit(&c);
    program_deinit(&p);

    /* Fields given explicitly must agree with the CSV. */
    set_ok(&sc, "stages", "2");
    set_ok(&sc, "microbatches", "3");
    build_ok(&sc, &p, &c);
    timeline_costs_deinit(&c);
    program_deinit(&p);
    set_ok(&sc, "stages", "4");
    build_bad(&sc, &err);
    assert_message(&err, "stages = 4", path, "has 2 ranks");
    set_ok(&sc, "stages", "2");
    set_ok(&sc, "microbatches", "8");
    build_bad(&sc, &err);
    assert_message(&err, "microbatches = 8", "has 3 micro-batches");
    set_ok(&sc, "microbatches", "3");
    set_ok(&sc, "virtual", "2");
    build_bad(&sc, &err);
    assert_message(&err, "virtual = 2", "has 1 stages per rank");
    scenario_deinit(&sc);

    /* A per-rank list is checked against the CSV's ranks. */
    scenario_init(&sc);
    set_ok(&sc, "schedule", spec);
    set_ok(&sc, "b", "1,2,3,4");
    build_bad(&sc, &err);
    assert_message(&err, "costs.b has 4 values", "(2)");
    scenario_deinit(&sc);

    /* A missing file. */
    scenario_init(&sc);
    set_ok(&sc, "schedule", "csv:/nonexistent/pipe.csv");
    build_bad(&sc, &err);
    assert_message(&err, "/nonexistent/pipe.csv");
    scenario_deinit(&sc);
}

static int setup(void **state)
{
    return scratch_setup(state, scratch, sizeof scratch, "ppflow_test_scenario");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default),
        cmocka_unit_test(test_field_table),
        cmocka_unit_test(test_field_defaults),
        cmocka_unit_test(test_copy_is_deep),
        cmocka_unit_test(test_set_integers),
        cmocka_unit_test(test_set_integers_bad),
        cmocka_unit_test(test_set_schedule),
        cmocka_unit_test(test_set_costs),
        cmocka_unit_test(test_cost_list_parse),
        cmocka_unit_test(test_set_unknown_field),
        cmocka_unit_test(test_message_one_line),
        cmocka_unit_test(test_allreduce_parse),
        cmocka_unit_test(test_build_default_costs),
        cmocka_unit_test(test_build_costs),
        cmocka_unit_test(test_build_bad),
        cmocka_unit_test(test_build_csv),
    };
    return cmocka_run_group_tests(tests, setup, scratch_teardown);
}
