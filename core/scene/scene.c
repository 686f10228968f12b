/* scene.c - layout of the 3D picture and its labels. See scene.h; state(t)
 * and captions are in scene_state.c. */
#include "scene.h"

#include "budget.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define SLICE_INSET 0.08f   /* of a micro-batch slice, on each side */
#define CHUNK_INSET 0.12f   /* of a chunk's share of the layer, on each side */
#define MATMUL_INSET 0.015f /* of a matmul box, inside the faces on it */
#define FLASH_FRACTION 40   /* flash_min = makespan / this (scene.h, "Zero time") */
#define DETAIL_SCALE 0.5f   /* scene units per unit of the matmul detail */
#define BLOCK_HEIGHT 0.5f   /* a block's height at the GPU level, of the detail's */
#define TOWER_MAX 3.0f      /* the tallest stack, in running blocks */

/* Margins and gaps in scene.unit (a sixteenth of a block's smaller side). */
#define MARGIN 2.0f     /* plate edge to block */
#define INNER_GAP 1.5f  /* block to its stack, stack to the next block */
#define TILE 5.0f       /* an activation tile's side */
#define TILE_PITCH 2.0f /* a tile and the gap over it, when the stack is short */
#define PLATE_H 1.2f    /* the plate's thickness */
#define LANE_W 3.0f     /* a p2p wire's width */
#define LANE_H 1.2f     /* and height */
#define PACKET 4.5f     /* a tensor in flight: its side */
#define LINK_H 1.6f     /* an all-reduce wire's height */
#define LABEL_ROOM 7.0f /* in front of the first row, kept in view for its labels */

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

static scene_box box_of(float x0, float x1, float y0, float y1, float z0, float z1)
{
    return (scene_box){{x0, y0, z0}, {x1, y1, z1}};
}

static int stage_rank_of(const scene *s, int stage)
{
    return s->stage_rank ? s->stage_rank[stage] : stage;
}

/* A GPU's plate: rank r's along x, replica d's along y. */
static scene_box plate_box(const scene *s, int rank, int replica)
{
    float x0 = (float)rank * s->pitch_x, y0 = (float)replica * s->pitch_y;
    return box_of(x0, x0 + s->plate_w, y0, y0 + s->plate_d, 0, s->plate_h);
}

/* The corner where a stage's block stands in a replica (its least x, y, z). */
static void block_origin(const scene *s, int stage, int replica, float o[3])
{
    const float g = s->unit;
    const scene_box p = plate_box(s, stage_rank_of(s, stage), replica);
    o[0] = p.min[0] + MARGIN * g +
           (float)s->stage_slot[stage] * (s->block_w + 2 * INNER_GAP * g + s->tile);
    o[1] = p.min[1] + MARGIN * g;
    o[2] = s->plate_h;
}

void scene_stage_x(const scene *s, int stage, float *x0, float *x1)
{
    float o[3];
    block_origin(s, stage, 0, o);
    *x0 = o[0];
    *x1 = o[0] + s->block_w;
}

void scene_replica_y(const scene *s, int replica, float *y0, float *y1)
{
    float o[3];
    block_origin(s, 0, replica, o);
    *y0 = o[1];
    *y1 = o[1] + s->block_d;
}

/* The matmul detail of a stage is drawn in its block: x along the stage's
 * layers from 0 (d_hidden each), y along the batch from 0, z in
 * [-d_model, d_model]; scaled by detail_scale into the block. */
static scene_box detail_box(const scene *s, int stage, int replica, float x0, float x1, float y0,
                            float y1, float z0, float z1)
{
    float o[3];
    block_origin(s, stage, replica, o);
    const float k = s->detail_scale;
    return box_of(o[0] + k * x0, o[0] + k * x1, o[1] + k * y0, o[1] + k * y1,
                  o[2] + k * (z0 + s->d_model), o[2] + k * (z1 + s->d_model));
}

/* x of layer l's start within its stage's detail. */
static float layer_local_x(const scene *s, int layer)
{
    return (float)(layer % s->layers_per_stage) * s->d_hidden;
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

/* The height over the plates at which a tensor passing over other GPUs
 * (an interleaved schedule's wrap, a ring's wrap-round) arcs. */
static float arc_height(const scene *s)
{
    return s->plate_h + 2.2f * s->block_h + s->tile * 2;
}

static scene_box slab_box(const scene *s, int stage, int replica, bool backward, float travel);
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

int scene_tallest_stack(const scene *s)
{
    int peak = 1;
    for (int r = 0; r < s->ranks; r++)
        peak = s->timeline->per_rank[r].peak_activations > peak
                   ? s->timeline->per_rank[r].peak_activations
                   : peak;
    peak = peak < s->microbatches ? peak : s->microbatches;
    return scene_slot_of(s, peak - 1) + 1;
}

/* Whether a send between these ranks passes over other GPUs. */
static bool long_hop(int a, int b)
{
    return a - b > 1 || b - a > 1;
}

/* See scene.fit_points: each replica's row of plates up to the tallest
 * stack, and the arcs over them where tensors take long hops. */
static void fit_points_init(scene *s)
{
    const int D = s->replicas;
    s->fit_points = ppf_malloc((size_t)8 * (size_t)(D + 2) * sizeof *s->fit_points);
    float top = s->plate_h + s->block_h;
    top = fmaxf(top, scene_object_box(s, SCENE_STACK, 0, scene_tallest_stack(s) - 1, 0).max[2]);
    bool arcs = D > 2 && !s->allreduce_tree;
    for (int st = 0; st + 1 < s->stages; st++)
        arcs = arcs || long_hop(stage_rank_of(s, st), stage_rank_of(s, st + 1));
    const scene_box first = plate_box(s, 0, 0), last = plate_box(s, s->ranks - 1, D - 1);
    for (int r = 0; r < D; r++) {
        const scene_box a = plate_box(s, 0, r), b = plate_box(s, s->ranks - 1, r);
        add_corners(s, box_of(a.min[0], b.max[0], a.min[1], a.max[1], 0, top));
    }
    /* room under the front row for the labels hung under its plates */
    add_corners(s, box_of(first.min[0], last.max[0], first.min[1] - LABEL_ROOM * s->unit,
                          first.min[1], 0, 0));
    if (arcs)
        add_corners(s, box_of(first.min[0], last.max[0], first.min[1], last.max[1], 0,
                              arc_height(s) + s->tile));
    s->bounds = box_of(first.min[0], last.max[0], first.min[1], last.max[1], 0,
                       arcs ? arc_height(s) + s->tile : top);
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

/* scene.stage_slot and stages_per_rank: a rank's stages side by side on
 * its plate in stage order. */
static void stage_slots_init(scene *s)
{
    int *count = ppf_calloc((size_t)s->ranks, sizeof *count);
    s->stage_slot = ppf_malloc((size_t)s->stages * sizeof *s->stage_slot);
    s->rank_stage0 = ppf_malloc((size_t)s->ranks * sizeof *s->rank_stage0);
    for (int r = 0; r < s->ranks; r++)
        s->rank_stage0[r] = 0;
    s->stages_per_rank = 1;
    for (int st = 0; st < s->stages; st++) {
        int r = stage_rank_of(s, st);
        if (count[r] == 0)
            s->rank_stage0[r] = st;
        s->stage_slot[st] = count[r]++;
        s->stages_per_rank = count[r] > s->stages_per_rank ? count[r] : s->stages_per_rank;
    }
    free(count);
}

/* The grid's sizes (scene.h, "Layout"). */
static void grid_init(scene *s)
{
    const float k = DETAIL_SCALE;
    s->detail_scale = k;
    s->block_w = k * (float)s->layers_per_stage * s->d_hidden;
    s->block_d = k * s->batch;
    s->block_h = k * 2 * s->d_model;
    const float g = fminf(s->block_w, s->block_d) / 16;
    s->unit = g;
    s->tile = TILE * g;
    const int V = s->stages_per_rank;
    s->plate_w = 2 * MARGIN * g + (float)V * (s->block_w + INNER_GAP * g + s->tile) +
                 (float)(V - 1) * INNER_GAP * g;
    s->plate_d = 2 * MARGIN * g + s->block_d;
    s->plate_h = PLATE_H * g;
    /* The scenario's gaps, in the detail's units like the rest of it:
     * the defaults (12, 16) leave 16 units between plates for the wires. */
    s->pitch_x = s->plate_w + s->stage_gap * (4.0f / 3.0f) * g;
    s->pitch_y = s->plate_d + s->replica_gap * g;
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
    stage_slots_init(s);
    grid_init(s);
    fit_points_init(s);
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
    free(s->stage_slot);
    free(s->rank_stage0);
    *s = (scene){0};
}

static bool per_layer(scene_kind kind)
{
    return kind == SCENE_WEIGHT1 || kind == SCENE_WEIGHT2 || kind == SCENE_ALLREDUCE ||
           kind == SCENE_CHUNK;
}

/* Kinds with one object per stage or rank, not per micro-batch. */
static bool one_slot(scene_kind kind)
{
    return per_layer(kind) || kind == SCENE_GPU || kind == SCENE_BLOCK;
}

int scene_kind_slots(const scene *s, scene_kind kind)
{
    return one_slot(kind) ? 1 : s->slots;
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
static int64_t kind_count(scene_kind kind, int64_t stages, int64_t layers, int64_t slots,
                          int64_t ranks)
{
    int64_t per = one_slot(kind) ? 1 : slots;
    switch (kind) {
    case SCENE_INPUT:
    case SCENE_STACK:
        return stages * per;
    case SCENE_BLOCK:
        return stages;
    case SCENE_GPU:
        return ranks;
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
    return kind_count(kind, s->stages, s->layers, s->slots, s->ranks);
}

int64_t scene_count_objects(int64_t stages, int64_t layers_per_stage, int64_t microbatches,
                            int64_t replicas)
{
    int64_t n = 0;
    for (int k = 0; k < SCENE_KIND_COUNT; k++)
        /* ranks <= stages: a plate per stage bounds the plates */
        n += kind_count((scene_kind)k, stages, stages * layers_per_stage,
                        scene_slots_for(microbatches, 0), stages) *
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

/* A p2p wire's x range between two ranks' plates, and its lane's y: what
 * goes towards higher ranks in the front lane, towards lower ranks in the
 * back lane, so that the two directions never share a place and a lane's
 * chevrons always point the way its tensors go (a V schedule sends
 * activations both ways). */
static void lane_of(const scene *s, int from, int to, int replica, float *x0, float *x1, float *y)
{
    const scene_box a = plate_box(s, from, replica), b = plate_box(s, to, replica);
    if (from == to) /* a V schedule's turn: no wire, the stages share a GPU */
        *x0 = *x1 = a.max[0];
    else if (from < to)
        *x0 = a.max[0], *x1 = b.min[0];
    else
        *x0 = b.max[0], *x1 = a.min[0];
    if (long_hop(from, to)) /* over the plates between: from one's middle to the other's */
        *x0 = fminf(a.min[0], b.min[0]) + s->plate_w / 2,
        *x1 = fmaxf(a.max[0], b.max[0]) - s->plate_w / 2;
    float y0, y1;
    scene_replica_y(s, replica, &y0, &y1);
    *y = y0 + (from < to ? 0.22f : 0.55f) * (y1 - y0);
}

/* A stage's stack: tile k of the live activations beside its block. */
static scene_box stack_box(const scene *s, int stage, int slot, int replica)
{
    float o[3];
    block_origin(s, stage, replica, o);
    const float g = s->unit, x0 = o[0] + s->block_w + INNER_GAP * g;
    const float pitch =
        fminf(TILE_PITCH * g, TOWER_MAX * s->block_h / (float)scene_tallest_stack(s));
    const float z0 = s->plate_h + pitch * (float)slot;
    /* at the back, clear of the wires' lanes in front of it */
    const float y1 = o[1] + s->block_d;
    return box_of(x0, x0 + s->tile, y1 - s->tile, y1, z0, z0 + pitch * 0.72f);
}

scene_box scene_object_box(const scene *s, scene_kind kind, int index, int slot, int replica)
{
    const float slice = s->batch / (float)s->slots;
    const float y0 = slice * (float)slot + slice * SLICE_INSET;
    const float y1 = y0 + slice * (1 - 2 * SLICE_INSET);
    const int stage = kind == SCENE_INPUT || kind == SCENE_STACK || kind == SCENE_BLOCK ||
                              kind == SCENE_P2P || kind == SCENE_SLAB || kind == SCENE_GPU
                          ? index
                          : scene_layer_stage(s, index);
    float z0, z1;
    switch (kind) {
    case SCENE_WEIGHT1:
    case SCENE_WEIGHT2: {
        float x0 = layer_local_x(s, index);
        if (kind == SCENE_WEIGHT1)
            z_in(s, index, &z0, &z1);
        else
            z_out(s, index, &z0, &z1);
        return detail_box(s, stage, replica, x0, x0 + s->d_hidden, s->batch, s->batch, z0, z1);
    }
    case SCENE_HIDDEN: {
        float x0 = layer_local_x(s, index);
        return detail_box(s, stage, replica, x0, x0 + s->d_hidden, y0, y1, 0, 0);
    }
    case SCENE_RESIDUAL: {
        float x = layer_local_x(s, index) + s->d_hidden;
        z_out(s, index, &z0, &z1);
        return detail_box(s, stage, replica, x, x, y0, y1, z0, z1);
    }
    case SCENE_INPUT: {
        z_in(s, index * s->layers_per_stage, &z0, &z1);
        return detail_box(s, stage, replica, 0, 0, y0, y1, z0, z1);
    }
    case SCENE_MATMUL1:
    case SCENE_MATMUL2: {
        /* a hair inside the faces that lie on it (h on the middle plane, x
         * at its end, W at the back), so no face shares a plane with it */
        float x0 = layer_local_x(s, index);
        if (kind == SCENE_MATMUL1)
            z_in(s, index, &z0, &z1);
        else
            z_out(s, index, &z0, &z1);
        const float ix = MATMUL_INSET * s->d_hidden, iz = MATMUL_INSET * s->d_model;
        return detail_box(s, stage, replica, x0 + ix, x0 + s->d_hidden - ix, y0, y1, z0 + iz,
                          z1 - iz);
    }
    case SCENE_P2P: {
        /* the wire from stage index's GPU to stage index + 1's, forward lane */
        float x0, x1, y;
        const int a = stage_rank_of(s, index), b = stage_rank_of(s, index + 1);
        lane_of(s, a, b, replica, &x0, &x1, &y);
        const float w = LANE_W * s->unit / 2;
        float z = long_hop(a, b) ? arc_height(s) : s->plate_h;
        return box_of(x0, x1, y - w, y + w, z, z + LANE_H * s->unit);
    }
    case SCENE_ALLREDUCE: {
        /* the wire from replica `replica`'s GPU to the next replica's, one per layer under
         * the layer's share of its stage's block */
        float o[3];
        block_origin(s, stage, replica, o);
        const float w = s->block_w / (float)s->layers_per_stage;
        const float x0 = o[0] + w * (float)(index % s->layers_per_stage), inset = w * 0.15f;
        const scene_box p = plate_box(s, stage_rank_of(s, stage), replica);
        return box_of(x0 + inset, x0 + w - inset, p.max[1], p.max[1] + s->pitch_y - s->plate_d, 0,
                      LINK_H * s->unit);
    }
    case SCENE_SLAB:
        return slab_box(s, index, replica, false, 0);
    case SCENE_STACK:
        return stack_box(s, index, slot, replica);
    case SCENE_CHUNK:
        return chunk_box(s, index, replica % s->replicas, replica, replica, 0);
    case SCENE_GPU:
        return plate_box(s, index, replica);
    case SCENE_BLOCK: {
        float o[3];
        block_origin(s, index, replica, o);
        return box_of(o[0], o[0] + s->block_w, o[1], o[1] + s->block_d, o[2], o[2] + s->block_h);
    }
    default:
        assert(!"unknown scene kind");
        return (scene_box){{0, 0, 0}, {0, 0, 0}};
    }
}

/* ---- moving objects -------------------------------------------------------- */

/* The tensor a send between stage and stage + 1 carries: forward from the
 * stage's GPU to the next one's along the forward lane, backward the other
 * way along the backward lane, `travel` of the way; over the plates in an
 * arc when the GPUs are not neighbours. */
static scene_box slab_box(const scene *s, int stage, int replica, bool backward, float travel)
{
    int from = stage_rank_of(s, stage), to = stage_rank_of(s, stage + 1);
    if (backward) {
        int t = from;
        from = to, to = t;
    }
    float x0, x1, y;
    lane_of(s, from, to, replica, &x0, &x1, &y);
    const float size = PACKET * s->unit;
    /* from the sending plate's edge to the receiving one's */
    float a = from <= to ? x0 : x1 - size, b = from <= to ? x1 - size : x0;
    float x = a + travel * (b - a);
    float z = s->plate_h;
    if (long_hop(from, to))
        z += (arc_height(s) - s->plate_h) * sinf(3.14159265f * travel);
    return box_of(x, x + size, y - size / 2, y + size / 2, z, z + size);
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
 * from replica `from`'s GPU to replica `to`'s along the layer's all-reduce
 * wire, arcing over the replicas between when they are not neighbours. */
static scene_box chunk_box(const scene *s, int layer, int chunk, int from, int to, float progress)
{
    const int D = s->replicas, stage = scene_layer_stage(s, layer);
    const scene_box wire = scene_object_box(s, SCENE_ALLREDUCE, layer, 0, 0);
    float x0 = wire.min[0], w = wire.max[0] - wire.min[0];
    if (chunk >= 0) {
        w /= (float)D;
        x0 += w * (float)chunk;
    }
    const float inset = w * CHUNK_INSET, size = fminf(w - 2 * inset, PACKET * s->unit);
    const scene_box a = plate_box(s, stage_rank_of(s, stage), from);
    const scene_box b = plate_box(s, stage_rank_of(s, stage), to);
    /* leaves from the sender's edge facing the receiver, arrives at the receiver's */
    float ya = from < to ? a.max[1] : a.min[1] - size, yb = from < to ? b.min[1] - size : b.max[1];
    float y = ya + progress * (yb - ya);
    int hop = from > to ? from - to : to - from;
    float lift = hop > 1 ? sinf(3.14159265f * progress) * (arc_height(s) - s->plate_h) : 0;
    /* riding on the wire, never in the planes of its faces */
    const float z0 = wire.max[2] + lift;
    return box_of(x0 + inset, x0 + w - inset, y, y + size, z0, z0 + size);
}

bool scene_object_place(const scene *s, scene_kind kind, int index, int slot, int replica,
                        const object_state *o, scene_box *out)
{
    assert(s && o && out);
    if (kind == SCENE_SLAB) {
        *out = slab_box(s, index, replica, o->label == SCENE_LABEL_GRAD, o->travel);
        return true;
    }
    if (kind == SCENE_CHUNK) {
        scene_chunk_move mv;
        if (!scene_chunk_move_at(s, replica, o->travel, &mv))
            return false;
        *out = chunk_box(s, index, mv.chunk, replica, mv.to, mv.progress);
        return true;
    }
    if (kind == SCENE_P2P && o->label == SCENE_LABEL_GRAD) {
        /* a backward send: the wire's backward lane */
        *out = scene_object_box(s, kind, index, slot, replica);
        float x0, x1, y;
        lane_of(s, stage_rank_of(s, index + 1), stage_rank_of(s, index), replica, &x0, &x1, &y);
        const float w = LANE_W * s->unit / 2;
        out->min[1] = y - w, out->max[1] = y + w;
        return true;
    }
    if (kind == SCENE_STACK) {
        /* one tower per GPU, beside its first block: the tile's level on it
         * (travel: the tiles of the GPU's earlier stages come first) */
        *out =
            stack_box(s, s->rank_stage0[stage_rank_of(s, index)], (int)lrintf(o->travel), replica);
        return true;
    }
    if (kind == SCENE_BLOCK) {
        /* one height whatever it does: what it runs is its colour (a block
         * rising as it ran read as "tall = busy" in stills where a block had
         * just started, still low, beside one just done, still high) */
        *out = scene_object_box(s, kind, index, slot, replica);
        out->max[2] = out->min[2] + s->block_h * BLOCK_HEIGHT;
        return true;
    }
    *out = scene_object_box(s, kind, index, slot, replica);
    return true;
}

/* ---- levels ------------------------------------------------------------ */

scene_level scene_level_for(float plate_px, float block_px)
{
    if (block_px >= SCENE_LEVEL_DETAIL_PX)
        return SCENE_LEVEL_DETAIL;
    return plate_px >= SCENE_LEVEL_GPU_PX ? SCENE_LEVEL_GPU : SCENE_LEVEL_CLUSTER;
}

bool scene_level_draws(scene_level level, scene_kind kind)
{
    switch (kind) {
    case SCENE_GPU:
    case SCENE_BLOCK:
    case SCENE_STACK:
    case SCENE_ALLREDUCE:
        return true;
    case SCENE_P2P: /* the floor's lanes draw the wire; the tensor on it says a send runs */
        return false;
    case SCENE_SLAB:
    case SCENE_CHUNK:
        return level >= SCENE_LEVEL_GPU;
    default: /* the matmul detail */
        return level == SCENE_LEVEL_DETAIL;
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
