/* x_run.c - children with deadlines, Xvfb, xdotool, scripted ppflow runs
 * and state lines. See x_run.h. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "x_run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#include "child.h"
#include "spawn.h"
#include "clock.h"
#include "frame.h" /* the UI scale's range */
#include "scratch.h"

static char scratch[256];
static char missing_tools[128]; /* "" when every tool is there */

/* Remembers the scratch directory (which must exist), makes its "tmp/" and
 * starts spawn.h there (sanitizer builds: with the no-dlclose preload). */
static void x_run_init(const char *dir)
{
    snprintf(scratch, sizeof scratch, "%s", dir);
#ifdef PPFLOW_NO_DLCLOSE_SO
    spawn_init(scratch, PPFLOW_NO_DLCLOSE_SO);
#else
    spawn_init(scratch, NULL);
#endif
    missing_tools[0] = '\0';
    const char *tools[] = {"xvfb-run", "Xvfb", "xauth", "xdotool"};
    for (size_t k = 0; k < sizeof tools / sizeof tools[0]; k++)
        if (!spawn_on_path(tools[k])) {
            size_t len = strlen(missing_tools);
            snprintf(missing_tools + len, sizeof missing_tools - len, " %s", tools[k]);
        }
    char path[300];
    x_run_dir("tmp", path, sizeof path);
}

const char *x_run_missing_tools(void)
{
    return missing_tools;
}

void x_run_skip_without_tools(const char *test)
{
    if (!missing_tools[0])
        return;
    skip_for_missing_tool("%s: not on PATH:%s (tools/deps.sh installs xvfb, xauth and xdotool)",
                          test, missing_tools);
}

static char group_name[64];

static int group_setup(void **state)
{
    (void)state;
    char dir[256];
    if (!scratch_init(dir, sizeof dir, group_name))
        return -1;
    x_run_init(dir); /* keeps its own copy, which spawn.h points at */
    return 0;
}

static int after_each(void **state)
{
    (void)state;
    spawn_stop_all();
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    spawn_stop_all();
    scratch_deinit(scratch);
    return 0;
}

int x_run_main(const char *name, struct CMUnitTest *tests, size_t count)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    snprintf(group_name, sizeof group_name, "%s", name);
    for (size_t k = 0; k < count; k++)
        tests[k].teardown_func = after_each;
    const int failed = _cmocka_run_group_tests(name, tests, count, group_setup, group_teardown);
    return failed == 0 && missing_tools[0] ? 77 : failed; /* CTest's SKIP_RETURN_CODE */
}

const char *x_run_scratch(void)
{
    return scratch;
}

void x_run_dir(const char *sub, char *path, size_t size)
{
    scratch_join(path, size, scratch, sub);
    if (mkdir(path, 0755) != 0 && errno != EEXIST)
        fail_msg("cannot create %s: %s", path, strerror(errno));
}

/* ---- the state line ---------------------------------------------------------- */

/* The value of `key=` in a state line (a key starts the line or follows a
 * space), or NULL. */
static const char *optional_field(const char *line, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = line; (p = strstr(p, key)); p++)
        if ((p == line || p[-1] == ' ') && p[n] == '=')
            return p + n + 1;
    return NULL;
}

static const char *field(const char *line, const char *key)
{
    const char *v = optional_field(line, key);
    if (!v)
        fail_msg("no %s= in the state line: %s", key, line);
    return v;
}

state_line parse_state(const char *line)
{
    state_line s = {0};
    bool ok = sscanf(field(line, "t"), "%lf", &s.t) == 1 &&
              sscanf(field(line, "playing"), "%d", &s.playing) == 1 &&
              sscanf(field(line, "help"), "%d", &s.help) == 1 &&
              sscanf(field(line, "theme"), "%15[a-z]", s.theme) == 1 &&
              sscanf(field(line, "split"), "%lf", &s.split) == 1 &&
              sscanf(field(line, "distance"), "%lf", &s.distance) == 1 &&
              sscanf(field(line, "timeline"), "%lf:%lf", &s.t0, &s.t1) == 2 &&
              sscanf(field(line, "plot"), "%lf:%lf:%lf:%lf", &s.plot_x, &s.plot_y, &s.plot_w,
                     &s.plot_h) == 4 &&
              sscanf(field(line, "fb"), "%dx%d", &s.fb_w, &s.fb_h) == 2 &&
              sscanf(field(line, "window"), "%dx%d", &s.win_w, &s.win_h) == 2 &&
              sscanf(field(line, "ui"), "%lf", &s.ui) == 1;
    if (!ok)
        fail_msg("cannot read the state line: %s", line);
    s.presenting = s.blackout = s.beat = s.slide = -1;
    const char *p;
    if ((p = optional_field(line, "presenting")))
        sscanf(p, "%d", &s.presenting);
    if ((p = optional_field(line, "blackout")))
        sscanf(p, "%d", &s.blackout);
    if ((p = optional_field(line, "beat")))
        sscanf(p, "%d", &s.beat);
    if ((p = optional_field(line, "slide")))
        sscanf(p, "%d", &s.slide);
    if (!(s.t1 > s.t0) || !(s.plot_w > 0) || !(s.plot_h > 0) || s.fb_w <= 0 || s.fb_h <= 0 ||
        s.win_w <= 0 || s.win_h <= 0 || !(s.ui >= FRAME_UI_SCALE_MIN && s.ui <= FRAME_UI_SCALE_MAX))
        fail_msg("implausible state line: %s", line);
    return s;
}

/* The state lines in a run's standard output, in order; returns the count. */
int parse_states(const char *out, state_line *states, int max)
{
    int n = 0;
    char line[1024];
    for (const char *p = out; *p;) {
        size_t len = strcspn(p, "\n");
        if (strncmp(p, "t=", 2) == 0) {
            assert_true(n < max && len < sizeof line);
            memcpy(line, p, len);
            line[len] = '\0';
            states[n++] = parse_state(line);
        }
        p += len + (p[len] == '\n');
    }
    return n;
}

/* The state lines of a run's output (those starting "t="), copied. */
int state_texts(const char *out, char lines[][X_RUN_LINE_MAX], int max)
{
    int n = 0;
    for (const char *p = out; *p && n < max;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (strncmp(p, "t=", 2) == 0) {
            if (len >= X_RUN_LINE_MAX)
                fail_msg("state line of %zu characters", len);
            memcpy(lines[n], p, len);
            lines[n++][len] = '\0';
        }
        p += len + (nl ? 1 : 0);
    }
    return n;
}

/* The value after " key=" in a state line (up to the next blank; the
 * whatif_error key, the last, to the end of the line). */
const char *key_text(const char *line, const char *key, char *out, size_t size)
{
    char pat[64];
    snprintf(pat, sizeof pat, " %s=", key);
    const char *at = strstr(line, pat);
    if (!at)
        fail_msg("no %s in the state line: %s", key, line);
    at += strlen(pat);
    size_t len = strcmp(key, "whatif_error") == 0 ? strlen(at) : strcspn(at, " ");
    snprintf(out, size, "%.*s", (int)len, at);
    return out;
}

/* Starts Xvfb on a display it picks itself (-displayfd: no race with other
 * servers); returns its pid and the display name. -noreset: by default the
 * server resets when its last client leaves, and a client that connects
 * during the reset (the next ppflow a test starts on the same display)
 * is refused. */
pid_t start_xvfb(char *display, size_t size)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    char fd_arg[16], err[400];
    snprintf(fd_arg, sizeof fd_arg, "%d", fds[1]);
    scratch_join(err, sizeof err, scratch, "xvfb.err");
    const char *argv[] = {"Xvfb",        "-displayfd", fd_arg, "-screen",  "0",
                          "1280x800x24", "-nolisten",  "tcp",  "-noreset", NULL};
    pid_t pid = spawn_start(argv, &(spawn_desc){.err = err});
    close(fds[1]);
    /* Xvfb writes the display number once it accepts connections. */
    char buf[32] = "";
    size_t n = 0;
    double end = now_seconds() + WAIT_SECONDS;
    while (n < sizeof buf - 1 && !strchr(buf, '\n') && now_seconds() < end) {
        struct pollfd p = {.fd = fds[0], .events = POLLIN};
        if (poll(&p, 1, 100) <= 0)
            continue;
        ssize_t got = read(fds[0], buf + n, sizeof buf - 1 - n);
        if (got <= 0)
            break;
        n += (size_t)got;
        buf[n] = '\0';
    }
    close(fds[0]);
    int number = -1;
    if (!strchr(buf, '\n') || sscanf(buf, "%d", &number) != 1 || number < 0) {
        char *log = child_read_file(err, NULL);
        fail_msg("Xvfb did not start; its stderr:\n%.2000s", log ? log : "");
    }
    snprintf(display, size, ":%d", number);
    return pid;
}

/* Runs one xdotool command on the display; returns its standard output (free it). */
char *xdo(const char *display, const char *const *args)
{
    const char *argv[48] = {"xdotool"};
    int argc = 1;
    for (; args[argc - 1]; argc++) {
        assert_true(argc < 47);
        argv[argc] = args[argc - 1];
    }
    argv[argc] = NULL;
    char out[400], err[400];
    scratch_join(out, sizeof out, scratch, "xdo.out");
    scratch_join(err, sizeof err, scratch, "xdo.err");
    pid_t pid = spawn_start(argv, &(spawn_desc){.out = out, .err = err, .display = display});
    int code = spawn_finish(pid, XDO_SECONDS, "xdotool");
    char *text, *log;
    spawn_read_outputs(out, err, &text, &log);
    if (code != 0 && strcmp(args[0], "search") != 0) /* search fails while there is no window */
        fail_msg("xdotool %s exited with %d: %s", args[0], code, log);
    free(log);
    return text;
}

#define XDO(display, ...) xdo(display, (const char *const[]){__VA_ARGS__, NULL})

/* Fails, with ppflow's stderr, if ppflow has exited. */
void expect_alive(pid_t ppflow, const char *err_path, const char *waiting_for)
{
    if (!child_has_exited(ppflow))
        return;
    int status = spawn_stop(ppflow, 1.0);
    char *log = child_read_file(err_path, NULL);
    fail_msg("ppflow exited (status %d) while waiting for %s; stderr:\n%.2000s", status,
             waiting_for, log ? log : "");
}

char *run_script(const char *exe, const char *name, const char *script, const char *const *args)
{
    return run_script_on(NULL, exe, name, script, args);
}

char *run_script_on(const char *screen, const char *exe, const char *name, const char *script,
                    const char *const *args)
{
    char dir[300], script_path[400], out[400], err[400], screen_args[64];
    if (screen)
        snprintf(screen_args, sizeof screen_args, "-screen 0 %sx24", screen);
    x_run_dir("a", dir, sizeof dir);
    scratch_join(script_path, sizeof script_path, dir, name);
    scratch_join(out, sizeof out, scratch, "a.out");
    scratch_join(err, sizeof err, scratch, "a.err");
    scratch_write(script_path, script);
    const char *argv[40] = {"xvfb-run", "-a",       "-s",        screen ? screen_args : SCREEN_ARGS,
                            exe,        "--script", script_path, "--print-state"};
    int argc = 8;
    for (int k = 0; args && args[k]; k++) {
        assert_true(argc < 39);
        argv[argc++] = args[k];
    }
    argv[argc] = NULL;
    pid_t pid = spawn_start(
        argv, &(spawn_desc){.cwd = dir, .out = out, .err = err, .ppflow = true, .group = true});
    return spawn_finish_ok(pid, RUN_SECONDS, "ppflow --script under xvfb-run", out, err, NULL);
}
