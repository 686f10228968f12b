/* beats.h - the pause points of a talk: the moments of an iteration a
 * lecturer stops on and explains.
 *
 * A beat is a time t with a short title ("steady state"), an optional
 * caption (one sentence a lecturer would say, shown instead of the
 * automatic caption while the beat is on screen), an optional camera
 * preset name and optional speaker notes.
 *
 * Automatic beats come from the timeline alone, never from the schedule's
 * name, so an imported PyTorch CSV gets sensible ones too (beats_auto.c's
 * header says which moments and exactly how each is found: start, the
 * first forward reaching the last rank to get work, the first backward
 * (titled "steady state: one forward, one backward" only when the ranks
 * really alternate), the backward reaching stage 0, cool-down, the last
 * backward, the all-reduces when D > 1, the end). A scenario may list its own
 * (scenario.h: "beats", "auto_beats"; --beats auto|none|FILE): each gives t
 * as a number or as "after": an action's name in PyTorch's notation
 * ("3B0": stage 3's backward of micro-batch 0), meaning the end of that
 * action; beats_build resolves them against the timeline and merges them
 * with the automatic ones.
 *
 * A beat list is sorted by t, and no two beats share a t (beats at the same
 * time merge: the scenario's replaces the automatic one; two of the
 * scenario's at one time are refused, naming both). Navigation
 * (beats_next, beats_prev) compares times with BEATS_EPSILON of the
 * iteration's length, so a t that landed on a beat is on it.
 *
 * What it does not do: no drawing, no clock, no camera (a camera preset is
 * carried as its name, which app/ checks against render's presets).
 *
 * Call order:
 *     beat_list bl = {0};
 *     if (!beats_build(&bl, tl, &specs, &err))  bad "after" name: one line, exit 2
 *     int i = beats_next(&bl, tl, t);           -1: none after t
 *     beat_list_deinit(&bl);
 */
#ifndef PPFLOW_BEATS_H
#define PPFLOW_BEATS_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "timeline.h"

enum {
    BEAT_TITLE_MAX = 96, /* bytes with the NUL; longer titles are refused, not cut */
    BEAT_CAPTION_MAX = 256,
    BEAT_NOTES_MAX = 2048,
    BEAT_CAMERA_MAX = 32,
    BEAT_AFTER_MAX = 64,
    BEATS_MAX = 1000, /* beats in one list, automatic ones included */
};

/* Two times closer than this fraction of the makespan are the same moment. */
#define BEATS_EPSILON 1e-9

typedef struct beat {
    double t;
    char title[BEAT_TITLE_MAX];
    char caption[BEAT_CAPTION_MAX]; /* "" = the automatic caption */
    char notes[BEAT_NOTES_MAX];     /* "" = none; for the presenter */
    char camera[BEAT_CAMERA_MAX];   /* preset name, "" = keep the camera */
    bool automatic;                 /* derived by beats_auto */
} beat;

typedef struct beat_list {
    beat *beats; /* [count], sorted by t, times distinct */
    int count;
} beat_list;

/* A beat as a scenario gives it, before its time is known: t, or the name
 * of the action whose end it is (after[0] != 0). */
typedef struct beat_spec {
    double t;
    char after[BEAT_AFTER_MAX];
    char title[BEAT_TITLE_MAX];
    char caption[BEAT_CAPTION_MAX];
    char notes[BEAT_NOTES_MAX];
    char camera[BEAT_CAMERA_MAX];
} beat_spec;

/* What a scenario says about beats. */
typedef struct beat_specs {
    beat_spec *items; /* [count], in the file's order */
    int count;
    bool no_auto; /* "auto_beats": false (in a scenario or a --beats FILE), or --beats none */
} beat_specs;

void beat_specs_deinit(beat_specs *s); /* accepts a zeroed or deinited one */
void beat_specs_copy(beat_specs *dst, const beat_specs *src);

/* The automatic beats of a timeline into *out (which must be zeroed or
 * deinited), sorted and merged; at least one (the end), at most 16. */
void beats_auto(beat_list *out, const timeline *tl);

/* The automatic beats (unless specs->no_auto) merged with the scenario's,
 * whose "after" names are resolved against tl. False with one line
 * ("beats[2].after = \"9B0\": no such action (stages 0..3, micro-batches
 * 0..7)") leaves *out zeroed. A spec's t outside [0, makespan] is refused
 * the same way. */
bool beats_build(beat_list *out, const timeline *tl, const beat_specs *specs, ppf_error *err);

void beat_list_deinit(beat_list *bl); /* accepts a zeroed or deinited one */

/* How close two times of tl are to be one moment: BEATS_EPSILON x its
 * makespan (0 for an iteration that takes no time). */
double beats_epsilon(const timeline *tl);

/* The first beat strictly after t (by more than BEATS_EPSILON x makespan),
 * or -1. */
int beats_next(const beat_list *bl, const timeline *tl, double t);
/* The last beat strictly before t, or -1. */
int beats_prev(const beat_list *bl, const timeline *tl, double t);
/* The beat at t (within the epsilon), or -1. */
int beats_at(const beat_list *bl, const timeline *tl, double t);
/* The last beat at or before t (the one whose caption applies), or -1. */
int beats_current(const beat_list *bl, const timeline *tl, double t);

#endif
