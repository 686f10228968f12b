/* Tests of the ppflow program as a user runs it: each output format, the
 * one-line errors with exit status 2, and -o files that are written whole
 * or not at all. PPFLOW_EXE is the path of the built program. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "scenario.h"
#include "support/ppflow_run.h"

/* A scratch directory per test run, emptied before each test and removed
 * at the end. */
static char scratch[256];

#define RUN(...) PPFLOW_RUN(scratch, __VA_ARGS__)

/* Runs PPFLOW_EXE with the arguments (NULL-terminated) built at run time. */
static child_result run_args(const char *const *args)
{
    return child_run(&(child_desc){.exe = PPFLOW_EXE, .args = args, .capture_dir = scratch});
}

/* RUN with a time limit, for a run where a hang is the bug (`what`). */
#define RUN_BOUNDED(what, ...)                                                                     \
    child_run_bounded(                                                                             \
        &(child_desc){.exe = PPFLOW_EXE, .args = CHILD_ARGS(__VA_ARGS__), .capture_dir = scratch}, \
        CHILD_TIMEOUT, what)

/* Exit 0, nothing on stderr. */
static void expect_success(const child_result *r)
{
    if (r->status != 0 || r->err[0])
        fail_msg("expected success, got status %d and stderr: %s", r->status, r->err);
}

/* Exit 2, nothing on stdout, exactly one line on stderr that starts with
 * "ppflow: " and contains `names`. */
static void expect_bad_input(const child_result *r, const char *names)
{
    child_expect_status(r, 2);
    child_expect_one_line(r, "ppflow: ", names);
    if (r->out_len != 0)
        fail_msg("expected no output on stdout, got %zu bytes", r->out_len);
}

/* ---- formats ---- */

static void test_table(void **state)
{
    (void)state;
    child_result r = RUN("schedule");
    expect_success(&r);
    assert_non_null(strstr(r.out, "schedule 1f1b"));
    assert_non_null(strstr(r.out, "makespan"));
    /* the default's transfers take time, and the table says why the textbook does not hold */
    assert_non_null(strstr(r.out, "does not apply: it assumes free transfers, p2p = 0.25"));
    child_result_deinit(&r);

    /* the textbook case, free transfers: the closed forms hold */
    r = RUN("schedule", "--p2p", "0", "--allreduce", "none");
    expect_success(&r);
    assert_non_null(strstr(r.out, "(M+P-1)(F+B) = 11 × 3 = 33"));
    assert_non_null(strstr(r.out, "(P-1)/(M+P-1) = 3/11 = 0.2727"));
    child_result_deinit(&r);

    /* uneven costs: the closed form is refused with the reason */
    r = RUN("schedule", "--b", "2,2,2,3", "--format=table");
    expect_success(&r);
    assert_non_null(strstr(r.out, "does not apply: per-rank costs differ"));
    child_result_deinit(&r);
}

static void test_gantt(void **state)
{
    (void)state;
    child_result r = RUN("schedule", "--format", "gantt", "--width", "120");
    expect_success(&r);
    assert_non_null(strstr(r.out, "rank 0 "));
    assert_non_null(strstr(r.out, "rank 3 "));
    assert_non_null(strstr(r.out, "F0"));
    assert_non_null(strstr(r.out, "B7"));
    assert_non_null(strstr(r.out, "time units"));
    assert_null(strstr(r.out, "\x1b[")); /* not a terminal: no colour */
    child_result_deinit(&r);

    /* compressed: many actions per column */
    r = RUN("schedule", "--format", "gantt", "--stages", "16", "--microbatches", "256",
            "--allreduce", "5");
    expect_success(&r);
    assert_non_null(strstr(r.out, "rank 15 "));
    assert_non_null(strstr(r.out, "1 column ="));
    child_result_deinit(&r);
}

static void test_json_format(void **state)
{
    (void)state;
    child_result r =
        RUN("schedule", "--format", "json", "--schedule", "zb-h1", "--dp", "3", "--allreduce", "2");
    expect_success(&r);
    cJSON *doc = cJSON_Parse(r.out);
    assert_non_null(doc);
    assert_string_equal(cJSON_GetObjectItem(doc, "schedule")->valuestring, "zb-h1");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "actions")), 3 * 4 * 8);
    assert_int_equal(cJSON_GetObjectItem(doc, "dp")->valueint, 3);
    cJSON_Delete(doc);
    child_result_deinit(&r);
}

static void test_csv_format(void **state)
{
    (void)state;
    child_result r = RUN("schedule", "--format", "csv", "--stages", "3", "--microbatches", "5");
    expect_success(&r);
    assert_int_equal(child_count_lines(r.out), 3);
    assert_true(strncmp(r.out, "0F0,", 4) == 0);

    /* what ppflow writes, ppflow reads */
    char path[300], spec[320];
    scratch_put(path, sizeof path, scratch, "round.csv", r.out);
    snprintf(spec, sizeof spec, "csv:%s", path);
    child_result back = RUN("schedule", "--schedule", spec, "--format", "csv");
    expect_success(&back);
    assert_string_equal(back.out, r.out);
    child_result_deinit(&back);
    child_result_deinit(&r);
}

static void test_chrome_trace_format(void **state)
{
    (void)state;
    child_result r =
        RUN("schedule", "--format", "chrome-trace", "--schedule", "dualpipev", "--p2p", "0.1");
    expect_success(&r);
    cJSON *doc = cJSON_Parse(r.out);
    assert_non_null(doc);
    assert_true(cJSON_IsArray(cJSON_GetObjectItem(doc, "traceEvents")));
    assert_string_equal(cJSON_GetObjectItem(doc, "displayTimeUnit")->valuestring, "ms");
    cJSON_Delete(doc);
    child_result_deinit(&r);
}

static void test_no_command_and_help(void **state)
{
    (void)state;
    /* With no display the viewer says so in one line, after checking the scenario. */
    unsetenv("DISPLAY");
    child_result r = RUN("--stages", "2", "--microbatches", "4");
    if (r.status != 1 || child_count_lines(r.err) != 1 || !strstr(r.err, "no display"))
        fail_msg("expected status 1 and one \"no display\" line, got %d: %s", r.status, r.err);
    child_result_deinit(&r);
    r = RUN("--stages", "0");
    expect_bad_input(&r, "stages");
    child_result_deinit(&r);
    r = RUN("run", "--theme", "pink");
    expect_bad_input(&r, "theme");
    child_result_deinit(&r);

    r = RUN("--help");
    expect_success(&r);
    int n;
    const scenario_field *fields = scenario_fields(&n);
    for (int k = 0; k < n; k++) {
        char flag[80];
        snprintf(flag, sizeof flag, "--%s ", fields[k].flag);
        if (!strstr(r.out, flag))
            fail_msg("--help does not list %s", flag);
    }
    assert_non_null(strstr(r.out, "--format"));
    child_result_deinit(&r);

    r = RUN("schedule", "--help");
    expect_success(&r);
    assert_non_null(strstr(r.out, "chrome-trace"));
    child_result_deinit(&r);

    r = RUN("--version");
    expect_success(&r);
    assert_true(strncmp(r.out, "ppflow ", 7) == 0);
    child_result_deinit(&r);
}

/* --speed, --time and --script as a user mistypes them: one rule and one
 * message for every refused speed (-1 and 0 once said "from 0" and "above
 * 0"), a start time past the iteration refused rather than clamped, a
 * script that is not there is bad input; values on the edge of each rule
 * pass the check (and reach "no display"). */
static void test_viewer_flags(void **state)
{
    (void)state;
    unsetenv("DISPLAY");
    /* the default scenario: makespan 40, default speed 40 / 20 = 2 */
    const char *speeds[] = {"-1", "0", "1e-9", "1e12", "0.00199", "2001", "1e-400"};
    char rule[200] = "";
    for (size_t k = 0; k < sizeof speeds / sizeof speeds[0]; k++) {
        for (int render = 0; render < 2; render++) {
            child_result r = render ? RUN("render", "--speed", speeds[k], "-o", "x.mp4")
                                    : RUN("--speed", speeds[k]);
            expect_bad_input(&r, "--speed = ");
            const char *must = strstr(r.err, ": must be");
            assert_non_null(must);
            if (!rule[0])
                snprintf(rule, sizeof rule, "%s", must);
            else if (strcmp(rule, must) != 0)
                fail_msg("--speed %s says \"%s\", another refused speed \"%s\"", speeds[k], must,
                         rule);
            child_result_deinit(&r);
        }
    }
    assert_non_null(strstr(rule, "from 0.002 to 2000"));
    assert_non_null(strstr(rule, "from 1/1000 to 1000 times the default"));
    child_result r = RUN("--speed", "fast");
    expect_bad_input(&r, "from 1/1000 to 1000 times the default");
    child_result_deinit(&r);
    r = RUN("run", "--help");
    assert_non_null(strstr(r.out, "from 1/1000 to 1000 times"));
    child_result_deinit(&r);

    const char *times[] = {"1e9", "40.5", "-1", "-0.001"};
    for (size_t k = 0; k < sizeof times / sizeof times[0]; k++) {
        r = RUN("--time", times[k]);
        expect_bad_input(&r, "--time = ");
        assert_non_null(strstr(r.err, "must be within the iteration, 0 to 40"));
        child_result_deinit(&r);
    }

    char missing[300];
    scratch_join(missing, sizeof missing, scratch, "missing.script");
    r = RUN("--script", missing);
    expect_bad_input(&r, missing);
    child_result_deinit(&r);
    r = RUN("run", "--script", "/missing");
    expect_bad_input(&r, "/missing");
    child_result_deinit(&r);

    /* on the edges: accepted, so the viewer looks for its display */
    const char *const ok[][2] = {{"--speed", "0.002"},
                                 {"--speed", "2000"},
                                 {"--speed", "2"},
                                 {"--time", "40"},
                                 {"--time", "0"}};
    for (size_t k = 0; k < sizeof ok / sizeof ok[0]; k++) {
        r = RUN(ok[k][0], ok[k][1]);
        if (r.status != 1 || !strstr(r.err, "no display"))
            fail_msg("%s %s: expected it accepted (status 1, \"no display\"), got %d: %s", ok[k][0],
                     ok[k][1], r.status, r.err);
        child_result_deinit(&r);
    }
}

/* `ppflow render --still`: a PNG of the size asked for, or one line and
 * exit 2 with no file for bad requests. */
static void test_render_still(void **state)
{
    (void)state;
    char png[512];
    scratch_join(png, sizeof png, scratch, "still.png");
    child_result r =
        RUN("render", "--still", "3.5", "--size", "320x180", "--theme", "light", "-o", png);
    expect_success(&r);
    child_result_deinit(&r);
    FILE *f = fopen(png, "rb");
    assert_non_null(f);
    unsigned char head[24];
    assert_int_equal(fread(head, 1, sizeof head, f), sizeof head);
    fclose(f);
    assert_memory_equal(head, "\x89PNG\r\n\x1a\n", 8);
    /* IHDR: width and height, big-endian, at bytes 16 and 20. */
    assert_int_equal((head[16] << 24) | (head[17] << 16) | (head[18] << 8) | head[19], 320);
    assert_int_equal((head[20] << 24) | (head[21] << 16) | (head[22] << 8) | head[23], 180);
    remove(png);

    static const struct {
        const char *args[8];
        const char *names;
    } cases[] = {
        {{"--still", "99", "-o", "@"}, "--still"},
        {{"--still", "-1", "-o", "@"}, "--still"},
        {{"--still", "1", "--size", "10x10", "-o", "@"}, "--size"},
        {{"--still", "1", "--size", "big", "-o", "@"}, "--size"},
        {{"--still", "1", "--camera", "sideways", "-o", "@"}, "--camera"},
        {{"--still", "1", "--stages", "0", "-o", "@"}, "stages"},
        {{"-o", "@"}, "--still"},
        {{"--still", "1"}, "-o"},
        {{"--still", "1", "-o", "x.mp4"}, "-o"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const char *args[10] = {"render"};
        for (int k = 0; cases[c].args[k]; k++)
            args[k + 1] = strcmp(cases[c].args[k], "@") == 0 ? png : cases[c].args[k];
        child_result rr = run_args(args);
        expect_bad_input(&rr, cases[c].names);
        child_result_deinit(&rr);
        assert_int_equal(child_count_other_files(scratch, NULL), 0);
    }
}

/* ---- bad input ---- */

static void test_bad_flags(void **state)
{
    (void)state;
    static const struct {
        const char *args[6];
        const char *names;
    } cases[] = {
        {{"--schedule", "nope"}, "schedule"},
        {{"--stages", "0"}, "stages"},
        {{"--schedule", "dualpipev", "--microbatches", "2"}, "microbatches"},
        {{"--schedule", "zbv", "--virtual", "3"}, "virtual"},
        {{"--f", "-1"}, "costs.f"},
        {{"--f", "nan"}, "costs.f"},
        {{"--bogus"}, "--bogus"},
        {{"--bogus=1"}, "--bogus"},
        {{"--stages"}, "--stages"},
        {{"--format", "xml"}, "format"},
        {{"--width", "3"}, "width"},
        /* two to four files compare; a fifth is one too many */
        {{"a.json", "b.json", "c.json", "d.json", "e.json"}, "e.json"},
        {{"--help=yes"}, "help"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const char *args[8] = {"schedule"};
        for (int k = 0; cases[c].args[k]; k++)
            args[k + 1] = cases[c].args[k];
        child_result r = run_args(args);
        expect_bad_input(&r, cases[c].names);
        child_result_deinit(&r);
    }
    child_result r = RUN("frobnicate");
    expect_bad_input(&r, "frobnicate");
    child_result_deinit(&r);
}

static void test_bad_files(void **state)
{
    (void)state;
    char path[300], spec[320];

    scratch_put(path, sizeof path, scratch, "malformed.json", "{\"stages\": 4,");
    child_result r = RUN("schedule", path);
    expect_bad_input(&r, "malformed.json");
    child_result_deinit(&r);

    scratch_put(path, sizeof path, scratch, "unknown.json", "{\"stages\": 4, \"bogus\": 1}");
    r = RUN("schedule", path);
    expect_bad_input(&r, "bogus");
    child_result_deinit(&r);

    scratch_put(path, sizeof path, scratch, "malformed.csv", "0F0,0Q0\n");
    snprintf(spec, sizeof spec, "csv:%s", path);
    r = RUN("schedule", "--schedule", spec);
    expect_bad_input(&r, "0Q0");
    child_result_deinit(&r);

    /* backward before forward on a 1-rank program: it cannot finish */
    scratch_put(path, sizeof path, scratch, "deadlock.csv", "0B0,0F0\n");
    snprintf(spec, sizeof spec, "csv:%s", path);
    r = RUN("schedule", "--schedule", spec);
    expect_bad_input(&r, "deadlock");
    child_result_deinit(&r);

    scratch_join(path, sizeof path, scratch, "missing.json");
    r = RUN("schedule", path);
    expect_bad_input(&r, "missing.json");
    child_result_deinit(&r);
}

/* --format beats: the automatic beats as a table; --format json lists the
 * same beats; a scenario's beats and --beats change both. */
static void test_beats_format(void **state)
{
    (void)state;
    child_result r = RUN("schedule", "--format", "beats", "--p2p", "0", "--allreduce", "none");
    expect_success(&r);
    /* 1F1B P=4 M=8: 0, 3, 4, 10, 25, 33 */
    assert_non_null(strstr(r.out, "6 beats: 6 automatic, 0 from the scenario\n"));
    assert_non_null(strstr(r.out, "#   t  title"));
    assert_non_null(strstr(r.out, "\n3   4  steady state: one forward, one backward  Rank 3 "));
    assert_non_null(strstr(r.out, "\n6  33  end of the iteration"));
    child_result_deinit(&r);

    r = RUN("schedule", "--format", "json", "--p2p", "0", "--allreduce", "none");
    expect_success(&r);
    cJSON *doc = cJSON_Parse(r.out);
    assert_non_null(doc);
    const cJSON *beats = cJSON_GetObjectItem(doc, "beats");
    assert_int_equal(cJSON_GetArraySize(beats), 6);
    const cJSON *third = cJSON_GetArrayItem(beats, 2);
    assert_true(cJSON_GetObjectItem(third, "t")->valuedouble == 4);
    assert_string_equal(cJSON_GetObjectItem(third, "title")->valuestring,
                        "steady state: one forward, one backward");
    assert_non_null(strstr(cJSON_GetObjectItem(third, "caption")->valuestring, "t = 4"));
    cJSON_Delete(doc);
    child_result_deinit(&r);

    /* The scenario's own, by an action's name, with the automatic ones. */
    char path[300], beats_file[300];
    scratch_put(path, sizeof path, scratch, "talk.json",
                "{\"costs\": {\"p2p\": 0}, \"dp\": 1, \"beats\": [{\"after\": \"3B0\", \"title\": "
                "\"the loss is back\", \"caption\": \"Stage 3 is done with micro-batch 0.\"}]}");
    r = RUN("schedule", path, "--format", "beats");
    expect_success(&r);
    assert_non_null(strstr(r.out, "7 beats: 6 automatic, 1 from the scenario\n"));
    assert_non_null(strstr(r.out, "\n4   6  the loss is back  "));
    child_result_deinit(&r);
    /* --beats auto: the automatic ones only; none: no beats at all. */
    r = RUN("schedule", path, "--format", "beats", "--beats", "auto");
    expect_success(&r);
    assert_non_null(strstr(r.out, "6 beats: 6 automatic"));
    child_result_deinit(&r);
    r = RUN("schedule", path, "--format", "json", "--beats", "none");
    expect_success(&r);
    assert_non_null(strstr(r.out, "\"beats\":[]}"));
    child_result_deinit(&r);
    /* --beats FILE in place of the scenario's. */
    scratch_put(beats_file, sizeof beats_file, scratch, "beats.json",
                "{\"beats\": [{\"t\": 1.5, \"title\": \"here\"}], \"auto_beats\": false}");
    r = RUN("schedule", path, "--format", "beats", "--beats", beats_file);
    expect_success(&r);
    assert_non_null(strstr(r.out, "1 beat: 0 automatic, 1 from the scenario\n"));
    assert_non_null(strstr(r.out, "\n1  1.5  here\n"));
    child_result_deinit(&r);
}

/* Bad beats: one line naming the field, exit status 2, in every command
 * that takes a scenario (before any window or file). */
static void test_bad_beats(void **state)
{
    (void)state;
    char path[300];
    scratch_put(path, sizeof path, scratch, "nine.json",
                "{\"beats\": [{\"after\": \"9B0\", \"title\": \"x\"}]}");
    child_result r = RUN("schedule", path);
    expect_bad_input(&r,
                     "beats[0].after = \"9B0\": no such action (stages 0..3, micro-batches 0..7)");
    child_result_deinit(&r);
    unsetenv("DISPLAY");
    r = RUN("run", path);
    expect_bad_input(&r, "beats[0].after");
    child_result_deinit(&r);
    r = RUN("render", path, "--still", "1", "-o", "x.png");
    expect_bad_input(&r, "beats[0].after");
    child_result_deinit(&r);

    scratch_put(path, sizeof path, scratch, "long.json",
                "{\"beats\": [{\"t\": 1, \"title\": \"x\"}, {\"t\": 2, \"title\": \"y\"}, {\"t\": "
                "3, \"title\": \"0123456789012345678901234567890123456789012345678901234567890123"
                "456789012345678901234567890123456789\"}]}");
    r = RUN("schedule", path, "--format", "beats");
    expect_bad_input(&r, "beats[2].title");
    child_result_deinit(&r);
    r = RUN("schedule", "--beats", path);
    expect_bad_input(&r, "long.json: beats[2].title");
    child_result_deinit(&r);
    r = RUN("schedule", "--beats", "");
    expect_bad_input(&r, "beats = \"\"");
    child_result_deinit(&r);
    r = RUN("schedule", "--beats", "missing.json");
    expect_bad_input(&r, "missing.json: cannot open");
    child_result_deinit(&r);
    r = RUN("schedule", "--format", "beats", "--beats", "none", "--time", "1");
    expect_bad_input(&r, "--time");
    child_result_deinit(&r);

    r = RUN("schedule", "--help");
    expect_success(&r);
    assert_non_null(strstr(r.out, "--beats auto|none|FILE"));
    assert_non_null(strstr(r.out, "svg, pdf, beats"));
    child_result_deinit(&r);
}

/* ---- output files ---- */

static void test_output_file_is_written_whole(void **state)
{
    (void)state;
    char path[300];
    scratch_join(path, sizeof path, scratch, "out.json");
    child_result r = RUN("schedule", "--format", "json", "-o", path);
    expect_success(&r);
    assert_int_equal(r.out_len, 0);
    child_result_deinit(&r);

    child_result direct = RUN("schedule", "--format", "json");
    size_t len;
    char *written = child_read_file(path, &len);
    assert_non_null(written);
    assert_int_equal(len, direct.out_len);
    assert_memory_equal(written, direct.out, len);
    free(written);
    child_result_deinit(&direct);
    assert_int_equal(child_count_other_files(scratch, "out.json"), 0);
    unlink(path);

    /* --output=FILE and -oFILE are the same option */
    r = RUN("schedule", "--format", "csv", "--output=x.csv", "-o", path);
    expect_success(&r);
    assert_true(scratch_exists(path));
    child_result_deinit(&r);
    unlink(path);
}

static void test_output_not_created_on_error(void **state)
{
    (void)state;
    char path[300];
    scratch_join(path, sizeof path, scratch, "never.json");
    static const char *const bad[][4] = {
        {"--stages", "0"},
        {"--bogus", "1"},
        {"--schedule", "csv:/nonexistent/x.csv"},
    };
    for (size_t c = 0; c < sizeof bad / sizeof bad[0]; c++) {
        const char *args[10] = {"schedule", "--format", "json", "-o", path};
        for (int k = 0; k < 4 && bad[c][k]; k++)
            args[5 + k] = bad[c][k];
        child_result r = run_args(args);
        child_expect_status(&r, 2);
        assert_int_equal(child_count_lines(r.err), 1);
        child_result_deinit(&r);
        child_expect_untouched(scratch, "never.json", NULL);
    }

    /* an existing file keeps its content when the run fails */
    char old[300];
    scratch_put(old, sizeof old, scratch, "keep.txt", "old content\n");
    child_result r = RUN("schedule", "-o", old, "--microbatches", "-3");
    child_expect_status(&r, 2);
    child_result_deinit(&r);
    child_expect_untouched(scratch, "keep.txt", "old content\n");
}

static void test_output_into_missing_directory(void **state)
{
    (void)state;
    char path[300];
    scratch_join(path, sizeof path, scratch, "no/such/dir/out.json");
    child_result r = RUN("schedule", "--format", "json", "-o", path);
    expect_bad_input(&r, path);
    child_result_deinit(&r);
    child_expect_untouched(scratch, "no/such/dir/out.json", NULL);
}

/* `render --still` into a missing folder is bad input found before EGL
 * starts: exit 2 (a failed write after drawing would be 1), and quickly. */
static void test_still_into_missing_directory(void **state)
{
    (void)state;
    char path[300];
    scratch_join(path, sizeof path, scratch, "missing_dir/x.png");
    const double start = now_seconds();
    child_result r =
        RUN_BOUNDED("--still into a missing folder", "render", "--still", "1", "-o", path);
    const double took = now_seconds() - start;
    expect_bad_input(&r, path);
    child_result_deinit(&r);
    print_message("--still into a missing folder: refused in %.3f s\n", took);
    assert_lt(took, 5.0);
    child_expect_untouched(scratch, "missing_dir/x.png", NULL);
}

/* SIGINT or SIGTERM while `schedule -o` writes a big trace (a second or
 * more in one call that polls nothing): exit status 130, one line naming
 * the output, no file under its name (an existing one keeps its content),
 * no temporary. The signal goes out once the temporary has data. */
static void interrupt_schedule(int sig, bool existing_target)
{
    char path[300];
    scratch_join(path, sizeof path, scratch, "big.json");
    if (existing_target)
        scratch_write(path, "old content\n");
    const child_desc d = {.exe = PPFLOW_EXE,
                          .args = CHILD_ARGS("schedule", "--stages", "64", "--microbatches",
                                             "20000", "--format", "chrome-trace", "-o", path),
                          .capture_dir = scratch};
    const pid_t pid = child_start(&d);
    child_await_entry(pid, &d, scratch, ".big.json.tmp.", CHILD_TIMEOUT, NULL, 0);
    child_result r = child_stop(pid, &d, sig, CHILD_TIMEOUT);
    child_expect_status(&r, 130);
    child_expect_one_line(&r, "ppflow: ", path);
    assert_non_null(strstr(r.err, "interrupted"));
    child_result_deinit(&r);
    child_expect_untouched(scratch, "big.json", existing_target ? "old content\n" : NULL);
}

static void test_schedule_sigint(void **state)
{
    (void)state;
    interrupt_schedule(SIGINT, false);
}

static void test_schedule_sigterm(void **state)
{
    (void)state;
    interrupt_schedule(SIGTERM, true);
}

/* A FIFO is never waited on: through a symbolic link it is refused; named
 * directly with no reader it is refused at once (ENXIO); with a reader it
 * gets the output. */
static void test_output_fifo(void **state)
{
    (void)state;
    char fifo[300], link[300];
    scratch_join(fifo, sizeof fifo, scratch, "p");
    scratch_join(link, sizeof link, scratch, "out.json");
    assert_int_equal(mkfifo(fifo, 0644), 0);
    assert_int_equal(symlink("p", link), 0);

    child_result r = RUN_BOUNDED("-o a link to a FIFO", "schedule", "-o", link);
    expect_bad_input(&r, link);
    assert_non_null(strstr(r.err, "FIFO"));
    child_result_deinit(&r);

    r = RUN_BOUNDED("-o a FIFO with no reader", "schedule", "-o", fifo);
    expect_bad_input(&r, fifo);
    assert_non_null(strstr(r.err, "no reader"));
    child_result_deinit(&r);

    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_int_equal(child_count_other_files(scratch, "p"), 1); /* the link */

    /* with a reader: written through, as a pipe (the CSV fits its buffer) */
    const int reader = open(fifo, O_RDONLY | O_NONBLOCK);
    assert_ge(reader, 0);
    r = RUN_BOUNDED("-o a FIFO with a reader", "schedule", "--format", "csv", "-o", fifo);
    expect_success(&r);
    child_result_deinit(&r);
    char got[4096];
    const ssize_t n = read(reader, got, sizeof got - 1);
    close(reader);
    assert_gt(n, 0);
    got[n] = '\0';
    child_result direct = RUN("schedule", "--format", "csv");
    assert_string_equal(got, direct.out);
    child_result_deinit(&direct);
}

/* Replacing a file gives a plain file: the permission bits carry over,
 * the setuid and setgid bits do not. */
static void test_output_drops_setuid(void **state)
{
    (void)state;
    char path[300];
    scratch_put(path, sizeof path, scratch, "tool", "#!/bin/sh\n");
    assert_int_equal(chmod(path, 06755), 0);
    child_result r = RUN("schedule", "--format", "csv", "-o", path);
    expect_success(&r);
    child_result_deinit(&r);
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    if (st.st_mode & (S_ISUID | S_ISGID | 01000 /* sticky */))
        fail_msg("the replaced file has mode %o: setuid, setgid or sticky survived",
                 (unsigned)(st.st_mode & 07777));
    assert_int_equal(st.st_mode & 0777, 0755);
    assert_int_equal(child_count_other_files(scratch, "tool"), 0);
}

/* A symbolic link to a regular file (or to nothing) is itself replaced by
 * the output; what it pointed to is not touched, nor created. */
static void test_output_replaces_symlink(void **state)
{
    (void)state;
    char target[300], link[300], dangling[300], nowhere[300];
    scratch_put(target, sizeof target, scratch, "target.txt", "the link's target\n");
    scratch_join(link, sizeof link, scratch, "out.csv");
    scratch_join(dangling, sizeof dangling, scratch, "dangling.csv");
    scratch_join(nowhere, sizeof nowhere, scratch, "nowhere.txt");
    assert_int_equal(symlink("target.txt", link), 0);
    assert_int_equal(symlink("nowhere.txt", dangling), 0);

    child_result direct = RUN("schedule", "--format", "csv");
    const char *links[] = {link, dangling};
    for (int k = 0; k < 2; k++) {
        child_result r = RUN("schedule", "--format", "csv", "-o", links[k]);
        expect_success(&r);
        child_result_deinit(&r);
        struct stat st;
        assert_int_equal(lstat(links[k], &st), 0);
        if (!S_ISREG(st.st_mode))
            fail_msg("%s is not a regular file after the write (mode %o)", links[k],
                     (unsigned)st.st_mode);
        child_expect_file(links[k], direct.out);
    }
    child_result_deinit(&direct);
    child_expect_file(target, "the link's target\n");
    assert_false(scratch_exists(nowhere));
    assert_int_equal(scratch_count(scratch, (const char *const[]){CHILD_STDOUT_NAME,
                                                                  CHILD_STDERR_NAME, "target.txt",
                                                                  "out.csv", "dangling.csv", NULL}),
                     0);
}

/* A file nobody may write is not replaced, whoever runs ppflow (root
 * passes access(): the mode bits decide). */
static void test_output_read_only(void **state)
{
    (void)state;
    char path[300];
    scratch_put(path, sizeof path, scratch, "locked.json", "old content\n");
    assert_int_equal(chmod(path, 0444), 0);
    child_result r = RUN("schedule", "--format", "json", "-o", path);
    expect_bad_input(&r, path);
    assert_non_null(strstr(r.err, "read-only"));
    child_result_deinit(&r);
    child_expect_file(path, "old content\n");
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0444);
    assert_int_equal(child_count_other_files(scratch, "locked.json"), 0);
}

/* /dev/stdout is standard output, as "-" is; /dev/stderr, another link to a
 * stream, is refused rather than followed. */
static void test_output_dev_stdout(void **state)
{
    (void)state;
    child_result dash = RUN("schedule", "--format", "csv", "-o", "-");
    expect_success(&dash);
    child_result dev = RUN("schedule", "--format", "csv", "-o", "/dev/stdout");
    expect_success(&dev);
    assert_string_equal(dev.out, dash.out);
    child_result_deinit(&dev);
    child_result_deinit(&dash);
    child_result r = RUN("schedule", "--format", "csv", "-o", "/dev/stderr");
    expect_bad_input(&r, "/dev/stderr");
    child_result_deinit(&r);
}

/* A full disk after valid input is an I/O failure: exit status 1. */
static void test_full_disk(void **state)
{
    (void)state;
    if (!scratch_exists("/dev/full"))
        skip_for_missing_tool("test_cli: no /dev/full");
    child_result r = RUN("schedule", "--format", "json", "-o", "/dev/full");
    child_expect_status(&r, 1);
    assert_int_equal(child_count_lines(r.err), 1);
    assert_non_null(strstr(r.err, "/dev/full"));
    child_result_deinit(&r);
}

static int setup(void **state)
{
    return scratch_setup(state, scratch, sizeof scratch, "ppflow_test_cli");
}

int main(void)
{
    /* COLUMNS from the caller's shell must not change the Gantt width. */
    unsetenv("COLUMNS");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_table, scratch_before_each),
        cmocka_unit_test_setup(test_gantt, scratch_before_each),
        cmocka_unit_test_setup(test_json_format, scratch_before_each),
        cmocka_unit_test_setup(test_csv_format, scratch_before_each),
        cmocka_unit_test_setup(test_chrome_trace_format, scratch_before_each),
        cmocka_unit_test_setup(test_no_command_and_help, scratch_before_each),
        cmocka_unit_test_setup(test_render_still, scratch_before_each),
        cmocka_unit_test_setup(test_viewer_flags, scratch_before_each),
        cmocka_unit_test_setup(test_bad_flags, scratch_before_each),
        cmocka_unit_test_setup(test_bad_files, scratch_before_each),
        cmocka_unit_test_setup(test_beats_format, scratch_before_each),
        cmocka_unit_test_setup(test_bad_beats, scratch_before_each),
        cmocka_unit_test_setup(test_output_file_is_written_whole, scratch_before_each),
        cmocka_unit_test_setup(test_output_not_created_on_error, scratch_before_each),
        cmocka_unit_test_setup(test_output_into_missing_directory, scratch_before_each),
        cmocka_unit_test_setup(test_still_into_missing_directory, scratch_before_each),
        cmocka_unit_test_setup(test_schedule_sigint, scratch_before_each),
        cmocka_unit_test_setup(test_schedule_sigterm, scratch_before_each),
        cmocka_unit_test_setup(test_output_fifo, scratch_before_each),
        cmocka_unit_test_setup(test_output_drops_setuid, scratch_before_each),
        cmocka_unit_test_setup(test_output_replaces_symlink, scratch_before_each),
        cmocka_unit_test_setup(test_output_read_only, scratch_before_each),
        cmocka_unit_test_setup(test_output_dev_stdout, scratch_before_each),
        cmocka_unit_test_setup(test_full_disk, scratch_before_each),
    };
    return cmocka_run_group_tests(tests, setup, scratch_teardown);
}
