/* test_inspect.c - questions about one action, idle block, all-reduce,
 * micro-batch and area (core/timeline/inspect.h), and the critical path:
 *   - 1F1B P=4 M=8 p2p 0.5 (F=1, B=2), hand-worked: an action that waits
 *     for its input, one that waits for its rank, ones with no wait, an
 *     idle block, and the panel's lines for them;
 *   - GPipe P=2 M=2 p2p 0.5, hand-worked: the critical path is exactly the
 *     chain derived below, and with D=2 it ends in the right all-reduce;
 *   - random programs of every schedule: the critical path covers [0,
 *     makespan] without gaps and every link is a real dependency or the
 *     rank's order;
 *   - areas: busy, idle, bubble and counts by kind equal sums computed here
 *     from the JSON timeline (export.h), parsed with cJSON.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "export.h"
#include "inspect.h"
#include "schedules.h"
#include "support/check.h"
#include "support/run_fixture.h"

/* The (rank, index) of the action whose text form is `text`; fails when none. */
static inspect_ref find(const timeline *tl, const char *text)
{
    const program *p = tl->program;
    for (int r = 0; r < p->ranks; r++)
        for (int k = 0; k < p->rank[r].count; k++) {
            char s[ACTION_TEXT_MAX];
            action_format(&p->rank[r].actions[k], s);
            if (strcmp(s, text) == 0)
                return (inspect_ref){r, k};
        }
    fail_msg("no action %s", text);
    return (inspect_ref){-1, -1};
}

static void assert_link(const timeline *tl, const inspect_link *l, const char *producer_or_consumer,
                        bool p2p, double sent, double arrived, double delay)
{
    const inspect_ref at = find(tl, producer_or_consumer);
    assert_int_equal(l->rank, at.rank);
    assert_int_equal(l->index, at.index);
    assert_int_equal(l->p2p, p2p);
    assert_same_double(l->sent, sent);
    assert_same_double(l->arrived, arrived);
    assert_same_double(l->p2p_time, arrived - sent);
    assert_same_double(l->delay, delay);
}

static bool has_line(const inspect_text *t, const char *line)
{
    for (int k = 0; k < t->count; k++)
        if (strcmp(t->line[k], line) == 0)
            return true;
    for (int k = 0; k < t->count; k++)
        print_message("  line %d: %s\n", k, t->line[k]);
    print_message("  wanted: %s\n", line);
    return false;
}

/* 1F1B, P=4, M=8, p2p 0.5, F=1, B=2 (the defaults), as
 * `ppflow schedule --stages 4 --microbatches 8 --p2p 0.5 --format json`:
 *   rank 0  0F0[0,1] 0F1[1,2] 0F2[2,3] 0F3[3,4] 0B0[13,15] ...
 *   rank 1  1F0[1.5,2.5] 1F1[2.5,3.5] 1F2[3.5,4.5] 1B0[10.5,12.5] 1F3[12.5,13.5] ...
 *   rank 2  2F0[3,4] 2F1[4,5] 2B0[8,10] 2F2[10,11] 2B1[11,13] 2F3[14,15] ...
 *   rank 3  3F0[4.5,5.5] 3B0[5.5,7.5] 3F1[7.5,8.5] 3B1[8.5,10.5] 3F2[11.5,12.5] ... */
static void test_1f1b_hand_worked(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "1f1b", .P = 4, .M = 8, .p2p = 0.5});
    assert_same_double(x.tl.makespan, 41);
    inspect in;
    inspect_init(&in, &x.tl);
    inspect_action a;

    /* 3F2 waits for its input: rank 3 is free at 10.5 (3B1 ends), 2F2 ends
     * at 11 on rank 2 and arrives 0.5 later, at 11.5 = its start. */
    inspect_ref r = find(&x.tl, "3F2");
    inspect_action_at(&in, r.rank, r.index, &a);
    assert_int_equal(a.cause, INSPECT_CAUSE_INPUT);
    assert_same_double(a.start, 11.5);
    assert_same_double(a.ready, 11.5);
    assert_same_double(a.rank_free, 10.5);
    assert_same_double(a.starved, 1.0);
    assert_same_double(a.queued, 0.0);
    assert_int_equal(a.prev_index, find(&x.tl, "3B1").index);
    assert_int_equal(a.in_count, 1);
    assert_int_equal(a.latest, 0);
    assert_link(&x.tl, &a.in[0], "2F2", true, 11, 11.5, 0.5);
    /* its consumer is 3B2 on its own rank: 12.5 - 12.5 */
    assert_int_equal(a.out_count, 1);
    assert_link(&x.tl, &a.out[0], "3B2", false, 12.5, 12.5, 0);

    /* 1F3 waits for its rank: 0F3 ends at 4, arrives at 4.5, but rank 1 is
     * busy with 1B0 until 12.5: queued 8. */
    r = find(&x.tl, "1F3");
    inspect_action_at(&in, r.rank, r.index, &a);
    assert_int_equal(a.cause, INSPECT_CAUSE_RANK);
    assert_same_double(a.ready, 4.5);
    assert_same_double(a.rank_free, 12.5);
    assert_same_double(a.queued, 8.0);
    assert_same_double(a.starved, 0.0);
    assert_int_equal(a.prev_index, find(&x.tl, "1B0").index);
    assert_int_equal(a.in_count, 1);
    assert_link(&x.tl, &a.in[0], "0F3", true, 4, 4.5, 8.5);
    /* consumers: 2F3 on rank 2 (starts 14: delay 0.5, all of it the p2p
     * hop) and 1B3 on rank 1 (starts 21.5: delay 8) */
    assert_int_equal(a.out_count, 2);
    assert_link(&x.tl, &a.out[0], "2F3", true, 13.5, 14, 0.5);
    assert_link(&x.tl, &a.out[1], "1B3", false, 13.5, 13.5, 8);
    inspect_text t;
    inspect_text_action(&in, r.rank, r.index, &t);
    assert_string_equal(t.line[0], "1F3 · forward");
    assert_true(has_line(&t, "rank 1 · stage 1 · micro-batch 3"));
    assert_true(has_line(&t, "start 12.50 · end 13.50 · 1.00 long"));
    assert_true(has_line(&t, "waited 8.00 for rank 1 (busy with 1B0)"));
    assert_true(has_line(&t, "from 0F3 on rank 0: p2p 0.50 · delay 8.50"));
    assert_true(has_line(&t, "to 2F3 on rank 2: p2p 0.50 · delay 0.50"));
    assert_true(has_line(&t, "to 1B3 on rank 1: delay 8.00"));

    /* 1B0's latest input is 2B0's gradient (ends 10, arrives 10.5); rank 1
     * idled since 1F2 ended at 4.5: starved 6. */
    r = find(&x.tl, "1B0");
    inspect_action_at(&in, r.rank, r.index, &a);
    assert_int_equal(a.cause, INSPECT_CAUSE_INPUT);
    assert_int_equal(a.in_count, 2);
    assert_int_equal(a.latest, 0);
    assert_link(&x.tl, &a.in[0], "2B0", true, 10, 10.5, 0.5);
    assert_link(&x.tl, &a.in[1], "1F0", false, 2.5, 2.5, 8);
    assert_same_double(a.starved, 6.0);
    inspect_text_action(&in, r.rank, r.index, &t);
    assert_true(has_line(&t, "waited 6.00 for 2B0 from rank 2"));

    /* No wait: 2F1's input (1F1 ends 3.5, arrives 4) comes the instant 2F0
     * frees rank 2; 0F0 has no input at all. */
    r = find(&x.tl, "2F1");
    inspect_action_at(&in, r.rank, r.index, &a);
    assert_int_equal(a.cause, INSPECT_CAUSE_NONE);
    assert_same_double(a.ready, 4);
    assert_same_double(a.rank_free, 4);
    r = find(&x.tl, "0F0");
    inspect_action_at(&in, r.rank, r.index, &a);
    assert_int_equal(a.cause, INSPECT_CAUSE_NONE);
    assert_int_equal(a.in_count, 0);
    assert_int_equal(a.latest, -1);
    assert_int_equal(a.prev_index, -1);
    inspect_text_action(&in, r.rank, r.index, &t);
    assert_true(has_line(&t, "no wait: started when ready"));

    /* Rank 2 idles from 5 (2F1 ends) to 8 (2B0 starts), waiting for 3B0. */
    inspect_idle idle;
    assert_false(inspect_idle_at(&in, 2, 4.5, &idle)); /* 2F1 runs */
    assert_true(inspect_idle_at(&in, 2, 6, &idle));
    assert_same_double(idle.t0, 5);
    assert_same_double(idle.t1, 8);
    assert_true(idle.has_awaited);
    assert_link(&x.tl, &idle.awaited, "3B0", true, 7.5, 8, 0.5);
    inspect_text_idle(&in, &idle, &t);
    assert_string_equal(t.line[0], "rank 2 idle 3.00: waiting for 3B0 from rank 3");
    /* after its last action a rank is done */
    assert_true(inspect_idle_at(&in, 3, 35, &idle));
    assert_int_equal(idle.wait.kind, TIMELINE_WAIT_DONE);
    assert_same_double(idle.t0, 33.5);
    assert_same_double(idle.t1, 41);

    /* Micro-batch 3: one F and one B on each of the 4 stages. */
    inspect_ref refs[16];
    assert_int_equal(inspect_microbatch_actions(&in, 3, refs, 16), 8);
    for (int k = 0; k < 8; k++)
        assert_true(
            inspect_action_has_microbatch(&x.p.rank[refs[k].rank].actions[refs[k].index], 3));
    inspect_deinit(&in);
    run_fixture_deinit(&x);
}

typedef struct want_step {
    inspect_step_kind kind;
    const char *action; /* ACTION: the action; P2P: the producer */
    int dst_rank;       /* P2P only */
    double start, end;
} want_step;

static void assert_path(const timeline *tl, const inspect_path *p, const want_step *want, int n)
{
    for (int k = 0; k < p->count; k++)
        print_message("  step %d: kind %d rank %d index %d [%g, %g]\n", k, p->steps[k].kind,
                      p->steps[k].rank, p->steps[k].index, p->steps[k].start, p->steps[k].end);
    assert_int_equal(p->count, n);
    for (int k = 0; k < n; k++) {
        const inspect_step *s = &p->steps[k];
        assert_int_equal(s->kind, want[k].kind);
        if (want[k].kind != INSPECT_STEP_ALLREDUCE) {
            const inspect_ref r = find(tl, want[k].action);
            assert_int_equal(s->rank, r.rank);
            assert_int_equal(s->index, r.index);
        }
        if (want[k].kind == INSPECT_STEP_P2P)
            assert_int_equal(s->dst_rank, want[k].dst_rank);
        assert_same_double(s->start, want[k].start);
        assert_same_double(s->end, want[k].end);
    }
}

/* GPipe, P=2, M=2, p2p 0.5, F=1, B=2. By hand:
 *   rank 0  0F0 [0,1]  0F1 [1,2]                  0B0 [6,8]  0B1 [8,10]
 *   rank 1  1F0 [1.5,2.5] (0F0 + 0.5)  1F1 [2.5,3.5] (0F1 + 0.5 = 2.5 = 1F0's end)
 *           1B0 [3.5,5.5] (its rank)   1B1 [5.5,7.5] (its rank)
 *   0B0: 1B0 ends 5.5, arrives 6; 0B1: 1B1 arrives 8 = 0B0's end.
 * Walking back from 0B1 (ends at the makespan, 10): its input arrives the
 * instant its rank frees (a tie: the input is followed) -> the transfer
 * [7.5, 8] -> 1B1, which waited for its rank -> 1B0, which waited for its
 * rank -> 1F1, a tie again: the transfer [2, 2.5] -> 0F1, which waited for
 * its rank -> 0F0, at 0. In time order: */
static const want_step GPIPE_PATH[] = {
    {INSPECT_STEP_ACTION, "0F0", 0, 0, 1},     {INSPECT_STEP_ACTION, "0F1", 0, 1, 2},
    {INSPECT_STEP_P2P, "0F1", 1, 2, 2.5},      {INSPECT_STEP_ACTION, "1F1", 1, 2.5, 3.5},
    {INSPECT_STEP_ACTION, "1B0", 1, 3.5, 5.5}, {INSPECT_STEP_ACTION, "1B1", 1, 5.5, 7.5},
    {INSPECT_STEP_P2P, "1B1", 0, 7.5, 8},      {INSPECT_STEP_ACTION, "0B1", 0, 8, 10},
};
enum { GPIPE_STEPS = sizeof GPIPE_PATH / sizeof GPIPE_PATH[0] };

static void test_critical_path_hand_worked(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "gpipe", .P = 2, .M = 2, .p2p = 0.5});
    assert_same_double(x.tl.makespan, 10);
    inspect in;
    inspect_init(&in, &x.tl);
    inspect_path p;
    inspect_path_init(&p, &in);
    assert_path(&x.tl, &p, GPIPE_PATH, GPIPE_STEPS);
    assert_int_equal(p.actions, 6);
    assert_int_equal(p.transfers, 2);
    assert_int_equal(p.allreduces, 0);
    inspect_path_deinit(&p);
    inspect_deinit(&in);
    run_fixture_deinit(&x);

    /* D=2 with all-reduces of 3: stage 1's starts when 1B1 ends (7.5) and
     * ends at 10.5, stage 0's at 0B1's end (10) and ends at 13, the
     * makespan: the same chain, then stage 0's all-reduce. Stage 1's runs
     * 2.5 under compute (the last ends at 10), stage 0's none. */
    run_fixture_init(&x,
                     &(run_fixture_desc){
                         .schedule = "gpipe", .P = 2, .M = 2, .D = 2, .p2p = 0.5, .allreduce = 3});
    assert_same_double(x.tl.makespan, 13);
    inspect_init(&in, &x.tl);
    inspect_path_init(&p, &in);
    want_step with_ar[GPIPE_STEPS + 1];
    memcpy(with_ar, GPIPE_PATH, sizeof GPIPE_PATH);
    with_ar[GPIPE_STEPS] = (want_step){INSPECT_STEP_ALLREDUCE, NULL, 0, 10, 13};
    assert_path(&x.tl, &p, with_ar, GPIPE_STEPS + 1);
    assert_int_equal(x.tl.allreduces[p.steps[GPIPE_STEPS].index].stage, 0);
    for (int k = 0; k < x.tl.allreduce_count; k++) {
        inspect_allreduce ar;
        inspect_allreduce_at(&in, k, &ar);
        assert_int_equal(ar.replicas, 2);
        assert_same_double(ar.hidden, ar.stage == 1 ? 2.5 : 0);
        assert_same_double(ar.exposed, ar.stage == 1 ? 0.5 : 3);
        inspect_text t;
        inspect_text_allreduce(&in, k, &t);
        assert_true(has_line(&t, ar.stage == 1 ? "hidden 2.50 behind compute"
                                               : "hidden 0.00 behind compute"));
    }
    inspect_path_deinit(&p);
    inspect_deinit(&in);
    run_fixture_deinit(&x);
}

/* ---- random programs ------------------------------------------------------- */

static uint64_t rng_state;
static uint64_t rng_next(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
static int rng_int(int lo, int hi)
{
    return lo + (int)(rng_next() % (uint64_t)(hi - lo + 1));
}
static double rng_real(double lo, double hi)
{
    return lo + (hi - lo) * (double)(rng_next() >> 11) / (double)(1ULL << 53);
}

/* Whether `from` is one of the inputs of action (rank, index). */
static bool is_input(const inspect *in, int from_rank, int from_index, int rank, int index)
{
    inspect_action a;
    inspect_action_at(in, rank, index, &a);
    for (int k = 0; k < a.in_count; k++)
        if (a.in[k].rank == from_rank && a.in[k].index == from_index)
            return true;
    return false;
}

static void check_path(const inspect *in, const inspect_path *p, const char *what)
{
    const timeline *tl = in->tl;
    if (p->count < 1 || p->steps[0].start != 0 || p->steps[p->count - 1].end != tl->makespan)
        fail_msg("%s: the path does not run from 0 to the makespan", what);
    for (int k = 0; k < p->count; k++) {
        const inspect_step *s = &p->steps[k];
        if (k > 0 && p->steps[k - 1].end != s->start)
            fail_msg("%s: step %d starts at %.17g, the one before ends at %.17g", what, k, s->start,
                     p->steps[k - 1].end);
        if (s->kind == INSPECT_STEP_ACTION) {
            const action_time *at = &tl->time[s->rank][s->index];
            if (at->start != s->start || at->end != s->end)
                fail_msg("%s: step %d is not its action's span", what, k);
        }
        if (k == 0)
            continue;
        const inspect_step *b = &p->steps[k - 1];
        bool ok = false;
        if (s->kind == INSPECT_STEP_ACTION && b->kind == INSPECT_STEP_ACTION)
            ok = (b->rank == s->rank &&
                  timeline_prev_compute(tl, s->rank, s->index - 1) == b->index) ||
                 is_input(in, b->rank, b->index, s->rank, s->index);
        else if (s->kind == INSPECT_STEP_P2P)
            ok = b->kind == INSPECT_STEP_ACTION && b->rank == s->rank && b->index == s->index &&
                 s->dst_rank != s->rank && k + 1 < p->count &&
                 p->steps[k + 1].kind == INSPECT_STEP_ACTION &&
                 p->steps[k + 1].rank == s->dst_rank &&
                 is_input(in, s->rank, s->index, s->dst_rank, p->steps[k + 1].index);
        else if (s->kind == INSPECT_STEP_ACTION && b->kind == INSPECT_STEP_P2P)
            ok = true; /* checked with the transfer */
        else if (s->kind == INSPECT_STEP_ALLREDUCE) {
            const transfer *x = &tl->allreduces[s->index];
            if (b->kind == INSPECT_STEP_ALLREDUCE)
                ok = tl->allreduces[b->index].src_rank == x->src_rank;
            else if (b->kind == INSPECT_STEP_ACTION) {
                const action *a = &tl->program->rank[b->rank].actions[b->index];
                const int stage = a->kind == ACTION_OVERLAP_F_B ? a->stage2 : a->stage;
                ok = b->rank == x->src_rank && stage == x->stage &&
                     (a->kind == ACTION_B || a->kind == ACTION_W || a->kind == ACTION_OVERLAP_F_B);
            }
        }
        if (!ok)
            fail_msg("%s: step %d (kind %d, rank %d, index %d) does not follow step %d (kind %d, "
                     "rank %d, index %d)",
                     what, k, s->kind, s->rank, s->index, k - 1, b->kind, b->rank, b->index);
    }
}

static void test_random_paths(void **state)
{
    (void)state;
    rng_state = 0x2545F4914F6CDD1DULL;
    int n_schedules;
    const schedule_info *list = schedule_list(&n_schedules);
    int runs = 0;
    while (runs < 300) {
        const schedule_info *si = &list[rng_int(0, n_schedules - 1)];
        schedule_params sp = {.ranks = rng_int(1, 6), .microbatches = rng_int(1, 16)};
        sp.stages_per_rank = si->max_v ? rng_int(si->min_v, si->max_v) : rng_int(si->min_v, 3);
        if (!schedule_check(si->name, &sp, NULL))
            continue;
        program p;
        ppf_error err = {{0}};
        if (!schedule_generate(si->name, &sp, &p, &err))
            fail_msg("%s: %s", si->name, err.message);
        timeline_costs c;
        timeline_costs_init(&c, p.ranks);
        for (int r = 0; r < p.ranks; r++) {
            c.f[r] = rng_real(0.2, 3);
            c.i[r] = rng_real(0.1, 3);
            c.w[r] = rng_int(0, 4) == 0 ? 0 : rng_real(0, 2);
            c.b[r] = c.i[r] + c.w[r];
            c.fb[r] = rng_real(0.5, 1) * (c.f[r] + c.b[r]);
            c.p2p[r] = rng_int(0, 2) == 0 ? 0 : rng_real(0, 0.7);
        }
        c.dp = rng_int(1, 3);
        if (rng_int(0, 1))
            c.allreduce = (allreduce_cost){.mode = ALLREDUCE_TIME, .time = rng_real(0, 20)};
        timeline tl;
        if (!timeline_simulate(&tl, &p, &c, &err))
            fail_msg("%s: %s", si->name, err.message);
        char what[128];
        snprintf(what, sizeof what, "run %d: %s P=%d M=%d V=%d D=%d", runs, si->name, sp.ranks,
                 sp.microbatches, p.stages_per_rank, c.dp);
        inspect in;
        inspect_init(&in, &tl);
        inspect_path path;
        inspect_path_init(&path, &in);
        check_path(&in, &path, what);
        /* every compute action's start is max(ready, rank free), and its
         * cause says which */
        for (int r = 0; r < p.ranks; r++)
            for (int k = 0; k < p.rank[r].count; k++) {
                if (!action_is_compute((action_kind)p.rank[r].actions[k].kind))
                    continue;
                inspect_action a;
                inspect_action_at(&in, r, k, &a);
                const double want = a.ready > a.rank_free ? a.ready : a.rank_free;
                if (a.start != want || (a.queued != 0 && a.starved != 0))
                    fail_msg("%s: rank %d action %d starts %.17g, ready %.17g, free %.17g", what, r,
                             k, a.start, a.ready, a.rank_free);
            }
        inspect_path_deinit(&path);
        inspect_deinit(&in);
        timeline_deinit(&tl);
        timeline_costs_deinit(&c);
        program_deinit(&p);
        runs++;
    }
}

/* ---- areas against the JSON timeline ---------------------------------------- */

static void check_area(const inspect *in, const cJSON *actions, double t0, double t1, int r0,
                       int r1)
{
    const timeline *tl = in->tl;
    inspect_area a;
    inspect_area_of(in, t0, t1, r0, r1, &a); /* before the test sorts its own copies */
    /* the same sums, from the exported numbers */
    if (r0 > r1) {
        const int r = r0;
        r0 = r1, r1 = r;
    }
    double lo = t0 < t1 ? t0 : t1, hi = t0 < t1 ? t1 : t0;
    lo = lo < 0 ? 0 : lo, hi = hi > tl->makespan ? tl->makespan : hi;
    double busy = 0, per_rank[64] = {0};
    int count[ACTION_KIND_COUNT] = {0};
    const cJSON *e;
    cJSON_ArrayForEach(e, actions)
    {
        const int rank = cJSON_GetObjectItem(e, "rank")->valueint;
        const double s = cJSON_GetObjectItem(e, "start")->valuedouble;
        const double en = cJSON_GetObjectItem(e, "end")->valuedouble;
        const char *kind = cJSON_GetObjectItem(e, "kind")->valuestring;
        if (rank < r0 || rank > r1)
            continue;
        const double cs = s > lo ? s : lo, ce = en < hi ? en : hi;
        if (!(ce > cs || (s == en && s >= lo && s < hi)))
            continue;
        busy += ce > cs ? ce - cs : 0;
        per_rank[rank] += ce > cs ? ce - cs : 0;
        for (int k = ACTION_F; k <= ACTION_OVERLAP_F_B; k++)
            if (strcmp(kind, action_kind_name((action_kind)k)) == 0)
                count[k]++;
    }
    const double width = hi - lo, ranks = r1 - r0 + 1;
    assert_near(a.busy, busy, 1e-9);
    assert_near(a.idle, width * ranks - busy, 1e-9);
    assert_near(a.bubble, (width * ranks - busy) / (width * ranks), 1e-9);
    for (int k = ACTION_F; k <= ACTION_OVERLAP_F_B; k++)
        assert_int_equal(a.count[k], count[k]);
    for (int r = r0; r <= r1; r++) {
        inspect_area_rank x = inspect_area_rank_of(in, r, t0, t1);
        assert_near(x.busy, per_rank[r], 1e-9);
        assert_near(x.idle, width - per_rank[r], 1e-9);
    }
}

static void test_area_from_json(void **state)
{
    (void)state;
    static const run_fixture_desc cases[] = {
        {.schedule = "1f1b", .P = 4, .M = 8, .p2p = 0.5},
        {.schedule = "zb-h1", .P = 4, .M = 8, .p2p = 0.3},
        {.schedule = "interleaved-1f1b", .P = 4, .M = 8, .V = 2, .p2p = 0.2},
        {.schedule = "zb-v", .P = 3, .M = 6, .p2p = 0.1, .D = 2, .allreduce = 2},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        run_fixture x = {0};
        run_fixture_init(&x, &cases[c]);
        char *json = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&json, &len);
        assert_non_null(f);
        export_timeline_json(&x.tl, f);
        fclose(f);
        cJSON *doc = cJSON_Parse(json);
        assert_non_null(doc);
        const cJSON *actions = cJSON_GetObjectItem(doc, "actions");
        assert_non_null(actions);
        inspect in;
        inspect_init(&in, &x.tl);
        const double T = x.tl.makespan;
        const int P = x.p.ranks;
        check_area(&in, actions, 0, T, 0, P - 1); /* the whole: the timeline's metrics */
        inspect_area whole;
        inspect_area_of(&in, 0, T, 0, P - 1, &whole);
        assert_near(whole.busy, x.tl.busy, 1e-9);
        assert_near(whole.bubble, x.tl.bubble_fraction, 1e-12);
        check_area(&in, actions, T * 0.2, T * 0.55, 1, P - 2);
        check_area(&in, actions, T * 0.7, T * 0.3, P - 1, 0); /* either order */
        check_area(&in, actions, -5, T * 0.1, 2, 2);
        check_area(&in, actions, T * 0.9, T + 5, 0, 0);
        for (int k = 0; k < 20; k++) { /* at action boundaries too */
            const cJSON *e = cJSON_GetArrayItem(actions, k * 3);
            const double s = cJSON_GetObjectItem(e, "start")->valuedouble;
            check_area(&in, actions, s, s + T / 7, 0, P - 1);
        }
        inspect_text t;
        inspect_text_area(&in, &whole, &t);
        assert_ge(t.count, 3);
        inspect_deinit(&in);
        cJSON_Delete(doc);
        free(json);
        run_fixture_deinit(&x);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_1f1b_hand_worked),
        cmocka_unit_test(test_critical_path_hand_worked),
        cmocka_unit_test(test_random_paths),
        cmocka_unit_test(test_area_from_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
