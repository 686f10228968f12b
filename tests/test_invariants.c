/* Invariants of the simulation on hundreds of random scenarios: every
 * schedule, random P, M, V, D, per-rank costs, p2p and all-reduce models.
 * Each timeline is checked against the rules of timeline.h from scratch:
 * program order, dependencies with p2p, as-soon-as-possible starts, no
 * overlap on a rank, one F and the backward parts per (stage, micro-batch),
 * transfers, all-reduces, and metrics that add up. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedules.h"
#include "support/check.h"
#include "timeline.h"

#define EPS 1e-9

/* xorshift64*: deterministic across platforms, unlike rand() */
static uint64_t rng_state;
static uint64_t rng_next(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}
static int rng_int(int lo, int hi)
{
    return lo + (int)(rng_next() % (uint64_t)(hi - lo + 1));
}
static double rng_real(double lo, double hi)
{
    return lo + (hi - lo) * (double)(rng_next() >> 11) / 9007199254740992.0;
}

typedef struct times_of {
    double *f_start, *f_end, *bi_end, *w_end, *last_free; /* [S*M], -1 if absent */
} times_of;

static void check_timeline(const program *p, const timeline_costs *c, const timeline *tl,
                           const char *what)
{
    const int S = p->stages, M = p->microbatches;
    const size_t cells = (size_t)S * (size_t)M;
    times_of t;
    double *arrays[5];
    for (int k = 0; k < 5; k++) {
        arrays[k] = malloc(sizeof(double) * cells);
        for (size_t q = 0; q < cells; q++)
            arrays[k][q] = -1;
    }
    t.f_start = arrays[0], t.f_end = arrays[1], t.bi_end = arrays[2], t.w_end = arrays[3];
    t.last_free = arrays[4];
    int *f_count = calloc(cells, sizeof(int)), *b_count = calloc(cells, sizeof(int));
    int *i_count = calloc(cells, sizeof(int)), *w_count = calloc(cells, sizeof(int));
    int *held = calloc((size_t)p->ranks, sizeof(int));
    for (int s = 0; s < S; s++)
        held[p->stage_rank[s]]++;

    /* pass 1: record every half's times and count the parts */
    double compute_end = 0;
    for (int r = 0; r < p->ranks; r++) {
        double prev_end = 0, busy = 0, rank_end = 0;
        for (int k = 0; k < p->rank[r].count; k++) {
            const action *a = &p->rank[r].actions[k];
            const action_time *at = &tl->time[r][k];
            if (at->start < prev_end - EPS)
                fail_msg("%s: rank %d step %d starts at %g before the previous end %g", what, r, k,
                         at->start, prev_end);
            if (!action_is_compute((action_kind)a->kind)) {
                if (at->end != at->start)
                    fail_msg("%s: rank %d step %d takes time but is no compute", what, r, k);
                continue;
            }
            double per_rank = a->kind == ACTION_F   ? c->f[r]
                              : a->kind == ACTION_B ? c->b[r]
                              : a->kind == ACTION_I ? c->i[r]
                              : a->kind == ACTION_W ? c->w[r]
                                                    : c->fb[r];
            if (fabs((at->end - at->start) - per_rank / held[r]) > EPS)
                fail_msg("%s: rank %d step %d lasts %g, cost %g / %d stages", what, r, k,
                         at->end - at->start, per_rank, held[r]);
            prev_end = at->end;
            busy += at->end - at->start;
            rank_end = at->end;
            struct {
                int kind, stage, mb;
            } halves[2] = {{a->kind, a->stage, a->microbatch}, {-1, 0, 0}};
            if (a->kind == ACTION_OVERLAP_F_B) {
                halves[0].kind = ACTION_F;
                halves[1].kind = ACTION_B;
                halves[1].stage = a->stage2;
                halves[1].mb = a->microbatch2;
            }
            for (int h = 0; h < 2 && halves[h].kind >= 0; h++) {
                if (p->stage_rank[halves[h].stage] != r)
                    fail_msg("%s: stage %d runs on rank %d, not %d", what, halves[h].stage, r,
                             p->stage_rank[halves[h].stage]);
                size_t q = (size_t)halves[h].stage * (size_t)M + (size_t)halves[h].mb;
                switch (halves[h].kind) {
                case ACTION_F:
                    f_count[q]++;
                    t.f_start[q] = at->start;
                    t.f_end[q] = at->end;
                    break;
                case ACTION_B:
                    b_count[q]++;
                    t.bi_end[q] = at->end;
                    t.last_free[q] = at->end;
                    break;
                case ACTION_I:
                    i_count[q]++;
                    t.bi_end[q] = at->end;
                    break;
                default:
                    w_count[q]++;
                    t.w_end[q] = at->end;
                    t.last_free[q] = at->end;
                    break;
                }
            }
        }
        if (fabs(busy - tl->per_rank[r].busy) > EPS * (1 + busy))
            fail_msg("%s: rank %d busy %g, recorded %g", what, r, busy, tl->per_rank[r].busy);
        if (fabs(rank_end - tl->per_rank[r].compute_end) > EPS * (1 + rank_end))
            fail_msg("%s: rank %d compute end %g, recorded %g", what, r, rank_end,
                     tl->per_rank[r].compute_end);
        if (rank_end > compute_end)
            compute_end = rank_end;
    }
    for (size_t q = 0; q < cells; q++)
        if (f_count[q] != 1 || !((b_count[q] == 1 && i_count[q] + w_count[q] == 0) ||
                                 (b_count[q] == 0 && i_count[q] == 1 && w_count[q] == 1)))
            fail_msg("%s: stage %zu mb %zu has F=%d B=%d I=%d W=%d", what, q / (size_t)M,
                     q % (size_t)M, f_count[q], b_count[q], i_count[q], w_count[q]);

    /* pass 2: dependencies, and each action starts as soon as it may */
    int p2p_expected = 0;
    for (int r = 0; r < p->ranks; r++) {
        double prev_end = 0;
        for (int k = 0; k < p->rank[r].count; k++) {
            const action *a = &p->rank[r].actions[k];
            if (!action_is_compute((action_kind)a->kind))
                continue;
            const action_time *at = &tl->time[r][k];
            double ready = prev_end;
            int halves = a->kind == ACTION_OVERLAP_F_B ? 2 : 1;
            for (int h = 0; h < halves; h++) {
                int kind = a->kind == ACTION_OVERLAP_F_B ? (h ? ACTION_B : ACTION_F) : a->kind;
                int s = h ? a->stage2 : a->stage, m = h ? a->microbatch2 : a->microbatch;
                size_t q = (size_t)s * (size_t)M + (size_t)m;
                double need = 0;
                if (kind == ACTION_F && s > 0) {
                    int prod = p->stage_rank[s - 1];
                    need = t.f_end[q - (size_t)M] + (prod != r ? c->p2p[prod] : 0);
                } else if (kind == ACTION_B || kind == ACTION_I) {
                    need = t.f_end[q];
                    if (s < S - 1) {
                        int prod = p->stage_rank[s + 1];
                        double d = t.bi_end[q + (size_t)M] + (prod != r ? c->p2p[prod] : 0);
                        need = d > need ? d : need;
                    }
                } else if (kind == ACTION_W) {
                    need = t.bi_end[q];
                }
                if (at->start < need - EPS)
                    fail_msg("%s: rank %d step %d starts at %g before its dependency at %g", what,
                             r, k, at->start, need);
                ready = need > ready ? need : ready;
                if (kind == ACTION_F && s < S - 1 && p->stage_rank[s + 1] != r)
                    p2p_expected++;
                if ((kind == ACTION_B || kind == ACTION_I) && s > 0 && p->stage_rank[s - 1] != r)
                    p2p_expected++;
            }
            if (fabs(at->start - ready) > EPS * (1 + ready))
                fail_msg("%s: rank %d step %d starts at %g, could start at %g", what, r, k,
                         at->start, ready);
            prev_end = at->end;
        }
    }

    /* p2p transfers, derived by the timeline, against the producers' ends */
    int p2p = 0, allreduces = 0;
    double makespan = compute_end;
    p2p_cursor cur = {0};
    transfer x, prev = {.src_rank = 0, .start = -1};
    while (timeline_next_p2p(tl, &cur, &x)) {
        const transfer *tr = &x;
        /* rank by rank, each in program order, so a rank's starts never go back */
        if (tr->src_rank < prev.src_rank ||
            (tr->src_rank == prev.src_rank && tr->start < prev.start))
            fail_msg("%s: p2p out of order: rank %d at %g after rank %d at %g", what, tr->src_rank,
                     tr->start, prev.src_rank, prev.start);
        prev = x;
        if (tr->end > makespan)
            makespan = tr->end;
        if (tr->kind != TRANSFER_P2P_F && tr->kind != TRANSFER_P2P_B)
            fail_msg("%s: p2p transfer of kind %d", what, tr->kind);
        p2p++;
        size_t q = (size_t)tr->stage * (size_t)M + (size_t)tr->microbatch;
        double produced = tr->kind == TRANSFER_P2P_F ? t.f_end[q] : t.bi_end[q];
        if (fabs(tr->start - produced) > EPS * (1 + produced) ||
            fabs(tr->end - tr->start - c->p2p[tr->src_rank]) > EPS)
            fail_msg("%s: p2p of stage %d mb %d at [%g, %g], produced at %g", what, tr->stage,
                     tr->microbatch, tr->start, tr->end, produced);
        int consumer = tr->stage + (tr->kind == TRANSFER_P2P_F ? 1 : -1);
        if (tr->src_rank != p->stage_rank[tr->stage] || consumer < 0 || consumer >= S ||
            tr->dst_rank != p->stage_rank[consumer])
            fail_msg("%s: p2p of stage %d mb %d goes from rank %d to rank %d", what, tr->stage,
                     tr->microbatch, tr->src_rank, tr->dst_rank);
        if (tr->src_rank == tr->dst_rank)
            fail_msg("%s: p2p inside rank %d", what, tr->src_rank);
    }
    assert_int_equal(tl->p2p_count, p2p_expected);

    /* all-reduces */
    double *stream_end = calloc((size_t)p->ranks, sizeof(double));
    int *reduced = calloc((size_t)S, sizeof(int));
    for (int k = 0; k < tl->allreduce_count; k++) {
        const transfer *tr = &tl->allreduces[k];
        if (tr->end > makespan)
            makespan = tr->end;
        assert_int_equal(tr->kind, TRANSFER_ALLREDUCE);
        allreduces++;
        reduced[tr->stage]++;
        double last_grad = 0;
        for (int m = 0; m < M; m++) {
            size_t q = (size_t)tr->stage * (size_t)M + (size_t)m;
            double g = t.w_end[q] > t.bi_end[q] ? t.w_end[q] : t.bi_end[q];
            last_grad = g > last_grad ? g : last_grad;
        }
        if (tr->start < last_grad - EPS)
            fail_msg("%s: all-reduce of stage %d starts at %g before its gradients at %g", what,
                     tr->stage, tr->start, last_grad);
        int r = p->stage_rank[tr->stage];
        if (tr->start < stream_end[r] - EPS)
            fail_msg("%s: all-reduces overlap on rank %d", what, r);
        stream_end[r] = tr->end;
        double want = allreduce_stage_time(&c->allreduce, c->dp, held[r]);
        if (fabs(tr->end - tr->start - want) > EPS * (1 + want))
            fail_msg("%s: all-reduce lasts %g, model says %g", what, tr->end - tr->start, want);
    }
    assert_int_equal(p2p, p2p_expected);
    assert_int_equal(allreduces, c->dp > 1 ? S : 0);
    for (int s = 0; s < S && c->dp > 1; s++)
        assert_int_equal(reduced[s], 1);

    /* metrics add up */
    if (fabs(makespan - tl->makespan) > EPS * (1 + makespan))
        fail_msg("%s: makespan %g, recorded %g", what, makespan, tl->makespan);
    double busy = 0, idle = 0;
    for (int r = 0; r < p->ranks; r++) {
        busy += tl->per_rank[r].busy;
        idle += tl->per_rank[r].idle;
        assert_le(fabs(tl->per_rank[r].busy + tl->per_rank[r].idle - tl->makespan),
                  EPS * (1 + tl->makespan));
        /* peak live activations by brute force over the rank's F starts */
        int peak = 0;
        for (size_t q = 0; q < cells; q++) {
            if (p->stage_rank[q / (size_t)M] != r)
                continue;
            int live = 0;
            for (size_t u = 0; u < cells; u++)
                if (p->stage_rank[u / (size_t)M] == r && t.f_start[u] <= t.f_start[q] &&
                    t.last_free[u] > t.f_start[q])
                    live++;
            peak = live > peak ? live : peak;
        }
        if (peak != tl->per_rank[r].peak_activations)
            fail_msg("%s: rank %d peak activations %d, recorded %d", what, r, peak,
                     tl->per_rank[r].peak_activations);
    }
    assert_le(fabs(busy - tl->busy), EPS * (1 + busy));
    assert_le(fabs(idle - tl->idle), EPS * (1 + idle));
    if (tl->makespan > 0)
        assert_le(fabs(tl->bubble_fraction - idle / (p->ranks * tl->makespan)), EPS);
    if (busy > 0)
        assert_le(fabs(tl->bubble_ratio - idle / busy), EPS * (1 + idle / busy));
    assert_le(fabs(tl->allreduce_exposed - (tl->makespan - compute_end)), EPS * (1 + makespan));

    free(reduced);
    free(stream_end);
    free(held);
    free(f_count);
    free(b_count);
    free(i_count);
    free(w_count);
    for (int k = 0; k < 5; k++)
        free(arrays[k]);
}

static void test_random_scenarios(void **state)
{
    (void)state;
    rng_state = 0x9E3779B97F4A7C15ULL;
    int n_schedules;
    const schedule_info *list = schedule_list(&n_schedules);
    int runs = 0, per_schedule[16] = {0};
    while (runs < 600) {
        const schedule_info *si = &list[rng_int(0, n_schedules - 1)];
        schedule_params sp = {.ranks = rng_int(1, 8), .microbatches = rng_int(1, 24)};
        sp.stages_per_rank = si->max_v ? rng_int(si->min_v, si->max_v) : rng_int(si->min_v, 4);
        if (!schedule_check(si->name, &sp, NULL))
            continue;
        program p;
        ppf_error err = {{0}};
        if (!schedule_generate(si->name, &sp, &p, &err))
            fail_msg("%s: %s", si->name, err.message);
        timeline_costs c;
        timeline_costs_init(&c, p.ranks);
        const bool uniform = rng_int(0, 3) == 0;
        for (int r = 0; r < p.ranks; r++) {
            c.f[r] = uniform && r ? c.f[0] : rng_real(0.2, 3);
            c.i[r] = uniform && r ? c.i[0] : rng_real(0.1, 3);
            c.w[r] = uniform && r ? c.w[0] : rng_real(0, 2);
            c.b[r] = c.i[r] + c.w[r];
            c.fb[r] = uniform && r ? c.fb[0] : rng_real(0.5, 1) * (c.f[r] + c.b[r]);
            c.p2p[r] = rng_int(0, 2) == 0 ? 0 : rng_real(0, 0.7);
        }
        c.dp = rng_int(1, 4);
        switch (rng_int(0, 3)) {
        case 0:
            c.allreduce = (allreduce_cost){.mode = ALLREDUCE_NONE};
            break;
        case 1:
            c.allreduce = (allreduce_cost){.mode = ALLREDUCE_TIME, .time = rng_real(0, 20)};
            break;
        default:
            c.allreduce = (allreduce_cost){.mode = rng_int(0, 1) ? ALLREDUCE_RING : ALLREDUCE_TREE,
                                           .bytes = rng_real(0, 1e9),
                                           .bandwidth = rng_real(1e8, 1e10),
                                           .latency = rng_real(0, 0.01)};
        }
        timeline tl;
        if (!timeline_simulate(&tl, &p, &c, &err))
            fail_msg("%s P=%d M=%d V=%d: %s", si->name, sp.ranks, sp.microbatches,
                     sp.stages_per_rank, err.message);
        char what[128];
        snprintf(what, sizeof what, "run %d: %s P=%d M=%d V=%d D=%d", runs, si->name, sp.ranks,
                 sp.microbatches, p.stages_per_rank, c.dp);
        check_timeline(&p, &c, &tl, what);
        timeline_deinit(&tl);
        timeline_costs_deinit(&c);
        program_deinit(&p);
        per_schedule[si - list]++;
        runs++;
    }
    for (int k = 0; k < n_schedules; k++) {
        if (per_schedule[k] < 20)
            fail_msg("%s ran only %d times", list[k].name, per_schedule[k]);
        print_message("%-18s %d random scenarios\n", list[k].name, per_schedule[k]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_scenarios),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
