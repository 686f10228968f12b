/* timeline_hit.h - what is under the pointer in the timeline panel: a
 * compute action's bar, an all-reduce, or a stretch of bars thinner than a
 * pixel merged as the panel draws them.
 *
 * For: the viewer's hover, click and selection (app/viewer), the inspection
 * overlay and the panel's highlight (render/). It reads the view's layout
 * (timeline_view.h) and the level of detail the panel draws
 * (timeline_lod.h), so that what is hovered is what is drawn; neither of
 * those reads it, so the dependencies run one way.
 *
 * What it does not do: no drawing, no allocation, no GL.
 *
 * Errors: none; a point on nothing is a NONE hit.
 */
#ifndef PPFLOW_TIMELINE_HIT_H
#define PPFLOW_TIMELINE_HIT_H

#include <stdbool.h>

#include "timeline.h"
#include "timeline_view.h"

typedef enum timeline_hit_kind {
    TIMELINE_HIT_NONE = 0,
    TIMELINE_HIT_ACTION,    /* a compute action's bar: rank, index */
    TIMELINE_HIT_ALLREDUCE, /* an all-reduce bar: rank, index into tl->allreduces */
    TIMELINE_HIT_STRETCH,   /* bars thinner than a pixel merged (timeline_lod.h): rank, index
                               of the stretch's first action (timeline_lod_find gives the rest) */
} timeline_hit_kind;

/* What is under the pointer (also the highlight timeline_panel_draw takes). */
typedef struct timeline_panel_hover {
    timeline_hit_kind kind;
    int rank;  /* -1 when kind is NONE */
    int index; /* action index in the rank's program, or all-reduce index; -1 for NONE */
} timeline_panel_hover;

/* Finds the bar under framebuffer point (x, y): a stretch of bars thinner
 * than a pixel merged as the panel draws them (timeline_lod.h), a compute
 * action at least a pixel wide (binary search over the rank's start times; a
 * bar narrower than 3 pixels is hit within 1.5 pixels of it) or an
 * all-reduce in the rank's lane. Every y of a row's pitch is that row's: the
 * lane where no all-reduce runs and the gap under it give the bar above.
 * Returns false and a NONE hit when there is none. */
bool timeline_hit_at(const timeline_view *v, const timeline *tl, double x, double y,
                     timeline_panel_hover *out);

#endif
