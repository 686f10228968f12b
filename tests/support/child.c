/* child.c - run a program, capture its outputs, look at its files. See child.h. */
#include "child.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "clock.h"
#include "error.h"
#include "scratch.h"

/* The child is built as the test is: under AddressSanitizer its shadow
 * memory alone takes terabytes of address space, so RLIMIT_AS cannot
 * stand for the memory it uses (as_limit is then not applied). */
#if defined(__SANITIZE_ADDRESS__)
#define CHILD_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CHILD_UNDER_ASAN 1
#endif
#endif
#ifndef CHILD_UNDER_ASAN
#define CHILD_UNDER_ASAN 0
#endif

enum { MAX_ARGS = 64 };

static void capture_path(char *buf, size_t size, const child_desc *d, const char *name)
{
    scratch_join(buf, size, d->capture_dir, name);
}

static int open_or_fail(const char *path, int flags)
{
    int fd = open(path, flags | O_CLOEXEC, 0644);
    if (fd < 0)
        fail_msg("cannot open %s: %s", path, strerror(errno));
    return fd;
}

pid_t child_start(const child_desc *d)
{
    assert_non_null(d->exe);
    assert_non_null(d->capture_dir);
    /* A fork that cannot exec can only say so through its exit status;
     * check first, so that a missing program is a clear failure. */
    if (access(d->exe, X_OK) != 0)
        fail_msg("cannot run %s: %s", d->exe, strerror(errno));

    const char *argv[MAX_ARGS + 1] = {d->exe};
    int argc = 1;
    for (; d->args && d->args[argc - 1]; argc++) {
        assert_true(argc < MAX_ARGS);
        argv[argc] = d->args[argc - 1];
    }
    argv[argc] = NULL;

    char out_path[512], err_path[512];
    capture_path(out_path, sizeof out_path, d, CHILD_STDOUT_NAME);
    capture_path(err_path, sizeof err_path, d, CHILD_STDERR_NAME);
    /* Opened here, not in the child: after fork only async-signal-safe
     * calls are allowed, and a failure is easier to report from here. */
    const int in_fd = d->stdin_fd > 0 ? dup(d->stdin_fd) : open_or_fail("/dev/null", O_RDONLY);
    assert_true(in_fd >= 0);
    const int out_fd = open_or_fail(out_path, O_WRONLY | O_CREAT | O_TRUNC);
    const int err_fd = open_or_fail(err_path, O_WRONLY | O_CREAT | O_TRUNC);
    fflush(NULL); /* or the child's exit could write our buffered output twice */

    /* fork rather than posix_spawn: the file size limit and the ignored
     * SIGXFSZ must be set in the child before it runs the program. */
    const pid_t pid = fork();
    if (pid == 0) {
        if (dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0)
            _exit(127);
        if (d->fsize_limit > 0) {
            struct rlimit lim = {.rlim_cur = (rlim_t)d->fsize_limit,
                                 .rlim_max = (rlim_t)d->fsize_limit};
            if (setrlimit(RLIMIT_FSIZE, &lim) != 0)
                _exit(127);
            signal(SIGXFSZ, SIG_IGN); /* survives exec: ignored stays ignored */
        }
        if (d->as_limit > 0 && !CHILD_UNDER_ASAN) {
            struct rlimit lim = {.rlim_cur = (rlim_t)d->as_limit, .rlim_max = (rlim_t)d->as_limit};
            if (setrlimit(RLIMIT_AS, &lim) != 0)
                _exit(127);
        }
        execv(d->exe, (char *const *)argv);
        _exit(127);
    }
    const int fork_errno = errno;
    close(in_fd);
    close(out_fd);
    close(err_fd);
    if (pid < 0)
        fail_msg("cannot fork to run %s: %s", d->exe, strerror(fork_errno));
    return pid;
}

child_result child_wait(pid_t pid, const child_desc *d)
{
    int wstatus;
    pid_t got;
    while ((got = waitpid(pid, &wstatus, 0)) < 0 && errno == EINTR)
        ;
    assert_int_equal(got, pid);

    child_result r = {
        .status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1,
        .signal = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0,
    };
    char path[512];
    capture_path(path, sizeof path, d, CHILD_STDOUT_NAME);
    r.out = child_read_file(path, &r.out_len);
    capture_path(path, sizeof path, d, CHILD_STDERR_NAME);
    r.err = child_read_file(path, NULL);
    assert_non_null(r.out);
    assert_non_null(r.err);
    return r;
}

void child_expect_status(const child_result *r, int status)
{
    if (r->status != status)
        fail_msg("expected exit status %d, got %d (signal %d); stderr: %s", status, r->status,
                 r->signal, r->err);
}

void child_expect_one_line(const child_result *r, const char *prefix, const char *names)
{
    if (child_count_lines(r->err) != 1 || strncmp(r->err, prefix, strlen(prefix)) != 0)
        fail_msg("expected one \"%s...\" line on stderr, got: %s", prefix, r->err);
    if (!strstr(r->err, names))
        fail_msg("the message does not name \"%s\": %s", names, r->err);
}

void child_result_deinit(child_result *r)
{
    free(r->out);
    free(r->err);
    *r = (child_result){0};
}

/* LeakSanitizer's own failure at a child's exit (its tracer thread crashes
 * while it stops the threads, llvmpipe's among them, in a loaded sanitizer
 * build), not a leak it found ("detected memory leaks"): the run says
 * nothing about ppflow. */
static bool sanitizer_tracer_crashed(const child_result *r)
{
    return r->status != 0 && r->err &&
           strstr(r->err, "LeakSanitizer has encountered a fatal error") != NULL &&
           strstr(r->err, "detected memory leaks") == NULL;
}

child_result child_run(const child_desc *d)
{
    child_result r = child_wait(child_start(d), d);
    for (int again = 0; again < 3 && sanitizer_tracer_crashed(&r); again++) {
        child_result_deinit(&r);
        if (again < 2) {
            print_message("the child's LeakSanitizer crashed at exit (not a leak): run again\n");
            r = child_wait(child_start(d), d);
            continue;
        }
        /* A child whose leak check crashes every time (a loaded machine)
         * is still run for what the test checks, its leak check off (the
         * variable is set in this process, before the fork, and put back). */
        print_message("the child's LeakSanitizer crashed at exit three times: run again, its "
                      "leak check off\n");
        const char *was = getenv("ASAN_OPTIONS");
        char *kept = was ? strdup(was) : NULL;
        char options[1024];
        snprintf(options, sizeof options, "%s%sdetect_leaks=0", kept ? kept : "",
                 kept && kept[0] ? ":" : "");
        setenv("ASAN_OPTIONS", options, 1);
        r = child_wait(child_start(d), d);
        if (kept)
            setenv("ASAN_OPTIONS", kept, 1);
        else
            unsetenv("ASAN_OPTIONS");
        free(kept);
    }
    return r;
}

char *child_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0, got;
    char *buf = ppf_malloc(cap);
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0)
            buf = ppf_realloc(buf, cap *= 2);
    }
    fclose(f);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

int child_count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

int child_count_other_files(const char *dir, const char *allowed)
{
    return scratch_count(
        dir, (const char *const[]){CHILD_STDOUT_NAME, CHILD_STDERR_NAME, allowed, NULL});
}

void child_expect_file(const char *path, const char *text)
{
    char *got = child_read_file(path, NULL);
    if (!got)
        fail_msg("%s is gone; it should have kept \"%s\"", path, text);
    assert_string_equal(got, text);
    free(got);
}

void child_expect_untouched(const char *dir, const char *name, const char *old)
{
    char path[600];
    scratch_join(path, sizeof path, dir, name);
    if (old)
        child_expect_file(path, old);
    else if (scratch_exists(path))
        fail_msg("%s exists; the run should have left nothing under its name", path);
    assert_int_equal(child_count_other_files(dir, old ? name : NULL), 0);
}

bool child_has_exited(pid_t pid)
{
    siginfo_t info = {0};
    assert_int_equal(waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT), 0);
    return info.si_pid == pid;
}

child_result child_wait_bounded(pid_t pid, const child_desc *d, double seconds, const char *what)
{
    const double start = now_seconds();
    while (!child_has_exited(pid) && now_seconds() - start < seconds)
        sleep_seconds(0.005);
    if (!child_has_exited(pid)) {
        kill(pid, SIGKILL);
        child_result r = child_wait(pid, d);
        child_result_deinit(&r);
        fail_msg("%s: ppflow still ran after %.0f s (killed)", what, seconds);
    }
    return child_wait(pid, d);
}

child_result child_run_bounded(const child_desc *d, double seconds, const char *what)
{
    return child_wait_bounded(child_start(d), d, seconds, what);
}

/* The first entry of dir named prefix... that holds something: a file with
 * data or a directory with an entry. Its path goes into found (size bytes)
 * when found is not NULL. */
static bool find_written_entry(const char *dir, const char *prefix, char *found, size_t size)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    bool written = false;
    for (struct dirent *e; !written && (e = readdir(d));) {
        if (strncmp(e->d_name, prefix, strlen(prefix)) != 0)
            continue;
        char path[600];
        scratch_join(path, sizeof path, dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        written = S_ISDIR(st.st_mode) ? scratch_count(path, NULL) > 0 : st.st_size > 0;
        if (written && found)
            scratch_join(found, size, dir, e->d_name);
    }
    closedir(d);
    return written;
}

bool child_has_written_entry(const char *dir, const char *prefix)
{
    return find_written_entry(dir, prefix, NULL, 0);
}

void child_await_entry(pid_t pid, const child_desc *d, const char *dir, const char *prefix,
                       double seconds, char *found, size_t size)
{
    const double start = now_seconds();
    bool written = false;
    while (!(written = find_written_entry(dir, prefix, found, size)) && !child_has_exited(pid) &&
           now_seconds() - start < seconds)
        sleep_seconds(0.002);
    if (!written) {
        kill(pid, SIGKILL);
        child_result r = child_wait(pid, d);
        fail_msg("no %s... with data appeared in %s (status %d); stderr: %s", prefix, dir, r.status,
                 r.err);
    }
}

child_result child_stop(pid_t pid, const child_desc *d, int sig, double seconds)
{
    assert_int_equal(kill(pid, sig), 0);
    const double sent = now_seconds();
    char what[64];
    snprintf(what, sizeof what, "after signal %d", sig);
    child_result r = child_wait_bounded(pid, d, seconds, what);
    print_message("signal %d: stopped %.3f s after it was sent\n", sig, now_seconds() - sent);
    return r;
}
