/* Tests of quote.h: what each form escapes, where it cuts, and that no
 * form lets a control character through. */
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
    /* Printable UTF-8 stays; a line separator, a C1 control and invalid
     * bytes do not. */
    assert_string_equal(quote_string("∇x³").s, "\"∇x³\"");
    assert_string_equal(quote_string("a\xE2\x80\xA8"
                                     "b")
                            .s,
                        "\"a\\xE2\\x80\\xA8b\"");
    assert_string_equal(quote_string("\xC2\x85").s, "\"\\xC2\\x85\"");
    assert_string_equal(quote_string("\xFF").s, "\"\\xFF\"");
    assert_string_equal(quote_value("ab\0c", 4).s, "\"ab\\x00c\"");
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

/* ppf_fail and ppf_print go through quote_message. */
static void test_errors_stay_one_line(void **state)
{
    (void)state;
    ppf_error err = {{0}};
    assert_false(ppf_fail(&err, "%s: %s", "a\nb", "\x1b]0;title\x07"));
    assert_string_equal(err.message, "a\\x0Ab: \\x1B]0;title\\x07");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_value_is_quoted_and_escaped),
        cmocka_unit_test(test_value_is_cut_after_its_limit),
        cmocka_unit_test(test_ascii_escapes_all_but_printable_ascii),
        cmocka_unit_test(test_message_escapes_only_controls),
        cmocka_unit_test(test_errors_stay_one_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
