/* file_read.h - reading a whole input file that may be hostile: bounded,
 * never waiting, and, for a file that another file names, only a real
 * file and, when confined, only one inside the naming file's folder.
 *
 * Scenario files, CSVs and viewer scripts come from anyone, and a path may
 * name a FIFO (a link to one in a shared repository), a folder, a device or
 * a file that grows while it is read. Here, once: the file is opened
 * without blocking (a FIFO with no writer reads as empty instead of hanging
 * the program), a folder is refused, and reading stops past `max` bytes, so
 * memory follows the limit, not the file.
 *
 * A file that another file names (a talk's "base" and a slide's
 * "scenario", a "csv:PATH" schedule in a scenario or a talk: a
 * *reference*) is chosen by whoever wrote that file, not by the person at
 * the command line, so it gets stricter rules (file_read_ref):
 *   - it must be a regular file: a FIFO, a device or a socket is refused
 *     before it is opened (/dev/stdin, an open pipe, would wait forever;
 *     /dev/zero never ends; opening some devices acts on the hardware);
 *   - it must not be a kernel pseudo-file (/proc, /sys and their kin): these
 *     say "regular file" and "size 0" and then read as the system's state
 *     (/proc/self/environ), so they are told by their file system's type
 *     (fstatfs), the only sound sign the kernel gives;
 *   - the file read is the file checked: it is opened without following a
 *     last symbolic link that was not checked, and its identity (device and
 *     inode) must be the one seen before it was opened.
 * Confined (ref.confine), the name must also resolve inside the naming
 * file's folder, symbolic links included: no absolute name, no ".." above
 * the folder, no link that leads out of it. The name is walked one
 * component at a time with openat(O_NOFOLLOW) from the folder, each link
 * read and spliced in by this code, as Linux's openat2(RESOLVE_BENEATH)
 * would: that call has no glibc wrapper in Debian 12 and is refused by some
 * container seccomp profiles, and the walk gives the same answer with one
 * code path that every test exercises.
 *
 * What it does not do: no messages, no path joining for the caller's
 * messages. Each caller names its file its own way ("schedule =
 * \"csv:PATH\"", a scenario path, "FILE:LINE" for scripts), so the result
 * is a status and an errno for the caller to turn into one line.
 *
 * Usage:
 *     file_text ft;
 *     switch (file_read_path(&ft, path, MAX, false)) { case FILE_READ_OK: ...use ft.text... }
 *     file_text_deinit(&ft);
 * a file another file names:
 *     file_read_ref(&ft, &(file_ref){.dir = "talks", .name = "gpipe.json", .confine = c}, MAX,
 *                   NULL);
 * or, for a caller that maps the file (the CSV importer):
 *     int fd = file_ref_open(&ref, &st, &status, &errno_value); ... close(fd);
 * or, on a descriptor already open and checked:
 *     file_read_fd(&ft, fd, MAX);
 */
#ifndef PPFLOW_FILE_READ_H
#define PPFLOW_FILE_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

typedef enum file_read_status {
    FILE_READ_OK = 0,
    FILE_READ_CANNOT_OPEN, /* open or fstat failed: errno_value says why */
    FILE_READ_DIRECTORY,   /* a folder */
    FILE_READ_NOT_REGULAR, /* a FIFO, a device or a socket, where only a regular file will do */
    FILE_READ_PSEUDO,  /* a kernel pseudo-file (/proc, /sys, ...), where only a real file will do */
    FILE_READ_OUTSIDE, /* confined: an absolute name, or ".." or a symbolic link that leads
                          out of the naming file's folder */
    FILE_READ_TOO_BIG, /* more than max bytes */
    FILE_READ_ERROR,   /* read failed: errno_value says why */
} file_read_status;

typedef struct file_text {
    char *text; /* len bytes and a NUL (malloc'd); NULL unless FILE_READ_OK */
    size_t len;
    int errno_value; /* for CANNOT_OPEN and ERROR */
} file_text;

/* A file that another file names. */
typedef struct file_ref {
    const char *dir;  /* the naming file's folder; NULL or "": the working directory */
    const char *name; /* the name as the naming file writes it */
    bool confine;     /* must resolve inside dir, symbolic links included */
} file_ref;

/* A word for the status, for messages: "is a FIFO, not a regular file",
 * "leads outside the folder of the file that names it", ...; st (may be
 * NULL) tells a FIFO from a device. For CANNOT_OPEN and ERROR the caller
 * says strerror(errno_value) itself. */
const char *file_read_status_text(file_read_status status, const struct stat *st);

/* Opens path without blocking and reads it whole, at most max bytes. With
 * regular_only it is read as file_read_ref reads a reference that is not
 * confined (a regular file, no pseudo-file, nothing else opened); otherwise
 * a FIFO or a device is read as a stream. */
file_read_status file_read_path(file_text *out, const char *path, size_t max, bool regular_only);

/* Opens the regular file a reference names, for reading, without blocking
 * and close-on-exec, by the rules above: the descriptor (the caller closes
 * it) with *st its fstat, or -1 with *status (and *errno_value for
 * CANNOT_OPEN; st holds what was found for NOT_REGULAR). */
int file_ref_open(const file_ref *ref, struct stat *st, file_read_status *status, int *errno_value);

/* file_ref_open, then the file read whole, at most max bytes; st (may be
 * NULL) gets what was found, for file_read_status_text. */
file_read_status file_read_ref(file_text *out, const file_ref *ref, size_t max, struct stat *st);

/* Reads an open descriptor to its end, at most max bytes; the descriptor
 * stays open and is switched to blocking reads first. */
file_read_status file_read_fd(file_text *out, int fd, size_t max);

/* Frees the text; accepts a zeroed or deinited one. */
void file_text_deinit(file_text *ft);

#endif
