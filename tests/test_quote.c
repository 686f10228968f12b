/* Tests of quote.h: what each form escapes, where it cuts, and that no
 * form lets a control character through. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "quote.h"
#include "support/check.h"

static void test_value_is_quoted_and_escaped(void **state)
{
    (void)state;
    assert_string_equal(quote_string("1f1b").s, "\"1f1b\"");
    assert_string_equal(quote_string("a\"b\\c").s, "\"a\\\"b\\\\c\"");
    assert_string_equal(quote_string("a\nb\x1b").s, "\"a\\x0Ab\\x1B\"");
    /* Printable UTF-8 stays; a line separator, a bidi control, a C1
     * control and invalid bytes do not. */
    assert_string_equal(quote_string("∇x³").s, "\"∇x³\"");
    assert_string_equal(quote_string("a\xE2\x80\xA8"
                                     "b")
                            .s,
                        "\"a\\u2028b\"");
    assert_string_equal(quote_string("gpj.\xE2\x80\xAE"
                                     "exe")
                            .s,
                        "\"gpj.\\u202Eexe\"");
    assert_string_equal(quote_string("\xC2\x85").s, "\"\\xC2\\x85\"");
    assert_string_equal(quote_string("\xFF").s, "\"\\xFF\"");
    assert_string_equal(quote_value("ab\0c", 4).s, "\"ab\\x00c\"");
    /* Forms that are not UTF-8 at all: overlong, a surrogate, past U+10FFFF. */
    assert_string_equal(quote_string("\xC0\x80").s, "\"\\xC0\\x80\"");
    assert_string_equal(quote_string("\xED\xA0\x80").s, "\"\\xED\\xA0\\x80\"");
    assert_string_equal(quote_string("\xF4\x90\x80\x80").s, "\"\\xF4\\x90\\x80\\x80\"");
    assert_string_equal(quote_bare("a\"b", 3).s, "a\"b");
}

static void test_value_is_cut_after_its_limit(void **state)
{
    (void)state;
    char text[200];
    memset(text, 'x', sizeof text);
    quoted q = quote_value(text, QUOTE_VALUE_MAX);
    assert_int_equal(strlen(q.s), QUOTE_VALUE_MAX + 2);
    q = quote_value(text, QUOTE_VALUE_MAX + 1);
    assert_int_equal(strlen(q.s), QUOTE_VALUE_MAX + 5);
    assert_memory_equal(q.s + QUOTE_VALUE_MAX + 1, "...\"", 4);
    /* A UTF-8 sequence that the cut splits is escaped, not half kept. */
    memcpy(text + QUOTE_VALUE_MAX - 1, "³", 2);
    q = quote_value(text, QUOTE_VALUE_MAX + 1);
    assert_non_null(strstr(q.s, "x\\xC2...\""));

    text[sizeof text - 1] = '\0';
    q = quote_path(text);
    assert_int_equal(strlen(q.s), QUOTE_PATH_MAX + 3);
    assert_int_equal(q.s[0], 'x');
    /* The longest form fits: every byte of a cut path escaped. */
    memset(text, '\x01', sizeof text - 1);
    q = quote_path(text);
    assert_int_equal(strlen(q.s), QUOTE_PATH_MAX * 4 + 3);
    assert_printable(q.s);
}

static void test_ascii_escapes_all_but_printable_ascii(void **state)
{
    (void)state;
    char out[96];
    assert_int_equal(quote_ascii(out, sizeof out, "2F5", 3), 3);
    assert_string_equal(out, "2F5");
    quote_ascii(out, sizeof out, "1F\n\x01\"³", 7);
    assert_string_equal(out, "1F\\x0a\\x01\\x22\\xc2\\xb3");
    quote_ascii(out, sizeof out, "", 0);
    assert_string_equal(out, "");
    /* Writing stops with fewer than 6 bytes left; "..." when 4 or 5 are. */
    char text[128];
    memset(text, 'a', sizeof text);
    assert_int_equal(quote_ascii(out, sizeof out, text, sizeof text), 94);
    assert_memory_equal(out + 91, "...", 4);
    memset(text, '\x01', sizeof text);
    assert_int_equal(quote_ascii(out, sizeof out, text, sizeof text), 95);
    assert_memory_equal(out + 88, "\\x01...", 8);
    /* An escape that ends within 3 bytes of the end leaves no room for it. */
    memset(text, 'a', 89);
    assert_int_equal(quote_ascii(out, sizeof out, text, sizeof text), 93);
    assert_memory_equal(out + 89, "\\x01", 5);
    assert_printable(out);
}

static void test_message_escapes_only_controls(void **state)
{
    (void)state;
    char out[64];
    quote_message(out, sizeof out, "schedule = \"∇\": a \"quote\" stays");
    assert_string_equal(out, "schedule = \"∇\": a \"quote\" stays");
    quote_message(out, sizeof out,
                  "a\nb\x7f\xC2\x9B"
                  "c");
    assert_string_equal(out, "a\\x0Ab\\x7F\\xC2\\x9Bc");
    /* A clean message that fits is copied whole, to the last byte. */
    char text[64];
    memset(text, 'm', sizeof text - 1);
    text[sizeof text - 1] = '\0';
    quote_message(out, sizeof out, text);
    assert_string_equal(out, text);
    /* One that must be escaped is cut where "..." still fits. */
    text[0] = '\n';
    quote_message(out, sizeof out, text);
    assert_int_equal(strlen(out), sizeof out - 1);
    assert_memory_equal(out + sizeof out - 4, "...", 4);
    assert_memory_equal(out, "\\x0Am", 5);
}

/* The one rule, code point by code point: what it escapes and what it
 * leaves, at each edge of each range. */
static void test_codepoints_escaped(void **state)
{
    (void)state;
    const uint32_t escaped[] = {0x00,   0x0A,   0x1B,   0x1F,   0x7F,   0x80,
                                0x9B,   0x9F,   0x061C, 0x200E, 0x200F, 0x2028,
                                0x2029, 0x202A, 0x202E, 0x2066, 0x2069};
    const uint32_t kept[] = {0x20,   0x7E,   0xA0,   0xE9,   0x061B, 0x200D, 0x2010,
                             0x2027, 0x202F, 0x2065, 0x206A, 0x2207, 0xFFFD, 0x1F600};
    for (size_t k = 0; k < sizeof escaped / sizeof escaped[0]; k++)
        if (!quote_codepoint_escaped(escaped[k]))
            fail_msg("U+%04X is not escaped", (unsigned)escaped[k]);
    for (size_t k = 0; k < sizeof kept / sizeof kept[0]; k++)
        if (quote_codepoint_escaped(kept[k]))
            fail_msg("U+%04X is escaped", (unsigned)kept[k]);
}

/* quote_text and quote_put: a text for a terminal, whole. */
static void test_text_for_a_terminal(void **state)
{
    (void)state;
    static const char hostile[] = "\x1b]0;owned\x07 \x1b[31mred\xC2\x9B"
                                  "2J \xE2\x80\xAE"
                                  "fdp.exe \xE2\x81\xA6x\xE2\x80\xA9y \xFF\xC0\x80 ∇ok";
    static const char shown[] = "\\x1B]0;owned\\x07 \\x1B[31mred\\xC2\\x9B2J \\u202Efdp.exe "
                                "\\u2066x\\u2029y \\xFF\\xC0\\x80 ∇ok";
    char out[256];
    assert_int_equal(quote_text(out, sizeof out, hostile), strlen(shown));
    assert_string_equal(out, shown);
    assert_printable(out);
    /* Safe text, backslashes and quotes included, comes out as it is. */
    assert_int_equal(quote_text(out, sizeof out, "a \\x41 \"b\" ∇"), strlen("a \\x41 \"b\" ∇"));
    assert_string_equal(out, "a \\x41 \"b\" ∇");
    /* quote_put writes the same, of any length. */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    for (int k = 0; k < 100; k++)
        quote_put(f, hostile);
    fclose(f);
    assert_int_equal(len, 100 * strlen(shown));
    assert_memory_equal(text, shown, strlen(shown));
    assert_terminal_safe(text, len);
    free(text);
}

/* ppf_fail and ppf_print go through quote_message. */
static void test_errors_stay_one_line(void **state)
{
    (void)state;
    ppf_error err = {{0}};
    assert_false(ppf_fail(&err, "%s: %s", "a\nb", "\x1b]0;title\x07"));
    assert_string_equal(err.message, "a\\x0Ab: \\x1B]0;title\\x07");
    assert_false(ppf_fail(&err, "%s", "\xE2\x80\xAEtxt.exe \xFF"));
    assert_string_equal(err.message, "\\u202Etxt.exe \\xFF");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_value_is_quoted_and_escaped),
        cmocka_unit_test(test_value_is_cut_after_its_limit),
        cmocka_unit_test(test_ascii_escapes_all_but_printable_ascii),
        cmocka_unit_test(test_message_escapes_only_controls),
        cmocka_unit_test(test_codepoints_escaped),
        cmocka_unit_test(test_text_for_a_terminal),
        cmocka_unit_test(test_errors_stay_one_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
