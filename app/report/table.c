/* table.c - `ppflow schedule --format table`: the header, the per-rank
 * table and the metrics beside their closed forms. See report.h. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "closed_forms.h"
#include "error.h"
#include "number_text.h"
#include "program.h"
#include "terminal.h"

/* Equal but for rounding: a closed form that agrees with the simulation. */
static bool near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(1.0, fmax(fabs(a), fabs(b)));
}

/* The stages rank r holds: "0", "0,7", or "3,7,..,31 (8)" when there are many. */
static void stages_text(const program *p, int r, char *buf, size_t size)
{
    int held[4], n = 0, last = -1;
    for (int s = 0; s < p->stages; s++) {
        if (p->stage_rank[s] != r)
            continue;
        if (n < 4)
            held[n] = s;
        n++;
        last = s;
    }
    size_t o = 0;
    buf[0] = '\0';
    if (n == 0) {
        snprintf(buf, size, "-");
        return;
    }
    int shown = n <= 4 ? n : 2;
    for (int k = 0; k < shown && o < size; k++)
        o += (size_t)snprintf(buf + o, size - o, "%s%d", k ? "," : "", held[k]);
    if (n > 4 && o < size)
        snprintf(buf + o, size - o, ",..,%d (%d)", last, n);
}

/* "closed form (P-1)/(M+P-1) = 3/11 = 0.2727", or why it is not shown (the
 * reason only on the first metric: it is the same for all). */
static void print_form(FILE *f, const closed_form *cf, const closed_forms *forms, double simulated,
                       bool fraction, bool first)
{
    char v[NUMBER_TEXT_MAX];
    if (fraction)
        snprintf(v, sizeof v, "%.4f", cf->value);
    else
        number_text_format(cf->value, v);
    const char *why_not = forms->why_not;
    if (why_not[0] && first)
        fprintf(f, "closed form %s does not apply: %s", cf->formula, why_not);
    else if (why_not[0])
        fprintf(f, "closed form %s does not apply either", cf->formula);
    else if (near(cf->value, simulated))
        fprintf(f, "closed form %s = %s = %s", cf->formula, cf->numbers, v);
    else
        fprintf(f, "closed form %s = %s, which differs from the simulation", cf->formula, v);
}

/* A size with an SI prefix and the space before the unit: "1 G", "500 M",
 * "64.5 k", and "12 " (no prefix). */
static const char *si(double v, char *buf)
{
    static const char prefixes[] = " kMGTPE";
    int k = 0;
    while (fabs(v) >= 1000 && k < 6) {
        v /= 1000;
        k++;
    }
    char n[NUMBER_TEXT_MAX];
    snprintf(buf, NUMBER_TEXT_MAX, "%s %c", number_text_format(v, n), prefixes[k]);
    if (k == 0)
        buf[strlen(buf) - 1] = '\0'; /* drop the blank prefix, keep the space */
    return buf;
}

/* "4 per rank", or "ring of 1 GB at 500 MB per time unit, latency 0.001:
 * 3.006 per rank"; per stage when a rank holds several. */
static void print_allreduce_cost(FILE *f, const timeline_costs *c, int V)
{
    char a[NUMBER_TEXT_MAX], b[NUMBER_TEXT_MAX], d[NUMBER_TEXT_MAX];
    const allreduce_cost *ar = &c->allreduce;
    if (c->dp <= 1) {
        fputs("none (D = 1)", f);
        return;
    }
    switch (ar->mode) {
    case ALLREDUCE_NONE:
        fputs("takes no time (set --allreduce)", f);
        return;
    case ALLREDUCE_TIME:
        break;
    case ALLREDUCE_RING:
    case ALLREDUCE_TREE:
        fprintf(f, "%s of %sB at %sB per time unit, latency %s: ",
                ar->mode == ALLREDUCE_RING ? "ring" : "tree", si(ar->bytes, a),
                si(ar->bandwidth, b), number_text_format(ar->latency, d));
        break;
    }
    /* With V stages a rank runs V all-reduces of 1/V of its share each (the
     * latency term does not shrink), so only the per-stage time is exact. */
    if (V > 1)
        fprintf(f, "%s per stage", number_text_format(allreduce_stage_time(ar, c->dp, V), a));
    else
        fprintf(f, "%s per rank", number_text_format(allreduce_stage_time(ar, c->dp, 1), a));
}

enum { TABLE_MAX_ROWS = 64, TABLE_EDGE_ROWS = 16 };

typedef struct rank_row {
    char rank[16], stages[64], busy[NUMBER_TEXT_MAX], idle[NUMBER_TEXT_MAX],
        idle_pct[NUMBER_TEXT_MAX], peak[16], allreduce_end[NUMBER_TEXT_MAX];
} rank_row;

static void fill_row(const timeline *tl, const double *ar_end, int r, rank_row *row)
{
    const rank_metrics *m = &tl->per_rank[r];
    snprintf(row->rank, sizeof row->rank, "%d", r);
    stages_text(tl->program, r, row->stages, sizeof row->stages);
    number_text_format(m->busy, row->busy);
    number_text_format(m->idle, row->idle);
    snprintf(row->idle_pct, sizeof row->idle_pct, "%.1f%%",
             tl->makespan > 0 ? 100.0 * m->idle / tl->makespan : 0.0);
    snprintf(row->peak, sizeof row->peak, "%d", m->peak_activations);
    if (ar_end[r] < 0)
        snprintf(row->allreduce_end, sizeof row->allreduce_end, "-");
    else
        number_text_format(ar_end[r], row->allreduce_end);
}

static void print_rank_table(const timeline *tl, FILE *f)
{
    const program *p = tl->program;
    const int P = p->ranks;
    const bool has_ar = tl->dp > 1;
    double *ar_end = ppf_malloc(sizeof(double) * (size_t)P);
    for (int r = 0; r < P; r++)
        ar_end[r] = -1;
    for (int t = 0; t < tl->allreduce_count; t++) {
        const transfer *x = &tl->allreduces[t];
        if (x->end > ar_end[x->src_rank])
            ar_end[x->src_rank] = x->end;
    }

    /* Rows shown: all of them, or the first and last few of a wide pipeline. */
    const bool elide = P > TABLE_MAX_ROWS;
    const int shown = elide ? 2 * TABLE_EDGE_ROWS : P;
    rank_row *rows = ppf_malloc(sizeof(rank_row) * (size_t)shown);
    for (int k = 0; k < shown; k++)
        fill_row(tl, ar_end, elide && k >= TABLE_EDGE_ROWS ? P - shown + k : k, &rows[k]);

    static const char *const head[] = {"rank",   "stages",           "busy",          "idle",
                                       "idle %", "peak activations", "all-reduce end"};
    const int columns = has_ar ? 7 : 6;
    int width[7];
    for (int c = 0; c < 7; c++)
        width[c] = terminal_text_width(head[c]);
    for (int k = 0; k < shown; k++) {
        const char *cell[7] = {rows[k].rank,     rows[k].stages, rows[k].busy,         rows[k].idle,
                               rows[k].idle_pct, rows[k].peak,   rows[k].allreduce_end};
        for (int c = 0; c < 7; c++)
            if (terminal_text_width(cell[c]) > width[c])
                width[c] = terminal_text_width(cell[c]);
    }
    static const bool right[7] = {true, false, true, true, true, true, true};
    for (int c = 0; c < columns; c++) {
        if (c)
            fputs("  ", f);
        terminal_put_cell(f, head[c], width[c], right[c]);
    }
    fputc('\n', f);
    for (int k = 0; k < shown; k++) {
        if (elide && k == TABLE_EDGE_ROWS)
            fprintf(f, "%*s  (%d more ranks: see --format json)\n", width[0], "..", P - shown);
        const char *cell[7] = {rows[k].rank,     rows[k].stages, rows[k].busy,         rows[k].idle,
                               rows[k].idle_pct, rows[k].peak,   rows[k].allreduce_end};
        for (int c = 0; c < columns; c++) {
            if (c)
                fputs("  ", f);
            terminal_put_cell(f, cell[c], width[c], right[c]);
        }
        fputc('\n', f);
    }
    free(rows);
    free(ar_end);
}

/* The simulated peak activations: "4 .. 1" (largest .. smallest over the
 * ranks) or "8" when every rank has the same. */
static void peak_text(const timeline *tl, char *buf, size_t size)
{
    int lo = tl->per_rank[0].peak_activations, hi = lo;
    for (int r = 1; r < tl->program->ranks; r++) {
        int v = tl->per_rank[r].peak_activations;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    if (lo == hi)
        snprintf(buf, size, "%d", hi);
    else
        snprintf(buf, size, "%d .. %d", hi, lo);
}

/* The peak activations' closed form, which depends only on the order of
 * actions, not on the costs: "closed form P-rank = 4 .. 1 (rank 0 .. rank
 * 3)", and whether the simulation agrees. */
static void print_peak_form(const timeline *tl, const closed_forms *forms, FILE *f)
{
    bool match = true;
    for (int r = 0; r < tl->program->ranks; r++)
        match &= tl->per_rank[r].peak_activations == closed_forms_peak(tl->program, r);
    fprintf(f, "closed form %s%s", forms->peak, match ? "" : ", which differs from the simulation");
}

void report_table(const timeline *tl, const timeline_costs *c, FILE *f)
{
    const program *p = tl->program;
    const int P = p->ranks, V = p->stages_per_rank;
    const unsigned kinds = program_kind_mask(p);
    char a[NUMBER_TEXT_MAX], b[NUMBER_TEXT_MAX];

    fprintf(f,
            "schedule %s: %d rank%s (P), %d stage%s per rank (V), %d micro-batch%s (M), %d "
            "replica%s (D)\n",
            p->schedule, P, P == 1 ? "" : "s", V, V == 1 ? "" : "s", p->microbatches,
            p->microbatches == 1 ? "" : "es", tl->dp, tl->dp == 1 ? "" : "s");
    fputs("costs per rank:", f);
    fprintf(f, " F %s", number_text_list(c->f, P, a));
    if (kinds & 1u << ACTION_B)
        fprintf(f, ", B %s", number_text_list(c->b, P, a));
    if (kinds & 1u << ACTION_I)
        fprintf(f, ", I %s", number_text_list(c->i, P, a));
    if (kinds & 1u << ACTION_W)
        fprintf(f, ", W %s", number_text_list(c->w, P, a));
    if (kinds & 1u << ACTION_OVERLAP_F_B)
        fprintf(f, ", F&B %s", number_text_list(c->fb, P, a));
    if (V > 1)
        fprintf(f, " (each of a rank's %d stages runs at cost/%d)", V, V);
    fprintf(f, "; p2p %s; all-reduce: ", number_text_list(c->p2p, P, a));
    print_allreduce_cost(f, c, V);
    fputs("\n\n", f);

    print_rank_table(tl, f);
    fputc('\n', f);

    closed_forms forms;
    closed_forms_find(tl, c, &forms);
    enum { METRICS = 5 };
    char values[METRICS][NUMBER_TEXT_MAX];
    number_text_format(tl->makespan, values[0]);
    snprintf(values[1], NUMBER_TEXT_MAX, "%.4f", tl->bubble_fraction);
    snprintf(values[2], NUMBER_TEXT_MAX, "%.4f", tl->bubble_ratio);
    number_text_format(tl->allreduce_exposed, values[3]);
    peak_text(tl, values[4], NUMBER_TEXT_MAX);
    static const char *const labels[METRICS] = {"makespan", "bubble fraction", "bubble ratio",
                                                "exposed all-reduce", "peak activations"};
    const closed_form *cf[METRICS] = {&forms.makespan, &forms.bubble_fraction, &forms.bubble_ratio,
                                      NULL, NULL};
    const double simulated[METRICS] = {tl->makespan, tl->bubble_fraction, tl->bubble_ratio,
                                       tl->allreduce_exposed, 0};
    const int label_w = 20;
    int value_w = 0;
    for (int m = 0; m < METRICS; m++)
        if (terminal_text_width(values[m]) > value_w)
            value_w = terminal_text_width(values[m]);
    for (int m = 0; m < METRICS; m++) {
        terminal_put_cell(f, labels[m], label_w, false);
        const bool more = (forms.has && cf[m]) || m == 3 || (m == 4 && forms.has_peak);
        if (more)
            terminal_put_cell(f, values[m], value_w + 2, false);
        else
            fputs(values[m], f);
        if (forms.has && cf[m])
            print_form(f, cf[m], &forms, simulated[m], m == 1 || m == 2, m == 0);
        else if (m == 3 && tl->dp > 1)
            fprintf(f, "the last all-reduce ends at %s, the last compute at %s",
                    number_text_format(tl->makespan, a), number_text_format(tl->compute_end, b));
        else if (m == 3)
            fputs("no all-reduce (D = 1)", f);
        else if (m == 4 && forms.has_peak)
            print_peak_form(tl, &forms, f);
        fputc('\n', f);
    }
}
