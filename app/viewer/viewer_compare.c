/* viewer_compare.c - panes on one clock in the live window. See
 * viewer_compare.h. */
#include "viewer_compare.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timeline_panel.h"
#include "timeline_query.h"
#include "viewer_core.h"
#include "whatif.h"

/* How far x (pane-local) lies across the pane's plot, carried to the
 * first pane's (the state's timeline). */
static double to_first_plot(const viewer_compare *c, const viewer_state *st, int k, double x)
{
    const timeline_view *from = &c->tv[k], *to = &st->timeline;
    if (k <= 0 || !(from->plot_w > 0))
        return x;
    return to->plot_x + (x - from->plot_x) * to->plot_w / from->plot_w;
}

/* The strip's UI scale: the window's, as a single frame's would be. */
static float strip_scale(const viewer_state *st)
{
    return viewer_state_ui_scale_at(st, 1);
}

/* The pane's text as large as a whole window's frame (compare_view.h). */
static float pane_factor(const viewer_compare *c, int k)
{
    return compare_pane_text_scale(&c->layout, k);
}

/* Pane k's timeline: its own rows on the shared scale, the state's range. */
static void place_panes(viewer_compare *c, const viewer_state *st)
{
    for (int k = 0; k < c->panes->count; k++) {
        timeline_view *tv = &c->tv[k];
        compare_view_timeline(tv, &c->panes->pane[k].s->tl, c->longest);
        tv->t0 = st->timeline.t0, tv->t1 = st->timeline.t1;
        const frame_viewport p = c->layout.pane[k];
        const float ui = viewer_state_ui_scale_at(st, pane_factor(c, k));
        const frame_layout l = frame_layout_compute(p.w, p.h, st->look.split, ui);
        frame_layout_place_timeline(&l, tv);
    }
}

/* The state seen through pane k: its session, size, scale, timeline and
 * (unlinked) camera; the same t, range and everything else. */
static viewer_state pane_state(const viewer_compare *c, const viewer_state *st, int k)
{
    viewer_state p = *st;
    p.s = c->panes->pane[k].s;
    p.fb_w = c->layout.pane[k].w, p.fb_h = c->layout.pane[k].h;
    p.pane.ui = pane_factor(c, k);
    p.timeline = c->tv[k];
    if (!c->linked && k > 0)
        p.camera = c->panes->pane[k].cam;
    return p;
}

/* A camera fit of session s in cam's direction, for a pane of this size. */
static camera fit_in(const session *s, camera cam, int w, int h, float split, float ui)
{
    if (w < 1 || h < 1)
        return cam;
    const frame_layout l = frame_layout_compute(w, h, split, ui);
    if (!(l.view_w >= 1 && l.view_h >= 1))
        return cam;
    camera_rect free[FRAME_FREE_MAX];
    const int n = frame_layout_free_rects(&l, free);
    const camera_bounds b = session_camera_bounds(s);
    camera_fit_best(&cam, &b, l.view_w / l.view_h, free, n);
    return cam;
}

/* Linked: the first pane's camera c0 as pane k sees its own scene: the
 * same direction, fitted to its scene, moved by the first's zoom and pan
 * relative to the first's own fit. */
static camera linked_camera(const viewer_compare *c, const viewer_state *st, const camera *c0,
                            int k)
{
    const frame_viewport p0 = c->layout.pane[0], pk = c->layout.pane[k];
    const float ui0 = viewer_state_ui_scale(st);
    const viewer_state pkst = pane_state(c, st, k);
    const camera f0 = fit_in(c->panes->pane[0].s, *c0, p0.w, p0.h, st->look.split, ui0);
    const camera fk =
        fit_in(c->panes->pane[k].s, *c0, pk.w, pk.h, st->look.split, viewer_state_ui_scale(&pkst));
    if (!(f0.distance > 0) || !(fk.distance > 0))
        return *c0;
    camera out = fk;
    const float scale = fk.distance / f0.distance;
    out.distance = c0->distance * scale;
    for (int i = 0; i < 3; i++)
        out.target[i] = fk.target[i] + (c0->target[i] - f0.target[i]) * scale;
    for (int i = 0; i < 2; i++)
        out.shift[i] = fk.shift[i] + (c0->shift[i] - f0.shift[i]);
    return out;
}

/* Lays the panes out for the framebuffer, and the state for the first pane. */
static void lay_out(viewer_compare *c, viewer_state *st)
{
    if (c->fb_w <= 0 || c->fb_h <= 0)
        return;
    c->layout =
        compare_layout_compute(c->fb_w, c->fb_h, c->panes->count, c->arrange, strip_scale(st));
    st->pane.ui = pane_factor(c, 0);
    viewer_state_resize(st, c->layout.pane[0].w, c->layout.pane[0].h);
    place_panes(c, st);
    for (int k = 1; k < c->panes->count && !c->linked; k++) {
        viewer_state p = pane_state(c, st, k);
        viewer_state_resize(&p, p.fb_w, p.fb_h);
        c->panes->pane[k].cam = p.camera;
    }
}

/* The strip's lines and the shared scale, after the sides changed. */
static void compare_again(viewer_compare *c)
{
    const char *names[COMPARE_MAX_SIDES];
    const timeline *tls[COMPARE_MAX_SIDES];
    for (int k = 0; k < c->panes->count; k++) {
        names[k] = c->names[k];
        tls[k] = &c->panes->pane[k].s->tl;
    }
    compare_sides(names, tls, c->panes->count, &c->result);
    c->longest = compare_longest_makespan(tls, c->panes->count);
}

/* A pane's cache, made with the window's frame renderer. */
static bool cache_for(const viewer_compare *c, const session *s, frame_cache *out, ppf_error *err)
{
    return frame_cache_init(out, c->frame, &s->scene, &s->tl, err);
}

bool viewer_compare_init(viewer_compare *c, viewer_panes *panes, const char *const *names,
                         frame_renderer *frame, ppf_error *err)
{
    assert(panes->count >= 1 && panes->count <= COMPARE_MAX_SIDES);
    memset(c, 0, sizeof *c);
    c->frame = frame;
    c->panes = panes;
    for (int k = 0; k < panes->count; k++) {
        assert(panes->pane[k].s->has_scene && "a session built whole, scene included");
        snprintf(c->names[k], sizeof c->names[k], "%s", names[k]);
    }
    c->linked = true;
    c->active = -1;
    compare_again(c);
    bool ok = compare_renderer_init(&c->renderer, err);
    for (int k = 1; ok && k < panes->count; k++)
        if (!panes->pane[k].cache.scene)
            ok = cache_for(c, panes->pane[k].s, &panes->pane[k].cache, err);
    if (!ok)
        viewer_compare_deinit(c); /* the panes are the window's, to close */
    return ok;
}

void viewer_compare_deinit(viewer_compare *c)
{
    if (!c)
        return;
    compare_renderer_deinit(&c->renderer);
    memset(c, 0, sizeof *c);
}

/* The state's time ends at the longest makespan and its timeline is the
 * shared scale, fitted. */
static void attach_scale(viewer_compare *c, viewer_state *st)
{
    st->pane.t_end = c->longest;
    compare_view_timeline(&st->timeline, &st->s->tl, c->longest);
    if (st->play.t > c->longest)
        st->play.t = c->longest;
}

void viewer_compare_attach(viewer_compare *c, viewer_state *st)
{
    c->fb_w = st->fb_w, c->fb_h = st->fb_h;
    attach_scale(c, st);
    lay_out(c, st);
}

void viewer_compare_resize(viewer_compare *c, viewer_state *st, int fb_w, int fb_h)
{
    c->fb_w = fb_w, c->fb_h = fb_h;
    lay_out(c, st);
}

void viewer_compare_map(viewer_compare *c, bool dragging, double *x, double *y)
{
    if (!dragging) {
        for (int k = 0; k < c->panes->count; k++) {
            const frame_viewport p = c->layout.pane[k];
            if (*x >= p.x && *x < p.x + p.w && *y >= p.y && *y < p.y + p.h)
                c->active = k;
        }
    }
    if (c->active < 0 || c->active >= c->panes->count)
        return;
    *x -= c->layout.pane[c->active].x;
    *y -= c->layout.pane[c->active].y;
}

/* ---- panes added and removed ---------------------------------------------- */

static bool shown(const viewer_compare *c, const char *schedule)
{
    for (int k = 0; k < c->panes->count; k++)
        if (strcmp(c->panes->pane[k].s->sc.schedule, schedule) == 0)
            return true;
    return false;
}

/* The last pane's sibling: the next schedule that runs at its P and M and
 * is not shown yet (the next at all when every one is). */
static bool sibling_of(const viewer_compare *c, scenario *out, ppf_error *err)
{
    scenario now;
    scenario_copy(&now, &c->panes->pane[c->panes->count - 1].s->sc);
    bool found = false;
    for (int tries = 0; tries < 64; tries++) {
        scenario next;
        if (!whatif_step(&now, WHATIF_STEP_SCHEDULE, 1, &next, err))
            break;
        const bool fresh = !shown(c, next.schedule);
        if (tries == 0 || fresh) {
            if (found)
                scenario_deinit(out);
            scenario_copy(out, &next);
            found = true;
        }
        const bool back =
            strcmp(next.schedule, c->panes->pane[c->panes->count - 1].s->sc.schedule) == 0;
        scenario_deinit(&now);
        now = next;
        if (fresh || back)
            break;
    }
    scenario_deinit(&now);
    return found;
}

bool viewer_compare_sibling(const viewer_compare *c, scenario *out, ppf_error *err)
{
    if (c->panes->count >= COMPARE_MAX_SIDES)
        return ppf_fail(err, "at most %d panes", COMPARE_MAX_SIDES);
    return sibling_of(c, out, err);
}

/* The change committed (viewer_compare_commit, less the state's part). */
static session *commit(viewer_compare *c, int k, session *s, frame_cache *made)
{
    viewer_panes *p = c->panes;
    assert(s ? k == p->count && k < COMPARE_MAX_SIDES && made && made->scene == &s->scene
             : k == p->count - 1 && k >= 1);
    session *removed = NULL;
    if (s) {
        p->pane[k] =
            (viewer_pane){.s = s, .owned = true, .cache = *made, .cam = p->pane[k - 1].cam};
        *made = (frame_cache){0};
        p->count++;
        snprintf(c->names[k], sizeof c->names[k], "%s", s->prog.schedule);
    } else {
        frame_cache_deinit(&p->pane[k].cache);
        removed = p->pane[k].owned ? p->pane[k].s : NULL;
        p->pane[k] = (viewer_pane){0};
        p->count--;
        if (c->active >= p->count)
            c->active = p->count - 1;
    }
    compare_again(c);
    return removed;
}

session *viewer_compare_commit(viewer_compare *c, viewer_state *st, int k, session *s,
                               frame_cache *made)
{
    /* the strip, the scale (kept zoomed when it still holds), the layout */
    const double t0 = st->timeline.t0, t1 = st->timeline.t1, was = c->longest;
    session *removed = commit(c, k, s, made);
    attach_scale(c, st);
    if (was == c->longest)
        st->timeline.t0 = t0, st->timeline.t1 = t1;
    lay_out(c, st);
    return removed;
}

/* ---- commands ------------------------------------------------------------- */

/* An event step over every pane's events: the nearest in any. */
static void event_step(const viewer_compare *c, viewer_state *st, int dir, double clock)
{
    double best = dir > 0 ? c->longest : 0;
    for (int k = 0; k < c->panes->count; k++) {
        double t;
        const bool found = dir > 0 ? timeline_next_event(&c->panes->pane[k].s->tl, st->play.t, &t)
                                   : timeline_prev_event(&c->panes->pane[k].s->tl, st->play.t, &t);
        if (found && (dir > 0 ? t < best : t > best))
            best = t;
    }
    st->play.playing = false;
    st->play.stop_at = -1, st->play.target = -1, st->play.dir = 1;
    viewer_state_set_time(st, best, clock);
}

static bool moves_camera(const viewer_state *st, command_kind kind)
{
    return kind == CMD_ORBIT || kind == CMD_PAN || kind == CMD_ZOOM || kind == CMD_PRESET ||
           kind == CMD_FIT_3D || (kind == CMD_DIGIT && !st->talk.goto_typing);
}

static void set_linked(viewer_compare *c, viewer_state *st, bool on)
{
    if (on == c->linked)
        return;
    if (!on) /* each pane starts from where the link had it */
        for (int k = 1; k < c->panes->count; k++) {
            viewer_state p = pane_state(c, st, k);
            p.camera.cam = linked_camera(c, st, &st->camera.cam, k);
            p.camera.moving = false;
            p.camera.user = true;
            p.camera.user_view = p.camera.cam;
            const frame_layout l = viewer_state_layout(&p);
            p.camera.aspect = p.camera.user_aspect = l.view_h > 0 ? l.view_w / l.view_h : 1;
            c->panes->pane[k].cam = p.camera;
        }
    c->linked = on;
}

bool viewer_compare_command(viewer_compare *c, viewer_state *st, const command *cmd, double clock)
{
    place_panes(c, st);
    const int k = c->active;
    command moved = *cmd;
    switch (cmd->kind) {
    case CMD_COMPARE:
        c->error[0] = '\0';
        if (cmd->a == VIEWER_COMPARE_ARRANGE) {
            c->arrange = compare_arrange_next(c->layout.arrange, c->panes->count);
            lay_out(c, st);
        } else if (cmd->a == VIEWER_COMPARE_LINK) {
            set_linked(c, st, !c->linked);
        }
        return true; /* panes added and removed: the window's road (viewer_compare_key) */
    case CMD_SCRUB:
    case CMD_TL_ZOOM:
        moved.a = to_first_plot(c, st, k, cmd->a);
        viewer_state_apply(st, &moved, clock);
        return true;
    case CMD_EVENT_STEP:
        event_step(c, st, cmd->a > 0 ? 1 : -1, clock);
        return true;
    default:
        break;
    }
    if (!c->linked && k > 0 && k < c->panes->count && moves_camera(st, cmd->kind)) {
        viewer_state p = pane_state(c, st, k);
        viewer_state_apply(&p, cmd, clock);
        c->panes->pane[k].cam = p.camera;
        return true;
    }
    return false;
}

void viewer_compare_follow(viewer_compare *c, viewer_state *st)
{
    snprintf(c->names[0], sizeof c->names[0], "%s", c->panes->pane[0].s->prog.schedule);
    compare_again(c);
    attach_scale(c, st);
    lay_out(c, st);
}

static bool same_camera(const camera *a, const camera *b)
{
    return memcmp(a, b, sizeof *a) == 0; /* floats only: no padding */
}

void viewer_compare_single(viewer_state *st, const viewer_state *before, const viewer_state *opened,
                           bool rebuilt, int fb_w, int fb_h, double clock)
{
    /* Time and playback, the look, the pointer and the talk stay as the
     * panes left them; the camera and the timeline go back to the single
     * window's as x found them, unless the panes changed them: a camera
     * moved in the panes stays where the user left it, and a timeline the
     * panes zoomed, or whose iteration a what-if changed, is fitted to the
     * session's own. */
    const viewer_state now = *st;
    const bool moved = !before || !opened || !same_camera(&now.camera.cam, &opened->camera.cam) ||
                       now.camera.preset != opened->camera.preset ||
                       now.camera.user != opened->camera.user || now.camera.moving;
    const bool zoomed = !before || rebuilt || !opened || now.timeline.t0 != opened->timeline.t0 ||
                        now.timeline.t1 != opened->timeline.t1;
    if (!moved)
        st->camera = before->camera;
    if (zoomed)
        timeline_panel_view_init(&st->timeline, &st->s->tl);
    else
        st->timeline = before->timeline;
    st->pane.t_end = 0;
    st->pane.ui = 0;
    viewer_state_resize(st, fb_w, fb_h);
    if (st->play.t > st->s->tl.makespan) /* within the session's own iteration */
        viewer_state_set_time(st, st->play.t, clock);
    viewer_state_place_timeline(st);
}

/* ---- the frame ------------------------------------------------------------ */

void viewer_compare_draw(viewer_compare *c, viewer_state *st, const frame_view *base, double clock)
{
    if (c->fb_w <= 0 || c->fb_h <= 0)
        return;
    place_panes(c, st);
    frame_cache *panes[COMPARE_MAX_SIDES];
    for (int k = 0; k < c->panes->count; k++)
        panes[k] = &c->panes->pane[k].cache;
    frame_cache *first = panes[0];
    if (st->talk.blackout) { /* the whole window black, strip and all */
        frame_view b = *base;
        b.viewport = (frame_viewport){0, 0, c->fb_w, c->fb_h};
        frame_renderer_draw(c->frame, first, &b, c->fb_w, c->fb_h);
        return;
    }
    compare_frame f = {
        .count = c->panes->count,
        .arrange = c->layout.arrange,
        .theme = st->look.theme,
        .ui_scale = strip_scale(st),
    };
    for (int k = 0; k < c->panes->count; k++) {
        frame_view fv;
        if (k == 0) {
            fv = *base;
        } else {
            viewer_state p = pane_state(c, st, k);
            p.pointer.known = st->pointer.known && c->active == k;
            fv = viewer_state_frame_view(&p, clock, c->status[k], sizeof c->status[k]);
            if (!c->linked)
                c->panes->pane[k].cam = p.camera;
            else
                fv.cam = linked_camera(c, st, &base->cam, k);
            fv.status = base->status;
            fv.help = NULL, fv.help_count = 0, fv.show_help = false;
            fv.hud_note = NULL;
            fv.whatif_card = NULL;
        }
        if (k == 0 && c->active > 0) { /* the pointer is over another pane */
            fv.hover = (timeline_panel_hover){.kind = TIMELINE_HIT_NONE, .rank = -1, .index = -1};
            fv.caption_rank = -1;
        }
        fv.show_legend = k == 0; /* once: the panes keep their room for the scenes */
        fv.compare_pane = true;
        fv.laser = base->laser && c->active == k;
        fv.laser_x = (float)(st->pointer.x + c->layout.pane[k].x);
        fv.laser_y = (float)(st->pointer.y + c->layout.pane[k].y);
        fv.timeline = c->tv[k];
        fv.viewport = c->layout.pane[k];
        c->shown[k] = fv;
        f.pane[k] = fv;
        f.strip[k] = c->result.line[k];
    }
    compare_renderer_draw(&c->renderer, c->frame, panes, &f, c->fb_w, c->fb_h);
}

static const char *arrange_name(compare_arrange a)
{
    switch (a) {
    case COMPARE_ARRANGE_SIDE_BY_SIDE:
        return "side_by_side";
    case COMPARE_ARRANGE_STACKED:
        return "stacked";
    case COMPARE_ARRANGE_GRID:
        return "grid";
    case COMPARE_ARRANGE_AUTO:
        break;
    }
    return "auto";
}

void viewer_compare_state_line(const viewer_compare *c, char *out, size_t n)
{
    size_t len = 0;
#define PUT(...)                                                                                   \
    do {                                                                                           \
        if (len < n)                                                                               \
            len += (size_t)snprintf(out + len, n - len, __VA_ARGS__);                              \
    } while (0)
    PUT("panes=%d arrange=%s linked=%d active=%d pane_t=", c->panes->count,
        arrange_name(c->layout.arrange), c->linked, c->active + 1);
    for (int k = 0; k < c->panes->count; k++)
        PUT("%s%.6f", k ? ":" : "", c->shown[k].t);
    PUT(" pane_yaw=");
    for (int k = 0; k < c->panes->count; k++)
        PUT("%s%.4f", k ? ":" : "", c->shown[k].cam.yaw);
    PUT(" pane_plot=");
    for (int k = 0; k < c->panes->count; k++) {
        const timeline_view *tv = &c->tv[k];
        const frame_viewport p = c->layout.pane[k];
        PUT("%s%.2f:%.2f:%.2f:%.2f", k ? ";" : "", tv->plot_x + p.x, tv->plot_y + p.y, tv->plot_w,
            tv->plot_h);
    }
    PUT(" pane_schedule=");
    for (int k = 0; k < c->panes->count; k++)
        PUT("%s%s", k ? ":" : "", c->panes->pane[k].s->prog.schedule);
#undef PUT
}

/* ---- a comparison made and ended in the window (viewer_core.h) -------------- */

/* x in a single window: the shown slide beside its sibling (the next
 * schedule at its P and M), two panes on the same t, the cameras linked:
 * the panes' arrangement made, then the sibling added by the one road
 * (viewer_show). Refused (no sibling, a build error), the window stays
 * single and says why. */
static void compare_start(viewer *v, double clock)
{
    ppf_error err = {{0}};
    scenario sc = {0};
    session *s = NULL;
    viewer_compare *c = ppf_calloc(1, sizeof *c);
    const char *name = v->panes.pane[0].s->prog.schedule;
    if (viewer_compare_init(c, &v->panes, &name, &v->frame, &err) &&
        viewer_compare_sibling(c, &sc, &err))
        s = viewer_build_aside(v, 1, &sc, "x: another pane", &err);
    scenario_deinit(&sc);
    if (!s) {
        viewer_compare_deinit(c);
        free(c);
        whatif *w = viewer_shown_whatif(v);
        snprintf(w->error, sizeof w->error, "%s", err.message);
        return;
    }
    v->single = v->st;
    v->cmp = c;
    v->cmp_from_single = true;
    v->cmp_rebuilt = false;
    viewer_show(v, &(viewer_change){.pane = 1, .replacement = s}, clock);
    viewer_compare_attach(c, &v->st);
    v->paned = v->st;
    viewer_follow_card(v);
}

/* shift+X on two panes, or a slide change: one frame again, the first
 * pane's session, as it was before x (at the same t); a window opened as
 * a comparison shows its first side alone. The arrangement ends with its
 * last other pane, which is closed here. */
void viewer_compare_end(viewer *v, double clock)
{
    viewer_compare_deinit(v->cmp);
    free(v->cmp);
    v->cmp = NULL;
    window_make_current(&v->win); /* the panes' caches are its */
    viewer_panes_close_from(&v->panes, 1);
    const bool had = v->cmp_from_single;
    viewer_compare_single(&v->st, had ? &v->single : NULL, had ? &v->paned : NULL, v->cmp_rebuilt,
                          v->win.fb_w, v->win.fb_h, clock);
    v->cmp_from_single = v->cmp_rebuilt = false;
    viewer_follow_card(v);
}

/* x on panes: the last pane's sibling beside them, by the one road
 * (viewer_show, which makes its cache aside before the commit). */
static void pane_added(viewer *v, double clock)
{
    viewer_compare *c = v->cmp;
    ppf_error err = {{0}};
    scenario sc = {0};
    session *s = NULL;
    if (viewer_compare_sibling(c, &sc, &err))
        s = viewer_build_aside(v, c->panes->count, &sc, "x: another pane", &err);
    scenario_deinit(&sc);
    if (!s) {
        snprintf(c->error, sizeof c->error, "%s", err.message);
        return;
    }
    viewer_show(v, &(viewer_change){.pane = c->panes->count, .replacement = s}, clock);
}

/* shift+X: the last pane gone, by the same road (on two panes, the
 * comparison ends with it). */
static void pane_removed(viewer *v, double clock)
{
    session_free(viewer_show(v, &(viewer_change){.pane = v->panes.count - 1}, clock));
}

/* The panes' keys: x in a single window makes a comparison, shift+X on its
 * last two panes ends it; x and shift+X otherwise add and remove a pane;
 * the rest are the comparison's own. */
void viewer_compare_key(viewer *v, const command *c, double clock)
{
    window_make_current(&v->win); /* panes added or removed: the renderers' */
    if (!v->cmp) {
        if (c->a == VIEWER_COMPARE_ADD)
            compare_start(v, clock);
        return;
    }
    v->cmp->error[0] = '\0';
    if (c->a == VIEWER_COMPARE_REMOVE)
        pane_removed(v, clock);
    else if (c->a == VIEWER_COMPARE_ADD)
        pane_added(v, clock);
    else
        viewer_compare_command(v->cmp, &v->st, c, clock);
}
