/* scene.c - layout of the 3D picture and its labels. See scene.h; state(t)
 * and captions are in scene_state.c. */
#include "scene.h"

#include <assert.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define SLICE_INSET 0.08f /* of a micro-batch slice, on each side */

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
        .d_model = positive_or(desc->d_model, SCENE_DEFAULT_D_MODEL),
        .d_hidden = positive_or(desc->d_hidden, SCENE_DEFAULT_D_HIDDEN),
        .batch = positive_or(desc->batch, SCENE_DEFAULT_BATCH),
        .stage_gap = desc->stage_gap > 0 ? desc->stage_gap : 0,
        .replica_gap = desc->replica_gap > 0 ? desc->replica_gap : 0,
        .flash_min = desc->flash_min > 0 ? desc->flash_min : (float)(tl->makespan / 120),
        .stage_rank = p->stage_rank,
    };

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

    float x1 = layer_x0(s, s->layers - 1) + s->d_hidden;
    float y0, y1;
    scene_replica_y(s, s->replicas - 1, &y0, &y1);
    s->bounds = box_of(0, x1, 0, y1, -s->d_model, s->d_model);
}

void scene_deinit(scene *s)
{
    if (!s)
        return;
    timeline_cells_deinit(&s->cells);
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
