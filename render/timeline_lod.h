/* timeline_lod.h - level of detail for one rank's row of the timeline
 * panel: what a row of bars looks like at the view's zoom, as a sequence of
 * pieces from left to right. Pure C, no GL and no drawing: the panel draws
 * the pieces (timeline_panel.c) and the hit test finds the piece under the
 * pointer (timeline_view_hit), so what is drawn and what is hovered agree.
 *
 * A bar at least a pixel wide is a piece of its own (TIMELINE_LOD_BAR, drawn
 * exactly as it always was). Bars thinner than a pixel are merged: each
 * pixel column shows what fills most of it (F, B, I, W, F+B or idle; the
 * parts of wide bars in the column count too, busy wins a tie with idle),
 * and a run of adjacent columns of the same kind is one piece
 * (TIMELINE_LOD_STRETCH) drawn with that kind's fill. A column owned by a
 * wide bar (its centre is under the bar as drawn) is the bar's, and a
 * column mostly idle is not drawn (the bubble shows). So a row costs about
 * one piece per change of kind, however many actions it holds.
 *
 * What it does not do: no drawing, no allocation, no clock. A column that
 * holds more than TIMELINE_LOD_SCAN actions is judged by its first
 * TIMELINE_LOD_SCAN (the rest are skipped by a binary search, so a
 * zoomed-out row costs about its width in pixels); timeline_lod_count
 * counts a stretch exactly.
 *
 * Call order:
 *     timeline_lod_walk w;
 *     timeline_lod_begin(&w, tl, view, rank);
 *     timeline_lod_piece p;
 *     while (timeline_lod_next(&w, &p)) ... p ...
 * Errors: none; bad arguments are programmer's mistakes (assert).
 */
#ifndef PPFLOW_TIMELINE_LOD_H
#define PPFLOW_TIMELINE_LOD_H

#include <stdbool.h>
#include <stddef.h>

#include "timeline.h"
#include "timeline_view.h"

enum { TIMELINE_LOD_SCAN = 64 }; /* actions weighed per pixel column */

typedef enum timeline_lod_kind {
    TIMELINE_LOD_BAR,     /* one action's bar, at least a pixel wide */
    TIMELINE_LOD_STRETCH, /* adjacent pixel columns of thinner bars, one kind the most */
} timeline_lod_kind;

typedef struct timeline_lod_piece {
    timeline_lod_kind kind;
    int action;      /* the action kind the piece is drawn as (action_kind: F, B, I, W, F+B) */
    int first, last; /* action indices in the rank's program: the bar (first == last), or
                        the first and last action whose bars lie in the stretch */
    float x0, x1;    /* framebuffer x: the bar's ends (not clipped), or the stretch's whole
                        pixel columns [x0, x1) */
} timeline_lod_piece;

/* A walk over one row's pieces; its fields are the walk's own. */
typedef struct timeline_lod_walk {
    const timeline *tl;
    const timeline_view *v;
    int rank;
    int k, end;              /* next action, and the end of the visible ones */
    int col;                 /* the pixel column being weighed; INT_MIN: none */
    int owned;               /* the column a wide bar owns (its last); INT_MIN: none */
    double acc[8];           /* the column's coverage per action kind, pixels */
    int col_first, col_last; /* actions in the column; col_first -1: none */
    bool open;               /* a stretch is being extended */
    timeline_lod_piece stretch;
    timeline_lod_piece queue[3]; /* pieces found and not yet returned, in order */
    int queued, taken;
    bool done;
} timeline_lod_walk;

/* Starts a walk over the row of `rank` as view v shows it, from the first
 * action that ends after v->t0 to the last that starts before v->t1. */
void timeline_lod_begin(timeline_lod_walk *w, const timeline *tl, const timeline_view *v, int rank);
/* The next piece from the left; false when the row is done. */
bool timeline_lod_next(timeline_lod_walk *w, timeline_lod_piece *out);
/* The stretch of the row that starts with action `first` (a
 * TIMELINE_HIT_STRETCH's index) as view v shows it; false when v shows none. */
bool timeline_lod_find(const timeline *tl, const timeline_view *v, int rank, int first,
                       timeline_lod_piece *out);
/* Counts the compute actions of the rank in [first, last] by kind into
 * counts[ACTION_KIND_COUNT] (zeroed first); returns their total. */
int timeline_lod_count(const timeline *tl, int rank, int first, int last, int *counts);
/* One line for a hover card over a stretch covering [t0, t1]:
 * "rank 3 · 120.5 to 145.2 · 41 actions: 14 F, 14 B, 13 W" (truncated to n). */
void timeline_lod_describe(const timeline *tl, int rank, double t0, double t1, int first, int last,
                           char *buf, size_t n);

#endif
