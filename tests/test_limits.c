/* Hostile scenarios through the ppflow program, as a user runs it: the
 * crashes that sizes overflowing int used to cause exit 2 with one line; a
 * scenario just under the budget works and one just over is refused, in
 * `schedule` and in `render`; a talk and a comparison over the budget in
 * all are refused before anything is simulated (in under a second, in an
 * address space too small for one scenario at the budget), a comparison
 * just under it works; a talk's slide that is not shown is neither built
 * nor counted; ranks above 32767 stay positive in every format; every
 * number written is finite; and control characters from a path never
 * reach the terminal. PPFLOW_EXE is the path of the program. */
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

/* An address space that holds a refused run but not one scenario at the
 * budget (measured: 2e7 actions abort under 512 MiB; a refusal runs in
 * 256 MiB). Not applied under AddressSanitizer (child.h). */
#define SMALL_MEMORY (512LL << 20)

/* ppflow with the arguments, under SMALL_MEMORY, killed (and the test
 * failed) after 20 s; *seconds is how long it ran. */
static child_result run_small(const char *const *args, double *seconds)
{
    const child_desc d = {
        .exe = PPFLOW_EXE, .args = args, .capture_dir = scratch, .as_limit = SMALL_MEMORY};
    const double start = now_seconds();
    child_result r = child_run_bounded(&d, 20, "a run over the budget in all");
    *seconds = now_seconds() - start;
    return r;
}

/* A talk file of a few hundred bytes: a base at the action budget and 100
 * slides that keep it. */
static void write_talk_at_budget(char *path, size_t size, int slides)
{
    char text[2048] = "{\"base\": {\"schedule\": \"zb-h1\", \"stages\": 100, \"microbatches\": "
                      "66397}, \"slides\": [";
    for (int k = 0; k < slides; k++)
        strcat(text, k ? ", {}" : "{}");
    strcat(text, "]}");
    scratch_put(path, size, scratch, "talk.json", text);
}

/* Every command that builds every slide or side at once refuses the sum
 * with one line, before the first is simulated: at once, in little memory,
 * nothing written. Each slide or side alone fits the budget. */
static void test_over_the_total_refused_at_once(void **state)
{
    (void)state;
    char talk[300], dir[300];
    write_talk_at_budget(talk, sizeof talk, 100);
    scratch_join(dir, sizeof dir, scratch, "beats/");
    static const char *const sides[] = {"--compare", "zb-h1,1f1b,gpipe,zb-h1", "--stages",
                                        "100",       "--microbatches",         "66397"};
    const struct {
        const char *args[12];
        const char *names;
    } cases[] = {
        {{talk}, "100 slides: 2e9 actions in all"},
        {{"present", talk}, "100 slides: 2e9 actions in all"},
        {{"render", talk, "--per-beat", "-o", dir}, "100 slides: 2e9 actions in all"},
        {{"render", talk, "--beat", "2", "-o", dir}, "100 slides: 2e9 actions in all"},
        {{"schedule", sides[0], sides[1], sides[2], sides[3], sides[4], sides[5]},
         "--compare: 4 sides: 79999600 actions in all"},
        {{"render", "--still", "1", "-o", dir, sides[0], sides[1], sides[2], sides[3], sides[4],
          sides[5]},
         "--compare: 4 sides: 79999600 actions in all"},
        {{sides[0], sides[1], sides[2], sides[3], sides[4], sides[5]},
         "--compare: 4 sides: 79999600 actions in all"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        double seconds;
        child_result r = run_small(cases[k].args, &seconds);
        child_expect_status(&r, 2);
        child_expect_one_line(&r, "ppflow: ", cases[k].names);
        assert_non_null(strstr(r.err, "(the most, "));
        assert_non_null(strstr(r.err, ": at most 2e7"));
        if (seconds > 1.0)
            fail_msg("case %zu: refused after %.2f s; must be at once", k, seconds);
        assert_int_equal(child_count_other_files(scratch, "talk.json"), 0);
        child_result_deinit(&r);
    }
    scratch_empty(scratch);
}

/* Two sides at exactly the budget in all are compared; one micro-batch
 * more is refused, naming the sum. */
static void test_compare_just_under_and_over(void **state)
{
    (void)state;
    long long m = 1;
    while (2 * 100 * budget_generated_per_rank(100, 1, m + 1) <= BUDGET_MAX_ACTIONS)
        m++;
    char m_under[24], m_over[24];
    snprintf(m_under, sizeof m_under, "%lld", m);
    snprintf(m_over, sizeof m_over, "%lld", m + 1);
    child_result r =
        RUN("schedule", "--compare", "zb-h1,gpipe", "--stages", "100", "--microbatches", m_over);
    expect_refused(&r, "--compare: 2 sides: ");
    r = RUN("schedule", "--compare", "zb-h1,gpipe", "--stages", "100", "--microbatches", m_under);
    child_expect_status(&r, 0);
    assert_non_null(strstr(r.out, "zb-h1"));
    assert_non_null(strstr(r.out, "gpipe"));
    child_result_deinit(&r);
}

/* A command that shows one slide builds that one only: a talk whose
 * second slide is far over the budget alone, and one whose slides are
 * over it together, show their first slide (quickly, in little memory);
 * the second slide shown is refused as a scenario is, and the window,
 * which holds every slide, refuses the talk. */
static void test_slides_not_shown_not_built(void **state)
{
    (void)state;
    char huge[300], total[300], png[300], dir[300];
    scratch_put(huge, sizeof huge, scratch, "huge.json",
                "{\"slides\": [{\"title\": \"small\"}, {\"schedule\": \"zb-h1\", \"stages\": "
                "4096, \"microbatches\": 1000000}]}");
    scratch_put(total, sizeof total, scratch, "total.json",
                "{\"slides\": [{\"title\": \"small\"}, {\"schedule\": \"zb-h1\", \"stages\": "
                "100, \"microbatches\": 66397}]}");
    scratch_join(png, sizeof png, scratch, "one.png");
    scratch_join(dir, sizeof dir, scratch, "beats/");
    const char *const talks[] = {huge, total};
    for (int k = 0; k < 2; k++) {
        double seconds;
        child_result r = run_small(CHILD_ARGS("schedule", talks[k], "--format", "beats"), &seconds);
        child_expect_status(&r, 0);
        assert_non_null(strstr(r.out, "start"));
        if (seconds > 1.0)
            fail_msg("%s: slide 1's beats after %.2f s: slide 2 was built", talks[k], seconds);
        child_result_deinit(&r);
        r = run_small(CHILD_ARGS(talks[k]), &seconds);
        child_expect_status(&r, 2);
        child_expect_one_line(&r, "ppflow: ", "2 slides: ");
        child_result_deinit(&r);
    }
    child_result r = RUN("schedule", huge, "--slide", "2");
    child_expect_status(&r, 2);
    child_expect_one_line(&r, "ppflow: ", "huge.json: slides[1]: stages x (");
    child_result_deinit(&r);
    /* render shows one slide too: a still, and one slide's per-beat clips */
    r = RUN("render", huge, "--still", "1", "--size", "64x36", "-o", png);
    child_expect_status(&r, 0);
    child_result_deinit(&r);
    r = RUN("render", huge, "--slide", "1", "--beat", "1", "--size", "32x32", "-o", dir);
    child_expect_status(&r, 0);
    child_result_deinit(&r);
    r = RUN("render", huge, "--beat", "1", "--size", "32x32", "-o", dir);
    child_expect_status(&r, 2);
    child_expect_one_line(&r, "ppflow: ", "2 slides: ");
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
        cmocka_unit_test(test_over_the_total_refused_at_once),
        cmocka_unit_test(test_compare_just_under_and_over),
        cmocka_unit_test(test_slides_not_shown_not_built),
        cmocka_unit_test(test_ranks_above_int16),
        cmocka_unit_test(test_numbers_written_are_finite),
        cmocka_unit_test(test_control_characters_escaped),
        cmocka_unit_test(test_fifo_inputs_do_not_hang),
    };
    return cmocka_run_group_tests(tests, setup, scratch_teardown);
}
