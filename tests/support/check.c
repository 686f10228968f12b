/* check.c - the functions behind assert_message and assert_printable. See
 * check.h. */
#include "check.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void check_message_at(const char *message, const char *const *pieces, const char *file, int line)
{
    for (const char *const *p = pieces; *p; p++) {
        if (!strstr(message, *p)) {
            print_error("message \"%s\" lacks \"%s\"\n", message, *p);
            _fail(file, line);
        }
    }
    check_printable_at(message, file, line);
}

/* The code point of the UTF-8 sequence at s[0..len) into *cp and its
 * length, 0 when it is none (RFC 3629, strictly). Written apart from
 * core/common/utf8.c on purpose: a check must not share the bug it looks for. */
static size_t decode(const unsigned char *s, size_t len, unsigned long *cp)
{
    static const struct {
        unsigned char lo, hi; /* the lead byte's range */
        size_t n;
        unsigned long least; /* smallest code point of this length */
    } forms[] = {{0x00, 0x7F, 1, 0},
                 {0xC0, 0xDF, 2, 0x80},
                 {0xE0, 0xEF, 3, 0x800},
                 {0xF0, 0xF7, 4, 0x10000}};
    for (size_t f = 0; f < 4; f++) {
        if (s[0] < forms[f].lo || s[0] > forms[f].hi)
            continue;
        const size_t n = forms[f].n;
        if (len < n)
            return 0;
        unsigned long v = s[0] & (n == 1 ? 0x7F : 0x3F >> (n - 1));
        for (size_t k = 1; k < n; k++) {
            if ((s[k] & 0xC0) != 0x80)
                return 0;
            v = v << 6 | (s[k] & 0x3F);
        }
        if (v < forms[f].least || (v >= 0xD800 && v <= 0xDFFF) || v > 0x10FFFF)
            return 0;
        *cp = v;
        return n;
    }
    return 0;
}

static bool acts_on_terminal(unsigned long cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 ||
           cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
           (cp >= 0x2066 && cp <= 0x2069);
}

/* s[0..len) is valid UTF-8; unless any_char, with no character that acts
 * on a terminal (but new lines and tabs, with lines). */
static void check_text(const char *s, size_t len, bool lines, bool any_char, const char *file,
                       int line)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t k = 0; k < len;) {
        unsigned long cp = 0;
        const size_t n = decode(u + k, len - k, &cp);
        if (n == 0) {
            print_error("byte 0x%02X at offset %zu is not UTF-8 in \"%.200s\"\n", u[k], k, s);
            _fail(file, line);
        }
        if (!any_char && acts_on_terminal(cp) && !(lines && (cp == '\n' || cp == '\t'))) {
            print_error("U+%04lX at offset %zu in \"%.200s\"\n", cp, k, s);
            _fail(file, line);
        }
        k += n;
    }
}

void check_printable_at(const char *s, const char *file, int line)
{
    check_text(s, strlen(s), false, false, file, line);
}

void check_terminal_safe_at(const char *s, size_t len, const char *file, int line)
{
    check_text(s, len, true, false, file, line);
}

void check_valid_utf8_at(const char *s, size_t len, const char *file, int line)
{
    check_text(s, len, false, true, file, line);
}

void skip_for_missing_tool_at(const char *file, int line, const char *fmt, ...)
{
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    const char *required = getenv("PPFLOW_REQUIRE_TOOLS");
    if (required && strcmp(required, "1") == 0) {
        print_error("%s; PPFLOW_REQUIRE_TOOLS=1 (make test, CI): tools/deps.sh installs it, so "
                    "this is a broken harness, not a skip\n",
                    why);
        _fail(file, line);
    }
    print_message("SKIPPED: %s\n", why);
    skip();
}
