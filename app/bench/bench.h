/* bench.h - `ppflow bench`: how fast the model is on this machine.
 *
 * Benchmarks, not tests: they print timings, and where a figure has a bar,
 * whether it is met (bench_verdict.h judges, the same for every bench and
 * tested on fixed inputs); tests/test_bench.c runs each once. Each
 * benchmark is a row of a table in bench.c (name, function, one line of
 * help):
 *
 *   schedule   every schedule generated and simulated at P=64, M=2048 with
 *              default costs (median and min over --repeat runs, default 7),
 *              then 1f1b at P=256, M=16384 (3 runs)
 *   render     frames per second of the whole frame (3D view, timeline, text)
 *              drawn offscreen with no vsync, at 1280x720 and 1920x1080, for
 *              the default scenario and a large one (D=8, P=16, M=64); t sweeps
 *              the iteration so every frame uploads new instances (bench_render.c)
 *   export     `ppflow render -o x.mp4` of the default scenario (1920x1080, 30 fps,
 *              10 s, veryfast, crf 20) against bare ffmpeg/libx264 fed the same
 *              raw frames, and the ratio; then the notebook's scene (gpipe D=2
 *              P=3 M=12, 1600x1600, 15 fps, 259 frames, medium, crf 23)
 *              (bench_export.c)
 *   palette    the GIF palette's steps (histogram, build, map, apply) on a
 *              1920x1080 diagram and on noise (bench_palette.c)
 *   rebuild    a live what-if change (the schedule, 1f1b <-> zb-h1) to program,
 *              timeline, scene and frame renderer ready, at P=16 M=64 D=8 (against
 *              the 16 ms bar) and P=64 M=512 D=8; medians (bench_rebuild.c)
 *   viewer     the live viewer in a window (DISPLAY, or an Xvfb of its own),
 *              playing under a script: fps from the viewer's own frame times,
 *              time to open, peak memory, against the bars of issue 15, for
 *              the default scenario at 1920x1080 and 1280x720 and D=8 with
 *              P=16 M=64, P=64 M=512, P=256 M=4096 at 1280x720; then brk, mmap
 *              and munmap calls and page faults per frame under strace
 *              (bench_viewer.c)
 *
 * Times come from clock_gettime(CLOCK_MONOTONIC); the header names the CPU
 * (from /proc/cpuinfo when it says).
 *
 * Call order: bench_main(argc, argv) with argv[0] == "bench".
 * Errors: one line `ppflow: <message>` on stderr and exit status 2 for an
 * unknown benchmark or option; 0 otherwise.
 */
#ifndef PPFLOW_BENCH_H
#define PPFLOW_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "bench_verdict.h" /* the bars' judgments, bench_cpu_renderer */

typedef struct bench_opts {
    int repeat; /* runs per measurement; 0 = the benchmark's default */
} bench_opts;

/* Median and minimum of samples. */
typedef struct stats {
    double median, min;
} stats;

/* Sorts the n samples and summarises them. */
stats summarise(double *v, int n);
/* Milliseconds from CLOCK_MONOTONIC. */
double bench_now_ms(void);
/* The "model name" line of /proc/cpuinfo, when there is one. */
void print_machine(FILE *f);

/* `ppflow bench render` (bench_render.c), and its line of --help. */
int bench_render(const bench_opts *o, FILE *f);
void bench_render_help(char *out, size_t size);
/* `ppflow bench export` (bench_export.c), and its line of --help. */
int bench_export(const bench_opts *o, FILE *f);
void bench_export_help(char *out, size_t size);
/* `ppflow bench palette` (bench_palette.c), and its line of --help. */
int bench_palette(const bench_opts *o, FILE *f);
void bench_palette_help(char *out, size_t size);

/* `ppflow bench rebuild` (bench_rebuild.c), and its line of --help. */
int bench_rebuild(const bench_opts *o, FILE *f);
void bench_rebuild_help(char *out, size_t size);
/* `ppflow bench viewer` (bench_viewer.c), and its line of --help. */
int bench_viewer(const bench_opts *o, FILE *f);
void bench_viewer_help(char *out, size_t size);

/* Runs `ppflow bench ...`; returns the exit status. */
int bench_main(int argc, char **argv);

/* Prints the benchmarks and their options, for --help. */
void bench_print_help(FILE *f);

#endif
