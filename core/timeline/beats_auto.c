/* beats_auto.c - the automatic beats of a timeline (beats.h): the moments a
 * lecturer explains, found in the timeline alone.
 *
 * The automatic beats read only the simulated timeline (the program's
 * actions and their times, the all-reduces), never the schedule's name, so
 * a PyTorch CSV gets the same moments as a generated schedule. "Compute"
 * below is F, B, I, W and an overlapped F+B pair; a "forward" is an F or
 * the F half of a pair, a "backward" a B, an I or the B half of a pair
 * (W, the backward for weights, is counted apart). Each candidate, at the
 * time given:
 *
 *   start              t = 0. The caption counts the ranks whose first
 *                      compute starts at 0 (and names it when one does).
 *   first forward      the latest of the ranks' first compute starts: the
 *   reaches rank R     moment the last rank to get work starts it (in a
 *                      loop layout the rank of the last stage; in a V the
 *                      rank that holds the turn). Before it, the idle time
 *                      is the warm-up bubble.
 *   reaches the last   the start of the first forward of the last stage
 *   stage              (stage P x V - 1); a moment of its own only when
 *                      later than the one above (V > 1, or a V layout,
 *                      where rank 0 holds the last stage).
 *   first backward     the earliest start of any backward. Its title says
 *                      what comes next, from each rank's order of compute
 *                      between its first backward and its last forward,
 *                      W left out:
 *                        no rank has a forward after its first backward:
 *                          "all forwards done: backward pass begins" (when
 *                          the last forward has ended by then, as in GPipe)
 *                          or "backward pass begins";
 *                        some do, and every such rank strictly alternates
 *                          forward and backward there: "steady state: one
 *                          forward, one backward" (W "fill the gaps" when
 *                          the program has any);
 *                        an overlapped pair anywhere: "first backward" (the
 *                          overlap gets its own beat, below);
 *                        otherwise "warm-up over: forwards and backwards
 *                          interleave".
 *   overlap begins     the earliest start of an overlapped F+B pair:
 *                      "steady state: forward and backward overlapped".
 *   backward reaches   the earliest start of a backward of stage 0: the
 *   stage 0            first micro-batch's round trip is complete.
 *   cool-down          the latest end of a forward: only backward work is
 *                      left (the caption counts the backwards, and the W,
 *                      that end after it).
 *   last backward      the latest end of a backward; when W end after it,
 *                      the caption counts them, and
 *   compute done       the latest end of any compute (a W) is a beat of
 *                      its own.
 *   all-reduce begins  D > 1 and some all-reduce takes time: the earliest
 *   last all-reduce    all-reduce start, and the latest all-reduce end.
 *   end                t = makespan; the caption gives the bubble fraction
 *                      (and the all-reduce's exposed tail when there is one).
 *
 * Every caption is one sentence with this iteration's numbers (times as the
 * HUD writes them, ranks, stages, micro-batches, counts); with D > 1 the
 * start says that every replica runs the same pipeline.
 *
 * Candidates closer than beats_epsilon() are one moment, and the more
 * telling one keeps it, in this order: end, start, first backward, overlap
 * begins, first forward reaches rank R, cool-down, backward reaches stage
 * 0, reaches the last stage, all-reduce begins, last backward, compute
 * done, last all-reduce. So GPipe's first backward, which starts as its
 * last forward ends, is one beat, "all forwards done: backward pass
 * begins"; a zero-bubble schedule whose ranks all finish at once starts
 * its all-reduces as compute ends, "all-reduce begins"; and the last
 * all-reduce ending with the iteration is the end.
 */
#include "beats.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "action.h"
#include "number_text.h"

/* ---- what the timeline holds ---------------------------------------------------- */

/* One action chosen by a rule: where it is and its time. */
typedef struct pick {
    const action *a; /* NULL: nothing matched */
    int rank;
    double t; /* the start or the end, as the rule says */
} pick;

static void pick_min(pick *p, const action *a, int rank, double t)
{
    if (!p->a || t < p->t)
        *p = (pick){a, rank, t};
}

static void pick_max(pick *p, const action *a, int rank, double t)
{
    if (!p->a || t > p->t)
        *p = (pick){a, rank, t};
}

static bool is_forward(const action *a)
{
    return a->kind == ACTION_F || a->kind == ACTION_OVERLAP_F_B;
}

static bool is_backward(const action *a)
{
    return a->kind == ACTION_B || a->kind == ACTION_I || a->kind == ACTION_OVERLAP_F_B;
}

/* The stage of the half that matters: the B half of a pair for a backward. */
static int stage_of(const action *a, bool backward)
{
    return backward && a->kind == ACTION_OVERLAP_F_B ? (int)a->stage2 : a->stage;
}

static int microbatch_of(const action *a, bool backward)
{
    return backward && a->kind == ACTION_OVERLAP_F_B ? a->microbatch2 : a->microbatch;
}

typedef enum steady_kind {
    STEADY_PHASES,      /* no rank runs a forward after its first backward */
    STEADY_ALTERNATING, /* those that do alternate one forward, one backward */
    STEADY_OVERLAPPED,  /* overlapped F+B pairs */
    STEADY_MIXED,       /* anything else */
} steady_kind;

/* Everything the automatic beats are made of, in one pass (and one more
 * per rank for the order of its compute). */
typedef struct facts {
    pick full;          /* latest first compute start of a rank */
    int ranks_at_zero;  /* ranks whose first compute starts at 0 */
    pick first_compute; /* the first compute of the lowest such rank */
    pick last_stage_f;  /* earliest start of a forward of the last stage */
    pick first_bwd;     /* earliest start of a backward */
    pick first_fb;      /* earliest start of an overlapped pair */
    pick bwd_stage0;    /* earliest start of a backward of stage 0 */
    pick last_fwd;      /* latest end of a forward */
    pick last_bwd;      /* latest end of a backward */
    pick last_w;        /* latest end of a W */
    int b_after_cool, i_after_cool, w_after_cool; /* B, I and W ending after last_fwd */
    int w_after_bwd;                              /* W ending after last_bwd */
    bool has_w;
    steady_kind steady;
    int ar_first_stage, ar_last_stage; /* -1: no all-reduce takes time */
    double ar_first, ar_last;
} facts;

/* How rank r's compute runs between its first backward and its last
 * forward, W left out: 0 no forward after its first backward, 1 strictly
 * alternating, 2 not. */
static int rank_order(const program_rank *pr)
{
    int first_bwd = -1, last_fwd = -1;
    for (int k = 0; k < pr->count; k++) {
        const action *a = &pr->actions[k];
        if (first_bwd < 0 && is_backward(a))
            first_bwd = k;
        if (is_forward(a))
            last_fwd = k;
    }
    if (first_bwd < 0 || last_fwd < first_bwd)
        return 0;
    int prev = -1; /* 0 forward, 1 backward */
    for (int k = first_bwd; k <= last_fwd; k++) {
        const action *a = &pr->actions[k];
        if (!action_is_compute((action_kind)a->kind) || a->kind == ACTION_W)
            continue;
        int cls = a->kind == ACTION_F ? 0 : 1;
        if (cls == prev)
            return 2;
        prev = cls;
    }
    return 1;
}

static void gather(const timeline *tl, facts *x)
{
    const program *p = tl->program;
    const double eps = beats_epsilon(tl);
    memset(x, 0, sizeof *x);
    x->ar_first_stage = x->ar_last_stage = -1;
    bool any_alternating = false, any_mixed = false, any_fb = false;
    for (int r = 0; r < p->ranks; r++) {
        const program_rank *pr = &p->rank[r];
        bool first = true;
        for (int k = 0; k < pr->count; k++) {
            const action *a = &pr->actions[k];
            if (!action_is_compute((action_kind)a->kind))
                continue;
            const action_time at = tl->time[r][k];
            if (first) {
                first = false;
                if (!x->full.a || at.start > x->full.t)
                    x->full = (pick){a, r, at.start};
                if (at.start <= eps && x->ranks_at_zero++ == 0)
                    x->first_compute = (pick){a, r, at.start};
            }
            if (is_forward(a)) {
                pick_max(&x->last_fwd, a, r, at.end);
                if (a->stage == p->stages - 1)
                    pick_min(&x->last_stage_f, a, r, at.start);
            }
            if (is_backward(a)) {
                pick_min(&x->first_bwd, a, r, at.start);
                pick_max(&x->last_bwd, a, r, at.end);
                if (stage_of(a, true) == 0)
                    pick_min(&x->bwd_stage0, a, r, at.start);
            }
            if (a->kind == ACTION_OVERLAP_F_B) {
                any_fb = true;
                pick_min(&x->first_fb, a, r, at.start);
            }
            if (a->kind == ACTION_W) {
                x->has_w = true;
                pick_max(&x->last_w, a, r, at.end);
            }
        }
        int order = rank_order(pr);
        any_alternating |= order == 1;
        any_mixed |= order == 2;
    }
    x->steady = any_fb            ? STEADY_OVERLAPPED
                : any_mixed       ? STEADY_MIXED
                : any_alternating ? STEADY_ALTERNATING
                                  : STEADY_PHASES;
    /* What is left after the last forward and after the last backward. */
    for (int r = 0; r < p->ranks; r++) {
        const program_rank *pr = &p->rank[r];
        for (int k = 0; k < pr->count; k++) {
            const action *a = &pr->actions[k];
            const double end = tl->time[r][k].end;
            if (a->kind == ACTION_W) {
                x->w_after_cool += x->last_fwd.a && end > x->last_fwd.t + eps;
                x->w_after_bwd += x->last_bwd.a && end > x->last_bwd.t + eps;
            } else if (a->kind == ACTION_B) {
                x->b_after_cool += x->last_fwd.a && end > x->last_fwd.t + eps;
            } else if (a->kind == ACTION_I) {
                x->i_after_cool += x->last_fwd.a && end > x->last_fwd.t + eps;
            }
        }
    }
    double ar_time = 0;
    for (int k = 0; k < tl->allreduce_count; k++) {
        const transfer *t = &tl->allreduces[k];
        ar_time += t->end - t->start;
        if (x->ar_first_stage < 0 || t->start < x->ar_first) {
            x->ar_first = t->start;
            x->ar_first_stage = t->stage;
        }
        if (x->ar_last_stage < 0 || t->end > x->ar_last) {
            x->ar_last = t->end;
            x->ar_last_stage = t->stage;
        }
    }
    if (!(tl->dp > 1 && ar_time > 0))
        x->ar_first_stage = x->ar_last_stage = -1;
}

/* ---- words -------------------------------------------------------------------- */

/* What the action (the half that matters of a pair) does: "forward",
 * "backward", "backward for inputs", "backward for weights". */
static const char *kind_words(const action *a, bool backward)
{
    if (a->kind == ACTION_OVERLAP_F_B)
        return action_kind_words(backward ? ACTION_B : ACTION_F);
    return action_kind_words((action_kind)a->kind);
}

/* "micro-batch 0's backward on stage 3". */
static const char *describe(const action *a, bool backward, char *buf, size_t size)
{
    snprintf(buf, size, "micro-batch %d's %s on stage %d", microbatch_of(a, backward),
             kind_words(a, backward), stage_of(a, backward));
    return buf;
}

/* "micro-batch 7, stage 3": which one, in brackets after a kind. */
static const char *which(const action *a, bool backward, char *buf, size_t size)
{
    snprintf(buf, size, "micro-batch %d, stage %d", microbatch_of(a, backward),
             stage_of(a, backward));
    return buf;
}

/* A few words as a value, for a message that writes them with others. */
typedef struct words {
    char s[32];
} words;

/* "both ranks", "all 4 ranks". */
static words all_ranks(int n)
{
    words t;
    if (n == 2)
        snprintf(t.s, sizeof t.s, "both ranks");
    else
        snprintf(t.s, sizeof t.s, "all %d ranks", n);
    return t;
}

/* "1 backward" / "3 backwards". */
static const char *plural(int n)
{
    return n == 1 ? "" : "s";
}

/* ---- candidates --------------------------------------------------------------- */

enum { CANDIDATES_MAX = 16 };

typedef struct candidates {
    beat b[CANDIDATES_MAX];
    int priority[CANDIDATES_MAX];
    int count;
} candidates;

/* Adds a candidate with its title; the caller writes the caption. */
static beat *add(candidates *c, double t, int priority, const char *title)
{
    assert(c->count < CANDIDATES_MAX);
    beat *b = &c->b[c->count];
    memset(b, 0, sizeof *b);
    b->t = t;
    b->automatic = true;
    snprintf(b->title, sizeof b->title, "%s", title);
    c->priority[c->count++] = priority;
    return b;
}

/* The more telling moment keeps a time that two candidates share. */
enum {
    PRI_AR_LAST = 35,
    PRI_COMPUTE_DONE = 45,
    PRI_LAST_BWD = 50,
    PRI_AR_FIRST = 52, /* compute ending as the all-reduces start: they are the news */
    PRI_LAST_STAGE = 55,
    PRI_BWD_STAGE0 = 60,
    PRI_COOL = 65,
    PRI_FULL = 70,
    PRI_OVERLAP = 75,
    PRI_FIRST_BWD = 80,
    PRI_START = 95,
    PRI_END = 100,
};

static void add_start(candidates *c, const timeline *tl, const facts *x)
{
    const program *p = tl->program;
    beat *b = add(c, 0, PRI_START, "start");
    char what[128], replicas[64] = "";
    if (tl->dp > 1)
        snprintf(replicas, sizeof replicas, ", in each of the %d replicas", tl->dp);
    if (p->ranks == 1 && x->first_compute.a)
        snprintf(b->caption, sizeof b->caption, "Rank 0 starts %s%s.",
                 describe(x->first_compute.a, false, what, sizeof what), replicas);
    else if (x->ranks_at_zero == p->ranks || !x->first_compute.a)
        snprintf(b->caption, sizeof b->caption, "%s start at once%s.",
                 p->ranks == 1 ? "The rank" : all_ranks(p->ranks).s, replicas);
    else if (x->ranks_at_zero == 1)
        snprintf(b->caption, sizeof b->caption, "Rank %d starts %s; %s wait%s for work%s.",
                 x->first_compute.rank, describe(x->first_compute.a, false, what, sizeof what),
                 p->ranks == 2 ? "the other rank" : "the others", p->ranks == 2 ? "s" : "",
                 replicas);
    else
        snprintf(b->caption, sizeof b->caption,
                 "%d of the %d ranks start; the others wait for "
                 "work%s.",
                 x->ranks_at_zero, p->ranks, replicas);
}

static void add_fill(candidates *c, const timeline *tl, const facts *x)
{
    const program *p = tl->program;
    char what[128], title[BEAT_TITLE_MAX];
    if (x->full.a) {
        const pick *f = &x->full;
        const bool forward = f->a->kind == ACTION_F;
        snprintf(title, sizeof title, "%s reaches rank %d", forward ? "first forward" : "work",
                 f->rank);
        beat *b = add(c, f->t, PRI_FULL, title);
        if (forward)
            snprintf(b->caption, sizeof b->caption,
                     "Micro-batch %d reaches rank %d at t = %s: %s have started, and the wait "
                     "before is the warm-up bubble.",
                     f->a->microbatch, f->rank, number_text_of(f->t).s, all_ranks(p->ranks).s);
        else
            snprintf(b->caption, sizeof b->caption,
                     "Rank %d, the last to get work, starts %s at t = %s.", f->rank,
                     describe(f->a, false, what, sizeof what), number_text_of(f->t).s);
    }
    if (x->last_stage_f.a) {
        const pick *f = &x->last_stage_f;
        snprintf(title, sizeof title, "micro-batch %d reaches the last stage", f->a->microbatch);
        beat *b = add(c, f->t, PRI_LAST_STAGE, title);
        snprintf(b->caption, sizeof b->caption,
                 "Micro-batch %d enters stage %d, the last, on rank %d at t = %s: once its loss "
                 "is known, backwards can start.",
                 f->a->microbatch, f->a->stage, f->rank, number_text_of(f->t).s);
    }
}

static void add_steady(candidates *c, const timeline *tl, const facts *x)
{
    char what[128];
    if (x->first_bwd.a) {
        const pick *f = &x->first_bwd;
        const char *title = "warm-up over: forwards and backwards interleave";
        const char *then = "warm-up is over; ranks now mix forwards and backwards";
        switch (x->steady) {
        case STEADY_PHASES:
            title = x->last_fwd.a && x->last_fwd.t <= f->t + beats_epsilon(tl)
                        ? "all forwards done: backward pass begins"
                        : "backward pass begins";
            then = "every rank runs all its forwards first, so there is no steady state";
            break;
        case STEADY_ALTERNATING:
            title = "steady state: one forward, one backward";
            then = x->has_w ? "ranks now alternate forward and backward, with W in the gaps"
                            : "from here each rank alternates one forward, one backward";
            break;
        case STEADY_OVERLAPPED:
            title = "first backward";
            then = "warm-up is over";
            break;
        case STEADY_MIXED:
            break;
        }
        beat *b = add(c, f->t, PRI_FIRST_BWD, title);
        snprintf(b->caption, sizeof b->caption, "Rank %d starts %s at t = %s: %s.", f->rank,
                 describe(f->a, true, what, sizeof what), number_text_of(f->t).s, then);
    }
    if (x->first_fb.a) {
        const pick *f = &x->first_fb;
        beat *b = add(c, f->t, PRI_OVERLAP, "steady state: forward and backward overlapped");
        snprintf(b->caption, sizeof b->caption,
                 "From t = %s ranks run a forward and a backward of two micro-batches as one "
                 "block (rank %d first).",
                 number_text_of(f->t).s, f->rank);
    }
    if (x->bwd_stage0.a) {
        const pick *f = &x->bwd_stage0;
        beat *b = add(c, f->t, PRI_BWD_STAGE0, "backward reaches stage 0");
        snprintf(b->caption, sizeof b->caption,
                 "Micro-batch %d's gradients reach stage 0 (rank %d) at t = %s: its trip through "
                 "all %d stages and back is done.",
                 microbatch_of(f->a, true), f->rank, number_text_of(f->t).s, tl->program->stages);
    }
}

/* ", all-reduces still run" when one ends after t. */
static const char *allreduce_after(const facts *x, double t, double eps)
{
    return x->ar_last_stage >= 0 && x->ar_last > t + eps ? ", all-reduces still run" : "";
}

/* "8 backwards", "6 backwards for inputs (I) and 14 for weights (W)": the
 * work left after the last forward. */
static void left_after(const facts *x, char *buf, size_t size)
{
    int counts[3] = {x->b_after_cool, x->i_after_cool, x->w_after_cool};
    const char *what[3] = {"", " for inputs (I)", " for weights (W)"};
    int parts = (counts[0] > 0) + (counts[1] > 0) + (counts[2] > 0), done = 0;
    size_t o = 0;
    buf[0] = '\0';
    for (int k = 0; k < 3 && o < size; k++) {
        if (counts[k] == 0)
            continue;
        const char *sep = done == 0 ? "" : done + 1 == parts ? " and " : ", ";
        /* "backwards" once: "6 backwards for inputs (I) and 14 for weights (W)". */
        const bool noun = done == 0;
        o += (size_t)snprintf(buf + o, size - o, "%s%d%s%s%s", sep, counts[k],
                              noun ? " backward" : "", noun ? plural(counts[k]) : "", what[k]);
        done++;
    }
    if (parts == 0)
        snprintf(buf, size, "no backwards");
}

static void add_drain(candidates *c, const timeline *tl, const facts *x)
{
    const double eps = beats_epsilon(tl);
    char what[64];
    if (x->last_fwd.a) {
        const pick *f = &x->last_fwd;
        beat *b = add(c, f->t, PRI_COOL, "cool-down: only backwards left");
        char left[160];
        left_after(x, left, sizeof left);
        const int n = x->b_after_cool + x->i_after_cool + x->w_after_cool;
        snprintf(b->caption, sizeof b->caption,
                 "The last forward (%s) ends at t = %s: only %s %s left.",
                 which(f->a, false, what, sizeof what), number_text_of(f->t).s, left,
                 n == 1 ? "is" : "are");
    }
    if (x->last_bwd.a) {
        const pick *f = &x->last_bwd;
        beat *b;
        if (x->w_after_bwd > 0) {
            b = add(c, f->t, PRI_LAST_BWD, "last backward: weight gradients remain");
            snprintf(b->caption, sizeof b->caption,
                     "The last %s (%s) ends at t = %s; %d backward%s for weights (W) remain%s.",
                     kind_words(f->a, true), which(f->a, true, what, sizeof what),
                     number_text_of(f->t).s, x->w_after_bwd, plural(x->w_after_bwd),
                     x->w_after_bwd == 1 ? "s" : "");
        } else {
            b = add(c, f->t, PRI_LAST_BWD, "last backward: compute done");
            snprintf(b->caption, sizeof b->caption,
                     "The last %s (%s) ends at t = %s: compute is "
                     "done%s.",
                     kind_words(f->a, true), which(f->a, true, what, sizeof what),
                     number_text_of(f->t).s, allreduce_after(x, f->t, eps));
        }
    }
    if (x->w_after_bwd > 0 && x->last_w.a) {
        const pick *f = &x->last_w;
        beat *b = add(c, f->t, PRI_COMPUTE_DONE, "compute done");
        snprintf(b->caption, sizeof b->caption,
                 "The last backward for weights (%s) ends at t = %s: compute is done%s.",
                 which(f->a, false, what, sizeof what), number_text_of(f->t).s,
                 allreduce_after(x, f->t, eps));
    }
}

static void add_allreduce(candidates *c, const timeline *tl, const facts *x)
{
    if (x->ar_first_stage < 0)
        return;
    const double eps = beats_epsilon(tl);
    beat *b = add(c, x->ar_first, PRI_AR_FIRST, "all-reduce begins");
    snprintf(b->caption, sizeof b->caption,
             "Stage %d's gradients are final: its %d replicas start averaging them at t = %s%s.",
             x->ar_first_stage, tl->dp, number_text_of(x->ar_first).s,
             x->ar_first < tl->compute_end - eps ? ", while other stages compute"
                                                 : "; all compute is done");
    b = add(c, x->ar_last, PRI_AR_LAST, "last all-reduce ends");
    snprintf(b->caption, sizeof b->caption,
             "Stage %d's all-reduce ends at t = %s: every replica holds the same averaged "
             "gradients.",
             x->ar_last_stage, number_text_of(x->ar_last).s);
}

static void add_end(candidates *c, const timeline *tl)
{
    beat *b = add(c, tl->makespan, PRI_END, "end of the iteration");
    char tail[96] = "";
    if (tl->allreduce_exposed > beats_epsilon(tl))
        snprintf(tail, sizeof tail, "; the all-reduce adds %s after the last compute",
                 number_text_of(tl->allreduce_exposed).s);
    snprintf(b->caption, sizeof b->caption,
             "The iteration takes %s time units, idle %.1f%% of it (the bubble)%s.",
             number_text_of(tl->makespan).s, 100.0 * tl->bubble_fraction, tail);
}

/* Sorts candidates by time, and among equal times by priority (highest
 * first), so that merging keeps the first of each moment. */
static void sort_candidates(candidates *c)
{
    for (int i = 1; i < c->count; i++)
        for (int j = i; j > 0; j--) {
            beat *a = &c->b[j - 1], *b = &c->b[j];
            int pa = c->priority[j - 1], pb = c->priority[j];
            if (a->t < b->t || (a->t == b->t && pa >= pb))
                break;
            beat tb = *a;
            *a = *b;
            *b = tb;
            c->priority[j - 1] = pb;
            c->priority[j] = pa;
        }
}

void beats_auto(beat_list *out, const timeline *tl)
{
    assert(out && tl && tl->program);
    memset(out, 0, sizeof *out);
    facts x;
    gather(tl, &x);
    candidates *c = ppf_malloc(sizeof *c);
    c->count = 0;
    add_start(c, tl, &x);
    add_fill(c, tl, &x);
    add_steady(c, tl, &x);
    add_drain(c, tl, &x);
    add_allreduce(c, tl, &x);
    add_end(c, tl);
    sort_candidates(c);
    /* One beat per moment: a candidate within the epsilon of the last beat
     * kept is the same moment, and the higher priority keeps it (with its
     * own time, so kept beats stay more than the epsilon apart). */
    const double eps = beats_epsilon(tl);
    out->beats = ppf_malloc((size_t)c->count * sizeof *out->beats);
    int kept_priority = 0;
    for (int i = 0; i < c->count; i++) {
        beat *last = out->count ? &out->beats[out->count - 1] : NULL;
        if (last && c->b[i].t - last->t <= eps) {
            if (c->priority[i] > kept_priority) {
                *last = c->b[i];
                kept_priority = c->priority[i];
            }
            continue;
        }
        out->beats[out->count++] = c->b[i];
        kept_priority = c->priority[i];
    }
    free(c);
}
