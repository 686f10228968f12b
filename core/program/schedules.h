/* schedules.h - the pipeline schedule generators.
 *
 * Each generator builds the program (per-rank action order) of one named
 * schedule for P ranks, M micro-batches and V stages per rank, after checking
 * the schedule's own constraints and naming the one that fails:
 *
 *   name              V      layout  follows
 *   gpipe             1      loop    PyTorch ScheduleGPipe
 *   1f1b              1      loop    PyTorch Schedule1F1B (M >= P)
 *   interleaved-1f1b  >= 2   loop    PyTorch ScheduleInterleaved1F1B (Megatron-LM, arXiv
 * 2104.04473) looped-bfs        >= 1   loop    PyTorch ScheduleLoopedBFS zb-h1             1 loop
 * Zero Bubble ZB-H1 (arXiv 2401.10241), as PyTorch's zero-bubble 1F1B ops with one stage per rank
 *   interleaved-zb    >= 2   loop    PyTorch ScheduleInterleavedZeroBubble (ZB1P)
 *   zbv               2      v       PyTorch ScheduleZBVZeroBubble (arXiv 2401.10241 sec. 6)
 *   dualpipev         2      v       PyTorch ScheduleDualPipeV (DeepSeek DualPipe), M >= 2P
 *
 * Idle steps appear where PyTorch's compute-only order has them (its None
 * cells), so an exported CSV reads like PyTorch's. They take no time: the
 * simulator runs actions as soon as their dependencies allow.
 *
 * Usage:
 *     schedule_params sp = { .ranks = 4, .microbatches = 8, .stages_per_rank = 0 };
 *     if (!schedule_generate("1f1b", &sp, &prog, &err)) ... (err names the rule)
 * A zero stages_per_rank means the schedule's default (1, or 2 where V >= 2).
 */
#ifndef PPFLOW_SCHEDULES_H
#define PPFLOW_SCHEDULES_H

#include <stdbool.h>

#include "error.h"
#include "program.h"

typedef struct schedule_params {
    int ranks;           /* P >= 1 */
    int microbatches;    /* M >= 1 */
    int stages_per_rank; /* V; 0 = the schedule's default */
} schedule_params;

typedef struct schedule_info {
    const char *name;    /* "interleaved-1f1b" */
    const char *summary; /* one line for --help */
    int default_v;       /* V when none is given */
    int min_v, max_v;    /* allowed V (max_v 0 = no upper bound) */
    program_layout layout;
} schedule_info;

/* The table of schedules, in the order above; count in *n. */
const schedule_info *schedule_list(int *n);

/* The schedule with this name (case-insensitive, '_' same as '-', and the
 * aliases "zb1p" for zb-h1, "interleaved1f1b", "loopedbfs", "zbvzerobubble",
 * "interleavedzerobubble"), or NULL. */
const schedule_info *schedule_find(const char *name);

/* Checks the constraints of schedule `name` for these parameters without
 * building anything; false with the field, the value and the rule. */
bool schedule_check(const char *name, const schedule_params *sp, ppf_error *err);

/* Builds the program into *out (which must not be initialised; on failure it
 * is left zeroed). */
bool schedule_generate(const char *name, const schedule_params *sp, program *out, ppf_error *err);

#endif
