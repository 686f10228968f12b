/* viewer_whatif.c - live what-if in the running viewer (viewer_core.h):
 * its commands, its undo, and what the frame shows of it. The change
 * itself goes the one road (viewer_show.c): built aside, shown, and what
 * it replaced pushed for undo (whatif.h), the session too while the
 * budget lets the window keep it, so that undo swaps it back unbuilt. */
#include "viewer_core.h"

#include <assert.h>

#include <stdio.h>
#include <string.h>

whatif *viewer_shown_whatif(viewer *v)
{
    return &v->whatifs[v->st.talk.slide];
}

/* The shown slide's session made aside (built from sc, or undo's kept
 * one), then shown keeping the moment. Undo (back) frees what it
 * replaces; a change pushes it. A change refused leaves everything as it
 * was, its error shown. */
static bool whatif_change(viewer *v, const scenario *sc, whatif_undo *back, double clock)
{
    whatif *w = viewer_shown_whatif(v);
    ppf_error err = {{0}};
    session *next = back && back->kept ? back->kept : viewer_build_aside(v, 0, sc, "what-if", &err);
    if (!next) {
        snprintf(w->error, sizeof w->error, "%s", err.message);
        return false;
    }
    if (back)
        back->kept = NULL;
    const viewer_moment m = viewer_moment_of(&v->st);
    session *replaced = viewer_show(v,
                                    &(viewer_change){.slide = v->st.talk.slide,
                                                     .replacement = next,
                                                     .follow = viewer_follow_moment(next, &m)},
                                    clock);
    if (back) {
        session_free(replaced);
    } else {
        whatif_push(w, &replaced->sc, replaced);
        viewer_keep_undo(v);
    }
    w->error[0] = '\0';
    return true;
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
        if (whatif_change(v, &next, NULL, clock))
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
        whatif_change(v, &next, NULL, clock);
        scenario_deinit(&next);
        break;
    }
    case CMD_WHATIF_UNDO: {
        whatif_undo back;
        if (!whatif_pop(w, &back)) {
            snprintf(w->error, sizeof w->error, "nothing to undo: this is the scenario opened%s",
                     v->hud_note[0] ? " or as far back as undo keeps" : "");
            break;
        }
        if (!whatif_change(v, &back.sc, &back, clock))
            whatif_push(w, &back.sc, NULL); /* kept for another try */
        scenario_deinit(&back.sc);
        break;
    }
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
