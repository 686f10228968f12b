/* viewer.c - the live viewer's window, input and loop. See viewer.h. */
#include "viewer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <GLFW/glfw3.h>

#include "exit_status.h"
#include "frame.h"
#include "gl_context.h"
#include "image_png.h"
#include "offscreen.h"
#include "render_target.h"
#include "timeline_panel.h"
#include "viewer_script.h"

enum { QUEUE_MAX = 256 };
#define CAMERA_MOVE_SECONDS 0.45
#define DIVIDER_GRAB_PX 5.0
/* Wheel steps taken from one scroll event, whatever a device reports: a
 * zoom factor of 1.25^100 already spans the whole timeline. */
#define SCROLL_STEPS_MAX 100.0
/* Playback speed stays within this factor of the start speed either way, so
 * that + or - held down never reaches 0 or infinity. */
#define SPEED_RANGE 1000.0

/* ---- commands: what input asks for ---------------------------------------- */

typedef enum command_kind {
    CMD_PLAY_TOGGLE,
    CMD_EVENT_STEP,   /* a: +1 next, -1 previous */
    CMD_SPEED,        /* a: factor */
    CMD_HOME,
    CMD_END,
    CMD_SCRUB,        /* a: framebuffer x */
    CMD_TL_ZOOM,      /* a: x, b: factor */
    CMD_TL_PAN,       /* a: fraction of the span */
    CMD_TL_DRAG,      /* a: pixels */
    CMD_TL_FIT,
    CMD_ORBIT,        /* a, b: pixels */
    CMD_PAN,          /* a, b: pixels */
    CMD_ZOOM,         /* a: steps */
    CMD_PRESET,       /* a: camera_preset */
    CMD_FIT_3D,
    CMD_SPLIT,        /* a: framebuffer y of the divider */
    CMD_HOVER,        /* a, b: framebuffer x, y */
    CMD_FULLSCREEN,
    CMD_THEME,
    CMD_SCREENSHOT,
    CMD_HELP,
    CMD_ESCAPE,
    CMD_QUIT,
} command_kind;

typedef struct command {
    command_kind kind;
    double a, b;
} command;

typedef enum drag_mode { DRAG_NONE, DRAG_SCRUB, DRAG_ORBIT, DRAG_PAN, DRAG_TL_PAN, DRAG_SPLIT } drag_mode;

/* Everything the viewer is: reached from GLFW callbacks through the window's
 * user pointer. */
typedef struct viewer {
    session *s;
    GLFWwindow *window;
    frame_renderer frame;
    int fb_w, fb_h, win_w, win_h;
    /* what is shown */
    double t, speed;
    double speed_min, speed_max;
    bool playing;
    double play_anchor_t, play_anchor_clock;
    theme_id theme;
    float split;
    bool show_help;
    camera cam, cam_from, cam_to;
    bool cam_moving;
    double cam_move_start;
    timeline_panel_hover hover;
    int hover_rank;
    /* input */
    double mouse_x, mouse_y; /* framebuffer pixels */
    drag_mode drag;
    int mods;
    command queue[QUEUE_MAX];
    int queued;
    bool quit;
    int screenshots;
    int windowed[4]; /* the window's place and size before fullscreen */
    bool screenshot_pending;
    const char *screenshot_path; /* NULL: ppflow-screenshot-NNN.png; else in script.text */
    /* script: read and checked whole before the window opens, replayed here */
    viewer_script script;
    int script_next; /* the next event to replay */
    int wait_frames;
} viewer;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void apply_queue(viewer *v, double clock);

/* Never drops a command: a full queue (a script's long run of events, a flood
 * of pointer motion between two frames) is applied first, in order. */
static void push(viewer *v, command_kind kind, double a, double b)
{
    if (v->queued == QUEUE_MAX)
        apply_queue(v, now_seconds());
    v->queue[v->queued++] = (command){kind, a, b};
}

/* ---- input handlers: events to commands ----------------------------------- */

static frame_layout layout_of(const viewer *v)
{
    return frame_layout_compute(v->fb_w, v->fb_h, v->split);
}

static bool in_panel(const viewer *v, double y)
{
    return y >= layout_of(v).panel_y;
}

static void on_key(viewer *v, int key, int mods)
{
    bool shift = mods & GLFW_MOD_SHIFT;
    switch (key) {
    case GLFW_KEY_SPACE:
        push(v, CMD_PLAY_TOGGLE, 0, 0);
        break;
    case GLFW_KEY_RIGHT:
    case GLFW_KEY_PERIOD:
        push(v, CMD_EVENT_STEP, 1, 0);
        break;
    case GLFW_KEY_LEFT:
    case GLFW_KEY_COMMA:
        push(v, CMD_EVENT_STEP, -1, 0);
        break;
    case GLFW_KEY_EQUAL:
    case GLFW_KEY_KP_ADD:
        push(v, CMD_SPEED, 1.5, 0);
        break;
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT:
        push(v, CMD_SPEED, 1 / 1.5, 0);
        break;
    case GLFW_KEY_HOME:
        push(v, CMD_HOME, 0, 0);
        break;
    case GLFW_KEY_END:
        push(v, CMD_END, 0, 0);
        break;
    case GLFW_KEY_W:
    case GLFW_KEY_S: {
        frame_layout l = layout_of(v);
        double x = in_panel(v, v->mouse_y) ? v->mouse_x : l.panel_x + l.panel_w / 2;
        push(v, CMD_TL_ZOOM, x, key == GLFW_KEY_W ? 1.25 : 1 / 1.25);
        break;
    }
    case GLFW_KEY_A:
        push(v, CMD_TL_PAN, -0.1, 0);
        break;
    case GLFW_KEY_D:
        push(v, CMD_TL_PAN, 0.1, 0);
        break;
    case GLFW_KEY_F:
        push(v, CMD_TL_FIT, 0, 0);
        break;
    case GLFW_KEY_F11:
        push(v, CMD_FULLSCREEN, 0, 0);
        break;
    case GLFW_KEY_ENTER:
        if (mods & GLFW_MOD_ALT)
            push(v, CMD_FULLSCREEN, 0, 0);
        break;
    case GLFW_KEY_T:
        push(v, CMD_THEME, 0, 0);
        break;
    case GLFW_KEY_P:
        push(v, CMD_SCREENSHOT, 0, 0);
        break;
    case GLFW_KEY_H:
        push(v, CMD_HELP, 0, 0);
        break;
    case GLFW_KEY_SLASH:
        if (shift)
            push(v, CMD_HELP, 0, 0);
        break;
    case GLFW_KEY_Q:
        push(v, CMD_QUIT, 0, 0);
        break;
    case GLFW_KEY_ESCAPE:
        push(v, CMD_ESCAPE, 0, 0);
        break;
    case GLFW_KEY_0:
        push(v, CMD_FIT_3D, 0, 0);
        break;
    default:
        if (key >= GLFW_KEY_1 && key <= GLFW_KEY_9)
            push(v, CMD_PRESET, key - GLFW_KEY_1, 0);
        break;
    }
}

static void on_button(viewer *v, int button, bool press)
{
    if (!press) {
        v->drag = DRAG_NONE;
        return;
    }
    frame_layout l = layout_of(v);
    if (fabs(v->mouse_y - l.panel_y) <= DIVIDER_GRAB_PX) {
        v->drag = DRAG_SPLIT;
    } else if (in_panel(v, v->mouse_y)) {
        if (button == GLFW_MOUSE_BUTTON_LEFT) {
            v->drag = DRAG_SCRUB;
            push(v, CMD_SCRUB, v->mouse_x, 0);
        } else {
            v->drag = DRAG_TL_PAN;
        }
    } else {
        v->drag = button == GLFW_MOUSE_BUTTON_LEFT ? DRAG_ORBIT : DRAG_PAN;
    }
}

static void on_move(viewer *v, double x, double y)
{
    double dx = x - v->mouse_x, dy = y - v->mouse_y;
    v->mouse_x = x, v->mouse_y = y;
    switch (v->drag) {
    case DRAG_SCRUB:
        push(v, CMD_SCRUB, x, 0);
        break;
    case DRAG_ORBIT:
        push(v, CMD_ORBIT, dx, dy);
        break;
    case DRAG_PAN:
        push(v, CMD_PAN, dx, dy);
        break;
    case DRAG_TL_PAN:
        push(v, CMD_TL_DRAG, dx, 0);
        break;
    case DRAG_SPLIT:
        push(v, CMD_SPLIT, y, 0);
        break;
    case DRAG_NONE:
        break;
    }
    push(v, CMD_HOVER, x, y);
}

static void on_scroll(viewer *v, double dy, int mods)
{
    /* Any device's value is input: pow(1.25, dy) must stay a factor above 0
     * (timeline_view_zoom asserts it) and the camera's zoom finite. */
    if (!isfinite(dy))
        return;
    dy = dy < -SCROLL_STEPS_MAX ? -SCROLL_STEPS_MAX : dy > SCROLL_STEPS_MAX ? SCROLL_STEPS_MAX : dy;
    if (in_panel(v, v->mouse_y)) {
        if (mods & GLFW_MOD_SHIFT)
            push(v, CMD_TL_PAN, -0.1 * dy, 0);
        else
            push(v, CMD_TL_ZOOM, v->mouse_x, pow(1.25, dy));
    } else {
        push(v, CMD_ZOOM, dy, 0);
    }
}

/* GLFW callbacks: window coordinates to framebuffer pixels, then the handlers. */

static viewer *of(GLFWwindow *w)
{
    return glfwGetWindowUserPointer(w);
}

static double fb_scale_x(const viewer *v)
{
    return v->win_w > 0 ? (double)v->fb_w / v->win_w : 1;
}

static double fb_scale_y(const viewer *v)
{
    return v->win_h > 0 ? (double)v->fb_h / v->win_h : 1;
}

static void key_callback(GLFWwindow *w, int key, int scancode, int action, int mods)
{
    (void)scancode;
    if (action == GLFW_PRESS || action == GLFW_REPEAT)
        on_key(of(w), key, mods);
}

static void button_callback(GLFWwindow *w, int button, int action, int mods)
{
    of(w)->mods = mods;
    on_button(of(w), button, action == GLFW_PRESS);
}

static void cursor_callback(GLFWwindow *w, double x, double y)
{
    viewer *v = of(w);
    on_move(v, x * fb_scale_x(v), y * fb_scale_y(v));
}

static void scroll_callback(GLFWwindow *w, double dx, double dy)
{
    (void)dx;
    viewer *v = of(w);
    int mods = 0;
    if (glfwGetKey(w, GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS ||
        glfwGetKey(w, GLFW_KEY_RIGHT_SHIFT) == GLFW_PRESS)
        mods |= GLFW_MOD_SHIFT;
    on_scroll(v, dy, mods);
}

static void size_callback(GLFWwindow *w, int width, int height)
{
    viewer *v = of(w);
    v->fb_w = width, v->fb_h = height;
    glfwGetWindowSize(w, &v->win_w, &v->win_h);
}

/* ---- applying commands ------------------------------------------------------ */

static double clamp_t(const viewer *v, double t)
{
    double end = v->s->tl.makespan;
    return !(t > 0) ? 0 : t > end ? end : t; /* NaN: 0 */
}

static void set_time(viewer *v, double t, double clock)
{
    v->t = clamp_t(v, t);
    v->play_anchor_t = v->t;
    v->play_anchor_clock = clock;
}

static camera current_camera(const viewer *v, double clock)
{
    if (!v->cam_moving)
        return v->cam;
    double s = (clock - v->cam_move_start) / CAMERA_MOVE_SECONDS;
    return camera_blend(&v->cam_from, &v->cam_to, (float)(s > 1 ? 1 : s));
}

static void move_camera_to(viewer *v, camera to, double clock)
{
    v->cam_from = current_camera(v, clock);
    v->cam_to = to;
    v->cam = to;
    v->cam_moving = true;
    v->cam_move_start = clock;
}

/* Direct manipulation stops a move where it is. */
static void settle_camera(viewer *v, double clock)
{
    if (v->cam_moving) {
        v->cam = current_camera(v, clock);
        v->cam_moving = false;
    }
}

static void print_state(const viewer *v, FILE *f)
{
    const timeline_view *tv = &v->frame.panel.view;
    fprintf(f,
            "t=%.6f playing=%d speed=%.6g theme=%s split=%.3f help=%d yaw=%.4f pitch=%.4f "
            "distance=%.4f timeline=%.6f:%.6f plot=%.2f:%.2f:%.2f:%.2f fb=%dx%d window=%dx%d\n",
            v->t, v->playing, v->speed, theme_get(v->theme).name, v->split, v->show_help,
            v->cam.yaw, v->cam.pitch, v->cam.distance, tv->t0, tv->t1, tv->plot_x, tv->plot_y,
            tv->plot_w, tv->plot_h, v->fb_w, v->fb_h, v->win_w, v->win_h);
    fflush(f);
}

static void screenshot(viewer *v, const char *path)
{
    char name[64];
    if (!path) {
        snprintf(name, sizeof name, "ppflow-screenshot-%03d.png", ++v->screenshots);
        path = name;
    }
    uint8_t *pixels = ppf_malloc((size_t)v->fb_w * (size_t)v->fb_h * 4);
    render_read_window(v->fb_w, v->fb_h, pixels);
    ppf_error err = {{0}};
    if (image_write_png(path, pixels, v->fb_w, v->fb_h, 0, false, &err))
        ppf_print(stderr, "saved %s", path);
    else
        ppf_print(stderr, "screenshot not saved: %s", err.message);
    free(pixels);
}

static void toggle_fullscreen(viewer *v)
{
    int *saved = v->windowed; /* x, y, width, height */
    GLFWmonitor *monitor = glfwGetWindowMonitor(v->window);
    if (monitor) {
        glfwSetWindowMonitor(v->window, NULL, saved[0], saved[1], saved[2], saved[3], 0);
        return;
    }
    monitor = glfwGetPrimaryMonitor();
    const GLFWvidmode *mode = monitor ? glfwGetVideoMode(monitor) : NULL;
    if (!mode)
        return;
    glfwGetWindowPos(v->window, &saved[0], &saved[1]);
    glfwGetWindowSize(v->window, &saved[2], &saved[3]);
    glfwSetWindowMonitor(v->window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
}

/* The camera's functions assert a view of at least one pixel each way (an
 * aspect above 0, a height to turn pixels into angles): a window made one
 * pixel high, or minimised, leaves the camera as it is. */
static bool view_usable(const viewer *v)
{
    frame_layout l = layout_of(v);
    return l.view_w >= 1 && l.view_h >= 1;
}

static void apply(viewer *v, const command *c, double clock)
{
    timeline_view *tv = &v->frame.panel.view;
    const timeline *tl = &v->s->tl;
    switch (c->kind) {
    case CMD_PLAY_TOGGLE:
        if (!v->playing && v->t >= tl->makespan)
            v->t = 0;
        v->playing = !v->playing;
        set_time(v, v->t, clock);
        break;
    case CMD_EVENT_STEP: {
        double t;
        bool found = c->a > 0 ? timeline_panel_next_event(tl, v->t, &t)
                              : timeline_panel_prev_event(tl, v->t, &t);
        v->playing = false;
        set_time(v, found ? t : c->a > 0 ? tl->makespan : 0, clock);
        break;
    }
    case CMD_SPEED:
        v->speed *= c->a;
        v->speed = v->speed < v->speed_min ? v->speed_min
                   : v->speed > v->speed_max ? v->speed_max
                                             : v->speed;
        set_time(v, v->t, clock);
        break;
    case CMD_HOME:
        set_time(v, 0, clock);
        break;
    case CMD_END:
        v->playing = false;
        set_time(v, tl->makespan, clock);
        break;
    case CMD_SCRUB:
        v->playing = false;
        set_time(v, timeline_view_x_to_time(tv, c->a), clock);
        break;
    case CMD_TL_ZOOM:
        timeline_view_zoom(tv, c->a, c->b);
        break;
    case CMD_TL_PAN:
        timeline_view_pan_fraction(tv, c->a);
        break;
    case CMD_TL_DRAG:
        timeline_view_pan_pixels(tv, c->a);
        break;
    case CMD_TL_FIT:
        timeline_view_fit(tv);
        break;
    case CMD_ORBIT:
        if (!view_usable(v))
            break;
        settle_camera(v, clock);
        camera_orbit(&v->cam, (float)c->a, (float)c->b, (float)layout_of(v).view_h);
        break;
    case CMD_PAN:
        if (!view_usable(v))
            break;
        settle_camera(v, clock);
        camera_pan(&v->cam, (float)c->a, (float)c->b, (float)layout_of(v).view_h);
        break;
    case CMD_ZOOM:
        settle_camera(v, clock);
        camera_zoom(&v->cam, (float)c->a);
        break;
    case CMD_PRESET:
        if (!view_usable(v))
            break;
        move_camera_to(v, session_camera(v->s, (camera_preset)c->a, v->fb_w, v->fb_h, v->split),
                       clock);
        break;
    case CMD_FIT_3D: {
        if (!view_usable(v))
            break;
        settle_camera(v, clock);
        camera to = v->cam;
        frame_layout l = layout_of(v);
        camera_bounds b = session_camera_bounds(v->s);
        camera_fit(&to, &b, l.view_w / l.view_h);
        move_camera_to(v, to, clock);
        break;
    }
    case CMD_SPLIT:
        if (v->fb_h <= 0)
            break;
        v->split = (float)(c->a / v->fb_h);
        v->split = v->split < 0.25f ? 0.25f : v->split > 0.85f ? 0.85f : v->split;
        break;
    case CMD_HOVER: {
        timeline_panel_hover h;
        if (c->b >= layout_of(v).panel_y && timeline_panel_hit(&v->frame.panel, c->a, c->b, &h))
            v->hover = h;
        else
            v->hover = (timeline_panel_hover){.kind = TIMELINE_HIT_NONE, .rank = -1, .index = -1};
        v->hover_rank = c->b >= layout_of(v).panel_y ? timeline_view_row_at_y(tv, c->b) : -1;
        break;
    }
    case CMD_FULLSCREEN:
        toggle_fullscreen(v);
        break;
    case CMD_THEME:
        v->theme = (theme_id)((v->theme + 1) % THEME_COUNT);
        break;
    case CMD_SCREENSHOT:
        v->screenshot_path = NULL; /* a numbered name; saved once the frame is drawn */
        v->screenshot_pending = true;
        break;
    case CMD_HELP:
        v->show_help = !v->show_help;
        break;
    case CMD_ESCAPE:
        if (v->show_help)
            v->show_help = false;
        else
            v->quit = true;
        break;
    case CMD_QUIT:
        v->quit = true;
        break;
    }
}

static void apply_queue(viewer *v, double clock)
{
    for (int k = 0; k < v->queued; k++)
        apply(v, &v->queue[k], clock);
    v->queued = 0;
}

/* ---- script ----------------------------------------------------------------- */

/* Replays script events (checked when the script was loaded) until one asks
 * to draw frames; false at the end of the script. */
static bool script_step(viewer *v)
{
    while (v->wait_frames == 0 && !v->quit) {
        if (v->script_next >= v->script.count)
            return false;
        const viewer_script_event *e = &v->script.events[v->script_next++];
        switch (e->verb) {
        case VIEWER_SCRIPT_KEY:
            on_key(v, e->key, e->mods);
            break;
        case VIEWER_SCRIPT_DOWN:
        case VIEWER_SCRIPT_UP:
            on_move(v, e->x * fb_scale_x(v), e->y * fb_scale_y(v));
            on_button(v, e->button, e->verb == VIEWER_SCRIPT_DOWN);
            break;
        case VIEWER_SCRIPT_MOVE:
            on_move(v, e->x * fb_scale_x(v), e->y * fb_scale_y(v));
            break;
        case VIEWER_SCRIPT_SCROLL:
            on_scroll(v, e->y, e->mods);
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
        case VIEWER_SCRIPT_PRINT:
            apply_queue(v, now_seconds()); /* the state after the events above */
            print_state(v, stdout);
            break;
        case VIEWER_SCRIPT_QUIT:
            v->quit = true;
            break;
        }
    }
    return true;
}

/* ---- the loop ------------------------------------------------------------- */

static void draw(viewer *v, double clock)
{
    if (v->playing) {
        v->t = clamp_t(v, v->play_anchor_t + (clock - v->play_anchor_clock) * v->speed);
        if (v->t >= v->s->tl.makespan)
            v->playing = false;
    }
    camera cam = current_camera(v, clock);
    if (v->cam_moving && clock - v->cam_move_start >= CAMERA_MOVE_SECONDS)
        v->cam_moving = false;
    char status[48];
    /* DejaVu Sans has no pause sign: the word says it. */
    snprintf(status, sizeof status, "%s ×%.2g", v->playing ? "▶" : "paused",
             v->speed / (v->s->tl.makespan / SESSION_PLAY_SECONDS));
    frame_view view = {
        .t = v->t,
        .theme = v->theme,
        .cam = cam,
        .split = v->split,
        .hud_title = v->s->hud_title,
        .hud_bubble = v->s->hud_bubble,
        .status = status,
        .show_help = v->show_help,
        .show_legend = true,
        .hover = v->hover,
        .caption_rank = v->hover_rank,
    };
    frame_renderer_draw(&v->frame, &v->s->scene, &v->s->tl, &view, v->fb_w, v->fb_h);
}

static void error_callback(int code, const char *description)
{
    (void)code;
    (void)description; /* reported through glfwInit's or glfwCreateWindow's failure */
}

int viewer_run(session *s, const viewer_options *o, ppf_error *err)
{
    viewer *v = ppf_calloc(1, sizeof *v);
    int status = EXIT_STATUS_IO;
    bool glfw_up = false;
    /* The whole script first: a bad one is bad input, found before the scene
     * is built or anything opens. */
    if (o->script && !viewer_script_load(&v->script, o->script, err)) {
        status = EXIT_STATUS_USAGE;
        goto done;
    }
    v->s = s;
    v->theme = o->show.theme;
    v->split = 0.7f;
    v->speed = o->show.speed > 0 ? o->show.speed : session_default_speed(s);
    v->speed_min = v->speed / SPEED_RANGE;
    v->speed_max = v->speed * SPEED_RANGE;
    v->hover = (timeline_panel_hover){.kind = TIMELINE_HIT_NONE, .rank = -1, .index = -1};
    v->hover_rank = -1;
    if (!session_build_scene(s, err)) {
        status = 2;
        goto done;
    }

    glfwSetErrorCallback(error_callback);
    if (!glfwInit()) {
        const char *display = getenv("DISPLAY");
        if (!display || !display[0])
            ppf_fail(err, "no display: the viewer needs one ($DISPLAY is not set); record a "
                          "video with `ppflow render -o out.mp4` (same flags) instead");
        else
            ppf_fail(err, "cannot open the display %.100s (GLFW could not start)", display);
        goto done;
    }
    glfw_up = true;
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
    char title[200];
    snprintf(title, sizeof title, "ppflow — %s", s->hud_title);
    v->window = glfwCreateWindow(o->show.width, o->show.height, title, NULL, NULL);
    if (!v->window) {
        ppf_fail(err, "cannot open a window with OpenGL 3.3 core on this display");
        goto done;
    }
    glfwSetWindowUserPointer(v->window, v);
    glfwMakeContextCurrent(v->window);
    if (!gl_load_current((void *(*)(const char *))glfwGetProcAddress, err))
        goto done;
    glfwSwapInterval(1);
    glfwGetFramebufferSize(v->window, &v->fb_w, &v->fb_h);
    glfwGetWindowSize(v->window, &v->win_w, &v->win_h);
    if (!frame_renderer_init(&v->frame, &s->scene, &s->tl, err))
        goto done;
    frame_renderer_layout(&v->frame, v->fb_w, v->fb_h, v->split, NULL);
    v->cam = session_camera(s, o->show.camera, v->fb_w, v->fb_h, v->split);
    double clock = now_seconds();
    set_time(v, o->time, clock);
    glfwSetKeyCallback(v->window, key_callback);
    glfwSetMouseButtonCallback(v->window, button_callback);
    glfwSetCursorPosCallback(v->window, cursor_callback);
    glfwSetScrollCallback(v->window, scroll_callback);
    glfwSetFramebufferSizeCallback(v->window, size_callback);

    bool script_done = !o->script;
    while (!v->quit && !glfwWindowShouldClose(v->window)) {
        bool animating = v->playing || v->cam_moving || !script_done || v->queued > 0;
        if (animating)
            glfwPollEvents();
        else
            glfwWaitEventsTimeout(0.5);
        if (!script_done && v->wait_frames == 0 && !script_step(v))
            script_done = true;
        clock = now_seconds();
        frame_renderer_layout(&v->frame, v->fb_w, v->fb_h, v->split, NULL);
        apply_queue(v, clock);
        /* A screenshot asked for just before quitting is still taken. */
        if (v->quit && !v->screenshot_pending)
            break;
        draw(v, clock);
        if (v->screenshot_pending) {
            screenshot(v, v->screenshot_path);
            v->screenshot_pending = false;
        }
        if (v->quit)
            break;
        glfwSwapBuffers(v->window);
        if (v->wait_frames > 0)
            v->wait_frames--;
    }
    status = EXIT_STATUS_OK;
    if (o->print_state)
        print_state(v, stdout);
done:
    if (v->window) {
        frame_renderer_deinit(&v->frame);
        glfwDestroyWindow(v->window);
    }
    if (glfw_up)
        glfwTerminate();
    viewer_script_deinit(&v->script);
    free(v);
    return status;
}
