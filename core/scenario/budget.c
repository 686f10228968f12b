/* budget.c - the limits on what one scenario may cost. See budget.h. */
#include "budget.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>

/* A count for a message: a round number as "5e7", one near a limit exactly
 * ("50000240": "5e7 objects: at most 5e7" would say nothing), a larger one
 * as "2.7e9" ("2.7e+09" reads worse on one line). */
static const char *short_number(double v, char buf[32])
{
    int exp = v >= 10 ? (int)floor(log10(v)) : 0;
    double mant = v / pow(10, exp);
    if (exp > 0 && mant == floor(mant)) {
        snprintf(buf, 32, "%.0fe%d", mant, exp);
    } else if (v < 1e9) {
        snprintf(buf, 32, "%.0f", v);
    } else {
        if (mant >= 9.95) { /* 9.96e9 would print as 10.0e9 */
            mant /= 10;
            exp++;
        }
        snprintf(buf, 32, "%.2ge%d", mant, exp);
    }
    return buf;
}

budget_text budget_count_text(double v)
{
    budget_text t;
    short_number(v, t.s);
    return t;
}

/* The product's terms have been checked one by one, so each fits in 64
 * bits; the product itself may not: multiply in double, exact below 2^53. */
static double product(int64_t a, int64_t b, int64_t c)
{
    return (double)a * (double)b * (double)c;
}

int64_t budget_generated_per_rank(int64_t ranks, int64_t virtual_stages, int64_t microbatches)
{
    return 3 * virtual_stages * microbatches + 8 * virtual_stages * ranks + 8;
}

bool budget_check_generated(int64_t ranks, int64_t virtual_stages, int64_t microbatches,
                            ppf_error *err)
{
    /* In double: each term is bounded by the scenario's field limits, but
     * the product of them is not. */
    const double idle = 8.0 * (double)virtual_stages * (double)ranks + 8;
    const double n = (double)ranks * (3.0 * (double)virtual_stages * (double)microbatches + idle);
    if (n <= (double)BUDGET_MAX_ACTIONS)
        return true;
    char a[32], b[32];
    return ppf_fail(err,
                    "stages x (virtual x microbatches x 3 + %.0f idle steps) = %lld x (%lld x %lld "
                    "x 3 + %.0f) = %s actions: at most %s; use fewer stages or micro-batches",
                    idle, (long long)ranks, (long long)virtual_stages, (long long)microbatches,
                    idle, short_number(n, a), short_number((double)BUDGET_MAX_ACTIONS, b));
}

bool budget_check_cells(int64_t cells, const char *origin, ppf_error *err)
{
    if (cells <= BUDGET_MAX_ACTIONS)
        return true;
    char b[32];
    return ppf_fail(err,
                    "%s: more than %s cells (actions and idle steps): at most %s actions per "
                    "program",
                    origin, short_number((double)BUDGET_MAX_ACTIONS, b),
                    short_number((double)BUDGET_MAX_ACTIONS, b));
}

bool budget_check_grid(int64_t stages, int64_t microbatches, ppf_error *err)
{
    double n = product(stages, microbatches, 1);
    if (n <= (double)BUDGET_MAX_GRID)
        return true;
    char a[32], b[32];
    return ppf_fail(err,
                    "stages x micro-batches = %lld x %lld = %s (stage, micro-batch) pairs to "
                    "simulate: at most %s",
                    (long long)stages, (long long)microbatches, short_number(n, a),
                    short_number((double)BUDGET_MAX_GRID, b));
}

bool budget_check_time(double makespan, ppf_error *err)
{
    if (isfinite(makespan) && makespan <= BUDGET_MAX_TIME)
        return true;
    char b[32];
    if (!isfinite(makespan))
        return ppf_fail(err,
                        "costs: the iteration's length overflows (the costs add up to more than "
                        "any number): at most %s time units",
                        short_number(BUDGET_MAX_TIME, b));
    return ppf_fail(err, "costs: the iteration lasts %.6g time units: at most %s", makespan,
                    short_number(BUDGET_MAX_TIME, b));
}

bool budget_check_objects(double objects, int64_t replicas, int64_t stages,
                          int64_t layers_per_stage, int64_t slots, ppf_error *err)
{
    if (objects <= (double)BUDGET_MAX_OBJECTS)
        return true;
    char a[32], b[32];
    return ppf_fail(err,
                    "dp x stages x layers_per_stage x micro-batch slots = %lld x %lld x %lld x "
                    "%lld: %s objects to draw: at most %s; use fewer replicas, stages or layers "
                    "per stage",
                    (long long)replicas, (long long)stages, (long long)layers_per_stage,
                    (long long)slots, short_number(objects, a),
                    short_number((double)BUDGET_MAX_OBJECTS, b));
}

/* ---- totals ------------------------------------------------------------------ */

budget_cost budget_cost_generated(int64_t ranks, int64_t virtual_stages, int64_t microbatches)
{
    /* budget_check_generated's count, in double for the same reason */
    const double idle = 8.0 * (double)virtual_stages * (double)ranks + 8;
    return (budget_cost){
        .actions = (double)ranks * (3.0 * (double)virtual_stages * (double)microbatches + idle),
        .pairs = product(ranks, virtual_stages, microbatches),
    };
}

void budget_cost_add(budget_cost *sum, const budget_cost *c)
{
    sum->actions += c->actions;
    sum->pairs += c->pairs;
    sum->objects += c->objects;
}

/* The products of a budget_cost, in the order they are checked. */
static const struct {
    size_t offset;
    double limit;
    const char *what; /* "N <what> in all" */
} products[] = {
    {offsetof(budget_cost, actions), (double)BUDGET_MAX_ACTIONS, "actions"},
    {offsetof(budget_cost, pairs), (double)BUDGET_MAX_GRID,
     "(stage, micro-batch) pairs to simulate"},
    {offsetof(budget_cost, objects), (double)BUDGET_MAX_OBJECTS, "objects to draw"},
};

static double product_of(const budget_cost *c, size_t offset)
{
    return *(const double *)((const char *)c + offset);
}

bool budget_cost_fits(const budget_cost *c)
{
    for (size_t j = 0; j < sizeof products / sizeof products[0]; j++)
        if (product_of(c, products[j].offset) > products[j].limit)
            return false;
    return true;
}

bool budget_check_total(const budget_cost *parts, const char *const *names, int n, const char *what,
                        ppf_error *err)
{
    for (size_t j = 0; j < sizeof products / sizeof products[0]; j++) {
        double sum = 0;
        int most = 0;
        for (int k = 0; k < n; k++) {
            const double v = product_of(&parts[k], products[j].offset);
            sum += v;
            if (v > product_of(&parts[most], products[j].offset))
                most = k;
        }
        if (sum <= products[j].limit)
            continue;
        char a[32], b[32], c[32];
        return ppf_fail(err,
                        "%s: %s %s in all (the most, %s: %s): at most %s for everything one "
                        "command builds",
                        what, short_number(sum, a), products[j].what, names[most],
                        short_number(product_of(&parts[most], products[j].offset), c),
                        short_number(products[j].limit, b));
    }
    return true;
}
