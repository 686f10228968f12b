/* viewer_core.h - the running viewer: the one struct its rooms share, and
 * what each room offers the others. For the program's viewer files only;
 * mpv's player/core.h plays this part there.
 *
 * The rooms:
 *   viewer.c                the loop, the frame, and the one place commands
 *                           are applied (apply: one gate, then by group)
 *   viewer_slides.c         a talk's slides: another one shown
 *   viewer_whatif.c         live what-if: its commands, the change of the
 *                           shown session, the HUD's note and the card
 *   viewer_compare.c        a comparison's panes, and x / shift+X making
 *                           and ending one in the window
 *   viewer_script_replay.c  a script's events replayed; the state line
 * The rooms that need no window (the state, input, the keymap, the
 * inspection, scripts read, the what-if's line and undo) keep their own
 * headers and take their parts of this struct as arguments.
 *
 * What it does not do: own anything itself; viewer_run (viewer.h) makes the
 * struct, runs the loop and frees it.
 */
#ifndef PPFLOW_VIEWER_CORE_H
#define PPFLOW_VIEWER_CORE_H

#include <stdbool.h>

#include "budget.h"
#include "command.h"
#include "deck.h"
#include "frame.h"
#include "frame_times.h"
#include "input.h"
#include "keymap.h"
#include "presenter.h"
#include "viewer_compare.h"
#include "viewer_inspect.h"
#include "viewer_script.h"
#include "viewer_state.h"
#include "whatif.h"
#include "window.h"

/* Everything the viewer is; the window's callbacks reach it through the
 * input's and the window's user pointers. */
typedef struct viewer {
    viewer_state st;
    deck *deck; /* its slides; st.s is the one shown, which a what-if rebuilds */
    viewer_input in;
    viewer_window win;
    frame_renderer frame;
    presenter pres;        /* the presenter's window (--presenter) and the monitors */
    frame_view view;       /* the frame last drawn, which the presenter's shows small */
    char status[192];      /* its status text: a beat's title fits whole (frame.c shortens it) */
    const char *pres_shot; /* the presenter's screenshot after the next frame; in script.text */
    frame_help_item help[KEYMAP_ROWS_MAX]; /* the key card of the mode, from the keymap */
    int help_count;
    bool presenting_shown; /* the window made fullscreen for presenting mode */
    double pointer_moved;  /* clock of the pointer's last move: it hides 2 s later */
    int screenshots;
    bool screenshot_pending;
    const char *screenshot_path; /* NULL: ppflow-screenshot-NNN.png; else in script.text */
    /* script: read and checked whole before the window opens, replayed here */
    viewer_script script;
    int script_next; /* the next event to replay */
    int wait_frames;
    /* live what-if: one per slide (each slide's opened scenario, undo and line) */
    whatif *whatifs;
    char hud_note[400];     /* what differs from the opened scenario, for the HUD */
    char line_hint[400];    /* the command line's hint, or Tab's candidates */
    bool line_tabbed;       /* line_hint holds Tab's candidates until the next edit */
    frame_whatif_card card; /* what the frame shows of it */
    viewer_compare *cmp;    /* a comparison's panes; NULL: a single frame */
    bool cmp_from_single;   /* cmp made by x in a single window, which shift+X gives back */
    bool cmp_rebuilt;       /* a what-if rebuilt the first pane: the zoom is stale */
    viewer_state single;    /* the single window's state as x found it */
    viewer_state paned;     /* the state right after x laid out the panes */
    viewer_inspect insp;    /* selection, critical path, micro-batch, area (the shown slide's) */
    frame_times times;      /* the frames' times (F3's readout, a script's frametimes) */
    bool show_times;        /* F3's readout on */
    double times_written;   /* the clock when times_text was written; < 0: write it now */
    char times_text[64];    /* the readout's line */
} viewer;

/* ---- viewer.c ---- */

/* Advances the viewer by one frame at `clock`: the queued input applied,
 * the frame drawn and shown (a screenshot asked for taken), the
 * presenter's window drawn. resting: the frame follows a wait for input
 * (its time is not a slow frame). false once the viewer is done (quit):
 * nothing more is drawn. The desktop loop (viewer_run) waits for events,
 * replays a script's, then calls it; a browser's frame callback can call
 * it as it is. */
bool viewer_frame(viewer *v, double clock, bool resting);

/* The key card of the mode, a comparison's rows in a comparison. */
void viewer_follow_card(viewer *v);
/* Applies the input's queued commands, in order. */
void viewer_apply_queue(viewer *v, double clock);
/* What the window holds besides the deck's slide k (-1: besides nothing
 * of the deck) and, with panes, the panes a comparison shows beside the
 * first: what the budget bounds a new session with (budget.h, totals). */
budget_cost viewer_held_besides(const viewer *v, int k, bool panes);

/* ---- viewer_slides.c ---- */

/* The title the presenter names after slide k's last beat; NULL after the
 * talk's last. */
const char *viewer_next_slide_title(const deck *d, int k);
/* Next past a slide's last beat, or Previous before its first: the other
 * slide shown. */
void viewer_change_slide(viewer *v, double clock);

/* ---- viewer_whatif.c ---- */

/* The shown slide's what-if (its opened scenario, undo and line). */
whatif *viewer_shown_whatif(viewer *v);
/* The what-if commands (command.h's COMMAND_WHATIF). */
void viewer_whatif_command(viewer *v, const command *c, double clock);
/* What the frame shows of the what-if: the HUD's note, the card. */
void viewer_whatif_view(viewer *v, frame_view *fv);

/* ---- viewer_compare.c ---- */

/* The panes' keys (COMMAND_COMPARE): x in a single window makes a
 * comparison, shift+X on its last two panes ends it; the rest are the
 * comparison's own. */
void viewer_compare_key(viewer *v, const command *c, double clock);
/* shift+X on two panes, or a slide change: one frame again. */
void viewer_compare_end(viewer *v, double clock);

/* ---- viewer_script_replay.c ---- */

/* Replays script events until one asks to draw frames; false at the end of
 * the script. */
bool viewer_script_step(viewer *v);
/* The state line (viewer_state.h's, the windows' monitors, the inspection,
 * the panes and the what-if at its end) on standard output. */
void viewer_print_state(viewer *v);

#endif
