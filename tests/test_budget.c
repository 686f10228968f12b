/* Tests of the budget (core/scenario/budget.h) and of the sizes it protects: each
 * limit holds at its value and refuses one past it, products that overflow
 * 32 and 64 bits are refused rather than wrapped, the scene's object count
 * is what the scene lays out, ranks above 32767 stay positive, a CSV of
 * empty cells stops at the budget, and non-finite timelines are refused.
 * Totals: the sum of several scenarios against the limits, a scenario's
 * cost bounding what its build holds, a CSV counted without being kept. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "budget.h"
#include "csv.h"
#include "scenario.h"
#include "scene.h"
#include "schedules.h"
#include "support/check.h"
#include "support/scratch.h"
#include "timeline.h"

static void test_generated_limit(void **state)
{
    (void)state;
    ppf_error err = {{0}};
    /* P x (3 V M + 8 V P + 8) = at most the budget, then one micro-batch more. */
    const int64_t m = (BUDGET_MAX_ACTIONS / 64 - 8 * 2 * 64 - 8) / (3 * 2);
    assert_true(budget_check_generated(64, 2, m, &err));
    assert_le(64 * budget_generated_per_rank(64, 2, m), BUDGET_MAX_ACTIONS);
    assert_false(budget_check_generated(64, 2, m + 1, &err));
    assert_message(&err, "64 x (2 x");
    assert_message(&err, "at most 2e7");
    /* Terms whose product wraps 64 bits are still refused. */
    assert_false(budget_check_generated(INT64_MAX / 2, INT64_MAX / 2, 3, &err));
    assert_false(budget_check_generated(65536, 64, 100000000, &err));
}

/* Every generator writes at most what the budget counts for it, on every
 * rank, idle steps included: a generated program's CSV re-imports. */
static void test_generators_within_count(void **state)
{
    (void)state;
    int n = 0;
    const schedule_info *list = schedule_list(&n);
    const int sizes[][2] = {{1, 1},   {2, 4}, {4, 8},  {4, 16},  {8, 8},     {8, 64},
                            {16, 32}, {3, 9}, {64, 1}, {128, 1}, {128, 128}, {33, 7}};
    for (int k = 0; k < n; k++) {
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            for (int v = 0; v <= 8; v++) {
                schedule_params sp = {
                    .ranks = sizes[z][0], .microbatches = sizes[z][1], .stages_per_rank = v};
                program p;
                ppf_error err = {{0}};
                if (!schedule_generate(list[k].name, &sp, &p, &err))
                    continue; /* a constraint of the schedule: nothing was built */
                const int64_t per_rank =
                    budget_generated_per_rank(p.ranks, p.stages_per_rank, p.microbatches);
                for (int r = 0; r < p.ranks; r++)
                    if (p.rank[r].count > per_rank)
                        fail_msg("%s P=%d M=%d V=%d rank %d: %d actions, counted %lld",
                                 list[k].name, p.ranks, p.microbatches, p.stages_per_rank, r,
                                 p.rank[r].count, (long long)per_rank);
                program_deinit(&p);
            }
        }
    }
}

static void test_grid_and_cells(void **state)
{
    (void)state;
    ppf_error err = {{0}};
    assert_true(budget_check_grid(1000, BUDGET_MAX_GRID / 1000, &err));
    assert_false(budget_check_grid(1000, BUDGET_MAX_GRID / 1000 + 1, &err));
    assert_message(&err, "stages x micro-batches = 1000 x");
    assert_false(budget_check_grid(65536, 100000001, &err)); /* a CSV's largest numbers */
    assert_true(budget_check_cells(BUDGET_MAX_ACTIONS, "x.csv", &err));
    assert_false(budget_check_cells(BUDGET_MAX_ACTIONS + 1, "x.csv", &err));
    assert_message(&err, "x.csv: more than 2e7 cells");
}

static void test_time_limit(void **state)
{
    (void)state;
    ppf_error err = {{0}};
    assert_true(budget_check_time(0, &err));
    assert_true(budget_check_time(BUDGET_MAX_TIME, &err));
    assert_false(budget_check_time(nextafter(BUDGET_MAX_TIME, INFINITY), &err));
    assert_message(&err, "at most 1e12");
    assert_false(budget_check_time(INFINITY, &err));
    assert_message(&err, "overflows");
    assert_false(budget_check_time(NAN, &err));
}

/* The budget's count is what scene_init lays out, kind by kind. */
static void test_scene_count_matches_scene(void **state)
{
    (void)state;
    const int P = 3, M = 5, D = 4, K = 3;
    program p;
    timeline_costs c;
    scenario sc;
    scenario_init(&sc);
    ppf_error err = {{0}};
    char value[16];
    snprintf(value, sizeof value, "%d", P);
    assert_true(scenario_set(&sc, "stages", value, &err));
    snprintf(value, sizeof value, "%d", M);
    assert_true(scenario_set(&sc, "microbatches", value, &err));
    snprintf(value, sizeof value, "%d", D);
    assert_true(scenario_set(&sc, "dp", value, &err));
    assert_true(scenario_build(&sc, &p, &c, &err));
    timeline tl;
    assert_true(timeline_simulate(&tl, &p, &c, &err));
    scene s;
    scene_desc d = scene_desc_defaults();
    d.layers_per_stage = K;
    scene_init(&s, &d, &tl);
    int64_t sum = 0;
    for (int k = 0; k < SCENE_KIND_COUNT; k++)
        sum += scene_kind_count(&s, (scene_kind)k) * scene_kind_copies(&s, (scene_kind)k);
    assert_int_equal(sum, scene_count_objects(P, K, M, D));
    assert_true(scene_check_budget(P, K, M, D, &err));
    scene_deinit(&s);
    timeline_deinit(&tl);
    timeline_costs_deinit(&c);
    program_deinit(&p);
    scenario_deinit(&sc);
}

static void test_scene_limit(void **state)
{
    (void)state;
    ppf_error err = {{0}};
    /* The two crashes the budget closes: D x objects, and layers x M. */
    assert_false(scene_check_budget(4, 2, 64, 1000000, &err));
    assert_message(&err, "1000000 x 4 x 2 x 64");
    assert_message(&err, "objects to draw: at most 5e7");
    assert_false(scene_check_budget(8, 1024, 262144, 8, &err));
    assert_false(scene_check_budget(65536, 1024, 100000000, 1000000, &err));
    /* Largest D that fits for P=16, K=2, M=4096, and one more. */
    int64_t d = 1;
    while (scene_count_objects(16, 2, 4096, d * 2) <= BUDGET_MAX_OBJECTS)
        d *= 2;
    int64_t lo = d, hi = d * 2; /* lo fits, hi does not */
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        *(scene_count_objects(16, 2, 4096, mid) <= BUDGET_MAX_OBJECTS ? &lo : &hi) = mid;
    }
    assert_true(scene_check_budget(16, 2, 4096, lo, &err));
    assert_false(scene_check_budget(16, 2, 4096, hi, &err));
    assert_message(&err, "x 16 x 2 x 512: ");
}

/* Past SCENE_DEFAULT_MAX_SLOTS micro-batches the scene's objects stop
 * growing with M (scene.h, "Level of detail"): P=256 M=4096 D=8 is drawn. */
static void test_scene_count_stops_at_the_slots(void **state)
{
    (void)state;
    ppf_error err = {{0}};
    assert_int_equal(scene_slots_for(512, 0), 512);
    assert_int_equal(scene_slots_for(513, 0), 257); /* two per slot, the last one alone */
    assert_int_equal(scene_slots_for(4096, 0), 512);
    assert_int_equal(scene_slots_for(4097, 0), 456); /* nine per slot */
    assert_int_equal(scene_slots_for(8, 4), 4);
    assert_int_equal(scene_count_objects(16, 2, 4096, 8), scene_count_objects(16, 2, 512, 8));
    assert_gt(scene_count_objects(16, 2, 512, 8), scene_count_objects(16, 2, 511, 8));
    assert_true(scene_check_budget(256, 2, 4096, 8, &err));
}

/* 40,000 ranks, each one stage of one micro-batch: ranks above 32767 come
 * out positive in the all-reduces and the p2p transfers. */
static void test_ranks_above_int16(void **state)
{
    (void)state;
    enum { R = 40000 };
    size_t cap = (size_t)R * 32, n = 0;
    char *text = malloc(cap);
    for (int r = 0; r < R; r++)
        n += (size_t)snprintf(text + n, cap - n, "%dF0,%dB0\n", r, r);
    program p;
    ppf_error err = {{0}};
    if (!csv_parse(text, n, "r40k.csv", &p, &err))
        fail_msg("%s", err.message);
    free(text);
    timeline_costs c;
    timeline_costs_init(&c, p.ranks);
    c.dp = 2;
    c.allreduce = (allreduce_cost){.mode = ALLREDUCE_TIME, .time = 1};
    timeline tl;
    assert_true(timeline_simulate(&tl, &p, &c, &err));
    int max_rank = -1;
    for (int k = 0; k < tl.allreduce_count; k++)
        if (tl.allreduces[k].src_rank > max_rank)
            max_rank = tl.allreduces[k].src_rank;
    assert_int_equal(max_rank, R - 1);
    p2p_cursor cur = {0};
    transfer x;
    int max_dst = -1;
    while (timeline_next_p2p(&tl, &cur, &x))
        if (x.dst_rank > max_dst)
            max_dst = x.dst_rank;
    assert_int_equal(max_dst, R - 1);
    timeline_deinit(&tl);
    timeline_costs_deinit(&c);
    program_deinit(&p);
}

/* A CSV of nothing but empty cells is refused at the budget, having held
 * at most the budget's cells, not the file's. */
static void test_csv_of_empty_cells(void **state)
{
    (void)state;
    size_t n = (size_t)BUDGET_MAX_ACTIONS + 1000;
    char *text = malloc(n);
    memset(text, ',', n);
    program p;
    ppf_error err = {{0}};
    assert_false(csv_parse(text, n, "commas.csv", &p, &err));
    assert_message(&err, "commas.csv: more than 2e7 cells");
    free(text);
}

/* Stage and micro-batch numbers whose product passes the budget are
 * refused before the simulator's tables exist. */
static void test_csv_grid_refused(void **state)
{
    (void)state;
    const char *text = "0F0,0B0,65535F99999999,65535B99999999\n";
    program p;
    ppf_error err = {{0}};
    assert_false(csv_parse(text, strlen(text), "wide.csv", &p, &err));
    assert_message(&err, "wide.csv: stages x micro-batches = 65536 x 100000000");
}

/* Finite costs that sum to infinity, and sums past the time limit. */
static void test_costs_that_overflow(void **state)
{
    (void)state;
    const char *cases[][2] = {{"1e308", "1e308"}, {"1e300", "1"}, {"1e11", "1e11"}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        scenario sc;
        scenario_init(&sc);
        ppf_error err = {{0}};
        assert_true(scenario_set(&sc, "f", cases[k][0], &err));
        assert_true(scenario_set(&sc, "b", cases[k][1], &err));
        program p;
        timeline_costs c;
        assert_true(scenario_build(&sc, &p, &c, &err));
        timeline tl;
        if (timeline_simulate(&tl, &p, &c, &err))
            fail_msg("f=%s b=%s simulated to makespan %g", cases[k][0], cases[k][1], tl.makespan);
        assert_message(&err, "costs:");
        timeline_costs_deinit(&c);
        program_deinit(&p);
        scenario_deinit(&sc);
    }
}

/* Messages keep control characters out: a path with a newline and ESC. */
static void test_messages_escape_controls(void **state)
{
    (void)state;
    program p;
    ppf_error err = {{0}};
    assert_false(csv_parse("x", 1, "a\nb\033[31m.csv", &p, &err));
    assert_message(&err, "a\\x0Ab\\x1B[31m.csv");
    char long_line[PPF_ERROR_MAX * 2];
    memset(long_line, '\n', sizeof long_line - 1);
    long_line[sizeof long_line - 1] = '\0';
    ppf_fail(&err, "%s", long_line);
    assert_lt(strlen(err.message), sizeof err.message);
    assert_message(&err, "...");
}

/* ---- totals ------------------------------------------------------------------ */

static char scratch[256];

/* The sum of the parts against each limit, at it and one past, with the
 * part that holds the most named. */
static void test_total(void **state)
{
    (void)state;
    ppf_error err = {{0}};
    const char *const names[] = {"side 1", "side 2", "side 3"};
    budget_cost parts[3] = {{.actions = 5e6}, {.actions = 1e7}, {.actions = 5e6}};
    assert_true(budget_check_total(parts, names, 3, "--compare: 3 sides", &err));
    assert_true(budget_cost_fits(&parts[1]));
    parts[2].actions += 1;
    assert_false(budget_check_total(parts, names, 3, "--compare: 3 sides", &err));
    assert_message(&err, "--compare: 3 sides: 20000001 actions in all (the most, side 2: 1e7): "
                         "at most 2e7 for everything one command builds");
    /* pairs and objects alike; sums past 2^63 stay sums */
    budget_cost pairs[2] = {{.pairs = 5e6}, {.pairs = 5e6 + 1}};
    assert_false(budget_check_total(pairs, names, 2, "x", &err));
    assert_message(&err, "x: 10000001 (stage, micro-batch) pairs to simulate in all (the most, "
                         "side 2: 5000001): at most 1e7");
    budget_cost objects[2] = {{.objects = 2.5e7}, {.objects = 2.5e7}};
    assert_true(budget_check_total(objects, names, 2, "x", &err));
    objects[0].objects = 1e19;
    assert_false(budget_cost_fits(&objects[0]));
    assert_false(budget_check_total(objects, names, 2, "x", &err));
    assert_message(&err, "x: 1e19 objects to draw in all (the most, side 1: 1e19): at most 5e7");
}

/* A scenario's cost is an upper bound of what its build holds: every
 * schedule's actions at most the count, its pairs and objects exactly. */
static void test_scenario_cost_bounds_the_build(void **state)
{
    (void)state;
    int n = 0;
    const schedule_info *list = schedule_list(&n);
    for (int k = 0; k < n; k++) {
        for (int v = 0; v <= 3; v++) {
            scenario sc;
            scenario_init(&sc);
            ppf_error err = {{0}};
            char value[16];
            snprintf(value, sizeof value, "%d", v);
            assert_true(scenario_set(&sc, "schedule", list[k].name, &err));
            assert_true(scenario_set(&sc, "stages", "4", &err));
            assert_true(scenario_set(&sc, "microbatches", "16", &err));
            if (v > 0 && !scenario_set(&sc, "virtual", value, &err))
                fail_msg("%s", err.message);
            assert_true(scenario_set(&sc, "dp", "3", &err));
            budget_cost cost;
            assert_true(scenario_cost(&sc, true, &cost, &err));
            program p;
            timeline_costs c;
            if (scenario_build(&sc, &p, &c, &err)) {
                double actions = 0;
                for (int r = 0; r < p.ranks; r++)
                    actions += p.rank[r].count;
                if (actions > cost.actions)
                    fail_msg("%s V=%d: %.0f actions, counted %.0f", list[k].name, v, actions,
                             cost.actions);
                assert_true(cost.pairs == (double)p.stages * p.microbatches);
                assert_true(cost.objects == (double)scene_count_objects(
                                                p.stages, sc.layers_per_stage, p.microbatches, 3));
                timeline_costs_deinit(&c);
                program_deinit(&p);
            }
            budget_cost bare;
            assert_true(scenario_cost(&sc, false, &bare, &err));
            assert_true(bare.objects == 0 && bare.actions == cost.actions);
            scenario_deinit(&sc);
        }
    }
    scenario sc;
    scenario_init(&sc);
    ppf_error err = {{0}};
    budget_cost cost;
    assert_true(scenario_set(&sc, "schedule", "csv:no-such.csv", &err));
    assert_false(scenario_cost(&sc, false, &cost, &err));
    assert_message(&err, "no-such.csv", "cannot open");
    scenario_deinit(&sc);
}

/* A CSV counted without being kept: the sizes its import builds, the same
 * refusals in the same words; a FIFO is not read (it could not be read
 * again) and counts as the limits. */
static void test_csv_measured(void **state)
{
    (void)state;
    const char *texts[] = {
        "0F0,,0B0\n1F0,1B0\n",
        "\xEF\xBB\xBF"
        "0F0,0F1,0B0,0B1\r\n1F0,1F1,1B0,1B1\r\n\r\n",
        "0F0,0F1,\"(0F2;0B0)OVERLAP_F_B\",0B1,0B2,",
        "0F0,0B0,0SEND_F0\n1RECV_F0,1F0,1B0",
    };
    for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++) {
        char path[300], spec[320];
        scratch_put(path, sizeof path, scratch, "m.csv", texts[k]);
        program p;
        ppf_error err = {{0}};
        csv_size size;
        bool measured;
        if (!csv_measure(path, &size, &measured, &err))
            fail_msg("text %zu: %s", k, err.message);
        assert_true(measured);
        if (!csv_load(path, &p, &err))
            fail_msg("text %zu: %s", k, err.message);
        int64_t cells = 0;
        for (int r = 0; r < p.ranks; r++)
            cells += p.rank[r].count;
        assert_int_equal(size.cells, cells);
        assert_int_equal(size.rows, p.ranks);
        assert_int_equal(size.stages, p.stages);
        assert_int_equal(size.microbatches, p.microbatches);
        /* and the scenario's cost of it, its scene included */
        scenario sc;
        scenario_init(&sc);
        snprintf(spec, sizeof spec, "csv:%s", path);
        assert_true(scenario_set(&sc, "schedule", spec, &err));
        budget_cost cost;
        assert_true(scenario_cost(&sc, true, &cost, &err));
        assert_true(cost.actions == (double)cells);
        assert_true(cost.pairs == (double)p.stages * p.microbatches);
        assert_true(cost.objects == (double)scene_count_objects(p.stages, sc.layers_per_stage,
                                                                p.microbatches, sc.dp));
        scenario_deinit(&sc);
        program_deinit(&p);
    }
    /* refused as the import refuses it */
    const char *bad[] = {"0F0,zz\n", "", "0F0,0B0,65535F99999999,65535B99999999\n", "\"0F0\n"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char path[300];
        scratch_put(path, sizeof path, scratch, "bad.csv", bad[k]);
        program p;
        csv_size size;
        bool measured;
        ppf_error measure_err = {{0}}, load_err = {{0}};
        assert_false(csv_measure(path, &size, &measured, &measure_err));
        assert_false(csv_load(path, &p, &load_err));
        assert_string_equal(measure_err.message, load_err.message);
    }
    /* a FIFO with no writer: not read, and nothing waits */
    char fifo[300], spec[320];
    scratch_join(fifo, sizeof fifo, scratch, "m.fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    csv_size size;
    bool measured = true;
    ppf_error err = {{0}};
    assert_true(csv_measure(fifo, &size, &measured, &err));
    assert_false(measured);
    scenario sc;
    scenario_init(&sc);
    snprintf(spec, sizeof spec, "csv:%s", fifo);
    assert_true(scenario_set(&sc, "schedule", spec, &err));
    budget_cost cost;
    assert_true(scenario_cost(&sc, true, &cost, &err));
    assert_true(cost.actions == (double)BUDGET_MAX_ACTIONS);
    assert_true(cost.objects == (double)BUDGET_MAX_OBJECTS);
    scenario_deinit(&sc);
    scratch_empty(scratch);
}

int main(void)
{
    if (!scratch_init(scratch, sizeof scratch, "ppflow_test_budget"))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generated_limit),
        cmocka_unit_test(test_generators_within_count),
        cmocka_unit_test(test_grid_and_cells),
        cmocka_unit_test(test_time_limit),
        cmocka_unit_test(test_scene_count_matches_scene),
        cmocka_unit_test(test_scene_limit),
        cmocka_unit_test(test_scene_count_stops_at_the_slots),
        cmocka_unit_test(test_ranks_above_int16),
        cmocka_unit_test(test_csv_of_empty_cells),
        cmocka_unit_test(test_csv_grid_refused),
        cmocka_unit_test(test_costs_that_overflow),
        cmocka_unit_test(test_messages_escape_controls),
        cmocka_unit_test(test_total),
        cmocka_unit_test(test_scenario_cost_bounds_the_build),
        cmocka_unit_test(test_csv_measured),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    scratch_deinit(scratch);
    return failed;
}
