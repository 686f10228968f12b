/* scenario.c - the scenario: its field table and defaults, the text forms
 * of its values (flags), and building the program from it. The JSON reader
 * is scenario_json.c.
 *
 * Every setter commits only when its whole input is good, so a failed flag
 * leaves the scenario as it was. Messages name the field by its JSON path
 * ("microbatches", "costs.b"), quote the value as given (quote.h) and state
 * the rule.
 */
#include "scenario.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget.h"
#include "csv.h"
#include "quote.h"
#include "scene.h"
#include "schedules.h"

/* The default shows every kind of event the legend names, so a first run
 * sees communication as well as compute: a p2p hop of a quarter of F (long
 * enough to watch a tensor cross the gap, short enough to leave 1F1B's
 * shape alone) and a ring all-reduce of 3 F at D = 2 (2(D-1) = 2 steps of
 * 1.5 F), which overlaps the last stages' compute and shows the exposed
 * tail. --p2p 0 --allreduce none, or assets/textbook.json, gives the
 * textbook's free transfers back. */
#define SCENARIO_DEFAULT_P2P 0.25
#define SCENARIO_DEFAULT_ALLREDUCE "3/1/ring"

#define INT_FIELD(name) SCENARIO_FIELD_INT, offsetof(scenario, name)
#define COST_FIELD(name) SCENARIO_FIELD_COST, offsetof(scenario, name)

/* Columns: id; JSON key, flag, JSON path, --help placeholder; type and where
 * the value lives; min, max (integers); the default, as a number or as text;
 * help; whether it lives under "costs". Costs i, w and fb default to values
 * derived from the others (scenario_build), so their help words it. */
static const scenario_field fields[FIELD_COUNT] = {
    {FIELD_SCHEDULE, "schedule", "schedule", "schedule", "NAME", SCENARIO_FIELD_SCHEDULE,
     offsetof(scenario, schedule), 0, 0, 0, "1f1b",
     "schedule: gpipe, 1f1b, interleaved-1f1b, looped-bfs, zb-h1, interleaved-zb, zbv, dualpipev, "
     "or csv:PATH to import a PyTorch schedule CSV (default {default})",
     false},
    {FIELD_STAGES, "stages", "stages", "stages", "P", INT_FIELD(stages), 1, SCENARIO_MAX_RANKS, 4,
     NULL, "pipeline ranks P (default {default})", false},
    {FIELD_MICROBATCHES, "microbatches", "microbatches", "microbatches", "M",
     INT_FIELD(microbatches), 1, SCENARIO_MAX_MICROBATCHES, 8, NULL,
     "micro-batches per iteration M (default {default})", false},
    {FIELD_VIRTUAL, "virtual", "virtual", "virtual", "V", INT_FIELD(virtual_stages), 1,
     SCENARIO_MAX_VIRTUAL, 0, NULL, "stages per rank V (default: the schedule's own)", false},
    {FIELD_DP, "dp", "dp", "dp", "D", INT_FIELD(dp), 1, SCENARIO_MAX_DP, 2, NULL,
     "data-parallel replicas D (default {default})", false},
    {FIELD_LAYERS_PER_STAGE, "layers_per_stage", "layers-per-stage", "layers_per_stage", "N",
     INT_FIELD(layers_per_stage), 1, SCENARIO_MAX_LAYERS, SCENE_DEFAULT_LAYERS_PER_STAGE, NULL,
     "model layers drawn per stage (default {default})", false},
    {FIELD_D_MODEL, "d_model", "d-model", "d_model", "N", INT_FIELD(d_model), 1,
     SCENARIO_MAX_SCENE_SIZE, SCENE_DEFAULT_D_MODEL, NULL,
     "3D picture: model width, the height of a residual face (default {default})", false},
    {FIELD_D_HIDDEN, "d_hidden", "d-hidden", "d_hidden", "N", INT_FIELD(d_hidden), 1,
     SCENARIO_MAX_SCENE_SIZE, SCENE_DEFAULT_D_HIDDEN, NULL,
     "3D picture: hidden width, the length of a layer (default {default})", false},
    {FIELD_BATCH, "batch", "batch", "batch", "N", INT_FIELD(batch), 1, SCENARIO_MAX_SCENE_SIZE,
     SCENE_DEFAULT_BATCH, NULL,
     "3D picture: the batch, the depth of a stage's block, split among micro-batches "
     "(default {default})",
     false},
    {FIELD_STAGE_GAP, "stage_gap", "stage-gap", "stage_gap", "N", INT_FIELD(stage_gap), 0,
     SCENARIO_MAX_SCENE_SIZE, SCENE_DEFAULT_STAGE_GAP, NULL,
     "3D picture: gap between GPUs along the ranks, where p2p wires run (default {default})",
     false},
    {FIELD_REPLICA_GAP, "replica_gap", "replica-gap", "replica_gap", "N", INT_FIELD(replica_gap), 0,
     SCENARIO_MAX_SCENE_SIZE, SCENE_DEFAULT_REPLICA_GAP, NULL,
     "3D picture: gap between GPUs along the replicas, where all-reduce wires run (default "
     "{default})",
     false},
    {FIELD_F, "f", "f", "costs.f", "COST", COST_FIELD(f), 0, 0, TIMELINE_DEFAULT_F, NULL,
     "forward time per rank: one value, or a comma list with one per rank (default {default})",
     true},
    {FIELD_B, "b", "b", "costs.b", "COST", COST_FIELD(b), 0, 0, TIMELINE_DEFAULT_B, NULL,
     "full backward time (default {default}, or i + w when both are given)", true},
    {FIELD_I, "i", "i", "costs.i", "COST", COST_FIELD(i), 0, 0, 0, NULL,
     "backward-for-inputs time (default b/2, or b - w)", true},
    {FIELD_W, "w", "w", "costs.w", "COST", COST_FIELD(w), 0, 0, 0, NULL,
     "backward-for-weights time (default b/2, or b - i)", true},
    {FIELD_FB, "fb", "fb", "costs.fb", "COST", COST_FIELD(fb), 0, 0, 0, NULL,
     "overlapped forward+backward time (default f + b)", true},
    {FIELD_P2P, "p2p", "p2p", "costs.p2p", "COST", COST_FIELD(p2p), 0, 0, SCENARIO_DEFAULT_P2P,
     NULL, "time of one activation or gradient transfer between ranks (default {default})", true},
    {FIELD_ALLREDUCE, "allreduce", "allreduce", "costs.allreduce", "SPEC", SCENARIO_FIELD_ALLREDUCE,
     offsetof(scenario, allreduce), 0, 0, 0, SCENARIO_DEFAULT_ALLREDUCE,
     "gradient all-reduce of a rank's share: TIME, or BYTES/BANDWIDTH[/ring|tree[/LATENCY]] "
     "(default {default})",
     true},
    {FIELD_BEATS, "beats", "beats", "beats", "auto|none|FILE", SCENARIO_FIELD_BEATS,
     offsetof(scenario, beats), 0, 0, 0, "auto",
     "pause points of a talk: auto (the automatic ones only), none, or FILE, a JSON file "
     "{\"beats\": [...], \"auto_beats\": false} in place of the scenario's (default: the "
     "scenario's \"beats\" and the automatic ones)",
     false},
};

#undef INT_FIELD
#undef COST_FIELD

const scenario_field *scenario_fields(int *n)
{
    if (n)
        *n = FIELD_COUNT;
    return fields;
}

const scenario_field *scenario_field_find(const char *name)
{
    if (!name)
        return NULL;
    for (int k = 0; k < FIELD_COUNT; k++) {
        const scenario_field *f = &fields[k];
        if (strcmp(name, f->flag) == 0 || strcmp(name, f->json) == 0 || strcmp(name, f->path) == 0)
            return f;
    }
    return NULL;
}

void scenario_field_default(const scenario_field *f, char *out, size_t size)
{
    if (f->def_text)
        snprintf(out, size, "%s", f->def_text);
    else
        snprintf(out, size, "%g", f->def);
}

/* Where the field's value lives in sc. */
static void *field_value(scenario *sc, const scenario_field *f)
{
    return (char *)sc + f->offset;
}

/* ---- numbers ------------------------------------------------------------- */

/* A decimal number that is all of s[0..len): digits, sign, point, exponent;
 * no spaces, no hex, no nan or inf. */
static bool parse_plain_double(const char *s, size_t len, double *out)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return false;
    for (size_t k = 0; k < len; k++)
        if (!strchr("0123456789.eE+-", s[k]) || s[k] == '\0')
            return false;
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (end != buf + len || !isfinite(v))
        return false;
    *out = v == 0 ? 0.0 : v; /* no -0 */
    return true;
}

bool scenario_parse_scaled(const char *s, size_t len, double *out)
{
    size_t n = 0;
    while (n < len && s[n] && strchr("0123456789.eE+-", s[n]))
        n++;
    double v;
    if (!parse_plain_double(s, n, &v))
        return false;
    const char *suf = s + n, *end = s + len;
    double scale = 1;
    const char *units = "kMGT";
    const char *u = suf < end ? strchr(units, *suf == 'K' ? 'k' : *suf) : NULL;
    if (u && *suf) {
        int power = (int)(u - units) + 1;
        bool binary = suf + 1 < end && suf[1] == 'i';
        for (int p = 0; p < power; p++)
            scale *= binary ? 1024.0 : 1000.0;
        suf += binary ? 2 : 1;
    }
    if (suf < end && *suf == 'B')
        suf++;
    if (suf != end)
        return false;
    v *= scale;
    if (!isfinite(v))
        return false;
    *out = v;
    return true;
}

/* A whole decimal integer: optional sign, digits, nothing else. */
static bool parse_long(const char *s, long *out)
{
    const char *p = s;
    if (*p == '+' || *p == '-')
        p++;
    if (*p < '0' || *p > '9')
        return false;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*end != '\0' || errno == ERANGE)
        return false;
    *out = v;
    return true;
}

/* ---- cost lists ---------------------------------------------------------- */

bool cost_list_parse(cost_list *out, const char *field, const char *text, ppf_error *err)
{
    assert(out && field && text);
    memset(out, 0, sizeof *out);
    const char *rule = "costs must be finite numbers >= 0";
    int count = 1;
    for (const char *p = text; *p; p++)
        count += *p == ',';
    if (count > SCENARIO_MAX_RANKS)
        return ppf_fail(err, "%s = %s: %d values, at most %d (one per rank)", field,
                        quote_string(text).s, count, SCENARIO_MAX_RANKS);
    double *values = ppf_malloc((size_t)count * sizeof *values);
    const char *p = text;
    for (int k = 0; k < count; k++) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        const char *a = p, *b = end;
        while (a < b && (*a == ' ' || *a == '\t'))
            a++;
        while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
            b--;
        if (!parse_plain_double(a, (size_t)(b - a), &values[k]) || values[k] < 0) {
            free(values);
            if (count == 1)
                return ppf_fail(err, "%s = %s: %s", field, quote_string(text).s, rule);
            if (a == b)
                return ppf_fail(err, "%s = %s: %s (item %d is empty)", field, quote_string(text).s,
                                rule, k + 1);
            return ppf_fail(err, "%s = %s: %s (item %d is %s)", field, quote_string(text).s, rule,
                            k + 1, quote_value(a, (size_t)(b - a)).s);
        }
        p = end + 1;
    }
    out->count = count;
    out->values = values;
    return true;
}

void cost_list_deinit(cost_list *c)
{
    if (!c)
        return;
    free(c->values);
    memset(c, 0, sizeof *c);
}

/* ---- all-reduce ---------------------------------------------------------- */

bool allreduce_parse(allreduce_cost *out, const char *text, ppf_error *err)
{
    assert(out && text);
    const char *forms =
        "give a time (a number >= 0), \"none\", or BYTES/BANDWIDTH[/ring|tree[/LATENCY]]";
    const char *parts[5];
    size_t lens[5];
    int n = 0;
    for (const char *p = text;; n++) {
        const char *slash = strchr(p, '/');
        if (n == 4)
            return ppf_fail(err, "costs.allreduce = %s: too many parts: %s", quote_string(text).s,
                            forms);
        parts[n] = p;
        lens[n] = slash ? (size_t)(slash - p) : strlen(p);
        if (!slash) {
            n++;
            break;
        }
        p = slash + 1;
    }
    allreduce_cost ar = {0};
    if (n == 1) {
        if (strcmp(text, "none") == 0) {
            *out = ar;
            return true;
        }
        if (!parse_plain_double(text, lens[0], &ar.time) || ar.time < 0)
            return ppf_fail(err, "costs.allreduce = %s: %s", quote_string(text).s, forms);
        ar.mode = ALLREDUCE_TIME;
        *out = ar;
        return true;
    }
    const char *units = "(a number, with k, M, G, T, Ki, Mi, Gi or Ti and B allowed: 1.5GB)";
    if (!scenario_parse_scaled(parts[0], lens[0], &ar.bytes) || ar.bytes < 0)
        return ppf_fail(err, "costs.allreduce = %s: bytes %s must be a finite number >= 0 %s",
                        quote_string(text).s, quote_value(parts[0], lens[0]).s, units);
    if (!scenario_parse_scaled(parts[1], lens[1], &ar.bandwidth) || !(ar.bandwidth > 0))
        return ppf_fail(err, "costs.allreduce = %s: bandwidth %s must be a finite number > 0 %s",
                        quote_string(text).s, quote_value(parts[1], lens[1]).s, units);
    ar.mode = ALLREDUCE_RING;
    if (n >= 3) {
        if (lens[2] == 4 && strncmp(parts[2], "ring", 4) == 0)
            ar.mode = ALLREDUCE_RING;
        else if (lens[2] == 4 && strncmp(parts[2], "tree", 4) == 0)
            ar.mode = ALLREDUCE_TREE;
        else
            return ppf_fail(err, "costs.allreduce = %s: algorithm %s must be ring or tree",
                            quote_string(text).s, quote_value(parts[2], lens[2]).s);
    }
    if (n >= 4 && (!scenario_parse_scaled(parts[3], lens[3], &ar.latency) || ar.latency < 0))
        return ppf_fail(err, "costs.allreduce = %s: latency %s must be a finite number >= 0",
                        quote_string(text).s, quote_value(parts[3], lens[3]).s);
    *out = ar;
    return true;
}

/* ---- the scenario -------------------------------------------------------- */

void scenario_init(scenario *sc)
{
    *sc = (scenario){.source = "built-in default"};
    for (int k = 0; k < FIELD_COUNT; k++) {
        const scenario_field *f = &fields[k];
        switch (f->type) {
        case SCENARIO_FIELD_SCHEDULE:
            snprintf(sc->schedule, sizeof sc->schedule, "%s", f->def_text);
            break;
        case SCENARIO_FIELD_INT:
            *(int *)field_value(sc, f) = (int)f->def;
            break;
        case SCENARIO_FIELD_COST:
            break; /* not given: scenario_build applies the default */
        case SCENARIO_FIELD_ALLREDUCE: {
            const bool ok = allreduce_parse(&sc->allreduce, f->def_text, NULL);
            assert(ok);
            (void)ok;
            break;
        }
        case SCENARIO_FIELD_BEATS:
            break; /* none of its own: the automatic ones */
        }
    }
}

void scenario_deinit(scenario *sc)
{
    if (!sc)
        return;
    for (int k = 0; k < FIELD_COUNT; k++)
        if (fields[k].type == SCENARIO_FIELD_COST)
            cost_list_deinit(field_value(sc, &fields[k]));
    beat_specs_deinit(&sc->beats);
    memset(sc, 0, sizeof *sc);
}

void scenario_copy(scenario *dst, const scenario *src)
{
    *dst = *src;
    beat_specs_copy(&dst->beats, &src->beats);
    for (int k = 0; k < FIELD_COUNT; k++) {
        if (fields[k].type != SCENARIO_FIELD_COST)
            continue;
        cost_list *c = field_value(dst, &fields[k]);
        if (c->count > 0) {
            double *v = ppf_malloc((size_t)c->count * sizeof *v);
            memcpy(v, c->values, (size_t)c->count * sizeof *v);
            c->values = v;
        }
    }
}

static bool fail_unknown_schedule(const char *value, ppf_error *err)
{
    char known[256] = "";
    int n = 0;
    const schedule_info *list = schedule_list(&n);
    size_t o = 0;
    for (int k = 0; k < n && o < sizeof known; k++)
        o += (size_t)snprintf(known + o, sizeof known - o, "%s, ", list[k].name);
    if (o < sizeof known)
        snprintf(known + o, sizeof known - o, "csv:PATH");
    return ppf_fail(err, "schedule = %s: unknown schedule (known: %s)", quote_string(value).s,
                    known);
}

static bool set_schedule(scenario *sc, const char *value, ppf_error *err)
{
    size_t len = strlen(value);
    if (strncmp(value, "csv:", 4) == 0) {
        if (len == 4)
            return ppf_fail(
                err, "schedule = %s: give the CSV file's path after csv:", quote_string(value).s);
        if (len >= sizeof sc->schedule)
            return ppf_fail(err, "schedule = %s: too long (at most %zu characters)",
                            quote_string(value).s, sizeof sc->schedule - 1);
        memcpy(sc->schedule, value, len + 1);
        sc->csv_named_by_file = false; /* a flag's, until a JSON reader says otherwise */
        sc->csv_dir_len = 0;
        return true;
    }
    const schedule_info *info = schedule_find(value);
    if (!info)
        return fail_unknown_schedule(value, err);
    snprintf(sc->schedule, sizeof sc->schedule, "%s", info->name);
    sc->csv_named_by_file = false;
    sc->csv_dir_len = 0;
    return true;
}

/* --beats auto|none|FILE: the scenario's beats replaced whole. */
static bool set_beats(scenario *sc, const char *value, ppf_error *err)
{
    beat_specs next = {0};
    if (strcmp(value, "none") == 0)
        next.no_auto = true;
    else if (value[0] == '\0')
        return ppf_fail(err, "beats = \"\": give auto, none, or a beats file's path");
    else if (strcmp(value, "auto") != 0 &&
             !scenario_load_beats_file(&next, value, sc->confine, err))
        return false;
    beat_specs_deinit(&sc->beats);
    sc->beats = next;
    return true;
}

bool scenario_set(scenario *sc, const char *field, const char *value, ppf_error *err)
{
    assert(sc && field && value);
    const scenario_field *f = scenario_field_find(field);
    if (!f) {
        char known[512];
        size_t o = 0;
        for (int k = 0; k < FIELD_COUNT; k++)
            o += (size_t)snprintf(known + o, sizeof known - o, k ? ", %s" : "%s", fields[k].flag);
        return ppf_fail(err, "unknown field %s (known: %s)", quote_string(field).s, known);
    }
    switch (f->type) {
    case SCENARIO_FIELD_SCHEDULE:
        if (!set_schedule(sc, value, err))
            return false;
        break;
    case SCENARIO_FIELD_ALLREDUCE:
        if (!allreduce_parse(&sc->allreduce, value, err))
            return false;
        break;
    case SCENARIO_FIELD_BEATS:
        if (!set_beats(sc, value, err))
            return false;
        break;
    case SCENARIO_FIELD_COST: {
        cost_list parsed;
        if (!cost_list_parse(&parsed, f->path, value, err))
            return false;
        cost_list *c = field_value(sc, f);
        cost_list_deinit(c);
        *c = parsed;
        break;
    }
    case SCENARIO_FIELD_INT: {
        long v;
        if (!parse_long(value, &v) || v < f->min || v > f->max)
            return ppf_fail(err, "%s = %s: must be an integer from %d to %d", f->path,
                            quote_string(value).s, f->min, f->max);
        *(int *)field_value(sc, f) = (int)v;
        break;
    }
    }
    sc->set_mask |= 1u << f->id;
    return true;
}

/* ---- building ------------------------------------------------------------ */

/* Value of a cost list on rank r; the list has 1 or P values. */
static double cost_at(const cost_list *c, int r)
{
    return c->values[c->count == 1 ? 0 : r];
}

static bool resolve_costs(const scenario *sc, int ranks, timeline_costs *out, ppf_error *err)
{
    const cost_list *lists[] = {&sc->f, &sc->b, &sc->i, &sc->w, &sc->fb, &sc->p2p};
    for (int k = 0; k < 6; k++)
        if (lists[k]->count > 1 && lists[k]->count != ranks)
            return ppf_fail(err, "%s has %d values: give one, or one per rank (%d)",
                            fields[FIELD_F + k].path, lists[k]->count, ranks);
    timeline_costs_init(out, ranks);
    bool has_b = sc->b.count > 0, has_i = sc->i.count > 0, has_w = sc->w.count > 0;
    for (int r = 0; r < ranks; r++) {
        double f = sc->f.count ? cost_at(&sc->f, r) : fields[FIELD_F].def;
        double b = has_b            ? cost_at(&sc->b, r)
                   : has_i && has_w ? cost_at(&sc->i, r) + cost_at(&sc->w, r)
                                    : fields[FIELD_B].def;
        double i = has_i ? cost_at(&sc->i, r) : has_w ? b - cost_at(&sc->w, r) : b / 2;
        double w = has_w ? cost_at(&sc->w, r) : has_i ? b - cost_at(&sc->i, r) : b / 2;
        if (i < 0 || w < 0) {
            const char *given = has_i ? "i" : "w", *derived = has_i ? "w" : "i";
            ppf_fail(err,
                     "costs.%s = %g on rank %d is more than costs.b = %g: costs.%s = b - %s would "
                     "be negative",
                     given, has_i ? i : w, r, b, derived, given);
            timeline_costs_deinit(out);
            memset(out, 0, sizeof *out);
            return false;
        }
        out->f[r] = f;
        out->b[r] = b;
        out->i[r] = i;
        out->w[r] = w;
        out->fb[r] = sc->fb.count ? cost_at(&sc->fb, r) : f + b;
        out->p2p[r] = sc->p2p.count ? cost_at(&sc->p2p, r) : fields[FIELD_P2P].def;
    }
    out->allreduce = sc->allreduce;
    out->dp = sc->dp;
    return true;
}

/* A scenario field set explicitly must agree with what the CSV holds. */
static bool check_csv_field(const scenario *sc, scenario_field_id id, int value, int csv_value,
                            const char *what, ppf_error *err)
{
    if (!(sc->set_mask & (1u << id)) || value == csv_value)
        return true;
    return ppf_fail(err, "%s = %d: the CSV %s has %d %s", fields[id].path, value,
                    quote_path(sc->schedule + 4).s, csv_value, what);
}

/* The CSV of "csv:PATH", loaded into *prog, or counted into *size when
 * prog is NULL (*measured false for a stream, which is read once, by the
 * build): a file's reference by file_read.h's rules, or a flag's path,
 * which may be a pipe unless confined. Counting opens the file as loading
 * does, so that it reads nothing that loading would refuse to read. */
static bool read_csv(const scenario *sc, program *prog, csv_size *size, bool *measured,
                     ppf_error *err)
{
    const char *path = sc->schedule + 4;
    if (!sc->csv_named_by_file && !sc->confine)
        return prog ? csv_load(path, prog, err) : csv_measure(path, size, measured, err);
    char dir[sizeof sc->schedule] = "";
    const int dir_len = sc->csv_named_by_file ? sc->csv_dir_len : 0;
    if (dir_len > 0) /* the folder without its '/', unless it is the root's "/" */
        snprintf(dir, sizeof dir, "%.*s", dir_len > 1 ? dir_len - 1 : 1, path);
    const bool confined = sc->confine && sc->csv_named_by_file;
    const file_ref ref = {.dir = dir, .name = path + dir_len, .confine = confined};
    return prog ? csv_load_ref(&ref, path, confined, prog, err)
                : csv_measure_ref(&ref, path, confined, size, measured, err);
}

static bool load_csv(const scenario *sc, program *prog, ppf_error *err)
{
    return read_csv(sc, prog, NULL, NULL, err);
}

bool scenario_cost(const scenario *sc, bool with_scene, budget_cost *out, ppf_error *err)
{
    *out = (budget_cost){0};
    int64_t stages, microbatches;
    if (strncmp(sc->schedule, "csv:", 4) == 0) {
        csv_size size;
        bool measured;
        if (!read_csv(sc, NULL, &size, &measured, err))
            return false;
        if (!measured) {
            /* read once, by the build: it may hold up to the limits */
            *out = (budget_cost){(double)BUDGET_MAX_ACTIONS, (double)BUDGET_MAX_GRID,
                                 with_scene ? (double)BUDGET_MAX_OBJECTS : 0};
            return true;
        }
        out->actions = (double)size.cells;
        out->pairs = (double)size.stages * (double)size.microbatches;
        stages = size.stages;
        microbatches = size.microbatches;
    } else {
        const schedule_info *info = schedule_find(sc->schedule);
        if (!info) {
            fail_unknown_schedule(sc->schedule, err);
            return false;
        }
        const int v = sc->virtual_stages > 0 ? sc->virtual_stages : info->default_v;
        *out = budget_cost_generated(sc->stages, v > 0 ? v : 1, sc->microbatches);
        stages = (int64_t)sc->stages * (v > 0 ? v : 1);
        microbatches = sc->microbatches;
    }
    if (with_scene)
        out->objects = scene_count_objects_rough(stages, sc->layers_per_stage, microbatches,
                                                 sc->dp > 0 ? sc->dp : 1);
    return true;
}

bool scenario_build(const scenario *sc, program *prog, timeline_costs *costs, ppf_error *err)
{
    memset(prog, 0, sizeof *prog);
    memset(costs, 0, sizeof *costs);
    if (strncmp(sc->schedule, "csv:", 4) == 0) {
        if (!load_csv(sc, prog, err))
            goto fail;
        if (!check_csv_field(sc, FIELD_STAGES, sc->stages, prog->ranks, "ranks (rows)", err) ||
            !check_csv_field(sc, FIELD_MICROBATCHES, sc->microbatches, prog->microbatches,
                             "micro-batches", err) ||
            !check_csv_field(sc, FIELD_VIRTUAL, sc->virtual_stages, prog->stages_per_rank,
                             "stages per rank", err))
            goto fail;
    } else {
        const schedule_info *info = schedule_find(sc->schedule);
        if (!info) {
            fail_unknown_schedule(sc->schedule, err);
            goto fail;
        }
        int v = sc->virtual_stages > 0 ? sc->virtual_stages : info->default_v;
        if (!budget_check_generated(sc->stages, v > 0 ? v : 1, sc->microbatches, err))
            goto fail;
        schedule_params sp = {.ranks = sc->stages,
                              .microbatches = sc->microbatches,
                              .stages_per_rank = sc->virtual_stages};
        if (!schedule_generate(info->name, &sp, prog, err))
            goto fail;
    }
    if (!resolve_costs(sc, prog->ranks, costs, err))
        goto fail;
    return true;
fail:
    program_deinit(prog);
    memset(prog, 0, sizeof *prog);
    memset(costs, 0, sizeof *costs);
    return false;
}
