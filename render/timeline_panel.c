/* timeline_panel.c - the timeline (Gantt) panel: memory curves and drawing.
 * The view model is timeline_view.c. See timeline_panel.h for what it
 * promises. */
#include "timeline_panel.h"

#include "timeline_lod.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers ------------------------------------------------------ */

static float maxf(float a, float b)
{
    return a > b ? a : b;
}

static float minf(float a, float b)
{
    return a < b ? a : b;
}

/* ---- init --------------------------------------------------------------- */

/* What the still part was drawn for: a frame whose key is equal draws the
 * same still pixels. Zeroed before it is filled, so memcmp compares it. */
typedef struct still_key {
    const timeline *tl;
    uint64_t generation; /* the timeline's build: one rebuilt in place draws other bars */
    const text_font *font;
    int size, fb_w, fb_h, ranks;
    bool lane;
    float anchor[2];
    double t0, t1;
    float x, y, w, h, em, label_w, plot_x, plot_y, plot_w, plot_h;
    float row_y, row_pitch, bar_h, lane_y, lane_h, mem_y, mem_h;
    timeline_palette pal;
} still_key;

/* A bar wide enough to be numbered: its number is drawn with the moving
 * parts, since it steps aside from the cursor. */
typedef struct numbered_bar {
    int rank, action, kind;
    float x0, x1;
} numbered_bar;

struct timeline_panel_still {
    draw2d_pixels pixels;
    still_key key;
    bool kept;   /* pixels hold the still part drawn for key */
    bool reused; /* the last frame drew them */
    bool drawn;  /* the last frame drew the still part whole for `drawn_key`, unkept */
    still_key drawn_key;
    numbered_bar *bars;
    int bar_count, bar_capacity;
    int stretches; /* merged stretches drawn: numbers the panel says are left out */
};

bool timeline_panel_init(timeline_panel *p, const timeline *tl, ppf_error *err)
{
    *p = (timeline_panel){0};
    if (!tl || !tl->program || tl->program->ranks <= 0 || !tl->time)
        return ppf_fail(err, "timeline panel: the timeline has no ranks (not simulated?)");
    p->tl = tl;
    p->generation = tl->generation;
    timeline_memory_init(&p->memory, tl);
    p->still = ppf_calloc(1, sizeof *p->still);
    return true;
}

void timeline_panel_deinit(timeline_panel *p)
{
    if (!p)
        return;
    timeline_memory_deinit(&p->memory);
    if (p->still) {
        draw2d_pixels_deinit(&p->still->pixels);
        free(p->still->bars);
        free(p->still);
    }
    *p = (timeline_panel){0};
}

bool timeline_panel_of(const timeline_panel *p, const timeline *tl)
{
    return p->tl == tl && p->generation == tl->generation;
}

bool timeline_panel_reused(const timeline_panel *p)
{
    return p->still && p->still->reused;
}

void timeline_panel_view_init(timeline_view *v, const timeline *tl)
{
    assert(tl->program);
    timeline_view_init(v, tl->makespan, tl->program->ranks, tl->allreduce_count > 0);
}

/* ---- drawing ------------------------------------------------------------ */

typedef struct style {
    rgba8 fill, ink;
    draw2d_pattern pattern;
} style;

/* A kind's fill as the theme says it (theme_action_fill, which the SVG
 * figure reads too), in draw2d's terms. */
static style style_of(theme_fill t)
{
    const draw2d_pattern p = t.pattern == THEME_PATTERN_HATCH        ? DRAW2D_HATCH
                             : t.pattern == THEME_PATTERN_DOTS       ? DRAW2D_DOTS
                             : t.pattern == THEME_PATTERN_CROSSHATCH ? DRAW2D_CROSSHATCH
                                                                     : DRAW2D_SOLID;
    return (style){t.fill, t.ink, p};
}

/* A frame's worth of shared values, so the helpers take one pointer. */
typedef struct frame {
    const timeline_panel *p;
    const timeline_view *v;
    draw2d *d;
    const text_font *font;
    int size;      /* font size index */
    float font_px; /* its pixel size */
    float digit_h; /* height of a digit, for centring numbers */
    const timeline_palette *pal;
    float period;                         /* pattern spacing */
    style styles[ACTION_OVERLAP_F_B + 1]; /* each compute kind's (theme_action_fill) */
    int *left_out;    /* bar labels that did not fit this frame: [0] too narrow, [1] too low
                         (draw_hint says so); NULL: not counted */
    float cursor_x;   /* the cursor line's x; NAN: none (bar numbers step aside from it) */
    bool second_pass; /* draw_labels_at: only numbers still on the cursor's line */
} frame;

static float tx(const frame *f, double t)
{
    return (float)timeline_view_time_to_x(f->v, t);
}

/* Keeps x within a little of the plot: bars far off screen stay finite and
 * patterns, anchored to the framebuffer, do not shift. */
static float clip_x(const frame *f, float x)
{
    const float lo = f->v->plot_x - 4, hi = f->v->plot_x + f->v->plot_w + 4;
    return x < lo ? lo : x > hi ? hi : x;
}

static float row_top(const timeline_view *v, int r)
{
    return v->row_y + (float)r * v->row_pitch;
}

/* The number in a bar at the frame's text size, never smaller: that size
 * is the legibility floor (frame.h). A number that does not fit its bar is
 * shown at the next zoom level instead (or with a taller panel), and the
 * frame counts it so that the panel says so (draw_hint): never dropped
 * silently. Returns whether it was drawn. */
static bool draw_label_in_bar(const frame *f, float x0, float x1, float y0, float h, const char *s,
                              rgba8 fill)
{
    if (!f->font)
        return false;
    const int size = f->size;
    const float px = f->font_px, cap = text_font_metrics(f->font, size).cap_height;
    const float w = text_width(f->font, size, s);
    const bool low = h < cap * 1.15f;
    if (low || w + px * 0.25f + 2 > x1 - x0) {
        if (f->left_out)
            f->left_out[low ? 1 : 0]++;
        return false;
    }
    const float cx = 0.5f * (maxf(x0, f->v->plot_x) + minf(x1, f->v->plot_x + f->v->plot_w));
    /* centred in the visible part of the bar, yet inside the bar */
    float x = minf(maxf(cx, x0 + w * 0.5f + 1), x1 - w * 0.5f - 1);
    /* The bar under the playhead keeps a readable number: it steps aside
     * from the cursor's line where the bar has room; else it is drawn again
     * over the line once the cursor is drawn (draw_labels_at). */
    const float clear = w * 0.5f + maxf(2, px * 0.15f);
    if (fabsf(f->cursor_x - x) < clear) {
        if (f->cursor_x - clear - w * 0.5f >= x0 + 1)
            x = f->cursor_x - clear;
        else if (f->cursor_x + clear + w * 0.5f <= x1 - 1)
            x = f->cursor_x + clear;
    }
    if (f->second_pass && !(fabsf(f->cursor_x - x) < clear))
        return true; /* clear of the line: drawn in the first pass */
    text_draw(f->font, f->d, size, x, y0 + 0.5f * (h + cap), s, theme_label_on(f->pal, fill),
              TEXT_ALIGN_CENTER);
    return true;
}

/* The micro-batch number of action k of rank r, as its bar shows it. */
static void bar_label(const action *act, char *s, size_t n)
{
    if (act->kind == ACTION_OVERLAP_F_B)
        snprintf(s, n, "%d|%d", (int)act->microbatch, (int)act->microbatch2);
    else
        snprintf(s, n, "%d", (int)act->microbatch);
}

/* Adjacent 1-pixel columns of the same colour and height become one quad:
 * a zoomed-out row of a thousand columns is then a handful of quads. */
typedef struct column_run {
    float x0, x1, y, h;
    rgba8 color;
    bool open;
} column_run;

static void run_flush(const frame *f, column_run *run)
{
    if (run->open)
        draw2d_rect(f->d, run->x0, run->y, run->x1 - run->x0, run->h, run->color);
    run->open = false;
}

static void run_add(const frame *f, column_run *run, float x0, float x1, float y, float h, rgba8 c)
{
    if (run->open && x0 <= run->x1 && y == run->y && h == run->h && c.r == run->color.r &&
        c.g == run->color.g && c.b == run->color.b && c.a == run->color.a) {
        run->x1 = maxf(run->x1, x1);
        return;
    }
    run_flush(f, run);
    *run = (column_run){x0, x1, y, h, c, true};
}

/* Bars of one rank inside [t0, t1], as timeline_lod.h lays them out: one
 * quad per bar at least a pixel wide, with its number where it fits; bars
 * thinner than a pixel merged into stretches of whole pixel columns, each
 * drawn with the fill of the kind that covers most of it, so a zoomed-out
 * million-action timeline costs a few quads per row, not one per bar. */
static void draw_bars(const frame *f, int r)
{
    const timeline_view *v = f->v;
    const timeline *tl = f->p->tl;
    const float y0 = row_top(v, r), h = v->bar_h;
    timeline_lod_walk w;
    timeline_lod_piece piece;
    timeline_lod_begin(&w, tl, v, r);
    while (timeline_lod_next(&w, &piece)) {
        const style st = f->styles[piece.action];
        const float x0 = piece.x0, x1 = piece.x1;
        /* a hairline gap keeps back-to-back bars apart once they are wide */
        const float gap = piece.kind == TIMELINE_LOD_BAR && x1 - x0 >= 4 ? 1 : 0;
        const float cx0 = clip_x(f, x0), cx1 = clip_x(f, x1 - gap);
        if (st.pattern == DRAW2D_SOLID)
            draw2d_rect(f->d, cx0, y0, cx1 - cx0, h, st.fill);
        else
            draw2d_rect_pattern(f->d, cx0, y0, cx1 - cx0, h, st.fill, st.ink, st.pattern,
                                f->period);
        struct timeline_panel_still *still = f->p->still;
        if (piece.kind == TIMELINE_LOD_STRETCH) {
            still->stretches++; /* the numbers of merged bars: "zoom in" */
            continue;
        }
        if (f->font) {
            if (still->bar_count == still->bar_capacity) {
                still->bar_capacity = still->bar_capacity ? 2 * still->bar_capacity : 256;
                still->bars =
                    ppf_realloc(still->bars, (size_t)still->bar_capacity * sizeof *still->bars);
            }
            still->bars[still->bar_count++] =
                (numbered_bar){r, piece.first, piece.action, x0, x1 - gap};
        }
    }
}

/* The numbers of the bars draw_bars found wide enough, over the bars. */
static void draw_bar_numbers(const frame *f)
{
    const struct timeline_panel_still *still = f->p->still;
    const timeline *tl = f->p->tl;
    for (int i = 0; i < still->bar_count; i++) {
        const numbered_bar *b = &still->bars[i];
        char s[32];
        bar_label(&tl->program->rank[b->rank].actions[b->action], s, sizeof s);
        draw_label_in_bar(f, b->x0, b->x1, row_top(f->v, b->rank), f->v->bar_h, s,
                          f->styles[b->kind].fill);
    }
    if (f->left_out)
        f->left_out[0] += still->stretches;
}

/* Idle time: the row between its bars, over [0, makespan], drawn once under
 * them as a faint hatch (one quad per row, whatever the number of gaps). */
static void draw_bubble(const frame *f, int r)
{
    const timeline_view *v = f->v;
    const float x0 = clip_x(f, tx(f, 0)), x1 = clip_x(f, tx(f, f->p->tl->makespan));
    if (x1 <= x0)
        return;
    const style bubble = style_of(theme_bubble_fill(f->pal));
    draw2d_rect_pattern(f->d, x0, row_top(v, r), x1 - x0, v->bar_h, bubble.fill, bubble.ink,
                        bubble.pattern, f->period);
}

static void draw_allreduces(const frame *f)
{
    const timeline_view *v = f->v;
    const timeline *tl = f->p->tl;
    if (v->lane_h <= 0)
        return;
    for (int i = 0; i < tl->allreduce_count; i++) {
        const transfer *ar = &tl->allreduces[i];
        if (ar->end < v->t0 || ar->start > v->t1)
            continue;
        const float x0 = clip_x(f, tx(f, ar->start));
        const float x1 = maxf(clip_x(f, tx(f, ar->end)), x0 + 1);
        const float y = row_top(v, ar->src_rank) + v->lane_y + v->lane_h * 0.15f;
        draw2d_rect(f->d, x0, y, x1 - x0, v->lane_h * 0.7f, f->pal->allreduce);
    }
}

static void draw_arrow(const frame *f, float xs, float ys, float xe, float ye, float thick,
                       rgba8 color)
{
    const float dx = xe - xs, dy = ye - ys;
    const float len = sqrtf(dx * dx + dy * dy);
    if (len < 1)
        return;
    const float ux = dx / len, uy = dy / len;
    const float head = minf(f->v->em * 0.4f, len * 0.6f);
    const float bx = xe - ux * head, by = ye - uy * head;
    draw2d_line(f->d, xs, ys, bx, by, thick, color);
    draw2d_triangle(f->d, xe, ye, bx - uy * head * 0.45f, by + ux * head * 0.45f,
                    bx + uy * head * 0.45f, by - ux * head * 0.45f, color);
}

/* p2p transfers whose [start, end] meets the visible range. Each rank's walk
 * starts at the first producing action that can reach t0 (the cursor's
 * fields are documented: rank, action index, half); when more than one
 * arrow per 4 pixels could be visible they would only be noise, so none are
 * drawn. */
static void draw_p2p(const frame *f)
{
    const timeline_view *v = f->v;
    const timeline *tl = f->p->tl;
    const program *prog = tl->program;
    if (tl->p2p_count == 0)
        return;
    long visible = 0;
    for (int r = 0; r < prog->ranks; r++) {
        const int n = prog->rank[r].count;
        const int k0 = timeline_first_end_after(tl, r, 0, n, v->t0 - tl->p2p[r]);
        visible += timeline_first_end_after(tl, r, k0, n, v->t1) - k0;
    }
    if ((double)visible > v->plot_w / 4)
        return;
    const float thick = maxf(1, v->em * 0.09f);
    for (int r = 0; r < prog->ranks; r++) {
        const int n = prog->rank[r].count;
        p2p_cursor cur = {.rank = r,
                          .index = timeline_first_end_after(tl, r, 0, n, v->t0 - tl->p2p[r])};
        transfer x;
        while (timeline_next_p2p(tl, &cur, &x) && x.src_rank == r && x.start <= v->t1) {
            if (x.end < v->t0)
                continue;
            const int to = x.dst_rank;
            const float ys = to > r ? row_top(v, r) + v->bar_h : row_top(v, r);
            const float ye = to > r ? row_top(v, to) : row_top(v, to) + v->bar_h;
            draw_arrow(f, tx(f, x.start), ys, tx(f, x.end), ye, thick, f->pal->p2p);
        }
    }
}

/* The width of draw_memory_readout's plates: the widest count (the peak's
 * digits, two at least) and its pad. */
static float readout_plate_w(const frame *f)
{
    char s[16];
    snprintf(s, sizeof s, "%d", f->p->memory.peak > 9 ? f->p->memory.peak : 10);
    return text_width(f->font, f->size, s) + 2 * maxf(2, f->v->em * 0.2f);
}

/* The peak of one rank's memory chart, marked where it is first reached: a
 * line at its level across the lane and a notch at its first time. */
static void memory_peak(const frame *f, const timeline_memory_curve *c, float base, float sub,
                        float scale)
{
    const timeline_view *v = f->v;
    const float peak_y = base - scale * (float)c->peak;
    draw2d_rect(f->d, v->plot_x, peak_y, v->plot_w, 1, colour_with_alpha(f->pal->text, 70));
    for (int i = 0; i < c->count; i++) {
        if (c->steps[i].count != c->peak)
            continue;
        const float x = tx(f, c->steps[i].time);
        if (x >= v->plot_x && x <= v->plot_x + v->plot_w) {
            const float n = maxf(3, minf(sub * 0.3f, v->em * 0.4f));
            draw2d_triangle(f->d, x - n, peak_y - n, x + n, peak_y - n, x, peak_y, f->pal->text);
        }
        break;
    }
}

/* The text of one rank's memory chart: the count over each plateau wide
 * enough for its digits, and "peak N" when there is room. Counts are asked
 * only of the steps that start on screen and are a text wide, so a dense
 * curve costs no more than its columns. */
static void memory_labels(const frame *f, const timeline_memory_curve *c, float base, float sub)
{
    const timeline_view *v = f->v;
    const double end_t = f->p->tl->makespan;
    const rgba8 ink = f->pal->text, dim = colour_with_alpha(f->pal->text, 150);
    if (!f->font || sub < f->digit_h * 1.2f)
        return;
    const float pad = v->em * 0.3f, y = base - 0.5f * (sub - f->digit_h);
    char s[32];
    /* "peak N" at the lane's right end, when the lane holds a line of text */
    snprintf(s, sizeof s, "peak %d", c->peak);
    const float pw = text_width(f->font, f->size, s);
    float right = v->plot_x + v->plot_w;
    if (sub >= f->font_px * 0.9f && pw + 2 * pad < v->plot_w * 0.2f) {
        text_draw(f->font, f->d, f->size, right - pad, y, s, dim, TEXT_ALIGN_RIGHT);
        right -= pw + 2 * pad;
    }
    /* the cursor's readout (draw_memory_readout) covers the counts near it */
    const float near = 2 * (readout_plate_w(f) + maxf(2, v->em * 0.25f)) + v->em * 0.3f;
    int i = timeline_memory_step_at(c, v->t0);
    while (i < c->count && c->steps[i].time < v->t1) {
        const double s1 = i + 1 < c->count ? c->steps[i + 1].time : end_t;
        float x0 = maxf(tx(f, c->steps[i].time), v->plot_x), x1 = minf(tx(f, s1), right);
        if (f->cursor_x == f->cursor_x && x0 < f->cursor_x + near && x1 > f->cursor_x - near) {
            /* the wider side of the plateau the readout leaves */
            if (f->cursor_x - near - x0 >= x1 - (f->cursor_x + near))
                x1 = f->cursor_x - near;
            else
                x0 = f->cursor_x + near;
        }
        const int count = c->steps[i].count;
        if (count > 0 && x1 - x0 >= f->digit_h * 2.2f) {
            snprintf(s, sizeof s, "%d", count);
            if (text_width(f->font, f->size, s) + pad <= x1 - x0)
                text_draw(f->font, f->d, f->size, 0.5f * (x0 + x1), y, s, ink, TEXT_ALIGN_CENTER);
        }
        /* past a run of narrow steps in one go */
        const int next = timeline_memory_first_step_at_or_after(
            c, i + 1, timeline_view_x_to_time(v, tx(f, c->steps[i].time) + f->digit_h));
        i = next > i + 1 ? next - 1 : i + 1;
    }
}

/* The height of one rank's sub-lane of the memory lane; 0 when the panel
 * shows no memory lane. */
static float memory_sub_lane(const frame *f)
{
    if (f->p->memory.peak <= 0 || f->v->mem_h < 2)
        return 0;
    return f->v->mem_h / (float)f->v->ranks;
}

/* Live activations: one sub-lane per rank, a filled step plot on the scale
 * of the largest peak so ranks compare (GPipe's pile against 1F1B's
 * staircase), with a stronger line along its top so the steps read and
 * each rank's peak marked (the counts are draw_memory_labels'). Dense steps
 * merge into 1-pixel columns showing the highest count met (scanning a few
 * steps, then skipping the rest of the column). */
static void draw_memory(const frame *f)
{
    const timeline_view *v = f->v;
    const timeline_panel *p = f->p;
    const float sub = memory_sub_lane(f);
    if (sub <= 0)
        return;
    const float scale = sub * 0.85f / (float)p->memory.peak;
    const double end_t = p->tl->makespan;
    const rgba8 edge = colour_mix(f->pal->memory, f->pal->text, 0.55f); /* reads on both themes */
    for (int r = 0; r < v->ranks; r++) {
        const timeline_memory_curve *c = &p->memory.rank[r];
        const float base = v->mem_y + sub * (float)(r + 1);
        if (r % 2 == 1)
            draw2d_rect(f->d, v->plot_x, base - sub, v->plot_w, sub, f->pal->row_alt);
        if (sub >= 3)
            draw2d_rect(f->d, v->plot_x, base - 1, v->plot_w, 1, f->pal->grid);
        int i = timeline_memory_step_at(c, v->t0);
        float from = -INFINITY; /* pixels left of this are drawn */
        float last_top = base;  /* the outline's height so far, for its risers */
        column_run run = {0};
        while (i < c->count && c->steps[i].time < v->t1) {
            const double s1 = i + 1 < c->count ? c->steps[i + 1].time : end_t;
            const float x0 = maxf(tx(f, c->steps[i].time), from), x1 = tx(f, s1);
            int count = c->steps[i].count;
            if (x1 <= x0) {
                i++;
                continue;
            }
            if (x1 - x0 >= 1) {
                const float cx0 = clip_x(f, x0), cx1 = clip_x(f, x1);
                const float top = base - scale * (float)count;
                if (count > 0)
                    run_add(f, &run, cx0, cx1, top, scale * (float)count, f->pal->memory);
                if (sub >= 6) {
                    run_flush(f, &run);
                    draw2d_rect(f->d, cx0, minf(top, last_top) - 0.75f, 1.5f,
                                fabsf(top - last_top) + 1.5f, edge);
                    if (count > 0)
                        draw2d_rect(f->d, cx0, top - 0.75f, cx1 - cx0, 1.5f, edge);
                }
                last_top = top;
                from = x1;
                i++;
                continue;
            }
            const float col = floorf(x0);
            const double col_end = timeline_view_x_to_time(v, col + 1);
            int j = i + 1, scanned = 0;
            for (; j < c->count && c->steps[j].time < col_end && scanned < 8; j++, scanned++)
                count = c->steps[j].count > count ? c->steps[j].count : count;
            if (j < c->count && c->steps[j].time < col_end)
                j = timeline_memory_first_step_at_or_after(c, j, col_end);
            if (count > 0)
                run_add(f, &run, col, col + 1, base - scale * (float)count, scale * (float)count,
                        f->pal->memory);
            last_top = base - scale * (float)count;
            from = col + 1;
            /* the step in force at the column's end goes on from there */
            i = j - 1 > i ? j - 1 : i + 1;
        }
        run_flush(f, &run);
        memory_peak(f, c, base, sub, scale);
    }
}

/* memory_labels of every rank, with the moving parts (they step aside from
 * the cursor's readout). */
static void draw_memory_labels(const frame *f)
{
    const timeline_view *v = f->v;
    const float sub = memory_sub_lane(f);
    if (sub <= 0)
        return;
    for (int r = 0; r < v->ranks; r++)
        memory_labels(f, &f->p->memory.rank[r], v->mem_y + sub * (float)(r + 1), sub);
}

/* The cursor's value on a tab over the axis: where it goes and what it says,
 * so that the axis can leave room for it. */
typedef struct cursor_tab {
    bool shown;
    float x, y, w, h;
    char text[48];
} cursor_tab;

static cursor_tab cursor_tab_at(const frame *f, double t)
{
    const timeline_view *v = f->v;
    cursor_tab tab = {0};
    if (!f->font || t < v->t0 || t > v->t1)
        return tab;
    /* as many decimals as one pixel resolves */
    const double per_px = (v->t1 - v->t0) / v->plot_w;
    const int dec = per_px >= 1 ? 0 : (int)minf(9, (float)ceil(-log10(per_px)));
    snprintf(tab.text, sizeof tab.text, "%.*f", dec, t);
    tab.shown = true;
    tab.w = text_width(f->font, f->size, tab.text) + v->em * 0.8f;
    tab.h = f->font_px * 1.35f;
    tab.x = minf(maxf(tx(f, t) - tab.w * 0.5f, v->x), v->x + v->w - tab.w);
    tab.y = v->axis_y + v->em * 0.15f;
    return tab;
}

/* Where the note on left-out bar numbers goes: the right end of the axis
 * strip, unless the cursor's tab is there (the tab matters more). */
static cursor_tab hint_at(const frame *f, const cursor_tab *tab)
{
    const timeline_view *v = f->v;
    cursor_tab hint = {0};
    if (!f->font || !f->left_out || (f->left_out[0] == 0 && f->left_out[1] == 0))
        return hint;
    snprintf(hint.text, sizeof hint.text, "%s",
             f->left_out[0] > 0 ? "numbers: zoom in" : "numbers: taller panel");
    hint.w = text_width(f->font, f->size, hint.text) + v->em * 0.6f;
    hint.h = f->font_px * 1.35f;
    hint.x = v->plot_x + v->plot_w - hint.w;
    hint.y = v->axis_y + v->em * 0.15f;
    hint.shown = hint.w < v->plot_w * 0.8f &&
                 !(tab->shown && tab->x < hint.x + hint.w && hint.x < tab->x + tab->w);
    return hint;
}

static bool covers(const cursor_tab *t, float x, float half)
{
    return t->shown && x + half > t->x && x - half < t->x + t->w;
}

/* Ticks every 1, 2 or 5 times a power of ten, about 7 em apart; labels the
 * cursor's tab or the hint would cover are left out. */
static void draw_axis(const frame *f, const cursor_tab *tab, const cursor_tab *hint)
{
    const timeline_view *v = f->v;
    const double span = v->t1 - v->t0;
    const double step = timeline_axis_step(span * (v->em * 7) / v->plot_w);
    const int dec = timeline_axis_decimals(step);
    const double i0 = ceil(v->t0 / step), i1 = floor(v->t1 / step);
    const float tick = v->em * 0.35f;
    draw2d_rect(f->d, v->plot_x, v->axis_y, v->plot_w, 1, f->pal->grid);
    for (double i = i0; i <= i1 && i - i0 < 1000; i++) {
        const double t = i * step;
        const float x = floorf(tx(f, t));
        draw2d_rect(f->d, x, v->axis_y, 1, tick, f->pal->text);
        if (!f->font)
            continue;
        char s[32];
        snprintf(s, sizeof s, "%.*f", dec, fabs(t) < step * 1e-6 ? 0.0 : t);
        const float half = 0.5f * text_width(f->font, f->size, s) + v->em * 0.3f;
        if (covers(tab, x, half) || covers(hint, x, half))
            continue;
        text_draw(f->font, f->d, f->size, x, v->axis_y + tick + f->font_px * 0.95f, s, f->pal->text,
                  TEXT_ALIGN_CENTER);
    }
}

static void draw_grid(const frame *f)
{
    const timeline_view *v = f->v;
    const double step = timeline_axis_step((v->t1 - v->t0) * (v->em * 7) / v->plot_w);
    const double i0 = ceil(v->t0 / step), i1 = floor(v->t1 / step);
    for (double i = i0; i <= i1 && i - i0 < 1000; i++)
        draw2d_rect(f->d, floorf(tx(f, i * step)), v->plot_y, 1, v->plot_h, f->pal->grid);
}

static void draw_labels(const frame *f)
{
    const timeline_view *v = f->v;
    if (!f->font)
        return;
    /* every k-th rank when the rows are shorter than a line, rows under a
     * pixel included (P=256 in a 720p window) */
    const float every_f = v->row_pitch > 0 ? ceilf(f->font_px * 1.1f / v->row_pitch) : 1;
    const int every = every_f < 1 ? 1 : every_f > (float)v->ranks ? v->ranks : (int)every_f;
    const float x = v->plot_x - v->em * 0.5f;
    for (int r = 0; r < v->ranks; r += every) {
        char s[32];
        snprintf(s, sizeof s, "rank %d", r);
        const float mid = row_top(v, r) + 0.5f * maxf(v->bar_h, f->digit_h);
        text_draw(f->font, f->d, f->size, x, mid + 0.5f * f->digit_h, s, f->pal->text,
                  TEXT_ALIGN_RIGHT);
    }
    if (f->p->memory.peak > 0 && v->mem_h >= f->font_px) {
        char s[48];
        const float y = v->mem_y + 0.5f * v->mem_h;
        if (v->mem_h >= f->font_px * 2.3f) {
            text_draw(f->font, f->d, f->size, x, y - 0.1f * f->font_px, "memory", f->pal->text,
                      TEXT_ALIGN_RIGHT);
            snprintf(s, sizeof s, "peak %d", f->p->memory.peak);
            text_draw(f->font, f->d, f->size, x, y + 1.05f * f->font_px, s,
                      colour_with_alpha(f->pal->text, 170), TEXT_ALIGN_RIGHT);
        } else {
            text_draw(f->font, f->d, f->size, x, y + 0.5f * f->digit_h, "memory", f->pal->text,
                      TEXT_ALIGN_RIGHT);
        }
    }
}

/* The line at t across rows and memory lane, a notch at the top, and the
 * value on a tab over the axis. */
static void draw_cursor(const frame *f, double t, const cursor_tab *tab)
{
    const timeline_view *v = f->v;
    if (t < v->t0 || t > v->t1)
        return;
    const float x = tx(f, t);
    const float thick = maxf(2, roundf(v->em * 0.12f));
    draw2d_clip(f->d, v->plot_x - thick, v->y, v->plot_w + 2 * thick, v->h);
    draw2d_rect(f->d, x - thick * 0.5f, v->plot_y, thick, v->plot_h, f->pal->cursor);
    const float n = v->em * 0.45f;
    draw2d_triangle(f->d, x - n, v->plot_y, x + n, v->plot_y, x, v->plot_y + n, f->pal->cursor);
    draw2d_clip_off(f->d);
    if (!tab->shown)
        return;
    draw2d_rect(f->d, tab->x, tab->y, tab->w, tab->h, f->pal->cursor);
    text_draw(f->font, f->d, f->size, tab->x + tab->w * 0.5f, tab->y + 0.5f * (tab->h + f->digit_h),
              tab->text, theme_label_on(f->pal, f->pal->cursor), TEXT_ALIGN_CENTER);
}

/* Each rank's live activations at the cursor, on a plate beside its line
 * level with the rank's memory sub-lane: the count a lecturer reads out
 * while scrubbing. Sub-lanes thinner than a plate alternate sides of the
 * line so plates never overlap; thinner than half a plate (many ranks in a
 * short lane) show none, the chart alone: a grid of numbers no one could
 * match to its rank. */
static void draw_memory_readout(const frame *f, double t)
{
    const timeline_view *v = f->v;
    const timeline_panel *p = f->p;
    if (!f->font || p->memory.peak <= 0 || v->ranks <= 0 || t < v->t0 || t > v->t1)
        return;
    const float sub = v->mem_h / (float)v->ranks;
    const float pad = maxf(2, v->em * 0.2f), plate_h = f->digit_h + 2 * pad;
    const int columns = (int)ceilf(plate_h / maxf(sub, 1e-3f));
    if (columns > 2 || v->mem_h < plate_h)
        return;
    const float x = tx(f, t), gap = maxf(2, v->em * 0.25f);
    const float w = readout_plate_w(f);
    /* the columns' places: right of the line, left of it, then further out
       on either side, skipping those past the plot's ends */
    const float places[4] = {x + gap, x - gap - w, x + 2 * gap + w, x - 2 * gap - 2 * w};
    float column_x[2];
    int found = 0;
    for (int k = 0; k < 4 && found < columns; k++)
        if (places[k] >= v->plot_x && places[k] + w <= v->plot_x + v->plot_w)
            column_x[found++] = places[k];
    if (found < columns)
        return;
    for (int r = 0; r < v->ranks; r++) {
        char s[16];
        snprintf(s, sizeof s, "%d", timeline_memory_live_at(&p->memory.rank[r], t));
        const float x0 = column_x[r % columns];
        const float yc = v->mem_y + sub * ((float)r + 0.5f);
        draw2d_rect(f->d, x0, yc - plate_h * 0.5f, w, plate_h,
                    colour_with_alpha(f->pal->background, 235));
        draw2d_rect_outline(f->d, x0, yc - plate_h * 0.5f, w, plate_h, maxf(1, v->em * 0.05f),
                            f->pal->memory);
        text_draw(f->font, f->d, f->size, x0 + w * 0.5f, yc + f->digit_h * 0.5f, s, f->pal->text,
                  TEXT_ALIGN_CENTER);
    }
}

/* The numbers of the bars under the cursor that could not step aside from
 * its line, drawn again over it. */
static void draw_labels_at(const frame *f, double t)
{
    const timeline_view *v = f->v;
    const timeline *tl = f->p->tl;
    if (!f->font || t < v->t0 || t > v->t1)
        return;
    frame g = *f;
    g.left_out = NULL;
    g.second_pass = true;
    draw2d_clip(f->d, v->plot_x, v->plot_y, v->plot_w, v->plot_h);
    for (int r = 0; r < v->ranks; r++) {
        const program_rank *pr = &tl->program->rank[r];
        const int k = timeline_first_end_after(tl, r, 0, pr->count, t);
        if (k >= pr->count || tl->time[r][k].start > t ||
            !action_is_compute((action_kind)pr->actions[k].kind))
            continue;
        const float x0 = tx(f, tl->time[r][k].start), x1 = tx(f, tl->time[r][k].end);
        if (x1 - x0 < 1)
            continue;
        const float gap = x1 - x0 >= 4 ? 1 : 0;
        char s[32];
        bar_label(&pr->actions[k], s, sizeof s);
        draw_label_in_bar(&g, x0, x1 - gap, row_top(v, r), v->bar_h, s,
                          f->styles[pr->actions[k].kind].fill);
    }
    draw2d_clip_off(f->d);
}

static void draw_hover(const frame *f, const timeline_panel_hover *hv)
{
    const timeline_view *v = f->v;
    const timeline *tl = f->p->tl;
    if (!hv || hv->kind == TIMELINE_HIT_NONE || hv->rank < 0 || hv->rank >= v->ranks)
        return;
    double s, e;
    float y0, h;
    char text[256];
    if (hv->kind == TIMELINE_HIT_ACTION) {
        if (hv->index < 0 || hv->index >= tl->program->rank[hv->rank].count)
            return;
        s = tl->time[hv->rank][hv->index].start;
        e = tl->time[hv->rank][hv->index].end;
        y0 = row_top(v, hv->rank);
        h = v->bar_h;
        timeline_describe_action(tl, hv->rank, hv->index, text, sizeof text);
    } else if (hv->kind == TIMELINE_HIT_STRETCH) {
        timeline_lod_piece piece;
        if (!timeline_lod_find(tl, v, hv->rank, hv->index, &piece))
            return; /* zoomed since: no longer merged */
        s = timeline_view_x_to_time(v, piece.x0);
        e = timeline_view_x_to_time(v, piece.x1);
        y0 = row_top(v, hv->rank);
        h = v->bar_h;
        timeline_lod_describe(tl, hv->rank, s, e, piece.first, piece.last, text, sizeof text);
    } else {
        if (hv->index < 0 || hv->index >= tl->allreduce_count)
            return;
        s = tl->allreduces[hv->index].start;
        e = tl->allreduces[hv->index].end;
        y0 = row_top(v, hv->rank) + v->lane_y;
        h = v->lane_h;
        timeline_describe_allreduce(tl, hv->index, text, sizeof text);
    }
    const float x0 = clip_x(f, tx(f, s)), x1 = maxf(clip_x(f, tx(f, e)), x0 + 1);
    const float th = maxf(1.5f, v->em * 0.12f);
    draw2d_clip(f->d, v->plot_x, v->plot_y, v->plot_w, v->plot_h);
    draw2d_rect_outline(f->d, x0 - th, y0 - th, x1 - x0 + 2 * th, h + 2 * th, th, f->pal->text);
    draw2d_clip_off(f->d);
    if (!f->font)
        return;
    /* the tooltip over the bar, or under it when the panel's top is in the way */
    const float w = text_width(f->font, f->size, text) + v->em;
    const float bh = f->font_px * 1.6f;
    float bx = 0.5f * (maxf(x0, v->plot_x) + minf(x1, v->plot_x + v->plot_w)) - w * 0.5f;
    bx = maxf(minf(bx, v->x + v->w - w), v->x);
    float by = y0 - bh - v->em * 0.3f;
    if (by < v->y)
        by = y0 + h + v->em * 0.3f;
    draw2d_rect(f->d, bx, by, w, bh, colour_with_alpha(f->pal->background, 240));
    draw2d_rect_outline(f->d, bx, by, w, bh, 1, f->pal->text);
    text_draw(f->font, f->d, f->size, bx + v->em * 0.5f, by + 0.5f * (bh + f->digit_h), text,
              f->pal->text, TEXT_ALIGN_LEFT);
}

static still_key still_key_of(const frame *f)
{
    const timeline_view *v = f->v;
    still_key k;
    memset(&k, 0, sizeof k);
    k.tl = f->p->tl;
    k.generation = f->p->generation;
    k.font = f->font;
    k.size = f->size;
    k.fb_w = f->d->width, k.fb_h = f->d->height;
    k.ranks = v->ranks;
    k.lane = v->allreduce_lane;
    memcpy(k.anchor, f->d->anchor, sizeof k.anchor);
    k.t0 = v->t0, k.t1 = v->t1;
    k.x = v->x, k.y = v->y, k.w = v->w, k.h = v->h, k.em = v->em, k.label_w = v->label_w;
    k.plot_x = v->plot_x, k.plot_y = v->plot_y, k.plot_w = v->plot_w, k.plot_h = v->plot_h;
    k.row_y = v->row_y, k.row_pitch = v->row_pitch, k.bar_h = v->bar_h;
    k.lane_y = v->lane_y, k.lane_h = v->lane_h, k.mem_y = v->mem_y, k.mem_h = v->mem_h;
    k.pal = *f->pal;
    return k;
}

void timeline_panel_draw(const timeline_panel *p, const timeline_view *v, draw2d *d,
                         const text_font *font, int font_size_index, const timeline_palette *pal,
                         double t, const timeline_panel_hover *hover)
{
    assert(p->tl && v && d && pal);
    assert(timeline_panel_of(p, p->tl) && "the panel's timeline, not one rebuilt in its place");
    assert(v->ranks == p->tl->program->ranks && "a view of the panel's timeline");
    assert(!font || (font_size_index >= 0 && font_size_index < font->size_count));
    if (v->w <= 0 || v->h <= 0)
        return;
    int left_out[2] = {0, 0};
    frame f = {.p = p,
               .v = v,
               .d = d,
               .font = font,
               .size = font_size_index,
               .pal = pal,
               .left_out = left_out,
               .cursor_x = t >= v->t0 && t <= v->t1 ? (float)timeline_view_time_to_x(v, t) : NAN};
    f.font_px = font ? (float)font->sizes[font_size_index] : v->em;
    /* digits are as tall as capitals in the fonts we use (DejaVu: 0.73 em) */
    f.digit_h = font ? text_font_metrics(font, font_size_index).cap_height : f.font_px * 0.73f;
    f.period = maxf(4, roundf(v->em * 0.5f));
    for (int kind = ACTION_F; kind <= ACTION_OVERLAP_F_B; kind++)
        f.styles[kind] = style_of(theme_action_fill(pal, (action_kind)kind));

    draw2d_clip_off(d);
    struct timeline_panel_still *still = p->still;
    const still_key key = still_key_of(&f);
    /* the pixels whose centres the panel's rectangle holds */
    const int px0 = (int)ceilf(v->x - 0.5f), py0 = (int)ceilf(v->y - 0.5f);
    const int px1 = (int)ceilf(v->x + v->w - 0.5f), py1 = (int)ceilf(v->y + v->h - 0.5f);
    const bool keepable = pal->background.a == 255 && px0 >= 0 && py0 >= 0 && px1 > px0 &&
                          py1 > py0 && px1 <= d->width && py1 <= d->height;
    still->reused = keepable && still->kept && memcmp(&still->key, &key, sizeof key) == 0;
    if (still->reused) {
        draw2d_put(d, &still->pixels);
    } else {
        still->kept = false;
        still->bar_count = still->stretches = 0;
        draw2d_rect(d, v->x, v->y, v->w, v->h, pal->background);
        for (int r = 1; r < v->ranks; r += 2)
            draw2d_rect(d, v->x, row_top(v, r), v->w, v->row_pitch, pal->row_alt);

        draw2d_clip(d, v->plot_x, v->plot_y, v->plot_w, v->plot_h);
        draw_grid(&f);
        for (int r = 0; r < v->ranks; r++)
            draw_bubble(&f, r);
        /* arrows under the bars: they show in the gaps between rows, where
         * they say who sends to whom, and never cover a bar's number */
        draw_p2p(&f);
        for (int r = 0; r < v->ranks; r++)
            draw_bars(&f, r);
        draw_allreduces(&f);
        draw_memory(&f);
        draw2d_clip_off(d);
        /* A window's buffer may still be the size before a resize in the
         * first frame drawn after it (draw2d_target_exact): its pixels are
         * kept from the second frame drawn the same, never from the first. */
        const bool settled = draw2d_target_exact(d) ||
                             (still->drawn && memcmp(&still->drawn_key, &key, sizeof key) == 0);
        if (keepable && settled) {
            draw2d_keep(d, &still->pixels, px0, py0, px1 - px0, py1 - py0);
            still->key = key;
            still->kept = true;
            still->drawn = false;
        } else {
            still->drawn_key = key;
            still->drawn = true;
        }
    }
    draw2d_clip(d, v->plot_x, v->plot_y, v->plot_w, v->plot_h);
    draw_bar_numbers(&f);
    draw_memory_labels(&f);
    draw2d_clip_off(d);

    draw2d_clip(d, v->x, v->y, v->w, v->h);
    draw_labels(&f);
    const cursor_tab tab = cursor_tab_at(&f, t);
    const cursor_tab hint = hint_at(&f, &tab);
    draw_axis(&f, &tab, &hint);
    if (hint.shown)
        text_draw(font, d, f.size, hint.x + hint.w, hint.y + 0.5f * (hint.h + f.digit_h), hint.text,
                  colour_with_alpha(pal->text, 190), TEXT_ALIGN_RIGHT);
    draw2d_clip_off(d);
    draw_cursor(&f, t, &tab);
    draw_labels_at(&f, t);
    draw_memory_readout(&f, t);
    draw_hover(&f, hover);
    draw2d_clip_off(d);
}
