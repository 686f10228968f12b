/* output.c - output files written to a temporary and renamed into place. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool output_is_stdout(const char *path)
{
    return path == NULL || strcmp(path, "-") == 0;
}

/* The directory part of path ("." when it has none), and a template for the
 * temporary: "DIR/.NAME.tmp.XXXXXX". */
static char *temp_template(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    static const char suffix[] = ".tmp.XXXXXX";
    size_t n = dir_len + 1 + strlen(name) + sizeof suffix;
    char *t = ppf_malloc(n);
    memcpy(t, path, dir_len);
    snprintf(t + dir_len, n - dir_len, ".%s%s", name, suffix);
    return t;
}

/* The directory that will hold path, for messages. */
static void directory_of(const char *path, char *buf, size_t size)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(buf, size, ".");
    else if (slash == path)
        snprintf(buf, size, "/");
    else
        snprintf(buf, size, "%.*s", (int)(slash - path), path);
}

/* mkstemp creates the file 0600; the result should get the permissions of
 * the file it replaces, or those a plain fopen would give (0666 less the
 * umask). umask can only be read by setting it, so it is set back at once. */
static void set_mode(int fd, const struct stat *replaced)
{
    if (replaced) {
        (void)fchmod(fd, replaced->st_mode & 07777);
        return;
    }
    mode_t mask = umask(0);
    umask(mask);
    (void)fchmod(fd, 0666 & ~mask);
}

static bool open_direct(output *o, const char *path, ppf_error *err)
{
    o->file = fopen(path, "w");
    if (!o->file)
        return ppf_fail(err, "-o %s: cannot open for writing: %s", path, strerror(errno));
    o->path = ppf_strdup(path);
    return true;
}

/* Creates the temporary beside path with the permissions the target would
 * get; returns its descriptor and sets o->path and o->tmp_path, or -1. */
static int create_temp(output *o, const char *path, const struct stat *replaced, ppf_error *err)
{
    char *tmp = temp_template(path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        char dir[1024];
        directory_of(path, dir, sizeof dir);
        free(tmp);
        ppf_fail(err, "-o %s: cannot create a file in %s: %s", path, dir, strerror(e));
        return -1;
    }
    set_mode(fd, replaced);
    o->path = ppf_strdup(path);
    o->tmp_path = tmp;
    return fd;
}

static void release(output *o)
{
    free(o->path);
    free(o->tmp_path);
    *o = (output){0};
}

bool output_open(output *o, const char *path, ppf_error *err)
{
    *o = (output){0};
    if (output_is_stdout(path)) {
        o->file = stdout;
        return true;
    }
    if (path[0] == '\0')
        return ppf_fail(err, "-o: the output path is empty");

    struct stat st;
    const bool exists = stat(path, &st) == 0;
    if (exists) {
        if (S_ISDIR(st.st_mode))
            return ppf_fail(err, "-o %s: is a directory", path);
        if (!S_ISREG(st.st_mode))
            return open_direct(o, path, err);
    }

    int fd = create_temp(o, path, exists ? &st : NULL, err);
    if (fd < 0)
        return false;
    o->file = fdopen(fd, "w");
    if (!o->file) {
        int e = errno;
        close(fd);
        unlink(o->tmp_path);
        release(o);
        return ppf_fail(err, "-o %s: %s", path, strerror(e));
    }
    return true;
}

bool output_reserve(output *o, const char *path, ppf_error *err)
{
    *o = (output){0};
    if (output_is_stdout(path))
        return ppf_fail(err, "-o -: this output cannot go to standard output; give a file name");
    if (path[0] == '\0')
        return ppf_fail(err, "-o: the output path is empty");
    struct stat st;
    const bool exists = stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode))
        return ppf_fail(err, "-o %s: is a directory", path);
    if (exists && !S_ISREG(st.st_mode))
        return ppf_fail(err, "-o %s: is not a regular file", path);
    int fd = create_temp(o, path, exists ? &st : NULL, err);
    if (fd < 0)
        return false;
    close(fd);
    return true;
}

/* Makes the rename itself durable; failure here loses nothing already
 * visible, so it is not reported. */
static void sync_directory(const char *path)
{
    char dir[1024];
    directory_of(path, dir, sizeof dir);
    int fd = open(dir, O_RDONLY);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

/* fsync by name, for a temporary someone else wrote; 0 or an errno. */
static int sync_by_name(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return errno;
    int e = 0;
    if (fsync(fd) != 0 && errno != EINVAL && errno != EROFS)
        e = errno;
    close(fd);
    return e;
}

static bool close_stdout(output *o, ppf_error *err)
{
    const int earlier = errno; /* see output_close */
    int e = 0;
    if (ferror(stdout))
        e = earlier ? earlier : EIO;
    else if (fflush(stdout) != 0)
        e = errno ? errno : EIO;
    *o = (output){0};
    return e == 0 || ppf_fail(err, "writing to standard output: %s", strerror(e));
}

bool output_close(output *o, ppf_error *err)
{
    if (!o->path && o->file == stdout)
        return close_stdout(o, err);
    if (!o->path)
        return ppf_fail(err, "output already closed");

    /* Each step can be the first to see a full disk: fflush and fsync
     * report buffered and delayed writes, ferror one that failed earlier
     * inside fwrite (whose errno, ENOSPC say, is most likely still the one
     * in errno on entry), fclose the last buffer. */
    const int earlier = errno;
    int e = 0;
    if (o->file) {
        if (ferror(o->file))
            e = earlier ? earlier : EIO;
        else if (fflush(o->file) != 0)
            e = errno ? errno : EIO;
        else if (o->tmp_path && fsync(fileno(o->file)) != 0 && errno != EINVAL && errno != EROFS)
            e = errno;
        if (fclose(o->file) != 0 && e == 0)
            e = errno ? errno : EIO;
        o->file = NULL;
    } else if (o->tmp_path) {
        e = sync_by_name(o->tmp_path);
    }
    if (e != 0) {
        if (o->tmp_path)
            unlink(o->tmp_path);
        ppf_fail(err, "-o %s: writing failed: %s", o->path, strerror(e));
        release(o);
        return false;
    }
    return true;
}

bool output_publish(output *o, ppf_error *err)
{
    if (o->file)
        return ppf_fail(err, "output not closed");
    if (o->tmp_path && rename(o->tmp_path, o->path) != 0) {
        int e = errno;
        unlink(o->tmp_path);
        ppf_fail(err, "-o %s: writing failed: %s", o->path, strerror(e));
        release(o);
        return false;
    }
    if (o->tmp_path)
        sync_directory(o->path);
    release(o);
    return true;
}

bool output_commit(output *o, ppf_error *err)
{
    if (!o->file && !o->tmp_path)
        return ppf_fail(err, "output already closed");
    if (o->file == stdout)
        return close_stdout(o, err);
    return output_close(o, err) && output_publish(o, err);
}

void output_abort(output *o)
{
    if (o->file && o->file != stdout)
        fclose(o->file);
    else if (o->file == stdout)
        fflush(stdout);
    if (o->tmp_path)
        unlink(o->tmp_path);
    release(o);
}
