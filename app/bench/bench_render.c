/* bench_render.c - `ppflow bench render`: frames per second offscreen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench.h"
#include "offscreen.h"
#include "render_command.h"
#include "session.h"
#include "viewer.h"

enum { RENDER_FRAMES = 60, RENDER_WARMUP = 5 };
/* The bar for a 4K frame on a GPU, offscreen: a machine with a GPU and no
 * display has only Xvfb's windows, which a CPU renders. On a CPU renderer
 * the figure is shown, not judged. */
enum { UHD_WIDTH = 3840, UHD_HEIGHT = 2160 }; /* its bar: bench_verdict.h */

/* Peak resident memory of this process so far, in MB (VmHWM), or -1. */
static double peak_rss_mb(void)
{
    char line[256];
    double kb = -1;
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0)
            kb = atof(line + 6);
    fclose(f);
    return kb < 0 ? -1 : kb / 1024;
}

/* Page faults of this process so far (all threads: llvmpipe's too). */
static long minor_faults(void)
{
    struct rusage u;
    return getrusage(RUSAGE_SELF, &u) == 0 ? u.ru_minflt : 0;
}

/* What a row measured, for a bar judged after the table. */
typedef struct render_row {
    double fps;
    char renderer[128]; /* GL_RENDERER */
} render_row;

/* Draws `frames` frames with t sweeping the iteration, waiting for each to
 * finish; prints one row, labelled with the scenario's schedule and sizes;
 * fills *out when it is not NULL. */
static bool bench_size(FILE *f, const char *label, const session_flag *flags, int flag_count,
                       session_show size, int frames, render_row *out, ppf_error *err)
{
    session s;
    offscreen o = {0};
    bool ok = session_build(&s, NULL, flags, flag_count, err) && session_build_scene(&s, err) &&
              offscreen_init(&o, &s, size.width, size.height, err);
    if (!ok) {
        session_deinit(&s);
        return false;
    }
    /* Frames with the 3D view's anti-aliasing as the window draws it on
     * this GL (scene_aa_for_renderer: a video's SCENE_AA_EDGE on llvmpipe,
     * multisampling on a GPU) alternate with frames without it (--aa off),
     * t sweeping the iteration
     * for both: the two medians share the machine's moments, so their
     * difference is the anti-aliasing's cost even where other work comes
     * and goes. Faults count the frames with it. */
    double *ms = ppf_malloc(sizeof(double) * (size_t)frames);
    double *ms_off = ppf_malloc(sizeof(double) * (size_t)frames);
    long faults = 0;
    const scene_aa_mode live = scene_aa_for_renderer(o.gl.renderer);
    for (int i = -RENDER_WARMUP; i < frames; i++) {
        for (int pass = 0; pass < 2; pass++) {
            const bool off = (pass + i) % 2 != 0; /* each first every other frame */
            const double t = s.tl.makespan * (i < 0 ? 0.5 : (i + (off ? 0.75 : 0.25)) / frames);
            frame_view v = offscreen_default_view(&o, t, THEME_DARK, CAMERA_PRESET_DEFAULT);
            v.aa = off ? SCENE_AA_OFF : live;
            const long f0 = minor_faults();
            double t0 = bench_now_ms();
            offscreen_draw(&o, &v);
            render_target_finish(&o.target);
            const double dt = bench_now_ms() - t0;
            if (i < 0)
                continue;
            *(off ? &ms_off[i] : &ms[i]) = dt;
            /* memory taken from the kernel again at every frame shows as faults */
            if (!off)
                faults += minor_faults() - f0;
        }
    }
    const double faults_per_frame = (double)faults / frames;
    stats st = summarise(ms, frames);
    const stats st_off = summarise(ms_off, frames);
    double worst = ms[frames - 1];
    char name[320], wxh[32];
    snprintf(name, sizeof name, "%s (%s P=%d M=%d D=%d)", label, s.sc.schedule, s.sc.stages,
             s.sc.microbatches, s.sc.dp);
    snprintf(wxh, sizeof wxh, "%dx%d", size.width, size.height);
    fprintf(f, "%-34s %9s %8.1f %8.2f %8.2f %8.1f %8.1f %9.1f\n", name, wxh, 1000 / st.median,
            st.median, worst, peak_rss_mb(), faults_per_frame, 1000 / st_off.median);
    fflush(f);
    if (out) {
        out->fps = 1000 / st.median;
        snprintf(out->renderer, sizeof out->renderer, "%s", o.gl.renderer);
    }
    free(ms);
    free(ms_off);
    offscreen_deinit(&o);
    session_deinit(&s);
    return true;
}

/* The viewer's window and `ppflow render`'s frame, at their defaults. */
static void bench_sizes(session_show *window, session_show *video)
{
    *window = viewer_options_defaults().show;
    *video = render_request_defaults().show;
}

void bench_render_help(char *out, size_t size)
{
    session_show window, video;
    bench_sizes(&window, &video);
    snprintf(out, size,
             "frames per second drawing offscreen (no vsync) at %dx%d and %dx%d, default scenario "
             "and D=8 P=16 M=64; D=8 P=64 M=512 and D=8 P=256 M=4096 at %dx%d; the default "
             "scenario at %dx%d against the bar for a GPU (%.0f fps)",
             window.width, window.height, video.width, video.height, window.width, window.height,
             UHD_WIDTH, UHD_HEIGHT, BENCH_UHD_GPU_FPS);
}

int bench_render(const bench_opts *o, FILE *f)
{
    int frames = o->repeat ? o->repeat * 10 : RENDER_FRAMES;
    ppf_error err = {{0}};
    static const session_flag large[] = {
        {"dp", "8"}, {"stages", "16"}, {"microbatches", "64"}, {"layers-per-stage", "2"}};
    static const session_flag huge[] = {{"dp", "8"}, {"stages", "64"}, {"microbatches", "512"}};
    static const session_flag vast[] = {{"dp", "8"}, {"stages", "256"}, {"microbatches", "4096"}};
    fprintf(f, "ppflow bench render: whole frames offscreen (EGL, no vsync), t sweeping the "
               "iteration, default camera and dark theme\n");
    print_machine(f);
    fprintf(f,
            "%d frames per row after %d warm-up frames; fps from the median frame time, with the "
            "3D view's anti-aliasing as the window draws it on this renderer (edge on a CPU "
            "rasteriser, msaa on a GPU); alternating with as many without it (aa off fps)\n\n",
            frames, RENDER_WARMUP);
    fprintf(f, "%-34s %9s %8s %8s %8s %8s %8s %9s\n", "scenario", "size", "fps", "median", "worst",
            "peak MB", "faults/f", "aa off fps");
    session_show window, video;
    bench_sizes(&window, &video);
    session_show uhd = video;
    uhd.width = UHD_WIDTH, uhd.height = UHD_HEIGHT;
    render_row at_uhd = {0};
    if (!bench_size(f, "default", NULL, 0, window, frames, NULL, &err) ||
        !bench_size(f, "default", NULL, 0, video, frames, NULL, &err) ||
        !bench_size(f, "large", large, 4, window, frames, NULL, &err) ||
        !bench_size(f, "large", large, 4, video, frames, NULL, &err) ||
        !bench_size(f, "huge", huge, 3, window, frames, NULL, &err) ||
        !bench_size(f, "vast", vast, 3, window, frames, NULL, &err) ||
        !bench_size(f, "default", NULL, 0, uhd, frames, &at_uhd, &err)) {
        ppf_print(stderr, "%s", err.message);
        return 1;
    }
    const char *r = at_uhd.renderer;
    fprintf(f,
            "\nrenderer: %s (anti-aliasing: %s)\ndefault scenario at %dx%d: %.1f fps  [bar with a "
            "GPU >= %.0f fps: %s]\n",
            r[0] ? r : "(unknown)", scene_aa_name(scene_aa_for_renderer(r[0] ? r : NULL)),
            UHD_WIDTH, UHD_HEIGHT, at_uhd.fps, BENCH_UHD_GPU_FPS, bench_judge_uhd(r, at_uhd.fps));
    return 0;
}
