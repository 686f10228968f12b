/* talk_file.c - a talk file read into its slides' scenarios (talk_file.h).
 *
 * The document is read as scenario files are (scenario_json_document), and
 * a slide's scenario keys go through scenario_apply_json: one reader of
 * scenarios, one set of rules and messages. What is here is the talk's own
 * shape (talk, base, slides; a slide's title, notes, camera, scenario) and
 * the path in front of each message.
 */
#include "talk_file.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_text.h"
#include "quote.h"

#define TALK_SHAPE "{\"slides\": [{\"schedule\": ...}, ...]}"

/* The keys a slide holds besides a scenario's. */
static const char *const slide_keys[] = {"title", "notes", "camera", "scenario", NULL};

/* "FILE: " in front of the message already in err, when there is a file. */
static bool in_file(ppf_error *err, const char *file)
{
    if (!file)
        return false;
    char rest[PPF_ERROR_MAX];
    memcpy(rest, err->message, sizeof rest);
    return ppf_fail(err, "%s: %s", quote_path(file).s, rest);
}

/* Does the message start with a field's path ("virtual = ", "beats[2].title
 * = ", "costs.allreduce: ", "beats has ")? Then the place is joined to it
 * with a dot ("slides[2].virtual = ..."); else with ": ". */
static bool starts_with_path(const char *m)
{
    size_t k = 0;
    while ((m[k] >= 'a' && m[k] <= 'z') || (m[k] >= '0' && m[k] <= '9') || m[k] == '_' ||
           m[k] == '.' || m[k] == '[' || m[k] == ']')
        k++;
    return k > 0 && m[0] >= 'a' && m[0] <= 'z' &&
           (strncmp(m + k, " = ", 3) == 0 || strncmp(m + k, ": ", 2) == 0 ||
            strncmp(m + k, " has ", 5) == 0);
}

/* Puts the place ("slides[2]", "base") in front of the message in err,
 * then the file; returns false. */
static bool at_place(ppf_error *err, const char *place, const char *file)
{
    char rest[PPF_ERROR_MAX];
    memcpy(rest, err->message, sizeof rest);
    ppf_fail(err, "%s%s%s", place, starts_with_path(rest) ? "." : ": ", rest);
    return in_file(err, file);
}

/* A scenario file named by a string value, loaded over *sc: relative to
 * the talk file's folder, by file_read.h's rules for a file another file
 * names, confined as sc->confine says. */
static bool load_scenario_file(scenario *sc, const cJSON *item, const char *name, const char *file,
                               ppf_error *err)
{
    if (!cJSON_IsString(item))
        return ppf_fail(err, "%s = %s: must be a scenario file's path (a string), not %s", name,
                        json_text_show(item).s, json_text_type(item));
    if (!item->valuestring[0])
        return ppf_fail(err, "%s = \"\": must be a file's path", name);
    char dir[1024] = "";
    const char *slash = file ? strrchr(file, '/') : NULL;
    if (slash) {
        const size_t n = slash == file ? 1 : (size_t)(slash - file); /* "/" for "/talk.json" */
        if (n >= sizeof dir)
            return ppf_fail(err, "%s = %s: the path is too long (at most %zu characters)", name,
                            quote_string(item->valuestring).s, sizeof dir - 1);
        memcpy(dir, file, n);
        dir[n] = '\0';
    }
    const file_ref ref = {.dir = dir, .name = item->valuestring, .confine = sc->confine};
    if (scenario_load_ref(sc, &ref, err))
        return true;
    /* the message starts with the file's path, which is no field's */
    char rest[PPF_ERROR_MAX];
    memcpy(rest, err->message, sizeof rest);
    return ppf_fail(err, "%s: %s", name, rest);
}

/* The base scenario: a file's path, or a scenario object. */
static bool read_base(scenario *base, const cJSON *item, const char *file, ppf_error *err)
{
    if (cJSON_IsString(item))
        return load_scenario_file(base, item, "base", file, err);
    if (cJSON_IsObject(item))
        return scenario_apply_json(base, item, file, NULL, err) || at_place(err, "base", NULL);
    return ppf_fail(err, "base = %s: must be a scenario file's path or a scenario object, not %s",
                    json_text_show(item).s, json_text_type(item));
}

/* slides[k]: the base, its "scenario" file, its own keys. */
static bool read_slide(talk_file_slide *out, const cJSON *item, int k, const scenario *base,
                       const char *file, ppf_error *err)
{
    scenario_copy(&out->sc, base);
    if (!cJSON_IsObject(item))
        return ppf_fail(err,
                        "slides[%d] = %s: must be an object {\"title\": ..., \"schedule\": ...}, "
                        "not %s",
                        k, json_text_show(item).s, json_text_type(item));
    const cJSON *got[4] = {0};
    for (const cJSON *c = item->child; c; c = c->next)
        for (int j = 0; slide_keys[j]; j++)
            if (strcmp(c->string, slide_keys[j]) == 0) {
                if (got[j])
                    return ppf_fail(err, "slides[%d]: field \"%s\" appears twice", k,
                                    slide_keys[j]);
                got[j] = c;
            }
    char place[32];
    snprintf(place, sizeof place, "slides[%d]", k);
    if ((got[0] && !json_text_string(got[0], "title", false, out->title, sizeof out->title, err)) ||
        (got[1] && !json_text_string(got[1], "notes", true, out->notes, sizeof out->notes, err)) ||
        (got[2] &&
         !json_text_string(got[2], "camera", false, out->camera, sizeof out->camera, err)) ||
        (got[3] && !load_scenario_file(&out->sc, got[3], "scenario", file, err)) ||
        !scenario_apply_json(&out->sc, item, file, slide_keys, err))
        return at_place(err, place, NULL);
    return true;
}

/* The talk's top level, from a parsed document; messages without the file. */
static bool read_talk(talk_file *t, const cJSON *root, const char *file, bool confine,
                      ppf_error *err)
{
    static const char *const keys[] = {"talk", "base", "slides", "description"};
    const cJSON *got[4] = {0};
    for (const cJSON *c = root->child; c; c = c->next) {
        int j = 0;
        while (j < 4 && strcmp(c->string, keys[j]) != 0)
            j++;
        if (j == 4)
            return ppf_fail(err, "unknown field %s (a talk holds talk, base, slides, description)",
                            quote_string(c->string).s);
        if (got[j])
            return ppf_fail(err, "field \"%s\" appears twice", keys[j]);
        got[j] = c;
    }
    if (got[0] && !json_text_string(got[0], "talk", false, t->title, sizeof t->title, err))
        return false;
    if (got[3] && !cJSON_IsString(got[3]))
        return ppf_fail(err, "description = %s: must be a string, not %s", json_text_show(got[3]).s,
                        json_text_type(got[3]));
    const cJSON *slides = got[2];
    if (!slides)
        return ppf_fail(err, "needs \"slides\": [{\"schedule\": ...}, ...], one scenario a slide");
    if (!cJSON_IsArray(slides))
        return ppf_fail(err, "slides = %s: must be an array of slides, not %s",
                        json_text_show(slides).s, json_text_type(slides));
    const int n = cJSON_GetArraySize(slides);
    if (n == 0)
        return ppf_fail(err, "slides = []: a talk needs at least one slide");
    if (n > TALK_SLIDES_MAX)
        return ppf_fail(err, "slides has %d items: at most %d", n, TALK_SLIDES_MAX);
    scenario base;
    scenario_init(&base);
    base.confine = confine; /* every slide's scenario starts from the base */
    bool ok = !got[1] || read_base(&base, got[1], file, err);
    if (ok) {
        t->slides = ppf_calloc((size_t)n, sizeof *t->slides);
        t->count = n;
        const cJSON *c = slides->child;
        for (int k = 0; ok && k < n; k++, c = c->next)
            ok = read_slide(&t->slides[k], c, k, &base, file, err);
    }
    scenario_deinit(&base);
    return ok;
}

bool talk_file_parse_json(talk_file *t, const char *text, size_t len, const char *file,
                          bool confine, ppf_error *err)
{
    memset(t, 0, sizeof *t);
    cJSON *root = scenario_json_document(text, len, TALK_SHAPE, err);
    bool ok = root && read_talk(t, root, file, confine, err);
    cJSON_Delete(root);
    if (!ok) {
        talk_file_deinit(t);
        return in_file(err, file);
    }
    return true;
}

bool talk_file_load(talk_file *t, const char *path, bool confine, ppf_error *err)
{
    memset(t, 0, sizeof *t);
    cJSON *root = scenario_json_load(path, "a talk file", TALK_SHAPE, confine, err);
    if (!root)
        return false; /* the message starts with the path already */
    bool ok = read_talk(t, root, path, confine, err);
    cJSON_Delete(root);
    if (!ok) {
        talk_file_deinit(t);
        return in_file(err, path);
    }
    return true;
}

bool talk_file_detect(const char *path)
{
    ppf_error err = {{0}};
    /* A regular file only: a pipe is read once, by the scenario reader,
     * not emptied here to tell what it holds. */
    cJSON *root = scenario_json_load(path, "a talk file", TALK_SHAPE, true, &err);
    bool is_talk = root && cJSON_GetObjectItemCaseSensitive(root, "slides") != NULL;
    cJSON_Delete(root);
    return is_talk;
}

bool talk_file_check_budget(const talk_file *t, bool with_scene, const char *file, ppf_error *err)
{
    budget_cost *costs = ppf_calloc((size_t)t->count, sizeof *costs);
    char(*name)[24] = ppf_calloc((size_t)t->count, sizeof *name);
    const char **names = ppf_calloc((size_t)t->count, sizeof *names);
    for (int k = 0; k < t->count; k++) {
        snprintf(name[k], sizeof name[k], "slides[%d]", k);
        names[k] = name[k];
    }
    bool ok = true;
    budget_cost sum = {0};
    int unread = 0;
    for (int k = 0; ok && k < t->count; k++) {
        /* A CSV is counted by a walk over its file (up to 256 MiB): once
         * the slides before it are over the budget the talk is refused
         * whatever the CSV holds, so it is not read; a talk naming one big
         * CSV on 100 slides would otherwise be read 100 times. */
        if (strncmp(t->slides[k].sc.schedule, "csv:", 4) == 0 && !budget_cost_fits(&sum)) {
            unread++;
            continue;
        }
        if (!scenario_cost(&t->slides[k].sc, with_scene, &costs[k], err)) {
            /* worded as the slide's build would word it (talk.h) */
            char rest[PPF_ERROR_MAX];
            memcpy(rest, err->message, sizeof rest);
            ok = ppf_fail(err, "slides[%d]: %s", k, rest);
            in_file(err, file);
        }
        budget_cost_add(&sum, &costs[k]);
    }
    if (ok) {
        char what[sizeof quote_path("").s + 96], more[64] = "";
        if (unread)
            snprintf(more, sizeof more, " (%d CSV slide%s past the limit not read)", unread,
                     unread == 1 ? "" : "s");
        snprintf(what, sizeof what, "%s%s%d slide%s%s", file ? quote_path(file).s : "",
                 file ? ": " : "", t->count, t->count == 1 ? "" : "s", more);
        ok = budget_check_total(costs, names, t->count, what, err);
    }
    free(names);
    free(name);
    free(costs);
    return ok;
}

void talk_file_deinit(talk_file *t)
{
    if (!t)
        return;
    for (int k = 0; k < t->count; k++)
        scenario_deinit(&t->slides[k].sc);
    free(t->slides);
    memset(t, 0, sizeof *t);
}
