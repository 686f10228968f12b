/* report.c - the table and the terminal Gantt chart of `ppflow schedule`. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "report.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "action.h"
#include "error.h"
#include "program.h"

/* ---- numbers and small helpers ------------------------------------------ */

enum { NUM_MAX = 48 };

/* A value as a person reads it: integers without decimals, others with at
 * most four, trailing zeros dropped ("28.5", "0.3333", "6333"). */
static const char *num(double v, char *buf)
{
    if (!isfinite(v) || fabs(v) >= 1e15) {
        snprintf(buf, NUM_MAX, "%.6g", v);
        return buf;
    }
    if (fabs(v - round(v)) < 1e-9) {
        snprintf(buf, NUM_MAX, "%.0f", round(v) == 0 ? 0.0 : round(v));
        return buf;
    }
    snprintf(buf, NUM_MAX, "%.4f", v);
    char *end = buf + strlen(buf);
    while (end > buf && end[-1] == '0')
        *--end = '\0';
    if (end > buf && end[-1] == '.')
        end[-1] = '\0';
    if (strcmp(buf, "-0") == 0)
        strcpy(buf, "0");
    return buf;
}

static bool near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(1.0, fmax(fabs(a), fabs(b)));
}

/* Display width of UTF-8 text: one column per code point (the glyphs used
 * here are all single-width). */
static int text_width(const char *s)
{
    int w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static void pad(FILE *f, int n)
{
    for (; n > 0; n--)
        fputc(' ', f);
}

/* Prints the parts on one line, three spaces apart, starting a new line
 * where the next part would pass the width (each part is shorter than the
 * narrowest width, REPORT_MIN_WIDTH). */
static void print_parts(FILE *f, const char *const *parts, int n, int width)
{
    int used = 0;
    for (int k = 0; k < n; k++) {
        int w = text_width(parts[k]);
        if (used && used + 3 + w >= width) {
            fputc('\n', f);
            used = 0;
        }
        if (used) {
            fputs("   ", f);
            used += 3;
        }
        fputs(parts[k], f);
        used += w;
    }
    fputc('\n', f);
}

/* Writes s left- or right-aligned in a field of `width` columns. */
static void put_cell(FILE *f, const char *s, int width, bool right)
{
    int w = text_width(s);
    if (right)
        pad(f, width - w);
    fputs(s, f);
    if (!right)
        pad(f, width - w);
}

/* ---- what a program contains ---------------------------------------------- */

typedef struct kinds_present {
    bool f, b, i, w, fb;
} kinds_present;

static kinds_present find_kinds(const program *p)
{
    kinds_present k = {0};
    for (int r = 0; r < p->ranks; r++)
        for (int j = 0; j < p->rank[r].count; j++)
            switch (p->rank[r].actions[j].kind) {
            case ACTION_F:
                k.f = true;
                break;
            case ACTION_B:
                k.b = true;
                break;
            case ACTION_I:
                k.i = true;
                break;
            case ACTION_W:
                k.w = true;
                break;
            case ACTION_OVERLAP_F_B:
                k.fb = true;
                break;
            default:
                break;
            }
    return k;
}

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

/* "2" for a uniform cost, "2..2.5" when ranks differ. */
static const char *cost_text(const double *v, int n, char *buf)
{
    char a[NUM_MAX], b[NUM_MAX];
    if (uniform(v, n))
        return num(v[0], buf);
    snprintf(buf, NUM_MAX, "%s..%s", num(list_min(v, n), a), num(list_max(v, n), b));
    return buf;
}

/* ---- the table --------------------------------------------------------------- */

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

/* When the textbook formula for a metric holds, the reason it may not. */
typedef struct form_conditions {
    bool applies;
    char why_not[160]; /* set when !applies */
} form_conditions;

/* Closed forms assume every rank costs the same, transfers are free and the
 * all-reduce hides behind compute; each breaks them in a way worth naming. */
static form_conditions check_conditions(const timeline *tl, const timeline_costs *c,
                                        const kinds_present *k)
{
    form_conditions fc = {.applies = true};
    const int P = c->ranks;
    if (!(tl->makespan > 0)) {
        fc.applies = false;
        snprintf(fc.why_not, sizeof fc.why_not, "the iteration takes no time");
        return fc;
    }
    char a[NUM_MAX], b[NUM_MAX];
    const char *name = NULL;
    const double *list = NULL;
    if (!uniform(c->f, P))
        name = "F", list = c->f;
    else if (k->b && !uniform(c->b, P))
        name = "B", list = c->b;
    else if (k->i && !uniform(c->i, P))
        name = "I", list = c->i;
    else if (k->w && !uniform(c->w, P))
        name = "W", list = c->w;
    else if (k->fb && !uniform(c->fb, P))
        name = "F&B", list = c->fb;
    if (name) {
        fc.applies = false;
        snprintf(fc.why_not, sizeof fc.why_not, "per-rank costs differ (%s from %s to %s)", name,
                 num(list_min(list, P), a), num(list_max(list, P), b));
        return fc;
    }
    if (list_max(c->p2p, P) > 0) {
        fc.applies = false;
        snprintf(fc.why_not, sizeof fc.why_not, "it assumes free transfers, p2p = %s",
                 cost_text(c->p2p, P, a));
        return fc;
    }
    if (tl->allreduce_exposed > 1e-9 * fmax(1.0, tl->makespan)) {
        fc.applies = false;
        snprintf(fc.why_not, sizeof fc.why_not, "the all-reduce ends %s after the last compute",
                 num(tl->allreduce_exposed, a));
    }
    return fc;
}

/* One metric's closed form: the formula, the formula with numbers, and its
 * value. */
typedef struct closed_form {
    const char *formula;
    char numbers[128];
    double value;
} closed_form;

typedef struct metric_forms {
    bool has;
    char why_not[160]; /* set when an assumption of the schedule's forms fails */
    closed_form makespan, fraction, ratio;
} metric_forms;

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

/* The textbook forms of the schedules that have them (uniform costs), with
 * the assumptions under which they match the simulation exactly (found by
 * simulating a grid of P, M, V and costs). */
static metric_forms closed_forms(const program *p, const timeline_costs *c)
{
    metric_forms m = {0};
    const int P = p->ranks, M = p->microbatches, V = p->stages_per_rank;
    const double F = c->f[0], B = c->b[0], I = c->i[0], W = c->w[0];
    char s1[NUM_MAX], s2[NUM_MAX], s3[NUM_MAX], s4[NUM_MAX];
    if (strcmp(p->schedule, "gpipe") == 0 || strcmp(p->schedule, "1f1b") == 0) {
        m.has = true;
        form(&m.makespan, "(M+P-1)(F+B)", (M + P - 1) * (F + B), "%d × %s", M + P - 1,
             num(F + B, s1));
        form(&m.fraction, "(P-1)/(M+P-1)", (double)(P - 1) / (M + P - 1), "%d/%d", P - 1,
             M + P - 1);
        form(&m.ratio, "(P-1)/M", (double)(P - 1) / M, "%d/%d", P - 1, M);
    } else if (strcmp(p->schedule, "interleaved-1f1b") == 0) {
        m.has = true;
        if (M < P)
            snprintf(m.why_not, sizeof m.why_not, "it assumes M >= P (here M = %d, P = %d)", M, P);
        double bubble = (P - 1) * (F + B) / V;
        form(&m.makespan, "M(F+B) + (P-1)(F+B)/V", M * (F + B) + bubble, "%d × %s + %d × %s/%d", M,
             num(F + B, s1), P - 1, num(F + B, s2), V);
        form(&m.fraction, "(P-1)/(V·M+P-1)", (double)(P - 1) / (V * M + P - 1), "%d/%d", P - 1,
             V * M + P - 1);
        form(&m.ratio, "(P-1)/(V·M)", (double)(P - 1) / (V * M), "%d/%d", P - 1, V * M);
    } else if (strcmp(p->schedule, "zb-h1") == 0) {
        /* The Zero Bubble paper's (P-1)(F+B-2W) with B the full backward
         * I+W: the W of each micro-batch fills part of the 1F1B bubble,
         * which it can only do while no W is longer than an F or an I. */
        m.has = true;
        if (M < P)
            snprintf(m.why_not, sizeof m.why_not, "it assumes M >= P (here M = %d, P = %d)", M, P);
        else if (W > F || W > I)
            snprintf(m.why_not, sizeof m.why_not,
                     "it assumes W <= F and W <= I (here F = %s, I = %s, W = %s)", num(F, s1),
                     num(I, s2), num(W, s3));
        double busy = M * (F + I + W), bubble = (P - 1) * (F + I - W);
        form(&m.makespan, "M(F+I+W) + (P-1)(F+I-W)", busy + bubble, "%d × %s + %d × %s", M,
             num(F + I + W, s1), P - 1, num(F + I - W, s2));
        form(&m.fraction, "(P-1)(F+I-W) / makespan", bubble / (busy + bubble), "%s/%s",
             num(bubble, s3), num(busy + bubble, s4));
        form(&m.ratio, "(P-1)(F+I-W) / M(F+I+W)", bubble / busy, "%s/%s", num(bubble, s3),
             num(busy, s4));
    }
    (void)B;
    return m;
}

void report_bubble_line(const timeline *tl, const timeline_costs *c, char *buf, size_t size)
{
    kinds_present k = find_kinds(tl->program);
    form_conditions fc = check_conditions(tl, c, &k);
    metric_forms m = closed_forms(tl->program, c);
    int o = snprintf(buf, size, "bubble %.1f%%", 100 * tl->bubble_fraction);
    if (o < 0 || (size_t)o >= size)
        return;
    if (m.has && fc.applies && !m.why_not[0] &&
        fabs(m.fraction.value - tl->bubble_fraction) <= 1e-9)
        snprintf(buf + o, size - (size_t)o, " = %s = %s", m.fraction.formula, m.fraction.numbers);
    else
        snprintf(buf + o, size - (size_t)o, " = idle / (P × makespan)");
}

/* "closed form (P-1)/(M+P-1) = 3/11 = 0.2727", or why it is not shown (the
 * reason only on the first metric: it is the same for all). */
static void print_form(FILE *f, const closed_form *cf, const form_conditions *fc,
                       const metric_forms *forms, double simulated, bool fraction, bool first)
{
    char v[NUM_MAX];
    if (fraction)
        snprintf(v, sizeof v, "%.4f", cf->value);
    else
        num(cf->value, v);
    const char *why_not = !fc->applies ? fc->why_not : forms->why_not;
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
    char n[NUM_MAX];
    snprintf(buf, NUM_MAX, "%s %c", num(v, n), prefixes[k]);
    if (k == 0)
        buf[strlen(buf) - 1] = '\0'; /* drop the blank prefix, keep the space */
    return buf;
}

/* "4 per rank", or "ring of 1 GB at 500 MB per time unit, latency 0.001:
 * 3.006 per rank"; per stage when a rank holds several. */
static void print_allreduce_cost(FILE *f, const timeline_costs *c, int V)
{
    char a[NUM_MAX], b[NUM_MAX], d[NUM_MAX];
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
                si(ar->bandwidth, b), num(ar->latency, d));
        break;
    }
    /* With V stages a rank runs V all-reduces of 1/V of its share each (the
     * latency term does not shrink), so only the per-stage time is exact. */
    if (V > 1)
        fprintf(f, "%s per stage", num(allreduce_stage_time(ar, c->dp, V), a));
    else
        fprintf(f, "%s per rank", num(allreduce_stage_time(ar, c->dp, 1), a));
}

enum { TABLE_MAX_ROWS = 64, TABLE_EDGE_ROWS = 16 };

typedef struct rank_row {
    char rank[16], stages[64], busy[NUM_MAX], idle[NUM_MAX], idle_pct[NUM_MAX], peak[16],
        allreduce_end[NUM_MAX];
} rank_row;

static void fill_row(const timeline *tl, const double *ar_end, int r, rank_row *row)
{
    const rank_metrics *m = &tl->per_rank[r];
    snprintf(row->rank, sizeof row->rank, "%d", r);
    stages_text(tl->program, r, row->stages, sizeof row->stages);
    num(m->busy, row->busy);
    num(m->idle, row->idle);
    snprintf(row->idle_pct, sizeof row->idle_pct, "%.1f%%",
             tl->makespan > 0 ? 100.0 * m->idle / tl->makespan : 0.0);
    snprintf(row->peak, sizeof row->peak, "%d", m->peak_activations);
    if (ar_end[r] < 0)
        snprintf(row->allreduce_end, sizeof row->allreduce_end, "-");
    else
        num(ar_end[r], row->allreduce_end);
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
        width[c] = text_width(head[c]);
    for (int k = 0; k < shown; k++) {
        const char *cell[7] = {rows[k].rank,     rows[k].stages, rows[k].busy,         rows[k].idle,
                               rows[k].idle_pct, rows[k].peak,   rows[k].allreduce_end};
        for (int c = 0; c < 7; c++)
            if (text_width(cell[c]) > width[c])
                width[c] = text_width(cell[c]);
    }
    static const bool right[7] = {true, false, true, true, true, true, true};
    for (int c = 0; c < columns; c++) {
        if (c)
            fputs("  ", f);
        put_cell(f, head[c], width[c], right[c]);
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
            put_cell(f, cell[c], width[c], right[c]);
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

static bool has_peak_form(const program *p)
{
    return strcmp(p->schedule, "1f1b") == 0 || strcmp(p->schedule, "gpipe") == 0;
}

/* The 1F1B or GPipe closed form of the peak activations, which depends only
 * on the order of actions, not on the costs. */
static void print_peak_form(const timeline *tl, FILE *f)
{
    const program *p = tl->program;
    const int P = p->ranks, M = p->microbatches;
    if (!has_peak_form(p) || !(tl->makespan > 0))
        return;
    const bool is_gpipe = strcmp(p->schedule, "gpipe") == 0;
    bool match = true;
    for (int r = 0; r < P; r++) {
        int expect = is_gpipe ? M : (P - r < M ? P - r : M);
        match &= tl->per_rank[r].peak_activations == expect;
    }
    const char *differs = match ? "" : ", which differs from the simulation";
    if (is_gpipe)
        fprintf(f, "closed form M = %d on every rank%s", M, differs);
    else if (P == 1)
        fprintf(f, "closed form P-rank = 1%s", differs);
    else
        fprintf(f, "closed form P-rank = %d .. 1 (rank 0 .. rank %d)%s", P < M ? P : M, P - 1,
                differs);
}

void report_table(const timeline *tl, const timeline_costs *c, FILE *f)
{
    const program *p = tl->program;
    const int P = p->ranks, V = p->stages_per_rank;
    const kinds_present k = find_kinds(p);
    char a[NUM_MAX], b[NUM_MAX];

    fprintf(f,
            "schedule %s: %d rank%s (P), %d stage%s per rank (V), %d micro-batch%s (M), %d "
            "replica%s (D)\n",
            p->schedule, P, P == 1 ? "" : "s", V, V == 1 ? "" : "s", p->microbatches,
            p->microbatches == 1 ? "" : "es", tl->dp, tl->dp == 1 ? "" : "s");
    fputs("costs per rank:", f);
    fprintf(f, " F %s", cost_text(c->f, P, a));
    if (k.b)
        fprintf(f, ", B %s", cost_text(c->b, P, a));
    if (k.i)
        fprintf(f, ", I %s", cost_text(c->i, P, a));
    if (k.w)
        fprintf(f, ", W %s", cost_text(c->w, P, a));
    if (k.fb)
        fprintf(f, ", F&B %s", cost_text(c->fb, P, a));
    if (V > 1)
        fprintf(f, " (each of a rank's %d stages runs at cost/%d)", V, V);
    fprintf(f, "; p2p %s; all-reduce: ", cost_text(c->p2p, P, a));
    print_allreduce_cost(f, c, V);
    fputs("\n\n", f);

    print_rank_table(tl, f);
    fputc('\n', f);

    const form_conditions fc = check_conditions(tl, c, &k);
    const metric_forms forms = closed_forms(p, c);
    enum { METRICS = 5 };
    char values[METRICS][NUM_MAX];
    num(tl->makespan, values[0]);
    snprintf(values[1], NUM_MAX, "%.4f", tl->bubble_fraction);
    snprintf(values[2], NUM_MAX, "%.4f", tl->bubble_ratio);
    num(tl->allreduce_exposed, values[3]);
    peak_text(tl, values[4], NUM_MAX);
    static const char *const labels[METRICS] = {"makespan", "bubble fraction", "bubble ratio",
                                                "exposed all-reduce", "peak activations"};
    const closed_form *cf[METRICS] = {&forms.makespan, &forms.fraction, &forms.ratio, NULL, NULL};
    const double simulated[METRICS] = {tl->makespan, tl->bubble_fraction, tl->bubble_ratio,
                                       tl->allreduce_exposed, 0};
    const int label_w = 20;
    int value_w = 0;
    for (int m = 0; m < METRICS; m++)
        if (text_width(values[m]) > value_w)
            value_w = text_width(values[m]);
    for (int m = 0; m < METRICS; m++) {
        put_cell(f, labels[m], label_w, false);
        const bool more =
            (forms.has && cf[m]) || m == 3 || (m == 4 && has_peak_form(p) && tl->makespan > 0);
        if (more)
            put_cell(f, values[m], value_w + 2, false);
        else
            fputs(values[m], f);
        if (forms.has && cf[m])
            print_form(f, cf[m], &fc, &forms, simulated[m], m == 1 || m == 2, m == 0);
        else if (m == 3 && tl->dp > 1)
            fprintf(f, "the last all-reduce ends at %s, the last compute at %s",
                    num(tl->makespan, a), num(tl->compute_end, b));
        else if (m == 3)
            fputs("no all-reduce (D = 1)", f);
        else if (m == 4)
            print_peak_form(tl, f);
        fputc('\n', f);
    }
}

/* ---- the Gantt chart --------------------------------------------------------- */

/* What a chart cell shows. The kinds double as indexes into the style table. */
enum cell_kind { CELL_IDLE = 0, CELL_F, CELL_B, CELL_I, CELL_W, CELL_FB, CELL_AR, CELL_KINDS };

typedef struct cell_style {
    const char *letter;  /* kind letter in labels and compressed cells */
    const char *fill;    /* plain text: the rest of a block */
    unsigned rgb;        /* Okabe-Ito colour (24-bit) */
    int xterm;           /* nearest 256-colour index */
    int xterm_shade;     /* a darker 256-colour neighbour, for adjacent blocks */
    bool dark_text;      /* black rather than white text on it */
    const char *sample;  /* legend: what a block looks like */
    const char *meaning; /* legend: what it is */
} cell_style;

static const cell_style styles[CELL_KINDS] = {
    [CELL_IDLE] = {"·", "·", 0x606060, 242, 242, false, "··", "idle"},
    [CELL_F] = {"F", "─", 0x0072B2, 25, 24, false, "F3", "forward of micro-batch 3"},
    [CELL_B] = {"B", "━", 0xD55E00, 166, 130, false, "B3", "backward"},
    [CELL_I] = {"I", "╌", 0xE69F00, 214, 172, true, "I3", "backward for inputs"},
    [CELL_W] = {"W", "┈", 0x009E73, 36, 29, true, "W3", "backward for weights"},
    [CELL_FB] = {"&", "═", 0xCC79A7, 175, 132, true, "F7B3",
                 "F of 7 overlapped with B of 3"},
    [CELL_AR] = {"A", "═", 0xCC79A7, 175, 132, true, "A5", "all-reduce of stage 5"},
};

static int cell_kind_of(int action_kind)
{
    switch (action_kind) {
    case ACTION_F:
        return CELL_F;
    case ACTION_B:
        return CELL_B;
    case ACTION_I:
        return CELL_I;
    case ACTION_W:
        return CELL_W;
    case ACTION_OVERLAP_F_B:
        return CELL_FB;
    default:
        return CELL_IDLE;
    }
}

/* Accumulated occupancy of one column of one row. */
typedef struct cell_acc {
    double time[CELL_KINDS]; /* busy time per kind (CELL_IDLE unused) */
    double best_time;        /* longest single item in the cell */
    int best;                /* that item (action index or all-reduce index), -1 none */
} cell_acc;

/* What one column finally shows. */
typedef struct cell_pick {
    int kind;     /* enum cell_kind */
    int item;     /* the action or all-reduce that fills most of it, or -1 */
    int second;   /* runner-up busy kind in a compressed column, or CELL_IDLE */
    double share; /* the runner-up's share of the column's busy time */
} cell_pick;

typedef struct gantt {
    FILE *f;
    bool colour, truecolour;
    int width;       /* of the whole chart, labels included */
    int cols;        /* chart columns */
    int label_w;     /* row label width */
    double scale;    /* time units per column */
    bool compressed; /* the iteration is wider than the chart: scale > 1 column per unit */
    double makespan;
    cell_acc *acc;   /* [cols] */
    cell_pick *pick; /* [cols] */
} gantt;

static void acc_reset(gantt *g)
{
    for (int c = 0; c < g->cols; c++)
        g->acc[c] = (cell_acc){.best = -1};
}

/* Adds the interval [t0, t1) of `kind`, drawn as `item`, to the row.
 * Uncompressed, the interval snaps to the nearest column boundaries, so
 * that blocks of equal cost get equal widths even when p2p time shifts them
 * off the grid (a rank's intervals do not overlap, and rounding keeps their
 * order). */
static void acc_add(gantt *g, double t0, double t1, int kind, int item)
{
    if (!(t1 > t0))
        return;
    if (!g->compressed) {
        t0 = round(t0 / g->scale) * g->scale;
        t1 = round(t1 / g->scale) * g->scale;
        if (!(t1 > t0))
            return;
    }
    int c0 = (int)floor(t0 / g->scale + 1e-9), c1 = (int)ceil(t1 / g->scale - 1e-9);
    if (c0 < 0)
        c0 = 0;
    if (c1 > g->cols)
        c1 = g->cols;
    for (int c = c0; c < c1; c++) {
        double a = fmax(t0, c * g->scale), b = fmin(t1, (c + 1) * g->scale);
        if (b <= a)
            continue;
        cell_acc *x = &g->acc[c];
        x->time[kind] += b - a;
        if (b - a > x->best_time) {
            x->best_time = b - a;
            x->best = item;
        }
    }
}

/* Each column shows its dominant kind (idle included); it belongs to one
 * item only when that item fills at least half of it, so a compressed column
 * never carries a label that would misname what it holds. `item_kind` gives
 * the kind of an item. */
static void acc_pick(gantt *g, int (*item_kind)(const void *, int), const void *ctx)
{
    for (int c = 0; c < g->cols; c++) {
        const cell_acc *x = &g->acc[c];
        double span = fmin((c + 1) * g->scale, g->makespan) - c * g->scale;
        double busy = 0, best = 0, next = 0;
        int kind = CELL_IDLE, second = CELL_IDLE;
        for (int k = 1; k < CELL_KINDS; k++) {
            busy += x->time[k];
            if (x->time[k] > best) {
                next = best, second = kind;
                best = x->time[k];
                kind = k;
            } else if (x->time[k] > next) {
                next = x->time[k];
                second = k;
            }
        }
        if (span - busy > best)
            kind = second = CELL_IDLE;
        int item = -1;
        if (kind != CELL_IDLE && x->best >= 0 && x->best_time >= 0.5 * span &&
            item_kind(ctx, x->best) == kind)
            item = x->best;
        /* Compressed, blocks fall on arbitrary columns and labels would
         * come and go; the kinds alone read more cleanly. */
        if (g->compressed)
            item = -1;
        g->pick[c] = (cell_pick){kind, item, second, busy > 0 ? next / busy : 0};
    }
}

/* Sets the colours of a cell of `kind`: its colour as the background (with
 * readable text on it) or, for idle cells and the all-reduce summary, as the
 * text colour. `shade` picks a darker variant, which tells apart adjacent
 * blocks of one kind. */
static void colour_on(const gantt *g, int kind, bool as_background, bool shade)
{
    if (!g->colour)
        return;
    const cell_style *s = &styles[kind];
    unsigned rgb = s->rgb;
    if (shade)
        rgb = (((rgb >> 16) & 255) * 2 / 3) << 16 | (((rgb >> 8) & 255) * 2 / 3) << 8 |
              (rgb & 255) * 2 / 3;
    const int ground = as_background ? 48 : 38;
    if (g->truecolour)
        fprintf(g->f, "\x1b[%d;2;%u;%u;%um", ground, rgb >> 16, (rgb >> 8) & 255, rgb & 255);
    else
        fprintf(g->f, "\x1b[%d;5;%dm", ground, shade ? s->xterm_shade : s->xterm);
    if (as_background)
        fputs(s->dark_text ? "\x1b[30m" : "\x1b[97m", g->f);
}

static void colour_off(const gantt *g)
{
    if (g->colour)
        fputs("\x1b[0m", g->f);
}

/* Labels of a block, longest first: variant 0 is the full label ("F3",
 * "B3", "F7B3" for an overlapped pair, "A5" for the all-reduce of stage 5),
 * variant 1 a shorter one ("7/3" for a pair; the bare number when colour
 * tells the kind). Returns false when there is no such variant. */
typedef bool (*label_fn)(const void *ctx, int item, int variant, bool colour, char *buf,
                         size_t size);

/* A compressed column in colour: its dominant kind as the background and,
 * when a second kind has a fair share of the column (1F1B's steady state
 * is a third F and two thirds B), that kind as a left bar of proportional
 * width (in eighths), so mixed stretches do not look like one kind. The
 * colours in force are the dominant kind's; they are restored after. */
static void draw_mixed(const gantt *g, const cell_pick *pk, bool shade)
{
    static const char *const eighths[8] = {" ", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
    int n = (int)lround(pk->share * 8);
    if (pk->second == CELL_IDLE || pk->share < 0.2 || n < 1) {
        fputc(' ', g->f);
        return;
    }
    colour_on(g, pk->second, false, false);
    fputs(eighths[n > 7 ? 7 : n], g->f);
    colour_off(g);
    colour_on(g, pk->kind, true, shade);
}

/* A label must not run into the next block's. In colour, adjacent blocks
 * differ in shade, so any label that fits will do; in plain text one that
 * starts with a digit ("12", "7/3") needs a spare column after it unless it
 * is one character in one column, while one that starts with a letter
 * ("F12") marks its own start. */
static bool label_fits(const char *text, int w, int run, bool colour)
{
    if (w < run)
        return true;
    return w == run && (colour || w == 1 || !(text[0] >= '0' && text[0] <= '9'));
}

/* Writes one row of picked cells: each run of columns held by one item is a
 * block that starts with the item's label (or its kind letter when no label
 * fits); columns without an item show their kind's letter (or colour), idle
 * ones '·'. */
static void draw_row(const gantt *g, const char *label, label_fn labeller, const void *ctx)
{
    FILE *f = g->f;
    put_cell(f, label, g->label_w, false);
    fputc(' ', f);
    int c = 0, current = -1, prev_kind = -1;
    bool shade = false, current_shade = false;
    while (c < g->cols) {
        const cell_pick *pk = &g->pick[c];
        int run = 1;
        if (pk->item >= 0)
            while (c + run < g->cols && g->pick[c + run].item == pk->item &&
                   g->pick[c + run].kind == pk->kind)
                run++;
        else
            while (c + run < g->cols && g->pick[c + run].item < 0 &&
                   g->pick[c + run].kind == pk->kind)
                run++;
        const cell_style *s = &styles[pk->kind];
        shade = pk->kind != CELL_IDLE && pk->kind == prev_kind ? !shade : false;
        prev_kind = pk->kind;
        if (pk->kind != current || shade != current_shade) {
            colour_off(g);
            colour_on(g, pk->kind, pk->kind != CELL_IDLE, shade);
            current = pk->kind;
            current_shade = shade;
        }
        if (pk->kind == CELL_IDLE) {
            for (int k = 0; k < run; k++)
                fputs(s->fill, f);
        } else if (pk->item >= 0) {
            char text[ACTION_TEXT_MAX];
            int w = 0;
            bool fits = false;
            for (int variant = 0; variant < 2 && !fits; variant++)
                if (labeller(ctx, pk->item, variant, g->colour, text, sizeof text))
                    fits = label_fits(text, w = (int)strlen(text), run, g->colour);
            if (!fits) {
                strcpy(text, s->letter);
                w = 1;
            }
            if (g->colour)
                fputs("\x1b[1m", f);
            fputs(text, f);
            if (g->colour) {
                fputs("\x1b[22m", f);
                pad(f, run - w);
            } else {
                for (int k = w; k < run; k++)
                    fputs(s->fill, f);
            }
        } else if (!g->colour) {
            for (int k = 0; k < run; k++)
                fputs(s->letter, f);
        } else {
            for (int k = 0; k < run; k++)
                draw_mixed(g, &g->pick[c + k], shade);
        }
        c += run;
    }
    colour_off(g);
    fputc('\n', f);
}

/* ---- rows of compute ---- */

typedef struct rank_ctx {
    const program_rank *pr;
} rank_ctx;

static int rank_item_kind(const void *ctx, int item)
{
    const rank_ctx *rc = ctx;
    return cell_kind_of(rc->pr->actions[item].kind);
}

static bool rank_label(const void *ctx, int item, int variant, bool colour, char *buf, size_t size)
{
    const action *a = &((const rank_ctx *)ctx)->pr->actions[item];
    if (a->kind == ACTION_OVERLAP_F_B)
        snprintf(buf, size, variant ? "%d/%d" : "F%dB%d", a->microbatch, a->microbatch2);
    else if (variant == 0)
        snprintf(buf, size, "%s%d", styles[cell_kind_of(a->kind)].letter, a->microbatch);
    else if (colour)
        snprintf(buf, size, "%d", a->microbatch);
    else
        return false;
    return true;
}

/* ---- rows of all-reduce ---- */

typedef struct ar_ctx {
    const timeline *tl;
} ar_ctx;

static int ar_item_kind(const void *ctx, int item)
{
    (void)ctx;
    (void)item;
    return CELL_AR;
}

static bool ar_label(const void *ctx, int item, int variant, bool colour, char *buf, size_t size)
{
    const transfer *x = &((const ar_ctx *)ctx)->tl->allreduces[item];
    (void)colour;
    snprintf(buf, size, variant ? "%d" : "A%d", x->stage);
    return true;
}

/* One row for all ranks' all-reduces: how many ranks are reducing in each
 * column, as a shade from ░ (a few) to █ (all). */
static void draw_allreduce_summary(gantt *g, const timeline *tl)
{
    const int P = tl->program->ranks;
    acc_reset(g);
    for (int t = 0; t < tl->allreduce_count; t++)
        acc_add(g, tl->allreduces[t].start, tl->allreduces[t].end, CELL_AR, t);
    put_cell(g->f, "all-reduce", g->label_w, false);
    fputc(' ', g->f);
    colour_on(g, CELL_AR, false, false);
    static const char *const shades[] = {" ", "░", "▒", "▓", "█"};
    for (int c = 0; c < g->cols; c++) {
        double span = fmin((c + 1) * g->scale, g->makespan) - c * g->scale;
        double ranks_busy =
            span > 0 ? g->acc[c].time[CELL_AR] / span : 0; /* average ranks reducing */
        int level = ranks_busy <= 0 ? 0 : (int)ceil(4.0 * ranks_busy / P);
        fputs(shades[level > 4 ? 4 : level], g->f);
    }
    colour_off(g);
    fputc('\n', g->f);
}

/* ---- axis and legend ---- */

/* A step of 1, 2 or 5 times a power of ten, at least `min`. */
static double nice_step(double min)
{
    double p = pow(10, floor(log10(min)));
    for (;;) {
        if (p >= min)
            return p;
        if (2 * p >= min)
            return 2 * p;
        if (5 * p >= min)
            return 5 * p;
        p *= 10;
    }
}

static void draw_axis(const gantt *g)
{
    FILE *f = g->f;
    const double step = nice_step(10 * g->scale);
    const int ticks = (int)floor(g->makespan / step + 1e-9) + 1;
    char *marks = ppf_malloc((size_t)g->cols);
    memset(marks, 0, (size_t)g->cols);
    for (int k = 0; k < ticks; k++) {
        int c = (int)floor(k * step / g->scale + 1e-9);
        if (c < g->cols)
            marks[c] = 1;
    }
    pad(f, g->label_w + 1);
    for (int c = 0; c < g->cols; c++)
        fputs(c == 0 ? "└" : marks[c] ? "┴" : "─", f);
    fputc('\n', f);

    /* Labels start at their tick; one is skipped when it would touch the
     * previous one or run past the width. */
    pad(f, g->label_w + 1);
    int at = 0;
    for (int k = 0; k < ticks; k++) {
        int c = (int)floor(k * step / g->scale + 1e-9);
        char text[NUM_MAX];
        num(k * step, text);
        int w = (int)strlen(text);
        if ((k > 0 && c < at + 1) || g->label_w + 1 + c + w >= g->width)
            continue;
        pad(f, c - at);
        fputs(text, f);
        at = c + w;
    }
    static const char unit[] = " (time units)";
    if (g->label_w + 1 + at + (int)strlen(unit) < g->width)
        fputs(unit, f);
    fputc('\n', f);
    free(marks);
}

static void draw_legend(const gantt *g, const kinds_present *k, bool allreduce_rows, int width)
{
    FILE *f = g->f;
    const bool present[CELL_KINDS] = {true, k->f, k->b, k->i, k->w, k->fb, allreduce_rows};
    static const int order[] = {CELL_F, CELL_B, CELL_I, CELL_W, CELL_FB, CELL_AR, CELL_IDLE};
    int used = 0;
    for (size_t j = 0; j < sizeof order / sizeof order[0]; j++) {
        int kind = order[j];
        if (!present[kind])
            continue;
        int w = text_width(styles[kind].sample) + 1 + text_width(styles[kind].meaning);
        if (used && used + 3 + w > width) {
            fputc('\n', f);
            used = 0;
        }
        if (used) {
            fputs("   ", f);
            used += 3;
        }
        colour_on(g, kind, kind != CELL_IDLE, false);
        if (g->colour && kind != CELL_IDLE)
            fputs("\x1b[1m", f);
        fputs(styles[kind].sample, f);
        colour_off(g);
        fprintf(f, " %s", styles[kind].meaning);
        used += w;
    }
    fputc('\n', f);
}

/* True when every compute action starts and ends on a column boundary at
 * `per_unit` columns per time unit (checked on the first actions only:
 * programs short enough to be drawn uncompressed are small). */
static bool aligned(const timeline *tl, int per_unit)
{
    const program *p = tl->program;
    long checked = 0;
    for (int r = 0; r < p->ranks; r++)
        for (int j = 0; j < p->rank[r].count && checked < 100000; j++, checked++) {
            double a = tl->time[r][j].start * per_unit, b = tl->time[r][j].end * per_unit;
            if (fabs(a - round(a)) > 1e-6 || fabs(b - round(b)) > 1e-6)
                return false;
        }
    return true;
}

/* Columns per time unit for an iteration that fits: the most (up to 8, up
 * to `fits`) at which every block has whole columns, so blocks of equal
 * cost look equal; blocks split 1.5 columns apiece read worse than a
 * narrower chart. */
static int columns_per_unit(const timeline *tl, int fits)
{
    int most = fits > 8 ? 8 : fits < 1 ? 1 : fits;
    for (int k = most; k >= 1; k--)
        if (aligned(tl, k))
            return k;
    return most;
}

static bool env_truecolour(void)
{
    const char *ct = getenv("COLORTERM");
    return ct && (strstr(ct, "truecolor") || strstr(ct, "24bit"));
}

void report_gantt(const timeline *tl, FILE *f, int width, bool colour)
{
    const program *p = tl->program;
    const int P = p->ranks;
    const kinds_present k = find_kinds(p);
    if (width < REPORT_MIN_WIDTH)
        width = REPORT_MIN_WIDTH;
    if (width > REPORT_MAX_WIDTH)
        width = REPORT_MAX_WIDTH;

    const bool ar_any = tl->allreduce_count > 0;
    bool ar_rows = false;
    for (int t = 0; t < tl->allreduce_count; t++)
        ar_rows |= tl->allreduces[t].end > tl->allreduces[t].start;
    const bool ar_per_rank = ar_rows && P <= 16;

    char label[32];
    snprintf(label, sizeof label, "rank %d", P - 1);
    int label_w = text_width(label);
    if (ar_rows)
        label_w = label_w > 10 ? label_w : 10; /* "all-reduce", "  AR 15" */

    gantt g = {.f = f,
               .colour = colour,
               .truecolour = env_truecolour(),
               .width = width,
               .label_w = label_w,
               .makespan = tl->makespan};
    int avail = width - label_w - 2;
    char a[NUM_MAX], b[NUM_MAX], parts[4][96];
    snprintf(parts[0], sizeof parts[0], "%s  P=%d V=%d M=%d D=%d", p->schedule, P,
             p->stages_per_rank, p->microbatches, tl->dp);
    snprintf(parts[1], sizeof parts[1], "makespan %s", num(tl->makespan, a));
    snprintf(parts[2], sizeof parts[2], "bubble %.1f%%", 100.0 * tl->bubble_fraction);
    if (!(tl->makespan > 0)) {
        snprintf(parts[2], sizeof parts[2], "(nothing to draw: it takes no time)");
        print_parts(f, (const char *const[]){parts[0], parts[1], parts[2]}, 3, width);
        return;
    }
    /* Whole columns per time unit when the iteration fits, so blocks of
     * integer costs line up exactly; otherwise the iteration fills the width
     * and each column shows its dominant kind. */
    if (tl->makespan <= avail) {
        int per_unit = columns_per_unit(tl, (int)floor(avail / tl->makespan));
        g.scale = 1.0 / per_unit;
        snprintf(parts[3], sizeof parts[3], "(%d column%s per time unit)", per_unit,
                 per_unit == 1 ? "" : "s");
    } else {
        g.scale = tl->makespan / avail;
        g.compressed = true;
        snprintf(parts[3], sizeof parts[3], "(1 column = %s time units)", num(g.scale, b));
    }
    print_parts(f, (const char *const[]){parts[0], parts[1], parts[2], parts[3]}, 4, width);
    g.cols = (int)ceil(tl->makespan / g.scale - 1e-9);
    if (g.cols < 1)
        g.cols = 1;
    g.acc = ppf_malloc(sizeof(cell_acc) * (size_t)g.cols);
    g.pick = ppf_malloc(sizeof(cell_pick) * (size_t)g.cols);

    for (int r = 0; r < P; r++) {
        const program_rank *pr = &p->rank[r];
        rank_ctx rc = {pr};
        acc_reset(&g);
        for (int j = 0; j < pr->count; j++) {
            int kind = cell_kind_of(pr->actions[j].kind);
            if (kind != CELL_IDLE)
                acc_add(&g, tl->time[r][j].start, tl->time[r][j].end, kind, j);
        }
        acc_pick(&g, rank_item_kind, &rc);
        snprintf(label, sizeof label, "rank %d", r);
        draw_row(&g, label, rank_label, &rc);
    }

    if (ar_per_rank) {
        ar_ctx ac = {tl};
        for (int r = 0; r < P; r++) {
            acc_reset(&g);
            for (int t = 0; t < tl->allreduce_count; t++) {
                const transfer *x = &tl->allreduces[t];
                if (x->src_rank == r)
                    acc_add(&g, x->start, x->end, CELL_AR, t);
            }
            acc_pick(&g, ar_item_kind, &ac);
            snprintf(label, sizeof label, "  AR %d", r);
            draw_row(&g, label, ar_label, &ac);
        }
    } else if (ar_rows) {
        draw_allreduce_summary(&g, tl);
    }
    draw_axis(&g);
    draw_legend(&g, &k, ar_rows, width);
    if (ar_any && !ar_rows) {
        char replicas[48];
        snprintf(replicas, sizeof replicas, "all-reduce: D=%d replicas,", tl->dp);
        print_parts(f, (const char *const[]){replicas, "but it takes no time (set --allreduce)"},
                    2, width);
    } else if (ar_rows && !ar_per_rank) {
        print_parts(f, (const char *const[]){"all-reduce row: share of ranks reducing,", "░ few .. █ all"},
                    2, width);
    }
    free(g.acc);
    free(g.pick);
}

/* ---- terminal ---------------------------------------------------------------- */

int report_terminal_width(FILE *f)
{
    const char *env = getenv("COLUMNS");
    if (env && *env) {
        char *end;
        long v = strtol(env, &end, 10);
        if (*end == '\0' && v > 0)
            return v < REPORT_MIN_WIDTH   ? REPORT_MIN_WIDTH
                   : v > REPORT_MAX_WIDTH ? REPORT_MAX_WIDTH
                                          : (int)v;
    }
#ifdef TIOCGWINSZ
    struct winsize ws;
    if (isatty(fileno(f)) && ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col < REPORT_MIN_WIDTH ? REPORT_MIN_WIDTH : ws.ws_col;
#endif
    return REPORT_DEFAULT_WIDTH;
}

bool report_want_colour(FILE *f)
{
    const char *no = getenv("NO_COLOR");
    if (no && *no)
        return false;
    return isatty(fileno(f));
}
