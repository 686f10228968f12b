/* svg.h - the timeline as a vector figure for books and papers:
 * `ppflow schedule --format svg` and `ppflow render --still T -o fig.svg`.
 *
 * It writes one standalone SVG 1.1 document: a viewBox (no fixed physical
 * size, so a book scales it to its text width), a <title> and a <desc> that
 * carry the alt text ("1F1B schedule, 4 ranks, 8 micro-batches, bubble
 * 27.3%") and a description of what the figure encodes, and the timeline
 * panel's picture in the window's colours and patterns (render/theme.h): a
 * row per rank with its label, compute bars with their micro-batch numbers
 * (F solid, B and I hatched, W dotted, F+B cross-hatched, as <pattern>s),
 * idle time hatched, p2p transfers as arrows, all-reduces in a lane under
 * each row, the live activations per rank, a time axis with ticks, a legend,
 * and, when asked, the cursor at a time t. Rows, lanes and the time-to-x map
 * come from render/timeline_view.h, so the figure and the window agree.
 *
 * Text is real <text> (never paths), with one font-family stack on the root
 * element as a presentation attribute, so a book's stylesheet restyles every
 * label at once and its text checks can read them. Widths are estimated per
 * character from DejaVu Sans's advances with a margin (no FreeType: the
 * writer needs no font and no GL, and a restyled font would not keep measured
 * widths anyway); labels are centred or end-anchored so they stay put under
 * another font. A micro-batch number that does not fit its bar at the body
 * size or 80% of it is left out of the bar, yet every bar and all-reduce
 * carries a <title> with its one-line description (a tooltip, and what a
 * screen reader reads).
 *
 * Bars thinner than a viewBox unit are merged by the window's own rule
 * (render/timeline_lod.h: each unit column shows the kind that fills most
 * of it, and a run of columns of one kind is one rectangle, class "bar
 * dense", in that kind's fill, its <title> counting what it merges);
 * memory steps closer than SVG_MIN_BAR keep their highest count, so a
 * timeline of a million actions stays a figure of kilobytes. Every other
 * compute action is exactly one <rect class="bar bar-K">.
 *
 * What it does not do: no PDF (app/export/pdf.h converts this SVG), no
 * files (it writes to a FILE *; app/output.h makes the file atomic), no
 * zoom (the whole iteration is shown), no hover.
 *
 * Call order: simulate (core/timeline/timeline.h), then svg_write_timeline(f, &tl,
 * &(svg_desc){0}, &err). Nothing to init or free.
 *
 * Errors: false and one line in err when writing to f failed (ferror).
 */
#ifndef PPFLOW_SVG_H
#define PPFLOW_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "error.h"
#include "timeline.h"

/* The font stack on the root element: DejaVu Sans first (the window's font),
 * then what a book or a browser is likely to have. */
#define SVG_FONT_FAMILY "'DejaVu Sans', 'Helvetica Neue', Helvetica, Arial, sans-serif"

/* Memory steps closer than this (viewBox units) are merged; all-reduce
 * bars are drawn at least this wide. */
#define SVG_MIN_BAR 0.75f

/* What to draw; zero fields mean the defaults. */
typedef struct svg_desc {
    bool dark;       /* the window's dark theme; default the light one, for print */
    bool cursor;     /* draw the cursor (a line, a notch and a tab) at cursor_t */
    double cursor_t; /* when cursor is set: a time in [0, makespan] */
    float width;     /* viewBox width; 0: 1000 */
    float em;        /* body text size in viewBox units; 0: 16 */
} svg_desc;

/* Writes the whole document for a simulated timeline (with at least one
 * rank) to f; false with one line in err when a write failed. */
bool svg_write_timeline(FILE *f, const timeline *tl, const svg_desc *d, ppf_error *err);

/* The figure's alt text, e.g. "1F1B schedule, 4 ranks, 8 micro-batches, 2
 * replicas, bubble 27.3%" (replicas only when D > 1); returns the length it
 * wanted, like snprintf. */
size_t svg_alt_text(const timeline *tl, char *buf, size_t n);

/* The schedule's name as people write it ("1F1B", "GPipe", "Zero Bubble
 * H1") for the program's generator name ("1f1b"); "PyTorch CSV" for csv. */
const char *svg_schedule_title(const char *generator, char *buf, size_t n);

#endif
