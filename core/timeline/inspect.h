/* inspect.h - what an engineer asks of one action, one idle block, one
 * all-reduce, one micro-batch or one area of a simulated timeline, and the
 * chain of work that sets the makespan (the critical path); plus the short
 * lines a details panel shows for each answer.
 *
 * Definitions (they follow the simulator's rules, timeline.h 1-4, and use
 * its own arithmetic, so every time compared here is exactly a time the
 * simulator computed):
 *   - An action's inputs (its producers) are what the simulator waits for:
 *     F(s,m) needs F(s-1,m); B or I(s,m) needs B-or-I(s+1,m) and F(s,m);
 *     W(s,m) needs I(s,m); an overlapped pair needs both halves' inputs. An
 *     input "arrives" at the producer's end, plus the producing rank's p2p
 *     time when it crosses ranks (a transfer). Its consumers are the
 *     actions that list it as an input.
 *   - ready = the latest arrival of its inputs (0 with none); rank_free = the
 *     end of the rank's previous compute action (0 for its first). The
 *     simulator starts it at max(ready, rank_free), so one of
 *         queued  = start - ready      (ready, but its rank was busy)
 *         starved = start - rank_free  (its rank idled, waiting for the input)
 *     is zero. The cause of its start is INPUT when starved > 0, RANK when
 *     queued > 0, NONE when both are 0 (it started the instant both were
 *     ready, or at 0).
 *   - A link's delay is Perfetto's: the consumer's start minus the
 *     producer's end; its p2p time is the transfer alone (arrival - end).
 *   - Critical path: from whatever ends last (an all-reduce when one ends
 *     after the last compute, else the last compute, lowest rank on a tie),
 *     walk back through what made each step start when it did: an action
 *     whose start equals its latest input's arrival goes to that input (and
 *     the transfer between them when it crosses ranks), else to its rank's
 *     previous compute action, which ends exactly at its start; an action
 *     that starts at 0 ends the walk. An all-reduce goes to its stage's last
 *     B or W when it started at that action's end, else to the previous
 *     all-reduce on its rank's stream. On a tie (input arrives the instant
 *     the rank frees) the input is followed: the path then shows the
 *     pipeline's hops. The steps, in time order, cover [0, makespan]
 *     without gaps or overlaps.
 *   - An all-reduce's hidden part is what runs before the last compute
 *     action of the iteration ends (timeline.h's allreduce_exposed counts
 *     the rest): hidden = clamp(compute_end - start, 0, duration).
 *   - An area [t0, t1] x ranks [rank0, rank1] is clipped to [0, makespan]:
 *     busy is compute time inside it, idle the rest, bubble = idle / width;
 *     counts by kind count every compute action that meets the range (a
 *     positive overlap, or a zero-length one at t0 <= start < t1), at full
 *     length, as Perfetto counts; time by kind is clipped to the range.
 *
 * What it does not do: no pixels (render/inspect_overlay.h draws what this
 * finds), no input (the viewer decides what is selected), no clock.
 *
 * Call order:
 *     inspect in; inspect_init(&in, &tl);            index tables, O(actions)
 *     inspect_action_at(&in, rank, index, &a);       ask anything, any order
 *     inspect_path path; inspect_path_init(&path, &in);  ... deinit
 *     inspect_deinit(&in);
 * The timeline (and its program) must outlive the inspect.
 *
 * Errors: none. A rank or index out of range, or a non-compute action
 * where a compute one is asked for, is a programmer's mistake (assert).
 */
#ifndef PPFLOW_INSPECT_H
#define PPFLOW_INSPECT_H

#include <stdbool.h>

#include "timeline.h"
#include "timeline_query.h"

/* Index tables of a timeline: where each (stage, micro-batch)'s work is. */
typedef struct inspect {
    const timeline *tl; /* not owned */
    int stages, microbatches;
    int *f_at;  /* [S x M]: index in the stage's rank's program of F(s,m) (or its pair) */
    int *bi_at; /* [S x M]: of B or I(s,m) (or the pair holding its B half) */
    int *w_at;  /* [S x M]: of W(s,m), or of B(s,m) when the backward is not split */
} inspect;

void inspect_init(inspect *in, const timeline *tl);
void inspect_deinit(inspect *in); /* accepts a zeroed or deinited one */

/* One input or output of an action: the action at the other end. */
typedef struct inspect_link {
    int rank, index;       /* the other action: the producer (inputs) or consumer (outputs) */
    action_kind half;      /* the producing half's kind: F, B or I */
    int stage, microbatch; /* the producing half's stage and micro-batch */
    bool p2p;              /* it crosses ranks: a transfer */
    double sent;           /* the producer's end */
    double arrived;        /* sent + the producing rank's p2p time (sent on the same rank) */
    double consumer_start; /* the consumer's start */
    double p2p_time;       /* arrived - sent */
    double delay;          /* consumer_start - sent (Perfetto's flow delay) */
} inspect_link;

enum { INSPECT_LINKS_MAX = 4 };

typedef enum inspect_cause {
    INSPECT_CAUSE_NONE = 0, /* started at 0, or the instant its inputs and its rank were ready */
    INSPECT_CAUSE_INPUT,    /* its rank was free first: it waited for its latest input */
    INSPECT_CAUSE_RANK,     /* its inputs were there first: it waited for its rank */
} inspect_cause;

/* Everything about one compute action. */
typedef struct inspect_action {
    int rank, index;
    action act; /* the program's action */
    double start, end, duration;
    double ready;     /* latest input arrival; 0 with no inputs */
    double rank_free; /* end of the rank's previous compute action; 0 for its first */
    int prev_index;   /* that action's index, or -1 */
    double queued;    /* start - ready */
    double starved;   /* start - rank_free */
    inspect_cause cause;
    int latest;                         /* the latest-arriving input in in[], or -1 with none */
    inspect_link in[INSPECT_LINKS_MAX]; /* inputs, F half's first */
    int in_count;
    inspect_link out[INSPECT_LINKS_MAX]; /* consumers, F half's first */
    int out_count;
} inspect_action;

/* Fills *out for compute action `index` of `rank`. */
void inspect_action_at(const inspect *in, int rank, int index, inspect_action *out);

/* An idle block of a rank and what it waits for. */
typedef struct inspect_idle {
    int rank;
    double t0, t1;      /* the block: previous compute end (or 0) .. next start (or makespan) */
    timeline_wait wait; /* timeline_idle_wait's answer: the next action, or DONE */
    bool has_awaited;   /* the next action has an input: awaited is the latest */
    inspect_link awaited;
} inspect_idle;

/* The idle block of `rank` holding t; false when the rank computes at t. */
bool inspect_idle_at(const inspect *in, int rank, double t, inspect_idle *out);

/* One all-reduce (an index into tl->allreduces). */
typedef struct inspect_allreduce {
    int index, stage, rank, replicas;
    double start, end, duration;
    double hidden;  /* the part before the iteration's last compute ends */
    double exposed; /* duration - hidden */
} inspect_allreduce;

void inspect_allreduce_at(const inspect *in, int index, inspect_allreduce *out);

/* ---- the critical path ----------------------------------------------------- */

typedef enum inspect_step_kind {
    INSPECT_STEP_ACTION = 0, /* rank, index: a compute action */
    INSPECT_STEP_P2P,        /* rank, index: the producing action; dst_rank: where it goes */
    INSPECT_STEP_ALLREDUCE,  /* index into tl->allreduces; rank: its rank */
} inspect_step_kind;

typedef struct inspect_step {
    inspect_step_kind kind;
    int rank, index;
    int dst_rank; /* P2P only; else rank */
    double start, end;
} inspect_step;

typedef struct inspect_path {
    inspect_step *steps; /* [count], in time order: steps[0].start = 0, each step's end the
                            next one's start, the last end the makespan */
    int count;
    int actions, transfers, allreduces; /* steps of each kind */
} inspect_path;

void inspect_path_init(inspect_path *p, const inspect *in);
void inspect_path_deinit(inspect_path *p); /* accepts a zeroed or deinited one */

/* ---- micro-batches --------------------------------------------------------- */

/* Whether an action works on micro-batch m (either half of an overlapped pair). */
bool inspect_action_has_microbatch(const action *a, int m);

typedef struct inspect_ref {
    int rank, index;
} inspect_ref;

/* Every compute action of micro-batch m, stage by stage (F, then B or I,
 * then W), each once; writes at most cap and returns how many there are. */
int inspect_microbatch_actions(const inspect *in, int m, inspect_ref *out, int cap);

/* ---- live activations ------------------------------------------------------ */

/* The activations live on `rank` at t (timeline_query.h's memory rule: from
 * the F half's start to the end of the backward part that frees it, B, W
 * or a pair's B half), as the allocating actions, in program order; writes
 * at most cap and returns how many there are (= the memory lane's count). */
int inspect_live_at(const inspect *in, int rank, double t, inspect_ref *out, int cap);

/* ---- areas ----------------------------------------------------------------- */

typedef struct inspect_area_rank {
    int rank;
    double busy, idle, bubble; /* clipped to the area; bubble = idle / width */
} inspect_area_rank;

typedef struct inspect_area {
    double t0, t1; /* the range, clipped to [0, makespan] */
    int rank0, rank1;
    double busy, idle, bubble;      /* sums over the ranks; bubble = idle / (ranks x width) */
    int count[ACTION_KIND_COUNT];   /* compute actions meeting the range, by kind */
    double time[ACTION_KIND_COUNT]; /* their time inside the range, by kind */
    int allreduces;                 /* all-reduces of these ranks meeting the range */
} inspect_area;

/* One rank's part of [t0, t1]. */
inspect_area_rank inspect_area_rank_of(const inspect *in, int rank, double t0, double t1);
/* The area [t0, t1] x [rank0, rank1] (either order of both). */
void inspect_area_of(const inspect *in, double t0, double t1, int rank0, int rank1,
                     inspect_area *out);

/* ---- the details panel's lines -------------------------------------------- */

enum { INSPECT_TEXT_LINES = 12, INSPECT_TEXT_LINE = 96 };

/* Short lines, one fact each, the first a title (UTF-8). */
typedef struct inspect_text {
    char line[INSPECT_TEXT_LINES][INSPECT_TEXT_LINE];
    int count;
} inspect_text;

/* "1F3 · forward", "rank 1 · stage 1 · micro-batch 3", "start 12.50 · end
 * 13.50 · 1.00", "waited 8.00 for rank 1 (busy with 1B0)", "ready 4.50 ·
 * rank free 12.50", "from 0F3 on rank 0: p2p 0.50 · delay 8.50", "to 2F3
 * on rank 2: p2p 0.50 · delay 0.50", ... */
void inspect_text_action(const inspect *in, int rank, int index, inspect_text *out);
/* "rank 2 idle 3.00: waiting for 3B0 from rank 3", then the block's span. */
void inspect_text_idle(const inspect *in, const inspect_idle *idle, inspect_text *out);
/* "all-reduce of stage 2", replicas, start, end, hidden and exposed. */
void inspect_text_allreduce(const inspect *in, int index, inspect_text *out);
/* The area's span and ranks, busy, idle and bubble (summed, then per rank
 * while lines last), and counts by kind. */
void inspect_text_area(const inspect *in, const inspect_area *a, inspect_text *out);
/* "rank 1 at 12.50: 3 live activations", then which (the F actions that
 * made them: "1F4 1F5 1F6", several to a line) and the rank's peak. */
void inspect_text_memory(const inspect *in, int rank, double t, inspect_text *out);
/* "critical path 41.00", its actions, transfers and all-reduces. */
void inspect_text_path(const inspect *in, const inspect_path *p, inspect_text *out);

#endif
