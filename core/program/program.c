#include "program.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int program_layout_rank(program_layout layout, int ranks, int stages, int s)
{
    switch (layout) {
    case PROGRAM_LAYOUT_LOOP:
        return s % ranks;
    case PROGRAM_LAYOUT_V:
        /* Rank r holds stages r and 2P-1-r; with more than 2 stages per rank
         * the V folds back and forth (a zig-zag), which is what the name means. */
        {
            int lap = s / ranks, pos = s % ranks;
            (void)stages;
            return (lap % 2 == 0) ? pos : ranks - 1 - pos;
        }
    case PROGRAM_LAYOUT_CUSTOM:
        return -1;
    }
    return -1;
}

void program_init(program *p, int ranks, int stages, int microbatches, program_layout layout)
{
    assert(ranks >= 1 && stages >= 1 && microbatches >= 1);
    *p = (program){.ranks = ranks,
                   .stages = stages,
                   .stages_per_rank = stages / ranks > 0 ? stages / ranks : 1,
                   .microbatches = microbatches,
                   .layout = layout};
    p->stage_rank = ppf_malloc(sizeof(int) * (size_t)stages);
    for (int s = 0; s < stages; s++)
        p->stage_rank[s] = program_layout_rank(layout, ranks, stages, s);
    p->rank = ppf_calloc((size_t)ranks, sizeof(program_rank));
}

void program_deinit(program *p)
{
    if (p->rank)
        for (int r = 0; r < p->ranks; r++)
            if (p->rank[r].owned)
                free(p->rank[r].actions);
    free(p->rank);
    free(p->arena);
    free(p->stage_rank);
    memset(p, 0, sizeof *p);
}

void program_reserve(program *p, int rank, int n)
{
    assert(rank >= 0 && rank < p->ranks && n >= 0);
    program_rank *pr = &p->rank[rank];
    if (pr->count + n <= pr->capacity)
        return;
    int grown = pr->count + n > 2 * pr->capacity ? pr->count + n : 2 * pr->capacity;
    if (pr->owned || !pr->actions) {
        pr->actions = ppf_realloc(pr->actions, sizeof(action) * (size_t)grown);
    } else { /* leave the arena */
        action *own = ppf_malloc(sizeof(action) * (size_t)grown);
        memcpy(own, pr->actions, sizeof(action) * (size_t)pr->count);
        pr->actions = own;
    }
    pr->owned = true;
    pr->capacity = grown;
}

void program_reserve_all(program *p, int n)
{
    assert(!p->arena && n >= 0);
    p->arena = ppf_malloc_large(sizeof(action) * (size_t)p->ranks * (size_t)(n ? n : 1));
    for (int r = 0; r < p->ranks; r++) {
        assert(p->rank[r].count == 0 && !p->rank[r].actions);
        p->rank[r].actions = p->arena + (size_t)r * (size_t)n;
        p->rank[r].capacity = n;
        p->rank[r].owned = false;
    }
}

long program_action_count(const program *p)
{
    long n = 0;
    for (int r = 0; r < p->ranks; r++)
        n += p->rank[r].count;
    return n;
}

unsigned program_kind_mask(const program *p)
{
    unsigned mask = 0;
    for (int r = 0; r < p->ranks; r++)
        for (int j = 0; j < p->rank[r].count; j++)
            mask |= 1u << p->rank[r].actions[j].kind;
    return mask;
}

/* Counts of each compute kind for one (stage, micro-batch). */
typedef struct part_counts {
    uint8_t f, b, i, w;
} part_counts;

static void count_part(part_counts *c, action_kind kind)
{
    uint8_t *slot = kind == ACTION_F   ? &c->f
                    : kind == ACTION_B ? &c->b
                    : kind == ACTION_I ? &c->i
                                       : &c->w;
    if (*slot < 255)
        (*slot)++;
}

/* Checks one compute half (stage, micro-batch) at position (rank, step). */
static inline bool check_part(program *p, part_counts *counts, int rank, int step, action_kind kind,
                              int stage, int mb, ppf_error *err)
{
    if (stage < 0 || stage >= p->stages)
        return ppf_fail(err, "rank %d, step %d: stage %d is outside 0..%d", rank, step, stage,
                        p->stages - 1);
    if (mb < 0 || mb >= p->microbatches)
        return ppf_fail(err, "rank %d, step %d: micro-batch %d is outside 0..%d", rank, step, mb,
                        p->microbatches - 1);
    if (p->layout == PROGRAM_LAYOUT_CUSTOM && p->stage_rank[stage] < 0)
        p->stage_rank[stage] = rank;
    if (p->stage_rank[stage] != rank)
        return ppf_fail(err,
                        "rank %d, step %d: stage %d also runs on rank %d; each stage runs on one "
                        "rank",
                        rank, step, stage, p->stage_rank[stage]);
    count_part(&counts[(size_t)stage * (size_t)p->microbatches + (size_t)mb], kind);
    return true;
}

bool program_validate(program *p, ppf_error *err)
{
    if (p->layout == PROGRAM_LAYOUT_CUSTOM)
        for (int s = 0; s < p->stages; s++)
            p->stage_rank[s] = -1;
    part_counts *counts =
        ppf_calloc((size_t)p->stages * (size_t)p->microbatches, sizeof(part_counts));
    bool ok = true;
    for (int r = 0; r < p->ranks && ok; r++) {
        const program_rank *pr = &p->rank[r];
        for (int k = 0; k < pr->count && ok; k++) {
            const action *a = &pr->actions[k];
            switch (a->kind) {
            case ACTION_IDLE:
                break;
            case ACTION_OVERLAP_F_B:
                ok = check_part(p, counts, r, k, ACTION_F, a->stage, a->microbatch, err) &&
                     check_part(p, counts, r, k, ACTION_B, a->stage2, a->microbatch2, err);
                break;
            case ACTION_F:
            case ACTION_B:
            case ACTION_I:
            case ACTION_W:
                ok =
                    check_part(p, counts, r, k, (action_kind)a->kind, a->stage, a->microbatch, err);
                break;
            default: /* communication and FSDP markers: only their range matters */
                if (a->stage < 0 || a->stage >= p->stages || a->microbatch >= p->microbatches)
                    ok = ppf_fail(err,
                                  "rank %d, step %d: %s names stage %d, micro-batch %d, outside "
                                  "the program's %d stages and %d micro-batches",
                                  r, k, action_kind_name((action_kind)a->kind), a->stage,
                                  a->microbatch, p->stages, p->microbatches);
                break;
            }
        }
    }
    for (int s = 0; s < p->stages && ok; s++) {
        if (p->stage_rank[s] < 0) {
            ok = ppf_fail(err,
                          "stage %d: no rank runs it; stages must be numbered 0..%d without gaps",
                          s, p->stages - 1);
            break;
        }
        for (int m = 0; m < p->microbatches && ok; m++) {
            const part_counts *c = &counts[(size_t)s * (size_t)p->microbatches + (size_t)m];
            if (c->f != 1)
                ok = ppf_fail(err,
                              "stage %d, micro-batch %d: %d forward (F) actions; each (stage, "
                              "micro-batch) needs exactly one",
                              s, m, c->f);
            else if (!((c->b == 1 && c->i == 0 && c->w == 0) ||
                       (c->b == 0 && c->i == 1 && c->w == 1)))
                ok = ppf_fail(err,
                              "stage %d, micro-batch %d: backward parts B=%d I=%d W=%d; each "
                              "(stage, micro-batch) needs one B, or one I and one W",
                              s, m, c->b, c->i, c->w);
        }
    }
    free(counts);
    return ok;
}
