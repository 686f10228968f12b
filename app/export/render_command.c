/* render_command.c - options to frames to a file. See render_command.h. */
#include "render_command.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "exit_status.h"
#include "encoder.h"
#include "offscreen.h"
#include "output.h"
#include "pdf.h"
#include "recorder.h"
#include "stop_signals.h"
#include "svg.h"

/* Mesa's libEGL prints its own warnings while it looks for a display
 * ("failed to open swrast"); when none is found, ppflow's one line already
 * says what was tried and what to install. A user's own EGL_LOG_LEVEL wins. */
static void quiet_egl_warnings(void)
{
    setenv("EGL_LOG_LEVEL", "fatal", 0);
}

render_request render_request_defaults(void)
{
    return (render_request){.show = {.width = 1920, .height = 1080},
                            .video = encoder_video_defaults()};
}

static bool ends_with_pdf(const char *path)
{
    const size_t n = strlen(path);
    return n >= 4 && strcasecmp(path + n - 4, ".pdf") == 0;
}

/* The timeline panel at t as a vector figure: no EGL, written whole or not
 * at all under the same guard as a PNG. */
static int still_figure(const session *s, const render_request *q, double t)
{
    ppf_error err = {{0}};
    const bool pdf = ends_with_pdf(q->output);
    int status = EXIT_STATUS_USAGE;
    output out = {0};
    if (!output_probe(q->output, OUTPUT_STREAM, &err))
        goto done;
    status = EXIT_STATUS_IO;
    if (pdf && !pdf_converter_found(&err))
        goto done;
    if (!output_open_guarded(&out, q->output, &err)) {
        status = EXIT_STATUS_USAGE;
        goto done;
    }
    const svg_desc d = {
        .dark = q->theme_given && q->show.theme == THEME_DARK, .cursor = true, .cursor_t = t};
    if (pdf ? !pdf_write_timeline(out.file, &s->tl, &d, &err)
            : !svg_write_timeline(out.file, &s->tl, &d, &err)) {
        output_abort(&out);
        goto done;
    }
    if (output_commit(&out, &err))
        status = EXIT_STATUS_OK;
done:
    if (status != EXIT_STATUS_OK)
        ppf_print(stderr, "%s", err.message);
    return status;
}

/* The side with the longest iteration: its length bounds the range and
 * --still, its default speed is the recording's. */
static const session *longest_side(session *const *sides, int n)
{
    const session *s = sides[0];
    for (int k = 1; k < n; k++)
        if (sides[k]->tl.makespan > s->tl.makespan)
            s = sides[k];
    return s;
}

int render_command_still(session *s, const render_request *q, double t)
{
    return render_command_still_compare(&s, 1, NULL, q, t);
}

int render_command_still_compare(session *const *sides, int n, const char *const *strip,
                                 const render_request *q, double t)
{
    session *s = sides[0];
    const double makespan = longest_side(sides, n)->tl.makespan;
    const bool figure = encoder_path_is_figure(q->output);
    if (!figure && !encoder_path_is_still(q->output)) {
        fputs("ppflow: -o: with --still give the file to write, ending in .png (the frame) or "
              ".svg or .pdf (the timeline as a figure)\n",
              stderr);
        return EXIT_STATUS_USAGE;
    }
    if (t > makespan) {
        ppf_print(stderr, "--still = %g: must be within the iteration, 0 to %g", t, makespan);
        return EXIT_STATUS_USAGE;
    }
    if (figure && n > 1) {
        fputs("ppflow: -o: a comparison's still is a .png (a figure shows one timeline: give one "
              "side without --compare)\n",
              stderr);
        return EXIT_STATUS_USAGE;
    }
    if (figure)
        return still_figure(s, q, t);
    const int w = q->show.width, h = q->show.height;
    ppf_error err = {{0}};
    /* A place that cannot take the file is bad input, found before EGL
     * starts and anything is drawn. */
    if (!output_probe(q->output, OUTPUT_STREAM, &err)) {
        ppf_print(stderr, "%s", err.message);
        return EXIT_STATUS_USAGE;
    }
    offscreen o;
    quiet_egl_warnings();
    if (n > 1 ? !offscreen_init_compare(&o, (const session *const *)sides, n, w, h, &err)
              : !offscreen_init(&o, s, w, h, &err)) {
        ppf_print(stderr, "%s", err.message);
        return EXIT_STATUS_IO;
    }
    if (n > 1) {
        compare_frame v = offscreen_default_compare(&o, t, q->show.theme, q->show.camera,
                                                    (float)q->show.ui_scale, strip);
        for (int k = 0; k < n; k++) { /* a still stands on its moment, edges at their best */
            v.pane[k].caption = session_beat_caption(sides[k], t);
            v.pane[k].aa = session_show_aa(&q->show, SCENE_AA_SUPERSAMPLE);
            v.pane[k].still = true;
        }
        offscreen_draw_compare(&o, &v);
    } else {
        /* the camera presenting shows at t: a beat's, else the slide's or --camera */
        const camera_preset preset = session_camera_preset_at(s, t, q->show.camera);
        frame_view v = offscreen_still_view(&o, t, q->show.theme, preset, q->show.ui_scale);
        v.aa = session_show_aa(&q->show, v.aa);
        offscreen_draw(&o, &v);
    }
    /* Encoded first, then written under the guard: SIGINT or SIGTERM
     * during the write deletes the temporary and exits 130. */
    uint8_t *png = NULL;
    size_t size = 0;
    ppf_error why = {{0}};
    output out = {0};
    int status = EXIT_STATUS_IO;
    const bool encoded = offscreen_read_png(&o, &png, &size, &why);
    offscreen_deinit(&o);
    if (!encoded) {
        ppf_fail(&err, "-o %s: %s", q->output, why.message);
        goto done;
    }
    if (!output_open_guarded(&out, q->output, &err)) {
        status = EXIT_STATUS_USAGE;
        goto done;
    }
    errno = 0;
    if (fwrite(png, 1, size, out.file) != size) {
        const int e = errno ? errno : EIO;
        output_abort(&out);
        ppf_fail(&err, "-o %s: writing failed: %s", q->output, strerror(e));
        goto done;
    }
    if (output_commit(&out, &err))
        status = EXIT_STATUS_OK;
done:
    free(png);
    if (status != EXIT_STATUS_OK)
        ppf_print(stderr, "%s", err.message);
    return status;
}

/* Says which option made a frame count that is not 1 to RECORDER_MAX_FRAMES;
 * returns the exit status for bad input. */
static int bad_frame_count(const render_request *q, double t0, double t1, int fps, double speed)
{
    const double n = (t1 - t0) * fps / speed;
    if (q->show.speed > 0)
        ppf_print(stderr,
                  "--speed = %g: --range %g:%g at %d fps makes %.3g frames; must make 1 to %d",
                  q->show.speed, t0, t1, fps, n, RECORDER_MAX_FRAMES);
    else if (q->duration > 0)
        ppf_print(stderr,
                  "--duration = %g: --range %g:%g at %d fps makes %.3g frames; must make 1 to %d",
                  q->duration, t0, t1, fps, n, RECORDER_MAX_FRAMES);
    else
        ppf_print(stderr,
                  "--range = %g:%g: at %d fps and the default speed (the iteration in %d s) makes "
                  "%.3g frames; must make 1 to %d",
                  t0, t1, fps, SESSION_PLAY_SECONDS, n, RECORDER_MAX_FRAMES);
    return EXIT_STATUS_USAGE;
}

/* Whether the export can be written, before any drawing: the target (for
 * PNG frames the pattern, in the frames' folder) gets a temporary made and
 * removed; every frame's name that exists is checked too, for it
 * will be renamed over. */
static bool check_targets(const char *path, encoder_kind kind, int64_t frames, ppf_error *err)
{
    if (kind != ENCODER_PNG_FRAMES)
        return output_probe(path, OUTPUT_BY_NAME, err);
    /* The probe goes where the frames go: the folder as the file system
     * spells it (a %% in it is a %), the name as given, for the message. */
    char *first = encoder_frame_name(path, 0);
    const char *slash = strrchr(first, '/'), *base = strrchr(path, '/');
    const size_t dir_len = slash ? (size_t)(slash - first) + 1 : 0;
    base = base ? base + 1 : path;
    const size_t n = dir_len + strlen(base) + 1;
    char *probe = ppf_malloc(n);
    snprintf(probe, n, "%.*s%s", (int)dir_len, first, base);
    bool ok =
        output_probe(probe, OUTPUT_BY_NAME, err) && encoder_check_frame_names(path, frames, err);
    free(probe);
    free(first);
    return ok;
}

int render_command_export(session *s, const render_request *q)
{
    return render_command_export_compare(&s, 1, NULL, q);
}

int render_command_export_compare(session *const *sides, int n, const char *const *strip,
                                  const render_request *q)
{
    const session *s = longest_side(sides, n);
    ppf_error err = {{0}};
    encoder_kind kind;
    if (!encoder_kind_of(q->output, &kind, &err)) {
        ppf_print(stderr, "%s", err.message);
        return EXIT_STATUS_USAGE;
    }
    const double makespan = s->tl.makespan;
    const double t0 = q->range_t0;
    const double t1 = q->has_range_t1 ? q->range_t1 : makespan;
    if (!(t0 < t1) || t1 > makespan) {
        ppf_print(stderr,
                  "--range = %g:%g: must be T0:T1 with 0 <= T0 < T1 <= %g (the iteration's "
                  "length)",
                  t0, t1, makespan);
        return EXIT_STATUS_USAGE;
    }
    if (q->show.speed > 0 && q->duration > 0) {
        ppf_print(stderr, "--speed %g and --duration %g: give one of them, not both", q->show.speed,
                  q->duration);
        return EXIT_STATUS_USAGE;
    }

    recorder_desc d = {
        .path = q->output,
        .show = q->show,
        .video = q->video,
        .t0 = t0,
        .progress = !q->quiet && isatty(STDERR_FILENO),
        .stop = stop_signals_flag(),
    };
    /* Without --speed or --duration, the viewer's default. */
    d.show.speed = q->show.speed > 0 ? q->show.speed
                   : q->duration > 0 ? (t1 - t0) / q->duration
                                     : session_default_speed(s);
    d.frames = recorder_frame_count(t1 - t0, d.video.fps, d.show.speed);
    if (d.frames == 0)
        return bad_frame_count(q, t0, t1, d.video.fps, d.show.speed);

    const int asked_w = d.show.width, asked_h = d.show.height;
    if (kind == ENCODER_MP4) {
        d.show.width += d.show.width % 2;
        d.show.height += d.show.height % 2;
    }

    /* A place that cannot take the file is bad input, found before
     * minutes of drawing rather than after (output_probe leaves nothing,
     * signals or not). */
    if (!check_targets(q->output, kind, d.frames, &err)) {
        ppf_print(stderr, "%s", err.message);
        return EXIT_STATUS_USAGE;
    }
    /* From here the recorder polls the stop flag and removes its
     * temporaries itself. */
    stop_signals saved;
    stop_signals_install(&saved);
    if (!q->quiet && (d.show.width != asked_w || d.show.height != asked_h))
        ppf_print(stderr, "--size %dx%d: H.264 needs even sides; recording %dx%d", asked_w, asked_h,
                  d.show.width, d.show.height);
    encoder_quiet_ffmpeg();
    quiet_egl_warnings();
    recorder_result r = {0};
    const recorder_status status =
        recorder_run_compare((const session *const *)sides, n, strip, &d, &r, &err);
    stop_signals_restore(&saved);

    switch (status) {
    case RECORDER_DONE:
        if (!q->quiet)
            ppf_print(stderr,
                      "wrote %s: %lld frames, %dx%d at %d fps (%.2f s of video, t %g to %g) in "
                      "%.2f s, %.1f frames/s",
                      q->output, (long long)r.frames, d.show.width, d.show.height, d.video.fps,
                      (double)r.frames / d.video.fps, t0, recorder_frame_time(&d, r.frames - 1),
                      r.seconds, r.seconds > 0 ? (double)r.frames / r.seconds : 0);
        return EXIT_STATUS_OK;
    case RECORDER_STOPPED:
        ppf_print(stderr, "interrupted (%s); %s was not written",
                  stop_signals_caught() == SIGTERM ? "SIGTERM" : "SIGINT", q->output);
        return EXIT_STATUS_INTERRUPTED;
    case RECORDER_FAILED:
        break;
    }
    ppf_print(stderr, "%s", err.message);
    return EXIT_STATUS_IO;
}
