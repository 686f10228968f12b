/* timeline_lod.c - one row of the timeline as bars and merged stretches.
 * See timeline_lod.h for the rule and what it promises. */
#include "timeline_lod.h"

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "timeline_query.h"

#define MIDDOT " \xc2\xb7 " /* " · " in UTF-8 */

_Static_assert(ACTION_OVERLAP_F_B < 8, "timeline_lod_walk.acc holds every compute kind");

static float x_of(const timeline_lod_walk *w, double t)
{
    return (float)timeline_view_time_to_x(w->v, t);
}

static void push(timeline_lod_walk *w, timeline_lod_piece p)
{
    assert(w->queued < (int)(sizeof w->queue / sizeof w->queue[0]));
    w->queue[w->queued++] = p;
}

static void close_stretch(timeline_lod_walk *w)
{
    if (w->open)
        push(w, w->stretch);
    w->open = false;
}

/* Ends the column being weighed: its kind is what covers most of it (idle
 * when nothing covers more than what is left), and it extends the open
 * stretch of that kind or starts one. `dropped`: a wide bar owns it. */
static void finish_column(timeline_lod_walk *w, bool dropped)
{
    if (w->col == INT_MIN)
        return;
    const int c = w->col;
    w->col = INT_MIN;
    if (dropped || w->col_first < 0) {
        close_stretch(w);
        return;
    }
    int kind = -1;
    double best = 0, busy = 0;
    for (int k = ACTION_F; k <= ACTION_OVERLAP_F_B; k++) {
        busy += w->acc[k];
        if (w->acc[k] > best) {
            best = w->acc[k];
            kind = k;
        }
    }
    if (kind < 0 || 1.0 - busy > best) {
        close_stretch(w); /* mostly idle: the bubble shows */
        return;
    }
    if (w->open && w->stretch.action == kind && w->stretch.x1 == (float)c) {
        w->stretch.x1 = (float)(c + 1);
        if (w->col_last > w->stretch.last)
            w->stretch.last = w->col_last;
        return;
    }
    close_stretch(w);
    w->stretch = (timeline_lod_piece){.kind = TIMELINE_LOD_STRETCH,
                                      .action = kind,
                                      .first = w->col_first,
                                      .last = w->col_last,
                                      .x0 = (float)c,
                                      .x1 = (float)(c + 1)};
    w->open = true;
}

static void start_column(timeline_lod_walk *w, int c)
{
    w->col = c;
    memset(w->acc, 0, sizeof w->acc);
    w->col_first = w->col_last = -1;
}

/* Adds [x0, x1) of an action of this kind to the columns it crosses; a
 * column owned by a wide bar takes nothing. `index` >= 0: the action is
 * one of the thin ones, counted in the column holding its middle. */
static void cover(timeline_lod_walk *w, float x0, float x1, int kind, int index)
{
    const float mid = 0.5f * (x0 + x1);
    const int c0 = (int)floorf(x0);
    /* the common case of a zoomed-out row: a sliver inside the column being
     * weighed, which already has actions */
    if (c0 == w->col && x1 <= (float)(c0 + 1) && c0 != w->owned && x1 > x0 && w->col_first >= 0) {
        w->acc[kind] += x1 - x0;
        if (index >= 0)
            w->col_last = index;
        return;
    }
    for (int c = c0; (float)c < x1; c++) {
        const float hi = x1 < (float)(c + 1) ? x1 : (float)(c + 1);
        const float part = hi - (x0 > (float)c ? x0 : (float)c);
        if (c == w->owned || !(part > 0))
            continue;
        if (c != w->col) {
            finish_column(w, false);
            start_column(w, c);
        }
        w->acc[kind] += part;
        if (index >= 0 && (int)floorf(mid) == c) {
            if (w->col_first < 0)
                w->col_first = index;
            w->col_last = index;
        }
        if (index >= 0 && w->col_first < 0) /* a sliver whose middle is in the next column */
            w->col_first = w->col_last = index;
    }
}

void timeline_lod_begin(timeline_lod_walk *w, const timeline *tl, const timeline_view *v, int rank)
{
    assert(w && tl && tl->program && v && rank >= 0 && rank < tl->program->ranks);
    const int n = tl->program->rank[rank].count;
    *w = (timeline_lod_walk){.tl = tl, .v = v, .rank = rank, .col = INT_MIN, .owned = INT_MIN};
    w->k = timeline_first_end_after(tl, rank, 0, n, v->t0);
    w->end = timeline_first_start_at_or_after(tl, rank, w->k, n, v->t1);
}

/* Takes the next action (or a column's worth of thin ones) and queues the
 * pieces it completes. */
static void step(timeline_lod_walk *w)
{
    if (w->k >= w->end) {
        finish_column(w, false);
        close_stretch(w);
        w->done = true;
        return;
    }
    const program_rank *pr = &w->tl->program->rank[w->rank];
    const action_time *a = w->tl->time[w->rank];
    const int k = w->k;
    const int kind = pr->actions[k].kind;
    if (!action_is_compute((action_kind)kind)) {
        w->k++;
        return;
    }
    const float x0 = x_of(w, a[k].start), x1 = x_of(w, a[k].end);
    if (x1 - x0 >= 1) {
        /* as drawn: a hairline gap once the bar is 4 pixels wide */
        const float drawn_x1 = x1 - (x1 - x0 >= 4 ? 1 : 0);
        const int c0 = (int)floorf(x0);
        /* the column under the bar's left end: the bar's if the bar covers its centre */
        if (w->col == c0 && (float)c0 + 0.5f < x0)
            cover(w, x0, fminf(x1, (float)(c0 + 1)), kind, -1);
        finish_column(w, w->col == c0 && (float)c0 + 0.5f >= x0);
        close_stretch(w);
        push(w, (timeline_lod_piece){.kind = TIMELINE_LOD_BAR,
                                     .action = kind,
                                     .first = k,
                                     .last = k,
                                     .x0 = x0,
                                     .x1 = x1});
        const int c1 = (int)floorf(x1);
        w->owned = (float)c1 + 0.5f < drawn_x1 ? c1 : INT_MIN;
        if (w->owned == INT_MIN)
            cover(w, (float)c1, x1, kind, -1); /* the bar's part of the column it ends in */
        w->k++;
        return;
    }
    cover(w, x0, x1, kind, k);
    w->k++;
    /* A column holding many actions: weigh the first TIMELINE_LOD_SCAN, skip
     * the rest of those that end inside it. */
    if (w->col != INT_MIN && w->col_first >= 0 && k - w->col_first + 1 >= TIMELINE_LOD_SCAN) {
        const double col_end = timeline_view_x_to_time(w->v, (double)w->col + 1);
        const int j = timeline_first_end_after(w->tl, w->rank, w->k, w->end, col_end);
        if (j > w->k) {
            w->col_last = j - 1;
            w->k = j;
        }
    }
}

bool timeline_lod_next(timeline_lod_walk *w, timeline_lod_piece *out)
{
    while (w->taken == w->queued) {
        if (w->done)
            return false;
        w->taken = w->queued = 0;
        step(w);
    }
    *out = w->queue[w->taken++];
    return true;
}

bool timeline_lod_find(const timeline *tl, const timeline_view *v, int rank, int first,
                       timeline_lod_piece *out)
{
    if (!tl->program || rank < 0 || rank >= tl->program->ranks)
        return false;
    timeline_lod_walk w;
    timeline_lod_begin(&w, tl, v, rank);
    while (timeline_lod_next(&w, out)) {
        if (out->kind == TIMELINE_LOD_STRETCH && out->first == first)
            return true;
        if (out->first > first)
            break;
    }
    return false;
}

int timeline_lod_count(const timeline *tl, int rank, int first, int last, int *counts)
{
    assert(tl && tl->program && rank >= 0 && rank < tl->program->ranks);
    memset(counts, 0, sizeof *counts * ACTION_KIND_COUNT);
    const program_rank *pr = &tl->program->rank[rank];
    int total = 0;
    for (int k = first < 0 ? 0 : first; k <= last && k < pr->count; k++) {
        const action_kind kind = (action_kind)pr->actions[k].kind;
        if (action_is_compute(kind)) {
            counts[kind]++;
            total++;
        }
    }
    return total;
}

void timeline_lod_describe(const timeline *tl, int rank, double t0, double t1, int first, int last,
                           char *buf, size_t n)
{
    assert(buf && n > 0);
    int counts[ACTION_KIND_COUNT];
    const int total = timeline_lod_count(tl, rank, first, last, counts);
    const int d = timeline_time_decimals(tl->makespan);
    static const struct {
        action_kind kind;
        const char *name;
    } names[] = {{ACTION_F, "F"},
                 {ACTION_B, "B"},
                 {ACTION_I, "I"},
                 {ACTION_W, "W"},
                 {ACTION_OVERLAP_F_B, "F+B"}};
    int len = snprintf(buf, n, "rank %d" MIDDOT "%.*f to %.*f" MIDDOT "%d action%s:", rank, d, t0,
                       d, t1, total, total == 1 ? "" : "s");
    bool comma = false;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (counts[names[i].kind] == 0 || len < 0 || (size_t)len >= n)
            continue;
        len += snprintf(buf + len, n - (size_t)len, "%s %d %s", comma ? "," : "",
                        counts[names[i].kind], names[i].name);
        comma = true;
    }
}
