/* beats.c - beat lists: the scenario's beats resolved against a timeline and
 * merged with the automatic ones (beats_auto.c), and navigation. See beats.h.
 *
 * beats_build finds every "after" name in one pass over the actions, each
 * looked up among the sorted names, so a thousand names cost about what one
 * does. A name finds the action that runs it: "3B0" is also the B half of
 * an overlapped pair, and an overlapped pair's own name must match both
 * halves. A scenario beat replaces every automatic beat at its moment (its
 * caption too, even an empty one); two scenario beats at one moment are
 * refused, naming both, since keeping one would drop a lecturer's words.
 */
#include "beats.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "action.h"
#include "number_text.h"
#include "quote.h"

/* ---- lists ------------------------------------------------------------------ */

void beat_specs_deinit(beat_specs *s)
{
    if (!s)
        return;
    free(s->items);
    memset(s, 0, sizeof *s);
}

void beat_specs_copy(beat_specs *dst, const beat_specs *src)
{
    *dst = *src;
    if (src->count > 0) {
        dst->items = ppf_malloc((size_t)src->count * sizeof *dst->items);
        memcpy(dst->items, src->items, (size_t)src->count * sizeof *dst->items);
    } else {
        dst->items = NULL;
    }
}

void beat_list_deinit(beat_list *bl)
{
    if (!bl)
        return;
    free(bl->beats);
    memset(bl, 0, sizeof *bl);
}

double beats_epsilon(const timeline *tl)
{
    return BEATS_EPSILON * (tl && tl->makespan > 0 ? tl->makespan : 0);
}

/* ---- the scenario's beats --------------------------------------------------------- */

/* One "after" name to find: its key and the spec it came from. */
typedef struct query {
    uint8_t kind; /* F, B, I or W: an overlapped pair's name is looked up by its F half */
    int stage, microbatch;
    int spec;
    action whole; /* the name as parsed */
} query;

static int query_cmp(const void *pa, const void *pb)
{
    const query *a = pa, *b = pb;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    if (a->stage != b->stage)
        return a->stage < b->stage ? -1 : 1;
    if (a->microbatch != b->microbatch)
        return a->microbatch < b->microbatch ? -1 : 1;
    return 0;
}

/* Marks every query for (kind, stage, microbatch) as found at time t. */
static void match(query *q, int n, uint8_t kind, int stage, int mb, const action *a, double t,
                  double *times, bool *found)
{
    query key = {.kind = kind, .stage = stage, .microbatch = mb};
    query *hit = bsearch(&key, q, (size_t)n, sizeof *q, query_cmp);
    if (!hit)
        return;
    while (hit > q && query_cmp(hit - 1, &key) == 0)
        hit--;
    for (; hit < q + n && query_cmp(hit, &key) == 0; hit++) {
        /* An overlapped pair's name must name this very pair. */
        if (hit->whole.kind == ACTION_OVERLAP_F_B && !action_equal(&hit->whole, a))
            continue;
        times[hit->spec] = t;
        found[hit->spec] = true;
    }
}

/* Whether the program runs (stage, micro-batch)'s backward whole (a B, or
 * the B half of a pair), split (I and W), or not at all: what a message
 * about a wrong "after" name says instead. Scans every action: only an
 * error takes this path. */
static action_kind backward_kind(const program *p, int stage, int mb)
{
    for (int r = 0; r < p->ranks; r++)
        for (int k = 0; k < p->rank[r].count; k++) {
            const action *a = &p->rank[r].actions[k];
            if ((a->kind == ACTION_B || a->kind == ACTION_I) && a->stage == stage &&
                a->microbatch == mb)
                return (action_kind)a->kind;
            if (a->kind == ACTION_OVERLAP_F_B && a->stage2 == stage && a->microbatch2 == mb)
                return ACTION_B;
        }
    return ACTION_IDLE;
}

static bool fail_after(const beat_specs *s, int k, const program *p, ppf_error *err)
{
    const char *v = s->items[k].after;
    action a;
    if (action_parse(v, strlen(v), &a, NULL) &&
        (a.kind == ACTION_B || a.kind == ACTION_I || a.kind == ACTION_W)) {
        /* In range, but this program splits (or does not split) that backward. */
        const action_kind runs = backward_kind(p, a.stage, a.microbatch);
        if (a.kind == ACTION_B && runs == ACTION_I)
            return ppf_fail(err,
                            "beats[%d].after = %s: no such action (this program splits that "
                            "backward into %dI%d and %dW%d)",
                            k, quote_string(v).s, a.stage, a.microbatch, a.stage, a.microbatch);
        if (a.kind != ACTION_B && runs == ACTION_B)
            return ppf_fail(err,
                            "beats[%d].after = %s: no such action (this program runs that "
                            "backward whole: %dB%d)",
                            k, quote_string(v).s, a.stage, a.microbatch);
    }
    return ppf_fail(err, "beats[%d].after = %s: no such action (stages 0..%d, micro-batches 0..%d)",
                    k, quote_string(v).s, p->stages - 1, p->microbatches - 1);
}

/* The time of every spec: its t, or the end of its "after" action. */
static bool resolve(const timeline *tl, const beat_specs *s, double *times, ppf_error *err)
{
    const program *p = tl->program;
    query *q = ppf_malloc((size_t)(s->count > 0 ? s->count : 1) * sizeof *q);
    bool *found = ppf_calloc((size_t)(s->count > 0 ? s->count : 1), sizeof *found);
    int n = 0;
    bool ok = false;
    for (int k = 0; k < s->count; k++) {
        const beat_spec *b = &s->items[k];
        if (!b->after[0]) {
            times[k] = b->t;
            found[k] = true;
            continue;
        }
        action a;
        if (!action_parse(b->after, strlen(b->after), &a, NULL) ||
            !action_is_compute((action_kind)a.kind)) {
            ppf_fail(err,
                     "beats[%d].after = %s: must name a compute action in PyTorch's notation "
                     "(\"3B0\": stage 3's backward of micro-batch 0; F, B, I, W)",
                     k, quote_string(b->after).s);
            goto done;
        }
        q[n++] = (query){.kind = a.kind == ACTION_OVERLAP_F_B ? (uint8_t)ACTION_F : a.kind,
                         .stage = a.stage,
                         .microbatch = a.microbatch,
                         .spec = k,
                         .whole = a};
    }
    if (n > 0) {
        qsort(q, (size_t)n, sizeof *q, query_cmp);
        for (int r = 0; r < p->ranks; r++) {
            const program_rank *pr = &p->rank[r];
            for (int k = 0; k < pr->count; k++) {
                const action *a = &pr->actions[k];
                if (!action_is_compute((action_kind)a->kind))
                    continue;
                const double end = tl->time[r][k].end;
                if (a->kind == ACTION_OVERLAP_F_B) {
                    match(q, n, ACTION_F, a->stage, a->microbatch, a, end, times, found);
                    match(q, n, ACTION_B, a->stage2, a->microbatch2, a, end, times, found);
                } else {
                    match(q, n, a->kind, a->stage, a->microbatch, a, end, times, found);
                }
            }
        }
    }
    const double eps = beats_epsilon(tl);
    for (int k = 0; k < s->count; k++) {
        if (!found[k]) {
            fail_after(s, k, p, err);
            goto done;
        }
        if (!(times[k] >= 0 && times[k] <= tl->makespan + eps)) {
            ppf_fail(err, "beats[%d].t = %s: must be within the iteration, 0 to %s", k,
                     number_text_of(times[k]).s, number_text_of(tl->makespan).s);
            goto done;
        }
    }
    ok = true;
done:
    free(found);
    free(q);
    return ok;
}

static int beat_cmp(const void *pa, const void *pb)
{
    const beat *a = pa, *b = pb;
    return a->t < b->t ? -1 : a->t > b->t ? 1 : 0;
}

bool beats_build(beat_list *out, const timeline *tl, const beat_specs *specs, ppf_error *err)
{
    assert(out && tl && tl->program && specs);
    memset(out, 0, sizeof *out);
    const int n = specs->count;
    double *times = ppf_malloc((size_t)(n > 0 ? n : 1) * sizeof *times);
    if (!resolve(tl, specs, times, err)) {
        free(times);
        return false;
    }
    beat_list autos = {0};
    if (!specs->no_auto)
        beats_auto(&autos, tl);
    beat *all = ppf_malloc((size_t)(n + autos.count > 0 ? n + autos.count : 1) * sizeof *all);
    for (int k = 0; k < n; k++) {
        const beat_spec *s = &specs->items[k];
        beat *b = &all[k];
        memset(b, 0, sizeof *b);
        b->t = times[k];
        memcpy(b->title, s->title, sizeof b->title);
        memcpy(b->caption, s->caption, sizeof b->caption);
        memcpy(b->notes, s->notes, sizeof b->notes);
        memcpy(b->camera, s->camera, sizeof b->camera);
    }
    /* The scenario's beats, in time order (a stable sort keeps the file's
     * order of equal times, for the message). */
    int *order = ppf_malloc((size_t)(n > 0 ? n : 1) * sizeof *order);
    for (int k = 0; k < n; k++) {
        int j = k;
        for (; j > 0 && times[order[j - 1]] > times[k]; j--)
            order[j] = order[j - 1];
        order[j] = k;
    }
    const double eps = beats_epsilon(tl);
    bool ok = true;
    for (int k = 1; k < n && ok; k++) {
        int a = order[k - 1], b = order[k];
        if (times[b] - times[a] <= eps) {
            int lo = a < b ? a : b, hi = a < b ? b : a;
            ok = ppf_fail(err,
                          "beats[%d]: t = %s is the moment of beats[%d] already; give each moment "
                          "one beat",
                          hi, number_text_of(times[hi]).s, lo);
        }
    }
    /* An automatic beat gives way to a scenario beat at its moment. */
    int count = n;
    for (int k = 0; k < autos.count && ok; k++) {
        bool taken = false;
        for (int j = 0; j < n && !taken; j++)
            taken = fabs(times[j] - autos.beats[k].t) <= eps;
        if (!taken)
            all[count++] = autos.beats[k];
    }
    if (ok && count > BEATS_MAX)
        ok = ppf_fail(err,
                      "beats: %d with the automatic ones, at most %d (or \"auto_beats\": false)",
                      count, BEATS_MAX);
    if (ok) {
        qsort(all, (size_t)count, sizeof *all, beat_cmp);
        out->beats = all;
        out->count = count;
        all = NULL;
    }
    free(all);
    free(order);
    free(times);
    beat_list_deinit(&autos);
    return ok;
}

/* ---- navigation ------------------------------------------------------------------- */

int beats_next(const beat_list *bl, const timeline *tl, double t)
{
    const double eps = beats_epsilon(tl);
    for (int k = 0; k < bl->count; k++)
        if (bl->beats[k].t > t + eps)
            return k;
    return -1;
}

int beats_prev(const beat_list *bl, const timeline *tl, double t)
{
    const double eps = beats_epsilon(tl);
    for (int k = bl->count - 1; k >= 0; k--)
        if (bl->beats[k].t < t - eps)
            return k;
    return -1;
}

int beats_at(const beat_list *bl, const timeline *tl, double t)
{
    const double eps = beats_epsilon(tl);
    int k = beats_current(bl, tl, t);
    return k >= 0 && fabs(bl->beats[k].t - t) <= eps ? k : -1;
}

int beats_current(const beat_list *bl, const timeline *tl, double t)
{
    const double eps = beats_epsilon(tl);
    for (int k = bl->count - 1; k >= 0; k--)
        if (bl->beats[k].t <= t + eps)
            return k;
    return -1;
}
