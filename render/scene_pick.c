/* scene_pick.c - the ray through a pixel of the 3D view, the nearest object
 * drawn that it meets, and what selecting it selects. See scene_pick.h. */
#include "scene_pick.h"

#include "scene_renderer.h"

#include <assert.h>
#include <cglm/cglm.h>
#include <math.h>

#include "timeline_query.h"

static const timeline_panel_hover NONE = {.kind = TIMELINE_HIT_NONE, .rank = -1, .index = -1};

/* ---- the ray --------------------------------------------------------------- */

void scene_pick_ray(const camera *cam, float w, float h, float px, float py, float origin[3],
                    float dir[3])
{
    assert(cam && w > 0 && h > 0 && origin && dir);
    mat4 vp, inv;
    camera_view_proj(cam, w / h, NULL, NULL, (float *)vp);
    glm_mat4_inv(vp, inv);
    /* A point of the pixel between the near and far planes (NDC z = 0),
     * back in the world; the lens shift is in vp, so it is in this too. */
    vec4 ndc = {2 * px / w - 1, 1 - 2 * py / h, 0, 1}, p;
    glm_mat4_mulv(inv, ndc, p);
    camera_eye(cam, origin);
    float len = 0;
    for (int a = 0; a < 3; a++) {
        dir[a] = p[a] / p[3] - origin[a];
        len += dir[a] * dir[a];
    }
    len = sqrtf(len);
    for (int a = 0; a < 3; a++)
        dir[a] = len > 0 ? dir[a] / len : 0;
}

bool scene_pick_box(const scene_box *b, float pad, const float origin[3], const float dir[3],
                    float *t)
{
    float t0 = 0, t1 = INFINITY;
    for (int a = 0; a < 3; a++) {
        const float lo = b->min[a] - pad, hi = b->max[a] + pad;
        if (fabsf(dir[a]) < 1e-12f) { /* parallel to this slab: inside it or never */
            if (origin[a] < lo || origin[a] > hi)
                return false;
            continue;
        }
        float ta = (lo - origin[a]) / dir[a], tb = (hi - origin[a]) / dir[a];
        if (ta > tb) {
            const float swap = ta;
            ta = tb, tb = swap;
        }
        t0 = fmaxf(t0, ta);
        t1 = fminf(t1, tb);
        if (t0 > t1)
            return false;
    }
    *t = t0;
    return true;
}

bool scene_pick_object(const scene *s, const scene_state *st, scene_level level,
                       const float origin[3], const float dir[3], scene_pick_hit *out)
{
    assert(s && st && origin && dir && out);
    /* a face has no thickness: a hair's width, far below anything drawn apart */
    const float pad = s->d_model * 1e-3f;
    bool any = false;
    for (int k = 0; k < SCENE_KIND_COUNT; k++) {
        const scene_kind kind = (scene_kind)k;
        if (!scene_level_draws(level, kind) || (kind == SCENE_BLOCK && level == SCENE_LEVEL_DETAIL))
            continue;
        const int per = scene_kind_slots(s, kind), copies = scene_kind_copies(s, kind);
        const int64_t count = scene_kind_count(s, kind);
        for (int64_t i = 0; i < count; i++) {
            const object_state *o = &st->kind[k][i];
            if (!o->visible || !(o->opacity > 0))
                continue;
            for (int rep = 0; rep < copies; rep++) {
                scene_box b;
                float t;
                const int index = (int)(i / per), m = (int)(i % per);
                if (!scene_object_place(s, kind, index, m, rep, o, &b) ||
                    !scene_pick_box(&b, pad, origin, dir, &t) || (any && t >= out->distance))
                    continue;
                *out = (scene_pick_hit){kind, index, m, rep, t};
                any = true;
            }
        }
    }
    return any;
}

/* ---- what it selects --------------------------------------------------------- */

/* Whether compute action a works on `stage` (micro-batch m; any when m < 0),
 * in either half of an overlapped pair. */
static bool works_on(const action *a, int stage, int m)
{
    if (!action_is_compute((action_kind)a->kind))
        return false;
    if (a->stage == stage && (m < 0 || a->microbatch == m))
        return true;
    return a->kind == ACTION_OVERLAP_F_B && a->stage2 == stage && (m < 0 || a->microbatch2 == m);
}

/* The stage's actions (on micro-batch m; any when m < 0) found round t:
 * the one running, the last ended by t and the first starting after t;
 * -1 for each that does not exist. */
typedef struct around {
    int running, last, next;
} around;

static around actions_around(const scene *s, int stage, int m, double t)
{
    const timeline *tl = s->timeline;
    const int r = s->stage_rank[stage];
    const program_rank *pr = &tl->program->rank[r];
    around out = {-1, -1, -1};
    for (int k = 0; k < pr->count; k++) {
        if (!works_on(&pr->actions[k], stage, m))
            continue;
        const action_time *at = &tl->time[r][k];
        if (at->start <= t && t < at->end)
            out.running = k;
        else if (at->end <= t)
            out.last = k; /* ends never decrease along a rank */
        else if (out.next < 0)
            out.next = k;
    }
    return out;
}

static timeline_panel_hover action_hit(const scene *s, int stage, int k)
{
    if (k < 0)
        return NONE;
    return (timeline_panel_hover){TIMELINE_HIT_ACTION, s->stage_rank[stage], k};
}

/* The forward (backward: the B or I) half on (stage, m), or NONE. */
static timeline_panel_hover half_on(const scene *s, int stage, int m, bool backward)
{
    const int r = s->stage_rank[stage];
    const program_rank *pr = &s->timeline->program->rank[r];
    for (int k = 0; k < pr->count; k++) {
        const action *a = &pr->actions[k];
        const bool f = (a->kind == ACTION_F || a->kind == ACTION_OVERLAP_F_B) &&
                       a->stage == stage && a->microbatch == m;
        const bool bwd =
            ((a->kind == ACTION_B || a->kind == ACTION_I) && a->stage == stage &&
             a->microbatch == m) ||
            (a->kind == ACTION_OVERLAP_F_B && a->stage2 == stage && a->microbatch2 == m);
        if (backward ? bwd : f)
            return action_hit(s, stage, k);
    }
    return NONE;
}

static int allreduce_of(const scene *s, int stage)
{
    const timeline *tl = s->timeline;
    for (int i = 0; i < tl->allreduce_count; i++)
        if (tl->allreduces[i].stage == stage)
            return i;
    return -1;
}

static timeline_panel_hover allreduce_hit(const scene *s, int i)
{
    if (i < 0)
        return NONE;
    return (timeline_panel_hover){TIMELINE_HIT_ALLREDUCE, s->timeline->allreduces[i].src_rank, i};
}

/* Block k of a stage's stack: the k-th live micro-batch in the order its
 * forward started (then by number); the stack counts live ones by
 * timeline.h's rule. Its forward, which stored the activations. */
static timeline_panel_hover stack_block(const scene *s, int stage, int k, double t)
{
    for (int m = 0; m < s->microbatches; m++) {
        const timeline_cell *c = timeline_cell_at(&s->cells, stage, m);
        if (!(t >= c->f_start && t < c->freed))
            continue;
        int before = 0;
        for (int n = 0; n < s->microbatches; n++) {
            const timeline_cell *d = timeline_cell_at(&s->cells, stage, n);
            before += t >= d->f_start && t < d->freed &&
                      (d->f_start < c->f_start || (d->f_start == c->f_start && n < m));
        }
        if (before == k)
            return half_on(s, stage, m, false);
    }
    return NONE;
}

/* Which of a slot's micro-batches a picked object stands for (scene.h,
 * "Level of detail"): the first one computing on the stage at t, else the
 * first one live there, else the first; for a send (boundary `stage`), the
 * first one in flight. With one micro-batch per slot, that one. */
static int slot_member(const scene *s, scene_kind kind, int stage, int slot, double t)
{
    int first, end, live = -1;
    scene_slot_members(s, slot, &first, &end);
    for (int m = first; m < end && end - first > 1; m++) {
        const timeline_cell *c = timeline_cell_at(&s->cells, stage, m);
        if (kind == SCENE_P2P || kind == SCENE_SLAB) {
            const timeline_cell *n = timeline_cell_at(&s->cells, stage + 1, m);
            if ((t >= c->f_end && t <= fmax(n->in_ready, c->f_end + s->flash_min)) ||
                (t >= n->b_end && t <= fmax(c->grad_ready, n->b_end + s->flash_min)))
                return m;
            continue;
        }
        if ((t >= c->f_start && t < c->f_end) || (t >= c->b_start && t < c->b_end) ||
            (t >= c->w_start && t < c->w_end))
            return m;
        if (live < 0 && t >= c->f_start && t < c->freed)
            live = m;
    }
    return live >= 0 ? live : first;
}

timeline_panel_hover scene_pick_owner(const scene *s, const scene_state *st,
                                      const scene_pick_hit *hit)
{
    assert(s && st && hit);
    const double t = st->t;
    const int J = scene_kind_slots(s, hit->kind);
    const object_state *o = &st->kind[hit->kind][(size_t)hit->index * (size_t)J + hit->slot];
    switch (hit->kind) {
    case SCENE_P2P:
    case SCENE_SLAB: {
        /* the sender: F on the boundary's first stage, a backward on its second */
        const int m = slot_member(s, hit->kind, hit->index, hit->slot, t);
        if (o->label == SCENE_LABEL_GRAD)
            return half_on(s, hit->index + 1, m, true);
        return half_on(s, hit->index, m, false);
    }
    case SCENE_STACK:
        return stack_block(s, hit->index, hit->slot * s->slot_size, t);
    case SCENE_ALLREDUCE:
    case SCENE_CHUNK:
        return allreduce_hit(s, allreduce_of(s, scene_layer_stage(s, hit->index)));
    case SCENE_GPU: {
        /* the GPU: what it runs at t, else what it ran last, else first */
        const timeline *tl = s->timeline;
        int k = timeline_action_at(tl, hit->index, t);
        if (k < 0)
            k = timeline_last_compute_ended(tl, hit->index, t);
        if (k < 0)
            k = timeline_next_compute(tl, hit->index, 0);
        if (k < 0 || k >= tl->program->rank[hit->index].count)
            return NONE;
        return (timeline_panel_hover){TIMELINE_HIT_ACTION, hit->index, k};
    }
    case SCENE_BLOCK:
    case SCENE_WEIGHT1:
    case SCENE_WEIGHT2: {
        /* a stage's block or its weights: the stage's work at t */
        const int stage = hit->kind == SCENE_BLOCK ? hit->index : scene_layer_stage(s, hit->index);
        const around a = actions_around(s, stage, -1, t);
        if (a.running >= 0)
            return action_hit(s, stage, a.running);
        const int ar = allreduce_of(s, stage);
        if (ar >= 0 && s->timeline->allreduces[ar].start <= t &&
            t < s->timeline->allreduces[ar].end)
            return allreduce_hit(s, ar);
        return action_hit(s, stage, a.last >= 0 ? a.last : a.next);
    }
    default: {
        /* a matmul box, an activation or gradient face: its (stage, micro-batch) */
        const int stage = hit->kind == SCENE_INPUT ? hit->index : scene_layer_stage(s, hit->index);
        const around a =
            actions_around(s, stage, slot_member(s, hit->kind, stage, hit->slot, t), t);
        if (a.running >= 0)
            return action_hit(s, stage, a.running);
        if (o->role == SCENE_ROLE_GRADIENT && a.next >= 0)
            return action_hit(s, stage, a.next);
        return action_hit(s, stage, a.last >= 0 ? a.last : a.next);
    }
    }
}

timeline_panel_hover scene_pick(const scene *s, const scene_state *st, const camera *cam, float w,
                                float h, float text_px, float px, float py, scene_pick_hit *hit)
{
    assert(s && st && cam);
    if (!(w >= 1 && h >= 1))
        return NONE;
    float origin[3], dir[3];
    scene_pick_ray(cam, w, h, px, py, origin, dir);
    scene_pick_hit found;
    const scene_level level = scene_renderer_level(s, cam, w, h, text_px);
    if (!scene_pick_object(s, st, level, origin, dir, &found))
        return NONE;
    if (hit)
        *hit = found;
    return scene_pick_owner(s, st, &found);
}
