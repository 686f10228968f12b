/* timeline_query.h - every question about a simulated timeline, answered in
 * one place: what runs on a rank at t, the next and previous event, when a
 * stage's input is ready, the live activations of a rank over time, what an
 * idle rank waits for, and a one-line description of an action.
 *
 * The scene (state(t), captions), the timeline panel (bars, hover, memory
 * lane) and the viewer (stepping from event to event) all ask here, so that
 * a rule such as "a p2p hop adds the producing rank's p2p time" or "an
 * activation lives from the start of its F to the end of its last backward
 * part" is written once. The rules the simulator itself applies
 * (timeline_arrival, timeline_kind_allocates, timeline_kind_frees) live here
 * too and timeline.c calls them, so a query can never disagree with the
 * simulation it describes.
 *
 * Searches over a rank's actions are binary searches: along a rank's program
 * both starts and ends never decrease (a rank runs one action at a time; idle
 * steps and markers sit, with zero length, at the time they are reached).
 *
 * What it does not do: no simulation (timeline.h), no pixels (render/), no
 * clock (t is always an argument). Only timeline_cells and timeline_memory
 * allocate, once, in their init; every other query allocates nothing and
 * keeps nothing between calls.
 *
 * Call order: simulate (timeline.h), then ask anything; for the per-(stage,
 * micro-batch) table or the memory curves:
 *     timeline_cells cells;   timeline_cells_init(&cells, &tl);   ... deinit
 *     timeline_memory mem;    timeline_memory_init(&mem, &tl);    ... deinit
 * The timeline (and its program) must outlive what is built from it.
 *
 * Errors: none. A rank or index out of range is a programmer's mistake
 * (assert); a zeroed timeline has no events and no ranks.
 */
#ifndef PPFLOW_TIMELINE_QUERY_H
#define PPFLOW_TIMELINE_QUERY_H

#include <stdbool.h>
#include <stddef.h>

#include "timeline.h"

/* ---- the rules, shared with the simulator -------------------------------- */

/* When an output produced at `end` on rank `from` is usable on rank `to`
 * (timeline.h, rules 2 and 3): at once on the same rank (a V schedule's
 * turn), after the producing rank's p2p time across ranks. `p2p` is per
 * rank: a cost model's, or a timeline's copy (tl->p2p). */
static inline double timeline_arrival(const double *p2p, int from, int to, double end)
{
    return from == to ? end : end + p2p[from];
}

/* Live activations (timeline.h, Metrics): a (stage, micro-batch) becomes
 * live when its F (or an overlapped pair's F half) starts, and is freed when
 * its last backward part ends: a B, a W, or an overlapped pair's B half. An
 * I frees nothing: its W still needs the activations. */
static inline bool timeline_kind_allocates(int kind)
{
    return kind == ACTION_F || kind == ACTION_OVERLAP_F_B;
}
static inline bool timeline_kind_frees(int kind)
{
    return kind == ACTION_B || kind == ACTION_W || kind == ACTION_OVERLAP_F_B;
}

/* The stage that consumes the output of one compute half on `stage`: F
 * sends its activation to stage + 1, B and I send their gradient to
 * stage - 1; -1 when there is none (the last stage's F, stage 0's backward,
 * W, anything else). */
static inline int timeline_output_stage(const program *p, action_kind half, int stage)
{
    if (half == ACTION_F)
        return stage < p->stages - 1 ? stage + 1 : -1;
    if (half == ACTION_B || half == ACTION_I)
        return stage > 0 ? stage - 1 : -1;
    return -1;
}
/* The stage whose output one compute half on `stage` waits for: F needs
 * stage - 1's activation, B and I need stage + 1's gradient; -1 when it
 * needs none from another stage (the first stage's F, the last stage's
 * backward, W, anything else). */
static inline int timeline_input_stage(const program *p, action_kind half, int stage)
{
    if (half == ACTION_F)
        return stage > 0 ? stage - 1 : -1;
    if (half == ACTION_B || half == ACTION_I)
        return stage < p->stages - 1 ? stage + 1 : -1;
    return -1;
}

/* ---- searches over one rank's actions ------------------------------------ */

/* The first k in [lo, hi) whose start is > t (after t), or hi. */
int timeline_first_start_after(const timeline *tl, int rank, int lo, int hi, double t);
/* The first k in [lo, hi) whose start is >= t, or hi. */
int timeline_first_start_at_or_after(const timeline *tl, int rank, int lo, int hi, double t);
/* The first k in [lo, hi) whose end is > t, or hi. */
int timeline_first_end_after(const timeline *tl, int rank, int lo, int hi, double t);

/* The first compute action at index k or later, or the rank's count. */
int timeline_next_compute(const timeline *tl, int rank, int k);
/* The last compute action at index k or earlier, or -1. */
int timeline_prev_compute(const timeline *tl, int rank, int k);

/* The index of the compute action running on a rank at t (start <= t <
 * end), or -1 when the rank runs none (zero-length actions never run). */
int timeline_action_at(const timeline *tl, int rank, double t);

/* The last compute action on a rank that started and ended by t (start <=
 * t, end <= t), or -1: what an idle rank did last. */
int timeline_last_compute_ended(const timeline *tl, int rank, double t);

/* The all-reduce running on a rank at t (start <= t < end), an index into
 * tl->allreduces, or -1. */
int timeline_allreduce_at(const timeline *tl, int rank, double t);

/* ---- events -------------------------------------------------------------- */

/* The first event strictly after t (or the last strictly before t) over all
 * ranks: starts and ends of compute actions, starts and ends of all-reduces.
 * False when there is none (a zeroed timeline has none). O(P log n), plus
 * runs of idle steps and markers and a scan of the all-reduces (one per
 * stage). What the viewer's next/previous event keys step to. */
bool timeline_next_event(const timeline *tl, double t, double *out);
bool timeline_prev_event(const timeline *tl, double t, double *out);

/* ---- per (stage, micro-batch) -------------------------------------------- */

/* Timing of one (stage, micro-batch), gathered from the timeline once. */
typedef struct timeline_cell {
    double f_start, f_end; /* forward (an overlapped pair's whole span) */
    double b_start, b_end; /* B or I (an overlapped pair's whole span) */
    double w_start, w_end; /* W; equal to B's span when the backward is not split */
    double in_ready;       /* the stage's input is usable on its rank: the F start on stage 0,
                              else the arrival of stage - 1's forward output */
    double grad_ready;     /* the gradient of the stage's output is usable: the B or I start on
                              the last stage, else the arrival of stage + 1's backward output */
    double freed;          /* activations released: the end of the last backward part */
} timeline_cell;

typedef struct timeline_cells {
    int stages, microbatches;
    timeline_cell *cell; /* [stages x microbatches], cell[s * M + m] */
} timeline_cells;

/* Gathers every (stage, micro-batch)'s timing: O(actions + S x M). */
void timeline_cells_init(timeline_cells *c, const timeline *tl);
void timeline_cells_deinit(timeline_cells *c); /* accepts a zeroed or deinited table */
/* One (stage, micro-batch)'s timing. */
static inline const timeline_cell *timeline_cell_at(const timeline_cells *c, int stage, int mb)
{
    return &c->cell[(size_t)stage * (size_t)c->microbatches + (size_t)mb];
}
/* When (stage, micro-batch)'s input is ready on the stage's rank (its cell's in_ready). */
double timeline_input_ready(const timeline_cells *c, int stage, int mb);

/* ---- live activations ---------------------------------------------------- */

/* From `time` on, `count` (stage, micro-batch) activations are live. */
typedef struct timeline_memory_step {
    double time;
    int count;
} timeline_memory_step;

/* A rank's live activations over time: a step function that starts at
 * (0, 0) and changes at each allocation (+1) and each free (-1), in program
 * order, so at equal times a free comes before the next allocation. */
typedef struct timeline_memory_curve {
    const timeline_memory_step *steps; /* [count], times non-decreasing; a slice of the block */
    int count;
    int peak; /* the most live at once (= tl->per_rank[r].peak_activations) */
} timeline_memory_curve;

typedef struct timeline_memory {
    timeline_memory_curve *rank; /* [ranks] */
    timeline_memory_step *steps; /* one block for all the curves */
    int ranks;
    int peak; /* the largest peak over the ranks */
} timeline_memory;

/* Computes every rank's curve: O(actions), one allocation for the steps. */
void timeline_memory_init(timeline_memory *m, const timeline *tl);
void timeline_memory_deinit(timeline_memory *m); /* accepts a zeroed or deinited one */
/* The step in force at t: the last with time <= t, or 0 before the first. */
int timeline_memory_step_at(const timeline_memory_curve *c, double t);
/* The first step k in [lo, count) with time >= t, or count. */
int timeline_memory_first_step_at_or_after(const timeline_memory_curve *c, int lo, double t);
/* Live activations at t (the count of the step in force). */
int timeline_memory_live_at(const timeline_memory_curve *c, double t);

/* ---- what an idle rank waits for ----------------------------------------- */

typedef enum timeline_wait_kind {
    TIMELINE_WAIT_DONE = 0,   /* no compute action left after t: the rank is done */
    TIMELINE_WAIT_ACTIVATION, /* the next action is an F whose input comes from another rank */
    TIMELINE_WAIT_GRADIENT,   /* the next is a B or I whose gradient comes from another rank */
    TIMELINE_WAIT_TURN,       /* the next needs nothing from another rank: it starts at `start` */
} timeline_wait_kind;

typedef struct timeline_wait {
    timeline_wait_kind kind;
    int index; /* the rank's next compute action (the first to start after t); -1 when done */
    action_kind action; /* its kind; F for an overlapped pair, whose F half is asked about */
    int stage;          /* its stage and micro-batch (the F half's for a pair); -1 when done */
    int microbatch;
    int from_rank; /* ACTIVATION, GRADIENT: the rank that sends the input; else -1 */
    double start;  /* when the next action starts; 0 when done */
} timeline_wait;

/* What a rank that is idle at t waits for: its next compute action and,
 * when that needs an input from another rank, which rank sends it. */
timeline_wait timeline_idle_wait(const timeline *tl, int rank, double t);

/* ---- descriptions -------------------------------------------------------- */

/* Decimals enough to tell events apart at a timeline's scale: 2 for
 * makespans of 1 and more, more for smaller time units (at most 9). */
int timeline_time_decimals(double makespan);

/* One line about an action, for the panel's tooltip, e.g.
 * "rank 1 · 1F3 · stage 1 · F micro-batch 3 · start 4.00 · end 5.00"
 * (UTF-8, decimals enough for the timeline's scale, truncated to fit n
 * bytes). Returns the length it wanted, like snprintf. */
size_t timeline_describe_action(const timeline *tl, int rank, int index, char *buf, size_t n);
/* The same for an all-reduce: "rank 2 · all-reduce of stage 2 over 2 replicas · start ... · end
 * ...". */
size_t timeline_describe_allreduce(const timeline *tl, int index, char *buf, size_t n);

#endif
