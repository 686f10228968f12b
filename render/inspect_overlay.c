/* inspect_overlay.c - selection, micro-batch, critical path, area and the
 * details card, drawn over a frame. See inspect_overlay.h. */
#include "inspect_overlay.h"

#include <assert.h>
#include <math.h>

bool inspect_overlay_any(const inspect_overlay *o)
{
    return o->selected.kind != TIMELINE_HIT_NONE || o->show_microbatch || o->critical ||
           o->show_area || (o->details && o->details->count > 0);
}

/* ---- the timeline ---------------------------------------------------------- */

static float row_top(const timeline_view *v, int r)
{
    return v->row_y + (float)r * v->row_pitch;
}

/* A time's x, kept within a little of the plot (bars far off stay finite). */
static float time_x(const timeline_view *v, double t)
{
    const float x = (float)timeline_view_time_to_x(v, t);
    const float lo = v->plot_x - 8, hi = v->plot_x + v->plot_w + 8;
    return x < lo ? lo : x > hi ? hi : x;
}

/* An outline round [s, e] on a bar band: `th` wide, `out` pixels outside
 * the band on every side (drawn inside the grown rectangle). */
static void outline(draw2d *d, const timeline_view *v, double s, double e, float y0, float h,
                    float out, float th, rgba8 c)
{
    const float x0 = time_x(v, s), x1 = fmaxf(time_x(v, e), x0 + 1);
    draw2d_rect_outline(d, x0 - out, y0 - out, x1 - x0 + 2 * out, h + 2 * out, th, c);
}

static void dim_others(const inspect_overlay *o, const timeline *tl, const timeline_view *v,
                       draw2d *d, const timeline_palette *pal, float th)
{
    const rgba8 veil = colour_with_alpha(pal->background, 185);
    for (int r = 0; r < v->ranks; r++) {
        const program_rank *pr = &tl->program->rank[r];
        for (int k = timeline_first_end_after(tl, r, 0, pr->count, v->t0); k < pr->count; k++) {
            const action_time *at = &tl->time[r][k];
            if (at->start > v->t1)
                break;
            if (!action_is_compute((action_kind)pr->actions[k].kind))
                continue;
            const float x0 = time_x(v, at->start), x1 = time_x(v, at->end);
            if (inspect_action_has_microbatch(&pr->actions[k], o->microbatch))
                draw2d_rect_outline(d, x0, row_top(v, r), fmaxf(x1 - x0, 1), v->bar_h,
                                    fmaxf(1, th * 0.5f), pal->selection);
            else
                draw2d_rect(d, x0, row_top(v, r), x1 - x0, v->bar_h, veil);
        }
    }
}

static void draw_path(const inspect_path *p, const timeline_view *v, draw2d *d,
                      const timeline_palette *pal, float th)
{
    for (int k = 0; k < p->count; k++) {
        const inspect_step *s = &p->steps[k];
        if (s->end < v->t0 || s->start > v->t1)
            continue;
        switch (s->kind) {
        case INSPECT_STEP_ACTION:
            outline(d, v, s->start, s->end, row_top(v, s->rank), v->bar_h, th, th, pal->critical);
            break;
        case INSPECT_STEP_ALLREDUCE:
            if (v->lane_h > 0)
                outline(d, v, s->start, s->end, row_top(v, s->rank) + v->lane_y, v->lane_h, th, th,
                        pal->critical);
            break;
        case INSPECT_STEP_P2P: {
            /* from the producer's bar edge to the consumer's, across the rows */
            const bool down = s->dst_rank > s->rank;
            const float y0 = row_top(v, s->rank) + (down ? v->bar_h + th : -th);
            const float y1 = row_top(v, s->dst_rank) + (down ? -th : v->bar_h + th);
            draw2d_line(d, time_x(v, s->start), y0, time_x(v, s->end), y1, th * 1.5f,
                        pal->critical);
            break;
        }
        }
    }
}

void inspect_overlay_timeline(const inspect_overlay *o, const timeline *tl, const timeline_view *v,
                              draw2d *d, const timeline_palette *pal, float line_px)
{
    assert(o && tl && v && d && pal);
    if (v->w <= 0 || v->h <= 0 || !inspect_overlay_any(o))
        return;
    const float th = fmaxf(2.0f, fmaxf(2 * line_px, roundf(v->em * 0.14f)));
    /* the plot, and the panel's margin over it, where the top row's outlines go */
    draw2d_clip(d, v->plot_x, v->y, v->plot_w, v->plot_y + v->plot_h - v->y);
    if (o->show_microbatch && o->microbatch >= 0 && o->microbatch < tl->program->microbatches)
        dim_others(o, tl, v, d, pal, th);
    if (o->critical)
        draw_path(o->critical, v, d, pal, th);
    if (o->show_area && o->area_rank0 >= 0 && o->area_rank1 < v->ranks) {
        const int r0 = o->area_rank0 < o->area_rank1 ? o->area_rank0 : o->area_rank1;
        const int r1 = o->area_rank0 < o->area_rank1 ? o->area_rank1 : o->area_rank0;
        const double t0 = fmin(o->area_t0, o->area_t1), t1 = fmax(o->area_t0, o->area_t1);
        const float x0 = time_x(v, t0), x1 = time_x(v, t1);
        const float y0 = row_top(v, r0) - th, y1 = row_top(v, r1) + v->row_pitch;
        draw2d_rect(d, x0, y0, x1 - x0, y1 - y0, colour_with_alpha(pal->selection, 40));
        draw2d_rect_outline(d, x0, y0, x1 - x0, y1 - y0, fmaxf(1, th * 0.5f), pal->selection);
    }
    const timeline_panel_hover *sel = &o->selected;
    if (sel->kind == TIMELINE_HIT_ACTION && sel->rank >= 0 && sel->rank < v->ranks &&
        sel->index >= 0 && sel->index < tl->program->rank[sel->rank].count) {
        const action_time *at = &tl->time[sel->rank][sel->index];
        /* the selection's ring, and round it a thin one of the panel's
           colour: it reads against any bar and apart from the hover's */
        const float ring = fmaxf(1, roundf(th * 0.5f));
        outline(d, v, at->start, at->end, row_top(v, sel->rank), v->bar_h, th, th, pal->selection);
        outline(d, v, at->start, at->end, row_top(v, sel->rank), v->bar_h, th + ring, ring,
                pal->background);
    } else if (sel->kind == TIMELINE_HIT_ALLREDUCE && sel->index >= 0 &&
               sel->index < tl->allreduce_count && v->lane_h > 0) {
        const transfer *x = &tl->allreduces[sel->index];
        outline(d, v, x->start, x->end, row_top(v, x->src_rank) + v->lane_y, v->lane_h, th, th,
                pal->selection);
    }
    draw2d_clip_off(d);
}

void inspect_overlay_tip(const inspect_overlay *o, const timeline_view *v, draw2d *d,
                         const text_font *font, int size, const theme *th, float line_px, float cx,
                         float cy, float cw, float ch)
{
    assert(o && v && d && th);
    if (!o->tip || o->tip->count <= 0 || !font || v->w <= 0 || v->h <= 0)
        return;
    const float thick = fmaxf(1.5f, v->em * 0.12f);
    if (o->tip_rank >= 0 && o->tip_rank < v->ranks && o->tip_t1 >= o->tip_t0 &&
        (!o->tip_lane || v->lane_h > 0)) {
        const float y0 = row_top(v, o->tip_rank) + (o->tip_lane ? v->lane_y : 0);
        draw2d_clip(d, v->plot_x, v->plot_y, v->plot_w, v->plot_h);
        outline(d, v, o->tip_t0, o->tip_t1, y0, o->tip_lane ? v->lane_h : v->bar_h, thick, thick,
                th->timeline.text);
        draw2d_clip(d, cx, cy, cw, ch);
    }
    const float pad = text_font_metrics(font, size).ascent * 0.5f;
    float w, h;
    inspect_overlay_details_size(o->tip, font, size, size, pad, &w, &h);
    const float gap = v->em * 0.8f;
    float x = fminf(o->tip_x + gap, cx + cw - w);
    x = fmaxf(x, cx);
    float y = o->tip_y - gap - h;
    if (y < cy)
        y = o->tip_y + gap;
    inspect_overlay_details(o->tip, font, size, size, pad, x, y, w, h, d, th->timeline.background,
                            th->timeline.text, th->text, th->text, line_px);
}

/* ---- 3D -------------------------------------------------------------------- */

typedef struct view3d {
    const camera *cam;
    float x, y, w, h;
    draw2d *d;
    float th;
} view3d;

static void grow(scene_box *acc, const scene_box *b, bool *any)
{
    for (int a = 0; a < 3; a++) {
        acc->min[a] = *any ? fminf(acc->min[a], b->min[a]) : b->min[a];
        acc->max[a] = *any ? fmaxf(acc->max[a], b->max[a]) : b->max[a];
    }
    *any = true;
}

/* The twelve edges of a box, projected; nothing when a corner is behind the eye. */
static void frame_box(const view3d *v, const scene_box *b, rgba8 c)
{
    float px[8], py[8];
    for (int k = 0; k < 8; k++) {
        const float w[3] = {k & 1 ? b->max[0] : b->min[0], k & 2 ? b->max[1] : b->min[1],
                            k & 4 ? b->max[2] : b->min[2]};
        if (!camera_project(v->cam, v->w / v->h, w, (int)v->w, (int)v->h, &px[k], &py[k]))
            return;
        px[k] += v->x, py[k] += v->y;
    }
    for (int k = 0; k < 8; k++)
        for (int bit = 1; bit < 8; bit <<= 1)
            if (!(k & bit))
                draw2d_line(v->d, px[k], py[k], px[k | bit], py[k | bit], v->th, c);
}

/* The matmul boxes of stages [s0, s1] for micro-batch m in one replica: the
 * slice of the picture an action on them works in. */
static scene_box slice(const scene *s, int s0, int s1, int m, int replica)
{
    scene_box acc = {{0, 0, 0}, {0, 0, 0}};
    bool any = false;
    const int slot = scene_slot_of(s, m);
    for (int layer = s0 * s->layers_per_stage; layer < (s1 + 1) * s->layers_per_stage; layer++)
        for (int k = 0; k < 2; k++) {
            const scene_box b =
                scene_object_box(s, k ? SCENE_MATMUL2 : SCENE_MATMUL1, layer, slot, replica);
            grow(&acc, &b, &any);
        }
    /* the faces reach a little past the boxes in z: take the model's width */
    acc.min[2] = fminf(acc.min[2], -s->d_model), acc.max[2] = fmaxf(acc.max[2], s->d_model);
    return acc;
}

static void frame_action(const view3d *v, const scene *s, const action *a, rgba8 c)
{
    for (int r = 0; r < s->replicas; r++) {
        scene_box b = slice(s, a->stage, a->stage, a->microbatch, r);
        frame_box(v, &b, c);
        if (a->kind == ACTION_OVERLAP_F_B) {
            b = slice(s, a->stage2, a->stage2, a->microbatch2, r);
            frame_box(v, &b, c);
        }
    }
}

/* The p2p boxes a transfer from action a to dst_rank flashes in. */
static void frame_transfer(const view3d *v, const scene *s, const action *a, int dst_rank, rgba8 c)
{
    int stage = a->stage, mb = a->microbatch;
    bool fwd = a->kind == ACTION_F;
    if (a->kind == ACTION_OVERLAP_F_B) {
        fwd = a->stage + 1 < s->stages && s->stage_rank[a->stage + 1] == dst_rank;
        if (!fwd)
            stage = a->stage2, mb = a->microbatch2;
    }
    const int boundary = fwd ? stage : stage - 1; /* boundary b lies between stages b and b+1 */
    if (boundary < 0 || boundary >= s->stages - 1)
        return;
    for (int r = 0; r < s->replicas; r++) {
        const scene_box b = scene_object_box(s, SCENE_P2P, boundary, scene_slot_of(s, mb), r);
        frame_box(v, &b, c);
    }
}

void inspect_overlay_scene(const inspect_overlay *o, const scene *s, double t, const camera *cam,
                           float x, float y, float w, float h, draw2d *d,
                           const timeline_palette *pal, float line_px)
{
    assert(o && s && cam && d && pal);
    if (w <= 0 || h <= 0 || !inspect_overlay_any(o))
        return;
    const timeline *tl = s->timeline;
    const view3d v = {cam, x, y, w, h, d, fmaxf(2.0f, 2 * line_px)};
    draw2d_clip(d, x, y, w, h);
    if (o->show_microbatch && o->microbatch >= 0 && o->microbatch < s->microbatches)
        for (int r = 0; r < s->replicas; r++) {
            const scene_box b = slice(s, 0, s->stages - 1, o->microbatch, r);
            frame_box(&v, &b, pal->selection);
        }
    if (o->critical) {
        /* the step of the path under way at t: where the makespan is being set now */
        for (int k = 0; k < o->critical->count; k++) {
            const inspect_step *st = &o->critical->steps[k];
            if (!(t >= st->start && (t < st->end || (k == o->critical->count - 1 && t <= st->end))))
                continue;
            if (st->kind == INSPECT_STEP_ACTION) {
                frame_action(&v, s, &tl->program->rank[st->rank].actions[st->index], pal->critical);
            } else if (st->kind == INSPECT_STEP_P2P) {
                frame_transfer(&v, s, &tl->program->rank[st->rank].actions[st->index], st->dst_rank,
                               pal->critical);
            }
            break;
        }
    }
    const timeline_panel_hover *sel = &o->selected;
    if (sel->kind == TIMELINE_HIT_ACTION && sel->rank >= 0 && sel->rank < s->ranks &&
        sel->index >= 0 && sel->index < tl->program->rank[sel->rank].count) {
        const action *a = &tl->program->rank[sel->rank].actions[sel->index];
        if (action_is_compute((action_kind)a->kind))
            frame_action(&v, s, a, pal->selection);
    } else if (sel->kind == TIMELINE_HIT_ALLREDUCE && sel->index >= 0 &&
               sel->index < tl->allreduce_count) {
        const int stage = tl->allreduces[sel->index].stage;
        for (int layer = stage * s->layers_per_stage;
             layer < (stage + 1) * s->layers_per_stage && s->replicas > 1; layer++)
            for (int r = 0; r + 1 < s->replicas; r++) {
                const scene_box b = scene_object_box(s, SCENE_ALLREDUCE, layer, 0, r);
                frame_box(&v, &b, pal->selection);
            }
    }
    draw2d_clip_off(d);
}

/* ---- the details card ------------------------------------------------------ */

void inspect_overlay_details_size(const inspect_text *t, const text_font *font, int title_size,
                                  int size, float pad, float *w, float *h)
{
    *w = *h = 0;
    if (!t || t->count <= 0)
        return;
    for (int k = 0; k < t->count; k++)
        *w = fmaxf(*w, text_width(font, k ? size : title_size, t->line[k]));
    *w += 2 * pad;
    *h = text_font_metrics(font, title_size).line_height +
         (float)(t->count - 1) * text_font_metrics(font, size).line_height + 2 * pad;
}

void inspect_overlay_details(const inspect_text *t, const text_font *font, int title_size, int size,
                             float pad, float x, float y, float w, float h, draw2d *d, rgba8 panel,
                             rgba8 edge, rgba8 text, rgba8 text_dim, float line_px)
{
    if (!t || t->count <= 0)
        return;
    draw2d_rect(d, x, y, w, h, colour_with_alpha(panel, 235));
    draw2d_rect_outline(d, x, y, w, h, line_px, edge);
    const text_metrics big = text_font_metrics(font, title_size);
    const text_metrics m = text_font_metrics(font, size);
    float base = y + pad + big.ascent;
    text_draw(font, d, title_size, x + pad, base, t->line[0], text, TEXT_ALIGN_LEFT);
    base += big.descent + (m.line_height - m.descent);
    for (int k = 1; k < t->count; k++, base += m.line_height)
        text_draw(font, d, size, x + pad, base, t->line[k], k == 1 ? text : text_dim,
                  TEXT_ALIGN_LEFT);
}
