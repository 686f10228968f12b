/* file_read.h - reading a whole input file that may be hostile: bounded,
 * and never waiting.
 *
 * Scenario files, CSVs and viewer scripts come from anyone, and a path may
 * name a FIFO (a link to one in a shared repository), a folder, a device or
 * a file that grows while it is read. Here, once: the file is opened
 * without blocking (a FIFO with no writer reads as empty instead of hanging
 * the program), a folder is refused, and reading stops past `max` bytes, so
 * memory follows the limit, not the file.
 *
 * What it does not do: no messages. Each caller names its file its own way
 * ("schedule = \"csv:PATH\"", a scenario path, "FILE:LINE" for scripts), so
 * the result is a status and an errno for the caller to turn into one line.
 *
 * Usage:
 *     file_text ft;
 *     switch (file_read_path(&ft, path, MAX, false)) { case FILE_READ_OK: ...use ft.text... }
 *     file_text_deinit(&ft);
 * or, on a descriptor already open and checked (the CSV importer maps
 * regular files and reads only streams):
 *     file_read_fd(&ft, fd, MAX);
 */
#ifndef PPFLOW_FILE_READ_H
#define PPFLOW_FILE_READ_H

#include <stdbool.h>
#include <stddef.h>

typedef enum file_read_status {
    FILE_READ_OK = 0,
    FILE_READ_CANNOT_OPEN, /* open or fstat failed: errno_value says why */
    FILE_READ_DIRECTORY,   /* a folder */
    FILE_READ_NOT_REGULAR, /* a FIFO, a device or a socket, where only a regular file will do */
    FILE_READ_TOO_BIG,     /* more than max bytes */
    FILE_READ_ERROR,       /* read failed: errno_value says why */
} file_read_status;

typedef struct file_text {
    char *text; /* len bytes and a NUL (malloc'd); NULL unless FILE_READ_OK */
    size_t len;
    int errno_value; /* for CANNOT_OPEN and ERROR */
} file_text;

/* Opens path without blocking and reads it whole, at most max bytes. With
 * regular_only, anything but a regular file is FILE_READ_NOT_REGULAR;
 * otherwise a FIFO or a device is read as a stream. */
file_read_status file_read_path(file_text *out, const char *path, size_t max, bool regular_only);

/* Reads an open descriptor to its end, at most max bytes; the descriptor
 * stays open and is switched to blocking reads first. */
file_read_status file_read_fd(file_text *out, int fd, size_t max);

/* Frees the text; accepts a zeroed or deinited one. */
void file_text_deinit(file_text *ft);

#endif
