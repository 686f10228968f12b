/* viewer_inspect.c - selection, walking, critical path, micro-batch, area
 * and the hover's card in the live window. See viewer_inspect.h. */
#include "viewer_inspect.h"

#include <stdio.h>
#include <string.h>

#include "scene_pick.h"
#include "timeline_lod.h"
#include "timeline_query.h"

static const timeline_panel_hover NONE = {.kind = TIMELINE_HIT_NONE, .rank = -1, .index = -1};

void viewer_inspect_deinit(viewer_inspect *vi)
{
    if (!vi)
        return;
    inspect_path_deinit(&vi->path);
    inspect_deinit(&vi->in);
    *vi = (viewer_inspect){0};
}

void viewer_inspect_reset(viewer_inspect *vi, const session *s)
{
    viewer_inspect_deinit(vi);
    vi->selected = NONE;
    vi->microbatch = -1;
    vi->s = s;
    vi->generation = s ? s->tl.generation : 0;
    if (s)
        inspect_init(&vi->in, &s->tl);
}

/* The tables follow the shown session: another slide, a what-if's, or
 * another build at a freed one's address (another generation). */
static void follow(viewer_inspect *vi, const session *s)
{
    if (vi->s != s || (s && vi->generation != s->tl.generation))
        viewer_inspect_reset(vi, s);
}

static const timeline *tl_of(const viewer_inspect *vi)
{
    return &vi->s->tl;
}

static const inspect_path *path_of(viewer_inspect *vi)
{
    if (!vi->has_path) {
        inspect_path_init(&vi->path, &vi->in);
        vi->has_path = true;
    }
    return &vi->path;
}

static bool selected_action(const viewer_inspect *vi)
{
    return vi->selected.kind == TIMELINE_HIT_ACTION;
}

/* The selection's span in time. */
static void selected_span(const viewer_inspect *vi, double *s, double *e)
{
    const timeline *tl = tl_of(vi);
    if (selected_action(vi)) {
        *s = tl->time[vi->selected.rank][vi->selected.index].start;
        *e = tl->time[vi->selected.rank][vi->selected.index].end;
    } else {
        *s = tl->allreduces[vi->selected.index].start;
        *e = tl->allreduces[vi->selected.index].end;
    }
}

/* The selection in the middle of the visible range (the range's width kept). */
static void centre_selection(const viewer_inspect *vi, timeline_view *tv)
{
    double s, e;
    selected_span(vi, &s, &e);
    const double span = tv->t1 - tv->t0;
    timeline_view_pan_fraction(tv, (0.5 * (s + e) - 0.5 * (tv->t0 + tv->t1)) / span);
}

/* Centred, then zoomed so that the bar takes two thirds of the plot (the
 * view's own limits kept: the deepest zoom, the widest). */
static void fit_selection(const viewer_inspect *vi, timeline_view *tv)
{
    double s, e;
    selected_span(vi, &s, &e);
    centre_selection(vi, tv);
    const double want = 1.5 * (e - s > 0 ? e - s : tv->min_span);
    const double mid = 0.5 * (s + e);
    timeline_view_zoom(tv, timeline_view_time_to_x(tv, mid), (tv->t1 - tv->t0) / want);
}

static void keep_in_view(const viewer_inspect *vi, timeline_view *tv)
{
    double s, e;
    selected_span(vi, &s, &e);
    if (e < tv->t0 || s > tv->t1)
        centre_selection(vi, tv);
}

static void set_selection(viewer_inspect *vi, timeline_panel_hover h)
{
    vi->selected = h;
    vi->fit_step = 0;
}

/* `]` and `[`: the consumer on another rank (else the first), the input it
 * waited for (else the first); repeated presses walk the chain. */
static void walk(viewer_inspect *vi, viewer_state *st, int dir)
{
    if (!selected_action(vi))
        return;
    inspect_action a;
    inspect_action_at(&vi->in, vi->selected.rank, vi->selected.index, &a);
    const inspect_link *to = NULL;
    if (dir > 0) {
        for (int k = 0; k < a.out_count && !to; k++)
            if (a.out[k].p2p)
                to = &a.out[k];
        if (!to && a.out_count > 0)
            to = &a.out[0];
    } else if (a.in_count > 0) {
        to = &a.in[a.latest >= 0 ? a.latest : 0];
    }
    if (!to)
        return;
    set_selection(vi, (timeline_panel_hover){TIMELINE_HIT_ACTION, to->rank, to->index});
    keep_in_view(vi, &st->timeline);
}

/* `.` and `,` with a selection: the next or previous compute action on its rank. */
static void step_on_rank(viewer_inspect *vi, viewer_state *st, int dir)
{
    const program_rank *pr = &tl_of(vi)->program->rank[vi->selected.rank];
    for (int k = vi->selected.index + dir; k >= 0 && k < pr->count; k += dir)
        if (action_is_compute((action_kind)pr->actions[k].kind)) {
            set_selection(vi, (timeline_panel_hover){TIMELINE_HIT_ACTION, vi->selected.rank, k});
            keep_in_view(vi, &st->timeline);
            return;
        }
}

/* `b`: the selection's micro-batch, else the next one; off after the last. */
static void next_microbatch(viewer_inspect *vi)
{
    const int M = tl_of(vi)->program->microbatches;
    int want = -1;
    if (selected_action(vi)) {
        const action *a = &tl_of(vi)->program->rank[vi->selected.rank].actions[vi->selected.index];
        if (!vi->show_microbatch || !inspect_action_has_microbatch(a, vi->microbatch))
            want = a->microbatch;
    }
    if (want < 0)
        want = vi->show_microbatch ? vi->microbatch + 1 : 0;
    vi->show_microbatch = want < M;
    vi->microbatch = vi->show_microbatch ? want : -1;
}

/* A pointer's rank in the rows, held to the first or last beyond them. */
static int area_rank(const viewer_state *st, double y)
{
    const timeline_view *tv = &st->timeline;
    const int r = timeline_view_row_at_y(tv, y);
    if (r >= 0)
        return r;
    return y < tv->row_y ? 0 : tv->ranks - 1;
}

static double clamp_t(const viewer_inspect *vi, double t)
{
    const double end = tl_of(vi)->makespan;
    return !(t > 0) ? 0 : t > end ? end : t;
}

static bool something_shown(const viewer_inspect *vi)
{
    return vi->selected.kind != TIMELINE_HIT_NONE || vi->area || vi->show_microbatch;
}

/* Whether framebuffer point (x, y) lies in the 3D view. */
static bool in_view(const frame_layout *l, double x, double y)
{
    return l->view_w >= 1 && l->view_h >= 1 && x >= l->view_x && x <= l->view_x + l->view_w &&
           y >= l->view_y && y <= l->view_y + l->view_h;
}

/* What a click at (x, y) in the 3D view selects: the owner of the nearest
 * object drawn at t under it, seen by cam (scene_pick.h); NONE for empty
 * space. */
static timeline_panel_hover pick_in_view(const viewer_inspect *vi, const viewer_state *st,
                                         const frame_layout *l, double x, double y, camera cam)
{
    const session *s = vi->s;
    if (!s->has_scene || !in_view(l, x, y))
        return NONE;
    scene_state ss;
    scene_state_init(&ss, &s->scene);
    scene_state_at(&s->scene, st->play.t, &ss);
    const timeline_panel_hover h =
        scene_pick(&s->scene, &ss, &cam, l->view_w, l->view_h, (float)l->small_px,
                   (float)(x - l->view_x), (float)(y - l->view_y), NULL);
    scene_state_deinit(&ss);
    return h;
}

bool viewer_inspect_apply(viewer_inspect *vi, viewer_state *st, const command *c, double clock)
{
    follow(vi, st->s);
    const bool mine = command_group_of(c->kind) == COMMAND_INSPECT;
    const timeline *tl = tl_of(vi);
    switch (c->kind) {
    case CMD_PRESS:
        vi->press_t = st->play.t;
        vi->press_known = true;
        return true;
    case CMD_CLICK: {
        const frame_layout l = viewer_state_layout(st);
        timeline_panel_hover h = NONE;
        timeline_lod_piece stretch;
        if (c->b >= l.panel_y && timeline_hit_at(&st->timeline, tl, c->a, c->b, &h) &&
            h.kind == TIMELINE_HIT_STRETCH) {
            /* merged thin bars: the area they cover, whose card counts them */
            set_selection(vi, NONE);
            vi->area = timeline_lod_find(tl, &st->timeline, h.rank, h.index, &stretch);
            if (vi->area) {
                vi->area_t0 = clamp_t(vi, timeline_view_x_to_time(&st->timeline, stretch.x0));
                vi->area_t1 = clamp_t(vi, timeline_view_x_to_time(&st->timeline, stretch.x1));
                vi->area_rank0 = vi->area_rank1 = h.rank;
            }
            if (vi->press_known) /* a click selects; the press's scrub is taken back */
                viewer_state_set_time(st, vi->press_t, clock);
            vi->press_known = false;
            return true;
        }
        if (h.kind != TIMELINE_HIT_NONE) {
            set_selection(vi, h);
            if (vi->press_known) /* a click selects; the press's scrub is taken back */
                viewer_state_set_time(st, vi->press_t, clock);
        } else if (c->b < l.panel_y) { /* the 3D view: what is drawn under the pointer */
            set_selection(vi, pick_in_view(vi, st, &l, c->a, c->b, viewer_state_camera(st, clock)));
        } else {
            set_selection(vi, NONE);
        }
        vi->press_known = false;
        vi->area = false;
        return true;
    }
    case CMD_AREA_FROM:
        set_selection(vi, NONE); /* the card shows the area */
        vi->area = true;
        vi->area_t0 = vi->area_t1 = clamp_t(vi, timeline_view_x_to_time(&st->timeline, c->a));
        vi->area_rank0 = vi->area_rank1 = area_rank(st, c->b);
        return true;
    case CMD_AREA_TO:
        if (!vi->area)
            return true;
        vi->area_t1 = clamp_t(vi, timeline_view_x_to_time(&st->timeline, c->a));
        vi->area_rank1 = area_rank(st, c->b);
        return true;
    case CMD_INSPECT_WALK:
        walk(vi, st, c->a > 0 ? 1 : -1);
        return true;
    case CMD_CRITICAL:
        vi->critical = !vi->critical;
        return true;
    case CMD_MICROBATCH:
        next_microbatch(vi);
        return true;
    case CMD_EVENT_STEP:
        if (!selected_action(vi))
            return false;
        step_on_rank(vi, st, c->a > 0 ? 1 : -1);
        return true;
    case CMD_TL_FIT:
        if (vi->selected.kind == TIMELINE_HIT_NONE)
            return false;
        if (vi->fit_step == 0)
            centre_selection(vi, &st->timeline);
        else
            fit_selection(vi, &st->timeline);
        vi->fit_step ^= 1;
        return true;
    default:
        return mine;
    }
}

bool viewer_inspect_escape(viewer_inspect *vi, const viewer_state *st)
{
    follow(vi, st->s);
    if (!something_shown(vi))
        return false;
    set_selection(vi, NONE);
    vi->area = false;
    vi->show_microbatch = false;
    vi->microbatch = -1;
    return true;
}

/* The hover's card: an all-reduce (its hidden part), an idle block (what
 * the rank waits for), the memory lane (which activations are live). */
static void hover_tip(viewer_inspect *vi, const viewer_state *st, frame_view *fv)
{
    inspect_overlay *o = &fv->inspect;
    o->tip_rank = -1;
    const timeline_view *tv = &st->timeline;
    const timeline *tl = tl_of(vi);
    const double x = st->pointer.x, y = st->pointer.y;
    if (!st->pointer.known || x < tv->plot_x || x > tv->plot_x + tv->plot_w || y < tv->plot_y ||
        y > tv->plot_y + tv->plot_h)
        return;
    const double t = timeline_view_x_to_time(tv, x);
    if (st->pointer.hover.kind == TIMELINE_HIT_ALLREDUCE) {
        inspect_text_allreduce(&vi->in, st->pointer.hover.index, &vi->tip);
        const transfer *ar = &tl->allreduces[st->pointer.hover.index];
        o->tip_rank = st->pointer.hover.rank, o->tip_t0 = ar->start, o->tip_t1 = ar->end;
        o->tip_lane = true;
        fv->hover = NONE; /* this card says all the one-line tooltip would */
    } else if (st->pointer.hover.kind == TIMELINE_HIT_NONE && t >= 0 && t <= tl->makespan) {
        const int r = timeline_view_row_at_y(tv, y);
        const float top = r >= 0 ? tv->row_y + (float)r * tv->row_pitch : 0;
        inspect_idle idle;
        if (r >= 0 && y >= top && y <= top + tv->bar_h && inspect_idle_at(&vi->in, r, t, &idle)) {
            inspect_text_idle(&vi->in, &idle, &vi->tip);
            o->tip_rank = r, o->tip_t0 = idle.t0, o->tip_t1 = idle.t1;
            o->tip_lane = false;
        } else if (tv->mem_h > 0 && y >= tv->mem_y && y < tv->mem_y + tv->mem_h) {
            int m = (int)((y - tv->mem_y) / (tv->mem_h / (float)tv->ranks));
            m = m < 0 ? 0 : m >= tv->ranks ? tv->ranks - 1 : m;
            inspect_text_memory(&vi->in, m, t, &vi->tip);
        } else {
            return;
        }
    } else {
        return;
    }
    o->tip = &vi->tip;
    o->tip_x = (float)x, o->tip_y = (float)y;
}

void viewer_inspect_view(viewer_inspect *vi, const viewer_state *st, frame_view *fv)
{
    follow(vi, st->s);
    inspect_overlay *o = &fv->inspect;
    *o = (inspect_overlay){
        .selected = vi->selected,
        .show_microbatch = vi->show_microbatch,
        .microbatch = vi->microbatch,
        .critical = vi->critical ? path_of(vi) : NULL,
        .show_area = vi->area,
        .area_t0 = vi->area_t0,
        .area_t1 = vi->area_t1,
        .area_rank0 = vi->area_rank0,
        .area_rank1 = vi->area_rank1,
        .tip_rank = -1,
    };
    vi->details.count = 0;
    if (selected_action(vi)) {
        inspect_text_action(&vi->in, vi->selected.rank, vi->selected.index, &vi->details);
    } else if (vi->selected.kind == TIMELINE_HIT_ALLREDUCE) {
        inspect_text_allreduce(&vi->in, vi->selected.index, &vi->details);
    } else if (vi->area) {
        inspect_area a;
        inspect_area_of(&vi->in, vi->area_t0, vi->area_t1, vi->area_rank0, vi->area_rank1, &a);
        inspect_text_area(&vi->in, &a, &vi->details);
    } else if (vi->critical) {
        inspect_text_path(&vi->in, path_of(vi), &vi->details);
    }
    o->details = vi->details.count > 0 ? &vi->details : NULL;
    if (!st->talk.presenting)
        hover_tip(vi, st, fv);
}

/* Where a click in the 3D view would point at the selected action: the top
 * of its stage's block in replica 0 at the GPU level; at the detail level
 * the centre of the first of its (stage, micro-batch)'s objects drawn at t
 * (a lit matmul box, else a face); in framebuffer pixels, seen by the
 * camera at rest; false when it has none drawn (or none is selected). */
static bool aim_point(const viewer_inspect *vi, const viewer_state *st, float *px, float *py)
{
    const session *s = vi->s;
    if (!selected_action(vi) || !s->has_scene)
        return false;
    const frame_layout l = viewer_state_layout(st);
    if (l.view_w < 1 || l.view_h < 1)
        return false;
    const scene *sc = &s->scene;
    const action *a = &tl_of(vi)->program->rank[vi->selected.rank].actions[vi->selected.index];
    if (!action_is_compute((action_kind)a->kind))
        return false;
    static const scene_kind kinds[] = {SCENE_MATMUL1, SCENE_MATMUL2, SCENE_HIDDEN, SCENE_RESIDUAL};
    scene_state ss;
    scene_state_init(&ss, sc);
    scene_state_at(sc, st->play.t, &ss);
    bool found = false;
    if (scene_renderer_level(sc, &st->camera.cam, l.view_w, l.view_h, (float)l.small_px) !=
        SCENE_LEVEL_DETAIL) {
        /* the GPU level draws the stage's block: the middle of its top */
        scene_box b;
        scene_object_place(sc, SCENE_BLOCK, a->stage, 0, 0, &ss.kind[SCENE_BLOCK][a->stage], &b);
        const float c[3] = {0.5f * (b.min[0] + b.max[0]), 0.5f * (b.min[1] + b.max[1]), b.max[2]};
        found = camera_project(&st->camera.cam, l.view_w / l.view_h, c, (int)l.view_w,
                               (int)l.view_h, px, py);
    }
    for (int k = 0; k < 4 && !found; k++)
        for (int j = 0; j < sc->layers_per_stage && !found; j++) {
            const int layer = a->stage * sc->layers_per_stage + j;
            const int slot = scene_slot_of(sc, a->microbatch);
            const object_state *o = &ss.kind[kinds[k]][(size_t)layer * (size_t)sc->slots + slot];
            scene_box b;
            if (!o->visible || !scene_object_place(sc, kinds[k], layer, slot, 0, o, &b))
                continue;
            const float c[3] = {0.5f * (b.min[0] + b.max[0]), 0.5f * (b.min[1] + b.max[1]),
                                0.5f * (b.min[2] + b.max[2])};
            found = camera_project(&st->camera.cam, l.view_w / l.view_h, c, (int)l.view_w,
                                   (int)l.view_h, px, py);
        }
    scene_state_deinit(&ss);
    *px += l.view_x, *py += l.view_y;
    return found;
}

void viewer_inspect_state(viewer_inspect *vi, const viewer_state *st, char *buf, size_t n)
{
    follow(vi, st->s);
    const timeline *tl = tl_of(vi);
    char sel[ACTION_TEXT_MAX + 8] = "-", waited[ACTION_TEXT_MAX + 8] = "none",
                               busy[ACTION_TEXT_MAX + 8] = "-";
    double wait = 0, delay = -1, p2p = -1;
    if (selected_action(vi)) {
        inspect_action a;
        inspect_action_at(&vi->in, vi->selected.rank, vi->selected.index, &a);
        action_format(&a.act, sel);
        if (a.latest >= 0) {
            const inspect_link *l = &a.in[a.latest];
            delay = l->delay;
            p2p = l->p2p_time;
        }
        if (a.cause == INSPECT_CAUSE_INPUT) {
            const inspect_link *l = &a.in[a.latest];
            action h = action_make(l->half, l->stage, l->microbatch);
            action_format(&h, waited);
            wait = a.starved;
        } else if (a.cause == INSPECT_CAUSE_RANK) {
            snprintf(waited, sizeof waited, "rank");
            action_format(&tl->program->rank[vi->selected.rank].actions[a.prev_index], busy);
            wait = a.queued;
        }
    } else if (vi->selected.kind == TIMELINE_HIT_ALLREDUCE) {
        snprintf(sel, sizeof sel, "ar%d", vi->selected.index);
    }
    char area[400] = "area=-";
    if (vi->area) {
        inspect_area a;
        inspect_area_of(&vi->in, vi->area_t0, vi->area_t1, vi->area_rank0, vi->area_rank1, &a);
        snprintf(area, sizeof area,
                 "area=%.6f:%.6f area_ranks=%d:%d area_busy=%.6f area_idle=%.6f "
                 "area_bubble=%.6f area_counts=%d:%d:%d:%d:%d",
                 a.t0, a.t1, a.rank0, a.rank1, a.busy, a.idle, a.bubble, a.count[ACTION_F],
                 a.count[ACTION_B], a.count[ACTION_I], a.count[ACTION_W],
                 a.count[ACTION_OVERLAP_F_B]);
    }
    char aim[64] = "-";
    float ax = 0, ay = 0;
    if (aim_point(vi, st, &ax, &ay))
        snprintf(aim, sizeof aim, "%.2f:%.2f", ax, ay);
    const timeline_view *tv = &st->timeline;
    snprintf(buf, n,
             " selected=%s selected_rank=%d waited_for=%s busy_with=%s wait=%.6f delay=%.6f "
             "p2p=%.6f critical=%d microbatch=%d %s rows=%.2f:%.2f:%.2f aim=%s",
             sel, vi->selected.rank, waited, busy, wait, delay, p2p, vi->critical,
             vi->show_microbatch ? vi->microbatch : -1, area, tv->row_y, tv->row_pitch, tv->bar_h,
             aim);
}
