/* offscreen.c - headless frames. See offscreen.h. */
#include "offscreen.h"

#include <assert.h>
#include <string.h>

bool offscreen_init(offscreen *o, const session *s, int width, int height, ppf_error *err)
{
    assert(s->has_scene && "a session built whole, scene included");
    memset(o, 0, sizeof *o);
    o->session = s;
    o->width = width;
    o->height = height;
    if (!gl_context_init_headless(&o->gl, err))
        return false;
    if (!render_target_init(&o->target, width, height, err))
        goto fail;
    if (!frame_renderer_init(&o->frame, &s->scene, &s->tl, err))
        goto fail;
    return true;
fail:
    offscreen_deinit(o);
    return false;
}

void offscreen_deinit(offscreen *o)
{
    if (!o)
        return;
    if (o->gl.context) {
        frame_renderer_deinit(&o->frame);
        render_target_deinit(&o->target);
        gl_context_deinit(&o->gl);
    }
    memset(o, 0, sizeof *o);
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
    return v;
}

void offscreen_draw(offscreen *o, const frame_view *v)
{
    render_target_bind(&o->target);
    frame_renderer_draw(&o->frame, &o->session->scene, &o->session->tl, v, o->width, o->height);
}

void offscreen_read(offscreen *o, uint8_t *rgba)
{
    render_target_read(&o->target, rgba);
}
