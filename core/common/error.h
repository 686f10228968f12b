/* error.h - how core/ reports bad input.
 *
 * ppflow has three kinds of failure (STYLE.md): a programmer's mistake is an
 * assert; bad input (a flag, a scenario file, a CSV, a schedule that cannot
 * run) comes back to the caller as false plus one line in a ppf_error naming
 * the field, the value and the rule; running out of memory goes through
 * ppf_oom(), which prints and aborts.
 *
 * Usage:
 *     ppf_error err = {0};
 *     if (!scenario_load(&sc, path, &err)) { fprintf(stderr, "ppflow: %s\n", err.message); exit(2);
 * }
 *
 * The allocation helpers (ppf_malloc, ppf_calloc, ppf_realloc) never return
 * NULL: they call ppf_oom() instead, so callers need no NULL checks.
 */
#ifndef PPFLOW_ERROR_H
#define PPFLOW_ERROR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum { PPF_ERROR_MAX = 512 };

typedef struct ppf_error {
    char message[PPF_ERROR_MAX]; /* one line, no trailing newline; "" when no error */
} ppf_error;

/* Formats the message into err (which may be NULL) and returns false, so a
 * check reads `return ppf_fail(err, "stages = %d: must be at least 1", p);`.
 * Control characters that a path or a value carried in (a newline, ESC,
 * C1 controls) come out as \xHH (quote_message, quote.h), so the message
 * stays one printable line. */
bool ppf_fail(ppf_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints "ppflow: MESSAGE\n" to f with the same escaping as ppf_fail: the
 * one way a message that may quote user text reaches a terminal. */
void ppf_print(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints "ppflow: out of memory (what)" and aborts. */
_Noreturn void ppf_oom(const char *what);

void *ppf_malloc(size_t size);               /* malloc that never returns NULL */
void *ppf_calloc(size_t count, size_t size); /* calloc that never returns NULL (overflow-checked) */
void *ppf_realloc(void *ptr, size_t size);   /* realloc that never returns NULL */
char *ppf_strdup(const char *s);             /* strdup that never returns NULL */

/* ppf_malloc for large arrays (simulation tables, timelines): asks the
 * kernel for huge pages, which turns thousands of page faults on first touch
 * into a few. Free with free(); realloc works on it too. */
void *ppf_malloc_large(size_t size);

#endif
