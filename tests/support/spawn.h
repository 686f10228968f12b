/* spawn.h - child processes that run side by side with a deadline and are
 * always reaped: an X server, ppflow, X tools (xdotool, xrandr), for the
 * tests that drive ppflow's windows (test_viewer, test_presenter).
 *
 * What it does: starts a program (searched on PATH) with its standard
 * output and error in files, in a working directory, with DISPLAY set or
 * unset, optionally as the leader of its own process group (xvfb-run and
 * its Xvfb are stopped together); TMPDIR and XDG_CACHE_HOME point into the
 * test's scratch directory (xvfb-run's auth file, Mesa's shader cache), and
 * in sanitizer builds ppflow preloads a dlclose that does nothing (see
 * no_dlclose.c). Every child not yet reaped is remembered, so that a test
 * that fails (cmocka longjmps out of it) leaves nothing behind: its
 * teardown calls spawn_stop_all.
 *
 * What it does not do: no pipes (outputs go to files, so a chatty child
 * cannot block), at most SPAWN_CHILDREN_MAX children at once; child.h is
 * the simpler one-child-at-a-time runner for tests without a display.
 *
 * Call order:
 *     spawn_init(scratch, preload_or_NULL);                 in the group setup
 *     pid_t pid = spawn_start(argv, &(spawn_desc){.out = ..., .display = ":5"});
 *     code = spawn_finish(pid, 60, "ppflow");  or  spawn_stop(pid, 2.0);
 *     spawn_stop_all();                                     after each test, in teardown
 *
 * Errors: these are test helpers linked with cmocka: what goes wrong in the
 * harness (no fork, a child that overruns its deadline) fails the current
 * test with a message.
 */
#ifndef PPFLOW_TEST_SPAWN_H
#define PPFLOW_TEST_SPAWN_H

#include <stdbool.h>
#include <sys/types.h>

enum { SPAWN_CHILDREN_MAX = 8 };

typedef struct spawn_desc {
    const char *cwd;     /* NULL: the test's */
    const char *out;     /* standard output to this file; NULL: /dev/null */
    const char *err;     /* standard error to this file; NULL: /dev/null */
    const char *display; /* DISPLAY; NULL: unset */
    bool ppflow;         /* the program itself (sanitizer builds preload no_dlclose) */
    bool group;          /* a process group of its own, killed as a whole */
} spawn_desc;

/* The scratch directory whose tmp/ and cache/ children use, and the shared
 * object ppflow preloads (NULL: none). Both strings must outlive the tests. */
void spawn_init(const char *scratch, const char *preload);
/* True when `name` is an executable file in a directory of $PATH. */
bool spawn_on_path(const char *name);
/* Starts argv[0] (searched on PATH) as d says; returns its pid. The child
 * inherits the test's open descriptors (Xvfb its -displayfd pipe). */
pid_t spawn_start(const char *const *argv, const spawn_desc *d);
/* Waits up to `seconds` for the child to exit; true if it did (it stays
 * waitable). */
bool spawn_wait_exit(pid_t pid, double seconds);
/* Stops a child: nothing if it has exited; else SIGTERM (to its group if it
 * leads one), SIGKILL after `grace` seconds. Reaps it; returns its wait status. */
int spawn_stop(pid_t pid, double grace);
/* Waits for a child to finish by itself within `seconds`; one that runs over
 * is killed and the test fails, naming `what`. Returns the exit code. */
int spawn_finish(pid_t pid, double seconds, const char *what);
/* spawn_finish for a child that must exit 0; returns what it wrote to `out`
 * (free it) and, when log is not NULL, its standard error (`err`) in *log. */
char *spawn_finish_ok(pid_t pid, double seconds, const char *what, const char *out, const char *err,
                      char **log);
/* Both output files of a finished child, read whole (free both). */
void spawn_read_outputs(const char *out, const char *err, char **text, char **log);
/* Stops every child not yet reaped. */
void spawn_stop_all(void);

#endif
