/* options.c - typed option rows: the parser and --help. See options.h. */
#include "options.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"

enum { HELP_WIDTH = 100, HELP_NAME_WIDTH = 24 };

#define ROW_BIT(k) (1u << (k))

/* ---- unknown options -------------------------------------------------------- */

/* Edit distance, capped: enough to suggest "--microbatches" for "--microbatch". */
static int distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 40 || lb > 40)
        return 99;
    int row[41];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j];
            int best = diag + (a[i - 1] != b[j - 1]);
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* The known option closest to `name` (a scenario field or an option of
 * the command), or NULL when none is close. */
static const char *suggest(const char *name, const option_set *set)
{
    const char *best = NULL;
    int best_d = 3;
    int n;
    const scenario_field *fields = scenario_fields(&n);
    for (int k = 0; k < n + set->count; k++) {
        const char *candidate;
        if (k < n)
            candidate = fields[k].flag;
        else if (set->allowed & ROW_BIT(k - n))
            candidate = set->rows[k - n].name;
        else
            continue;
        int d = distance(name, candidate);
        if (d < best_d ||
            (strncmp(candidate, name, strlen(name)) == 0 && strlen(name) >= 3 && best_d > 1)) {
            best_d = d < best_d ? d : 1;
            best = candidate;
        }
    }
    return best;
}

static bool fail_unknown_option(const char *arg, size_t name_len, const option_set *set,
                                ppf_error *err)
{
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(name_len < 63 ? name_len : 63), arg);
    const char *hint = name[0] == '-' && name[1] == '-' ? suggest(name + 2, set) : NULL;
    if (hint)
        return ppf_fail(err, "unknown option %s (did you mean --%s?); see ppflow %s --help", name,
                        hint, set->command);
    return ppf_fail(err, "unknown option %s; see ppflow %s --help", name, set->command);
}

/* ---- values ----------------------------------------------------------------- */

/* A bound as a person writes it: 0, 240, 1e12 (not 1e+12). */
static void format_bound(double v, char *out, size_t size)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%g", v);
    size_t o = 0;
    for (const char *p = buf; *p && o + 1 < size; p++) {
        out[o++] = *p;
        if (*p == 'e') {
            p += p[1] == '+';
            while (p[1] == '0' && p[2])
                p++;
        }
    }
    out[o] = '\0';
}

/* " of UNIT", or nothing. */
static void of_unit(const option_row *r, char *out, size_t size)
{
    snprintf(out, size, "%s%s", r->unit ? " of " : "", r->unit ? r->unit : "");
}

static bool parse_int_row(const option_row *r, const char *text, int *out, ppf_error *err)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end != '\0' || v < r->min || v > r->max) {
        char unit[64];
        of_unit(r, unit, sizeof unit);
        return ppf_fail(err, "--%s = \"%.40s\": must be a whole number%s from %d to %d", r->name,
                        text, unit, (int)r->min, (int)r->max);
    }
    *out = (int)v;
    return true;
}

static bool parse_number_row(const option_row *r, const char *text, double *out, ppf_error *err)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end != '\0' || !isfinite(v) || v < r->min || v > r->max) {
        char lo[32], hi[32];
        format_bound(r->min, lo, sizeof lo);
        format_bound(r->max, hi, sizeof hi);
        return ppf_fail(err, "--%s = \"%.40s\": must be a number from %s to %s", r->name, text, lo,
                        hi);
    }
    if (r->positive && !(v > 0)) {
        char unit[64];
        of_unit(r, unit, sizeof unit);
        return ppf_fail(err, "--%s = \"%.40s\": must be a number%s above 0", r->name, text, unit);
    }
    *out = v;
    return true;
}

/* Checks value against the row and writes it into the request. */
static bool apply_row(const option_row *r, const char *value, void *request, ppf_error *err)
{
    void *field = (char *)request + r->field;
    switch (r->type) {
    case OPTION_SWITCH:
        *(bool *)field = true;
        return true;
    case OPTION_TEXT:
        if (r->valid && !r->valid(value))
            return ppf_fail(err, "--%s = \"%.40s\": %s", r->name, value, r->refused);
        *(const char **)field = value;
        return true;
    case OPTION_INT:
        return parse_int_row(r, value, field, err);
    case OPTION_NUMBER:
        return parse_number_row(r, value, field, err);
    case OPTION_CHOICE: {
        const int v = r->find(value);
        if (v < 0)
            return ppf_fail(err, "--%s = \"%.40s\": %s", r->name, value, r->refused);
        *(int *)field = v;
        return true;
    }
    case OPTION_CUSTOM:
        return r->parse(value, field, err);
    }
    return false;
}

/* ---- the parser ------------------------------------------------------------- */

bool options_parse(const option_set *set, int argc, char **argv, void *request, option_args *args,
                   ppf_error *err)
{
    assert(set->count <= 32);
    *args = (option_args){0};
    args->flags = ppf_malloc(sizeof(session_flag) * (size_t)(argc > 0 ? argc : 1));
    bool only_positional = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (only_positional || arg[0] != '-' || strcmp(arg, "-") == 0) {
            const int max = set->max_paths > 0 ? set->max_paths : 1;
            if (args->path_count >= max && max == 1)
                return ppf_fail(
                    err,
                    "unexpected argument \"%.60s\": one scenario file (%.60s) is already given",
                    arg, args->scenario_path);
            if (args->path_count >= max)
                return ppf_fail(err,
                                "unexpected argument \"%.60s\": at most %d scenario files (a "
                                "comparison's sides)",
                                arg, max);
            args->paths[args->path_count++] = arg;
            args->scenario_path = args->paths[0];
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            only_positional = true;
            continue;
        }

        /* The option's name and, for --NAME=VALUE or -oFILE, its attached value. */
        const char *name, *attached = NULL;
        size_t name_len;
        int row = -1;
        if (arg[1] == '-') {
            name = arg + 2;
            const char *eq = strchr(name, '=');
            name_len = eq ? (size_t)(eq - name) : strlen(name);
            attached = eq ? eq + 1 : NULL;
            for (int k = 0; k < set->count; k++)
                if ((set->allowed & ROW_BIT(k)) && strlen(set->rows[k].name) == name_len &&
                    strncmp(set->rows[k].name, name, name_len) == 0)
                    row = k;
        } else {
            name = arg + 1;
            name_len = 1;
            attached = arg[2] ? arg + 2 : NULL;
            for (int k = 0; k < set->count; k++)
                if ((set->allowed & ROW_BIT(k)) && set->rows[k].short_name == arg[1])
                    row = k;
            if (row < 0)
                return fail_unknown_option(arg, 2, set, err);
        }

        /* Not the command's own: a scenario field, by flag, JSON key or path. */
        const scenario_field *field = NULL;
        if (row < 0) {
            char key[64];
            if (name_len < sizeof key) {
                memcpy(key, name, name_len);
                key[name_len] = '\0';
                field = scenario_field_find(key);
            }
            if (!field)
                return fail_unknown_option(arg, (size_t)(name - arg) + name_len, set, err);
        }

        const option_row *r = field ? NULL : &set->rows[row];
        const char *shown = field ? field->flag : r->name;
        const char *placeholder = field ? field->arg : r->arg;
        const char *value = attached;
        if (!placeholder) {
            if (attached)
                return ppf_fail(err, "--%s takes no value (got \"%.40s\")", shown, attached);
        } else if (!value) {
            if (i + 1 >= argc)
                return ppf_fail(err, "--%s needs a value (%s)", shown, placeholder);
            value = argv[++i];
        }
        if (field) {
            args->flags[args->flag_count++] = (session_flag){field->flag, value};
            continue;
        }
        if (!apply_row(r, value, request, err))
            return false;
        args->given |= ROW_BIT(row);
    }
    return true;
}

void option_args_deinit(option_args *args)
{
    if (!args)
        return;
    free(args->flags);
    *args = (option_args){0};
}

/* ---- help ------------------------------------------------------------------- */

void options_print_line(FILE *f, const char *name, const char *help)
{
    int used = fprintf(f, "  %s", name);
    if (used > HELP_NAME_WIDTH) {
        fputc('\n', f);
        used = 0;
    }
    fprintf(f, "%*s", HELP_NAME_WIDTH + 1 - used, "");
    int col = HELP_NAME_WIDTH + 1;
    const char *p = help;
    while (*p) {
        const char *sp = strchr(p, ' ');
        int word = sp ? (int)(sp - p) : (int)strlen(p);
        if (col > HELP_NAME_WIDTH + 1 && col + 1 + word > HELP_WIDTH) {
            fprintf(f, "\n%*s", HELP_NAME_WIDTH + 1, "");
            col = HELP_NAME_WIDTH + 1;
        } else if (col > HELP_NAME_WIDTH + 1) {
            fputc(' ', f);
            col++;
        }
        fwrite(p, 1, (size_t)word, f);
        col += word;
        p += word;
        while (*p == ' ')
            p++;
    }
    fputc('\n', f);
}

/* help with its {default} replaced by def. */
static void fill_default(char *out, size_t size, const char *help, const char *def)
{
    static const char mark[] = "{default}";
    const char *at = strstr(help, mark);
    if (at)
        snprintf(out, size, "%.*s%s%s", (int)(at - help), help, def, at + strlen(mark));
    else
        snprintf(out, size, "%s", help);
}

/* The row's default as --help shows it, read from the defaults request. */
static void row_default(const option_row *r, const void *defaults, char *out, size_t size)
{
    const void *field = (const char *)defaults + r->field;
    if (r->show_default) {
        r->show_default(out, size);
        return;
    }
    switch (r->type) {
    case OPTION_TEXT:
        snprintf(out, size, "%s", *(const char *const *)field ? *(const char *const *)field : "");
        return;
    case OPTION_INT:
        snprintf(out, size, "%d", *(const int *)field);
        return;
    case OPTION_NUMBER:
        format_bound(*(const double *)field, out, size);
        return;
    case OPTION_CHOICE:
        snprintf(out, size, "%s", r->name_of(*(const int *)field));
        return;
    case OPTION_SWITCH:
    case OPTION_CUSTOM:
        break;
    }
    snprintf(out, size, "?"); /* a row whose help asks for a default it cannot show */
}

void options_print(FILE *f, const char *title, const option_set *set, const void *defaults)
{
    fprintf(f, "%s:\n", title);
    for (int k = 0; k < set->count; k++) {
        if (!(set->allowed & ROW_BIT(k)))
            continue;
        const option_row *r = &set->rows[k];
        char name[64], def[128], help[1024];
        if (r->short_name)
            snprintf(name, sizeof name, "-%c, --%s%s%s", r->short_name, r->name, r->arg ? " " : "",
                     r->arg ? r->arg : "");
        else
            snprintf(name, sizeof name, "--%s%s%s", r->name, r->arg ? " " : "",
                     r->arg ? r->arg : "");
        def[0] = '\0';
        if (strstr(r->help, "{default}"))
            row_default(r, defaults, def, sizeof def);
        fill_default(help, sizeof help, r->help, def);
        options_print_line(f, name, help);
    }
}

void options_print_scenario(FILE *f)
{
    fputs("scenario options (also the fields of SCENARIO.json; costs go under \"costs\"):\n", f);
    int n;
    const scenario_field *fields = scenario_fields(&n);
    for (int k = 0; k < n; k++) {
        char name[64], def[64], help[1024];
        snprintf(name, sizeof name, "--%s %s", fields[k].flag, fields[k].arg);
        scenario_field_default(&fields[k], def, sizeof def);
        fill_default(help, sizeof help, fields[k].help, def);
        options_print_line(f, name, help);
    }
}
