/* Tests of the timing simulation: closed forms with uniform costs, hand-worked
 * cases with p2p and all-reduce, the cost model, and deadlock reports. */
#include <stdio.h>
#include <string.h>

#include "csv.h"
#include "support/check.h"
#include "support/run_fixture.h"
#include "timeline.h"

static void test_gpipe_and_1f1b_closed_forms(void **state)
{
    (void)state;
    const double F = 1.5, B = 2.5;
    const int sizes[][2] = {{1, 1}, {1, 5}, {2, 2}, {4, 4}, {4, 8}, {3, 11}, {8, 32}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        const int P = sizes[k][0], M = sizes[k][1];
        for (int s = 0; s < 2; s++) {
            run_fixture x = {0};
            run_fixture_init(&x, &(run_fixture_desc){.schedule = s ? "1f1b" : "gpipe",
                                                     .P = P,
                                                     .M = M,
                                                     .f = F,
                                                     .b = B,
                                                     .i = B / 2,
                                                     .w = B / 2});
            assert_near_rel(x.tl.makespan, (M + P - 1) * (F + B), 1e-9);
            assert_near_rel(x.tl.bubble_fraction, (P - 1.0) / (M + P - 1.0), 1e-9);
            assert_near_rel(x.tl.bubble_ratio, (P - 1.0) / M, 1e-9);
            for (int r = 0; r < P; r++) {
                int want = s ? P - r : M; /* 1F1B keeps P - rank in flight, GPipe all M */
                if (x.tl.per_rank[r].peak_activations != want)
                    fail_msg("%s P=%d M=%d rank %d: peak %d, expected %d", s ? "1f1b" : "gpipe", P,
                             M, r, x.tl.per_rank[r].peak_activations, want);
                assert_near_rel(x.tl.per_rank[r].busy, M * (F + B), 1e-9);
            }
            run_fixture_deinit(&x);
        }
    }
}

static void test_interleaved_closed_form(void **state)
{
    (void)state;
    const double F = 1, B = 2;
    const int cases[][3] = {{2, 2, 2}, {2, 4, 2}, {4, 4, 2},  {4, 8, 2},
                            {4, 8, 4}, {3, 9, 3}, {8, 16, 2}, {4, 12, 3}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const int P = cases[k][0], M = cases[k][1], V = cases[k][2];
        run_fixture x = {0};
        run_fixture_init(&x, &(run_fixture_desc){.schedule = "interleaved-1f1b",
                                                 .P = P,
                                                 .M = M,
                                                 .V = V,
                                                 .f = F,
                                                 .b = B,
                                                 .i = B / 2,
                                                 .w = B / 2});
        assert_near_rel(x.tl.makespan, M * (F + B) + (P - 1) * (F + B) / V, 1e-9);
        /* Megatron's interleaved bubble (P-1)/(V*M), as idle over busy */
        assert_near_rel(x.tl.bubble_ratio, (P - 1.0) / (V * M), 1e-9);
        run_fixture_deinit(&x);
    }
}

static void test_zb_h1_closed_form(void **state)
{
    (void)state;
    const int cases[][2] = {{2, 2}, {4, 4}, {4, 8}, {3, 7}, {8, 16}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const int P = cases[k][0], M = cases[k][1];
        const double F = 1, I = 1, W = 1, B = I + W;
        run_fixture x = {0};
        run_fixture_init(&x,
                         &(run_fixture_desc){
                             .schedule = "zb-h1", .P = P, .M = M, .f = F, .b = B, .i = I, .w = W});
        assert_near_rel(x.tl.makespan, M * (F + B) + (P - 1) * (F + B - 2 * W), 1e-9);
        run_fixture_deinit(&x);
    }
}

static void test_p2p_and_allreduce_by_hand(void **state)
{
    (void)state;
    /* 1F1B, P=2, M=2, F=1, B=2, p2p=0.5, D=2, all-reduce 3 per rank:
     *   rank 0: F0 [0,1] F1 [1,2] B0 [5,7] B1 [8,10]
     *   rank 1: F0 [1.5,2.5] B0 [2.5,4.5] F1 [4.5,5.5] B1 [5.5,7.5]
     *   all-reduce stage 1 [7.5,10.5], stage 0 [10,13] */
    run_fixture x = {0};
    run_fixture_init(&x,
                     &(run_fixture_desc){
                         .schedule = "1f1b", .P = 2, .M = 2, .p2p = 0.5, .D = 2, .allreduce = 3});
    const double want[2][4][2] = {{{0, 1}, {1, 2}, {5, 7}, {8, 10}},
                                  {{1.5, 2.5}, {2.5, 4.5}, {4.5, 5.5}, {5.5, 7.5}}};
    for (int r = 0; r < 2; r++) {
        int n = 0;
        for (int k = 0; k < x.p.rank[r].count; k++) {
            if (x.p.rank[r].actions[k].kind == ACTION_IDLE)
                continue;
            assert_near_rel(x.tl.time[r][k].start, want[r][n][0], 1e-9);
            assert_near_rel(x.tl.time[r][k].end, want[r][n][1], 1e-9);
            n++;
        }
        assert_int_equal(n, 4);
    }
    assert_near_rel(x.tl.compute_end, 10, 1e-9);
    assert_near_rel(x.tl.makespan, 13, 1e-9);
    assert_near_rel(x.tl.allreduce_exposed, 3, 1e-9);
    assert_near_rel(x.tl.per_rank[0].busy, 6, 1e-9);
    assert_near_rel(x.tl.per_rank[1].idle, 7, 1e-9);
    assert_near_rel(x.tl.bubble_fraction, 14.0 / 26.0, 1e-9);
    assert_int_equal(x.tl.per_rank[0].peak_activations, 2);
    assert_int_equal(x.tl.per_rank[1].peak_activations, 1);
    int p2p_f = 0, p2p_b = 0, ar = 0;
    p2p_cursor cur = {0};
    transfer tr;
    while (timeline_next_p2p(&x.tl, &cur, &tr)) {
        if (tr.kind == TRANSFER_P2P_F) {
            assert_int_equal(tr.src_rank, 0);
            assert_int_equal(tr.dst_rank, 1);
            assert_near_rel(tr.end - tr.start, 0.5, 1e-9);
            assert_near_rel(tr.start, tr.microbatch == 0 ? 1 : 2, 1e-9);
            p2p_f++;
        } else {
            assert_int_equal(tr.kind, TRANSFER_P2P_B);
            assert_int_equal(tr.src_rank, 1);
            assert_near_rel(tr.start, tr.microbatch == 0 ? 4.5 : 7.5, 1e-9);
            p2p_b++;
        }
    }
    assert_false(timeline_next_p2p(&x.tl, &cur, &tr)); /* the end stays the end */
    assert_int_equal(x.tl.p2p_count, 4);
    for (int t = 0; t < x.tl.allreduce_count; t++) {
        const transfer *a = &x.tl.allreduces[t];
        assert_int_equal(a->kind, TRANSFER_ALLREDUCE);
        assert_near_rel(a->start, a->stage == 0 ? 10 : 7.5, 1e-9);
        assert_near_rel(a->end, a->stage == 0 ? 13 : 10.5, 1e-9);
        assert_int_equal(a->microbatch, -1);
        ar++;
    }
    assert_int_equal(p2p_f, 2);
    assert_int_equal(p2p_b, 2);
    assert_int_equal(ar, 2);
    run_fixture_deinit(&x);
}

static void test_allreduce_cost_models(void **state)
{
    (void)state;
    allreduce_cost ring = {.mode = ALLREDUCE_RING, .bytes = 1000, .bandwidth = 100, .latency = 0.5};
    allreduce_cost tree = ring;
    tree.mode = ALLREDUCE_TREE;
    /* ring: 2(D-1)/D x bytes/bw + 2(D-1) x latency */
    assert_near_rel(allreduce_stage_time(&ring, 4, 1), 2 * 3 / 4.0 * 10 + 6 * 0.5, 1e-9);
    /* each of V stages reduces its share of the bytes */
    assert_near_rel(allreduce_stage_time(&ring, 4, 2), 2 * 3 / 4.0 * 5 + 6 * 0.5, 1e-9);
    /* tree: 2 x bytes/bw + 2 ceil(log2 D) x latency */
    assert_near_rel(allreduce_stage_time(&tree, 4, 1), 2 * 10 + 2 * 2 * 0.5, 1e-9);
    assert_near_rel(allreduce_stage_time(&tree, 5, 1), 2 * 10 + 2 * 3 * 0.5, 1e-9);
    allreduce_cost fixed = {.mode = ALLREDUCE_TIME, .time = 6};
    assert_near_rel(allreduce_stage_time(&fixed, 2, 3), 2, 1e-9);
    assert_near_rel(allreduce_stage_time(&fixed, 1, 1), 0,
                    1e-9); /* no replicas, nothing to reduce */
    assert_near_rel(allreduce_stage_time(&(allreduce_cost){0}, 8, 1), 0, 1e-9);
}

static void test_allreduces_share_a_rank_stream(void **state)
{
    (void)state;
    /* interleaved: a rank's two stages finish their weights close together;
     * their all-reduces must not overlap on the rank's stream */
    run_fixture x = {0};
    run_fixture_init(
        &x, &(run_fixture_desc){
                .schedule = "interleaved-1f1b", .P = 2, .M = 4, .V = 2, .D = 4, .allreduce = 50});
    for (int r = 0; r < 2; r++) {
        double prev_end = -1;
        int n = 0;
        for (int t = 0; t < x.tl.allreduce_count; t++) {
            const transfer *tr = &x.tl.allreduces[t];
            if (tr->src_rank != r)
                continue;
            assert_near_rel(tr->end - tr->start, 25, 1e-9); /* 50 per rank, two stages */
            assert_ge(tr->start, prev_end - 1e-12);
            prev_end = tr->end;
            n++;
        }
        assert_int_equal(n, 2);
    }
    run_fixture_deinit(&x);
}

static void test_costs_split_over_virtual_stages(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_init(
        &x, &(run_fixture_desc){
                .schedule = "dualpipev", .P = 2, .M = 4, .f = 2, .b = 4, .i = 2, .w = 2, .fb = 10});
    int overlaps = 0;
    for (int r = 0; r < 2; r++)
        for (int k = 0; k < x.p.rank[r].count; k++) {
            const action *a = &x.p.rank[r].actions[k];
            double d = x.tl.time[r][k].end - x.tl.time[r][k].start;
            double want = a->kind == ACTION_F                          ? 1
                          : a->kind == ACTION_B                        ? 2
                          : a->kind == ACTION_I || a->kind == ACTION_W ? 1
                          : a->kind == ACTION_OVERLAP_F_B              ? 5
                                                                       : 0;
            assert_near_rel(d, want, 1e-9);
            overlaps += a->kind == ACTION_OVERLAP_F_B;
        }
    assert_gt(overlaps, 0);
    assert_near_rel(timeline_action_cost(&x.c, &x.p, 0, &(action){.kind = ACTION_F}), 1, 1e-9);
    run_fixture_deinit(&x);
}

static void test_per_rank_costs(void **state)
{
    (void)state;
    /* GPipe with a slow last rank: the makespan follows the slow rank */
    run_fixture x = {0};
    run_fixture_prepare(&x, &(run_fixture_desc){.schedule = "gpipe", .P = 3, .M = 4});
    x.c.f[2] = 2;
    x.c.b[2] = 4;
    run_fixture_simulate(&x);
    /* forwards reach rank 2 at 2, it runs 4 x 2 forwards and 4 x 4 backwards,
     * then backward of the last micro-batch flows back through ranks 1 and 0 */
    assert_near_rel(x.tl.makespan, 2 + 4 * 2 + 4 * 4 + 2 + 2, 1e-9);
    assert_near_rel(x.tl.per_rank[2].busy, 24, 1e-9);
    assert_near_rel(x.tl.per_rank[0].busy, 12, 1e-9);
    run_fixture_deinit(&x);
}

static void test_deadlock_names_ranks_actions_and_dependencies(void **state)
{
    (void)state;
    program p;
    ppf_error err = {{0}};
    const char *text = "0F0,0B0\n1B0,1F0\n";
    assert_true(csv_parse(text, strlen(text), "x.csv", &p, &err));
    timeline_costs c;
    timeline_costs_init(&c, p.ranks);
    timeline tl;
    assert_false(timeline_simulate(&tl, &p, &c, &err));
    assert_non_null(strstr(err.message, "deadlock"));
    assert_non_null(strstr(err.message, "rank 0 at step 1 (0B0) waits for 1B0 on rank 1"));
    assert_non_null(strstr(err.message, "rank 1 at step 0 (1B0) waits for 1F0 on rank 1"));
    assert_null(strchr(err.message, '\n'));
    assert_null(tl.time);
    assert_null(tl.p2p);
    transfer none;
    assert_false(timeline_next_p2p(&tl, &(p2p_cursor){0}, &none)); /* zeroed: nothing to yield */
    timeline_costs_deinit(&c);
    program_deinit(&p);

    /* a split backward names I as what W waits for */
    text = "0F0,0W0,0I0\n";
    assert_true(csv_parse(text, strlen(text), "x.csv", &p, &err));
    timeline_costs_init(&c, p.ranks);
    assert_false(timeline_simulate(&tl, &p, &c, &err));
    assert_non_null(strstr(err.message, "rank 0 at step 1 (0W0) waits for 0I0 on rank 0"));
    timeline_costs_deinit(&c);
    program_deinit(&p);
}

static void test_many_stuck_ranks_stay_one_line(void **state)
{
    (void)state;
    /* 64 ranks all waiting: the message is cut, says how many more, and fits */
    char text[8192];
    size_t n = 0;
    for (int r = 0; r < 64; r++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%dB0,%dF0\n", r, r);
    program p;
    ppf_error err = {{0}};
    assert_true(csv_parse(text, n, "x.csv", &p, &err));
    timeline_costs c;
    timeline_costs_init(&c, p.ranks);
    timeline tl;
    assert_false(timeline_simulate(&tl, &p, &c, &err));
    assert_non_null(strstr(err.message, "more ranks"));
    assert_lt(strlen(err.message), PPF_ERROR_MAX);
    timeline_costs_deinit(&c);
    program_deinit(&p);
}

static void test_zero_costs(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_prepare(&x, &(run_fixture_desc){.schedule = "1f1b", .P = 2, .M = 2});
    run_fixture_costs_uniform(&x.c, 0, 0, 0, 0);
    run_fixture_simulate(&x);
    assert_near_rel(x.tl.makespan, 0, 1e-9);
    assert_near_rel(x.tl.bubble_fraction, 0, 1e-9);
    assert_near_rel(x.tl.bubble_ratio, 0, 1e-9);
    run_fixture_deinit(&x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpipe_and_1f1b_closed_forms),
        cmocka_unit_test(test_interleaved_closed_form),
        cmocka_unit_test(test_zb_h1_closed_form),
        cmocka_unit_test(test_p2p_and_allreduce_by_hand),
        cmocka_unit_test(test_allreduce_cost_models),
        cmocka_unit_test(test_allreduces_share_a_rank_stream),
        cmocka_unit_test(test_costs_split_over_virtual_stages),
        cmocka_unit_test(test_per_rank_costs),
        cmocka_unit_test(test_deadlock_names_ranks_actions_and_dependencies),
        cmocka_unit_test(test_many_stuck_ranks_stay_one_line),
        cmocka_unit_test(test_zero_costs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
