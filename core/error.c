#include "error.h"

#include <sys/mman.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* True for bytes that a terminal acts on instead of showing: C0 controls,
 * DEL, and the C1 controls' UTF-8 form (0xC2 0x80..0x9F) starting at s. */
static size_t control_length(const unsigned char *s)
{
    if (s[0] < 0x20 || s[0] == 0x7F)
        return 1;
    if (s[0] == 0xC2 && s[1] >= 0x80 && s[1] <= 0x9F)
        return 2;
    return 0;
}

void ppf_escape_controls(char *s, size_t size)
{
    size_t len = strlen(s), n;
    bool clean = true;
    for (size_t k = 0; k < len && clean; k++)
        clean = control_length((const unsigned char *)s + k) == 0;
    if (clean || size == 0)
        return;
    char *copy = ppf_strdup(s);
    const unsigned char *u = (const unsigned char *)copy;
    size_t o = 0;
    for (size_t k = 0; k < len;) {
        n = control_length(u + k);
        size_t need = n ? 4 * n : 1;
        if (o + need + 4 > size) { /* keep room for "..." and the NUL */
            memcpy(s + o, "...", 3);
            o += 3;
            break;
        }
        if (n == 0) {
            s[o++] = (char)u[k++];
            continue;
        }
        for (size_t j = 0; j < n; j++, k++)
            o += (size_t)snprintf(s + o, 5, "\\x%02X", u[k]);
    }
    s[o] = '\0';
    free(copy);
}

bool ppf_fail(ppf_error *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        ppf_escape_controls(err->message, sizeof err->message);
    }
    return false;
}

void ppf_print(FILE *f, const char *fmt, ...)
{
    char line[2 * PPF_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    ppf_escape_controls(line, sizeof line);
    fprintf(f, "ppflow: %s\n", line);
}

void ppf_oom(const char *what)
{
    fprintf(stderr, "ppflow: out of memory (%s)\n", what);
    abort();
}

void *ppf_malloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        ppf_oom("malloc");
    return p;
}

void *ppf_calloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        ppf_oom("calloc");
    return p;
}

void *ppf_realloc(void *ptr, size_t size)
{
    void *p = realloc(ptr, size ? size : 1);
    if (!p)
        ppf_oom("realloc");
    return p;
}

char *ppf_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = ppf_malloc(n);
    memcpy(p, s, n);
    return p;
}

void *ppf_malloc_large(size_t size)
{
    enum { HUGE_PAGE = 2 << 20 };
    if (size < 2 * (size_t)HUGE_PAGE)
        return ppf_malloc(size);
    void *p = NULL;
    size_t rounded = (size + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    if (posix_memalign(&p, HUGE_PAGE, rounded) != 0)
        ppf_oom("posix_memalign");
#ifdef MADV_HUGEPAGE
    madvise(p, rounded, MADV_HUGEPAGE); /* a hint: without it, plain pages */
#endif
    return p;
}
