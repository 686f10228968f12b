/* scene.c - layout of the 3D picture and its labels. See scene.h; state(t)
 * and captions are in scene_state.c. */
#include "scene.h"

#include "budget.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define SLICE_INSET 0.08f    /* of a micro-batch slice, on each side */
#define SLAB_THICKNESS 0.2f  /* of the stage gap: thin enough to read as a moving sheet */
#define CHUNK_INSET 0.12f    /* of a chunk's share of the layer, on each side */
#define CHUNK_THICKNESS 0.3f /* of the replica gap (a quarter band when there is none) */
#define CHUNK_ARC 1.6f       /* a long hop's lift over the picture, in d_model */
#define STACK_HEIGHT 2.5f    /* a stack of all M micro-batches, in d_model */
#define STACK_BLOCK 0.4f     /* the tallest block, in d_model (few micro-batches) */
#define FLASH_FRACTION 200   /* flash_min = makespan / this (scene.h, "Zero time") */

/* ---- layout -------------------------------------------------------------- */

scene_desc scene_desc_defaults(void)
{
    return (scene_desc){
        .layers_per_stage = SCENE_DEFAULT_LAYERS_PER_STAGE,
        .d_model = SCENE_DEFAULT_D_MODEL,
        .d_hidden = SCENE_DEFAULT_D_HIDDEN,
        .batch = SCENE_DEFAULT_BATCH,
        .stage_gap = SCENE_DEFAULT_STAGE_GAP,
        .replica_gap = SCENE_DEFAULT_REPLICA_GAP,
    };
}

static float positive_or(float v, float def)
{
    return v > 0 ? v : def;
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

static scene_box slab_box(const scene *s, int stage, int slot, int replica, bool backward,
                          float travel);
static scene_box chunk_box(const scene *s, int layer, int chunk, int from, int to, float progress);

static void add_corners(scene *s, scene_box b)
{
    for (int i = 0; i < 8; i++) {
        float *p = s->fit_points[s->fit_point_count++];
        p[0] = (i & 1) ? b.max[0] : b.min[0];
        p[1] = (i & 2) ? b.max[1] : b.min[1];
        p[2] = (i & 4) ? b.max[2] : b.min[2];
    }
}

/* See scene.fit_points. A chunk hopping past a neighbour (ring wrap-round,
 * tree) arcs over the picture, so with more than two replicas the gaps
 * reach up to the arc's top. */
static void fit_points_init(scene *s, float x1)
{
    const int S = s->stages, D = s->replicas;
    s->fit_points = ppf_malloc((size_t)8 * (size_t)(D * (S + 2)) * sizeof *s->fit_points);
    const float h = s->d_model * 0.45f + (D > 2 ? s->d_model * CHUNK_ARC : 0);
    for (int r = 0; r < D; r++) {
        float y0, y1;
        scene_replica_y(s, r, &y0, &y1);
        add_corners(s, box_of(0, x1, y0, y1, -s->d_model, s->d_model));
        if (r + 1 < D) {
            float ny0, ny1;
            scene_replica_y(s, r + 1, &ny0, &ny1);
            add_corners(s, box_of(0, x1, y1, ny0, -h, h));
        }
        for (int st = 0; st < S; st++) {
            int rank = s->stage_rank ? s->stage_rank[st] : st;
            int peak = s->timeline->per_rank[rank].peak_activations;
            peak = peak < 1 ? 1 : peak > s->microbatches ? s->microbatches : peak;
            scene_box lo = scene_object_box(s, SCENE_STACK, st, 0, r);
            scene_box hi = scene_object_box(s, SCENE_STACK, st, scene_slot_of(s, peak - 1), r);
            add_corners(s, (scene_box){{lo.min[0], lo.min[1], lo.min[2]},
                                       {hi.max[0], hi.max[1], hi.max[2]}});
        }
    }
}

/* scene.slot_lo/slot_hi. A (stage, micro-batch)'s objects show from its
 * input's arrival or its forward's start, whichever is first, until the last
 * of its backward parts, its gradient's arrival and its sends to and from the
 * next stage have ended (flash_min past each end, for the short flashes). */
static void slot_spans_init(scene *s)
{
    const int S = s->stages, J = s->slots;
    s->slot_lo = ppf_malloc((size_t)S * (size_t)J * sizeof *s->slot_lo);
    s->slot_hi = ppf_malloc((size_t)S * (size_t)J * sizeof *s->slot_hi);
    for (int st = 0; st < S; st++) {
        for (int j = 0; j < J; j++) {
            int first, end;
            scene_slot_members(s, j, &first, &end);
            double lo = INFINITY, hi = -INFINITY;
            for (int m = first; m < end; m++) {
                const timeline_cell *c = timeline_cell_at(&s->cells, st, m);
                double h = fmax(fmax(c->freed, c->b_end), fmax(c->w_end, c->grad_ready));
                h = fmax(h, c->f_end);
                if (st + 1 < S) {
                    const timeline_cell *n = timeline_cell_at(&s->cells, st + 1, m);
                    h = fmax(h, fmax(n->in_ready, n->b_end));
                }
                lo = fmin(lo, fmin(c->in_ready, c->f_start));
                hi = fmax(hi, h + s->flash_min);
            }
            s->slot_lo[(size_t)st * J + j] = lo;
            s->slot_hi[(size_t)st * J + j] = hi;
        }
    }
}

void scene_init(scene *s, const scene_desc *desc, const timeline *tl)
{
    assert(s && desc && tl && tl->program);
    const program *p = tl->program;
    int K = desc->layers_per_stage > 0 ? desc->layers_per_stage : SCENE_DEFAULT_LAYERS_PER_STAGE;
    *s = (scene){
        .timeline = tl,
        .generation = tl->generation,
        .stages = p->stages,
        .layers = p->stages * K,
        .microbatches = p->microbatches,
        .replicas = tl->dp > 0 ? tl->dp : 1,
        .ranks = p->ranks,
        .layers_per_stage = K,
        .d_model = positive_or(desc->d_model, SCENE_DEFAULT_D_MODEL),
        .d_hidden = positive_or(desc->d_hidden, SCENE_DEFAULT_D_HIDDEN),
        .batch = positive_or(desc->batch, SCENE_DEFAULT_BATCH),
        .stage_gap = desc->stage_gap > 0 ? desc->stage_gap : 0,
        .replica_gap = desc->replica_gap > 0 ? desc->replica_gap : 0,
        .flash_min = desc->flash_min > 0 ? desc->flash_min : (float)(tl->makespan / FLASH_FRACTION),
        .allreduce_tree = desc->allreduce_tree,
        .stage_rank = p->stage_rank,
    };
    s->slots = scene_slots_for(p->microbatches, desc->max_slots);
    s->slot_size = (p->microbatches + s->slots - 1) / s->slots;

    const int S = s->stages;
    timeline_cells_init(&s->cells, tl);
    s->allreduce_start = ppf_malloc((size_t)S * sizeof *s->allreduce_start);
    s->allreduce_end = ppf_malloc((size_t)S * sizeof *s->allreduce_end);
    for (int st = 0; st < S; st++)
        s->allreduce_start[st] = s->allreduce_end[st] = -1;
    for (int k = 0; k < tl->allreduce_count; k++) {
        const transfer *x = &tl->allreduces[k];
        s->allreduce_start[x->stage] = x->start;
        s->allreduce_end[x->stage] = x->end;
    }
    slot_spans_init(s);

    float x1 = layer_x0(s, s->layers - 1) + s->d_hidden;
    float y0, y1;
    scene_replica_y(s, s->replicas - 1, &y0, &y1);
    /* The stacks never rise above the most live activations any rank holds
     * (M for GPipe, P for 1F1B): the box ends there, so cameras fit what is
     * drawn, not an M-high stack that never comes. */
    int peak = 1;
    for (int r = 0; r < p->ranks; r++)
        peak = tl->per_rank[r].peak_activations > peak ? tl->per_rank[r].peak_activations : peak;
    peak = peak < s->microbatches ? peak : s->microbatches;
    scene_box top = scene_object_box(s, SCENE_STACK, 0, scene_slot_of(s, peak - 1), 0);
    s->bounds = box_of(0, x1, 0, y1, -s->d_model, top.max[2]);
    fit_points_init(s, x1);
}

void scene_deinit(scene *s)
{
    if (!s)
        return;
    timeline_cells_deinit(&s->cells);
    free(s->allreduce_start);
    free(s->allreduce_end);
    free(s->fit_points);
    free(s->slot_lo);
    free(s->slot_hi);
    *s = (scene){0};
}

static bool per_layer(scene_kind kind)
{
    return kind == SCENE_WEIGHT1 || kind == SCENE_WEIGHT2 || kind == SCENE_ALLREDUCE ||
           kind == SCENE_CHUNK;
}

int scene_kind_slots(const scene *s, scene_kind kind)
{
    return per_layer(kind) ? 1 : s->slots;
}

int scene_slots_for(int64_t microbatches, int max_slots)
{
    int64_t cap = max_slots > 0 ? max_slots : SCENE_DEFAULT_MAX_SLOTS;
    if (microbatches <= cap)
        return microbatches > 0 ? (int)microbatches : 1;
    int64_t size = (microbatches + cap - 1) / cap;
    return (int)((microbatches + size - 1) / size);
}

int scene_slot_of(const scene *s, int microbatch)
{
    return microbatch / s->slot_size;
}

void scene_slot_members(const scene *s, int slot, int *first, int *end)
{
    *first = slot * s->slot_size;
    *end = *first + s->slot_size < s->microbatches ? *first + s->slot_size : s->microbatches;
}

/* Objects of one kind per replica, and copies drawn, from the sizes alone:
 * the one place that counts them, for the scene and for the budget. */
static int64_t kind_count(scene_kind kind, int64_t stages, int64_t layers, int64_t slots)
{
    int64_t per = per_layer(kind) ? 1 : slots;
    switch (kind) {
    case SCENE_INPUT:
    case SCENE_STACK:
        return stages * per;
    case SCENE_P2P:
    case SCENE_SLAB:
        return (stages - 1) * per;
    default:
        return layers * per;
    }
}

static int64_t kind_copies(scene_kind kind, int64_t replicas)
{
    if (kind == SCENE_ALLREDUCE)
        return replicas - 1;
    if (kind == SCENE_CHUNK) /* nothing to reduce with one replica */
        return replicas > 1 ? replicas : 0;
    return replicas;
}

int64_t scene_kind_count(const scene *s, scene_kind kind)
{
    return kind_count(kind, s->stages, s->layers, s->slots);
}

int64_t scene_count_objects(int64_t stages, int64_t layers_per_stage, int64_t microbatches,
                            int64_t replicas)
{
    int64_t n = 0;
    for (int k = 0; k < SCENE_KIND_COUNT; k++)
        n += kind_count((scene_kind)k, stages, stages * layers_per_stage,
                        scene_slots_for(microbatches, 0)) *
             kind_copies((scene_kind)k, replicas);
    return n;
}

double scene_count_objects_rough(int64_t stages, int64_t layers_per_stage, int64_t microbatches,
                                 int64_t replicas)
{
    /* Each term is at most a few million (the scenario's own limits), so
     * the 64-bit count cannot overflow; the rough product in double guards
     * a caller that passes larger terms. */
    const double rough = (double)replicas * (double)stages * (double)layers_per_stage *
                         (double)scene_slots_for(microbatches, 0);
    return rough < 9e18
               ? (double)scene_count_objects(stages, layers_per_stage, microbatches, replicas)
               : rough;
}

bool scene_check_budget(int64_t stages, int64_t layers_per_stage, int64_t microbatches,
                        int64_t replicas, ppf_error *err)
{
    return budget_check_objects(
        scene_count_objects_rough(stages, layers_per_stage, microbatches, replicas), replicas,
        stages, layers_per_stage, scene_slots_for(microbatches, 0), err);
}

int scene_kind_copies(const scene *s, scene_kind kind)
{
    return (int)kind_copies(kind, s->replicas);
}

scene_box scene_object_box(const scene *s, scene_kind kind, int index, int slot, int replica)
{
    float by0, by1;
    scene_replica_y(s, replica, &by0, &by1);
    float slice = s->batch / (float)s->slots;
    float y0 = by0 + slice * (float)slot + slice * SLICE_INSET;
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
    case SCENE_SLAB:
        return slab_box(s, index, slot, replica, false, 0);
    case SCENE_STACK: {
        /* Over the stage's last layer, at the near edge of the band, clear
         * of the faces below and of the GPU label over the stage's middle. */
        float sx0, sx1;
        scene_stage_x(s, index, &sx0, &sx1);
        float unit = fminf(STACK_BLOCK, STACK_HEIGHT / (float)s->slots) * s->d_model;
        float z0 = s->d_model * 1.15f + unit * (float)slot;
        float depth = fminf(s->batch * 0.25f, s->d_hidden * 0.5f);
        return box_of(sx1 - s->d_hidden * 0.55f, sx1 - s->d_hidden * 0.1f, by0, by0 + depth, z0,
                      z0 + unit * 0.8f);
    }
    case SCENE_CHUNK:
        return chunk_box(s, index, replica % s->replicas, replica, replica, 0);
    default:
        assert(!"unknown scene kind");
        return (scene_box){{0, 0, 0}, {0, 0, 0}};
    }
}

/* ---- moving objects -------------------------------------------------------- */

/* The slab of boundary (stage, stage + 1): forward from the stage's end to
 * the next stage's start, backward the other way, `travel` of the way, in
 * the micro-batch's slice at the height of the tensor it carries. */
static scene_box slab_box(const scene *s, int stage, int slot, int replica, bool backward,
                          float travel)
{
    float sx0, sx1, nx0, nx1, z0, z1;
    scene_stage_x(s, stage, &sx0, &sx1);
    scene_stage_x(s, stage + 1, &nx0, &nx1);
    z_out(s, (stage + 1) * s->layers_per_stage - 1, &z0, &z1);
    float gap = nx0 - sx1, th = gap * SLAB_THICKNESS;
    float x0 = backward ? nx0 - th - travel * (gap - th) : sx1 + travel * (gap - th);
    float by0, by1;
    scene_replica_y(s, replica, &by0, &by1);
    float slice = s->batch / (float)s->slots;
    float y0 = by0 + slice * (float)slot + slice * SLICE_INSET;
    return box_of(x0, x0 + th, y0, y0 + slice * (1 - 2 * SLICE_INSET), z0, z1);
}

static int wrap(int a, int n)
{
    return ((a % n) + n) % n;
}

static int ceil_log2(int n)
{
    int l = 0;
    while ((1 << l) < n)
        l++;
    return l;
}

bool scene_chunk_move_at(const scene *s, int replica, float travel, scene_chunk_move *out)
{
    const int D = s->replicas, r = replica;
    assert(r >= 0 && r < D);
    *out = (scene_chunk_move){.chunk = -1, .to = r};
    if (D < 2)
        return false;
    const int L = ceil_log2(D);
    const int steps = s->allreduce_tree ? 2 * L : 2 * (D - 1);
    float u = (travel < 0 ? 0 : travel > 1 ? 1 : travel) * (float)steps;
    int k = (int)u < steps ? (int)u : steps - 1;
    out->step = k, out->steps = steps;
    out->progress = fminf(u - (float)k, 1);
    if (!s->allreduce_tree) {
        out->chunk = k < D - 1 ? wrap(r - k, D) : wrap(r + 1 - (k - (D - 1)), D);
        out->to = (r + 1) % D;
        return true;
    }
    if (k < L) { /* reduce: level k's right children send to their parents */
        int h = 1 << k;
        if (r % (2 * h) != h)
            return false;
        out->to = r - h;
        return true;
    }
    int h = 1 << (2 * L - 1 - k); /* broadcast: parents send to their right children */
    if (r % (2 * h) != 0 || r + h >= D)
        return false;
    out->to = r + h;
    return true;
}

/* A chunk (or, -1, the whole gradient) of a layer, `progress` of the way
 * from replica `from`'s weights to replica `to`'s, arcing over the
 * replicas between when they are not neighbours. */
static scene_box chunk_box(const scene *s, int layer, int chunk, int from, int to, float progress)
{
    const int D = s->replicas;
    float x0 = layer_x0(s, layer), w = s->d_hidden, inset;
    if (chunk >= 0) {
        w /= (float)D;
        x0 += w * (float)chunk;
    }
    inset = w * CHUNK_INSET;
    float gap = s->replica_gap > 0 ? s->replica_gap : s->batch * 0.25f;
    float th = gap * CHUNK_THICKNESS;
    float a0, a1, b0, b1;
    scene_replica_y(s, from, &a0, &a1);
    scene_replica_y(s, to, &b0, &b1);
    float y = a1 + progress * (b1 - a1);
    int hop = from > to ? from - to : to - from;
    float lift = hop > 1 ? sinf(3.14159265f * progress) * s->d_model * CHUNK_ARC : 0;
    float h = s->d_model * 0.45f;
    return box_of(x0 + inset, x0 + w - inset, y, y + th, -h + lift, h + lift);
}

bool scene_object_place(const scene *s, scene_kind kind, int index, int slot, int replica,
                        const object_state *o, scene_box *out)
{
    assert(s && o && out);
    if (kind == SCENE_SLAB) {
        *out = slab_box(s, index, slot, replica, o->label == SCENE_LABEL_GRAD, o->travel);
        return true;
    }
    if (kind == SCENE_CHUNK) {
        scene_chunk_move mv;
        if (!scene_chunk_move_at(s, replica, o->travel, &mv))
            return false;
        *out = chunk_box(s, index, mv.chunk, replica, mv.to, mv.progress);
        return true;
    }
    *out = scene_object_box(s, kind, index, slot, replica);
    return true;
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
    case SCENE_SLAB: /* the tensor between stage `index` and the next */
        stem = "x";
        number = (index + 1) * s->layers_per_stage;
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
