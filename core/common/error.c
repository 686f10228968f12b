#include "error.h"

#include <sys/mman.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quote.h"

bool ppf_fail(ppf_error *err, const char *fmt, ...)
{
    if (err) {
        char raw[sizeof err->message];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(raw, sizeof raw, fmt, ap);
        va_end(ap);
        quote_message(err->message, sizeof err->message, raw);
    }
    return false;
}

void ppf_print(FILE *f, const char *fmt, ...)
{
    char raw[2 * PPF_ERROR_MAX], line[2 * PPF_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    quote_message(line, sizeof line, raw);
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
