/* viewer_state.c - the viewer's state and the commands that change it.
 * See viewer_state.h. */
#include "viewer_state.h"

#include <assert.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "quote.h"
#include "timeline_panel.h"
#include "timeline_query.h"

void viewer_state_init(viewer_state *v, const session *s, int fb_w, int fb_h)
{
    assert(s && s->has_scene && "a session built whole, scene included");
    *v = (viewer_state){
        .s = s,
        .fb_w = fb_w,
        .fb_h = fb_h,
        .play = {.stop_at = -1, .target = -1, .dir = 1},
        .look = {.theme = THEME_DARK,
                 .split = FRAME_SPLIT_DEFAULT,
                 .ui_scale = 1,
                 .ui_scale_start = 1},
        .pointer = {.hover = {.kind = TIMELINE_HIT_NONE, .rank = -1, .index = -1}, .rank = -1},
        .talk = {.beat = -1, .slide_count = 1, .start = -1},
    };
    timeline_panel_view_init(&v->timeline, &s->tl);
}

static double clamp_speed(const viewer_state *v, double speed)
{
    return !(speed > v->play.speed_min) ? v->play.speed_min /* NaN too */
           : speed > v->play.speed_max  ? v->play.speed_max
                                        : speed;
}

void viewer_state_set_speed(viewer_state *v, double speed)
{
    session_speed_limits(v->s, &v->play.speed_min, &v->play.speed_max);
    v->play.speed = clamp_speed(v, speed);
}

/* The end of time: the session's makespan, or a comparison's longest. */
static double end_of(const viewer_state *v)
{
    return v->pane.t_end > 0 ? v->pane.t_end : v->s->tl.makespan;
}

static double clamp_t(const viewer_state *v, double t)
{
    double end = end_of(v);
    return !(t > 0) ? 0 : t > end ? end : t; /* NaN: 0 */
}

static void set_time(viewer_state *v, double t, double clock)
{
    v->play.t = clamp_t(v, t);
    v->play.anchor_t = v->play.t;
    v->play.anchor_clock = clock;
}

void viewer_state_set_time(viewer_state *v, double t, double clock)
{
    set_time(v, t, clock);
}

/* Where playback has got to at this clock (the last frame's t is up to a
 * frame behind): t, stopped at the beat it plays to, and whether it has
 * reached that beat (*landed; may be NULL). The one playback formula. */
static double playing_t(const viewer_state *v, double clock, bool *landed)
{
    const viewer_play *p = &v->play;
    double t = p->anchor_t + (clock - p->anchor_clock) * p->speed * p->dir;
    const bool reached = p->stop_at >= 0 && (p->dir > 0 ? t >= p->stop_at : t <= p->stop_at);
    if (reached)
        t = p->stop_at;
    if (landed)
        *landed = reached;
    return t;
}

/* The black screen holds the animation where it is: the lecturer talks
 * over a black screen and comes back to the picture they left, and a play
 * the blackout interrupted (to a beat, too) goes on from there. */
static void set_blackout(viewer_state *v, bool on, double clock)
{
    if (on == v->talk.blackout)
        return;
    v->talk.blackout = on;
    if (on && v->play.playing) {
        set_time(v, playing_t(v, clock, NULL), clock);
        v->play.playing = false;
        v->talk.black_paused = true;
    } else if (!on && v->talk.black_paused) {
        v->talk.black_paused = false;
        v->play.playing = true;
        set_time(v, v->play.t, clock);
    }
}

float viewer_state_ui_scale_at(const viewer_state *v, float pane)
{
    return frame_ui_scale_clamp(v->look.ui_scale *
                                (v->talk.presenting ? VIEWER_PRESENT_SCALE : 1.0f) *
                                (pane > 0 ? pane : 1.0f));
}

float viewer_state_ui_scale(const viewer_state *v)
{
    return viewer_state_ui_scale_at(v, v->pane.ui);
}

frame_layout viewer_state_layout(const viewer_state *v)
{
    return frame_layout_compute(v->fb_w, v->fb_h, v->look.split, viewer_state_ui_scale(v));
}

void viewer_state_place_timeline(viewer_state *v)
{
    frame_layout l = viewer_state_layout(v);
    frame_layout_place_timeline(&l, &v->timeline);
}

static camera current_camera(const viewer_state *v, double clock)
{
    if (!v->camera.moving)
        return v->camera.cam;
    double s = (clock - v->camera.move_start) / VIEWER_CAMERA_MOVE_SECONDS;
    return camera_blend(&v->camera.from, &v->camera.to, (float)(s > 1 ? 1 : s));
}

camera viewer_state_camera(const viewer_state *v, double clock)
{
    return current_camera(v, clock);
}

static void move_camera_to(viewer_state *v, camera to, double clock)
{
    v->camera.from = current_camera(v, clock);
    v->camera.to = to;
    v->camera.cam = to;
    v->camera.moving = true;
    v->camera.move_start = clock;
}

/* Direct manipulation stops a move where it is. */
static void settle_camera(viewer_state *v, double clock)
{
    if (v->camera.moving) {
        v->camera.cam = current_camera(v, clock);
        v->camera.moving = false;
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
    if (v->camera.preset != VIEWER_CAMERA_FIT)
        return session_camera(v->s, (camera_preset)v->camera.preset, v->fb_w, v->fb_h,
                              v->look.split, viewer_state_ui_scale(v));
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
    v->camera.user = true;
    v->camera.user_view = v->camera.cam;
    v->camera.user_aspect = v->camera.aspect = view_aspect(v);
}

/* The preset (or the fit) placed again for the view as it is now; a move
 * under way goes on, to the preset as it now fits. */
static void refit_camera(viewer_state *v)
{
    camera to = fitted_camera(v, v->camera.moving ? v->camera.to : v->camera.cam);
    if (v->camera.moving)
        v->camera.to = to;
    v->camera.cam = to;
}

/* The 3D view's aspect changed (a resize, the divider): see the header. */
static void follow_view_aspect(viewer_state *v)
{
    if (!view_usable(v))
        return; /* minimised: the camera waits for a real size */
    float aspect = view_aspect(v);
    if (aspect == v->camera.aspect)
        return;
    v->camera.aspect = aspect;
    if (v->camera.user) {
        /* As much across as the user saw: the half-width at the target's
         * depth is distance * tan(fov/2) * aspect. */
        v->camera.cam = v->camera.user_view;
        if (aspect < v->camera.user_aspect)
            v->camera.cam.distance *= v->camera.user_aspect / aspect;
        return;
    }
    refit_camera(v);
}

/* The bar under the last pointer position, in the timeline as laid out now. */
static void refresh_hover(viewer_state *v)
{
    if (!v->pointer.known)
        return;
    const float panel_y = viewer_state_layout(v).panel_y;
    const double x = v->pointer.x, y = v->pointer.y;
    timeline_panel_hover h;
    if (!v->pointer.scrubbing && y >= panel_y && timeline_hit_at(&v->timeline, &v->s->tl, x, y, &h))
        v->pointer.hover = h;
    else
        v->pointer.hover =
            (timeline_panel_hover){.kind = TIMELINE_HIT_NONE, .rank = -1, .index = -1};
    v->pointer.rank = y >= panel_y ? timeline_view_row_at_y(&v->timeline, y) : -1;
}

void viewer_state_set_camera(viewer_state *v, camera_preset preset)
{
    v->camera.preset = (int)preset;
    v->camera.user = false;
    v->camera.moving = false;
    v->camera.aspect = 0; /* unknown until the view is usable */
    if (!view_usable(v))
        return;
    v->camera.cam =
        session_camera(v->s, preset, v->fb_w, v->fb_h, v->look.split, viewer_state_ui_scale(v));
    v->camera.aspect = view_aspect(v);
}

void viewer_state_resize(viewer_state *v, int fb_w, int fb_h)
{
    v->fb_w = fb_w, v->fb_h = fb_h;
    viewer_state_place_timeline(v);
    follow_view_aspect(v);
    refresh_hover(v);
}

/* Eases the camera to a preset, fitted to the 3D view. */
static void go_to_preset(viewer_state *v, int preset, double clock)
{
    if (!view_usable(v) || !(preset >= 0 && preset < CAMERA_PRESET_COUNT))
        return;
    v->camera.preset = preset;
    v->camera.user = false;
    v->camera.aspect = view_aspect(v);
    move_camera_to(v, fitted_camera(v, v->camera.cam), clock);
}

/* ---- beats ---------------------------------------------------------------- */

static const beat_list *beats_of(const viewer_state *v)
{
    return &v->s->beats;
}

/* A beat with a camera: the camera eases to it as the talk heads for the
 * beat (played to or landed on), so it is there when the beat is; a beat
 * without one keeps the camera as the lecturer left it. The name was
 * checked when the session was built. */
static void beat_camera(viewer_state *v, int k, double clock)
{
    const int preset = camera_preset_find(beats_of(v)->beats[k].camera);
    if (preset >= 0 && !(v->camera.preset == preset && !v->camera.user))
        go_to_preset(v, preset, clock);
}

/* Plays from t to beat k (forwards or backwards) and stops exactly on it;
 * landing makes it the talk's beat (viewer_state_frame_view). */
static void play_to_beat(viewer_state *v, int k, double clock)
{
    beat_camera(v, k, clock);
    v->play.target = k;
    v->play.stop_at = beats_of(v)->beats[k].t;
    v->play.dir = v->play.stop_at >= v->play.t ? 1 : -1;
    v->play.playing = true;
    set_time(v, v->play.t, clock);
}

/* Lands on beat k at once: its end state, nothing replayed. */
static void land_on_beat(viewer_state *v, int k, double clock)
{
    beat_camera(v, k, clock);
    v->talk.beat = k;
    v->play.target = -1;
    v->play.playing = false;
    v->play.stop_at = -1;
    v->play.dir = 1;
    set_time(v, beats_of(v)->beats[k].t, clock);
}

static bool playing_to_beat(const viewer_state *v)
{
    return v->play.playing && v->play.stop_at >= 0;
}

/* Where the talk is: the beat t stands on, else the last beat landed on
 * (a scrub or an orbit between beats is a look aside, not a move in the
 * talk: README, "Presenting"), else the last beat at or before t. */
static int talk_beat(const viewer_state *v)
{
    const beat_list *bl = beats_of(v);
    const int on = beats_at(bl, &v->s->tl, v->play.t);
    if (on >= 0)
        return on;
    if (v->talk.beat >= 0 && v->talk.beat < bl->count)
        return v->talk.beat;
    return beats_current(bl, &v->s->tl, v->play.t);
}

static void beat_next(viewer_state *v, double clock)
{
    const beat_list *bl = beats_of(v);
    if (v->talk.start < 0) /* the talk's clock starts at its first advance */
        v->talk.start = clock;
    if (playing_to_beat(v)) { /* Next during the animation finishes it */
        land_on_beat(v, v->play.target, clock);
        return;
    }
    const int from = talk_beat(v);
    if (from + 1 >= bl->count) { /* past the slide's last beat: the next slide's first */
        if (v->talk.slide + 1 < v->talk.slide_count)
            v->talk.slide_change = 1;
        return;
    }
    if (from >= 0) /* back from a look aside: on from the beat */
        set_time(v, bl->beats[from].t, clock);
    play_to_beat(v, from + 1, clock);
}

static void beat_prev(viewer_state *v, double clock)
{
    const beat_list *bl = beats_of(v);
    /* on the slide's first beat (or before it): the previous slide's last */
    if (v->talk.slide > 0 && !playing_to_beat(v) &&
        (bl->count == 0 || v->play.t <= bl->beats[0].t + beats_epsilon(&v->s->tl))) {
        v->talk.slide_change = -1;
        return;
    }
    if (bl->count == 0)
        return;
    const int from = playing_to_beat(v) ? v->play.target : talk_beat(v);
    land_on_beat(v, from > 0 ? from - 1 : 0, clock);
}

/* The end of goto typing: beat N (1-based, as the HUD counts), if there is one. */
static void goto_typed(viewer_state *v, double clock)
{
    v->talk.goto_typing = false;
    const int n = v->talk.goto_number;
    v->talk.goto_number = 0;
    if (n >= 1 && n <= beats_of(v)->count)
        land_on_beat(v, n - 1, clock);
}

bool viewer_state_acts(const viewer_state *v, command_kind kind)
{
    return !v->talk.blackout || kind == CMD_BLACKOUT || kind == CMD_ESCAPE || kind == CMD_QUIT ||
           kind == CMD_HOVER || kind == CMD_FULLSCREEN || kind == CMD_SCREENSHOT;
}

/* Commands that move time outside the beats end a play to a beat there. */
static bool moves_time(command_kind kind)
{
    return kind == CMD_PLAY_TOGGLE || kind == CMD_EVENT_STEP || kind == CMD_HOME ||
           kind == CMD_END || kind == CMD_SCRUB;
}

void viewer_state_apply(viewer_state *v, const command *c, double clock)
{
    if (!viewer_state_acts(v, c->kind))
        return;
    if (moves_time(c->kind) && playing_to_beat(v)) {
        v->play.stop_at = -1;
        v->play.target = -1;
        v->play.dir = 1;
    }
    if (v->talk.goto_typing && c->kind != CMD_DIGIT && c->kind != CMD_ENTER &&
        c->kind != CMD_HOVER) {
        v->talk.goto_typing = false; /* any other key abandons the number */
        v->talk.goto_number = 0;
        if (c->kind == CMD_ESCAPE)
            return;
    }
    timeline_view *tv = &v->timeline;
    const timeline *tl = &v->s->tl;
    switch (c->kind) {
    case CMD_PLAY_TOGGLE:
        if (!v->play.playing && v->play.t >= end_of(v))
            v->play.t = 0;
        v->play.playing = !v->play.playing;
        v->play.stop_at = -1, v->play.dir = 1;
        set_time(v, v->play.t, clock);
        break;
    case CMD_EVENT_STEP: {
        double t;
        bool found = c->a > 0 ? timeline_next_event(tl, v->play.t, &t)
                              : timeline_prev_event(tl, v->play.t, &t);
        v->play.playing = false;
        set_time(v, found ? t : c->a > 0 ? end_of(v) : 0, clock);
        break;
    }
    case CMD_SPEED:
        v->play.speed = clamp_speed(v, v->play.speed * c->a);
        set_time(v, v->play.t, clock);
        break;
    case CMD_HOME:
        set_time(v, 0, clock);
        break;
    case CMD_END:
        v->play.playing = false;
        set_time(v, end_of(v), clock);
        break;
    case CMD_SCRUB:
        v->pointer.scrubbing = v->pointer.scrub_moved = true;
        v->play.playing = false;
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
        camera_orbit(&v->camera.cam, (float)c->a, (float)c->b,
                     (float)viewer_state_layout(v).view_h);
        camera_by_user(v);
        break;
    case CMD_PAN:
        if (!view_usable(v))
            break;
        settle_camera(v, clock);
        camera_pan(&v->camera.cam, (float)c->a, (float)c->b, (float)viewer_state_layout(v).view_h);
        camera_by_user(v);
        break;
    case CMD_ZOOM: {
        if (!view_usable(v))
            break;
        settle_camera(v, clock);
        camera_bounds b = session_camera_bounds(v->s);
        camera_zoom(&v->camera.cam, (float)c->a, &b, view_aspect(v));
        camera_by_user(v);
        break;
    }
    case CMD_DIGIT:
        if (v->talk.goto_typing) {
            if (v->talk.goto_number < 100000)
                v->talk.goto_number = v->talk.goto_number * 10 + (int)c->a;
            break;
        }
        viewer_state_apply(
            v, &(command){c->a == 0 ? CMD_FIT_3D : CMD_PRESET, c->a == 0 ? 0 : c->a - 1, 0}, clock);
        return;
    case CMD_PRESET:
        go_to_preset(v, (int)c->a, clock);
        break;
    case CMD_FIT_3D:
        if (!view_usable(v))
            break;
        settle_camera(v, clock);
        v->camera.preset = VIEWER_CAMERA_FIT;
        v->camera.user = false;
        v->camera.aspect = view_aspect(v);
        move_camera_to(v, fitted_camera(v, v->camera.cam), clock);
        break;
    case CMD_SPLIT:
        if (v->fb_h <= 0)
            break;
        v->look.split = frame_split_clamp((float)(c->a / v->fb_h));
        viewer_state_place_timeline(v);
        follow_view_aspect(v);
        break;
    case CMD_HOVER:
        v->pointer.x = c->a, v->pointer.y = c->b;
        v->pointer.known = true;
        /* a move with no scrub before it: the drag is over */
        v->pointer.scrubbing = v->pointer.scrubbing && v->pointer.scrub_moved;
        v->pointer.scrub_moved = false;
        break;
    case CMD_THEME:
        v->look.theme = (theme_id)((v->look.theme + 1) % THEME_COUNT);
        break;
    case CMD_UI_SCALE:
        v->look.ui_scale = frame_ui_scale_clamp(c->a > 0 ? v->look.ui_scale * (float)c->a
                                                         : v->look.ui_scale_start);
        viewer_state_place_timeline(v);
        /* Larger text leaves less room for the scene: a preset fits again. */
        if (!v->camera.user && view_usable(v))
            refit_camera(v);
        break;
    case CMD_HELP: /* open, the next page, or closed after the last */
        if (!v->look.show_help)
            v->look.show_help = true, v->look.help_page = 0;
        else if (v->look.help_page + 1 < v->look.help_pages)
            v->look.help_page++;
        else
            v->look.show_help = false, v->look.help_page = 0;
        break;
    case CMD_ESCAPE: /* one layer at a time, and never out of the program */
        if (v->look.show_help)
            v->look.show_help = false, v->look.help_page = 0;
        else if (v->talk.laser)
            v->talk.laser = false;
        else if (v->talk.blackout)
            set_blackout(v, false, clock);
        else if (v->talk.presenting)
            viewer_state_set_presenting(v, false);
        break;
    case CMD_BEAT_NEXT:
        beat_next(v, clock);
        break;
    case CMD_BEAT_PREV:
        beat_prev(v, clock);
        break;
    case CMD_BEAT_FIRST:
        if (beats_of(v)->count > 0)
            land_on_beat(v, 0, clock);
        break;
    case CMD_BEAT_LAST:
        if (beats_of(v)->count > 0)
            land_on_beat(v, beats_of(v)->count - 1, clock);
        break;
    case CMD_BEAT_REPLAY: {
        /* from the beat before the current one, playing to the current one */
        int k = playing_to_beat(v) ? v->play.target : talk_beat(v);
        if (k < 0)
            break;
        set_time(v, k > 0 ? beats_of(v)->beats[k - 1].t : 0, clock);
        play_to_beat(v, k, clock);
        break;
    }
    case CMD_BEAT_REVERSE: {
        const beat_list *bl = beats_of(v);
        int k = playing_to_beat(v) ? v->play.target - 1 : beats_prev(bl, tl, v->play.t);
        if (k >= 0)
            play_to_beat(v, k, clock);
        else if (bl->count > 0)
            land_on_beat(v, 0, clock);
        break;
    }
    case CMD_BEAT_GOTO:
        v->talk.goto_typing = true;
        v->talk.goto_number = 0;
        break;
    case CMD_ENTER:
        if (v->talk.goto_typing)
            goto_typed(v, clock);
        else
            beat_next(v, clock);
        break;
    case CMD_BLACKOUT:
        set_blackout(v, !v->talk.blackout, clock);
        break;
    case CMD_PRESENT:
        viewer_state_set_presenting(v, true);
        break;
    case CMD_LASER:
        v->talk.laser = !v->talk.laser;
        break;
    case CMD_CLOCK_RESET:
        v->talk.start = -1; /* 0:00 until the next advance starts it again */
        break;
    case CMD_QUIT:
        v->quit = true;
        break;
    default:
        assert(!"another room's command: the loop routes it there (command_group_of)");
        break;
    }
    /* Whatever moved (the timeline's zoom, pan or fit, the divider), the
     * tooltip describes the bar now under the pointer. */
    refresh_hover(v);
}

void viewer_state_follow(viewer_state *v, const session *s, const viewer_follow *f, double clock)
{
    v->s = s;
    viewer_state_set_speed(v, f->relative_speed * session_default_speed(s));
    /* the old session's beats mean nothing here */
    if (!f->keep_playing)
        v->play.playing = false;
    v->play.target = -1;
    v->play.stop_at = -1;
    v->play.dir = 1;
    v->talk.beat = -1;
    v->talk.goto_typing = false;
    v->talk.goto_number = 0;
    timeline_panel_view_init(&v->timeline, &s->tl);
    viewer_state_place_timeline(v);
    /* the camera: the one asked for, else a preset or a fit fitted again to
     * the new scene at once, else the user's view as it is */
    if (f->camera >= 0) {
        viewer_state_set_camera(v, (camera_preset)f->camera);
    } else if (!v->camera.user && v->camera.preset == VIEWER_CAMERA_FIT) {
        if (view_usable(v)) {
            settle_camera(v, clock);
            v->camera.cam = v->camera.to = fitted_camera(v, v->camera.cam);
            v->camera.moving = false;
            v->camera.aspect = view_aspect(v);
        }
    } else if (!v->camera.user) {
        viewer_state_set_camera(v, (camera_preset)v->camera.preset);
    }
    if (f->land >= 0 && f->land < s->beats.count) {
        land_on_beat(v, f->land, clock);
    } else if (f->beat >= 0 && f->beat < s->beats.count) {
        v->talk.beat = f->beat;
        set_time(v, s->beats.beats[f->beat].t, clock);
    } else {
        set_time(v, f->t, clock);
    }
    /* the hover and a user's camera follow the new layout */
    viewer_state_resize(v, v->fb_w, v->fb_h);
}

/* A beat's own caption while the animation stands on it; else the
 * automatic one (NULL). */
static const char *beat_caption(const viewer_state *v)
{
    return v->play.playing ? NULL : session_beat_caption(v->s, v->play.t);
}

void viewer_state_set_presenting(viewer_state *v, bool on)
{
    if (v->talk.presenting == on)
        return; /* F5 again (a clicker's start button) resets nothing */
    v->talk.presenting = on;
    v->talk.blackout = v->talk.black_paused = false; /* (paused, as the blackout left it) */
    v->talk.laser = false;
    v->talk.goto_typing = false;
    /* the text is larger: the timeline and a preset's camera follow */
    viewer_state_place_timeline(v);
    if (!v->camera.user && view_usable(v))
        refit_camera(v);
    refresh_hover(v);
}

frame_view viewer_state_frame_view(viewer_state *v, double clock, char *status, size_t n)
{
    /* The view input acts on is the one drawn, and so is the hover. */
    viewer_state_place_timeline(v);
    refresh_hover(v);
    if (v->play.playing) {
        bool landed;
        const double t = playing_t(v, clock, &landed);
        /* a beat is landed on exactly: t is the beat's time, not a frame near it */
        if (landed) {
            v->talk.beat = v->play.target;
            v->play.target = -1;
            v->play.playing = false;
            v->play.stop_at = -1;
            v->play.dir = 1;
        }
        v->play.t = clamp_t(v, t);
        if (v->play.playing && (v->play.t >= end_of(v) || (v->play.dir < 0 && v->play.t <= 0))) {
            v->play.playing = false;
            v->play.dir = 1;
        }
    }
    camera cam = current_camera(v, clock);
    if (v->camera.moving && clock - v->camera.move_start >= VIEWER_CAMERA_MOVE_SECONDS)
        v->camera.moving = false;
    /* DejaVu Sans has no pause sign: the word says it. Presenting, the
     * beat: the one played to, the one landed on, or the last passed. */
    const beat_list *bl = beats_of(v);
    /* heading for a beat, its title behind an arrow: the HUD names the
     * state on screen only once it is (it said "all forwards done" while
     * the forwards still ran) */
    const bool heading = playing_to_beat(v);
    const int k = heading ? v->play.target : talk_beat(v);
    const char *to = heading ? "→ " : "";
    if (v->talk.goto_typing)
        snprintf(status, n, "go to beat %d…", v->talk.goto_number);
    else if (v->talk.presenting && k >= 0 && v->talk.slide_count > 1)
        snprintf(status, n, "slide %d/%d · %s%d/%d · %s", v->talk.slide + 1, v->talk.slide_count,
                 to, k + 1, bl->count, bl->beats[k].title); /* short: the beat's title must fit */
    else if (v->talk.presenting && k >= 0)
        snprintf(status, n, "%sbeat %d/%d · %s", to, k + 1, bl->count, bl->beats[k].title);
    else if (v->talk.slide_count > 1)
        snprintf(status, n, "slide %d/%d · %s ×%.2g", v->talk.slide + 1, v->talk.slide_count,
                 v->play.playing ? "▶" : "paused", v->play.speed / session_default_speed(v->s));
    else
        snprintf(status, n, "%s ×%.2g", v->play.playing ? "▶" : "paused",
                 v->play.speed / session_default_speed(v->s));
    return (frame_view){
        .t = v->play.t,
        .theme = v->look.theme,
        .cam = cam,
        .split = v->look.split,
        .ui_scale = viewer_state_ui_scale(v),
        .hud_title = v->s->hud_title,
        .hud_bubble = v->s->hud_bubble,
        .status = status,
        .show_help = v->look.show_help,
        .help_page = v->look.help_page,
        .show_legend = true,
        .blackout = v->talk.blackout,
        .caption = beat_caption(v),
        .laser = v->talk.laser && v->pointer.known,
        .laser_x = (float)v->pointer.x,
        .laser_y = (float)v->pointer.y,
        .hover = v->pointer.hover,
        /* the caption says what a rank does at t: the pointer's row's, but
           not beside a card on one of its bars at another time */
        .caption_rank = v->pointer.hover.kind == TIMELINE_HIT_NONE ? v->pointer.rank : -1,
        .timeline = v->timeline,
        .aa = v->look.aa,
    };
}

int viewer_state_shown_beat(const viewer_state *v)
{
    return playing_to_beat(v) ? v->play.target : talk_beat(v);
}

double viewer_state_talk_seconds(const viewer_state *v, double clock)
{
    return v->talk.start < 0 ? -1 : clock > v->talk.start ? clock - v->talk.start : 0;
}

void viewer_state_print(const viewer_state *v, int win_w, int win_h, FILE *f)
{
    viewer_state_print_more(v, win_w, win_h, NULL, f);
}

/* printf into a new allocation (free it). */
__attribute__((format(printf, 1, 2))) static char *format_alloc(const char *fmt, ...)
{
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    const int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    const size_t size = n > 0 ? (size_t)n + 1 : 1;
    char *out = ppf_malloc(size);
    if (vsnprintf(out, size, fmt, again) < 0)
        out[0] = '\0';
    va_end(again);
    return out;
}

void viewer_state_print_more(const viewer_state *v, int win_w, int win_h, const char *more, FILE *f)
{
    const timeline_view *tv = &v->timeline;
    /* Formatted whole, then shown by quote.h's rule, so that no value in it
     * (a what-if's message, a name from a file) can act on the terminal
     * that reads it. Printed on request, never per frame. */
    char *line = format_alloc(
        "t=%.6f playing=%d speed=%.6g theme=%s split=%.3f help=%d yaw=%.4f pitch=%.4f "
        "distance=%.4f timeline=%.6f:%.6f plot=%.2f:%.2f:%.2f:%.2f fb=%dx%d window=%dx%d "
        "ui=%.3f presenting=%d blackout=%d beat=%d slide=%d%s%s",
        v->play.t, v->play.playing, v->play.speed, theme_get(v->look.theme).name, v->look.split,
        v->look.show_help, v->camera.cam.yaw, v->camera.cam.pitch, v->camera.cam.distance, tv->t0,
        tv->t1, tv->plot_x, tv->plot_y, tv->plot_w, tv->plot_h, v->fb_w, v->fb_h, win_w, win_h,
        v->look.ui_scale, v->talk.presenting, v->talk.blackout,
        beats_at(&v->s->beats, &v->s->tl, v->play.t) + 1, v->talk.slide + 1, more ? " " : "",
        more ? more : "");
    quote_put(f, line);
    fputc('\n', f);
    free(line);
    fflush(f);
}
