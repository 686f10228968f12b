/* inspect.c - questions about one action, idle block, all-reduce,
 * micro-batch or area, and the critical path. See inspect.h. */
#include "inspect.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIDDOT " \xc2\xb7 " /* " · " in UTF-8 */

static size_t cell(const inspect *in, int stage, int mb)
{
    return (size_t)stage * (size_t)in->microbatches + (size_t)mb;
}

void inspect_init(inspect *in, const timeline *tl)
{
    assert(in && tl && tl->program);
    const program *p = tl->program;
    const size_t n = (size_t)p->stages * (size_t)p->microbatches;
    *in = (inspect){.tl = tl, .stages = p->stages, .microbatches = p->microbatches};
    in->f_at = ppf_malloc_large((n ? n : 1) * sizeof(int));
    in->bi_at = ppf_malloc_large((n ? n : 1) * sizeof(int));
    in->w_at = ppf_malloc_large((n ? n : 1) * sizeof(int));
    for (size_t k = 0; k < n; k++)
        in->f_at[k] = in->bi_at[k] = in->w_at[k] = -1;
    for (int r = 0; r < p->ranks; r++) {
        const program_rank *pr = &p->rank[r];
        for (int k = 0; k < pr->count; k++) {
            const action *a = &pr->actions[k];
            switch ((action_kind)a->kind) {
            case ACTION_F:
                in->f_at[cell(in, a->stage, a->microbatch)] = k;
                break;
            case ACTION_B:
                in->bi_at[cell(in, a->stage, a->microbatch)] = k;
                in->w_at[cell(in, a->stage, a->microbatch)] = k;
                break;
            case ACTION_I:
                in->bi_at[cell(in, a->stage, a->microbatch)] = k;
                break;
            case ACTION_W:
                in->w_at[cell(in, a->stage, a->microbatch)] = k;
                break;
            case ACTION_OVERLAP_F_B:
                in->f_at[cell(in, a->stage, a->microbatch)] = k;
                in->bi_at[cell(in, a->stage2, a->microbatch2)] = k;
                in->w_at[cell(in, a->stage2, a->microbatch2)] = k;
                break;
            default:
                break;
            }
        }
    }
}

void inspect_deinit(inspect *in)
{
    if (!in)
        return;
    free(in->f_at);
    free(in->bi_at);
    free(in->w_at);
    *in = (inspect){0};
}

static const action_time *time_of(const inspect *in, int rank, int index)
{
    return &in->tl->time[rank][index];
}

/* The link from half `half` of (stage, mb), held by action `from_index` of
 * the stage's rank, to the action `to_index` of `to_rank`; the caller fills
 * in which end the link names (rank, index). */
static inspect_link link_between(const inspect *in, action_kind half, int stage, int mb,
                                 int from_index, int to_rank, int to_index)
{
    const timeline *tl = in->tl;
    const int from = tl->program->stage_rank[stage];
    const double sent = time_of(in, from, from_index)->end;
    const double arrived = timeline_arrival(tl->p2p, from, to_rank, sent);
    const double start = time_of(in, to_rank, to_index)->start;
    return (inspect_link){.half = half,
                          .stage = stage,
                          .microbatch = mb,
                          .p2p = from != to_rank,
                          .sent = sent,
                          .arrived = arrived,
                          .consumer_start = start,
                          .p2p_time = arrived - sent,
                          .delay = start - sent};
}

/* The kind of the half that produced B-or-I(s,m): B or I. */
static action_kind backward_kind(const inspect *in, int stage, int mb)
{
    const int r = in->tl->program->stage_rank[stage];
    const action *a = &in->tl->program->rank[r].actions[in->bi_at[cell(in, stage, mb)]];
    return a->kind == ACTION_I ? ACTION_I : ACTION_B;
}

static void add_input(const inspect *in, inspect_action *out, const int *table, action_kind half,
                      int stage, int mb)
{
    assert(out->in_count < INSPECT_LINKS_MAX);
    const int k = table[cell(in, stage, mb)];
    assert(k >= 0 && "a validated program has every input");
    inspect_link l = link_between(in, half, stage, mb, k, out->rank, out->index);
    l.rank = in->tl->program->stage_rank[stage];
    l.index = k;
    out->in[out->in_count++] = l;
}

/* The inputs of one half on `stage`, in the simulator's order. */
static void half_inputs(const inspect *in, inspect_action *out, action_kind kind, int stage, int mb)
{
    const program *p = in->tl->program;
    const int other = timeline_input_stage(p, kind, stage);
    switch (kind) {
    case ACTION_F:
        if (other >= 0)
            add_input(in, out, in->f_at, ACTION_F, other, mb);
        break;
    case ACTION_B:
    case ACTION_I:
        if (other >= 0)
            add_input(in, out, in->bi_at, backward_kind(in, other, mb), other, mb);
        add_input(in, out, in->f_at, ACTION_F, stage, mb);
        break;
    case ACTION_W:
        add_input(in, out, in->bi_at, ACTION_I, stage, mb);
        break;
    default:
        break;
    }
}

static void add_output(const inspect *in, inspect_action *out, action_kind half, int stage, int mb,
                       const int *table, int to_stage)
{
    assert(out->out_count < INSPECT_LINKS_MAX);
    const int k = table[cell(in, to_stage, mb)];
    assert(k >= 0 && "a validated program has every consumer");
    const int to_rank = in->tl->program->stage_rank[to_stage];
    inspect_link l = link_between(in, half, stage, mb, out->index, to_rank, k);
    l.rank = to_rank;
    l.index = k;
    out->out[out->out_count++] = l;
}

/* The consumers of one half on `stage`. */
static void half_outputs(const inspect *in, inspect_action *out, action_kind kind, int stage,
                         int mb)
{
    const program *p = in->tl->program;
    const int next = timeline_output_stage(p, kind, stage);
    switch (kind) {
    case ACTION_F:
        if (next >= 0)
            add_output(in, out, kind, stage, mb, in->f_at, next);
        add_output(in, out, kind, stage, mb, in->bi_at, stage);
        break;
    case ACTION_B:
    case ACTION_I:
        if (next >= 0)
            add_output(in, out, kind, stage, mb, in->bi_at, next);
        if (kind == ACTION_I)
            add_output(in, out, kind, stage, mb, in->w_at, stage);
        break;
    default:
        break;
    }
}

void inspect_action_at(const inspect *in, int rank, int index, inspect_action *out)
{
    const timeline *tl = in->tl;
    assert(rank >= 0 && rank < tl->program->ranks);
    assert(index >= 0 && index < tl->program->rank[rank].count);
    const action *a = &tl->program->rank[rank].actions[index];
    assert(action_is_compute((action_kind)a->kind));
    const action_time *at = time_of(in, rank, index);
    *out = (inspect_action){.rank = rank,
                            .index = index,
                            .act = *a,
                            .start = at->start,
                            .end = at->end,
                            .duration = at->end - at->start,
                            .prev_index = timeline_prev_compute(tl, rank, index - 1),
                            .latest = -1};
    if (a->kind == ACTION_OVERLAP_F_B) {
        half_inputs(in, out, ACTION_F, a->stage, a->microbatch);
        half_inputs(in, out, ACTION_B, a->stage2, a->microbatch2);
        half_outputs(in, out, ACTION_F, a->stage, a->microbatch);
        half_outputs(in, out, ACTION_B, a->stage2, a->microbatch2);
    } else {
        half_inputs(in, out, (action_kind)a->kind, a->stage, a->microbatch);
        half_outputs(in, out, (action_kind)a->kind, a->stage, a->microbatch);
    }
    for (int k = 0; k < out->in_count; k++)
        if (out->latest < 0 || out->in[k].arrived > out->in[out->latest].arrived)
            out->latest = k;
    out->ready = out->latest >= 0 ? out->in[out->latest].arrived : 0;
    out->rank_free = out->prev_index >= 0 ? time_of(in, rank, out->prev_index)->end : 0;
    out->queued = out->start - out->ready;
    out->starved = out->start - out->rank_free;
    out->cause = out->starved > 0  ? INSPECT_CAUSE_INPUT
                 : out->queued > 0 ? INSPECT_CAUSE_RANK
                                   : INSPECT_CAUSE_NONE;
}

bool inspect_idle_at(const inspect *in, int rank, double t, inspect_idle *out)
{
    const timeline *tl = in->tl;
    assert(rank >= 0 && rank < tl->program->ranks);
    if (timeline_action_at(tl, rank, t) >= 0)
        return false;
    const int last = timeline_last_compute_ended(tl, rank, t);
    *out = (inspect_idle){.rank = rank,
                          .t0 = last >= 0 ? time_of(in, rank, last)->end : 0,
                          .wait = timeline_idle_wait(tl, rank, t)};
    out->t1 = out->wait.index >= 0 ? out->wait.start : tl->makespan;
    if (out->wait.index >= 0) {
        inspect_action next;
        inspect_action_at(in, rank, out->wait.index, &next);
        if (next.latest >= 0) {
            out->has_awaited = true;
            out->awaited = next.in[next.latest];
        }
    }
    return true;
}

void inspect_allreduce_at(const inspect *in, int index, inspect_allreduce *out)
{
    const timeline *tl = in->tl;
    assert(index >= 0 && index < tl->allreduce_count);
    const transfer *ar = &tl->allreduces[index];
    const double d = ar->end - ar->start;
    double hidden = tl->compute_end - ar->start;
    hidden = hidden < 0 ? 0 : hidden > d ? d : hidden;
    *out = (inspect_allreduce){.index = index,
                               .stage = ar->stage,
                               .rank = ar->src_rank,
                               .replicas = tl->dp,
                               .start = ar->start,
                               .end = ar->end,
                               .duration = d,
                               .hidden = hidden,
                               .exposed = d - hidden};
}

/* ---- the critical path ----------------------------------------------------- */

static void push_step(inspect_path *p, int *cap, inspect_step s)
{
    if (p->count == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        p->steps = ppf_realloc(p->steps, sizeof *p->steps * (size_t)*cap);
    }
    p->steps[p->count++] = s;
}

static inspect_step action_step(const inspect *in, int rank, int index)
{
    const action_time *at = time_of(in, rank, index);
    return (inspect_step){INSPECT_STEP_ACTION, rank, index, rank, at->start, at->end};
}

/* The stage's last B or W (what its all-reduce waits for): the latest end,
 * the last in program order on a tie. */
static int last_weight_work(const inspect *in, int stage)
{
    const program *p = in->tl->program;
    const int r = p->stage_rank[stage];
    int best = -1;
    for (int m = 0; m < in->microbatches; m++) {
        const int k = in->w_at[cell(in, stage, m)];
        if (k < 0)
            continue;
        const double e = time_of(in, r, k)->end;
        if (best < 0 || e > time_of(in, r, best)->end ||
            (e == time_of(in, r, best)->end && k > best))
            best = k;
    }
    return best;
}

void inspect_path_init(inspect_path *p, const inspect *in)
{
    const timeline *tl = in->tl;
    const program *prog = tl->program;
    *p = (inspect_path){0};
    int cap = 0, rank = -1, index = -1;
    if (tl->makespan > tl->compute_end) {
        /* An all-reduce ends last: walk back along its rank's stream. */
        int ar = -1;
        for (int k = 0; k < tl->allreduce_count; k++)
            if (tl->allreduces[k].end == tl->makespan)
                ar = k;
        assert(ar >= 0);
        for (;;) {
            const transfer *x = &tl->allreduces[ar];
            push_step(p, &cap,
                      (inspect_step){INSPECT_STEP_ALLREDUCE, x->src_rank, ar, x->src_rank, x->start,
                                     x->end});
            const int k = last_weight_work(in, x->stage);
            if (k >= 0 && time_of(in, x->src_rank, k)->end == x->start) {
                rank = x->src_rank, index = k;
                break;
            }
            int prev = -1;
            for (int j = 0; j < tl->allreduce_count; j++)
                if (j != ar && tl->allreduces[j].src_rank == x->src_rank &&
                    tl->allreduces[j].end == x->start && tl->allreduces[j].start <= x->start)
                    prev = j;
            assert(prev >= 0 && "an all-reduce starts at its work's end or its stream's");
            if (prev < 0)
                break;
            ar = prev;
        }
    } else {
        for (int r = 0; r < prog->ranks && rank < 0; r++) {
            const int k = timeline_prev_compute(tl, r, prog->rank[r].count - 1);
            if (k >= 0 && time_of(in, r, k)->end == tl->makespan)
                rank = r, index = k;
        }
    }
    while (rank >= 0) {
        inspect_action a;
        inspect_action_at(in, rank, index, &a);
        push_step(p, &cap, action_step(in, rank, index));
        if (a.start == 0)
            break;
        if (a.latest >= 0 && a.ready == a.start) {
            const inspect_link *l = &a.in[a.latest];
            if (l->p2p)
                push_step(
                    p, &cap,
                    (inspect_step){INSPECT_STEP_P2P, l->rank, l->index, rank, l->sent, l->arrived});
            rank = l->rank, index = l->index;
        } else {
            assert(a.prev_index >= 0 && a.rank_free == a.start);
            index = a.prev_index;
        }
    }
    for (int i = 0, j = p->count - 1; i < j; i++, j--) {
        inspect_step s = p->steps[i];
        p->steps[i] = p->steps[j];
        p->steps[j] = s;
    }
    for (int k = 0; k < p->count; k++) {
        p->actions += p->steps[k].kind == INSPECT_STEP_ACTION;
        p->transfers += p->steps[k].kind == INSPECT_STEP_P2P;
        p->allreduces += p->steps[k].kind == INSPECT_STEP_ALLREDUCE;
    }
}

void inspect_path_deinit(inspect_path *p)
{
    if (!p)
        return;
    free(p->steps);
    *p = (inspect_path){0};
}

/* ---- micro-batches --------------------------------------------------------- */

bool inspect_action_has_microbatch(const action *a, int m)
{
    if (!action_is_compute((action_kind)a->kind))
        return false;
    return a->microbatch == m || (a->kind == ACTION_OVERLAP_F_B && a->microbatch2 == m);
}

int inspect_microbatch_actions(const inspect *in, int m, inspect_ref *out, int cap)
{
    assert(m >= 0 && m < in->microbatches);
    int n = 0;
    for (int s = 0; s < in->stages; s++) {
        const int r = in->tl->program->stage_rank[s];
        const int at[3] = {in->f_at[cell(in, s, m)], in->bi_at[cell(in, s, m)],
                           in->w_at[cell(in, s, m)]};
        for (int j = 0; j < 3; j++) {
            if (at[j] < 0 || (j > 0 && at[j] == at[j - 1]) || (j == 2 && at[2] == at[0]))
                continue;
            if (n < cap)
                out[n] = (inspect_ref){r, at[j]};
            n++;
        }
    }
    return n;
}

/* ---- areas ----------------------------------------------------------------- */

static void clip_range(const timeline *tl, double *t0, double *t1)
{
    if (*t0 > *t1) {
        const double t = *t0;
        *t0 = *t1, *t1 = t;
    }
    *t0 = *t0 < 0 ? 0 : *t0 > tl->makespan ? tl->makespan : *t0;
    *t1 = *t1 < 0 ? 0 : *t1 > tl->makespan ? tl->makespan : *t1;
}

/* Walks the compute actions of a rank meeting [t0, t1]; adds them to *a when given. */
static double rank_busy(const inspect *in, int rank, double t0, double t1, inspect_area *a)
{
    const timeline *tl = in->tl;
    const program_rank *pr = &tl->program->rank[rank];
    double busy = 0;
    for (int k = timeline_first_end_after(tl, rank, 0, pr->count, t0); k < pr->count; k++) {
        const action_time *at = time_of(in, rank, k);
        if (at->start >= t1 && !(at->start == at->end && at->start < t1))
            break;
        const action_kind kind = (action_kind)pr->actions[k].kind;
        if (!action_is_compute(kind))
            continue;
        const double s = at->start > t0 ? at->start : t0, e = at->end < t1 ? at->end : t1;
        const bool meets = e > s || (at->start == at->end && at->start >= t0 && at->start < t1);
        if (!meets)
            continue;
        const double d = e > s ? e - s : 0;
        busy += d;
        if (a) {
            a->count[kind]++;
            a->time[kind] += d;
        }
    }
    return busy;
}

inspect_area_rank inspect_area_rank_of(const inspect *in, int rank, double t0, double t1)
{
    clip_range(in->tl, &t0, &t1);
    const double w = t1 - t0, busy = rank_busy(in, rank, t0, t1, NULL);
    return (inspect_area_rank){rank, busy, w - busy, w > 0 ? (w - busy) / w : 0};
}

void inspect_area_of(const inspect *in, double t0, double t1, int rank0, int rank1,
                     inspect_area *out)
{
    const timeline *tl = in->tl;
    clip_range(tl, &t0, &t1);
    if (rank0 > rank1) {
        const int r = rank0;
        rank0 = rank1, rank1 = r;
    }
    assert(rank0 >= 0 && rank1 < tl->program->ranks);
    *out = (inspect_area){.t0 = t0, .t1 = t1, .rank0 = rank0, .rank1 = rank1};
    const double w = t1 - t0;
    for (int r = rank0; r <= rank1; r++) {
        const double busy = rank_busy(in, r, t0, t1, out);
        out->busy += busy;
        out->idle += w - busy;
    }
    out->bubble = w > 0 ? out->idle / (w * (rank1 - rank0 + 1)) : 0;
    for (int k = 0; k < tl->allreduce_count; k++) {
        const transfer *x = &tl->allreduces[k];
        out->allreduces += x->src_rank >= rank0 && x->src_rank <= rank1 && x->start < t1 &&
                           (x->end > t0 || (x->end == x->start && x->start >= t0));
    }
}

/* ---- live activations ------------------------------------------------------ */

int inspect_live_at(const inspect *in, int rank, double t, inspect_ref *out, int cap)
{
    const timeline *tl = in->tl;
    assert(rank >= 0 && rank < tl->program->ranks);
    const program_rank *pr = &tl->program->rank[rank];
    int n = 0;
    for (int k = 0; k < pr->count; k++) {
        const action *a = &pr->actions[k];
        if (!timeline_kind_allocates(a->kind))
            continue;
        if (tl->time[rank][k].start > t)
            break; /* program order is time order on a rank */
        const size_t c = cell(in, a->stage, a->microbatch);
        const int frees = in->w_at[c] >= 0 ? in->w_at[c] : in->bi_at[c];
        if (frees >= 0 && tl->time[rank][frees].end <= t)
            continue;
        if (n < cap)
            out[n] = (inspect_ref){rank, k};
        n++;
    }
    return n;
}

/* ---- the details panel's lines -------------------------------------------- */

static void add(inspect_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(inspect_text *t, const char *fmt, ...)
{
    if (t->count >= INSPECT_TEXT_LINES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->line[t->count++], INSPECT_TEXT_LINE, fmt, ap);
    va_end(ap);
}

/* "0F3": the producing half of a link as the text form writes it. */
static void half_text(const inspect_link *l, char *buf)
{
    action a = action_make(l->half, l->stage, l->microbatch);
    action_format(&a, buf);
}

static void link_line(inspect_text *t, const char *dir, const inspect_link *l, const char *name,
                      int d)
{
    if (l->p2p)
        add(t, "%s %s on rank %d: p2p %.*f" MIDDOT "delay %.*f", dir, name, l->rank, d, l->p2p_time,
            d, l->delay);
    else
        add(t, "%s %s on rank %d: delay %.*f", dir, name, l->rank, d, l->delay);
}

void inspect_text_action(const inspect *in, int rank, int index, inspect_text *out)
{
    const int d = timeline_time_decimals(in->tl->makespan);
    inspect_action a;
    inspect_action_at(in, rank, index, &a);
    char name[ACTION_TEXT_MAX], other[ACTION_TEXT_MAX];
    *out = (inspect_text){0};
    action_format(&a.act, name);
    add(out, "%s" MIDDOT "%s", name, action_kind_words((action_kind)a.act.kind));
    if (a.act.kind == ACTION_OVERLAP_F_B)
        add(out, "rank %d" MIDDOT "stages %d, %d" MIDDOT "micro-batches %d, %d", rank,
            (int)a.act.stage, (int)a.act.stage2, (int)a.act.microbatch, (int)a.act.microbatch2);
    else
        add(out, "rank %d" MIDDOT "stage %d" MIDDOT "micro-batch %d", rank, (int)a.act.stage,
            (int)a.act.microbatch);
    add(out, "start %.*f" MIDDOT "end %.*f" MIDDOT "%.*f long", d, a.start, d, a.end, d,
        a.duration);
    if (a.cause == INSPECT_CAUSE_INPUT) {
        half_text(&a.in[a.latest], other);
        add(out, "waited %.*f for %s from rank %d", d, a.starved, other, a.in[a.latest].rank);
    } else if (a.cause == INSPECT_CAUSE_RANK) {
        action_format(&in->tl->program->rank[rank].actions[a.prev_index], other);
        add(out, "waited %.*f for rank %d (busy with %s)", d, a.queued, rank, other);
    } else {
        add(out, "no wait: started when ready");
    }
    add(out, "ready %.*f" MIDDOT "rank free %.*f", d, a.ready, d, a.rank_free);
    for (int k = 0; k < a.in_count; k++) {
        half_text(&a.in[k], other);
        link_line(out, "from", &a.in[k], other, d);
    }
    for (int k = 0; k < a.out_count; k++) {
        action_format(&in->tl->program->rank[a.out[k].rank].actions[a.out[k].index], other);
        link_line(out, "to", &a.out[k], other, d);
    }
}

void inspect_text_idle(const inspect *in, const inspect_idle *idle, inspect_text *out)
{
    const int d = timeline_time_decimals(in->tl->makespan);
    char name[ACTION_TEXT_MAX];
    *out = (inspect_text){0};
    const double len = idle->t1 - idle->t0;
    if (idle->wait.kind == TIMELINE_WAIT_DONE) {
        add(out, "rank %d idle %.*f: done", idle->rank, d, len);
    } else if (idle->has_awaited) {
        half_text(&idle->awaited, name);
        add(out, "rank %d idle %.*f: waiting for %s from rank %d", idle->rank, d, len, name,
            idle->awaited.rank);
    } else {
        action_format(&in->tl->program->rank[idle->rank].actions[idle->wait.index], name);
        add(out, "rank %d idle %.*f: before %s", idle->rank, d, len, name);
    }
    add(out, "from %.*f to %.*f", d, idle->t0, d, idle->t1);
    if (idle->wait.index >= 0) {
        action_format(&in->tl->program->rank[idle->rank].actions[idle->wait.index], name);
        add(out, "next: %s at %.*f", name, d, idle->wait.start);
    }
}

void inspect_text_allreduce(const inspect *in, int index, inspect_text *out)
{
    const int d = timeline_time_decimals(in->tl->makespan);
    inspect_allreduce a;
    inspect_allreduce_at(in, index, &a);
    *out = (inspect_text){0};
    add(out, "all-reduce of stage %d", a.stage);
    add(out, "rank %d" MIDDOT "%d replicas", a.rank, a.replicas);
    add(out, "start %.*f" MIDDOT "end %.*f" MIDDOT "%.*f long", d, a.start, d, a.end, d,
        a.duration);
    add(out, "hidden %.*f behind compute", d, a.hidden);
    add(out, "exposed %.*f", d, a.exposed);
}

void inspect_text_area(const inspect *in, const inspect_area *a, inspect_text *out)
{
    const int d = timeline_time_decimals(in->tl->makespan);
    *out = (inspect_text){0};
    if (a->rank0 == a->rank1)
        add(out, "rank %d" MIDDOT "%.*f to %.*f", a->rank0, d, a->t0, d, a->t1);
    else
        add(out, "ranks %d-%d" MIDDOT "%.*f to %.*f", a->rank0, a->rank1, d, a->t0, d, a->t1);
    add(out, "busy %.*f" MIDDOT "idle %.*f" MIDDOT "bubble %.1f%%", d, a->busy, d, a->idle,
        100 * a->bubble);
    char counts[INSPECT_TEXT_LINE] = "";
    size_t n = 0;
    for (int k = ACTION_F; k <= ACTION_OVERLAP_F_B; k++)
        if (a->count[k] && n < sizeof counts)
            n += (size_t)snprintf(counts + n, sizeof counts - n, "%s%s %d", n ? MIDDOT : "",
                                  k == ACTION_OVERLAP_F_B ? "F+B" : action_kind_name(k),
                                  a->count[k]);
    add(out, "%s", n ? counts : "no actions");
    if (a->allreduces)
        add(out, "all-reduces %d", a->allreduces);
    /* per rank while lines last, the last line saying how many are left out */
    const int ranks = a->rank1 - a->rank0 + 1;
    if (ranks < 2)
        return;
    for (int r = a->rank0; r <= a->rank1; r++) {
        if (out->count == INSPECT_TEXT_LINES - 1 && r < a->rank1) {
            add(out, "and %d more ranks", a->rank1 - r + 1);
            break;
        }
        inspect_area_rank x = inspect_area_rank_of(in, r, a->t0, a->t1);
        add(out, "rank %d: busy %.*f" MIDDOT "idle %.*f" MIDDOT "bubble %.0f%%", r, d, x.busy, d,
            x.idle, 100 * x.bubble);
    }
}

void inspect_text_memory(const inspect *in, int rank, double t, inspect_text *out)
{
    enum { SHOWN = 40, PER_LINE = 8 };
    const int d = timeline_time_decimals(in->tl->makespan);
    inspect_ref live[SHOWN];
    const int n = inspect_live_at(in, rank, t, live, SHOWN);
    *out = (inspect_text){0};
    add(out, "rank %d at %.*f: %d live activation%s", rank, d, t, n, n == 1 ? "" : "s");
    const int shown = n < SHOWN ? n : SHOWN;
    for (int k = 0; k < shown && out->count < INSPECT_TEXT_LINES - 1; k += PER_LINE) {
        char line[INSPECT_TEXT_LINE] = "";
        size_t len = 0;
        for (int j = k; j < k + PER_LINE && j < shown; j++) {
            char name[ACTION_TEXT_MAX];
            const action *a = &in->tl->program->rank[rank].actions[live[j].index];
            /* an overlapped pair made its F half's activation */
            action f = action_make(ACTION_F, a->stage, a->microbatch);
            action_format(&f, name);
            len += (size_t)snprintf(line + len, sizeof line - len, "%s%s", j > k ? " " : "", name);
            if (len >= sizeof line)
                break;
        }
        const bool more = k + PER_LINE >= shown && n > shown;
        add(out, "%s%s", line, more ? " …" : "");
    }
    add(out, "peak %d", in->tl->per_rank[rank].peak_activations);
}

void inspect_text_path(const inspect *in, const inspect_path *p, inspect_text *out)
{
    const int d = timeline_time_decimals(in->tl->makespan);
    *out = (inspect_text){0};
    add(out, "critical path %.*f", d, in->tl->makespan);
    add(out, "%d actions" MIDDOT "%d transfers", p->actions, p->transfers);
    if (p->allreduces)
        add(out, "%d all-reduces", p->allreduces);
    double transfer = 0;
    for (int k = 0; k < p->count; k++)
        if (p->steps[k].kind == INSPECT_STEP_P2P)
            transfer += p->steps[k].end - p->steps[k].start;
    add(out, "in transfers %.*f", d, transfer);
}
