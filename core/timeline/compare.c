/* compare.c - sides' metrics and their differences. See compare.h. */
#include "compare.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "number_text.h"

/* A relative change this small prints as "equal": below what one decimal
 * of a percent shows. */
#define SAME_REL 0.0005

compare_metrics compare_metrics_of(const timeline *tl)
{
    assert(tl && tl->program);
    compare_metrics m = {
        .makespan = tl->makespan,
        .bubble_fraction = tl->bubble_fraction,
        .allreduce_exposed = tl->allreduce_exposed,
        .ranks = tl->program->ranks,
    };
    for (int r = 0; r < m.ranks; r++)
        if (tl->per_rank[r].peak_activations > m.peak_max)
            m.peak_max = tl->per_rank[r].peak_activations;
    return m;
}

double compare_longest_makespan(const timeline *const *tls, int n)
{
    double longest = 0;
    for (int k = 0; k < n; k++)
        if (tls[k]->makespan > longest)
            longest = tls[k]->makespan;
    return longest;
}

/* Appends to buf (size bytes, always terminated). */
static void append(char *buf, size_t size, const char *fmt, ...)
{
    const size_t used = strlen(buf);
    if (used + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, size - used, fmt, ap);
    va_end(ap);
}

static bool same_peaks(const timeline *a, const timeline *b)
{
    if (a->program->ranks != b->program->ranks)
        return false;
    for (int r = 0; r < a->program->ranks; r++)
        if (a->per_rank[r].peak_activations != b->per_rank[r].peak_activations)
            return false;
    return true;
}

static void percent(double fraction, char out[16])
{
    snprintf(out, 16, "%.1f%%", fraction * 100);
}

/* Side b against the reference a, after "name: ". */
static void write_diff(const timeline *ta, const timeline *tb, const compare_metrics *a,
                       const compare_metrics *b, char *buf, size_t size)
{
    buf[0] = '\0';
    if (a->makespan > 0) {
        const double rel = b->makespan / a->makespan - 1;
        if (fabs(rel) < SAME_REL)
            append(buf, size, "makespan equal");
        else /* U+2212, the minus sign, as a table in print writes it */
            append(buf, size, "makespan %s%.1f%%", rel < 0 ? "\xe2\x88\x92" : "+", fabs(rel) * 100);
    } else {
        append(buf, size, "makespan %s -> %s", number_text_of(a->makespan).s,
               number_text_of(b->makespan).s);
    }

    char pa[16], pb[16];
    percent(a->bubble_fraction, pa);
    percent(b->bubble_fraction, pb);
    if (strcmp(pa, pb) == 0)
        append(buf, size, ", bubble equal");
    else
        append(buf, size, ", bubble %s -> %s", pa, pb);

    if (same_peaks(ta, tb))
        append(buf, size, ", peak activations equal");
    else if (a->peak_max == b->peak_max)
        append(buf, size, ", peak activations %d -> %d, per rank differs", a->peak_max,
               b->peak_max);
    else
        append(buf, size, ", peak activations %d -> %d", a->peak_max, b->peak_max);

    const number_text ea = number_text_of(a->allreduce_exposed),
                      eb = number_text_of(b->allreduce_exposed);
    if (strcmp(ea.s, eb.s) == 0)
        append(buf, size, ", exposed all-reduce equal");
    else
        append(buf, size, ", exposed all-reduce %s -> %s", ea.s, eb.s);
}

void compare_sides(const char *const *names, const timeline *const *tls, int n, compare_result *out)
{
    assert(n >= 1 && n <= COMPARE_MAX_SIDES);
    memset(out, 0, sizeof *out);
    out->count = n;
    for (int k = 0; k < n; k++) {
        out->side[k] = compare_metrics_of(tls[k]);
        snprintf(out->name[k], sizeof out->name[k], "%s", names[k]);
    }
    const compare_metrics *ref = &out->side[0];
    char bubble[16];
    percent(ref->bubble_fraction, bubble);
    char line[COMPARE_LINE_MAX]; /* the parts are fields of *out too */
    snprintf(line, sizeof line,
             "%s: makespan %s, bubble %s, peak activations %d, exposed all-reduce %s", out->name[0],
             number_text_of(ref->makespan).s, bubble, ref->peak_max,
             number_text_of(ref->allreduce_exposed).s);
    memcpy(out->line[0], line, sizeof line);
    for (int k = 1; k < n; k++) {
        write_diff(tls[0], tls[k], ref, &out->side[k], out->diff[k], sizeof out->diff[k]);
        snprintf(line, sizeof line, "%s: %s", out->name[k], out->diff[k]);
        memcpy(out->line[k], line, sizeof line);
    }
}
