/* check.h - the comparisons ppflow's tests make, as cmocka assertions that
 * print both values (and the expressions) when they fail.
 *
 * What it is for: one copy of the checks that test files used to define for
 * themselves: numbers equal within a tolerance, doubles equal to the bit,
 * an error message that names what it must and stays one printable
 * line, and any text that must be that line. Include it instead of cmocka.h: it brings the headers
 * cmocka needs first (setjmp.h, stdarg.h, stddef.h, stdint.h) and cmocka.h itself.
 *
 * What it does not do: no pixels (gl_fixture.h compares those), no child
 * processes (child.h), nothing that needs a GL context.
 *
 * Use:
 *     assert_near(v->t0, 0.5, 1e-9);            |got - want| <= tol
 *     assert_near_rel(tl.makespan, 33, 1e-12);  |got - want| <= rel * max(1, |got|, |want|)
 *     assert_same_double(parsed, written);      got == want (NaN never is)
 *     assert_lt(a, b), assert_le, assert_gt, assert_ge: a < b, <=, >, >= (NaN never is)
 *     assert_message(&err, "--fps", "from 1"); each piece in err.message, one printable line
 *     assert_printable(q.s);                    no control character in q.s
 *     assert_terminal_safe(r.out, r.out_len);   lines a terminal shows as text
 *
 * Errors: a failed check fails the current test at the caller's file and
 * line, after printing both sides with %.17g (or the message and what it
 * lacks).
 */
#ifndef PPFLOW_TEST_CHECK_H
#define PPFLOW_TEST_CHECK_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

/* Fails unless |got - want| <= tol (an absolute tolerance; 0: equal). */
#define assert_near(got, want, tol)                                                                \
    do {                                                                                           \
        const double got_ = (got), want_ = (want), tol_ = (tol);                                   \
        if (!(fabs(got_ - want_) <= tol_))                                                         \
            fail_msg("%s = %.17g, expected %s = %.17g (tolerance %.3g)", #got, got_, #want, want_, \
                     tol_);                                                                        \
    } while (0)

/* Fails unless |got - want| <= rel * max(1, |got|, |want|): relative for
 * large values, absolute below 1. */
#define assert_near_rel(got, want, rel)                                                            \
    do {                                                                                           \
        const double got_ = (got), want_ = (want), rel_ = (rel);                                   \
        if (!(fabs(got_ - want_) <= rel_ * fmax(1.0, fmax(fabs(got_), fabs(want_)))))              \
            fail_msg("%s = %.17g, expected %s = %.17g (relative tolerance %.3g)", #got, got_,      \
                     #want, want_, rel_);                                                          \
    } while (0)

/* Fails unless got == want exactly: for numbers a writer promises to read
 * back bit for bit. */
#define assert_same_double(got, want)                                                              \
    do {                                                                                           \
        const double got_ = (got), want_ = (want);                                                 \
        if (got_ != want_)                                                                         \
            fail_msg("%s = %.17g, expected %s = %.17g", #got, got_, #want, want_);                 \
    } while (0)

/* Fails unless a op b, both read as doubles (integers to 2^53 exactly; a
 * NaN compares false), printing both expressions and values. */
#define assert_ordered_(a, op, b)                                                                  \
    do {                                                                                           \
        const double a_ = (double)(a), b_ = (double)(b);                                           \
        if (!(a_ op b_))                                                                           \
            fail_msg("%s = %.17g, expected %s %s = %.17g", #a, a_, #op, #b, b_);                   \
    } while (0)
#define assert_lt(a, b) assert_ordered_(a, <, b)
#define assert_le(a, b) assert_ordered_(a, <=, b)
#define assert_gt(a, b) assert_ordered_(a, >, b)
#define assert_ge(a, b) assert_ordered_(a, >=, b)

/* Fails unless the ppf_error's message contains every piece given and is
 * printable (assert_printable): one line. */
#define assert_message(err, ...)                                                                   \
    check_message_at((err)->message, (const char *const[]){__VA_ARGS__, NULL}, __FILE__, __LINE__)

/* Fails unless the string holds no control character: no byte below 0x20,
 * no DEL and no C1 control in UTF-8 (U+0080 to U+009F), so that a terminal
 * shows it as one line of text and obeys nothing in it; nor anything that
 * reorders or breaks what follows (U+2028, U+2029, the bidi controls
 * U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069), nor a byte that
 * is not valid UTF-8. The check is written here on its own, not with
 * ppflow's utf8.h and quote.h, which it checks. */
#define assert_printable(s) check_printable_at((s), __FILE__, __LINE__)

/* The same for text of len bytes that may span lines: newlines and tabs
 * allowed, every other rule of assert_printable kept (a NUL byte fails). */
#define assert_terminal_safe(s, len) check_terminal_safe_at((s), (len), __FILE__, __LINE__)

/* Valid UTF-8 throughout (RFC 3629: no overlong forms, surrogates or code
 * points past U+10FFFF), len bytes: what a JSON reader demands. */
#define assert_valid_utf8(s, len) check_valid_utf8_at((s), (len), __FILE__, __LINE__)

/* assert_message's body: `pieces` NULL-terminated, file and line the caller's. */
void check_message_at(const char *message, const char *const *pieces, const char *file, int line);

/* assert_printable's body. */
void check_printable_at(const char *s, const char *file, int line);

/* Skips the current test because a tool it needs is missing (why: one
 * line naming it); but fails it when PPFLOW_REQUIRE_TOOLS is set to 1, as
 * `make test` and CI set it after tools/deps.sh has installed every tool:
 * there a skip would mean a broken harness passing unseen. cmocka's skip()
 * and fail_msg() do not return. */
#define skip_for_missing_tool(...) skip_for_missing_tool_at(__FILE__, __LINE__, __VA_ARGS__)
void skip_for_missing_tool_at(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* assert_terminal_safe's body. */
void check_terminal_safe_at(const char *s, size_t len, const char *file, int line);
/* assert_valid_utf8's body. */
void check_valid_utf8_at(const char *s, size_t len, const char *file, int line);

#endif
