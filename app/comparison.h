/* comparison.h - two to four sessions built side by side from one command
 * line: `--compare 1f1b,zb-h1` (schedules; the scenario file and flags
 * apply to every side), `--compare a.json,b.json` or `ppflow a.json b.json`
 * (scenario files; the flags apply to each), and their comparison
 * (core/timeline/compare.h).
 *
 * For: `ppflow schedule --compare` (a table, or a JSON array), `ppflow
 * render --compare` (the panes, render/compare_view.h) and the window. A
 * talk (talk.h) is its slides, shown one at a time; a comparison
 * is sides shown at once, on one clock.
 *
 * A side is a schedule when the item starts with "csv:" (a CSV, whatever
 * its path holds), else a scenario file when it ends in ".json" (any case)
 * or names a path (has a '/'), else a schedule name; a schedule is
 * applied after the flags, so `--compare 1f1b,zb-h1 --stages 8` compares
 * two schedules at P=8. A side's name (the strip's, the table's) is the
 * item as given, a file without its folder and ".json".
 *
 * Call order:
 *     comparison c;
 *     if (!comparison_build(&c, &(comparison_desc){...}, &err)) { one line, exit 2 }
 *     ... c.sides[k] (a session), c.result.line[k], comparison_timelines(&c) ...
 *     comparison_deinit(&c);
 *
 * Errors: one line naming the side: "--compare: side 2 (\"zb-h2\"): ..."
 * with the session's own words; a list of fewer than 2 or more than
 * COMPARE_MAX_SIDES items, or an empty item, names the list. A failed build
 * leaves the comparison zeroed.
 */
#ifndef PPFLOW_COMPARISON_H
#define PPFLOW_COMPARISON_H

#include <stdbool.h>
#include <stdio.h>

#include "compare.h"
#include "error.h"
#include "session.h"

/* What a command line gives. */
typedef struct comparison_desc {
    const char *list;          /* --compare "A,B[,C,D]", or NULL */
    const char *const *paths;  /* positional scenario files, [path_count] */
    int path_count;            /* with list: 0 or 1 (the base scenario of schedule sides) */
    const session_flag *flags; /* the scenario flags, for every side */
    int flag_count;
    bool with_scene; /* build the 3D scenes too (something will be drawn) */
    bool confine;    /* --confine: the files the scenario files name stay in their folders */
} comparison_desc;

typedef struct comparison {
    session *sides[COMPARE_MAX_SIDES]; /* [count], built; not movable */
    int count;                         /* 2..COMPARE_MAX_SIDES once built */
    compare_result result;             /* names, metrics and strip lines */
} comparison;

/* Whether a command line asks for a comparison: --compare given, or more
 * than one scenario file. */
bool comparison_wanted(const comparison_desc *d);
/* Builds every side (whole; scenes when asked) and compares them. */
bool comparison_build(comparison *c, const comparison_desc *d, ppf_error *err);
/* The sides' timelines, [count], for compare.h and the panes. */
void comparison_timelines(const comparison *c, const timeline *out[COMPARE_MAX_SIDES]);
void comparison_deinit(comparison *c); /* accepts a zeroed or deinited comparison */

/* `ppflow schedule --compare`: a row per side (schedule, P, M, D, V,
 * makespan, bubble, the highest peak of activations, exposed all-reduce),
 * then each side's differences from the first, as the strip says them. */
void comparison_write_table(const comparison *c, FILE *f);
/* `--format json`: an array of each side's `--format json` object, in order
 * (export.h: the same keys, so `jq '.[1].makespan'` reads side 2). */
void comparison_write_json(const comparison *c, FILE *f);

#endif
