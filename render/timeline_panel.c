/* timeline_panel.c - the timeline (Gantt) panel: memory curves and drawing.
 * The view model is timeline_view.c. See timeline_panel.h for what it
 * promises. */
#include "timeline_panel.h"

#include "timeline_lod.h"
#include "timeline_panel_internal.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- init --------------------------------------------------------------- */

/* What the still part was drawn for: a frame whose key is equal draws the
 * same still pixels. Zeroed before it is filled, so memcmp compares it. */
typedef struct still_key {
    const timeline *tl;
    uint64_t generation; /* the timeline's build: another at the same address draws other bars */
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

/* The number in a bar at the frame's text size, never smaller: that size
 * is the legibility floor (frame.h). A number that does not fit its bar is
 * shown at the next zoom level instead (or with a taller panel), and the
 * frame counts it so that the window's panel says so (hint_at): never
 * dropped silently where the user can do something about it. Returns
 * whether it was drawn. */
static bool draw_label_in_bar(const frame *f, float x0, float x1, float y0, float h, const char *s,
                              rgba8 fill)
{
    if (!f->font)
        return false;
    const int size = f->size;
    const float px = f->font_px, cap = text_font_metrics(f->font, size).cap_height;
    const float w = text_width(f->font, size, s);
    const bool low = h<cap * 1.15f, narrow = w + px * 0.25f + 2> x1 - x0;
    if (low || narrow) {
        if (f->left_out) /* each thing missing counted, so the hint names them all */
            f->left_out[0] += narrow, f->left_out[1] += low;
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
 * strip, unless the cursor's tab is there (the tab matters more); none in
 * a file, which cannot be zoomed (the numbers are simply left out). */
static cursor_tab hint_at(const frame *f, const cursor_tab *tab)
{
    const timeline_view *v = f->v;
    cursor_tab hint = {0};
    if (!f->font || !f->left_out || (f->left_out[0] == 0 && f->left_out[1] == 0) || v->for_file)
        return hint;
    snprintf(hint.text, sizeof hint.text, "%s",
             f->left_out[0] > 0 && f->left_out[1] > 0 ? "numbers: zoom in, taller panel"
             : f->left_out[0] > 0                     ? "numbers: zoom in"
                                                      : "numbers: taller panel");
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

/* What the hover points at: its time span, its row's band (y0, h) and its
 * description; false where there is nothing (any more) to point at. */
static bool hover_target(const frame *f, const timeline_panel_hover *hv, double *s, double *e,
                         float *y0, float *h, char *text, size_t size)
{
    const timeline_view *v = f->v;
    const timeline *tl = f->p->tl;
    if (!hv || hv->kind == TIMELINE_HIT_NONE || hv->rank < 0 || hv->rank >= v->ranks)
        return false;
    if (hv->kind == TIMELINE_HIT_ACTION) {
        if (hv->index < 0 || hv->index >= tl->program->rank[hv->rank].count)
            return false;
        *s = tl->time[hv->rank][hv->index].start;
        *e = tl->time[hv->rank][hv->index].end;
        *y0 = row_top(v, hv->rank);
        *h = v->bar_h;
        timeline_describe_action(tl, hv->rank, hv->index, text, size);
    } else if (hv->kind == TIMELINE_HIT_STRETCH) {
        timeline_lod_piece piece;
        if (!timeline_lod_find(tl, v, hv->rank, hv->index, &piece))
            return false; /* zoomed since: no longer merged */
        *s = timeline_view_x_to_time(v, piece.x0);
        *e = timeline_view_x_to_time(v, piece.x1);
        *y0 = row_top(v, hv->rank);
        *h = v->bar_h;
        timeline_lod_describe(tl, hv->rank, *s, *e, piece.first, piece.last, text, size);
    } else {
        if (hv->index < 0 || hv->index >= tl->allreduce_count)
            return false;
        *s = tl->allreduces[hv->index].start;
        *e = tl->allreduces[hv->index].end;
        *y0 = row_top(v, hv->rank) + v->lane_y;
        *h = v->lane_h;
        timeline_describe_allreduce(tl, hv->index, text, size);
    }
    return true;
}

/* The hovered bar's outline, with the panel (its tooltip comes last:
 * draw_hover_tip). */
static void draw_hover(const frame *f, const timeline_panel_hover *hv)
{
    const timeline_view *v = f->v;
    double s, e;
    float y0, h;
    char text[256];
    if (!hover_target(f, hv, &s, &e, &y0, &h, text, sizeof text))
        return;
    const float x0 = clip_x(f, tx(f, s)), x1 = maxf(clip_x(f, tx(f, e)), x0 + 1);
    const float th = maxf(1.5f, v->em * 0.12f);
    draw2d_clip(f->d, v->plot_x, v->plot_y, v->plot_w, v->plot_h);
    draw2d_rect_outline(f->d, x0 - th, y0 - th, x1 - x0 + 2 * th, h + 2 * th, th, f->pal->text);
    draw2d_clip_off(f->d);
}

/* The tooltip over the hovered bar, or under it when the panel's top is in
 * the way, kept inside the panel, opaque: nothing under it shows through,
 * and drawn after every outline (the inspection's critical path) so that
 * none crosses it. */
static void draw_hover_tip(const frame *f, const timeline_panel_hover *hv)
{
    const timeline_view *v = f->v;
    double s, e;
    float y0, h;
    char text[256];
    if (!f->font || !hover_target(f, hv, &s, &e, &y0, &h, text, sizeof text))
        return;
    const float x0 = clip_x(f, tx(f, s)), x1 = maxf(clip_x(f, tx(f, e)), x0 + 1);
    const float w = text_width(f->font, f->size, text) + v->em;
    const float bh = f->font_px * 1.6f;
    float bx = 0.5f * (maxf(x0, v->plot_x) + minf(x1, v->plot_x + v->plot_w)) - w * 0.5f;
    bx = maxf(minf(bx, v->x + v->w - w), v->x);
    float by = y0 - bh - v->em * 0.3f;
    if (by < v->y)
        by = y0 + h + v->em * 0.3f;
    draw2d_rect(f->d, bx, by, w, bh, colour_with_alpha(f->pal->background, 255));
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
        panel_draw_memory(&f);
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
    panel_draw_memory_labels(&f);
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
    panel_draw_memory_readout(&f, t);
    draw_hover(&f, hover);
    draw2d_clip_off(d);
}

void timeline_panel_draw_tip(const timeline_panel *p, const timeline_view *v, draw2d *d,
                             const text_font *font, int font_size_index,
                             const timeline_palette *pal, const timeline_panel_hover *hover)
{
    assert(p->tl && v && d && pal);
    assert(!font || (font_size_index >= 0 && font_size_index < font->size_count));
    if (!hover || v->w <= 0 || v->h <= 0)
        return;
    frame f = {.p = p, .v = v, .d = d, .font = font, .size = font_size_index, .pal = pal};
    f.font_px = font ? (float)font->sizes[font_size_index] : v->em;
    f.digit_h = font ? text_font_metrics(font, font_size_index).cap_height : f.font_px * 0.73f;
    draw2d_clip_off(d);
    draw_hover_tip(&f, hover);
}
