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
 * written directly (there is nothing to rename). Nor does it write through
 * whatever an existing target happens to be:
 *   - a regular file is replaced by a new regular file with its permission
 *     bits (never setuid, setgid or sticky); a read-only one (no write bit
 *     for anyone) is refused, whoever runs ppflow;
 *   - a symbolic link to a regular file, or to nothing, is itself replaced
 *     (the file it points to is untouched); one to a FIFO, a device, a
 *     socket or a directory is refused;
 *   - a FIFO or a character device named directly (/dev/null, a pipe to a
 *     reader) is opened and written directly, without O_TRUNC; a FIFO with
 *     no reader is refused at once (ENXIO) instead of waiting forever;
 *   - a directory, a block device and a socket are refused.
 * The same checks run in output_reserve, which accepts regular files only.
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
 * Closing and renaming can also be two steps, the rename later:
 *     output_close(&out, &err);  ...  output_publish(&out, &err);
 *
 * Before hours of work, output_probe says whether the target can be
 * written, making and removing an empty temporary to be sure the directory
 * takes files. A writer that cannot poll a stop flag (one fwrite of a big
 * trace) opens with output_open_guarded: until the output is committed or
 * aborted, SIGINT and SIGTERM delete the temporary, print one line and end
 * the program with status OUTPUT_EXIT_INTERRUPTED.
 *
 * Errors: false plus one line in err naming the path and the reason (a rule
 * above, or strerror(errno)). A refused target is bad input.
 * After output_commit, output_publish or output_abort (successful or not) the
 * output is released and zeroed; output_abort accepts a zeroed output, and a
 * closed, unpublished one (it deletes the temporary).
 */
#ifndef PPFLOW_OUTPUT_H
#define PPFLOW_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "error.h"

/* The exit status after a signal ended a guarded write: 128 + SIGINT, the
 * shell's convention, and cli.h's EXIT_STATUS_INTERRUPTED. */
enum { OUTPUT_EXIT_INTERRUPTED = 130 };

typedef struct output {
    FILE *file;     /* where to write: the temporary, the target itself, or stdout */
    char *path;     /* the target as given; NULL for standard output */
    char *tmp_path; /* the temporary beside the target; NULL when writing directly */
    bool guarded;   /* a signal deletes tmp_path and exits (output_open_guarded) */
} output;

/* How the target will be written, for output_probe and output_check. */
typedef enum output_use {
    OUTPUT_STREAM,  /* output_open: a FIFO or character device is written directly */
    OUTPUT_BY_NAME, /* output_reserve: only a regular file (new or replaced) will do */
} output_use;

/* True when path names standard output ("-", "/dev/stdout" or NULL). */
bool output_is_stdout(const char *path);

/* Opens the target for writing (a temporary beside it, or stdout). */
bool output_open(output *o, const char *path, ppf_error *err);

/* output_open, and until the output is committed or aborted SIGINT and
 * SIGTERM delete the temporary, print "ppflow: interrupted (SIGINT); PATH
 * was not written" and _exit(OUTPUT_EXIT_INTERRUPTED). The earlier
 * handlers come back afterwards. One guarded output at a time. Writing
 * directly (stdout, a FIFO) leaves nothing to delete: no handler is set. */
bool output_open_guarded(output *o, const char *path, ppf_error *err);

/* Creates the empty temporary beside a named target and closes it; the
 * caller writes o->tmp_path by name. Standard output and targets that are
 * not regular files are refused: the writer needs a file it can reopen. */
bool output_reserve(output *o, const char *path, ppf_error *err);

/* True when the target passes the rules above for `use` (nothing is
 * created): for files made elsewhere and renamed over path. */
bool output_check(const char *path, output_use use, ppf_error *err);

/* output_check, then for a target that would get a temporary, creates one
 * and removes it at once (SIGINT and SIGTERM held off meanwhile, so that
 * nothing can be left): a directory that is missing or takes no files is
 * found before any work. A FIFO is not opened (that would end its reader). */
bool output_probe(const char *path, output_use use, ppf_error *err);

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
