/* window.h - the viewer's GLFW window: GLFW started and stopped, one window
 * with an OpenGL 3.3 core context made current, its events turned into
 * input (input.h) in framebuffer pixels, fullscreen, screenshots, the
 * frame's buffers swapped.
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
 * A window destroyed from outside (`xdotool windowclose`, a crashed window
 * manager) is not an error: Xlib would print its error and exit 1, so
 * ppflow's X error handler takes the errors that name a window or drawable
 * that is gone, and the window then reads as closed (window_should_close);
 * nothing is drawn, swapped or saved on it after that. Any other X error is
 * kept in `x_error` for the caller to report, and closes the window too.
 *
 * Errors: window_open returns false with one line: no display ($DISPLAY
 * unset, or one that cannot be opened), no GL 3.3 core context.
 */
#ifndef PPFLOW_WINDOW_H
#define PPFLOW_WINDOW_H

#include <stdbool.h>

#include "error.h"
#include "input.h"

typedef struct window_desc {
    const char *title;
    int width, height;   /* screen coordinates */
    viewer_input *input; /* where events go */
    void *user;
    void (*resized)(void *user, int fb_w, int fb_h); /* the framebuffer's new size */
} window_desc;

typedef struct viewer_window {
    struct GLFWwindow *glfw;
    bool glfw_up;     /* glfwInit succeeded */
    int fb_w, fb_h;   /* framebuffer pixels */
    int win_w, win_h; /* screen coordinates */
    int windowed[4];  /* x, y, width, height before fullscreen */
    bool cursor_hidden;
    bool gone;        /* destroyed from outside: closed, nothing more is drawn on it */
    int x_error;      /* an X error other than that (its code), or 0 */
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
 * was destroyed from outside or refused by the X server. */
bool window_should_close(const viewer_window *w);
/* Shows the frame drawn (nothing once the window is gone). */
void window_swap(viewer_window *w);
/* Window coordinates to framebuffer pixels (HiDPI screens differ). */
void window_to_fb(const viewer_window *w, double *x, double *y);
/* Fullscreen on the primary monitor, or back to where it was. */
void window_toggle_fullscreen(viewer_window *w);
/* Fullscreen on the monitor the window is on, or back to the window it was. */
void window_set_fullscreen(viewer_window *w, bool on);
bool window_is_fullscreen(const viewer_window *w);
/* Hides the pointer over the window (presenting, after it stood still). */
void window_hide_cursor(viewer_window *w, bool hidden);
/* The title bar's text (a talk's slide changed). */
void window_set_title(viewer_window *w, const char *title);
/* Saves the frame just drawn as a PNG; says what it did on stderr. */
void window_screenshot(const viewer_window *w, const char *path);

#endif
