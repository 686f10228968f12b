/* timeline_view.c - the timeline panel's view model: layout, zoom and pan
 * (the hit test is timeline_hit.c's). No GL, no drawing.
 * See timeline_view.h for what it promises. */
#include "timeline_view.h"

#include <assert.h>
#include <math.h>

#include "timeline_query.h"

/* ---- the view model ----------------------------------------------------- */

static double clampd(double x, double lo, double hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

static float maxf(float a, float b)
{
    return a > b ? a : b;
}

static float minf(float a, float b)
{
    return a < b ? a : b;
}

static int decimal_digits(int n)
{
    int d = 1;
    while (n >= 10) {
        n /= 10;
        d++;
    }
    return d;
}

/* A row's shares of its pitch: the gap under it, the all-reduce lane. */
#define ROW_GAP_SHARE 0.1f
#define LANE_SHARE 0.15f
/* What reads, in ems of the panel's text (timeline_panel.c's rules, with a
 * few percent for the glyph size the font rounds the em to): a rank's label
 * wants a pitch of 1.1 lines, a bar's number a bar 1.15 capitals tall (a
 * capital is 0.729 em in the font ppflow ships), the memory lane's label a
 * line, and its count over each plateau 0.95 of a line of sub-lane per rank. */
#define READ_MARGIN 1.04f
#define LABEL_PITCH_EM 1.1f
#define NUMBER_BAR_EM (1.15f * 0.729f)
#define MEMORY_SUB_EM 0.95f
#define MEMORY_LABELS_EM 2.4f

/* The row pitch at which a row's label and its bars' numbers fit. */
static float pitch_to_read(float em, bool allreduce_lane)
{
    const float bar_share = 1 - ROW_GAP_SHARE - (allreduce_lane ? LANE_SHARE : 0);
    return READ_MARGIN * em * maxf(LABEL_PITCH_EM, NUMBER_BAR_EM / bar_share);
}

/* Derives every pixel size from the text size, so the panel reads the same
 * at any resolution: a label column as wide as "rank 12" (or "memory"), an
 * axis strip of one line plus its ticks, rows sharing what is left with the
 * memory lane. The memory lane takes a fifth of the plot (2.4 lines within
 * a third of it); more where the rows keep a pitch their labels and
 * numbers fit in, so that each plateau shows its count; less, down to the
 * line of its label, where its share would leave the rows too thin for
 * them (presenting's larger text). */
static void layout(timeline_view *v)
{
    const float em = v->text_px > 0 ? v->text_px : (float)clampd(v->h / 12.0, 8, 48);
    v->em = em;
    int chars = 5 + decimal_digits(v->ranks > 1 ? v->ranks - 1 : 0);
    if (chars < 6)
        chars = 6;
    v->label_w = minf(em * (0.62f * (float)chars + 1.2f), v->w * 0.4f);
    const float pad_top = em * 0.4f, pad_right = em * 0.6f;
    v->axis_h = em * 1.7f;
    v->plot_x = v->x + v->label_w;
    v->plot_w = maxf(1, v->w - v->label_w - pad_right);
    v->plot_y = v->y + pad_top;
    v->plot_h = maxf(1, v->h - pad_top - v->axis_h);
    v->axis_y = v->plot_y + v->plot_h;

    const float gap = em * 0.5f;
    const int rows = v->ranks > 0 ? v->ranks : 1;
    const float rows_read = (float)rows * pitch_to_read(em, v->allreduce_lane);
    const float share = maxf(v->plot_h * 0.2f, minf(em * MEMORY_LABELS_EM, v->plot_h * 0.35f));
    const float counts = READ_MARGIN * em * maxf(MEMORY_SUB_EM * (float)rows, MEMORY_LABELS_EM);
    v->mem_h = share;
    if (counts > share && v->plot_h - gap - counts >= rows_read)
        v->mem_h = counts;
    else if (v->plot_h - gap - share < rows_read)
        v->mem_h = minf(share, maxf(READ_MARGIN * em, v->plot_h - gap - rows_read));
    const float rows_h = maxf(1, v->plot_h - v->mem_h - gap);
    v->mem_y = v->plot_y + rows_h + gap;
    v->row_y = v->plot_y;
    v->row_pitch = rows_h / (float)rows;
    const float row_gap = v->row_pitch * ROW_GAP_SHARE;
    v->lane_h = v->allreduce_lane ? v->row_pitch * LANE_SHARE : 0;
    v->bar_h = v->row_pitch - row_gap - v->lane_h;
    v->lane_y = v->bar_h;
}

void timeline_view_init(timeline_view *v, double makespan, int ranks, bool allreduce_lane)
{
    assert(v && ranks >= 0);
    const double range = makespan > 0 ? makespan : 1;
    *v = (timeline_view){
        .makespan = makespan > 0 ? makespan : 0,
        .margin = range * 0.02,
        .min_span = range / 10000,
        .ranks = ranks,
        .allreduce_lane = allreduce_lane,
    };
    timeline_view_fit(v);
    layout(v);
}

void timeline_view_fit(timeline_view *v)
{
    v->t0 = 0;
    v->t1 = v->makespan > 0 ? v->makespan : 1;
}

void timeline_view_set_rect(timeline_view *v, float x, float y, float w, float h)
{
    v->x = x;
    v->y = y;
    v->w = w;
    v->h = h;
    layout(v);
}

void timeline_view_set_text_px(timeline_view *v, float text_px)
{
    v->text_px = text_px > 0 ? text_px : 0;
    layout(v);
}

double timeline_view_time_to_x(const timeline_view *v, double t)
{
    return v->plot_x + (t - v->t0) * v->plot_w / (v->t1 - v->t0);
}

double timeline_view_x_to_time(const timeline_view *v, double x)
{
    return v->t0 + (x - v->plot_x) * (v->t1 - v->t0) / v->plot_w;
}

/* Keeps the span within limits and the range within [-margin, makespan + margin]. */
static void clamp_range(timeline_view *v)
{
    const double lo = -v->margin, hi = (v->makespan > 0 ? v->makespan : 1) + v->margin;
    double span = clampd(v->t1 - v->t0, v->min_span, hi - lo);
    double t0 = clampd(v->t0, lo, hi - span);
    v->t0 = t0;
    v->t1 = t0 + span;
}

void timeline_view_zoom(timeline_view *v, double x, double factor)
{
    assert(factor > 0);
    const double lo = -v->margin, hi = (v->makespan > 0 ? v->makespan : 1) + v->margin;
    const double t = timeline_view_x_to_time(v, x);
    const double frac = (x - v->plot_x) / v->plot_w;
    const double span = clampd((v->t1 - v->t0) / factor, v->min_span, hi - lo);
    v->t0 = t - frac * span;
    v->t1 = v->t0 + span;
    clamp_range(v);
}

void timeline_view_pan_pixels(timeline_view *v, double dx)
{
    timeline_view_pan_fraction(v, -dx / v->plot_w);
}

void timeline_view_pan_fraction(timeline_view *v, double fraction)
{
    const double dt = fraction * (v->t1 - v->t0);
    v->t0 += dt;
    v->t1 += dt;
    clamp_range(v);
}

int timeline_view_row_at_y(const timeline_view *v, double y)
{
    if (v->ranks <= 0 || v->row_pitch <= 0 || y < v->row_y)
        return -1;
    const double r = floor((y - v->row_y) / v->row_pitch);
    return r < v->ranks ? (int)r : -1;
}

double timeline_axis_step(double raw)
{
    const double e = pow(10, floor(log10(raw)));
    const double m = raw / e;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * e;
}

int timeline_axis_decimals(double step)
{
    const int d = (int)-floor(log10(step) + 1e-9);
    return d < 0 ? 0 : d > 9 ? 9 : d;
}
