/* viewer.c - the live viewer's loop: the window's events and a script's
 * turned into commands, applied, and a frame drawn. See viewer.h.
 *
 * Commands are applied in one place (apply): asked once whether they act
 * now (viewer_state_acts: the blackout's rule), then routed by their group
 * (command.h's command_group_of) to the room that owns them; Esc's layers
 * are ordered in one function (escape).
 *
 * The rooms it wires: window.h (GLFW), input.h (events to commands),
 * keymap.h (the keys and the key card), viewer_state.h (the state and the
 * commands that change it), viewer_script.h (a script's events),
 * frame.h (the picture), presenter.h (the presenter's window, the monitors),
 * whatif.h and viewer_whatif.h (live what-if: the command line, its direct
 * keys and undo, the shown slide's session rebuilt), viewer_compare.h (a
 * comparison's panes on one clock, when --compare or several scenarios),
 * frame_times.h (the frames' times: F3's readout, a script's frametimes). */
#include "viewer.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "clock.h"
#include "exit_status.h"
#include "export.h"
#include "frame.h"
#include "frame_times.h"
#include "input.h"
#include "keymap.h"
#include "presenter.h"
#include "quote.h"
#include "viewer_compare.h"
#include "viewer_inspect.h"
#include "viewer_script.h"
#include "viewer_slides.h"
#include "viewer_state.h"
#include "viewer_whatif.h"
#include "whatif.h"
#include "window.h"

/* Presenting, the pointer hides after standing still this long. */
#define VIEWER_POINTER_HIDE_SECONDS 2.0
/* F3's readout sums up this last stretch of frames, and is written again
 * this often: digits that change every frame cannot be read. */
#define VIEWER_FRAME_TIMES_SECONDS 1.0
#define VIEWER_FRAME_TIMES_REFRESH 0.5

/* Everything the viewer is; the window's callbacks reach it through the
 * input's and the window's user pointers. */
typedef struct viewer {
    viewer_state st;
    deck *deck; /* its slides; st.s is the one shown, which a what-if rebuilds */
    viewer_input in;
    viewer_window win;
    frame_renderer frame;
    presenter pres;        /* the presenter's window (--presenter) and the monitors */
    frame_view view;       /* the frame last drawn, which the presenter's shows small */
    char status[192];      /* its status text: a beat's title fits whole (frame.c shortens it) */
    const char *pres_shot; /* the presenter's screenshot after the next frame; in script.text */
    frame_help_item help[KEYMAP_ROWS_MAX]; /* the key card of the mode, from the keymap */
    int help_count;
    bool presenting_shown; /* the window made fullscreen for presenting mode */
    double pointer_moved;  /* clock of the pointer's last move: it hides 2 s later */
    int screenshots;
    bool screenshot_pending;
    const char *screenshot_path; /* NULL: ppflow-screenshot-NNN.png; else in script.text */
    /* script: read and checked whole before the window opens, replayed here */
    viewer_script script;
    int script_next; /* the next event to replay */
    int wait_frames;
    /* live what-if: one per slide (each slide's opened scenario, undo and line) */
    whatif *whatifs;
    char hud_note[400];      /* what differs from the opened scenario, for the HUD */
    char line_hint[400];     /* the command line's hint, or Tab's candidates */
    bool line_tabbed;        /* line_hint holds Tab's candidates until the next edit */
    frame_command_line line; /* what the frame shows of it */
    viewer_compare *cmp;     /* a comparison's panes; NULL: a single frame */
    bool cmp_from_single;    /* cmp made by x in a single window, which shift+X gives back */
    bool cmp_rebuilt;        /* a what-if rebuilt the first pane: the zoom is stale */
    viewer_state single;     /* the single window's state as x found it */
    viewer_state paned;      /* the state right after x laid out the panes */
    viewer_inspect insp;     /* selection, critical path, micro-batch, area (the shown slide's) */
    frame_times times;       /* the frames' times (F3's readout, a script's frametimes) */
    bool show_times;         /* F3's readout on */
    double times_written;    /* the clock when times_text was written; < 0: write it now */
    char times_text[64];     /* the readout's line */
} viewer;

/* ---- applying commands ------------------------------------------------------ */

/* The key card of the mode, a comparison's rows in a comparison. */
static void follow_card(viewer *v)
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
    follow_card(v);
    presenter_place(&v->pres, &v->win, on, false);
    if (!on)
        window_hide_cursor(&v->win, false);
}

/* The title the presenter names after slide k's last beat; NULL after the
 * talk's last. */
static const char *next_slide_title(const deck *d, int k)
{
    return k + 1 < d->count ? d->info[k + 1].title : NULL;
}

/* Next past a slide's last beat, or Previous before its first: the other
 * slide (viewer_slides.h). The renderers follow the session they draw
 * (frame.h): nothing is made here that could fail. */
static void change_slide(viewer *v, double clock)
{
    bool backwards;
    const int k = viewer_slides_target(&v->st, &backwards);
    const session *s = v->deck->slides[k];
    presenter_show_slide(&v->pres, s, v->deck->info[k].notes, next_slide_title(v->deck, k));
    whatif_line_close(&v->whatifs[v->st.talk.slide].line); /* the slide left keeps its changes */
    v->whatifs[v->st.talk.slide].error[0] = '\0';
    viewer_slides_show(&v->st, v->deck, k, backwards, clock);
    char title[200];
    viewer_slides_title(v->deck, k, title, sizeof title);
    window_set_title(&v->win, title);
}

/* ---- live what-if ------------------------------------------------------------ */

static whatif *shown_whatif(viewer *v)
{
    return &v->whatifs[v->st.talk.slide];
}

/* What the window holds besides the deck's slide k (-1: besides nothing
 * of the deck) and the panes a comparison shows beside the first: what the
 * budget bounds with it (budget.h, totals). */
static budget_cost held_besides(const viewer *v, int k, bool panes)
{
    budget_cost held = {0};
    for (int j = 0; j < v->deck->count; j++)
        if (j != k) {
            const budget_cost c = session_cost(v->deck->slides[j]);
            budget_cost_add(&held, &c);
        }
    for (int j = 1; panes && v->cmp && j < v->cmp->count; j++) {
        const budget_cost c = session_cost(v->cmp->sides[j]);
        budget_cost_add(&held, &c);
    }
    return held;
}

/* ---- a comparison made and ended in the window ------------------------------ */

/* x in a single window: the shown slide beside its sibling (the next
 * schedule at its P and M), two panes on the same t, the cameras linked.
 * Refused (no sibling, a build error), the window stays single and says why. */
static void compare_start(viewer *v)
{
    session *s = v->deck->slides[v->st.talk.slide];
    viewer_compare *c = ppf_calloc(1, sizeof *c);
    ppf_error err = {{0}};
    const budget_cost others = held_besides(v, v->st.talk.slide, false);
    if (!viewer_compare_init_sibling(c, s, s->prog.schedule, &others, &err)) {
        free(c);
        whatif *w = shown_whatif(v);
        snprintf(w->error, sizeof w->error, "%s", err.message);
        return;
    }
    v->single = v->st;
    v->cmp = c;
    v->cmp_from_single = true;
    v->cmp_rebuilt = false;
    viewer_compare_attach(c, &v->st);
    v->paned = v->st;
    follow_card(v);
}

/* shift+X on two panes, or a slide change: one frame again, the first
 * pane's session, as it was before x (at the same t); a window opened as
 * a comparison shows its first side alone. */
static void compare_end(viewer *v, double clock)
{
    viewer_compare_deinit(v->cmp);
    free(v->cmp);
    v->cmp = NULL;
    const bool had = v->cmp_from_single;
    viewer_compare_single(&v->st, had ? &v->single : NULL, had ? &v->paned : NULL, v->cmp_rebuilt,
                          v->win.fb_w, v->win.fb_h, clock);
    v->cmp_from_single = v->cmp_rebuilt = false;
    follow_card(v);
}

/* The panes' keys: x in a single window makes a comparison, shift+X on its
 * last two panes ends it; the rest are the comparison's own. */
static void compare_key(viewer *v, const command *c, double clock)
{
    window_make_current(&v->win); /* panes added or removed: the renderers' */
    if (!v->cmp) {
        if (c->a == VIEWER_COMPARE_ADD)
            compare_start(v);
    } else if (c->a == VIEWER_COMPARE_REMOVE && v->cmp->count <= 2) {
        compare_end(v, clock);
    } else {
        viewer_compare_command(v->cmp, &v->st, c, clock);
    }
}

/* The shown slide rebuilt from next, keeping the moment (viewer_whatif.h);
 * the scenario it replaced pushed for undo, unless this is the undo. A
 * change refused leaves everything as it was, its error shown. */
static bool whatif_change(viewer *v, const scenario *next, bool undo, double clock)
{
    whatif *w = shown_whatif(v);
    const int k = v->st.talk.slide;
    session *s = v->deck->slides[k];
    scenario before;
    scenario_copy(&before, &s->sc);
    viewer_whatif_moment m = viewer_whatif_moment_of(&v->st);
    ppf_error err = {{0}};
    window_make_current(&v->win); /* the renderer's objects are the audience window's */
    /* the slide's new session, with every other slide and pane the window
     * holds, within the budget; counted before it is built */
    const budget_cost others = held_besides(v, k, true);
    const bool ok =
        session_check_room(&others, next, true, "what-if", &err) &&
        (v->cmp ? viewer_compare_rebuild(v->cmp, next, &err) : session_rebuild(s, next, &err));
    if (ok) {
        viewer_inspect_reset(&v->insp, s); /* another timeline: nothing of it is selected */
        viewer_whatif_follow(&v->st, &m, clock);
        if (v->cmp) { /* the first pane changed: the strip, the shared scale */
            viewer_compare_follow(v->cmp, &v->st);
            v->cmp_rebuilt = true;
        }
        if (!undo)
            whatif_push(w, &before);
        w->error[0] = '\0';
        presenter_show_slide(&v->pres, s, v->deck->info[k].notes, next_slide_title(v->deck, k));
        char title[200];
        viewer_slides_title(v->deck, k, title, sizeof title);
        window_set_title(&v->win, title);
    } else {
        snprintf(w->error, sizeof w->error, "%s", err.message);
    }
    scenario_deinit(&before);
    return ok;
}

/* The what-if commands (command.h's COMMAND_WHATIF). */
static void whatif_command(viewer *v, const command *c, double clock)
{
    whatif *w = shown_whatif(v);
    const scenario *now = &v->st.s->sc;
    scenario next;
    ppf_error err = {{0}};
    switch (c->kind) {
    case CMD_LINE_OPEN:
        whatif_line_open(&w->line);
        w->error[0] = '\0';
        break;
    case CMD_LINE_CHAR:
        if (w->line.open && c->a >= 0 && c->a <= 0x10ffff)
            whatif_line_insert(&w->line, (uint32_t)c->a);
        w->error[0] = '\0';
        break;
    case CMD_LINE_BACKSPACE:
        whatif_line_backspace(&w->line);
        w->error[0] = '\0';
        break;
    case CMD_LINE_TAB:
        whatif_complete(&w->line, v->line_hint, sizeof v->line_hint);
        v->line_tabbed = v->line_hint[0] != '\0';
        return;
    case CMD_LINE_ENTER:
        if (!w->line.open)
            break;
        if (!whatif_parse(now, w->line.text, &next, &err)) {
            snprintf(w->error, sizeof w->error, "%s", err.message);
            break;
        }
        if (whatif_change(v, &next, false, clock))
            whatif_line_close(&w->line);
        scenario_deinit(&next);
        break;
    case CMD_LINE_CLOSE:
        whatif_line_close(&w->line);
        w->error[0] = '\0';
        break;
    case CMD_WHATIF_STEP: {
        const int step = (int)(c->a < 0 ? -c->a : c->a) - 1;
        if (step < WHATIF_STEP_SCHEDULE || step > WHATIF_STEP_STAGES)
            break;
        if (!whatif_step(now, (whatif_step_kind)step, c->a > 0 ? 1 : -1, &next, &err)) {
            snprintf(w->error, sizeof w->error, "%s", err.message);
            break;
        }
        whatif_change(v, &next, false, clock);
        scenario_deinit(&next);
        break;
    }
    case CMD_WHATIF_UNDO:
        if (!whatif_pop(w, &next)) {
            snprintf(w->error, sizeof w->error, "nothing to undo: this is the scenario opened%s",
                     v->hud_note[0] ? " or as far back as undo keeps" : "");
            break;
        }
        if (!whatif_change(v, &next, true, clock))
            whatif_push(w, &next); /* kept for another try */
        scenario_deinit(&next);
        break;
    default:
        assert(!"a what-if command (command_group_of)");
        return;
    }
    v->line_tabbed = false;
}

/* What the frame shows of the what-if: the HUD's note, the command line's card. */
static void whatif_view(viewer *v, frame_view *fv)
{
    whatif *w = shown_whatif(v);
    whatif_diff(&w->opened, &v->st.s->sc, v->hud_note, sizeof v->hud_note);
    if (w->line.open && !v->line_tabbed)
        whatif_hint(&v->st.s->sc, w->line.text, v->line_hint, sizeof v->line_hint);
    v->line = (frame_command_line){
        .text = w->line.open ? w->line.text : NULL,
        .hint = v->line_hint,
        .error = w->error,
    };
    fv->hud_note = v->hud_note;
    fv->command_line = w->line.open || w->error[0] ? &v->line : NULL;
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
    whatif *w = shown_whatif(v);
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
    if (v->st.talk.slide_change && v->cmp) /* a talk's comparison is of the slide shown */
        compare_end(v, clock);
    if (v->st.talk.slide_change)
        change_slide(v, clock);
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
        whatif_command(v, c, clock);
        break;
    case COMMAND_COMPARE:
        compare_key(v, c, clock);
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
    v->in.line_open = shown_whatif(v)->line.open;
}

/* The queue, in order. */
static void apply_queue(viewer *v, double clock)
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
    apply_queue(user, clock_now_seconds());
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

/* The state line, the windows' monitors at its end. */
static void print_state(viewer *v)
{
    char more[160 + PPF_ERROR_MAX + 256 + 768 + 512];
    presenter_state(&v->pres, &v->win, more, sizeof more);
    /* the inspection's, before the what-if's whose error stays the line's last key */
    viewer_inspect_state(&v->insp, &v->st, more + strlen(more), sizeof more - strlen(more));
    snprintf(more + strlen(more), sizeof more - strlen(more), " frame_times=%d", v->show_times);
    if (v->cmp) { /* the panes' */
        size_t at = strlen(more);
        more[at++] = ' ';
        viewer_compare_state_line(v->cmp, more + at, sizeof more - at);
    }
    /* the what-if's: the shown session's sizes, undo's depth, the line, the error last */
    const whatif *w = shown_whatif(v);
    const session *s = v->st.s;
    size_t len = strlen(more);
    snprintf(more + len, sizeof more - len,
             " makespan=%.6f stages=%d microbatches=%d schedule=%s undo=%d line=%d "
             "whatif_error=%s",
             s->tl.makespan, s->prog.ranks, s->prog.microbatches, s->prog.schedule, w->undo_count,
             w->line.open, quote_string(w->error).s);
    viewer_state_print_more(&v->st, v->win.win_w, v->win.win_h, more, stdout);
}

/* A script's `frametimes N`: the last N frames' times, and the page
 * faults so far (heap given back and taken again shows there), flushed so
 * that a reader (ppflow bench viewer) sees it at once. */
static void print_frame_times(viewer *v, int n)
{
    const frame_times_summary s = frame_times_last(&v->times, n);
    struct rusage u;
    const long faults = getrusage(RUSAGE_SELF, &u) == 0 ? u.ru_minflt : -1;
    printf("frametimes frames=%d fps=%.2f mean_ms=%.3f median_ms=%.3f worst_ms=%.3f "
           "minor_faults=%ld\n",
           s.count, s.fps, s.mean_ms, s.median_ms, s.worst_ms, faults);
    fflush(stdout);
}

/* ---- script ----------------------------------------------------------------- */

/* A script's `type`: each character of the UTF-8 text (checked when the
 * script was loaded) as a keyboard gives it: the key's press (those of a US
 * layout), then the character from GLFW's char callback; so a script sees
 * that a key typed into the command line does not act as a viewer key. */
static void type_text(viewer *v, const char *text)
{
    const unsigned char *p = (const unsigned char *)text;
    while (*p) {
        unsigned c = *p, n = c < 0x80 ? 0 : c < 0xe0 ? 1 : c < 0xf0 ? 2 : 3;
        unsigned cp = n == 0 ? c : c & (0x3fu >> n);
        for (unsigned k = 1; k <= n && p[k]; k++)
            cp = cp << 6 | (p[k] & 0x3f);
        int mods;
        const int key = viewer_script_key_of_char(cp, &mods);
        if (key)
            input_key(&v->in, key, mods, false);
        input_char(&v->in, cp);
        p += n + 1;
    }
}

/* A script's `timeline PATH`: the shown timeline as `ppflow schedule
 * --format json` writes it. */
static void write_timeline(viewer *v, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        ppf_print(stderr, "timeline not written: cannot open %s", quote_path(path).s);
        return;
    }
    export_timeline_json_beats(&v->st.s->tl, &v->st.s->beats, f);
    if (fclose(f) != 0)
        ppf_print(stderr, "timeline not written: %s", quote_path(path).s);
}

/* Replays script events (checked when the script was loaded) until one asks
 * to draw frames; false at the end of the script. */
static bool script_step(viewer *v)
{
    while (v->wait_frames == 0 && !v->st.quit) {
        if (v->script_next >= v->script.count)
            return false;
        const viewer_script_event *e = &v->script.events[v->script_next++];
        double x = e->x, y = e->y;
        window_to_fb(&v->win, &x, &y);
        switch (e->verb) {
        case VIEWER_SCRIPT_KEY:
            input_key(&v->in, e->key, e->mods, e->repeat);
            break;
        case VIEWER_SCRIPT_TYPE:
            type_text(v, e->path);
            break;
        case VIEWER_SCRIPT_TIMELINE:
            apply_queue(v, clock_now_seconds()); /* the timeline after the events above */
            write_timeline(v, e->path);
            break;
        case VIEWER_SCRIPT_DOWN:
        case VIEWER_SCRIPT_UP:
            input_move(&v->in, x, y);
            input_button_mods(&v->in, e->button, e->verb == VIEWER_SCRIPT_DOWN, e->mods);
            break;
        case VIEWER_SCRIPT_MOVE:
            input_move(&v->in, x, y);
            break;
        case VIEWER_SCRIPT_SCROLL:
            input_scroll(&v->in, e->y, e->mods);
            break;
        case VIEWER_SCRIPT_FRAMES:
            v->wait_frames = e->frames;
            break;
        case VIEWER_SCRIPT_SCREENSHOT:
            /* Saved after the next frame, which shows what the events so far asked for. */
            v->screenshot_path = e->path;
            v->screenshot_pending = true;
            v->wait_frames = 1;
            break;
        case VIEWER_SCRIPT_PRESENTER_SCREENSHOT:
            v->pres_shot = e->path;
            v->wait_frames = 1;
            break;
        case VIEWER_SCRIPT_PRINT:
            apply_queue(v, clock_now_seconds()); /* the state after the events above */
            print_state(v);
            break;
        case VIEWER_SCRIPT_FRAME_TIMES:
            print_frame_times(v, e->frames);
            break;
        case VIEWER_SCRIPT_QUIT:
            v->st.quit = true;
            break;
        }
    }
    return true;
}

/* ---- the loop ------------------------------------------------------------- */

static void draw(viewer *v, double clock)
{
    v->view = viewer_state_frame_view(&v->st, clock, v->status, sizeof v->status);
    v->view.help = v->help;
    v->view.help_count = v->help_count;
    whatif_view(v, &v->view);
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
        return;
    }
    viewer_inspect_view(&v->insp, &v->st, &v->view);
    frame_renderer_draw(&v->frame, &v->st.s->scene, &v->st.s->tl, &v->view, v->st.fb_w, v->st.fb_h);
}

int viewer_run(deck *d, const viewer_options *o, ppf_error *err)
{
    const int first = o->slide > 0 && o->slide <= d->count ? o->slide - 1 : 0;
    const session *s = d->slides[first];
    assert(s->has_scene && "a session built whole, scene included");
    viewer *v = ppf_calloc(1, sizeof *v);
    v->deck = d;
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
    viewer_slides_title(d, first, title, sizeof title);
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
    presenter_show_slide(&v->pres, s, d->info[first].notes, next_slide_title(d, first));
    viewer_state_init(&v->st, s, v->win.fb_w, v->win.fb_h);
    v->st.look.theme = o->show.theme;
    viewer_state_set_speed(&v->st, o->show.speed > 0 ? o->show.speed : session_default_speed(s));
    if (!frame_renderer_init(&v->frame, &s->scene, &s->tl, err))
        goto done;
    v->st.look.ui_scale = v->st.look.ui_scale_start = frame_ui_scale_clamp((float)o->show.ui_scale);
    if (o->compare) {
        const comparison *cp = o->compare;
        const char *names[COMPARE_MAX_SIDES];
        for (int k = 0; k < cp->count; k++)
            names[k] = cp->result.name[k];
        v->cmp = ppf_calloc(1, sizeof *v->cmp);
        if (!viewer_compare_init(v->cmp, cp->sides, names, cp->count, err))
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
    while (!v->st.quit && !window_should_close(&v->win)) {
        /* presenting, the pointer hides after standing still: wake to hide it */
        const bool pointer_shown = v->st.talk.presenting && !v->win.cursor_hidden;
        bool animating = v->st.play.playing || v->st.camera.moving || !script_done ||
                         v->in.queued > 0 || pointer_shown;
        window_wait_events(&v->win, animating);
        /* Closed, or destroyed from outside: nothing more is drawn on it. */
        if (window_should_close(&v->win))
            break;
        if (!script_done && v->wait_frames == 0 && !script_step(v))
            script_done = true;
        if (window_monitors_changed())
            presenter_place(&v->pres, &v->win, v->st.talk.presenting, true);
        clock = clock_now_seconds();
        /* Input acts on the timeline as the last frame laid it out, resized. */
        viewer_state_place_timeline(&v->st);
        apply_queue(v, clock);
        window_hide_cursor(&v->win, v->st.talk.presenting &&
                                        clock - v->pointer_moved > VIEWER_POINTER_HIDE_SECONDS);
        /* A screenshot asked for just before quitting is still taken. */
        if (v->st.quit && !v->screenshot_pending && !v->pres_shot)
            break;
        draw(v, clock);
        if (v->screenshot_pending) {
            screenshot(v, v->screenshot_path);
            v->screenshot_pending = false;
        }
        presenter_draw(&v->pres, &v->st, &v->view, clock, v->pres_shot);
        v->pres_shot = NULL;
        if (v->st.quit)
            break;
        window_swap(&v->win);
        /* a frame after a wait for input is the viewer resting, not a slow frame */
        frame_times_mark(&v->times, clock_now_seconds(), animating);
        if (v->wait_frames > 0)
            v->wait_frames--;
    }
    status = EXIT_STATUS_OK;
    if (v->win.x_error) {
        /* the window is unusable: what was asked (a script, a screenshot) may not be done */
        ppf_fail(err, "the X server refused a request of the window (X error %d)", v->win.x_error);
        status = EXIT_STATUS_IO;
    }
    if (o->print_state)
        print_state(v);
done:
    presenter_close(&v->pres);
    if (v->win.glfw) { /* while their context is current */
        viewer_compare_deinit(v->cmp);
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
