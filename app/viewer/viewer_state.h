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
 * VIEWER_SPEED_RANGE of the start speed, and camera moves wait while the 3D
 * view is under a pixel high (a minimised window).
 *
 * Call order:
 *     viewer_state v; viewer_state_init(&v, &session, fb_w, fb_h);
 *     viewer_state_set_speed(&v, ...); v.theme = ...; v.cam = session_camera(...);
 *     viewer_state_set_time(&v, t, clock);
 *     on resize: v.fb_w, v.fb_h = ...
 *     before applying input: viewer_state_place_timeline(&v);
 *     viewer_state_apply(&v, &command, clock) ...
 *     each frame: frame_view fv = viewer_state_frame_view(&v, clock, status, n);
 *
 * The state line (viewer_state_print) is one line of key=value pairs:
 *     t=12.500000 playing=0 speed=1.65 theme=dark split=0.700 help=0 yaw=-0.5236
 *     pitch=0.5585 distance=161.8945 timeline=T0:T1 plot=X:Y:W:H fb=WxH window=WxH
 * timeline is the visible time range, plot the timeline's plot area in
 * framebuffer pixels, fb and window the framebuffer and window sizes.
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
/* Playback speed stays within this factor of the start speed either way, so
 * that + or - held down never reaches 0 or infinity. */
#define VIEWER_SPEED_RANGE 1000.0

typedef struct viewer_state {
    const session *s; /* not owned; built whole */
    int fb_w, fb_h;   /* the framebuffer the frame fills */
    /* time */
    double t, speed; /* speed: timeline units per second of playback */
    double speed_min, speed_max;
    bool playing;
    double play_anchor_t,
        play_anchor_clock; /* while playing, t = anchor_t + (clock - anchor_clock) * speed */
    /* what is shown */
    theme_id theme;
    float split;                    /* the 3D view's share of the height */
    float ui_scale, ui_scale_start; /* text and line sizes (frame_view.ui_scale); the start's,
                                       which ctrl+0 goes back to */
    bool show_help;
    camera cam; /* where the camera is, or goes to while moving */
    camera cam_from, cam_to;
    bool cam_moving;
    double cam_move_start;
    timeline_view timeline; /* the panel's zoom and pan; laid out by viewer_state_place_timeline */
    timeline_panel_hover hover;
    int hover_rank; /* the caption's rank: the row under the pointer, or -1 */
    bool quit;
} viewer_state;

/* Paused at t = 0, dark theme, split 0.7, the timeline fitted, no hover;
 * the camera zeroed (set it with session_camera) and the speed 0 (set it
 * with viewer_state_set_speed). */
void viewer_state_init(viewer_state *v, const session *s, int fb_w, int fb_h);
/* Sets the speed and its limits (VIEWER_SPEED_RANGE either way). */
void viewer_state_set_speed(viewer_state *v, double speed);
/* Goes to t (clamped to the iteration), keeping playback's clock anchored. */
void viewer_state_set_time(viewer_state *v, double t, double clock);

/* The frame's layout for the framebuffer and split. */
frame_layout viewer_state_layout(const viewer_state *v);
/* Lays out the timeline view in the layout's panel, as the frame draws it. */
void viewer_state_place_timeline(viewer_state *v);

/* Applies one command (not CMD_FULLSCREEN or CMD_SCREENSHOT, the window's). */
void viewer_state_apply(viewer_state *v, const command *c, double clock);

/* Lays out the timeline view, moves time on while playing (stopping at the
 * end) and ends a finished camera move, then returns the frame to draw (the viewport the whole
 * framebuffer, no key card rows: the caller adds them); the status text
 * ("▶ ×1" or "paused ×1") is written into status[n], which the view points at. */
frame_view viewer_state_frame_view(viewer_state *v, double clock, char *status, size_t n);

/* Writes the state line (see above) with the window's size. */
void viewer_state_print(const viewer_state *v, int win_w, int win_h, FILE *f);

#endif
