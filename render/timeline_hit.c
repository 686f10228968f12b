/* timeline_hit.c - what is under the pointer in the timeline panel. See
 * timeline_hit.h. */
#include "timeline_hit.h"

#include "timeline_lod.h"
#include "timeline_query.h"

/* The bar of row r under time t (x the pointer's framebuffer x): a merged
 * stretch, a compute action at least a pixel wide, or a thin one within
 * reach of t. */
static bool hit_bar(const timeline_view *v, const timeline *tl, int r, double x, double t,
                    timeline_panel_hover *out)
{
    const double px = (v->t1 - v->t0) / v->plot_w; /* time per pixel */
    const double slack = 1.5 * px, thin = 3 * px;
    /* merged thin bars, as the panel draws them */
    timeline_lod_walk w;
    timeline_lod_piece piece;
    timeline_lod_begin(&w, tl, v, r);
    while (timeline_lod_next(&w, &piece) && piece.x0 <= x) {
        if (piece.kind == TIMELINE_LOD_STRETCH && x < piece.x1) {
            *out = (timeline_panel_hover){TIMELINE_HIT_STRETCH, r, piece.first};
            return true;
        }
    }
    const int n = tl->program->rank[r].count;
    const action_time *a = tl->time[r];
    const int k = timeline_first_start_after(tl, r, 0, n, t) - 1;
    /* the compute action that started last at or before t, if t is inside it */
    const int prev = timeline_prev_compute(tl, r, k);
    /* a bar thinner than a pixel is drawn only as part of a stretch */
    const double pixel = px * (1 - 1e-9);
    if (prev >= 0 && t < a[prev].end && a[prev].end - a[prev].start >= pixel) {
        *out = (timeline_panel_hover){TIMELINE_HIT_ACTION, r, prev};
        return true;
    }
    /* a bar too thin to aim at is hit from just beside it */
    const int next = timeline_next_compute(tl, r, k + 1);
    double best = slack;
    int best_k = -1;
    if (prev >= 0 && a[prev].end - a[prev].start < thin && a[prev].end - a[prev].start >= pixel &&
        t >= a[prev].end && t - a[prev].end <= best) {
        best = t - a[prev].end;
        best_k = prev;
    }
    if (next < n && a[next].end - a[next].start < thin && a[next].end - a[next].start >= pixel &&
        a[next].start - t <= best)
        best_k = next;
    if (best_k >= 0) {
        *out = (timeline_panel_hover){TIMELINE_HIT_ACTION, r, best_k};
        return true;
    }
    return false;
}

/* The all-reduce of row r's lane under time t, if any. */
static bool hit_allreduce(const timeline_view *v, const timeline *tl, int r, double t,
                          timeline_panel_hover *out)
{
    const double px = (v->t1 - v->t0) / v->plot_w;
    const double slack = 1.5 * px, thin = 3 * px;
    /* one all-reduce per stage: a scan is cheap */
    for (int i = 0; i < tl->allreduce_count; i++) {
        const transfer *ar = &tl->allreduces[i];
        if (ar->src_rank != r)
            continue;
        const double lo = ar->end - ar->start < thin ? ar->start - slack : ar->start;
        const double hi = ar->end - ar->start < thin ? ar->end + slack : ar->end;
        if (t >= lo && t < hi) {
            *out = (timeline_panel_hover){TIMELINE_HIT_ALLREDUCE, r, i};
            return true;
        }
    }
    return false;
}

bool timeline_hit_at(const timeline_view *v, const timeline *tl, double x, double y,
                     timeline_panel_hover *out)
{
    *out = (timeline_panel_hover){.kind = TIMELINE_HIT_NONE, .rank = -1, .index = -1};
    if (!tl->program || x < v->plot_x || x >= v->plot_x + v->plot_w)
        return false;
    const int r = timeline_view_row_at_y(v, y);
    if (r < 0 || r >= tl->program->ranks)
        return false;
    const double yr = y - (v->row_y + (double)r * v->row_pitch);
    const double t = timeline_view_x_to_time(v, x);
    /* The whole pitch is the row's: under the bars, the all-reduce lane
     * gives its all-reduce where one runs, and the rest of the lane and the
     * gap under it give the bar above (no dead band between rows). */
    if (yr >= v->bar_h && v->lane_h > 0 && yr >= v->lane_y && yr < v->lane_y + v->lane_h &&
        hit_allreduce(v, tl, r, t, out))
        return true;
    return hit_bar(v, tl, r, x, t, out);
}
