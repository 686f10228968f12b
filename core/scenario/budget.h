/* budget.h - what one scenario may cost, checked before anything big is
 * allocated.
 *
 * A scenario file or a CSV may come from anyone (a course repository, a
 * colleague, a web service that renders user scenarios), so every size that
 * grows with the input is bounded here, once, for every command. Each limit
 * bounds one product that decides memory; a scenario over one gets a line
 * naming the product, its value and the limit, and exit status 2 - never an
 * out-of-memory abort, a GL out-of-memory error or the OOM killer.
 *
 *   product                          what grows with it                 limit
 *   actions (idle steps included)    program, timeline, memory lane     2e7
 *   stages x micro-batches           simulator, scene timing cells      1e7
 *   objects to draw                  scene state, instance buffers      5e7
 *   iteration length (time units)    every time written                 1e12
 *
 * Measured on the largest accepted scenarios (README.md, "Limits"): 2e7
 * actions simulate in about 1 s in under 1 GiB; 5e7 objects draw a still in
 * a few seconds in about 2 GiB. The time limit keeps every number an
 * exporter writes finite and exact (Chrome trace timestamps are integer
 * nanoseconds: 1e12 units x 1e6 ns fits in 64 bits).
 *
 * All arithmetic here is in 64 bits (or double), so no product overflows
 * before it is compared; every limit is below 2^31, so once a check passes,
 * the int sizes and indices that core/ and render/ use cannot overflow.
 *
 * Call order: budget_check_generated() before a generator runs;
 * budget_check_cells() while a CSV is read; budget_check_grid() before the
 * program is validated; budget_check_time() after the simulation;
 * scene_check_budget() (scene.h) before a scene is laid out.
 *
 * A leaf: it knows the limits and the words, not how anything is counted
 * (the scenario, the CSV reader and the scene count their own products).
 *
 * Totals. The limits bound what one command builds, not each scenario: a
 * command that holds several sessions at once (a talk's slides in the
 * viewer, a comparison's sides, the panes the window adds) holds their sum,
 * so the first three limits bound the sum over everything it builds, and a
 * talk of 100 slides each at the limit is refused as a single scenario 100
 * times the limit would be. The caller adds each scenario's budget_cost,
 * counted from its sizes before anything is built (scenario_cost), and
 * budget_check_total() refuses the sum before the first is simulated. The
 * time limit stays per scenario: it keeps numbers exact, not memory small.
 */
#ifndef PPFLOW_BUDGET_H
#define PPFLOW_BUDGET_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"

#define BUDGET_MAX_ACTIONS 20000000LL /* actions of a program, idle steps included */
#define BUDGET_MAX_GRID 10000000LL    /* stages x micro-batches */
#define BUDGET_MAX_OBJECTS 50000000LL /* scene objects drawn, over all replicas */
#define BUDGET_MAX_TIME 1e12          /* the iteration's length, in time units */

/* The most actions a generator writes on one rank: 3 compute actions per
 * (stage, micro-batch) of the rank's V stages, plus idle padding that grows
 * with V x P (ZB-V pads the most, 6.4 V P at M = 1). An upper bound that
 * test_budget checks for every schedule; budget_check_generated counts it,
 * so every generated program, and its CSV with the idle cells, fits the
 * budget that imports are held to. */
int64_t budget_generated_per_rank(int64_t ranks, int64_t virtual_stages, int64_t microbatches);

/* Refuses ranks x budget_generated_per_rank over BUDGET_MAX_ACTIONS. */
bool budget_check_generated(int64_t ranks, int64_t virtual_stages, int64_t microbatches,
                            ppf_error *err);

/* A CSV holds `cells` cells so far (each becomes an action or an idle step);
 * false once they pass the budget. `origin` names the file in the message. */
bool budget_check_cells(int64_t cells, const char *origin, ppf_error *err);

/* Stages x micro-batches: the simulator's and the scene's per-cell tables. */
bool budget_check_grid(int64_t stages, int64_t microbatches, ppf_error *err);

/* The iteration's length must be finite and at most BUDGET_MAX_TIME (costs
 * that are each finite can still sum to infinity). */
bool budget_check_time(double makespan, ppf_error *err);

/* The objects a 3D scene would draw (the scene counts them:
 * scene_check_budget), against BUDGET_MAX_OBJECTS; the sizes name the
 * product in the message. Checked before the scene or any instance buffer
 * exists. */
bool budget_check_objects(double objects, int64_t replicas, int64_t stages,
                          int64_t layers_per_stage, int64_t slots, ppf_error *err);

/* A count as the budget's messages write it: a round number as "5e7", one
 * near a limit exactly ("50000240"), a larger one as "2.7e9"; for messages
 * about other limits to read alike: printf("%s", budget_count_text(n).s). */
typedef struct budget_text {
    char s[32];
} budget_text;
budget_text budget_count_text(double v);

/* What a scenario costs against the first three limits, counted before it
 * is built: upper bounds of what its program, simulation and scene hold. In
 * double: a sum of products of scenario fields may pass 2^63. */
typedef struct budget_cost {
    double actions; /* actions, idle steps included (budget_generated_per_rank, a CSV's cells) */
    double pairs;   /* stages x micro-batches */
    double objects; /* scene objects (scene_count_objects_rough); 0 when nothing is drawn */
} budget_cost;

/* The actions and pairs of a generated program of these sizes (V >= 1),
 * as budget_check_generated counts them; no objects. */
budget_cost budget_cost_generated(int64_t ranks, int64_t virtual_stages, int64_t microbatches);
/* sum += c. */
void budget_cost_add(budget_cost *sum, const budget_cost *c);
/* Whether c is within every limit. */
bool budget_cost_fits(const budget_cost *c);
/* The sum of parts[0..n), what one command builds, against the limits;
 * false with one line naming `what` (the talk and its slide count,
 * "--compare: 4 sides"), the first product over, the sum, the limit and
 * the largest part by its name (names[0..n)), e.g. "talk.json: 100
 * slides: 2e9 actions in all (the most, slides[0]: 2e7): at most 2e7 for
 * everything one command builds". */
bool budget_check_total(const budget_cost *parts, const char *const *names, int n, const char *what,
                        ppf_error *err);

#endif
