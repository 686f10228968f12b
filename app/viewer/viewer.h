/* viewer.h - the live viewer: a GLFW window showing the frame of frame.h,
 * driven by the keyboard and the mouse (or a script of the same events).
 *
 * Input handlers only turn events into commands (input.h, through the one
 * keymap table of keymap.h, which also makes the key card); one function
 * applies commands to the viewer's state (viewer_state.h); time is the only
 * animation state (while playing, t advances with the clock, read in the
 * loop and nowhere else), besides camera moves between presets, which are
 * eased over a fixed time. The GLFW window is window.h's; the loop is here.
 * The viewer owns what it shows of the session (time, camera, the
 * timeline's zoom and pan) and hands it to the frame each time it draws.
 *
 * A script (--script FILE, viewer_script.h) feeds the same handlers, one
 * line per event (key, type, down, move, up, scroll, frames, screenshot,
 * timeline, print, quit), with window coordinates as GLFW reports them. It is read and
 * checked whole before a window opens, then replayed:
 * events up to a `frames N` (or a screenshot) run before the next frame, and
 * none is dropped however many there are (the command queue is applied
 * whenever it fills).
 *
 * Input from a device or a script never reaches an assert: wheel steps are
 * taken at most 100 per event, the speed stays within a factor of 1000 of
 * the start speed, and camera moves wait while the 3D view is under a pixel
 * high (a minimised window).
 *
 * The state line (print, --print-state) is one line of key=value pairs
 * (viewer_state.h says which):
 *     t=12.500000 playing=0 speed=1.65 theme=dark split=0.700 help=0 yaw=-0.5236
 *     pitch=0.5585 distance=161.8945 timeline=T0:T1 plot=X:Y:W:H fb=WxH window=WxH
 *     ui=1.250 presenting=0 blackout=0 beat=3 fullscreen=0 monitor=1
 *     presenter_monitor=0 presenter_fb=0x0
 * fullscreen and monitor are the audience window's (monitor from 1, 0:
 * none holds it), presenter_monitor and presenter_fb the presenter's
 * window's (0 and 0x0 without one).
 *
 * Errors: viewer_run returns 2 (EXIT_STATUS_USAGE) with one line "FILE:LINE:
 * what is wrong" for a bad script, before anything opens, or for a
 * --monitor that is not plugged in (naming those that are); 1 with one line
 * when there is no display or no GL 3.3 context; 0 on quit.
 */
#ifndef PPFLOW_VIEWER_H
#define PPFLOW_VIEWER_H

#include <stdbool.h>

#include "comparison.h"
#include "talk.h"
#include "error.h"
#include "session.h"

/* What the viewer is asked for. Start from viewer_options_defaults(): the
 * window size has a value there; every other field is zero when not given. */
typedef struct viewer_options {
    session_show show;   /* window size in screen coordinates, theme, camera; speed in
                            timeline units per second of playback, 0: the default */
    double time;         /* start time */
    const char *script;  /* NULL: none */
    bool print_state;    /* print the state line on quit */
    bool present;        /* start in presenting mode (--present) */
    int slide;           /* start on this slide of a talk, from 1 (--slide); 0: the first */
    bool presenter;      /* open the presenter's window too (--presenter, presenter.h) */
    int monitor;         /* the audience's monitor, from 1 (--monitor); 0: presenter.h's choice */
    comparison *compare; /* NULL: the talk's slides; else its sides in panes on one clock
                            (viewer_compare.h), the talk one slide of its first side */
} viewer_options;

/* The options with ppflow's defaults: a 1280x720 window. */
static inline viewer_options viewer_options_defaults(void)
{
    return (viewer_options){.show = {.width = 1280, .height = 720}};
}

/* Reads the script, opens the window and runs until quit; returns the exit
 * status (see Errors), with the message in err. The talk's sessions are
 * built whole (scenes included); a talk's slides are shown one at a time,
 * and a live what-if (whatif.h) replaces the shown one's session with one
 * built aside (viewer_core.h's viewer_show: the one road). A slot of the
 * talk may so hold another session when the viewer returns: the talk
 * still owns (and frees) whatever its slots hold. */
int viewer_run(talk *d, const viewer_options *o, ppf_error *err);

#endif
