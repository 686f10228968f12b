/* output.h - output files that are either complete or absent.
 *
 * `ppflow schedule -o out.json` must never leave a half-written out.json: not
 * when the disk fills, not when the program stops on an error half-way. So
 * output_open() writes into a temporary file beside the target (same
 * directory, so the final rename stays on one file system), named
 * ".out.json.tmp.XXXXXX", and output_commit() flushes, fsyncs and checks it,
 * then renames it over the target in one step. output_abort() throws the
 * temporary away and leaves the target as it was.
 *
 * What it does not do: path "-" or NULL means standard output, which is
 * written directly (there is nothing to rename); a target that exists and is
 * not a regular file (/dev/null, a pipe) is also opened directly, because
 * renaming over a device node would replace it.
 *
 * Call order:
 *     output out;
 *     if (!output_open(&out, path, &err)) ...          nothing was created
 *     write to out.file ...
 *     if (!output_commit(&out, &err)) ...              target untouched, temp removed
 *   or, on any error after opening:
 *     output_abort(&out);
 *
 * Writers that open the file by name themselves (libavformat reopens an MP4
 * to move its index to the front) reserve the temporary instead:
 *     output_reserve(&out, path, &err);   out.tmp_path exists, empty; out.file NULL
 *     ... write to out.tmp_path by name, close it ...
 *     output_commit(&out, &err);          fsyncs it by name, then renames
 * A set of files that must appear together (numbered PNG frames) closes
 * each one first and renames them all at the end:
 *     output_close(&out, &err);  ...  output_publish(&out, &err);
 *
 * Errors: false plus one line in err naming the path and strerror(errno).
 * After output_commit, output_publish or output_abort (successful or not) the
 * output is released and zeroed; output_abort accepts a zeroed output, and a
 * closed, unpublished one (it deletes the temporary).
 */
#ifndef PPFLOW_OUTPUT_H
#define PPFLOW_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "error.h"

typedef struct output {
    FILE *file;     /* where to write: the temporary, the target itself, or stdout */
    char *path;     /* the target as given; NULL for standard output */
    char *tmp_path; /* the temporary beside the target; NULL when writing directly */
} output;

/* True when path names standard output ("-" or NULL). */
bool output_is_stdout(const char *path);

/* Opens the target for writing (a temporary beside it, or stdout). */
bool output_open(output *o, const char *path, ppf_error *err);

/* Creates the empty temporary beside a named target and closes it; the
 * caller writes o->tmp_path by name. Standard output and targets that are
 * not regular files are refused: the writer needs a file it can reopen. */
bool output_reserve(output *o, const char *path, ppf_error *err);

/* Flushes, syncs and closes the temporary without renaming it. On failure
 * the temporary is deleted and the output released. */
bool output_close(output *o, ppf_error *err);

/* Renames a closed temporary over the target and releases the output. */
bool output_publish(output *o, ppf_error *err);

/* output_close, then output_publish. */
bool output_commit(output *o, ppf_error *err);

/* Closes and deletes the temporary; the target keeps its old content. */
void output_abort(output *o);

#endif
