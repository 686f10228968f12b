/* csv.h - PyTorch's pipeline schedule CSV: import and export.
 *
 * The format is the one torch.distributed.pipelining writes with _dump_csv
 * and reads with _load_csv: one row per pipeline rank (row index = rank), no
 * header, comma-separated, each cell one action in the text form of action.h,
 * an empty cell an idle step. Cells may be quoted ("(0F7;7B3)OVERLAP_F_B"
 * contains no comma, but csv writers may quote anyway); CRLF line ends and a
 * missing final newline are accepted; a trailing empty line is not a rank.
 *
 * Import infers the stage-to-rank map from where each stage's compute
 * actions appear, the number of stages (largest stage + 1) and of
 * micro-batches (largest micro-batch + 1), then validates the program
 * (program_validate). SEND/RECV/UNSHARD/RESHARD/REDUCE_GRAD cells are kept in
 * the program but do not change the compute order or timing.
 *
 * Errors name the row (rank), the column (step), the cell text and the rule.
 */
#ifndef PPFLOW_CSV_H
#define PPFLOW_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "file_read.h"
#include "program.h"

/* Parses CSV text (len bytes, need not be NUL-terminated) into *out, which
 * must not be initialised; on failure *out is left zeroed. `origin` names the
 * source in messages (a path, or "csv"). */
bool csv_parse(const char *text, size_t len, const char *origin, program *out, ppf_error *err);

/* Reads and parses a file: a regular file, or a pipe or a device read as
 * a stream (the command line's `--schedule csv:/dev/stdin`). */
bool csv_load(const char *path, program *out, ppf_error *err);

/* Reads and parses the CSV that a file names, or any CSV in confined mode:
 * ref is opened by file_read.h's rules (a regular file only, no
 * pseudo-file, inside ref->dir when ref->confine); `path` is what messages
 * show. With conceal, no cell's text appears in a message (quote.h): the
 * file was named by a file that may point anywhere. */
bool csv_load_ref(const file_ref *ref, const char *path, bool conceal, program *out,
                  ppf_error *err);

/* What a CSV holds, counted without keeping it. */
typedef struct csv_size {
    int64_t cells;        /* actions and idle steps */
    int rows;             /* ranks */
    int64_t stages;       /* largest stage + 1 */
    int64_t microbatches; /* largest micro-batch + 1 */
} csv_size;

/* The sizes csv_load would build from the file at path, opened and read
 * with the same rules, checks and messages but keeping no cell (memory:
 * none; time: a walk over the file), so that the cost of several scenarios
 * can be checked before any is built (budget.h, totals). A file that is no
 * regular file (a pipe, a device) cannot be read twice: true with
 * *measured false and *out zeroed, and the caller counts it at the limits. */
bool csv_measure(const char *path, csv_size *out, bool *measured, ppf_error *err);
/* The same as csv_load_ref would read it (a reference is a regular file,
 * so it is always measured when it can be opened). */
bool csv_measure_ref(const file_ref *ref, const char *path, bool conceal, csv_size *out,
                     bool *measured, ppf_error *err);

/* Writes the program in PyTorch's form: one row per rank, one cell per
 * action, idle steps as empty cells, "\n" line ends. */
void csv_write(const program *p, FILE *f);

#endif
