/* render_command.h - `ppflow render -o OUT.mp4 | OUT.gif | FRAMES_%05d.png`
 * and `ppflow render --still T -o FILE.png | FIG.svg | FIG.pdf`: from the command line's values
 * to a recording (app/recorder.h) or one frame.
 *
 * It turns the options into frames: the range (default the whole
 * iteration), then the speed (--speed; or --duration seconds for the range;
 * default the viewer's, session_default_speed), then the frame count
 * (recorder_frame_count). It checks them against the built timeline, rounds
 * an odd size up to even for H.264 (and says so), catches SIGINT and SIGTERM
 * for the length of the recording, shows progress on a terminal and prints
 * one summary line.
 *
 * Errors: one line "ppflow: ..." on stderr; the exit status: 2 bad input,
 * found before anything is drawn (an output directory that is missing or
 * cannot be written is bad input too), 1 a failure (no EGL, a write error, a
 * full disk), 130 interrupted.
 */
#ifndef PPFLOW_RENDER_COMMAND_H
#define PPFLOW_RENDER_COMMAND_H

#include <stdbool.h>

#include "encoder.h"
#include "session.h"

/* What `ppflow render` is asked for. Start from render_request_defaults():
 * the size and the encoding have values there; every other field is zero
 * when not given. */
typedef struct render_request {
    const char *output;  /* -o: the file, or the PNG frames' pattern */
    session_show show;   /* frame size in pixels, theme, camera; speed in timeline units
                            per second of video, 0: from duration, else the default */
    encoder_video video; /* fps, crf, preset */
    double duration;     /* seconds of video for the range; 0: not given */
    double range_t0;     /* where the range starts (0: the iteration's start) */
    double range_t1;     /* where it ends, when has_range_t1; else the iteration's end */
    bool has_range_t1;
    bool quiet;       /* no progress line and no summary */
    bool theme_given; /* --theme was given: a figure (.svg, .pdf) is light otherwise, for print */
} render_request;

/* The request with ppflow's defaults: 1920x1080 and encoder_video_defaults(). */
render_request render_request_defaults(void);

/* Records s (built) as q asks; returns the exit status. */
int render_command_export(session *s, const render_request *q);

/* `--still t`: the one frame at time t into q->output, a .png (the size,
 * theme and camera of q; the rest is ignored); or, for a .svg or .pdf, the
 * timeline panel alone as a vector figure with the cursor at t
 * (app/export/svg.h, pdf.h: no EGL needed, light unless --theme is given).
 * Returns the exit status. */
int render_command_still(session *s, const render_request *q, double t);

/* The same for a comparison's n sessions (each built whole) drawn as panes
 * on one clock with the strip's lines ([n]) above them (recorder.h,
 * recorder_run_compare): the range, --still and the default speed are the
 * longest side's; a figure (.svg, .pdf) is refused, for it shows one
 * timeline. n = 1 is the functions above. */
int render_command_export_compare(session *const *sides, int n, const char *const *strip,
                                  const render_request *q);
int render_command_still_compare(session *const *sides, int n, const char *const *strip,
                                 const render_request *q, double t);

#endif
