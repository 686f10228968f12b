/* render_command.h - `ppflow render -o OUT.mp4 | OUT.gif | FRAMES_%05d.png`
 * and `ppflow render --still T -o FILE.png`: from the command line's values
 * to a recording (app/recorder.h) or one frame.
 *
 * It turns the options into frames: the range (default the whole
 * iteration), then the speed (--speed; or --duration seconds for the range;
 * default the viewer's, the iteration in 20 s), then the frame count
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

#include "camera.h"
#include "session.h"
#include "theme.h"

enum { RENDER_DEFAULT_WIDTH = 1920, RENDER_DEFAULT_HEIGHT = 1080, RENDER_DEFAULT_FPS = 30 };

typedef struct render_request {
    const char *output;
    int width, height;          /* 0: 1920x1080 */
    int fps;                    /* 0: 30 */
    double speed;               /* timeline units per second of video; 0: not given */
    double duration;            /* seconds of video for the range; 0: not given */
    double range_t0, range_t1;  /* -1: the start, the end */
    int crf;                    /* -1: the encoder's default */
    const char *preset;         /* NULL: the encoder's default */
    theme_id theme;
    camera_preset camera;
    bool quiet;
} render_request;

/* Records s (built) as q asks; returns the exit status. */
int render_command_export(session *s, const render_request *q);

/* `--still t`: the one frame at time t into q->output, a .png (the size,
 * theme and camera of q; the rest is ignored). Returns the exit status. */
int render_command_still(session *s, const render_request *q, double t);

#endif
