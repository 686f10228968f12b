/* per_beat.h - `ppflow render --per-beat -o DIR/`: one short MP4 per beat,
 * each ending exactly on its beat, a PNG of each beat's end state and an
 * index, for a lecturer who must show the talk from PowerPoint (or keep
 * backup slides for when the laptop fails).
 *
 * What it writes into DIR, for beat k (numbered from 1 across every slide
 * given, zero-padded to two digits or the width of the count):
 *     NN-slug.mp4   the iteration from the previous beat's time (0 for a
 *                   slide's first beat) to beat k's, at the render speed
 *                   (--speed, else each slide's default), H.264 as
 *                   `ppflow render -o x.mp4` writes it. Its first frame shows
 *                   the previous beat's state (where the last clip stopped,
 *                   so a slide change shows no jump) and its last frame
 *                   shows state(t_k) exactly (recorder.h: has_t_last), the
 *                   same picture as `--still t_k`; a beat at the start (a
 *                   span of zero) gets one frame. Frames: round(span * fps /
 *                   speed) + 1.
 *     NN-slug.png   beat k's end state: the clip's last frame, losslessly.
 *     beats.json    the index, written last: an array of {"index", "slide",
 *                   "t", "t_start", "title", "caption", "video", "still",
 *                   "frames"} ("notes" too when the beat has some), file
 *                   names relative to DIR.
 * The slug is the title in lower-case ASCII letters and digits, words
 * joined by '-' ("steady state: one forward, one backward" ->
 * "steady-state-one-forward-one-backward"), at most PER_BEAT_SLUG_MAX
 * bytes; "beat" when nothing is left.
 *
 * The camera is the one presenting shows on the beat
 * (session_camera_preset_at): the beat's preset, else the last one an
 * earlier beat of the slide named, else the slide's own (a talk's
 * "camera"), else the render's (--camera); it draws the clip and the PNG. The size is the render's,
 * rounded up to even sides for H.264 (and said so), for the PNGs too, so that they match.
 * `--beat N` (q->beat) writes beat N's MP4 and PNG only and leaves
 * beats.json alone: re-rendering one beat keeps a whole run's index.
 *
 * DIR is made when it is missing and its parent exists (one level, as
 * `mkdir` without -p); an -o that is a file, or names one (x.mp4, x.png),
 * is refused.
 *
 * Nothing half-written: every file is written under a temporary name
 * beside it and renamed whole (app/output.h). Every target is probed before
 * anything is drawn. SIGINT and SIGTERM stop the run between frames: the
 * files of the beats finished so far stay (each whole), the temporaries go,
 * and no index is written; a directory made for the run and left empty is
 * removed.
 *
 * The plan (names, times, frame counts, cameras) needs no GL: the program
 * and the tests share per_beat_plan_make.
 *
 * Call order:
 *     session *slides[] = {&s};     each built whole, scene included
 *     int status = per_beat_export(slides, 1, &q);
 *
 * Errors: one line "ppflow: ..." on stderr naming the field, the value and
 * the rule; the exit status (exit_status.h): 2 bad input found before
 * anything is written (no beats, --beat out of range, an unknown camera
 * preset, too many frames in a clip, a run over the totals above, an -o
 * that is no directory or cannot take the files), 1 a failure (no EGL, a
 * write error), 130 interrupted.
 */
#ifndef PPFLOW_PER_BEAT_H
#define PPFLOW_PER_BEAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "camera.h"
#include "encoder.h"
#include "error.h"
#include "session.h"

enum {
    PER_BEAT_SLUG_MAX = 48,                         /* bytes of a slug, without the NUL */
    PER_BEAT_NAME_MAX = 16 + PER_BEAT_SLUG_MAX + 8, /* "NN-" + slug + ".mp4" */
};

/* What one run may write in all, over every beat of every slide (those
 * --beat N keeps), checked with the plan, before the directory is made or
 * anything drawn: a talk file of a few kilobytes can ask for 100 slides of
 * 1000 beats each. Limits a real talk does not reach (at the default speed
 * a slide's clips take 20 s of video: 100 slides at 30 fps are 60,000
 * frames) that bound the run's time and disk (README.md, "Limits"; measured
 * on a 2-core machine with llvmpipe: 0.03 to 0.06 s and 4 to 8 KB a 1080p
 * frame, about 1 s a beat for opening its clip and drawing its PNG). */
enum {
    PER_BEAT_MAX_FILES = 2000,    /* clips and PNGs: 1000 beats, as many as one scenario holds */
    PER_BEAT_MAX_FRAMES = 300000, /* the clips' frames: 2.8 hours of video at 30 fps */
};
/* Frames and PNGs times their width and height: 145,000 1080p frames, 1 to
 * 2.5 hours of drawing and encoding on that machine. */
#define PER_BEAT_MAX_PIXELS 3e11

/* What `ppflow render --per-beat` is asked for. */
typedef struct per_beat_request {
    const char *dir;         /* -o: the directory */
    session_show show;       /* size, theme, the render's camera, speed (0: each slide's default) */
    encoder_video video;     /* fps, crf, preset */
    int beat;                /* --beat N: beat N only, from 1 across the slides; 0: every beat */
    const int *slide_camera; /* [slide_count]: a talk slide's own camera preset, drawn in
                                place of show.camera; -1: none; NULL: no slide has one */
    bool quiet;              /* no progress line and no summary */
} per_beat_request;

/* One beat's clip and still. */
typedef struct per_beat_clip {
    int number;                    /* from 1, counted across the slides */
    int slide;                     /* from 1 */
    const session *session;        /* the slide's */
    const beat *beat;              /* in the slide's beat list */
    double t_start, t;             /* the clip plays t_start .. t and ends on t exactly */
    double speed;                  /* timeline units per second of video */
    int64_t frames;                /* round((t - t_start) * fps / speed) + 1 */
    camera_preset camera;          /* what presenting shows on the beat (see above) */
    char video[PER_BEAT_NAME_MAX]; /* "03-steady-state.mp4", in the directory */
    char still[PER_BEAT_NAME_MAX]; /* "03-steady-state.png" */
} per_beat_clip;

typedef struct per_beat_plan {
    per_beat_clip *clips; /* [count], every beat of every slide in order */
    int count;
} per_beat_plan;

/* title as a slug into out (PER_BEAT_SLUG_MAX + 1 bytes); returns out. */
char *per_beat_slug(const char *title, char out[PER_BEAT_SLUG_MAX + 1]);

/* Every beat's clip for q (q->dir and q->quiet are not read); q->beat is
 * checked against the count. False with one line (no beats, --beat out of
 * range, an unknown camera name, a clip of more than RECORDER_MAX_FRAMES,
 * the clips q->beat keeps over PER_BEAT_MAX_FILES, PER_BEAT_MAX_FRAMES or
 * PER_BEAT_MAX_PIXELS) leaves *p zeroed. */
bool per_beat_plan_make(per_beat_plan *p, session *const *slides, int slide_count,
                        const per_beat_request *q, ppf_error *err);
void per_beat_plan_deinit(per_beat_plan *p); /* accepts a zeroed or deinited one */

/* Writes the clips, stills and index into q->dir as above; returns the
 * exit status. */
int per_beat_export(session *const *slides, int slide_count, const per_beat_request *q);

#endif
