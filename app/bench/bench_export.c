/* bench_export.c - `ppflow bench export`: ppflow's export against the bare
 * encoder on the same frames.
 *
 * ppflow's time is the program run as a user runs it, `ppflow render -o
 * x.mp4` with the case's size, fps, duration, preset and crf (start-up,
 * drawing, readback, colour conversion, encoding, muxing, the rename). The
 * bare encoder's time is `ffmpeg -f rawvideo -pix_fmt rgba ... -i FILE -c:v
 * libx264` with the same settings, reading the very frames ppflow draws from
 * a file written beforehand (still in the page cache): colour conversion
 * and encoding alone, with nothing drawn. A pipe is no baseline: `cat FILE |
 * ffmpeg` runs 1.7 times slower on a 2-core machine and flatters ppflow.
 * The runs alternate (ppflow, bare, ppflow, bare ...) so that a neighbour's
 * load hits both alike; each side's median is printed, their ratio, and
 * the bar for it. The frames file and both videos are removed whatever
 * happens.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "encoder.h"
#include "offscreen.h"
#include "recorder.h"
#include "render_command.h"
#include "session.h"
#include "stop_signals.h"

enum { EXPORT_REPEAT = 3, FLAGS_MAX = 8 };

typedef struct export_case {
    const char *label;
    const session_flag *flags; /* scenario flags on top of the defaults */
    int flag_count;
    session_show show; /* frame size; the speed comes from seconds */
    encoder_video video;
    double seconds; /* of video for the whole iteration */
    double bar;     /* the most ppflow may take, in times the bare encoder's */
} export_case;

static double file_mb(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (double)st.st_size / 1e6 : -1;
}

/* Runs cmd through the shell; its wall seconds, or false when it failed. */
static bool run_timed(const char *cmd, double *seconds, ppf_error *err)
{
    const double t0 = bench_now_ms();
    const int rc = system(cmd);
    *seconds = (bench_now_ms() - t0) / 1000;
    if (rc != 0)
        return ppf_fail(err, "failed (status %d): %s", rc, cmd);
    return true;
}

/* `ppflow render` of c into out, as a user types it. */
static void ppflow_command(const export_case *c, const char *self, const char *out, char *cmd,
                           size_t size)
{
    int n = snprintf(cmd, size,
                     "'%s' render --quiet --size %dx%d --fps %d --crf %d --preset %s "
                     "--duration %g",
                     self, c->show.width, c->show.height, c->video.fps, c->video.crf,
                     c->video.preset, c->seconds);
    for (int k = 0; k < c->flag_count && n > 0 && (size_t)n < size; k++)
        n += snprintf(cmd + n, size - (size_t)n, " --%s %s", c->flags[k].field, c->flags[k].value);
    if (n > 0 && (size_t)n < size)
        snprintf(cmd + n, size - (size_t)n, " -o '%s'", out);
}

/* The bare encoder with ppflow's settings (app/export/encoder.c): libx264,
 * the preset and crf, threads auto, yuv420p converted by libswscale from
 * full-range RGBA to BT.709 limited range and tagged so, +faststart. */
static void bare_command(const export_case *c, const char *raw, const char *out, char *cmd,
                         size_t size)
{
    snprintf(cmd, size,
             "ffmpeg -nostdin -hide_banner -loglevel error -y -f rawvideo -pix_fmt rgba "
             "-s %dx%d -r %d -i '%s' -vf scale=out_color_matrix=bt709:out_range=tv:flags=bilinear "
             "-c:v libx264 -preset %s -crf %d -pix_fmt yuv420p -color_range tv "
             "-color_primaries bt709 -color_trc bt709 -colorspace bt709 -movflags +faststart "
             "'%s'",
             c->show.width, c->show.height, c->video.fps, raw, c->video.preset, c->video.crf, out);
}

/* The frames of c as raw RGBA, top row first, one after another; the GL
 * renderer that drew them into renderer[renderer_size]. */
static bool write_raw_frames(const export_case *c, session *s, const char *path, char *renderer,
                             size_t renderer_size, ppf_error *err)
{
    offscreen o;
    if (!offscreen_init(&o, s, c->show.width, c->show.height, err))
        return false;
    snprintf(renderer, renderer_size, "%s", o.gl.renderer);
    recorder_desc d = {.show = {.speed = s->tl.makespan / c->seconds}, .video = c->video};
    int64_t frames = recorder_frame_count(s->tl.makespan, d.video.fps, d.show.speed);
    size_t size = (size_t)c->show.width * (size_t)c->show.height * 4;
    uint8_t *rgba = ppf_malloc(size);
    FILE *f = fopen(path, "wb");
    bool ok = f != NULL;
    frame_view v = offscreen_default_view(&o, 0, c->show.theme, c->show.camera);
    for (int64_t i = 0; i < frames && ok && !*stop_signals_flag(); i++) {
        v.t = recorder_frame_time(&d, i);
        offscreen_draw(&o, &v);
        offscreen_read(&o, rgba);
        ok = fwrite(rgba, 1, size, f) == size;
    }
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        ppf_fail(err, "cannot write the raw frames to %s", path);
    else if (*stop_signals_flag())
        ok = ppf_fail(err, "bench export: stopped");
    free(rgba);
    offscreen_deinit(&o);
    return ok;
}

/* Drawing shares the encoder's cores on one of Mesa's CPU renderers; a
 * GPU's takes it off them, and the bar tightens (bench_export_bar). */

static bool have_ffmpeg(void)
{
    return system("ffmpeg -hide_banner -loglevel quiet -version >/dev/null 2>&1") == 0;
}

/* The default scenario as `ppflow render` records it by default, in 10 s. */
static export_case standard_case(void)
{
    const render_request defaults = render_request_defaults();
    return (export_case){"default scenario", NULL, 0, defaults.show, defaults.video, 10, 1.25};
}

/* The notebook's figure: 1600x1600, 15 fps, its 17.27 s. */
static export_case notebook_case(void)
{
    static const session_flag notebook_flags[] = {{"schedule", "gpipe"},
                                                  {"dp", "2"},
                                                  {"stages", "3"},
                                                  {"layers-per-stage", "2"},
                                                  {"microbatches", "12"}};
    return (export_case){"notebook (gpipe D=2 P=3 M=12)",
                         notebook_flags,
                         5,
                         {.width = 1600, .height = 1600},
                         {.fps = 15, .crf = 23, .preset = "medium"},
                         17.27,
                         1.15};
}

void bench_export_help(char *out, size_t size)
{
    const export_case s = standard_case(), n = notebook_case();
    snprintf(out, size,
             "ppflow render -o x.mp4 (%dx%d, %d fps, %g s, %s crf %d) against bare ffmpeg reading "
             "the same frames from a file (default %d paired runs; bar %.2fx); the notebook's "
             "scene at %dx%d %s (bar %.2fx)",
             s.show.width, s.show.height, s.video.fps, s.seconds, s.video.preset, s.video.crf,
             EXPORT_REPEAT, s.bar, n.show.width, n.show.height, n.video.preset, n.bar);
}

typedef struct export_paths {
    char dir[64], mp4[96], bare_mp4[96], raw[96];
} export_paths;

/* One case: the raw frames written, then n paired runs; one row. */
static bool bench_case(const export_case *c, const export_paths *p, const char *self, bool bare,
                       int n, FILE *f, ppf_error *err)
{
    session s;
    char ours_cmd[PATH_MAX + 512], bare_cmd[1024];
    double *ours = ppf_calloc((size_t)n, sizeof(double)),
           *theirs = ppf_calloc((size_t)n, sizeof(double));
    char renderer[128] = "";
    bool ok = session_build(&s, NULL, c->flags, c->flag_count, err) &&
              session_build_scene(&s, err) &&
              (!bare || write_raw_frames(c, &s, p->raw, renderer, sizeof renderer, err));
    const double bar = bench_export_bar(c->bar, renderer);
    const int64_t frames =
        ok ? recorder_frame_count(s.tl.makespan, c->video.fps, s.tl.makespan / c->seconds) : 0;
    session_deinit(&s);
    ppflow_command(c, self, p->mp4, ours_cmd, sizeof ours_cmd);
    bare_command(c, p->raw, p->bare_mp4, bare_cmd, sizeof bare_cmd);
    for (int k = 0; k < n && ok; k++) {
        ok = run_timed(ours_cmd, &ours[k], err) && (!bare || run_timed(bare_cmd, &theirs[k], err));
        if (ok && *stop_signals_flag())
            ok = ppf_fail(err, "bench export: stopped");
    }
    if (ok) {
        const double mb = file_mb(p->mp4);
        const double a = summarise(ours, n).median, b = bare ? summarise(theirs, n).median : 0;
        char size[32];
        snprintf(size, sizeof size, "%dx%d", c->show.width, c->show.height);
        fprintf(f, "%-30s %9s %6lld %8s %8.2f %6.1f", c->label, size, (long long)frames,
                c->video.preset, a, (double)frames / a);
        if (bare) {
            fprintf(f, " %8.2f %6.1f %6.2fx %6.2fx  %s", b, (double)frames / b, a / b, bar,
                    bench_judge_ratio(a, b, bar));
        } else {
            fprintf(f, " %8s %6s %7s %6.2fx  %s", "-", "-", "-", bar, "not judged");
        }
        fprintf(f, " %6.1f MB", mb);
        if (renderer[0])
            fprintf(f, "  (%s)", renderer);
        fprintf(f, "\n");
        fflush(f);
    }
    unlink(p->raw);
    unlink(p->mp4);
    unlink(p->bare_mp4);
    free(ours);
    free(theirs);
    return ok;
}

int bench_export(const bench_opts *o, FILE *f)
{
    const int n = o->repeat ? o->repeat : EXPORT_REPEAT;
    const export_case standard = standard_case(), notebook = notebook_case();

    char self[PATH_MAX];
    const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) {
        ppf_print(stderr, "bench export: cannot find this program (/proc/self/exe)");
        return 1;
    }
    self[len] = '\0';
    export_paths p;
    snprintf(p.dir, sizeof p.dir, "/tmp/ppflow-bench-export.XXXXXX");
    if (!mkdtemp(p.dir)) {
        ppf_print(stderr, "cannot make a directory in /tmp");
        return 1;
    }
    snprintf(p.mp4, sizeof p.mp4, "%s/ppflow.mp4", p.dir);
    snprintf(p.bare_mp4, sizeof p.bare_mp4, "%s/bare.mp4", p.dir);
    snprintf(p.raw, sizeof p.raw, "%s/frames.rgba", p.dir);

    const bool bare = have_ffmpeg();
    encoder_quiet_ffmpeg();
    fprintf(f, "ppflow bench export: `ppflow render -o x.mp4` against `ffmpeg -f rawvideo "
               "-pix_fmt rgba ... -i FRAMES -c:v libx264`, the bare encoder reading the same "
               "frames from a file\n");
    print_machine(f);
    fprintf(f,
            "median of %d paired runs each (ppflow, bare, ppflow, bare ...), wall seconds of "
            "the whole program; headless EGL; x264 threads auto in both\n\n",
            n);
    fprintf(f, "%-30s %9s %6s %8s %8s %6s %8s %6s %7s %7s  %-10s %9s\n", "scenario", "size",
            "frames", "preset", "ppflow s", "fps", "bare s", "fps", "ratio", "bar", "verdict",
            "ppflow MP4");

    ppf_error err = {{0}};
    int status = 0;
    const export_case *cases[] = {&standard, &notebook};
    /* ctrl+C stops between frames or runs (a child it interrupts fails),
     * so that the gigabytes of raw frames never stay behind. */
    stop_signals saved;
    stop_signals_install(&saved);
    for (int k = 0; k < 2 && status == 0; k++)
        if (!bench_case(cases[k], &p, self, bare, n, f, &err))
            status = stop_signals_caught() ? 130 : 1;
    stop_signals_restore(&saved);
    rmdir(p.dir);
    if (status != 0) {
        ppf_print(stderr, "%s", err.message);
        return status;
    }
    if (!bare)
        fprintf(f, "\n(no ffmpeg program: install the Debian package ffmpeg for the bare "
                   "encoder's column and the verdicts)\n");
    fprintf(f,
            "\nbars: ppflow's time at most the ratio above times the bare encoder's; "
            "%.2fx when the renderer named after the row is a GPU's (on a CPU renderer the "
            "drawing shares the cores that encode). For scale: the notebook this scene comes "
            "from took about 257 s to make its video.\n",
            BENCH_EXPORT_GPU_BAR);
    return 0;
}
