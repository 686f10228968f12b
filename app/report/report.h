/* report.h - the human-readable forms of a simulated iteration, for a
 * terminal: the public header of app/report.
 *
 * `ppflow schedule --format table`, `--format gantt` and `--format beats`
 * print through it:
 *
 *   report_table   (table.c) a header line (schedule, P, V, M, D, costs),
 *                  one row per rank (stages held, busy, idle, idle %, peak
 *                  live activations, end of its all-reduces) and the
 *                  metrics - makespan, bubble fraction, bubble ratio,
 *                  exposed all-reduce, peak activations - each next to its
 *                  textbook closed form (core/timeline/closed_forms.h) when one
 *                  exists and applies; otherwise it says why the closed form
 *                  does not apply rather than print one that disagrees with
 *                  the simulation.
 *   report_gantt   (gantt.c) a Unicode Gantt chart scaled to a terminal
 *                  width: one row per rank, each compute action a block
 *                  labelled with its kind and micro-batch ("F3", "B3", "F7B3"
 *                  for an overlapped pair), idle time as '·', all-reduce rows
 *                  when D > 1, a time axis and a legend. When many actions
 *                  share one column, the column shows the kind that fills
 *                  most of it. ANSI colours only when asked: each kind in the
 *                  colour the window gives it (render/theme.h), exact where
 *                  $COLORTERM says the terminal takes 24-bit colour, else the
 *                  nearest of the 256-colour palette; the letters alone tell
 *                  the kinds apart.
 *   report_beats   (beat_table.c) the beats of a scenario (core/timeline/beats.h),
 *                  one line each: number, time, title, caption, for a
 *                  lecturer to read and to copy into a scenario's "beats".
 *   report_terminal_width, report_want_colour   (terminal.c) what the CLI
 *                  asks of the terminal before it calls the two above.
 *
 * Inside the room, terminal.h holds what both write with (text in columns,
 * colour escapes); the numbers are core/common/number_text.h's. The HUD's bubble
 * line is closed_forms_bubble_line (core/timeline/closed_forms.h).
 *
 * What it does not do: simulate, decide by itself whether to colour (the
 * CLI asks report_want_colour), or write machine formats (export.h and csv.h
 * do).
 *
 * Call order: timeline_simulate(), then any of the functions below, as often
 * as wanted. Nothing here fails on valid input; write errors stay in the
 * FILE's error flag for the caller (output_commit) to find.
 */
#ifndef PPFLOW_REPORT_H
#define PPFLOW_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "beats.h"
#include "timeline.h"

enum { REPORT_DEFAULT_WIDTH = 120, REPORT_MIN_WIDTH = 40, REPORT_MAX_WIDTH = 1000 };

/* Prints the header, the per-rank table and the metrics with closed forms. */
void report_table(const timeline *tl, const timeline_costs *c, FILE *f);

/* Prints the Gantt chart in `width` columns (clamped to REPORT_MIN_WIDTH ..
 * REPORT_MAX_WIDTH), with ANSI colours when `colour` is set. */
void report_gantt(const timeline *tl, FILE *f, int width, bool colour);

/* Prints the beats as a table: a count, then "#  t  title  caption" rows. */
void report_beats(const beat_list *bl, FILE *f);

/* Columns of the terminal behind f: $COLUMNS when set, else the tty's size
 * when f is a terminal, else REPORT_DEFAULT_WIDTH. */
int report_terminal_width(FILE *f);

/* True when f is a terminal and NO_COLOR is unset or empty (no-color.org). */
bool report_want_colour(FILE *f);

#endif
