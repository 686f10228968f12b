/* scene_renderer.c - instanced faces and boxes. See scene_renderer.h. */
#include "scene_renderer.h"

#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "budget.h"
#include "gl_shader.h"
#include "shaders_embedded.h"

typedef struct scene_instance {
    float min[3], max[3];
    uint8_t color[4];  /* role colour, alpha = opacity */
    uint8_t color2[4]; /* fill colour */
    uint8_t params[4]; /* fill fraction, edge strength, flash, unused */
} scene_instance;

typedef struct keyed {
    int group; /* sorted by group first: the program it is drawn with */
    float key;
    uint32_t index;
} keyed;

/* Instances [first, first + count) of sorted, drawn with one program. */
typedef struct scene_run {
    int first, count;
    int program;
} scene_run;

/* What a face draws besides its colour (scene.frag's MODE_*). */
enum {
    MODE_PLAIN = 0,
    MODE_HATCH,
    MODE_DOTS,
    MODE_CROSSHATCH,
    MODE_SHADOW,
    MODE_CHEVRON_UP,
    MODE_CHEVRON_DOWN,
    MODE_CHEVRON_EITHER /* a program's, not a face's: both chevrons (SCENE_MODE_CHEVRON) */
};

/* The program (scene_renderer.program) that draws faces of a mode by
 * themselves: one per mode, the chevrons' two directions sharing one. */
static int program_of(int mode)
{
    return mode >= MODE_CHEVRON_UP ? SCENE_PROGRAM_COUNT - 1 : 1 + mode;
}

typedef struct mesh_vertex {
    float pos[3], normal[3], uv[2];
} mesh_vertex;

/* The unit cube's 6 faces, counter-clockwise seen from outside. */
static void cube_mesh(mesh_vertex out[36])
{
    static const float n[6][3] = {{-1, 0, 0}, {1, 0, 0},  {0, -1, 0},
                                  {0, 1, 0},  {0, 0, -1}, {0, 0, 1}};
    int v = 0;
    for (int f = 0; f < 6; f++) {
        int axis = f / 2, side = f % 2;
        int a = (axis + 1) % 3, b = (axis + 2) % 3;
        /* Corners in (a, b) order; flip for the negative side to keep CCW outward. */
        const float quad[6][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 0}, {1, 1}, {0, 1}};
        for (int k = 0; k < 6; k++) {
            float u = quad[k][0], w = quad[k][1];
            if (!side)
                u = quad[k][1], w = quad[k][0];
            mesh_vertex *mv = &out[v++];
            mv->pos[axis] = (float)side;
            mv->pos[a] = u;
            mv->pos[b] = w;
            memcpy(mv->normal, n[f], sizeof mv->normal);
            mv->uv[0] = u;
            mv->uv[1] = w;
        }
    }
}

static bool is_face(scene_kind kind)
{
    return kind == SCENE_WEIGHT1 || kind == SCENE_WEIGHT2 || kind == SCENE_HIDDEN ||
           kind == SCENE_RESIDUAL || kind == SCENE_INPUT;
}

/* Every object of every replica; the scene's own count, in 64 bits. */
static int64_t total_instances(const scene *s)
{
    int64_t n = 0;
    for (int k = 0; k < SCENE_KIND_COUNT; k++)
        n += scene_kind_count(s, (scene_kind)k) * scene_kind_copies(s, (scene_kind)k);
    return n;
}

/* Instances held before the first frame: the default scene's fit, and no
 * more, since a large scene shows a small share of its objects at once. */
enum { INITIAL_INSTANCES = 4096 };

/* Room for n instances in a pass; sorted and order follow at the build. */
static void pass_reserve(scene_pass *p, int n)
{
    if (n <= p->capacity)
        return;
    int cap = p->capacity > 0 ? p->capacity : 64;
    while (cap < n)
        cap = cap > INT32_MAX / 2 ? n : 2 * cap;
    p->items = ppf_realloc(p->items, (size_t)cap * sizeof *p->items);
    p->capacity = cap;
}

static void pass_put(scene_pass *p, const scene_instance *in)
{
    pass_reserve(p, p->count + 1);
    p->items[p->count++] = *in;
}

static void setup_instance_attribs(void)
{
    size_t stride = sizeof(scene_instance);
    glEnableVertexAttribArray(3);
    glVertexAttribPointer(3, 3, GL_FLOAT, GL_FALSE, (GLsizei)stride,
                          (void *)offsetof(scene_instance, min));
    glEnableVertexAttribArray(4);
    glVertexAttribPointer(4, 3, GL_FLOAT, GL_FALSE, (GLsizei)stride,
                          (void *)offsetof(scene_instance, max));
    glEnableVertexAttribArray(5);
    glVertexAttribPointer(5, 4, GL_UNSIGNED_BYTE, GL_TRUE, (GLsizei)stride,
                          (void *)offsetof(scene_instance, color));
    glEnableVertexAttribArray(6);
    glVertexAttribPointer(6, 4, GL_UNSIGNED_BYTE, GL_TRUE, (GLsizei)stride,
                          (void *)offsetof(scene_instance, color2));
    glEnableVertexAttribArray(7);
    glVertexAttribPointer(7, 4, GL_UNSIGNED_BYTE, GL_TRUE, (GLsizei)stride,
                          (void *)offsetof(scene_instance, params));
    for (unsigned a = 3; a <= 7; a++)
        glVertexAttribDivisor(a, 1);
}

static void setup_mesh_attribs(void)
{
    GLsizei stride = sizeof(mesh_vertex);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, (void *)offsetof(mesh_vertex, pos));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride, (void *)offsetof(mesh_vertex, normal));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, stride, (void *)offsetof(mesh_vertex, uv));
}

bool scene_renderer_init(scene_renderer *r, ppf_error *err)
{
    *r = (scene_renderer){0};
    /* scene.frag's SCENE_MODE for each program: any (-1), then program_of's */
    static const int variant[SCENE_PROGRAM_COUNT] = {
        -1, MODE_PLAIN, MODE_HATCH, MODE_DOTS, MODE_CROSSHATCH, MODE_SHADOW, MODE_CHEVRON_EITHER};
    for (int k = 0; k < SCENE_PROGRAM_COUNT; k++) {
        scene_program *p = &r->program[k];
        if (!gl_program_build_variant(&p->id, "scene", ppf_shader_scene_vert, ppf_shader_scene_frag,
                                      "SCENE_MODE", variant[k], err)) {
            scene_renderer_deinit(r);
            return false;
        }
        p->loc_view_proj = glGetUniformLocation(p->id, "u_view_proj");
        p->loc_face_mode = glGetUniformLocation(p->id, "u_face_mode");
        p->loc_light = glGetUniformLocation(p->id, "u_light");
        p->loc_edge_color = glGetUniformLocation(p->id, "u_edge_color");
        p->loc_edge_px = glGetUniformLocation(p->id, "u_edge_px");
        p->loc_px = glGetUniformLocation(p->id, "u_px");
        p->loc_origin = glGetUniformLocation(p->id, "u_origin");
    }

    mesh_vertex cube[36];
    cube_mesh(cube);
    const mesh_vertex quad[6] = {
        {{0, 0, 0}, {0, 0, 1}, {0, 0}}, {{1, 0, 0}, {0, 0, 1}, {1, 0}},
        {{1, 1, 0}, {0, 0, 1}, {1, 1}}, {{0, 0, 0}, {0, 0, 1}, {0, 0}},
        {{1, 1, 0}, {0, 0, 1}, {1, 1}}, {{0, 1, 0}, {0, 0, 1}, {0, 1}},
    };
    glGenBuffers(1, &r->cube_vbo);
    glBindBuffer(GL_ARRAY_BUFFER, r->cube_vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof cube, cube, GL_STATIC_DRAW);
    glGenBuffers(1, &r->quad_vbo);
    glBindBuffer(GL_ARRAY_BUFFER, r->quad_vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return true;
}

void scene_renderer_deinit(scene_renderer *r)
{
    if (!r)
        return;
    for (int k = 0; k < SCENE_PROGRAM_COUNT; k++)
        gl_program_delete(&r->program[k].id);
    if (r->cube_vbo) {
        glDeleteBuffers(1, &r->cube_vbo);
        glDeleteBuffers(1, &r->quad_vbo);
    }
    *r = (scene_renderer){0};
}

bool scene_instances_init(scene_instances *in, const scene_renderer *r, const scene *s,
                          ppf_error *err)
{
    assert(r->program[0].id && "a scene renderer made in this context");
    *in = (scene_instances){0};
    /* The session checks the budget before the scene exists; a scene built
     * some other way still gets a line, not a wrapped size. */
    const int64_t instances = total_instances(s);
    if (instances > BUDGET_MAX_OBJECTS)
        return ppf_fail(err, "%lld objects to draw: at most %lld", (long long)instances,
                        (long long)BUDGET_MAX_OBJECTS);
    const int cap =
        instances < INITIAL_INSTANCES ? (instances > 0 ? (int)instances : 1) : INITIAL_INSTANCES;
    glGenBuffers(1, &in->instance_vbo);
    glBindBuffer(GL_ARRAY_BUFFER, in->instance_vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)cap * sizeof(scene_instance)), NULL,
                 GL_DYNAMIC_DRAW);
    in->gpu_capacity = cap;

    glGenVertexArrays(1, &in->box_vao);
    glBindVertexArray(in->box_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->cube_vbo);
    setup_mesh_attribs();
    glBindBuffer(GL_ARRAY_BUFFER, in->instance_vbo);
    setup_instance_attribs();

    glGenVertexArrays(1, &in->face_vao);
    glBindVertexArray(in->face_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->quad_vbo);
    setup_mesh_attribs();
    glBindBuffer(GL_ARRAY_BUFFER, in->instance_vbo);
    setup_instance_attribs();
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return true;
}

void scene_instances_deinit(scene_instances *in)
{
    if (!in)
        return;
    if (in->instance_vbo) {
        glDeleteBuffers(1, &in->instance_vbo);
        glDeleteVertexArrays(1, &in->box_vao);
        glDeleteVertexArrays(1, &in->face_vao);
    }
    for (int k = 0; k < SCENE_PASS_COUNT; k++)
        free(in->pass[k].items);
    free(in->sorted);
    free(in->order);
    free(in->runs);
    *in = (scene_instances){0};
}

static uint8_t unit_byte(float v)
{
    v = v < 0 ? 0 : v > 1 ? 1 : v;
    return (uint8_t)lrintf(v * 255);
}

static float distance2(const scene_instance *in, const float eye[3])
{
    float d = 0;
    for (int a = 0; a < 3; a++) {
        float c = 0.5f * (in->min[a] + in->max[a]) - eye[a];
        d += c * c;
    }
    return d;
}

static int by_key(const void *a, const void *b)
{
    const keyed *ka = a, *kb = b;
    if (ka->group != kb->group)
        return ka->group - kb->group;
    return (ka->key > kb->key) - (ka->key < kb->key);
}

/* How many neighbouring slots one instance may stand for, when a slot is
 * `step` scene units along `axis` (y for slices, z for stack blocks): the
 * most whose steps together are at most a pixel on screen where the scene
 * comes nearest the eye (measured at the corners of its bounds), a power of
 * two so that it changes in few steps while the camera moves; 1 (every slot
 * drawn) when a slot is a pixel or more, or when a corner is behind the eye. */
static int slots_per_instance(const scene *s, const camera *cam, int w, int h, int axis, float step)
{
    if (s->slots < 2)
        return 1;
    const float aspect = (float)w / (float)h;
    float widest = 0;
    for (int c = 0; c < 8; c++) {
        const float p[3] = {(c & 1) ? s->bounds.max[0] : s->bounds.min[0],
                            (c & 2) ? s->bounds.max[1] : s->bounds.min[1],
                            (c & 4) ? s->bounds.max[2] : s->bounds.min[2]};
        float q[3] = {p[0], p[1], p[2]}, ax, ay, bx, by;
        q[axis] += step;
        if (!camera_project(cam, aspect, p, w, h, &ax, &ay) ||
            !camera_project(cam, aspect, q, w, h, &bx, &by))
            return 1;
        widest = fmaxf(widest, hypotf(bx - ax, by - ay));
    }
    int g = 1;
    while (2 * g <= s->slots && 2 * g * widest <= 1)
        g *= 2;
    return g;
}

static scene_instance instance_of(scene_box b, rgba8 c, uint8_t alpha)
{
    scene_instance in = {.color = {c.r, c.g, c.b, alpha}};
    memcpy(in.min, b.min, sizeof in.min);
    memcpy(in.max, b.max, sizeof in.max);
    return in;
}

/* A flat quad on the floor (z = 0) over [x0, x1] x [y0, y1]. */
static scene_box floor_box(float x0, float x1, float y0, float y1)
{
    return (scene_box){{x0, y0, 0}, {x1, y1, 0}};
}

/* The role of a tensor on its way now (a slab shown in flight) between
 * ranks lo and hi, towards lo when `down`, else towards hi; -1 where none
 * is: what lights that lane (put_floor). */
static int lane_traffic(const scene *s, const scene_state *state, int lo, int hi, bool down)
{
    const int J = s->slots;
    for (int q = 0; q + 1 < s->stages; q++) {
        const int a = s->stage_rank[q], b = s->stage_rank[q + 1];
        if ((a < b ? a : b) != lo || (a < b ? b : a) != hi)
            continue;
        for (int j = 0; j < J; j++) {
            const object_state *o = &state->kind[SCENE_SLAB][(size_t)q * J + j];
            if (!o->visible || !(o->flash > 0))
                continue;
            const bool grad = o->label == SCENE_LABEL_GRAD; /* goes from q + 1 to q */
            const int from = grad ? b : a, to = grad ? a : b;
            if ((to < from) == down)
                return o->role;
        }
    }
    return -1;
}

/* The floor: the GPUs' contact shadows and the wires between them, in
 * this order, at z = 0 under everything: drawn without depth writes and
 * only where nothing stands (scene_renderer_draw), so nothing drawn on them
 * can fight them for depth. The background is the ground: a plate of its
 * own under the grid cost llvmpipe 1-2 ms a frame at 1080p, and the
 * shadows already say where each GPU stands. */
static void put_floor(scene_instances *r, const scene *s, const scene_state *state, const theme *th,
                      scene_level level)
{
    scene_pass *p = &r->pass[SCENE_PASS_GROUND];
    const float g = s->unit;
    const bool dark = colour_is_light(th->text);
    for (int d = 0; d < s->replicas; d++)
        for (int rank = 0; rank < s->ranks; rank++) {
            const scene_box pl = scene_object_box(s, SCENE_GPU, rank, 0, d);
            const float e = 1.6f * g;
            scene_instance in =
                instance_of(floor_box(pl.min[0] - e, pl.max[0] + e, pl.min[1] - e, pl.max[1] + e),
                            (rgba8){0, 0, 0, 255}, dark ? 150 : 60);
            in.params[3] = MODE_SHADOW;
            pass_put(p, &in);
        }
    if (level == SCENE_LEVEL_CLUSTER)
        return; /* wires thinner than a pixel would be noise */
    /* p2p wires between GPUs that send to each other: a lane each way,
     * towards higher ranks in front, towards lower ranks behind, with
     * chevrons pointing the way (scene.c's lane_of); a send past other GPUs
     * (an interleaved schedule's wrap) runs along the row's back edge. A
     * lane with a tensor on its way along it now is lit in that tensor's
     * colour: what is in flight, which way and in which row, reads from
     * the wire as well as from the small tensor on it; an unlit lane
     * carries nothing. */
    const rgba8 lane = colour_mix(th->background, th->text_dim, 0.25f);
    const rgba8 ink = th->text_dim;
    for (int st = 0; st + 1 < s->stages; st++) {
        const int a = s->stage_rank[st], bb = s->stage_rank[st + 1];
        const int lo = a < bb ? a : bb, hi = a < bb ? bb : a;
        bool seen = a == bb; /* a rank pair is drawn once, for its first boundary */
        for (int q = 0; q < st && !seen; q++) {
            const int qa = s->stage_rank[q], qb = s->stage_rank[q + 1];
            seen = (qa < qb ? qa : qb) == lo && (qa < qb ? qb : qa) == hi;
        }
        if (seen)
            continue;
        const int lit[2] = {lane_traffic(s, state, lo, hi, false),
                            lane_traffic(s, state, lo, hi, true)};
        for (int d = 0; d < s->replicas; d++) {
            for (int back = 0; back < 2; back++) {
                /* the wire of boundary st, placed for a send each way (the
                 * front lane towards higher ranks) */
                scene_box w;
                if (hi - lo > 1) {
                    if (back != (a > bb))
                        continue; /* a wrap's one wire, the way its sends go */
                    const scene_box pl = scene_object_box(s, SCENE_GPU, lo, 0, d);
                    const scene_box ph = scene_object_box(s, SCENE_GPU, hi, 0, d);
                    const float y = pl.max[1] + 1.5f * g;
                    w = (scene_box){{pl.min[0] + s->plate_w / 2, y, 0},
                                    {ph.max[0] - s->plate_w / 2, y + 1.2f * g, 0}};
                } else {
                    object_state o = {.visible = 1, .label = (a < bb) == (back != 0)};
                    scene_object_place(s, SCENE_P2P, st, 0, d, &o, &w);
                }
                const int role = lit[back];
                const rgba8 fill =
                    role < 0 ? lane : colour_mix(th->background, th->role[role], 0.55f);
                const rgba8 mark = role < 0 ? ink : colour_lighten(th->role[role], 0.35f);
                scene_instance in =
                    instance_of(floor_box(w.min[0], w.max[0], w.min[1], w.max[1]), fill, 255);
                memcpy(in.color2, (uint8_t[4]){mark.r, mark.g, mark.b, role < 0 ? 150 : 255}, 4);
                in.params[3] = back ? MODE_CHEVRON_DOWN : MODE_CHEVRON_UP;
                pass_put(p, &in);
            }
        }
    }
}

/* How a kind's object in state o is drawn: its colours, edge, mode, and
 * which pass. */
static int style(const scene *s, scene_kind kind, const object_state *o, const theme *th,
                 scene_level level, scene_instance *in)
{
    rgba8 c = th->role[o->role];
    memset(in, 0, sizeof *in);
    in->color[0] = c.r, in->color[1] = c.g, in->color[2] = c.b;
    in->color[3] = unit_byte(o->opacity);
    const rgba8 grad = th->role[SCENE_ROLE_GRADIENT];
    memcpy(in->color2, (uint8_t[4]){grad.r, grad.g, grad.b, 255}, 4);
    switch (kind) {
    case SCENE_GPU:
    case SCENE_STACK:
    case SCENE_CHUNK:
    case SCENE_ALLREDUCE: /* a lit wire: solid, so the join between replicas reads */
        in->params[1] = unit_byte(0.9f);
        return SCENE_PASS_BOXES;
    case SCENE_SLAB:
        /* a gradient going back is hatched, as B is in the timeline: the two
         * directions differ without colour */
        in->params[1] = unit_byte(0.9f * o->opacity);
        if (o->label == SCENE_LABEL_GRAD) {
            rgba8 ink = colour_lighten(c, 0.45f);
            memcpy(in->color2, (uint8_t[4]){ink.r, ink.g, ink.b, 255}, 4);
            in->params[3] = MODE_HATCH;
        }
        /* arrived, shown a moment longer (scene.h, "Zero time"): faint */
        return o->opacity >= 0.999f ? SCENE_PASS_BOXES : SCENE_PASS_TRANSLUCENT;
    case SCENE_BLOCK: {
        in->params[1] = unit_byte(0.9f);
        theme_fill f;
        if (o->role == SCENE_ROLE_ALLREDUCE) { /* idle, its gradients reduced: solid */
            f = (theme_fill){c, c, THEME_PATTERN_SOLID};
        } else if (o->action == ACTION_IDLE) {
            f = theme_bubble_fill(&th->timeline);
            f.fill = c; /* the idle grey, opaque; the bubble's hatch over it, faint */
            f.ink.a = 90;
        } else {
            f = theme_action_fill(&th->timeline, (action_kind)o->action);
        }
        memcpy(in->color, (uint8_t[4]){f.fill.r, f.fill.g, f.fill.b, 255}, 4);
        memcpy(in->color2, (uint8_t[4]){f.ink.r, f.ink.g, f.ink.b, f.ink.a}, 4);
        in->params[3] = f.pattern == THEME_PATTERN_HATCH        ? MODE_HATCH
                        : f.pattern == THEME_PATTERN_DOTS       ? MODE_DOTS
                        : f.pattern == THEME_PATTERN_CROSSHATCH ? MODE_CROSSHATCH
                                                                : MODE_PLAIN;
        (void)s, (void)level;
        return SCENE_PASS_BOXES;
    }
    default:
        break;
    }
    const bool face = is_face(kind);
    in->params[1] = unit_byte(face ? 0.85f * o->opacity : 0.5f + 0.4f * o->flash);
    if (kind == SCENE_WEIGHT1 || kind == SCENE_WEIGHT2)
        in->params[0] = unit_byte(o->flash);
    else
        in->params[2] = unit_byte(o->flash);
    return face && o->opacity >= 0.999f ? SCENE_PASS_FACES : SCENE_PASS_TRANSLUCENT;
}

/* At cluster scale a stage is one column over its share of its GPU's
 * plate: its colour what it runs, its height the activations it holds
 * (from the plate, at none, to CLUSTER_TALL plates wide at the most any
 * stage holds in the iteration), so memory reads as a skyline across the
 * grid where tiles would be thinner than a pixel. */
#define CLUSTER_TALL 1.5f
static scene_box cluster_column(const scene *s, const scene_state *st, int stage, int replica,
                                int tallest)
{
    scene_box pl = scene_object_box(s, SCENE_GPU, s->stage_rank[stage], 0, replica);
    const float share = (pl.max[0] - pl.min[0]) / (float)s->stages_per_rank;
    pl.min[0] += share * (float)s->stage_slot[stage];
    pl.max[0] = pl.min[0] + share;
    int live = 0;
    for (int j = 0; j < s->slots; j++)
        live += st->kind[SCENE_STACK][(size_t)stage * s->slots + j].visible;
    const float h = s->plate_h + CLUSTER_TALL * s->plate_w * (float)live / (float)tallest;
    pl.min[2] = 0, pl.max[2] = fmaxf(h, s->plate_h);
    return pl;
}

/* Cuts pass k's instances (sorted[first], count of them) into runs of one
 * program each: the translucent pass is one run, drawn with the program
 * for any mode in its back-to-front order; the others a run per change of
 * mode (the opaque passes are sorted by it, the ground put a kind at a
 * time: a few runs). */
static void put_runs(scene_instances *r, int k, int first, int count)
{
    r->first_run[k] = r->run_count, r->runs_in[k] = 0;
    for (int i = 0; i < count; i++) {
        const int program = k == SCENE_PASS_TRANSLUCENT
                                ? SCENE_PROGRAM_ANY
                                : program_of(r->sorted[first + i].params[3]);
        if (r->runs_in[k] > 0 && r->runs[r->run_count - 1].program == program) {
            r->runs[r->run_count - 1].count++;
            continue;
        }
        if (r->run_count == r->run_capacity) {
            r->run_capacity = r->run_capacity ? 2 * r->run_capacity : 16;
            r->runs = ppf_realloc(r->runs, (size_t)r->run_capacity * sizeof *r->runs);
        }
        r->runs[r->run_count++] = (scene_run){first + i, 1, program};
        r->runs_in[k]++;
    }
}

/* Builds the instances of every object the level draws, each pass in draw
 * order, into r->sorted. Runs of g slots are drawn as one instance: the
 * state scene_slot_merge picks, over the slots from the first to the last
 * one shown (g_stack of them for the stacks' blocks). */
static void build(scene_instances *r, const scene *s, const scene_state *st, const theme *th,
                  const float eye[3], int g, int g_stack, scene_level level)
{
    const int tallest = scene_tallest_stack(s);
    for (int k = 0; k < SCENE_PASS_COUNT; k++)
        r->pass[k].count = 0;
    put_floor(r, s, st, th, level);
    for (int k = 0; k < SCENE_KIND_COUNT; k++) {
        scene_kind kind = (scene_kind)k;
        if (!scene_level_draws(level, kind) ||
            (level == SCENE_LEVEL_CLUSTER && (kind == SCENE_STACK || kind == SCENE_GPU)))
            continue; /* at cluster scale each stage is one column (cluster_column) */
        int per = scene_kind_slots(s, kind), count = (int)scene_kind_count(s, kind);
        int copies = scene_kind_copies(s, kind);
        int run = per == 1 ? 1 : kind == SCENE_STACK ? g_stack : g;
        for (int i0 = 0; i0 < count; i0 += run) {
            const int index = i0 / per, j0 = i0 % per, j1 = j0 + run < per ? j0 + run : per;
            object_state o = {0};
            int first = -1, last = -1;
            for (int j = j0; j < j1; j++) {
                const object_state *m = &st->kind[k][(size_t)index * per + j];
                if (!m->visible)
                    continue;
                first = first < 0 ? j : first;
                last = j;
                scene_slot_merge(&o, *m);
            }
            if (first < 0)
                continue;
            scene_instance in;
            const int pass = style(s, kind, &o, th, level, &in);
            for (int rep = 0; rep < copies; rep++) {
                scene_box b, e;
                if (!scene_object_place(s, kind, index, first, rep, &o, &b))
                    continue; /* a tree step in which this replica sends nothing */
                if (last != first && scene_object_place(s, kind, index, last, rep, &o, &e))
                    for (int a = 0; a < 3; a++) {
                        b.min[a] = fminf(b.min[a], e.min[a]);
                        b.max[a] = fmaxf(b.max[a], e.max[a]);
                    }
                if (kind == SCENE_BLOCK && level == SCENE_LEVEL_CLUSTER)
                    b = cluster_column(s, st, index, rep, tallest);
                if (kind == SCENE_BLOCK && level == SCENE_LEVEL_DETAIL) {
                    /* under the detail, a low base in the action's colour, inset
                     * so that no face of the detail lies in its planes */
                    const float in_x = 0.02f * (b.max[0] - b.min[0]);
                    const float in_y = 0.02f * (b.max[1] - b.min[1]);
                    b.min[0] += in_x, b.max[0] -= in_x, b.min[1] += in_y, b.max[1] -= in_y;
                    b.max[2] = b.min[2] + 0.1f * s->block_h;
                }
                memcpy(in.min, b.min, sizeof in.min);
                memcpy(in.max, b.max, sizeof in.max);
                pass_put(&r->pass[pass], &in);
            }
        }
    }
    int total = 0;
    for (int k = 0; k < SCENE_PASS_COUNT; k++)
        total += r->pass[k].count;
    if (total > r->sorted_capacity) {
        int cap = r->sorted_capacity > 0 ? r->sorted_capacity : 64;
        while (cap < total)
            cap *= 2;
        r->sorted = ppf_realloc(r->sorted, (size_t)cap * sizeof *r->sorted);
        r->order = ppf_realloc(r->order, (size_t)cap * sizeof(keyed));
        r->sorted_capacity = cap;
    }
    keyed *keys = (keyed *)r->order;
    int at = 0;
    r->run_count = 0;
    for (int k = 0; k < SCENE_PASS_COUNT; k++) {
        const scene_pass *p = &r->pass[k];
        r->first[k] = at, r->count[k] = p->count;
        if (k == SCENE_PASS_GROUND) { /* in the order put: shadows, wires */
            memcpy(r->sorted + at, p->items, (size_t)p->count * sizeof *p->items);
        } else {
            /* Opaque: a mode at a time, each front to back (hidden pixels
             * are skipped early); translucent back to front, in one. */
            const bool opaque = k != SCENE_PASS_TRANSLUCENT;
            const float sign = opaque ? 1.0f : -1.0f;
            for (int i = 0; i < p->count; i++)
                keys[i] = (keyed){opaque ? program_of(p->items[i].params[3]) : 0,
                                  sign * distance2(&p->items[i], eye), (uint32_t)i};
            qsort(keys, (size_t)p->count, sizeof *keys, by_key);
            for (int i = 0; i < p->count; i++)
                r->sorted[at + i] = p->items[keys[i].index];
        }
        put_runs(r, k, at, p->count);
        at += p->count;
    }
}

scene_level scene_renderer_level(const scene *s, const camera *cam, float w, float h, float text_px)
{
    const float unit = text_px > 0 ? text_px / SCENE_LEVEL_TEXT_PX : 1;
    if (!(w / unit >= 1 && h / unit >= 1))
        return SCENE_LEVEL_CLUSTER;
    const int iw = (int)(w / unit), ih = (int)(h / unit);
    const float aspect = w / h;
    float widest = 0;
    for (int c = 0; c < 4; c++) {
        const int rank = (c & 1) ? s->ranks - 1 : 0, rep = (c & 2) ? s->replicas - 1 : 0;
        const scene_box p = scene_object_box(s, SCENE_GPU, rank, 0, rep);
        const float a[3] = {p.min[0], p.min[1], p.max[2]}, b[3] = {p.max[0], p.min[1], p.max[2]};
        float ax, ay, bx, by;
        if (!camera_project(cam, aspect, a, iw, ih, &ax, &ay) ||
            !camera_project(cam, aspect, b, iw, ih, &bx, &by))
            return SCENE_LEVEL_DETAIL; /* the eye is among the GPUs */
        widest = fmaxf(widest, hypotf(bx - ax, by - ay));
    }
    return scene_level_for(widest, widest * s->block_w / s->plate_w);
}

/* Points the instance attributes of the bound VAO at sorted[first]. */
static void instances_from(unsigned vbo, int first)
{
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    const size_t base = (size_t)first * sizeof(scene_instance), stride = sizeof(scene_instance);
    glVertexAttribPointer(3, 3, GL_FLOAT, GL_FALSE, (GLsizei)stride,
                          (void *)(base + offsetof(scene_instance, min)));
    glVertexAttribPointer(4, 3, GL_FLOAT, GL_FALSE, (GLsizei)stride,
                          (void *)(base + offsetof(scene_instance, max)));
    glVertexAttribPointer(5, 4, GL_UNSIGNED_BYTE, GL_TRUE, (GLsizei)stride,
                          (void *)(base + offsetof(scene_instance, color)));
    glVertexAttribPointer(6, 4, GL_UNSIGNED_BYTE, GL_TRUE, (GLsizei)stride,
                          (void *)(base + offsetof(scene_instance, color2)));
    glVertexAttribPointer(7, 4, GL_UNSIGNED_BYTE, GL_TRUE, (GLsizei)stride,
                          (void *)(base + offsetof(scene_instance, params)));
}

/* What every program draws a frame with (scene_renderer_draw). */
typedef struct scene_uniforms {
    const float *view_proj;
    float edge[3], edge_px, scale, origin[2];
} scene_uniforms;

/* Draws pass k's runs (put_runs) with vao's mesh of `vertices` (a quad's 6
 * as faces, face_mode 1, or the cube's 36), each with its program, given
 * the frame's uniforms the first time it is used (bits in *set). */
static void draw_pass(const scene_renderer *sr, const scene_instances *r, int k, unsigned vao,
                      int vertices, int face_mode, const scene_uniforms *u, unsigned *set)
{
    if (r->count[k] == 0)
        return;
    glBindVertexArray(vao);
    for (int i = 0; i < r->runs_in[k]; i++) {
        const scene_run *run = &r->runs[r->first_run[k] + i];
        const scene_program *p = &sr->program[run->program];
        glUseProgram(p->id);
        if (!(*set & (1u << run->program))) {
            *set |= 1u << run->program;
            static const float light[3] = {0.35f, -0.55f, 0.76f};
            glUniformMatrix4fv(p->loc_view_proj, 1, GL_FALSE, u->view_proj);
            glUniform3fv(p->loc_light, 1, light);
            glUniform3fv(p->loc_edge_color, 1, u->edge);
            glUniform1f(p->loc_edge_px, u->edge_px);
            glUniform1f(p->loc_px, u->scale);
            glUniform2fv(p->loc_origin, 1, u->origin);
        }
        glUniform1i(p->loc_face_mode, face_mode);
        instances_from(r->instance_vbo, run->first);
        glDrawArraysInstanced(GL_TRIANGLES, 0, vertices, run->count);
    }
}

void scene_renderer_draw(const scene_renderer *sr, scene_instances *r, const scene *s,
                         const scene_state *st, const theme *th, const camera *cam, int x, int y,
                         int w, int h, scene_level level, float scale, float edge_px)
{
    assert(sr && r && s && st && th && cam && sr->program[0].id && r->instance_vbo);
    if (w <= 0 || h <= 0)
        return;
    float eye[3];
    camera_eye(cam, eye);
    if (!(scale >= 1))
        scale = 1;
    /* the output's size: what it shows is decided there, not in a larger buffer */
    const int ow = (int)lroundf((float)w / scale), oh = (int)lroundf((float)h / scale);
    /* micro-batch slices along y; stack blocks along z */
    const int g =
        slots_per_instance(s, cam, ow, oh, 1, s->batch * s->detail_scale / (float)s->slots);
    const float tile_step = scene_object_box(s, SCENE_STACK, 0, 1, 0).min[2] -
                            scene_object_box(s, SCENE_STACK, 0, 0, 0).min[2];
    const int g_stack = slots_per_instance(s, cam, ow, oh, 2, tile_step);
    bool same = r->uploaded && r->last_scene == s && r->last_generation == s->generation &&
                r->last_t == st->t && r->last_theme == th->name &&
                r->last_slots_per_instance[0] == g && r->last_slots_per_instance[1] == g_stack &&
                r->last_level == (int)level && memcmp(r->last_eye, eye, sizeof eye) == 0;
    if (!same) {
        build(r, s, st, th, eye, g, g_stack, level);
        int n = 0;
        for (int k = 0; k < SCENE_PASS_COUNT; k++)
            n += r->count[k];
        glBindBuffer(GL_ARRAY_BUFFER, r->instance_vbo);
        if (r->gpu_capacity < r->sorted_capacity) {
            glBufferData(GL_ARRAY_BUFFER,
                         (GLsizeiptr)((size_t)r->sorted_capacity * sizeof(scene_instance)), NULL,
                         GL_DYNAMIC_DRAW);
            r->gpu_capacity = r->sorted_capacity;
        }
        if (n > 0)
            glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)((size_t)n * sizeof(scene_instance)),
                            r->sorted);
        r->last_scene = s;
        r->last_generation = s->generation;
        r->last_t = st->t;
        r->last_theme = th->name;
        r->last_slots_per_instance[0] = g;
        r->last_slots_per_instance[1] = g_stack;
        r->last_level = (int)level;
        memcpy(r->last_eye, eye, sizeof eye);
        r->uploaded = true;
        r->uploads++;
    }

    float view[16], proj[16], view_proj[16];
    camera_view_proj(cam, (float)w / (float)h, view, proj, view_proj);
    const scene_uniforms u = {
        .view_proj = view_proj,
        .edge = {th->edge.r / 255.0f, th->edge.g / 255.0f, th->edge.b / 255.0f},
        .edge_px = (edge_px >= 1 ? edge_px : 1) * scale, /* NaN fails too */
        .scale = scale,
        .origin = {(float)x, (float)y},
    };

    /* No clear of its own: the caller cleared depth with the colour. A clear
     * scissored to part of the framebuffer is a drawn quad on llvmpipe,
     * about 2 ms of CPU at 1080p, where one clear of the whole is a memset. */
    glViewport(x, y, w, h);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    unsigned set = 0; /* the programs given this frame's uniforms */

    /* Opaque faces, both sides visible, and opaque boxes: depth writes on. */
    glDisable(GL_BLEND);
    glDepthMask(GL_TRUE);
    glDisable(GL_CULL_FACE);
    draw_pass(sr, r, SCENE_PASS_FACES, r->face_vao, 6, 1, &u, &set);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    draw_pass(sr, r, SCENE_PASS_BOXES, r->box_vao, 36, 0, &u, &set);
    /* The floor after what stands on it, so that the depth test skips its
     * hidden pixels (most of them, on llvmpipe the frame's largest cost);
     * in order, no depth writes, strictly behind (GL_LESS) so that nothing
     * standing on it at z = 0 is painted over. */
    glDisable(GL_CULL_FACE);
    glDepthMask(GL_FALSE);
    glDepthFunc(GL_LESS);
    glEnable(GL_BLEND);
    draw_pass(sr, r, SCENE_PASS_GROUND, r->face_vao, 6, 1, &u, &set);
    glDepthFunc(GL_LEQUAL);
    /* Translucent faces and boxes, back to front: front sides only. */
    glEnable(GL_CULL_FACE);
    draw_pass(sr, r, SCENE_PASS_TRANSLUCENT, r->box_vao, 36, 0, &u, &set);
    glDepthMask(GL_TRUE);
    glDisable(GL_CULL_FACE);
    glDisable(GL_BLEND);
    glBindVertexArray(0);
    glUseProgram(0);
    glDisable(GL_DEPTH_TEST);
}
