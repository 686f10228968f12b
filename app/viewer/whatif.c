/* whatif.c - the what-if command line, its direct keys, undo and the HUD's
 * diff. See whatif.h. */
#include "whatif.h"

#include <stdio.h>
#include <string.h>

#include "quote.h"
#include "schedules.h"

/* ---- names and values ----------------------------------------------------- */

const scenario_field *whatif_field(const char *name)
{
    const scenario_field *f = scenario_field_find(name);
    return f && f->type != SCENARIO_FIELD_BEATS ? f : NULL;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Appends to out[size] like snprintf at its end; a full buffer keeps what fits. */
static void append(char *out, size_t size, const char *fmt, const char *a, const char *b)
{
    size_t len = strlen(out);
    if (len + 1 < size)
        snprintf(out + len, size - len, fmt, a, b);
}

static void cost_text(const cost_list *c, char *out, size_t size)
{
    out[0] = '\0';
    for (int k = 0; k < c->count; k++) {
        char v[32];
        snprintf(v, sizeof v, "%.6g", c->values[k]);
        append(out, size, "%s%s", k ? "," : "", v);
    }
}

void whatif_value(const scenario *sc, const scenario_field *f, char *out, size_t size)
{
    const void *at = (const char *)sc + f->offset;
    switch (f->type) {
    case SCENARIO_FIELD_SCHEDULE:
        snprintf(out, size, "%s", sc->schedule);
        return;
    case SCENARIO_FIELD_INT: {
        const int v = *(const int *)at;
        if (f->id == FIELD_VIRTUAL && v == 0)
            snprintf(out, size, "default");
        else
            snprintf(out, size, "%d", v);
        return;
    }
    case SCENARIO_FIELD_COST: {
        const cost_list *c = at;
        if (c->count > 0)
            cost_text(c, out, size);
        else if (f->id == FIELD_I || f->id == FIELD_W)
            snprintf(out, size, "b/2");
        else if (f->id == FIELD_FB)
            snprintf(out, size, "f+b");
        else
            snprintf(out, size, "%.6g", f->def);
        return;
    }
    case SCENARIO_FIELD_ALLREDUCE: {
        const allreduce_cost *a = at;
        if (a->mode == ALLREDUCE_NONE)
            snprintf(out, size, "none");
        else if (a->mode == ALLREDUCE_TIME)
            snprintf(out, size, "%.6g", a->time);
        else if (a->latency > 0)
            snprintf(out, size, "%.6g/%.6g/%s/%.6g", a->bytes, a->bandwidth,
                     a->mode == ALLREDUCE_TREE ? "tree" : "ring", a->latency);
        else
            snprintf(out, size, "%.6g/%.6g/%s", a->bytes, a->bandwidth,
                     a->mode == ALLREDUCE_TREE ? "tree" : "ring");
        return;
    }
    case SCENARIO_FIELD_BEATS:
        break;
    }
    snprintf(out, size, "?");
}

/* ---- changes ---------------------------------------------------------------- */

/* A V the new schedule cannot run goes back to the schedule's own. */
static void fit_virtual(scenario *sc)
{
    const schedule_info *info = schedule_find(sc->schedule);
    const int v = sc->virtual_stages;
    if (!info || v == 0)
        return;
    if (v < info->min_v || (info->max_v > 0 && v > info->max_v)) {
        sc->virtual_stages = 0;
        sc->set_mask &= ~(1u << FIELD_VIRTUAL);
    }
}

/* now with field set to value into *out; false with *out zeroed. */
static bool set_one(const scenario *now, const scenario_field *f, const char *value, scenario *out,
                    ppf_error *err)
{
    scenario_copy(out, now);
    if (!scenario_set(out, f->flag, value, err)) {
        scenario_deinit(out);
        memset(out, 0, sizeof *out);
        return false;
    }
    if (f->id == FIELD_SCHEDULE)
        fit_virtual(out);
    return true;
}

/* The names the line takes, for messages: "schedule, stages, ...". */
static void field_names(char *out, size_t size)
{
    int n;
    const scenario_field *fields = scenario_fields(&n);
    out[0] = '\0';
    for (int k = 0; k < n; k++)
        if (fields[k].type != SCENARIO_FIELD_BEATS)
            append(out, size, "%s%s", out[0] ? ", " : "", fields[k].flag);
}

bool whatif_parse(const scenario *now, const char *text, scenario *out, ppf_error *err)
{
    memset(out, 0, sizeof *out);
    while (is_blank(*text))
        text++;
    size_t name_len = 0;
    while (text[name_len] && !is_blank(text[name_len]))
        name_len++;
    if (name_len == 0) {
        char names[400];
        field_names(names, sizeof names);
        return ppf_fail(err, "type a name and a value, e.g. \"stages 8\" (names: %s)", names);
    }
    char name[64];
    if (name_len >= sizeof name) {
        char names[400];
        field_names(names, sizeof names);
        return ppf_fail(err, "no field %s (names: %s)", quote_value(text, name_len).s, names);
    }
    memcpy(name, text, name_len);
    name[name_len] = '\0';
    const scenario_field *f = whatif_field(name);
    if (!f) {
        char names[400];
        field_names(names, sizeof names);
        if (scenario_field_find(name))
            return ppf_fail(err, "%s: a talk's beats cannot be changed live (names: %s)", name,
                            names);
        return ppf_fail(err, "no field %s (names: %s)", quote_string(name).s, names);
    }
    const char *value = text + name_len;
    while (is_blank(*value))
        value++;
    char v[WHATIF_TEXT_MAX];
    snprintf(v, sizeof v, "%s", value);
    size_t len = strlen(v);
    while (len > 0 && is_blank(v[len - 1]))
        v[--len] = '\0';
    if (len == 0) {
        char now_text[120];
        whatif_value(now, f, now_text, sizeof now_text);
        return ppf_fail(err, "%s needs a value (%s; now %s)", f->flag, f->arg, now_text);
    }
    return set_one(now, f, v, out, err);
}

bool whatif_step(const scenario *now, whatif_step_kind kind, int dir, scenario *out, ppf_error *err)
{
    memset(out, 0, sizeof *out);
    char v[32];
    switch (kind) {
    case WHATIF_STEP_STAGES:
        snprintf(v, sizeof v, "%d", now->stages + (dir > 0 ? 1 : -1));
        return set_one(now, scenario_field_find("stages"), v, out, err);
    case WHATIF_STEP_MICROBATCHES: {
        const long m = dir > 0 ? 2L * now->microbatches : now->microbatches / 2;
        snprintf(v, sizeof v, "%ld", m);
        return set_one(now, scenario_field_find("microbatches"), v, out, err);
    }
    case WHATIF_STEP_SCHEDULE:
        break;
    }
    /* The next schedule in the table's order that runs at this P and M. */
    int n;
    const schedule_info *list = schedule_list(&n);
    const schedule_info *cur = schedule_find(now->schedule);
    int at = cur ? (int)(cur - list) : dir > 0 ? -1 : n;
    for (int k = 1; k <= n; k++) {
        const schedule_info *next = &list[((at + (dir > 0 ? k : -k)) % n + n) % n];
        if (next == cur)
            break;
        scenario sc;
        if (!set_one(now, scenario_field_find("schedule"), next->name, &sc, NULL))
            continue;
        const schedule_params sp = {sc.stages, sc.microbatches, sc.virtual_stages};
        if (schedule_check(next->name, &sp, NULL)) {
            *out = sc;
            return true;
        }
        scenario_deinit(&sc);
    }
    return ppf_fail(err, "schedule: no other schedule runs at P=%d, M=%d", now->stages,
                    now->microbatches);
}

/* ---- completion and hints ------------------------------------------------------ */

/* The values a field's completion offers (NULL-ended), or NULL. */
static int value_words(const scenario_field *f, const char **out, int max)
{
    int n = 0;
    if (f->type == SCENARIO_FIELD_SCHEDULE) {
        int count;
        const schedule_info *list = schedule_list(&count);
        for (int k = 0; k < count && n < max; k++)
            out[n++] = list[k].name;
    } else if (f->type == SCENARIO_FIELD_ALLREDUCE && n < max) {
        out[n++] = "none";
    }
    return n;
}

enum { WORDS_MAX = 32 };

/* The words of words[0..n) that start with prefix[0..len), in order. */
static int matching(const char **words, int n, const char *prefix, size_t len, const char **out)
{
    int m = 0;
    for (int k = 0; k < n; k++)
        if (strncmp(words[k], prefix, len) == 0)
            out[m++] = words[k];
    return m;
}

static int name_words(const char **out)
{
    int n, m = 0;
    const scenario_field *fields = scenario_fields(&n);
    for (int k = 0; k < n && m < WORDS_MAX; k++)
        if (fields[k].type != SCENARIO_FIELD_BEATS)
            out[m++] = fields[k].flag;
    return m;
}

static void join(const char **words, int n, char *out, size_t size)
{
    out[0] = '\0';
    for (int k = 0; k < n; k++)
        append(out, size, "%s%s", k ? "  " : "", words[k]);
}

/* Where the text splits: the name, and the value after blanks (when there
 * is a blank after the name). */
typedef struct split {
    const char *name;
    size_t name_len;
    const char *value; /* NULL: still typing the name */
} split;

static split split_line(const char *text)
{
    split s = {0};
    while (is_blank(*text))
        text++;
    s.name = text;
    while (text[s.name_len] && !is_blank(text[s.name_len]))
        s.name_len++;
    if (text[s.name_len]) {
        s.value = text + s.name_len;
        while (is_blank(*s.value))
            s.value++;
    }
    return s;
}

/* The field named by s's name, when it is whole. */
static const scenario_field *split_field(const split *s)
{
    char name[64];
    if (s->name_len == 0 || s->name_len >= sizeof name)
        return NULL;
    memcpy(name, s->name, s->name_len);
    name[s->name_len] = '\0';
    return whatif_field(name);
}

int whatif_complete(whatif_line *line, char *shown, size_t shown_size)
{
    shown[0] = '\0';
    split s = split_line(line->text);
    const char *all[WORDS_MAX], *hits[WORDS_MAX];
    const char *word;
    size_t word_len;
    int n;
    bool is_name = !s.value;
    if (is_name) {
        n = name_words(all);
        word = s.name, word_len = s.name_len;
    } else {
        const scenario_field *f = split_field(&s);
        if (!f)
            return 0;
        n = value_words(f, all, WORDS_MAX);
        word = s.value, word_len = strlen(s.value);
    }
    const int m = matching(all, n, word, word_len, hits);
    if (m == 0)
        return 0;
    join(hits, m, shown, shown_size);
    /* the longest prefix they share */
    size_t common = strlen(hits[0]);
    for (int k = 1; k < m; k++) {
        size_t c = 0;
        while (c < common && hits[k][c] == hits[0][c])
            c++;
        common = c;
    }
    char next[WHATIF_TEXT_MAX];
    const size_t head = (size_t)(word - line->text);
    const bool whole = m == 1 && is_name;
    if (head + common + (whole ? 1 : 0) + 1 > sizeof next)
        return m;
    memcpy(next, line->text, head);
    memcpy(next + head, hits[0], common);
    size_t len = head + common;
    if (whole)
        next[len++] = ' ';
    next[len] = '\0';
    memcpy(line->text, next, len + 1);
    line->len = len;
    return m;
}

void whatif_hint(const scenario *now, const char *text, char *out, size_t size)
{
    split s = split_line(text);
    const char *all[WORDS_MAX], *hits[WORDS_MAX];
    const scenario_field *f = split_field(&s);
    if (!f) {
        const int n = name_words(all);
        const int m = s.value ? 0 : matching(all, n, s.name, s.name_len, hits);
        char words[WHATIF_TEXT_MAX * 2];
        join(m > 0 ? hits : all, m > 0 ? m : n, words, sizeof words);
        if (m > 0)
            snprintf(out, size, "%s", words);
        else
            snprintf(out, size, "no field %s · names: %s", quote_value(s.name, s.name_len).s,
                     words);
        return;
    }
    char now_text[120];
    whatif_value(now, f, now_text, sizeof now_text);
    const int n = value_words(f, all, WORDS_MAX);
    if (n > 0) {
        const char *value = s.value ? s.value : "";
        int m = matching(all, n, value, strlen(value), hits);
        char words[WHATIF_TEXT_MAX * 2];
        join(m > 0 ? hits : all, m > 0 ? m : n, words, sizeof words);
        snprintf(out, size, "%s: now %s · %s", f->flag, now_text, words);
        return;
    }
    switch (f->type) {
    case SCENARIO_FIELD_INT:
        snprintf(out, size, "%s (%s): now %s · a whole number from %d to %d", f->flag, f->arg,
                 now_text, f->min, f->max);
        break;
    case SCENARIO_FIELD_COST:
        snprintf(out, size, "%s: now %s · a time >= 0, or one per rank: 1,1,1,2", f->flag,
                 now_text);
        break;
    default:
        snprintf(out, size, "%s: now %s", f->flag, now_text);
        break;
    }
}

/* ---- the HUD's diff ---------------------------------------------------------- */

void whatif_diff(const scenario *opened, const scenario *now, char *out, size_t size)
{
    int n;
    const scenario_field *fields = scenario_fields(&n);
    out[0] = '\0';
    for (int k = 0; k < n; k++) {
        const scenario_field *f = &fields[k];
        if (f->type == SCENARIO_FIELD_BEATS)
            continue;
        char was[120], is[120], item[300];
        whatif_value(opened, f, was, sizeof was);
        whatif_value(now, f, is, sizeof is);
        if (strcmp(was, is) == 0)
            continue;
        /* the sizes as the HUD's title writes them: P=8 */
        const char *letter = f->id == FIELD_STAGES         ? "P"
                             : f->id == FIELD_MICROBATCHES ? "M"
                             : f->id == FIELD_DP           ? "D"
                             : f->id == FIELD_VIRTUAL      ? "V"
                                                           : NULL;
        if (letter)
            snprintf(item, sizeof item, "%s=%s (was %s)", letter, is, was);
        else
            snprintf(item, sizeof item, "%s %s (was %s)", f->flag, is, was);
        append(out, size, "%s%s", out[0] ? ", " : "", item);
    }
}

/* ---- undo ---------------------------------------------------------------------- */

void whatif_init(whatif *w, const scenario *opened)
{
    memset(w, 0, sizeof *w);
    scenario_copy(&w->opened, opened);
}

static void undo_deinit(whatif_undo *u)
{
    scenario_deinit(&u->sc);
    session_free(u->kept);
    u->kept = NULL;
}

void whatif_deinit(whatif *w)
{
    if (!w)
        return;
    scenario_deinit(&w->opened);
    for (int k = 0; k < w->undo_count; k++)
        undo_deinit(&w->undo[k]);
    memset(w, 0, sizeof *w);
}

void whatif_push(whatif *w, const scenario *before, session *kept)
{
    if (w->undo_count == WHATIF_UNDO_MAX) {
        undo_deinit(&w->undo[0]);
        memmove(&w->undo[0], &w->undo[1], sizeof w->undo[0] * (WHATIF_UNDO_MAX - 1));
        w->undo_count--;
    }
    whatif_undo *u = &w->undo[w->undo_count++];
    scenario_copy(&u->sc, before);
    u->kept = kept;
}

bool whatif_pop(whatif *w, whatif_undo *out)
{
    if (w->undo_count == 0)
        return false;
    *out = w->undo[--w->undo_count];
    memset(&w->undo[w->undo_count], 0, sizeof w->undo[0]);
    return true;
}

void whatif_keep_within(whatif *w, budget_cost *held)
{
    /* newest first: the next undo is the one most likely asked for */
    for (int k = w->undo_count - 1; k >= 0; k--) {
        whatif_undo *u = &w->undo[k];
        if (!u->kept)
            continue;
        budget_cost with = *held;
        const budget_cost c = session_cost(u->kept);
        budget_cost_add(&with, &c);
        if (budget_cost_fits(&with)) {
            *held = with;
        } else {
            session_free(u->kept);
            u->kept = NULL;
        }
    }
}

/* ---- the line ------------------------------------------------------------------- */

void whatif_line_open(whatif_line *l)
{
    *l = (whatif_line){.open = true};
}

void whatif_line_close(whatif_line *l)
{
    *l = (whatif_line){0};
}

bool whatif_line_insert(whatif_line *l, uint32_t c)
{
    char b[4];
    size_t n;
    /* control characters (C0, DEL, C1), surrogates and what is not Unicode */
    if (c < 0x20 || (c >= 0x7f && c < 0xa0) || (c >= 0xd800 && c < 0xe000) || c > 0x10ffff)
        return false;
    if (c < 0x80) {
        b[0] = (char)c, n = 1;
    } else if (c < 0x800) {
        b[0] = (char)(0xc0 | c >> 6), b[1] = (char)(0x80 | (c & 0x3f)), n = 2;
    } else if (c < 0x10000) {
        b[0] = (char)(0xe0 | c >> 12), b[1] = (char)(0x80 | ((c >> 6) & 0x3f));
        b[2] = (char)(0x80 | (c & 0x3f)), n = 3;
    } else {
        b[0] = (char)(0xf0 | c >> 18), b[1] = (char)(0x80 | ((c >> 12) & 0x3f));
        b[2] = (char)(0x80 | ((c >> 6) & 0x3f)), b[3] = (char)(0x80 | (c & 0x3f)), n = 4;
    }
    if (l->len + n + 1 > sizeof l->text)
        return false;
    memcpy(l->text + l->len, b, n);
    l->len += n;
    l->text[l->len] = '\0';
    return true;
}

void whatif_line_backspace(whatif_line *l)
{
    while (l->len > 0) {
        const unsigned char c = (unsigned char)l->text[--l->len];
        if ((c & 0xc0) != 0x80)
            break; /* the first byte of the character */
    }
    l->text[l->len] = '\0';
}
