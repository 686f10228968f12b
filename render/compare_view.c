/* compare_view.c - panes on one clock and their strip. See compare_view.h. */
#include "compare_view.h"

#include <assert.h>
#include <math.h>
#include <string.h>

#include <glad/gl.h>

#include "timeline_panel.h"

/* DejaVu Sans: a capital's height and the line height per pixel of em,
 * rounded up (frame.c's rule, for the strip's own text). */
#define CAP_PER_EM 0.729f
#define LINE_PER_EM 1.18f
/* The panes' aim: a frame's usual window. */
#define PANE_ASPECT (16.0 / 9.0)

static int strip_em(int fb_height, float ui_scale)
{
    const float cap = fmaxf(ceilf((float)fb_height / 50.0f), FRAME_MIN_CAP_PX) * ui_scale;
    return (int)ceilf(cap / CAP_PER_EM);
}

compare_layout compare_layout_compute(int fb_width, int fb_height, int count, compare_arrange a,
                                      float ui_scale)
{
    assert(count >= 1 && count <= COMPARE_MAX_SIDES);
    ui_scale = frame_ui_scale_clamp(ui_scale);
    if (a == COMPARE_ARRANGE_AUTO || (a == COMPARE_ARRANGE_GRID && count < 4))
        a = compare_arrange_choose(fb_width, fb_height, count, ui_scale);
    compare_layout l = {.width = fb_width, .height = fb_height, .arrange = a, .count = count};
    l.cols = a == COMPARE_ARRANGE_SIDE_BY_SIDE ? count : a == COMPARE_ARRANGE_GRID ? 2 : 1;
    l.rows = (count + l.cols - 1) / l.cols;
    l.strip_px = strip_em(fb_height, ui_scale);
    l.strip_pad = roundf((float)l.strip_px * 0.4f);
    l.gap = fmaxf(2.0f, roundf((float)l.strip_px / 10.0f));
    const float strip_h = ceilf(LINE_PER_EM * (float)l.strip_px) * (float)count + 2 * l.strip_pad;
    l.strip = (frame_rect){0, 0, (float)fb_width, fminf(strip_h, (float)fb_height / 2)};

    /* The panes share what the strip leaves, whole pixels, the gaps between. */
    const int top = (int)(l.strip.y1 + l.gap);
    const int gap = (int)l.gap;
    const int area_w = fb_width, area_h = fb_height - top;
    for (int k = 0; k < count; k++) {
        const int c = k % l.cols, r = k / l.cols;
        const int x0 = c * (area_w + gap) / l.cols, x1 = (c + 1) * (area_w + gap) / l.cols - gap;
        const int y0 = r * (area_h + gap) / l.rows, y1 = (r + 1) * (area_h + gap) / l.rows - gap;
        l.pane[k] =
            (frame_viewport){x0, top + y0, x1 - x0 > 0 ? x1 - x0 : 0, y1 - y0 > 0 ? y1 - y0 : 0};
    }
    return l;
}

float compare_pane_text_scale(const compare_layout *l, int k)
{
    const int h = l->pane[k].h;
    if (h <= 0 || l->height <= h)
        return 1.0f;
    const float want = fmaxf(ceilf((float)l->height / 50.0f), FRAME_MIN_CAP_PX);
    const float has = fmaxf(ceilf((float)h / 50.0f), FRAME_MIN_CAP_PX);
    return want / has;
}

compare_arrange compare_arrange_choose(int fb_width, int fb_height, int count, float ui_scale)
{
    const compare_arrange candidates[] = {COMPARE_ARRANGE_SIDE_BY_SIDE, COMPARE_ARRANGE_STACKED,
                                          COMPARE_ARRANGE_GRID};
    compare_arrange best = COMPARE_ARRANGE_SIDE_BY_SIDE;
    double best_d = INFINITY;
    for (int k = 0; k < 3; k++) {
        if (candidates[k] == COMPARE_ARRANGE_GRID && count < 4)
            continue;
        const compare_layout l =
            compare_layout_compute(fb_width, fb_height, count, candidates[k], ui_scale);
        const frame_viewport p = l.pane[0];
        if (p.w <= 0 || p.h <= 0)
            continue;
        const double d = fabs(log((double)p.w / p.h / PANE_ASPECT));
        if (d < best_d - 1e-9) {
            best_d = d;
            best = candidates[k];
        }
    }
    return best;
}

compare_arrange compare_arrange_next(compare_arrange a, int count)
{
    switch (a) {
    case COMPARE_ARRANGE_AUTO:
    case COMPARE_ARRANGE_SIDE_BY_SIDE:
        return COMPARE_ARRANGE_STACKED;
    case COMPARE_ARRANGE_STACKED:
        return count >= 4 ? COMPARE_ARRANGE_GRID : COMPARE_ARRANGE_SIDE_BY_SIDE;
    case COMPARE_ARRANGE_GRID:
        return COMPARE_ARRANGE_SIDE_BY_SIDE;
    }
    return COMPARE_ARRANGE_SIDE_BY_SIDE;
}

void compare_view_timeline(timeline_view *tv, const timeline *tl, double longest)
{
    assert(tl->program);
    /* The view's own "makespan" is its range: the longest, so that every
     * pane maps time to x alike and may show up to it. */
    timeline_view_init(tv, longest > tl->makespan ? longest : tl->makespan, tl->program->ranks,
                       tl->allreduce_count > 0);
}

/* ---- the renderer ------------------------------------------------------------- */

bool compare_renderer_init(compare_renderer *c, ppf_error *err)
{
    memset(c, 0, sizeof *c);
    const int em = strip_em(1080, 1);
    if (!draw2d_init(&c->batch, err))
        goto fail;
    if (!text_font_init(&c->font, &(text_font_desc){.sizes = {em, em}, .size_count = 2}, err))
        goto fail;
    c->ready = true;
    return true;
fail:
    compare_renderer_deinit(c);
    return false;
}

void compare_renderer_deinit(compare_renderer *c)
{
    if (!c)
        return;
    text_font_deinit(&c->font);
    draw2d_deinit(&c->batch);
    memset(c, 0, sizeof *c);
}

/* The target's pixels outside every pane, in `colour`: in each band
 * between neighbouring pane edges, the stretches that no pane covers. */
static void draw_gaps(draw2d *b, const compare_layout *l, rgba8 colour)
{
    int ys[2 + 2 * COMPARE_MAX_SIDES], n = 0;
    ys[n++] = 0;
    ys[n++] = l->height;
    for (int k = 0; k < l->count; k++) {
        ys[n++] = l->pane[k].y;
        ys[n++] = l->pane[k].y + l->pane[k].h;
    }
    for (int i = 1; i < n; i++) /* insertion sort: a handful of edges */
        for (int j = i; j > 0 && ys[j - 1] > ys[j]; j--) {
            const int t = ys[j];
            ys[j] = ys[j - 1], ys[j - 1] = t;
        }
    for (int i = 0; i + 1 < n; i++) {
        const int y0 = ys[i], y1 = ys[i + 1];
        if (y1 <= y0)
            continue;
        int x = 0;
        for (;;) { /* the leftmost pane in the band that ends right of x */
            const frame_viewport *next = NULL;
            for (int k = 0; k < l->count; k++) {
                const frame_viewport *p = &l->pane[k];
                if (p->w > 0 && p->y <= y0 && p->y + p->h >= y1 && p->x + p->w > x &&
                    (!next || p->x < next->x))
                    next = p;
            }
            const int gap_end = next ? (next->x > x ? next->x : x) : l->width;
            if (gap_end > x)
                draw2d_rect(b, (float)x, (float)y0, (float)(gap_end - x), (float)(y1 - y0), colour);
            if (!next)
                break;
            x = next->x + next->w;
        }
    }
}

/* The strip: its band, and each line at one size that fits the widest;
 * appended to b, which the caller began. */
static void draw_strip(compare_renderer *c, draw2d *b, const compare_layout *l,
                       const compare_frame *v, const theme *th)
{
    const float avail = l->strip.x1 - l->strip.x0 - 2 * l->strip_pad;
    int fit = l->strip_px;
    if (c->font.sizes[0] != l->strip_px) {
        const text_font_desc d = {.sizes = {l->strip_px, l->strip_px}, .size_count = 2};
        text_font_resize(&c->font, &d, NULL); /* failing, the old sizes stay */
    }
    float widest = 0;
    for (int k = 0; k < v->count; k++)
        if (v->strip[k] && v->strip[k][0])
            widest = fmaxf(widest, text_width(&c->font, 0, v->strip[k]));
    if (widest > avail && avail > 0) {
        const int floor_px = (int)ceilf(FRAME_MIN_CAP_PX / CAP_PER_EM);
        fit = (int)floorf((float)l->strip_px * avail / widest);
        fit = fit < floor_px ? floor_px : fit;
    }
    if (c->font.sizes[1] != fit) {
        const text_font_desc d = {.sizes = {l->strip_px, fit}, .size_count = 2};
        text_font_resize(&c->font, &d, NULL);
    }

    const frame_rect s = l->strip;
    draw2d_rect(b, s.x0, s.y0, s.x1 - s.x0, s.y1 - s.y0, th->panel);
    draw2d_clip(b, s.x0, s.y0, s.x1 - s.x0, s.y1 - s.y0);
    const text_metrics m = text_font_metrics(&c->font, 1);
    const float pitch = ceilf(LINE_PER_EM * (float)l->strip_px);
    for (int k = 0; k < v->count; k++) {
        if (!v->strip[k] || !v->strip[k][0])
            continue;
        const float base = s.y0 + l->strip_pad + pitch * (float)k + m.ascent;
        text_draw(&c->font, b, 1, s.x0 + l->strip_pad, base, v->strip[k],
                  k == 0 ? th->text : th->text, TEXT_ALIGN_LEFT);
    }
    draw2d_clip_off(b);
}

void compare_renderer_draw(compare_renderer *c, frame_renderer *f, frame_cache *const *panes,
                           const compare_frame *v, int fb_width, int fb_height)
{
    assert(c && c->ready && f && v->count >= 1 && v->count <= COMPARE_MAX_SIDES);
    if (fb_width <= 0 || fb_height <= 0)
        return;
    const compare_layout l =
        compare_layout_compute(fb_width, fb_height, v->count, v->arrange, v->ui_scale);
    const theme th = theme_get(v->theme);

    /* One clear of the whole target, to the panes' background, and the
     * gaps between the panes drawn over it as rules of the grid's colour:
     * llvmpipe clears a whole framebuffer with a fill but part of one by
     * drawing a quad, which each pane clearing its own viewport cost. The
     * stencil goes with the depth, as in frame.c. */
    glViewport(0, 0, fb_width, fb_height);
    glDisable(GL_SCISSOR_TEST);
    glClearColor(th.background.r / 255.0f, th.background.g / 255.0f, th.background.b / 255.0f, 1);
    glClearDepth(1);
    glDepthMask(GL_TRUE);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    draw2d_begin(&c->batch, fb_width, fb_height);
    draw_gaps(&c->batch, &l, th.grid);
    draw_strip(c, &c->batch, &l, v, &th);
    draw2d_flush(&c->batch);

    const timeline *tls[COMPARE_MAX_SIDES];
    for (int k = 0; k < v->count; k++)
        tls[k] = panes[k]->tl;
    const double longest = compare_longest_makespan(tls, v->count);
    for (int k = 0; k < v->count; k++) {
        frame_view pv = v->pane[k];
        pv.viewport = l.pane[k];
        pv.cleared = true;
        if (pv.viewport.w <= 0 || pv.viewport.h <= 0)
            continue;
        if (!(pv.timeline.t1 > pv.timeline.t0))
            compare_view_timeline(&pv.timeline, tls[k], longest);
        frame_renderer_draw(f, panes[k], &pv, fb_width, fb_height);
    }
}
