/* Tests of the questions asked of a simulated timeline (timeline_query.h),
 * without GL: hand-worked GPipe and 1F1B timelines (F=1, B=2) with and
 * without p2p time and all-reduces, hand-built programs for the edges (an
 * empty rank, a rank of idle steps, markers, zero-length actions, an
 * overlapped pair), and brute-force checks over every schedule.
 *
 * The hand-worked timelines, ranks down, [start, end]. The generators keep
 * PyTorch's empty cells as idle steps (_, shown in the first only), which sit
 * at the time they are reached: in GPipe P=2 M=2 rank 0's B0 is its action 5
 * and rank 1's F0 its action 1.
 *   GPipe P=2 M=2, p2p 0:     rank 0  F0[0,1] F1[1,2] _ _ _ B0[5,7] B1[7,9]
 *                             rank 1  _ F0[1,2] F1[2,3] B0[3,5] B1[5,7]
 *   GPipe P=2 M=2, p2p 0.5:   rank 0  F0[0,1] F1[1,2] B0[6,8] B1[8,10]
 *                             rank 1  F0[1.5,2.5] F1[2.5,3.5] B0[3.5,5.5] B1[5.5,7.5]
 *   1F1B P=2 M=3, p2p 0:      rank 0  F0[0,1] F1[1,2] B0[4,6] F2[6,7] B1[7,9] B2[10,12]
 *                             rank 1  F0[1,2] B0[2,4] F1[4,5] B1[5,7] F2[7,8] B2[8,10]
 * With D=2 and an all-reduce of 1.5, GPipe P=2 M=2 (p2p 0) adds stage 1's
 * all-reduce on rank 1 [7, 8.5] and stage 0's on rank 0 [9, 10.5]. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "support/check.h"
#include "support/run_fixture.h"
#include "timeline_query.h"

/* Simulates a hand-built program (already pushed into x->p) with the
 * default costs (F=1, B=2, I=W=1, F&B=3) and no p2p time. */
static void simulate_custom(run_fixture *x)
{
    ppf_error err = {{0}};
    if (!program_validate(&x->p, &err))
        fail_msg("validate: %s", err.message);
    timeline_costs_init(&x->c, x->p.ranks);
    run_fixture_simulate(x);
}

/* The index of (kind, stage, micro-batch) in a rank's program, or fails. */
static int find_action(const program *p, int rank, action_kind kind, int stage, int mb)
{
    for (int k = 0; k < p->rank[rank].count; k++) {
        const action *a = &p->rank[rank].actions[k];
        if (a->kind == kind && a->stage == stage && a->microbatch == mb)
            return k;
    }
    fail_msg("rank %d has no %s of stage %d micro-batch %d", rank, action_kind_name(kind), stage,
             mb);
    return -1;
}

/* The next (previous) event from t, failing when there is none. */
static double next_event(const timeline *tl, double t)
{
    double e = 0;
    if (!timeline_next_event(tl, t, &e))
        fail_msg("no event after %g", t);
    return e;
}

static double prev_event(const timeline *tl, double t)
{
    double e = 0;
    if (!timeline_prev_event(tl, t, &e))
        fail_msg("no event before %g", t);
    return e;
}

/* Fails unless the curve is exactly the n steps in want (times to the bit). */
static void expect_steps(const timeline_memory_curve *c, const timeline_memory_step *want, int n)
{
    assert_int_equal(c->count, n);
    for (int k = 0; k < n; k++) {
        assert_same_double(c->steps[k].time, want[k].time);
        assert_int_equal(c->steps[k].count, want[k].count);
    }
}

/* ---- the rules ----------------------------------------------------------- */

static void test_rules(void **state)
{
    (void)state;
    const double p2p[] = {0.5, 0.25};
    assert_same_double(timeline_arrival(p2p, 0, 1, 2.0), 2.5);
    assert_same_double(timeline_arrival(p2p, 1, 0, 2.0), 2.25); /* the producing rank's cost */
    assert_same_double(timeline_arrival(p2p, 1, 1, 2.0), 2.0);  /* a hop inside a rank is free */

    const struct {
        action_kind kind;
        bool allocates, frees;
    } live[] = {
        {ACTION_IDLE, false, false},   {ACTION_F, true, false},
        {ACTION_B, false, true},       {ACTION_I, false, false},
        {ACTION_W, false, true},       {ACTION_OVERLAP_F_B, true, true},
        {ACTION_SEND_F, false, false}, {ACTION_RECV_B, false, false},
    };
    for (size_t k = 0; k < sizeof live / sizeof live[0]; k++) {
        if (timeline_kind_allocates(live[k].kind) != live[k].allocates ||
            timeline_kind_frees(live[k].kind) != live[k].frees)
            fail_msg("%s: allocates %d frees %d, expected %d %d", action_kind_name(live[k].kind),
                     timeline_kind_allocates(live[k].kind), timeline_kind_frees(live[k].kind),
                     live[k].allocates, live[k].frees);
    }

    program p;
    program_init(&p, 4, 4, 1, PROGRAM_LAYOUT_LOOP);
    assert_int_equal(timeline_output_stage(&p, ACTION_F, 0), 1);
    assert_int_equal(timeline_output_stage(&p, ACTION_F, 3), -1);
    assert_int_equal(timeline_output_stage(&p, ACTION_B, 0), -1);
    assert_int_equal(timeline_output_stage(&p, ACTION_B, 3), 2);
    assert_int_equal(timeline_output_stage(&p, ACTION_I, 2), 1);
    assert_int_equal(timeline_output_stage(&p, ACTION_W, 2), -1);
    assert_int_equal(timeline_output_stage(&p, ACTION_SEND_F, 1), -1);
    assert_int_equal(timeline_input_stage(&p, ACTION_F, 0), -1);
    assert_int_equal(timeline_input_stage(&p, ACTION_F, 2), 1);
    assert_int_equal(timeline_input_stage(&p, ACTION_B, 3), -1);
    assert_int_equal(timeline_input_stage(&p, ACTION_B, 1), 2);
    assert_int_equal(timeline_input_stage(&p, ACTION_I, 0), 1);
    assert_int_equal(timeline_input_stage(&p, ACTION_W, 1), -1);
    assert_int_equal(timeline_input_stage(&p, ACTION_IDLE, 1), -1);
    program_deinit(&p);
}

/* ---- searches and the action at t ---------------------------------------- */

/* Checks timeline_action_at on one rank at each {t, expected index}. */
static void check_action_at(const timeline *tl, int rank, const double (*at)[2], size_t n)
{
    for (size_t k = 0; k < n; k++) {
        const int got = timeline_action_at(tl, rank, at[k][0]);
        if (got != (int)at[k][1])
            fail_msg("rank %d at %g: action %d, expected %d", rank, at[k][0], got, (int)at[k][1]);
    }
}

static void test_searches_gpipe(void **state)
{
    (void)state;
    run_fixture x;
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "gpipe", .P = 2, .M = 2});
    const timeline *tl = &x.tl;
    /* rank 0: F0[0,1] F1[1,2] _[2,2] _[2,2] _[2,2] B0[5,7] B1[7,9] */
    assert_int_equal(x.p.rank[0].count, 7);
    assert_int_equal(timeline_first_start_after(tl, 0, 0, 7, -5), 0);
    assert_int_equal(timeline_first_start_after(tl, 0, 0, 7, 0), 1);
    assert_int_equal(timeline_first_start_after(tl, 0, 0, 7, 1), 2);
    assert_int_equal(timeline_first_start_after(tl, 0, 0, 7, 2), 5);
    assert_int_equal(timeline_first_start_after(tl, 0, 0, 7, 9), 7);
    assert_int_equal(timeline_first_start_at_or_after(tl, 0, 0, 7, 1), 1);
    assert_int_equal(timeline_first_start_at_or_after(tl, 0, 0, 7, 1.5), 2);
    assert_int_equal(timeline_first_start_at_or_after(tl, 0, 0, 7, 2), 2);
    assert_int_equal(timeline_first_start_at_or_after(tl, 0, 0, 7, 100), 7);
    assert_int_equal(timeline_first_end_after(tl, 0, 0, 7, -1), 0);
    assert_int_equal(timeline_first_end_after(tl, 0, 0, 7, 1), 1);
    assert_int_equal(timeline_first_end_after(tl, 0, 0, 7, 2), 5);
    assert_int_equal(timeline_first_end_after(tl, 0, 0, 7, 9), 7);
    /* within [lo, hi) only */
    assert_int_equal(timeline_first_end_after(tl, 0, 5, 6, 0), 5);
    assert_int_equal(timeline_first_end_after(tl, 0, 0, 2, 5), 2);
    assert_int_equal(timeline_first_start_after(tl, 0, 3, 3, 0), 3);

    /* the action at t: starts are in, ends are out, idle steps never run */
    const double at0[][2] = {{-1, -1},   {0, 0}, {0.5, 0},  {1, 1},  {2, -1},
                             {4.99, -1}, {5, 5}, {8.99, 6}, {9, -1}, {100, -1}};
    check_action_at(tl, 0, at0, sizeof at0 / sizeof at0[0]);
    const double at1[][2] = {{0, -1}, {0.5, -1}, {1, 1}, {3, 3}};
    check_action_at(tl, 1, at1, sizeof at1 / sizeof at1[0]);

    /* the last compute that ended by t */
    assert_int_equal(timeline_last_compute_ended(tl, 0, -1), -1);
    assert_int_equal(timeline_last_compute_ended(tl, 0, 0.5), -1);
    assert_int_equal(timeline_last_compute_ended(tl, 0, 1), 0);
    assert_int_equal(timeline_last_compute_ended(tl, 0, 3), 1);
    assert_int_equal(timeline_last_compute_ended(tl, 0, 100), 6);
    assert_int_equal(timeline_last_compute_ended(tl, 1, 0.5), -1);

    /* stepping over idle steps */
    assert_int_equal(timeline_next_compute(tl, 0, 0), 0);
    assert_int_equal(timeline_next_compute(tl, 0, 2), 5);
    assert_int_equal(timeline_next_compute(tl, 0, 7), 7);
    assert_int_equal(timeline_next_compute(tl, 1, 0), 1);
    assert_int_equal(timeline_prev_compute(tl, 0, 4), 1);
    assert_int_equal(timeline_prev_compute(tl, 0, 6), 6);
    assert_int_equal(timeline_prev_compute(tl, 1, 0), -1);
    assert_int_equal(timeline_prev_compute(tl, 0, -1), -1);
    run_fixture_deinit(&x);
}

/* A hand-built program for the edges: 3 ranks, 2 stages, 1 micro-batch.
 *   rank 0  F(0,0)[0,1]  SEND_F[1,1]  RECV_B[1,1]  B(0,0)[4,6]
 *   rank 1  F(1,0)[1,2]  B(1,0)[2,4]
 *   rank 2  idle, idle (no stage: an idle rank), both at 0 */
static void make_edges(run_fixture *x)
{
    *x = (run_fixture){0};
    program_init(&x->p, 3, 2, 1, PROGRAM_LAYOUT_CUSTOM);
    program_push(&x->p, 0, action_make(ACTION_F, 0, 0));
    program_push(&x->p, 0, action_make(ACTION_SEND_F, 0, 0));
    program_push(&x->p, 0, action_make(ACTION_RECV_B, 0, 0));
    program_push(&x->p, 0, action_make(ACTION_B, 0, 0));
    program_push(&x->p, 1, action_make(ACTION_F, 1, 0));
    program_push(&x->p, 1, action_make(ACTION_B, 1, 0));
    program_push(&x->p, 2, action_idle());
    program_push(&x->p, 2, action_idle());
    simulate_custom(x);
}

static void test_edges_markers_and_idle_ranks(void **state)
{
    (void)state;
    run_fixture x;
    make_edges(&x);
    const timeline *tl = &x.tl;
    assert_same_double(tl->time[0][3].start, 4);
    assert_same_double(tl->time[0][1].start, 1);
    /* markers share the F's end, and never run */
    assert_int_equal(timeline_action_at(tl, 0, 1), -1);
    assert_int_equal(timeline_action_at(tl, 0, 0.5), 0);
    assert_int_equal(timeline_action_at(tl, 0, 4), 3);
    assert_int_equal(timeline_first_start_after(tl, 0, 0, 4, 1), 3);
    assert_int_equal(timeline_first_start_at_or_after(tl, 0, 0, 4, 1), 1);
    assert_int_equal(timeline_next_compute(tl, 0, 1), 3);
    assert_int_equal(timeline_prev_compute(tl, 0, 2), 0);
    /* the idle rank: nothing runs, nothing to wait for, no memory */
    for (double t = -1; t <= 7; t += 0.5)
        assert_int_equal(timeline_action_at(tl, 2, t), -1);
    assert_int_equal(timeline_first_start_after(tl, 2, 0, 2, 0), 2);
    assert_int_equal(timeline_first_start_at_or_after(tl, 2, 0, 2, 0), 0);
    assert_int_equal(timeline_first_end_after(tl, 2, 0, 2, -1), 0);
    assert_int_equal(timeline_first_end_after(tl, 2, 0, 2, 0), 2);
    assert_int_equal(timeline_next_compute(tl, 2, 0), 2);
    assert_int_equal(timeline_prev_compute(tl, 2, 1), -1);
    assert_int_equal(timeline_last_compute_ended(tl, 2, 10), -1);
    timeline_wait w = timeline_idle_wait(tl, 2, 0);
    assert_int_equal(w.kind, TIMELINE_WAIT_DONE);
    assert_int_equal(w.index, -1);
    /* events: 0, 1, 2, 4, 6 (markers are no events) */
    double t;
    assert_same_double(next_event(tl, 1), 2);
    assert_same_double(next_event(tl, 2), 4);
    assert_same_double(prev_event(tl, 4), 2);
    assert_false(timeline_next_event(tl, 6, &t));
    /* memory: rank 0 holds (0,0) over [0, 6), rank 1 (1,0) over [1, 4), rank 2 nothing */
    timeline_memory m;
    timeline_memory_init(&m, tl);
    assert_int_equal(m.ranks, 3);
    assert_int_equal(m.peak, 1);
    assert_int_equal(m.rank[2].count, 1);
    assert_int_equal(m.rank[2].peak, 0);
    assert_int_equal(timeline_memory_live_at(&m.rank[2], 3), 0);
    assert_int_equal(timeline_memory_live_at(&m.rank[0], 5.9), 1);
    assert_int_equal(timeline_memory_live_at(&m.rank[0], 6), 0);
    assert_int_equal(timeline_memory_live_at(&m.rank[1], 1), 1);
    assert_int_equal(timeline_memory_live_at(&m.rank[1], 4), 0);
    timeline_memory_deinit(&m);
    timeline_memory_deinit(&m); /* twice is fine */
    run_fixture_deinit(&x);

    /* an empty rank: no actions at all */
    x = (run_fixture){0};
    program_init(&x.p, 2, 1, 1, PROGRAM_LAYOUT_CUSTOM);
    program_push(&x.p, 0, action_make(ACTION_F, 0, 0));
    program_push(&x.p, 0, action_make(ACTION_B, 0, 0));
    simulate_custom(&x);
    assert_int_equal(x.p.rank[1].count, 0);
    assert_int_equal(timeline_action_at(&x.tl, 1, 0.5), -1);
    assert_int_equal(timeline_first_start_after(&x.tl, 1, 0, 0, 0.5), 0);
    assert_int_equal(timeline_first_end_after(&x.tl, 1, 0, 0, 0.5), 0);
    assert_int_equal(timeline_next_compute(&x.tl, 1, 0), 0);
    assert_int_equal(timeline_prev_compute(&x.tl, 1, -1), -1);
    assert_int_equal(timeline_last_compute_ended(&x.tl, 1, 5), -1);
    assert_int_equal(timeline_idle_wait(&x.tl, 1, 0).kind, TIMELINE_WAIT_DONE);
    timeline_memory_init(&m, &x.tl);
    assert_int_equal(m.rank[1].count, 1);
    assert_int_equal(timeline_memory_live_at(&m.rank[1], 1), 0);
    assert_int_equal(timeline_memory_live_at(&m.rank[0], 1), 1);
    timeline_memory_deinit(&m);
    assert_same_double(next_event(&x.tl, 0), 1);
    run_fixture_deinit(&x);
}

/* Zero-length actions never run, and one that starts with the action that
 * runs does not hide it: one rank, one stage, costs F=0 B=2.
 *   F0[0,0] F1[0,0] B0[0,2] B1[2,4] */
static void test_zero_length_actions(void **state)
{
    (void)state;
    run_fixture x = {0};
    program_init(&x.p, 1, 1, 2, PROGRAM_LAYOUT_CUSTOM);
    program_push(&x.p, 0, action_make(ACTION_F, 0, 0));
    program_push(&x.p, 0, action_make(ACTION_F, 0, 1));
    program_push(&x.p, 0, action_make(ACTION_B, 0, 0));
    program_push(&x.p, 0, action_make(ACTION_B, 0, 1));
    ppf_error err = {{0}};
    assert_true(program_validate(&x.p, &err));
    timeline_costs_init(&x.c, 1);
    x.c.f[0] = 0;
    assert_true(timeline_simulate(&x.tl, &x.p, &x.c, &err));
    const timeline *tl = &x.tl;
    assert_same_double(tl->time[0][2].start, 0);
    assert_same_double(tl->time[0][2].end, 2);
    assert_int_equal(timeline_action_at(tl, 0, 0), 2);
    assert_int_equal(timeline_action_at(tl, 0, 2), 3);
    assert_int_equal(timeline_action_at(tl, 0, 4), -1);
    double t;
    assert_same_double(next_event(tl, -1), 0);
    assert_same_double(next_event(tl, 0), 2);
    assert_false(timeline_prev_event(tl, 0, &t));
    /* memory: +1 +1 at 0, -1 at 2, -1 at 4 */
    timeline_memory m;
    timeline_memory_init(&m, tl);
    assert_int_equal(m.rank[0].peak, 2);
    assert_int_equal(timeline_memory_live_at(&m.rank[0], 0), 2);
    assert_int_equal(timeline_memory_live_at(&m.rank[0], 2), 1);
    assert_int_equal(timeline_memory_live_at(&m.rank[0], 4), 0);
    timeline_memory_deinit(&m);
    run_fixture_deinit(&x);
}

/* ---- events -------------------------------------------------------------- */

static void test_events_by_hand(void **state)
{
    (void)state;
    double t;
    run_fixture x;
    /* GPipe P=2 M=2: events 0 1 2 3 5 7 9 */
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "gpipe", .P = 2, .M = 2});
    const double next_from[][2] = {{-1, 0}, {0, 1}, {0.5, 1}, {2, 3}, {3, 5}, {4, 5}, {8.5, 9}};
    for (size_t k = 0; k < sizeof next_from / sizeof next_from[0]; k++)
        assert_same_double(next_event(&x.tl, next_from[k][0]), next_from[k][1]);
    assert_false(timeline_next_event(&x.tl, 9, &t));
    assert_false(timeline_next_event(&x.tl, 100, &t));
    const double prev_from[][2] = {{0.5, 0}, {1, 0}, {5, 3}, {6, 5}, {9, 7}, {100, 9}};
    for (size_t k = 0; k < sizeof prev_from / sizeof prev_from[0]; k++)
        assert_same_double(prev_event(&x.tl, prev_from[k][0]), prev_from[k][1]);
    assert_false(timeline_prev_event(&x.tl, 0, &t));
    assert_false(timeline_prev_event(&x.tl, -3, &t));
    run_fixture_deinit(&x);

    /* with p2p 0.5: rank 1 starts half a unit after each arrival */
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "gpipe", .P = 2, .M = 2, .p2p = 0.5});
    assert_same_double(next_event(&x.tl, 1), 1.5);
    assert_same_double(next_event(&x.tl, 5.5), 6);
    assert_same_double(prev_event(&x.tl, 6), 5.5);
    assert_same_double(prev_event(&x.tl, 11), 10);
    run_fixture_deinit(&x);

    /* with all-reduces: [7, 8.5] on rank 1 and [9, 10.5] on rank 0 */
    run_fixture_init(
        &x, &(run_fixture_desc){.schedule = "gpipe", .P = 2, .M = 2, .D = 2, .allreduce = 1.5});
    assert_int_equal(x.tl.allreduce_count, 2);
    assert_same_double(next_event(&x.tl, 7), 8.5);
    assert_same_double(next_event(&x.tl, 9), 10.5);
    assert_false(timeline_next_event(&x.tl, 10.5, &t));
    assert_same_double(prev_event(&x.tl, 10.5), 9);
    assert_same_double(prev_event(&x.tl, 9), 8.5);
    assert_int_equal(timeline_allreduce_at(&x.tl, 1, 7), 0);
    assert_int_equal(timeline_allreduce_at(&x.tl, 1, 8.5), -1);
    assert_int_equal(timeline_allreduce_at(&x.tl, 0, 7.5), -1);
    assert_int_equal(timeline_allreduce_at(&x.tl, 0, 10), 1);
    assert_int_equal(timeline_allreduce_at(&x.tl, 0, -1), -1);
    run_fixture_deinit(&x);

    /* a zeroed timeline has no events */
    const timeline zero = {0};
    assert_false(timeline_next_event(&zero, 0, &t));
    assert_false(timeline_prev_event(&zero, 0, &t));
}

/* All event times (compute starts and ends, all-reduce starts and ends), sorted. */
static int collect_events(const timeline *tl, double *out, int cap)
{
    int n = 0;
    for (int r = 0; r < tl->program->ranks; r++)
        for (int k = 0; k < tl->program->rank[r].count; k++)
            if (action_is_compute((action_kind)tl->program->rank[r].actions[k].kind)) {
                assert_le(n + 2, cap);
                out[n++] = tl->time[r][k].start;
                out[n++] = tl->time[r][k].end;
            }
    for (int i = 0; i < tl->allreduce_count; i++) {
        assert_le(n + 2, cap);
        out[n++] = tl->allreduces[i].start;
        out[n++] = tl->allreduces[i].end;
    }
    for (int i = 1; i < n; i++) /* insertion sort: a few hundred values */
        for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
            const double s = out[j];
            out[j] = out[j - 1];
            out[j - 1] = s;
        }
    return n;
}

/* next/prev agree with a brute-force search at every event and between them,
 * for split backwards, V stages, overlapped pairs, all-reduces and p2p time. */
static void test_events_brute_force(void **state)
{
    (void)state;
    const run_fixture_desc cases[] = {
        {.schedule = "1f1b", .P = 4, .M = 8},
        {.schedule = "zb-h1", .P = 4, .M = 8, .D = 2, .p2p = 0.25, .allreduce = 1.5},
        {.schedule = "interleaved-1f1b",
         .P = 4,
         .M = 8,
         .V = 2,
         .D = 2,
         .p2p = 0.1,
         .allreduce = 1.5},
        {.schedule = "dualpipev", .P = 3, .M = 8, .p2p = 0.2},
        {.schedule = "gpipe", .P = 2, .M = 3, .D = 3, .allreduce = 1.5},
    };
    static double ev[8192];
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        run_fixture x;
        run_fixture_init(&x, &cases[c]);
        const int n = collect_events(&x.tl, ev, 8192);
        for (int i = 0; i < n; i++) {
            const double probes[3] = {ev[i], ev[i] - 1e-3, ev[i] + 1e-3};
            for (int q = 0; q < 3; q++) {
                const double t = probes[q];
                double want_next = INFINITY, want_prev = -INFINITY;
                for (int j = 0; j < n; j++) {
                    if (ev[j] > t && ev[j] < want_next)
                        want_next = ev[j];
                    if (ev[j] < t && ev[j] > want_prev)
                        want_prev = ev[j];
                }
                /* none is spelt as the infinity the search starts from */
                double next = INFINITY, prev = -INFINITY;
                assert_int_equal(timeline_next_event(&x.tl, t, &next), want_next != INFINITY);
                assert_int_equal(timeline_prev_event(&x.tl, t, &prev), want_prev != -INFINITY);
                assert_same_double(next, want_next);
                assert_same_double(prev, want_prev);
            }
        }
        run_fixture_deinit(&x);
    }
}

/* ---- per (stage, micro-batch) -------------------------------------------- */

static void test_cells_by_hand(void **state)
{
    (void)state;
    run_fixture x;
    timeline_cells cells;
    /* GPipe P=2 M=2, p2p 0.5 */
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "gpipe", .P = 2, .M = 2, .p2p = 0.5});
    timeline_cells_init(&cells, &x.tl);
    assert_int_equal(cells.stages, 2);
    assert_int_equal(cells.microbatches, 2);
    const timeline_cell *c = timeline_cell_at(&cells, 1, 0);
    assert_same_double(c->f_start, 1.5);
    assert_same_double(c->f_end, 2.5);
    assert_same_double(c->b_start, 3.5);
    assert_same_double(c->b_end, 5.5);
    assert_same_double(c->w_start, 3.5); /* not split: W's span is B's */
    assert_same_double(c->w_end, 5.5);
    assert_same_double(c->freed, 5.5);
    assert_same_double(c->in_ready, 1.5);   /* F(0,0) ends at 1, plus 0.5 */
    assert_same_double(c->grad_ready, 3.5); /* the last stage: its own backward start */
    assert_same_double(timeline_input_ready(&cells, 1, 1), 2.5);
    assert_same_double(timeline_input_ready(&cells, 0, 0), 0); /* stage 0: its F start */
    assert_same_double(timeline_input_ready(&cells, 0, 1), 1);
    c = timeline_cell_at(&cells, 0, 0);
    assert_same_double(c->grad_ready, 6); /* B(1,0) ends at 5.5, plus 0.5 */
    assert_same_double(c->freed, 8);
    assert_same_double(timeline_cell_at(&cells, 0, 1)->grad_ready, 8);
    timeline_cells_deinit(&cells);
    run_fixture_deinit(&x);

    /* without p2p time the input is ready the instant it is produced */
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "gpipe", .P = 2, .M = 2});
    timeline_cells_init(&cells, &x.tl);
    assert_same_double(timeline_input_ready(&cells, 1, 0), 1);
    assert_same_double(timeline_input_ready(&cells, 1, 1), 2);
    assert_same_double(timeline_cell_at(&cells, 0, 0)->grad_ready, 5);
    timeline_cells_deinit(&cells);
    timeline_cells_deinit(&cells); /* twice is fine */
    run_fixture_deinit(&x);
}

/* A V schedule (stages 1 and 2 on rank 1) with split backward and p2p 0.5:
 * the turn inside a rank costs nothing, a hop between ranks 0.5; W frees. */
static void test_cells_v_and_split(void **state)
{
    (void)state;
    run_fixture x;
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "zbv", .P = 2, .M = 4, .p2p = 0.5});
    const program *p = &x.p;
    const timeline *tl = &x.tl;
    assert_int_equal(p->stage_rank[1], p->stage_rank[2]);
    assert_true(p->stage_rank[0] != p->stage_rank[1]);
    timeline_cells cells;
    timeline_cells_init(&cells, tl);
    for (int m = 0; m < 4; m++) {
        const int f0 = find_action(p, p->stage_rank[0], ACTION_F, 0, m);
        const int f1 = find_action(p, p->stage_rank[1], ACTION_F, 1, m);
        const int i2 = find_action(p, p->stage_rank[2], ACTION_I, 2, m);
        const int i1 = find_action(p, p->stage_rank[1], ACTION_I, 1, m);
        const int w1 = find_action(p, p->stage_rank[1], ACTION_W, 1, m);
        const action_time *t0 = tl->time[p->stage_rank[0]];
        const action_time *t1 = tl->time[p->stage_rank[1]];
        assert_same_double(timeline_input_ready(&cells, 1, m), t0[f0].end + 0.5);
        assert_same_double(timeline_input_ready(&cells, 2, m), t1[f1].end);
        const timeline_cell *c = timeline_cell_at(&cells, 1, m);
        assert_same_double(c->grad_ready, t1[i2].end); /* stage 2's gradient, same rank */
        assert_same_double(c->b_start, t1[i1].start);
        assert_same_double(c->b_end, t1[i1].end);
        assert_same_double(c->w_start, t1[w1].start);
        assert_same_double(c->w_end, t1[w1].end);
        assert_same_double(c->freed, t1[w1].end);
        assert_gt(c->freed, c->b_end);
        assert_same_double(timeline_cell_at(&cells, 0, m)->grad_ready, t1[i1].end + 0.5);
    }
    timeline_cells_deinit(&cells);
    run_fixture_deinit(&x);
}

/* ---- live activations ---------------------------------------------------- */

static void test_memory_by_hand(void **state)
{
    (void)state;
    run_fixture x;
    timeline_memory m;
    /* GPipe P=2 M=2: rank 0 (0,0) (0,1) (1,2) (7,1) (9,0) */
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "gpipe", .P = 2, .M = 2});
    timeline_memory_init(&m, &x.tl);
    const timeline_memory_curve *c = &m.rank[0];
    expect_steps(c, (const timeline_memory_step[]){{0, 0}, {0, 1}, {1, 2}, {7, 1}, {9, 0}}, 5);
    assert_int_equal(c->peak, 2);
    assert_int_equal(m.peak, 2);
    assert_int_equal(timeline_memory_step_at(c, -1), 0);
    assert_int_equal(timeline_memory_step_at(c, 0), 1);
    assert_int_equal(timeline_memory_step_at(c, 8), 3);
    assert_int_equal(timeline_memory_step_at(c, 100), 4);
    const struct {
        double t;
        int live;
    } at[] = {{-1, 0}, {0, 1}, {0.99, 1}, {1, 2}, {6.9, 2}, {7, 1}, {9, 0}, {100, 0}};
    for (size_t k = 0; k < sizeof at / sizeof at[0]; k++)
        if (timeline_memory_live_at(c, at[k].t) != at[k].live)
            fail_msg("live at %g: %d, expected %d", at[k].t, timeline_memory_live_at(c, at[k].t),
                     at[k].live);
    assert_int_equal(timeline_memory_first_step_at_or_after(c, 0, 1), 2);
    assert_int_equal(timeline_memory_first_step_at_or_after(c, 0, 0), 0);
    assert_int_equal(timeline_memory_first_step_at_or_after(c, 3, 1), 3);
    assert_int_equal(timeline_memory_first_step_at_or_after(c, 0, 7.5), 4);
    assert_int_equal(timeline_memory_first_step_at_or_after(c, 0, 10), 5);
    /* rank 1: (0,0) (1,1) (2,2) (5,1) (7,0) */
    assert_int_equal(timeline_memory_live_at(&m.rank[1], 0.5), 0);
    assert_int_equal(timeline_memory_live_at(&m.rank[1], 2), 2);
    assert_int_equal(timeline_memory_live_at(&m.rank[1], 5), 1);
    timeline_memory_deinit(&m);
    run_fixture_deinit(&x);

    /* 1F1B P=2 M=3, rank 0: a free and an allocation at 6, the free first */
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "1f1b", .P = 2, .M = 3});
    timeline_memory_init(&m, &x.tl);
    c = &m.rank[0];
    expect_steps(
        c, (const timeline_memory_step[]){{0, 0}, {0, 1}, {1, 2}, {6, 1}, {6, 2}, {9, 1}, {12, 0}},
        7);
    assert_int_equal(timeline_memory_live_at(c, 6), 2);
    assert_int_equal(timeline_memory_live_at(c, 5.99), 2);
    assert_int_equal(m.rank[0].peak, 2);
    assert_int_equal(m.rank[1].peak, 1);
    timeline_memory_deinit(&m);
    run_fixture_deinit(&x);
}

/* Each curve's peak is the simulator's (and, when first >= 0, rank r's is
 * first + r * step), it starts and ends at zero, never goes negative, and
 * agrees at every step with a count of the cells whose activations are live
 * (F started, not yet freed). */
static void check_curves(const run_fixture *x, const char *name, int first, int step)
{
    timeline_memory m;
    timeline_memory_init(&m, &x->tl);
    timeline_cells cells;
    timeline_cells_init(&cells, &x->tl);
    const program *p = &x->p;
    int peak = 0;
    for (int r = 0; r < p->ranks; r++) {
        const timeline_memory_curve *c = &m.rank[r];
        if (c->peak != x->tl.per_rank[r].peak_activations ||
            (first >= 0 && c->peak != first + r * step))
            fail_msg("%s rank %d: curve peak %d, simulator %d, expected %d", name, r, c->peak,
                     x->tl.per_rank[r].peak_activations, first + r * step);
        assert_int_equal(c->steps[0].count, 0);
        assert_int_equal(c->steps[c->count - 1].count, 0);
        int most = 0;
        for (int i = 0; i < c->count; i++) {
            assert_ge(c->steps[i].count, 0);
            if (i > 0)
                assert_ge(c->steps[i].time, c->steps[i - 1].time);
            most = c->steps[i].count > most ? c->steps[i].count : most;
            const double probes[2] = {
                c->steps[i].time, i + 1 < c->count ? 0.5 * (c->steps[i].time + c->steps[i + 1].time)
                                                   : c->steps[i].time + 1};
            for (int q = 0; q < 2; q++) {
                int live = 0;
                for (int s = 0; s < p->stages; s++) {
                    if (p->stage_rank[s] != r)
                        continue;
                    for (int mb = 0; mb < p->microbatches; mb++) {
                        const timeline_cell *cell = timeline_cell_at(&cells, s, mb);
                        live += cell->f_start <= probes[q] && probes[q] < cell->freed;
                    }
                }
                if (timeline_memory_live_at(c, probes[q]) != live)
                    fail_msg("%s rank %d at %g: curve %d, cells %d", name, r, probes[q],
                             timeline_memory_live_at(c, probes[q]), live);
            }
        }
        assert_int_equal(most, c->peak);
        peak = c->peak > peak ? c->peak : peak;
    }
    assert_int_equal(m.peak, peak);
    timeline_cells_deinit(&cells);
    timeline_memory_deinit(&m);
}

/* GPipe piles up M micro-batches on every rank, 1F1B at most P - rank. */
static void test_memory_peaks(void **state)
{
    (void)state;
    for (int P = 2; P <= 4; P++)
        for (int M = P; M <= P + 3; M++)
            for (int k = 0; k < 4; k++) {
                const char *schedule = k % 2 ? "1f1b" : "gpipe";
                const double p2p = k < 2 ? 0 : 0.3;
                char name[64];
                snprintf(name, sizeof name, "%s P=%d M=%d p2p %g", schedule, P, M, p2p);
                run_fixture x;
                run_fixture_init(
                    &x, &(run_fixture_desc){.schedule = schedule, .P = P, .M = M, .p2p = p2p});
                check_curves(&x, name, k % 2 ? P : M, k % 2 ? -1 : 0);
                run_fixture_deinit(&x);
            }
    const run_fixture_desc others[] = {
        {.schedule = "interleaved-1f1b", .P = 4, .M = 8, .V = 2, .p2p = 0.1},
        {.schedule = "zb-h1", .P = 4, .M = 8, .p2p = 0.1},
        {.schedule = "dualpipev", .P = 4, .M = 8, .p2p = 0.1},
        {.schedule = "zbv", .P = 3, .M = 6, .p2p = 0.1},
        {.schedule = "looped-bfs", .P = 2, .M = 4, .V = 2, .p2p = 0.1},
    };
    for (size_t k = 0; k < sizeof others / sizeof others[0]; k++) {
        run_fixture x;
        run_fixture_init(&x, &others[k]);
        check_curves(&x, others[k].schedule, -1, 0);
        run_fixture_deinit(&x);
    }
}

/* ---- what an idle rank waits for ----------------------------------------- */

static void test_idle_wait(void **state)
{
    (void)state;
    run_fixture x;
    /* GPipe P=2 M=2 */
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "gpipe", .P = 2, .M = 2});
    timeline_wait w = timeline_idle_wait(&x.tl, 1, 0.5);
    assert_int_equal(w.kind, TIMELINE_WAIT_ACTIVATION);
    assert_int_equal(w.index, 1);
    assert_int_equal(w.action, ACTION_F);
    assert_int_equal(w.stage, 1);
    assert_int_equal(w.microbatch, 0);
    assert_int_equal(w.from_rank, 0);
    assert_same_double(w.start, 1);
    w = timeline_idle_wait(&x.tl, 0, 3);
    assert_int_equal(w.kind, TIMELINE_WAIT_GRADIENT);
    assert_int_equal(w.index, 5);
    assert_int_equal(w.action, ACTION_B);
    assert_int_equal(w.microbatch, 0);
    assert_int_equal(w.from_rank, 1);
    assert_same_double(w.start, 5);
    /* at the exact start of an action, the one after it is next */
    w = timeline_idle_wait(&x.tl, 0, 5);
    assert_int_equal(w.index, 6);
    assert_int_equal(w.microbatch, 1);
    /* before 0 on the first stage: nothing from another rank */
    w = timeline_idle_wait(&x.tl, 0, -1);
    assert_int_equal(w.kind, TIMELINE_WAIT_TURN);
    assert_int_equal(w.index, 0);
    assert_int_equal(w.from_rank, -1);
    assert_same_double(w.start, 0);
    w = timeline_idle_wait(&x.tl, 0, 9);
    assert_int_equal(w.kind, TIMELINE_WAIT_DONE);
    assert_int_equal(w.index, -1);
    assert_int_equal(w.from_rank, -1);
    assert_int_equal(timeline_idle_wait(&x.tl, 1, 100).kind, TIMELINE_WAIT_DONE);
    run_fixture_deinit(&x);

    /* ZB-H1: a W needs nothing from another rank; the last stage's I neither */
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "zb-h1", .P = 2, .M = 4});
    const int last = x.p.stage_rank[1];
    const int k = find_action(&x.p, last, ACTION_W, 1, 0);
    w = timeline_idle_wait(&x.tl, last, x.tl.time[last][k].start - 1e-9);
    assert_int_equal(w.index, k);
    assert_int_equal(w.kind, TIMELINE_WAIT_TURN);
    assert_int_equal(w.action, ACTION_W);
    assert_same_double(w.start, x.tl.time[last][k].start);
    run_fixture_deinit(&x);
}

/* ---- descriptions -------------------------------------------------------- */

static void test_describe(void **state)
{
    (void)state;
    char buf[256];
    run_fixture x;
    run_fixture_init(
        &x, &(run_fixture_desc){.schedule = "gpipe", .P = 2, .M = 2, .D = 2, .allreduce = 1.5});
    size_t n = timeline_describe_action(&x.tl, 1, 2, buf, sizeof buf);
    assert_string_equal(buf, "rank 1 · 1F1 · stage 1 · F micro-batch 1 · start 2.00 · end 3.00");
    assert_int_equal(n, strlen(buf));
    timeline_describe_action(&x.tl, 0, 5, buf, sizeof buf);
    assert_string_equal(buf, "rank 0 · 0B0 · stage 0 · B micro-batch 0 · start 5.00 · end 7.00");
    timeline_describe_action(&x.tl, 0, 3, buf, sizeof buf);
    assert_string_equal(buf, "rank 0 · idle step · at 2.00");
    /* truncated: a terminated string, and the length it wanted */
    char small[12];
    assert_int_equal(timeline_describe_action(&x.tl, 1, 2, small, sizeof small), n);
    assert_int_equal(strlen(small), sizeof small - 1);
    timeline_describe_allreduce(&x.tl, 0, buf, sizeof buf);
    assert_string_equal(buf,
                        "rank 1 · all-reduce of stage 1 over 2 replicas · start 7.00 · end 8.50");
    run_fixture_deinit(&x);

    /* small time units get more decimals: makespan 0.09 -> 4 */
    run_fixture_init(
        &x, &(run_fixture_desc){
                .schedule = "gpipe", .P = 2, .M = 2, .f = 0.01, .b = 0.02, .i = 0.01, .w = 0.01});
    timeline_describe_action(&x.tl, 1, 2, buf, sizeof buf);
    assert_string_equal(buf,
                        "rank 1 · 1F1 · stage 1 · F micro-batch 1 · start 0.0200 · end 0.0300");
    run_fixture_deinit(&x);

    /* markers and idle steps have an instant, not a span */
    make_edges(&x);
    timeline_describe_action(&x.tl, 0, 1, buf, sizeof buf);
    assert_string_equal(buf, "rank 0 · 0SEND_F0 · at 1.00");
    timeline_describe_action(&x.tl, 2, 0, buf, sizeof buf);
    assert_string_equal(buf, "rank 2 · idle step · at 0.00");
    run_fixture_deinit(&x);

    /* an overlapped pair: one rank, one stage, F0 (F1;B0) B1 -> F0[0,1] FB[1,4] B1[4,6] */
    x = (run_fixture){0};
    program_init(&x.p, 1, 1, 2, PROGRAM_LAYOUT_CUSTOM);
    program_push(&x.p, 0, action_make(ACTION_F, 0, 0));
    program_push(&x.p, 0, action_make_overlap(0, 1, 0, 0));
    program_push(&x.p, 0, action_make(ACTION_B, 0, 1));
    simulate_custom(&x);
    timeline_describe_action(&x.tl, 0, 1, buf, sizeof buf);
    assert_string_equal(buf, "rank 0 · (0F1;0B0)OVERLAP_F_B · F stage 0 micro-batch 1 + B stage 0 "
                             "micro-batch 0 · start 1.00 · end 4.00");
    /* the pair allocates its F half's activations and frees its B half's */
    assert_int_equal(timeline_action_at(&x.tl, 0, 2), 1);
    timeline_memory m;
    timeline_memory_init(&m, &x.tl);
    expect_steps(&m.rank[0], (const timeline_memory_step[]){{0, 0}, {0, 1}, {1, 2}, {4, 1}, {6, 0}},
                 5);
    timeline_memory_deinit(&m);
    timeline_cells cells;
    timeline_cells_init(&cells, &x.tl);
    assert_same_double(timeline_cell_at(&cells, 0, 1)->f_start, 1);
    assert_same_double(timeline_cell_at(&cells, 0, 0)->b_end, 4);
    assert_same_double(timeline_cell_at(&cells, 0, 0)->w_end, 4);
    assert_same_double(timeline_cell_at(&cells, 0, 0)->freed, 4);
    assert_same_double(timeline_cell_at(&cells, 0, 1)->freed, 6);
    timeline_cells_deinit(&cells);
    run_fixture_deinit(&x);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_searches_gpipe),
        cmocka_unit_test(test_edges_markers_and_idle_ranks),
        cmocka_unit_test(test_zero_length_actions),
        cmocka_unit_test(test_events_by_hand),
        cmocka_unit_test(test_events_brute_force),
        cmocka_unit_test(test_cells_by_hand),
        cmocka_unit_test(test_cells_v_and_split),
        cmocka_unit_test(test_memory_by_hand),
        cmocka_unit_test(test_memory_peaks),
        cmocka_unit_test(test_idle_wait),
        cmocka_unit_test(test_describe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
