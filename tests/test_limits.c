/* Hostile scenarios through the ppflow program, as a user runs it: the
 * crashes that sizes overflowing int used to cause exit 2 with one line; a
 * scenario just under the budget works and one just over is refused, in
 * `schedule` and in `render`; ranks above 32767 stay positive in every
 * format; every number written is finite; and control characters from a
 * path never reach the terminal. PPFLOW_EXE is the path of the program. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "budget.h"
#include "scene.h"
#include "support/ppflow_run.h"

static char scratch[256];

#define RUN(...) PPFLOW_RUN(scratch, __VA_ARGS__)

/* Exit 2, one line naming `names`, and nothing left in the scratch folder. */
static void expect_refused(child_result *r, const char *names)
{
    child_expect_status(r, 2);
    child_expect_one_line(r, "ppflow: ", names);
    assert_int_equal(child_count_other_files(scratch, NULL), 0);
    child_result_deinit(r);
}

/* The reproductions from the report: each crashed (SIGSEGV) in release. */
static void test_crashes_are_bad_input(void **state)
{
    (void)state;
    char png[300];
    scratch_join(png, sizeof png, scratch, "x.png");
    child_result r =
        RUN("render", "--still", "1", "--dp", "1000000", "--microbatches", "64", "-o", png);
    expect_refused(&r, "objects to draw: at most 5e7");
    /* layers x M: since a band draws at most 512 slots, it takes replicas
     * too for this one to pass the limit */
    r = RUN("render", "--still", "1", "--stages", "8", "--layers-per-stage", "1024",
            "--microbatches", "262144", "--dp", "4", "-o", png);
    expect_refused(&r, "objects to draw");
    /* The viewer refuses it before it looks for a display. */
    r = RUN("--dp", "1000000", "--microbatches", "64");
    expect_refused(&r, "objects to draw: at most 5e7");
    /* Times and speeds past the longest iteration, which the viewer would
     * scale to infinity. */
    r = RUN("--speed", "1e308");
    expect_refused(&r, "--speed = 1e+308: must be from 0.002 to 2000");
    r = RUN("render", "--still", "1e13", "-o", png);
    expect_refused(&r, "--still");
    r = RUN("schedule", "--f", "1e308", "--b", "1e308");
    expect_refused(&r, "costs: the iteration's length overflows");
    r = RUN("schedule", "--f", "1e11", "--b", "1e11", "--format", "json");
    expect_refused(&r, "at most 1e12");
}

/* The largest D whose scene fits the budget for P=16, K=2, M=64. */
static int largest_drawable_replicas(void)
{
    int lo = 1, hi = 1000000; /* lo fits, hi does not */
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        *(scene_count_objects(16, 2, 64, mid) <= BUDGET_MAX_OBJECTS ? &lo : &hi) = mid;
    }
    return lo;
}

static void test_render_just_under_and_over(void **state)
{
    (void)state;
    char png[300], d_under[16], d_over[16];
    scratch_join(png, sizeof png, scratch, "still.png");
    int d = largest_drawable_replicas();
    snprintf(d_under, sizeof d_under, "%d", d);
    snprintf(d_over, sizeof d_over, "%d", d + 1);
    child_result r = RUN("render", "--still", "1", "--size", "160x90", "--stages", "16", "--dp",
                         d_over, "--microbatches", "64", "-o", png);
    expect_refused(&r, " x 16 x 2 x 64: ");
    r = RUN("render", "--still", "1", "--size", "160x90", "--stages", "16", "--dp", d_under,
            "--microbatches", "64", "-o", png);
    child_expect_status(&r, 0);
    assert_true(scratch_exists(png));
    child_result_deinit(&r);
    scratch_empty(scratch);
}

/* The largest M whose generated program fits the action budget for P. */
static long long largest_generated_microbatches(int P)
{
    long long m = 1;
    while (P * budget_generated_per_rank(P, 1, m + 1) <= BUDGET_MAX_ACTIONS)
        m++;
    return m;
}

static void test_schedule_just_under_and_over(void **state)
{
    (void)state;
    /* zb-h1 writes 3 actions per (stage, micro-batch), the most of any
     * generator; its CSV, idle cells included, must import again. */
    char m_under[24], m_over[24], csv[300], spec[320];
    const long long m = largest_generated_microbatches(100);
    snprintf(m_under, sizeof m_under, "%lld", m);
    snprintf(m_over, sizeof m_over, "%lld", m + 1);
    scratch_join(csv, sizeof csv, scratch, "largest.csv");
    child_result r =
        RUN("schedule", "--schedule", "zb-h1", "--stages", "100", "--microbatches", m_over);
    expect_refused(&r, "actions: at most 2e7");
    r = RUN("schedule", "--schedule", "zb-h1", "--stages", "100", "--microbatches", m_under,
            "--format", "csv", "-o", csv);
    child_expect_status(&r, 0);
    child_result_deinit(&r);
    snprintf(spec, sizeof spec, "csv:%s", csv);
    r = RUN("schedule", "--schedule", spec, "--format", "json", "-o", "/dev/null");
    child_expect_status(&r, 0);
    child_result_deinit(&r);
    scratch_empty(scratch);
}

/* A 40,000-row CSV: ranks above 32767 in the table, JSON and Chrome trace. */
static void test_ranks_above_int16(void **state)
{
    (void)state;
    char csv[300], spec[320];
    scratch_join(csv, sizeof csv, scratch, "r40k.csv");
    FILE *f = fopen(csv, "w");
    assert_non_null(f);
    for (int r = 0; r < 40000; r++)
        fprintf(f, "%dF0,%dB0\n", r, r);
    fclose(f);
    snprintf(spec, sizeof spec, "csv:%s", csv);
    const char *formats[] = {"table", "json", "chrome-trace"};
    for (int k = 0; k < 3; k++) {
        child_result r =
            RUN("schedule", "--schedule", spec, "--allreduce", "1", "--format", formats[k]);
        child_expect_status(&r, 0);
        /* No negative rank in any form: "rank": -1, "tid": -5, a row "-3". */
        assert_null(strstr(r.out, "\"rank\":-"));
        assert_null(strstr(r.out, "\"src_rank\":-"));
        assert_null(strstr(r.out, "\"dst_rank\":-"));
        assert_null(strstr(r.out, "\"tid\":-"));
        assert_null(strstr(r.out, "\n-"));
        assert_null(strstr(r.out, "\n  -"));
        if (k == 1)
            assert_non_null(strstr(r.out, "39999"));
        child_result_deinit(&r);
    }
    scratch_empty(scratch);
}

/* Extreme but accepted costs: every number in every format is finite. */
static void test_numbers_written_are_finite(void **state)
{
    (void)state;
    const char *formats[] = {"table", "json", "chrome-trace", "gantt"};
    for (int k = 0; k < 4; k++) {
        child_result r =
            RUN("schedule", "--schedule", "zb-h1", "--f", "1e-300", "--b", "3e10", "--p2p",
                "1e-300", "--dp", "4", "--allreduce", "1e9", "--format", formats[k]);
        child_expect_status(&r, 0);
        for (const char *bad = r.out; (bad = strstr(bad, "nan")) != NULL; bad++)
            fail_msg("%s has nan: %.40s", formats[k], bad);
        assert_null(strstr(r.out, "inf"));
        assert_null(strstr(r.out, "null"));
        assert_null(strstr(r.out, "\"ts\":-"));
        child_result_deinit(&r);
    }
}

/* A path with a newline and an escape sequence stays one printable line. */
static void test_control_characters_escaped(void **state)
{
    (void)state;
    child_result r = RUN("schedule", "--schedule", "csv:no\nsuch\033[31m.csv");
    expect_refused(&r, "no\\x0Asuch\\x1B[31m.csv");
    char json[300];
    scratch_join(json, sizeof json, scratch, "s.json");
    scratch_write(json, "{\"schedule\": \"csv:\\u001b]0;title\\u0007.csv\"}");
    r = RUN("schedule", json);
    assert_int_equal(r.status, 2);
    child_expect_one_line(&r, "ppflow: ", "\\x1B]0;title\\x07.csv");
    child_result_deinit(&r);
    scratch_empty(scratch);
}

/* A FIFO with no writer as the scenario file or the CSV reads as empty: exit
 * 2 at once, never a wait for a writer that does not come. */
static void test_fifo_inputs_do_not_hang(void **state)
{
    (void)state;
    char fifo[300], spec[320];
    scratch_join(fifo, sizeof fifo, scratch, "input.fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    snprintf(spec, sizeof spec, "csv:%s", fifo);
    const char *const as_scenario[] = {"schedule", fifo, NULL};
    const char *const as_csv[] = {"schedule", "--schedule", spec, NULL};
    const char *const *cases[] = {as_scenario, as_csv};
    for (int k = 0; k < 2; k++) {
        const child_desc d = {.exe = PPFLOW_EXE, .args = cases[k], .capture_dir = scratch};
        child_result r = child_wait_bounded(child_start(&d), &d, 20, "a FIFO as input");
        assert_int_equal(r.status, 2);
        child_expect_one_line(&r, "ppflow: ", "input.fifo");
        child_result_deinit(&r);
    }
    scratch_empty(scratch);
}

static int setup(void **state)
{
    return scratch_setup(state, scratch, sizeof scratch, "ppflow_test_limits");
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crashes_are_bad_input),
        cmocka_unit_test(test_schedule_just_under_and_over),
        cmocka_unit_test(test_render_just_under_and_over),
        cmocka_unit_test(test_ranks_above_int16),
        cmocka_unit_test(test_numbers_written_are_finite),
        cmocka_unit_test(test_control_characters_escaped),
        cmocka_unit_test(test_fifo_inputs_do_not_hang),
    };
    return cmocka_run_group_tests(tests, setup, scratch_teardown);
}
