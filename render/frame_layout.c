/* frame_layout.c - where a frame's parts go (3D view, timeline panel,
 * HUD, legend, caption, the free area the cameras fit into), without GL:
 * the layout functions of frame.h. */
#include <math.h>

#include "frame_internal.h"

float frame_split_clamp(float split)
{
    return split > FRAME_SPLIT_MAX    ? FRAME_SPLIT_MAX
           : split >= FRAME_SPLIT_MIN ? split
                                      : FRAME_SPLIT_MIN; /* NaN too */
}

float frame_ui_scale_clamp(float s)
{
    return !(s > 0)                 ? 1.0f /* 0 and NaN */
           : s > FRAME_UI_SCALE_MAX ? FRAME_UI_SCALE_MAX
           : s < FRAME_UI_SCALE_MIN ? FRAME_UI_SCALE_MIN
                                    : s;
}

frame_layout frame_layout_compute(int fb_width, int fb_height, float split, float ui_scale)
{
    return frame_layout_in((frame_viewport){0, 0, fb_width, fb_height}, split, ui_scale);
}

/* The cards' rectangles and the free rectangles, as frame.c draws them
 * (draw_hud, draw_legend, draw_caption). See frame.h, "Free area". */
static void frame_layout_cards(frame_layout *l)
{
    const float body = (float)l->body_px, small = (float)l->small_px, large = (float)l->large_px;
    const float vx0 = l->view_x, vy0 = l->view_y, vx1 = vx0 + l->view_w, vy1 = vy0 + l->view_h;
    const float gap = body * ASCENT_PER_EM * 0.6f; /* the HUD's pad and inset */
    l->hud = (frame_rect){vx0 + gap, vy0 + gap, vx0 + gap + FRAME_HUD_EM * large + 2 * gap,
                          vy0 + gap + LINE_PER_EM * (large + 2 * body) + 2 * gap};
    const float cap_pad = body * ASCENT_PER_EM * 0.5f;
    const float caption_y = vy1 - (LINE_PER_EM * body + cap_pad * 2.5f);
    const float leg_pad = small * ASCENT_PER_EM * 0.6f;
    const float leg_w = LEGEND_TEXT_PER_EM * small + small * ASCENT_PER_EM + 3 * leg_pad;
    const float leg_h = LINE_PER_EM * small * FRAME_LEGEND_ROWS + 2 * leg_pad;
    frame_rect leg = {0, 0, 0, 0};
    bool has_legend = frame_legend_place(l, l->hud, ceilf(leg_w), ceilf(leg_h), leg_pad,
                                         caption_y - leg_pad, &leg);
    l->legend = has_legend ? leg : (frame_rect){vx1, vy0, vx1, vy0};

    const float under_hud = l->hud.y1 + gap;
    const float under_both = has_legend ? fmaxf(under_hud, leg.y1 + gap) : under_hud;
    const float min_h = l->view_h / 3, min_w = l->view_w / 4;
    l->free_count = 0;
    frame_rect band = {vx0, under_both, vx1, caption_y};
    if (band.y1 - band.y0 < min_h) {
        /* A window too short for the cards keeps a third of its view for
         * the scene; the cards then cover part of it. */
        band.y0 = vy0 + fmaxf(0, fminf(under_both - vy0, caption_y - vy0 - min_h));
        band.y1 = fminf(vy1, band.y0 + fmaxf(min_h, caption_y - band.y0));
    }
    l->free[l->free_count++] = band;
    if (has_legend) {
        /* Beside the legend, under the HUD; and between the two cards from
         * the top, when the legend is top-right. */
        frame_rect cand[2] = {{vx0, under_hud, leg.x0 - gap, caption_y},
                              {l->hud.x1 + gap, vy0, leg.x0 - gap, caption_y}};
        for (int k = 0; k < 2; k++) {
            frame_rect c = cand[k];
            if (c.x1 - c.x0 < min_w || c.y1 - c.y0 < min_h || rect_meets(c, l->hud) ||
                rect_meets(c, leg))
                continue;
            l->free[l->free_count++] = c;
        }
    }
    l->free_x = band.x0, l->free_y = band.y0;
    l->free_w = band.x1 - band.x0, l->free_h = band.y1 - band.y0;
}

frame_layout frame_layout_in(frame_viewport vp, float split, float ui_scale)
{
    split = split > 0 ? frame_split_clamp(split) : FRAME_SPLIT_DEFAULT;
    ui_scale = frame_ui_scale_clamp(ui_scale);
    frame_layout l = {.x = vp.x, .y = vp.y, .width = vp.w, .height = vp.h, .ui_scale = ui_scale};
    float view_h = floorf((float)vp.h * split);
    l.view_x = (float)vp.x, l.view_y = (float)vp.y, l.view_w = (float)vp.w, l.view_h = view_h;
    l.panel_x = (float)vp.x, l.panel_y = (float)vp.y + view_h, l.panel_w = (float)vp.w;
    l.panel_h = (float)vp.h - view_h;
    /* The smallest text (bar labels, axis, legend, 3D labels) has capitals
     * of 1/50 of the height; body and title text are larger. The em is
     * rounded up so the rendered capital is never under the aim. */
    float cap = fmaxf(ceilf((float)vp.h / 50.0f), FRAME_MIN_CAP_PX) * ui_scale;
    l.small_px = (int)ceilf(cap / CAP_PER_EM);
    l.body_px = (int)lrintf((float)l.small_px * 1.12f);
    l.large_px = (int)lrintf((float)l.body_px * 1.25f);
    l.line_px = fmaxf(1.0f, roundf((float)l.small_px / 16.0f));

    frame_layout_cards(&l);
    return l;
}

camera_rect frame_layout_free_rect(const frame_layout *l)
{
    if (!(l->view_w > 0 && l->view_h > 0 && l->free_w > 0 && l->free_h > 0))
        return (camera_rect){0, 0, 1, 1};
    camera_rect r = {(l->free_x - l->view_x) / l->view_w, (l->free_y - l->view_y) / l->view_h,
                     (l->free_x + l->free_w - l->view_x) / l->view_w,
                     (l->free_y + l->free_h - l->view_y) / l->view_h};
    r.x0 = fmaxf(r.x0, 0), r.y0 = fmaxf(r.y0, 0), r.x1 = fminf(r.x1, 1), r.y1 = fminf(r.y1, 1);
    return r;
}

int frame_layout_free_rects(const frame_layout *l, camera_rect out[FRAME_FREE_MAX])
{
    int n = 0;
    for (int k = 0; k < l->free_count && k < FRAME_FREE_MAX; k++) {
        frame_rect f = l->free[k];
        if (!(l->view_w > 0 && l->view_h > 0 && f.x1 > f.x0 && f.y1 > f.y0))
            continue;
        /* the GPU labels hang under the scene's front edge (draw_labels):
           their row stays clear of the caption */
        const float label_row = fminf(LABEL_ROW_PER_EM * (float)l->small_px, 0.25f * (f.y1 - f.y0));
        camera_rect r = {(f.x0 - l->view_x) / l->view_w, (f.y0 - l->view_y) / l->view_h,
                         (f.x1 - l->view_x) / l->view_w,
                         (f.y1 - label_row - l->view_y) / l->view_h};
        r.x0 = fmaxf(r.x0, 0), r.y0 = fmaxf(r.y0, 0), r.x1 = fminf(r.x1, 1), r.y1 = fminf(r.y1, 1);
        if (r.x1 > r.x0 && r.y1 > r.y0)
            out[n++] = r;
    }
    if (n == 0)
        out[n++] = (camera_rect){0, 0, 1, 1};
    return n;
}

int frame_layout_obstacles(const frame_layout *l, camera_rect *view, camera_rect out[2])
{
    camera_rect free[FRAME_FREE_MAX];
    const int n_free = frame_layout_free_rects(l, free);
    float foot = 0;
    for (int k = 0; k < n_free; k++)
        foot = fmaxf(foot, free[k].y1);
    *view = (camera_rect){0, 0, 1, foot > 0 ? foot : 1};
    int n = 0;
    const frame_rect cards[2] = {l->hud, l->legend};
    for (int k = 0; k < 2; k++) {
        const frame_rect c = cards[k];
        if (!(c.x1 > c.x0 && c.y1 > c.y0 && l->view_w > 0 && l->view_h > 0))
            continue;
        out[n++] = (camera_rect){(c.x0 - l->view_x) / l->view_w, (c.y0 - l->view_y) / l->view_h,
                                 (c.x1 - l->view_x) / l->view_w, (c.y1 - l->view_y) / l->view_h};
    }
    return n;
}

frame_layout frame_layout_of(const frame_view *v, int target_width, int target_height)
{
    frame_viewport vp = v->viewport;
    if (vp.w <= 0 || vp.h <= 0)
        vp = (frame_viewport){0, 0, target_width, target_height};
    return frame_layout_in(vp, v->split, v->ui_scale);
}

void frame_layout_place_timeline(const frame_layout *l, timeline_view *tv)
{
    timeline_view_set_rect(tv, l->panel_x, l->panel_y, l->panel_w, l->panel_h);
    timeline_view_set_text_px(tv, (float)l->small_px);
}

bool frame_legend_place(const frame_layout *l, frame_rect hud, float w, float h, float gap,
                        float bottom, frame_rect *out)
{
    const float right = l->view_x + l->view_w - gap;
    frame_rect r = {right - w, l->view_y + gap, right, l->view_y + gap + h};
    if (r.x0 < hud.x1 + gap && r.y0 < hud.y1 + gap) /* beside the HUD: under it */
        r.y0 = hud.y1 + gap, r.y1 = r.y0 + h;
    if (r.x0 < l->view_x || r.y1 > bottom)
        return false;
    *out = r;
    return true;
}
