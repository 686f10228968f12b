/* report.h - the human-readable forms of a simulated iteration.
 *
 * `ppflow schedule --format table` and `--format gantt` (and plain `ppflow`,
 * until the 3D viewer exists) print through this module:
 *
 *   report_table   a header line (schedule, P, V, M, D, costs), one row per
 *                  rank (stages held, busy, idle, idle %, peak live
 *                  activations, end of its all-reduces) and the metrics -
 *                  makespan, bubble fraction, bubble ratio, exposed
 *                  all-reduce, peak activations - each next to its textbook
 *                  closed form when one exists and applies (uniform costs,
 *                  no p2p time, no exposed all-reduce); otherwise it says why
 *                  the closed form does not apply rather than print one that
 *                  disagrees with the simulation.
 *   report_gantt   a Unicode Gantt chart scaled to a terminal width: one row
 *                  per rank, each compute action a block labelled with its
 *                  kind and micro-batch ("F3", "B3", "F7B3" for an overlapped
 *                  pair), idle time as '·', all-reduce rows when D > 1, a
 *                  time axis and a legend. When many actions share one
 *                  column, the column shows the kind that fills most of it.
 *                  ANSI colours (the Okabe-Ito palette of DESIGN.md) only
 *                  when asked; the letters alone tell the kinds apart.
 *
 * What it does not do: simulate, decide colours from the environment by
 * itself (report_want_colour and report_terminal_width are the helpers the
 * CLI calls), or write machine formats (export.h and csv.h do).
 *
 * Call order: timeline_simulate(), then any of the functions below, as often
 * as wanted. Nothing here fails on valid input; write errors stay in the
 * FILE's error flag for the caller (output_commit) to find.
 */
#ifndef PPFLOW_REPORT_H
#define PPFLOW_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "timeline.h"

enum { REPORT_DEFAULT_WIDTH = 120, REPORT_MIN_WIDTH = 40, REPORT_MAX_WIDTH = 1000 };

/* Prints the header, the per-rank table and the metrics with closed forms. */
void report_table(const timeline *tl, const timeline_costs *c, FILE *f);

/* Prints the Gantt chart in `width` columns (clamped to REPORT_MIN_WIDTH ..
 * REPORT_MAX_WIDTH), with ANSI colours when `colour` is set. */
void report_gantt(const timeline *tl, FILE *f, int width, bool colour);

/* One line for the viewer's HUD: the bubble fraction and, when the
 * schedule's textbook formula holds for these costs, the formula with its
 * numbers: "bubble 27.3% = (P−1)/(M+P−1) = 3/11". */
void report_bubble_line(const timeline *tl, const timeline_costs *c, char *buf, size_t size);

/* Columns of the terminal behind f: $COLUMNS when set, else the tty's size
 * when f is a terminal, else REPORT_DEFAULT_WIDTH. */
int report_terminal_width(FILE *f);

/* True when f is a terminal and NO_COLOR is unset or empty (no-color.org). */
bool report_want_colour(FILE *f);

#endif
