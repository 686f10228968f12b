/* The schedule generators. Each one says which order it follows; where it
 * follows PyTorch's torch.distributed.pipelining, it reproduces PyTorch's
 * compute-only pipeline_order, idle cells included, so that ppflow's CSV of a
 * schedule equals PyTorch's cell for cell. */
#include "schedules.h"

#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const schedule_info schedules[] = {
    {"gpipe", "GPipe: all forwards, then all backwards (fill-drain)", 1, 1, 1, PROGRAM_LAYOUT_LOOP},
    {"1f1b", "1F1B: one forward, one backward in the steady state (needs M >= P)", 1, 1, 1,
     PROGRAM_LAYOUT_LOOP},
    {"interleaved-1f1b", "Interleaved 1F1B (Megatron-LM): V >= 2 looped stages per rank", 2, 2, 0,
     PROGRAM_LAYOUT_LOOP},
    {"looped-bfs", "Looped BFS: every micro-batch through a rank's first stage, then the next", 2,
     1, 0, PROGRAM_LAYOUT_LOOP},
    {"zb-h1", "Zero Bubble H1 (ZB1P): backward split into I and W, W fills the bubble", 1, 1, 1,
     PROGRAM_LAYOUT_LOOP},
    {"interleaved-zb", "Interleaved zero bubble (ZB1P with V >= 2 looped stages per rank)", 2, 2, 0,
     PROGRAM_LAYOUT_LOOP},
    {"zbv", "Zero Bubble V: two stages per rank in a V, split backward", 2, 2, 2, PROGRAM_LAYOUT_V},
    {"dualpipev", "DualPipeV (DeepSeek): V layout, overlapped F+B pairs (needs M >= 2P)", 2, 2, 2,
     PROGRAM_LAYOUT_V},
};

enum { SCHEDULE_COUNT = sizeof schedules / sizeof schedules[0] };

static const struct {
    const char *alias, *name;
} aliases[] = {
    {"zb1p", "zb-h1"},
    {"interleaved1f1b", "interleaved-1f1b"},
    {"loopedbfs", "looped-bfs"},
    {"zbvzerobubble", "zbv"},
    {"zb-v", "zbv"},
    {"interleavedzerobubble", "interleaved-zb"},
    {"dualpipe-v", "dualpipev"},
};

const schedule_info *schedule_list(int *n)
{
    *n = SCHEDULE_COUNT;
    return schedules;
}

/* Lower-cases and maps '_' to '-' into buf; false if it does not fit. */
static bool normalise(const char *name, char *buf, size_t cap)
{
    size_t n = strlen(name);
    if (n + 1 > cap)
        return false;
    for (size_t k = 0; k <= n; k++)
        buf[k] = name[k] == '_' ? '-' : (char)tolower((unsigned char)name[k]);
    return true;
}

const schedule_info *schedule_find(const char *name)
{
    char key[64];
    if (!name || !normalise(name, key, sizeof key))
        return NULL;
    for (size_t a = 0; a < sizeof aliases / sizeof aliases[0]; a++)
        if (strcmp(key, aliases[a].alias) == 0)
            snprintf(key, sizeof key, "%s", aliases[a].name);
    for (int s = 0; s < SCHEDULE_COUNT; s++)
        if (strcmp(key, schedules[s].name) == 0)
            return &schedules[s];
    return NULL;
}

static int effective_v(const schedule_info *si, const schedule_params *sp)
{
    return sp->stages_per_rank > 0 ? sp->stages_per_rank : si->default_v;
}

bool schedule_check(const char *name, const schedule_params *sp, ppf_error *err)
{
    const schedule_info *si = schedule_find(name);
    if (!si)
        return ppf_fail(err, "schedule = \"%s\": unknown schedule", name ? name : "");
    const int P = sp->ranks, M = sp->microbatches, V = effective_v(si, sp);
    if (P < 1)
        return ppf_fail(err, "stages = %d: a pipeline needs at least 1 rank", P);
    if (M < 1)
        return ppf_fail(err, "microbatches = %d: needs at least 1 micro-batch", M);
    if (V < si->min_v || (si->max_v && V > si->max_v)) {
        if (si->min_v == si->max_v)
            return ppf_fail(err, "virtual = %d: %s runs exactly %d stage%s per rank", V, si->name,
                            si->min_v, si->min_v == 1 ? "" : "s");
        return ppf_fail(err, "virtual = %d: %s needs at least %d stages per rank", V, si->name,
                        si->min_v);
    }
    if ((long)P * V > ACTION_MAX_STAGE + 1L)
        return ppf_fail(err, "stages = %d: %d ranks x %d stages per rank exceeds %d stages", P, P,
                        V, ACTION_MAX_STAGE + 1);
    if (strcmp(si->name, "1f1b") == 0 && M < P)
        return ppf_fail(err,
                        "microbatches = %d: 1f1b needs at least as many micro-batches as "
                        "ranks (%d)",
                        M, P);
    if (strcmp(si->name, "dualpipev") == 0 && M < 2 * P)
        return ppf_fail(err,
                        "microbatches = %d: dualpipev needs at least as many micro-batches "
                        "as stages (2P = %d)",
                        M, 2 * P);
    if (strcmp(si->name, "interleaved-1f1b") == 0 || strcmp(si->name, "interleaved-zb") == 0) {
        int rounds = M / P > 1 ? M / P : 1;
        if (M % rounds != 0)
            return ppf_fail(err,
                            "microbatches = %d: %s needs M to be a multiple of the number "
                            "of rounds max(1, M / P) = %d",
                            M, si->name, rounds);
    }
    return true;
}

/* --- PyTorch ScheduleGPipe._get_pipeline_order --------------------------- */

static void gen_gpipe(program *p)
{
    const int P = p->ranks, M = p->microbatches;
    for (int r = 0; r < P; r++) {
        for (int k = 0; k < r; k++)
            program_push(p, r, action_idle());
        for (int m = 0; m < M; m++)
            program_push(p, r, action_make(ACTION_F, r, m));
        for (int k = 0; k < 3 * (P - 1 - r); k++)
            program_push(p, r, action_idle());
        for (int m = 0; m < M; m++)
            program_push(p, r, action_make(ACTION_B, r, m));
    }
}

/* --- PyTorch Schedule1F1B: P-1-r warm-up forwards, then (F, B) pairs, then
 * the remaining backwards, with PyTorch's idle padding. PyTorch's printed
 * order starts the last rank's steady state at micro-batch 1; its runtime
 * (and this order) starts at 0. */

static void gen_1f1b(program *p)
{
    const int P = p->ranks, M = p->microbatches;
    for (int r = 0; r < P; r++) {
        const int warmup = P - 1 - r;
        int fwd = 0, bwd = 0;
        for (int k = 0; k < r; k++)
            program_push(p, r, action_idle());
        for (; fwd < warmup; fwd++)
            program_push(p, r, action_make(ACTION_F, r, fwd));
        for (int k = 0; k < 2 * warmup; k++)
            program_push(p, r, action_idle());
        while (fwd < M) {
            program_push(p, r, action_make(ACTION_F, r, fwd++));
            program_push(p, r, action_make(ACTION_B, r, bwd++));
        }
        while (bwd < M) {
            program_push(p, r, action_idle());
            program_push(p, r, action_make(ACTION_B, r, bwd++));
        }
    }
}

/* --- PyTorch ScheduleLoopedBFS._calculate_single_rank_operations --------- */

static void gen_looped_bfs(program *p)
{
    const int P = p->ranks, M = p->microbatches, V = p->stages_per_rank;
    for (int r = 0; r < P; r++) {
        for (int k = 0; k < r; k++)
            program_push(p, r, action_idle());
        for (int v = 0; v < V; v++)
            for (int m = 0; m < M; m++)
                program_push(p, r, action_make(ACTION_F, v * P + r, m));
        for (int k = 0; k < 2 * (P - 1 - r); k++)
            program_push(p, r, action_idle());
        for (int v = V - 1; v >= 0; v--)
            for (int m = M - 1; m >= 0; m--)
                program_push(p, r, action_make(ACTION_B, v * P + r, m));
    }
}

/* --- PyTorch _get_1f1b_rank_ops, shared by Interleaved1F1B and
 * InterleavedZeroBubble (and, with V = 1, our ZB-H1). Per rank: warm-up
 * forwards, then steady steps of one F and one backward (B, or I when the
 * backward is split), then the remaining backwards; with the split, W of
 * the k-th backward follows once the rank is `rank` steps into the steady
 * state, and the rest of the Ws close the rank. Stages advance in rounds of
 * microbatches_per_round micro-batches ("depth first"). */

typedef struct looped_1f1b {
    int P, V, rank, warmup, mpr; /* mpr: micro-batches per round */
} looped_1f1b;

static int fwd_stage(const looped_1f1b *l, int step)
{
    return ((step / l->mpr) % l->V) * l->P + l->rank;
}

static int bwd_stage(const looped_1f1b *l, int step)
{
    return (l->V - 1 - ((step - l->warmup) / l->mpr) % l->V) * l->P + l->rank;
}

static void gen_looped_1f1b_rank(program *p, int r, bool zero_bubble, int *next_f, int *next_b,
                                 int *next_w, int *bwd_steps)
{
    const int P = p->ranks, M = p->microbatches, V = p->stages_per_rank;
    const int rounds = M / P > 1 ? M / P : 1;
    const int mpr = M / rounds;
    const int factor = zero_bubble ? 1 : 2;
    int warmup = (V - 1) * mpr + factor * (P - 1 - r);
    if (warmup > M * V)
        warmup = M * V;
    const looped_1f1b l = {.P = P, .V = V, .rank = r, .warmup = warmup, .mpr = mpr};
    const int microbatch_ops = V * M;
    const int fwd_bwd = microbatch_ops - warmup;
    const int total = warmup + fwd_bwd + warmup;
    int post_warmup = zero_bubble ? P - r - 1 : (V * P + 2 * (P - 1 - r)) - (warmup + r);
    const action_kind backward = zero_bubble ? ACTION_I : ACTION_B;
    const int one_f_one_b_without_w = r; /* PyTorch's num_1f1b_microbatches */
    int nbwd = 0, nw = 0;

    for (int s = 0; s < p->stages; s++)
        next_f[s] = next_b[s] = next_w[s] = 0;
    for (int k = 0; k < r; k++)
        program_push(p, r, action_idle());
    for (int op = 0; op < total; op++) {
        if (op < warmup) {
            int s = fwd_stage(&l, op);
            program_push(p, r, action_make(ACTION_F, s, next_f[s]++));
            if (op == warmup - 1)
                for (int k = 0; k < post_warmup; k++)
                    program_push(p, r, action_idle());
            continue;
        }
        if (op < warmup + fwd_bwd) {
            int s = fwd_stage(&l, op);
            program_push(p, r, action_make(ACTION_F, s, next_f[s]++));
        } else if (!zero_bubble) {
            program_push(p, r, action_idle());
        }
        int s = bwd_stage(&l, op);
        program_push(p, r, action_make(backward, s, next_b[s]++));
        bwd_steps[nbwd++] = op;
        if (zero_bubble && op - warmup >= one_f_one_b_without_w) {
            int ws = bwd_stage(&l, bwd_steps[nw++]);
            program_push(p, r, action_make(ACTION_W, ws, next_w[ws]++));
        }
    }
    while (zero_bubble && nw < nbwd) {
        int ws = bwd_stage(&l, bwd_steps[nw++]);
        program_push(p, r, action_make(ACTION_W, ws, next_w[ws]++));
    }
}

/* PyTorch ScheduleInterleavedZeroBubble._add_bubbles_to_actions: replays the
 * ranks in lock-step and inserts an idle cell where an F's or B's producer
 * has not yet run in an earlier step. It changes only idle cells, and few of
 * them, so the replay records where they go and the ranks' arrays are then
 * widened in place rather than copied. */
typedef struct bubble_at {
    int rank, index; /* one idle cell goes before action `index` of `rank` */
} bubble_at;

static void add_bubbles(program *p)
{
    const int P = p->ranks, S = p->stages, M = p->microbatches;
    /* seen bits per (stage, micro-batch): 1 = F, 2 = B (the kinds PyTorch checks) */
    unsigned char *seen = ppf_calloc((size_t)S * (size_t)M, 1);
    size_t *step_cells = ppf_malloc(sizeof(size_t) * (size_t)P);
    unsigned char *step_bits = ppf_malloc((size_t)P);
    int *next = ppf_calloc((size_t)P, sizeof(int));
    int *added = ppf_calloc((size_t)P, sizeof(int));
    bubble_at *bubbles = NULL;
    int nbubbles = 0, cap = 0;

    for (;;) {
        bool busy = false, progress = false;
        int nstep = 0;
        for (int r = 0; r < P; r++) {
            const program_rank *in = &p->rank[r];
            if (next[r] >= in->count)
                continue;
            busy = true;
            const action *a = &in->actions[next[r]];
            if (a->kind == ACTION_IDLE) {
                next[r]++;
                progress = true;
                continue;
            }
            bool bubble = false;
            size_t cell = (size_t)a->stage * (size_t)M + (size_t)a->microbatch;
            if (a->kind == ACTION_F)
                bubble = a->stage != 0 && !(seen[cell - (size_t)M] & 1);
            else if (a->kind == ACTION_B)
                bubble = a->stage == S - 1 ? !(seen[cell] & 1) : !(seen[cell + (size_t)M] & 2);
            if (bubble) {
                if (nbubbles == cap) {
                    cap = cap ? 2 * cap : 64;
                    bubbles = ppf_realloc(bubbles, sizeof *bubbles * (size_t)cap);
                }
                bubbles[nbubbles++] = (bubble_at){r, next[r]};
                added[r]++;
                continue;
            }
            if (a->kind == ACTION_F || a->kind == ACTION_B) {
                step_cells[nstep] = cell;
                step_bits[nstep++] = a->kind == ACTION_F ? 1 : 2;
            }
            next[r]++;
            progress = true;
        }
        /* what ran in this step is seen only from the next step on */
        for (int k = 0; k < nstep; k++)
            seen[step_cells[k]] |= step_bits[k];
        /* With no progress every rank waits on a producer that never runs:
         * PyTorch would loop for ever; keep the rest as it is and let the
         * simulator report the deadlock. */
        if (!busy || !progress)
            break;
    }
    /* Group the bubbles by rank (they were found step by step, and within a
     * rank in index order), then widen each rank in place, back to front. */
    int *first = ppf_calloc((size_t)P + 1, sizeof(int));
    for (int r = 0; r < P; r++)
        first[r + 1] = first[r] + added[r];
    int *fill = ppf_malloc(sizeof(int) * ((size_t)nbubbles + 1));
    int *cursor = ppf_malloc(sizeof(int) * (size_t)P);
    memcpy(cursor, first, sizeof(int) * (size_t)P);
    for (int k = 0; k < nbubbles; k++)
        fill[cursor[bubbles[k].rank]++] = bubbles[k].index;
    for (int r = 0; r < P; r++) {
        if (!added[r])
            continue;
        program_reserve(p, r, added[r]);
        program_rank *pr = &p->rank[r];
        int src = pr->count - 1, dst = pr->count + added[r] - 1;
        for (int b = first[r + 1] - 1; b >= first[r]; b--) {
            for (; src >= fill[b]; src--)
                pr->actions[dst--] = pr->actions[src];
            pr->actions[dst--] = action_idle();
        }
        pr->count += added[r];
    }
    free(cursor);
    free(fill);
    free(first);
    free(bubbles);
    free(added);
    free(next);
    free(step_bits);
    free(step_cells);
    free(seen);
}

static void gen_looped_1f1b(program *p, bool zero_bubble)
{
    const int S = p->stages;
    int *next_f = ppf_malloc(sizeof(int) * (size_t)S);
    int *next_b = ppf_malloc(sizeof(int) * (size_t)S);
    int *next_w = ppf_malloc(sizeof(int) * (size_t)S);
    int *bwd_steps = ppf_malloc(sizeof(int) * (size_t)p->stages_per_rank * (size_t)p->microbatches);
    for (int r = 0; r < p->ranks; r++)
        gen_looped_1f1b_rank(p, r, zero_bubble, next_f, next_b, next_w, bwd_steps);
    free(bwd_steps);
    free(next_w);
    free(next_b);
    free(next_f);
    if (zero_bubble)
        add_bubbles(p);
}

/* --- PyTorch ScheduleZBVZeroBubble._calculate_single_rank_operations
 * (Zero Bubble, arXiv 2401.10241 section 6). It plans with at least 2P-1
 * micro-batches and turns the extra ones into idle cells. */

static void gen_zbv(program *p)
{
    const int P = p->ranks, M = p->microbatches;
    const int n_micro = M > 2 * P - 1 ? M : 2 * P - 1;
    program plan;
    program_init(&plan, P, 2 * P, n_micro, PROGRAM_LAYOUT_V);
    for (int r = 0; r < P; r++) {
        const int c0 = r, c1 = 2 * P - 1 - r;
        int f0 = 0, f1 = 0, b0 = 0, b1 = 0;
        for (int k = 0; k < r; k++)
            program_push(&plan, r, action_idle());
        for (int k = 0; k < 2 * (P - r) - 1; k++)
            program_push(&plan, r, action_make(ACTION_F, c0, f0++));
        for (int k = 0; k < r; k++) {
            program_push(&plan, r, action_make(ACTION_F, c1, f1++));
            program_push(&plan, r, action_make(ACTION_F, c0, f0++));
        }
        for (int k = 0; k < P - r; k++) {
            program_push(&plan, r, action_make(ACTION_F, c1, f1++));
            program_push(&plan, r, action_make(ACTION_I, c1, b1));
            program_push(&plan, r, action_make(ACTION_W, c1, b1++));
        }
        while (f1 < f0 || f0 < n_micro) {
            if (f0 < n_micro)
                program_push(&plan, r, action_make(ACTION_F, c0, f0++));
            program_push(&plan, r, action_make(ACTION_I, c0, b0));
            program_push(&plan, r, action_make(ACTION_W, c0, b0++));
            program_push(&plan, r, action_make(ACTION_F, c1, f1++));
            program_push(&plan, r, action_make(ACTION_I, c1, b1));
            program_push(&plan, r, action_make(ACTION_W, c1, b1++));
        }
        int w0 = b0, w1 = b1;
        for (int k = 0; k < r; k++) {
            program_push(&plan, r, action_make(ACTION_I, c0, b0++));
            program_push(&plan, r, action_make(ACTION_I, c1, b1++));
        }
        for (int k = 0; k < P - r; k++) {
            program_push(&plan, r, action_make(ACTION_I, c0, b0++));
            program_push(&plan, r, action_make(ACTION_W, c0, w0++));
        }
        while (w1 < b1)
            program_push(&plan, r, action_make(ACTION_W, c1, w1++));
        while (w0 < b0)
            program_push(&plan, r, action_make(ACTION_W, c0, w0++));
        /* Micro-batches beyond M were only there to fill the plan. */
        for (int k = 0; k < plan.rank[r].count; k++) {
            action a = plan.rank[r].actions[k];
            program_push(p, r, a.kind != ACTION_IDLE && a.microbatch < M ? a : action_idle());
        }
    }
    program_deinit(&plan);
}

/* --- PyTorch ScheduleDualPipeV._calculate_single_rank_operations, after
 * DeepSeek's DualPipe (arXiv 2412.19437). Counters per (stage, kind); a full
 * B advances both the I and W counters; Ws of split backwards wait in a FIFO. */

typedef struct dualpipev_rank {
    program *p;
    int rank;
    int c0, c1;           /* the rank's two stages */
    int f[2], i[2], w[2]; /* next micro-batch per chunk */
    int *queue_stage;     /* pending Ws of split backwards, oldest first */
    int *queue_mb;
    int qhead, qtail;
} dualpipev_rank;

static int chunk_of(const dualpipev_rank *d, int stage)
{
    return stage == d->c0 ? 0 : 1;
}

static void dp_add(dualpipev_rank *d, int stage, action_kind kind)
{
    int c = chunk_of(d, stage);
    if (kind == ACTION_F) {
        program_push(d->p, d->rank, action_make(ACTION_F, stage, d->f[c]++));
    } else if (kind == ACTION_B) {
        program_push(d->p, d->rank, action_make(ACTION_B, stage, d->i[c]));
        d->i[c]++;
        d->w[c]++;
    } else { /* ACTION_I */
        int mb = d->i[c]++;
        program_push(d->p, d->rank, action_make(ACTION_I, stage, mb));
        d->queue_stage[d->qtail] = stage;
        d->queue_mb[d->qtail] = mb;
        d->qtail++;
    }
}

static void dp_add_weight(dualpipev_rank *d)
{
    if (d->qhead == d->qtail)
        return;
    int stage = d->queue_stage[d->qhead], mb = d->queue_mb[d->qhead];
    d->qhead++;
    program_push(d->p, d->rank, action_make(ACTION_W, stage, mb));
    d->w[chunk_of(d, stage)]++;
}

static void dp_add_overlap(dualpipev_rank *d, int f_stage, int b_stage)
{
    int cf = chunk_of(d, f_stage), cb = chunk_of(d, b_stage);
    program_push(d->p, d->rank, action_make_overlap(f_stage, d->f[cf]++, b_stage, d->i[cb]));
    d->i[cb]++;
    d->w[cb]++;
}

static void gen_dualpipev(program *p)
{
    const int P = p->ranks, M = p->microbatches;
    dualpipev_rank *d = ppf_malloc(sizeof *d);
    /* a rank runs 2M backwards, so at most 2M Ws ever wait */
    int *queue_stage = ppf_malloc(sizeof(int) * 2 * (size_t)M);
    int *queue_mb = ppf_malloc(sizeof(int) * 2 * (size_t)M);
    for (int r = 0; r < P; r++) {
        memset(d, 0, sizeof *d);
        d->queue_stage = queue_stage;
        d->queue_mb = queue_mb;
        d->p = p;
        d->rank = r;
        d->c0 = r;
        d->c1 = 2 * P - 1 - r;
        const int s0 = d->c0, s1 = d->c1;
        for (int k = 0; k < (P - r - 1) * 2; k++) /* step 1: F0 */
            dp_add(d, s0, ACTION_F);
        for (int k = 0; k < r + 1; k++) { /* step 2: F0 F1 */
            dp_add(d, s0, ACTION_F);
            dp_add(d, s1, ACTION_F);
        }
        for (int k = 0; k < P - r - 1; k++) { /* step 3: I1 W1 F1 */
            dp_add(d, s1, ACTION_I);
            dp_add_weight(d);
            dp_add(d, s1, ACTION_F);
        }
        for (int k = 0; k < M - 2 * P + r + 1; k++) { /* step 4: F0B1 F1B0 */
            if (k == 0 && r == P - 1) {
                /* PyTorch leaves the last rank's first pair apart: a smaller bubble */
                dp_add(d, s0, ACTION_F);
                dp_add(d, s1, ACTION_B);
            } else {
                dp_add_overlap(d, s0, s1);
            }
            dp_add_overlap(d, s1, s0);
        }
        for (int k = 0; k < P - r - 1; k++) { /* step 5: B1 F1B0 */
            dp_add(d, s1, ACTION_B);
            dp_add_overlap(d, s1, s0);
        }
        bool zb = false; /* step 6: B1 B0, second half split (zero bubble) */
        const int step6 = r + 1;
        for (int k = 0; k < step6; k++) {
            if (k == step6 / 2 && r % 2 == 1)
                zb = true;
            dp_add(d, s1, zb ? ACTION_I : ACTION_B);
            if (k == step6 / 2 && r % 2 == 0)
                zb = true;
            dp_add(d, s0, zb ? ACTION_I : ACTION_B);
        }
        for (int k = 0; k < P - r - 1; k++) { /* step 7: W0 B0 */
            dp_add_weight(d);
            dp_add(d, s0, zb ? ACTION_I : ACTION_B);
        }
        for (int k = 0; k < r + 1; k++) /* step 8: W0 */
            dp_add_weight(d);
    }
    free(queue_mb);
    free(queue_stage);
    free(d);
}

bool schedule_generate(const char *name, const schedule_params *sp, program *out, ppf_error *err)
{
    memset(out, 0, sizeof *out);
    if (!schedule_check(name, sp, err))
        return false;
    const schedule_info *si = schedule_find(name);
    const int V = effective_v(si, sp);
    program_init(out, sp->ranks, sp->ranks * V, sp->microbatches, si->layout);
    snprintf(out->schedule, sizeof out->schedule, "%s", si->name);
    /* Every schedule runs 2 or 3 compute actions per (stage, micro-batch) plus
     * idle padding of a few steps per rank: reserve once, not per push. */
    program_reserve_all(out, 3 * V * sp->microbatches + 4 * sp->ranks + 8);
    if (strcmp(si->name, "gpipe") == 0)
        gen_gpipe(out);
    else if (strcmp(si->name, "1f1b") == 0)
        gen_1f1b(out);
    else if (strcmp(si->name, "interleaved-1f1b") == 0)
        gen_looped_1f1b(out, false);
    else if (strcmp(si->name, "looped-bfs") == 0)
        gen_looped_bfs(out);
    else if (strcmp(si->name, "zb-h1") == 0 || strcmp(si->name, "interleaved-zb") == 0)
        gen_looped_1f1b(out, true);
    else if (strcmp(si->name, "zbv") == 0)
        gen_zbv(out);
    else
        gen_dualpipev(out);
#ifndef NDEBUG
    /* A generator that breaks its own program is a programmer's mistake; the
     * tests validate every generator over many sizes, release builds skip it. */
    ppf_error verr = {{0}};
    assert(program_validate(out, &verr) && verr.message[0] == 0);
#endif
    return true;
}
