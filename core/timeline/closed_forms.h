/* closed_forms.h - the textbook formulas of pipeline schedules, and when
 * they apply.
 *
 * With P ranks, M micro-batches, V stages per rank and per-rank costs F, B
 * (B = I + W when the backward is split):
 *   GPipe, 1F1B       makespan (M+P-1)(F+B), bubble fraction (P-1)/(M+P-1),
 *                     bubble ratio (idle over busy) (P-1)/M; peak live
 *                     activations M on every rank (GPipe) and P-rank, at
 *                     most M (1F1B)
 *   interleaved 1F1B  makespan M(F+B) + (P-1)(F+B)/V, fraction
 *                     (P-1)/(V·M+P-1), ratio (P-1)/(V·M) (Megatron-LM); for
 *                     M >= P
 *   ZB-H1             makespan M(F+I+W) + (P-1)(F+I-W) (the Zero Bubble
 *                     paper's (P-1)(F+B-2W)); for M >= P, W <= F, W <= I
 * Each matches the simulation exactly (checked on a grid of P, M, V and
 * costs) when every rank costs the same, transfers are free and the
 * all-reduce hides behind compute; closed_forms_find names the first of
 * these assumptions that fails instead of offering a formula that disagrees
 * with the simulation. The peak activations depend only on the order of the
 * actions, so their form holds for any costs.
 *
 * For: the metrics of `ppflow schedule --format table` (app/report), the
 * HUD's bubble line, and the tests. Other schedules (looped BFS, interleaved
 * ZB, ZBV, DualPipeV, CSV imports) have no form here.
 *
 * What it does not do: simulate (timeline.h) or print (app/report).
 *
 * Call order: timeline_simulate(), then any of these, as often as wanted.
 * Errors: none; every timeline that timeline_simulate accepted is valid.
 */
#ifndef PPFLOW_CLOSED_FORMS_H
#define PPFLOW_CLOSED_FORMS_H

#include <stdbool.h>
#include <stddef.h>

#include "program.h"
#include "timeline.h"

enum { CLOSED_FORM_TEXT_MAX = 128, CLOSED_FORM_WHY_MAX = 160 };

/* One metric's form. */
typedef struct closed_form {
    const char *formula;                /* "(P-1)/(M+P-1)" (static text) */
    char numbers[CLOSED_FORM_TEXT_MAX]; /* the formula with this iteration's numbers: "3/11" */
    double value;                       /* what it comes to: 0.2727... */
} closed_form;

/* The forms of one simulated iteration. */
typedef struct closed_forms {
    bool has;                          /* the schedule has makespan and bubble forms */
    char why_not[CLOSED_FORM_WHY_MAX]; /* with has: "" when they apply, else why not
                                          ("per-rank costs differ (F from 1 to 2)") */
    closed_form makespan, bubble_fraction, bubble_ratio; /* with has */
    bool has_peak;                                       /* the peak activations have a form */
    char peak[CLOSED_FORM_TEXT_MAX];                     /* with has_peak: "M = 8 on every rank",
                                                            "P-rank = 4 .. 1 (rank 0 .. rank 3)" */
} closed_forms;

/* The forms of tl's schedule for its costs c (the costs tl was simulated with). */
void closed_forms_find(const timeline *tl, const timeline_costs *c, closed_forms *out);

/* The textbook peak of live activations on `rank`: M for GPipe, min(P-rank,
 * M) for 1F1B; -1 for schedules without a form. */
int closed_forms_peak(const program *p, int rank);

/* One line for the viewer's HUD: the bubble fraction and, when the
 * schedule's form applies and agrees, the form with its numbers
 * ("bubble 27.3% = (P-1)/(M+P-1) = 3/11"), else how it is measured
 * ("bubble 30.1% = idle / (P × makespan)"). Truncated to size. */
void closed_forms_bubble_line(const timeline *tl, const timeline_costs *c, char *buf, size_t size);

#endif
