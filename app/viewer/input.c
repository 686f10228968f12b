/* input.c - events to commands. See input.h. */
#include "input.h"

#include <assert.h>
#include <math.h>

#include <GLFW/glfw3.h>

#include "keymap.h"

static void push(viewer_input *in, command_kind kind, double a, double b)
{
    if (in->queued == INPUT_QUEUE_MAX) {
        in->flush(in->user);
        assert(in->queued == 0 && "the flush empties the queue");
    }
    in->queue[in->queued++] = (command){kind, a, b};
}

static bool in_panel(const frame_layout *l, double y)
{
    return y >= l->panel_y;
}

/* A key while the command line is open: its editing keys, nothing else
 * (the characters come through input_char). Closing or applying flushes
 * at once, so the keys after it are read as the viewer's again. */
static void line_key(viewer_input *in, int key, bool repeat)
{
    switch (key) {
    case GLFW_KEY_ENTER:
    case GLFW_KEY_KP_ENTER:
        if (!repeat) {
            push(in, CMD_LINE_ENTER, 0, 0);
            in->flush(in->user);
        }
        break;
    case GLFW_KEY_ESCAPE:
        if (!repeat) {
            push(in, CMD_LINE_CLOSE, 0, 0);
            in->flush(in->user);
        }
        break;
    case GLFW_KEY_TAB:
        push(in, CMD_LINE_TAB, 0, 0);
        break;
    case GLFW_KEY_BACKSPACE:
        push(in, CMD_LINE_BACKSPACE, 0, 0);
        break;
    default:
        break;
    }
}

void input_char(viewer_input *in, unsigned codepoint)
{
    if (in->line_open) {
        push(in, CMD_LINE_CHAR, codepoint, 0);
    } else if (codepoint == ':') {
        push(in, CMD_LINE_OPEN, 0, 0);
        in->flush(in->user); /* the characters after it go into the line */
    }
}

void input_key(viewer_input *in, int key, int mods, bool repeat)
{
    if (in->line_open) {
        line_key(in, key, repeat);
        return;
    }
    const keymap_key *k = keymap_find(key, mods, in->mode ? in->mode : KEYMAP_WINDOW);
    if (!k || (repeat && !k->on_repeat))
        return;
    if (k->command == CMD_TL_ZOOM) {
        /* around the pointer when it is over the timeline, else its middle */
        frame_layout l = in->layout(in->user);
        double x = in_panel(&l, in->mouse_y) ? in->mouse_x : l.panel_x + l.panel_w / 2;
        push(in, CMD_TL_ZOOM, x, k->arg);
        return;
    }
    push(in, k->command, k->arg, 0);
    if (k->command == CMD_PRESENT || k->command == CMD_ESCAPE || k->command == CMD_LINE_OPEN)
        in->flush(in->user);
}

void input_button(viewer_input *in, int button, bool press)
{
    input_button_mods(in, button, press, 0);
}

void input_button_mods(viewer_input *in, int button, bool press, int mods)
{
    if (!press) {
        const input_drag was = in->drag;
        in->drag = INPUT_DRAG_NONE;
        if (button != GLFW_MOUSE_BUTTON_LEFT)
            return;
        if (was == INPUT_DRAG_AREA)
            push(in, CMD_AREA_TO, in->mouse_x, in->mouse_y);
        else if ((was == INPUT_DRAG_SCRUB || was == INPUT_DRAG_ORBIT) && !in->press_moved)
            push(in, CMD_CLICK, in->mouse_x, in->mouse_y);
        return;
    }
    frame_layout l = in->layout(in->user);
    if (button == GLFW_MOUSE_BUTTON_LEFT) {
        in->press_x = in->mouse_x, in->press_y = in->mouse_y;
        in->press_moved = false;
    }
    if (fabs(in->mouse_y - l.panel_y) <= INPUT_DIVIDER_GRAB_PX) {
        in->drag = INPUT_DRAG_SPLIT;
    } else if (in_panel(&l, in->mouse_y)) {
        if (button == GLFW_MOUSE_BUTTON_LEFT && (mods & GLFW_MOD_SHIFT)) {
            in->drag = INPUT_DRAG_AREA;
            push(in, CMD_AREA_FROM, in->mouse_x, in->mouse_y);
        } else if (button == GLFW_MOUSE_BUTTON_LEFT) {
            in->drag = INPUT_DRAG_SCRUB;
            push(in, CMD_PRESS, in->mouse_x, in->mouse_y);
            push(in, CMD_SCRUB, in->mouse_x, 0);
        } else {
            in->drag = INPUT_DRAG_TL_PAN;
        }
    } else {
        in->drag = button == GLFW_MOUSE_BUTTON_LEFT ? INPUT_DRAG_ORBIT : INPUT_DRAG_PAN;
    }
}

void input_move(viewer_input *in, double x, double y)
{
    if (in->map)
        in->map(in->user, &x, &y);
    double dx = x - in->mouse_x, dy = y - in->mouse_y;
    in->mouse_x = x, in->mouse_y = y;
    if (fabs(x - in->press_x) > INPUT_CLICK_SLOP_PX || fabs(y - in->press_y) > INPUT_CLICK_SLOP_PX)
        in->press_moved = true;
    switch (in->drag) {
    case INPUT_DRAG_SCRUB:
        push(in, CMD_SCRUB, x, 0);
        break;
    case INPUT_DRAG_ORBIT:
        push(in, CMD_ORBIT, dx, dy);
        break;
    case INPUT_DRAG_PAN:
        push(in, CMD_PAN, dx, dy);
        break;
    case INPUT_DRAG_TL_PAN:
        push(in, CMD_TL_DRAG, dx, 0);
        break;
    case INPUT_DRAG_SPLIT:
        push(in, CMD_SPLIT, y, 0);
        break;
    case INPUT_DRAG_AREA:
        push(in, CMD_AREA_TO, x, y);
        break;
    case INPUT_DRAG_NONE:
        break;
    }
    push(in, CMD_HOVER, x, y);
}

void input_scroll(viewer_input *in, double dy, int mods)
{
    /* Any device's value is input: pow(1.25, dy) must stay a factor above 0
     * (timeline_view_zoom asserts it) and the camera's zoom finite. */
    if (!isfinite(dy))
        return;
    dy = dy < -INPUT_SCROLL_STEPS_MAX  ? -INPUT_SCROLL_STEPS_MAX
         : dy > INPUT_SCROLL_STEPS_MAX ? INPUT_SCROLL_STEPS_MAX
                                       : dy;
    frame_layout l = in->layout(in->user);
    if (in_panel(&l, in->mouse_y)) {
        if (mods & GLFW_MOD_SHIFT)
            push(in, CMD_TL_PAN, -0.1 * dy, 0);
        else
            push(in, CMD_TL_ZOOM, in->mouse_x, pow(1.25, dy));
    } else {
        push(in, CMD_ZOOM, dy, 0);
    }
}
