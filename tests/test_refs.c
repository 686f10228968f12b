/* Tests of the files that files name, through the program as its users run
 * it: a talk's "base" and a slide's "scenario", and "csv:PATH" in a
 * scenario file or a talk (file_read.h's references).
 *
 *   - a reference to /dev/stdin (an open pipe), a FIFO, a device (/dev/zero,
 *     /dev/null) or a /proc file is refused with one line and exit status 2,
 *     at once: every run is bounded, so a wait fails the test;
 *   - --confine (and PPFLOW_CONFINE=1) refuses references that are absolute,
 *     go above the naming file's folder with "..", or leave it through a
 *     symbolic link, for schedule, render, the viewer and present, and for a
 *     comparison's files; references inside (links too) still work, and
 *     without confinement the same references are read as before;
 *   - confined, no message quotes a word of a referenced file (an unknown
 *     key "aws_secret_access_key", a first line "root:x:0:0", a wrongly
 *     typed value, a beat's camera, a CSV's cell) while the file on the
 *     command line is still quoted; without confinement they are quoted, as
 *     a desktop user wants;
 *   - the command line's own files: a pipe is still read where a stream
 *     makes sense (--schedule csv:/dev/stdin, a scenario on /dev/stdin),
 *     and refused when confined;
 *   - --compare 1f1b,csv:sub/x.csv takes the CSV for a schedule.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/ppflow_run.h"

static char scratch[256];
static char up[300];   /* scratch/up: where the uploaded talk and its files are */
static char fifo[300]; /* scratch/fifo, with no writer */

/* The secrets a referenced file holds; no confined message may show them. */
static const char *const secrets[] = {"aws_secret_access_key", "AKIAEXAMPLE", "root:x:0:0"};

/* Runs ppflow with args (NULL-ended), its standard input stdin_fd (0:
 * /dev/null), bounded: a run that waits is killed and fails the test. */
static child_result run_in(const char *const *args, int stdin_fd, const char *what)
{
    const child_desc d = {
        .exe = PPFLOW_EXE, .args = args, .capture_dir = scratch, .stdin_fd = stdin_fd};
    return child_run_bounded(&d, CHILD_TIMEOUT, what);
}

#define RUN(what, ...) run_in(CHILD_ARGS(__VA_ARGS__), 0, what)

/* Exit 2 and one line naming `names` and holding `rule`. */
static void expect_refused(child_result *r, const char *names, const char *rule)
{
    child_expect_status(r, 2);
    child_expect_one_line(r, "ppflow: ", names);
    if (!strstr(r->err, rule))
        fail_msg("expected \"%s\" in: %s", rule, r->err);
    child_result_deinit(r);
}

static void expect_success(child_result *r)
{
    if (r->status != 0 || r->err[0])
        fail_msg("expected success, got status %d and stderr: %s", r->status, r->err);
    child_result_deinit(r);
}

/* A file in up/ holding text; its path into path. */
static void put_up(char *path, size_t size, const char *name, const char *text)
{
    scratch_put(path, size, up, name, text);
}

/* A talk (or scenario) in up/ whose text is fmt with the name put in. */
static void put_up_named(char *path, size_t size, const char *file, const char *fmt,
                         const char *name)
{
    char text[1024];
    snprintf(text, sizeof text, fmt, name);
    put_up(path, size, file, text);
}

/* The places a file can name a file: the JSON with %s for the name, and
 * whether the named file is a CSV. */
typedef struct ref_kind {
    const char *what;
    const char *fmt;
    bool csv;
} ref_kind;

static const ref_kind kinds[] = {
    {"a slide's scenario", "{\"slides\": [{\"scenario\": \"%s\"}]}", false},
    {"a talk's base", "{\"base\": \"%s\", \"slides\": [{\"title\": \"one\"}]}", false},
    {"csv: in a scenario file", "{\"schedule\": \"csv:%s\"}", true},
    {"csv: in a slide", "{\"slides\": [{\"schedule\": \"csv:%s\"}]}", true},
};
enum { KINDS = sizeof kinds / sizeof kinds[0] };

static int setup(void **state)
{
    return scratch_setup(state, scratch, sizeof scratch, "ppflow_test_refs");
}

/* up/ with a good scenario and CSV inside (sub/), the same outside (next
 * to up/), links out of it, and a FIFO with no writer. */
static int before_each(void **state)
{
    scratch_before_each(state);
    char path[400];
    scratch_join(up, sizeof up, scratch, "up");
    scratch_join(fifo, sizeof fifo, scratch, "fifo");
    if (mkdir(up, 0755) != 0 || mkfifo(fifo, 0600) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/sub", up);
    if (mkdir(path, 0755) != 0)
        return -1;
    child_result r = RUN("a CSV to import", "schedule", "--schedule", "gpipe", "--format", "csv");
    if (r.status != 0)
        return -1;
    char sub[400];
    snprintf(sub, sizeof sub, "%s/sub", up);
    scratch_put(path, sizeof path, sub, "ok.csv", r.out);
    scratch_put(path, sizeof path, scratch, "outside.csv", r.out);
    child_result_deinit(&r);
    scratch_put(path, sizeof path, sub, "ok.json", "{\"microbatches\": 6}");
    scratch_put(path, sizeof path, scratch, "outside.json", "{\"microbatches\": 6}");
    return 0;
}

/* ---- only regular files ------------------------------------------------------ */

/* Every kind of reference to every kind of file that is not a regular file
 * is refused at once, with the path named. */
static void test_non_regular_references_refused(void **state)
{
    (void)state;
    int pipe_fds[2]; /* /dev/stdin: a pipe that stays open, nothing written */
    assert_int_equal(pipe2(pipe_fds, O_CLOEXEC), 0);
    const char *const targets[] = {"/dev/stdin", fifo, "/dev/zero", "/dev/null",
                                   "/proc/self/status"};
    for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++)
        for (int k = 0; k < KINDS; k++) {
            char path[400], what[200];
            put_up_named(path, sizeof path, "talk.json", kinds[k].fmt, targets[t]);
            snprintf(what, sizeof what, "%s as %s", targets[t], kinds[k].what);
            /* confined too, once: an absolute name is refused before its kind */
            for (int confine = 0; confine < (targets[t] == fifo ? 2 : 1); confine++) {
                const char *const plain[] = {"schedule", path, NULL};
                const char *const confined[] = {"schedule", "--confine", path, NULL};
                child_result r = run_in(confine ? confined : plain, pipe_fds[0], what);
                expect_refused(&r, targets[t], confine ? "outside" : "not a regular file");
            }
        }
    /* the other commands read references the same way */
    char path[400];
    put_up_named(path, sizeof path, "talk.json", kinds[0].fmt, "/dev/stdin");
    char png[400];
    scratch_join(png, sizeof png, scratch, "x.png");
    const char *const render[] = {"render", path, "--still", "1", "-o", png, NULL};
    const char *const viewer[] = {path, NULL};
    const char *const present[] = {"present", path, NULL};
    const char *const *commands[] = {render, viewer, present};
    for (int c = 0; c < 3; c++) {
        child_result r = run_in(commands[c], pipe_fds[0], "a reference to /dev/stdin");
        expect_refused(&r, "/dev/stdin", "not a regular file");
    }
    assert_false(scratch_exists(png));
    close(pipe_fds[0]);
    close(pipe_fds[1]);
}

/* ---- confined ------------------------------------------------------------------ */

/* Absolute names, ".." above the folder and links out of it are refused
 * when confined, by every kind of reference; without confinement the same
 * files are read (they are good scenarios and CSVs). */
static void test_confined_references_stay_inside(void **state)
{
    (void)state;
    char out_abs[400], link[400];
    for (int k = 0; k < KINDS; k++) {
        const char *ext = kinds[k].csv ? "csv" : "json";
        snprintf(out_abs, sizeof out_abs, "%s/outside.%s", scratch, ext);
        char rel[64], linked[64], abs_linked[64], dir_linked[64];
        snprintf(rel, sizeof rel, "../outside.%s", ext);
        snprintf(linked, sizeof linked, "out.%s", ext);
        snprintf(abs_linked, sizeof abs_linked, "abs.%s", ext);
        snprintf(dir_linked, sizeof dir_linked, "parent/outside.%s", ext);
        scratch_join(link, sizeof link, up, linked);
        unlink(link);
        assert_int_equal(symlink(rel, link), 0);
        scratch_join(link, sizeof link, up, abs_linked);
        unlink(link);
        assert_int_equal(symlink(out_abs, link), 0);
        scratch_join(link, sizeof link, up, "parent");
        unlink(link);
        assert_int_equal(symlink("..", link), 0);
        const char *const names[] = {out_abs, rel, linked, abs_linked, dir_linked};
        for (size_t n = 0; n < sizeof names / sizeof names[0]; n++) {
            char path[400];
            put_up_named(path, sizeof path, "talk.json", kinds[k].fmt, names[n]);
            child_result r = RUN(kinds[k].what, "schedule", "--confine", path);
            expect_refused(&r, names[n], "leads outside the folder");
            r = RUN(kinds[k].what, "schedule", path);
            expect_success(&r);
        }
        /* inside, links included, is read confined too */
        scratch_join(link, sizeof link, up, kinds[k].csv ? "in.csv" : "in.json");
        unlink(link);
        assert_int_equal(symlink(kinds[k].csv ? "sub/../sub/ok.csv" : "sub/ok.json", link), 0);
        const char *const inside[] = {kinds[k].csv ? "sub/ok.csv" : "sub/ok.json",
                                      kinds[k].csv ? "in.csv" : "in.json",
                                      kinds[k].csv ? "./sub/../sub/ok.csv" : "./sub/../in.json"};
        for (size_t n = 0; n < sizeof inside / sizeof inside[0]; n++) {
            char path[400];
            put_up_named(path, sizeof path, "talk.json", kinds[k].fmt, inside[n]);
            child_result r = RUN(kinds[k].what, "schedule", "--confine", path);
            expect_success(&r);
        }
    }
}

/* A confined reference found by a file that a file names: a scenario file
 * of a slide naming a CSV is confined to its own folder. */
static void test_confined_nested_reference(void **state)
{
    (void)state;
    char path[400], talk[400];
    char sub[400];
    snprintf(sub, sizeof sub, "%s/sub", up);
    scratch_put(path, sizeof path, sub, "csv-up.json", "{\"schedule\": \"csv:../sub/ok.csv\"}");
    scratch_put(path, sizeof path, sub, "csv-here.json", "{\"schedule\": \"csv:ok.csv\"}");
    put_up(talk, sizeof talk, "talk.json", "{\"slides\": [{\"scenario\": \"sub/csv-up.json\"}]}");
    child_result r =
        RUN("a slide's CSV above its scenario's folder", "schedule", "--confine", talk);
    expect_refused(&r, "talk.json", "leads outside the folder");
    r = RUN("a slide's CSV above its scenario's folder", "schedule", talk);
    expect_success(&r);
    put_up(talk, sizeof talk, "talk.json", "{\"slides\": [{\"scenario\": \"sub/csv-here.json\"}]}");
    r = RUN("a slide's CSV beside its scenario", "schedule", "--confine", talk);
    expect_success(&r);
}

/* Confined, a referenced file's content never appears in a message; the
 * file on the command line is still quoted. Not confined, all of it is. */
static void test_confined_messages_quote_no_foreign_content(void **state)
{
    (void)state;
    char path[400];
    put_up(path, sizeof path, "key.json", "{\"aws_secret_access_key\": \"AKIAEXAMPLE\"}");
    put_up(path, sizeof path, "passwd.json", "root:x:0:0:root:/root:/bin/bash\n");
    put_up(path, sizeof path, "value.json", "{\"virtual\": \"aws_secret_access_key\"}");
    put_up(path, sizeof path, "camera.json",
           "{\"beats\": [{\"t\": 1, \"title\": \"x\", \"camera\": \"aws_secret_access_key\"}]}");
    put_up(path, sizeof path, "after.json",
           "{\"beats\": [{\"after\": \"aws_secret_access_key\", \"title\": \"x\"}]}");
    put_up(path, sizeof path, "cell.csv", "root:x:0:0\n");
    put_up(path, sizeof path, "names-cell.json", "{\"schedule\": \"csv:cell.csv\"}");
    const struct {
        const char *talk; /* the talk, on the command line */
        const char *says; /* what the message still says */
    } cases[] = {
        {"{\"base\": \"key.json\", \"slides\": [{}]}", "unknown field"},
        {"{\"slides\": [{\"scenario\": \"key.json\"}]}", "unknown field"},
        {"{\"slides\": [{\"scenario\": \"passwd.json\"}]}", "malformed JSON at line 1"},
        {"{\"base\": \"value.json\", \"slides\": [{}]}", "virtual"},
        {"{\"slides\": [{\"scenario\": \"camera.json\"}]}", "camera"},
        {"{\"slides\": [{\"scenario\": \"after.json\"}]}", "after"},
        {"{\"slides\": [{\"schedule\": \"csv:cell.csv\"}]}", "row 1"},
        {"{\"slides\": [{\"scenario\": \"names-cell.json\"}]}", "row 1"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char talk[400];
        put_up(talk, sizeof talk, "talk.json", cases[k].talk);
        child_result r = RUN(cases[k].talk, "schedule", "--confine", talk);
        for (size_t s = 0; s < sizeof secrets / sizeof secrets[0]; s++)
            if (strstr(r.err, secrets[s]))
                fail_msg("%s: confined, the message quotes \"%s\": %s", cases[k].talk, secrets[s],
                         r.err);
        expect_refused(&r, "talk.json", cases[k].says);
        /* not confined: the helpful quote, as before */
        r = RUN(cases[k].talk, "schedule", talk);
        bool quoted = false;
        for (size_t s = 0; s < sizeof secrets / sizeof secrets[0]; s++)
            quoted |= strstr(r.err, secrets[s]) != NULL;
        if (!quoted)
            fail_msg("%s: not confined, the message should quote the file: %s", cases[k].talk,
                     r.err);
        expect_refused(&r, "talk.json", cases[k].says);
    }
    /* the file on the command line is the user's own: quoted */
    put_up(path, sizeof path, "key.json", "{\"aws_secret_access_key\": \"AKIAEXAMPLE\"}");
    child_result r = RUN("the command line's file", "schedule", "--confine", path);
    expect_refused(&r, "key.json", "aws_secret_access_key");
    /* and the CSV it names is named, its cells not shown */
    put_up(path, sizeof path, "names-cell.json", "{\"schedule\": \"csv:cell.csv\"}");
    r = RUN("a CSV named by the command line's file", "schedule", "--confine", path);
    if (strstr(r.err, "root:x:0:0"))
        fail_msg("confined, the CSV's cell is quoted: %s", r.err);
    expect_refused(&r, "cell.csv", "row 1");
}

/* PPFLOW_CONFINE=1 confines every command as --confine does; "0" does not. */
static void test_confine_from_environment(void **state)
{
    (void)state;
    char talk[400];
    put_up(talk, sizeof talk, "talk.json", "{\"base\": \"../outside.json\", \"slides\": [{}]}");
    setenv("PPFLOW_CONFINE", "1", 1);
    child_result r = RUN("PPFLOW_CONFINE=1", "schedule", talk);
    setenv("PPFLOW_CONFINE", "0", 1);
    child_result r0 = RUN("PPFLOW_CONFINE=0", "schedule", talk);
    unsetenv("PPFLOW_CONFINE");
    expect_refused(&r, "talk.json", "leads outside the folder");
    expect_success(&r0);
}

/* Every command that reads files takes --confine: the viewer, present and
 * render refuse before any window or file, and a comparison's files are
 * confined too. */
static void test_confine_every_command(void **state)
{
    (void)state;
    char talk[400], scen[400], png[400];
    put_up(talk, sizeof talk, "talk.json", "{\"base\": \"../outside.json\", \"slides\": [{}]}");
    put_up(scen, sizeof scen, "s.json", "{\"schedule\": \"csv:../outside.csv\"}");
    scratch_join(png, sizeof png, scratch, "x.png");
    char list[900];
    snprintf(list, sizeof list, "%s,%s", scen, scen);
    const char *const *runs[] = {
        CHILD_ARGS("schedule", "--confine", talk),
        CHILD_ARGS("render", "--confine", talk, "--still", "1", "-o", png),
        CHILD_ARGS("--confine", talk),
        CHILD_ARGS("run", "--confine", talk),
        CHILD_ARGS("present", "--confine", talk),
        CHILD_ARGS("schedule", "--confine", scen, "--slide", "1"),
        CHILD_ARGS("schedule", "--confine", "--compare", list),
        CHILD_ARGS("render", "--confine", scen, scen, "--still", "1", "-o", png),
    };
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        child_result r = run_in(runs[k], 0, runs[k][0]);
        expect_refused(&r, "outside", "leads outside the folder");
    }
    assert_false(scratch_exists(png));
}

/* ---- the command line's own files ------------------------------------------------ */

/* A pipe holding text, closed for writing: a stream with an end. */
static int pipe_with(const char *text)
{
    int fds[2];
    assert_int_equal(pipe2(fds, O_CLOEXEC), 0);
    const size_t len = strlen(text);
    assert_lt(len, 60000); /* within the pipe's buffer */
    assert_int_equal(write(fds[1], text, len), (ssize_t)len);
    close(fds[1]);
    return fds[0];
}

static void test_command_line_streams(void **state)
{
    (void)state;
    char csv_path[400];
    snprintf(csv_path, sizeof csv_path, "%s/sub/ok.csv", up);
    char *csv = child_read_file(csv_path, NULL);
    assert_non_null(csv);
    child_result want = RUN("the CSV from its file", "schedule", "--schedule", "gpipe");
    assert_int_equal(want.status, 0);

    /* a CSV piped in: read as a stream, as before */
    int in = pipe_with(csv);
    child_result r = run_in(CHILD_ARGS("schedule", "--schedule", "csv:/dev/stdin"), in, "csv:-");
    close(in);
    assert_int_equal(r.status, 0);
    /* the same table, but for the name of the schedule */
    assert_non_null(strstr(r.out, "makespan"));
    child_result_deinit(&r);

    /* a scenario piped in: read once, as a scenario (no talk is looked
     * for in a pipe, which would empty it) */
    in = pipe_with("{\"schedule\": \"gpipe\"}");
    r = run_in(CHILD_ARGS("schedule", "/dev/stdin"), in, "a scenario on a pipe");
    close(in);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, want.out);
    child_result_deinit(&r);
    child_result_deinit(&want);

    /* confined, the command line's files must be regular files too */
    char spec[400];
    snprintf(spec, sizeof spec, "csv:%s", fifo);
    in = pipe_with(csv);
    r = run_in(CHILD_ARGS("schedule", "--confine", "--schedule", "csv:/dev/stdin"), in, "csv:-");
    close(in);
    expect_refused(&r, "/dev/stdin", "not a regular file");
    r = RUN("a FIFO as --schedule, confined", "schedule", "--confine", "--schedule", spec);
    expect_refused(&r, "fifo", "not a regular file");
    r = RUN("a FIFO as --beats, confined", "schedule", "--confine", "--beats", fifo);
    expect_refused(&r, "fifo", "not a regular file");
    in = pipe_with("{\"schedule\": \"gpipe\"}");
    r = run_in(CHILD_ARGS("schedule", "--confine", "/dev/stdin"), in, "a piped scenario, confined");
    close(in);
    expect_refused(&r, "/dev/stdin", "not a regular file");
    free(csv);
}

/* ---- --compare ---------------------------------------------------------------------- */

/* A csv: side is a schedule, whatever folders its path names. */
static void test_compare_csv_in_folder(void **state)
{
    (void)state;
    char list[600];
    snprintf(list, sizeof list, "1f1b,csv:%s/sub/ok.csv", up);
    child_result r = RUN("--compare with csv:DIR/x.csv", "schedule", "--compare", list);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "csv:"));
    child_result_deinit(&r);
    /* relative to the working directory, a path with a folder, confined
     * or not (a flag's path is the operator's, not a file's) */
    char cwd[512];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(up), 0);
    r = RUN("--compare 1f1b,csv:sub/ok.csv", "schedule", "--compare", "1f1b,csv:sub/ok.csv",
            "--format", "json");
    child_result rc = RUN("--compare 1f1b,csv:sub/ok.csv --confine", "schedule", "--confine",
                          "--compare", "1f1b,csv:sub/ok.csv");
    assert_int_equal(chdir(cwd), 0);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"schedule\":\"csv\""));
    child_result_deinit(&r);
    expect_success(&rc);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    unsetenv("PPFLOW_CONFINE"); /* each test says what it wants */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_non_regular_references_refused, before_each),
        cmocka_unit_test_setup(test_confined_references_stay_inside, before_each),
        cmocka_unit_test_setup(test_confined_nested_reference, before_each),
        cmocka_unit_test_setup(test_confined_messages_quote_no_foreign_content, before_each),
        cmocka_unit_test_setup(test_confine_from_environment, before_each),
        cmocka_unit_test_setup(test_confine_every_command, before_each),
        cmocka_unit_test_setup(test_command_line_streams, before_each),
        cmocka_unit_test_setup(test_compare_csv_in_folder, before_each),
    };
    return cmocka_run_group_tests(tests, setup, scratch_teardown);
}
