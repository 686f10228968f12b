/* Tests of options.h: typed rows into a request, the messages for bad
 * values, scenario fields among the options, and --help with defaults read
 * from the rows. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "support/check.h"

typedef struct request {
    bool quiet;
    const char *out;
    const char *mode;
    int count;
    double time, speed;
    int colour;
    int pair[2];
} request;

static const char *const colours[] = {"red", "green", "blue"};

static int colour_find(const char *name)
{
    for (int k = 0; k < 3; k++)
        if (strcmp(colours[k], name) == 0)
            return k;
    return -1;
}

static const char *colour_name(int k)
{
    return colours[k];
}

static bool mode_valid(const char *text)
{
    return strcmp(text, "fast") == 0 || strcmp(text, "slow") == 0;
}

/* "WxH" into an int[2]. */
static bool parse_pair(const char *text, void *field, ppf_error *err)
{
    int *wh = field;
    if (sscanf(text, "%dx%d", &wh[0], &wh[1]) != 2)
        return ppf_fail(err, "--pair = \"%.40s\": must be WxH", text);
    return true;
}

static void speed_default(char *out, size_t size)
{
    snprintf(out, size, "as fast as it goes");
}

enum { ROW_QUIET, ROW_OUT, ROW_MODE, ROW_COUNT, ROW_TIME, ROW_SPEED, ROW_COLOUR, ROW_PAIR, ROWS };

static const option_row rows[ROWS] = {
    [ROW_QUIET] = {.name = "quiet",
                   .short_name = 'q',
                   .type = OPTION_SWITCH,
                   .field = offsetof(request, quiet),
                   .help = "say nothing"},
    [ROW_OUT] = {.name = "output",
                 .short_name = 'o',
                 .arg = "FILE",
                 .type = OPTION_TEXT,
                 .field = offsetof(request, out),
                 .help = "where to write"},
    [ROW_MODE] = {.name = "mode",
                  .arg = "NAME",
                  .type = OPTION_TEXT,
                  .field = offsetof(request, mode),
                  .valid = mode_valid,
                  .refused = "unknown mode; use fast or slow",
                  .help = "fast or slow (default {default})"},
    [ROW_COUNT] = {.name = "count",
                   .arg = "N",
                   .type = OPTION_INT,
                   .field = offsetof(request, count),
                   .min = 1,
                   .max = 99,
                   .unit = "apples",
                   .help = "how many (default {default})"},
    [ROW_TIME] = {.name = "time",
                  .arg = "T",
                  .type = OPTION_NUMBER,
                  .field = offsetof(request, time),
                  .max = 1e12,
                  .help = "when (default {default})"},
    [ROW_SPEED] = {.name = "speed",
                   .arg = "S",
                   .type = OPTION_NUMBER,
                   .field = offsetof(request, speed),
                   .max = 1e12,
                   .positive = true,
                   .unit = "metres",
                   .show_default = speed_default,
                   .help = "how fast (default: {default})"},
    [ROW_COLOUR] = {.name = "colour",
                    .arg = "NAME",
                    .type = OPTION_CHOICE,
                    .field = offsetof(request, colour),
                    .find = colour_find,
                    .name_of = colour_name,
                    .refused = "unknown colour; use red, green or blue",
                    .help = "{default} (default), green or blue"},
    [ROW_PAIR] = {.name = "pair",
                  .arg = "WxH",
                  .type = OPTION_CUSTOM,
                  .field = offsetof(request, pair),
                  .parse = parse_pair,
                  .help = "two numbers"},
};

/* Every row but --pair. */
static const option_set set = {rows, ROWS, (1u << ROWS) - 1 - (1u << ROW_PAIR), "test", 0};
static const option_set with_pair = {rows, ROWS, (1u << ROWS) - 1, "test", 0};

static const request defaults = {.mode = "fast", .count = 3, .time = 0.5, .colour = 2};

/* Parses argv[0] = "test" and the words in ap, up to a NULL, into *q from
 * the defaults; the message in err. */
static bool parse_words(const option_set *s, request *q, option_args *args, ppf_error *err,
                        va_list ap)
{
    char *argv[32] = {"test"};
    int argc = 1;
    for (char *w; (w = va_arg(ap, char *)) != NULL && argc < 32;)
        argv[argc++] = w;
    *q = defaults;
    return options_parse(s, argc, argv, q, args, err);
}

/* parse_words of the words given, NULL-terminated. */
static bool parse(const option_set *s, request *q, option_args *args, ppf_error *err, ...)
{
    va_list ap;
    va_start(ap, err);
    const bool ok = parse_words(s, q, args, err, ap);
    va_end(ap);
    return ok;
}

/* The parse of the words given (NULL-terminated), every row allowed, fails
 * with exactly this message. */
static void expect_message(const char *want, ...)
{
    request q;
    option_args args;
    ppf_error err = {{0}};
    va_list ap;
    va_start(ap, want);
    const bool ok = parse_words(&with_pair, &q, &args, &err, ap);
    va_end(ap);
    if (ok)
        fail_msg("expected \"%s\", the parse succeeded", want);
    if (strcmp(err.message, want) != 0)
        fail_msg("expected \"%s\"\n     got \"%s\"", want, err.message);
    option_args_deinit(&args);
}

static void test_values_go_into_their_fields(void **state)
{
    (void)state;
    request q;
    option_args args;
    ppf_error err = {{0}};
    if (!parse(&with_pair, &q, &args, &err, "-q", "--output", "a.txt", "--mode=slow", "--count",
               "7", "--time", "1e3", "--speed=2.5", "--colour", "green", "--pair", "4x5",
               "scenario.json", NULL))
        fail_msg("%s", err.message);
    assert_true(q.quiet);
    assert_string_equal(q.out, "a.txt");
    assert_string_equal(q.mode, "slow");
    assert_int_equal(q.count, 7);
    assert_same_double(q.time, 1000);
    assert_same_double(q.speed, 2.5);
    assert_int_equal(q.colour, 1);
    assert_int_equal(q.pair[0], 4);
    assert_int_equal(q.pair[1], 5);
    assert_string_equal(args.scenario_path, "scenario.json");
    assert_int_equal(args.flag_count, 0);
    assert_int_equal(args.given, (1u << ROWS) - 1);
    option_args_deinit(&args);

    /* Short forms with the value attached; the rest keep their defaults. */
    assert_true(parse(&set, &q, &args, &err, "-oout.txt", NULL));
    assert_string_equal(q.out, "out.txt");
    assert_int_equal(q.count, 3);
    assert_string_equal(q.mode, "fast");
    assert_int_equal(args.given, 1u << ROW_OUT);
    option_args_deinit(&args);
}

/* Scenario fields come out in order under their flag names, whichever of
 * flag, JSON key or JSON path was given; after "--" all is positional. */
static void test_scenario_fields_are_collected_in_order(void **state)
{
    (void)state;
    request q;
    option_args args;
    ppf_error err = {{0}};
    assert_true(parse(&set, &q, &args, &err, "--stages", "3", "--layers_per_stage=2", "--costs.b",
                      "4", "--stages", "5", "--", "-odd.json", NULL));
    assert_int_equal(args.flag_count, 4);
    const char *want[][2] = {
        {"stages", "3"}, {"layers-per-stage", "2"}, {"b", "4"}, {"stages", "5"}};
    for (int k = 0; k < 4; k++) {
        assert_string_equal(args.flags[k].field, want[k][0]);
        assert_string_equal(args.flags[k].value, want[k][1]);
    }
    assert_string_equal(args.scenario_path, "-odd.json");
    assert_int_equal(args.given, 0);
    option_args_deinit(&args);
    option_args_deinit(&args); /* twice is fine */
}

static void test_bad_values_name_the_option_the_value_and_the_rule(void **state)
{
    (void)state;
    expect_message("--count = \"0\": must be a whole number of apples from 1 to 99", "--count", "0",
                   NULL);
    expect_message("--count = \"7x\": must be a whole number of apples from 1 to 99", "--count=7x",
                   NULL);
    expect_message("--time = \"-1\": must be a number from 0 to 1e12", "--time", "-1", NULL);
    expect_message("--time = \"nan\": must be a number from 0 to 1e12", "--time", "nan", NULL);
    expect_message("--speed = \"0\": must be a number of metres above 0", "--speed", "0", NULL);
    expect_message("--mode = \"medium\": unknown mode; use fast or slow", "--mode", "medium", NULL);
    expect_message("--colour = \"pink\": unknown colour; use red, green or blue", "--colour",
                   "pink", NULL);
    expect_message("--pair = \"4\": must be WxH", "--pair", "4", NULL);
    expect_message("--quiet takes no value (got \"yes\")", "--quiet=yes", NULL);
    expect_message("--count needs a value (N)", "--count", NULL);
    expect_message("--stages needs a value (P)", "--stages", NULL);
    expect_message("unexpected argument \"b.json\": one scenario file (a.json) is already given",
                   "a.json", "b.json", NULL);
    /* Unknown options: the closest known one, an option or a scenario field. */
    expect_message("unknown option --cuont (did you mean --count?); see ppflow test --help",
                   "--cuont", "1", NULL);
    expect_message("unknown option --microbatch (did you mean --microbatches?); see ppflow test "
                   "--help",
                   "--microbatch", "1", NULL);
    expect_message("unknown option --zzzzzzzz; see ppflow test --help", "--zzzzzzzz", NULL);
    expect_message("unknown option -x; see ppflow test --help", "-x", NULL);
}

/* A row the command does not take is unknown, and not suggested. */
static void test_rows_not_allowed_are_unknown(void **state)
{
    (void)state;
    request q;
    option_args args;
    ppf_error err = {{0}};
    assert_false(parse(&set, &q, &args, &err, "--pair", "4x5", NULL));
    assert_string_equal(err.message, "unknown option --pair; see ppflow test --help");
    option_args_deinit(&args);
}

/* The help of the rows, printed into a string. */
static char *print_help(const option_set *s)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    assert_non_null(f);
    options_print(f, "options", s, &defaults);
    fclose(f);
    return text;
}

static void test_help_shows_the_defaults_of_the_rows(void **state)
{
    (void)state;
    char *text = print_help(&set);
    /* Names in a column of 25, help after it. */
    const char *lines[][2] = {
        {"-q, --quiet", "say nothing"},
        {"-o, --output FILE", "where to write"},
        {"--mode NAME", "fast or slow (default fast)"},
        {"--count N", "how many (default 3)"},
        {"--time T", "when (default 0.5)"},
        {"--speed S", "how fast (default: as fast as it goes)"},
        {"--colour NAME", "blue (default), green or blue"},
    };
    assert_memory_equal(text, "options:\n", 9);
    size_t o = 9;
    for (size_t k = 0; k < sizeof lines / sizeof lines[0]; k++) {
        char line[128];
        snprintf(line, sizeof line, "  %-23s%s\n", lines[k][0], lines[k][1]);
        if (strncmp(text + o, line, strlen(line)) != 0)
            fail_msg("line %zu: expected \"%s\" in\n%s", k, line, text);
        o += strlen(line);
    }
    assert_int_equal(text[o], '\0');
    free(text);
}

/* Long help wraps at 100 columns under its own column; a long name gets a
 * line of its own. */
static void test_help_lines_wrap(void **state)
{
    (void)state;
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    options_print_line(f, "--a-very-long-option-name VALUE",
                       "one two three four five six seven eight nine ten eleven twelve thirteen "
                       "fourteen fifteen sixteen seventeen");
    fclose(f);
    assert_string_equal(text, "  --a-very-long-option-name VALUE\n"
                              "                         one two three four five six seven eight "
                              "nine ten eleven twelve thirteen\n"
                              "                         fourteen fifteen sixteen seventeen\n");
    free(text);
}

/* The scenario's fields with the table's defaults. */
static void test_scenario_help_shows_the_table_defaults(void **state)
{
    (void)state;
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    options_print_scenario(f);
    fclose(f);
    assert_non_null(strstr(text, "  --stages P             pipeline ranks P (default 4)\n"));
    assert_non_null(strstr(text, "(default 1f1b)"));
    assert_non_null(strstr(text, "(default 3/1/ring)"));
    assert_non_null(strstr(text, "(default 0.25)"));
    assert_null(strstr(text, "{default}"));
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_go_into_their_fields),
        cmocka_unit_test(test_scenario_fields_are_collected_in_order),
        cmocka_unit_test(test_bad_values_name_the_option_the_value_and_the_rule),
        cmocka_unit_test(test_rows_not_allowed_are_unknown),
        cmocka_unit_test(test_help_shows_the_defaults_of_the_rows),
        cmocka_unit_test(test_help_lines_wrap),
        cmocka_unit_test(test_scenario_help_shows_the_table_defaults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
