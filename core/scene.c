/* scene.c - layout of the 3D picture and state(t). See scene.h. */
#include "scene.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* Only the running matmul's box shows: drawing the whole action's boxes
 * faintly hid the faces behind a yellow haze. */
#define MATMUL_LIT_OPACITY 0.45f
#define TRANSFER_OPACITY 0.85f
#define WAITING_OPACITY 0.4f /* an input that arrived before its stage can use it */
#define SLICE_INSET 0.08f /* of a micro-batch slice, on each side */

/* ---- layout -------------------------------------------------------------- */

static float or_default(float v, float def)
{
    return v > 0 ? v : v < 0 ? 0 : def;
}

int scene_layer_stage(const scene *s, int layer)
{
    return layer / s->layers_per_stage;
}

static float layer_x0(const scene *s, int layer)
{
    return (float)layer * s->d_hidden + (float)scene_layer_stage(s, layer) * s->stage_gap;
}

void scene_stage_x(const scene *s, int stage, float *x0, float *x1)
{
    int first = stage * s->layers_per_stage;
    *x0 = layer_x0(s, first);
    *x1 = layer_x0(s, first + s->layers_per_stage - 1) + s->d_hidden;
}

void scene_replica_y(const scene *s, int replica, float *y0, float *y1)
{
    *y0 = (float)replica * (s->batch + s->replica_gap);
    *y1 = *y0 + s->batch;
}

/* z range of the residual layer l reads (x^l): above z = 0 for even l. */
static void z_in(const scene *s, int layer, float *z0, float *z1)
{
    *z0 = layer % 2 == 0 ? 0 : -s->d_model;
    *z1 = *z0 + s->d_model;
}

/* z range of the residual layer l writes (x^(l+1)): the other half. */
static void z_out(const scene *s, int layer, float *z0, float *z1)
{
    z_in(s, layer + 1, z0, z1);
}

static scene_box box_of(float x0, float x1, float y0, float y1, float z0, float z1)
{
    return (scene_box){{x0, y0, z0}, {x1, y1, z1}};
}

void scene_init(scene *s, const scene_desc *desc, const timeline *tl)
{
    assert(s && desc && tl && tl->program);
    const program *p = tl->program;
    int K = desc->layers_per_stage > 0 ? desc->layers_per_stage : SCENE_DEFAULT_LAYERS_PER_STAGE;
    *s = (scene){
        .timeline = tl,
        .stages = p->stages,
        .layers = p->stages * K,
        .microbatches = p->microbatches,
        .replicas = tl->dp > 0 ? tl->dp : 1,
        .ranks = p->ranks,
        .layers_per_stage = K,
        .d_model = or_default(desc->d_model, SCENE_DEFAULT_D_MODEL),
        .d_hidden = or_default(desc->d_hidden, SCENE_DEFAULT_D_HIDDEN),
        .batch = or_default(desc->batch, SCENE_DEFAULT_BATCH),
        .stage_gap = or_default(desc->stage_gap, SCENE_DEFAULT_STAGE_GAP),
        .replica_gap = or_default(desc->replica_gap, SCENE_DEFAULT_REPLICA_GAP),
        .flash_min = desc->flash_min > 0 ? desc->flash_min : (float)(tl->makespan / 120),
        .stage_rank = p->stage_rank,
    };
    /* Sizes must stay positive to draw anything. */
    if (s->d_model <= 0)
        s->d_model = SCENE_DEFAULT_D_MODEL;
    if (s->d_hidden <= 0)
        s->d_hidden = SCENE_DEFAULT_D_HIDDEN;
    if (s->batch <= 0)
        s->batch = SCENE_DEFAULT_BATCH;

    int S = s->stages, M = s->microbatches;
    s->cells = ppf_malloc_large((size_t)S * (size_t)M * sizeof *s->cells);
    for (long k = 0; k < (long)S * M; k++)
        s->cells[k] = (scene_cell){0};
    for (int r = 0; r < p->ranks; r++) {
        const program_rank *pr = &p->rank[r];
        for (int k = 0; k < pr->count; k++) {
            const action *a = &pr->actions[k];
            action_time at = tl->time[r][k];
            switch ((action_kind)a->kind) {
            case ACTION_F: {
                scene_cell *c = &s->cells[(size_t)a->stage * M + a->microbatch];
                c->f_start = at.start, c->f_end = at.end;
                break;
            }
            case ACTION_B:
            case ACTION_I: {
                scene_cell *c = &s->cells[(size_t)a->stage * M + a->microbatch];
                c->b_start = at.start, c->b_end = at.end;
                if (a->kind == ACTION_B)
                    c->w_start = at.start, c->w_end = at.end;
                break;
            }
            case ACTION_W: {
                scene_cell *c = &s->cells[(size_t)a->stage * M + a->microbatch];
                c->w_start = at.start, c->w_end = at.end;
                break;
            }
            case ACTION_OVERLAP_F_B: {
                scene_cell *f = &s->cells[(size_t)a->stage * M + a->microbatch];
                scene_cell *b = &s->cells[(size_t)a->stage2 * M + a->microbatch2];
                f->f_start = at.start, f->f_end = at.end;
                b->b_start = b->w_start = at.start;
                b->b_end = b->w_end = at.end;
                break;
            }
            default:
                break;
            }
        }
    }
    /* Transfers: a hop between ranks costs the producing rank's p2p time. */
    for (int st = 0; st < S; st++) {
        for (int m = 0; m < M; m++) {
            scene_cell *c = &s->cells[(size_t)st * M + m];
            if (st == 0) {
                c->in_ready = c->f_start;
            } else {
                const scene_cell *prev = &s->cells[(size_t)(st - 1) * M + m];
                int from = p->stage_rank[st - 1];
                c->in_ready = prev->f_end + (from != p->stage_rank[st] ? tl->p2p[from] : 0);
            }
            if (st == S - 1) {
                c->grad_ready = c->b_start;
            } else {
                const scene_cell *next = &s->cells[(size_t)(st + 1) * M + m];
                int from = p->stage_rank[st + 1];
                c->grad_ready = next->b_end + (from != p->stage_rank[st] ? tl->p2p[from] : 0);
            }
            c->freed = fmax(c->b_end, c->w_end);
        }
    }
    s->allreduce_start = ppf_malloc((size_t)S * sizeof *s->allreduce_start);
    s->allreduce_end = ppf_malloc((size_t)S * sizeof *s->allreduce_end);
    for (int st = 0; st < S; st++)
        s->allreduce_start[st] = s->allreduce_end[st] = -1;
    for (int k = 0; k < tl->allreduce_count; k++) {
        const transfer *x = &tl->allreduces[k];
        s->allreduce_start[x->stage] = x->start;
        s->allreduce_end[x->stage] = x->end;
    }

    float x1 = layer_x0(s, s->layers - 1) + s->d_hidden;
    float y0, y1;
    scene_replica_y(s, s->replicas - 1, &y0, &y1);
    s->bounds = box_of(0, x1, 0, y1, -s->d_model, s->d_model);
}

void scene_deinit(scene *s)
{
    if (!s)
        return;
    free(s->cells);
    free(s->allreduce_start);
    free(s->allreduce_end);
    *s = (scene){0};
}

int scene_kind_microbatches(const scene *s, scene_kind kind)
{
    return kind == SCENE_WEIGHT1 || kind == SCENE_WEIGHT2 || kind == SCENE_ALLREDUCE
               ? 1
               : s->microbatches;
}

/* Objects of one kind per replica, and copies drawn, from the sizes alone:
 * the one place that counts them, for the scene and for the budget. */
static int64_t kind_count(scene_kind kind, int64_t stages, int64_t layers, int64_t microbatches)
{
    int64_t per = kind == SCENE_WEIGHT1 || kind == SCENE_WEIGHT2 || kind == SCENE_ALLREDUCE
                      ? 1
                      : microbatches;
    switch (kind) {
    case SCENE_INPUT:
        return stages * per;
    case SCENE_P2P:
        return (stages - 1) * per;
    default:
        return layers * per;
    }
}

static int64_t kind_copies(scene_kind kind, int64_t replicas)
{
    return kind == SCENE_ALLREDUCE ? replicas - 1 : replicas;
}

int64_t scene_kind_count(const scene *s, scene_kind kind)
{
    return kind_count(kind, s->stages, s->layers, s->microbatches);
}

int64_t scene_count_objects(int64_t stages, int64_t layers_per_stage, int64_t microbatches,
                            int64_t replicas)
{
    int64_t n = 0;
    for (int k = 0; k < SCENE_KIND_COUNT; k++)
        n += kind_count((scene_kind)k, stages, stages * layers_per_stage, microbatches) *
             kind_copies((scene_kind)k, replicas);
    return n;
}

int scene_kind_copies(const scene *s, scene_kind kind)
{
    return (int)kind_copies(kind, s->replicas);
}

scene_box scene_object_box(const scene *s, scene_kind kind, int index, int microbatch, int replica)
{
    float by0, by1;
    scene_replica_y(s, replica, &by0, &by1);
    float slice = s->batch / (float)s->microbatches;
    float y0 = by0 + slice * (float)microbatch + slice * SLICE_INSET;
    float y1 = y0 + slice * (1 - 2 * SLICE_INSET);
    float z0, z1;
    switch (kind) {
    case SCENE_WEIGHT1:
    case SCENE_WEIGHT2: {
        float x0 = layer_x0(s, index);
        if (kind == SCENE_WEIGHT1)
            z_in(s, index, &z0, &z1);
        else
            z_out(s, index, &z0, &z1);
        return box_of(x0, x0 + s->d_hidden, by1, by1, z0, z1);
    }
    case SCENE_HIDDEN: {
        float x0 = layer_x0(s, index);
        return box_of(x0, x0 + s->d_hidden, y0, y1, 0, 0);
    }
    case SCENE_RESIDUAL: {
        float x = layer_x0(s, index) + s->d_hidden;
        z_out(s, index, &z0, &z1);
        return box_of(x, x, y0, y1, z0, z1);
    }
    case SCENE_INPUT: {
        int layer = index * s->layers_per_stage;
        float x = layer_x0(s, layer);
        z_in(s, layer, &z0, &z1);
        return box_of(x, x, y0, y1, z0, z1);
    }
    case SCENE_MATMUL1:
    case SCENE_MATMUL2: {
        float x0 = layer_x0(s, index);
        if (kind == SCENE_MATMUL1)
            z_in(s, index, &z0, &z1);
        else
            z_out(s, index, &z0, &z1);
        return box_of(x0, x0 + s->d_hidden, y0, y1, z0, z1);
    }
    case SCENE_P2P: {
        float sx0, sx1, nx0, nx1;
        scene_stage_x(s, index, &sx0, &sx1);
        scene_stage_x(s, index + 1, &nx0, &nx1);
        z_out(s, (index + 1) * s->layers_per_stage - 1, &z0, &z1);
        return box_of(sx1, nx0, y0, y1, z0, z1);
    }
    case SCENE_ALLREDUCE: {
        float x0 = layer_x0(s, index), inset = s->d_hidden * 0.1f;
        float ny0, ny1;
        scene_replica_y(s, replica + 1, &ny0, &ny1);
        return box_of(x0 + inset, x0 + s->d_hidden - inset, by1, ny0, -s->d_model * 0.5f,
                      s->d_model * 0.5f);
    }
    default:
        assert(!"unknown scene kind");
        return (scene_box){{0, 0, 0}, {0, 0, 0}};
    }
}

/* ---- labels -------------------------------------------------------------- */

/* Appends n in superscript digits. */
static size_t put_superscript(char *buf, size_t size, size_t o, int n)
{
    static const char *const digits[10] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
    char dec[16];
    snprintf(dec, sizeof dec, "%d", n);
    for (const char *d = dec; *d; d++) {
        const char *g = digits[*d - '0'];
        size_t len = strlen(g);
        if (o + len >= size)
            break;
        memcpy(buf + o, g, len);
        o += len;
    }
    buf[o < size ? o : size - 1] = '\0';
    return o;
}

void scene_object_label(const scene *s, scene_kind kind, int index, scene_label_variant variant,
                        char *buf, size_t size)
{
    assert(buf && size > 0);
    const char *stem = "";
    int number = index;
    switch (kind) {
    case SCENE_WEIGHT1:
        stem = "W₁";
        break;
    case SCENE_WEIGHT2:
        stem = "W₂";
        break;
    case SCENE_HIDDEN:
        stem = "h";
        break;
    case SCENE_RESIDUAL:
        stem = "x";
        number = index + 1;
        break;
    case SCENE_INPUT:
        stem = "x";
        number = index * s->layers_per_stage;
        break;
    default:
        buf[0] = '\0';
        return;
    }
    int o = snprintf(buf, size, "%s%s", variant == SCENE_LABEL_GRAD ? "∇" : "", stem);
    if (o < 0 || (size_t)o >= size)
        return;
    put_superscript(buf, size, (size_t)o, number);
}

/* ---- state(t) ------------------------------------------------------------ */

void scene_state_init(scene_state *st, const scene *s)
{
    *st = (scene_state){0};
    for (int k = 0; k < SCENE_KIND_COUNT; k++) {
        int64_t n = scene_kind_count(s, (scene_kind)k);
        st->kind[k] = ppf_calloc((size_t)(n > 0 ? n : 1), sizeof(object_state));
    }
    st->focus = ppf_calloc((size_t)s->stages, sizeof *st->focus);
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

/* A transfer [start, end] is shown for at least flash_min; returns its
 * progress through the shown window, or -1 when t is outside it. */
static float flash_window(const scene *s, double start, double end, double t)
{
    double len = fmax(end - start, s->flash_min);
    if (!(len > 0) || t < start || t >= start + len)
        return -1;
    return (float)((t - start) / len);
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
static object_state activation_face(const scene_cell *c, int n, int i, int gi, double until,
                                    double t)
{
    float p = substep(c->f_start, c->f_end, n, i, t);
    if (p < 0 || t >= until)
        return hidden_state();
    bool grad = gi >= 0 && substep(c->b_start, c->b_end, n, gi, t) >= 1;
    return shown(grad ? SCENE_ROLE_GRADIENT : SCENE_ROLE_ACTIVATION,
                 grad ? SCENE_LABEL_GRAD : SCENE_LABEL_PLAIN, grad ? 1 : fmaxf(p, 0.05f), 0);
}

/* The state of one (stage, micro-batch)'s faces, boxes and sends. */
static void cell_state(const scene *s, int stage, int m, double t, scene_state *out)
{
    const int M = s->microbatches, K = s->layers_per_stage, n = 2 * K;
    const scene_cell *c = &s->cells[(size_t)stage * M + m];
    bool split = c->w_start != c->b_start || c->w_end != c->b_end;

    for (int j = 0; j < K; j++) {
        int l = stage * K + j;
        size_t at = (size_t)l * M + m;
        bool last_layer = j == K - 1;

        out->kind[SCENE_HIDDEN][at] = activation_face(
            c, n, forward_substep(j, 1), backward_substep(K, j, 2), c->freed, t);

        object_state x;
        if (!last_layer) {
            /* x^(l+1) feeds layer l+1: it turns into ∇x when that layer's
             * first matmul has run backward. */
            x = activation_face(c, n, forward_substep(j, 2), backward_substep(K, j + 1, 1),
                                c->freed, t);
        } else if (stage < s->stages - 1) {
            /* The stage's output: here until the send completes; its
             * gradient shows from arrival until the backward is done. */
            double arrived = s->cells[(size_t)(stage + 1) * M + m].in_ready;
            x = activation_face(c, n, forward_substep(j, 2), -1, arrived, t);
            if (within(t, c->grad_ready, c->b_end))
                x = shown(SCENE_ROLE_GRADIENT, SCENE_LABEL_GRAD, 1, 0);
        } else {
            /* The model's output: the loss's gradient starts the backward. */
            x = activation_face(c, n, forward_substep(j, 2), -1, c->b_start, t);
            if (within(t, c->b_start, c->freed))
                x = shown(SCENE_ROLE_GRADIENT, SCENE_LABEL_GRAD, 1, 0);
        }
        out->kind[SCENE_RESIDUAL][at] = x;

        for (int k = 1; k <= 2; k++) {
            object_state mm = hidden_state();
            if (!matmul_in(c->f_start, c->f_end, n, forward_substep(j, k), t, SCENE_LABEL_PLAIN,
                           &mm) &&
                !matmul_in(c->b_start, c->b_end, n, backward_substep(K, j, k), t,
                           SCENE_LABEL_GRAD, &mm) &&
                split)
                matmul_in(c->w_start, c->w_end, n, backward_substep(K, j, k), t, SCENE_LABEL_GRAD,
                          &mm);
            out->kind[k == 1 ? SCENE_MATMUL1 : SCENE_MATMUL2][at] = mm;
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
    out->kind[SCENE_INPUT][(size_t)stage * M + m] = in;

    /* The send to the next stage and the gradient coming back from it. */
    if (stage < s->stages - 1) {
        object_state x = hidden_state();
        if (s->stage_rank[stage] != s->stage_rank[stage + 1]) {
            const scene_cell *next = &s->cells[(size_t)(stage + 1) * M + m];
            float pf = flash_window(s, c->f_end, next->in_ready, t);
            float pb = flash_window(s, next->b_end, c->grad_ready, t);
            if (pf >= 0)
                x = shown(SCENE_ROLE_P2P, SCENE_LABEL_PLAIN, TRANSFER_OPACITY, 1 - 0.5f * pf);
            else if (pb >= 0)
                x = shown(SCENE_ROLE_P2P, SCENE_LABEL_GRAD, TRANSFER_OPACITY, 1 - 0.5f * pb);
        }
        out->kind[SCENE_P2P][(size_t)stage * M + m] = x;
    }
}

/* Weight-gradient accumulated for one matmul of a layer: the finished share
 * of that matmul's weight sub-step, summed over micro-batches, over M. */
static float weight_fill(const scene *s, int layer, int k, double t)
{
    const int M = s->microbatches, K = s->layers_per_stage;
    int stage = scene_layer_stage(s, layer), j = layer - stage * K;
    int i = backward_substep(K, j, k);
    double sum = 0;
    for (int m = 0; m < M; m++) {
        const scene_cell *c = &s->cells[(size_t)stage * M + m];
        if (t < c->w_start)
            continue;
        float p = substep(c->w_start, c->w_end, 2 * K, i, t);
        sum += p < 0 ? 0 : p;
    }
    return (float)(sum / M);
}

/* The first action index on a rank that starts after t (count if none):
 * starts never decrease in program order. */
static int first_start_after(const timeline *tl, int rank, double t)
{
    const action_time *times = tl->time[rank];
    int lo = 0, hi = tl->program->rank[rank].count;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (times[mid].start <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int timeline_action_at(const timeline *tl, int rank, double t)
{
    const program_rank *pr = &tl->program->rank[rank];
    const action_time *times = tl->time[rank];
    int lo = first_start_after(tl, rank, t);
    /* Zero-length steps may share the start of the action that runs. */
    for (int k = lo - 1; k >= 0 && times[k].start == times[lo - 1].start; k--)
        if (action_is_compute(pr->actions[k].kind) && t < times[k].end)
            return k;
    return -1;
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

void scene_state_at(const scene *s, const timeline *tl, double t, scene_state *out)
{
    assert(s && tl && out && tl == s->timeline);
    if (!(t >= 0))
        t = 0;
    if (t > tl->makespan)
        t = tl->makespan;
    out->t = t;
    for (int st = 0; st < s->stages; st++)
        for (int m = 0; m < s->microbatches; m++)
            cell_state(s, st, m, t, out);

    for (int l = 0; l < s->layers; l++) {
        out->kind[SCENE_WEIGHT1][l] = shown(SCENE_ROLE_WEIGHT, SCENE_LABEL_PLAIN, 1,
                                            weight_fill(s, l, 1, t));
        out->kind[SCENE_WEIGHT2][l] = shown(SCENE_ROLE_WEIGHT, SCENE_LABEL_PLAIN, 1,
                                            weight_fill(s, l, 2, t));
        int stage = scene_layer_stage(s, l);
        float p = s->replicas > 1 && s->allreduce_start[stage] >= 0
                      ? flash_window(s, s->allreduce_start[stage], s->allreduce_end[stage], t)
                      : -1;
        out->kind[SCENE_ALLREDUCE][l] =
            p >= 0 ? shown(SCENE_ROLE_ALLREDUCE, SCENE_LABEL_GRAD, TRANSFER_OPACITY, 1 - 0.5f * p)
                   : hidden_state();
    }

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
            out->focus[a->stage] = (stage_focus){ACTION_F, a->microbatch,
                                                 substep_layer(s, a->stage, ACTION_F, progress),
                                                 progress};
            out->focus[a->stage2] = (stage_focus){ACTION_B, a->microbatch2,
                                                  substep_layer(s, a->stage2, ACTION_B, progress),
                                                  progress};
        } else {
            out->focus[a->stage] = (stage_focus){(int8_t)kind, a->microbatch,
                                                 substep_layer(s, a->stage, kind, progress),
                                                 progress};
        }
    }
}

/* ---- captions ------------------------------------------------------------ */

static const char *kind_words(action_kind kind)
{
    switch (kind) {
    case ACTION_F:
        return "forward";
    case ACTION_B:
        return "backward";
    case ACTION_I:
        return "backward for inputs";
    case ACTION_W:
        return "backward for weights";
    default:
        return "work";
    }
}

void scene_caption(const scene *s, const timeline *tl, double t, int rank, char *buf, size_t size)
{
    assert(s && tl && buf && size > 0 && rank >= 0 && rank < s->ranks);
    const program *p = tl->program;
    const program_rank *pr = &p->rank[rank];
    int k = timeline_action_at(tl, rank, t);
    if (k >= 0) {
        const action *a = &pr->actions[k];
        if (a->kind == ACTION_OVERLAP_F_B) {
            snprintf(buf, size,
                     "rank %d: forward of micro-batch %d on stage %d overlapped with the backward "
                     "of micro-batch %d on stage %d",
                     rank, a->microbatch, a->stage, a->microbatch2, (int)a->stage2);
            return;
        }
        int o = snprintf(buf, size, "rank %d: %s of micro-batch %d on stage %d", rank,
                         kind_words((action_kind)a->kind), a->microbatch, a->stage);
        int to = -1;
        if (a->kind == ACTION_F && a->stage < s->stages - 1)
            to = p->stage_rank[a->stage + 1];
        else if ((a->kind == ACTION_B || a->kind == ACTION_I) && a->stage > 0)
            to = p->stage_rank[a->stage - 1];
        if (to >= 0 && to != rank && o > 0 && (size_t)o < size)
            snprintf(buf + o, size - (size_t)o, ", then p2p to rank %d", to);
        return;
    }
    for (int x = 0; x < tl->allreduce_count; x++) {
        const transfer *ar = &tl->allreduces[x];
        if (ar->src_rank == rank && t >= ar->start && t < ar->end) {
            snprintf(buf, size, "rank %d: all-reduce of stage %d's gradients across %d replicas",
                     rank, ar->stage, s->replicas);
            return;
        }
    }
    /* Idle: say what the next compute action waits for. */
    int next = -1;
    for (int j = first_start_after(tl, rank, t); j < pr->count; j++)
        if (action_is_compute(pr->actions[j].kind)) {
            next = j;
            break;
        }
    if (next < 0) {
        snprintf(buf, size, "rank %d: done with its work for this iteration", rank);
        return;
    }
    const action *a = &pr->actions[next];
    int stage = a->stage, m = a->microbatch;
    action_kind kind = (action_kind)a->kind;
    if (kind == ACTION_OVERLAP_F_B)
        kind = ACTION_F;
    if (kind == ACTION_F && stage > 0 && p->stage_rank[stage - 1] != rank)
        snprintf(buf, size, "rank %d: idle, waiting for micro-batch %d's activation from rank %d",
                 rank, m, p->stage_rank[stage - 1]);
    else if ((kind == ACTION_B || kind == ACTION_I) && stage < s->stages - 1 &&
             p->stage_rank[stage + 1] != rank)
        snprintf(buf, size, "rank %d: idle, waiting for micro-batch %d's gradient from rank %d",
                 rank, m, p->stage_rank[stage + 1]);
    else
        snprintf(buf, size, "rank %d: idle until %.2f, then %s of micro-batch %d on stage %d",
                 rank, tl->time[rank][next].start, kind_words(kind), m, stage);
}

int scene_caption_rank(const timeline *tl, double t)
{
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
        const program_rank *pr = &tl->program->rank[r];
        /* Nothing runs on r at t, so the last compute that started by t has ended. */
        for (int k = first_start_after(tl, r, t) - 1; k >= 0; k--) {
            if (!action_is_compute(pr->actions[k].kind) || tl->time[r][k].end > t)
                continue;
            if (tl->time[r][k].end > best_end) {
                best_end = tl->time[r][k].end;
                best = r;
            }
            break;
        }
    }
    return best;
}
