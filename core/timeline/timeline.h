/* timeline.h - the timing simulation of one training iteration, and its metrics.
 *
 * timeline_simulate() runs a validated program under a cost model and
 * records when every action starts and ends and every gradient all-reduce,
 * then derives the metrics. p2p transfers are not stored (half a million of
 * them at P=64, M=2048): each follows from its producing action's end, so
 * timeline_next_p2p() derives them on demand. The rules, which the viewer,
 * the exporters and users rely on:
 *
 *  1. Every rank runs its actions in program order; an action starts at
 *     max(the rank is free, its dependencies are done). Idle steps and
 *     communication markers (SEND/RECV/UNSHARD/RESHARD/REDUCE_GRAD) take no time.
 *  2. F(s,m) needs F(s-1,m) (s > 0). B(s,m) and I(s,m) need B-or-I(s+1,m)
 *     (s < last) and F(s,m). W(s,m) needs I(s,m). When the two stages of a
 *     dependency run on different ranks the p2p time is added (the producing
 *     rank's p2p cost); on the same rank (a V schedule's turn) nothing is.
 *     An overlapped F+B pair starts when both halves' dependencies are met
 *     and runs for the rank's F&B cost.
 *  3. A p2p transfer takes no compute time on either rank: it is an event
 *     [producer end, producer end + p2p] (the producing rank's p2p cost) from
 *     the producing to the consuming rank, one for every cross-rank output:
 *     F(s,m) with s < last and stage s+1 on another rank (TRANSFER_P2P_F), B
 *     or I(s,m) with s > 0 and stage s-1 on another rank (TRANSFER_P2P_B); an
 *     overlapped pair's halves count as an F and a B. Derived, not stored:
 *     see timeline_next_p2p().
 *  4. With D > 1 data-parallel replicas, each stage's gradient all-reduce
 *     starts when the stage's last weight-gradient work (its last B or W) is
 *     done and its rank's communication stream is free (one stream per rank:
 *     a rank's all-reduces run one after another), and takes no compute time.
 *     It lasts the given time, or under the bytes/bandwidth model
 *         ring: 2(D-1)/D x bytes / bandwidth + 2(D-1) x latency
 *         tree: 2 x bytes / bandwidth + 2 ceil(log2 D) x latency  (pipelined double binary tree)
 *     The time and the bytes cover a rank's whole share of the model, so each
 *     of V stages on a rank all-reduces bytes/V (time/V).
 *  5. Costs are per pipeline rank and cover the rank's whole share of the
 *     model: each of a rank's V stages runs at cost/V. Defaults F=1, B=2,
 *     I=W=B/2, F&B=F+B, p2p=0.
 *  6. The iteration ends when all compute and all all-reduces have ended
 *     (every p2p transfer ends no later than its consumer starts).
 *     A program that cannot finish is a deadlock: timeline_simulate returns
 *     false and names each stuck rank, the action it is at and what it waits for.
 *
 * The code of these rules that the questions about a timeline share (when an
 * output arrives, which actions allocate and free activations, where an
 * output goes) is in timeline_query.h, with the questions themselves.
 *
 * Metrics: makespan; bubble_fraction = idle / (P x makespan); bubble_ratio =
 * idle / busy; per rank busy, idle and peak live activations, counting each
 * (stage, micro-batch) live from the start of its F until the end of its last
 * backward part (B, or W when split); the all-reduce time not hidden behind
 * compute (makespan - end of the last compute).
 */
#ifndef PPFLOW_TIMELINE_H
#define PPFLOW_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "program.h"

typedef enum allreduce_mode {
    ALLREDUCE_NONE = 0, /* no all-reduce time (the default; events still recorded when D > 1) */
    ALLREDUCE_TIME,     /* a given time per rank's share */
    ALLREDUCE_RING,     /* bytes/bandwidth, ring */
    ALLREDUCE_TREE,     /* bytes/bandwidth, tree */
} allreduce_mode;

typedef struct allreduce_cost {
    allreduce_mode mode;
    double time;      /* ALLREDUCE_TIME: time units per rank's share */
    double bytes;     /* RING/TREE: gradient bytes per rank's share */
    double bandwidth; /* RING/TREE: bytes per time unit */
    double latency;   /* RING/TREE: time units per step */
} allreduce_cost;

/* Per-rank costs, already resolved (defaults applied, one value per rank). */
typedef struct timeline_costs {
    int ranks;
    double *f, *b, *i, *w, *fb, *p2p; /* [ranks] each */
    allreduce_cost allreduce;
    int dp; /* D >= 1 */
} timeline_costs;

/* The textbook's costs, and the scenario's defaults (scenario.c's field
 * table reads them): a backward costs twice a forward. */
#define TIMELINE_DEFAULT_F 1.0
#define TIMELINE_DEFAULT_B 2.0

/* Allocates per-rank arrays filled with the defaults (F, B as above, I = W =
 * B/2, F&B = F + B, p2p = 0, no all-reduce time, D = 1). */
void timeline_costs_init(timeline_costs *c, int ranks);
void timeline_costs_deinit(timeline_costs *c);

/* Time of one stage's all-reduce under the cost (0 when D == 1). */
double allreduce_stage_time(const allreduce_cost *c, int dp, int stages_per_rank);

typedef struct action_time {
    double start, end; /* end == start for actions that take no time */
} action_time;

typedef enum transfer_kind {
    TRANSFER_P2P_F = 0, /* activation from stage s to s+1 */
    TRANSFER_P2P_B,     /* gradient from stage s to s-1 */
    TRANSFER_ALLREDUCE, /* stage's gradients across the D replicas */
} transfer_kind;

/* One communication event: an all-reduce stored in the timeline, or a p2p
 * transfer filled in by timeline_next_p2p(). 32 bytes. */
typedef struct transfer {
    double start, end;
    int32_t stage;      /* producing stage (all-reduce: the stage reduced) */
    int32_t microbatch; /* -1 for an all-reduce */
    uint16_t src_rank;  /* equal to dst_rank for an all-reduce (its rank) */
    uint16_t dst_rank;  /* ranks fit: a program has at most PROGRAM_MAX_RANKS */
    uint8_t kind;       /* transfer_kind */
} transfer;

typedef struct rank_metrics {
    double busy;          /* compute time */
    double idle;          /* makespan - busy */
    double compute_end;   /* end of the rank's last compute */
    int peak_activations; /* most (stage, micro-batch) pairs live at once */
} rank_metrics;

typedef struct timeline {
    const program *program; /* not owned; must outlive the timeline */
    action_time **time;     /* [rank][action index], parallel to program->rank[r].actions;
                               the ranks' arrays share one allocation, time[0] */
    transfer *allreduces;   /* [allreduce_count] all-reduces only (one per stage when
                               D > 1, none otherwise), in order of the stages'
                               readiness (their last B or W done); p2p
                               transfers come from timeline_next_p2p() */
    int allreduce_count;
    double *p2p;            /* [ranks] copy of the costs' p2p time, for deriving transfers */
    int p2p_count;          /* number of p2p transfers timeline_next_p2p() yields */
    rank_metrics *per_rank; /* [ranks] */
    double makespan;
    double compute_end;       /* end of the last compute action */
    double busy, idle;        /* sums over ranks */
    double bubble_fraction;   /* idle / (ranks x makespan) */
    double bubble_ratio;      /* idle / busy */
    double allreduce_exposed; /* makespan - compute_end */
    int dp;
    /* Which build this is, for whatever keeps something made from it (a
     * renderer's arrays, a kept image): a timeline rebuilt at the same
     * address has another generation, so a cache keyed on (address,
     * generation) cannot outlive it. Set by the timeline's owner after
     * timeline_simulate (session.h stamps every build with a number never
     * used before); 0: not stamped, and caches follow the address alone. */
    uint64_t generation;
} timeline;

/* Simulates a validated program. On a deadlock returns false with a message
 * naming every stuck rank, its action and the dependency it waits for, and
 * leaves *tl zeroed; likewise when the costs make the iteration longer than
 * BUDGET_MAX_TIME or not finite (budget.h), so every time in a timeline is
 * a finite number. */
bool timeline_simulate(timeline *tl, const program *p, const timeline_costs *c, ppf_error *err);
void timeline_deinit(timeline *tl); /* accepts a zeroed or deinited timeline */

/* Where a walk over the p2p transfers stands. Zero-initialise it to start:
 *     p2p_cursor cur = {0}; transfer x;
 *     while (timeline_next_p2p(tl, &cur, &x)) ...
 * The fields are the walk's own (the rank, the action index in the rank's
 * program and which half of an overlapped pair comes next). */
typedef struct p2p_cursor {
    int rank, index, half;
} p2p_cursor;

/* Fills *out with the next p2p transfer and returns true, or returns false
 * when there are no more (at once for a zeroed timeline). Order: rank by
 * rank, each rank's in program order of the producing actions, an overlapped
 * pair's F half before its B half. Yields tl->p2p_count transfers in all,
 * allocates nothing and reads only the program and the action times. */
bool timeline_next_p2p(const timeline *tl, p2p_cursor *cur, transfer *out);

/* Duration of an action on a rank under the costs (0 for non-compute); counts
 * the rank's stages each call, so it is for one-off questions, not loops. */
double timeline_action_cost(const timeline_costs *c, const program *p, int rank, const action *a);

#endif
