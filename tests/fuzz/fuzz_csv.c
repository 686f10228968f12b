/* fuzz_csv.c - libFuzzer target: arbitrary bytes as a PyTorch schedule CSV.
 *
 * The bytes are parsed; a program that parses goes the whole way a user's
 * would (fuzz_support.h): simulated, exported in every format (csv_write
 * read back included), reported and laid out as a scene. The costs, the
 * data-parallel replicas (so the all-reduce path runs too), the layers per
 * stage and the report's width come from a hash of the bytes, so every seed
 * stays a plain CSV. A program that cannot finish must be reported as a
 * deadlock, never hang or crash; every error must be one non-empty
 * printable line. csv_parse's budget decides what is too big. */
#include <stddef.h>
#include <stdint.h>

#include "csv.h"
#include "scenario.h"
#include "timeline.h"

#include "fuzz_support.h"

/* A few cost models, zero costs and per-rank p2p times among them. */
static void pick_costs(timeline_costs *c, unsigned pick)
{
    static const double f[] = {1, 0, 1.25, 1e-3};
    static const double b[] = {2, 0, 2.5, 1e9};
    static const double p2p[] = {0, 0.1, 0, 3};
    static const allreduce_cost ar[] = {
        {.mode = ALLREDUCE_TIME, .time = 0.5},
        {.mode = ALLREDUCE_NONE},
        {.mode = ALLREDUCE_RING, .bytes = 1e9, .bandwidth = 5e8, .latency = 1e-3},
        {.mode = ALLREDUCE_TREE, .bytes = 3e9, .bandwidth = 1e8, .latency = 0},
    };
    int k = (int)(pick % 4);
    for (int r = 0; r < c->ranks; r++) {
        c->f[r] = f[k] * (1 + (r % 3) * ((pick >> 2) & 1));
        c->b[r] = b[k];
        c->i[r] = c->w[r] = b[k] / 2;
        c->fb[r] = (pick >> 3) & 1 ? c->f[r] + c->b[r] : 0.75 * (c->f[r] + c->b[r]);
        c->p2p[r] = p2p[(pick >> 4) % 4] * (r + 1);
    }
    c->allreduce = ar[(pick >> 6) % 4];
    c->dp = 1 + (int)((pick >> 8) % 4);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    program prog;
    ppf_error err = {0};
    if (!csv_parse((const char *)data, size, "fuzz", &prog, &err)) {
        fuzz_check_message(&err);
        return 0;
    }
    unsigned pick = fuzz_hash(data, size);
    timeline_costs costs;
    timeline_costs_init(&costs, prog.ranks);
    pick_costs(&costs, pick);
    scenario sc;
    scenario_init(&sc);
    sc.layers_per_stage = (int)((pick >> 10) % 4); /* 0: the scene's default */
    fuzz_view view = fuzz_view_from_scenario(&sc, pick >> 12);
    fuzz_run_program(&prog, &costs, &view);
    scenario_deinit(&sc);
    timeline_costs_deinit(&costs);
    program_deinit(&prog);
    return 0;
}
