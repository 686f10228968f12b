/* child.h - run a program as a child process and look at what it left, for
 * the tests that check ppflow as its user runs it (test_cli, test_limits,
 * test_video).
 *
 * What it does: starts the program with the arguments given, standard input
 * from /dev/null (or a descriptor the test gives) and standard output and error captured in two
 * files (CHILD_STDOUT_NAME and CHILD_STDERR_NAME in a capture directory), waits for it and returns
 * its exit status and both outputs. Optionally the child runs under a file size limit
 * (RLIMIT_FSIZE, with SIGXFSZ ignored, so a write past the limit fails with EFBIG instead of
 * killing it): a full disk without filling one; or under an address space limit (RLIMIT_AS): a
 * machine with that much memory; and counts what a run left in a directory, the capture files
 * aside. The directories themselves are scratch.h's.
 *
 * What it does not do: no PATH search (give the program's path), no pipes
 * (the outputs go through files, so a chatty child cannot block), one child
 * at a time per capture directory (they share the capture files).
 *
 * Call order:
 *     scratch_init(dir, sizeof dir, "ppflow_test_cli");           in the group setup
 *     child_result r = child_run(&(child_desc){.exe = PPFLOW_EXE, .capture_dir = dir,
 *                                              .args = CHILD_ARGS("schedule", "--help")});
 *     ... r.status, r.out, r.err ...
 *     child_result_deinit(&r);
 *     scratch_empty(dir);                                          between tests
 *     scratch_deinit(dir);                                         in the group teardown
 *   or, to signal a child while it runs:
 *     pid_t pid = child_start(&d);  ...  kill(pid, SIGINT);  r = child_wait(pid, &d);
 *   or, once it has started to write ".out.tmp." in dir:
 *     child_await_entry(pid, &d, dir, ".out.tmp.", CHILD_TIMEOUT, NULL, 0);
 *     r = child_stop(pid, &d, SIGINT, CHILD_TIMEOUT);
 *     child_expect_untouched(dir, "out", NULL);    no "out", no temporary
 *
 * Errors: these are test helpers linked with cmocka; what goes wrong in the
 * harness itself (the program cannot be run, an output cannot be read)
 * fails the current test with a message. The child's own failures are the
 * result, for the test to judge.
 */
#ifndef PPFLOW_TEST_CHILD_H
#define PPFLOW_TEST_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define CHILD_STDOUT_NAME "stdout.txt"
#define CHILD_STDERR_NAME "stderr.txt"

/* Seconds a child may take where a hang is the bug being tested (a FIFO
 * with no reader) or where it must reach a state (a temporary appears, it
 * exits after a signal): bounded, so that no test can hang. */
#define CHILD_TIMEOUT 20.0

/* The arguments written in place, as child_desc.args wants them. */
#define CHILD_ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

typedef struct child_desc {
    const char *exe;         /* the program's path; it is also argv[0] */
    const char *const *args; /* the arguments after argv[0], NULL-terminated; NULL: none */
    const char *capture_dir; /* where the two capture files are written */
    long long fsize_limit;   /* 0: no limit; else RLIMIT_FSIZE in bytes, SIGXFSZ ignored */
    int stdin_fd;            /* > 0: the child's standard input (the test keeps and closes
                                it: a pipe it holds open, a file); 0: /dev/null */
    long long as_limit;      /* 0: no limit; else RLIMIT_AS in bytes: a run that needs more
                                memory fails to allocate (not under AddressSanitizer, whose
                                shadow memory alone is terabytes of address space) */
} child_desc;

typedef struct child_result {
    int status;     /* exit status, or -1 when the child did not exit normally */
    int signal;     /* the signal that ended it; 0 when it exited */
    char *out;      /* standard output, NUL-terminated */
    size_t out_len; /* bytes in out, not counting the NUL */
    char *err;      /* standard error, NUL-terminated */
} child_result;

/* Starts the program as d describes and returns its process id; the
 * capture files are truncated first. Fails the test if it cannot start. */
pid_t child_start(const child_desc *d);

/* Waits for the child started with d and returns what it did. */
child_result child_wait(pid_t pid, const child_desc *d);

/* child_start, then child_wait. A child whose LeakSanitizer crashes at its
 * exit (not a leak it found) runs again, twice, then once more with the
 * leak check off: the checker's crash says nothing about ppflow. */
child_result child_run(const child_desc *d);

/* child_start, then child_wait_bounded: for a run that must not hang. */
child_result child_run_bounded(const child_desc *d, double seconds, const char *what);

/* Fails the test, with the child's standard error, unless it exited with
 * `status`. */
void child_expect_status(const child_result *r, int status);

/* Fails the test unless standard error is exactly one line that starts
 * with `prefix` and contains `names` (the option or path it must name). */
void child_expect_one_line(const child_result *r, const char *prefix, const char *names);

/* child_wait with a time limit: past `seconds` the child is killed and the
 * test fails, naming `what` (a run that must not hang: a FIFO target). */
child_result child_wait_bounded(pid_t pid, const child_desc *d, double seconds, const char *what);

/* True once the child has exited; it stays waitable for child_wait. */
bool child_has_exited(pid_t pid);

/* True when dir holds an entry whose name starts with prefix and that holds
 * something (a file with data, a directory with an entry): a temporary
 * being written, not an empty probe (ppflow makes and drops one to check a
 * directory before it works). */
bool child_has_written_entry(const char *dir, const char *prefix);

/* Waits up to `seconds` until child_has_written_entry(dir, prefix), while
 * the child runs, and writes the entry's path into found (size bytes) when
 * found is not NULL; kills the child and fails the test, with its status
 * and standard error, when none appears. For a signal sent mid-write. */
void child_await_entry(pid_t pid, const child_desc *d, const char *dir, const char *prefix,
                       double seconds, char *found, size_t size);

/* Sends sig to the child and waits up to `seconds` for it to end
 * (child_wait_bounded); prints how long it took after the signal. */
child_result child_stop(pid_t pid, const child_desc *d, int sig, double seconds);

/* Frees the outputs and zeroes the result; accepts a zeroed result. */
void child_result_deinit(child_result *r);

/* The whole file, NUL-terminated, allocated (free it); NULL when it cannot
 * be opened. *len (if not NULL) gets the size without the NUL. */
char *child_read_file(const char *path, size_t *len);

/* Newline characters in s. */
int child_count_lines(const char *s);

/* Entries of dir other than ".", "..", the two capture files and `allowed`
 * (NULL: none allowed): what runs left behind. */
int child_count_other_files(const char *dir, const char *allowed);

/* Fails unless the file at path holds exactly text (and exists). */
void child_expect_file(const char *path, const char *text);

/* Fails unless a run that wrote into dir/name and failed or was stopped
 * left the target as it found it, and nothing else: with `old` (its
 * content before the run) dir/name still holds exactly that, without
 * (NULL) nothing exists under that name; either way dir holds no other
 * entry (no temporary), the capture files aside. */
void child_expect_untouched(const char *dir, const char *name, const char *old);

#endif
