/* presenter.h - the presenter's side of the live viewer: the second window
 * (--presenter) that shows the lecturer the beat's title, caption and
 * notes, where the talk is (beat n/N), the audience's frame small (with the
 * laser dot where the audience sees it), the next beat's end state, the
 * elapsed and wall-clock times; and where the two windows go on the
 * monitors (--monitor N).
 *
 * Monitors: counted from 1 in GLFW's order, the primary first (a laptop's
 * own screen, as a rule). The audience's monitor is --monitor N; without
 * it, with --presenter and two monitors or more, the first that is not the
 * primary (the projector); else the one the window is on when presenting
 * starts. While presenting, the audience window is fullscreen there and
 * the presenter's window fullscreen on another monitor (the primary, or
 * the second when the audience has the primary); with one monitor the
 * presenter's window is an ordinary window. Not presenting, both are
 * windows, the presenter's moved to the other monitor.
 *
 * A monitor unplugged (or plugged back) moves nothing by itself besides
 * what GLFW does; presenter_place with monitors_changed then places the
 * windows again: an audience whose monitor is gone becomes a window again
 * at its size and place from before fullscreen, one whose monitor is back
 * goes fullscreen there; the presenter's window follows the rule above.
 *
 * Input: the presenter window's keys go to the viewer's one input (so both
 * windows act on one viewer_state and always show the same t); its pointer
 * and wheel are not input (the laser is the audience window's pointer,
 * mirrored into the preview). The elapsed clock is viewer_state's
 * (viewer_state_talk_seconds): from the first Next, ctrl+T back to 0.
 *
 * GL: the presenter's window shares the audience's context objects; what
 * it draws needs vertex arrays of its own, so it has its own frame
 * renderer (the two previews, drawn at one size so its glyph atlas stays),
 * its own cache of the session shown (frame.h's frame_cache, made again
 * whenever it is told of another) and page (render/presenter_view.h), made
 * in its context. The audience
 * window waits for vsync, the presenter's does not (window_desc.no_vsync):
 * two vsynced swaps a frame would halve the audience's rate.
 *
 * Call order (the audience window open):
 *     if (!presenter_choose_monitor(&audience, o->monitor, o->presenter, &err)) exit 2
 *     presenter p = {0};
 *     if (o->presenter && !presenter_open(&p, &audience, s, &input, &err)) exit 1
 *     on a mode change: presenter_place(&p, &audience, presenting, false)
 *     when window_monitors_changed(): presenter_place(&p, &audience, presenting, true)
 *     each frame, after the audience's swap: presenter_draw(&p, &st, &view, clock, shot)
 *     another session shown (a slide, a what-if, undo: the viewer's one road):
 *         presenter_show_slide(&p, s, notes, next_title)
 *     presenter_close(&p);                       before the audience window closes
 * presenter_place and presenter_draw do what concerns the audience window
 * with or without a presenter's window.
 *
 * Errors: presenter_choose_monitor returns false with one line naming the
 * monitors there are; presenter_open false with one line (no second window,
 * no GL objects). A presenter's window closed by its user goes away; the
 * talk goes on in the audience window.
 */
#ifndef PPFLOW_PRESENTER_H
#define PPFLOW_PRESENTER_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "frame.h"
#include "input.h"
#include "presenter_view.h"
#include "session.h"
#include "viewer_state.h"
#include "window.h"

typedef struct presenter {
    viewer_window win;       /* the presenter's window; .glfw NULL: none */
    viewer_window *audience; /* not owned */
    const session *s;        /* not owned: the slide shown */
    const char *slide_notes; /* not owned: a talk's notes for the slide ("" none) */
    const char *next_slide;  /* not owned: the next slide's title after the slide's
                                last beat; NULL: none */
    frame_renderer frame;    /* the previews, in this window's context */
    frame_cache cache;       /* of s, in this window's context */
    presenter_view page;     /* everything else on the page */
    char audience_on[64];    /* the monitor presenting went fullscreen on, by name */
} presenter;

/* Checks --monitor (0: none given) against the monitors plugged in and
 * names the audience's monitor in audience->monitor (see above); false
 * with one line when there is no monitor N. */
bool presenter_choose_monitor(viewer_window *audience, int monitor, bool with_presenter,
                              ppf_error *err);
/* Opens the presenter's window beside the audience's, its keys going to
 * `in`; the audience's context is current again after. */
bool presenter_open(presenter *p, viewer_window *audience, const session *s, viewer_input *in,
                    ppf_error *err);
/* Closes the window and frees its GL objects; accepts a zeroed or closed one. */
void presenter_close(presenter *p);
/* Another session is shown (a slide, a what-if, undo): the session, the
 * notes the page shows when the beat has none, and the next slide's title
 * (NULL: the last), which the page names after the slide's last beat. The
 * previews' cache is made for it in the presenter's context (the
 * audience's current again after); that cannot fail for a built session,
 * so neither can this. Must be called before the session the presenter
 * shows is freed or changed. */
void presenter_show_slide(presenter *p, const session *s, const char *notes,
                          const char *next_slide);

/* Places the audience window (fullscreen while presenting, see above) and
 * the presenter's; monitors_changed: after a monitor was plugged in or out. */
void presenter_place(presenter *p, viewer_window *audience, bool presenting, bool monitors_changed);
/* Draws the presenter's page for the state and the audience's frame view
 * (just drawn), saves it as `screenshot` (NULL: none) and swaps; the
 * audience's context is current again after. Without a window, only says
 * that a screenshot asked for was not saved. */
void presenter_draw(presenter *p, const viewer_state *st, const frame_view *audience_view,
                    double clock, const char *screenshot);
/* The state line's keys for the windows: "fullscreen=1 monitor=2
 * presenter_monitor=1 presenter_fb=1280x720" (viewer.h). */
void presenter_state(const presenter *p, const viewer_window *audience, char *out, size_t n);

#endif
