/* program.h - a pipeline program: what every pipeline rank runs, in order.
 *
 * A program is, for each of `ranks` pipeline ranks, the ordered list of
 * actions it runs (idle steps and communication markers included, so that a
 * PyTorch CSV round-trips cell for cell), plus the map from stage to rank:
 *     PROGRAM_LAYOUT_LOOP  stage s runs on rank s mod P (GPipe, 1F1B, interleaved)
 *     PROGRAM_LAYOUT_V     rank r holds stages r and 2P-1-r (ZB-V, DualPipeV)
 *     PROGRAM_LAYOUT_CUSTOM taken from where each stage's actions appear (CSV)
 *
 * It does not know time: timeline.h simulates a program into start and end
 * times. Programs come from schedules.h (generators) or csv.h (import).
 *
 * Call order:
 *     program p; program_init(&p, ranks, stages, microbatches, layout);
 *     program_push(&p, rank, action) ...   (generators and importers)
 *     program_validate(&p, &err)           (every stage on one rank, every
 *                                           (stage, micro-batch) has one F and
 *                                           its backward parts exactly once)
 *     program_deinit(&p);
 */
#ifndef PPFLOW_PROGRAM_H
#define PPFLOW_PROGRAM_H

#include <stdbool.h>

#include "action.h"
#include "error.h"

/* The most pipeline ranks a program holds (a PyTorch CSV's rows): ranks
 * are stored in 16 bits where millions of records carry one (transfers). */
enum { PROGRAM_MAX_RANKS = 65536 };

typedef enum program_layout {
    PROGRAM_LAYOUT_LOOP = 0,
    PROGRAM_LAYOUT_V,
    PROGRAM_LAYOUT_CUSTOM,
} program_layout;

typedef struct program_rank {
    action *actions; /* in program order */
    int count;       /* number of actions, idle steps included */
    int capacity;
    bool owned; /* actions is the rank's own allocation, not a slice of the arena */
} program_rank;

typedef struct program {
    char schedule[64];   /* generator name ("1f1b") or "csv" */
    int ranks;           /* P: pipeline ranks */
    int stages;          /* total stages (P x V) */
    int stages_per_rank; /* V */
    int microbatches;    /* M */
    program_layout layout;
    int *stage_rank;    /* [stages]: the rank that runs each stage */
    program_rank *rank; /* [ranks] */
    action *arena;      /* one block that the ranks' first `capacity` actions share, or NULL */
} program;

/* Sets up an empty program and its stage-to-rank map for the layout (for
 * CUSTOM every stage starts unassigned, -1, until program_validate). */
void program_init(program *p, int ranks, int stages, int microbatches, program_layout layout);
void program_deinit(program *p); /* accepts a zeroed or deinited program */

/* Makes room for at least n more actions on a rank. */
void program_reserve(program *p, int rank, int n);

/* Gives every (still empty) rank room for n actions in one shared block, so
 * that a generator of a million actions touches one large allocation rather
 * than one per rank. A rank that outgrows its slice moves to its own. */
void program_reserve_all(program *p, int n);

/* Appends an action to a rank's list. Inline: generators call it per action. */
static inline void program_push(program *p, int rank, action a)
{
    program_rank *pr = &p->rank[rank];
    if (pr->count == pr->capacity)
        program_reserve(p, rank, pr->capacity ? pr->capacity : 64);
    pr->actions[pr->count++] = a;
}

/* The rank that runs stage s under a layout. */
int program_layout_rank(program_layout layout, int ranks, int stages, int s);

/* Checks that the program can be simulated: stages and micro-batches in
 * range, each stage's compute on one rank (fills stage_rank for CUSTOM and
 * checks it otherwise), and each (stage, micro-batch) has exactly one F and
 * either one B or one I and one W (halves of overlapped pairs count).
 * Ordering problems are left to the simulator, which reports deadlocks. */
bool program_validate(program *p, ppf_error *err);

/* Total number of actions over all ranks, idle steps included. */
long program_action_count(const program *p);

/* The kinds the program's ranks hold: bit (1u << action_kind) for each. */
unsigned program_kind_mask(const program *p);

#endif
