/* bench_export.c - `ppflow bench export`: ppflow's export against the bare
 * encoder on the same frames.
 *
 * ppflow's time is `ppflow render -o x.mp4` as a user runs it (drawing,
 * readback, colour conversion, encoding, muxing, the rename). The bare
 * encoder's time is `ffmpeg -f rawvideo -pix_fmt rgba ... -c:v libx264` fed
 * the very frames ppflow drew, through a pipe from a file written
 * beforehand: the cost of colour conversion and encoding alone, with nothing
 * drawn. Their ratio is what drawing costs on top of encoding; on this
 * 2-core machine llvmpipe draws on the cores that encode.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
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

enum { EXPORT_REPEAT = 3 };

typedef struct export_case {
    const char *label;
    const session_flag *flags;
    int flag_count;
    session_show show; /* frame size; the speed comes from seconds */
    encoder_video video;
    double seconds; /* of video for the whole iteration */
} export_case;

static double file_mb(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (double)st.st_size / 1e6 : -1;
}

/* ppflow's own export of c into path, n times; the median seconds. */
static bool time_ppflow(const export_case *c, session *s, const char *path, int n, double *median,
                        int64_t *frames, ppf_error *err)
{
    recorder_desc d = {.path = path, .show = c->show, .video = c->video, .t0 = 0};
    d.show.speed = s->tl.makespan / c->seconds;
    d.frames = recorder_frame_count(s->tl.makespan, d.video.fps, d.show.speed);
    double *sec = ppf_malloc(sizeof(double) * (size_t)n);
    for (int k = 0; k < n; k++) {
        recorder_result r;
        if (recorder_run(s, &d, &r, err) != RECORDER_DONE) {
            free(sec);
            return false;
        }
        sec[k] = r.seconds;
        *frames = r.frames;
    }
    *median = summarise(sec, n).median;
    free(sec);
    return true;
}

/* The frames of c as raw RGBA, top row first, one after another. */
static bool write_raw_frames(const export_case *c, session *s, const char *path, ppf_error *err)
{
    offscreen o;
    if (!offscreen_init(&o, s, c->show.width, c->show.height, err))
        return false;
    recorder_desc d = {.show = {.speed = s->tl.makespan / c->seconds}, .video = c->video};
    int64_t frames = recorder_frame_count(s->tl.makespan, d.video.fps, d.show.speed);
    size_t size = (size_t)c->show.width * (size_t)c->show.height * 4;
    uint8_t *rgba = ppf_malloc(size);
    FILE *f = fopen(path, "wb");
    bool ok = f != NULL;
    frame_view v = offscreen_default_view(&o, 0, c->show.theme, c->show.camera);
    for (int64_t i = 0; i < frames && ok; i++) {
        v.t = recorder_frame_time(&d, i);
        offscreen_draw(&o, &v);
        offscreen_read(&o, rgba);
        ok = fwrite(rgba, 1, size, f) == size;
    }
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        ppf_fail(err, "cannot write the raw frames to %s", path);
    free(rgba);
    offscreen_deinit(&o);
    return ok;
}

/* `cat raw | ffmpeg ...` n times; the median seconds, or false. */
static bool time_bare(const export_case *c, const char *raw, const char *out, int n, double *median,
                      ppf_error *err)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "cat '%s' | ffmpeg -nostdin -hide_banner -loglevel error -y -f rawvideo -pix_fmt rgba "
             "-s %dx%d -r %d -i pipe:0 -c:v libx264 -preset %s -crf %d -pix_fmt yuv420p "
             "-color_primaries bt709 -color_trc bt709 -colorspace bt709 -movflags +faststart "
             "'%s'",
             raw, c->show.width, c->show.height, c->video.fps, c->video.preset, c->video.crf, out);
    double *sec = ppf_malloc(sizeof(double) * (size_t)n);
    for (int k = 0; k < n; k++) {
        double t0 = bench_now_ms();
        int rc = system(cmd);
        sec[k] = (bench_now_ms() - t0) / 1000;
        if (rc != 0) {
            free(sec);
            return ppf_fail(err, "the bare encoder failed (exit %d): %s", rc, cmd);
        }
    }
    *median = summarise(sec, n).median;
    free(sec);
    return true;
}

static bool have_ffmpeg(void)
{
    return system("ffmpeg -hide_banner -loglevel quiet -version >/dev/null 2>&1") == 0;
}

/* The default scenario as `ppflow render` records it by default, in 10 s. */
static export_case standard_case(void)
{
    const render_request defaults = render_request_defaults();
    return (export_case){"default scenario", NULL, 0, defaults.show, defaults.video, 10};
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
                         17.27};
}

void bench_export_help(char *out, size_t size)
{
    const export_case s = standard_case(), n = notebook_case();
    snprintf(out, size,
             "ppflow render -o x.mp4 (%dx%d, %d fps, %g s, %s crf %d) against bare ffmpeg on the "
             "same frames (default %d runs); the notebook's scene at %dx%d %s",
             s.show.width, s.show.height, s.video.fps, s.seconds, s.video.preset, s.video.crf,
             EXPORT_REPEAT, n.show.width, n.show.height, n.video.preset);
}

int bench_export(const bench_opts *o, FILE *f)
{
    const int n = o->repeat ? o->repeat : EXPORT_REPEAT;
    const export_case standard = standard_case(), notebook = notebook_case();

    char dir[] = "/tmp/ppflow-bench-export.XXXXXX";
    if (!mkdtemp(dir)) {
        ppf_print(stderr, "cannot make a directory in /tmp");
        return 1;
    }
    char mp4[128], bare_mp4[128], raw[128];
    snprintf(mp4, sizeof mp4, "%s/ppflow.mp4", dir);
    snprintf(bare_mp4, sizeof bare_mp4, "%s/bare.mp4", dir);
    snprintf(raw, sizeof raw, "%s/frames.rgba", dir);

    encoder_quiet_ffmpeg();
    fprintf(f, "ppflow bench export: `ppflow render -o x.mp4` against `ffmpeg -f rawvideo "
               "-pix_fmt rgba ... -c:v libx264` fed the same frames through a pipe\n");
    print_machine(f);
    fprintf(f, "median of %d runs each; headless EGL; x264 threads auto in both\n\n", n);
    fprintf(f, "%-30s %9s %6s %9s %9s %8s %9s %8s %7s %8s\n", "scenario", "size", "frames",
            "preset", "ppflow s", "fps", "bare s", "fps", "ratio", "MB");

    ppf_error err = {{0}};
    int status = 0;
    const export_case *cases[] = {&standard, &notebook};
    for (int k = 0; k < 2 && status == 0; k++) {
        const export_case *c = cases[k];
        session s;
        double ours = 0, bare = 0;
        int64_t frames = 0;
        if (!session_build(&s, NULL, c->flags, c->flag_count, &err) ||
            !session_build_scene(&s, &err) || !time_ppflow(c, &s, mp4, n, &ours, &frames, &err)) {
            status = 1;
        } else if (k == 0 && have_ffmpeg()) {
            /* The bare encoder for the first case only: the notebook's row is
             * measured against the notebook's own 257 s. */
            if (!write_raw_frames(c, &s, raw, &err) || !time_bare(c, raw, bare_mp4, n, &bare, &err))
                status = 1;
            unlink(raw);
        }
        if (status == 0) {
            char size[32];
            snprintf(size, sizeof size, "%dx%d", c->show.width, c->show.height);
            fprintf(f, "%-30s %9s %6lld %9s %9.2f %8.1f", c->label, size, (long long)frames,
                    c->video.preset, ours, (double)frames / ours);
            if (bare > 0)
                fprintf(f, " %9.2f %8.1f %7.2f", bare, (double)frames / bare, ours / bare);
            else
                fprintf(f, " %9s %8s %7s", "-", "-", "-");
            fprintf(f, " %8.1f\n", file_mb(mp4));
            fflush(f);
        }
        session_deinit(&s);
        unlink(mp4);
        unlink(bare_mp4);
    }
    rmdir(dir);
    if (status != 0) {
        ppf_print(stderr, "%s", err.message);
        return status;
    }
    if (!have_ffmpeg())
        fprintf(f, "\n(no ffmpeg program: install the Debian package ffmpeg for the bare "
                   "encoder's column)\n");
    fprintf(f, "\nbars on a 2-core machine with llvmpipe: ratio <= 1.5 and >= 30 fps for the "
               "default scenario; on a GPU: ratio <= 1.1. The notebook needs about 257 s; "
               "bar: ppflow under 15 s\n");
    return 0;
}
