/* test_scene_pick.c - picking in the 3D view (render/scene_pick.h), pure
 * math on real scenes, no GL:
 *   - the centre of a box, projected by a camera and picked there, gets
 *     that box (a matmul box, a face, a weight), and a point off every box
 *     gets nothing;
 *   - of two boxes on one ray the nearer wins, from either end;
 *   - what each object selects at an instant of the hand-worked 1F1B P=4
 *     M=8 p2p 0.5 (a lit matmul box, an activation face, a weight, a p2p
 *     box and its slab both ways, a stack block) and of one with two
 *     replicas (an all-reduce box, a weight during the all-reduce);
 *   - the whole pick through the default camera at t = 20 gets the action
 *     whose lit matmul box lies under the pixel. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene_pick.h"
#include "scene_renderer.h"
#include "support/check.h"
#include "support/run_fixture.h"

enum { W = 1200, H = 700 };

typedef struct pick_run {
    run_fixture run;
    scene sc;
    scene_state st;
} pick_run;

static void pick_run_init(pick_run *x, const run_fixture_desc *d)
{
    *x = (pick_run){0};
    run_fixture_init(&x->run, d);
    const scene_desc sd = scene_desc_defaults();
    scene_init(&x->sc, &sd, &x->run.tl);
    scene_state_init(&x->st, &x->sc);
}

static void pick_run_deinit(pick_run *x)
{
    scene_state_deinit(&x->st);
    scene_deinit(&x->sc);
    run_fixture_deinit(&x->run);
}

static void hand_worked(pick_run *x)
{
    pick_run_init(x, &(run_fixture_desc){.schedule = "1f1b", .P = 4, .M = 8, .p2p = 0.5});
}

static object_state *state_of(pick_run *x, scene_kind kind, int index, int m)
{
    return &x->st.kind[kind][(size_t)index * (size_t)scene_kind_slots(&x->sc, kind) + m];
}

/* Every object hidden, then the one asked for shown. */
static void hide_all(pick_run *x)
{
    for (int k = 0; k < SCENE_KIND_COUNT; k++)
        for (int64_t i = 0; i < scene_kind_count(&x->sc, (scene_kind)k); i++)
            x->st.kind[k][i].visible = 0;
}

static void show(pick_run *x, scene_kind kind, int index, int m)
{
    *state_of(x, kind, index, m) =
        (object_state){.visible = 1, .role = SCENE_ROLE_ACTIVATION, .opacity = 1};
}

static camera default_camera(const pick_run *x)
{
    const camera_bounds b = {
        .min = {x->sc.bounds.min[0], x->sc.bounds.min[1], x->sc.bounds.min[2]},
        .max = {x->sc.bounds.max[0], x->sc.bounds.max[1], x->sc.bounds.max[2]}};
    return camera_preset_view(CAMERA_PRESET_DEFAULT, &b, (float)W / H);
}

static void centre_pixel(const camera *cam, const scene_box *b, float *px, float *py)
{
    const float c[3] = {0.5f * (b->min[0] + b->max[0]), 0.5f * (b->min[1] + b->max[1]),
                        0.5f * (b->min[2] + b->max[2])};
    assert_true(camera_project(cam, (float)W / H, c, W, H, px, py));
}

/* The action's index on its rank, by its text ("2B3"). */
static timeline_panel_hover action_named(const pick_run *x, const char *text)
{
    const program *p = x->run.tl.program;
    for (int r = 0; r < p->ranks; r++)
        for (int k = 0; k < p->rank[r].count; k++) {
            char s[ACTION_TEXT_MAX];
            action_format(&p->rank[r].actions[k], s);
            if (strcmp(s, text) == 0)
                return (timeline_panel_hover){TIMELINE_HIT_ACTION, r, k};
        }
    fail_msg("no action %s", text);
    return (timeline_panel_hover){TIMELINE_HIT_NONE, -1, -1};
}

#define assert_selects(got, want)                                                                  \
    do {                                                                                           \
        const timeline_panel_hover g_ = (got), w_ = (want);                                        \
        if (g_.kind != w_.kind || g_.rank != w_.rank || g_.index != w_.index)                      \
            fail_msg("%s: kind %d rank %d index %d, want kind %d rank %d index %d", #got,          \
                     (int)g_.kind, g_.rank, g_.index, (int)w_.kind, w_.rank, w_.index);            \
    } while (0)

static void test_centre_of_a_box_picks_it(void **state)
{
    (void)state;
    pick_run x;
    hand_worked(&x);
    const camera cam = default_camera(&x);
    static const struct {
        scene_kind kind;
        int index, m;
    } objects[] = {
        {SCENE_MATMUL1, 2, 3},  {SCENE_MATMUL2, 5, 0}, {SCENE_HIDDEN, 1, 7},
        {SCENE_RESIDUAL, 6, 4}, {SCENE_WEIGHT1, 4, 0}, {SCENE_STACK, 3, 1},
    };
    for (size_t k = 0; k < sizeof objects / sizeof objects[0]; k++) {
        scene_state_at(&x.sc, 20, &x.st);
        hide_all(&x);
        show(&x, objects[k].kind, objects[k].index, objects[k].m);
        const scene_box b =
            scene_object_box(&x.sc, objects[k].kind, objects[k].index, objects[k].m, 0);
        float px, py;
        centre_pixel(&cam, &b, &px, &py);
        float o[3], d[3];
        scene_pick_ray(&cam, W, H, px, py, o, d);
        scene_pick_hit hit;
        if (!scene_pick_object(&x.sc, &x.st, SCENE_LEVEL_DETAIL, o, d, &hit))
            fail_msg("object %zu (kind %d) at pixel %.1f, %.1f: nothing picked", k,
                     (int)objects[k].kind, px, py);
        assert_int_equal(hit.kind, objects[k].kind);
        assert_int_equal(hit.index, objects[k].index);
        assert_int_equal(hit.slot, objects[k].m);
        assert_int_equal(hit.replica, 0);
        /* the top-left corner of the view is off every box */
        scene_pick_ray(&cam, W, H, 1, 1, o, d);
        assert_false(scene_pick_object(&x.sc, &x.st, SCENE_LEVEL_DETAIL, o, d, &hit));
    }
    /* nothing drawn: nothing picked, wherever */
    hide_all(&x);
    scene_pick_hit hit;
    const timeline_panel_hover h =
        scene_pick(&x.sc, &x.st, &cam, W, H, 0, W / 2.0f, H / 2.0f, &hit);
    assert_int_equal(h.kind, TIMELINE_HIT_NONE);
    pick_run_deinit(&x);
}

static void test_nearer_of_two_wins(void **state)
{
    (void)state;
    pick_run x;
    hand_worked(&x);
    scene_state_at(&x.sc, 20, &x.st);
    hide_all(&x);
    show(&x, SCENE_MATMUL1, 0, 2);
    show(&x, SCENE_MATMUL1, 0, 5);
    /* along +y through layer 0's boxes of every micro-batch */
    const scene_box b2 = scene_object_box(&x.sc, SCENE_MATMUL1, 0, 2, 0);
    const scene_box b5 = scene_object_box(&x.sc, SCENE_MATMUL1, 0, 5, 0);
    const float cx = 0.5f * (b2.min[0] + b2.max[0]), cz = 0.5f * (b2.min[2] + b2.max[2]);
    float o[3] = {cx, x.sc.bounds.min[1] - 10, cz};
    float d[3] = {0, 1, 0};
    scene_pick_hit hit;
    assert_true(scene_pick_object(&x.sc, &x.st, SCENE_LEVEL_DETAIL, o, d, &hit));
    assert_int_equal(hit.kind, SCENE_MATMUL1);
    assert_int_equal(hit.slot, 2);
    assert_near(hit.distance, b2.min[1] - o[1], 1e-2);
    /* from the other end, the other one */
    o[1] = x.sc.bounds.max[1] + 10, d[1] = -1;
    assert_true(scene_pick_object(&x.sc, &x.st, SCENE_LEVEL_DETAIL, o, d, &hit));
    assert_int_equal(hit.slot, 5);
    assert_near(hit.distance, o[1] - b5.max[1], 1e-2);
    /* through the camera: the eye's ray to the farther one's centre meets
       the nearer when it stands in front; here the front view along +y */
    const camera_bounds cb = {.min = {b2.min[0], b2.min[1], b2.min[2]},
                              .max = {b5.max[0], b5.max[1], b5.max[2]}};
    const camera front = camera_preset_view(CAMERA_PRESET_FRONT, &cb, (float)W / H);
    float px, py;
    centre_pixel(&front, &b5, &px, &py);
    const timeline_panel_hover h = scene_pick(&x.sc, &x.st, &front, W, H, 0, px, py, &hit);
    assert_int_equal(hit.slot, 2);
    assert_int_not_equal(h.kind, TIMELINE_HIT_NONE);
    pick_run_deinit(&x);
}

static void test_slab_test(void **state)
{
    (void)state;
    const scene_box face = {{0, 0, 0}, {4, 4, 0}}; /* no thickness along z */
    const float down[3] = {0, 0, -1}, along[3] = {1, 0, 0};
    float t;
    assert_true(scene_pick_box(&face, 0, (float[3]){1, 1, 5}, down, &t));
    assert_near(t, 5, 1e-6);
    assert_false(scene_pick_box(&face, 0, (float[3]){5, 1, 5}, down, &t));
    /* the ray starts past it: behind the eye is never hit */
    assert_false(scene_pick_box(&face, 0, (float[3]){1, 1, -5}, down, &t));
    /* inside a box: 0 */
    const scene_box cube = {{0, 0, 0}, {2, 2, 2}};
    assert_true(scene_pick_box(&cube, 0, (float[3]){1, 1, 1}, along, &t));
    assert_near(t, 0, 1e-6);
    /* parallel to a slab, outside it: never */
    assert_false(scene_pick_box(&cube, 0, (float[3]){-5, 3, 1}, along, &t));
    /* the pad widens every side */
    assert_true(scene_pick_box(&cube, 1.5f, (float[3]){-5, 3, 1}, along, &t));
    assert_near(t, 3.5, 1e-6);
}

/* What objects select at t = 20 of the hand-worked case: rank 0 runs 0B2,
 * rank 2 runs 2B3 (the timeline's bars at 20). */
static void test_what_objects_select(void **state)
{
    (void)state;
    pick_run x;
    hand_worked(&x);
    const double t = 20;
    scene_state_at(&x.sc, t, &x.st);
    /* a lit matmul box of stage 0 for micro-batch 2: the backward running it */
    int lit = -1;
    for (int l = 0; l < 2 && lit < 0; l++)
        for (int k = SCENE_MATMUL1; k <= SCENE_MATMUL2 && lit < 0; k++)
            if (state_of(&x, (scene_kind)k, l, 2)->visible)
                lit = l * 2 + (k - SCENE_MATMUL1);
    assert_ge(lit, 0);
    scene_pick_hit hit = {lit % 2 ? SCENE_MATMUL2 : SCENE_MATMUL1, lit / 2, 2, 0, 0};
    assert_selects(scene_pick_owner(&x.sc, &x.st, &hit), action_named(&x, "0B2"));
    /* an activation face of stage 0 micro-batch 5, live: the forward that made it */
    assert_true(state_of(&x, SCENE_HIDDEN, 0, 5)->visible);
    hit = (scene_pick_hit){SCENE_HIDDEN, 0, 5, 0, 0};
    assert_selects(scene_pick_owner(&x.sc, &x.st, &hit), action_named(&x, "0F5"));
    /* a weight of stage 2 (layers 4, 5): what its rank runs now */
    hit = (scene_pick_hit){SCENE_WEIGHT2, 5, 0, 0, 0};
    assert_selects(scene_pick_owner(&x.sc, &x.st, &hit), action_named(&x, "2B3"));
    /* stage 0's stack: block 0 is the oldest live micro-batch, 2 (0 and 1 are
       freed by 20, 2's backward runs), the last block the newest, 5 */
    hit = (scene_pick_hit){SCENE_STACK, 0, 0, 0, 0};
    assert_selects(scene_pick_owner(&x.sc, &x.st, &hit), action_named(&x, "0F2"));
    int live = 0;
    while (live < 8 && state_of(&x, SCENE_STACK, 0, live)->visible)
        live++;
    assert_int_equal(live, 4); /* 2, 3, 4, 5 */
    hit = (scene_pick_hit){SCENE_STACK, 0, live - 1, 0, 0};
    assert_selects(scene_pick_owner(&x.sc, &x.st, &hit), action_named(&x, "0F5"));

    /* a forward send over boundary 1 (stages 1 -> 2) of micro-batch 4: 1F4's */
    const timeline_cell *c14 = timeline_cell_at(&x.sc.cells, 1, 4);
    scene_state_at(&x.sc, c14->f_end + 0.25, &x.st);
    assert_true(state_of(&x, SCENE_P2P, 1, 4)->visible);
    hit = (scene_pick_hit){SCENE_P2P, 1, 4, 0, 0};
    assert_selects(scene_pick_owner(&x.sc, &x.st, &hit), action_named(&x, "1F4"));
    hit.kind = SCENE_SLAB;
    assert_selects(scene_pick_owner(&x.sc, &x.st, &hit), action_named(&x, "1F4"));
    /* its gradient coming back: the backward on stage 2 */
    const timeline_cell *c24 = timeline_cell_at(&x.sc.cells, 2, 4);
    scene_state_at(&x.sc, c24->b_end + 0.25, &x.st);
    assert_int_equal(state_of(&x, SCENE_P2P, 1, 4)->label, SCENE_LABEL_GRAD);
    hit = (scene_pick_hit){SCENE_SLAB, 1, 4, 0, 0};
    assert_selects(scene_pick_owner(&x.sc, &x.st, &hit), action_named(&x, "2B4"));
    pick_run_deinit(&x);
}

static void test_allreduce_objects(void **state)
{
    (void)state;
    pick_run x;
    pick_run_init(&x,
                  &(run_fixture_desc){.schedule = "1f1b", .P = 2, .M = 4, .D = 2, .allreduce = 8});
    const timeline *tl = &x.run.tl;
    int ar1 = -1;
    for (int i = 0; i < tl->allreduce_count; i++)
        if (tl->allreduces[i].stage == 1)
            ar1 = i;
    assert_ge(ar1, 0);
    const double t = tl->allreduces[ar1].start + 1;
    scene_state_at(&x.sc, t, &x.st);
    const timeline_panel_hover want = {TIMELINE_HIT_ALLREDUCE, tl->allreduces[ar1].src_rank, ar1};
    /* stage 1 holds layers 2 and 3 */
    scene_pick_hit hit = {SCENE_ALLREDUCE, 3, 0, 0, 0};
    assert_selects(scene_pick_owner(&x.sc, &x.st, &hit), want);
    hit = (scene_pick_hit){SCENE_CHUNK, 2, 0, 1, 0};
    assert_selects(scene_pick_owner(&x.sc, &x.st, &hit), want);
    /* its weights while it runs and the rank computes nothing of stage 1 */
    if (timeline_action_at(tl, x.sc.stage_rank[1], t) < 0) {
        hit = (scene_pick_hit){SCENE_WEIGHT1, 2, 0, 1, 0};
        assert_selects(scene_pick_owner(&x.sc, &x.st, &hit), want);
    }
    pick_run_deinit(&x);
}

/* The whole way, as a click: the camera from above at t = 20 (from the
 * default three-quarter view the later micro-batches' faces stand in front
 * of micro-batch 2's), the pixel of the lit matmul box of 0B2: the pick
 * selects 0B2. */
static void test_pick_through_the_camera(void **state)
{
    (void)state;
    pick_run x;
    hand_worked(&x);
    scene_state_at(&x.sc, 20, &x.st);
    const camera_bounds cb = {.min = {x.sc.bounds.min[0], x.sc.bounds.min[1], x.sc.bounds.min[2]},
                              .max = {x.sc.bounds.max[0], x.sc.bounds.max[1], x.sc.bounds.max[2]}};
    const camera cam = camera_preset_view(CAMERA_PRESET_TOP, &cb, (float)W / H);
    bool tried = false;
    for (int l = 0; l < 2; l++)
        for (int k = SCENE_MATMUL1; k <= SCENE_MATMUL2; k++) {
            if (!state_of(&x, (scene_kind)k, l, 2)->visible)
                continue;
            const scene_box b = scene_object_box(&x.sc, (scene_kind)k, l, 2, 0);
            float px, py;
            centre_pixel(&cam, &b, &px, &py);
            scene_pick_hit hit;
            assert_selects(scene_pick(&x.sc, &x.st, &cam, W, H, 0, px, py, &hit),
                           action_named(&x, "0B2"));
            tried = true;
        }
    assert_true(tried);
    /* the whole scene from above is drawn at the GPU level: the point is
     * on stage 0's block, which selects what the stage runs; the plate's
     * front margin, in front of the block, what its GPU runs */
    assert_int_equal(scene_renderer_level(&x.sc, &cam, W, H, 0), SCENE_LEVEL_GPU);
    const scene_box plate = scene_object_box(&x.sc, SCENE_GPU, 0, 0, 0);
    const scene_box front = {
        {plate.min[0] + x.sc.unit, plate.min[1] + 0.2f * x.sc.unit, 0},
        {plate.max[0] - x.sc.unit, plate.min[1] + 0.6f * x.sc.unit, plate.max[2]}};
    float px, py;
    centre_pixel(&cam, &front, &px, &py);
    scene_pick_hit hit;
    assert_selects(scene_pick(&x.sc, &x.st, &cam, W, H, 0, px, py, &hit), action_named(&x, "0B2"));
    assert_int_equal(hit.kind, SCENE_GPU);
    pick_run_deinit(&x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_centre_of_a_box_picks_it),
        cmocka_unit_test(test_nearer_of_two_wins),
        cmocka_unit_test(test_slab_test),
        cmocka_unit_test(test_what_objects_select),
        cmocka_unit_test(test_allreduce_objects),
        cmocka_unit_test(test_pick_through_the_camera),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
