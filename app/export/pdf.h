/* pdf.h - the timeline figure as a PDF: `ppflow schedule --format pdf` and
 * `ppflow render --still T -o fig.pdf`.
 *
 * The figure is svg.h's SVG, converted by librsvg's rsvg-convert (Debian
 * package librsvg2-bin), run as a child process with no shell: the SVG goes
 * to its standard input through a pipe, and its standard output is the
 * stream the caller writes (an app/output.h temporary, so the PDF is whole
 * or absent). librsvg keeps text as text in a PDF (cairo's PDF surface
 * embeds the font), so a book's text checks still read the labels; cairo's
 * own SVG surface would not do for the SVG (it turns glyphs into paths).
 *
 * What it does not do: no PDF writer of its own, no search outside PATH, no
 * fallback when rsvg-convert is missing (one line says what to install).
 *
 * Call order: pdf_converter_found(&err) before any work (a missing tool is
 * found before the simulation's output is opened), then
 * pdf_write_timeline(f, &tl, &desc, &err).
 *
 * Errors: false plus one line: the converter is missing, could not start,
 * or failed (its exit status; its own message goes to stderr as it is), or
 * the pipe broke.
 */
#ifndef PPFLOW_PDF_H
#define PPFLOW_PDF_H

#include <stdbool.h>
#include <stdio.h>

#include "error.h"
#include "svg.h"
#include "timeline.h"

/* The converter's program name, looked up on PATH. */
#define PDF_CONVERTER "rsvg-convert"

/* True when PDF_CONVERTER is an executable file on PATH; else false with
 * "--format pdf needs rsvg-convert: install librsvg2-bin ...". */
bool pdf_converter_found(ppf_error *err);

/* Writes the figure of d (svg_write_timeline's) as a PDF to f: f is
 * flushed, then the converter writes to its file descriptor. */
bool pdf_write_timeline(FILE *f, const timeline *tl, const svg_desc *d, ppf_error *err);

#endif
