/* viewer_core.h - the running viewer: the one struct its rooms share, and
 * what each room offers the others. For the program's viewer files only;
 * mpv's player/core.h plays this part there.
 *
 * The rooms:
 *   viewer.c                the loop, the frame, and the one place commands
 *                           are applied (apply: one gate, then by group)
 *   viewer_show.c           the one road by which what a pane shows
 *                           changes (another slide, a what-if, undo, a
 *                           pane added or removed): aside, commit,
 *                           follow, tell
 *   viewer_whatif.c         live what-if: its commands and undo, the HUD's
 *                           note and the card
 *   viewer_pane.c           the panes: what the window shows, a session,
 *                           its render cache and its camera each
 *   viewer_compare.c        the panes' arrangement side by side on one
 *                           clock, and x / shift+X making and ending one
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
#include "talk.h"
#include "frame.h"
#include "frame_times.h"
#include "input.h"
#include "keymap.h"
#include "presenter.h"
#include "viewer_compare.h"
#include "viewer_inspect.h"
#include "viewer_pane.h"
#include "viewer_script.h"
#include "viewer_state.h"
#include "whatif.h"
#include "window.h"

/* Everything the viewer is; the window's callbacks reach it through the
 * input's and the window's user pointers. */
typedef struct viewer {
    viewer_state st;
    talk *talk; /* its slides; st.s is the one shown, which a what-if rebuilds */
    viewer_input in;
    viewer_window win;
    frame_renderer frame;  /* the window's: draws every pane */
    viewer_panes panes;    /* what it shows (viewer_pane.h): pane 0's session is st.s; changed
                              by the one road (viewer_show) */
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
    viewer_compare *cmp;    /* the panes' arrangement; NULL: pane 0 alone, a single frame */
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
/* What the window holds besides the talk's slide k (-1: besides nothing
 * of the talk) and, with panes, the panes a comparison shows beside the
 * first: what the budget bounds a new session with (budget.h, totals). */
budget_cost viewer_held_besides(const viewer *v, int k, bool panes);

/* ---- viewer_show.c: the one road by which what is shown changes ---- */

/* A change of what a pane of the window shows. */
typedef struct viewer_change {
    int pane;             /* 0: the window's own (a comparison's first); 1..: a comparison's
                             other pane, its count for one added */
    int slide;            /* pane 0: the talk's slide shown after it */
    session *replacement; /* made aside and taken: pane 0, the slide's session from now on, the
                             one it replaces returned (NULL: the slide's session as it is);
                             another pane, the one added (NULL: that pane, the last, removed) */
    viewer_follow follow; /* pane 0: what the state keeps (viewer_follow_slide, _moment) */
} viewer_change;

/* Makes the render cache of what is to be shown (frame.h: allocation
 * only, which cannot fail for a built session), commits both and lets the
 * window follow. Pane 0: the state and
 * the inspection by the one rule (viewer_state_follow), a comparison of
 * another slide ended or its first pane showing the new session, the
 * presenter's window and the window's title told. Another pane: the
 * comparison's strip, scale and layout (viewer_compare_commit). Cannot
 * fail: whatever could was done aside. Returns the session replaced or
 * removed (the caller's: undo keeps it, or it is freed), or NULL. */
session *viewer_show(viewer *v, const viewer_change *ch, double clock);
/* Builds sc aside, scene included, for pane 0 (the shown slide's session,
 * which it will replace) or another pane (one added): refused with one
 * line starting with `what` when it would not fit the budget beside
 * everything else the window holds (the build's own refusals as they are);
 * what undo keeps is let go first as far as the build needs. NULL on
 * refusal; nothing shown has changed either way. */
session *viewer_build_aside(viewer *v, int pane, const scenario *sc, const char *what,
                            ppf_error *err);
/* Undo's kept sessions let go where they no longer fit beside what the
 * window shows (after a change pushed one). */
void viewer_keep_undo(viewer *v);

/* Next past a slide's last beat, or Previous before its first
 * (viewer_state.talk.slide_change): the other slide shown. */
void viewer_change_slide(viewer *v, double clock);
/* The slide asked for (the current one and slide_change, within the
 * talk), and the request cleared; *backwards set when it came from
 * Previous. */
int viewer_slide_target(viewer_state *v, bool *backwards);
/* What another slide keeps, as a lecturer expects: presenting, the theme,
 * the UI scale, the divider, the speed relative to each slide's default
 * and the camera (a preset refitted, a user's view as it is) unless the
 * slide names one, placed at once; the timeline fitted to the new
 * iteration; playback stopped; Next lands on the slide's first beat,
 * Previous (at_end) on its last beat's end state. */
viewer_follow viewer_follow_slide(const viewer_state *v, const talk *d, int k, bool at_end);

/* Where the viewer stood before a change of the same slide. */
typedef struct viewer_moment {
    double fraction;                 /* t / makespan (0 when the iteration takes no time) */
    int beat;                        /* the beat t stands on, or -1 */
    char beat_title[BEAT_TITLE_MAX]; /* its title */
    double relative_speed;           /* speed / the session's default */
} viewer_moment;
viewer_moment viewer_moment_of(const viewer_state *v);
/* What a what-if or undo keeps, as a lecturer answering "and with P=8?"
 * expects: t at the same fraction of the iteration, or the same beat when
 * t stands on one (of the same title, else number); playing goes on (a
 * play to a beat becomes a plain play); the speed relative to the
 * default; the camera (a preset refitted, a user's view as it is); the
 * timeline fitted to the new iteration. */
viewer_follow viewer_follow_moment(const session *next, const viewer_moment *m);

/* The window's title for slide k: "ppflow — GPipe (slide 1/4)", or
 * "ppflow — 1F1B   P=4 ..." for a talk of one. */
void viewer_slide_title(const talk *d, int k, char *out, size_t size);
/* The title the presenter names after slide k's last beat; NULL after the
 * talk's last. */
const char *viewer_next_slide_title(const talk *d, int k);

/* ---- viewer_whatif.c ---- */

/* The shown slide's what-if (its opened scenario, undo and line). */
whatif *viewer_shown_whatif(viewer *v);
/* The what-if commands (command.h's COMMAND_WHATIF). */
void viewer_whatif_command(viewer *v, const command *c, double clock);
/* What the frame shows of the what-if: the HUD's note, the card. */
void viewer_whatif_view(viewer *v, frame_view *fv);

/* ---- viewer_compare.c ---- */

/* The panes' keys (COMMAND_COMPARE): x adds a pane (in a single window,
 * it makes a comparison), shift+X removes the last (on two panes, the
 * comparison ends); the rest are the comparison's own. */
void viewer_compare_key(viewer *v, const command *c, double clock);
/* The comparison ended (the one road: its last pane beside pane 0
 * removed, or another slide shown): pane 0 alone, one frame again. */
void viewer_compare_end(viewer *v, double clock);

/* ---- viewer_script_replay.c ---- */

/* Replays script events until one asks to draw frames; false at the end of
 * the script. */
bool viewer_script_step(viewer *v);
/* The state line (viewer_state.h's, the windows' monitors, the inspection,
 * the panes and the what-if at its end) on standard output. */
void viewer_print_state(viewer *v);

#endif
