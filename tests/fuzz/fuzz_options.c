/* fuzz_options.c - libFuzzer target: arbitrary command-line options.
 *
 * The bytes are lines of NAME=VALUE, applied in order over the built-in
 * default scenario the way `ppflow --NAME VALUE` applies flags
 * (scenario_set); NAME may be any text, known or not. Two names reach the
 * value parsers directly: "@cost" (cost_list_parse) and "@allreduce"
 * (allreduce_parse). Then the scenario is built and goes the whole way
 * (fuzz_support.h). The same lines, as words of a command line, go through
 * the option parser (app/options.h) with a row of every type. Promises
 * checked on the way:
 *   - a rejected flag leaves the scenario as it was and says why on one
 *     printable line;
 *   - an accepted cost list holds count = commas + 1 finite values >= 0,
 *     none of them -0; a rejected one is left zeroed;
 *   - an accepted all-reduce is finite and >= 0 with bandwidth > 0 for
 *     ring and tree; a rejected one leaves *out unchanged;
 *   - a command line the option parser refuses says why on one printable
 *     line; one it takes holds values within their rows' ranges and
 *     scenario flags under the names of known fields. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "scenario.h"

#include "fuzz_support.h"

enum { MAX_LINE = 4096, MAX_WORDS = 64 };

/* A request with a field of every option type. */
typedef struct request {
    bool flag;
    const char *text;
    int count;
    double time;
    int choice;
    int pair[2];
} request;

static int find_choice(const char *name)
{
    return strcmp(name, "a") == 0 ? 0 : strcmp(name, "b") == 0 ? 1 : -1;
}

static bool valid_text(const char *text)
{
    return text[0] != 'x';
}

static bool parse_pair(const char *text, void *field, ppf_error *err)
{
    int *pair = field;
    char *end;
    long a = strtol(text, &end, 10);
    if (*end != ':' || a < 0 || a > 9)
        return ppf_fail(err, "--pair = \"%.40s\": must be A:B", text);
    pair[0] = (int)a;
    pair[1] = (int)strlen(end + 1);
    return true;
}

static const option_row rows[] = {
    {.name = "flag", .short_name = 'f', .type = OPTION_SWITCH, .field = offsetof(request, flag)},
    {.name = "text",
     .short_name = 'o',
     .arg = "T",
     .type = OPTION_TEXT,
     .field = offsetof(request, text),
     .valid = valid_text,
     .refused = "must not start with x"},
    {.name = "count",
     .arg = "N",
     .type = OPTION_INT,
     .field = offsetof(request, count),
     .min = 1,
     .max = 240,
     .unit = "frames"},
    {.name = "time",
     .arg = "T",
     .type = OPTION_NUMBER,
     .field = offsetof(request, time),
     .max = 1e12,
     .positive = true},
    {.name = "choice",
     .arg = "NAME",
     .type = OPTION_CHOICE,
     .field = offsetof(request, choice),
     .find = find_choice,
     .refused = "use a or b"},
    {.name = "pair",
     .arg = "A:B",
     .type = OPTION_CUSTOM,
     .field = offsetof(request, pair),
     .parse = parse_pair},
};

/* The words as a command line through the option parser. */
static void check_command_line(char **words, int count)
{
    char *argv[MAX_WORDS + 1] = {"fuzz"};
    for (int k = 0; k < count; k++)
        argv[k + 1] = words[k];
    const option_set set = {rows, (int)(sizeof rows / sizeof rows[0]), 0x3f, "fuzz", 0};
    request q = {0};
    option_args args;
    ppf_error err = {0};
    if (!options_parse(&set, count + 1, argv, &q, &args, &err)) {
        fuzz_check_message(&err);
    } else {
        if (q.count != 0 && (q.count < 1 || q.count > 240))
            FUZZ_FAIL("--count %d outside 1 to 240", q.count);
        if (q.time != 0 && !(q.time > 0 && q.time <= 1e12))
            FUZZ_FAIL("--time %g outside (0, 1e12]", q.time);
        if (q.choice != 0 && q.choice != 1)
            FUZZ_FAIL("--choice %d", q.choice);
        if (q.text && q.text[0] == 'x')
            FUZZ_FAIL("--text \"%s\" was to be refused", q.text);
        if (args.flag_count > count)
            FUZZ_FAIL("%d scenario flags from %d words", args.flag_count, count);
        for (int k = 0; k < args.flag_count; k++)
            if (!scenario_field_find(args.flags[k].field) || !args.flags[k].value)
                FUZZ_FAIL("scenario flag \"%s\" is no field", args.flags[k].field);
    }
    option_args_deinit(&args);
}

static void check_cost_list(const char *text)
{
    cost_list c;
    ppf_error err = {0};
    if (!cost_list_parse(&c, "costs.fuzz", text, &err)) {
        fuzz_check_message(&err);
        if (c.count != 0 || c.values != NULL)
            __builtin_trap();
        return;
    }
    int commas = 0;
    for (const char *p = text; *p; p++)
        commas += *p == ',';
    if (c.count != commas + 1)
        __builtin_trap();
    for (int k = 0; k < c.count; k++)
        if (!isfinite(c.values[k]) || c.values[k] < 0 || signbit(c.values[k]))
            __builtin_trap();
    cost_list_deinit(&c);
}

static void check_allreduce(const char *text)
{
    const allreduce_cost sentinel = {
        .mode = ALLREDUCE_TREE, .time = 7, .bytes = 8, .bandwidth = 9, .latency = 10};
    allreduce_cost ar = sentinel;
    ppf_error err = {0};
    if (!allreduce_parse(&ar, text, &err)) {
        fuzz_check_message(&err);
        if (memcmp(&ar, &sentinel, sizeof ar) != 0)
            __builtin_trap();
        return;
    }
    if (ar.mode > ALLREDUCE_TREE)
        __builtin_trap();
    const double v[] = {ar.time, ar.bytes, ar.bandwidth, ar.latency};
    for (int k = 0; k < 4; k++)
        if (!isfinite(v[k]) || v[k] < 0)
            __builtin_trap();
    if ((ar.mode == ALLREDUCE_RING || ar.mode == ALLREDUCE_TREE) && !(ar.bandwidth > 0))
        __builtin_trap();
}

static void apply(scenario *sc, const char *name, const char *value)
{
    if (strcmp(name, "@cost") == 0) {
        check_cost_list(value);
        return;
    }
    if (strcmp(name, "@allreduce") == 0) {
        check_allreduce(value);
        return;
    }
    scenario before = *sc;
    ppf_error err = {0};
    if (!scenario_set(sc, name, value, &err)) {
        fuzz_check_message(&err);
        if (memcmp(sc, &before, sizeof *sc) != 0)
            __builtin_trap();
        return;
    }
    const scenario_field *f = scenario_field_find(name);
    if (!f || !(sc->set_mask & (1u << f->id)))
        __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    scenario sc;
    scenario_init(&sc);
    char *line = malloc(MAX_LINE);
    char *words[MAX_WORDS];
    int word_count = 0;
    if (!line)
        return 0;
    const char *text = (const char *)data, *end = text + size;
    while (text < end) {
        const char *nl = memchr(text, '\n', (size_t)(end - text));
        size_t n = (size_t)((nl ? nl : end) - text);
        if (n >= MAX_LINE)
            n = MAX_LINE - 1;
        memcpy(line, text, n);
        line[n] = '\0'; /* a NUL inside the line ends it, as it would in argv */
        if (word_count < MAX_WORDS)
            words[word_count++] = ppf_strdup(line);
        char *eq = strchr(line, '=');
        if (eq) {
            *eq = '\0';
            apply(&sc, line, eq + 1);
        } else {
            apply(&sc, line, "");
        }
        text = nl ? nl + 1 : end;
    }
    free(line);
    check_command_line(words, word_count);
    for (int k = 0; k < word_count; k++)
        free(words[k]);
    fuzz_run_scenario(&sc, fuzz_hash(data, size));
    scenario_deinit(&sc);
    return 0;
}
