/* test_pdf.c - the PDF converter as a render service runs it (pdf.h):
 * `ppflow render --still T -o x.pdf` and `ppflow schedule --format pdf`
 * with fake converters, shell scripts the test writes and puts first on an
 * absolute PATH entry (or names with PPFLOW_RSVG_CONVERT):
 *
 *   - one that exits 0 having written nothing, one that writes garbage and
 *     one that writes a PDF cut short: exit 1, one line, no .pdf and no
 *     temporary left, nothing on standard output;
 *   - one that writes a whole (tiny) PDF: exit 0, the file is its bytes;
 *   - SIGTERM or SIGINT while a slow one runs (itself and a child of its
 *     own, one that ignores SIGTERM too): ppflow exits 130 as for any
 *     signal during a write, no .pdf and no temporary are left, and neither
 *     the converter nor its child is still running; one that closes its
 *     output and hangs is ended after 10 s, exit 1, its child too;
 *   - one found only in a relative PATH entry ("." with the fake in the
 *     working directory, an empty entry, "bin") is not run: exit 1 with a
 *     line that says why; an absolute entry after it is used instead;
 *   - PPFLOW_RSVG_CONVERT names one by an absolute path; a relative name is
 *     refused.
 * None of this needs the real rsvg-convert. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/ppflow_run.h"

static char scratch[256];
static char bin[300];  /* the absolute PATH entry that holds the fakes */
static char out[300];  /* where the .pdf goes: nothing else is there */
static char pdf[400];  /* out/x.pdf */
static char *old_path; /* the test's own PATH, put back after each run */

#define RUN(...) PPFLOW_RUN(scratch, __VA_ARGS__)

/* A fake converter: `body` after "#!/bin/sh", as bin/rsvg-convert (or
 * another path), executable, with a PATH of its own (the runs give ppflow
 * odd ones). $MARK is a file a run writes to say it ran. */
static void put_fake(const char *path, const char *body)
{
    char text[2048];
    snprintf(text, sizeof text, "#!/bin/sh\nPATH=/usr/bin:/bin\nMARK='%s/ran'\n%s\n", scratch,
             body);
    scratch_write(path, text);
    assert_int_equal(chmod(path, 0755), 0);
}

static void put_fake_in_bin(const char *body)
{
    char path[400];
    scratch_join(path, sizeof path, bin, "rsvg-convert");
    put_fake(path, body);
}

static void set_path(const char *path)
{
    setenv("PATH", path, 1);
}

static void restore_path(void)
{
    setenv("PATH", old_path, 1);
    unsetenv("PPFLOW_RSVG_CONVERT");
}

/* PATH with the fakes' directory first, then the system's. */
static void path_with_bin(void)
{
    char path[700];
    snprintf(path, sizeof path, "%s:/usr/bin:/bin", bin);
    set_path(path);
}

static bool ran(void)
{
    char mark[400];
    scratch_join(mark, sizeof mark, scratch, "ran");
    return scratch_exists(mark);
}

/* A failed conversion: exit 1, one line naming what, nothing on standard
 * output, and out/ as it was (no x.pdf, no temporary). */
static void expect_refused(child_result *r, const char *names)
{
    child_expect_status(r, 1);
    child_expect_one_line(r, "ppflow: ", names);
    assert_int_equal(r->out_len, 0);
    child_expect_untouched(out, "x.pdf", NULL);
    child_result_deinit(r);
}

/* Both commands that write a PDF, into out/x.pdf, and once to stdout. */
static void expect_both_refused(const char *names)
{
    child_result r = RUN("render", "--still", "2", "-o", pdf);
    expect_refused(&r, names);
    r = RUN("schedule", "--format", "pdf", "-o", pdf);
    expect_refused(&r, names);
    r = RUN("schedule", "--format", "pdf");
    expect_refused(&r, names);
}

/* A whole PDF as small as the rule takes (pdf.h: %PDF-, 64 bytes, %%EOF). */
#define TINY_PDF "%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"

static void test_converter_output_must_be_a_pdf(void **state)
{
    (void)state;
    path_with_bin();
    put_fake_in_bin("cat >/dev/null; : >\"$MARK\"; exit 0");
    expect_both_refused("wrote no whole PDF (0 bytes");
    assert_true(ran()); /* it did run: the output is what was refused */
    put_fake_in_bin("cat >/dev/null; echo 'garbage, and more garbage, and yet more garbage to be "
                    "long enough'");
    expect_both_refused("wrote no whole PDF (");
    put_fake_in_bin("cat >/dev/null; cat <<'EOF'\n%PDF-1.4\n1 0 obj << /Type /Catalog >> "
                    "endobj\n(cut off here, by a full disk or a crash)\nEOF");
    expect_both_refused("wrote no whole PDF (");
    /* one that fails says so with its status */
    put_fake_in_bin("cat >/dev/null; echo 'rsvg: no' >&2; exit 3");
    child_result r = RUN("render", "--still", "2", "-o", pdf);
    child_expect_status(&r, 1);
    assert_non_null(strstr(r.err, "failed (exit status 3)"));
    child_expect_untouched(out, "x.pdf", NULL);
    child_result_deinit(&r);

    /* A whole one is written as it came, to the file and to stdout. */
    put_fake_in_bin("cat >/dev/null; cat <<'EOF'\n" TINY_PDF "EOF");
    r = RUN("render", "--still", "2", "-o", pdf);
    child_expect_status(&r, 0);
    child_result_deinit(&r);
    child_expect_file(pdf, TINY_PDF);
    r = RUN("schedule", "--format", "pdf");
    child_expect_status(&r, 0);
    assert_int_equal(r.out_len, strlen(TINY_PDF));
    assert_string_equal(r.out, TINY_PDF);
    child_result_deinit(&r);
    restore_path();
}

/* ---- signals ------------------------------------------------------------------ */

/* Whether pid is a process that still runs (a zombie has ended). */
static bool running(long pid)
{
    char path[64], stat_text[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return kill((pid_t)pid, 0) == 0 || errno != ESRCH;
    const size_t n = fread(stat_text, 1, sizeof stat_text - 1, f);
    fclose(f);
    stat_text[n] = '\0';
    const char *close_paren = strrchr(stat_text, ')');
    return !(close_paren && close_paren[1] == ' ' &&
             (close_paren[2] == 'Z' || close_paren[2] == 'X'));
}

/* The slow converter writes "PID CHILD_PID" into pids once both run. */
static void read_pids(long pids[2])
{
    char path[400];
    scratch_join(path, sizeof path, scratch, "pids");
    char *text = child_read_file(path, NULL);
    assert_non_null(text);
    assert_int_equal(sscanf(text, "%ld %ld", &pids[0], &pids[1]), 2);
    free(text);
}

/* sig while the converter (`trap`: what it does with SIGTERM) runs:
 * exit 130, no x.pdf, no temporary, no converter and no child of it. */
static void interrupt_conversion(const char *command, int sig, const char *trap)
{
    char body[1024];
    snprintf(body, sizeof body,
             "%s\nsleep 60 &\necho \"$$ $!\" >'%s/pids.tmp'; mv '%s/pids.tmp' '%s/pids'\nwait\n",
             trap, scratch, scratch, scratch);
    put_fake_in_bin(body);
    path_with_bin();
    const child_desc d = {
        .exe = PPFLOW_EXE,
        .capture_dir = scratch,
        .args = strcmp(command, "render") == 0
                    ? CHILD_ARGS("render", "--still", "2", "-o", pdf)
                    : CHILD_ARGS("schedule", "--format", "pdf", "-o", pdf),
    };
    const pid_t pid = child_start(&d);
    restore_path();
    char pids_path[400];
    scratch_join(pids_path, sizeof pids_path, scratch, "pids");
    const double start = now_seconds();
    while (!scratch_exists(pids_path) && now_seconds() - start < CHILD_TIMEOUT &&
           !child_has_exited(pid))
        sleep_seconds(0.01);
    if (!scratch_exists(pids_path)) {
        child_result r = child_stop(pid, &d, SIGKILL, CHILD_TIMEOUT);
        fail_msg("the slow converter never started; ppflow said: %s", r.err);
    }
    long pids[2];
    read_pids(pids);
    assert_true(running(pids[0]) && running(pids[1]));
    child_result r = child_stop(pid, &d, sig, CHILD_TIMEOUT);
    child_expect_status(&r, 130);
    child_expect_one_line(&r, "ppflow: ", "interrupted");
    assert_non_null(strstr(r.err, sig == SIGTERM ? "(SIGTERM)" : "(SIGINT)"));
    child_result_deinit(&r);
    child_expect_untouched(out, "x.pdf", NULL);
    /* what was signalled has ended (its init may reap it a moment later) */
    const double ended = now_seconds();
    while ((running(pids[0]) || running(pids[1])) && now_seconds() - ended < 5)
        sleep_seconds(0.01);
    if (running(pids[0]) || running(pids[1])) {
        kill((pid_t)pids[0], SIGKILL);
        kill((pid_t)pids[1], SIGKILL);
        fail_msg("%s, signal %d: the converter (%ld) or its child (%ld) still runs", command, sig,
                 pids[0], pids[1]);
    }
    unlink(pids_path);
}

/* One that closes its output but does not exit is ended (PDF_EXIT_SECONDS,
 * 10 s), with the child it started: exit 1, nothing written. */
static void test_converter_that_hangs_is_ended(void **state)
{
    (void)state;
    char body[1024];
    snprintf(body, sizeof body,
             "cat >/dev/null; exec >&-\nsleep 60 &\necho \"$$ $!\" >'%s/pids.tmp'; mv "
             "'%s/pids.tmp' '%s/pids'\nwait\n",
             scratch, scratch, scratch);
    put_fake_in_bin(body);
    path_with_bin();
    const double start = now_seconds();
    child_result r =
        child_run_bounded(&(child_desc){.exe = PPFLOW_EXE,
                                        .capture_dir = scratch,
                                        .args = CHILD_ARGS("render", "--still", "2", "-o", pdf)},
                          CHILD_TIMEOUT + 10, "a converter that hangs");
    restore_path();
    print_message("a converter that hangs: ended after %.1f s\n", now_seconds() - start);
    expect_refused(&r, "did not exit within 10 s");
    long pids[2];
    read_pids(pids);
    const double ended = now_seconds();
    while ((running(pids[0]) || running(pids[1])) && now_seconds() - ended < 5)
        sleep_seconds(0.01);
    if (running(pids[0]) || running(pids[1])) {
        kill((pid_t)pids[0], SIGKILL);
        kill((pid_t)pids[1], SIGKILL);
        fail_msg("the converter (%ld) or its child (%ld) still runs", pids[0], pids[1]);
    }
}

static void test_signal_ends_the_converter(void **state)
{
    (void)state;
    interrupt_conversion("render", SIGTERM, "");
    interrupt_conversion("schedule", SIGTERM, "");
    interrupt_conversion("render", SIGINT, "");
    /* one that will not stop for SIGTERM is killed all the same */
    interrupt_conversion("schedule", SIGTERM, "trap '' TERM INT");
}

/* ---- finding it ------------------------------------------------------------------ */

/* Runs `schedule --format pdf -o out/x.pdf` from the scratch directory. */
static child_result run_in_scratch(void)
{
    char here[1024];
    assert_non_null(getcwd(here, sizeof here));
    assert_int_equal(chdir(scratch), 0);
    child_result r = RUN("schedule", "--format", "pdf", "-o", pdf);
    assert_int_equal(chdir(here), 0);
    return r;
}

static void test_relative_path_entries_are_not_searched(void **state)
{
    (void)state;
    /* the fake in the working directory and in ./bin: only PATH's
     * relative entries lead to them */
    char fake[400], rel_bin[400], fake2[400];
    scratch_join(fake, sizeof fake, scratch, "rsvg-convert");
    put_fake(fake, "cat >/dev/null; : >\"$MARK\"; cat <<'EOF'\n" TINY_PDF "EOF");
    scratch_join(rel_bin, sizeof rel_bin, scratch, "rel");
    assert_int_equal(mkdir(rel_bin, 0755), 0);
    scratch_join(fake2, sizeof fake2, rel_bin, "rsvg-convert");
    put_fake(fake2, "cat >/dev/null; : >\"$MARK\"; cat <<'EOF'\n" TINY_PDF "EOF");
    static const char *const relative[] = {".:/nonexistent", ":/nonexistent",
                                           "/nonexistent::", "rel:/nonexistent", "./rel"};
    for (size_t k = 0; k < sizeof relative / sizeof relative[0]; k++) {
        set_path(relative[k]);
        child_result r = run_in_scratch();
        restore_path();
        expect_refused(&r, "relative entry");
        assert_false(ran());
    }
    /* with an absolute entry after the relative one, that one runs */
    put_fake_in_bin("cat >/dev/null; cat <<'EOF'\n" TINY_PDF "EOF");
    char path[700];
    snprintf(path, sizeof path, ".:rel:%s", bin);
    set_path(path);
    child_result r = run_in_scratch();
    restore_path();
    child_expect_status(&r, 0);
    child_result_deinit(&r);
    assert_false(ran());
    child_expect_file(pdf, TINY_PDF);
}

static void test_named_converter(void **state)
{
    (void)state;
    char named[400];
    scratch_join(named, sizeof named, scratch, "my-converter");
    put_fake(named, "cat >/dev/null; : >\"$MARK\"; cat <<'EOF'\n" TINY_PDF "EOF");
    set_path("/nonexistent");
    setenv("PPFLOW_RSVG_CONVERT", named, 1);
    child_result r = RUN("render", "--still", "1", "-o", pdf);
    restore_path();
    child_expect_status(&r, 0);
    child_result_deinit(&r);
    assert_true(ran());
    child_expect_file(pdf, TINY_PDF);
    unlink(pdf);
    /* named relatively, or not executable: refused before any work */
    setenv("PPFLOW_RSVG_CONVERT", "my-converter", 1);
    r = run_in_scratch();
    restore_path();
    expect_refused(&r, "PPFLOW_RSVG_CONVERT = \"my-converter\": must be the absolute path");
    assert_int_equal(chmod(named, 0644), 0);
    setenv("PPFLOW_RSVG_CONVERT", named, 1);
    r = RUN("schedule", "--format", "pdf", "-o", pdf);
    restore_path();
    expect_refused(&r, "PPFLOW_RSVG_CONVERT");
}

/* Each test starts with bin/ and out/ fresh in an empty scratch. */
static int before_each(void **state)
{
    scratch_before_each(state);
    scratch_join(bin, sizeof bin, scratch, "bin");
    scratch_join(out, sizeof out, scratch, "out");
    scratch_join(pdf, sizeof pdf, out, "x.pdf");
    if (mkdir(bin, 0755) != 0 || mkdir(out, 0755) != 0)
        return -1;
    return 0;
}

static int setup(void **state)
{
    old_path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
    return scratch_setup(state, scratch, sizeof scratch, "ppflow_test_pdf");
}

static int teardown(void **state)
{
    free(old_path);
    return scratch_teardown(state);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_converter_output_must_be_a_pdf, before_each),
        cmocka_unit_test_setup(test_signal_ends_the_converter, before_each),
        cmocka_unit_test_setup(test_converter_that_hangs_is_ended, before_each),
        cmocka_unit_test_setup(test_relative_path_entries_are_not_searched, before_each),
        cmocka_unit_test_setup(test_named_converter, before_each),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
