/* file_read.c - bounded, non-blocking whole-file reads. See file_read.h. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "file_read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"

file_read_status file_read_fd(file_text *out, int fd, size_t max)
{
    *out = (file_text){0};
    (void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    /* A regular file's size, plus one byte to see one that grew meanwhile;
     * doubling from there, never past max + 1. */
    struct stat st;
    size_t cap = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size <= max
                     ? (size_t)st.st_size + 2
                     : 4096;
    size_t n = 0;
    char *buf = ppf_malloc(cap);
    for (;;) {
        if (n + 1 == cap) {
            if (n > max) {
                free(buf);
                return FILE_READ_TOO_BIG;
            }
            cap = cap * 2 > max + 2 ? max + 2 : cap * 2;
            buf = ppf_realloc(buf, cap);
        }
        ssize_t got = read(fd, buf + n, cap - 1 - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            out->errno_value = errno;
            free(buf);
            return FILE_READ_ERROR;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    if (n > max) {
        free(buf);
        return FILE_READ_TOO_BIG;
    }
    buf[n] = '\0';
    out->text = buf;
    out->len = n;
    return FILE_READ_OK;
}

file_read_status file_read_path(file_text *out, const char *path, size_t max, bool regular_only)
{
    *out = (file_text){0};
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        out->errno_value = errno;
        return FILE_READ_CANNOT_OPEN;
    }
    struct stat st;
    file_read_status status;
    if (fstat(fd, &st) != 0) {
        out->errno_value = errno;
        status = FILE_READ_CANNOT_OPEN;
    } else if (S_ISDIR(st.st_mode)) {
        status = FILE_READ_DIRECTORY;
    } else if (regular_only && !S_ISREG(st.st_mode)) {
        status = FILE_READ_NOT_REGULAR;
    } else if (S_ISREG(st.st_mode) && (size_t)st.st_size > max) {
        status = FILE_READ_TOO_BIG;
    } else {
        status = file_read_fd(out, fd, max);
    }
    close(fd);
    return status;
}

void file_text_deinit(file_text *ft)
{
    if (!ft)
        return;
    free(ft->text);
    *ft = (file_text){0};
}
