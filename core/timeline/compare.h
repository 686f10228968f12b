/* compare.h - two to four simulated iterations side by side: the numbers
 * an audience asks about (makespan, bubble fraction, peak activations per
 * rank, exposed all-reduce) and each side's difference from the first, in
 * words.
 *
 * For: the comparison strip under `ppflow --compare` and `ppflow render
 * --compare`, and the table of `ppflow schedule --compare`. The numbers are
 * the timeline's own fields, the ones `ppflow schedule --format json` prints
 * (export.h: makespan, bubble_fraction, allreduce_exposed, per_rank[].
 * peak_activations), so a side's strip and its JSON never disagree.
 *
 * The lines, one per side:
 *     the first side (the reference) with its values:
 *         "1f1b: makespan 33, bubble 27.3%, peak activations 4, exposed all-reduce 0"
 *     every other side with its differences from the first:
 *         "zb-h1: makespan −18.2%, bubble 27.3% -> 6.1%, peak activations equal,
 *          exposed all-reduce equal"
 * Makespan as a relative change (U+2212 for minus, "equal" when the same to
 * 0.05%); bubble as from -> to in percent with one decimal ("equal" when
 * both print the same); peak activations "equal" when every rank's peak is
 * the same (same rank count), else the highest rank's peak from -> to, with
 * ", per rank differs" when those are equal; exposed all-reduce "equal" or
 * from -> to.
 *
 * What it does not do: build or simulate (app/comparison.h builds the
 * sides), draw (render/compare_view.h) or print.
 *
 * Call order: compare_sides(names, timelines, n, &result); read result.
 * Errors: none; n outside 1..COMPARE_MAX_SIDES is a programmer's mistake.
 */
#ifndef PPFLOW_COMPARE_H
#define PPFLOW_COMPARE_H

#include "timeline.h"

enum { COMPARE_MAX_SIDES = 4, COMPARE_NAME_MAX = 64, COMPARE_LINE_MAX = 320 };

/* One side's numbers, as the JSON prints them. */
typedef struct compare_metrics {
    double makespan;
    double bubble_fraction;   /* idle / (ranks x makespan) */
    double allreduce_exposed; /* makespan - end of the last compute */
    int ranks;
    int peak_max; /* the highest rank's peak live activations */
} compare_metrics;

typedef struct compare_result {
    int count;
    compare_metrics side[COMPARE_MAX_SIDES];
    char name[COMPARE_MAX_SIDES][COMPARE_NAME_MAX];
    char line[COMPARE_MAX_SIDES][COMPARE_LINE_MAX]; /* "name: ..." as above */
    char diff[COMPARE_MAX_SIDES][COMPARE_LINE_MAX]; /* the line after "name: " ("" for side 0's
                                                       differences: it is the reference) */
} compare_result;

/* The metrics of one timeline. */
compare_metrics compare_metrics_of(const timeline *tl);
/* The n sides (1..COMPARE_MAX_SIDES; names cut to COMPARE_NAME_MAX - 1
 * bytes) into *out: metrics, and the lines against side 0. */
void compare_sides(const char *const *names, const timeline *const *tls, int n,
                   compare_result *out);
/* The longest makespan of the n timelines: the time scale they share. */
double compare_longest_makespan(const timeline *const *tls, int n);

#endif
