/* viewer.c - the live viewer's loop: the window's events and a script's
 * turned into commands, applied, and a frame drawn. See viewer.h; the
 * rooms it shares the viewer with are listed in viewer_core.h.
 *
 * Commands are applied in one place (apply): asked once whether they act
 * now (viewer_state_acts: the blackout's rule), then routed by their group
 * (command.h's command_group_of) to the room that owns them; Esc's layers
 * are ordered in one function (escape). */
#include "viewer.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "exit_status.h"
#include "viewer_core.h"

/* Presenting, the pointer hides after standing still this long. */
#define VIEWER_POINTER_HIDE_SECONDS 2.0
/* F3's readout sums up this last stretch of frames, and is written again
 * this often: digits that change every frame cannot be read. */
#define VIEWER_FRAME_TIMES_SECONDS 1.0
#define VIEWER_FRAME_TIMES_REFRESH 0.5

/* ---- applying commands ------------------------------------------------------ */

void viewer_follow_card(viewer *v)
{
    v->help_count =
        keymap_card(v->help, KEYMAP_ROWS_MAX, v->in.mode | (v->cmp ? KEYMAP_COMPARE : 0));
}

/* Presenting mode is fullscreen, with its keys and its key card; leaving
 * it gives the window back as it was. */
static void follow_mode(viewer *v)
{
    const bool on = v->st.talk.presenting;
    v->in.mode = on ? KEYMAP_PRESENT : KEYMAP_WINDOW;
    if (on == v->presenting_shown)
        return;
    v->presenting_shown = on;
    viewer_follow_card(v);
    presenter_place(&v->pres, &v->win, on, false);
    if (!on)
        window_hide_cursor(&v->win, false);
}

/* What the window holds besides the talk's slide k (-1: besides nothing
 * of the talk) and the panes a comparison shows beside the first: what the
 * budget bounds with it (budget.h, totals). */
budget_cost viewer_held_besides(const viewer *v, int k, bool panes)
{
    budget_cost held = {0};
    for (int j = 0; j < v->talk->count; j++)
        if (j != k) {
            const budget_cost c = session_cost(v->talk->slides[j]);
            budget_cost_add(&held, &c);
        }
    for (int j = 1; panes && j < v->panes.count; j++) {
        const budget_cost c = session_cost(v->panes.pane[j].s);
        budget_cost_add(&held, &c);
    }
    return held;
}

/* The window's own commands (command.h's COMMAND_WINDOW). */
static void window_command(viewer *v, const command *c)
{
    switch (c->kind) {
    case CMD_FULLSCREEN:
        window_toggle_fullscreen(&v->win);
        break;
    case CMD_SCREENSHOT:
        v->screenshot_path = NULL; /* a numbered name; saved once the frame is drawn */
        v->screenshot_pending = true;
        break;
    case CMD_FRAME_TIMES:
        v->show_times = !v->show_times;
        v->times_written = -1;
        break;
    default:
        assert(!"a window command (command_group_of)");
    }
}

/* Esc backs out of one layer, the topmost, and never quits: a refused
 * what-if's error, then the state's layers above the inspection (a beat's
 * number being typed, the key card, the laser, the blackout), then the
 * inspection (a selection, an area, a micro-batch), then presenting. */
static void escape(viewer *v, const command *c, double clock)
{
    whatif *w = viewer_shown_whatif(v);
    const viewer_state *st = &v->st;
    if (w->error[0])
        w->error[0] = '\0';
    else if (st->talk.goto_typing || st->look.show_help || st->talk.laser || st->talk.blackout ||
             !viewer_inspect_escape(&v->insp, st))
        viewer_state_apply(&v->st, c, clock);
}

/* Time, the camera, the timeline, the look, beats and presenting: a
 * comparison's panes take those they map to a pane (a scrub, a zoom, an
 * event step, a camera move while unlinked), the inspection those that
 * mean something else with a selection (. , f), the state the rest; then a
 * slide asked for is shown. */
static void view_command(viewer *v, const command *c, double clock)
{
    if (v->cmp && viewer_compare_command(v->cmp, &v->st, c, clock))
        return;
    if (viewer_inspect_apply(&v->insp, &v->st, c, clock))
        return;
    viewer_state_apply(&v->st, c, clock);
    if (v->st.talk.slide_change) /* another slide (it ends a comparison: viewer_show) */
        viewer_change_slide(v, clock);
}

/* The one place commands are applied: asked once whether it acts now (the
 * blackout's rule, viewer_state_acts), each goes to the room of its group. */
static void apply(viewer *v, const command *c, double clock)
{
    if (!viewer_state_acts(&v->st, c->kind))
        return;
    if (c->kind == CMD_HOVER)
        v->pointer_moved = clock;
    switch (command_group_of(c->kind)) {
    case COMMAND_WINDOW:
        window_command(v, c);
        break;
    case COMMAND_WHATIF:
        viewer_whatif_command(v, c, clock);
        break;
    case COMMAND_COMPARE:
        viewer_compare_key(v, c, clock);
        break;
    case COMMAND_INSPECT:
        viewer_inspect_apply(&v->insp, &v->st, c, clock);
        break;
    case COMMAND_ESCAPE:
        escape(v, c, clock);
        break;
    case COMMAND_VIEW:
        view_command(v, c, clock);
        break;
    }
    follow_mode(v);
    v->in.line_open = viewer_shown_whatif(v)->line.open;
}

/* The queue, in order. */
void viewer_apply_queue(viewer *v, double clock)
{
    for (int k = 0; k < v->in.queued; k++)
        apply(v, &v->in.queue[k], clock);
    v->in.queued = 0;
}

/* The input's host: the layout input is read against, and a full queue. */
static frame_layout input_layout(void *user)
{
    return viewer_state_layout(&((viewer *)user)->st);
}

static void input_flush(void *user)
{
    viewer_apply_queue(user, clock_now_seconds());
}

/* A comparison's pointer: into the pane it is over, or its drag's. */
static void input_map(void *user, double *x, double *y)
{
    viewer *v = user;
    if (v->cmp)
        viewer_compare_map(v->cmp, v->in.drag != INPUT_DRAG_NONE, x, y);
}

static void window_resized(void *user, int fb_w, int fb_h)
{
    viewer *v = user;
    if (v->cmp)
        viewer_compare_resize(v->cmp, &v->st, fb_w, fb_h);
    else
        viewer_state_resize(&v->st, fb_w, fb_h);
}

static void screenshot(viewer *v, const char *path)
{
    char name[64];
    if (!path) {
        snprintf(name, sizeof name, "ppflow-screenshot-%03d.png", ++v->screenshots);
        path = name;
    }
    window_screenshot(&v->win, path);
}

/* ---- the loop ------------------------------------------------------------- */

static void draw(viewer *v, double clock)
{
    v->view = viewer_state_frame_view(&v->st, clock, v->status, sizeof v->status);
    v->view.help = v->help;
    v->view.help_count = v->help_count;
    viewer_whatif_view(v, &v->view);
    if (v->show_times) {
        if (v->times_written < 0 || clock - v->times_written >= VIEWER_FRAME_TIMES_REFRESH) {
            frame_times_summary s = frame_times_since(&v->times, VIEWER_FRAME_TIMES_SECONDS);
            frame_times_format(&s, v->times_text, sizeof v->times_text);
            v->times_written = clock;
        }
        v->view.frame_times = v->times_text;
    }
    if (v->cmp) {
        viewer_compare_draw(v->cmp, &v->st, &v->view, clock);
        /* the key card lies in the first pane: its pages at that pane's size */
        v->st.look.help_pages = v->view.show_help ? frame_help_pages(&v->frame, &v->cmp->shown[0],
                                                                     v->st.fb_w, v->st.fb_h)
                                                  : 1;
        return;
    }
    viewer_inspect_view(&v->insp, &v->st, &v->view);
    frame_renderer_draw(&v->frame, &v->panes.pane[0].cache, &v->view, v->st.fb_w, v->st.fb_h);
    /* what h does next: the key card's pages at this size, as just drawn
     * (measured only while it shows: h opens it at its first page) */
    v->st.look.help_pages =
        v->view.show_help ? frame_help_pages(&v->frame, &v->view, v->st.fb_w, v->st.fb_h) : 1;
}

/* Whether the loop must draw without waiting for input: something moves
 * (playback, an eased camera), a script is being replayed, input is
 * queued, or, presenting, the pointer waits to be hidden. */
static bool wants_frames(const viewer *v, bool script_done)
{
    const bool pointer_shown = v->st.talk.presenting && !v->win.cursor_hidden;
    return v->st.play.playing || v->st.camera.moving || !script_done || v->in.queued > 0 ||
           pointer_shown;
}

bool viewer_frame(viewer *v, double clock, bool resting)
{
    if (window_monitors_changed())
        presenter_place(&v->pres, &v->win, v->st.talk.presenting, true);
    /* Input acts on the timeline as the last frame laid it out, resized. */
    viewer_state_place_timeline(&v->st);
    viewer_apply_queue(v, clock);
    window_hide_cursor(&v->win, v->st.talk.presenting &&
                                    clock - v->pointer_moved > VIEWER_POINTER_HIDE_SECONDS);
    /* A screenshot asked for just before quitting is still taken. */
    if (v->st.quit && !v->screenshot_pending && !v->pres_shot)
        return false;
    draw(v, clock);
    if (v->screenshot_pending) {
        screenshot(v, v->screenshot_path);
        v->screenshot_pending = false;
    }
    presenter_draw(&v->pres, &v->st, &v->view, clock, v->pres_shot);
    v->pres_shot = NULL;
    if (v->st.quit)
        return false;
    window_swap(&v->win);
    /* a frame after a wait for input is the viewer resting, not a slow frame */
    frame_times_mark(&v->times, clock_now_seconds(), !resting);
    if (v->wait_frames > 0)
        v->wait_frames--;
    return true;
}

int viewer_run(talk *d, const viewer_options *o, ppf_error *err)
{
    const int first = o->slide > 0 && o->slide <= d->count ? o->slide - 1 : 0;
    const session *s = d->slides[first];
    assert(s->has_scene && "a session built whole, scene included");
    viewer *v = ppf_calloc(1, sizeof *v);
    v->talk = d;
    frame_times_init(&v->times);
    v->whatifs = ppf_calloc((size_t)d->count, sizeof *v->whatifs);
    for (int k = 0; k < d->count; k++)
        whatif_init(&v->whatifs[k], &d->slides[k]->sc);
    int status = EXIT_STATUS_IO;
    /* The whole script first: a bad one is bad input, found before anything
     * opens. */
    if (o->script && !viewer_script_load(&v->script, o->script, err)) {
        status = EXIT_STATUS_USAGE;
        goto done;
    }
    v->in =
        (viewer_input){.user = v, .layout = input_layout, .flush = input_flush, .map = input_map};
    v->in.mode = KEYMAP_WINDOW;
    v->help_count = keymap_card(v->help, KEYMAP_ROWS_MAX, KEYMAP_WINDOW);

    char title[200];
    viewer_slide_title(d, first, title, sizeof title);
    window_desc wd = {
        .title = title,
        .width = o->show.width,
        .height = o->show.height,
        .input = &v->in,
        .user = v,
        .resized = window_resized,
        .no_auto_iconify = o->presenter, /* the presenter's window takes the focus */
    };
    if (!window_open(&v->win, &wd, err))
        goto done;
    if (!presenter_choose_monitor(&v->win, o->monitor, o->presenter, err)) {
        status = EXIT_STATUS_USAGE;
        goto done;
    }
    if (o->presenter && !presenter_open(&v->pres, &v->win, s, &v->in, err))
        goto done;
    presenter_show_slide(&v->pres, s, d->info[first].notes, viewer_next_slide_title(d, first));
    viewer_state_init(&v->st, s, v->win.fb_w, v->win.fb_h);
    v->st.look.theme = o->show.theme;
    v->st.look.aa = session_show_aa(&o->show, scene_aa_for_current_gl());
    viewer_state_set_speed(&v->st, o->show.speed > 0 ? o->show.speed : session_default_speed(s));
    v->panes.count = 1;
    v->panes.pane[0].s = d->slides[first];
    if (!frame_renderer_init(&v->frame, err) ||
        !frame_cache_init(&v->panes.pane[0].cache, &v->frame, &s->scene, &s->tl, err))
        goto done;
    v->st.look.ui_scale = v->st.look.ui_scale_start = frame_ui_scale_clamp((float)o->show.ui_scale);
    if (o->compare) {
        const comparison *cp = o->compare;
        const char *names[COMPARE_MAX_SIDES];
        for (int k = 0; k < cp->count; k++)
            names[k] = cp->result.name[k];
        for (int k = 1; k < cp->count; k++) /* the comparison's sides, not the panes' */
            v->panes.pane[k] = (viewer_pane){.s = cp->sides[k]};
        v->panes.count = cp->count;
        v->cmp = ppf_calloc(1, sizeof *v->cmp);
        if (!viewer_compare_init(v->cmp, &v->panes, names, &v->frame, err))
            goto done;
        viewer_compare_attach(v->cmp, &v->st);
    }
    if (v->cmp) /* the comparison's keys on the card */
        v->help_count = keymap_card(v->help, KEYMAP_ROWS_MAX, KEYMAP_WINDOW | KEYMAP_COMPARE);
    viewer_state_place_timeline(&v->st);
    v->st.talk.slide = first, v->st.talk.slide_count = d->count;
    /* a slide that names a camera has it from the start, --camera or not */
    viewer_state_set_camera(&v->st,
                            d->info[first].has_camera ? d->info[first].camera : o->show.camera);
    double clock = clock_now_seconds();
    viewer_state_set_time(&v->st, o->time, clock);
    v->pointer_moved = clock;
    if (o->present) {
        viewer_state_set_presenting(&v->st, true);
        follow_mode(v);
    }

    bool script_done = !o->script;
    while (!v->st.quit) {
        const bool animating = wants_frames(v, script_done);
        window_wait_events(&v->win, animating);
        /* Closed, or destroyed from outside (asked of the server: one round
         * trip a frame, here only): nothing more is drawn on it. */
        if (window_should_close(&v->win))
            break;
        if (!script_done && v->wait_frames == 0 && !viewer_script_step(v))
            script_done = true;
        if (!viewer_frame(v, clock_now_seconds(), !animating))
            break;
    }
    status = EXIT_STATUS_OK;
    if (v->win.x_error) {
        /* the window is unusable: what was asked (a script, a screenshot) may not be done */
        ppf_fail(err, "the X server refused a request of the window (X error %d)", v->win.x_error);
        status = EXIT_STATUS_IO;
    }
    if (o->print_state)
        viewer_print_state(v);
done:
    presenter_close(&v->pres);
    if (v->win.glfw) { /* while their context is current */
        viewer_compare_deinit(v->cmp);
        viewer_panes_close_from(&v->panes, 0);
        frame_renderer_deinit(&v->frame);
    }
    free(v->cmp);
    window_close(&v->win);
    viewer_inspect_deinit(&v->insp);
    viewer_script_deinit(&v->script);
    for (int k = 0; k < d->count; k++)
        whatif_deinit(&v->whatifs[k]);
    free(v->whatifs);
    free(v);
    return status;
}
