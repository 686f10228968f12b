/* window.c - the viewer's GLFW window. See window.h. */
#include "window.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <GLFW/glfw3.h>

#include "gl_context.h"
#include "image_png.h"
#include "render_target.h"

/* Last: Xlib's macros (None, Bool, Status) stay out of the headers above. */
#include <X11/Xlib.h>

/* GLFW's X11 handles, as glfw3native.h declares them (that header pulls in
 * XRandR's, which nothing else here needs). */
Display *glfwGetX11Display(void);
Window glfwGetX11Window(GLFWwindow *window);

/* ---- GLFW callbacks: window coordinates to framebuffer pixels, then input -- */

static viewer_window *of(GLFWwindow *g)
{
    return glfwGetWindowUserPointer(g);
}

void window_to_fb(const viewer_window *w, double *x, double *y)
{
    *x *= w->win_w > 0 ? (double)w->fb_w / w->win_w : 1;
    *y *= w->win_h > 0 ? (double)w->fb_h / w->win_h : 1;
}

static void key_callback(GLFWwindow *g, int key, int scancode, int action, int mods)
{
    (void)scancode;
    if (action == GLFW_PRESS || action == GLFW_REPEAT)
        input_key(of(g)->desc.input, key, mods, action == GLFW_REPEAT);
}

/* Text as typed (layout, shift and dead keys applied by the system): the
 * what-if command line's characters. */
static void char_callback(GLFWwindow *g, unsigned int codepoint)
{
    input_char(of(g)->desc.input, codepoint);
}

static void button_callback(GLFWwindow *g, int button, int action, int mods)
{
    input_button_mods(of(g)->desc.input, button, action == GLFW_PRESS, mods);
}

static void cursor_callback(GLFWwindow *g, double x, double y)
{
    viewer_window *w = of(g);
    window_to_fb(w, &x, &y);
    input_move(w->desc.input, x, y);
}

static void scroll_callback(GLFWwindow *g, double dx, double dy)
{
    (void)dx;
    int mods = 0;
    if (glfwGetKey(g, GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS ||
        glfwGetKey(g, GLFW_KEY_RIGHT_SHIFT) == GLFW_PRESS)
        mods |= GLFW_MOD_SHIFT;
    input_scroll(of(g)->desc.input, dy, mods);
}

static void size_callback(GLFWwindow *g, int width, int height)
{
    viewer_window *w = of(g);
    w->fb_w = width, w->fb_h = height;
    glfwGetWindowSize(g, &w->win_w, &w->win_h);
    if (w->desc.resized)
        w->desc.resized(w->desc.user, width, height);
}

static void error_callback(int code, const char *description)
{
    (void)code;
    (void)description; /* reported through glfwInit's or glfwCreateWindow's failure */
}

/* ---- X errors: a window destroyed from outside ------------------------------ */

/* Xlib's error handler gets no user pointer: the window it reports to
 * (the one whose call is running; the first window while events are
 * handled). */
static viewer_window *x_watched;

/* Xlib's default handler prints the error and exits 1. A window or drawable
 * that is gone means the window was destroyed from outside: the viewer ends
 * as if it had been closed. Anything else is kept for the caller. */
static int x_error_handler(Display *display, XErrorEvent *e)
{
    (void)display;
    viewer_window *w = x_watched;
    if (!w)
        return 0;
    if (e->error_code == BadWindow || e->error_code == BadDrawable)
        w->gone = true;
    else if (!w->x_error)
        w->x_error = e->error_code;
    return 0;
}

/* Installed again before every call that can reach the X server: GLFW 3.3
 * puts Xlib's default handler back after each of its own guarded calls. */
static void watch_x_errors(viewer_window *w)
{
    x_watched = w;
    XSetErrorHandler(x_error_handler);
}

static bool usable(const viewer_window *w)
{
    return w->glfw && !w->gone && !w->x_error;
}

/* ---- the window ------------------------------------------------------------ */

/* GLFW's monitor callback has no user pointer: a flag the loop reads. */
static bool monitors_changed;

static void monitor_callback(GLFWmonitor *monitor, int event)
{
    (void)monitor;
    (void)event;
    monitors_changed = true;
}

bool window_monitors_changed(void)
{
    const bool changed = monitors_changed;
    monitors_changed = false;
    return changed;
}

bool window_open(viewer_window *w, const window_desc *d, ppf_error *err)
{
    *w = (viewer_window){.desc = *d};
    if (!d->share) {
        glfwSetErrorCallback(error_callback);
        if (!glfwInit()) {
            const char *display = getenv("DISPLAY");
            if (!display || !display[0])
                return ppf_fail(err,
                                "no display: the viewer needs one ($DISPLAY is not set); record "
                                "a video with `ppflow render -o out.mp4` (same flags) instead");
            return ppf_fail(err, "cannot open the display %.100s (GLFW could not start)", display);
        }
        w->glfw_up = true;
        glfwSetMonitorCallback(monitor_callback);
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
    glfwWindowHint(GLFW_AUTO_ICONIFY, d->no_auto_iconify ? GLFW_FALSE : GLFW_TRUE);
    if (d->share)
        watch_x_errors(d->share);
    w->glfw =
        glfwCreateWindow(d->width, d->height, d->title, NULL, d->share ? d->share->glfw : NULL);
    if (!w->glfw)
        return ppf_fail(err, "cannot open a%s window with OpenGL 3.3 core on this display",
                        d->share ? " second" : "");
    glfwSetWindowUserPointer(w->glfw, w);
    glfwMakeContextCurrent(w->glfw);
    if (!gl_load_current((void *(*)(const char *))glfwGetProcAddress, err))
        return false;
    glfwSwapInterval(d->no_vsync ? 0 : 1);
    glfwGetFramebufferSize(w->glfw, &w->fb_w, &w->fb_h);
    glfwGetWindowSize(w->glfw, &w->win_w, &w->win_h);
    glfwSetKeyCallback(w->glfw, key_callback);
    glfwSetCharCallback(w->glfw, char_callback);
    if (!d->keys_only) {
        glfwSetMouseButtonCallback(w->glfw, button_callback);
        glfwSetCursorPosCallback(w->glfw, cursor_callback);
        glfwSetScrollCallback(w->glfw, scroll_callback);
    }
    glfwSetFramebufferSizeCallback(w->glfw, size_callback);
    watch_x_errors(d->share ? d->share : w);
    return true;
}

void window_close(viewer_window *w)
{
    if (!w)
        return;
    /* A window already gone is destroyed again by GLFW: the errors that
     * brings (when the display closes) are expected, and taken here. */
    if (w->glfw)
        watch_x_errors(w);
    if (w->glfw)
        glfwDestroyWindow(w->glfw);
    if (w->glfw_up) {
        watch_x_errors(w);
        glfwSetMonitorCallback(NULL);
        glfwTerminate();
        XSetErrorHandler(NULL);
    }
    if (x_watched == w)
        x_watched = w->desc.share; /* a second window closed: errors go to the first again */
    *w = (viewer_window){0};
}

void window_make_current(const viewer_window *w)
{
    if (usable(w))
        glfwMakeContextCurrent(w->glfw);
}

void window_wait_events(viewer_window *w, bool animating)
{
    /* GLFW's events are for every window: a presenter's too */
    watch_x_errors(w);
    if (animating)
        glfwPollEvents();
    else
        glfwWaitEventsTimeout(0.5);
}

bool window_should_close(viewer_window *w)
{
    if (!usable(w))
        return true;
    /* still on the server? the handler marks it gone when not (see window.h) */
    watch_x_errors(w);
    Window root;
    int x, y;
    unsigned width, height, border, depth;
    if (!XGetGeometry(glfwGetX11Display(), glfwGetX11Window(w->glfw), &root, &x, &y, &width,
                      &height, &border, &depth))
        w->gone = true;
    return !usable(w) || glfwWindowShouldClose(w->glfw);
}

void window_swap(viewer_window *w)
{
    if (!usable(w))
        return;
    watch_x_errors(w);
    glfwSwapBuffers(w->glfw);
}

/* ---- monitors ---------------------------------------------------------------- */

static GLFWmonitor *monitor_at(int index)
{
    int n = 0;
    GLFWmonitor **all = glfwGetMonitors(&n);
    return all && index >= 1 && index <= n ? all[index - 1] : NULL;
}

int window_monitor_count(void)
{
    int n = 0;
    glfwGetMonitors(&n);
    return n;
}

bool window_monitor_describe(int index, char *name, size_t size, int *width, int *height,
                             bool *primary)
{
    GLFWmonitor *m = monitor_at(index);
    if (!m)
        return false;
    const char *n = glfwGetMonitorName(m);
    snprintf(name, size, "%s", n ? n : "?");
    const GLFWvidmode *mode = glfwGetVideoMode(m);
    *width = mode ? mode->width : 0;
    *height = mode ? mode->height : 0;
    *primary = m == glfwGetPrimaryMonitor();
    return true;
}

int window_monitor_find(const char *name)
{
    int n = 0;
    GLFWmonitor **all = glfwGetMonitors(&n);
    for (int k = 0; name && name[0] && k < n; k++) {
        const char *mn = glfwGetMonitorName(all[k]);
        if (mn && strcmp(mn, name) == 0)
            return k + 1;
    }
    return 0;
}

/* The index of the monitor holding the window's centre, else 0. */
static int monitor_index_of_window(GLFWwindow *g)
{
    int n = 0, x, y, w, h;
    GLFWmonitor **all = glfwGetMonitors(&n);
    GLFWmonitor *full = glfwGetWindowMonitor(g);
    for (int k = 0; full && k < n; k++)
        if (all[k] == full)
            return k + 1;
    glfwGetWindowPos(g, &x, &y);
    glfwGetWindowSize(g, &w, &h);
    const int cx = x + w / 2, cy = y + h / 2;
    for (int k = 0; k < n; k++) {
        int mx, my;
        const GLFWvidmode *m = glfwGetVideoMode(all[k]);
        glfwGetMonitorPos(all[k], &mx, &my);
        if (m && cx >= mx && cx < mx + m->width && cy >= my && cy < my + m->height)
            return k + 1;
    }
    return 0;
}

int window_monitor_of(const viewer_window *w)
{
    return usable(w) ? monitor_index_of_window(w->glfw) : 0;
}

void window_move_to_monitor(viewer_window *w, int index)
{
    GLFWmonitor *m = monitor_at(index);
    const GLFWvidmode *mode = m ? glfwGetVideoMode(m) : NULL;
    if (!usable(w) || !mode || glfwGetWindowMonitor(w->glfw))
        return;
    watch_x_errors(w);
    int mx, my, ww, wh;
    glfwGetMonitorPos(m, &mx, &my);
    glfwGetWindowSize(w->glfw, &ww, &wh);
    /* a window manager's title bar and panels need some room */
    const int inset = mode->height / 20;
    if (ww > mode->width - 2 * inset || wh > mode->height - 2 * inset)
        glfwSetWindowSize(w->glfw, mode->width - 2 * inset, mode->height - 2 * inset);
    glfwSetWindowPos(w->glfw, mx + inset, my + inset);
}

bool window_is_fullscreen(const viewer_window *w)
{
    return usable(w) && glfwGetWindowMonitor(w->glfw) != NULL;
}

void window_set_fullscreen(viewer_window *w, bool on)
{
    if (!usable(w))
        return;
    watch_x_errors(w);
    int *saved = w->windowed; /* x, y, width, height */
    if (!on) {
        /* also when GLFW made it a window already (its monitor went away):
         * back to the size and place it had before fullscreen */
        if (w->fullscreen_asked && saved[2] > 0 && saved[3] > 0)
            glfwSetWindowMonitor(w->glfw, NULL, saved[0], saved[1], saved[2], saved[3], 0);
        w->fullscreen_asked = false;
        return;
    }
    /* the chosen monitor when it is plugged in, else the one the window is
     * on (a lecturer drags the window to the projector, then presents
     * there), else the primary */
    int index = window_monitor_find(w->monitor);
    if (!index)
        index = monitor_index_of_window(w->glfw);
    if (!index)
        index = 1;
    window_fullscreen_on(w, index);
}

void window_fullscreen_on(viewer_window *w, int index)
{
    GLFWmonitor *monitor = monitor_at(index);
    const GLFWvidmode *mode = monitor ? glfwGetVideoMode(monitor) : NULL;
    if (!usable(w) || !mode || glfwGetWindowMonitor(w->glfw) == monitor)
        return;
    watch_x_errors(w);
    int *saved = w->windowed; /* x, y, width, height */
    if (!glfwGetWindowMonitor(w->glfw)) {
        glfwGetWindowPos(w->glfw, &saved[0], &saved[1]);
        glfwGetWindowSize(w->glfw, &saved[2], &saved[3]);
    }
    glfwSetWindowMonitor(w->glfw, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
    w->fullscreen_asked = true;
}

void window_toggle_fullscreen(viewer_window *w)
{
    window_set_fullscreen(w, !window_is_fullscreen(w));
}

void window_hide_cursor(viewer_window *w, bool hidden)
{
    if (!usable(w) || w->cursor_hidden == hidden)
        return;
    watch_x_errors(w);
    glfwSetInputMode(w->glfw, GLFW_CURSOR, hidden ? GLFW_CURSOR_HIDDEN : GLFW_CURSOR_NORMAL);
    w->cursor_hidden = hidden;
}

void window_set_title(viewer_window *w, const char *title)
{
    if (!usable(w))
        return;
    watch_x_errors(w);
    glfwSetWindowTitle(w->glfw, title);
}

void window_screenshot(const viewer_window *w, const char *path)
{
    if (!usable(w))
        return;
    glfwMakeContextCurrent(w->glfw);
    uint8_t *pixels = ppf_malloc((size_t)w->fb_w * (size_t)w->fb_h * 4);
    render_read_window(w->fb_w, w->fb_h, pixels);
    ppf_error err = {{0}};
    if (image_write_png(path, pixels, w->fb_w, w->fb_h, 0, false, &err))
        ppf_print(stderr, "saved %s", path);
    else
        ppf_print(stderr, "screenshot not saved: %s", err.message);
    free(pixels);
}
