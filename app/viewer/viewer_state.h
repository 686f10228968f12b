/* viewer_state.h - what the live viewer shows, and the one function that
 * changes it: time and playback, the camera and its eased moves between
 * presets, the timeline's zoom and pan, the share of the 3D view, theme,
 * key card, hover. The frame_view of each frame is made from it.
 *
 * Time is the only animation state: while playing, t is the time at the
 * last command plus the clock's advance times the speed, and the clock is
 * an argument (the loop reads it, nothing here does). Camera moves between
 * presets are eased over VIEWER_CAMERA_MOVE_SECONDS.
 *
 * What it does not do: no GLFW, no GL, no input decoding (input.h makes the
 * commands); the window's commands (fullscreen, screenshot) are the loop's.
 * The session is read, never changed.
 *
 * Input never reaches an assert: the speed stays within a factor of
 * SESSION_SPEED_RANGE of the session's default speed (what --speed
 * accepts), and camera moves wait while the 3D view is under a pixel high
 * (a minimised window).
 *
 * The camera follows the 3D view's aspect (a resized window, the divider
 * dragged): a preset, or the fit of key 0, is fitted again for the new
 * aspect; once the user has orbited, panned or zoomed, their view is kept
 * (same target, direction and distance as they left it) and moved back
 * only as far as the new, narrower view needs to show as much across as
 * theirs did, so a resize never loses what was on screen and a resize back
 * gives their view again.
 *
 * The hover (tooltip, outline, caption rank) is the bar under the last
 * pointer position in the timeline as it is now: it is computed again after
 * every command and resize (a key that zooms, pans or fits the timeline
 * moves the bars under a still pointer).
 *
 * Beats (session.beats): Next plays to the next beat at the current speed
 * and stops with t equal to the beat's time; Next while that plays lands on
 * the beat at once. The talk is at the last beat landed on: after a scrub
 * between beats, Next goes on from that beat, not from the scrubbed t; Previous lands on the
 * previous beat's end state without replaying; R replays the current beat from the one before; V
 * plays backwards to the previous beat; G, digits, Enter lands on beat N. A beat with a camera
 * preset eases the camera there as the talk heads for it (played to or landed on); one without
 * keeps the lecturer's camera. In a talk, Next on a slide's last beat and Previous on its first ask
 * for the next or previous slide (slide_change), which the loop shows. Esc backs out one layer (key
 * card, laser, blackout, presenting) and never quits; while the screen is black only Esc, B and .
 * act, and the animation holds still (a play it interrupted goes on after it).
 *
 * Call order:
 *     viewer_state v; viewer_state_init(&v, &session, fb_w, fb_h);
 *     viewer_state_set_speed(&v, ...); v.theme = ...;
 *     viewer_state_set_camera(&v, preset);
 *     viewer_state_set_time(&v, t, clock);
 *     on resize: viewer_state_resize(&v, fb_w, fb_h);
 *     before applying input: viewer_state_place_timeline(&v);
 *     viewer_state_apply(&v, &command, clock) ...
 *     each frame: frame_view fv = viewer_state_frame_view(&v, clock, status, n);
 *
 * The state line (viewer_state_print) is one line of key=value pairs:
 *     t=12.500000 playing=0 speed=1.65 theme=dark split=0.700 help=0 yaw=-0.5236
 *     pitch=0.5585 distance=161.8945 timeline=T0:T1 plot=X:Y:W:H fb=WxH window=WxH
 *     ui=1.250 presenting=0 blackout=0 beat=3 slide=1
 * timeline is the visible time range, plot the timeline's plot area in
 * framebuffer pixels, fb and window the framebuffer and window sizes, ui
 * the UI scale (--ui-scale, ctrl+= / ctrl+- / ctrl+0), beat the number
 * (from 1) of the beat t is on, 0 when between beats, slide the slide shown
 * (from 1; 1 for a scenario, which is a talk of one slide). New keys go at the
 * end so that readers of the older keys keep working.
 */
#ifndef PPFLOW_VIEWER_STATE_H
#define PPFLOW_VIEWER_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "camera.h"
#include "command.h"
#include "frame.h"
#include "session.h"
#include "theme.h"
#include "timeline_view.h"

#define VIEWER_CAMERA_MOVE_SECONDS 0.45
/* Presenting mode's text and lines, times the UI scale: capitals of 1/40 of
 * the height (the back row's size) where the window's are 1/50. */
#define VIEWER_PRESENT_SCALE 1.25f
/* The camera was fitted by key 0 (its direction kept), not from a preset. */
#define VIEWER_CAMERA_FIT (-1)

/* The 3D view's camera as the viewer keeps it: where it is, an eased move
 * between presets, what it was fitted from and the user's own view. One
 * type for the window and for each pane of a comparison (viewer_compare.h),
 * which keeps and restores it whole. */
typedef struct viewer_camera {
    camera cam;        /* where the camera is, or goes to while moving */
    camera from, to;   /* an eased move: from where, to where */
    bool moving;       /* a move under way */
    double move_start; /* the clock it started at */
    int preset;        /* what the camera was fitted from: a camera_preset or VIEWER_CAMERA_FIT */
    float aspect;      /* the 3D view's aspect the camera was made for */
    bool user;         /* orbited, panned or zoomed since the last preset or fit */
    camera user_view;  /* the camera as the user left it, */
    float user_aspect; /* at this aspect of the 3D view */
} viewer_camera;

/* Time and playback. While playing, t = anchor_t + (clock - anchor_clock)
 * x speed x dir, up to stop_at when it plays to a beat. */
typedef struct viewer_play {
    double t;                    /* the time shown */
    double speed;                /* timeline units per second of playback */
    double speed_min, speed_max; /* the session's limits (session_speed_limits) */
    bool playing;
    double anchor_t, anchor_clock; /* where and when playback last started or was moved */
    int dir;                       /* +1 forwards, -1 backwards (V) */
    double stop_at; /* while playing to a beat: its t, where playback stops exactly; -1 none */
    int target;     /* the beat being played to; -1 none */
} viewer_play;

/* How the frame looks, whatever it shows. */
typedef struct viewer_look {
    theme_id theme;
    float split;                    /* the 3D view's share of the height */
    float ui_scale, ui_scale_start; /* text and line sizes (frame_view.ui_scale); the start's,
                                       which ctrl+0 goes back to */
    bool show_help;                 /* the key card */
    int help_page;                  /* its page shown, 0 .. help_pages - 1 */
    int help_pages;                 /* the pages it takes at this size (frame_help_pages, which
                                       the viewer sets after drawing); 0 or 1: one */
    scene_aa_mode aa;               /* the 3D view's anti-aliasing (--aa; SCENE_AA_EDGE) */
} viewer_look;

/* The pointer, and what is under it in the timeline. */
typedef struct viewer_pointer {
    timeline_panel_hover hover; /* the bar under it (kind NONE: none) */
    int rank;                   /* the caption's rank: the row under it, or -1 */
    double x, y;                /* its last position, framebuffer pixels */
    bool known;                 /* a CMD_HOVER has given it */
    bool scrubbing;             /* dragging the cursor: no card, the moment is what moves;
                                   until the pointer moves without a scrub */
    bool scrub_moved;           /* a CMD_SCRUB since the last CMD_HOVER */
} viewer_pointer;

/* The talk: presenting (keymap.h's KEYMAP_PRESENT), its beats
 * (session.beats) and a talk's slides (talk.h: the viewer changes the
 * slide by its one road, viewer_core.h's viewer_show). */
typedef struct viewer_talk {
    bool presenting;
    bool blackout;     /* the screen black; only Esc, B and . act */
    bool black_paused; /* the blackout paused a play, which goes on after it */
    bool laser;        /* a dot at the pointer */
    bool goto_typing;  /* G pressed: digits make a beat's number, Enter goes there */
    int goto_number;
    int beat;               /* the talk's beat: the last landed on; -1 none */
    int slide, slide_count; /* the slide shown, from 0, of how many (1 for a scenario) */
    int slide_change; /* asked by Next past the last beat (+1), Previous before the first (-1) */
    double start;     /* the clock at the talk's first advance (Next), the presenter's
                         elapsed time counts from it; -1: not started (ctrl+T: again) */
} viewer_talk;

/* What being one of a comparison's panes changes in the state
 * (viewer_compare.h); zeroed: a single frame's. */
typedef struct viewer_state_pane {
    double t_end; /* where time ends: the longest makespan; 0: the session's */
    float ui;     /* the UI scale's factor for a pane's size (its text as a whole
                     window's); 0: 1 */
} viewer_state_pane;

/* The viewer's state, in parts that a comparison keeps or restores whole
 * (viewer_compare_single). */
typedef struct viewer_state {
    const session *s; /* not owned; built whole */
    int fb_w, fb_h;   /* the framebuffer the frame fills */
    viewer_play play;
    viewer_look look;
    viewer_camera camera;
    timeline_view timeline; /* the panel's zoom and pan; laid out by viewer_state_place_timeline */
    viewer_pointer pointer;
    viewer_talk talk;
    viewer_state_pane pane;
    bool quit;
} viewer_state;

/* Paused at t = 0, dark theme, split 0.7, the timeline fitted, no hover;
 * the camera zeroed (set it with viewer_state_set_camera) and the speed 0
 * (set it with viewer_state_set_speed). */
void viewer_state_init(viewer_state *v, const session *s, int fb_w, int fb_h);
/* Sets the speed, brought within the session's limits (session_speed_limits),
 * which the + and - keys keep to. */
void viewer_state_set_speed(viewer_state *v, double speed);
/* Places the preset's camera at once (no move), fitted to the 3D view. */
void viewer_state_set_camera(viewer_state *v, camera_preset preset);
/* The framebuffer's new size: the timeline laid out again, the camera
 * following the 3D view's aspect, the hover computed again (see above). */
void viewer_state_resize(viewer_state *v, int fb_w, int fb_h);
/* Goes to t (clamped to the iteration), keeping playback's clock anchored. */
void viewer_state_set_time(viewer_state *v, double t, double clock);

/* The UI scale the frame is drawn at: the user's, larger while presenting,
 * times a comparison pane's factor (v->pane.ui). */
float viewer_state_ui_scale(const viewer_state *v);
/* The same for text `pane` times a whole window's (a comparison's pane, its
 * strip: 1), whatever v->pane says; the one formula. */
float viewer_state_ui_scale_at(const viewer_state *v, float pane);
/* Enters or leaves presenting mode (the window's fullscreen is the loop's);
 * entering again changes nothing, so a clicker's stray F5 keeps the talk
 * where it is. */
void viewer_state_set_presenting(viewer_state *v, bool on);

/* The frame's layout for the framebuffer and split. */
frame_layout viewer_state_layout(const viewer_state *v);
/* The camera the 3D view is seen by at `clock` (part way through an eased
 * move, the frame's), for picking what is under the pointer. */
camera viewer_state_camera(const viewer_state *v, double clock);
/* Lays out the timeline view in the layout's panel, as the frame draws it. */
void viewer_state_place_timeline(viewer_state *v);

/* How the state follows a change of its session: a slide shown, a what-if
 * or its undo. One rule for every change:
 *   kept      the look, presenting and the talk's clock, the user's own
 *             camera, the speed relative to each session's default;
 *   refitted  the timeline (fitted to the new iteration), a preset's or a
 *             fit's camera (at once: a cut, not a move), the hover;
 *   dropped   a play to a beat (the beats are the new session's), a beat
 *             number being typed;
 * and what differs between the changes is said here. */
typedef struct viewer_follow {
    double relative_speed; /* the speed over the old session's default */
    bool keep_playing;     /* playback goes on (a what-if); false: it stops (a slide) */
    int camera;            /* a preset to take at once (a slide's own); -1: the rule above */
    int land;              /* a beat of the new session to land on as Next or Previous does
                              (its camera eased to, a slide's first or last); -1: none */
    int beat;              /* with land < 0: a beat to stand on (t its time); -1: none */
    double t;              /* with neither: the time to show */
} viewer_follow;

/* The state moved to session s (v->s may already be s: a session rebuilt
 * in place) by the rule above. */
void viewer_state_follow(viewer_state *v, const session *s, const viewer_follow *f, double clock);

/* Whether a command acts now: while the screen is black only what ends it
 * (B, ., Esc), quit, the pointer's moves and the window's fullscreen and
 * screenshot act, so that a stray click of the clicker changes nothing
 * unseen (reveal.js, PowerPoint). The loop asks once for every command. */
bool viewer_state_acts(const viewer_state *v, command_kind kind);
/* Applies one command of COMMAND_VIEW or COMMAND_ESCAPE (command.h); one
 * that does not act now (viewer_state_acts) changes nothing. */
void viewer_state_apply(viewer_state *v, const command *c, double clock);

/* Lays out the timeline view, moves time on while playing (stopping at the
 * end) and ends a finished camera move, then returns the frame to draw (the viewport the whole
 * framebuffer, no key card rows: the caller adds them); the status text
 * ("▶ ×1" or "paused ×1") is written into status[n], which the view points at. */
frame_view viewer_state_frame_view(viewer_state *v, double clock, char *status, size_t n);

/* The beat the HUD names (the one played to, else the talk's), or -1. */
int viewer_state_shown_beat(const viewer_state *v);
/* Seconds since the talk's first advance (Next, after the start or
 * ctrl+T), or -1 before it. */
double viewer_state_talk_seconds(const viewer_state *v, double clock);

/* Writes the state line (see above) with the window's size. */
void viewer_state_print(const viewer_state *v, int win_w, int win_h, FILE *f);
/* The same with `more` (key=value pairs, NULL: none) at the line's end. */
void viewer_state_print_more(const viewer_state *v, int win_w, int win_h, const char *more,
                             FILE *f);

#endif
