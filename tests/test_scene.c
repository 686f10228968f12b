/* Tests of the 3D scene's layout and of state(t): chosen instants of real
 * schedules, the memory story (GPipe piles up M micro-batches, 1F1B P - s),
 * flashes, weight gradients, captions, and purity (any order, same answer). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene.h"
#include "support/check.h"
#include "support/run_fixture.h"

/* A simulated schedule and its scene, with a state to fill. */
typedef struct scene_run {
    run_fixture run; /* program, costs, timeline */
    scene sc;
    scene_state st;
} scene_run;

/* The run d describes (run_fixture.h) and its scene with `layers` layers
 * per stage. */
static void scene_run_init(scene_run *x, int layers, const run_fixture_desc *d)
{
    *x = (scene_run){0};
    run_fixture_init(&x->run, d);
    scene_desc sd = scene_desc_defaults();
    sd.layers_per_stage = layers;
    scene_init(&x->sc, &sd, &x->run.tl);
    scene_state_init(&x->st, &x->sc);
}

static void scene_run_deinit(scene_run *x)
{
    scene_state_deinit(&x->st);
    scene_deinit(&x->sc);
    run_fixture_deinit(&x->run);
}

static const timeline_cell *cell(const scene_run *x, int stage, int m)
{
    return timeline_cell_at(&x->sc.cells, stage, m);
}

static object_state get(const scene_run *x, scene_kind kind, int index, int m)
{
    return x->st.kind[kind][(size_t)index * scene_kind_slots(&x->sc, kind) + m];
}

#define assert_role(o, r)                                                                          \
    do {                                                                                           \
        object_state o_ = (o);                                                                     \
        if (!o_.visible || o_.role != (r))                                                         \
            fail_msg("%s: visible %d role %d, expected visible with role %d", #o, o_.visible,      \
                     o_.role, (int)(r));                                                           \
    } while (0)

/* 1F1B, P=4, M=8, F=1, B=2, 2 layers per stage: rank 1 runs F of micro-batch 3. */
static void test_forward_instant(void **state)
{
    (void)state;
    scene_run x;
    scene_run_init(&x, 2, &(run_fixture_desc){.schedule = "1f1b", .P = 4, .M = 8, .D = 2});
    const timeline_cell *c = cell(&x, 1, 3);
    assert_gt(c->f_end, c->f_start);
    /* 60% through: sub-steps 0 (layer 2, W1), 1 (layer 2, W2) done, 2 (layer 3, W1) running. */
    double t = c->f_start + 0.6 * (c->f_end - c->f_start);
    scene_state_at(&x.sc, t, &x.st);

    assert_role(get(&x, SCENE_INPUT, 1, 3), SCENE_ROLE_ACTIVATION);
    assert_role(get(&x, SCENE_HIDDEN, 2, 3), SCENE_ROLE_ACTIVATION);
    assert_role(get(&x, SCENE_RESIDUAL, 2, 3), SCENE_ROLE_ACTIVATION);
    object_state h3 = get(&x, SCENE_HIDDEN, 3, 3);
    assert_role(h3, SCENE_ROLE_ACTIVATION);
    assert_lt(h3.opacity, 0.5f); /* fading in */
    assert_false(get(&x, SCENE_RESIDUAL, 3, 3).visible);

    object_state lit = get(&x, SCENE_MATMUL1, 3, 3);
    assert_role(lit, SCENE_ROLE_MATMUL);
    assert_true(lit.flash > 0.5f && lit.opacity > 0);
    /* Only the running matmul shows: layer 2's are done. */
    assert_false(get(&x, SCENE_MATMUL1, 2, 3).visible);
    assert_false(get(&x, SCENE_MATMUL2, 3, 3).visible);
    /* Other micro-batches' boxes on this stage are dark. */
    assert_false(get(&x, SCENE_MATMUL1, 3, 4).visible);

    assert_int_equal(x.st.focus[1].kind, ACTION_F);
    assert_int_equal(x.st.focus[1].microbatch, 3);
    assert_int_equal(x.st.focus[1].layer, 3);

    char caption[256];
    scene_caption(&x.sc, t, 1, caption, sizeof caption);
    assert_string_equal(caption, "rank 1: forward of micro-batch 3 on stage 1, then p2p to rank 2");

    /* After the backward of micro-batch 3 on stage 1, its activations are gone. */
    scene_state_at(&x.sc, c->b_end + 1e-9, &x.st);
    assert_false(get(&x, SCENE_INPUT, 1, 3).visible);
    assert_false(get(&x, SCENE_HIDDEN, 2, 3).visible);
    assert_false(get(&x, SCENE_RESIDUAL, 2, 3).visible);
    assert_false(get(&x, SCENE_HIDDEN, 3, 3).visible);
    scene_run_deinit(&x);
}

/* The backward sweeps gradients back through the layers, matmul 2 first. */
static void test_backward_instant(void **state)
{
    (void)state;
    scene_run x;
    scene_run_init(&x, 2, &(run_fixture_desc){.schedule = "1f1b", .P = 4, .M = 8, .D = 2});
    const timeline_cell *c = cell(&x, 1, 3);
    /* 60% through B: layer 3's two backward matmuls done, layer 2's W2 running. */
    scene_state_at(&x.sc, c->b_start + 0.6 * (c->b_end - c->b_start), &x.st);
    assert_role(get(&x, SCENE_HIDDEN, 3, 3), SCENE_ROLE_GRADIENT);
    assert_int_equal(get(&x, SCENE_HIDDEN, 3, 3).label, SCENE_LABEL_GRAD);
    assert_role(get(&x, SCENE_RESIDUAL, 2, 3), SCENE_ROLE_GRADIENT);
    assert_role(get(&x, SCENE_HIDDEN, 2, 3), SCENE_ROLE_ACTIVATION);
    assert_role(get(&x, SCENE_INPUT, 1, 3), SCENE_ROLE_ACTIVATION);
    assert_role(get(&x, SCENE_RESIDUAL, 3, 3), SCENE_ROLE_GRADIENT); /* ∇ from stage 2 */
    object_state mm = get(&x, SCENE_MATMUL2, 2, 3);
    assert_role(mm, SCENE_ROLE_MATMUL);
    assert_gt(mm.flash, 0.5f);
    assert_int_equal(mm.label, SCENE_LABEL_GRAD);
    assert_int_equal(x.st.focus[1].kind, ACTION_B);
    assert_int_equal(x.st.focus[1].layer, 2);
    /* The last stage's output turns into the loss's gradient when its backward starts. */
    const timeline_cell *last = cell(&x, 3, 0);
    scene_state_at(&x.sc, last->f_end - 0.01, &x.st);
    assert_role(get(&x, SCENE_RESIDUAL, 7, 0), SCENE_ROLE_ACTIVATION);
    scene_state_at(&x.sc, last->b_start + 0.01, &x.st);
    assert_role(get(&x, SCENE_RESIDUAL, 7, 0), SCENE_ROLE_GRADIENT);
    scene_run_deinit(&x);
}

/* Number of micro-batches whose activations are live on a stage: the input
 * face at full opacity (a received input waiting for its F shows faintly,
 * and the timeline counts a micro-batch from the start of its F). */
static int live_on_stage(const scene_run *x, int stage)
{
    int n = 0;
    for (int m = 0; m < x->sc.microbatches; m++) {
        object_state o = get(x, SCENE_INPUT, stage, m);
        n += o.visible && o.opacity == 1;
    }
    return n;
}

/* The memory story: most activations visible at once on a stage over the
 * iteration equals the timeline's peak: M for GPipe, P - s for 1F1B. */
static void test_memory_story(void **state)
{
    (void)state;
    const char *schedules[] = {"gpipe", "1f1b"};
    for (int k = 0; k < 2; k++) {
        const int P = 4, M = 8;
        scene_run x;
        scene_run_init(&x, 1, &(run_fixture_desc){.schedule = schedules[k], .P = P, .M = M});
        for (int s = 0; s < P; s++) {
            int peak = 0;
            for (int i = 0; i <= 4000; i++) {
                scene_state_at(&x.sc, x.run.tl.makespan * i / 4000.0, &x.st);
                int n = live_on_stage(&x, s);
                peak = n > peak ? n : peak;
            }
            int expect = k == 0 ? M : P - s;
            if (peak != expect || peak != x.run.tl.per_rank[s].peak_activations)
                fail_msg("%s stage %d: peak %d, expected %d (timeline %d)", schedules[k], s, peak,
                         expect, x.run.tl.per_rank[s].peak_activations);
        }
        scene_run_deinit(&x);
    }
}

/* Weight faces fill with gradient as micro-batches' backward passes finish:
 * empty at 0, full at the end, never decreasing, and the W of a split
 * backward is what fills them. */
static void test_weight_gradients_accumulate(void **state)
{
    (void)state;
    const char *schedules[] = {"1f1b", "zb-h1", "interleaved-1f1b", "dualpipev"};
    for (int k = 0; k < 4; k++) {
        scene_run x;
        scene_run_init(&x, 2, &(run_fixture_desc){.schedule = schedules[k], .P = 4, .M = 8});
        float prev[64] = {0};
        assert_le(x.sc.layers, 32);
        for (int i = 0; i <= 500; i++) {
            scene_state_at(&x.sc, x.run.tl.makespan * i / 500.0, &x.st);
            for (int l = 0; l < x.sc.layers; l++) {
                for (int w = 0; w < 2; w++) {
                    object_state o = get(&x, w ? SCENE_WEIGHT2 : SCENE_WEIGHT1, l, 0);
                    assert_role(o, SCENE_ROLE_WEIGHT);
                    if (i == 0)
                        assert_true(o.flash == 0);
                    if (i == 500 && fabsf(o.flash - 1) > 1e-5f)
                        fail_msg("%s layer %d W%d: fill %g at the end", schedules[k], l, w + 1,
                                 o.flash);
                    if (o.flash + 1e-6f < prev[2 * l + w])
                        fail_msg("%s layer %d: fill went down", schedules[k], l);
                    prev[2 * l + w] = o.flash;
                }
            }
        }
        scene_run_deinit(&x);
    }
    /* zb-h1: between I and W of a micro-batch its weights have not moved. */
    scene_run x;
    scene_run_init(&x, 1, &(run_fixture_desc){.schedule = "zb-h1", .P = 2, .M = 1});
    const timeline_cell *c = cell(&x, 1, 0);
    assert_ge(c->w_start, c->b_end);
    scene_state_at(&x.sc, c->b_end, &x.st);
    assert_true(get(&x, SCENE_WEIGHT1, 1, 0).flash == 0);
    scene_state_at(&x.sc, c->w_end, &x.st);
    assert_true(get(&x, SCENE_WEIGHT1, 1, 0).flash == 1);
    scene_run_deinit(&x);
}

static float box_mid(const scene_box *b, int axis)
{
    return 0.5f * (b->min[axis] + b->max[axis]);
}

static scene_box placed(const scene_run *x, scene_kind kind, int index, int m, int replica)
{
    scene_box b;
    object_state o = get(x, kind, index, m);
    assert_true(o.visible);
    assert_true(scene_object_place(&x->sc, kind, index, m, replica, &o, &b));
    return b;
}

/* The x range between the plates of stage `stage`'s GPU and stage + 1's
 * (neighbours, the first on the left), in a replica. */
static void plate_gap(const scene_run *x, int stage, int replica, float *from, float *to)
{
    *from = scene_object_box(&x->sc, SCENE_GPU, x->sc.stage_rank[stage], 0, replica).max[0];
    *to = scene_object_box(&x->sc, SCENE_GPU, x->sc.stage_rank[stage + 1], 0, replica).min[0];
}

/* A send's tensor leaves the producer's plate at the send's start and
 * reaches the consumer's at its end, eased, on the wire's forward lane, in
 * the tensor's colour; the gradient goes back on the other lane. */
static void test_slab_crosses_the_gap(void **state)
{
    (void)state;
    scene_run x;
    scene_run_init(&x, 2,
                   &(run_fixture_desc){.schedule = "1f1b", .P = 4, .M = 8, .D = 2, .p2p = 2});
    float sx1, nx0;
    plate_gap(&x, 1, 0, &sx1, &nx0);
    const timeline_cell *c = cell(&x, 1, 5), *n = cell(&x, 2, 5);
    assert_near(n->in_ready - c->f_end, 2, 1e-12); /* longer than flash_min: real times */
    assert_lt(x.sc.flash_min, 2.0f);

    scene_state_at(&x.sc, c->f_end, &x.st);
    assert_role(get(&x, SCENE_SLAB, 1, 5), SCENE_ROLE_ACTIVATION);
    assert_int_equal(get(&x, SCENE_SLAB, 1, 5).label, SCENE_LABEL_PLAIN);
    scene_box b = placed(&x, SCENE_SLAB, 1, 5, 0);
    assert_near(b.min[0], sx1, 1e-4); /* at the producer */
    assert_gt(b.max[0], b.min[0]);
    assert_true(b.min[2] >= x.sc.plate_h); /* on the wire, over the floor */
    const float forward_lane = box_mid(&b, 1);
    /* replica 1's tensor is the same send, one row back */
    scene_box b1 = placed(&x, SCENE_SLAB, 1, 5, 1);
    assert_near(b1.min[1] - b.min[1], x.sc.pitch_y, 1e-3);

    scene_state_at(&x.sc, (c->f_end + n->in_ready) / 2, &x.st);
    b = placed(&x, SCENE_SLAB, 1, 5, 0);
    assert_near(box_mid(&b, 0), 0.5f * (sx1 + nx0), 1e-3); /* halfway (eased: symmetric) */
    scene_state_at(&x.sc, c->f_end + 0.1 * (n->in_ready - c->f_end), &x.st);
    b = placed(&x, SCENE_SLAB, 1, 5, 0);
    assert_lt(b.min[0] - sx1, 0.1f * (nx0 - sx1 - (b.max[0] - b.min[0]))); /* slow to start */

    scene_state_at(&x.sc, n->in_ready, &x.st);
    b = placed(&x, SCENE_SLAB, 1, 5, 0);
    assert_near(b.max[0], nx0, 1e-4); /* at the consumer */
    scene_state_at(&x.sc, n->in_ready + 0.01, &x.st);
    assert_false(get(&x, SCENE_SLAB, 1, 5).visible);

    /* the gradient, from stage 2's plate back to stage 1's, on the other lane */
    scene_state_at(&x.sc, n->b_end, &x.st);
    assert_role(get(&x, SCENE_SLAB, 1, 5), SCENE_ROLE_GRADIENT);
    assert_int_equal(get(&x, SCENE_SLAB, 1, 5).label, SCENE_LABEL_GRAD);
    b = placed(&x, SCENE_SLAB, 1, 5, 0);
    assert_near(b.max[0], nx0, 1e-4);
    assert_true(fabsf(box_mid(&b, 1) - forward_lane) >= b.max[1] - b.min[1]); /* lanes apart */
    scene_state_at(&x.sc, c->grad_ready, &x.st);
    b = placed(&x, SCENE_SLAB, 1, 5, 0);
    assert_near(b.min[0], sx1, 1e-4);

    char label[32];
    scene_object_label(&x.sc, SCENE_SLAB, 1, SCENE_LABEL_GRAD, label, sizeof label);
    assert_string_equal(label, "∇x⁴");
    scene_run_deinit(&x);
}

/* A send shorter than flash_min = 1/40 of the iteration (a free one here)
 * is shown for flash_min, its tensor crossing the gap in that time: at the
 * default playback (the iteration in 20 s) half a second, 15 frames of a
 * 30 fps video. */
static void test_zero_time_flash(void **state)
{
    (void)state;
    scene_run x;
    scene_run_init(&x, 2, &(run_fixture_desc){.schedule = "1f1b", .P = 4, .M = 8});
    assert_near(x.sc.flash_min, x.run.tl.makespan / 40, 1e-6);
    const timeline_cell *c = cell(&x, 0, 1);
    assert_true(timeline_input_ready(&x.sc.cells, 1, 1) == c->f_end); /* free */
    float sx1, nx0;
    plate_gap(&x, 0, 0, &sx1, &nx0);
    scene_state_at(&x.sc, c->f_end, &x.st);
    assert_near(placed(&x, SCENE_SLAB, 0, 1, 0).min[0], sx1, 1e-4);
    scene_state_at(&x.sc, c->f_end + x.sc.flash_min * 0.999, &x.st);
    assert_role(get(&x, SCENE_SLAB, 0, 1), SCENE_ROLE_ACTIVATION);
    assert_role(get(&x, SCENE_P2P, 0, 1), SCENE_ROLE_P2P);
    assert_near(placed(&x, SCENE_SLAB, 0, 1, 0).max[0], nx0, 0.01f * (nx0 - sx1));
    scene_state_at(&x.sc, c->f_end + x.sc.flash_min * 1.01, &x.st);
    assert_false(get(&x, SCENE_SLAB, 0, 1).visible);
    assert_false(get(&x, SCENE_P2P, 0, 1).visible);
    scene_run_deinit(&x);
}

/* Ring all-reduce over D = 3: 2(D-1) = 4 equal steps; at step k replica r
 * sends chunk r-k (reduce-scatter) or r+1-(k-2) (all-gather) mod 3 to
 * r+1 mod 3, from its weights to theirs. */
static void test_allreduce_ring_chunks(void **state)
{
    (void)state;
    scene_run x;
    scene_run_init(&x, 2,
                   &(run_fixture_desc){.schedule = "1f1b", .P = 2, .M = 4, .D = 3, .allreduce = 8});
    const int D = 3;
    const transfer *ar = &x.run.tl.allreduces[0];
    const int layer = ar->stage * 2;
    const double len = ar->end - ar->start;
    assert_gt(len, x.sc.flash_min);
    const scene_box wire = scene_object_box(&x.sc, SCENE_ALLREDUCE, layer, 0, 0);
    const int rank = x.sc.stage_rank[ar->stage];
    for (int k = 0; k < 2 * (D - 1); k++) {
        for (int q = 0; q < 2; q++) {
            double t = ar->start + len * (k + (q ? 0.999 : 0.0)) / (2 * (D - 1));
            scene_state_at(&x.sc, t, &x.st);
            assert_role(get(&x, SCENE_CHUNK, layer, 0), SCENE_ROLE_GRADIENT);
            for (int r = 0; r < D; r++) {
                scene_chunk_move mv;
                object_state o = get(&x, SCENE_CHUNK, layer, 0);
                assert_true(scene_chunk_move_at(&x.sc, r, o.travel, &mv));
                assert_int_equal(mv.steps, 4);
                assert_int_equal(mv.step, k);
                int want =
                    k < D - 1 ? ((r - k) % D + D) % D : ((r + 1 - (k - (D - 1))) % D + D) % D;
                assert_int_equal(mv.chunk, want);
                assert_int_equal(mv.to, (r + 1) % D);
                scene_box b = placed(&x, SCENE_CHUNK, layer, 0, r);
                /* along x: the chunk's share of the layer's wire */
                float w = (wire.max[0] - wire.min[0]) / D;
                assert_true(b.min[0] > wire.min[0] + w * want &&
                            b.max[0] < wire.min[0] + w * (want + 1));
                /* along y: leaving the sender's plate at the step's start, reaching the
                 * receiver's at its end, on the edges that face each other */
                const int to = (r + 1) % D, at = q ? to : r;
                const scene_box pl = scene_object_box(&x.sc, SCENE_GPU, rank, 0, at);
                const bool towards_back = r < to;
                const float edge =
                    q ? (towards_back ? b.max[1] : b.min[1]) : (towards_back ? b.min[1] : b.max[1]);
                const float want_y = q ? (towards_back ? pl.min[1] : pl.max[1])
                                       : (towards_back ? pl.max[1] : pl.min[1]);
                assert_near(edge, want_y, 0.01f * x.sc.pitch_y);
            }
        }
    }
    /* the wrap from the last replica to the first arcs over the middle one */
    scene_state_at(&x.sc, ar->start + len * 0.5 / 4, &x.st);
    scene_box wrap = placed(&x, SCENE_CHUNK, layer, 0, D - 1);
    scene_box near = placed(&x, SCENE_CHUNK, layer, 0, 0);
    assert_gt(wrap.min[2], near.min[2] + x.sc.block_h);
    scene_run_deinit(&x);
}

/* Tree all-reduce over D = 4: 2 log2 D = 4 steps, up to replica 0 and back. */
static void test_allreduce_tree_moves(void **state)
{
    (void)state;
    scene_run x;
    scene_run_init(&x, 1,
                   &(run_fixture_desc){.schedule = "1f1b", .P = 2, .M = 2, .D = 4, .allreduce = 8});
    x.sc.allreduce_tree = true;
    /* senders and receivers of each step: (1->0, 3->2), (2->0), (0->2), (0->1, 2->3) */
    const int to[4][4] = {{-1, 0, -1, 2}, {-1, -1, 0, -1}, {2, -1, -1, -1}, {1, -1, 3, -1}};
    for (int k = 0; k < 4; k++)
        for (int r = 0; r < 4; r++) {
            scene_chunk_move mv;
            bool sends = scene_chunk_move_at(&x.sc, r, (k + 0.5f) / 4, &mv);
            assert_int_equal(mv.steps, 4);
            assert_int_equal(sends, to[k][r] >= 0);
            if (sends) {
                assert_int_equal(mv.to, to[k][r]);
                assert_int_equal(mv.chunk, -1);
            }
        }
    scene_run_deinit(&x);
}

/* Each stage's stack shows as many blocks as it has live activations:
 * GPipe piles up M on every stage, 1F1B at most P - s. */
static void test_memory_stack(void **state)
{
    (void)state;
    const char *names[] = {"gpipe", "1f1b"};
    for (int k = 0; k < 2; k++) {
        scene_run x;
        scene_run_init(&x, 2, &(run_fixture_desc){.schedule = names[k], .P = 4, .M = 8});
        for (int st = 0; st < 4; st++) {
            int most = 0;
            for (int i = 0; i < 200; i++) {
                scene_state_at(&x.sc, x.run.tl.makespan * i / 200.0, &x.st);
                int shown = 0;
                for (int m = 0; m < 8; m++)
                    shown += get(&x, SCENE_STACK, st, m).visible;
                for (int m = 0; m < 8; m++) /* a stack: blocks from the bottom up */
                    assert_int_equal(get(&x, SCENE_STACK, st, m).visible, m < shown);
                most = shown > most ? shown : most;
            }
            assert_int_equal(most, k == 0 ? 8 : 4 - st);
            /* block k + 1 sits on block k */
            scene_box b0 = scene_object_box(&x.sc, SCENE_STACK, st, 0, 0);
            scene_box b1 = scene_object_box(&x.sc, SCENE_STACK, st, 1, 0);
            assert_true(b1.min[2] > b0.max[2] && b0.min[2] >= x.sc.plate_h);
            /* beside the stage's block, on its GPU's plate */
            scene_box blk = scene_object_box(&x.sc, SCENE_BLOCK, st, 0, 0);
            scene_box pl = scene_object_box(&x.sc, SCENE_GPU, x.sc.stage_rank[st], 0, 0);
            assert_true(b0.min[0] > blk.max[0] && b0.max[0] < pl.max[0]);
        }
        scene_run_deinit(&x);
    }
}

/* p2p boxes flash during sends, all-reduce boxes during all-reduces; a
 * zero-cost send still shows for flash_min. */
static void test_flashes(void **state)
{
    (void)state;
    scene_run x;
    scene_run_init(&x, 2,
                   &(run_fixture_desc){
                       .schedule = "1f1b", .P = 4, .M = 8, .D = 2, .p2p = 0.5, .allreduce = 4});
    const timeline_cell *c = cell(&x, 0, 2);
    scene_state_at(&x.sc, c->f_end + 0.25, &x.st);
    object_state p = get(&x, SCENE_P2P, 0, 2);
    assert_role(p, SCENE_ROLE_P2P);
    assert_int_equal(p.label, SCENE_LABEL_PLAIN);
    assert_false(get(&x, SCENE_P2P, 1, 2).visible);
    /* The gradient coming back from stage 1. */
    const timeline_cell *n = cell(&x, 1, 2);
    scene_state_at(&x.sc, n->b_end + 0.25, &x.st);
    p = get(&x, SCENE_P2P, 0, 2);
    assert_role(p, SCENE_ROLE_P2P);
    assert_int_equal(p.label, SCENE_LABEL_GRAD);
    /* All-reduce of stage 2: layers 4 and 5 flash, layer 0 does not. */
    assert_int_equal(x.run.tl.allreduce_count, 4);
    for (int k = 0; k < 4; k++) {
        const transfer *ar = &x.run.tl.allreduces[k];
        scene_state_at(&x.sc, (ar->start + ar->end) / 2, &x.st);
        for (int l = 0; l < x.sc.layers; l++) {
            bool mine = l / 2 == ar->stage;
            object_state o = get(&x, SCENE_ALLREDUCE, l, 0);
            if (mine)
                assert_role(o, SCENE_ROLE_ALLREDUCE);
            else if (o.visible && !(x.sc.allreduce_start[l / 2] <= (ar->start + ar->end) / 2 &&
                                    (ar->start + ar->end) / 2 < x.sc.allreduce_end[l / 2]))
                fail_msg("layer %d flashes outside its stage's all-reduce", l);
        }
    }
    scene_run_deinit(&x);

    scene_run_init(&x, 1, &(run_fixture_desc){.schedule = "1f1b", .P = 2, .M = 2});
    c = cell(&x, 0, 0);
    assert_gt(x.sc.flash_min, 0);
    scene_state_at(&x.sc, c->f_end + x.sc.flash_min / 2, &x.st);
    assert_role(get(&x, SCENE_P2P, 0, 0), SCENE_ROLE_P2P);
    scene_state_at(&x.sc, c->f_end + x.sc.flash_min * 1.01, &x.st);
    assert_false(get(&x, SCENE_P2P, 0, 0).visible);
    scene_run_deinit(&x);
}

static size_t state_bytes(const scene_run *x, int kind)
{
    return (size_t)scene_kind_count(&x->sc, (scene_kind)kind) * sizeof(object_state);
}

/* state(t) keeps no memory: t values in random order give what they give in order. */
static void test_pure_in_any_order(void **state)
{
    (void)state;
    const char *schedules[] = {"1f1b", "interleaved-zb", "dualpipev", "gpipe"};
    for (int s = 0; s < 4; s++) {
        scene_run x;
        scene_run_init(
            &x, 2,
            &(run_fixture_desc){
                .schedule = schedules[s], .P = 4, .M = 8, .D = 3, .p2p = 0.3, .allreduce = 2});
        enum { N = 120 };
        double ts[N];
        unsigned char *snap[N][SCENE_KIND_COUNT + 1];
        srand(1234 + s);
        for (int i = 0; i < N; i++)
            ts[i] = x.run.tl.makespan * (rand() / (double)RAND_MAX) * 1.05 - 0.01;
        for (int i = 0; i < N; i++) {
            scene_state_at(&x.sc, ts[i], &x.st);
            for (int k = 0; k < SCENE_KIND_COUNT; k++) {
                snap[i][k] = malloc(state_bytes(&x, k) + 1);
                memcpy(snap[i][k], x.st.kind[k], state_bytes(&x, k));
            }
            snap[i][SCENE_KIND_COUNT] = malloc(sizeof(stage_focus) * x.sc.stages);
            memcpy(snap[i][SCENE_KIND_COUNT], x.st.focus, sizeof(stage_focus) * x.sc.stages);
        }
        int order[N];
        for (int i = 0; i < N; i++)
            order[i] = i;
        for (int i = N - 1; i > 0; i--) {
            int j = rand() % (i + 1), tmp = order[i];
            order[i] = order[j];
            order[j] = tmp;
        }
        for (int n = 0; n < N; n++) {
            int i = order[n];
            scene_state_at(&x.sc, ts[i], &x.st);
            for (int k = 0; k < SCENE_KIND_COUNT; k++)
                if (memcmp(snap[i][k], x.st.kind[k], state_bytes(&x, k)) != 0)
                    fail_msg("%s: kind %d differs at t=%g out of order", schedules[s], k, ts[i]);
            if (memcmp(snap[i][SCENE_KIND_COUNT], x.st.focus, sizeof(stage_focus) * x.sc.stages) !=
                0)
                fail_msg("%s: focus differs at t=%g out of order", schedules[s], ts[i]);
        }
        for (int i = 0; i < N; i++)
            for (int k = 0; k <= SCENE_KIND_COUNT; k++)
                free(snap[i][k]);
        scene_run_deinit(&x);
    }
}

/* The layout: faces sit on their boxes, stages in model order, gaps between
 * stages and replicas; interleaved virtual stages included. */
static void test_layout(void **state)
{
    (void)state;
    scene_run x;
    scene_run_init(
        &x, 3, &(run_fixture_desc){.schedule = "interleaved-1f1b", .P = 2, .M = 4, .V = 2, .D = 2});
    const scene *s = &x.sc;
    assert_int_equal(s->stages, 4);
    assert_int_equal(s->layers, 12);
    assert_int_equal(scene_layer_stage(s, 5), 1);
    assert_int_equal(s->stage_rank[2], 0); /* virtual stage 2 runs on rank 0 */
    /* Each stage's block stands on its rank's plate: stages 0 and 2 side
     * by side on rank 0's, 1 and 3 on rank 1's. */
    for (int d = 0; d < 2; d++)
        for (int st = 0; st < s->stages; st++) {
            const scene_box b = scene_object_box(s, SCENE_BLOCK, st, 0, d);
            const scene_box p = scene_object_box(s, SCENE_GPU, s->stage_rank[st], 0, d);
            for (int a = 0; a < 2; a++)
                assert_true(b.min[a] > p.min[a] && b.max[a] < p.max[a]);
            assert_true(b.min[2] == p.max[2]);
            if (st >= 2) { /* beside the rank's other stage, not over it */
                const scene_box o = scene_object_box(s, SCENE_BLOCK, st - 2, 0, d);
                assert_true(o.max[0] < b.min[0]);
            }
        }
    /* Plates never meet: ranks along x, replicas along y. */
    for (int r = 0; r < 2; r++)
        for (int d = 0; d < 2; d++) {
            const scene_box p = scene_object_box(s, SCENE_GPU, r, 0, d);
            const scene_box right = scene_object_box(s, SCENE_GPU, r + 1 < 2 ? r + 1 : r, 0, d);
            const scene_box back = scene_object_box(s, SCENE_GPU, r, 0, d + 1 < 2 ? d + 1 : d);
            assert_true(r + 1 >= 2 || right.min[0] > p.max[0]);
            assert_true(d + 1 >= 2 || back.min[1] > p.max[1]);
        }
    /* The matmul detail of a layer lies in its stage's block, with the
     * notebook's relations: h on the middle plane, the two matmuls mirror
     * each other about it, x at the second matmul's end, W1 at the back. */
    for (int l = 0; l < s->layers; l++) {
        const scene_box blk = scene_object_box(s, SCENE_BLOCK, scene_layer_stage(s, l), 0, 1);
        const float mid = 0.5f * (blk.min[2] + blk.max[2]);
        scene_box mm1 = scene_object_box(s, SCENE_MATMUL1, l, 1, 1);
        scene_box mm2 = scene_object_box(s, SCENE_MATMUL2, l, 1, 1);
        scene_box h = scene_object_box(s, SCENE_HIDDEN, l, 1, 1);
        scene_box xo = scene_object_box(s, SCENE_RESIDUAL, l, 1, 1);
        scene_box w1 = scene_object_box(s, SCENE_WEIGHT1, l, 0, 1);
        const scene_box *all[] = {&mm1, &mm2, &h, &xo, &w1};
        for (int k = 0; k < 5; k++)
            for (int a = 0; a < 3; a++)
                assert_true(all[k]->min[a] >= blk.min[a] - 1e-4f &&
                            all[k]->max[a] <= blk.max[a] + 1e-4f);
        /* the boxes stand a hair (under 2%) inside the faces on them */
        const float hair = 0.02f * s->detail_scale * s->d_model;
        assert_near(h.min[2], mid, 1e-4);
        assert_true(h.min[2] == h.max[2]);
        assert_true(fabsf(mm1.min[2] - mid) < hair || fabsf(mm1.max[2] - mid) < hair);
        assert_true(mm1.min[2] != mid && mm1.max[2] != mid);
        assert_near(mm1.min[2] - mid, -(mm2.max[2] - mid), 1e-4);
        assert_true(xo.min[0] == xo.max[0] && xo.min[0] > mm2.max[0] &&
                    xo.min[0] - mm2.max[0] < 0.02f * s->detail_scale * s->d_hidden);
        assert_true(xo.min[2] < mm2.min[2] && xo.max[2] > mm2.max[2]);
        assert_true(w1.min[1] == w1.max[1] && w1.min[1] > mm1.max[1]);
        assert_true(w1.min[2] < mm1.min[2] && w1.max[2] > mm1.max[2]);
    }
    /* The all-reduce wire runs from replica 0's plate to replica 1's. */
    scene_box ar = scene_object_box(s, SCENE_ALLREDUCE, 4, 0, 0);
    const scene_box p0 = scene_object_box(s, SCENE_GPU, s->stage_rank[2], 0, 0);
    const scene_box p1 = scene_object_box(s, SCENE_GPU, s->stage_rank[2], 0, 1);
    assert_true(ar.min[1] == p0.max[1] && ar.max[1] == p1.min[1]);
    /* Stage 1 (rank 1) sends to stage 2 (rank 0): the wire between their plates. */
    scene_box p2p = scene_object_box(s, SCENE_P2P, 1, 2, 0);
    assert_true(p2p.min[0] == scene_object_box(s, SCENE_GPU, 0, 0, 0).max[0] &&
                p2p.max[0] == scene_object_box(s, SCENE_GPU, 1, 0, 0).min[0]);
    /* Micro-batch slices do not overlap and stay inside the block. */
    float y0, y1;
    scene_replica_y(s, 0, &y0, &y1);
    for (int m = 0; m + 1 < s->microbatches; m++) {
        scene_box a = scene_object_box(s, SCENE_HIDDEN, 0, m, 0);
        scene_box b = scene_object_box(s, SCENE_HIDDEN, 0, m + 1, 0);
        assert_true(a.max[1] < b.min[1] && a.min[1] > y0 - 1e-6f && b.max[1] < y1);
    }
    assert_true(s->bounds.max[0] == scene_object_box(s, SCENE_GPU, 1, 0, 1).max[0]);
    assert_int_equal(scene_kind_count(s, SCENE_P2P), 3 * 4);
    assert_int_equal(scene_kind_count(s, SCENE_GPU), 2);
    assert_int_equal(scene_kind_count(s, SCENE_BLOCK), 4);
    assert_int_equal(scene_kind_copies(s, SCENE_ALLREDUCE), 1);
    scene_run_deinit(&x);
}

static void test_labels_and_captions(void **state)
{
    (void)state;
    scene_run x;
    scene_run_init(&x, 2, &(run_fixture_desc){.schedule = "1f1b", .P = 4, .M = 8});
    const struct {
        scene_kind kind;
        int index;
        scene_label_variant variant;
        const char *want;
    } labels[] = {
        {SCENE_WEIGHT1, 0, SCENE_LABEL_PLAIN, "W₁⁰"},   {SCENE_HIDDEN, 2, SCENE_LABEL_GRAD, "∇h²"},
        {SCENE_RESIDUAL, 2, SCENE_LABEL_PLAIN, "x³"},   {SCENE_INPUT, 3, SCENE_LABEL_PLAIN, "x⁶"},
        {SCENE_WEIGHT2, 12, SCENE_LABEL_PLAIN, "W₂¹²"}, {SCENE_MATMUL1, 0, SCENE_LABEL_PLAIN, ""},
    };
    char buf[64];
    for (size_t k = 0; k < sizeof labels / sizeof labels[0]; k++) {
        scene_object_label(&x.sc, labels[k].kind, labels[k].index, labels[k].variant, buf,
                           sizeof buf);
        assert_string_equal(buf, labels[k].want);
    }
    char tiny[4];
    scene_object_label(&x.sc, SCENE_WEIGHT2, 12, SCENE_LABEL_GRAD, tiny, sizeof tiny);
    assert_lt(strlen(tiny), sizeof tiny);

    char cap[256];
    scene_caption(&x.sc, 0.5, 1, cap, sizeof cap);
    assert_string_equal(cap, "rank 1: idle, waiting for micro-batch 0's activation from rank 0");
    const timeline_cell *c = cell(&x, 3, 0);
    scene_caption(&x.sc, (c->b_start + c->b_end) / 2, 3, cap, sizeof cap);
    assert_string_equal(cap, "rank 3: backward of micro-batch 0 on stage 3, then p2p to rank 2");
    scene_caption(&x.sc, x.run.tl.makespan, 0, cap, sizeof cap);
    assert_string_equal(cap, "rank 0: done with its work for this iteration");
    assert_int_equal(scene_caption_rank(&x.sc, 0.5), 0);
    assert_int_equal(scene_caption_rank(&x.sc, 4.5), 3);
    scene_run_deinit(&x);
}

/* Level of detail (scene.h): a scene drawing M micro-batches in fewer
 * slots shows in each slot its most opaque member, then the one flashing
 * most, then the first; stack block j shows while more than j x slot_size
 * are live; per-layer objects do not change. Checked against the exact
 * scene at 150 instants of schedules that overlap sends, splits W and
 * interleaves stages, with slots of 3 and of 5 (the last slot then holds 4). */
static bool wins(object_state member, object_state best)
{
    return member.visible && (!best.visible || member.opacity > best.opacity ||
                              (member.opacity == best.opacity && member.flash > best.flash));
}

static void check_slots(const run_fixture_desc *d, int max_slots)
{
    scene_run exact, merged;
    scene_run_init(&exact, 2, d);
    merged = (scene_run){0};
    run_fixture_init(&merged.run, d);
    scene_desc sd = scene_desc_defaults();
    sd.layers_per_stage = 2;
    sd.max_slots = max_slots;
    scene_init(&merged.sc, &sd, &merged.run.tl);
    scene_state_init(&merged.st, &merged.sc);
    const scene *e = &exact.sc, *g = &merged.sc;
    assert_int_equal(e->slots, d->M);
    assert_true(g->slots <= max_slots && g->slot_size > 1);
    for (int i = 0; i <= 150; i++) {
        const double t = e->timeline->makespan * i / 150.0;
        scene_state_at(e, t, &exact.st);
        scene_state_at(g, t, &merged.st);
        for (int k = 0; k < SCENE_KIND_COUNT; k++) {
            const scene_kind kind = (scene_kind)k;
            const int per = scene_kind_slots(g, kind);
            const int64_t count = scene_kind_count(g, kind);
            for (int64_t o = 0; o < count; o++) {
                const int index = (int)(o / per), slot = (int)(o % per);
                object_state want = {0};
                if (per == 1) {
                    want = get(&exact, kind, index, 0);
                } else if (kind == SCENE_STACK) {
                    int live = 0;
                    for (int m = 0; m < d->M; m++)
                        live += get(&exact, kind, index, m).visible;
                    want = get(&exact, kind, index, 0); /* the look of a shown block */
                    want.visible = live > slot * g->slot_size;
                    if (!want.visible)
                        want = (object_state){0};
                } else {
                    int first, end;
                    scene_slot_members(g, slot, &first, &end);
                    for (int m = first; m < end; m++)
                        if (wins(get(&exact, kind, index, m), want))
                            want = get(&exact, kind, index, m);
                }
                const object_state have = get(&merged, kind, index, slot);
                if (kind == SCENE_STACK && want.visible) {
                    /* its level on its GPU's tower: the merged tiles of the
                     * GPU's earlier stages, then its slot */
                    int level = slot;
                    for (int q = 0; q < index; q++)
                        if (g->stage_rank[q] == g->stage_rank[index])
                            for (int j = 0; j < per; j++)
                                level += get(&merged, kind, q, j).visible;
                    want.travel = (float)level;
                }
                if (memcmp(&have, &want, sizeof have) != 0)
                    fail_msg("%s max_slots %d t=%g kind %d index %d slot %d: visible %d role %d "
                             "opacity %g flash %g, expected visible %d role %d opacity %g flash %g",
                             d->schedule, max_slots, t, k, index, slot, have.visible, have.role,
                             (double)have.opacity, (double)have.flash, want.visible, want.role,
                             (double)want.opacity, (double)want.flash);
            }
        }
    }
    scene_run_deinit(&merged);
    scene_run_deinit(&exact);
}

static void test_slots_merge_members(void **state)
{
    (void)state;
    const run_fixture_desc runs[] = {
        {.schedule = "gpipe", .P = 4, .M = 24, .D = 2, .p2p = 0.3, .allreduce = 2},
        {.schedule = "1f1b", .P = 4, .M = 24, .D = 3, .p2p = 0.5},
        {.schedule = "zb-h1", .P = 4, .M = 24},
        {.schedule = "interleaved-1f1b", .P = 2, .M = 24, .V = 2, .p2p = 0.2},
    };
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        check_slots(&runs[r], 8);
        check_slots(&runs[r], 5); /* slots of 5: 4 x 5 + 4 */
    }
}

/* The eight built-in schedules, with the stages per rank each needs. */
static const struct {
    const char *name;
    int V;
} BUILT_IN[] = {{"gpipe", 0},      {"1f1b", 0},     {"interleaved-1f1b", 2},
                {"looped-bfs", 2}, {"zb-h1", 0},    {"interleaved-zb", 2},
                {"zbv", 0},        {"dualpipev", 0}};

/* The tiles drawn on each GPU count its live activations: for every
 * built-in schedule at instants across the iteration, the tiles shown on a
 * rank's stages (slot_size micro-batches each) equal the timeline's live
 * count for the rank, the number its memory lane draws. */
static void test_tiles_count_live_activations(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof BUILT_IN / sizeof BUILT_IN[0]; k++) {
        scene_run x;
        scene_run_init(
            &x, 2,
            &(run_fixture_desc){
                .schedule = BUILT_IN[k].name, .P = 4, .M = 8, .V = BUILT_IN[k].V, .D = 2});
        timeline_memory mem;
        timeline_memory_init(&mem, &x.run.tl);
        const int J = x.sc.slots;
        for (int i = 0; i <= 97; i++) {
            const double t = x.run.tl.makespan * i / 97.0;
            scene_state_at(&x.sc, t, &x.st);
            for (int r = 0; r < x.sc.ranks; r++) {
                int tiles = 0;
                for (int st = 0; st < x.sc.stages; st++)
                    if (x.sc.stage_rank[st] == r)
                        for (int j = 0; j < J; j++)
                            tiles += x.st.kind[SCENE_STACK][(size_t)st * J + j].visible;
                const int live = timeline_memory_live_at(&mem.rank[r], t);
                if (tiles * x.sc.slot_size != live)
                    fail_msg("%s, t = %g, rank %d: %d tiles drawn, %d activations live",
                             BUILT_IN[k].name, t, r, tiles, live);
            }
        }
        timeline_memory_deinit(&mem);
        scene_run_deinit(&x);
    }
}

/* A send is on screen for at least flash_min: at the default export (the
 * iteration in SESSION_PLAY_SECONDS = 20 s at 30 frames a second, 600
 * frames), every send of the default scenario, free ones included, shows
 * its tensor in at least 15 frames. */
static void test_sends_stay_on_screen(void **state)
{
    (void)state;
    const int frames = 20 * 30, min_frames = 15;
    static const double p2p[] = {0, 0.25};
    for (int q = 0; q < 2; q++) {
        scene_run x;
        scene_run_init(
            &x, 2, &(run_fixture_desc){.schedule = "1f1b", .P = 4, .M = 8, .D = 2, .p2p = p2p[q]});
        const int J = x.sc.slots, n = (int)scene_kind_count(&x.sc, SCENE_SLAB);
        int *seen = calloc((size_t)n * 2, sizeof *seen); /* [slab][direction] */
        for (int f = 0; f <= frames; f++) {
            scene_state_at(&x.sc, x.run.tl.makespan * f / frames, &x.st);
            for (int i = 0; i < n; i++) {
                const object_state *o = &x.st.kind[SCENE_SLAB][i];
                if (o->visible)
                    seen[i * 2 + (o->label == SCENE_LABEL_GRAD)]++;
            }
        }
        int worst = frames;
        for (int i = 0; i < n; i++)
            for (int d = 0; d < 2; d++) {
                const int stage = i / J;
                if (x.sc.stage_rank[stage] == x.sc.stage_rank[stage + 1])
                    continue;
                worst = seen[i * 2 + d] < worst ? seen[i * 2 + d] : worst;
            }
        print_message("p2p %g: the shortest send is on screen for %d of %d frames\n", p2p[q], worst,
                      frames);
        assert_true(worst >= min_frames);
        free(seen);
        scene_run_deinit(&x);
    }
}

/* What is solid is what is in flight: over every p2p transfer the
 * timeline yields (the JSON's "transfers"), for the eight built-in
 * schedules at D=2, at 97 instants and at each transfer's start, middle,
 * end and just after: a tensor is drawn solid and flagged in flight (flash
 * > 0, which the labels follow) exactly while a transfer of its stage,
 * micro-batch and direction has start <= t < end; once flash_min / 10 past
 * the end, one still shown is faint (SCENE_ARRIVED_OPACITY). */
static void check_in_flight_at(scene_run *x, double t, const char *name)
{
    const int J = x->sc.slots, n = (int)scene_kind_count(&x->sc, SCENE_SLAB);
    scene_state_at(&x->sc, t, &x->st);
    int *want = calloc((size_t)n * 2, sizeof *want); /* [slab][direction]: in flight */
    p2p_cursor cur = {0};
    transfer tr;
    while (timeline_next_p2p(&x->run.tl, &cur, &tr)) {
        const bool back = tr.kind == TRANSFER_P2P_B;
        /* a slab sits between stage and stage + 1; a gradient leaves stage + 1 */
        const int i = (tr.stage - (back ? 1 : 0)) * J + scene_slot_of(&x->sc, tr.microbatch);
        assert_in_range(i, 0, n - 1);
        if (tr.start <= t && t < tr.end)
            want[i * 2 + back] = 1;
        const object_state *o = &x->st.kind[SCENE_SLAB][i];
        const bool mine = o->visible && (o->label == SCENE_LABEL_GRAD) == back;
        if (mine && t >= tr.end + x->sc.flash_min / 10 && !(o->flash > 0) &&
            fabsf(o->opacity - SCENE_ARRIVED_OPACITY) > 1e-4f)
            fail_msg("%s, t = %g: mb %d's tensor from stage %d arrived at %g, opacity %g", name, t,
                     tr.microbatch, tr.stage, tr.end, o->opacity);
    }
    for (int i = 0; i < n; i++) {
        const object_state *o = &x->st.kind[SCENE_SLAB][i];
        const bool flying = o->visible && o->flash > 0;
        const int dir = o->label == SCENE_LABEL_GRAD;
        const bool wanted = want[i * 2] || want[i * 2 + 1];
        if (flying != wanted || (flying && !want[i * 2 + dir]))
            fail_msg("%s, t = %g: slab %d (stage %d) drawn %s, the timeline has it %s", name, t, i,
                     i / J, flying ? "in flight" : "not in flight",
                     wanted ? "in flight" : "not in flight");
        if (flying && o->opacity != 1)
            fail_msg("%s, t = %g: slab %d in flight at opacity %g", name, t, i, o->opacity);
    }
    free(want);
}

static void test_solid_tensors_are_in_flight(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof BUILT_IN / sizeof BUILT_IN[0]; k++) {
        scene_run x;
        scene_run_init(&x, 2,
                       &(run_fixture_desc){.schedule = BUILT_IN[k].name,
                                           .P = 4,
                                           .M = 8,
                                           .V = BUILT_IN[k].V,
                                           .D = 2,
                                           .p2p = 0.25});
        assert_int_equal(x.sc.slot_size, 1);
        int transfers = 0;
        for (int i = 0; i <= 97; i++)
            check_in_flight_at(&x, x.run.tl.makespan * i / 97.0, BUILT_IN[k].name);
        p2p_cursor cur = {0};
        transfer tr;
        while (timeline_next_p2p(&x.run.tl, &cur, &tr)) {
            const double at[] = {tr.start, 0.5 * (tr.start + tr.end), tr.end,
                                 tr.end + x.sc.flash_min / 10};
            for (size_t a = 0; a < sizeof at / sizeof at[0]; a++)
                check_in_flight_at(&x, at[a], BUILT_IN[k].name);
            transfers++;
        }
        assert_true(transfers > 0);
        scene_run_deinit(&x);
    }
}

/* The faces of a box (a face, zero thick along one axis, is one face seen
 * from both sides): plane axis, position, and which way it faces. */
typedef struct face_of {
    int axis;
    float at;
    int facing; /* +1, -1, or 0 for a flat face (both) */
    float lo[2], hi[2];
} face_of;

static int faces_of(const scene_box *b, face_of out[6])
{
    int n = 0;
    for (int a = 0; a < 3; a++) {
        const int u = (a + 1) % 3, v = (a + 2) % 3;
        const face_of base = {a, 0, 0, {b->min[u], b->min[v]}, {b->max[u], b->max[v]}};
        if (b->min[a] == b->max[a]) {
            out[n] = base, out[n].at = b->min[a], n++;
            continue;
        }
        out[n] = base, out[n].at = b->min[a], out[n].facing = -1, n++;
        out[n] = base, out[n].at = b->max[a], out[n].facing = +1, n++;
    }
    return n;
}

/* Two faces fight for depth where they lie in one plane, overlap with some
 * area, and can be seen from the same side. */
static bool fight(const face_of *p, const face_of *q)
{
    if (p->axis != q->axis || fabsf(p->at - q->at) > 1e-5f * fmaxf(1, fabsf(p->at)))
        return false;
    if (p->facing && q->facing && p->facing != q->facing)
        return false; /* back to back: culled, one of them is never drawn */
    for (int k = 0; k < 2; k++)
        if (fminf(p->hi[k], q->hi[k]) - fmaxf(p->lo[k], q->lo[k]) <= 1e-4f)
            return false;
    return true;
}

/* Nothing the renderer draws with depth at the GPU and detail levels lies
 * in the plane of another drawn thing facing the same way (scene.h,
 * "Depth"): at the default scenario's all-reduce (t = 37), where the old
 * picture stippled, and at other instants of schedules with wraps and
 * long hops. The floor's shadows and wires are drawn in order without
 * depth writes, after what stands on them (scene_renderer.c), and are not
 * scene objects. */
static void test_no_coplanar_faces(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        int D;
        double allreduce, t_fraction;
    } cases[] = {{"1f1b", 2, 3, 37.0 / 40.0},
                 {"1f1b", 3, 3, 0.95},
                 {"interleaved-1f1b", 2, 3, 0.4},
                 {"zbv", 2, 3, 0.5},
                 {"1f1b", 2, 3, 0.3}};
    enum { MAX_BOXES = 20000 };
    scene_box *boxes = malloc(MAX_BOXES * sizeof *boxes);
    int *kinds = malloc(MAX_BOXES * sizeof *kinds);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        scene_run x;
        scene_run_init(&x, 2,
                       &(run_fixture_desc){.schedule = cases[c].name,
                                           .P = 4,
                                           .M = 8,
                                           .D = cases[c].D,
                                           .allreduce = cases[c].allreduce,
                                           .p2p = 0.25});
        scene_state_at(&x.sc, x.run.tl.makespan * cases[c].t_fraction, &x.st);
        for (int level = SCENE_LEVEL_GPU; level <= SCENE_LEVEL_DETAIL; level++) {
            int n = 0;
            for (int k = 0; k < SCENE_KIND_COUNT; k++) {
                if (!scene_level_draws((scene_level)level, (scene_kind)k))
                    continue;
                const int per = scene_kind_slots(&x.sc, (scene_kind)k);
                for (int64_t i = 0; i < scene_kind_count(&x.sc, (scene_kind)k); i++) {
                    const object_state *o = &x.st.kind[k][i];
                    if (!o->visible || !(o->opacity > 0))
                        continue;
                    for (int rep = 0; rep < scene_kind_copies(&x.sc, (scene_kind)k); rep++) {
                        scene_box b;
                        if (!scene_object_place(&x.sc, (scene_kind)k, (int)(i / per),
                                                (int)(i % per), rep, o, &b))
                            continue;
                        if (k == SCENE_BLOCK && level == SCENE_LEVEL_DETAIL)
                            continue; /* drawn as a low base inset in its footprint */
                        assert_true(n < MAX_BOXES);
                        boxes[n] = b, kinds[n] = k, n++;
                    }
                }
            }
            for (int i = 0; i < n; i++)
                for (int j = i + 1; j < n; j++) {
                    face_of a[6], b[6];
                    const int na = faces_of(&boxes[i], a), nb = faces_of(&boxes[j], b);
                    for (int p = 0; p < na; p++)
                        for (int q = 0; q < nb; q++)
                            if (fight(&a[p], &b[q]))
                                fail_msg("%s D=%d t=%g level %d: kind %d and kind %d share the "
                                         "plane axis %d = %g facing %d/%d",
                                         cases[c].name, cases[c].D, x.st.t, level, kinds[i],
                                         kinds[j], a[p].axis, a[p].at, a[p].facing, b[q].facing);
                }
        }
        scene_run_deinit(&x);
    }
    free(boxes);
    free(kinds);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forward_instant),
        cmocka_unit_test(test_backward_instant),
        cmocka_unit_test(test_memory_story),
        cmocka_unit_test(test_weight_gradients_accumulate),
        cmocka_unit_test(test_flashes),
        cmocka_unit_test(test_pure_in_any_order),
        cmocka_unit_test(test_slab_crosses_the_gap),
        cmocka_unit_test(test_zero_time_flash),
        cmocka_unit_test(test_allreduce_ring_chunks),
        cmocka_unit_test(test_allreduce_tree_moves),
        cmocka_unit_test(test_memory_stack),
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_labels_and_captions),
        cmocka_unit_test(test_slots_merge_members),
        cmocka_unit_test(test_tiles_count_live_activations),
        cmocka_unit_test(test_sends_stay_on_screen),
        cmocka_unit_test(test_solid_tensors_are_in_flight),
        cmocka_unit_test(test_no_coplanar_faces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
