/* spawn.c - child processes side by side, with deadlines. See spawn.h. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "child.h"
#include "clock.h"

bool spawn_on_path(const char *name)
{
    const char *path = getenv("PATH");
    if (!path)
        return false;
    char dir[1024], file[1200];
    while (*path) {
        size_t len = strcspn(path, ":");
        snprintf(dir, sizeof dir, "%.*s", (int)(len < sizeof dir ? len : sizeof dir - 1), path);
        snprintf(file, sizeof file, "%s/%s", len ? dir : ".", name);
        if (access(file, X_OK) == 0)
            return true;
        path += len + (path[len] == ':');
    }
    return false;
}

/* ---- children: spawned with a deadline, always reaped ---------------------- */

/* Every child not yet reaped, so that a failing test (cmocka longjmps out of
 * it) leaves no Xvfb or ppflow behind: the teardown kills what is here. */
static struct {
    pid_t pid;
    bool group; /* leader of its own process group (xvfb-run and its Xvfb) */
} children[SPAWN_CHILDREN_MAX];

/* spawn_init's: where children's TMPDIR and XDG_CACHE_HOME go, what ppflow preloads */
static const char *scratch_dir = ".";
static const char *preload_so;

void spawn_init(const char *scratch, const char *preload)
{
    scratch_dir = scratch;
    preload_so = preload;
}

static void redirect(int fd, const char *path, int flags)
{
    int f = open(path ? path : "/dev/null", flags, 0644);
    if (f < 0 || dup2(f, fd) < 0)
        _exit(126);
    close(f);
}

static void set_env_in(const char *name, const char *sub)
{
    char path[400];
    snprintf(path, sizeof path, "%s/%s", scratch_dir, sub);
    setenv(name, path, 1);
}

/* Starts argv[0] (searched on PATH) as the desc says; returns its pid. The
 * child inherits our open descriptors (Xvfb its -displayfd pipe). */
pid_t spawn_start(const char *const *argv, const spawn_desc *d)
{
    assert_non_null(argv[0]);
    int slot = 0;
    while (slot < SPAWN_CHILDREN_MAX && children[slot].pid > 0)
        slot++;
    assert_true(slot < SPAWN_CHILDREN_MAX);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (d->group)
            setpgid(0, 0);
        redirect(0, NULL, O_RDONLY);
        redirect(1, d->out, O_WRONLY | O_CREAT | O_TRUNC);
        redirect(2, d->err, O_WRONLY | O_CREAT | O_TRUNC);
        if (d->cwd && chdir(d->cwd) != 0)
            _exit(126);
        if (d->display)
            setenv("DISPLAY", d->display, 1);
        else
            unsetenv("DISPLAY");
        /* xvfb-run's auth file, Mesa's shader cache: in the scratch directory */
        set_env_in("TMPDIR", "tmp");
        set_env_in("XDG_CACHE_HOME", "cache");
        if (d->ppflow && preload_so) {
            /* Sanitizer build: Mesa dlcloses its driver at exit and
             * LeakSanitizer then reports Mesa's own allocations as leaks in
             * "<unknown module>" (5.5 kB in 258 blocks here, none of them
             * ppflow's; with the driver kept loaded there are none). A
             * preloaded dlclose that does nothing keeps leak checking on for
             * ppflow's own code; it loads before libasan, hence
             * verify_asan_link_order=0.
             * LeakSanitizer's exit-time scan of the threads' dynamic TLS
             * (the blocks __tls_get_addr hands out for Mesa's and LLVM's
             * thread-locals) crashed its tracer with SIGSEGV ("Tracer
             * caught signal 11", a near-null address) in most scripted
             * windows once the 3D view stopped clearing depth a second
             * time; intercept_tls_get_addr=0 leaves those blocks out of
             * the scan, and it has not crashed since. Thread stacks,
             * static TLS and the heap are still scanned. */
            setenv("LD_PRELOAD", preload_so, 1);
            const char *asan = getenv("ASAN_OPTIONS");
            char opts[512];
            snprintf(opts, sizeof opts,
                     "%s%sverify_asan_link_order=0:intercept_tls_get_addr=0", asan ? asan : "",
                     asan && *asan ? ":" : "");
            setenv("ASAN_OPTIONS", opts, 1);
        }
        execvp(argv[0], (char *const *)argv);
        _exit(127);
    }
    if (d->group)
        setpgid(pid, pid); /* also here: no race with a kill before the child ran */
    children[slot].pid = pid;
    children[slot].group = d->group;
    return pid;
}

static int child_slot(pid_t pid)
{
    for (int k = 0; k < SPAWN_CHILDREN_MAX; k++)
        if (children[k].pid == pid)
            return k;
    return -1;
}

/* Waits up to `seconds` for the child to exit; returns true if it did. */
bool spawn_wait_exit(pid_t pid, double seconds)
{
    double end = now_seconds() + seconds;
    while (!child_has_exited(pid)) {
        if (now_seconds() > end)
            return false;
        sleep_seconds(0.01);
    }
    return true;
}

/* Stops a child: nothing to do if it has exited by itself; otherwise
 * SIGTERM (to its whole group if it leads one: xvfb-run, its Xvfb and
 * ppflow), SIGKILL after a grace period. Then reaps it. Returns its wait
 * status. */
int spawn_stop(pid_t pid, double grace)
{
    int slot = child_slot(pid);
    assert_true(slot >= 0);
    bool group = children[slot].group;
    /* The leader is not reaped before its group is signalled, so the pgid
     * cannot have been reused. */
    if (!child_has_exited(pid)) {
        kill(group ? -pid : pid, SIGTERM);
        bool gone = spawn_wait_exit(pid, grace);
        if (group) {
            sleep_seconds(0.2); /* Xvfb removes its lock file on SIGTERM */
            kill(-pid, SIGKILL);
        } else if (!gone) {
            kill(pid, SIGKILL);
        }
    }
    int status = -1;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    children[slot].pid = 0;
    return status;
}

/* What a finished child wrote: standard output into *text and standard
 * error into *log (both files must be there; free both). */
void spawn_read_outputs(const char *out, const char *err, char **text, char **log)
{
    *text = child_read_file(out, NULL);
    *log = child_read_file(err, NULL);
    assert_non_null(*text);
    assert_non_null(*log);
}

/* Waits for a child to finish by itself within `seconds`; a child that runs
 * over is killed and the test fails. Returns the exit code. */
int spawn_finish(pid_t pid, double seconds, const char *what)
{
    bool in_time = spawn_wait_exit(pid, seconds);
    int status = spawn_stop(pid, 2.0);
    if (!in_time)
        fail_msg("%s did not finish within %.0f s: killed", what, seconds);
    if (!WIFEXITED(status))
        fail_msg("%s was killed by signal %d", what, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return WEXITSTATUS(status);
}

/* Waits for a child that must exit 0 (finish_child) and returns what it
 * wrote on standard output; its standard error goes into *log when log is
 * not NULL, and into the message when it fails (free what is returned). */
char *spawn_finish_ok(pid_t pid, double seconds, const char *what, const char *out, const char *err,
                      char **log)
{
    int code = spawn_finish(pid, seconds, what);
    char *text, *errors;
    spawn_read_outputs(out, err, &text, &errors);
    if (code != 0)
        fail_msg("%s exited with %d; stderr:\n%.3000s", what, code, errors);
    if (log)
        *log = errors;
    else
        free(errors);
    return text;
}

void spawn_stop_all(void)
{
    for (int k = 0; k < SPAWN_CHILDREN_MAX; k++)
        if (children[k].pid > 0)
            spawn_stop(children[k].pid, 2.0);
}
