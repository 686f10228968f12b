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
 * budget_check_scene() before a scene is laid out.
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

/* Objects the 3D scene draws for these sizes (scene_count_objects), against
 * BUDGET_MAX_OBJECTS; checked before the scene or any instance buffer exists. */
bool budget_check_scene(int64_t stages, int64_t layers_per_stage, int64_t microbatches,
                        int64_t replicas, ppf_error *err);

#endif
