/* Tests of utf8.h: the one UTF-8 reader, against RFC 3629's table and the
 * forms an attacker writes (stray bytes, overlong forms, surrogates, code
 * points past U+10FFFF, sequences cut short). */
#include <string.h>

#include "support/check.h"
#include "utf8.h"

/* utf8_decode of the whole of s must give cp in all of its bytes. */
static void expect_decodes(const char *s, uint32_t cp)
{
    uint32_t got = 0;
    const size_t n = utf8_decode(s, strlen(s), &got);
    assert_int_equal(n, strlen(s));
    assert_int_equal(got, cp);
    size_t bad = 99;
    assert_true(utf8_check(s, strlen(s), &bad));
    assert_int_equal(bad, 99); /* untouched */
}

/* s is refused, the first bad byte at `at`. */
static void expect_refused(const char *s, size_t len, size_t at)
{
    size_t bad = 99;
    if (utf8_check(s, len, &bad))
        fail_msg("\"%s\" (%zu bytes) was taken as UTF-8", s, len);
    assert_int_equal(bad, at);
}

static void test_decodes_each_length(void **state)
{
    (void)state;
    expect_decodes("A", 'A');
    expect_decodes("\x7F", 0x7F);
    expect_decodes("\xC2\x80", 0x80);
    expect_decodes("\xC2\x9B", 0x9B); /* a C1 control is valid UTF-8: quote.h escapes it */
    expect_decodes("\xDF\xBF", 0x7FF);
    expect_decodes("\xE0\xA0\x80", 0x800);
    expect_decodes("\xE2\x80\xAE", 0x202E);
    expect_decodes("\xED\x9F\xBF", 0xD7FF);
    expect_decodes("\xEE\x80\x80", 0xE000);
    expect_decodes("\xEF\xBF\xBD", 0xFFFD);
    expect_decodes("\xF0\x90\x80\x80", 0x10000);
    expect_decodes("\xF4\x8F\xBF\xBF", 0x10FFFF);
    uint32_t cp = 0;
    assert_int_equal(utf8_decode("\0", 1, &cp), 1); /* NUL is U+0000 */
    assert_true(utf8_check("", 0, NULL));
    assert_true(utf8_check("ab∇c", strlen("ab∇c"), NULL));
}

static void test_refuses_what_is_not_utf8(void **state)
{
    (void)state;
    expect_refused("ab\xFF", 3, 2);           /* a stray byte */
    expect_refused("\xFE", 1, 0);             /* never in UTF-8 */
    expect_refused("a\x80", 2, 1);            /* a continuation with no lead */
    expect_refused("x\xC0\x80", 3, 1);        /* U+0000 overlong */
    expect_refused("\xC1\xBF", 2, 0);         /* U+007F overlong */
    expect_refused("\xE0\x80\x80", 3, 0);     /* overlong in three bytes */
    expect_refused("\xE0\x9F\xBF", 3, 0);     /* U+07FF overlong */
    expect_refused("\xF0\x8F\xBF\xBF", 4, 0); /* U+FFFF overlong */
    expect_refused("ok\xED\xA0\x80", 5, 2);   /* U+D800, a surrogate */
    expect_refused("\xED\xBF\xBF", 3, 0);     /* U+DFFF */
    expect_refused("\xF4\x90\x80\x80", 4, 0); /* U+110000 */
    expect_refused("\xF5\x80\x80\x80", 4, 0); /* past any code point */
    expect_refused("abc\xE2\x80", 5, 3);      /* cut short by the end */
    expect_refused("\xE2\x80"
                   "a",
                   3, 0);                 /* cut short by ASCII */
    expect_refused("\xC2\x80\xC2", 3, 2); /* after a good one */
    uint32_t cp = 7;
    assert_int_equal(utf8_decode("\xE2\x82\xAC", 2, &cp), 0); /* len counts */
    assert_int_equal(cp, 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decodes_each_length),
        cmocka_unit_test(test_refuses_what_is_not_utf8),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
