/* output.c - output files written to a temporary and renamed into place. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "output.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool output_is_stdout(const char *path)
{
    /* /dev/stdout names the descriptor ppflow already holds, not a file:
     * scripts write it out of habit, and following its link would be
     * following a link to a stream, which is refused. */
    return path == NULL || strcmp(path, "-") == 0 || strcmp(path, "/dev/stdout") == 0;
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

/* How an existing target will be written: what output_check decided. */
typedef struct target {
    bool direct;    /* a FIFO or character device: opened and written in place */
    bool keep_mode; /* a regular file is replaced: mode holds its permission bits */
    mode_t mode;
} target;

/* mkstemp creates the file 0600; the result should get the permissions of
 * the file it replaces, or those a plain fopen would give (0666 less the
 * umask). Only the permission bits: a setuid, setgid or sticky bit on the
 * old file is not handed to new content. umask can only be read by setting
 * it, so it is set back at once. */
static void set_mode(int fd, const target *t)
{
    if (t->keep_mode) {
        (void)fchmod(fd, t->mode & 0777);
        return;
    }
    mode_t mask = umask(0);
    umask(mask);
    (void)fchmod(fd, 0666 & ~mask);
}

static const char *kind_name(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISLNK(mode))
        return "a symbolic link";
    return "not a regular file";
}

/* The rules of output.h for an existing target; lstat, so that a symbolic
 * link is judged as a link. What cannot be looked at (a missing or
 * unsearchable directory) is left to the temporary's creation to report. */
static bool inspect(const char *path, output_use use, target *t, ppf_error *err)
{
    *t = (target){0};
    if (path[0] == '\0')
        return ppf_fail(err, "-o: the output path is empty");
    struct stat st;
    if (lstat(path, &st) != 0)
        return true;
    if (S_ISLNK(st.st_mode)) {
        /* The rename replaces the link itself, so writing never goes
         * through it; but a link to a pipe or a device was surely meant to
         * be written through, and replacing it would surprise. So would
         * replacing /dev/stdout, whatever standard output is. */
        if (strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0)
            return ppf_fail(err,
                            "-o %s: is a symbolic link to a process's stream; for standard "
                            "output give -o -",
                            path);
        struct stat to;
        if (stat(path, &to) != 0 || S_ISREG(to.st_mode))
            return true;
        return ppf_fail(err,
                        "-o %s: is a symbolic link to %s; ppflow replaces only links to regular "
                        "files (or to nothing); name the target itself",
                        path, kind_name(to.st_mode));
    }
    if (S_ISREG(st.st_mode)) {
        /* The mode bits, not access(): root may write anything, yet a file
         * nobody may write was made so on purpose. */
        if ((st.st_mode & 0222) == 0)
            return ppf_fail(err,
                            "-o %s: is read-only (mode %03o); ppflow does not replace a file "
                            "nobody may write",
                            path, (unsigned)(st.st_mode & 0777));
        t->keep_mode = true;
        t->mode = st.st_mode & 0777;
        return true;
    }
    if (S_ISDIR(st.st_mode))
        return ppf_fail(err, "-o %s: is a directory", path);
    if (use == OUTPUT_STREAM && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))) {
        t->direct = true;
        return true;
    }
    if (use == OUTPUT_BY_NAME)
        return ppf_fail(err, "-o %s: is %s; this output must be a regular file", path,
                        kind_name(st.st_mode));
    return ppf_fail(err, "-o %s: is %s; ppflow writes files, FIFOs and character devices", path,
                    kind_name(st.st_mode));
}

/* A FIFO or character device, written in place. O_NONBLOCK makes a FIFO
 * with no reader fail at once (ENXIO) instead of waiting in open() for
 * one; the writes then block as usual. O_NOFOLLOW: a link that appeared
 * since inspect() is not followed. */
static bool open_direct(output *o, const char *path, ppf_error *err)
{
    int fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENXIO)
            return ppf_fail(err, "-o %s: is a FIFO with no reader; start the reader first", path);
        return ppf_fail(err, "-o %s: cannot open for writing: %s", path, strerror(errno));
    }
    struct stat st;
    int flags = -1;
    if (fstat(fd, &st) != 0 || !(S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))) {
        close(fd);
        return ppf_fail(err, "-o %s: changed while it was being opened; not written", path);
    }
    if ((flags = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0 ||
        !(o->file = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        return ppf_fail(err, "-o %s: cannot open for writing: %s", path, strerror(e));
    }
    o->path = ppf_strdup(path);
    return true;
}

/* Creates the temporary beside path with the permissions the target would
 * get; returns its descriptor and sets o->path and o->tmp_path, or -1. */
static int create_temp(output *o, const char *path, const target *t, ppf_error *err)
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
    set_mode(fd, t);
    o->path = ppf_strdup(path);
    o->tmp_path = tmp;
    return fd;
}

/* ---- the guard: a signal deletes the temporary ------------------------------ */

/* What the handler needs, set while SIGINT and SIGTERM are blocked and
 * before the handler is installed, cleared only after it is removed. */
static struct {
    const char *tmp_path;             /* the guarded output's temporary */
    char said[2][PPF_ERROR_MAX + 16]; /* the line for SIGINT, for SIGTERM */
    size_t said_len[2];
    struct sigaction old_int, old_term;
} guard;

static void block_stop_signals(sigset_t *old)
{
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, old);
}

static void restore_signals(const sigset_t *old)
{
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* Only async-signal-safe calls: unlink, write, _exit. */
static void on_guard_signal(int sig)
{
    const int k = sig == SIGTERM;
    if (guard.tmp_path)
        unlink(guard.tmp_path);
    ssize_t w = write(STDERR_FILENO, guard.said[k], guard.said_len[k]);
    (void)w;
    _exit(OUTPUT_EXIT_INTERRUPTED);
}

static void guard_line(int k, const char *signame, const char *path)
{
    ppf_error e = {{0}};
    ppf_fail(&e, "interrupted (%s); %s was not written", signame, path);
    int n = snprintf(guard.said[k], sizeof guard.said[k], "ppflow: %s\n", e.message);
    const size_t len = n < 0 ? 0 : (size_t)n; /* snprintf's length, before any cut */
    guard.said_len[k] = len < sizeof guard.said[k] ? len : sizeof guard.said[k] - 1;
}

/* Called with the stop signals blocked. */
static void arm(output *o)
{
    assert(!guard.tmp_path); /* one guarded output at a time */
    guard_line(0, "SIGINT", o->path);
    guard_line(1, "SIGTERM", o->path);
    guard.tmp_path = o->tmp_path;
    struct sigaction act = {0};
    act.sa_handler = on_guard_signal;
    sigemptyset(&act.sa_mask);
    sigaction(SIGINT, &act, &guard.old_int);
    sigaction(SIGTERM, &act, &guard.old_term);
    o->guarded = true;
}

/* Called with the stop signals blocked: a signal that came meanwhile meets
 * the earlier handlers once they are unblocked. */
static void disarm(output *o)
{
    if (!o->guarded)
        return;
    sigaction(SIGINT, &guard.old_int, NULL);
    sigaction(SIGTERM, &guard.old_term, NULL);
    guard.tmp_path = NULL;
    o->guarded = false;
}

/* Deletes the temporary (if any) and releases the output; for a guarded
 * one the handler is removed in the same step, signals held off. */
static void discard(output *o)
{
    sigset_t old;
    block_stop_signals(&old);
    if (o->tmp_path)
        unlink(o->tmp_path);
    disarm(o);
    restore_signals(&old);
    free(o->path);
    free(o->tmp_path);
    *o = (output){0};
}

static void release(output *o)
{
    if (o->guarded) {
        sigset_t old;
        block_stop_signals(&old);
        disarm(o);
        restore_signals(&old);
    }
    free(o->path);
    free(o->tmp_path);
    *o = (output){0};
}

/* ---- opening ------------------------------------------------------------------ */

bool output_check(const char *path, output_use use, ppf_error *err)
{
    if (output_is_stdout(path))
        return use == OUTPUT_STREAM ||
               ppf_fail(err, "-o %s: this output cannot go to standard output; give a file name",
                        path ? path : "-");
    target t;
    return inspect(path, use, &t, err);
}

bool output_probe(const char *path, output_use use, ppf_error *err)
{
    if (output_is_stdout(path))
        return output_check(path, use, err);
    target t;
    if (!inspect(path, use, &t, err))
        return false;
    if (t.direct)
        return true;
    sigset_t old;
    block_stop_signals(&old);
    output probe = {0};
    int fd = create_temp(&probe, path, &t, err);
    if (fd >= 0) {
        close(fd);
        unlink(probe.tmp_path);
    }
    restore_signals(&old);
    free(probe.path);
    free(probe.tmp_path);
    return fd >= 0;
}

bool output_open(output *o, const char *path, ppf_error *err)
{
    *o = (output){0};
    if (output_is_stdout(path)) {
        o->file = stdout;
        return true;
    }
    target t;
    if (!inspect(path, OUTPUT_STREAM, &t, err))
        return false;
    if (t.direct)
        return open_direct(o, path, err);

    int fd = create_temp(o, path, &t, err);
    if (fd < 0)
        return false;
    o->file = fdopen(fd, "w");
    if (!o->file) {
        int e = errno;
        close(fd);
        discard(o);
        return ppf_fail(err, "-o %s: %s", path, strerror(e));
    }
    return true;
}

bool output_open_guarded(output *o, const char *path, ppf_error *err)
{
    /* Blocked from before the temporary exists until the handler knows
     * its name: no moment where a signal could strand it. */
    sigset_t old;
    block_stop_signals(&old);
    const bool ok = output_open(o, path, err);
    if (ok && o->tmp_path)
        arm(o);
    restore_signals(&old);
    return ok;
}

bool output_reserve(output *o, const char *path, ppf_error *err)
{
    *o = (output){0};
    if (output_is_stdout(path))
        return output_check(path, OUTPUT_BY_NAME, err);
    target t;
    if (!inspect(path, OUTPUT_BY_NAME, &t, err))
        return false;
    int fd = create_temp(o, path, &t, err);
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
        ppf_fail(err, "-o %s: writing failed: %s", o->path, strerror(e));
        discard(o);
        return false;
    }
    return true;
}

bool output_publish(output *o, ppf_error *err)
{
    if (o->file)
        return ppf_fail(err, "output not closed");
    /* For a guarded output the rename and the handler's removal are one
     * step: a signal then cannot report "not written" about a file that
     * was. */
    sigset_t old;
    block_stop_signals(&old);
    if (o->tmp_path && rename(o->tmp_path, o->path) != 0) {
        int e = errno;
        restore_signals(&old);
        ppf_fail(err, "-o %s: writing failed: %s", o->path, strerror(e));
        discard(o);
        return false;
    }
    disarm(o);
    restore_signals(&old);
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
    discard(o);
}
