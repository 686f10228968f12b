/* x_run.h - ppflow's window run as its user runs it, in an X server of the
 * test's own, for the tests that drive the live viewer (test_viewer,
 * test_present_window and the like).
 *
 * What it does, on spawn.h's children (outputs in files, a deadline, none
 * left behind: spawn_stop_all in each test's teardown): starts an Xvfb on a display it picks
 * itself, runs xdotool, runs ppflow on a script under xvfb-run, and reads the state lines ppflow
 * prints (`--print-state`, the script's `print`: viewer_state.h).
 *
 * What it does not do: decide what a run must show (the test's own checks),
 * or search for the tools (x_run_missing_tools says which are not on PATH:
 * skip then, exit status 77).
 *
 * Call order:
 *     in a test: x_run_skip_without_tools("test_x");
 *                char *out = run_script(PPFLOW_EXE, "name.script", "frames 2\nprint\nquit\n",
 *                                       X_RUN_ARGS("--size", "1280x720"));
 *                state_line st[8]; int n = parse_states(out, st, 8); free(out);
 *     main:      return x_run_main("ppflow_test_x", tests, count);
 * Files go into the scratch directory: the working directory of a scripted
 * ppflow ("a/"), TMPDIR for xvfb-run ("tmp/"), XDG_CACHE_HOME for Mesa's
 * shader cache ("cache/").
 *
 * Errors: these are cmocka helpers: what goes wrong (a child that does not
 * finish in time, exits non-zero where it must not, an unreadable state
 * line) fails the current test with a message.
 */
#ifndef PPFLOW_TEST_X_RUN_H
#define PPFLOW_TEST_X_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "spawn.h"

#define RUN_SECONDS 60.0  /* the longest a ppflow run may take before it is killed */
#define XDO_SECONDS 20.0  /* the same for one xdotool command */
#define WAIT_SECONDS 30.0 /* for a window or a screenshot to appear */
#define SCREEN_ARGS "-screen 0 1280x800x24"

/* Extra arguments written in place, as run_script wants them. */
#define X_RUN_ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

typedef struct state_line {
    double t;
    double distance; /* the 3D camera's */
    int playing, help;
    char theme[16];
    double split;
    double t0, t1;                         /* visible time range */
    double plot_x, plot_y, plot_w, plot_h; /* framebuffer pixels */
    int fb_w, fb_h, win_w, win_h;
    double ui;                      /* the UI scale */
    int presenting, blackout, beat; /* -1: not in the line (an older ppflow) */
    int slide;                      /* from 1; -1: not in the line */
} state_line;

/* " xvfb-run xdotool" for the tools that are not on PATH; "" when all are. */
const char *x_run_missing_tools(void);
/* Skips the current test (cmocka's skip() does not return) when a tool is
 * missing, saying which under the test program's name. */
void x_run_skip_without_tools(const char *test);

/* A window test program's main:
 *     return x_run_main("ppflow_test_x", tests, count);
 * runs the tests (cmocka) in a scratch directory of that name (scratch.h,
 * x_run_init; x_run_scratch gives its path), stops every child a test left
 * after each test, failed or not, removes the directory at the end, and
 * returns 77 (CTest's "Skipped") when all passed because tools are
 * missing, else the number of failures. Each test's own teardown must be
 * NULL (x_run_main sets it). */
struct CMUnitTest;
int x_run_main(const char *name, struct CMUnitTest *tests, size_t count);
const char *x_run_scratch(void);

/* One state line, and every state line of a run's output in order (returns
 * the count). */
state_line parse_state(const char *line);
int parse_states(const char *out, state_line *states, int max);
/* The state lines of a run's output (those starting "t="), copied whole;
 * and the text of one key's value in such a line: up to the next blank,
 * or for whatif_error (always the line's last key, its text may hold
 * blanks) to the end of the line. */
enum { X_RUN_LINE_MAX = 4096 };
int state_texts(const char *out, char lines[][X_RUN_LINE_MAX], int max);
const char *key_text(const char *line, const char *key, char *out, size_t size);

/* Starts Xvfb (SCREEN_ARGS' screen) on a display it picks itself; returns
 * its pid and the display name (":N"). */
pid_t start_xvfb(char *display, size_t size);
/* Runs one xdotool command on the display; returns its standard output (free it). */
char *xdo(const char *display, const char *const *args);
#define XDO(display, ...) xdo(display, (const char *const[]){__VA_ARGS__, NULL})
/* Fails, with ppflow's stderr, if ppflow has exited. */
void expect_alive(pid_t ppflow, const char *err_path, const char *waiting_for);

/* Runs `exe --script FILE --print-state ARGS...` under xvfb-run (screen
 * SCREEN_ARGS), the script written as `name` in the scratch's "a/", which
 * is ppflow's working directory; returns ppflow's standard output (free
 * it). The exit status must be 0. args may be NULL. */
char *run_script(const char *exe, const char *name, const char *script, const char *const *args);
/* The same on an X screen of this size ("1920x1080"; NULL: SCREEN_ARGS'). */
char *run_script_on(const char *screen, const char *exe, const char *name, const char *script,
                    const char *const *args);
/* The scratch's sub-directory `sub`, made if missing, into path. */
void x_run_dir(const char *sub, char *path, size_t size);

#endif
