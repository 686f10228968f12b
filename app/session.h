/* session.h - everything one ppflow run shows, built from a scenario: the
 * program, its simulated timeline, the 3D scene and the HUD's lines.
 *
 * For: the viewer, `ppflow render`, `ppflow bench render`, which must all
 * show the same thing for the same scenario and flags.
 *
 * Call order:
 *     session s;
 *     if (!session_build(&s, path_or_NULL, flags, n, &err)) { one line, exit 2 }
 *     if (!session_build_scene(&s, &err)) { one line, exit 2 }   (when something will be drawn)
 *     ... s.tl, s.scene, s.hud_title ...
 *     session_deinit(&s);
 *
 * Errors: session_build returns false with one line naming the field, the
 * value and the rule (bad scenario, bad flag, a deadlocking program, a
 * scenario over the budget); the session is then safe to deinit.
 */
#ifndef PPFLOW_SESSION_H
#define PPFLOW_SESSION_H

#include <stdbool.h>

#include "camera.h"
#include "error.h"
#include "program.h"
#include "scenario.h"
#include "scene.h"
#include "theme.h"
#include "timeline.h"

/* The default playback speed shows the whole iteration in this many
 * seconds, in the window and in a recording alike. */
enum { SESSION_PLAY_SECONDS = 20 };

/* How a session is shown, in the window or in a recording: the options
 * `ppflow` and `ppflow render` share, carried whole from the command line
 * to the viewer (viewer.h), the render command and the recorder. */
typedef struct session_show {
    int width, height;    /* window size in screen coordinates, or frame size in pixels */
    theme_id theme;       /* 0: dark */
    camera_preset camera; /* 0: the default preset */
    double speed;         /* timeline units per second; 0: session_default_speed */
} session_show;

/* A scenario field set on the command line. */
typedef struct session_flag {
    const char *field; /* the field's flag name */
    const char *value;
} session_flag;

typedef struct session {
    scenario sc;
    program prog;
    timeline_costs costs;
    timeline tl;
    scene scene;
    bool has_scene;
    char hud_title[160];  /* "1F1B  P=4  M=8  D=2  V=1" */
    char hud_bubble[160]; /* "bubble 27.3% = (P-1)/(M+P-1) = 3/11" */
} session;

/* The built-in default, then the file (when path is not NULL), then the
 * flags in order; then the program and its simulation. */
bool session_build(session *s, const char *path, const session_flag *flags, int flag_count,
                   ppf_error *err);
/* Lays out the 3D scene from the scenario's sizes; false with one line when
 * it would draw more objects than the budget allows (budget.h), checked
 * before anything is allocated. Does nothing once the scene exists. */
bool session_build_scene(session *s, ppf_error *err);
/* The camera preset fitted to the 3D view of a framebuffer of this size. */
camera session_camera(const session *s, camera_preset preset, int fb_width, int fb_height,
                      float split);
/* The scene's bounds, as the camera fits them. */
camera_bounds session_camera_bounds(const session *s);
/* The speed that shows the whole iteration in SESSION_PLAY_SECONDS (one
 * time unit a second when the iteration takes no time). */
double session_default_speed(const session *s);

void session_deinit(session *s); /* accepts a zeroed or deinited session */

#endif
