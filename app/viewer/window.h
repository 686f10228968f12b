/* window.h - the viewer's GLFW windows: GLFW started and stopped, a window
 * with an OpenGL 3.3 core context made current, its events turned into
 * input (input.h) in framebuffer pixels, fullscreen on a chosen monitor,
 * the monitors listed and watched, screenshots, the frame's buffers swapped.
 *
 * The only file of ppflow that calls GLFW. What it does not do: no state of
 * the viewer besides the window's own (its sizes, where it was before
 * fullscreen), no drawing.
 *
 * Call order:
 *     viewer_window w = {0};
 *     if (!window_open(&w, &(window_desc){...}, &err)) ...   (no display: one line)
 *     loop: window_wait_events(&w, animating); ... draw ...; window_swap(&w);
 *     window_close(&w);
 * Input reaches desc.input from window_wait_events; a new framebuffer size
 * is in w.fb_w, w.fb_h and reported to desc.resized before the events after it.
 *
 * A second window (the presenter's) is opened with desc.share = the first:
 * GLFW is already up, and its context shares the first one's buffers,
 * textures and programs (not vertex arrays or framebuffer objects: what is
 * drawn in it needs its own). It is closed before the first, whose
 * window_close stops GLFW. window_wait_events handles both windows' events;
 * drawing in one makes its context current first (window_make_current).
 *
 * Monitors are counted from 1 in GLFW's order (the primary first). One
 * plugged in or out sets a flag that window_monitors_changed reads; GLFW
 * has by then made a fullscreen window on a monitor that is gone a window
 * (at the monitor's size): the caller places it again.
 *
 * A window destroyed from outside (`xdotool windowclose`, a crashed window
 * manager) is not an error: Xlib would print its error and exit 1, so
 * ppflow's X error handler takes the errors that name a window or drawable
 * that is gone, and the window then reads as closed (window_should_close);
 * nothing is drawn, swapped or saved on it after that. Any other X error is
 * kept in `x_error` for the caller to report, and closes the window too.
 * Errors arrive only once a request fails, after a frame was drawn into
 * the destroyed window, which Mesa's software path does not survive (heap
 * corruption): so window_should_close asks the server whether the window
 * still exists (one round trip) before each frame is drawn.
 *
 * Errors: window_open returns false with one line: no display ($DISPLAY
 * unset, or one that cannot be opened), no GL 3.3 core context.
 */
#ifndef PPFLOW_WINDOW_H
#define PPFLOW_WINDOW_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "input.h"

typedef struct window_desc {
    const char *title;
    int width, height;   /* screen coordinates */
    viewer_input *input; /* where events go */
    void *user;
    void (*resized)(void *user, int fb_w, int fb_h); /* the framebuffer's new size */
    struct viewer_window *share; /* open beside this window, sharing its GL objects; NULL: the
                                    first window, which starts GLFW */
    bool no_vsync;               /* swaps do not wait for the monitor (the presenter's window) */
    bool keys_only;              /* the pointer and the wheel are not input here */
    bool no_auto_iconify;        /* fullscreen stays when another window takes the focus */
} window_desc;

typedef struct viewer_window {
    struct GLFWwindow *glfw;
    bool glfw_up;     /* glfwInit succeeded */
    int fb_w, fb_h;   /* framebuffer pixels */
    int win_w, win_h; /* screen coordinates */
    int windowed[4];  /* x, y, width, height before fullscreen */
    bool cursor_hidden;
    bool fullscreen_asked; /* made fullscreen by window_set_fullscreen and not back yet */
    char monitor[64];      /* the monitor fullscreen goes to, by name; "": the window's own */
    bool gone;             /* destroyed from outside: closed, nothing more is drawn on it */
    int x_error;           /* an X error other than that (its code), or 0 */
    window_desc desc;
} viewer_window;

/* Starts GLFW, opens the window and makes its context current with GL
 * loaded. On failure *w is safe to close. */
bool window_open(viewer_window *w, const window_desc *d, ppf_error *err);
/* Closes the window and stops GLFW; accepts a zeroed or closed window. */
void window_close(viewer_window *w);

/* Handles pending events (waiting up to half a second for one unless
 * `animating`): input, resizes. */
void window_wait_events(viewer_window *w, bool animating);
/* True once the user closed the window (the title bar's button), or it
 * was destroyed from outside (asked of the server) or refused by the X
 * server. */
bool window_should_close(viewer_window *w);
/* Shows the frame drawn (nothing once the window is gone). */
void window_swap(viewer_window *w);
/* Window coordinates to framebuffer pixels (HiDPI screens differ). */
void window_to_fb(const viewer_window *w, double *x, double *y);
/* Fullscreen on the primary monitor, or back to where it was. */
void window_toggle_fullscreen(viewer_window *w);
/* Fullscreen on w->monitor when it is plugged in, else on the monitor the
 * window is on; or back to the window it was (also after GLFW made it a
 * window because its monitor went away). */
void window_set_fullscreen(viewer_window *w, bool on);
/* Fullscreen on monitor `index` (from 1), whatever w->monitor says;
 * nothing when there is no such monitor. */
void window_fullscreen_on(viewer_window *w, int index);
bool window_is_fullscreen(const viewer_window *w);
/* Hides the pointer over the window (presenting, after it stood still). */
void window_hide_cursor(viewer_window *w, bool hidden);
/* The title bar's text (a talk's slide changed). */
void window_set_title(viewer_window *w, const char *title);
/* Saves the frame just drawn as a PNG (its context made current); says
 * what it did on stderr. */
void window_screenshot(const viewer_window *w, const char *path);
/* Makes the window's context the current one (before drawing in it). */
void window_make_current(const viewer_window *w);

/* The monitors plugged in (GLFW must be up). */
int window_monitor_count(void);
/* Monitor `index` (from 1)'s name into name[size] and whether it is the
 * primary one; false when there is no such monitor. */
bool window_monitor_describe(int index, char *name, size_t size, int *width, int *height,
                             bool *primary);
/* The index (from 1) of the monitor named `name`, 0 when none is. */
int window_monitor_find(const char *name);
/* The index (from 1) of the monitor the window is on (fullscreen on, or
 * holding its centre), 0 when none. */
int window_monitor_of(const viewer_window *w);
/* Moves the window (not fullscreen) onto monitor `index`, near its top-left
 * corner, made smaller if it is larger than the monitor. */
void window_move_to_monitor(viewer_window *w, int index);
/* True once after a monitor was plugged in or out. */
bool window_monitors_changed(void);

#endif
