/* scene_state.c - state(t) of every object in the 3D picture, and the
 * caption line. See scene.h. Every timing rule comes from the timeline's
 * queries (timeline_query.h); what is here is how the picture shows them. */
#include "scene.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Only the running matmul's box shows: drawing the whole action's boxes
 * faintly hid the faces behind a yellow haze. */
#define MATMUL_LIT_OPACITY 0.45f
/* The p2p and all-reduce boxes are the wires; the tensors moving through
 * them (slabs, chunks) carry the story, so the wires stay light enough to
 * see the tensors inside. */
#define TRANSFER_OPACITY 0.25f
#define WAITING_OPACITY 0.4f /* an input that arrived before its stage can use it */

/* ---- state(t) ------------------------------------------------------------ */

void scene_state_init(scene_state *st, const scene *s)
{
    *st = (scene_state){0};
    for (int k = 0; k < SCENE_KIND_COUNT; k++) {
        int64_t n = scene_kind_count(s, (scene_kind)k);
        st->kind[k] = ppf_calloc((size_t)(n > 0 ? n : 1), sizeof(object_state));
        st->sized[k] = n;
    }
    st->focus = ppf_calloc((size_t)s->stages, sizeof *st->focus);
    st->sized_stages = s->stages;
    st->generation = s->generation;
}

bool scene_state_of(const scene_state *st, const scene *s)
{
    if (st->generation != s->generation || st->sized_stages != s->stages)
        return false;
    for (int k = 0; k < SCENE_KIND_COUNT; k++)
        if (st->sized[k] != scene_kind_count(s, (scene_kind)k))
            return false;
    return true;
}

void scene_state_deinit(scene_state *st)
{
    if (!st)
        return;
    for (int k = 0; k < SCENE_KIND_COUNT; k++)
        free(st->kind[k]);
    free(st->focus);
    *st = (scene_state){0};
}

/* Progress through sub-step i of n equal shares of [start, end] at t: < 0
 * before it starts, 1 once it is done. */
static float substep(double start, double end, int n, int i, double t)
{
    double d = (end - start) / n;
    double a = start + d * i, b = a + d;
    if (t < a)
        return -1;
    if (t >= b)
        return 1;
    return (float)((t - a) / d);
}

/* Sub-step of matmul k (1 or 2) of the stage's j-th layer: F runs them in
 * model order, a backward part (B, I or W) in reverse, matmul 2 first. */
static int forward_substep(int j, int k)
{
    return 2 * j + (k - 1);
}

static int backward_substep(int K, int j, int k)
{
    return 2 * (K - 1 - j) + (k == 2 ? 0 : 1);
}

static bool within(double t, double a, double b)
{
    return t >= a && t < b;
}

/* A transfer [start, end] is shown over [start, start + max(end - start,
 * flash_min)], both ends included so that its tensor is seen arriving
 * (scene.h, "Zero time"): it crosses over [start, start + max(end -
 * start, flash_min / 2)] and waits at the receiver for the rest. Returns
 * its way across (0 at the start, 1 once arrived), or -1 when t is outside
 * the window. `hold` is flash_min, or 0 for a still (scene_state_exact_at):
 * then the window is the transfer's own [start, end). */
static float flash_window(double hold, double start, double end, double t)
{
    const double shown = fmax(end - start, hold);
    const double cross = fmax(end - start, hold / 2);
    if (!(shown > 0) || t < start || t > start + shown || (hold <= 0 && t >= end))
        return -1;
    const float p = (float)((t - start) / cross);
    return p > 1 ? 1 : p;
}

/* Smoothstep: motion that starts and stops gently (0 at 0, 1 at 1). */
static float ease(float u)
{
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    return u * u * (3 - 2 * u);
}

/* A shown tensor's opacity at t: whole while its transfer [start, end)
 * runs, then fading to SCENE_ARRIVED_OPACITY over flash_min / 10, so that
 * only what is in flight is solid, without a pop. */
static float tensor_opacity(double hold, double end, double t)
{
    if (t < end)
        return 1;
    if (!(hold > 0))
        return SCENE_ARRIVED_OPACITY;
    const float u = ease((float)((t - end) / (hold / 10)));
    return 1 - (1 - SCENE_ARRIVED_OPACITY) * u;
}

static object_state hidden_state(void)
{
    return (object_state){0};
}

static object_state shown(scene_role role, scene_label_variant label, float opacity, float flash)
{
    return (object_state){.visible = 1,
                          .role = (uint8_t)role,
                          .label = (uint8_t)label,
                          .opacity = opacity,
                          .flash = flash};
}

/* A matmul box lit during its own sub-step of a compute action. */
static bool matmul_in(double start, double end, int n, int i, double t, scene_label_variant v,
                      object_state *out)
{
    if (!within(t, start, end))
        return false;
    float p = substep(start, end, n, i, t);
    if (!(p >= 0 && p < 1))
        return false;
    *out = shown(SCENE_ROLE_MATMUL, v, MATMUL_LIT_OPACITY, 1 - 0.5f * p);
    return true;
}

/* An activation face produced at sub-step i of the forward, live until
 * `until`, that turns into its gradient once backward sub-step `gi` is done. */
static object_state activation_face(const timeline_cell *c, int n, int i, int gi, double until,
                                    double t)
{
    float p = substep(c->f_start, c->f_end, n, i, t);
    if (p < 0 || t >= until)
        return hidden_state();
    bool grad = gi >= 0 && substep(c->b_start, c->b_end, n, gi, t) >= 1;
    return shown(grad ? SCENE_ROLE_GRADIENT : SCENE_ROLE_ACTIVATION,
                 grad ? SCENE_LABEL_GRAD : SCENE_LABEL_PLAIN, grad ? 1 : fmaxf(p, 0.05f), 0);
}

/* The state arrays start each t hidden, so with one member per slot a slot
 * is that member's state. */
void scene_slot_merge(object_state *slot, object_state member)
{
    if (member.visible && (!slot->visible || member.opacity > slot->opacity ||
                           (member.opacity == slot->opacity && member.flash > slot->flash)))
        *slot = member;
}

/* The state of one (stage, micro-batch)'s faces, boxes and sends, merged
 * into its slot. */
static void cell_state(const scene *s, int stage, int m, int slot, double t, double hold,
                       scene_state *out)
{
    const int J = s->slots, K = s->layers_per_stage, n = 2 * K;
    const timeline_cell *c = timeline_cell_at(&s->cells, stage, m);
    bool split = c->w_start != c->b_start || c->w_end != c->b_end;

    for (int j = 0; j < K; j++) {
        int l = stage * K + j;
        size_t at = (size_t)l * J + slot;
        bool last_layer = j == K - 1;

        scene_slot_merge(
            &out->kind[SCENE_HIDDEN][at],
            activation_face(c, n, forward_substep(j, 1), backward_substep(K, j, 2), c->freed, t));

        object_state x;
        if (!last_layer) {
            /* x^(l+1) feeds layer l+1: it turns into ∇x when that layer's
             * first matmul has run backward. */
            x = activation_face(c, n, forward_substep(j, 2), backward_substep(K, j + 1, 1),
                                c->freed, t);
        } else if (stage < s->stages - 1) {
            /* The stage's output: here until the send completes; its
             * gradient shows from arrival until the backward is done. */
            double arrived = timeline_input_ready(&s->cells, stage + 1, m);
            x = activation_face(c, n, forward_substep(j, 2), -1, arrived, t);
            if (within(t, c->grad_ready, c->b_end))
                x = shown(SCENE_ROLE_GRADIENT, SCENE_LABEL_GRAD, 1, 0);
        } else {
            /* The model's output: the loss's gradient starts the backward. */
            x = activation_face(c, n, forward_substep(j, 2), -1, c->b_start, t);
            if (within(t, c->b_start, c->freed))
                x = shown(SCENE_ROLE_GRADIENT, SCENE_LABEL_GRAD, 1, 0);
        }
        scene_slot_merge(&out->kind[SCENE_RESIDUAL][at], x);

        for (int k = 1; k <= 2; k++) {
            object_state mm = hidden_state();
            if (!matmul_in(c->f_start, c->f_end, n, forward_substep(j, k), t, SCENE_LABEL_PLAIN,
                           &mm) &&
                !matmul_in(c->b_start, c->b_end, n, backward_substep(K, j, k), t, SCENE_LABEL_GRAD,
                           &mm) &&
                split)
                matmul_in(c->w_start, c->w_end, n, backward_substep(K, j, k), t, SCENE_LABEL_GRAD,
                          &mm);
            scene_slot_merge(&out->kind[k == 1 ? SCENE_MATMUL1 : SCENE_MATMUL2][at], mm);
        }
    }

    /* The stage's input x^(sK): the data on stage 0, a received activation after. */
    object_state in = hidden_state();
    if (within(t, c->in_ready, c->freed) || (stage == 0 && within(t, c->f_start, c->freed))) {
        bool grad = t >= c->b_end;
        /* Received but not yet used: faint, as it sits in a receive buffer. */
        float opacity = t < c->f_start ? WAITING_OPACITY : 1;
        in = shown(grad ? SCENE_ROLE_GRADIENT : SCENE_ROLE_ACTIVATION,
                   grad ? SCENE_LABEL_GRAD : SCENE_LABEL_PLAIN, opacity, 0);
    }
    scene_slot_merge(&out->kind[SCENE_INPUT][(size_t)stage * J + slot], in);

    /* The send to the next stage and the gradient coming back from it: the
     * wire flashes and the tensor crosses it. */
    if (stage < s->stages - 1) {
        object_state x = hidden_state(), slab = hidden_state();
        if (s->stage_rank[stage] != s->stage_rank[stage + 1]) {
            const timeline_cell *next = timeline_cell_at(&s->cells, stage + 1, m);
            float pf = flash_window(hold, c->f_end, next->in_ready, t);
            float pb = flash_window(hold, next->b_end, c->grad_ready, t);
            if (pf >= 0) {
                x = shown(SCENE_ROLE_P2P, SCENE_LABEL_PLAIN, TRANSFER_OPACITY, 1 - 0.5f * pf);
                slab = shown(SCENE_ROLE_ACTIVATION, SCENE_LABEL_PLAIN,
                             tensor_opacity(hold, next->in_ready, t), t < next->in_ready);
                slab.travel = ease(pf);
            } else if (pb >= 0) {
                x = shown(SCENE_ROLE_P2P, SCENE_LABEL_GRAD, TRANSFER_OPACITY, 1 - 0.5f * pb);
                slab = shown(SCENE_ROLE_GRADIENT, SCENE_LABEL_GRAD,
                             tensor_opacity(hold, c->grad_ready, t), t < c->grad_ready);
                slab.travel = ease(pb);
            }
        }
        scene_slot_merge(&out->kind[SCENE_P2P][(size_t)stage * J + slot], x);
        scene_slot_merge(&out->kind[SCENE_SLAB][(size_t)stage * J + slot], slab);
    }
}

/* Weight-gradient accumulated for one matmul of a layer: the finished share
 * of that matmul's weight sub-step, summed over micro-batches, over M. A slot
 * whose span ends before t has every member's share whole; one that starts
 * after t, none. */
static float weight_fill(const scene *s, int layer, int k, double t)
{
    const int M = s->microbatches, K = s->layers_per_stage, J = s->slots;
    int stage = scene_layer_stage(s, layer), j = layer - stage * K;
    int i = backward_substep(K, j, k);
    double sum = 0;
    for (int slot = 0; slot < J; slot++) {
        int first, end;
        scene_slot_members(s, slot, &first, &end);
        size_t at = (size_t)stage * J + slot;
        if (t > s->slot_hi[at]) {
            sum += end - first;
            continue;
        }
        if (t < s->slot_lo[at])
            continue;
        for (int m = first; m < end; m++) {
            const timeline_cell *c = timeline_cell_at(&s->cells, stage, m);
            if (t < c->w_start)
                continue;
            float p = substep(c->w_start, c->w_end, 2 * K, i, t);
            sum += p < 0 ? 0 : p;
        }
    }
    return (float)(sum / M);
}

static int substep_layer(const scene *s, int stage, action_kind kind, float progress)
{
    int K = s->layers_per_stage, n = 2 * K;
    int i = (int)(progress * n);
    if (i >= n)
        i = n - 1;
    int j = kind == ACTION_F ? i / 2 : K - 1 - i / 2;
    return stage * K + j;
}

static void state_at(const scene *s, double t, double hold, scene_state *out)
{
    assert(s && s->timeline && out);
    assert(scene_state_of(out, s) && "a state sized for this scene, not one rebuilt in its place");
    assert(s->generation == s->timeline->generation && "a scene of its timeline's build");
    const timeline *tl = s->timeline;
    if (!(t >= 0))
        t = 0;
    if (t > tl->makespan)
        t = tl->makespan;
    out->t = t;
    for (int k = 0; k < SCENE_KIND_COUNT; k++)
        memset(out->kind[k], 0, (size_t)scene_kind_count(s, (scene_kind)k) * sizeof(object_state));
    const int J = s->slots;
    for (int st = 0; st < s->stages; st++) {
        int live = 0;
        for (int slot = 0; slot < J; slot++) {
            const size_t at = (size_t)st * J + slot;
            if (t < s->slot_lo[at] || t > s->slot_hi[at])
                continue; /* nothing of these micro-batches shows on this stage */
            int first, end;
            scene_slot_members(s, slot, &first, &end);
            for (int m = first; m < end; m++) {
                cell_state(s, st, m, slot, t, hold, out);
                const timeline_cell *c = timeline_cell_at(&s->cells, st, m);
                live += t >= c->f_start && t < c->freed; /* timeline.h's live activations */
            }
        }
        for (int k = 0; k < J && k * s->slot_size < live; k++)
            out->kind[SCENE_STACK][(size_t)st * J + k] =
                shown(SCENE_ROLE_ACTIVATION, SCENE_LABEL_PLAIN, 1, 0);
    }
    /* one tower per GPU: a stage's tiles stand on those of the GPU's
     * earlier stages */
    for (int r = 0; r < s->ranks; r++) {
        int level = 0;
        for (int st = s->rank_stage0[r]; st < s->stages; st++) {
            if (s->stage_rank[st] != r)
                continue;
            for (int k = 0; k < J && out->kind[SCENE_STACK][(size_t)st * J + k].visible; k++)
                out->kind[SCENE_STACK][(size_t)st * J + k].travel = (float)level++;
        }
    }

    for (int l = 0; l < s->layers; l++) {
        out->kind[SCENE_WEIGHT1][l] =
            shown(SCENE_ROLE_WEIGHT, SCENE_LABEL_PLAIN, 1, weight_fill(s, l, 1, t));
        out->kind[SCENE_WEIGHT2][l] =
            shown(SCENE_ROLE_WEIGHT, SCENE_LABEL_PLAIN, 1, weight_fill(s, l, 2, t));
        int stage = scene_layer_stage(s, l);
        float p = s->replicas > 1 && s->allreduce_start[stage] >= 0
                      ? flash_window(hold, s->allreduce_start[stage], s->allreduce_end[stage], t)
                      : -1;
        out->kind[SCENE_ALLREDUCE][l] =
            p >= 0 ? shown(SCENE_ROLE_ALLREDUCE, SCENE_LABEL_GRAD, 1, 1 - 0.5f * p)
                   : hidden_state();
        object_state chunk = hidden_state();
        if (p >= 0) {
            chunk = shown(SCENE_ROLE_GRADIENT, SCENE_LABEL_GRAD, 1, 1);
            chunk.travel = p;
        }
        out->kind[SCENE_CHUNK][l] = chunk;
    }

    for (int r = 0; r < s->ranks; r++)
        out->kind[SCENE_GPU][r] =
            shown(SCENE_ROLE_GPU, SCENE_LABEL_PLAIN, 1, timeline_action_at(tl, r, t) >= 0);
    for (int st = 0; st < s->stages; st++)
        out->focus[st] = (stage_focus){.kind = ACTION_IDLE, .microbatch = -1, .layer = -1};
    for (int r = 0; r < s->ranks; r++) {
        int k = timeline_action_at(tl, r, t);
        if (k < 0)
            continue;
        const action *a = &tl->program->rank[r].actions[k];
        action_time at = tl->time[r][k];
        float progress = at.end > at.start ? (float)((t - at.start) / (at.end - at.start)) : 0;
        action_kind kind = (action_kind)a->kind;
        if (kind == ACTION_OVERLAP_F_B) {
            out->focus[a->stage] = (stage_focus){
                ACTION_F, a->microbatch, substep_layer(s, a->stage, ACTION_F, progress), progress};
            out->focus[a->stage2] =
                (stage_focus){ACTION_B, a->microbatch2,
                              substep_layer(s, a->stage2, ACTION_B, progress), progress};
        } else {
            out->focus[a->stage] = (stage_focus){
                (int8_t)kind, a->microbatch, substep_layer(s, a->stage, kind, progress), progress};
        }
    }
    for (int st = 0; st < s->stages; st++) {
        object_state b =
            shown(SCENE_ROLE_COMPUTE, SCENE_LABEL_PLAIN, 1, out->focus[st].kind != ACTION_IDLE);
        b.action = (uint8_t)out->focus[st].kind;
        /* an idle stage whose gradients are being reduced wears the
         * all-reduce's colour, as its row's bar does in the timeline */
        if (b.action == ACTION_IDLE && s->replicas > 1 && s->allreduce_start[st] >= 0 &&
            t >= s->allreduce_start[st] && t < s->allreduce_end[st])
            b.role = SCENE_ROLE_ALLREDUCE;
        out->kind[SCENE_BLOCK][st] = b;
    }
}

void scene_state_at(const scene *s, double t, scene_state *out)
{
    state_at(s, t, s->flash_min, out);
}

void scene_state_exact_at(const scene *s, double t, scene_state *out)
{
    state_at(s, t, 0, out);
}

/* ---- captions ------------------------------------------------------------ */

void scene_caption(const scene *s, double t, int rank, char *buf, size_t size)
{
    assert(s && s->timeline && buf && size > 0 && rank >= 0 && rank < s->ranks);
    const timeline *tl = s->timeline;
    const program *p = tl->program;
    int k = timeline_action_at(tl, rank, t);
    if (k >= 0) {
        const action *a = &p->rank[rank].actions[k];
        if (a->kind == ACTION_OVERLAP_F_B) {
            snprintf(buf, size,
                     "rank %d: forward of micro-batch %d on stage %d overlapped with the backward "
                     "of micro-batch %d on stage %d",
                     rank, a->microbatch, a->stage, a->microbatch2, (int)a->stage2);
            return;
        }
        int o = snprintf(buf, size, "rank %d: %s of micro-batch %d on stage %d", rank,
                         action_kind_words((action_kind)a->kind), a->microbatch, a->stage);
        int to = timeline_output_stage(p, (action_kind)a->kind, a->stage);
        if (to >= 0 && p->stage_rank[to] != rank && o > 0 && (size_t)o < size)
            snprintf(buf + o, size - (size_t)o, ", then p2p to rank %d", p->stage_rank[to]);
        return;
    }
    int x = timeline_allreduce_at(tl, rank, t);
    if (x >= 0) {
        snprintf(buf, size, "rank %d: all-reduce of stage %d's gradients across %d replicas", rank,
                 tl->allreduces[x].stage, s->replicas);
        return;
    }
    timeline_wait w = timeline_idle_wait(tl, rank, t);
    switch (w.kind) {
    case TIMELINE_WAIT_DONE:
        snprintf(buf, size, "rank %d: done with its work for this iteration", rank);
        break;
    case TIMELINE_WAIT_ACTIVATION:
        snprintf(buf, size, "rank %d: idle, waiting for micro-batch %d's activation from rank %d",
                 rank, w.microbatch, w.from_rank);
        break;
    case TIMELINE_WAIT_GRADIENT:
        snprintf(buf, size, "rank %d: idle, waiting for micro-batch %d's gradient from rank %d",
                 rank, w.microbatch, w.from_rank);
        break;
    case TIMELINE_WAIT_TURN:
        snprintf(buf, size, "rank %d: idle until %.2f, then %s of micro-batch %d on stage %d", rank,
                 w.start, action_kind_words(w.action), w.microbatch, w.stage);
        break;
    }
}

int scene_caption_rank(const scene *s, double t)
{
    assert(s && s->timeline);
    const timeline *tl = s->timeline;
    int best = -1;
    double best_start = -1;
    for (int r = 0; r < tl->program->ranks; r++) {
        int k = timeline_action_at(tl, r, t);
        if (k >= 0 && tl->time[r][k].start > best_start) {
            best = r;
            best_start = tl->time[r][k].start;
        }
    }
    if (best >= 0)
        return best;
    double best_end = -1;
    best = 0;
    for (int r = 0; r < tl->program->ranks; r++) {
        int k = timeline_last_compute_ended(tl, r, t);
        if (k >= 0 && tl->time[r][k].end > best_end) {
            best_end = tl->time[r][k].end;
            best = r;
        }
    }
    return best;
}
