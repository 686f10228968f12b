/* render_command.c - options to frames to a file. See render_command.h. */
#include "render_command.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "encoder.h"
#include "image_png.h"
#include "offscreen.h"
#include "output.h"
#include "recorder.h"

/* Set by SIGINT and SIGTERM while recording; the recorder polls it. */
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
    stop_signal = sig;
}

/* Mesa's libEGL prints its own warnings while it looks for a display
 * ("failed to open swrast"); when none is found, ppflow's one line already
 * says what was tried and what to install. A user's own EGL_LOG_LEVEL wins. */
static void quiet_egl_warnings(void)
{
    setenv("EGL_LOG_LEVEL", "fatal", 0);
}

int render_command_still(session *s, const render_request *q, double t)
{
    if (!encoder_path_is_still(q->output)) {
        fputs("ppflow: -o: with --still give the image file to write, ending in .png\n", stderr);
        return CLI_EXIT_USAGE;
    }
    if (t > s->tl.makespan) {
        ppf_print(stderr, "--still = %g: must be within the iteration, 0 to %g", t,
                s->tl.makespan);
        return CLI_EXIT_USAGE;
    }
    const int w = q->width ? q->width : RENDER_DEFAULT_WIDTH;
    const int h = q->height ? q->height : RENDER_DEFAULT_HEIGHT;
    ppf_error err = {{0}};
    offscreen o;
    quiet_egl_warnings();
    if (!offscreen_init(&o, s, w, h, &err)) {
        ppf_print(stderr, "%s", err.message);
        return CLI_EXIT_IO;
    }
    frame_view v = offscreen_default_view(&o, t, q->theme, q->camera);
    offscreen_draw(&o, &v);
    uint8_t *pixels = ppf_malloc((size_t)w * (size_t)h * 4);
    offscreen_read(&o, pixels);
    offscreen_deinit(&o);
    bool ok = image_write_png(q->output, pixels, w, h, 0, false, &err);
    free(pixels);
    if (!ok)
        ppf_print(stderr, "%s", err.message);
    return ok ? CLI_EXIT_OK : CLI_EXIT_IO;
}

int render_command_export(session *s, const render_request *q)
{
    ppf_error err = {{0}};
    encoder_kind kind;
    if (!encoder_kind_of(q->output, &kind, &err)) {
        ppf_print(stderr, "%s", err.message);
        return CLI_EXIT_USAGE;
    }
    const double makespan = s->tl.makespan;
    const double t0 = q->range_t0 >= 0 ? q->range_t0 : 0;
    const double t1 = q->range_t1 >= 0 ? q->range_t1 : makespan;
    if (!(t0 < t1) || t1 > makespan) {
        ppf_print(stderr,
                  "--range = %g:%g: must be T0:T1 with 0 <= T0 < T1 <= %g (the iteration's "
                  "length)",
                t0, t1, makespan);
        return CLI_EXIT_USAGE;
    }
    if (q->speed > 0 && q->duration > 0) {
        ppf_print(stderr, "--speed %g and --duration %g: give one of them, not both",
                q->speed, q->duration);
        return CLI_EXIT_USAGE;
    }

    recorder_desc d = {
        .path = q->output,
        .width = q->width ? q->width : RENDER_DEFAULT_WIDTH,
        .height = q->height ? q->height : RENDER_DEFAULT_HEIGHT,
        .fps = q->fps ? q->fps : RENDER_DEFAULT_FPS,
        .t0 = t0,
        .crf = q->crf,
        .preset = q->preset,
        .theme = q->theme,
        .camera = q->camera,
        .progress = !q->quiet && isatty(STDERR_FILENO),
        .stop = &stop_signal,
    };
    /* The viewer's default: the whole iteration in 20 s. */
    d.speed = q->speed > 0      ? q->speed
              : q->duration > 0 ? (t1 - t0) / q->duration
                                : (makespan > 0 ? makespan / 20 : 1);
    d.frames = recorder_frame_count(t1 - t0, d.fps, d.speed);

    const int asked_w = d.width, asked_h = d.height;
    if (kind == ENCODER_MP4) {
        d.width += d.width % 2;
        d.height += d.height % 2;
    }

    /* A place that cannot take the file is bad input, found before
     * minutes of drawing rather than after: make and drop a temporary. The
     * handlers are in place first, so a signal cannot strand it. */
    struct sigaction act = {0}, old_int, old_term;
    act.sa_handler = on_stop_signal;
    sigemptyset(&act.sa_mask);
    stop_signal = 0;
    sigaction(SIGINT, &act, &old_int);
    sigaction(SIGTERM, &act, &old_term);
    output probe;
    bool writable = output_reserve(&probe, q->output, &err);
    output_abort(&probe);
    recorder_status status = RECORDER_FAILED;
    recorder_result r = {0};
    if (writable && !stop_signal) {
        if (!q->quiet && (d.width != asked_w || d.height != asked_h))
            ppf_print(stderr, "--size %dx%d: H.264 needs even sides; recording %dx%d",
                    asked_w, asked_h, d.width, d.height);
        encoder_quiet_ffmpeg();
        quiet_egl_warnings();
        status = recorder_run(s, &d, &r, &err);
    } else if (stop_signal) {
        status = RECORDER_STOPPED;
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (!writable && status != RECORDER_STOPPED) {
        ppf_print(stderr, "%s", err.message);
        return CLI_EXIT_USAGE;
    }

    switch (status) {
    case RECORDER_DONE:
        if (!q->quiet)
            ppf_print(stderr,
                      "wrote %s: %lld frames, %dx%d at %d fps (%.2f s of video, t %g to %g) in "
                      "%.2f s, %.1f frames/s",
                    q->output, (long long)r.frames, d.width, d.height, d.fps,
                    (double)r.frames / d.fps, t0, recorder_frame_time(&d, r.frames - 1),
                    r.seconds, r.seconds > 0 ? (double)r.frames / r.seconds : 0);
        return CLI_EXIT_OK;
    case RECORDER_STOPPED:
        ppf_print(stderr, "interrupted (%s); %s was not written",
                stop_signal == SIGTERM ? "SIGTERM" : "SIGINT", q->output);
        return CLI_EXIT_INTERRUPTED;
    case RECORDER_FAILED:
        break;
    }
    ppf_print(stderr, "%s", err.message);
    return CLI_EXIT_IO;
}
