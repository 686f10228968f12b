/* timeline_query.c - questions about a simulated timeline. See timeline_query.h. */
#include "timeline_query.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MIDDOT " \xc2\xb7 " /* " · " in UTF-8 */

/* ---- searches over one rank's actions ------------------------------------ */

typedef enum search_by { START_AFTER, START_AT_OR_AFTER, END_AFTER } search_by;

/* Whether an action lies past t in the sense asked: false for a prefix of
 * the rank's actions, true for the rest, since starts and ends never
 * decrease along a rank's program. */
static bool past(const action_time *a, search_by by, double t)
{
    switch (by) {
    case START_AFTER:
        return a->start > t;
    case START_AT_OR_AFTER:
        return a->start >= t;
    default:
        return a->end > t;
    }
}

static int search(const timeline *tl, int rank, int lo, int hi, double t, search_by by)
{
    assert(tl->program && rank >= 0 && rank < tl->program->ranks);
    assert(lo >= 0 && lo <= hi && hi <= tl->program->rank[rank].count);
    const action_time *a = tl->time[rank];
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (past(&a[mid], by, t))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

int timeline_first_start_after(const timeline *tl, int rank, int lo, int hi, double t)
{
    return search(tl, rank, lo, hi, t, START_AFTER);
}

int timeline_first_start_at_or_after(const timeline *tl, int rank, int lo, int hi, double t)
{
    return search(tl, rank, lo, hi, t, START_AT_OR_AFTER);
}

int timeline_first_end_after(const timeline *tl, int rank, int lo, int hi, double t)
{
    return search(tl, rank, lo, hi, t, END_AFTER);
}

static bool is_compute(const program_rank *pr, int k)
{
    return action_is_compute((action_kind)pr->actions[k].kind);
}

int timeline_next_compute(const timeline *tl, int rank, int k)
{
    const program_rank *pr = &tl->program->rank[rank];
    assert(k >= 0 && k <= pr->count);
    while (k < pr->count && !is_compute(pr, k))
        k++;
    return k;
}

int timeline_prev_compute(const timeline *tl, int rank, int k)
{
    const program_rank *pr = &tl->program->rank[rank];
    assert(k >= -1 && k < pr->count);
    while (k >= 0 && !is_compute(pr, k))
        k--;
    return k;
}

int timeline_action_at(const timeline *tl, int rank, double t)
{
    const program_rank *pr = &tl->program->rank[rank];
    const action_time *times = tl->time[rank];
    const int lo = timeline_first_start_after(tl, rank, 0, pr->count, t);
    /* Zero-length steps may share the start of the action that runs. */
    for (int k = lo - 1; k >= 0 && times[k].start == times[lo - 1].start; k--)
        if (is_compute(pr, k) && t < times[k].end)
            return k;
    return -1;
}

int timeline_last_compute_ended(const timeline *tl, int rank, double t)
{
    const program_rank *pr = &tl->program->rank[rank];
    for (int k = timeline_first_start_after(tl, rank, 0, pr->count, t) - 1; k >= 0; k--)
        if (is_compute(pr, k) && tl->time[rank][k].end <= t)
            return k;
    return -1;
}

int timeline_allreduce_at(const timeline *tl, int rank, double t)
{
    for (int i = 0; i < tl->allreduce_count; i++) {
        const transfer *ar = &tl->allreduces[i];
        if (ar->src_rank == rank && t >= ar->start && t < ar->end)
            return i;
    }
    return -1;
}

/* ---- events -------------------------------------------------------------- */

bool timeline_next_event(const timeline *tl, double t, double *out)
{
    const program *prog = tl->program;
    double best = INFINITY;
    for (int r = 0; prog && r < prog->ranks; r++) {
        const int n = prog->rank[r].count;
        const action_time *a = tl->time[r];
        /* earlier compute actions have ended by t, so their starts are no later */
        const int k = timeline_next_compute(tl, r, timeline_first_end_after(tl, r, 0, n, t));
        if (k < n) {
            const double e = a[k].start > t ? a[k].start : a[k].end;
            best = e < best ? e : best;
        }
    }
    for (int i = 0; i < tl->allreduce_count; i++) {
        const transfer *ar = &tl->allreduces[i];
        const double e = ar->start > t ? ar->start : ar->end > t ? ar->end : INFINITY;
        best = e < best ? e : best;
    }
    if (best == INFINITY)
        return false;
    *out = best;
    return true;
}

bool timeline_prev_event(const timeline *tl, double t, double *out)
{
    const program *prog = tl->program;
    double best = -INFINITY;
    for (int r = 0; prog && r < prog->ranks; r++) {
        const int n = prog->rank[r].count;
        const action_time *a = tl->time[r];
        /* the last action that started before t; later ones start at or after it */
        const int k =
            timeline_prev_compute(tl, r, timeline_first_start_at_or_after(tl, r, 0, n, t) - 1);
        if (k >= 0) {
            const double e = a[k].end < t ? a[k].end : a[k].start;
            best = e > best ? e : best;
        }
    }
    for (int i = 0; i < tl->allreduce_count; i++) {
        const transfer *ar = &tl->allreduces[i];
        const double e = ar->end < t ? ar->end : ar->start < t ? ar->start : -INFINITY;
        best = e > best ? e : best;
    }
    if (best == -INFINITY)
        return false;
    *out = best;
    return true;
}

/* ---- per (stage, micro-batch) -------------------------------------------- */

void timeline_cells_init(timeline_cells *c, const timeline *tl)
{
    assert(c && tl && tl->program);
    const program *p = tl->program;
    const int S = p->stages, M = p->microbatches;
    *c = (timeline_cells){.stages = S, .microbatches = M};
    c->cell = ppf_malloc_large((size_t)S * (size_t)M * sizeof *c->cell);
    for (size_t k = 0; k < (size_t)S * (size_t)M; k++)
        c->cell[k] = (timeline_cell){0};
    for (int r = 0; r < p->ranks; r++) {
        const program_rank *pr = &p->rank[r];
        for (int k = 0; k < pr->count; k++) {
            const action *a = &pr->actions[k];
            const action_time at = tl->time[r][k];
            timeline_cell *x = action_is_compute((action_kind)a->kind)
                                   ? &c->cell[(size_t)a->stage * M + a->microbatch]
                                   : NULL;
            switch ((action_kind)a->kind) {
            case ACTION_F:
                x->f_start = at.start, x->f_end = at.end;
                break;
            case ACTION_B:
            case ACTION_I:
                x->b_start = at.start, x->b_end = at.end;
                if (a->kind == ACTION_B)
                    x->w_start = at.start, x->w_end = at.end;
                break;
            case ACTION_W:
                x->w_start = at.start, x->w_end = at.end;
                break;
            case ACTION_OVERLAP_F_B: {
                timeline_cell *b = &c->cell[(size_t)a->stage2 * M + a->microbatch2];
                x->f_start = at.start, x->f_end = at.end;
                b->b_start = b->w_start = at.start;
                b->b_end = b->w_end = at.end;
                break;
            }
            default:
                break;
            }
            if (timeline_kind_frees(a->kind)) {
                timeline_cell *freed = a->kind == ACTION_OVERLAP_F_B
                                           ? &c->cell[(size_t)a->stage2 * M + a->microbatch2]
                                           : x;
                freed->freed = at.end;
            }
        }
    }
    for (int s = 0; s < S; s++) {
        const int rank = p->stage_rank[s];
        for (int m = 0; m < M; m++) {
            timeline_cell *x = &c->cell[(size_t)s * M + m];
            const int in = timeline_input_stage(p, ACTION_F, s);
            x->in_ready = in < 0 ? x->f_start
                                 : timeline_arrival(tl->p2p, p->stage_rank[in], rank,
                                                    c->cell[(size_t)in * M + m].f_end);
            const int grad = timeline_input_stage(p, ACTION_B, s);
            x->grad_ready = grad < 0 ? x->b_start
                                     : timeline_arrival(tl->p2p, p->stage_rank[grad], rank,
                                                        c->cell[(size_t)grad * M + m].b_end);
        }
    }
}

void timeline_cells_deinit(timeline_cells *c)
{
    if (!c)
        return;
    free(c->cell);
    *c = (timeline_cells){0};
}

double timeline_input_ready(const timeline_cells *c, int stage, int mb)
{
    assert(stage >= 0 && stage < c->stages && mb >= 0 && mb < c->microbatches);
    return timeline_cell_at(c, stage, mb)->in_ready;
}

/* ---- live activations ---------------------------------------------------- */

void timeline_memory_init(timeline_memory *m, const timeline *tl)
{
    assert(m && tl && tl->program);
    const program *p = tl->program;
    const int P = p->ranks;
    *m = (timeline_memory){.ranks = P};

    /* One step to start at zero, then one per allocation and one per free. */
    size_t total = 0;
    for (int r = 0; r < P; r++) {
        total++;
        for (int k = 0; k < p->rank[r].count; k++) {
            const int kind = p->rank[r].actions[k].kind;
            total += timeline_kind_allocates(kind) + timeline_kind_frees(kind);
        }
    }
    m->rank = ppf_calloc((size_t)(P > 0 ? P : 1), sizeof *m->rank);
    m->steps = ppf_calloc(total > 0 ? total : 1, sizeof *m->steps);

    /* Walks each rank in program order, as the simulator counts. Program
     * order is time order on a rank, so a free at the instant of the next
     * allocation comes first. */
    timeline_memory_step *s = m->steps;
    for (int r = 0; r < P; r++) {
        timeline_memory_curve *c = &m->rank[r];
        int live = 0, n = 0;
        s[n++] = (timeline_memory_step){0, 0};
        for (int k = 0; k < p->rank[r].count; k++) {
            const int kind = p->rank[r].actions[k].kind;
            const action_time at = tl->time[r][k];
            if (timeline_kind_allocates(kind)) {
                s[n++] = (timeline_memory_step){at.start, ++live};
                c->peak = live > c->peak ? live : c->peak;
            }
            if (timeline_kind_frees(kind))
                s[n++] = (timeline_memory_step){at.end, --live};
        }
        c->steps = s;
        c->count = n;
        s += n;
        m->peak = c->peak > m->peak ? c->peak : m->peak;
    }
    assert((size_t)(s - m->steps) == total);
}

void timeline_memory_deinit(timeline_memory *m)
{
    if (!m)
        return;
    free(m->steps);
    free(m->rank);
    *m = (timeline_memory){0};
}

int timeline_memory_step_at(const timeline_memory_curve *c, double t)
{
    int lo = 0, hi = c->count;
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (c->steps[mid].time > t)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo > 0 ? lo - 1 : 0;
}

int timeline_memory_first_step_at_or_after(const timeline_memory_curve *c, int lo, double t)
{
    assert(lo >= 0 && lo <= c->count);
    int hi = c->count;
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (c->steps[mid].time >= t)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

int timeline_memory_live_at(const timeline_memory_curve *c, double t)
{
    return c->count > 0 ? c->steps[timeline_memory_step_at(c, t)].count : 0;
}

/* ---- what an idle rank waits for ----------------------------------------- */

timeline_wait timeline_idle_wait(const timeline *tl, int rank, double t)
{
    const program *p = tl->program;
    assert(p && rank >= 0 && rank < p->ranks);
    const program_rank *pr = &p->rank[rank];
    const int next =
        timeline_next_compute(tl, rank, timeline_first_start_after(tl, rank, 0, pr->count, t));
    if (next >= pr->count)
        return (timeline_wait){.kind = TIMELINE_WAIT_DONE,
                               .index = -1,
                               .action = ACTION_IDLE,
                               .stage = -1,
                               .microbatch = -1,
                               .from_rank = -1};
    const action *a = &pr->actions[next];
    action_kind kind = (action_kind)a->kind;
    if (kind == ACTION_OVERLAP_F_B)
        kind = ACTION_F;
    timeline_wait w = {.kind = TIMELINE_WAIT_TURN,
                       .index = next,
                       .action = kind,
                       .stage = a->stage,
                       .microbatch = a->microbatch,
                       .from_rank = -1,
                       .start = tl->time[rank][next].start};
    const int in = timeline_input_stage(p, kind, a->stage);
    if (in >= 0 && p->stage_rank[in] != rank) {
        w.kind = kind == ACTION_F ? TIMELINE_WAIT_ACTIVATION : TIMELINE_WAIT_GRADIENT;
        w.from_rank = p->stage_rank[in];
    }
    return w;
}

/* ---- descriptions -------------------------------------------------------- */

/* Enough decimals to tell events apart at the timeline's scale: 2 for
 * makespans of 1 and more, more for smaller time units. */
int timeline_time_decimals(double makespan)
{
    if (!(makespan > 0) || makespan >= 1)
        return 2;
    const int d = 2 + (int)ceil(-log10(makespan));
    return d > 9 ? 9 : d;
}

static size_t wanted(int n)
{
    return n < 0 ? 0 : (size_t)n;
}

size_t timeline_describe_action(const timeline *tl, int rank, int index, char *buf, size_t n)
{
    assert(tl->program && rank >= 0 && rank < tl->program->ranks);
    assert(index >= 0 && index < tl->program->rank[rank].count);
    const action *a = &tl->program->rank[rank].actions[index];
    const action_time at = tl->time[rank][index];
    const int d = timeline_time_decimals(tl->makespan);
    char text[ACTION_TEXT_MAX];
    action_format(a, text);
    switch ((action_kind)a->kind) {
    case ACTION_F:
    case ACTION_B:
    case ACTION_I:
    case ACTION_W:
        return wanted(snprintf(buf, n,
                               "rank %d" MIDDOT "%s" MIDDOT "stage %d" MIDDOT
                               "%s micro-batch %d" MIDDOT "start %.*f" MIDDOT "end %.*f",
                               rank, text, (int)a->stage, action_kind_name((action_kind)a->kind),
                               (int)a->microbatch, d, at.start, d, at.end));
    case ACTION_OVERLAP_F_B:
        return wanted(snprintf(buf, n,
                               "rank %d" MIDDOT "%s" MIDDOT "F stage %d micro-batch %d + B stage "
                               "%d micro-batch %d" MIDDOT "start %.*f" MIDDOT "end %.*f",
                               rank, text, (int)a->stage, (int)a->microbatch, (int)a->stage2,
                               (int)a->microbatch2, d, at.start, d, at.end));
    case ACTION_IDLE:
        return wanted(
            snprintf(buf, n, "rank %d" MIDDOT "idle step" MIDDOT "at %.*f", rank, d, at.start));
    default:
        return wanted(
            snprintf(buf, n, "rank %d" MIDDOT "%s" MIDDOT "at %.*f", rank, text, d, at.start));
    }
}

size_t timeline_describe_allreduce(const timeline *tl, int index, char *buf, size_t n)
{
    assert(index >= 0 && index < tl->allreduce_count);
    const transfer *ar = &tl->allreduces[index];
    const int d = timeline_time_decimals(tl->makespan);
    return wanted(snprintf(buf, n,
                           "rank %d" MIDDOT "all-reduce of stage %d over %d replicas" MIDDOT
                           "start %.*f" MIDDOT "end %.*f",
                           (int)ar->src_rank, (int)ar->stage, tl->dp, d, ar->start, d, ar->end));
}
