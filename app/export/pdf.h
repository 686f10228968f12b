/* pdf.h - the timeline figure as a PDF: `ppflow schedule --format pdf` and
 * `ppflow render --still T -o fig.pdf`.
 *
 * The figure is svg.h's SVG, converted by librsvg's rsvg-convert (Debian
 * package librsvg2-bin), run as a child process with no shell: the SVG goes
 * to its standard input and its standard output comes back through pipes.
 * librsvg keeps text as text in a PDF (cairo's PDF surface embeds the
 * font), so a book's text checks still read the labels; cairo's own SVG
 * surface would not do for the SVG (it turns glyphs into paths).
 *
 * Which program runs: $PPFLOW_RSVG_CONVERT when it is set (an absolute
 * path to an executable file, else refused), otherwise the first
 * executable "rsvg-convert" in the absolute directories of $PATH. Relative
 * entries of PATH ("." or an empty entry, "bin") are skipped, so that a
 * file in whatever directory ppflow is started from is never run; the
 * program found is run by that absolute path.
 *
 * What comes back must be a PDF before any of it is written: it must start
 * with "%PDF-", hold at least PDF_MIN_BYTES and end with the "%%EOF"
 * marker. A converter that exits 0 having written nothing, or anything else,
 * is a failure, and f gets nothing (the caller aborts its output.h file, so
 * no .pdf appears). The PDF is at most PDF_MAX_BYTES.
 *
 * A converter still running PDF_EXIT_SECONDS after it closed its output
 * is ended (as below) and the conversion fails.
 *
 * Signals: while the converter runs, SIGINT and SIGTERM are caught; one
 * ends the converter's process group (the same signal, then SIGKILL after
 * a second), reaps it, puts the earlier handlers back and raises the signal
 * again, so that ppflow then ends as it does for that signal elsewhere
 * (output.h's guard deletes the temporary and exits 130). No converter is
 * left running.
 *
 * What it does not do: no PDF writer of its own, no fallback when the
 * converter is missing (one line says what to install), no shell.
 *
 * Call order: pdf_converter_found(&err) before any work (a missing tool is
 * found before the simulation's output is opened), then
 * pdf_write_timeline(f, &tl, &desc, &err).
 *
 * Errors: false plus one line: the converter is missing or named wrongly,
 * could not start, failed (its exit status or signal; its own message goes
 * to stderr as it is), wrote something that is not a PDF, or the pipe
 * broke.
 */
#ifndef PPFLOW_PDF_H
#define PPFLOW_PDF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "error.h"
#include "svg.h"
#include "timeline.h"

/* The converter's program name, looked up in PATH's absolute entries. */
#define PDF_CONVERTER "rsvg-convert"
/* The environment variable that names the converter by its absolute path. */
#define PDF_CONVERTER_ENV "PPFLOW_RSVG_CONVERT"

enum {
    PDF_MIN_BYTES = 64,        /* less is no figure: a converter that failed quietly */
    PDF_MAX_BYTES = 256 << 20, /* more is no figure of a timeline */
    PDF_PATH_MAX = 4096,       /* bytes of the converter's path, with the NUL */
    PDF_EXIT_SECONDS = 10,     /* a converter that closed its output must exit within */
};

/* The converter to run, by its absolute path, into path[size]; false with
 * one line ("a PDF needs rsvg-convert ...: install librsvg2-bin ...") when
 * there is none. */
bool pdf_converter_path(char *path, size_t size, ppf_error *err);

/* True when pdf_converter_path finds one. */
bool pdf_converter_found(ppf_error *err);

/* True when bytes[0..len) look like a whole PDF (the rule above). */
bool pdf_looks_whole(const char *bytes, size_t len);

/* Writes the figure of d (svg_write_timeline's) as a PDF to f, only once
 * the converter has made all of it and it looks whole. */
bool pdf_write_timeline(FILE *f, const timeline *tl, const svg_desc *d, ppf_error *err);

#endif
