/* offscreen.c - headless frames. See offscreen.h. */
#include "offscreen.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "image_png.h"

/* The context, the target, the frame renderer and each side's cache. */
static bool open_sides(offscreen *o, const session *const *sides, int count, int width, int height,
                       ppf_error *err)
{
    assert(count >= 1 && count <= COMPARE_MAX_SIDES);
    memset(o, 0, sizeof *o);
    for (int k = 0; k < count; k++) {
        assert(sides[k]->has_scene && "a session built whole, scene included");
        o->sides[k] = sides[k];
    }
    o->session = sides[0];
    o->side_count = count;
    o->width = width;
    o->height = height;
    if (!gl_context_init_headless(&o->gl, err))
        return false;
    if (!render_target_init(&o->target, width, height, err) || !frame_renderer_init(&o->frame, err))
        return false;
    for (int k = 0; k < count; k++)
        if (!frame_cache_init(&o->cache[k], &o->frame, &sides[k]->scene, &sides[k]->tl, err))
            return false;
    return true;
}

bool offscreen_init(offscreen *o, const session *s, int width, int height, ppf_error *err)
{
    if (open_sides(o, &s, 1, width, height, err))
        return true;
    offscreen_deinit(o);
    return false;
}

void offscreen_deinit(offscreen *o)
{
    if (!o)
        return;
    if (o->gl.context) {
        if (o->compare)
            compare_renderer_deinit(o->compare);
        for (int k = 0; k < COMPARE_MAX_SIDES; k++)
            frame_cache_deinit(&o->cache[k]);
        frame_renderer_deinit(&o->frame);
        render_target_deinit(&o->target);
        gl_context_deinit(&o->gl);
    }
    free(o->compare);
    memset(o, 0, sizeof *o);
}

bool offscreen_show(offscreen *o, const session *s, ppf_error *err)
{
    assert(!o->compare && s->has_scene);
    frame_cache next;
    if (!frame_cache_init(&next, &o->frame, &s->scene, &s->tl, err))
        return false;
    frame_cache_deinit(&o->cache[0]);
    o->cache[0] = next;
    o->session = o->sides[0] = s;
    return true;
}

frame_view offscreen_default_view(const offscreen *o, double t, theme_id theme,
                                  camera_preset preset)
{
    frame_view v = {
        .t = t,
        .theme = theme,
        .cam = session_camera(o->session, preset, o->width, o->height, 0, 0),
        .hud_title = o->session->hud_title,
        .hud_bubble = o->session->hud_bubble,
        .show_legend = true,
        .caption_rank = -1,
    };
    timeline_panel_view_init(&v.timeline, &o->session->tl);
    v.timeline.for_file = true;
    return v;
}

frame_view offscreen_still_view(const offscreen *o, double t, theme_id theme, camera_preset preset,
                                double ui_scale)
{
    frame_view v = offscreen_default_view(o, t, theme, preset);
    v.ui_scale = (float)ui_scale;
    v.cam = session_camera(o->session, preset, o->width, o->height, 0, v.ui_scale);
    v.caption = session_beat_caption(o->session, t);
    v.aa = SCENE_AA_SUPERSAMPLE; /* one frame: the best edges, whatever they cost */
    v.still = true;              /* and no motion: transfers at their exact times */
    return v;
}

void offscreen_draw(offscreen *o, const frame_view *v)
{
    render_target_bind(&o->target);
    frame_renderer_draw(&o->frame, &o->cache[0], v, o->width, o->height);
}

void offscreen_defer_aa(offscreen *o, bool on)
{
    scene_aa_defer(&o->frame.aa, on);
}

void offscreen_take_aa(offscreen *o, scene_aa_deferred *out)
{
    scene_aa_take(&o->frame.aa, out);
}

void offscreen_read(offscreen *o, uint8_t *rgba)
{
    render_target_read(&o->target, rgba);
}

bool offscreen_read_png(offscreen *o, uint8_t **png, size_t *size, ppf_error *err)
{
    uint8_t *pixels = ppf_malloc((size_t)o->width * (size_t)o->height * 4);
    offscreen_read(o, pixels);
    const bool ok = image_encode_png(pixels, o->width, o->height, 0, false, png, size, err);
    free(pixels);
    return ok;
}

bool offscreen_init_compare(offscreen *o, const session *const *sides, int count, int width,
                            int height, ppf_error *err)
{
    if (open_sides(o, sides, count, width, height, err)) {
        o->compare = ppf_calloc(1, sizeof *o->compare);
        if (compare_renderer_init(o->compare, err))
            return true;
    }
    offscreen_deinit(o);
    return false;
}

compare_frame offscreen_default_compare(const offscreen *o, double t, theme_id theme,
                                        camera_preset preset, float ui_scale,
                                        const char *const *strip)
{
    compare_frame v = {.count = o->side_count, .theme = theme, .ui_scale = ui_scale};
    const compare_layout l =
        compare_layout_compute(o->width, o->height, o->side_count, COMPARE_ARRANGE_AUTO, ui_scale);
    v.arrange = l.arrange;
    const timeline *tls[COMPARE_MAX_SIDES];
    for (int k = 0; k < o->side_count; k++)
        tls[k] = &o->sides[k]->tl;
    const double longest = compare_longest_makespan(tls, o->side_count);
    for (int k = 0; k < o->side_count; k++) {
        const session *s = o->sides[k];
        frame_view *p = &v.pane[k];
        /* as the window draws panes: text at the back row's size, one legend */
        const float ui = frame_ui_scale_clamp(ui_scale * compare_pane_text_scale(&l, k));
        *p = (frame_view){
            .t = t,
            .theme = theme,
            .ui_scale = ui,
            .cam = session_camera(s, preset, l.pane[k].w, l.pane[k].h, 0, ui),
            .hud_title = s->hud_title,
            .hud_bubble = s->hud_bubble,
            .show_legend = k == 0,
            .compare_pane = true,
            .caption_rank = -1,
            .viewport = l.pane[k],
        };
        compare_view_timeline(&p->timeline, &s->tl, longest);
        p->timeline.for_file = true;
        v.strip[k] = strip ? strip[k] : NULL;
    }
    return v;
}

void offscreen_draw_compare(offscreen *o, const compare_frame *v)
{
    assert(o->compare && "offscreen_init_compare");
    frame_cache *panes[COMPARE_MAX_SIDES];
    for (int k = 0; k < o->side_count; k++)
        panes[k] = &o->cache[k];
    render_target_bind(&o->target);
    compare_renderer_draw(o->compare, &o->frame, panes, v, o->width, o->height);
}
