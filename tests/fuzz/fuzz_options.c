/* fuzz_options.c - libFuzzer target: arbitrary command-line options.
 *
 * The bytes are lines of NAME=VALUE, applied in order over the built-in
 * default scenario the way `ppflow --NAME VALUE` applies flags
 * (scenario_set); NAME may be any text, known or not. Two names reach the
 * value parsers directly: "@cost" (cost_list_parse) and "@allreduce"
 * (allreduce_parse). Then the scenario is built and goes the whole way
 * (fuzz_support.h). Promises checked on the way:
 *   - a rejected flag leaves the scenario as it was and says why on one
 *     printable line;
 *   - an accepted cost list holds count = commas + 1 finite values >= 0,
 *     none of them -0; a rejected one is left zeroed;
 *   - an accepted all-reduce is finite and >= 0 with bandwidth > 0 for
 *     ring and tree; a rejected one leaves *out unchanged. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"

#include "fuzz_support.h"

enum { MAX_LINE = 4096 };

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
    fuzz_run_scenario(&sc, fuzz_hash(data, size));
    scenario_deinit(&sc);
    return 0;
}
