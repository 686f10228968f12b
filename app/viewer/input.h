/* input.h - the viewer's input: keyboard, pointer and wheel events (from
 * GLFW's callbacks or a script, in framebuffer pixels) turned into commands
 * (command.h) on a queue. Keys go through the keymap (keymap.h); the
 * pointer's meaning depends on where it is in the frame's layout (the 3D
 * view, the timeline panel, the divider between them) and on the drag it
 * started.
 *
 * What it does not do: it applies nothing (the host's flush does, in
 * order), reads no clock and calls no GLFW function (it uses GLFW's key,
 * button and modifier codes only).
 *
 * The what-if command line (whatif.h): while it is open (line_open, kept
 * by the host) keys act on it alone (Enter, Esc, Tab, Backspace; the rest
 * arrive as characters), so that what is typed never acts as a viewer
 * key; characters (input_char, GLFW's char callback) go into it. Closed,
 * the character `:` opens it, whatever the keyboard's layout puts it on.
 *
 * Input from a device or a script never reaches an assert: wheel steps are
 * taken at most INPUT_SCROLL_STEPS_MAX per event and a value that is not
 * finite is dropped.
 *
 * Call order:
 *     viewer_input in = {.user = host, .layout = host_layout, .flush = host_apply};
 *     on events: input_key / input_button / input_move / input_scroll
 *     each frame: host applies in.queue[0 .. in.queued) and sets in.queued = 0
 * No command is dropped: a full queue (a script's long run of events, a
 * flood of pointer motion between two frames) is flushed first.
 */
#ifndef PPFLOW_INPUT_H
#define PPFLOW_INPUT_H

#include <stdbool.h>

#include "command.h"
#include "frame.h"
#include "keymap.h"

enum { INPUT_QUEUE_MAX = 256 };
/* Wheel steps taken from one scroll event, whatever a device reports: a
 * zoom factor of 1.25^100 already spans the whole timeline. */
#define INPUT_SCROLL_STEPS_MAX 100.0
/* How close to the divider (pixels) a press grabs it. */
#define INPUT_DIVIDER_GRAB_PX 5.0
/* How far (pixels) the pointer may move between a left press and its
 * release for them to be a click (select) rather than a drag. */
#define INPUT_CLICK_SLOP_PX 3.0

typedef enum input_drag {
    INPUT_DRAG_NONE,
    INPUT_DRAG_SCRUB,  /* left button in the timeline */
    INPUT_DRAG_ORBIT,  /* left button in the 3D view */
    INPUT_DRAG_PAN,    /* another button in the 3D view */
    INPUT_DRAG_TL_PAN, /* another button in the timeline */
    INPUT_DRAG_SPLIT,  /* the divider */
    INPUT_DRAG_AREA,   /* shift and the left button in the timeline: an area */
} input_drag;

typedef struct viewer_input {
    double mouse_x, mouse_y; /* the pointer, framebuffer pixels */
    input_drag drag;
    double press_x, press_y; /* where the left button went down */
    bool press_moved;        /* and the pointer has since left INPUT_CLICK_SLOP_PX of it */
    command queue[INPUT_QUEUE_MAX];
    int queued;
    keymap_mode mode; /* which keys act (keymap.h); the host keeps it current */
    bool line_open;   /* the what-if command line takes the keys; the host keeps it current */
    /* the host */
    void *user;
    frame_layout (*layout)(void *user); /* the frame's layout now */
    void (*flush)(void *user);          /* applies the queue in order and empties it */
    /* NULL, or where the pointer is in the frame it acts on (a comparison's
       pane: viewer_compare.h), called on each move before anything reads it */
    void (*map)(void *user, double *x, double *y);
} viewer_input;

/* A key pressed, or repeated by the keyboard while held (repeat), with
 * modifiers (GLFW_MOD_*). A repeat acts only for keys that allow it
 * (keymap_key.on_repeat). A key that changes the mode (F5, Esc) flushes the
 * queue at once, so the keys after it are read in the new mode. */
void input_key(viewer_input *in, int key, int mods, bool repeat);
/* A character typed (a Unicode code point, as GLFW's char callback gives
 * it): into the open command line, or `:` opening it; else nothing (the
 * key press that typed it has acted already). */
void input_char(viewer_input *in, unsigned codepoint);
/* A mouse button (GLFW_MOUSE_BUTTON_*) pressed or released where the pointer is. */
void input_button(viewer_input *in, int button, bool press);
/* The same with the modifiers held (GLFW_MOD_*). In the timeline a left
 * press scrubs at once (and says where it was, CMD_PRESS); released where
 * it went down (within INPUT_CLICK_SLOP_PX), in the timeline or the 3D
 * view, it is a click (CMD_CLICK: select); with shift held a left drag in
 * the timeline draws an area (CMD_AREA_FROM, CMD_AREA_TO) and scrubs nothing. */
void input_button_mods(viewer_input *in, int button, bool press, int mods);
/* The pointer moved to (x, y). */
void input_move(viewer_input *in, double x, double y);
/* The wheel turned dy steps (> 0 away from the user); mods: GLFW_MOD_SHIFT pans. */
void input_scroll(viewer_input *in, double dy, int mods);

#endif
