#include "timeline.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget.h"
#include "timeline_query.h"

void timeline_costs_init(timeline_costs *c, int ranks)
{
    assert(ranks >= 1);
    *c = (timeline_costs){.ranks = ranks, .dp = 1};
    double **lists[] = {&c->f, &c->b, &c->i, &c->w, &c->fb, &c->p2p};
    const double f = TIMELINE_DEFAULT_F, b = TIMELINE_DEFAULT_B;
    const double defaults[] = {f, b, b / 2, b / 2, f + b, 0.0};
    for (int k = 0; k < 6; k++) {
        *lists[k] = ppf_malloc(sizeof(double) * (size_t)ranks);
        for (int r = 0; r < ranks; r++)
            (*lists[k])[r] = defaults[k];
    }
}

void timeline_costs_deinit(timeline_costs *c)
{
    free(c->f);
    free(c->b);
    free(c->i);
    free(c->w);
    free(c->fb);
    free(c->p2p);
    memset(c, 0, sizeof *c);
}

double allreduce_stage_time(const allreduce_cost *c, int dp, int stages_per_rank)
{
    if (dp <= 1)
        return 0.0;
    const double v = stages_per_rank > 0 ? stages_per_rank : 1;
    switch (c->mode) {
    case ALLREDUCE_NONE:
        return 0.0;
    case ALLREDUCE_TIME:
        return c->time / v;
    case ALLREDUCE_RING:
        return 2.0 * (dp - 1) / dp * (c->bytes / v) / c->bandwidth + 2.0 * (dp - 1) * c->latency;
    case ALLREDUCE_TREE:
        return 2.0 * (c->bytes / v) / c->bandwidth + 2.0 * ceil(log2((double)dp)) * c->latency;
    }
    return 0.0;
}

/* Number of stages each rank holds: a rank's costs are shared among them. */
static int *stages_held(const program *p)
{
    int *held = ppf_calloc((size_t)p->ranks, sizeof(int));
    for (int s = 0; s < p->stages; s++)
        if (p->stage_rank[s] >= 0)
            held[p->stage_rank[s]]++;
    for (int r = 0; r < p->ranks; r++)
        if (held[r] == 0)
            held[r] = 1;
    return held;
}

static double action_cost(const timeline_costs *c, int rank, int held, const action *a)
{
    double per_rank;
    switch (a->kind) {
    case ACTION_F:
        per_rank = c->f[rank];
        break;
    case ACTION_B:
        per_rank = c->b[rank];
        break;
    case ACTION_I:
        per_rank = c->i[rank];
        break;
    case ACTION_W:
        per_rank = c->w[rank];
        break;
    case ACTION_OVERLAP_F_B:
        per_rank = c->fb[rank];
        break;
    default:
        return 0.0;
    }
    return per_rank / held;
}

double timeline_action_cost(const timeline_costs *c, const program *p, int rank, const action *a)
{
    int *held = stages_held(p); /* the simulator's own count, so the two never differ */
    double cost = action_cost(c, rank, held[rank], a);
    free(held);
    return cost;
}

/* --- the simulation ---------------------------------------------------- */

enum { DEP_F = 0, DEP_BI = 1 };               /* what a waiting rank waits for */
enum { KIND_COSTS = ACTION_OVERLAP_F_B + 1 }; /* kinds 0 (idle) .. OVERLAP_F_B */

/* Everything the simulator knows about one (stage, micro-batch), kept in one
 * place because the dependency checks touch all of it together. */
typedef struct sim_cell {
    double f_end;   /* end of F(s,m), or -1 */
    double bi_end;  /* end of B(s,m) or I(s,m), or -1 */
    int waiters[2]; /* first rank + 1 waiting on F / on B-or-I, 0 if none */
} sim_cell;

typedef struct sim {
    const program *p;
    const timeline_costs *c;
    timeline *tl;
    int S, M;
    int *held;         /* [ranks] stages per rank */
    double *kind_cost; /* [ranks * KIND_COSTS]: duration of each compute kind on the rank */
    int *live;         /* [ranks] live (stage, micro-batch) activations now */
    sim_cell *cells;   /* [S*M] */
    int *next_waiter;  /* [ranks] next rank + 1 on the same waiting list */
    int *ready;        /* stack of ranks that may advance */
    int ready_count;
    int *pc;           /* [ranks] next action index */
    double *free_at;   /* [ranks] when the rank's compute is free */
    double *wgrad_end; /* [S] end of the stage's last B or W */
    int *wait_kind;    /* [ranks] what a stuck rank waits for (deadlock report) */
    size_t *wait_cell;
} sim;

static size_t cell(const sim *s, int stage, int mb)
{
    return (size_t)stage * (size_t)s->M + (size_t)mb;
}

static void wake(sim *s, int kind, size_t at)
{
    int w = s->cells[at].waiters[kind];
    s->cells[at].waiters[kind] = 0;
    while (w) {
        int r = w - 1;
        w = s->next_waiter[r];
        s->next_waiter[r] = 0;
        s->ready[s->ready_count++] = r;
    }
}

/* The time at which a dependency's output is usable on `rank`, or -1 with the
 * rank registered as waiting on it. */
static double dep_ready(sim *s, int rank, int kind, int stage, int mb)
{
    size_t at = cell(s, stage, mb);
    double end = kind == DEP_F ? s->cells[at].f_end : s->cells[at].bi_end;
    if (end < 0) {
        s->next_waiter[rank] = s->cells[at].waiters[kind];
        s->cells[at].waiters[kind] = rank + 1;
        s->wait_kind[rank] = kind;
        s->wait_cell[rank] = at;
        return -1;
    }
    return timeline_arrival(s->c->p2p, s->p->stage_rank[stage], rank, end);
}

/* Earliest start allowed by the dependencies of one compute half, or -1. */
static double half_ready(sim *s, int rank, action_kind kind, int stage, int mb)
{
    const int in = timeline_input_stage(s->p, kind, stage); /* the other stage it needs */
    double t = 0, d;
    switch (kind) {
    case ACTION_F:
        if (in >= 0 && (t = dep_ready(s, rank, DEP_F, in, mb)) < 0)
            return -1;
        return t;
    case ACTION_B:
    case ACTION_I:
        if (in >= 0 && (t = dep_ready(s, rank, DEP_BI, in, mb)) < 0)
            return -1;
        if ((d = dep_ready(s, rank, DEP_F, stage, mb)) < 0)
            return -1;
        return t > d ? t : d;
    case ACTION_W:
        return dep_ready(s, rank, DEP_BI, stage, mb);
    default:
        return 0;
    }
}

/* Records the completion of one compute half that ends at `end`. Its p2p
 * transfer, if any, is only counted: timeline_next_p2p() derives it later. */
static void complete_half(sim *s, int rank, action_kind kind, int stage, int mb, double end)
{
    const program *p = s->p;
    size_t at = cell(s, stage, mb);
    const int to = timeline_output_stage(p, kind, stage);
    s->tl->p2p_count += to >= 0 && p->stage_rank[to] != rank;
    if (kind == ACTION_F) {
        s->cells[at].f_end = end;
        wake(s, DEP_F, at);
    } else if (kind == ACTION_B || kind == ACTION_I) {
        s->cells[at].bi_end = end;
        wake(s, DEP_BI, at);
    }
    if (kind == ACTION_B || kind == ACTION_W)
        if (end > s->wgrad_end[stage])
            s->wgrad_end[stage] = end;
}

/* Runs rank r forward until it finishes or waits on a dependency. Busy time,
 * compute end and peak live activations are counted on the way: a rank runs
 * one action at a time, so every earlier action has ended (and freed what it
 * frees) before the next one starts, which is the "free before allocate at
 * the same instant" rule of timeline.h. */
static void advance(sim *s, int r)
{
    const program_rank *pr = &s->p->rank[r];
    action_time *times = s->tl->time[r];
    rank_metrics *m = &s->tl->per_rank[r];
    const double *cost = &s->kind_cost[(size_t)r * KIND_COSTS];
    double now = s->free_at[r];
    while (s->pc[r] < pr->count) {
        const int k = s->pc[r];
        const action *a = &pr->actions[k];
        if (!action_is_compute((action_kind)a->kind)) {
            times[k] = (action_time){now, now};
            s->pc[r]++;
            continue;
        }
        double start = now, t;
        if (a->kind == ACTION_OVERLAP_F_B) {
            if ((t = half_ready(s, r, ACTION_F, a->stage, a->microbatch)) < 0)
                break;
            start = t > start ? t : start;
            if ((t = half_ready(s, r, ACTION_B, a->stage2, a->microbatch2)) < 0)
                break;
            start = t > start ? t : start;
        } else {
            if ((t = half_ready(s, r, (action_kind)a->kind, a->stage, a->microbatch)) < 0)
                break;
            start = t > start ? t : start;
        }
        const double end = start + cost[a->kind];
        times[k] = (action_time){start, end};
        now = end;
        m->busy += end - start;
        m->compute_end = end;
        s->pc[r]++;
        if (timeline_kind_allocates(a->kind)) {
            if (++s->live[r] > m->peak_activations)
                m->peak_activations = s->live[r];
        }
        if (a->kind == ACTION_OVERLAP_F_B) {
            complete_half(s, r, ACTION_F, a->stage, a->microbatch, end);
            complete_half(s, r, ACTION_B, a->stage2, a->microbatch2, end);
        } else {
            complete_half(s, r, (action_kind)a->kind, a->stage, a->microbatch, end);
        }
        if (timeline_kind_frees(a->kind))
            s->live[r]--;
    }
    s->free_at[r] = now;
}

/* Whether the program splits the backward of (stage, mb) into I and W. */
static bool backward_is_split(const program *p, int stage, int mb)
{
    const program_rank *pr = &p->rank[p->stage_rank[stage]];
    for (int k = 0; k < pr->count; k++)
        if (pr->actions[k].kind == ACTION_I && pr->actions[k].stage == stage &&
            pr->actions[k].microbatch == mb)
            return true;
    return false;
}

/* One line naming every stuck rank, its action and what it waits for. */
static bool report_deadlock(const sim *s, ppf_error *err)
{
    char msg[PPF_ERROR_MAX];
    size_t n = (size_t)snprintf(msg, sizeof msg, "deadlock, the program cannot finish:");
    int stuck = 0, shown = 0;
    for (int r = 0; r < s->p->ranks; r++) {
        if (s->pc[r] >= s->p->rank[r].count)
            continue;
        stuck++;
        if (n + 120 >= sizeof msg)
            continue;
        char here[ACTION_TEXT_MAX], need[ACTION_TEXT_MAX];
        action_format(&s->p->rank[r].actions[s->pc[r]], here);
        int stage = (int)(s->wait_cell[r] / (size_t)s->M),
            mb = (int)(s->wait_cell[r] % (size_t)s->M);
        action dep = action_make(s->wait_kind[r] == DEP_F             ? ACTION_F
                                 : backward_is_split(s->p, stage, mb) ? ACTION_I
                                                                      : ACTION_B,
                                 stage, mb);
        action_format(&dep, need);
        n += (size_t)snprintf(msg + n, sizeof msg - n,
                              "%s rank %d at step %d (%s) waits for %s on rank %d",
                              shown ? ";" : "", r, s->pc[r], here, need, s->p->stage_rank[stage]);
        shown++;
    }
    if (stuck > shown && n + 32 < sizeof msg)
        snprintf(msg + n, sizeof msg - n, "; and %d more ranks", stuck - shown);
    return ppf_fail(err, "%s", msg);
}

static void compute_metrics(sim *s)
{
    timeline *tl = s->tl;
    const program *p = s->p;
    double compute_end = 0;
    for (int r = 0; r < p->ranks; r++)
        if (tl->per_rank[r].compute_end > compute_end)
            compute_end = tl->per_rank[r].compute_end;
    tl->compute_end = compute_end;
    /* p2p transfers need no look: in a validated program each has a consumer,
     * which starts no earlier than the transfer's end. */
    tl->makespan = compute_end;
    for (int t = 0; t < tl->allreduce_count; t++)
        if (tl->allreduces[t].end > tl->makespan)
            tl->makespan = tl->allreduces[t].end;
    tl->busy = tl->idle = 0;
    for (int r = 0; r < p->ranks; r++) {
        rank_metrics *m = &tl->per_rank[r];
        m->idle = tl->makespan - m->busy;
        tl->busy += m->busy;
        tl->idle += m->idle;
    }
    tl->bubble_fraction = tl->makespan > 0 ? tl->idle / (p->ranks * tl->makespan) : 0;
    tl->bubble_ratio = tl->busy > 0 ? tl->idle / tl->busy : 0;
    tl->allreduce_exposed = tl->makespan - compute_end;
}

/* Each stage's all-reduce starts when its last B or W is done and its rank's
 * communication stream is free; a rank's stages go in order of readiness. */
static void schedule_allreduces(sim *s)
{
    const program *p = s->p;
    if (s->c->dp <= 1)
        return;
    s->tl->allreduces = ppf_malloc(sizeof(transfer) * (size_t)p->stages);
    int *order = ppf_malloc(sizeof(int) * (size_t)p->stages);
    double *stream_free = ppf_calloc((size_t)p->ranks, sizeof(double));
    for (int k = 0; k < p->stages; k++)
        order[k] = k;
    /* insertion sort by readiness: stages are few and nearly sorted */
    for (int k = 1; k < p->stages; k++) {
        int v = order[k], j = k;
        while (j > 0 && s->wgrad_end[order[j - 1]] > s->wgrad_end[v]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = v;
    }
    for (int k = 0; k < p->stages; k++) {
        int st = order[k], r = p->stage_rank[st];
        double start = s->wgrad_end[st] > stream_free[r] ? s->wgrad_end[st] : stream_free[r];
        double end = start + allreduce_stage_time(&s->c->allreduce, s->c->dp, s->held[r]);
        stream_free[r] = end;
        s->tl->allreduces[s->tl->allreduce_count++] = (transfer){.kind = TRANSFER_ALLREDUCE,
                                                                 .src_rank = (uint16_t)r,
                                                                 .dst_rank = (uint16_t)r,
                                                                 .stage = st,
                                                                 .microbatch = -1,
                                                                 .start = start,
                                                                 .end = end};
    }
    free(stream_free);
    free(order);
}

static void sim_free(sim *s)
{
    free(s->held);
    free(s->kind_cost);
    free(s->live);
    free(s->cells);
    free(s->next_waiter);
    free(s->ready);
    free(s->pc);
    free(s->free_at);
    free(s->wgrad_end);
    free(s->wait_kind);
    free(s->wait_cell);
}

bool timeline_simulate(timeline *tl, const program *p, const timeline_costs *c, ppf_error *err)
{
    assert(c->ranks == p->ranks);
    memset(tl, 0, sizeof *tl);
    tl->program = p;
    tl->dp = c->dp;
    const size_t cells = (size_t)p->stages * (size_t)p->microbatches;
    sim s = {.p = p, .c = c, .tl = tl, .S = p->stages, .M = p->microbatches};
    s.held = stages_held(p);
    s.kind_cost = ppf_calloc((size_t)p->ranks * KIND_COSTS, sizeof(double));
    for (int r = 0; r < p->ranks; r++)
        for (int k = ACTION_F; k < KIND_COSTS; k++)
            s.kind_cost[(size_t)r * KIND_COSTS + (size_t)k] =
                action_cost(c, r, s.held[r], &(action){.kind = (uint8_t)k});
    s.live = ppf_calloc((size_t)p->ranks, sizeof(int));
    s.cells = ppf_malloc_large(sizeof(sim_cell) * cells);
    for (size_t k = 0; k < cells; k++)
        s.cells[k] = (sim_cell){.f_end = -1, .bi_end = -1};
    s.next_waiter = ppf_calloc((size_t)p->ranks, sizeof(int));
    s.ready = ppf_malloc(sizeof(int) * (size_t)p->ranks);
    s.pc = ppf_calloc((size_t)p->ranks, sizeof(int));
    s.free_at = ppf_calloc((size_t)p->ranks, sizeof(double));
    s.wgrad_end = ppf_calloc((size_t)p->stages, sizeof(double));
    s.wait_kind = ppf_calloc((size_t)p->ranks, sizeof(int));
    s.wait_cell = ppf_calloc((size_t)p->ranks, sizeof(size_t));
    tl->time = ppf_calloc((size_t)p->ranks, sizeof(action_time *));
    tl->per_rank = ppf_calloc((size_t)p->ranks, sizeof(rank_metrics));
    tl->time[0] = ppf_malloc_large(sizeof(action_time) * (size_t)(program_action_count(p) + 1));
    for (int r = 1; r < p->ranks; r++)
        tl->time[r] = tl->time[r - 1] + p->rank[r - 1].count;
    tl->p2p = ppf_malloc(sizeof(double) * (size_t)p->ranks);
    memcpy(tl->p2p, c->p2p, sizeof(double) * (size_t)p->ranks);
    /* Ranks start in reverse so the stack pops rank 0 first: only the order
     * of work, never the result, depends on it. */
    for (int r = p->ranks - 1; r >= 0; r--)
        s.ready[s.ready_count++] = r;
    while (s.ready_count > 0)
        advance(&s, s.ready[--s.ready_count]);

    for (int r = 0; r < p->ranks; r++) {
        if (s.pc[r] < p->rank[r].count) {
            report_deadlock(&s, err);
            sim_free(&s);
            timeline_deinit(tl);
            return false;
        }
    }
    schedule_allreduces(&s);
    compute_metrics(&s);
    sim_free(&s);
    /* Finite costs can sum to infinity (1e308 + 1e308): refuse a timeline
     * that no exporter could write exactly, rather than print inf or nan. */
    if (!budget_check_time(tl->makespan, err)) {
        timeline_deinit(tl);
        return false;
    }
    return true;
}

void timeline_deinit(timeline *tl)
{
    if (tl->time)
        free(tl->time[0]);
    free(tl->time);
    free(tl->allreduces);
    free(tl->p2p);
    free(tl->per_rank);
    memset(tl, 0, sizeof *tl);
}

/* --- p2p transfers, derived ------------------------------------------- */

bool timeline_next_p2p(const timeline *tl, p2p_cursor *cur, transfer *out)
{
    const program *p = tl->program;
    if (!p)
        return false;
    for (; cur->rank < p->ranks; cur->rank++, cur->index = 0, cur->half = 0) {
        const int r = cur->rank;
        const program_rank *pr = &p->rank[r];
        while (cur->index < pr->count) {
            const int k = cur->index;
            const action *a = &pr->actions[k];
            int kind = a->kind, stage = a->stage, mb = a->microbatch;
            if (kind == ACTION_OVERLAP_F_B) {
                if (cur->half == 0) {
                    kind = ACTION_F;
                    cur->half = 1;
                } else {
                    kind = ACTION_B;
                    stage = a->stage2;
                    mb = a->microbatch2;
                    cur->half = 0;
                    cur->index++;
                }
            } else {
                cur->index++;
            }
            const int consumer = timeline_output_stage(p, (action_kind)kind, stage);
            if (consumer < 0 || p->stage_rank[consumer] == r)
                continue; /* no output, or it stays on the rank (a V schedule's turn) */
            const int to = p->stage_rank[consumer];
            const transfer_kind tk = kind == ACTION_F ? TRANSFER_P2P_F : TRANSFER_P2P_B;
            const double end = tl->time[r][k].end;
            *out = (transfer){.kind = (uint8_t)tk,
                              .src_rank = (uint16_t)r,
                              .dst_rank = (uint16_t)to,
                              .stage = stage,
                              .microbatch = mb,
                              .start = end,
                              .end = timeline_arrival(tl->p2p, r, to, end)};
            return true;
        }
    }
    return false;
}
