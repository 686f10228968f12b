/* scratch.c - temporary test directories. See scratch.h. */
#include "scratch.h"

#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

bool scratch_init(char *dir, size_t size, const char *name)
{
    const char *tmp = getenv("TMPDIR");
    int n = snprintf(dir, size, "%s/%s.XXXXXX", tmp && *tmp ? tmp : "/tmp", name);
    if (n < 0 || (size_t)n >= size)
        return false;
    return mkdtemp(dir) != NULL;
}

void scratch_empty(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            scratch_empty(path);
            rmdir(path);
        } else {
            unlink(path);
        }
    }
    closedir(d);
}

void scratch_deinit(const char *dir)
{
    if (!dir[0])
        return;
    scratch_empty(dir);
    rmdir(dir);
}

static bool ignored(const char *name, const char *const *ignore)
{
    for (; ignore && *ignore; ignore++)
        if (strcmp(name, *ignore) == 0)
            return true;
    return false;
}

int scratch_count(const char *dir, const char *const *ignore)
{
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot list %s: %s", dir, strerror(errno));
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        const char *name = e->d_name;
        if (strcmp(name, ".") != 0 && strcmp(name, "..") != 0 && !ignored(name, ignore))
            n++;
    }
    closedir(d);
    return n;
}

bool scratch_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

void scratch_join(char *buf, size_t size, const char *dir, const char *name)
{
    int n = snprintf(buf, size, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= size)
        fail_msg("path %s/%s does not fit in %zu bytes", dir, name, size);
}

void scratch_write_bytes(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        fail_msg("cannot write %s: %s", path, strerror(errno));
    assert_int_equal(fwrite(data, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
}

void scratch_write(const char *path, const char *text)
{
    scratch_write_bytes(path, text, strlen(text));
}

void scratch_put(char *path, size_t size, const char *dir, const char *name, const char *text)
{
    scratch_join(path, size, dir, name);
    scratch_write(path, text);
}

int scratch_setup(void **state, char *dir, size_t size, const char *name)
{
    if (!scratch_init(dir, size, name))
        return -1;
    *state = dir;
    return 0;
}

int scratch_before_each(void **state)
{
    scratch_empty(*state);
    return 0;
}

int scratch_teardown(void **state)
{
    scratch_deinit(*state);
    return 0;
}
