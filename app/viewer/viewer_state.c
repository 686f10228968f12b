/* viewer_state.c - the viewer's state and the commands that change it.
 * See viewer_state.h. */
#include "viewer_state.h"

#include <assert.h>

#include "timeline_panel.h"
#include "timeline_query.h"

void viewer_state_init(viewer_state *v, const session *s, int fb_w, int fb_h)
{
    assert(s && s->has_scene && "a session built whole, scene included");
    *v = (viewer_state){
        .s = s,
        .fb_w = fb_w,
        .fb_h = fb_h,
        .theme = THEME_DARK,
        .split = FRAME_SPLIT_DEFAULT,
        .ui_scale = 1,
        .ui_scale_start = 1,
        .hover = {.kind = TIMELINE_HIT_NONE, .rank = -1, .index = -1},
        .hover_rank = -1,
    };
    timeline_panel_view_init(&v->timeline, &s->tl);
}

static double clamp_speed(const viewer_state *v, double speed)
{
    return !(speed > v->speed_min) ? v->speed_min /* NaN too */
           : speed > v->speed_max  ? v->speed_max
                                   : speed;
}

void viewer_state_set_speed(viewer_state *v, double speed)
{
    session_speed_limits(v->s, &v->speed_min, &v->speed_max);
    v->speed = clamp_speed(v, speed);
}

static double clamp_t(const viewer_state *v, double t)
{
    double end = v->s->tl.makespan;
    return !(t > 0) ? 0 : t > end ? end : t; /* NaN: 0 */
}

static void set_time(viewer_state *v, double t, double clock)
{
    v->t = clamp_t(v, t);
    v->play_anchor_t = v->t;
    v->play_anchor_clock = clock;
}

void viewer_state_set_time(viewer_state *v, double t, double clock)
{
    set_time(v, t, clock);
}

frame_layout viewer_state_layout(const viewer_state *v)
{
    return frame_layout_compute(v->fb_w, v->fb_h, v->split, v->ui_scale);
}

void viewer_state_place_timeline(viewer_state *v)
{
    frame_layout l = viewer_state_layout(v);
    frame_layout_place_timeline(&l, &v->timeline);
}

static camera current_camera(const viewer_state *v, double clock)
{
    if (!v->cam_moving)
        return v->cam;
    double s = (clock - v->cam_move_start) / VIEWER_CAMERA_MOVE_SECONDS;
    return camera_blend(&v->cam_from, &v->cam_to, (float)(s > 1 ? 1 : s));
}

static void move_camera_to(viewer_state *v, camera to, double clock)
{
    v->cam_from = current_camera(v, clock);
    v->cam_to = to;
    v->cam = to;
    v->cam_moving = true;
    v->cam_move_start = clock;
}

/* Direct manipulation stops a move where it is. */
static void settle_camera(viewer_state *v, double clock)
{
    if (v->cam_moving) {
        v->cam = current_camera(v, clock);
        v->cam_moving = false;
    }
}

/* The camera's functions assert a view of at least one pixel each way (an
 * aspect above 0, a height to turn pixels into angles): a window made one
 * pixel high, or minimised, leaves the camera as it is. */
static bool view_usable(const viewer_state *v)
{
    frame_layout l = viewer_state_layout(v);
    return l.view_w >= 1 && l.view_h >= 1;
}

static float view_aspect(const viewer_state *v)
{
    frame_layout l = viewer_state_layout(v);
    return l.view_w / l.view_h;
}

/* The camera the last preset or fit gives for the 3D view as it is now. */
static camera fitted_camera(const viewer_state *v, camera direction)
{
    if (v->cam_preset != VIEWER_CAMERA_FIT)
        return session_camera(v->s, (camera_preset)v->cam_preset, v->fb_w, v->fb_h, v->split,
                              v->ui_scale);
    frame_layout l = viewer_state_layout(v);
    camera_bounds b = session_camera_bounds(v->s);
    camera_rect free[FRAME_FREE_MAX];
    int n = frame_layout_free_rects(&l, free);
    camera_fit_best(&direction, &b, view_aspect(v), free, n);
    return direction;
}

/* After orbit, pan or zoom: the user's view, remembered with its aspect. */
static void camera_by_user(viewer_state *v)
{
    v->cam_user = true;
    v->cam_user_view = v->cam;
    v->cam_user_aspect = v->cam_aspect = view_aspect(v);
}

/* The preset (or the fit) placed again for the view as it is now; a move
 * under way goes on, to the preset as it now fits. */
static void refit_camera(viewer_state *v)
{
    camera to = fitted_camera(v, v->cam_moving ? v->cam_to : v->cam);
    if (v->cam_moving)
        v->cam_to = to;
    v->cam = to;
}

/* The 3D view's aspect changed (a resize, the divider): see the header. */
static void follow_view_aspect(viewer_state *v)
{
    if (!view_usable(v))
        return; /* minimised: the camera waits for a real size */
    float aspect = view_aspect(v);
    if (aspect == v->cam_aspect)
        return;
    v->cam_aspect = aspect;
    if (v->cam_user) {
        /* As much across as the user saw: the half-width at the target's
         * depth is distance * tan(fov/2) * aspect. */
        v->cam = v->cam_user_view;
        if (aspect < v->cam_user_aspect)
            v->cam.distance *= v->cam_user_aspect / aspect;
        return;
    }
    refit_camera(v);
}

/* The bar under the last pointer position, in the timeline as laid out now. */
static void refresh_hover(viewer_state *v)
{
    if (!v->pointer_known)
        return;
    const float panel_y = viewer_state_layout(v).panel_y;
    const double x = v->pointer_x, y = v->pointer_y;
    timeline_panel_hover h;
    if (y >= panel_y && timeline_view_hit(&v->timeline, &v->s->tl, x, y, &h))
        v->hover = h;
    else
        v->hover = (timeline_panel_hover){.kind = TIMELINE_HIT_NONE, .rank = -1, .index = -1};
    v->hover_rank = y >= panel_y ? timeline_view_row_at_y(&v->timeline, y) : -1;
}

void viewer_state_set_camera(viewer_state *v, camera_preset preset)
{
    v->cam_preset = (int)preset;
    v->cam_user = false;
    v->cam_moving = false;
    v->cam_aspect = 0; /* unknown until the view is usable */
    if (!view_usable(v))
        return;
    v->cam = session_camera(v->s, preset, v->fb_w, v->fb_h, v->split, v->ui_scale);
    v->cam_aspect = view_aspect(v);
}

void viewer_state_resize(viewer_state *v, int fb_w, int fb_h)
{
    v->fb_w = fb_w, v->fb_h = fb_h;
    viewer_state_place_timeline(v);
    follow_view_aspect(v);
    refresh_hover(v);
}

void viewer_state_apply(viewer_state *v, const command *c, double clock)
{
    timeline_view *tv = &v->timeline;
    const timeline *tl = &v->s->tl;
    switch (c->kind) {
    case CMD_PLAY_TOGGLE:
        if (!v->playing && v->t >= tl->makespan)
            v->t = 0;
        v->playing = !v->playing;
        set_time(v, v->t, clock);
        break;
    case CMD_EVENT_STEP: {
        double t;
        bool found =
            c->a > 0 ? timeline_next_event(tl, v->t, &t) : timeline_prev_event(tl, v->t, &t);
        v->playing = false;
        set_time(v, found ? t : c->a > 0 ? tl->makespan : 0, clock);
        break;
    }
    case CMD_SPEED:
        v->speed = clamp_speed(v, v->speed * c->a);
        set_time(v, v->t, clock);
        break;
    case CMD_HOME:
        set_time(v, 0, clock);
        break;
    case CMD_END:
        v->playing = false;
        set_time(v, tl->makespan, clock);
        break;
    case CMD_SCRUB:
        v->playing = false;
        set_time(v, timeline_view_x_to_time(tv, c->a), clock);
        break;
    case CMD_TL_ZOOM:
        timeline_view_zoom(tv, c->a, c->b);
        break;
    case CMD_TL_PAN:
        timeline_view_pan_fraction(tv, c->a);
        break;
    case CMD_TL_DRAG:
        timeline_view_pan_pixels(tv, c->a);
        break;
    case CMD_TL_FIT:
        timeline_view_fit(tv);
        break;
    case CMD_ORBIT:
        if (!view_usable(v))
            break;
        settle_camera(v, clock);
        camera_orbit(&v->cam, (float)c->a, (float)c->b, (float)viewer_state_layout(v).view_h);
        camera_by_user(v);
        break;
    case CMD_PAN:
        if (!view_usable(v))
            break;
        settle_camera(v, clock);
        camera_pan(&v->cam, (float)c->a, (float)c->b, (float)viewer_state_layout(v).view_h);
        camera_by_user(v);
        break;
    case CMD_ZOOM: {
        if (!view_usable(v))
            break;
        settle_camera(v, clock);
        camera_bounds b = session_camera_bounds(v->s);
        camera_zoom(&v->cam, (float)c->a, &b, view_aspect(v));
        camera_by_user(v);
        break;
    }
    case CMD_PRESET:
        if (!view_usable(v))
            break;
        v->cam_preset = (int)c->a;
        v->cam_user = false;
        v->cam_aspect = view_aspect(v);
        move_camera_to(v, fitted_camera(v, v->cam), clock);
        break;
    case CMD_FIT_3D:
        if (!view_usable(v))
            break;
        settle_camera(v, clock);
        v->cam_preset = VIEWER_CAMERA_FIT;
        v->cam_user = false;
        v->cam_aspect = view_aspect(v);
        move_camera_to(v, fitted_camera(v, v->cam), clock);
        break;
    case CMD_SPLIT:
        if (v->fb_h <= 0)
            break;
        v->split = frame_split_clamp((float)(c->a / v->fb_h));
        viewer_state_place_timeline(v);
        follow_view_aspect(v);
        break;
    case CMD_HOVER:
        v->pointer_x = c->a, v->pointer_y = c->b;
        v->pointer_known = true;
        break;
    case CMD_THEME:
        v->theme = (theme_id)((v->theme + 1) % THEME_COUNT);
        break;
    case CMD_UI_SCALE:
        v->ui_scale =
            frame_ui_scale_clamp(c->a > 0 ? v->ui_scale * (float)c->a : v->ui_scale_start);
        viewer_state_place_timeline(v);
        /* Larger text leaves less room for the scene: a preset fits again. */
        if (!v->cam_user && view_usable(v))
            refit_camera(v);
        break;
    case CMD_HELP:
        v->show_help = !v->show_help;
        break;
    case CMD_ESCAPE:
        if (v->show_help)
            v->show_help = false;
        else
            v->quit = true;
        break;
    case CMD_QUIT:
        v->quit = true;
        break;
    case CMD_FULLSCREEN:
    case CMD_SCREENSHOT:
        assert(!"the window's commands are applied by the loop");
        break;
    }
    /* Whatever moved (the timeline's zoom, pan or fit, the divider), the
     * tooltip describes the bar now under the pointer. */
    refresh_hover(v);
}

frame_view viewer_state_frame_view(viewer_state *v, double clock, char *status, size_t n)
{
    /* The view input acts on is the one drawn, and so is the hover. */
    viewer_state_place_timeline(v);
    refresh_hover(v);
    if (v->playing) {
        v->t = clamp_t(v, v->play_anchor_t + (clock - v->play_anchor_clock) * v->speed);
        if (v->t >= v->s->tl.makespan)
            v->playing = false;
    }
    camera cam = current_camera(v, clock);
    if (v->cam_moving && clock - v->cam_move_start >= VIEWER_CAMERA_MOVE_SECONDS)
        v->cam_moving = false;
    /* DejaVu Sans has no pause sign: the word says it. */
    snprintf(status, n, "%s ×%.2g", v->playing ? "▶" : "paused",
             v->speed / session_default_speed(v->s));
    return (frame_view){
        .t = v->t,
        .theme = v->theme,
        .cam = cam,
        .split = v->split,
        .ui_scale = v->ui_scale,
        .hud_title = v->s->hud_title,
        .hud_bubble = v->s->hud_bubble,
        .status = status,
        .show_help = v->show_help,
        .show_legend = true,
        .hover = v->hover,
        .caption_rank = v->hover_rank,
        .timeline = v->timeline,
    };
}

void viewer_state_print(const viewer_state *v, int win_w, int win_h, FILE *f)
{
    const timeline_view *tv = &v->timeline;
    fprintf(f,
            "t=%.6f playing=%d speed=%.6g theme=%s split=%.3f help=%d yaw=%.4f pitch=%.4f "
            "distance=%.4f timeline=%.6f:%.6f plot=%.2f:%.2f:%.2f:%.2f fb=%dx%d window=%dx%d "
            "ui=%.3f\n",
            v->t, v->playing, v->speed, theme_get(v->theme).name, v->split, v->show_help,
            v->cam.yaw, v->cam.pitch, v->cam.distance, tv->t0, tv->t1, tv->plot_x, tv->plot_y,
            tv->plot_w, tv->plot_h, v->fb_w, v->fb_h, win_w, win_h, v->ui_scale);
    fflush(f);
}
