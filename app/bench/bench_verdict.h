/* bench_verdict.h - whether a benchmark's figures meet their bars: the
 * judgments `ppflow bench` prints, apart from the measuring, so that tests
 * hold them to fixed inputs (tests/test_bench.c).
 *
 * The bars (bench.h, README "Performance"):
 *   viewer   per row, any of: at least a frame rate, opening in under some
 *            seconds, a peak under some megabytes; a row with none is "-"
 *   heap     no brk a frame and under one page fault a frame, playing
 *   export   ppflow's time over the bare encoder's at most the case's bar
 *            on a CPU renderer, BENCH_EXPORT_GPU_BAR on a GPU's (never looser)
 *   render   the default scenario at 3840x2160 at BENCH_UHD_GPU_FPS or more,
 *            judged only on a GPU's renderer
 *   rebuild  a what-if's rebuild within one frame at 60 Hz
 * A CPU renderer is one of Mesa's (llvmpipe, softpipe, swrast), named in
 * GL_RENDERER.
 *
 * What it does not do: measure, print rows, or touch GL. Pure functions.
 */
#ifndef PPFLOW_BENCH_VERDICT_H
#define PPFLOW_BENCH_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#define BENCH_EXPORT_GPU_BAR 1.10 /* drawing is off the encoder's cores on a GPU */
#define BENCH_UHD_GPU_FPS 240.0
#define BENCH_REBUILD_FRAME_MS 16.0 /* one frame at 60 Hz */

/* A viewer row's bars; 0: none of that kind. */
typedef struct bench_bars {
    double min_fps;
    double max_open_s;
    double max_mb;
} bench_bars;

/* Whether a GL_RENDERER string names one of Mesa's CPU renderers. */
bool bench_cpu_renderer(const char *renderer);
/* "met" or "missed" for a viewer row's figures against its bars, "-" when
 * it has none; the bars as text into bar[size] (">= 30 fps, opens < 1 s,
 * < 300 MB", or "-"). */
const char *bench_judge_viewer(const bench_bars *b, double fps, double open_s, double mb, char *bar,
                               size_t size);
/* Whether playing took no brk and under one page fault a frame. */
bool bench_heap_met(double brk_per_frame, double faults_per_frame);
/* The export's bar for a case whose own is case_bar, drawn by renderer
 * ("" when unknown: the case's). */
double bench_export_bar(double case_bar, const char *renderer);
/* "bar met" or "bar missed": ours over bare within bar. */
const char *bench_judge_ratio(double ours, double bare, double bar);
/* The 4K row: "not judged, a CPU renderer", "met" or "missed". */
const char *bench_judge_uhd(const char *renderer, double fps);
/* Whether a rebuild's median fits one frame at 60 Hz. */
bool bench_rebuild_met(double median_ms);

#endif
