/* comparison.c - sides built from a command line. See comparison.h. */
#include "comparison.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "export.h"
#include "number_text.h"
#include "quote.h"

bool comparison_wanted(const comparison_desc *d)
{
    return d->list != NULL || d->path_count > 1;
}

/* A scenario file, not a schedule: "csv:sub/x.csv" is a schedule however
 * many folders its path has. */
static bool is_file_item(const char *item, size_t len)
{
    if (len >= 4 && strncmp(item, "csv:", 4) == 0)
        return false;
    return memchr(item, '/', len) != NULL ||
           (len >= 5 && strncasecmp(item + len - 5, ".json", 5) == 0);
}

/* The name a side goes by: the item, a file without its folder and ".json". */
static void side_name(const char *item, size_t len, char out[COMPARE_NAME_MAX])
{
    if (is_file_item(item, len)) {
        const char *slash = NULL;
        for (size_t k = 0; k < len; k++)
            if (item[k] == '/')
                slash = item + k;
        if (slash && slash + 1 < item + len) {
            len -= (size_t)(slash + 1 - item);
            item = slash + 1;
        }
        if (len > 5 && strncasecmp(item + len - 5, ".json", 5) == 0)
            len -= 5;
    }
    if (len >= COMPARE_NAME_MAX) {
        len = COMPARE_NAME_MAX - 1;
        /* not inside a character: back to the start of the one cut (at
         * most 3 bytes; what is not UTF-8 is escaped where it is shown) */
        for (int back = 0; back < 3 && ((unsigned char)item[len] & 0xC0) == 0x80; back++)
            len--;
    }
    memcpy(out, item, len);
    out[len] = '\0';
}

/* One side's scenario: a file with the flags, or the base scenario with
 * the flags and the schedule item last; *sc (not initialised) is left
 * zeroed on failure (session_scenario). */
static bool side_scenario(scenario *sc, const comparison_desc *d, const char *item, bool file,
                          ppf_error *err)
{
    const int n = d->flag_count + (file ? 0 : 1);
    session_flag *flags = ppf_malloc(sizeof *flags * (size_t)(n > 0 ? n : 1));
    if (d->flag_count > 0)
        memcpy(flags, d->flags, sizeof *flags * (size_t)d->flag_count);
    if (!file)
        flags[n - 1] = (session_flag){"schedule", item};
    const char *path = file ? item : d->path_count ? d->paths[0] : NULL;
    const bool ok = session_scenario(sc, path, d->confine, flags, n, err);
    free(flags);
    return ok;
}

bool comparison_build(comparison *c, const comparison_desc *d, ppf_error *err)
{
    memset(c, 0, sizeof *c);
    /* the items, as copies: the list is cut at its commas */
    char items[COMPARE_MAX_SIDES][1024];
    int n = 0;
    if (d->list) {
        if (d->path_count > 1)
            return ppf_fail(err,
                            "--compare %s: give the sides either in the list or as "
                            "scenario files, not both",
                            quote_string(d->list).s);
        const char *p = d->list;
        for (;;) {
            const size_t len = strcspn(p, ",");
            if (len == 0 || len >= sizeof items[0])
                return ppf_fail(err,
                                "--compare = %s: must be 2 to %d schedules or scenario files, "
                                "separated by commas, none empty",
                                quote_string(d->list).s, COMPARE_MAX_SIDES);
            if (n == COMPARE_MAX_SIDES)
                return ppf_fail(err, "--compare = %s: at most %d sides", quote_string(d->list).s,
                                COMPARE_MAX_SIDES);
            memcpy(items[n], p, len);
            items[n++][len] = '\0';
            if (p[len] == '\0')
                break;
            p += len + 1;
        }
        if (n < 2)
            return ppf_fail(err, "--compare = %s: at least 2 sides (A,B), at most %d",
                            quote_string(d->list).s, COMPARE_MAX_SIDES);
    } else {
        if (d->path_count < 2 || d->path_count > COMPARE_MAX_SIDES)
            return ppf_fail(err, "%d scenario files: a comparison takes 2 to %d", d->path_count,
                            COMPARE_MAX_SIDES);
        for (; n < d->path_count; n++) {
            if (strlen(d->paths[n]) >= sizeof items[0])
                return ppf_fail(err, "%s: the path is too long", quote_path(d->paths[n]).s);
            snprintf(items[n], sizeof items[n], "%s", d->paths[n]);
        }
    }

    /* Every side's scenario, and what building them all will hold: the
     * sides are shown at once, so the budget bounds their sum, checked
     * before the first is simulated (budget.h, totals). */
    scenario scs[COMPARE_MAX_SIDES];
    budget_cost costs[COMPARE_MAX_SIDES];
    int ready = 0;
    bool ok = true;
    for (int k = 0; ok && k < n; k++) {
        const bool file = !d->list || is_file_item(items[k], strlen(items[k]));
        ppf_error why = {{0}};
        ready = k + 1;
        if (!side_scenario(&scs[k], d, items[k], file, &why) ||
            !scenario_cost(&scs[k], d->with_scene, &costs[k], &why))
            ok = ppf_fail(err, "--compare: side %d (%s): %s", k + 1, quote_string(items[k]).s,
                          why.message);
    }
    char what[32], side[COMPARE_MAX_SIDES][24];
    const char *sides[COMPARE_MAX_SIDES];
    snprintf(what, sizeof what, "--compare: %d sides", n);
    for (int k = 0; k < n; k++) {
        snprintf(side[k], sizeof side[k], "side %d", k + 1);
        sides[k] = side[k];
    }
    ok = ok && budget_check_total(costs, sides, n, what, err);

    const char *names[COMPARE_MAX_SIDES];
    char name_buf[COMPARE_MAX_SIDES][COMPARE_NAME_MAX];
    for (int k = 0; ok && k < n; k++) {
        side_name(items[k], strlen(items[k]), name_buf[k]);
        names[k] = name_buf[k];
        c->sides[k] = ppf_calloc(1, sizeof *c->sides[k]);
        c->count = k + 1;
        ppf_error why = {{0}};
        if (!session_build_from(c->sides[k], &scs[k], &why) ||
            (d->with_scene && !session_build_scene(c->sides[k], &why)))
            ok = ppf_fail(err, "--compare: side %d (%s): %s", k + 1, quote_string(items[k]).s,
                          why.message);
    }
    for (int k = 0; k < ready; k++)
        scenario_deinit(&scs[k]);
    if (!ok) {
        comparison_deinit(c);
        return false;
    }
    const timeline *tls[COMPARE_MAX_SIDES];
    comparison_timelines(c, tls);
    compare_sides(names, tls, n, &c->result);
    return true;
}

void comparison_timelines(const comparison *c, const timeline *out[COMPARE_MAX_SIDES])
{
    for (int k = 0; k < c->count; k++)
        out[k] = &c->sides[k]->tl;
}

void comparison_deinit(comparison *c)
{
    if (!c)
        return;
    for (int k = 0; k < c->count; k++) {
        if (c->sides[k])
            session_deinit(c->sides[k]);
        free(c->sides[k]);
    }
    memset(c, 0, sizeof *c);
}

/* Columns of UTF-8 text: one per code point. */
static int text_columns(const char *s)
{
    int w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

void comparison_write_table(const comparison *c, FILE *f)
{
    quoted names[COMPARE_MAX_SIDES]; /* as a terminal shows them */
    int name_w = 4;
    for (int k = 0; k < c->count; k++) {
        names[k] = quote_shown(c->result.name[k]);
        const int w = text_columns(names[k].s);
        name_w = w > name_w ? w : name_w;
    }
    fprintf(f, "%-*s  %-18s %4s %5s %3s %3s %10s %8s %10s %10s\n", name_w, "side", "schedule", "P",
            "M", "D", "V", "makespan", "bubble", "peak act.", "exposed AR");
    for (int k = 0; k < c->count; k++) {
        const session *s = c->sides[k];
        const compare_metrics *m = &c->result.side[k];
        const program *p = &s->prog;
        fputs(names[k].s, f);
        fprintf(f, "%*s  %-18s %4d %5d %3d %3d %10s %7.1f%% %10d %10s\n",
                name_w - text_columns(names[k].s), "", p->schedule, p->ranks, p->microbatches,
                s->tl.dp, p->stages_per_rank, number_text_of(m->makespan).s,
                m->bubble_fraction * 100, m->peak_max, number_text_of(m->allreduce_exposed).s);
    }
    fprintf(f, "\nagainst %s:\n", names[0].s);
    for (int k = 1; k < c->count; k++) {
        fputs("  ", f);
        quote_put(f, c->result.line[k]);
        fputc('\n', f);
    }
}

void comparison_write_json(const comparison *c, FILE *f)
{
    fputs("[\n", f);
    for (int k = 0; k < c->count; k++) {
        if (k)
            fputs(",\n", f);
        export_timeline_json_beats(&c->sides[k]->tl, &c->sides[k]->beats, f);
    }
    fputs("]\n", f);
}
