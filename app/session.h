/* session.h - everything one ppflow run shows, built from a scenario: the
 * program, its simulated timeline, its beats (the pause points of a talk),
 * the 3D scene and the HUD's lines.
 *
 * For: the viewer, `ppflow render`, `ppflow bench render`, which must all
 * show the same thing for the same scenario and flags. A session is built
 * whole (scenario -> program -> timeline -> scene) before it is handed to
 * the viewer or the exporter, which take it as `const session *` and build
 * nothing themselves.
 *
 * Call order:
 *     session s;
 *     if (!session_build(&s, path_or_NULL, flags, n, &err)) { one line, exit 2 }
 *     if (!session_build_scene(&s, &err)) { one line, exit 2 }   (when something will be drawn)
 *     ... s.tl, s.beats, s.scene, s.hud_title ...
 *     session_deinit(&s);
 *     a changed scenario (live changes) is built beside it, on the heap:
 *         session *next = session_new(&sc, s.has_scene, &err);   NULL: one line
 *         ... shown in its place (the viewer's one road) ...; session_free(next)
 * Several sessions may live side by side (a comparison): a session owns
 * everything it holds, and building touches no global state but one
 * counter: every build stamps its timeline (and so its scene) with a
 * generation no other build in the process has (timeline.h), so that a
 * render cache can assert that it is of the session as built now
 * (frame.h's frame_cache_of), whatever address the session has.
 *
 * A built session must not be copied by value: its timeline points at its
 * program and its scene at its timeline.
 *
 * Errors: the builds return false with one line naming the field, the value
 * and the rule (bad scenario, bad flag, a deadlocking program, a beat whose
 * "after" names no action of the program, a scenario or scene over the
 * budget); a session whose build failed is safe to deinit, and a failed
 * session_new leaves nothing allocated.
 */
#ifndef PPFLOW_SESSION_H
#define PPFLOW_SESSION_H

#include <stdbool.h>

#include "beats.h"
#include "budget.h"
#include "camera.h"
#include "error.h"
#include "program.h"
#include "scenario.h"
#include "scene.h"
#include "scene_aa.h"
#include "theme.h"
#include "timeline.h"

/* The default playback speed shows the whole iteration in this many
 * seconds, in the window and in a recording alike. */
enum { SESSION_PLAY_SECONDS = 20 };
/* Speeds a user may ask for (--speed, the viewer's + and - keys) stay
 * within this factor of the default either way: slower than the iteration
 * in about 5.5 hours, or faster than it in 1/50 s (one frame), shows
 * nothing more. */
#define SESSION_SPEED_RANGE 1000.0

/* How a session is shown, in the window or in a recording: the options
 * `ppflow` and `ppflow render` share, carried whole from the command line
 * to the viewer (viewer.h), the render command and the recorder. */
typedef struct session_show {
    int width, height;    /* window size in screen coordinates, or frame size in pixels */
    theme_id theme;       /* 0: dark */
    camera_preset camera; /* 0: the default preset */
    double speed;         /* timeline units per second; 0: session_default_speed */
    double ui_scale;      /* text and line widths times this (--ui-scale); 0: 1 */
    int aa;               /* --aa: 0 each output its own (session_show_aa), else 1 + a
                             scene_aa_mode */
} session_show;

/* The 3D view's anti-aliasing for an output whose own choice is `own`
 * (stills and PNG frames SCENE_AA_SUPERSAMPLE; the window, MP4 and GIF
 * SCENE_AA_EDGE): --aa's when it was given. */
scene_aa_mode session_show_aa(const session_show *show, scene_aa_mode own);

/* A scenario field set on the command line. */
typedef struct session_flag {
    const char *field; /* the field's flag name */
    const char *value;
} session_flag;

typedef struct session {
    scenario sc; /* its own copy of the scenario it was built from */
    program prog;
    timeline_costs costs;
    timeline tl;     /* of prog */
    beat_list beats; /* of tl: the scenario's beats and the automatic ones (beats.h) */
    scene scene;     /* of tl, once session_build_scene succeeded */
    bool has_scene;
    char hud_title[160];  /* "1F1B  P=4  M=8  D=2  V=1" */
    char hud_bubble[160]; /* "bubble 27.3% = (P-1)/(M+P-1) = 3/11" */
} session;

/* The built-in default, then the file (when path is not NULL), then the
 * flags in order; then session_build_from. Not confined: for tests and
 * benchmarks; the command line goes through session_scenario. */
bool session_build(session *s, const char *path, const session_flag *flags, int flag_count,
                   ppf_error *err);
/* The scenario a command line asks for, into *sc (not initialised; left
 * zeroed on failure): the built-in default, then the file (when path is not
 * NULL), then the flags in order. With confine (--confine), the file and
 * the files it names are read as file_read.h's confined mode says, and so
 * is every file the scenario names later (its CSV, when built). */
bool session_scenario(scenario *sc, const char *path, bool confine, const session_flag *flags,
                      int flag_count, ppf_error *err);
/* The program, its simulation and its beats (no scene) from a copy of the
 * scenario; *s must not be built. A scenario that holds values from a file
 * named by a file, read confined (sc->conceal), is built with its messages
 * concealed (quote.h): none of those values is quoted. */
bool session_build_from(session *s, const scenario *sc, ppf_error *err);
/* Lays out the 3D scene from the scenario's sizes; false with one line when
 * it would draw more objects than the budget allows (budget.h), checked
 * before anything is allocated. Does nothing once the scene exists. */
bool session_build_scene(session *s, ppf_error *err);
/* A session built on the heap from a copy of sc (its scene too when
 * with_scene), beside whatever else is built: what a window builds aside
 * before it shows it (viewer_show.h). NULL with one line, nothing left
 * allocated. Its address stays for its life: free it with session_free. */
session *session_new(const scenario *sc, bool with_scene, ppf_error *err);
void session_free(session *s); /* deinit and free; accepts NULL */
/* What the built session holds against the budget (budget.h, totals), as
 * scenario_cost counted it before the build: its program's actions (a
 * generated one by the budget's count, an import by its cells), its stages
 * x micro-batches, its scene's objects when it has one. */
budget_cost session_cost(const session *s);
/* Whether sc, built (its scene too when with_scene), fits the budget
 * beside what is held already (the sum of session_cost of the sessions
 * that stay): for what a window builds while it is open (a what-if, a pane
 * it adds). False with one line starting with `what`, or sc's own message
 * when it cannot be counted; builds nothing. True for a scenario over a
 * limit alone: its build refuses it, naming the product. */
bool session_check_room(const budget_cost *held, const scenario *sc, bool with_scene,
                        const char *what, ppf_error *err);
/* The camera preset fitted to the part of the 3D view that the HUD, legend
 * and caption leave free, in a framebuffer of this size at this UI scale
 * (0: 1). */
camera session_camera(const session *s, camera_preset preset, int fb_width, int fb_height,
                      float split, float ui_scale);
/* The caption of the beat t stands on, when it has one (a beat's own
 * caption, read while the animation stands on it: paused in the viewer, a
 * still, the last frame of a per-beat clip); NULL otherwise, and the frame
 * writes its automatic caption. Frames passing through t while playing do
 * not show it, so that a video never flashes a caption for one frame. */
const char *session_beat_caption(const session *s, double t);

/* The camera preset presenting shows at t, so that a still or a per-beat
 * clip shows what the talk does: the preset of the beat t stands on or
 * heads for (the first at or after t), when it names one; else the one the
 * last beat before that named (a beat without a camera keeps the camera
 * where the talk left it); else base (a talk slide's own camera, else
 * --camera). Past the last beat: as on the last beat. */
camera_preset session_camera_preset_at(const session *s, double t, camera_preset base);

/* The scene's bounds, as the camera fits them. */
camera_bounds session_camera_bounds(const session *s);
/* The speed that shows the whole iteration in SESSION_PLAY_SECONDS (one
 * time unit a second when the iteration takes no time). */
double session_default_speed(const session *s);
/* The speeds a user may ask for: the default speed divided and multiplied
 * by SESSION_SPEED_RANGE. */
void session_speed_limits(const session *s, double *min_speed, double *max_speed);

void session_deinit(session *s); /* accepts a zeroed or deinited session */

#endif
