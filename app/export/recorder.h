/* recorder.h - one iteration drawn offscreen and encoded: the body of
 * `ppflow render -o out.mp4 | out.gif | frames_%05d.png`.
 *
 * Frame i shows state(t) at t = t0 + i * show.speed / video.fps: the same picture as
 * `ppflow render --still t` (offscreen_default_view), so a frame of the video
 * and a still at the same t match. Time never comes from a clock. A clip
 * that must end exactly on a moment (a beat: app/export/per_beat.h) sets
 * has_t_last: its last frame then shows t_last itself, not the sum above,
 * which floating point may put a hair before or after it. Such a clip goes
 * from beat to beat and stands on both: its first and last frames show
 * their beats' captions (session_beat_caption), as the stills do, where
 * frames passing through a beat show the automatic one.
 *
 * The pipeline keeps both cores busy: the calling thread draws frame i and
 * starts its readback into a ring of pixel buffers (render/readback.h) while
 * an encoder thread converts and encodes frame i - 1 (app/encoder.h), and
 * libx264 runs threads of its own. Nothing is allocated per frame.
 * A GIF first draws a few frames spread over the clip to choose its one
 * palette (app/palette.h).
 *
 * Call order:
 *     recorder_desc d = {.path = "out.mp4",
 *                        .show = {.width = 1920, .height = 1080, .speed = s},
 *                        .video = encoder_video_defaults(), .t0 = 0, .frames = n};
 *     recorder_result r;
 *     switch (recorder_run(&session, &d, &r, &err)) ...
 *
 * Errors: RECORDER_FAILED with one line (no EGL display and what to install;
 * a file that cannot be written; the disk full); RECORDER_STOPPED when
 * *d->stop became nonzero (a signal handler sets it). Either way no file
 * exists under the target name and the temporaries are gone.
 */
#ifndef PPFLOW_RECORDER_H
#define PPFLOW_RECORDER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "encoder.h"
#include "error.h"
#include "session.h"

typedef struct recorder_desc {
    const char *path;            /* .mp4, .gif or a %05d.png pattern (app/encoder.h) */
    session_show show;           /* frame size in pixels (even for MP4), theme, camera, and the
                                    speed, which must be above 0 here */
    encoder_video video;         /* fps, and crf and preset for MP4 */
    double t0;                   /* frame i at t0 + i * show.speed / video.fps */
    int64_t frames;              /* 1 to RECORDER_MAX_FRAMES (recorder_frame_count) */
    double t_last;               /* with has_t_last: the time the last frame shows, exactly */
    bool has_t_last;             /* false: the last frame too at t0 + i * speed / fps */
    bool progress;               /* a progress line on stderr (a terminal) */
    volatile sig_atomic_t *stop; /* NULL, or set nonzero to stop; checked every frame */
} recorder_desc;

typedef struct recorder_result {
    int64_t frames; /* encoded */
    double seconds; /* wall time from the first frame drawn to the file renamed */
} recorder_result;

typedef enum recorder_status {
    RECORDER_DONE,
    RECORDER_FAILED,
    RECORDER_STOPPED,
} recorder_status;

/* The most frames one recording takes: 92 hours at 30 fps. */
enum { RECORDER_MAX_FRAMES = 10000000 };

/* Frames for `span` timeline units at `speed` units per second of video:
 * span * fps / speed rounded; 0 when that is not 1 to RECORDER_MAX_FRAMES
 * (too small, too large, not finite), which the caller reports as bad
 * input. */
int64_t recorder_frame_count(double span, int fps, double speed);

/* The time frame i shows: t_last for the last frame when has_t_last. */
double recorder_frame_time(const recorder_desc *d, int64_t i);

/* Records the session, built whole (scene included) and left unchanged. */
recorder_status recorder_run(const session *s, const recorder_desc *d, recorder_result *r,
                             ppf_error *err);
/* Records a comparison's count (1..COMPARE_MAX_SIDES) sessions, each built
 * whole, as panes on one clock with the strip's lines ([count], or NULL)
 * above them (offscreen_default_compare); one session is recorder_run. */
recorder_status recorder_run_compare(const session *const *sides, int count,
                                     const char *const *strip, const recorder_desc *d,
                                     recorder_result *r, ppf_error *err);

#endif
