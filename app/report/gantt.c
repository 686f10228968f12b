/* gantt.c - `ppflow schedule --format gantt`: the iteration as a Unicode
 * Gantt chart in a terminal's width, in the window's colours. See report.h. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "action.h"
#include "error.h"
#include "number_text.h"
#include "program.h"
#include "terminal.h"
#include "theme.h"

/* What a chart cell shows. The kinds double as indexes into the style table. */
enum cell_kind { CELL_IDLE = 0, CELL_F, CELL_B, CELL_I, CELL_W, CELL_FB, CELL_AR, CELL_KINDS };

typedef struct cell_style {
    const char *letter;  /* kind letter in labels and compressed cells */
    const char *fill;    /* plain text: the rest of a block */
    const char *sample;  /* legend: what a block looks like */
    const char *meaning; /* legend: what it is */
} cell_style;

static const cell_style styles[CELL_KINDS] = {
    [CELL_IDLE] = {"·", "·", "··", "idle"},
    [CELL_F] = {"F", "─", "F3", "forward of micro-batch 3"},
    [CELL_B] = {"B", "━", "B3", "backward"},
    [CELL_I] = {"I", "╌", "I3", "backward for inputs"},
    [CELL_W] = {"W", "┈", "W3", "backward for weights"},
    [CELL_FB] = {"&", "═", "F7B3", "F of 7 overlapped with B of 3"},
    [CELL_AR] = {"A", "═", "A5", "all-reduce of stage 5"},
};

/* The colour of each cell kind: the window's (theme.h). Terminals are dark
 * more often than not, so the dark theme's; the kinds' colours are the same
 * in both. Idle time is dim text, as secondary text is in the window. */
static void cell_colours(rgba8 out[CELL_KINDS])
{
    const theme th = theme_get(THEME_DARK);
    out[CELL_IDLE] = th.text_dim;
    out[CELL_F] = theme_action_colour(&th.timeline, ACTION_F);
    out[CELL_B] = theme_action_colour(&th.timeline, ACTION_B);
    out[CELL_I] = theme_action_colour(&th.timeline, ACTION_I);
    out[CELL_W] = theme_action_colour(&th.timeline, ACTION_W);
    out[CELL_FB] = theme_action_colour(&th.timeline, ACTION_OVERLAP_F_B);
    out[CELL_AR] = th.timeline.allreduce;
}

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
    bool colour;
    terminal_colours mode;     /* with colour: 256 or 24-bit */
    rgba8 colours[CELL_KINDS]; /* with colour: cell_colours */
    int width;                 /* of the whole chart, labels included */
    int cols;                  /* chart columns */
    int label_w;               /* row label width */
    double scale;              /* time units per column */
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

/* Sets the colours of a cell of `kind`: its colour as the background, with
 * the label ink the window would pick on it, or, for idle cells and the
 * all-reduce summary, as the text colour. `shade` darkens it by a third,
 * which tells apart adjacent blocks of one kind. */
static void colour_on(const gantt *g, int kind, bool as_background, bool shade)
{
    if (!g->colour)
        return;
    rgba8 c = g->colours[kind];
    if (shade)
        c = colour_darken(c, 1.0f / 3);
    terminal_set_colour(g->f, g->mode, c, as_background);
    if (as_background)
        terminal_set_label_on(g->f, c);
}

static void colour_off(const gantt *g)
{
    if (g->colour)
        terminal_reset(g->f);
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
    terminal_put_cell(f, label, g->label_w, false);
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
                terminal_set_bold(f, true);
            fputs(text, f);
            if (g->colour) {
                terminal_set_bold(f, false);
                terminal_pad(f, run - w);
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
    terminal_put_cell(g->f, "all-reduce", g->label_w, false);
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
    terminal_pad(f, g->label_w + 1);
    for (int c = 0; c < g->cols; c++)
        fputs(c == 0 ? "└" : marks[c] ? "┴" : "─", f);
    fputc('\n', f);

    /* Labels start at their tick; one is skipped when it would touch the
     * previous one or run past the width. */
    terminal_pad(f, g->label_w + 1);
    int at = 0;
    for (int k = 0; k < ticks; k++) {
        int c = (int)floor(k * step / g->scale + 1e-9);
        char text[NUMBER_TEXT_MAX];
        number_text_format(k * step, text);
        int w = (int)strlen(text);
        if ((k > 0 && c < at + 1) || g->label_w + 1 + c + w >= g->width)
            continue;
        terminal_pad(f, c - at);
        fputs(text, f);
        at = c + w;
    }
    static const char unit[] = " (time units)";
    if (g->label_w + 1 + at + (int)strlen(unit) < g->width)
        fputs(unit, f);
    fputc('\n', f);
    free(marks);
}

static void draw_legend(const gantt *g, unsigned kinds, bool allreduce_rows, int width)
{
    FILE *f = g->f;
    const bool present[CELL_KINDS] = {true,
                                      kinds & 1u << ACTION_F,
                                      kinds & 1u << ACTION_B,
                                      kinds & 1u << ACTION_I,
                                      kinds & 1u << ACTION_W,
                                      kinds & 1u << ACTION_OVERLAP_F_B,
                                      allreduce_rows};
    static const int order[] = {CELL_F, CELL_B, CELL_I, CELL_W, CELL_FB, CELL_AR, CELL_IDLE};
    int used = 0;
    for (size_t j = 0; j < sizeof order / sizeof order[0]; j++) {
        int kind = order[j];
        if (!present[kind])
            continue;
        int w = terminal_text_width(styles[kind].sample) + 1 +
                terminal_text_width(styles[kind].meaning);
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
            terminal_set_bold(f, true);
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

void report_gantt(const timeline *tl, FILE *f, int width, bool colour)
{
    const program *p = tl->program;
    const int P = p->ranks;
    const unsigned kinds = program_kind_mask(p);
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
    int label_w = terminal_text_width(label);
    if (ar_rows)
        label_w = label_w > 10 ? label_w : 10; /* "all-reduce", "  AR 15" */

    gantt g = {.f = f,
               .colour = colour,
               .mode = colour ? terminal_colours_from_env() : TERMINAL_COLOURS_256,
               .width = width,
               .label_w = label_w,
               .makespan = tl->makespan};
    cell_colours(g.colours);
    int avail = width - label_w - 2;
    char a[NUMBER_TEXT_MAX], b[NUMBER_TEXT_MAX], parts[4][96];
    snprintf(parts[0], sizeof parts[0], "%s  P=%d V=%d M=%d D=%d", p->schedule, P,
             p->stages_per_rank, p->microbatches, tl->dp);
    snprintf(parts[1], sizeof parts[1], "makespan %s", number_text_format(tl->makespan, a));
    snprintf(parts[2], sizeof parts[2], "bubble %.1f%%", 100.0 * tl->bubble_fraction);
    if (!(tl->makespan > 0)) {
        snprintf(parts[2], sizeof parts[2], "(nothing to draw: it takes no time)");
        terminal_print_parts(f, (const char *const[]){parts[0], parts[1], parts[2]}, 3, width);
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
        snprintf(parts[3], sizeof parts[3], "(1 column = %s time units)",
                 number_text_format(g.scale, b));
    }
    terminal_print_parts(f, (const char *const[]){parts[0], parts[1], parts[2], parts[3]}, 4,
                         width);
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
    draw_legend(&g, kinds, ar_rows, width);
    if (ar_any && !ar_rows) {
        char replicas[48];
        snprintf(replicas, sizeof replicas, "all-reduce: D=%d replicas,", tl->dp);
        terminal_print_parts(
            f, (const char *const[]){replicas, "but it takes no time (set --allreduce)"}, 2, width);
    } else if (ar_rows && !ar_per_rank) {
        terminal_print_parts(
            f, (const char *const[]){"all-reduce row: share of ranks reducing,", "░ few .. █ all"},
            2, width);
    }
    free(g.acc);
    free(g.pick);
}
