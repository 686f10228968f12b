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
    float key;
    uint32_t index;
} keyed;

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

/* Room for n instances on the CPU; the GL buffer follows at the next upload. */
static void reserve(scene_instances *r, int n)
{
    if (n <= r->capacity)
        return;
    int cap = r->capacity > 0 ? r->capacity : 1;
    while (cap < n)
        cap = cap > INT32_MAX / 2 ? n : 2 * cap;
    r->instances = ppf_realloc(r->instances, (size_t)cap * sizeof *r->instances);
    r->sorted = ppf_realloc(r->sorted, (size_t)cap * sizeof *r->sorted);
    r->order = ppf_realloc(r->order, (size_t)cap * sizeof(keyed));
    r->capacity = cap;
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
    if (!gl_program_build(&r->program, "scene", ppf_shader_scene_vert, ppf_shader_scene_frag, err))
        return false;
    r->loc_view_proj = glGetUniformLocation(r->program, "u_view_proj");
    r->loc_face_mode = glGetUniformLocation(r->program, "u_face_mode");
    r->loc_light = glGetUniformLocation(r->program, "u_light");
    r->loc_edge_color = glGetUniformLocation(r->program, "u_edge_color");
    r->loc_edge_px = glGetUniformLocation(r->program, "u_edge_px");

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
    if (r->program) {
        gl_program_delete(&r->program);
        glDeleteBuffers(1, &r->cube_vbo);
        glDeleteBuffers(1, &r->quad_vbo);
    }
    *r = (scene_renderer){0};
}

bool scene_instances_init(scene_instances *in, const scene_renderer *r, const scene *s,
                          ppf_error *err)
{
    assert(r->program && "a scene renderer made in this context");
    *in = (scene_instances){0};
    /* The session checks the budget before the scene exists; a scene built
     * some other way still gets a line, not a wrapped size. */
    const int64_t instances = total_instances(s);
    if (instances > BUDGET_MAX_OBJECTS)
        return ppf_fail(err, "%lld objects to draw: at most %lld", (long long)instances,
                        (long long)BUDGET_MAX_OBJECTS);
    reserve(in, instances < INITIAL_INSTANCES ? (instances > 0 ? (int)instances : 1)
                                              : INITIAL_INSTANCES);
    const int cap = in->capacity;
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
    free(in->instances);
    free(in->sorted);
    free(in->order);
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
    float ka = ((const keyed *)a)->key, kb = ((const keyed *)b)->key;
    return (ka > kb) - (ka < kb);
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

/* Appends an instance: opaque faces fill the array from the front,
 * translucent ones from the back. When the two meet the array doubles and
 * the translucent ones move to its new end, so it grows with what frames
 * show, never with the scene's size. */
static void put(scene_instances *r, const scene_instance *in, bool opaque, int *n_opaque, int *back)
{
    if (*n_opaque == *back) {
        const int old = r->capacity;
        reserve(r, old + 1);
        const int moved = old - *back;
        memmove(r->instances + (r->capacity - moved), r->instances + *back,
                (size_t)moved * sizeof *r->instances);
        *back = r->capacity - moved;
    }
    if (opaque)
        r->instances[(*n_opaque)++] = *in;
    else
        r->instances[--*back] = *in;
}

/* Builds the instances of every visible object, opaque faces first (front
 * to back), then the translucent ones (back to front), into r->sorted. Runs
 * of g slots are drawn as one instance: the state scene_slot_merge picks,
 * over the slots from the first to the last one shown (g_stack of them for
 * the stacks' blocks). */
static void build(scene_instances *r, const scene *s, const scene_state *st, const theme *th,
                  const float eye[3], int g, int g_stack)
{
    int n_opaque = 0, back = r->capacity; /* see put */
    for (int k = 0; k < SCENE_KIND_COUNT; k++) {
        scene_kind kind = (scene_kind)k;
        int per = scene_kind_slots(s, kind), count = (int)scene_kind_count(s, kind);
        int copies = scene_kind_copies(s, kind);
        int run = per == 1 ? 1 : kind == SCENE_STACK ? g_stack : g;
        bool face = is_face(kind);
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
            rgba8 c = th->role[o.role];
            scene_instance in = {
                .color = {c.r, c.g, c.b, unit_byte(o.opacity)},
                .color2 = {th->role[SCENE_ROLE_GRADIENT].r, th->role[SCENE_ROLE_GRADIENT].g,
                           th->role[SCENE_ROLE_GRADIENT].b, 255},
                .params = {0, unit_byte(face ? 0.85f * o.opacity : 0.5f + 0.4f * o.flash), 0, 0},
            };
            if (kind == SCENE_WEIGHT1 || kind == SCENE_WEIGHT2)
                in.params[0] = unit_byte(o.flash);
            else
                in.params[2] = unit_byte(o.flash);
            bool opaque = face && o.opacity >= 0.999f;
            for (int rep = 0; rep < copies; rep++) {
                scene_box b, e;
                if (!scene_object_place(s, kind, index, first, rep, &o, &b))
                    continue; /* a tree step in which this replica sends nothing */
                if (last != first && scene_object_place(s, kind, index, last, rep, &o, &e))
                    for (int a = 0; a < 3; a++) {
                        b.min[a] = fminf(b.min[a], e.min[a]);
                        b.max[a] = fmaxf(b.max[a], e.max[a]);
                    }
                memcpy(in.min, b.min, sizeof in.min);
                memcpy(in.max, b.max, sizeof in.max);
                put(r, &in, opaque, &n_opaque, &back);
            }
        }
    }
    assert(n_opaque <= back);
    int n_trans = r->capacity - back;
    keyed *keys = (keyed *)r->order;
    for (int i = 0; i < n_opaque; i++)
        keys[i] = (keyed){distance2(&r->instances[i], eye), (uint32_t)i};
    qsort(keys, (size_t)n_opaque, sizeof *keys, by_key);
    for (int i = 0; i < n_opaque; i++)
        r->sorted[i] = r->instances[keys[i].index];
    for (int i = 0; i < n_trans; i++)
        keys[i] = (keyed){-distance2(&r->instances[back + i], eye), (uint32_t)(back + i)};
    qsort(keys, (size_t)n_trans, sizeof *keys, by_key);
    for (int i = 0; i < n_trans; i++)
        r->sorted[n_opaque + i] = r->instances[keys[i].index];
    r->opaque_count = n_opaque;
    r->translucent_count = n_trans;
}

void scene_renderer_draw(const scene_renderer *sr, scene_instances *r, const scene *s,
                         const scene_state *st, const theme *th, const camera *cam, int x, int y,
                         int w, int h, float edge_px)
{
    assert(sr && r && s && st && th && cam && sr->program && r->instance_vbo);
    if (w <= 0 || h <= 0)
        return;
    float eye[3];
    camera_eye(cam, eye);
    /* micro-batch slices along y; stack blocks along z (scene.c's sizes) */
    const int g = slots_per_instance(s, cam, w, h, 1, s->batch / (float)s->slots);
    const int g_stack =
        slots_per_instance(s, cam, w, h, 2, fminf(0.4f, 2.5f / (float)s->slots) * s->d_model);
    bool same = r->uploaded && r->last_scene == s && r->last_generation == s->generation &&
                r->last_t == st->t && r->last_theme == th->name &&
                r->last_slots_per_instance[0] == g && r->last_slots_per_instance[1] == g_stack &&
                memcmp(r->last_eye, eye, sizeof eye) == 0;
    if (!same) {
        build(r, s, st, th, eye, g, g_stack);
        int n = r->opaque_count + r->translucent_count;
        glBindBuffer(GL_ARRAY_BUFFER, r->instance_vbo);
        if (r->gpu_capacity < r->capacity) {
            glBufferData(GL_ARRAY_BUFFER,
                         (GLsizeiptr)((size_t)r->capacity * sizeof(scene_instance)), NULL,
                         GL_DYNAMIC_DRAW);
            r->gpu_capacity = r->capacity;
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
        memcpy(r->last_eye, eye, sizeof eye);
        r->uploaded = true;
        r->uploads++;
    }

    float view[16], proj[16], view_proj[16];
    camera_view_proj(cam, (float)w / (float)h, view, proj, view_proj);

    /* No clear of its own: the caller cleared depth with the colour. A clear
     * scissored to part of the framebuffer is a drawn quad on llvmpipe,
     * about 2 ms of CPU at 1080p, where one clear of the whole is a memset. */
    glViewport(x, y, w, h);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glUseProgram(sr->program);
    glUniformMatrix4fv(sr->loc_view_proj, 1, GL_FALSE, view_proj);
    float light[3] = {0.35f, -0.55f, 0.76f};
    glUniform3fv(sr->loc_light, 1, light);
    glUniform3f(sr->loc_edge_color, th->edge.r / 255.0f, th->edge.g / 255.0f, th->edge.b / 255.0f);
    glUniform1f(sr->loc_edge_px, edge_px >= 1 ? edge_px : 1); /* NaN fails the test too */

    /* Opaque faces: both sides visible, depth writes on. */
    glDisable(GL_BLEND);
    glDisable(GL_CULL_FACE);
    glDepthMask(GL_TRUE);
    if (r->opaque_count > 0) {
        glUniform1i(sr->loc_face_mode, 1);
        glBindVertexArray(r->face_vao);
        glDrawArraysInstanced(GL_TRIANGLES, 0, 6, r->opaque_count);
    }
    /* Translucent faces and boxes, back to front: front sides only. */
    if (r->translucent_count > 0) {
        glEnable(GL_BLEND);
        glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
        glEnable(GL_CULL_FACE);
        glCullFace(GL_BACK);
        glDepthMask(GL_FALSE);
        glUniform1i(sr->loc_face_mode, 0);
        glBindVertexArray(r->box_vao);
        /* The instance attributes start after the opaque ones. */
        glBindBuffer(GL_ARRAY_BUFFER, r->instance_vbo);
        glVertexAttribDivisor(3, 1);
        size_t base = (size_t)r->opaque_count * sizeof(scene_instance);
        size_t stride = sizeof(scene_instance);
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
        glDrawArraysInstanced(GL_TRIANGLES, 0, 36, r->translucent_count);
        glDepthMask(GL_TRUE);
        glDisable(GL_CULL_FACE);
    }
    glBindVertexArray(0);
    glUseProgram(0);
    glDisable(GL_DEPTH_TEST);
}
