/* scenario.c - the scenario: field table, text and JSON parsing, building.
 *
 * Every setter works on a copy and commits only when the whole input is good,
 * so a failed flag or file leaves the scenario as it was. Messages name the
 * field by its JSON path ("microbatches", "costs.b"), quote the value as
 * given (escaped and cut so the message stays one printable line) and state
 * the rule.
 */
#include "scenario.h"

#include <assert.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget.h"
#include "csv.h"
#include "file_read.h"
#include "schedules.h"

#define SCENARIO_FILE_MAX (16L * 1024 * 1024) /* larger scenario files are refused */

static const scenario_field fields[FIELD_COUNT] = {
    {FIELD_SCHEDULE, "schedule", "schedule", "NAME",
     "schedule: gpipe, 1f1b, interleaved-1f1b, looped-bfs, zb-h1, interleaved-zb, zbv, dualpipev, "
     "or csv:PATH to import a PyTorch schedule CSV (default 1f1b)",
     false},
    {FIELD_STAGES, "stages", "stages", "P", "pipeline ranks P (default 4)", false},
    {FIELD_MICROBATCHES, "microbatches", "microbatches", "M",
     "micro-batches per iteration M (default 8)", false},
    {FIELD_VIRTUAL, "virtual", "virtual", "V", "stages per rank V (default: the schedule's own)",
     false},
    {FIELD_DP, "dp", "dp", "D", "data-parallel replicas D (default 2)", false},
    {FIELD_LAYERS_PER_STAGE, "layers_per_stage", "layers-per-stage", "N",
     "model layers drawn per stage (default 2)", false},
    {FIELD_D_MODEL, "d_model", "d-model", "N",
     "3D picture: model width, the height of a residual face (default 8)", false},
    {FIELD_D_HIDDEN, "d_hidden", "d-hidden", "N",
     "3D picture: hidden width, the length of a layer (default 16)", false},
    {FIELD_BATCH, "batch", "batch", "N",
     "3D picture: one replica's batch, the depth of its band, split among micro-batches "
     "(default 48)",
     false},
    {FIELD_STAGE_GAP, "stage_gap", "stage-gap", "N",
     "3D picture: gap between pipeline stages, where p2p sends flash (default 12)", false},
    {FIELD_REPLICA_GAP, "replica_gap", "replica-gap", "N",
     "3D picture: gap between data-parallel replicas, where all-reduces flash (default 16)",
     false},
    {FIELD_F, "f", "f", "COST",
     "forward time per rank: one value, or a comma list with one per rank (default 1)", true},
    {FIELD_B, "b", "b", "COST", "full backward time (default 2, or i + w when both are given)",
     true},
    {FIELD_I, "i", "i", "COST", "backward-for-inputs time (default b/2, or b - w)", true},
    {FIELD_W, "w", "w", "COST", "backward-for-weights time (default b/2, or b - i)", true},
    {FIELD_FB, "fb", "fb", "COST", "overlapped forward+backward time (default f + b)", true},
    {FIELD_P2P, "p2p", "p2p", "COST",
     "time of one activation or gradient transfer between ranks (default 0)", true},
    {FIELD_ALLREDUCE, "allreduce", "allreduce", "SPEC",
     "gradient all-reduce of a rank's share: TIME, or BYTES/BANDWIDTH[/ring|tree[/LATENCY]] "
     "(default none)",
     true},
};

/* What the public table does not carry: the JSON path used in messages, and
 * where an integer field lives and its range. */
static const struct field_rule {
    const char *path;
    size_t offset; /* of the int, for integer fields */
    int lo, hi;    /* hi == 0: not an integer field */
} rules[FIELD_COUNT] = {
    [FIELD_SCHEDULE] = {"schedule", 0, 0, 0},
    [FIELD_STAGES] = {"stages", offsetof(scenario, stages), 1, SCENARIO_MAX_RANKS},
    [FIELD_MICROBATCHES] = {"microbatches", offsetof(scenario, microbatches), 1,
                            SCENARIO_MAX_MICROBATCHES},
    [FIELD_VIRTUAL] = {"virtual", offsetof(scenario, virtual_stages), 1, SCENARIO_MAX_VIRTUAL},
    [FIELD_DP] = {"dp", offsetof(scenario, dp), 1, SCENARIO_MAX_DP},
    [FIELD_LAYERS_PER_STAGE] = {"layers_per_stage", offsetof(scenario, layers_per_stage), 1,
                                SCENARIO_MAX_LAYERS},
    [FIELD_D_MODEL] = {"d_model", offsetof(scenario, d_model), 1, SCENARIO_MAX_SCENE_SIZE},
    [FIELD_D_HIDDEN] = {"d_hidden", offsetof(scenario, d_hidden), 1, SCENARIO_MAX_SCENE_SIZE},
    [FIELD_BATCH] = {"batch", offsetof(scenario, batch), 1, SCENARIO_MAX_SCENE_SIZE},
    [FIELD_STAGE_GAP] = {"stage_gap", offsetof(scenario, stage_gap), 0, SCENARIO_MAX_SCENE_SIZE},
    [FIELD_REPLICA_GAP] = {"replica_gap", offsetof(scenario, replica_gap), 0,
                           SCENARIO_MAX_SCENE_SIZE},
    [FIELD_F] = {"costs.f", 0, 0, 0},
    [FIELD_B] = {"costs.b", 0, 0, 0},
    [FIELD_I] = {"costs.i", 0, 0, 0},
    [FIELD_W] = {"costs.w", 0, 0, 0},
    [FIELD_FB] = {"costs.fb", 0, 0, 0},
    [FIELD_P2P] = {"costs.p2p", 0, 0, 0},
    [FIELD_ALLREDUCE] = {"costs.allreduce", 0, 0, 0},
};

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
        if (strcmp(name, f->flag) == 0 || strcmp(name, f->json) == 0 ||
            strcmp(name, rules[k].path) == 0)
            return f;
    }
    return NULL;
}

/* ---- messages ------------------------------------------------------------ */

/* Bytes of a value, and of a path, shown before it is cut with "...". */
enum { SHOW_MAX = 60, SHOW_PATH_MAX = 160 };

typedef struct shown {
    char s[SHOW_PATH_MAX * 4 + 8];
} shown;

/* Length of the valid, printable UTF-8 sequence at s (0 if it is not one):
 * C1 controls and the Unicode line and paragraph separators count as not
 * printable, since they break lines in some viewers. */
static size_t utf8_printable(const unsigned char *s, size_t len)
{
    size_t n = s[0] >= 0xC2 && s[0] <= 0xDF   ? 2
               : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
               : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4
                                              : 0;
    if (n == 0 || n > len)
        return 0;
    for (size_t k = 1; k < n; k++)
        if (s[k] < 0x80 || s[k] > 0xBF)
            return 0;
    if (s[0] == 0xC2 && s[1] < 0xA0)
        return 0;
    if (s[0] == 0xE2 && s[1] == 0x80 && (s[2] == 0xA8 || s[2] == 0xA9))
        return 0;
    return n;
}

/* s[0..len) as one printable line: control bytes and invalid UTF-8 as \xHH,
 * cut after max bytes (at most SHOW_PATH_MAX) with "...". When quote is set
 * the result is wrapped in double quotes, inner quotes and backslashes escaped. */
static shown show_cut(const char *s, size_t len, size_t max, bool quote)
{
    shown out;
    size_t o = 0;
    const unsigned char *u = (const unsigned char *)s;
    size_t shown_len = len > max ? max : len;
    if (quote)
        out.s[o++] = '"';
    for (size_t k = 0; k < shown_len;) {
        size_t n;
        if (u[k] >= 0x20 && u[k] < 0x7F) {
            if (quote && (u[k] == '"' || u[k] == '\\'))
                out.s[o++] = '\\';
            out.s[o++] = (char)u[k++];
        } else if (u[k] >= 0x80 && (n = utf8_printable(u + k, shown_len - k)) > 0) {
            memcpy(out.s + o, u + k, n);
            o += n;
            k += n;
        } else {
            o += (size_t)snprintf(out.s + o, 5, "\\x%02X", u[k++]);
        }
    }
    if (len > shown_len) {
        memcpy(out.s + o, "...", 3);
        o += 3;
    }
    if (quote)
        out.s[o++] = '"';
    out.s[o] = '\0';
    return out;
}

static shown show(const char *s, size_t len, bool quote)
{
    return show_cut(s, len, SHOW_MAX, quote);
}

/* A file path, unquoted, for the front of a message. */
static shown show_path(const char *path)
{
    return show_cut(path, strlen(path), SHOW_PATH_MAX, false);
}

static shown quoted(const char *s)
{
    return show(s, strlen(s), true);
}

/* A JSON value as compact JSON text, cut to one short line. A number shows
 * as the user wrote it (see keep_number_text): cJSON would print 1e999 as
 * null and 99999999999999999999 as 1e+20. */
static shown show_json(const cJSON *item)
{
    if (cJSON_IsNumber(item) && item->valuestring)
        return show(item->valuestring, strlen(item->valuestring), false);
    char *text = cJSON_PrintUnformatted(item);
    shown out = text ? show(text, strlen(text), false) : show("?", 1, false);
    cJSON_free(text);
    return out;
}

/* Puts "origin: " in front of the message already in err; returns false. */
static bool prefixed(ppf_error *err, const char *origin)
{
    if (!err || !origin)
        return false;
    char rest[PPF_ERROR_MAX];
    memcpy(rest, err->message, sizeof rest);
    return ppf_fail(err, "%s: %s", show_path(origin).s, rest);
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

/* A number with an optional scale suffix (k K M G T = powers of 1000, Ki Mi
 * Gi Ti = powers of 1024) and an optional trailing B: "1.5GB", "64KiB". */
static bool parse_scaled_double(const char *s, size_t len, double *out)
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
        return ppf_fail(err, "%s = %s: %d values, at most %d (one per rank)", field, quoted(text).s,
                        count, SCENARIO_MAX_RANKS);
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
                return ppf_fail(err, "%s = %s: %s", field, quoted(text).s, rule);
            if (a == b)
                return ppf_fail(err, "%s = %s: %s (item %d is empty)", field, quoted(text).s, rule,
                                k + 1);
            return ppf_fail(err, "%s = %s: %s (item %d is %s)", field, quoted(text).s, rule, k + 1,
                            show(a, (size_t)(b - a), true).s);
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
            return ppf_fail(err, "costs.allreduce = %s: too many parts: %s", quoted(text).s, forms);
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
            return ppf_fail(err, "costs.allreduce = %s: %s", quoted(text).s, forms);
        ar.mode = ALLREDUCE_TIME;
        *out = ar;
        return true;
    }
    const char *units = "(a number, with k, M, G, T, Ki, Mi, Gi or Ti and B allowed: 1.5GB)";
    if (!parse_scaled_double(parts[0], lens[0], &ar.bytes) || ar.bytes < 0)
        return ppf_fail(err, "costs.allreduce = %s: bytes %s must be a finite number >= 0 %s",
                        quoted(text).s, show(parts[0], lens[0], true).s, units);
    if (!parse_scaled_double(parts[1], lens[1], &ar.bandwidth) || !(ar.bandwidth > 0))
        return ppf_fail(err, "costs.allreduce = %s: bandwidth %s must be a finite number > 0 %s",
                        quoted(text).s, show(parts[1], lens[1], true).s, units);
    ar.mode = ALLREDUCE_RING;
    if (n >= 3) {
        if (lens[2] == 4 && strncmp(parts[2], "ring", 4) == 0)
            ar.mode = ALLREDUCE_RING;
        else if (lens[2] == 4 && strncmp(parts[2], "tree", 4) == 0)
            ar.mode = ALLREDUCE_TREE;
        else
            return ppf_fail(err, "costs.allreduce = %s: algorithm %s must be ring or tree",
                            quoted(text).s, show(parts[2], lens[2], true).s);
    }
    if (n >= 4 && (!parse_scaled_double(parts[3], lens[3], &ar.latency) || ar.latency < 0))
        return ppf_fail(err, "costs.allreduce = %s: latency %s must be a finite number >= 0",
                        quoted(text).s, show(parts[3], lens[3], true).s);
    *out = ar;
    return true;
}

/* ---- the scenario -------------------------------------------------------- */

void scenario_init(scenario *sc)
{
    *sc = (scenario){
        .schedule = "1f1b",
        .stages = 4,
        .microbatches = 8,
        .virtual_stages = 0,
        .dp = 2,
        .layers_per_stage = 2,
        .d_model = 8,
        .d_hidden = 16,
        .batch = 48,
        .stage_gap = 12,
        .replica_gap = 16,
        .allreduce = {.mode = ALLREDUCE_NONE},
        .set_mask = 0,
        .source = "built-in default",
    };
}

static cost_list *cost_of(scenario *sc, scenario_field_id id)
{
    switch (id) {
    case FIELD_F:
        return &sc->f;
    case FIELD_B:
        return &sc->b;
    case FIELD_I:
        return &sc->i;
    case FIELD_W:
        return &sc->w;
    case FIELD_FB:
        return &sc->fb;
    case FIELD_P2P:
        return &sc->p2p;
    default:
        return NULL;
    }
}

void scenario_deinit(scenario *sc)
{
    if (!sc)
        return;
    for (int k = FIELD_F; k <= FIELD_P2P; k++)
        cost_list_deinit(cost_of(sc, (scenario_field_id)k));
    memset(sc, 0, sizeof *sc);
}

/* A deep copy, so that a parse can work on it and commit only on success. */
void scenario_copy(scenario *dst, const scenario *src)
{
    *dst = *src;
    for (int k = FIELD_F; k <= FIELD_P2P; k++) {
        cost_list *c = cost_of(dst, (scenario_field_id)k);
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
    return ppf_fail(err, "schedule = %s: unknown schedule (known: %s)", quoted(value).s, known);
}

static bool set_schedule(scenario *sc, const char *value, ppf_error *err)
{
    size_t len = strlen(value);
    if (strncmp(value, "csv:", 4) == 0) {
        if (len == 4)
            return ppf_fail(err,
                            "schedule = %s: give the CSV file's path after csv:", quoted(value).s);
        if (len >= sizeof sc->schedule)
            return ppf_fail(err, "schedule = %s: too long (at most %zu characters)",
                            quoted(value).s, sizeof sc->schedule - 1);
        memcpy(sc->schedule, value, len + 1);
        return true;
    }
    const schedule_info *info = schedule_find(value);
    if (!info)
        return fail_unknown_schedule(value, err);
    snprintf(sc->schedule, sizeof sc->schedule, "%s", info->name);
    return true;
}

static bool int_in_range(const struct field_rule *r, long v)
{
    return v >= r->lo && v <= r->hi;
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
        return ppf_fail(err, "unknown field %s (known: %s)", quoted(field).s, known);
    }
    const struct field_rule *r = &rules[f->id];
    if (f->id == FIELD_SCHEDULE) {
        if (!set_schedule(sc, value, err))
            return false;
    } else if (f->id == FIELD_ALLREDUCE) {
        if (!allreduce_parse(&sc->allreduce, value, err))
            return false;
    } else if (f->is_cost) {
        cost_list parsed;
        if (!cost_list_parse(&parsed, r->path, value, err))
            return false;
        cost_list *c = cost_of(sc, f->id);
        cost_list_deinit(c);
        *c = parsed;
    } else {
        long v;
        if (!parse_long(value, &v) || !int_in_range(r, v))
            return ppf_fail(err, "%s = %s: must be an integer from %d to %d", r->path,
                            quoted(value).s, r->lo, r->hi);
        *(int *)((char *)sc + r->offset) = (int)v;
    }
    sc->set_mask |= 1u << f->id;
    return true;
}

/* ---- JSON ---------------------------------------------------------------- */

static const char *json_type(const cJSON *item)
{
    if (cJSON_IsNumber(item))
        return "a number";
    if (cJSON_IsString(item))
        return "a string";
    if (cJSON_IsArray(item))
        return "an array";
    if (cJSON_IsObject(item))
        return "an object";
    if (cJSON_IsBool(item))
        return "a boolean";
    return "null";
}

static bool json_cost_value(const cJSON *item, const char *path, double *out, ppf_error *err)
{
    if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble) || item->valuedouble < 0)
        return ppf_fail(err, "%s = %s: costs must be finite numbers >= 0", path, show_json(item).s);
    *out = item->valuedouble == 0 ? 0.0 : item->valuedouble;
    return true;
}

static bool json_cost(scenario *sc, const scenario_field *f, const cJSON *item, ppf_error *err)
{
    const char *path = rules[f->id].path;
    cost_list list = {0};
    if (cJSON_IsArray(item)) {
        int n = cJSON_GetArraySize(item);
        if (n == 0)
            return ppf_fail(err, "%s = []: give a number, or an array with one number per rank",
                            path);
        if (n > SCENARIO_MAX_RANKS)
            return ppf_fail(err, "%s has %d values: at most %d (one per rank)", path, n,
                            SCENARIO_MAX_RANKS);
        list.values = ppf_malloc((size_t)n * sizeof *list.values);
        const cJSON *v = item->child;
        for (int k = 0; k < n; k++, v = v->next) {
            char at[48];
            snprintf(at, sizeof at, "%s[%d]", path, k);
            if (!json_cost_value(v, at, &list.values[k], err)) {
                free(list.values);
                return false;
            }
        }
        list.count = n;
    } else if (cJSON_IsNumber(item)) {
        list.values = ppf_malloc(sizeof *list.values);
        if (!json_cost_value(item, path, &list.values[0], err)) {
            free(list.values);
            return false;
        }
        list.count = 1;
    } else {
        return ppf_fail(err,
                        "%s = %s: must be a number >= 0 or an array of them (one per rank), not %s",
                        path, show_json(item).s, json_type(item));
    }
    cost_list *c = cost_of(sc, f->id);
    cost_list_deinit(c);
    *c = list;
    return true;
}

/* A number or a string with a scale suffix, finite and >= minimum (> 0 when
 * positive is set). */
static bool json_scaled(const cJSON *item, const char *path, bool positive, double *out,
                        ppf_error *err)
{
    double v = 0;
    bool ok = false;
    if (cJSON_IsNumber(item)) {
        v = item->valuedouble;
        ok = isfinite(v);
    } else if (cJSON_IsString(item)) {
        ok = parse_scaled_double(item->valuestring, strlen(item->valuestring), &v);
    }
    if (!ok || (positive ? !(v > 0) : v < 0))
        return ppf_fail(err,
                        "%s = %s: must be a finite number %s (a string may carry k, M, G, T, Ki, "
                        "Mi, Gi, Ti and B)",
                        path, show_json(item).s, positive ? "> 0" : ">= 0");
    *out = v;
    return true;
}

static bool json_allreduce(scenario *sc, const cJSON *item, ppf_error *err)
{
    allreduce_cost ar = {0};
    if (cJSON_IsNumber(item)) {
        if (!isfinite(item->valuedouble) || item->valuedouble < 0)
            return ppf_fail(err, "costs.allreduce = %s: a time must be a finite number >= 0",
                            show_json(item).s);
        ar.mode = ALLREDUCE_TIME;
        ar.time = item->valuedouble;
    } else if (cJSON_IsString(item)) {
        if (!allreduce_parse(&ar, item->valuestring, err))
            return false;
    } else if (cJSON_IsObject(item)) {
        static const char *keys[] = {"time", "bytes", "bandwidth", "algorithm", "latency"};
        const cJSON *got[5] = {0};
        for (const cJSON *c = item->child; c; c = c->next) {
            int k = 0;
            while (k < 5 && strcmp(c->string, keys[k]) != 0)
                k++;
            if (k == 5)
                return ppf_fail(err,
                                "costs.allreduce: unknown field %s (known: time, or bytes, "
                                "bandwidth, algorithm, latency)",
                                quoted(c->string).s);
            if (got[k])
                return ppf_fail(err, "costs.allreduce: field \"%s\" appears twice", keys[k]);
            got[k] = c;
        }
        if (got[0]) {
            if (got[1] || got[2] || got[3] || got[4])
                return ppf_fail(
                    err, "costs.allreduce = %s: give either time, or bytes and bandwidth, not both",
                    show_json(item).s);
            if (!json_scaled(got[0], "costs.allreduce.time", false, &ar.time, err))
                return false;
            ar.mode = ALLREDUCE_TIME;
        } else {
            if (!got[1] || !got[2])
                return ppf_fail(
                    err, "costs.allreduce = %s: needs \"time\", or \"bytes\" and \"bandwidth\"",
                    show_json(item).s);
            if (!json_scaled(got[1], "costs.allreduce.bytes", false, &ar.bytes, err) ||
                !json_scaled(got[2], "costs.allreduce.bandwidth", true, &ar.bandwidth, err))
                return false;
            if (got[4] && !json_scaled(got[4], "costs.allreduce.latency", false, &ar.latency, err))
                return false;
            ar.mode = ALLREDUCE_RING;
            if (got[3]) {
                const char *alg = cJSON_IsString(got[3]) ? got[3]->valuestring : "";
                if (strcmp(alg, "tree") == 0)
                    ar.mode = ALLREDUCE_TREE;
                else if (strcmp(alg, "ring") != 0)
                    return ppf_fail(err,
                                    "costs.allreduce.algorithm = %s: must be \"ring\" or \"tree\"",
                                    show_json(got[3]).s);
            }
        }
    } else {
        return ppf_fail(err,
                        "costs.allreduce = %s: must be a time (number), a string TIME or "
                        "BYTES/BANDWIDTH[/ring|tree[/LATENCY]], "
                        "or an object, not %s",
                        show_json(item).s, json_type(item));
    }
    sc->allreduce = ar;
    return true;
}

static bool json_field(scenario *sc, const scenario_field *f, const cJSON *item, ppf_error *err)
{
    const struct field_rule *r = &rules[f->id];
    if (f->id == FIELD_SCHEDULE) {
        if (!cJSON_IsString(item))
            return ppf_fail(
                err, "schedule = %s: must be a string (a schedule name or \"csv:PATH\"), not %s",
                show_json(item).s, json_type(item));
        if (!set_schedule(sc, item->valuestring, err))
            return false;
    } else if (f->id == FIELD_ALLREDUCE) {
        if (!json_allreduce(sc, item, err))
            return false;
    } else if (f->is_cost) {
        if (!json_cost(sc, f, item, err))
            return false;
    } else {
        double v = cJSON_IsNumber(item) ? item->valuedouble : NAN;
        if (!(v >= r->lo && v <= r->hi && floor(v) == v)) {
            if (cJSON_IsNumber(item))
                return ppf_fail(err, "%s = %s: must be an integer from %d to %d", r->path,
                                show_json(item).s, r->lo, r->hi);
            return ppf_fail(err, "%s = %s: must be an integer from %d to %d, not %s", r->path,
                            show_json(item).s, r->lo, r->hi, json_type(item));
        }
        *(int *)((char *)sc + r->offset) = (int)v;
    }
    sc->set_mask |= 1u << f->id;
    return true;
}

static const scenario_field *json_key_find(const char *key, bool is_cost)
{
    for (int k = 0; k < FIELD_COUNT; k++)
        if (fields[k].is_cost == is_cost && strcmp(key, fields[k].json) == 0)
            return &fields[k];
    return NULL;
}

static bool fail_unknown_key(const char *key, bool is_cost, ppf_error *err)
{
    char known[512];
    size_t o = 0;
    for (int k = 0; k < FIELD_COUNT; k++)
        if (fields[k].is_cost == is_cost)
            o += (size_t)snprintf(known + o, sizeof known - o, o ? ", %s" : "%s", fields[k].json);
    if (!is_cost)
        snprintf(known + o, sizeof known - o, ", costs, description");
    char name[SHOW_MAX + 8];
    snprintf(name, sizeof name, "%s%s", is_cost ? "costs." : "", key);
    return ppf_fail(err, "unknown field %s (known: %s)", quoted(name).s, known);
}

static bool json_costs(scenario *sc, const cJSON *costs, unsigned *seen, ppf_error *err)
{
    if (!cJSON_IsObject(costs))
        return ppf_fail(err, "costs = %s: must be an object {\"f\": ..., \"b\": ...}, not %s",
                        show_json(costs).s, json_type(costs));
    for (const cJSON *c = costs->child; c; c = c->next) {
        const scenario_field *f = json_key_find(c->string, true);
        if (!f)
            return fail_unknown_key(c->string, true, err);
        if (*seen & (1u << f->id))
            return ppf_fail(err, "field \"costs.%s\" appears twice", f->json);
        *seen |= 1u << f->id;
        if (!json_field(sc, f, c, err))
            return false;
    }
    return true;
}

static void line_column(const char *text, size_t pos, int *line, int *column)
{
    *line = 1;
    size_t start = 0;
    for (size_t k = 0; k < pos; k++)
        if (text[k] == '\n') {
            ++*line;
            start = k + 1;
        }
    *column = (int)(pos - start) + 1;
}

/* A relative csv:PATH in a scenario file is relative to the file's folder. */
static bool resolve_csv_path(scenario *sc, const char *file, ppf_error *err)
{
    const char *path = sc->schedule + 4;
    const char *slash = strrchr(file, '/');
    if (path[0] == '/' || !slash)
        return true;
    char joined[sizeof sc->schedule];
    int n = snprintf(joined, sizeof joined, "csv:%.*s/%s", (int)(slash - file), file, path);
    if (n < 0 || (size_t)n >= sizeof joined)
        return ppf_fail(err,
                        "schedule = %s: the path relative to the scenario file is too long (at "
                        "most %zu characters)",
                        quoted(sc->schedule).s, sizeof joined - 1);
    memcpy(sc->schedule, joined, (size_t)n + 1);
    return true;
}

/* Where the first \u0000 escape inside a JSON string starts, or NULL: cJSON
 * would end the string there, so "stages\u0000junk" would read as "stages". */
static const char *find_nul_escape(const char *text, size_t len)
{
    bool in_string = false;
    for (size_t k = 0; k < len; k++) {
        if (!in_string) {
            in_string = text[k] == '"';
        } else if (text[k] == '"') {
            in_string = false;
        } else if (text[k] == '\\' && k + 1 < len) {
            if (text[k + 1] == 'u' && k + 5 < len && strncmp(text + k + 2, "0000", 4) == 0)
                return text + k;
            k++; /* the escaped character, a quote or a backslash included */
        }
    }
    return NULL;
}

/* Gives each number of a parsed document its text as written, in its
 * valuestring (which cJSON leaves NULL for numbers and frees with the
 * item), so that messages quote what the user wrote. Numbers come in the
 * same order in the text as in a depth-first walk of the tree; *pos walks
 * the text, outside strings, to the start of the next one. */
static void keep_number_text(cJSON *item, const char *text, size_t len, size_t *pos)
{
    for (; item; item = item->next) {
        if (cJSON_IsNumber(item)) {
            bool in_string = false;
            size_t k = *pos;
            for (; k < len; k++) {
                char c = text[k];
                if (in_string) {
                    if (c == '\\')
                        k++;
                    else if (c == '"')
                        in_string = false;
                } else if (c == '"') {
                    in_string = true;
                } else if (c == '-' || (c >= '0' && c <= '9')) {
                    break;
                }
            }
            size_t end = k;
            while (end < len && strchr("+-.0123456789eE", text[end]))
                end++;
            char *t = ppf_malloc(end - k + 1);
            memcpy(t, text + k, end - k);
            t[end - k] = '\0';
            item->valuestring = t;
            *pos = end;
        }
        keep_number_text(item->child, text, len, pos);
    }
}

/* Parses text over a copy of *sc and commits it on success. origin (may be
 * NULL) prefixes messages; file (may be NULL) anchors relative CSV paths. */
static bool parse_json(scenario *sc, const char *text, size_t len, const char *origin,
                       const char *file, ppf_error *err)
{
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        int line, col;
        line_column(text, (size_t)(nul - text), &line, &col);
        ppf_fail(err, "not JSON text: a NUL byte at line %d, column %d", line, col);
        return prefixed(err, origin);
    }
    size_t k = 0;
    while (k < len && strchr(" \t\r\n", text[k]))
        k++;
    if (k == len) {
        ppf_fail(err, "empty: expected a JSON object {\"schedule\": ..., \"stages\": ...}");
        return prefixed(err, origin);
    }
    /* cJSON reads a terminated copy: the caller's text need not end in NUL. */
    char *copy = ppf_malloc(len + 1);
    memcpy(copy, text, len);
    copy[len] = '\0';
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(copy, len + 1, &end, true);
    scenario tmp;
    scenario_copy(&tmp, sc);
    bool ok = false;
    if (!root) {
        size_t pos = end && end >= copy && end <= copy + len ? (size_t)(end - copy) : 0;
        int line, col;
        line_column(copy, pos, &line, &col);
        if (pos >= len)
            ppf_fail(err, "malformed JSON at line %d, column %d: unexpected end of text", line,
                     col);
        else
            ppf_fail(err, "malformed JSON at line %d, column %d, near %s", line, col,
                     show(copy + pos, len - pos > 16 ? 16 : len - pos, true).s);
        goto done;
    }
    if (!cJSON_IsObject(root)) {
        ppf_fail(err, "the top level must be a JSON object {\"schedule\": ..., ...}, not %s",
                 json_type(root));
        goto done;
    }
    const char *nul_escape = find_nul_escape(copy, len);
    if (nul_escape) {
        int line, col;
        line_column(copy, (size_t)(nul_escape - copy), &line, &col);
        ppf_fail(err,
                 "a string holds \\u0000 (a NUL character) at line %d, column %d: keys and "
                 "values may not",
                 line, col);
        goto done;
    }
    size_t number_pos = 0;
    keep_number_text(root, copy, len, &number_pos);
    unsigned seen = 0;
    bool seen_costs = false, seen_description = false;
    for (const cJSON *c = root->child; c; c = c->next) {
        if (strcmp(c->string, "costs") == 0) {
            if (seen_costs) {
                ppf_fail(err, "field \"costs\" appears twice");
                goto done;
            }
            seen_costs = true;
            if (!json_costs(&tmp, c, &seen, err))
                goto done;
        } else if (strcmp(c->string, "description") == 0) {
            if (seen_description) {
                ppf_fail(err, "field \"description\" appears twice");
                goto done;
            }
            seen_description = true;
            if (!cJSON_IsString(c)) {
                ppf_fail(err, "description = %s: must be a string, not %s", show_json(c).s,
                         json_type(c));
                goto done;
            }
        } else {
            const scenario_field *f = json_key_find(c->string, false);
            if (!f) {
                fail_unknown_key(c->string, false, err);
                goto done;
            }
            if (seen & (1u << f->id)) {
                ppf_fail(err, "field \"%s\" appears twice", f->json);
                goto done;
            }
            seen |= 1u << f->id;
            if (!json_field(&tmp, f, c, err))
                goto done;
        }
    }
    if (file && (seen & (1u << FIELD_SCHEDULE)) && strncmp(tmp.schedule, "csv:", 4) == 0 &&
        !resolve_csv_path(&tmp, file, err))
        goto done;
    ok = true;
done:
    cJSON_Delete(root);
    free(copy);
    if (!ok) {
        scenario_deinit(&tmp);
        return prefixed(err, origin);
    }
    scenario_deinit(sc);
    *sc = tmp;
    return true;
}

bool scenario_parse_json(scenario *sc, const char *text, size_t len, ppf_error *err)
{
    return parse_json(sc, text, len, NULL, NULL, err);
}

bool scenario_load_file(scenario *sc, const char *path, ppf_error *err)
{
    file_text ft;
    switch (file_read_path(&ft, path, SCENARIO_FILE_MAX, false)) {
    case FILE_READ_OK:
        break;
    case FILE_READ_CANNOT_OPEN:
    case FILE_READ_NOT_REGULAR:
        return ppf_fail(err, "%s: cannot open: %s", show_path(path).s, strerror(ft.errno_value));
    case FILE_READ_DIRECTORY:
        return ppf_fail(err, "%s: is a directory, not a scenario file", show_path(path).s);
    case FILE_READ_TOO_BIG:
        return ppf_fail(err, "%s: larger than %ld MiB: not a scenario file", show_path(path).s,
                        SCENARIO_FILE_MAX >> 20);
    case FILE_READ_ERROR:
        return ppf_fail(err, "%s: cannot read: %s", show_path(path).s, strerror(ft.errno_value));
    }
    bool ok = parse_json(sc, ft.text, ft.len, path, path, err);
    if (ok)
        snprintf(sc->source, sizeof sc->source, "%s", path);
    file_text_deinit(&ft);
    return ok;
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
                            rules[FIELD_F + k].path, lists[k]->count, ranks);
    timeline_costs_init(out, ranks);
    bool has_b = sc->b.count > 0, has_i = sc->i.count > 0, has_w = sc->w.count > 0;
    for (int r = 0; r < ranks; r++) {
        double f = sc->f.count ? cost_at(&sc->f, r) : 1.0;
        double b = has_b            ? cost_at(&sc->b, r)
                   : has_i && has_w ? cost_at(&sc->i, r) + cost_at(&sc->w, r)
                                    : 2.0;
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
        out->p2p[r] = sc->p2p.count ? cost_at(&sc->p2p, r) : 0.0;
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
    return ppf_fail(err, "%s = %d: the CSV %s has %d %s", rules[id].path, value,
                    show_path(sc->schedule + 4).s, csv_value, what);
}

bool scenario_build(const scenario *sc, program *prog, timeline_costs *costs, ppf_error *err)
{
    memset(prog, 0, sizeof *prog);
    memset(costs, 0, sizeof *costs);
    if (strncmp(sc->schedule, "csv:", 4) == 0) {
        if (!csv_load(sc->schedule + 4, prog, err))
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
