/* Tests of programs and PyTorch's schedule CSV: import, export, validation,
 * and the figures PyTorch's own files must produce. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"
#include "schedules.h"
#include "support/check.h"
#include "support/run_fixture.h"
#include "timeline.h"

#ifndef PPFLOW_SOURCE_DIR
#define PPFLOW_SOURCE_DIR "."
#endif

static char *read_text(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = fread(buf, 1, (size_t)n, f);
    fclose(f);
    buf[got] = 0;
    *len = got;
    return buf;
}

static char *write_csv(const program *p, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    csv_write(p, f);
    fclose(f);
    return buf;
}

static bool parse(const char *text, program *p, ppf_error *err)
{
    return csv_parse(text, strlen(text), "test.csv", p, err);
}

/* Makespan with every stage costing F = I = W = 1, B = 2, F&B = 3 and no p2p:
 * the cost model is per rank, so each rank's cost is V times a stage's. */
static double makespan_per_stage_costs(const program *p)
{
    timeline_costs c;
    timeline_costs_init(&c, p->ranks);
    double v = p->stages_per_rank;
    run_fixture_costs_uniform(&c, v, 2 * v, v, v); /* F&B = 3v */
    timeline tl;
    ppf_error err = {{0}};
    if (!timeline_simulate(&tl, p, &c, &err))
        fail_msg("simulation failed: %s", err.message);
    double makespan = tl.makespan;
    timeline_deinit(&tl);
    timeline_costs_deinit(&c);
    return makespan;
}

static void test_parse_infers_sizes_and_layout(void **state)
{
    (void)state;
    program p;
    ppf_error err = {{0}};
    assert_true(parse("0F0,0F1,,0B0,0B1\n,1F0,1B0,1F1,1B1\n", &p, &err));
    assert_int_equal(p.ranks, 2);
    assert_int_equal(p.stages, 2);
    assert_int_equal(p.microbatches, 2);
    assert_int_equal(p.layout, PROGRAM_LAYOUT_LOOP);
    assert_int_equal(p.rank[0].count, 5);
    assert_int_equal(p.rank[0].actions[2].kind, ACTION_IDLE);
    assert_int_equal(p.rank[1].actions[0].kind, ACTION_IDLE);
    program_deinit(&p);

    /* a V layout: rank 0 holds stages 0 and 3, rank 1 stages 1 and 2 */
    assert_true(parse("0F0,3F0,3B0,0B0\n1F0,2F0,2B0,1B0\n", &p, &err));
    assert_int_equal(p.layout, PROGRAM_LAYOUT_V);
    assert_int_equal(p.stages_per_rank, 2);
    assert_int_equal(p.stage_rank[3], 0);
    program_deinit(&p);

    /* neither loop nor V */
    assert_true(parse("0F0,1F0,1B0,0B0\n2F0,2B0\n", &p, &err));
    assert_int_equal(p.layout, PROGRAM_LAYOUT_CUSTOM);
    assert_int_equal(p.stage_rank[1], 0);
    assert_int_equal(p.stage_rank[2], 1);
    program_deinit(&p);
}

static void test_parse_accepts_csv_dialects(void **state)
{
    (void)state;
    program p;
    ppf_error err = {{0}};
    /* quotes, CRLF, a byte-order mark, no final newline, trailing blank lines */
    const char *texts[] = {
        "\xEF\xBB\xBF\"0F0\",0B0\r\n", "0F0,0B0", "0F0,0B0\n\n\n", " 0F0 , 0B0 \n",
        "\"(0F0;0B0)OVERLAP_F_B\"\n", /* F and B of the same pair: parsed, not run */
    };
    for (size_t k = 0; k < 4; k++) {
        if (!parse(texts[k], &p, &err))
            fail_msg("text %zu did not parse: %s", k, err.message);
        assert_int_equal(p.ranks, 1);
        assert_int_equal(p.rank[0].count, 2);
        program_deinit(&p);
    }
    assert_true(parse(texts[4], &p, &err));
    program_deinit(&p);
    /* a trailing comma is one more (idle) cell and round-trips */
    assert_true(parse("0F0,0B0,\n", &p, &err));
    assert_int_equal(p.rank[0].count, 3);
    size_t len;
    char *out = write_csv(&p, &len);
    assert_string_equal(out, "0F0,0B0,\n");
    free(out);
    program_deinit(&p);
}

static void test_bad_csv_names_row_column_and_rule(void **state)
{
    (void)state;
    const struct {
        const char *text, *expect;
    } bad[] = {
        {"", "no rows"},
        {"\n\n", "no rows"},
        {",,\n,\n", "no compute actions"},
        {"0F0,0B0\n1F0,1X0\n", "row 2 (rank 1), column 2"},
        {"0F0,\"0B0\n", "quoted cell is not closed"},
        {"0F0,\"0B0\"x\n", "text after a closing quote"},
        {"0F0,0F0,0B0\n", "2 forward (F) actions"},
        {"0F0\n", "backward parts B=0 I=0 W=0"},
        {"0F0,0I0\n", "backward parts B=0 I=1 W=0"},
        {"0F0,0B0,0W0,0I0\n", "backward parts B=1 I=1 W=1"},
        {"0F0,0B0\n0F1,0B1\n", "also runs on rank 0"},
        {"1F0,1B0\n", "stage 0: no rank runs it"},
        {"0F0,0B0,3SEND_F0\n", "SEND_F names stage 3"},
        {"0F1,0B1\n", "micro-batch 0: 0 forward"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        program p;
        ppf_error err = {{0}};
        if (parse(bad[k].text, &p, &err))
            fail_msg("case %zu parsed but must not", k);
        if (!strstr(err.message, bad[k].expect) || strncmp(err.message, "test.csv: ", 10) != 0)
            fail_msg("case %zu: message \"%s\" lacks \"%s\"", k, err.message, bad[k].expect);
        assert_null(p.rank);
    }
}

static void test_export_round_trips_every_generator(void **state)
{
    (void)state;
    int n;
    const schedule_info *list = schedule_list(&n);
    for (int k = 0; k < n; k++) {
        program p, q;
        ppf_error err = {{0}};
        schedule_params sp = {.ranks = 3, .microbatches = 6};
        assert_true(schedule_generate(list[k].name, &sp, &p, &err));
        size_t len = 0, len2 = 0;
        char *text = write_csv(&p, &len);
        if (!csv_parse(text, len, "round-trip", &q, &err))
            fail_msg("%s: export did not import: %s", list[k].name, err.message);
        char *again = write_csv(&q, &len2);
        assert_string_equal(text, again);
        assert_int_equal(q.stages, p.stages);
        assert_int_equal(q.microbatches, p.microbatches);
        assert_int_equal(q.layout, p.layout);
        for (int s = 0; s < p.stages; s++)
            assert_int_equal(q.stage_rank[s], p.stage_rank[s]);
        free(text);
        free(again);
        program_deinit(&q);
        program_deinit(&p);
    }
}

/* Our own fixtures, written by ppflow's exporter: the generators must still
 * produce them byte for byte, and they must simulate to PyTorch's figures. */
/* The file at path (*len bytes, Windows line ends made Unix ones), and the
 * CSV ppflow writes for schedule `name` at ranks, mbs and v, whose program
 * is *p. */
static char *file_and_generated(const char *path, size_t *len, const char *name, int ranks, int mbs,
                                int v, program *p, char **got)
{
    char *want = read_text(path, len);
    if (!want)
        fail_msg("cannot read %s", path);
    size_t kept = 0; /* Python's csv module ends rows with \r\n, ppflow with \n */
    for (size_t i = 0; i < *len; i++)
        if (want[i] != '\r')
            want[kept++] = want[i];
    want[kept] = '\0';
    *len = kept;
    ppf_error err = {{0}};
    schedule_params sp = {.ranks = ranks, .microbatches = mbs, .stages_per_rank = v};
    assert_true(schedule_generate(name, &sp, p, &err));
    size_t got_len = 0;
    *got = write_csv(p, &got_len);
    return want;
}

static void check_generator_equals_file(const char *name, int ranks, int mbs, int v,
                                        const char *file, double makespan)
{
    char path[512];
    snprintf(path, sizeof path, "%s/tests/data/%s", PPFLOW_SOURCE_DIR, file);
    size_t len = 0;
    program p, q;
    ppf_error err = {{0}};
    char *got;
    char *want = file_and_generated(path, &len, name, ranks, mbs, v, &p, &got);
    assert_string_equal(got, want);
    assert_true(csv_parse(want, len, path, &q, &err));
    double m = makespan_per_stage_costs(&q);
    if (m != makespan)
        fail_msg("%s: makespan %g, expected %g", file, m, makespan);
    program_deinit(&q);
    program_deinit(&p);
    free(got);
    free(want);
}

static void test_project_fixtures(void **state)
{
    (void)state;
    /* 2m(F+B) + (P-1)(F&B + B - 3W) = 60 + 6 */
    check_generator_equals_file("dualpipev", 4, 10, 2, "dualpipev_4rank_10mb.csv", 66);
    check_generator_equals_file("interleaved-zb", 2, 8, 2, "interleaved_zb_2rank_8mb.csv", 49);
}

/* The schedules PyTorch 2.11 itself dumped (_dump_csv) while running them
 * on 4 ranks, 8 micro-batches (tools/capture_pp_traces.py, with the
 * traces beside them): ppflow's generator writes each file byte for byte
 * (line ends aside),
 * and the file with PyTorch's sends and receives added reads back as the
 * same program, to the same makespan. */
static void test_pytorch_2_11_dumps(void **state)
{
    (void)state;
    static const char *const names[] = {"interleaved-1f1b", "interleaved-zb", "zbv", "dualpipev"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        char path[512], comms[512];
        snprintf(path, sizeof path, "%s/tests/data/traces/pytorch-2.11/%s/schedule.csv",
                 PPFLOW_SOURCE_DIR, names[k]);
        snprintf(comms, sizeof comms, "%s/tests/data/traces/pytorch-2.11/%s/schedule_comms.csv",
                 PPFLOW_SOURCE_DIR, names[k]);
        size_t len = 0;
        program p, from_comms;
        ppf_error err = {{0}};
        char *got;
        char *want = file_and_generated(path, &len, names[k], 4, 8, 2, &p, &got);
        if (strcmp(got, want) != 0)
            fail_msg("%s: ppflow's schedule differs from PyTorch 2.11's dump", names[k]);
        if (!csv_load(comms, &from_comms, &err))
            fail_msg("%s", err.message);
        assert_int_equal(from_comms.ranks, 4);
        const double want_makespan = makespan_per_stage_costs(&p);
        const double got_makespan = makespan_per_stage_costs(&from_comms);
        if (got_makespan != want_makespan)
            fail_msg("%s with comms: makespan %g, expected %g", names[k], got_makespan,
                     want_makespan);
        program_deinit(&from_comms);
        program_deinit(&p);
        free(got);
        free(want);
    }
}

static void test_comms_cells_do_not_change_timing(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/tests/data/1f1b_2rank_2mb_comms.csv", PPFLOW_SOURCE_DIR);
    program p;
    ppf_error err = {{0}};
    if (!csv_load(path, &p, &err))
        fail_msg("%s", err.message);
    assert_int_equal(p.ranks, 2);
    assert_int_equal(p.rank[1].actions[2].kind, ACTION_F); /* the quoted "1F0" */
    /* (M + P - 1)(F + B) with P = M = 2, as without the SEND/RECV cells */
    assert_true(makespan_per_stage_costs(&p) == 9.0);
    program_deinit(&p);
}

/* PyTorch's own files, when the checkout has them beside it. */
static void test_pytorch_fixtures_when_present(void **state)
{
    (void)state;
    const struct {
        const char *file;
        int ranks, stages, mbs;
        double makespan;
    } files[] = {
        {"dualpipev_4rank_10mb.csv", 4, 8, 10, 66},
        {"zb1p_2rank_2stagep_compute.csv", 2, 4, 8, 49},
        {"zb1p_2rank_2stagep_comms.csv", 2, 4, 8, 49},
    };
    int found = 0;
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        char path[512];
        snprintf(path, sizeof path, "%s/../shared/fixtures/pytorch/%s", PPFLOW_SOURCE_DIR,
                 files[k].file);
        if (access(path, R_OK) != 0)
            continue;
        found++;
        program p;
        ppf_error err = {{0}};
        if (!csv_load(path, &p, &err))
            fail_msg("%s", err.message);
        assert_int_equal(p.ranks, files[k].ranks);
        assert_int_equal(p.stages, files[k].stages);
        assert_int_equal(p.microbatches, files[k].mbs);
        double m = makespan_per_stage_costs(&p);
        if (m != files[k].makespan)
            fail_msg("%s: makespan %g, expected %g", files[k].file, m, files[k].makespan);
        if (k == 0) { /* equal to our own dualpipev, cell for cell */
            program q;
            schedule_params sp = {.ranks = 4, .microbatches = 10};
            assert_true(schedule_generate("dualpipev", &sp, &q, &err));
            for (int r = 0; r < 4; r++) {
                assert_int_equal(p.rank[r].count, q.rank[r].count);
                for (int c = 0; c < p.rank[r].count; c++)
                    assert_true(action_equal(&p.rank[r].actions[c], &q.rank[r].actions[c]));
            }
            program_deinit(&q);
        }
        program_deinit(&p);
    }
    if (!found)
        print_message("PyTorch fixtures not beside this checkout; checked the project's own\n");
}

static void test_load_errors_name_the_path(void **state)
{
    (void)state;
    program p;
    ppf_error err = {{0}};
    assert_false(csv_load("/nonexistent/x.csv", &p, &err));
    assert_non_null(strstr(err.message, "/nonexistent/x.csv"));
    assert_non_null(strstr(err.message, "cannot open"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_infers_sizes_and_layout),
        cmocka_unit_test(test_parse_accepts_csv_dialects),
        cmocka_unit_test(test_bad_csv_names_row_column_and_rule),
        cmocka_unit_test(test_export_round_trips_every_generator),
        cmocka_unit_test(test_project_fixtures),
        cmocka_unit_test(test_comms_cells_do_not_change_timing),
        cmocka_unit_test(test_pytorch_2_11_dumps),
        cmocka_unit_test(test_pytorch_fixtures_when_present),
        cmocka_unit_test(test_load_errors_name_the_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
