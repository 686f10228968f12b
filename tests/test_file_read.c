/* Tests of core/common/file_read.h: the reading of a file that another file names.
 *
 *   - only a regular file is opened: a FIFO (with no writer, and /dev/stdin
 *     as a pipe that stays open), a device, a folder are refused without a
 *     wait; a /proc file, which calls itself regular, is refused by its file
 *     system;
 *   - confined, a name resolves inside its folder: plain names, sub-folders,
 *     "." and ".." that stay inside and links that stay inside are read;
 *     absolute names, ".." above the folder, and links that lead out
 *     (absolute, or relative through "..", at the end or in the middle) are
 *     refused as FILE_READ_OUTSIDE; a loop of links is an error, not a hang;
 *   - not confined, the same names resolve as the kernel resolves them;
 *   - a stream on the command line (file_read_path without regular_only)
 *     is still read as one.
 * Every read here is bounded by the test's alarm: a regression to a
 * blocking open fails instead of hanging.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "support/check.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_read.h"
#include "support/scratch.h"

static char scratch[256];
static char top[300];     /* scratch/top: the naming file's folder */
static char outside[300]; /* scratch/outside.json: a file next to it, out of it */

/* Reads name from top, confined or not; the status, the text in *text
 * (freed by the caller) when read. */
static file_read_status read_ref(const char *name, bool confine, char **text)
{
    file_text ft;
    alarm(10); /* a blocking open or read would hang: fail instead */
    const file_read_status status = file_read_ref(
        &ft, &(file_ref){.dir = top, .name = name, .confine = confine}, 1 << 20, NULL);
    alarm(0);
    if (text)
        *text = status == FILE_READ_OK ? ft.text : NULL;
    else
        file_text_deinit(&ft);
    return status;
}

/* name reads, confined and not, as text. */
static void expect_read(const char *name, const char *text)
{
    for (int confine = 0; confine < 2; confine++) {
        char *got = NULL;
        const file_read_status status = read_ref(name, confine, &got);
        if (status != FILE_READ_OK)
            fail_msg("%s (%s): status %d, expected it read", name,
                     confine ? "confined" : "not confined", (int)status);
        assert_string_equal(got, text);
        free(got);
    }
}

static void expect_status(const char *name, bool confine, file_read_status want)
{
    const file_read_status got = read_ref(name, confine, NULL);
    if (got != want)
        fail_msg("%s (%s): status %d, expected %d", name, confine ? "confined" : "not confined",
                 (int)got, (int)want);
}

static int setup(void **state)
{
    if (scratch_setup(state, scratch, sizeof scratch, "ppflow_test_file_read") != 0)
        return -1;
    return 0;
}

/* A fresh folder: top/ with in.json, sub/deep.json, a FIFO, a folder, and
 * outside.json beside top/. */
static int before_each(void **state)
{
    scratch_before_each(state);
    char path[400], sub[400];
    scratch_join(top, sizeof top, scratch, "top");
    if (mkdir(top, 0755) != 0)
        return -1;
    scratch_put(path, sizeof path, top, "in.json", "inside");
    snprintf(sub, sizeof sub, "%s/sub", top);
    if (mkdir(sub, 0755) != 0)
        return -1;
    scratch_put(path, sizeof path, sub, "deep.json", "deep");
    scratch_put(outside, sizeof outside, scratch, "outside.json", "outside");
    snprintf(path, sizeof path, "%s/fifo", top);
    return mkfifo(path, 0600);
}

/* A link in top named name, to target. */
static void link_in_top(const char *name, const char *target)
{
    char path[400];
    snprintf(path, sizeof path, "%s/%s", top, name);
    assert_int_equal(symlink(target, path), 0);
}

static void test_names_inside_read(void **state)
{
    (void)state;
    expect_read("in.json", "inside");
    expect_read("./in.json", "inside");
    expect_read("sub/deep.json", "deep");
    expect_read("sub//./deep.json", "deep");
    expect_read("sub/../in.json", "inside");
    link_in_top("link.json", "sub/deep.json");
    expect_read("link.json", "deep");
    link_in_top("subdir", "sub"); /* a link to a folder, then a name in it */
    expect_read("subdir/deep.json", "deep");
    link_in_top("up.json", "sub/../in.json");
    expect_read("up.json", "inside");
    /* a link in a sub-folder whose ".." comes back to the top, not above */
    char path[400];
    snprintf(path, sizeof path, "%s/sub/back.json", top);
    assert_int_equal(symlink("../in.json", path), 0);
    expect_read("sub/back.json", "inside");
}

static void test_names_outside_refused_when_confined(void **state)
{
    (void)state;
    const char *names[] = {
        outside,           /* absolute */
        "../outside.json", /* .. above the folder */
        "sub/../../outside.json",
        "out-rel.json",        /* a link to ../outside.json */
        "out-abs.json",        /* a link to the absolute path */
        "outdir/outside.json", /* a link to .. in the middle */
        "../top/in.json",      /* out and back in: refused, as openat2's RESOLVE_BENEATH does */
    };
    link_in_top("out-rel.json", "../outside.json");
    link_in_top("out-abs.json", outside);
    link_in_top("outdir", "..");
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        expect_status(names[k], true, FILE_READ_OUTSIDE);
        /* not confined, the kernel's answer: each of these names a file */
        char *got = NULL;
        assert_int_equal(read_ref(names[k], false, &got), FILE_READ_OK);
        free(got);
    }
}

static void test_only_regular_files(void **state)
{
    (void)state;
    /* /dev/stdin as a pipe that stays open: reading it would wait forever */
    int fds[2];
    assert_int_equal(pipe2(fds, O_CLOEXEC), 0);
    const int saved = dup(0);
    assert_int_equal(dup2(fds[0], 0), 0);
    for (int confine = 0; confine < 2; confine++) {
        expect_status("fifo", confine, FILE_READ_NOT_REGULAR);
        expect_status("sub", confine, FILE_READ_DIRECTORY);
        expect_status("sub/", confine, FILE_READ_DIRECTORY);
        expect_status(".", confine, FILE_READ_DIRECTORY);
        expect_status("missing.json", confine, FILE_READ_CANNOT_OPEN);
        expect_status("in.json/", confine, FILE_READ_CANNOT_OPEN);
        expect_status("", confine, FILE_READ_CANNOT_OPEN);
    }
    const char *devices[] = {"/dev/stdin", "/dev/null", "/dev/zero"};
    for (size_t k = 0; k < sizeof devices / sizeof devices[0]; k++)
        expect_status(devices[k], false, FILE_READ_NOT_REGULAR);
    /* regular by stat, size 0, the system's text: refused by its file system */
    expect_status("/proc/self/status", false, FILE_READ_PSEUDO);
    expect_status("/proc/self/environ", false, FILE_READ_PSEUDO);
    if (access("/sys/kernel/mm/transparent_hugepage/enabled", R_OK) == 0)
        expect_status("/sys/kernel/mm/transparent_hugepage/enabled", false, FILE_READ_PSEUDO);
    link_in_top("status.json", "/proc/self/status");
    expect_status("status.json", false, FILE_READ_PSEUDO);
    expect_status("status.json", true, FILE_READ_OUTSIDE);
    assert_int_equal(dup2(saved, 0), 0);
    close(saved);
    close(fds[0]);
    close(fds[1]);

    /* what was found, in words, tells a FIFO from a device */
    struct stat st;
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_non_null(strstr(file_read_status_text(FILE_READ_NOT_REGULAR, &st), "device"));
    char fifo[400];
    snprintf(fifo, sizeof fifo, "%s/fifo", top);
    assert_int_equal(stat(fifo, &st), 0);
    assert_non_null(strstr(file_read_status_text(FILE_READ_NOT_REGULAR, &st), "FIFO"));
}

static void test_link_loops_end(void **state)
{
    (void)state;
    link_in_top("a.json", "b.json");
    link_in_top("b.json", "a.json");
    for (int confine = 0; confine < 2; confine++) {
        file_text ft;
        const file_read_status status = file_read_ref(
            &ft, &(file_ref){.dir = top, .name = "a.json", .confine = confine}, 100, NULL);
        assert_int_equal(status, FILE_READ_CANNOT_OPEN);
        assert_int_equal(ft.errno_value, ELOOP);
    }
}

static void test_too_big(void **state)
{
    (void)state;
    file_text ft;
    for (int confine = 0; confine < 2; confine++)
        assert_int_equal(
            file_read_ref(&ft, &(file_ref){.dir = top, .name = "in.json", .confine = confine}, 3,
                          NULL),
            FILE_READ_TOO_BIG);
}

/* The command line's own file may still be a stream: a FIFO with no
 * writer reads as empty at once, and regular_only refuses it. */
static void test_command_line_streams(void **state)
{
    (void)state;
    char fifo[400];
    snprintf(fifo, sizeof fifo, "%s/fifo", top);
    file_text ft;
    alarm(10);
    assert_int_equal(file_read_path(&ft, fifo, 100, false), FILE_READ_OK);
    assert_int_equal(ft.len, 0);
    file_text_deinit(&ft);
    assert_int_equal(file_read_path(&ft, fifo, 100, true), FILE_READ_NOT_REGULAR);
    alarm(0);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_names_inside_read, before_each),
        cmocka_unit_test_setup(test_names_outside_refused_when_confined, before_each),
        cmocka_unit_test_setup(test_only_regular_files, before_each),
        cmocka_unit_test_setup(test_link_loops_end, before_each),
        cmocka_unit_test_setup(test_too_big, before_each),
        cmocka_unit_test_setup(test_command_line_streams, before_each),
    };
    return cmocka_run_group_tests(tests, setup, scratch_teardown);
}
