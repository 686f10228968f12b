/* command.h - what the viewer's input asks for: one small value per
 * request (play, scrub to x, zoom the timeline around x, orbit by dx, dy,
 * ...). Input handlers (input.h) and the keymap (keymap.h) make them; one
 * function in the loop (viewer.c) applies them: it asks the state once
 * whether a command acts now (viewer_state_acts: while the screen is black
 * only what ends it acts), then routes it by its group (command_group_of)
 * to the room that owns it. A command's arguments are plain numbers, so a
 * queue of them can be kept, replayed and printed.
 */
#ifndef PPFLOW_COMMAND_H
#define PPFLOW_COMMAND_H

typedef enum command_kind {
    CMD_PLAY_TOGGLE,
    CMD_EVENT_STEP, /* a: +1 next, -1 previous */
    CMD_SPEED,      /* a: factor */
    CMD_HOME,
    CMD_END,
    CMD_SCRUB,   /* a: framebuffer x */
    CMD_TL_ZOOM, /* a: x, b: factor */
    CMD_TL_PAN,  /* a: fraction of the span */
    CMD_TL_DRAG, /* a: pixels */
    CMD_TL_FIT,
    CMD_ORBIT,  /* a, b: pixels */
    CMD_PAN,    /* a, b: pixels */
    CMD_ZOOM,   /* a: steps */
    CMD_PRESET, /* a: camera_preset */
    CMD_FIT_3D,
    CMD_SPLIT,      /* a: framebuffer y of the divider */
    CMD_HOVER,      /* a, b: framebuffer x, y */
    CMD_FULLSCREEN, /* the window's */
    CMD_THEME,
    CMD_UI_SCALE,   /* a: factor on the text and line sizes; 0: back to the start's scale */
    CMD_SCREENSHOT, /* the window's: saved once the next frame is drawn */
    CMD_HELP,
    CMD_ESCAPE, /* backs out one layer: key card, goto typing, blackout, presenting; never quits */
    CMD_QUIT,
    /* beats (beats.h) and presenting */
    CMD_BEAT_NEXT,    /* play to the next beat and stop on it; playing: land on it at once */
    CMD_BEAT_PREV,    /* the previous beat's end state, no replay */
    CMD_BEAT_FIRST,   /* the first beat */
    CMD_BEAT_LAST,    /* the last beat */
    CMD_BEAT_REPLAY,  /* the current beat again, from the beat before it */
    CMD_BEAT_REVERSE, /* play backwards to the previous beat */
    CMD_BEAT_GOTO,    /* start typing a beat's number (digits, then Enter) */
    CMD_DIGIT,        /* a: 0..9; a camera preset (0: fit) unless a beat's number is typed */
    CMD_ENTER,        /* the typed beat, or the next beat */
    CMD_BLACKOUT,     /* a black screen, and back */
    CMD_PRESENT,      /* enter presenting mode at the current beat (the window's fullscreen too) */
    CMD_LASER,        /* a dot at the pointer, and off */
    CMD_CLOCK_RESET,  /* the talk's elapsed clock back to 0, waiting for the next advance */
    /* live what-if (whatif.h): the loop's, which rebuilds the session */
    CMD_LINE_OPEN,      /* open the command line (`:`, ctrl+shift+P) */
    CMD_LINE_CHAR,      /* a: a character typed into it (a Unicode code point) */
    CMD_LINE_BACKSPACE, /* its last character removed */
    CMD_LINE_TAB,       /* the name or value being typed completed */
    CMD_LINE_ENTER,     /* its change applied (it stays open, with the error, when refused) */
    CMD_LINE_CLOSE,     /* closed (Esc), nothing applied */
    CMD_WHATIF_STEP,    /* a: a direct key's change: +-1 the schedule, +-2 micro-batches, +-3
                           stages (whatif_step_kind + 1, its sign the direction) */
    CMD_WHATIF_UNDO,    /* back to the scenario before the last change */
    /* a comparison's panes (viewer_compare.h): the loop's */
    CMD_COMPARE, /* a: 1 next arrangement, 2 link / unlink cameras, 3 add a pane, 4 remove one */
    /* inspecting (viewer_inspect.h): the loop's */
    CMD_PRESS,        /* a, b: a left press in the timeline at x, y, before its scrub */
    CMD_CLICK,        /* a, b: a left press and release without a drag at x, y: select there */
    CMD_AREA_FROM,    /* a, b: shift+press in the timeline at x, y: an area's first corner */
    CMD_AREA_TO,      /* a, b: the area's other corner, as the drag goes */
    CMD_INSPECT_WALK, /* a: +1 the selection's consumer (`]`), -1 its producer (`[`) */
    CMD_CRITICAL,     /* the critical path on and off */
    CMD_MICROBATCH,   /* the selection's micro-batch highlighted, or the next one; off after
                         the last */
    CMD_FRAME_TIMES,  /* the window's: the frame-rate readout on and off (F3) */
} command_kind;

typedef struct command {
    command_kind kind;
    double a, b; /* arguments, as each kind above says */
} command;

/* Who applies a command. */
typedef enum command_group {
    COMMAND_VIEW,    /* time, the camera, the timeline, the look, beats, presenting:
                        viewer_state_apply (a comparison's panes and the inspection take
                        some first: viewer_compare_command, viewer_inspect_apply) */
    COMMAND_WINDOW,  /* the window's: fullscreen, a screenshot, the frame-rate readout */
    COMMAND_WHATIF,  /* the what-if line, its direct keys and undo (viewer_whatif.c) */
    COMMAND_COMPARE, /* a comparison's panes: made, arranged, linked, added, removed */
    COMMAND_INSPECT, /* selecting and inspecting (viewer_inspect.h) */
    COMMAND_ESCAPE,  /* one layer back, whoever holds the topmost (never quits) */
} command_group;

static inline command_group command_group_of(command_kind kind)
{
    switch (kind) {
    case CMD_FULLSCREEN:
    case CMD_SCREENSHOT:
    case CMD_FRAME_TIMES:
        return COMMAND_WINDOW;
    case CMD_LINE_OPEN:
    case CMD_LINE_CHAR:
    case CMD_LINE_BACKSPACE:
    case CMD_LINE_TAB:
    case CMD_LINE_ENTER:
    case CMD_LINE_CLOSE:
    case CMD_WHATIF_STEP:
    case CMD_WHATIF_UNDO:
        return COMMAND_WHATIF;
    case CMD_COMPARE:
        return COMMAND_COMPARE;
    case CMD_PRESS:
    case CMD_CLICK:
    case CMD_AREA_FROM:
    case CMD_AREA_TO:
    case CMD_INSPECT_WALK:
    case CMD_CRITICAL:
    case CMD_MICROBATCH:
        return COMMAND_INSPECT;
    case CMD_ESCAPE:
        return COMMAND_ESCAPE;
    default:
        return COMMAND_VIEW;
    }
}

#endif
