/* run_fixture.c - program + costs + timeline for tests. See run_fixture.h. */
#include "run_fixture.h"

#include "check.h"
#include "schedules.h"

void run_fixture_prepare(run_fixture *x, const run_fixture_desc *d)
{
    ppf_error err = {{0}};
    *x = (run_fixture){0};
    const schedule_params sp = {.ranks = d->P, .microbatches = d->M, .stages_per_rank = d->V};
    if (!schedule_generate(d->schedule, &sp, &x->p, &err))
        fail_msg("%s: %s", d->schedule, err.message);
    timeline_costs_init(&x->c, d->P);
    for (int r = 0; r < d->P; r++) {
        if (d->f)
            x->c.f[r] = d->f;
        if (d->b)
            x->c.b[r] = d->b;
        if (d->i)
            x->c.i[r] = d->i;
        if (d->w)
            x->c.w[r] = d->w;
        x->c.fb[r] = d->fb ? d->fb : x->c.f[r] + x->c.b[r];
        x->c.p2p[r] = d->p2p;
    }
    x->c.dp = d->D ? d->D : 1;
    if (d->allreduce)
        x->c.allreduce = (allreduce_cost){.mode = ALLREDUCE_TIME, .time = d->allreduce};
}

void run_fixture_simulate(run_fixture *x)
{
    ppf_error err = {{0}};
    if (!timeline_simulate(&x->tl, &x->p, &x->c, &err))
        fail_msg("simulation failed: %s", err.message);
}

void run_fixture_init(run_fixture *x, const run_fixture_desc *d)
{
    run_fixture_prepare(x, d);
    run_fixture_simulate(x);
}

void run_fixture_deinit(run_fixture *x)
{
    timeline_deinit(&x->tl);
    timeline_costs_deinit(&x->c);
    program_deinit(&x->p);
    *x = (run_fixture){0};
}

void run_fixture_costs_uniform(timeline_costs *c, double f, double b, double i, double w)
{
    for (int r = 0; r < c->ranks; r++) {
        c->f[r] = f;
        c->b[r] = b;
        c->i[r] = i;
        c->w[r] = w;
        c->fb[r] = f + b;
    }
}
