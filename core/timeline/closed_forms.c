/* closed_forms.c - textbook formulas and their assumptions. See closed_forms.h. */
#include "closed_forms.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "number_text.h"

static bool uniform(const double *v, int n)
{
    for (int r = 1; r < n; r++)
        if (v[r] != v[0])
            return false;
    return true;
}

static double list_min(const double *v, int n)
{
    double m = v[0];
    for (int r = 1; r < n; r++)
        m = fmin(m, v[r]);
    return m;
}

static double list_max(const double *v, int n)
{
    double m = v[0];
    for (int r = 1; r < n; r++)
        m = fmax(m, v[r]);
    return m;
}

/* The assumptions every form shares: every rank costs the same, transfers
 * are free and the all-reduce hides behind compute; each breaks them in a
 * way worth naming. Writes the first that fails into why (size
 * CLOSED_FORM_WHY_MAX); false when one does. */
static bool assumptions_hold(const timeline *tl, const timeline_costs *c, char *why)
{
    const int P = c->ranks;
    const unsigned kinds = program_kind_mask(tl->program);
    if (!(tl->makespan > 0)) {
        snprintf(why, CLOSED_FORM_WHY_MAX, "the iteration takes no time");
        return false;
    }
    char a[NUMBER_TEXT_MAX], b[NUMBER_TEXT_MAX];
    const char *name = NULL;
    const double *list = NULL;
    if (!uniform(c->f, P))
        name = "F", list = c->f;
    else if ((kinds & 1u << ACTION_B) && !uniform(c->b, P))
        name = "B", list = c->b;
    else if ((kinds & 1u << ACTION_I) && !uniform(c->i, P))
        name = "I", list = c->i;
    else if ((kinds & 1u << ACTION_W) && !uniform(c->w, P))
        name = "W", list = c->w;
    else if ((kinds & 1u << ACTION_OVERLAP_F_B) && !uniform(c->fb, P))
        name = "F&B", list = c->fb;
    if (name) {
        snprintf(why, CLOSED_FORM_WHY_MAX, "per-rank costs differ (%s from %s to %s)", name,
                 number_text_format(list_min(list, P), a),
                 number_text_format(list_max(list, P), b));
        return false;
    }
    if (list_max(c->p2p, P) > 0) {
        snprintf(why, CLOSED_FORM_WHY_MAX, "it assumes free transfers, p2p = %s",
                 number_text_list(c->p2p, P, a));
        return false;
    }
    if (tl->allreduce_exposed > 1e-9 * fmax(1.0, tl->makespan)) {
        snprintf(why, CLOSED_FORM_WHY_MAX, "the all-reduce ends %s after the last compute",
                 number_text_format(tl->allreduce_exposed, a));
        return false;
    }
    return true;
}

static void form(closed_form *cf, const char *formula, double value, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void form(closed_form *cf, const char *formula, double value, const char *fmt, ...)
{
    cf->formula = formula;
    cf->value = value;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cf->numbers, sizeof cf->numbers, fmt, ap);
    va_end(ap);
}

/* The makespan and bubble forms of the schedules that have them (uniform
 * costs: rank 0's stand for all), with the conditions of each schedule's
 * own that the shared assumptions do not cover. */
static void schedule_forms(const program *p, const timeline_costs *c, closed_forms *m)
{
    const int P = p->ranks, M = p->microbatches, V = p->stages_per_rank;
    const double F = c->f[0], B = c->b[0], I = c->i[0], W = c->w[0];
    char s1[NUMBER_TEXT_MAX], s2[NUMBER_TEXT_MAX], s3[NUMBER_TEXT_MAX], s4[NUMBER_TEXT_MAX];
    if (strcmp(p->schedule, "gpipe") == 0 || strcmp(p->schedule, "1f1b") == 0) {
        m->has = true;
        form(&m->makespan, "(M+P-1)(F+B)", (M + P - 1) * (F + B), "%d × %s", M + P - 1,
             number_text_format(F + B, s1));
        form(&m->bubble_fraction, "(P-1)/(M+P-1)", (double)(P - 1) / (M + P - 1), "%d/%d", P - 1,
             M + P - 1);
        form(&m->bubble_ratio, "(P-1)/M", (double)(P - 1) / M, "%d/%d", P - 1, M);
    } else if (strcmp(p->schedule, "interleaved-1f1b") == 0) {
        m->has = true;
        if (M < P)
            snprintf(m->why_not, sizeof m->why_not, "it assumes M >= P (here M = %d, P = %d)", M,
                     P);
        double bubble = (P - 1) * (F + B) / V;
        form(&m->makespan, "M(F+B) + (P-1)(F+B)/V", M * (F + B) + bubble, "%d × %s + %d × %s/%d", M,
             number_text_format(F + B, s1), P - 1, number_text_format(F + B, s2), V);
        form(&m->bubble_fraction, "(P-1)/(V·M+P-1)", (double)(P - 1) / (V * M + P - 1), "%d/%d",
             P - 1, V * M + P - 1);
        form(&m->bubble_ratio, "(P-1)/(V·M)", (double)(P - 1) / (V * M), "%d/%d", P - 1, V * M);
    } else if (strcmp(p->schedule, "zb-h1") == 0) {
        /* The Zero Bubble paper's (P-1)(F+B-2W) with B the full backward
         * I+W: the W of each micro-batch fills part of the 1F1B bubble,
         * which it can only do while no W is longer than an F or an I. */
        m->has = true;
        if (M < P)
            snprintf(m->why_not, sizeof m->why_not, "it assumes M >= P (here M = %d, P = %d)", M,
                     P);
        else if (W > F || W > I)
            snprintf(m->why_not, sizeof m->why_not,
                     "it assumes W <= F and W <= I (here F = %s, I = %s, W = %s)",
                     number_text_format(F, s1), number_text_format(I, s2),
                     number_text_format(W, s3));
        double busy = M * (F + I + W), bubble = (P - 1) * (F + I - W);
        form(&m->makespan, "M(F+I+W) + (P-1)(F+I-W)", busy + bubble, "%d × %s + %d × %s", M,
             number_text_format(F + I + W, s1), P - 1, number_text_format(F + I - W, s2));
        form(&m->bubble_fraction, "(P-1)(F+I-W) / makespan", bubble / (busy + bubble), "%s/%s",
             number_text_format(bubble, s3), number_text_format(busy + bubble, s4));
        form(&m->bubble_ratio, "(P-1)(F+I-W) / M(F+I+W)", bubble / busy, "%s/%s",
             number_text_format(bubble, s3), number_text_format(busy, s4));
    }
    (void)B;
}

int closed_forms_peak(const program *p, int rank)
{
    const int P = p->ranks, M = p->microbatches;
    if (strcmp(p->schedule, "gpipe") == 0)
        return M;
    if (strcmp(p->schedule, "1f1b") == 0)
        return P - rank < M ? P - rank : M;
    return -1;
}

/* The peak activations' form in words, or false for a schedule without one. */
static bool peak_form(const program *p, char *buf, size_t size)
{
    const int P = p->ranks, M = p->microbatches;
    if (strcmp(p->schedule, "gpipe") == 0)
        snprintf(buf, size, "M = %d on every rank", M);
    else if (strcmp(p->schedule, "1f1b") != 0)
        return false;
    else if (P == 1)
        snprintf(buf, size, "P-rank = 1");
    else
        snprintf(buf, size, "P-rank = %d .. 1 (rank 0 .. rank %d)", P < M ? P : M, P - 1);
    return true;
}

void closed_forms_find(const timeline *tl, const timeline_costs *c, closed_forms *out)
{
    *out = (closed_forms){0};
    schedule_forms(tl->program, c, out);
    /* The shared assumptions come first: they say why no form applies,
     * whatever the schedule's own conditions. */
    char why[CLOSED_FORM_WHY_MAX];
    if (out->has && !assumptions_hold(tl, c, why))
        snprintf(out->why_not, sizeof out->why_not, "%s", why);
    out->has_peak = tl->makespan > 0 && peak_form(tl->program, out->peak, sizeof out->peak);
}

void closed_forms_bubble_line(const timeline *tl, const timeline_costs *c, char *buf, size_t size)
{
    closed_forms m;
    closed_forms_find(tl, c, &m);
    int o = snprintf(buf, size, "bubble %.1f%%", 100 * tl->bubble_fraction);
    if (o < 0 || (size_t)o >= size)
        return;
    if (m.has && !m.why_not[0] && fabs(m.bubble_fraction.value - tl->bubble_fraction) <= 1e-9)
        snprintf(buf + o, size - (size_t)o, " = %s = %s", m.bubble_fraction.formula,
                 m.bubble_fraction.numbers);
    else
        snprintf(buf + o, size - (size_t)o, " = idle / (P × makespan)");
}
