/* bench_viewer.c - `ppflow bench viewer`: the live viewer as its user sees
 * it, in a window.
 *
 * Each row runs ppflow itself (this executable) on a scenario with a window
 * of the row's size and a script of the kind the window tests use
 * (viewer_script.h): one frame, `frametimes 1` (its arrival on our pipe is
 * the time to open: from before the fork to the first frame shown), space
 * (play), warm-up frames, `frametimes 1`, N frames, `frametimes N`, quit.
 * The frame times are the viewer's own (frame_times.h: swap to swap); fps
 * is 1000 / the median frame time; page faults per frame are the difference
 * of the process's minor faults between the last two `frametimes` lines;
 * peak memory is the child's ru_maxrss from wait4 (its VmHWM). A scenario
 * the viewer refuses (core/scenario/budget.c) prints the refusal as the row's result.
 *
 * The heap row runs the 1920x1080 default row under `strace -f -e
 * trace=brk,mmap,munmap,write` and counts the calls between the two last
 * `frametimes` writes: heap taken from and given back to the kernel per
 * frame in steady state.
 *
 * The display: $DISPLAY when set; else an Xvfb of our own (-displayfd
 * picks a free display number), stopped at the end; the output says which.
 * The viewer asks for vsync (swap interval 1); an Xvfb has no vertical
 * blank, so its swaps do not wait, and children get vblank_mode=0 and
 * __GL_SYNC_TO_VBLANK=0 (Mesa's and NVIDIA's switches, unless already set)
 * so that a real display does not cap the rate at its refresh either.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#define _DEFAULT_SOURCE /* wait4: the child's own peak memory */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "error.h"
#include "quote.h"

enum {
    VIEWER_REPEAT = 3,    /* runs per row unless --repeat */
    RUN_SECONDS = 300,    /* the longest one run may take before it is killed */
    XVFB_SECONDS = 20,    /* for Xvfb to accept connections */
    LINE_MAX_BYTES = 512, /* a frametimes line */
    MARKS = 3,            /* frametimes lines a run prints */
    HEAP_WARMUP = 60,     /* frames before the heap is counted */
    HEAP_FRAMES = 120,    /* frames it is counted over */
    VIEWER_RUNS_MAX = 15, /* --repeat at most, here */
};

/* One row: a scenario, a window size, how many frames, and the bar. */
typedef struct viewer_row {
    const char *label;
    const char *flags[8]; /* scenario flags, NULL-terminated */
    int width, height;
    int warmup, frames;
    double min_fps;  /* 0: no bar */
    double max_open; /* seconds; 0: no bar */
    double max_mb;   /* 0: no bar */
} viewer_row;

static const viewer_row rows[] = {
    {"default", {NULL}, 1920, 1080, 30, 240, 60, 0, 0},
    {"default", {NULL}, 1280, 720, 30, 240, 0, 0, 0},
    {"D=8 P=16 M=64",
     {"--dp", "8", "--stages", "16", "--microbatches", "64", NULL},
     1280,
     720,
     20,
     180,
     60,
     0,
     0},
    {"D=8 P=64 M=512",
     {"--dp", "8", "--stages", "64", "--microbatches", "512", NULL},
     1280,
     720,
     5,
     30,
     30,
     1,
     300},
    {"D=8 P=256 M=4096",
     {"--dp", "8", "--stages", "256", "--microbatches", "4096", NULL},
     1280,
     720,
     5,
     30,
     20,
     2,
     500},
};

/* What one run of the viewer gave. */
typedef struct viewer_run {
    bool ok;          /* it ran the script and exited 0 */
    char error[400];  /* else why: the viewer's own line, or ours */
    double open_s;    /* fork to the first frame shown */
    double median_ms; /* of the measured frames */
    double worst_ms;  /* of the measured frames */
    double peak_mb;   /* ru_maxrss */
    double faults;    /* minor faults per measured frame */
    long calls[3];    /* the heap row: brk, mmap, munmap between the last two marks */
} viewer_run;

/* ---- the display ------------------------------------------------------------ */

/* An Xvfb of our own, when there is no display: its pid, 0 for none. */
static pid_t start_xvfb(FILE *f)
{
    int fds[2];
    if (pipe(fds) != 0)
        return 0;
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        char fd_arg[16];
        snprintf(fd_arg, sizeof fd_arg, "%d", fds[1]);
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
        }
        execlp("Xvfb", "Xvfb", "-displayfd", fd_arg, "-screen", "0", "1920x1080x24", "-nolisten",
               "tcp", (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return 0;
    }
    /* Xvfb writes the display number once it accepts connections. */
    char buf[32] = "";
    size_t n = 0;
    const double end = bench_now_ms() + XVFB_SECONDS * 1e3;
    while (n < sizeof buf - 1 && !strchr(buf, '\n') && bench_now_ms() < end) {
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
        kill(pid, SIGTERM);
        waitpid(pid, NULL, 0);
        return 0;
    }
    char display[16];
    snprintf(display, sizeof display, ":%d", number);
    setenv("DISPLAY", display, 1);
    fprintf(f,
            "display: DISPLAY was unset: started Xvfb %s -screen 0 1920x1080x24 (pid %d), "
            "stopped at the end\n",
            display, (int)pid);
    return pid;
}

static void stop_xvfb(pid_t pid)
{
    if (pid <= 0)
        return;
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    unsetenv("DISPLAY");
}

/* ---- one run ----------------------------------------------------------------- */

/* The script of a run: open, play, warm up, measure. */
static bool write_script(const char *path, int warmup, int frames)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fprintf(f,
            "frames 1\nframetimes 1\nkey space\nframes %d\nframetimes 1\nframes %d\n"
            "frametimes %d\nquit\n",
            warmup, frames, frames);
    return fclose(f) == 0;
}

/* The first line of a file, without "ppflow: " and the line end. */
static void first_line(const char *path, char *out, size_t size)
{
    out[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[512];
    if (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        snprintf(out, size, "%.300s", strncmp(line, "ppflow: ", 8) == 0 ? line + 8 : line);
    }
    fclose(f);
}

/* Runs argv (argv[0] looked up on PATH) with stdout into our pipe and stderr
 * into err_path; records the time each `frametimes` line arrives and the
 * line; returns the number of such lines (at most MARKS), the exit status
 * in *status (-1: killed at the deadline) and the child's usage in *use. */
static int run_child(char *const *argv, const char *err_path, double t[MARKS],
                     char lines[MARKS][LINE_MAX_BYTES], int *status, struct rusage *use)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    const double t0 = bench_now_ms();
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], STDOUT_FILENO);
        int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (err >= 0)
            dup2(err, STDERR_FILENO);
        execvp(argv[0], argv);
        fprintf(stderr, "ppflow: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return -1;
    }
    int marks = 0;
    char buf[LINE_MAX_BYTES];
    size_t n = 0;
    bool killed = false;
    const double end = t0 + RUN_SECONDS * 1e3;
    for (;;) {
        struct pollfd p = {.fd = fds[0], .events = POLLIN};
        const double left = end - bench_now_ms();
        if (left <= 0) {
            kill(pid, SIGKILL);
            killed = true;
            break;
        }
        if (poll(&p, 1, (int)(left < 1000 ? left + 1 : 1000)) <= 0)
            continue;
        ssize_t got = read(fds[0], buf + n, sizeof buf - 1 - n);
        if (got <= 0)
            break;
        const double now = bench_now_ms();
        n += (size_t)got;
        buf[n] = '\0';
        char *nl;
        while ((nl = strchr(buf, '\n')) != NULL) {
            *nl = '\0';
            if (strncmp(buf, "frametimes ", 11) == 0 && marks < MARKS) {
                t[marks] = (now - t0) / 1e3;
                snprintf(lines[marks++], LINE_MAX_BYTES, "%s", buf);
            }
            n -= (size_t)(nl + 1 - buf);
            memmove(buf, nl + 1, n + 1);
        }
        if (n == sizeof buf - 1) /* a line too long for us: not ours */
            n = 0;
    }
    close(fds[0]);
    int wstatus = 0;
    wait4(pid, &wstatus, 0, use);
    *status = killed ? -1 : WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
    return marks;
}

/* A number after "key=" in a frametimes line; -1 when absent. */
static double field(const char *line, const char *key)
{
    char pat[32];
    snprintf(pat, sizeof pat, " %s=", key);
    const char *p = strstr(line, pat);
    return p ? atof(p + strlen(pat)) : -1;
}

/* Why a run gave no figures, into r->error. */
static void run_failed(viewer_run *r, int marks, int status, const char *err_path)
{
    char line[sizeof r->error];
    first_line(err_path, line, sizeof line);
    /* the child's own words, shown by quote.h's rule like every text read */
    quote_text(r->error, sizeof r->error, line);
    if (r->error[0])
        return;
    if (status == -1)
        snprintf(r->error, sizeof r->error, "killed after %d s", RUN_SECONDS);
    else
        snprintf(r->error, sizeof r->error, "exit status %d after %d of %d frametimes lines",
                 status, marks < 0 ? 0 : marks, MARKS);
}

/* Runs the viewer on a row once (under strace when trace is a path). */
static viewer_run run_viewer(const char *exe, const char *dir, const viewer_row *row,
                             const char *trace)
{
    viewer_run r = {0};
    char script[512], err[512], size[32];
    snprintf(script, sizeof script, "%s/play.script", dir);
    snprintf(err, sizeof err, "%s/stderr.txt", dir);
    snprintf(size, sizeof size, "%dx%d", row->width, row->height);
    if (!write_script(script, row->warmup, row->frames)) {
        snprintf(r.error, sizeof r.error, "cannot write %.300s", script);
        return r;
    }
    char *argv[32];
    int argc = 0;
    if (trace) {
        static char *const strace[] = {
            "strace", "-f", "-qq", "-s", "40", "-e", "trace=brk,mmap,munmap,write", "-o"};
        for (size_t k = 0; k < sizeof strace / sizeof strace[0]; k++)
            argv[argc++] = strace[k];
        argv[argc++] = (char *)trace;
    }
    argv[argc++] = (char *)exe;
    for (int k = 0; row->flags[k]; k++)
        argv[argc++] = (char *)row->flags[k];
    argv[argc++] = "--size";
    argv[argc++] = size;
    argv[argc++] = "--script";
    argv[argc++] = script;
    argv[argc] = NULL;

    double t[MARKS];
    char lines[MARKS][LINE_MAX_BYTES];
    int status = 0;
    struct rusage use = {0};
    const int marks = run_child(argv, err, t, lines, &status, &use);
    if (marks != MARKS || status != 0) {
        run_failed(&r, marks, status, err);
        return r;
    }
    r.ok = true;
    r.open_s = t[0];
    r.median_ms = field(lines[2], "median_ms");
    r.worst_ms = field(lines[2], "worst_ms");
    r.faults = (field(lines[2], "minor_faults") - field(lines[1], "minor_faults")) / row->frames;
    r.peak_mb = (double)use.ru_maxrss / 1024;
    return r;
}

/* ---- the heap row's syscalls ------------------------------------------------------ */

/* Counts brk, mmap and munmap in strace's output between the second and
 * third frametimes writes (the warm-up's end and the measure's); false when
 * the marks are not there. */
static bool count_calls(const char *path, long calls[3])
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    static const char *const names[3] = {"brk(", "mmap(", "munmap("};
    char line[1024];
    int marks = 0;
    while (fgets(line, sizeof line, f) && marks < 3) {
        if (strstr(line, "write(1, \"frametimes ")) {
            marks++;
            continue;
        }
        if (marks != 2 || strstr(line, "resumed>"))
            continue;
        /* "PID name(" : the call's name follows the pid */
        const char *p = line + strspn(line, "0123456789 ");
        for (int k = 0; k < 3; k++)
            if (strncmp(p, names[k], strlen(names[k])) == 0)
                calls[k]++;
    }
    fclose(f);
    return marks >= 3;
}

/* ---- the table ----------------------------------------------------------------- */

static double median_of(double *v, int n)
{
    return summarise(v, n).median;
}

/* "met" or "missed" for a row's figures against its bar; the bar into bar[]. */
static const char *judge(const viewer_row *row, double fps, double open_s, double mb, char *bar,
                         size_t size)
{
    const bench_bars b = {row->min_fps, row->max_open, row->max_mb};
    return bench_judge_viewer(&b, fps, open_s, mb, bar, size);
}

static void print_row(FILE *f, const viewer_row *row, const viewer_run *runs, int n)
{
    char size[32], bar[96];
    snprintf(size, sizeof size, "%dx%d", row->width, row->height);
    double fps[VIEWER_RUNS_MAX], open_s[VIEWER_RUNS_MAX], mb[VIEWER_RUNS_MAX],
        worst[VIEWER_RUNS_MAX], faults[VIEWER_RUNS_MAX];
    int ok = 0;
    for (int k = 0; k < n; k++)
        if (runs[k].ok) {
            fps[ok] = runs[k].median_ms > 0 ? 1e3 / runs[k].median_ms : 0;
            open_s[ok] = runs[k].open_s;
            mb[ok] = runs[k].peak_mb;
            worst[ok] = runs[k].worst_ms;
            faults[ok++] = runs[k].faults;
        }
    if (ok == 0) {
        judge(row, 0, 0, 0, bar, sizeof bar);
        fprintf(f, "%-18s %9s  refused or failed: %s  [bar %s: missed]\n", row->label, size,
                runs[0].error, bar);
        fflush(f);
        return;
    }
    const double m_fps = median_of(fps, ok), m_open = median_of(open_s, ok),
                 m_mb = median_of(mb, ok);
    const char *verdict = judge(row, m_fps, m_open, m_mb, bar, sizeof bar);
    fprintf(f, "%-18s %9s %7.1f %8.1f %7.2f %8.0f %8.1f  %-32s %s\n", row->label, size, m_fps,
            median_of(worst, ok), m_open, m_mb, median_of(faults, ok), bar, verdict);
    for (int k = 0; k < n && ok < n; k++)
        if (!runs[k].ok) {
            fprintf(f, "%-18s %9s  (%d of %d runs failed, the first: %s)\n", "", "", n - ok, n,
                    runs[k].error);
            break;
        }
    fflush(f);
}

/* The heap row: the 1920x1080 default row under strace. */
static void heap_row(FILE *f, const char *exe, const char *dir)
{
    viewer_row row = rows[0];
    row.warmup = HEAP_WARMUP;
    row.frames = HEAP_FRAMES;
    char trace[512];
    snprintf(trace, sizeof trace, "%s/strace.txt", dir);
    viewer_run r = run_viewer(exe, dir, &row, trace);
    long calls[3] = {0};
    if (!r.ok || !count_calls(trace, calls)) {
        fprintf(f, "heap per frame, default 1920x1080: not measured: %s\n",
                r.ok ? "no frametimes marks in strace's output" : r.error);
        return;
    }
    const double brk = (double)calls[0] / row.frames;
    const bool met = bench_heap_met(brk, r.faults);
    fprintf(f,
            "heap per frame, default 1920x1080, %d frames after %d: %.2f brk, %.2f mmap, %.2f "
            "munmap, %.1f page faults  [bar 0 brk, < 1 fault: %s]\n",
            row.frames, row.warmup, brk, (double)calls[1] / row.frames,
            (double)calls[2] / row.frames, r.faults, met ? "met" : "missed");
}

void bench_viewer_help(char *out, size_t size)
{
    snprintf(out, size,
             "the live viewer in a window (an Xvfb of its own without DISPLAY): fps while "
             "playing, time to open, peak memory, against the issue's bars; heap calls per frame "
             "under strace");
}

int bench_viewer(const bench_opts *o, FILE *f)
{
    const int repeat = o->repeat ? o->repeat : VIEWER_REPEAT;
    if (repeat > VIEWER_RUNS_MAX) {
        ppf_print(stderr, "bench viewer: --repeat %d: at most %d", repeat, VIEWER_RUNS_MAX);
        return 2;
    }
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) {
        ppf_print(stderr, "bench viewer: cannot find this program (/proc/self/exe)");
        return 1;
    }
    exe[len] = '\0';
    char dir[] = "/tmp/ppflow-bench-viewer-XXXXXX";
    if (!mkdtemp(dir)) {
        ppf_print(stderr, "bench viewer: cannot make a folder in /tmp: %s", strerror(errno));
        return 1;
    }
    fprintf(f, "ppflow bench viewer: the live viewer in a window, playing, under a script "
               "(frame times measured by the viewer, swap to swap)\n");
    print_machine(f);
    pid_t xvfb = 0;
    const char *display = getenv("DISPLAY");
    if (display && display[0]) {
        fprintf(f, "display: DISPLAY=%s\n", quote_path(display).s);
    } else if ((xvfb = start_xvfb(f)) == 0) {
        ppf_print(stderr, "bench viewer: DISPLAY is unset and Xvfb could not be started (is the "
                          "xvfb package installed?)");
        rmdir(dir);
        return 1;
    }
    setenv("vblank_mode", "0", 0);
    setenv("__GL_SYNC_TO_VBLANK", "0", 0);
    fprintf(f, "no vsync cap: vblank_mode=%s __GL_SYNC_TO_VBLANK=%s (an Xvfb's swaps never wait)\n",
            quote_path(getenv("vblank_mode")).s, quote_path(getenv("__GL_SYNC_TO_VBLANK")).s);
    fprintf(f,
            "%d runs per row, medians; fps = 1000 / the median frame time; open = process start "
            "to the first frame shown; peak MB = ru_maxrss\n\n",
            repeat);
    fprintf(f, "%-18s %9s %7s %8s %7s %8s %8s  %-32s %s\n", "scenario", "size", "fps", "worst ms",
            "open s", "peak MB", "faults/f", "bar", "");
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        viewer_run runs[VIEWER_RUNS_MAX];
        for (int i = 0; i < repeat; i++) {
            runs[i] = run_viewer(exe, dir, &rows[k], NULL);
            if (!runs[i].ok && i == 0) { /* refused: no point in asking again */
                print_row(f, &rows[k], runs, 1);
                goto next;
            }
        }
        print_row(f, &rows[k], runs, repeat);
    next:;
    }
    fputc('\n', f);
    heap_row(f, exe, dir);
    stop_xvfb(xvfb);
    char path[600];
    static const char *const files[] = {"play.script", "stderr.txt", "strace.txt"};
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[k]);
        unlink(path);
    }
    rmdir(dir);
    return 0;
}
