/* encoder.h - frames in, a video, a GIF or numbered PNGs out.
 *
 * For: `ppflow render -o OUT`, which draws RGBA frames and hands them here
 * one at a time. The kind of output comes from the path:
 *     out.mp4              H.264 (libx264) in MP4, yuv420p, BT.709 tags,
 *                          +faststart; pts = frame index in a 1/fps time base
 *     out.gif              GIF through one global palette given by the
 *                          caller (app/palette.h), looping forever
 *     frames/f_%05d.png    one PNG a frame, numbered from 0 (= frame index);
 *                          the pattern holds one %d or %0Nd, in the file's
 *                          name (not a folder's), and %% for a %
 *
 * Nothing appears under the target name until encoder_finish succeeds: an
 * MP4 or GIF is written to one temporary beside it (".out.mp4.tmp.XXXXXX",
 * app/output.h) and renamed at the end; PNG frames are written into one
 * temporary directory beside them (".f_%05d.png.tmp.XXXXXX/", mkdtemp),
 * every frame's name is checked against output.h's rules, then each is
 * renamed into place and the directory removed. encoder_abort deletes the
 * temporary file or directory; a SIGKILL leaves that one name behind.
 *
 * Frames: width * height RGBA8 pixels, any row stride; `bottom_up` for rows
 * as glReadPixels returns them (flipped for free with a negative stride).
 * Colour conversion (RGBA full range -> BT.709 limited range yuv420p) is
 * app/export/yuv.h's. Every buffer is allocated in encoder_open: writing a frame
 * allocates nothing, unless libavcodec still holds the previous frame.
 *
 * Threads: one encoder is used by one thread at a time; libx264 starts its
 * own threads (as many as `ffmpeg -threads auto` would).
 *
 * Call order:
 *     encoder e;
 *     encoder_desc d = {.path = "out.mp4", .width = 1920, .height = 1080,
 *                       .video = encoder_video_defaults()};
 *     if (!encoder_open(&e, &d, &err)) ...       nothing was created
 *     for each frame: if (!encoder_write(&e, rgba, 0, true, &err)) { encoder_abort(&e); ... }
 *     if (!encoder_finish(&e, &err)) ...         temporaries removed
 *
 * Errors: false plus one line naming the path and the reason (FFmpeg's, or
 * strerror: a full disk is ENOSPC from a write or the final flush).
 */
#ifndef PPFLOW_ENCODER_H
#define PPFLOW_ENCODER_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"

typedef enum encoder_kind {
    ENCODER_MP4,
    ENCODER_GIF,
    ENCODER_PNG_FRAMES,
} encoder_kind;

enum {
    ENCODER_MAX_CRF = 51,
    ENCODER_MAX_FPS = 240,
};

/* How a recording is encoded, as `ppflow render` asks for it: one struct
 * that the render request, the recorder and the encoder pass on whole. Every
 * field is a value (crf 0 is lossless, not "not given"): start from
 * encoder_video_defaults() and change what differs. */
typedef struct encoder_video {
    int fps;            /* frames per second of video, 1 to ENCODER_MAX_FPS */
    int crf;            /* MP4 quality: x264's constant rate factor, 0 (lossless) to 51 */
    const char *preset; /* MP4: an x264 preset (encoder_preset_valid) */
} encoder_video;

/* ppflow's defaults: 30 fps, crf 20, preset veryfast. */
static inline encoder_video encoder_video_defaults(void)
{
    return (encoder_video){.fps = 30, .crf = 20, .preset = "veryfast"};
}

typedef struct encoder_desc {
    const char *path;        /* the target: its ending picks the kind */
    int width, height;       /* frame size; H.264 needs both even */
    encoder_video video;     /* frame rate; quality and preset for MP4 */
    const uint32_t *palette; /* GIF: 0xAARRGGBB colours (app/palette.h) */
    int palette_count;       /* GIF: 1 to 256 */
} encoder_desc;

typedef struct encoder_impl encoder_impl;

typedef struct encoder {
    encoder_kind kind;
    int width, height, fps;
    int64_t frames; /* written so far */
    encoder_impl *impl;
} encoder;

/* The kind of output `path` asks for; false with one line (the -o value
 * and what is accepted) for anything else. */
bool encoder_kind_of(const char *path, encoder_kind *kind, ppf_error *err);

/* True when path names one PNG with no frame number ("shot.png", any
 * case): what `--still` writes, not a kind of recording. */
bool encoder_path_is_still(const char *path);

/* True when path names a vector figure ("fig.svg", "fig.pdf", any case, no
 * frame number): what `--still` writes as the timeline panel alone
 * (app/export/svg.h), not a kind of recording. */
bool encoder_path_is_figure(const char *path);

/* The file frame i of a PNG frame pattern goes to (allocated: free it);
 * the pattern must have passed encoder_kind_of. */
char *encoder_frame_name(const char *pattern, int64_t i);

/* output.h's rules (output_check) for every name of frames 0 to
 * frames - 1 of a PNG frame pattern that exists already: one pass over
 * the directory. False with one line naming the first refused. */
bool encoder_check_frame_names(const char *pattern, int64_t frames, ppf_error *err);

/* True when `name` is one of x264's presets (ultrafast ... placebo). */
bool encoder_preset_valid(const char *name);

/* FFmpeg logs to stderr on its own; ppflow reports its errors as one line
 * instead. Process-wide, so the program calls it once, not a library. */
void encoder_quiet_ffmpeg(void);

bool encoder_open(encoder *e, const encoder_desc *d, ppf_error *err);
bool encoder_write(encoder *e, const uint8_t *rgba, int stride_bytes, bool bottom_up,
                   ppf_error *err);
/* Flushes the encoder, completes the file(s) and renames them into place.
 * The encoder is closed afterwards, whatever the result. */
bool encoder_finish(encoder *e, ppf_error *err);
/* Stops and deletes every temporary; accepts a zeroed or finished encoder. */
void encoder_abort(encoder *e);

#endif
