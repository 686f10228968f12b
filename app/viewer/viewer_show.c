/* viewer_show.c - the one road by which what the window shows changes: a
 * slide change, a what-if, its undo, a comparison's pane added or
 * removed. See viewer_core.h's viewer_show.
 *
 * The road, in four steps, the same for every change:
 *   1. aside: the session to show is made beside everything shown, and
 *      nothing shown changes: built from a scenario (viewer_build_aside:
 *      the room checked against the budget, undo's kept sessions let go
 *      first as far as the build needs), taken back from undo whole, or
 *      another slide's, built when the talk was; then its render cache
 *      (frame.h's frame_cache) in the window's context. A failure stops
 *      here, with one line (the cache cannot fail for a built session).
 *   2. commit: the talk's slot takes the session, the window the cache;
 *      the session it replaces goes to the caller (undo keeps it while the
 *      budget lets it), the old cache is freed.
 *   3. follow: the state by its one rule (viewer_state_follow) with what
 *      the change says (viewer_follow_slide, viewer_follow_moment); the
 *      inspection's tables made for it; a comparison's first pane shows it
 *      (another slide ends the comparison first: it was of the slide left).
 *   4. tell: the presenter's window (which makes its own cache of it, in
 *      its own context), the window's title.
 * A comparison's other panes go the same way: the pane's session built
 * aside and its cache made aside, both committed at once, and the strip,
 * shared scale and layout following (viewer_compare_commit). x in a single
 * window makes the panes' arrangement first, then adds its pane by this
 * road; the last pane beside pane 0 removed (shift+X on two panes) ends
 * the arrangement with it, as another slide does.
 * Nothing after the commit can fail.
 */
#include "viewer_core.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- what each change says of the state (viewer_state_follow) ------------ */

int viewer_slide_target(viewer_state *v, bool *backwards)
{
    int k = v->talk.slide + v->talk.slide_change;
    *backwards = v->talk.slide_change < 0;
    v->talk.slide_change = 0;
    return k < 0 ? 0 : k >= v->talk.slide_count ? v->talk.slide_count - 1 : k;
}

/* Another slide: nothing of the old slide's time goes on; the slide's own
 * camera, and its first beat (or its last, going back). */
viewer_follow viewer_follow_slide(const viewer_state *v, const talk *d, int k, bool at_end)
{
    const session *s = d->slides[k];
    const int beats = s->beats.count;
    return (viewer_follow){
        .relative_speed = v->play.speed / session_default_speed(v->s),
        .camera = d->info[k].has_camera ? (int)d->info[k].camera : -1,
        .land = beats > 0 ? (at_end ? beats - 1 : 0) : -1,
        .beat = -1,
        .t = at_end ? s->tl.makespan : 0,
    };
}

viewer_moment viewer_moment_of(const viewer_state *v)
{
    const session *s = v->s;
    viewer_moment m = {
        .fraction = s->tl.makespan > 0 ? v->play.t / s->tl.makespan : 0,
        .beat = beats_at(&s->beats, &s->tl, v->play.t),
        .relative_speed = v->play.speed / session_default_speed(s),
    };
    if (m.beat >= 0)
        snprintf(m.beat_title, sizeof m.beat_title, "%s", s->beats.beats[m.beat].title);
    return m;
}

/* The beat of the new session to stand on: the same title, else the same
 * number; -1 when there is neither. */
static int same_beat(const beat_list *bl, const viewer_moment *m)
{
    if (m->beat < 0)
        return -1;
    for (int k = 0; k < bl->count; k++)
        if (strcmp(bl->beats[k].title, m->beat_title) == 0)
            return k;
    return m->beat < bl->count ? m->beat : -1;
}

/* The same slide's session changed: the moment kept, playing goes on (a
 * play to a beat becomes a plain play: the beat may be gone). */
/* t at a fraction of the iteration: a product a rounding off the round
 * numbers users stop on (t = 13 of 40, to P = 8 and back, came back as
 * 13.000000000000002, a frame after an event that ends at 13), so a t
 * within a billionth of a multiple of 2^-20 is that multiple: undo then
 * returns to the very moment it left. */
static double moment_t(double fraction, double makespan)
{
    const double t = fraction * makespan, grid = 1048576.0;
    const double snapped = round(t * grid) / grid;
    return fabs(t - snapped) <= 1e-9 * fmax(1.0, fabs(t)) ? snapped : t;
}

viewer_follow viewer_follow_moment(const session *next, const viewer_moment *m)
{
    return (viewer_follow){
        .relative_speed = m->relative_speed,
        .keep_playing = true,
        .camera = -1,
        .land = -1,
        .beat = same_beat(&next->beats, m),
        .t = moment_t(m->fraction, next->tl.makespan),
    };
}

void viewer_slide_title(const talk *d, int k, char *out, size_t size)
{
    if (d->count > 1)
        snprintf(out, size, "ppflow — %s (slide %d/%d)", talk_slide_title(d, k), k + 1, d->count);
    else
        snprintf(out, size, "ppflow — %s", talk_slide_title(d, k));
}

const char *viewer_next_slide_title(const talk *d, int k)
{
    return k + 1 < d->count ? d->info[k + 1].title : NULL;
}

/* ---- the road ------------------------------------------------------------- */

/* Undo's kept sessions (whatif.h) that fit beside held, the shown slide's
 * first; the rest let go. */
static void keep_undo_within(viewer *v, budget_cost held)
{
    const int shown = v->st.talk.slide;
    whatif_keep_within(&v->whatifs[shown], &held);
    for (int k = 0; k < v->talk->count; k++)
        if (k != shown)
            whatif_keep_within(&v->whatifs[k], &held);
}

void viewer_keep_undo(viewer *v)
{
    keep_undo_within(v, viewer_held_besides(v, -1, true));
}

session *viewer_build_aside(viewer *v, int pane, const scenario *sc, const char *what,
                            ppf_error *err)
{
    const int k = v->st.talk.slide;
    /* the new session with every other slide and pane the window holds
     * (pane 0: besides the one it replaces), within the budget; counted
     * before it is built */
    budget_cost held = viewer_held_besides(v, pane == 0 ? k : -1, true);
    budget_cost cost;
    if (!session_check_room(&held, sc, true, what, err) || !scenario_cost(sc, true, &cost, err))
        return NULL;
    /* what undo keeps yields to the build, so that the most held at once is
     * what it was before undo kept anything: the window, and the new
     * session beside the one it replaces */
    budget_cost_add(&held, &cost);
    keep_undo_within(v, held);
    return session_new(sc, v->talk->slides[k]->has_scene, err);
}

/* The render cache of s for the window's frame renderer, made aside. */
static frame_cache cache_aside(viewer *v, const session *s)
{
    frame_cache made = {0};
    window_make_current(&v->win);
    ppf_error err = {{0}};
    const bool ok = frame_cache_init(&made, &v->frame, &s->scene, &s->tl, &err);
    assert(ok && "a built session's cache");
    (void)ok;
    return made;
}

session *viewer_show(viewer *v, const viewer_change *ch, double clock)
{
    if (ch->pane > 0 && !ch->replacement && v->panes.count == 2) {
        /* the last pane beside pane 0 removed: the arrangement ends with it,
         * the state as it was before x (viewer_compare_single) */
        viewer_pane *last = &v->panes.pane[1];
        session *removed = last->owned ? last->s : NULL;
        last->owned = false; /* returned, not freed with the pane */
        viewer_compare_end(v, clock);
        return removed;
    }
    if (ch->pane > 0) { /* the presenter's window shows the first pane: nothing to tell */
        frame_cache made = ch->replacement ? cache_aside(v, ch->replacement) : (frame_cache){0};
        return viewer_compare_commit(v->cmp, &v->st, ch->pane, ch->replacement,
                                     ch->replacement ? &made : NULL);
    }
    talk *d = v->talk;
    const session *next = ch->replacement ? ch->replacement : d->slides[ch->slide];
    frame_cache made = {0};
    viewer_pane *pane = &v->panes.pane[0];
    const bool new_cache = !frame_cache_of(&pane->cache, &next->scene, &next->tl);
    if (new_cache)
        made = cache_aside(v, next);
    const int k = ch->slide;
    const int left = v->st.talk.slide;
    if (k != left) {
        whatif_line_close(&v->whatifs[left].line); /* the slide left keeps its changes */
        v->whatifs[left].error[0] = '\0';
        if (v->cmp) /* a talk's comparison is of the slide shown */
            viewer_compare_end(v, clock);
    }
    /* commit */
    session *replaced = NULL;
    if (ch->replacement) {
        replaced = d->slides[k];
        d->slides[k] = ch->replacement;
    }
    session *s = d->slides[k];
    pane->s = s;
    if (new_cache) {
        frame_cache_deinit(&pane->cache);
        pane->cache = made;
    }
    /* follow */
    v->st.talk.slide = k;
    v->st.talk.slide_count = d->count;
    v->st.talk.slide_change = 0;
    viewer_state_follow(&v->st, s, &ch->follow, clock);
    viewer_inspect_reset(&v->insp, s); /* another timeline: nothing of it is selected */
    if (v->cmp) {                      /* the first pane changed: the strip, the shared scale */
        viewer_compare_follow(v->cmp, &v->st);
        v->cmp_rebuilt = true;
    }
    /* tell */
    presenter_show_slide(&v->pres, s, d->info[k].notes, viewer_next_slide_title(d, k));
    char title[200];
    viewer_slide_title(d, k, title, sizeof title);
    window_set_title(&v->win, title);
    return replaced;
}

void viewer_change_slide(viewer *v, double clock)
{
    bool backwards;
    const int k = viewer_slide_target(&v->st, &backwards);
    viewer_show(
        v,
        &(viewer_change){.slide = k, .follow = viewer_follow_slide(&v->st, v->talk, k, backwards)},
        clock);
}
