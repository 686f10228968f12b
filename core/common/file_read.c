/* file_read.c - bounded, non-blocking whole-file reads, and the files that
 * other files name. See file_read.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* O_PATH, O_NOFOLLOW on a folder */
#endif
#include "file_read.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "error.h"

/* How far a confined name may go: folders deep, and symbolic links read on
 * the way (the kernel's own limit for links is 40). No real reference
 * comes near either. */
enum { REF_DEPTH_MAX = 64, REF_LINKS_MAX = 40 };

/* File systems whose files are the kernel's interfaces, not stored data:
 * they call themselves regular files, report a size of 0 (procfs) or 4096
 * (sysfs) whatever they hold, and read as the system's state. */
#ifndef CONFIGFS_MAGIC
#define CONFIGFS_MAGIC 0x62656570
#endif
#ifndef FUSECTL_SUPER_MAGIC
#define FUSECTL_SUPER_MAGIC 0x65735543
#endif
static const unsigned long pseudo_file_systems[] = {
    PROC_SUPER_MAGIC,    SYSFS_MAGIC,          DEBUGFS_MAGIC, TRACEFS_MAGIC,
    SECURITYFS_MAGIC,    SELINUX_MAGIC,        SMACK_MAGIC,   CGROUP_SUPER_MAGIC,
    CGROUP2_SUPER_MAGIC, RDTGROUP_SUPER_MAGIC, BPF_FS_MAGIC,  EFIVARFS_MAGIC,
    PSTOREFS_MAGIC,      BINFMTFS_MAGIC,       NSFS_MAGIC,    DEVPTS_SUPER_MAGIC,
    CONFIGFS_MAGIC,      FUSECTL_SUPER_MAGIC,
};

static bool is_pseudo_file(int fd)
{
    struct statfs fs;
    if (fstatfs(fd, &fs) != 0)
        return false; /* nothing says it is one; fstat found a regular file */
    for (size_t k = 0; k < sizeof pseudo_file_systems / sizeof pseudo_file_systems[0]; k++)
        if ((unsigned long)fs.f_type == pseudo_file_systems[k])
            return true;
    return false;
}

const char *file_read_status_text(file_read_status status, const struct stat *st)
{
    switch (status) {
    case FILE_READ_OK:
        return "read";
    case FILE_READ_CANNOT_OPEN:
        return "cannot open";
    case FILE_READ_DIRECTORY:
        return "is a folder, not a file";
    case FILE_READ_NOT_REGULAR:
        if (st && S_ISFIFO(st->st_mode))
            return "is a FIFO (a pipe), not a regular file";
        if (st && S_ISCHR(st->st_mode))
            return "is a character device, not a regular file";
        if (st && S_ISBLK(st->st_mode))
            return "is a block device, not a regular file";
        if (st && S_ISSOCK(st->st_mode))
            return "is a socket, not a regular file";
        return "is not a regular file";
    case FILE_READ_PSEUDO:
        return "is a kernel pseudo-file (/proc, /sys), not a regular file";
    case FILE_READ_OUTSIDE:
        return "leads outside the folder of the file that names it (confined: no absolute path, "
               "no .. above that folder, no symbolic link out of it)";
    case FILE_READ_TOO_BIG:
        return "is too big";
    case FILE_READ_ERROR:
        return "cannot read";
    }
    return "cannot open";
}

/* The kind found before opening: only a regular file is opened. */
static file_read_status kind_of(const struct stat *st)
{
    return S_ISREG(st->st_mode)   ? FILE_READ_OK
           : S_ISDIR(st->st_mode) ? FILE_READ_DIRECTORY
                                  : FILE_READ_NOT_REGULAR;
}

/* The file just opened must be the regular file seen before (pre) and no
 * pseudo-file; returns fd, or closes it and returns -1 with *status. */
static int opened_as_checked(int fd, const struct stat *pre, struct stat *st,
                             file_read_status *status, int *errno_value)
{
    if (fd < 0) {
        *errno_value = errno;
        *status = FILE_READ_CANNOT_OPEN;
        return -1;
    }
    if (fstat(fd, st) != 0) {
        *errno_value = errno;
        *status = FILE_READ_CANNOT_OPEN;
    } else if (!S_ISREG(st->st_mode)) {
        *status = kind_of(st);
    } else if (st->st_dev != pre->st_dev || st->st_ino != pre->st_ino) {
        /* replaced between the look and the open: what was checked is not
         * what would be read */
        *errno_value = EAGAIN;
        *status = FILE_READ_CANNOT_OPEN;
    } else if (is_pseudo_file(fd)) {
        *status = FILE_READ_PSEUDO;
    } else {
        *status = FILE_READ_OK;
        return fd;
    }
    close(fd);
    return -1;
}

enum { OPEN_FILE = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC };

/* Not confined: dir/name (name alone when absolute, or with no dir) as
 * the kernel resolves it, symbolic links followed. */
static int open_plain(const file_ref *ref, struct stat *st, file_read_status *status,
                      int *errno_value)
{
    const char *name = ref->name;
    char joined[PATH_MAX];
    if (name[0] != '/' && ref->dir && ref->dir[0]) {
        const size_t d = strlen(ref->dir), n = strlen(name);
        if (d + 1 + n >= sizeof joined) {
            *errno_value = ENAMETOOLONG;
            *status = FILE_READ_CANNOT_OPEN;
            return -1;
        }
        memcpy(joined, ref->dir, d);
        joined[d] = '/';
        memcpy(joined + d + 1, name, n + 1);
        name = joined;
    }
    struct stat pre;
    if (stat(name, &pre) != 0) {
        *errno_value = errno;
        *status = FILE_READ_CANNOT_OPEN;
        return -1;
    }
    *st = pre;
    if ((*status = kind_of(&pre)) != FILE_READ_OK)
        return -1;
    return opened_as_checked(open(name, OPEN_FILE), &pre, st, status, errno_value);
}

/* The walk's state: the folders entered, from the naming file's own
 * (folders[0]) down; the part of the name still to walk. */
typedef struct walk {
    int folders[REF_DEPTH_MAX];
    int depth; /* folders[depth] is where the walk stands */
    char *rest;
} walk;

static void walk_end(walk *w)
{
    for (int k = 0; k <= w->depth; k++)
        close(w->folders[k]);
    free(w->rest);
}

static int walk_fail(walk *w, file_read_status why, int errno_value, file_read_status *status,
                     int *errno_out)
{
    *status = why;
    *errno_out = errno_value;
    walk_end(w);
    return -1;
}

/* Confined: the name walked one component at a time from the folder, as
 * openat2(RESOLVE_BENEATH) would. Every step is an openat relative to the
 * folder reached so far with O_NOFOLLOW, so the kernel never follows a
 * link on its own; a link's text is spliced into the rest of the name,
 * and ".." steps back to the folder entered before (never above the
 * first). */
static int open_beneath(const file_ref *ref, struct stat *st, file_read_status *status,
                        int *errno_value)
{
    if (ref->name[0] == '/') {
        *status = FILE_READ_OUTSIDE;
        return -1;
    }
    walk w = {.depth = 0};
    w.folders[0] = open(ref->dir && ref->dir[0] ? ref->dir : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (w.folders[0] < 0) {
        *errno_value = errno;
        *status = FILE_READ_CANNOT_OPEN;
        return -1;
    }
    w.rest = ppf_strdup(ref->name);
    size_t pos = 0;
    int links = 0;
    for (;;) {
        while (w.rest[pos] == '/')
            pos++;
        if (w.rest[pos] == '\0') /* the name ends on a folder: "sub/", ".", "a/.." */
            return walk_fail(&w, FILE_READ_DIRECTORY, 0, status, errno_value);
        const size_t end = pos + strcspn(w.rest + pos, "/");
        const bool last = w.rest[end] == '\0';
        char part[NAME_MAX + 1];
        if (end - pos > NAME_MAX)
            return walk_fail(&w, FILE_READ_CANNOT_OPEN, ENAMETOOLONG, status, errno_value);
        memcpy(part, w.rest + pos, end - pos);
        part[end - pos] = '\0';
        pos = end;
        if (strcmp(part, ".") == 0)
            continue;
        if (strcmp(part, "..") == 0) {
            if (w.depth == 0)
                return walk_fail(&w, FILE_READ_OUTSIDE, 0, status, errno_value);
            close(w.folders[w.depth--]);
            continue;
        }
        const int here = w.folders[w.depth];
        struct stat sb;
        if (fstatat(here, part, &sb, AT_SYMLINK_NOFOLLOW) != 0)
            return walk_fail(&w, FILE_READ_CANNOT_OPEN, errno, status, errno_value);
        if (S_ISLNK(sb.st_mode)) {
            char target[PATH_MAX];
            const ssize_t n = readlinkat(here, part, target, sizeof target - 1);
            if (n < 0)
                return walk_fail(&w, FILE_READ_CANNOT_OPEN, errno, status, errno_value);
            if (n == 0 || (size_t)n == sizeof target - 1)
                return walk_fail(&w, FILE_READ_CANNOT_OPEN, n ? ENAMETOOLONG : ENOENT, status,
                                 errno_value);
            if (++links > REF_LINKS_MAX)
                return walk_fail(&w, FILE_READ_CANNOT_OPEN, ELOOP, status, errno_value);
            target[n] = '\0';
            if (target[0] == '/')
                return walk_fail(&w, FILE_READ_OUTSIDE, 0, status, errno_value);
            /* the link's text, then what was left after it */
            const size_t left = strlen(w.rest + pos);
            char *next = ppf_malloc((size_t)n + left + 1);
            memcpy(next, target, (size_t)n);
            memcpy(next + n, w.rest + pos, left + 1);
            free(w.rest);
            w.rest = next;
            pos = 0;
            continue;
        }
        if (!last) {
            if (!S_ISDIR(sb.st_mode))
                return walk_fail(&w, FILE_READ_CANNOT_OPEN, ENOTDIR, status, errno_value);
            if (w.depth + 1 == REF_DEPTH_MAX)
                return walk_fail(&w, FILE_READ_CANNOT_OPEN, ENAMETOOLONG, status, errno_value);
            /* O_NOFOLLOW | O_DIRECTORY: a link swapped in since the look
             * fails here instead of being followed */
            const int fd = openat(here, part, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (fd < 0)
                return walk_fail(&w, FILE_READ_CANNOT_OPEN, errno, status, errno_value);
            w.folders[++w.depth] = fd;
            continue;
        }
        *st = sb;
        const file_read_status kind = kind_of(&sb);
        if (kind != FILE_READ_OK)
            return walk_fail(&w, kind, 0, status, errno_value);
        const int fd = openat(here, part, OPEN_FILE | O_NOFOLLOW);
        const int saved = errno;
        walk_end(&w);
        errno = saved;
        return opened_as_checked(fd, &sb, st, status, errno_value);
    }
}

int file_ref_open(const file_ref *ref, struct stat *st, file_read_status *status, int *errno_value)
{
    *status = FILE_READ_OK;
    *errno_value = 0;
    memset(st, 0, sizeof *st);
    if (!ref->name[0]) {
        *errno_value = ENOENT;
        *status = FILE_READ_CANNOT_OPEN;
        return -1;
    }
    return ref->confine ? open_beneath(ref, st, status, errno_value)
                        : open_plain(ref, st, status, errno_value);
}

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

file_read_status file_read_ref(file_text *out, const file_ref *ref, size_t max, struct stat *st)
{
    *out = (file_text){0};
    struct stat found;
    file_read_status status;
    int errno_value;
    const int fd = file_ref_open(ref, &found, &status, &errno_value);
    if (st)
        *st = found;
    if (fd < 0) {
        out->errno_value = errno_value;
        return status;
    }
    status = (size_t)found.st_size > max ? FILE_READ_TOO_BIG : file_read_fd(out, fd, max);
    close(fd);
    return status;
}

file_read_status file_read_path(file_text *out, const char *path, size_t max, bool regular_only)
{
    if (regular_only)
        return file_read_ref(out, &(file_ref){.name = path}, max, NULL);
    *out = (file_text){0};
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
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
