/* viewer.h - the live viewer: a GLFW window showing the frame of frame.h,
 * driven by the keyboard and the mouse (or a script of the same events).
 *
 * Input handlers only turn events into commands; one function applies
 * commands to the viewer's state; time is the only animation state (while
 * playing, t advances with the clock, read in the loop and nowhere else),
 * besides camera moves between presets, which are eased over a fixed time.
 *
 * A script (--script FILE) feeds the same handlers, one line per event,
 * with window coordinates as GLFW reports them:
 *     key NAME [shift|ctrl|alt ...]   a key press (space, left, right, home, end,
 *                                     a..z, 0..9, plus, minus, period, comma,
 *                                     escape, f11)
 *     down left|right X Y             a mouse button pressed at (X, Y)
 *     move X Y                        the pointer moved (drags if a button is down)
 *     up left|right X Y               released
 *     scroll DY [shift|ctrl]          wheel steps (> 0 is away from the user)
 *     frames N                        draw N frames before the next line
 *     screenshot PATH                 save the window as a PNG
 *     print                           print the state line (see --print-state)
 *     quit
 * Lines starting with '#' and blank lines are skipped.
 *
 * The state line (print, --print-state) is one line of key=value pairs:
 *     t=12.500000 playing=0 speed=1.65 theme=dark split=0.700 help=0 yaw=-0.5236
 *     pitch=0.5585 distance=161.8945 timeline=T0:T1 plot=X:Y:W:H fb=WxH window=WxH
 * timeline is the visible time range, plot the timeline's plot area in
 * framebuffer pixels, fb and window the framebuffer and window sizes.
 *
 * Errors: viewer_run returns 1 with one line when there is no display, no
 * GL 3.3 context, or a bad script (file, line and what is wrong); 0 on quit.
 */
#ifndef PPFLOW_VIEWER_H
#define PPFLOW_VIEWER_H

#include <stdbool.h>

#include "camera.h"
#include "error.h"
#include "session.h"
#include "theme.h"

typedef struct viewer_options {
    int width, height;    /* window size in screen coordinates; 0 = 1280x720 */
    theme_id theme;
    camera_preset camera;
    double time;          /* start time */
    double speed;         /* timeline units per second of playback; 0 = iteration in 20 s */
    const char *script;   /* NULL: none */
    bool print_state;     /* print the state line on quit */
} viewer_options;

/* Opens the window and runs until quit; returns the exit status. */
int viewer_run(session *s, const viewer_options *o, ppf_error *err);

#endif
