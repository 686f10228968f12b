/* bench_verdict.c - the bars' judgments. See bench_verdict.h. */
#include "bench_verdict.h"

#include "gl_context.h"

#include <stdio.h>
#include <string.h>

bool bench_cpu_renderer(const char *renderer)
{
    return gl_renderer_on_cpu(renderer);
}

const char *bench_judge_viewer(const bench_bars *b, double fps, double open_s, double mb, char *bar,
                               size_t size)
{
    bool met = true;
    size_t at = 0;
    bar[0] = '\0';
    if (b->min_fps > 0) {
        at += (size_t)snprintf(bar + at, size - at, ">= %.0f fps", b->min_fps);
        met &= fps >= b->min_fps;
    }
    if (b->max_open_s > 0 && at < size) {
        at += (size_t)snprintf(bar + at, size - at, "%sopens < %.0f s", at ? ", " : "",
                               b->max_open_s);
        met &= open_s < b->max_open_s;
    }
    if (b->max_mb > 0 && at < size) {
        snprintf(bar + at, size - at, "%s< %.0f MB", at ? ", " : "", b->max_mb);
        met &= mb < b->max_mb;
    }
    if (!bar[0]) {
        snprintf(bar, size, "-");
        return "-";
    }
    return met ? "met" : "missed";
}

bool bench_heap_met(double brk_per_frame, double faults_per_frame)
{
    return brk_per_frame == 0 && faults_per_frame < 1;
}

double bench_export_bar(double case_bar, const char *renderer)
{
    if (!renderer[0] || bench_cpu_renderer(renderer))
        return case_bar;
    return case_bar < BENCH_EXPORT_GPU_BAR ? case_bar : BENCH_EXPORT_GPU_BAR;
}

const char *bench_judge_ratio(double ours, double bare, double bar)
{
    return bare > 0 && ours / bare <= bar ? "bar met" : "bar missed";
}

const char *bench_judge_uhd(const char *renderer, double fps)
{
    return bench_cpu_renderer(renderer) ? "not judged, a CPU renderer"
           : fps >= BENCH_UHD_GPU_FPS   ? "met"
                                        : "missed";
}

bool bench_rebuild_met(double median_ms)
{
    return median_ms <= BENCH_REBUILD_FRAME_MS;
}
