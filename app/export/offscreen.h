/* offscreen.h - draws ppflow's frames with no window: a headless EGL
 * context, an offscreen framebuffer and the frame renderer, for stills,
 * `ppflow bench render` and export.
 *
 * The session is built whole, scene included (session_build_scene), before
 * it is handed over; it is read, never changed, and must outlive the
 * offscreen.
 *
 * A comparison (app/comparison.h) draws its sides' panes and strip
 * (render/compare_view.h) into one target instead: offscreen_init_compare,
 * offscreen_default_compare, offscreen_draw_compare; the sessions are held
 * as one is.
 *
 * Call order:
 *     offscreen o;
 *     if (!offscreen_init(&o, &session, 1920, 1080, &err)) ...   (no EGL: one line)
 *     frame_view v = offscreen_default_view(&o, t, THEME_DARK, CAMERA_PRESET_DEFAULT);
 *     offscreen_draw(&o, &v); offscreen_read(&o, pixels);
 *     offscreen_deinit(&o);
 *
 * Errors: init returns false with one line (no EGL display and which Debian
 * packages to install, a size the GL cannot draw, a shader or font failure).
 */
#ifndef PPFLOW_OFFSCREEN_H
#define PPFLOW_OFFSCREEN_H

#include <stdbool.h>
#include <stdint.h>

#include "camera.h"
#include "compare_view.h"
#include "error.h"
#include "frame.h"
#include "gl_context.h"
#include "render_target.h"
#include "session.h"

typedef struct offscreen {
    gl_context gl;
    render_target target;
    frame_renderer frame;
    frame_cache cache[COMPARE_MAX_SIDES]; /* [side_count]: each side's */
    const session *session;               /* not owned; the first side of a comparison */
    int width, height;
    compare_renderer *compare;               /* a comparison's panes; NULL: one frame */
    const session *sides[COMPARE_MAX_SIDES]; /* [side_count], not owned */
    int side_count;                          /* 1 for one frame */
} offscreen;

bool offscreen_init(offscreen *o, const session *s, int width, int height, ppf_error *err);
void offscreen_deinit(offscreen *o); /* accepts a zeroed or deinited one */
/* Another session drawn from now on (one frame, not a comparison), its
 * cache made before the old one goes: as the window shows a what-if. */
bool offscreen_show(offscreen *o, const session *s, ppf_error *err);

/* The view a still or an export starts from: time t, a theme, a camera
 * preset fitted to the scene and the 3D view's aspect, the timeline fitted
 * to the whole iteration, legend on, the whole target. */
frame_view offscreen_default_view(const offscreen *o, double t, theme_id theme,
                                  camera_preset preset);

/* The view a still draws at t (`render --still`, a per-beat PNG): the
 * default view at this UI scale (0: 1), the camera preset fitted at that
 * scale, the caption of the beat t stands on, since a still stands on its
 * moment, and the 3D view supersampled (SCENE_AA_SUPERSAMPLE: one frame
 * can afford its best edges; the default view's are a video's). */
frame_view offscreen_still_view(const offscreen *o, double t, theme_id theme, camera_preset preset,
                                double ui_scale);

void offscreen_draw(offscreen *o, const frame_view *v);

/* A comparison's count (2..COMPARE_MAX_SIDES) sessions, each built whole. */
bool offscreen_init_compare(offscreen *o, const session *const *sides, int count, int width,
                            int height, ppf_error *err);
/* Every pane at time t as offscreen_default_view draws one (its camera
 * fitted to its pane), on the shared time scale, with these strip lines
 * ([side_count]) and the layout chosen for the target (AUTO). */
compare_frame offscreen_default_compare(const offscreen *o, double t, theme_id theme,
                                        camera_preset preset, float ui_scale,
                                        const char *const *strip);
void offscreen_draw_compare(offscreen *o, const compare_frame *v);
/* From now on (on) the 3D views' edge smoothing (SCENE_AA_EDGE) is left
 * for the frames' pixels read back: after each draw, offscreen_take_aa
 * gives the frame's passes, and scene_aa_apply does them on its pixels
 * read back whole, bottom row first (readback.h). For export, which reads
 * every frame back anyway (scene_aa.h says what it saves). */
void offscreen_defer_aa(offscreen *o, bool on);
/* The passes the last draw left (scene_aa_take: *out's storage is reused). */
void offscreen_take_aa(offscreen *o, scene_aa_deferred *out);
/* Pixels of the last frame, top row first, width * height * 4 bytes. */
void offscreen_read(offscreen *o, uint8_t *rgba);
/* The last frame as a PNG file's bytes (*png: the caller frees it); false
 * with image_png.h's line when it cannot be encoded. */
bool offscreen_read_png(offscreen *o, uint8_t **png, size_t *size, ppf_error *err);

#endif
