/* Tests of the PyTorch text form of actions: exact round trip and the rules. */
#include <string.h>

#include "action.h"
#include "support/check.h"

static void round_trip(const char *text)
{
    action a;
    ppf_error err = {{0}};
    if (!action_parse(text, strlen(text), &a, &err))
        fail_msg("\"%s\" did not parse: %s", text, err.message);
    char out[ACTION_TEXT_MAX];
    action_format(&a, out);
    assert_string_equal(out, text);
}

static void test_round_trip_of_every_kind(void **state)
{
    (void)state;
    const char *texts[] = {
        "2F5",
        "1I0",
        "0W3",
        "0B3",
        "3SEND_F1",
        "1RECV_B2",
        "1UNSHARD",
        "0REDUCE_GRAD",
        "7RESHARD",
        "0SEND_B0",
        "12RECV_F345",
        "(0F7;7B3)OVERLAP_F_B",
        "(7B3;0F7)OVERLAP_F_B",
        "",
        "65535F99999999",
        "(12F0;3B10)OVERLAP_F_B",
    };
    for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++)
        round_trip(texts[k]);
}

static void test_fields_of_parsed_actions(void **state)
{
    (void)state;
    action a;
    assert_true(action_parse("2F5", 3, &a, NULL));
    assert_int_equal(a.kind, ACTION_F);
    assert_int_equal(a.stage, 2);
    assert_int_equal(a.microbatch, 5);
    assert_true(action_parse(" 1UNSHARD ", 10, &a, NULL));
    assert_int_equal(a.kind, ACTION_UNSHARD);
    assert_int_equal(a.stage, 1);
    assert_int_equal(a.microbatch, -1);
    assert_true(action_parse("(0F7;7B3)OVERLAP_F_B", 20, &a, NULL));
    assert_int_equal(a.kind, ACTION_OVERLAP_F_B);
    assert_int_equal(a.stage, 0);
    assert_int_equal(a.microbatch, 7);
    assert_int_equal(a.stage2, 7);
    assert_int_equal(a.microbatch2, 3);
    assert_int_equal(a.flags & ACTION_FLAG_B_FIRST, 0);
    assert_true(action_parse("(7B3;0F7)OVERLAP_F_B", 20, &a, NULL));
    assert_int_equal(a.stage, 0);
    assert_int_equal(a.stage2, 7);
    assert_int_equal(a.flags & ACTION_FLAG_B_FIRST, ACTION_FLAG_B_FIRST);
    assert_true(action_parse("   ", 3, &a, NULL));
    assert_int_equal(a.kind, ACTION_IDLE);
    assert_true(action_is_compute(ACTION_OVERLAP_F_B));
    assert_false(action_is_compute(ACTION_SEND_F));
    assert_false(action_is_compute(ACTION_IDLE));
}

static void test_bad_text_names_the_text_and_the_rule(void **state)
{
    (void)state;
    const struct {
        const char *text, *rule;
    } bad[] = {
        {"F5", "stage number"},
        {"2X5", "kind after the stage"},
        {"2F", "micro-batch number"},
        {"2F5x", "unexpected text"},
        {"02F5", "stage number"},
        {"2F05", "micro-batch number"},
        {"1UNSHARD3", "take no micro-batch"},
        {"-1F0", "stage number"},
        {"70000F0", "stage number"},
        {"(0F7;7B3)", "OVERLAP_F_B"},
        {"(0F7)OVERLAP_F_B", "two actions"},
        {"(0F7;7B3;1F1)OVERLAP_F_B", "two actions"},
        {"(0F7;7I3)OVERLAP_F_B", "one F and one B"},
        {"(0B7;7B3)OVERLAP_F_B", "one F and one B"},
        {"(0F7;7B3)OVERLAP_F_Bx", "OVERLAP_F_B"},
        {"2F99999999999", "micro-batch number"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        action a;
        ppf_error err = {{0}};
        if (action_parse(bad[k].text, strlen(bad[k].text), &a, &err))
            fail_msg("\"%s\" parsed but must not", bad[k].text);
        if (!strstr(err.message, bad[k].rule) || !strstr(err.message, "action \""))
            fail_msg("message for \"%s\" is \"%s\", expected the rule \"%s\"", bad[k].text,
                     err.message, bad[k].rule);
    }
}

static void test_unprintable_text_stays_one_line(void **state)
{
    (void)state;
    const char text[] = "1F\n\x01\"";
    action a;
    ppf_error err = {{0}};
    assert_false(action_parse(text, sizeof text - 1, &a, &err));
    assert_null(strchr(err.message, '\n'));
    assert_non_null(strstr(err.message, "\\x0a"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_of_every_kind),
        cmocka_unit_test(test_fields_of_parsed_actions),
        cmocka_unit_test(test_bad_text_names_the_text_and_the_rule),
        cmocka_unit_test(test_unprintable_text_stays_one_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
