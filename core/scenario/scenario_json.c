/* scenario_json.c - a scenario from JSON text or a JSON file (scenario.h).
 *
 * The fields come from scenario.h's table: a key is a field's JSON name,
 * costs go under "costs", and a top-level "description" is free text. A
 * text is applied to a copy and committed only when all of it is good.
 * "beats" is an array of beat objects (beats.h), "auto_beats" a boolean; a
 * beats file (--beats FILE) is the same reader with only those two keys.
 * Messages quote the value as the user wrote it: cJSON keeps no text for
 * numbers, so keep_number_text puts it back before any check runs.
 */
#include "scenario.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "action.h"
#include "file_read.h"
#include "json_text.h"
#include "quote.h"

#define SCENARIO_FILE_MAX (16L * 1024 * 1024) /* larger scenario files are refused */

/* Puts "origin: " in front of the message already in err; returns false. */
static bool prefixed(ppf_error *err, const char *origin)
{
    if (!err || !origin)
        return false;
    char rest[PPF_ERROR_MAX];
    memcpy(rest, err->message, sizeof rest);
    return ppf_fail(err, "%s: %s", quote_path(origin).s, rest);
}

static bool json_cost_value(const cJSON *item, const char *path, double *out, ppf_error *err)
{
    if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble) || item->valuedouble < 0)
        return ppf_fail(err, "%s = %s: costs must be finite numbers >= 0", path,
                        json_text_show(item).s);
    *out = item->valuedouble == 0 ? 0.0 : item->valuedouble;
    return true;
}

static bool json_cost(scenario *sc, const scenario_field *f, const cJSON *item, ppf_error *err)
{
    const char *path = f->path;
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
                        path, json_text_show(item).s, json_text_type(item));
    }
    cost_list *c = (cost_list *)((char *)sc + f->offset);
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
        ok = scenario_parse_scaled(item->valuestring, strlen(item->valuestring), &v);
    }
    if (!ok || (positive ? !(v > 0) : v < 0))
        return ppf_fail(err,
                        "%s = %s: must be a finite number %s (a string may carry k, M, G, T, Ki, "
                        "Mi, Gi, Ti and B)",
                        path, json_text_show(item).s, positive ? "> 0" : ">= 0");
    *out = v;
    return true;
}

static bool json_allreduce(scenario *sc, const cJSON *item, ppf_error *err)
{
    allreduce_cost ar = {0};
    if (cJSON_IsNumber(item)) {
        if (!isfinite(item->valuedouble) || item->valuedouble < 0)
            return ppf_fail(err, "costs.allreduce = %s: a time must be a finite number >= 0",
                            json_text_show(item).s);
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
                                quote_string(c->string).s);
            if (got[k])
                return ppf_fail(err, "costs.allreduce: field \"%s\" appears twice", keys[k]);
            got[k] = c;
        }
        if (got[0]) {
            if (got[1] || got[2] || got[3] || got[4])
                return ppf_fail(
                    err, "costs.allreduce = %s: give either time, or bytes and bandwidth, not both",
                    json_text_show(item).s);
            if (!json_scaled(got[0], "costs.allreduce.time", false, &ar.time, err))
                return false;
            ar.mode = ALLREDUCE_TIME;
        } else {
            if (!got[1] || !got[2])
                return ppf_fail(
                    err, "costs.allreduce = %s: needs \"time\", or \"bytes\" and \"bandwidth\"",
                    json_text_show(item).s);
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
                                    json_text_show(got[3]).s);
            }
        }
    } else {
        return ppf_fail(err,
                        "costs.allreduce = %s: must be a time (number), a string TIME or "
                        "BYTES/BANDWIDTH[/ring|tree[/LATENCY]], "
                        "or an object, not %s",
                        json_text_show(item).s, json_text_type(item));
    }
    sc->allreduce = ar;
    return true;
}

/* ---- beats ------------------------------------------------------------------ */

/* A text field of beats[k] into out (size bytes with the NUL): a string that
 * fits, one line unless multiline. */
static bool json_beat_text(const cJSON *item, int k, const char *key, bool multiline, char *out,
                           size_t size, ppf_error *err)
{
    char name[64];
    snprintf(name, sizeof name, "beats[%d].%s", k, key);
    return json_text_string(item, name, multiline, out, size, err);
}

/* One beat object, beats[k]. */
static bool json_beat(beat_spec *out, const cJSON *item, int k, ppf_error *err)
{
    memset(out, 0, sizeof *out);
    if (!cJSON_IsObject(item))
        return ppf_fail(err,
                        "beats[%d] = %s: must be an object {\"t\": 12.5, \"title\": \"...\"}, "
                        "not %s",
                        k, json_text_show(item).s, json_text_type(item));
    static const char *keys[] = {"t", "after", "title", "caption", "camera", "notes"};
    const cJSON *got[6] = {0};
    for (const cJSON *c = item->child; c; c = c->next) {
        int j = 0;
        while (j < 6 && strcmp(c->string, keys[j]) != 0)
            j++;
        if (j == 6)
            return ppf_fail(err,
                            "beats[%d]: unknown field %s (known: t, after, title, caption, camera, "
                            "notes)",
                            k, quote_string(c->string).s);
        if (got[j])
            return ppf_fail(err, "beats[%d]: field \"%s\" appears twice", k, keys[j]);
        got[j] = c;
    }
    if (got[0] && got[1])
        return ppf_fail(err, "beats[%d]: give \"t\" or \"after\", not both", k);
    if (!got[0] && !got[1])
        return ppf_fail(err,
                        "beats[%d]: needs \"t\" (a time) or \"after\" (an action whose end it "
                        "is, \"3B0\")",
                        k);
    if (got[0]) {
        const cJSON *t = got[0];
        if (!cJSON_IsNumber(t) || !isfinite(t->valuedouble) || t->valuedouble < 0)
            return ppf_fail(err, "beats[%d].t = %s: must be a time, a number from 0", k,
                            json_text_show(t).s);
        out->t = t->valuedouble == 0 ? 0.0 : t->valuedouble;
    } else {
        if (!json_beat_text(got[1], k, "after", false, out->after, sizeof out->after, err))
            return false;
        action a;
        if (!action_parse(out->after, strlen(out->after), &a, NULL) ||
            !action_is_compute((action_kind)a.kind))
            return ppf_fail(err,
                            "beats[%d].after = %s: must name a compute action in PyTorch's "
                            "notation (\"3B0\": stage 3's backward of micro-batch 0; F, B, I, W)",
                            k, quote_string(out->after).s);
    }
    if (!got[2])
        return ppf_fail(err, "beats[%d]: needs a \"title\" (a few words)", k);
    if (!json_beat_text(got[2], k, "title", false, out->title, sizeof out->title, err))
        return false;
    if (!out->title[0])
        return ppf_fail(err, "beats[%d].title = \"\": must not be empty", k);
    return (!got[3] ||
            json_beat_text(got[3], k, "caption", false, out->caption, sizeof out->caption, err)) &&
           (!got[4] ||
            json_beat_text(got[4], k, "camera", false, out->camera, sizeof out->camera, err)) &&
           (!got[5] ||
            json_beat_text(got[5], k, "notes", true, out->notes, sizeof out->notes, err));
}

/* "beats": [...], in place of the scenario's; "auto_beats" is apart. */
static bool json_beats(scenario *sc, const cJSON *item, ppf_error *err)
{
    if (!cJSON_IsArray(item))
        return ppf_fail(err,
                        "beats = %s: must be an array of beats [{\"t\": 12.5, \"title\": "
                        "\"...\"}], not %s",
                        json_text_show(item).s, json_text_type(item));
    int n = cJSON_GetArraySize(item);
    if (n > BEATS_MAX)
        return ppf_fail(err, "beats has %d items: at most %d", n, BEATS_MAX);
    beat_spec *items = n > 0 ? ppf_malloc((size_t)n * sizeof *items) : NULL;
    const cJSON *c = item->child;
    for (int k = 0; k < n; k++, c = c->next)
        if (!json_beat(&items[k], c, k, err)) {
            free(items);
            return false;
        }
    free(sc->beats.items);
    sc->beats.items = items;
    sc->beats.count = n;
    return true;
}

static bool json_field(scenario *sc, const scenario_field *f, const cJSON *item, ppf_error *err)
{
    switch (f->type) {
    case SCENARIO_FIELD_SCHEDULE:
        if (!cJSON_IsString(item))
            return ppf_fail(
                err, "schedule = %s: must be a string (a schedule name or \"csv:PATH\"), not %s",
                json_text_show(item).s, json_text_type(item));
        if (!scenario_set(sc, f->flag, item->valuestring, err))
            return false;
        /* a file wrote it: read as a file that a file names (file_read.h) */
        sc->csv_named_by_file = strncmp(sc->schedule, "csv:", 4) == 0;
        break;
    case SCENARIO_FIELD_ALLREDUCE:
        if (!json_allreduce(sc, item, err))
            return false;
        break;
    case SCENARIO_FIELD_COST:
        if (!json_cost(sc, f, item, err))
            return false;
        break;
    case SCENARIO_FIELD_BEATS:
        if (!json_beats(sc, item, err))
            return false;
        break;
    case SCENARIO_FIELD_INT: {
        double v = cJSON_IsNumber(item) ? item->valuedouble : NAN;
        if (!(v >= f->min && v <= f->max && floor(v) == v)) {
            if (cJSON_IsNumber(item))
                return ppf_fail(err, "%s = %s: must be an integer from %d to %d", f->path,
                                json_text_show(item).s, f->min, f->max);
            return ppf_fail(err, "%s = %s: must be an integer from %d to %d, not %s", f->path,
                            json_text_show(item).s, f->min, f->max, json_text_type(item));
        }
        *(int *)((char *)sc + f->offset) = (int)v;
        break;
    }
    }
    sc->set_mask |= 1u << f->id;
    return true;
}

static const scenario_field *json_key_find(const char *key, bool is_cost)
{
    int n;
    const scenario_field *fields = scenario_fields(&n);
    for (int k = 0; k < n; k++)
        if (fields[k].is_cost == is_cost && strcmp(key, fields[k].json) == 0)
            return &fields[k];
    return NULL;
}

/* extra: the keys the caller reads itself (a talk's slide), named too. */
static bool fail_unknown_key(const char *key, bool is_cost, const char *const *extra,
                             ppf_error *err)
{
    char known[640];
    size_t o = 0;
    int n;
    const scenario_field *fields = scenario_fields(&n);
    for (int k = 0; k < n; k++)
        if (fields[k].is_cost == is_cost)
            o += (size_t)snprintf(known + o, sizeof known - o, o ? ", %s" : "%s", fields[k].json);
    if (!is_cost)
        o += (size_t)snprintf(known + o, sizeof known - o, ", auto_beats, costs, description");
    for (int k = 0; !is_cost && extra && extra[k] && o < sizeof known; k++)
        o += (size_t)snprintf(known + o, sizeof known - o, ", %s", extra[k]);
    char name[QUOTE_VALUE_MAX + 8];
    snprintf(name, sizeof name, "%s%s", is_cost ? "costs." : "", key);
    return ppf_fail(err, "unknown field %s (known: %s)", quote_string(name).s, known);
}

static bool json_costs(scenario *sc, const cJSON *costs, unsigned *seen, ppf_error *err)
{
    if (!cJSON_IsObject(costs))
        return ppf_fail(err, "costs = %s: must be an object {\"f\": ..., \"b\": ...}, not %s",
                        json_text_show(costs).s, json_text_type(costs));
    for (const cJSON *c = costs->child; c; c = c->next) {
        const scenario_field *f = json_key_find(c->string, true);
        if (!f)
            return fail_unknown_key(c->string, true, NULL, err);
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

/* A relative csv:PATH in a scenario file is relative to the file's folder:
 * joined to it here, the folder's length kept for the confined walk
 * (csv_dir_len). */
static bool resolve_csv_path(scenario *sc, const char *file, ppf_error *err)
{
    const char *path = sc->schedule + 4;
    const char *slash = strrchr(file, '/');
    if (path[0] == '/' || !slash)
        return true;
    char joined[sizeof sc->schedule];
    const int dir_len = (int)(slash - file) + 1; /* the folder and its '/' */
    int n = snprintf(joined, sizeof joined, "csv:%.*s/%s", dir_len - 1, file, path);
    if (n < 0 || (size_t)n >= sizeof joined)
        return ppf_fail(err,
                        "schedule = %s: the path relative to the scenario file is too long (at "
                        "most %zu characters)",
                        quote_string(sc->schedule).s, sizeof joined - 1);
    memcpy(sc->schedule, joined, (size_t)n + 1);
    sc->csv_dir_len = dir_len;
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

/* Every field name and string value under item is valid UTF-8, as RFC 8259
 * asks of JSON text: cJSON copies bytes as they come, and a title with a
 * stray byte would otherwise go on into `--format json` and beats.json,
 * which JSON readers refuse. One walk of the document covers every text
 * field, those ppflow reads ("description" included) and those it shows.
 * path[0..at) is item's place ("" at the top, "slides[2]"); messages name
 * the field by its place and give the byte offset within its value. */
static bool check_utf8(const cJSON *item, char *path, size_t at, size_t cap, ppf_error *err)
{
    int k = 0;
    for (const cJSON *c = item->child; c; c = c->next, k++) {
        int n;
        if (cJSON_IsArray(item)) {
            n = snprintf(path + at, cap - at, "[%d]", k);
        } else {
            char what[96];
            snprintf(what, sizeof what, "a field name%s%.*s", at ? " in " : "", (int)at, path);
            if (!json_text_check_utf8(c->string, what, err))
                return false;
            n = snprintf(path + at, cap - at, "%s%s", at ? "." : "", c->string);
        }
        const size_t end = n < 0 ? at : at + (size_t)n < cap ? at + (size_t)n : cap - 1;
        if (cJSON_IsString(c) && !json_text_check_utf8(c->valuestring, path, err))
            return false;
        if ((cJSON_IsArray(c) || cJSON_IsObject(c)) && !check_utf8(c, path, end, cap, err))
            return false;
        path[at] = '\0';
    }
    return true;
}

/* What a JSON text may hold: a scenario, or only beats (--beats FILE). */
typedef enum json_kind { JSON_SCENARIO, JSON_BEATS } json_kind;

/* The JSON document of text[0..len), its numbers' text kept (see
 * keep_number_text), or NULL with one line. shape and top say what the
 * top level should look like, in messages about an empty text and about
 * another type. */
static cJSON *parse_document(const char *text, size_t len, const char *shape, const char *top,
                             ppf_error *err)
{
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        int line, col;
        line_column(text, (size_t)(nul - text), &line, &col);
        ppf_fail(err, "not JSON text: a NUL byte at line %d, column %d", line, col);
        return NULL;
    }
    size_t k = 0;
    while (k < len && strchr(" \t\r\n", text[k]))
        k++;
    if (k == len) {
        ppf_fail(err, "empty: expected a JSON object %s", shape);
        return NULL;
    }
    /* cJSON reads a terminated copy: the caller's text need not end in NUL. */
    char *copy = ppf_malloc(len + 1);
    memcpy(copy, text, len);
    copy[len] = '\0';
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(copy, len + 1, &end, true);
    if (!root) {
        size_t pos = end && end >= copy && end <= copy + len ? (size_t)(end - copy) : 0;
        int line, col;
        line_column(copy, pos, &line, &col);
        if (pos >= len)
            ppf_fail(err, "malformed JSON at line %d, column %d: unexpected end of text", line,
                     col);
        else
            ppf_fail(err, "malformed JSON at line %d, column %d, near %s", line, col,
                     quote_value(copy + pos, len - pos > 16 ? 16 : len - pos).s);
        goto fail;
    }
    if (!cJSON_IsObject(root)) {
        ppf_fail(err, "the top level must be a JSON object %s, not %s", top, json_text_type(root));
        goto fail;
    }
    const char *nul_escape = find_nul_escape(copy, len);
    if (nul_escape) {
        int line, col;
        line_column(copy, (size_t)(nul_escape - copy), &line, &col);
        ppf_fail(err,
                 "a string holds \\u0000 (a NUL character) at line %d, column %d: keys and "
                 "values may not",
                 line, col);
        goto fail;
    }
    char path[256] = "";
    if (!check_utf8(root, path, 0, sizeof path, err))
        goto fail;
    size_t number_pos = 0;
    keep_number_text(root, copy, len, &number_pos);
    free(copy);
    return root;
fail:
    cJSON_Delete(root);
    free(copy);
    return NULL;
}

/* Applies the object's keys to *tmp (a scratch copy: it may be left half
 * changed on failure). file (may be NULL) anchors relative CSV paths; the
 * keys in skip (NULL-ended, may be NULL) are the caller's and left alone. */
static bool apply_object(scenario *tmp, const cJSON *root, json_kind kind, const char *file,
                         const char *const *skip, ppf_error *err)
{
    unsigned seen = 0;
    bool seen_costs = false, seen_description = false, seen_auto = false;
    for (const cJSON *c = root->child; c; c = c->next) {
        bool skipped = false;
        for (int k = 0; skip && skip[k] && !skipped; k++)
            skipped = strcmp(c->string, skip[k]) == 0;
        if (skipped)
            continue;
        if (kind == JSON_BEATS && strcmp(c->string, "beats") != 0 &&
            strcmp(c->string, "auto_beats") != 0 && strcmp(c->string, "description") != 0)
            return ppf_fail(err,
                            "unknown field %s (a beats file holds beats, auto_beats, description)",
                            quote_string(c->string).s);
        if (strcmp(c->string, "auto_beats") == 0) {
            if (seen_auto)
                return ppf_fail(err, "field \"auto_beats\" appears twice");
            seen_auto = true;
            if (!cJSON_IsBool(c))
                return ppf_fail(err, "auto_beats = %s: must be true or false, not %s",
                                json_text_show(c).s, json_text_type(c));
            tmp->beats.no_auto = cJSON_IsFalse(c);
            tmp->set_mask |= 1u << FIELD_BEATS;
        } else if (strcmp(c->string, "costs") == 0) {
            if (seen_costs)
                return ppf_fail(err, "field \"costs\" appears twice");
            seen_costs = true;
            if (!json_costs(tmp, c, &seen, err))
                return false;
        } else if (strcmp(c->string, "description") == 0) {
            if (seen_description)
                return ppf_fail(err, "field \"description\" appears twice");
            seen_description = true;
            if (!cJSON_IsString(c))
                return ppf_fail(err, "description = %s: must be a string, not %s",
                                json_text_show(c).s, json_text_type(c));
        } else {
            const scenario_field *f = json_key_find(c->string, false);
            if (!f)
                return fail_unknown_key(c->string, false, skip, err);
            if (seen & (1u << f->id))
                return ppf_fail(err, "field \"%s\" appears twice", f->json);
            seen |= 1u << f->id;
            if (!json_field(tmp, f, c, err))
                return false;
        }
    }
    return !(file && (seen & (1u << FIELD_SCHEDULE)) && strncmp(tmp->schedule, "csv:", 4) == 0 &&
             !resolve_csv_path(tmp, file, err));
}

/* Applies a parsed object over a copy of *sc and commits it on success. */
static bool apply_json(scenario *sc, const cJSON *root, json_kind kind, const char *file,
                       const char *const *skip, ppf_error *err)
{
    scenario tmp;
    scenario_copy(&tmp, sc);
    if (!apply_object(&tmp, root, kind, file, skip, err)) {
        scenario_deinit(&tmp);
        return false;
    }
    scenario_deinit(sc);
    *sc = tmp;
    return true;
}

/* Parses text over a copy of *sc and commits it on success. origin (may be
 * NULL) prefixes messages; file (may be NULL) anchors relative CSV paths. */
static bool parse_json(scenario *sc, const char *text, size_t len, const char *origin,
                       const char *file, json_kind kind, ppf_error *err)
{
    const char *shape = kind == JSON_BEATS ? "{\"beats\": [...], \"auto_beats\": ...}"
                                           : "{\"schedule\": ..., \"stages\": ...}";
    cJSON *root = parse_document(text, len, shape,
                                 kind == JSON_BEATS ? shape : "{\"schedule\": ..., ...}", err);
    bool ok = root && apply_json(sc, root, kind, file, NULL, err);
    cJSON_Delete(root);
    return ok || prefixed(err, origin);
}

struct cJSON *scenario_json_document(const char *text, size_t len, const char *shape,
                                     ppf_error *err)
{
    return parse_document(text, len, shape, shape, err);
}

bool scenario_apply_json(scenario *sc, const struct cJSON *object, const char *file,
                         const char *const *skip, ppf_error *err)
{
    if (!cJSON_IsObject(object))
        return ppf_fail(err, "must be an object {\"schedule\": ..., ...}, not %s",
                        json_text_type(object));
    return apply_json(sc, object, JSON_SCENARIO, file, skip, err);
}

bool scenario_parse_json(scenario *sc, const char *text, size_t len, ppf_error *err)
{
    return parse_json(sc, text, len, NULL, NULL, JSON_SCENARIO, err);
}

/* One line for a file that could not be read; `what` names what it should
 * have been ("a scenario file"). */
static bool fail_read(file_read_status status, const file_text *ft, const struct stat *st,
                      const char *path, const char *what, ppf_error *err)
{
    switch (status) {
    case FILE_READ_OK:
        return true;
    case FILE_READ_CANNOT_OPEN:
        return ppf_fail(err, "%s: cannot open: %s", quote_path(path).s, strerror(ft->errno_value));
    case FILE_READ_DIRECTORY:
        return ppf_fail(err, "%s: is a directory, not %s", quote_path(path).s, what);
    case FILE_READ_TOO_BIG:
        return ppf_fail(err, "%s: larger than %ld MiB: not %s", quote_path(path).s,
                        SCENARIO_FILE_MAX >> 20, what);
    case FILE_READ_ERROR:
        return ppf_fail(err, "%s: cannot read: %s", quote_path(path).s, strerror(ft->errno_value));
    case FILE_READ_NOT_REGULAR:
    case FILE_READ_PSEUDO:
    case FILE_READ_OUTSIDE:
        return ppf_fail(err, "%s: %s", quote_path(path).s, file_read_status_text(status, st));
    }
    return false;
}

/* Reads a whole JSON file; `what` names it in messages ("a scenario file"). */
static bool read_json_file(file_text *ft, const char *path, const char *what, bool regular_only,
                           ppf_error *err)
{
    struct stat st;
    const file_read_status status =
        regular_only ? file_read_ref(ft, &(file_ref){.name = path}, SCENARIO_FILE_MAX, &st)
                     : file_read_path(ft, path, SCENARIO_FILE_MAX, false);
    return fail_read(status, ft, regular_only ? &st : NULL, path, what, err);
}

bool scenario_load_beats_file(beat_specs *out, const char *path, bool regular_only, ppf_error *err)
{
    memset(out, 0, sizeof *out);
    file_text ft;
    if (!read_json_file(&ft, path, "a beats file", regular_only, err))
        return false;
    scenario sc = {0}; /* only its beats are read or written */
    bool ok = parse_json(&sc, ft.text, ft.len, path, NULL, JSON_BEATS, err);
    file_text_deinit(&ft);
    if (ok) {
        *out = sc.beats;
        sc.beats = (beat_specs){0};
    }
    scenario_deinit(&sc);
    return ok;
}

bool scenario_load_file(scenario *sc, const char *path, ppf_error *err)
{
    file_text ft;
    if (!read_json_file(&ft, path, "a scenario file", sc->confine, err))
        return false;
    bool ok = parse_json(sc, ft.text, ft.len, path, path, JSON_SCENARIO, err);
    if (ok)
        snprintf(sc->source, sizeof sc->source, "%s", path);
    file_text_deinit(&ft);
    return ok;
}

bool scenario_load_ref(scenario *sc, const file_ref *ref, ppf_error *err)
{
    /* The path as messages show it, and as the file's own csv:PATH is
     * anchored: dir/name, the name alone when absolute. */
    char path[1024];
    const bool join = ref->name[0] != '/' && ref->dir && ref->dir[0];
    const int n = join ? snprintf(path, sizeof path, "%s/%s", ref->dir, ref->name)
                       : snprintf(path, sizeof path, "%s", ref->name);
    if (n < 0 || (size_t)n >= sizeof path)
        return ppf_fail(err, "%s: the path is too long (at most %zu characters)",
                        quote_path(ref->name).s, sizeof path - 1);
    file_text ft;
    struct stat st;
    const file_read_status status = file_read_ref(&ft, ref, SCENARIO_FILE_MAX, &st);
    if (status != FILE_READ_OK)
        return fail_read(status, &ft, &st, path, "a scenario file", err);
    /* Confined, the file may be anything its namer pointed at: its text is
     * read, checked and refused without a word of it in the message. */
    if (ref->confine)
        quote_conceal_begin();
    bool ok = parse_json(sc, ft.text, ft.len, NULL, path, JSON_SCENARIO, err);
    if (ref->confine)
        quote_conceal_end();
    file_text_deinit(&ft);
    if (!ok)
        return prefixed(err, path);
    const size_t keep = (size_t)n < sizeof sc->source ? (size_t)n : sizeof sc->source - 1;
    memcpy(sc->source, path, keep); /* for the HUD and messages: cut, as scenario_load_file's */
    sc->source[keep] = '\0';
    sc->conceal |= ref->confine;
    return true;
}

struct cJSON *scenario_json_load(const char *path, const char *what, const char *shape,
                                 bool regular_only, ppf_error *err)
{
    file_text ft;
    if (!read_json_file(&ft, path, what, regular_only, err))
        return NULL;
    cJSON *root = parse_document(ft.text, ft.len, shape, shape, err);
    file_text_deinit(&ft);
    if (!root)
        prefixed(err, path);
    return root;
}
