/* viewer_whatif.c - a what-if change applied in the viewer. See
 * viewer_whatif.h. */
#include "viewer_whatif.h"

#include <assert.h>

#include <stdio.h>
#include <string.h>

#include "timeline_panel.h"
#include "viewer_core.h"
#include "viewer_slides.h"

viewer_whatif_moment viewer_whatif_moment_of(const viewer_state *v)
{
    const session *s = v->s;
    viewer_whatif_moment m = {
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
static int same_beat(const beat_list *bl, const viewer_whatif_moment *m)
{
    if (m->beat < 0)
        return -1;
    for (int k = 0; k < bl->count; k++)
        if (strcmp(bl->beats[k].title, m->beat_title) == 0)
            return k;
    return m->beat < bl->count ? m->beat : -1;
}

void viewer_whatif_follow(viewer_state *v, const viewer_whatif_moment *m, double clock)
{
    const session *s = v->s; /* rebuilt in place */
    viewer_state_follow(v, s,
                        &(viewer_follow){
                            .relative_speed = m->relative_speed,
                            .keep_playing = true, /* a play to a beat becomes a plain play */
                            .camera = -1,
                            .land = -1,
                            .beat = same_beat(&s->beats, m),
                            .t = m->fraction * s->tl.makespan,
                        },
                        clock);
}

/* ---- in the running viewer ------------------------------------------------ */

whatif *viewer_shown_whatif(viewer *v)
{
    return &v->whatifs[v->st.talk.slide];
}

/* The shown slide rebuilt from next, keeping the moment (viewer_whatif.h);
 * the scenario it replaced pushed for undo, unless this is the undo. A
 * change refused leaves everything as it was, its error shown. */
static bool whatif_change(viewer *v, const scenario *next, bool undo, double clock)
{
    whatif *w = viewer_shown_whatif(v);
    const int k = v->st.talk.slide;
    session *s = v->deck->slides[k];
    scenario before;
    scenario_copy(&before, &s->sc);
    viewer_whatif_moment m = viewer_whatif_moment_of(&v->st);
    ppf_error err = {{0}};
    window_make_current(&v->win); /* the renderer's objects are the audience window's */
    /* the slide's new session, with every other slide and pane the window
     * holds, within the budget; counted before it is built */
    const budget_cost others = viewer_held_besides(v, k, true);
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
        presenter_show_slide(&v->pres, s, v->deck->info[k].notes,
                             viewer_next_slide_title(v->deck, k));
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
void viewer_whatif_command(viewer *v, const command *c, double clock)
{
    whatif *w = viewer_shown_whatif(v);
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
void viewer_whatif_view(viewer *v, frame_view *fv)
{
    whatif *w = viewer_shown_whatif(v);
    whatif_diff(&w->opened, &v->st.s->sc, v->hud_note, sizeof v->hud_note);
    if (w->line.open && !v->line_tabbed)
        whatif_hint(&v->st.s->sc, w->line.text, v->line_hint, sizeof v->line_hint);
    v->card = (frame_whatif_card){
        .text = w->line.open ? w->line.text : NULL,
        .hint = v->line_hint,
        .error = w->error,
    };
    fv->hud_note = v->hud_note;
    fv->whatif_card = w->line.open || w->error[0] ? &v->card : NULL;
}
