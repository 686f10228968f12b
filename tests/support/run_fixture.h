/* run_fixture.h - a schedule generated, costed and simulated: the program,
 * its costs and its timeline, for the tests that need a real timeline to
 * look at (exports, the timeline panel, the scene, the simulation itself).
 *
 * What it does: schedule_generate with the desc's P, M, V; every rank's
 * costs from the desc (zero fields keep timeline_costs_init's defaults);
 * timeline_simulate. Or the first two only, for a test that changes the
 * costs by hand before it simulates.
 *
 * What it does not do: no scenario (scenario_build has its own tests), no
 * CSV programs, no scene (a test that needs one builds it on x.tl).
 *
 * Call order:
 *     run_fixture x = {0};
 *     run_fixture_init(&x, &(run_fixture_desc){.schedule = "1f1b", .P = 4, .M = 8,
 *                                              .D = 2, .allreduce = 4});
 *     ... x.p, x.c, x.tl ...
 *     run_fixture_deinit(&x);
 *   or, to change the costs first:
 *     run_fixture_prepare(&x, &desc);  x.c.f[2] = 2;  run_fixture_simulate(&x);
 *
 * Errors: a schedule that cannot be generated or a timeline that cannot be
 * simulated fails the current test with the schedule's name and the
 * message; these are cmocka helpers.
 */
#ifndef PPFLOW_TEST_RUN_FIXTURE_H
#define PPFLOW_TEST_RUN_FIXTURE_H

#include "program.h"
#include "timeline.h"

typedef struct run_fixture_desc {
    const char *schedule; /* a name schedule_generate knows */
    int P, M;             /* ranks and micro-batches */
    int V;                /* stages per rank; 0: the schedule's default */
    int D;                /* data-parallel replicas; 0: 1 */
    double f, b, i, w;    /* every rank's costs; 0: the default (F=1, B=2, I=W=1) */
    double fb;            /* every rank's overlapped F&B; 0: f + b */
    double p2p;           /* every rank's p2p time; 0: none */
    double allreduce;     /* a stage's all-reduce time (ALLREDUCE_TIME); 0: none */
} run_fixture_desc;

typedef struct run_fixture {
    program p;        /* the generated schedule */
    timeline_costs c; /* the costs it is simulated with */
    timeline tl;      /* after run_fixture_simulate; zeroed before */
} run_fixture;

/* Generates the program and fills the costs; no timeline yet. */
void run_fixture_prepare(run_fixture *x, const run_fixture_desc *d);

/* Simulates x->p under x->c into x->tl. */
void run_fixture_simulate(run_fixture *x);

/* run_fixture_prepare, then run_fixture_simulate. */
void run_fixture_init(run_fixture *x, const run_fixture_desc *d);

/* Frees all three and zeroes x; accepts a zeroed or prepared fixture. */
void run_fixture_deinit(run_fixture *x);

/* Sets every rank's F, B, I and W as given (zero is zero here) and its
 * F&B to f + b. */
void run_fixture_costs_uniform(timeline_costs *c, double f, double b, double i, double w);

#endif
