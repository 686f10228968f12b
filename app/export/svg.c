/* svg.c - the timeline as an SVG figure. See svg.h. */
#include "svg.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "schedules.h"
#include "theme.h"
#include "timeline_lod.h"
#include "timeline_query.h"
#include "timeline_view.h"

/* ---- small helpers ------------------------------------------------------ */

static float maxf(float a, float b)
{
    return a > b ? a : b;
}

static float minf(float a, float b)
{
    return a < b ? a : b;
}

/* DejaVu Sans advances in em: digits 0.636, most letters 0.55 to 0.65, '|'
 * 0.34, a space 0.32. One figure for all, a little over, so that a label
 * said to fit still fits in the fonts of the stack. */
static float text_w(const char *s, float px)
{
    return (float)strlen(s) * 0.64f * px;
}

/* Writes s with the five XML specials escaped. */
static void put_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        case '\'':
            fputs("&apos;", f);
            break;
        default:
            fputc(*s, f);
        }
    }
}

/* ` NAME="#RRGGBB"` plus ` NAME-opacity="A"` for a translucent colour. */
static void put_paint(FILE *f, const char *name, rgba8 c)
{
    fprintf(f, " %s=\"#%06X\"", name, (unsigned)colour_rgb(c));
    if (c.a < 255)
        fprintf(f, " %s-opacity=\"%.3g\"", name, c.a / 255.0);
}

/* ---- names and alt text ------------------------------------------------- */

const char *svg_schedule_title(const char *generator, char *buf, size_t n)
{
    assert(buf && n > 0);
    snprintf(buf, n, "%s", generator ? generator : "");
    if (generator && strcmp(generator, "csv") == 0) {
        snprintf(buf, n, "PyTorch CSV");
        return buf;
    }
    /* The summary starts with the name as people write it, up to a colon
     * or a parenthesis: "Zero Bubble H1 (ZB1P): ...". */
    int count;
    const schedule_info *list = schedule_list(&count);
    for (int k = 0; k < count && generator; k++) {
        if (strcmp(list[k].name, generator) != 0)
            continue;
        const char *s = list[k].summary;
        size_t len = strcspn(s, ":(");
        while (len > 0 && s[len - 1] == ' ')
            len--;
        if (len > 0)
            snprintf(buf, n, "%.*s", (int)len, s);
    }
    return buf;
}

size_t svg_alt_text(const timeline *tl, char *buf, size_t n)
{
    const program *p = tl->program;
    char name[64];
    svg_schedule_title(p->schedule, name, sizeof name);
    char replicas[32] = "";
    if (tl->dp > 1)
        snprintf(replicas, sizeof replicas, ", %d replicas", tl->dp);
    const int len =
        snprintf(buf, n, "%s schedule, %d rank%s, %d micro-batch%s%s, bubble %.1f%%", name,
                 p->ranks, p->ranks == 1 ? "" : "s", p->microbatches,
                 p->microbatches == 1 ? "" : "es", replicas, tl->bubble_fraction * 100.0);
    return len < 0 ? 0 : (size_t)len;
}

/* ---- the figure --------------------------------------------------------- */

/* Everything the parts below share. */
typedef struct fig {
    FILE *f;
    const timeline *tl;
    const timeline_palette *pal;
    timeline_view v;
    timeline_memory mem;
    float em;
    float period; /* pattern spacing */
    float width, height;
    bool kinds[ACTION_OVERLAP_F_B + 1]; /* compute kinds the program has */
    bool p2p_drawn;
} fig;

static float tx(const fig *g, double t)
{
    return (float)timeline_view_time_to_x(&g->v, t);
}

static float row_top(const fig *g, int r)
{
    return g->v.row_y + (float)r * g->v.row_pitch;
}

static const char *kind_letter(int kind)
{
    switch (kind) {
    case ACTION_F:
        return "F";
    case ACTION_B:
        return "B";
    case ACTION_I:
        return "I";
    case ACTION_W:
        return "W";
    default:
        return "FB";
    }
}

static rgba8 kind_fill(const fig *g, int kind)
{
    return theme_action_colour(g->pal, (action_kind)kind);
}

/* The fill attribute of a kind's bars: a colour where the theme's fill is
 * solid (F), else the kind's pattern (put_defs). */
static void put_kind_fill(const fig *g, int kind)
{
    const theme_fill t = theme_action_fill(g->pal, (action_kind)kind);
    if (t.pattern == THEME_PATTERN_SOLID)
        put_paint(g->f, "fill", t.fill);
    else
        fprintf(g->f, " fill=\"url(#pattern-%s)\"", kind_letter(kind));
}

/* One pattern tile: the fill, then the ink as stripes along "\" (hatch), both
 * diagonals (cross), or a dot. Stripes are 40% of the period measured along
 * x, as in the window's shader; userSpaceOnUse anchors every tile to the
 * figure, so neighbouring bars' stripes line up. */
static void put_pattern(const fig *g, const char *id, theme_fill t)
{
    const rgba8 fill = t.fill, ink = t.ink;
    FILE *f = g->f;
    const float p = g->period;
    fprintf(f,
            "    <pattern id=\"%s\" patternUnits=\"userSpaceOnUse\" width=\"%g\" height=\"%g\">\n",
            id, p, p);
    fprintf(f, "      <rect width=\"%g\" height=\"%g\"", p, p);
    put_paint(f, "fill", fill);
    fputs("/>\n", f);
    if (t.pattern == THEME_PATTERN_DOTS) {
        fprintf(f, "      <circle cx=\"%g\" cy=\"%g\" r=\"%g\"", p / 2, p / 2, p / 4);
        put_paint(f, "fill", ink);
        fputs("/>\n", f);
        fputs("    </pattern>\n", f);
        return;
    }
    fputs("      <path d=\"", f);
    for (int k = -1; k <= 1; k++) /* y = x + k p */
        fprintf(f, "M%g,%gL%g,%g", -p, (float)k * p - p, 2 * p, (float)k * p + 2 * p);
    if (t.pattern == THEME_PATTERN_CROSSHATCH)
        for (int k = 0; k <= 2; k++) /* y = k p - x */
            fprintf(f, "M%g,%gL%g,%g", -p, (float)k * p + p, 2 * p, (float)k * p - 2 * p);
    fprintf(f, "\" stroke-width=\"%.3g\" fill=\"none\"", 0.4 * p / sqrt(2.0));
    put_paint(f, "stroke", ink);
    fputs("/>\n    </pattern>\n", f);
}

static void put_defs(const fig *g)
{
    const timeline_palette *pal = g->pal;
    fputs("  <defs>\n", g->f);
    static const action_kind patterned[] = {ACTION_B, ACTION_I, ACTION_W, ACTION_OVERLAP_F_B};
    for (size_t k = 0; k < sizeof patterned / sizeof patterned[0]; k++) {
        char id[32];
        snprintf(id, sizeof id, "pattern-%s", kind_letter(patterned[k]));
        put_pattern(g, id, theme_action_fill(pal, patterned[k]));
    }
    put_pattern(g, "pattern-bubble", theme_bubble_fill(pal));
    /* the arrowhead, in the stroke's units so it scales with the line */
    fputs("    <marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"5\" "
          "markerHeight=\"5\" orient=\"auto\">\n      <path d=\"M0,0L10,5L0,10Z\"",
          g->f);
    put_paint(g->f, "fill", pal->p2p);
    fputs("/>\n    </marker>\n  </defs>\n", g->f);
}

static void put_background(const fig *g)
{
    const timeline_view *v = &g->v;
    fprintf(g->f, "  <rect class=\"background\" width=\"%g\" height=\"%g\"", g->width, g->height);
    put_paint(g->f, "fill", g->pal->background);
    fputs("/>\n  <g class=\"rows\">\n", g->f);
    for (int r = 1; r < v->ranks; r += 2) {
        fprintf(g->f, "    <rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"", v->x,
                row_top(g, r), v->w, v->row_pitch);
        put_paint(g->f, "fill", g->pal->row_alt);
        fputs("/>\n", g->f);
    }
    fputs("  </g>\n", g->f);
}

/* The axis's tick step: about 7 em apart, as in the window. */
static double tick_step(const fig *g)
{
    return timeline_axis_step((g->v.t1 - g->v.t0) * (g->em * 7) / g->v.plot_w);
}

static void put_grid(const fig *g)
{
    const timeline_view *v = &g->v;
    const double step = tick_step(g);
    fputs("  <g class=\"grid\"", g->f);
    put_paint(g->f, "stroke", g->pal->grid);
    fputs(" stroke-width=\"1\">\n", g->f);
    for (double i = ceil(v->t0 / step); i * step <= v->t1 * (1 + 1e-12); i++)
        fprintf(g->f, "    <line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n",
                tx(g, i * step), v->plot_y, tx(g, i * step), v->plot_y + v->plot_h);
    fputs("  </g>\n", g->f);
}

static void put_bubbles(const fig *g)
{
    const timeline_view *v = &g->v;
    fputs("  <g class=\"bubble\" fill=\"url(#pattern-bubble)\">\n", g->f);
    const float x0 = tx(g, 0), x1 = tx(g, g->tl->makespan);
    for (int r = 0; r < v->ranks; r++)
        fprintf(g->f, "    <rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"/>\n", x0,
                row_top(g, r), x1 - x0, v->bar_h);
    fputs("  </g>\n", g->f);
}

/* p2p transfers: arrows from the producer's row edge at the transfer's start
 * to the consumer's at its end, under the bars as in the window. More than
 * one per 4 units would be noise, and none are drawn then. */
static void put_p2p(const fig *g)
{
    const timeline *tl = g->tl;
    const timeline_view *v = &g->v;
    if (!g->p2p_drawn)
        return;
    fprintf(g->f, "  <g class=\"p2p\" fill=\"none\" stroke-width=\"%.2f\"", maxf(1, g->em * 0.09f));
    put_paint(g->f, "stroke", g->pal->p2p);
    fputs(">\n", g->f);
    p2p_cursor cur = {0};
    transfer x;
    while (timeline_next_p2p(tl, &cur, &x)) {
        const int from = x.src_rank, to = x.dst_rank;
        const float ys = to > from ? row_top(g, from) + v->bar_h : row_top(g, from);
        const float ye = to > from ? row_top(g, to) : row_top(g, to) + v->bar_h;
        fprintf(g->f,
                "    <line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
                "marker-end=\"url(#arrow)\"/>\n",
                tx(g, x.start), ys, tx(g, x.end), ye);
    }
    fputs("  </g>\n", g->f);
}

/* The micro-batch number inside a bar, at the body size or 80% of it, or
 * nothing when neither fits (the bar's <title> still names it). */
static void put_bar_label(const fig *g, float x0, float x1, float y0, float h, const char *s,
                          rgba8 fill)
{
    const float sizes[2] = {g->em, g->em * 0.8f};
    for (int k = 0; k < 2; k++) {
        const float px = sizes[k];
        if (h < px * 0.85f || text_w(s, px) + px * 0.25f + 2 > x1 - x0)
            continue;
        fprintf(g->f, "    <text x=\"%.2f\" y=\"%.2f\"", 0.5f * (x0 + x1),
                y0 + 0.5f * (h + px * 0.72f));
        if (k > 0)
            fprintf(g->f, " font-size=\"%.3g\"", px);
        put_paint(g->f, "fill", theme_label_on(g->pal, fill));
        fputc('>', g->f);
        put_escaped(g->f, s);
        fputs("</text>\n", g->f);
        return;
    }
}

/* One rank's bars, pieced as the window pieces them (timeline_lod.h): a
 * bar at least a unit wide is drawn with its number and a <title> that
 * describes it; thinner bars merge into stretches, each drawn in the kind
 * that fills most of its columns, with a <title> that counts them. */
static void put_bars(const fig *g, int r)
{
    const timeline *tl = g->tl;
    const program_rank *pr = &tl->program->rank[r];
    const action_time *a = tl->time[r];
    const float y0 = row_top(g, r), h = g->v.bar_h;
    fprintf(g->f, "  <g class=\"rank\" data-rank=\"%d\" text-anchor=\"middle\">\n", r);
    timeline_lod_walk w;
    timeline_lod_begin(&w, tl, &g->v, r);
    timeline_lod_piece piece;
    char text[256];
    while (timeline_lod_next(&w, &piece)) {
        if (piece.kind == TIMELINE_LOD_STRETCH) {
            fprintf(g->f,
                    "    <rect class=\"bar dense\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
                    "height=\"%.2f\"",
                    piece.x0, y0, piece.x1 - piece.x0, h);
            put_kind_fill(g, piece.action);
            timeline_lod_describe(tl, r, a[piece.first].start, a[piece.last].end, piece.first,
                                  piece.last, text, sizeof text);
            fputs("><title>", g->f);
            put_escaped(g->f, text);
            fputs("</title></rect>\n", g->f);
            continue;
        }
        const int k = piece.first;
        const action *act = &pr->actions[k];
        const float x0 = piece.x0, x1 = piece.x1;
        /* a hairline gap keeps back-to-back bars apart, as in the window */
        const float gap = x1 - x0 >= 4 ? 0.6f : 0;
        fprintf(g->f,
                "    <rect class=\"bar bar-%s\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
                "height=\"%.2f\"",
                kind_letter(act->kind), x0, y0, x1 - gap - x0, h);
        put_kind_fill(g, act->kind);
        timeline_describe_action(tl, r, k, text, sizeof text);
        fputs("><title>", g->f);
        put_escaped(g->f, text);
        fputs("</title></rect>\n", g->f);
        char s[32];
        if (act->kind == ACTION_OVERLAP_F_B)
            snprintf(s, sizeof s, "%d|%d", (int)act->microbatch, (int)act->microbatch2);
        else
            snprintf(s, sizeof s, "%d", (int)act->microbatch);
        put_bar_label(g, x0, x1 - gap, y0, h, s, kind_fill(g, act->kind));
    }
    fputs("  </g>\n", g->f);
}

static void put_allreduces(const fig *g)
{
    const timeline *tl = g->tl;
    const timeline_view *v = &g->v;
    if (v->lane_h <= 0 || tl->allreduce_count == 0)
        return;
    fputs("  <g class=\"allreduce\"", g->f);
    put_paint(g->f, "fill", g->pal->allreduce);
    fputs(">\n", g->f);
    for (int i = 0; i < tl->allreduce_count; i++) {
        const transfer *ar = &tl->allreduces[i];
        const float x0 = tx(g, ar->start), x1 = maxf(tx(g, ar->end), x0 + SVG_MIN_BAR);
        char text[256];
        timeline_describe_allreduce(tl, i, text, sizeof text);
        fprintf(g->f, "    <rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"><title>", x0,
                row_top(g, ar->src_rank) + v->lane_y + v->lane_h * 0.15f, x1 - x0,
                v->lane_h * 0.7f);
        put_escaped(g->f, text);
        fputs("</title></rect>\n", g->f);
    }
    fputs("  </g>\n", g->f);
}

/* Live activations: one sub-lane per rank, a filled step outline on the scale
 * of the largest peak so ranks compare. Steps within SVG_MIN_BAR of the last
 * point written keep the highest count met. */
static void put_memory(const fig *g)
{
    const timeline_view *v = &g->v;
    if (g->mem.peak <= 0 || v->mem_h < 2)
        return;
    const float sub = v->mem_h / (float)v->ranks;
    const float scale = sub * 0.85f / (float)g->mem.peak;
    fputs("  <g class=\"memory\">\n", g->f);
    for (int r = 0; r < v->ranks; r++) {
        const timeline_memory_curve *c = &g->mem.rank[r];
        const float base = v->mem_y + sub * (float)(r + 1);
        if (r % 2 == 1) {
            fprintf(g->f, "    <rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"",
                    v->plot_x, base - sub, v->plot_w, sub);
            put_paint(g->f, "fill", g->pal->row_alt);
            fputs("/>\n", g->f);
        }
        fprintf(g->f, "    <path data-rank=\"%d\" d=\"M%.2f,%.2f", r, tx(g, 0), base);
        float last_x = tx(g, 0);
        int pending = -1; /* highest count since last_x, not yet written */
        for (int i = 0; i < c->count; i++) {
            const float x = tx(g, c->steps[i].time);
            if (x - last_x < SVG_MIN_BAR && i > 0) {
                pending = c->steps[i].count > pending ? c->steps[i].count : pending;
                continue;
            }
            if (pending >= 0)
                fprintf(g->f, "V%.2f", base - scale * (float)pending);
            fprintf(g->f, "H%.2fV%.2f", x, base - scale * (float)c->steps[i].count);
            last_x = x;
            pending = -1;
        }
        if (pending >= 0)
            fprintf(g->f, "V%.2f", base - scale * (float)pending);
        fprintf(g->f, "H%.2fV%.2fZ\"", tx(g, g->tl->makespan), base);
        put_paint(g->f, "fill", g->pal->memory_figure);
        fputs("/>\n", g->f);
    }
    fputs("  </g>\n", g->f);
}

static void put_text(const fig *g, float x, float y, const char *anchor, rgba8 c, const char *s);

/* Each rank's sub-lane of the memory lane said in words, as the window does
 * where it has room: "rank r · peak N" at its right end, and the count over
 * every plateau wide enough for it, centred in the sub-lane, so that the
 * staircase reads as numbers (the heights are on the largest peak's scale). */
static void put_memory_labels(const fig *g)
{
    const timeline_view *v = &g->v;
    const float sub = g->mem.peak > 0 ? v->mem_h / (float)v->ranks : 0;
    const float digit_h = g->em * 0.72f, pad = g->em * 0.3f;
    if (sub < g->em * 1.05f)
        return;
    fputs("  <g class=\"memory-labels\">\n", g->f);
    const rgba8 dim = colour_with_alpha(g->pal->text, 170);
    for (int r = 0; r < v->ranks; r++) {
        const timeline_memory_curve *c = &g->mem.rank[r];
        const float y = v->mem_y + sub * ((float)r + 0.5f) + 0.5f * digit_h;
        char s[48];
        snprintf(s, sizeof s, "rank %d · peak %d", r, c->peak);
        const float right = v->plot_x + v->plot_w - pad, label_x0 = right - text_w(s, g->em);
        put_text(g, right, y, "end", dim, s);
        for (int i = 0; i < c->count; i++) {
            if (c->steps[i].count <= 0)
                continue;
            const float x0 = tx(g, c->steps[i].time);
            float x1 = tx(g, i + 1 < c->count ? c->steps[i + 1].time : g->tl->makespan);
            x1 = minf(x1, label_x0 - pad);
            snprintf(s, sizeof s, "%d", c->steps[i].count);
            if (x1 - x0 >= text_w(s, g->em) + 2 * pad)
                put_text(g, 0.5f * (x0 + x1), y, "middle", g->pal->text, s);
        }
    }
    fputs("  </g>\n", g->f);
}

/* The text of a time on the axis or the cursor's tab. */
static void put_text(const fig *g, float x, float y, const char *anchor, rgba8 c, const char *s)
{
    fprintf(g->f, "    <text x=\"%.2f\" y=\"%.2f\"", x, y);
    if (anchor)
        fprintf(g->f, " text-anchor=\"%s\"", anchor);
    put_paint(g->f, "fill", c);
    fputc('>', g->f);
    put_escaped(g->f, s);
    fputs("</text>\n", g->f);
}

static void put_labels(const fig *g)
{
    const timeline_view *v = &g->v;
    const float digit_h = g->em * 0.72f; /* DejaVu's digits are 0.73 em tall */
    /* every k-th rank when the rows are shorter than a line */
    int every = (int)ceilf(g->em * 1.1f / maxf(v->row_pitch, 1));
    every = every < 1 ? 1 : every;
    const float x = v->plot_x - g->em * 0.5f;
    fputs("  <g class=\"rank-labels\" text-anchor=\"end\">\n", g->f);
    for (int r = 0; r < v->ranks; r += every) {
        char s[32];
        snprintf(s, sizeof s, "rank %d", r);
        const float mid = row_top(g, r) + 0.5f * maxf(v->bar_h, digit_h);
        put_text(g, x, mid + 0.5f * digit_h, NULL, g->pal->text, s);
    }
    if (g->mem.peak > 0 && v->mem_h >= g->em) {
        const float y = v->mem_y + 0.5f * v->mem_h;
        char s[48];
        snprintf(s, sizeof s, "peak %d", g->mem.peak);
        if (v->mem_h >= g->em * 2.3f) {
            put_text(g, x, y - 0.1f * g->em, NULL, g->pal->text, "memory");
            put_text(g, x, y + 1.05f * g->em, NULL, colour_with_alpha(g->pal->text, 170), s);
        } else {
            put_text(g, x, y + 0.5f * digit_h, NULL, g->pal->text, "memory");
        }
    }
    fputs("  </g>\n", g->f);
}

/* The cursor's tab over the axis: where, and its text. */
typedef struct tab {
    bool shown;
    float x, y, w, h;
    char text[48];
} tab;

static tab cursor_tab(const fig *g, const svg_desc *d)
{
    const timeline_view *v = &g->v;
    tab t = {0};
    if (!d->cursor)
        return t;
    const double per_unit = (v->t1 - v->t0) / v->plot_w;
    const int dec = per_unit >= 1 ? 0 : (int)minf(9, (float)ceil(-log10(per_unit)));
    snprintf(t.text, sizeof t.text, "%.*f", dec, d->cursor_t);
    t.shown = true;
    t.w = text_w(t.text, g->em) + g->em * 0.8f;
    t.h = g->em * 1.35f;
    t.x = minf(maxf(tx(g, d->cursor_t) - t.w * 0.5f, v->x), v->x + v->w - t.w);
    t.y = v->axis_y + g->em * 0.15f;
    return t;
}

static void put_axis(const fig *g, const tab *cursor)
{
    const timeline_view *v = &g->v;
    const double step = tick_step(g);
    const int dec = timeline_axis_decimals(step);
    const float tick = g->em * 0.35f;
    fputs("  <g class=\"axis\" text-anchor=\"middle\">\n", g->f);
    fprintf(g->f, "    <line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke-width=\"1\"",
            v->plot_x, v->axis_y, v->plot_x + v->plot_w, v->axis_y);
    put_paint(g->f, "stroke", g->pal->grid);
    fputs("/>\n", g->f);
    for (double i = ceil(v->t0 / step); i * step <= v->t1 * (1 + 1e-12); i++) {
        const double t = i * step;
        const float x = tx(g, t);
        fprintf(g->f,
                "    <line class=\"tick\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
                "stroke-width=\"1\"",
                x, v->axis_y, x, v->axis_y + tick);
        put_paint(g->f, "stroke", g->pal->text);
        fputs("/>\n", g->f);
        char s[32];
        snprintf(s, sizeof s, "%.*f", dec, fabs(t) < step * 1e-6 ? 0.0 : t);
        const float half = 0.5f * text_w(s, g->em) + g->em * 0.3f;
        if (cursor->shown && x + half > cursor->x && x - half < cursor->x + cursor->w)
            continue;
        fprintf(g->f, "    <text class=\"tick-label\" x=\"%.2f\" y=\"%.2f\"", x,
                v->axis_y + tick + g->em * 0.95f);
        put_paint(g->f, "fill", g->pal->text);
        fprintf(g->f, ">%s</text>\n", s);
    }
    fputs("  </g>\n", g->f);
}

static void put_cursor(const fig *g, const svg_desc *d, const tab *t)
{
    const timeline_view *v = &g->v;
    if (!t->shown)
        return;
    const float x = tx(g, d->cursor_t), n = g->em * 0.45f;
    fputs("  <g class=\"cursor\">\n", g->f);
    fprintf(g->f, "    <line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke-width=\"%.2f\"",
            x, v->plot_y, x, v->plot_y + v->plot_h, maxf(2, g->em * 0.12f));
    put_paint(g->f, "stroke", g->pal->cursor);
    fputs("/>\n", g->f);
    fprintf(g->f, "    <path d=\"M%.2f,%.2fL%.2f,%.2fL%.2f,%.2fZ\"", x - n, v->plot_y, x + n,
            v->plot_y, x, v->plot_y + n);
    put_paint(g->f, "fill", g->pal->cursor);
    fputs("/>\n", g->f);
    fprintf(g->f, "    <rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"", t->x, t->y,
            t->w, t->h);
    put_paint(g->f, "fill", g->pal->cursor);
    fputs("/>\n", g->f);
    put_text(g, t->x + t->w * 0.5f, t->y + 0.5f * (t->h + g->em * 0.72f), "middle",
             theme_label_on(g->pal, g->pal->cursor), t->text);
    fputs("  </g>\n", g->f);
}

/* One legend entry: a swatch (a fill, a pattern or an arrow) and its words. */
typedef struct legend_entry {
    const char *words;
    const char *pattern; /* "url(#pattern-B)", or NULL for the colour */
    rgba8 colour;
    bool arrow;
    float x, y; /* where its swatch goes */
} legend_entry;

enum { LEGEND_MAX = 9 };

typedef struct legend {
    legend_entry e[LEGEND_MAX];
    int count;
    int lines;
} legend;

static float legend_entry_w(const fig *g, const legend_entry *e)
{
    return g->em * 3.0f + text_w(e->words, g->em);
}

/* What the legend lists (the kinds the program has, idle time, and what else
 * is drawn) and where: left to right from the plot's left edge, wrapping
 * before the figure's right edge. */
static legend legend_layout(const fig *g, float y)
{
    static const char *const words[] = {
        [ACTION_F] = "F forward",
        [ACTION_B] = "B backward",
        [ACTION_I] = "I input gradient",
        [ACTION_W] = "W weight gradient",
        [ACTION_OVERLAP_F_B] = "F+B overlapped",
    };
    static const char *const patterns[] = {
        [ACTION_F] = NULL,
        [ACTION_B] = "url(#pattern-B)",
        [ACTION_I] = "url(#pattern-I)",
        [ACTION_W] = "url(#pattern-W)",
        [ACTION_OVERLAP_F_B] = "url(#pattern-FB)",
    };
    legend l = {0};
    for (int kind = ACTION_F; kind <= ACTION_OVERLAP_F_B; kind++)
        if (g->kinds[kind])
            l.e[l.count++] = (legend_entry){
                .words = words[kind], .pattern = patterns[kind], .colour = g->pal->f};
    l.e[l.count++] = (legend_entry){.words = "idle (bubble)", .pattern = "url(#pattern-bubble)"};
    if (g->p2p_drawn)
        l.e[l.count++] =
            (legend_entry){.words = "p2p transfer", .colour = g->pal->p2p, .arrow = true};
    if (g->v.lane_h > 0 && g->tl->allreduce_count > 0)
        l.e[l.count++] = (legend_entry){.words = "all-reduce", .colour = g->pal->allreduce};
    if (g->mem.peak > 0)
        l.e[l.count++] =
            (legend_entry){.words = "live activations (per rank)", .colour = g->pal->memory_figure};
    const float x_start = g->v.plot_x, right = g->width - g->em * 0.6f;
    float x = x_start;
    l.lines = 1;
    for (int k = 0; k < l.count; k++) {
        const float w = legend_entry_w(g, &l.e[k]);
        if (x > x_start && x + w - g->em * 1.2f > right) {
            x = x_start;
            y += g->em * 1.6f;
            l.lines++;
        }
        l.e[k].x = x;
        l.e[k].y = y;
        x += w;
    }
    return l;
}

static void put_legend(const fig *g, const legend *l)
{
    const float s = g->em;
    fputs("  <g class=\"legend\">\n", g->f);
    for (int k = 0; k < l->count; k++) {
        const legend_entry *e = &l->e[k];
        if (e->arrow) {
            fprintf(g->f,
                    "    <line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
                    "stroke-width=\"%.2f\" marker-end=\"url(#arrow)\"",
                    e->x, e->y + s, e->x + s * 1.4f, e->y, maxf(1, s * 0.09f));
            put_paint(g->f, "stroke", e->colour);
        } else {
            fprintf(g->f, "    <rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"", e->x,
                    e->y, s * 1.4f, s);
            if (e->pattern)
                fprintf(g->f, " fill=\"%s\"", e->pattern);
            else
                put_paint(g->f, "fill", e->colour);
        }
        fputs("/>\n", g->f);
        put_text(g, e->x + s * 1.8f, e->y + s * 0.82f, NULL, g->pal->text, e->words);
    }
    fputs("  </g>\n", g->f);
}

/* What the figure encodes, for <desc>: the alt text, then how to read it. */
static void put_description(const fig *g, const char *alt)
{
    const timeline *tl = g->tl;
    FILE *f = g->f;
    fputs("  <desc id=\"desc\">", f);
    put_escaped(f, alt);
    fprintf(f,
            ". Makespan %g time units. One row per pipeline rank, time from left to right; "
            "bars are compute labelled with their micro-batch (F forward solid",
            tl->makespan);
    if (g->kinds[ACTION_B])
        fputs(", B backward hatched", f);
    if (g->kinds[ACTION_I])
        fputs(", I input gradient hatched", f);
    if (g->kinds[ACTION_W])
        fputs(", W weight gradient dotted", f);
    if (g->kinds[ACTION_OVERLAP_F_B])
        fputs(", F+B overlapped pair cross-hatched", f);
    fputs("); grey hatching is idle time (the bubble)", f);
    if (g->p2p_drawn)
        fputs("; arrows are point-to-point transfers between ranks", f);
    if (g->v.lane_h > 0 && tl->allreduce_count > 0)
        fprintf(f,
                "; the thin lane under each row holds its gradient all-reduce across %d replicas",
                tl->dp);
    if (g->mem.peak > 0)
        fprintf(f, "; the bottom lane shows each rank's live activations (peak %d)", g->mem.peak);
    fputs(".</desc>\n", f);
}

/* Sizes the panel so that rows are about 2.4 em apart (fewer em for many
 * ranks, so the figure stays under about 50 em tall), then lays it out with
 * the window's rules (timeline_view.c): the memory lane takes a fifth of the
 * plot or 2.4 em, the axis 1.7 em, the top pad 0.4 em. */
static void layout(fig *g)
{
    const timeline *tl = g->tl;
    const int ranks = tl->program->ranks;
    const float em = g->em;
    const float pitch = maxf(0.5f * em, minf(2.4f * em, 40.0f * em / (float)ranks));
    const float rows_h = pitch * (float)ranks;
    float plot_h = rows_h + 0.5f * em + 2.4f * em;
    if (0.2f * plot_h > 2.4f * em)
        plot_h = (rows_h + 0.5f * em) / 0.8f;
    const float panel_h = plot_h + 0.4f * em + 1.7f * em;
    timeline_view_init(&g->v, tl->makespan, ranks, tl->allreduce_count > 0);
    timeline_view_set_rect(&g->v, 0, 0, g->width, panel_h);
    timeline_view_set_text_px(&g->v, em);
    /* A page has room the window lacks: each rank's memory sub-lane gets
     * at least 1.2 em, so a reader sees the staircase. The figure's own copy
     * of the layout is grown downwards (axis included); nothing here asks
     * timeline_view to lay it out again. */
    const float mem_h = minf(1.2f * em * (float)ranks, 16.0f * em);
    if (g->v.mem_h < mem_h) {
        const float grow = mem_h - g->v.mem_h;
        g->v.mem_h = mem_h;
        g->v.plot_h += grow;
        g->v.axis_y += grow;
        g->v.h += grow;
    }
}

bool svg_write_timeline(FILE *f, const timeline *tl, const svg_desc *d, ppf_error *err)
{
    assert(f && tl && tl->program && tl->program->ranks > 0 && d);
    const theme th = theme_get(d->dark ? THEME_DARK : THEME_LIGHT);
    fig g = {.f = f, .tl = tl, .pal = &th.timeline};
    g.em = d->em > 0 ? d->em : 16;
    g.width = d->width > 0 ? d->width : 1000;
    g.period = maxf(4, roundf(g.em * 0.5f));
    layout(&g);
    for (int r = 0; r < tl->program->ranks; r++)
        for (int k = 0; k < tl->program->rank[r].count; k++) {
            const int kind = tl->program->rank[r].actions[k].kind;
            if (action_is_compute((action_kind)kind))
                g.kinds[kind] = true;
        }
    timeline_memory_init(&g.mem, tl);
    g.p2p_drawn = tl->p2p_count > 0 && (double)tl->p2p_count <= g.v.plot_w / 4;
    const legend lg = legend_layout(&g, g.v.y + g.v.h + 0.6f * g.em);
    g.height = g.v.y + g.v.h + (0.6f + 1.6f * (float)lg.lines) * g.em;

    char alt[256];
    svg_alt_text(tl, alt, sizeof alt);
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
            "viewBox=\"0 0 %g %g\" width=\"%g\" height=\"%g\" role=\"img\" "
            "aria-labelledby=\"title desc\" font-family=\"%s\" font-size=\"%g\">\n",
            g.width, ceilf(g.height), g.width, ceilf(g.height), SVG_FONT_FAMILY, g.em);
    fputs("  <title id=\"title\">", f);
    put_escaped(f, alt);
    fputs("</title>\n", f);
    put_description(&g, alt);
    put_defs(&g);
    put_background(&g);
    put_grid(&g);
    put_bubbles(&g);
    put_p2p(&g);
    for (int r = 0; r < tl->program->ranks; r++)
        put_bars(&g, r);
    put_allreduces(&g);
    put_memory(&g);
    put_labels(&g);
    put_memory_labels(&g);
    const tab t = cursor_tab(&g, d);
    put_axis(&g, &t);
    put_cursor(&g, d, &t);
    put_legend(&g, &lg);
    fputs("</svg>\n", f);
    timeline_memory_deinit(&g.mem);
    if (ferror(f))
        return ppf_fail(err, "writing the SVG failed: %s", strerror(errno ? errno : EIO));
    return true;
}
