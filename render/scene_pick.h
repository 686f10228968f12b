/* scene_pick.h - what a click in the 3D view points at: the ray through a
 * pixel of the view, the nearest object drawn at t that it meets, and what
 * selecting that object selects in the timeline (an action or an
 * all-reduce: the same selection a click on a bar makes).
 *
 * For: the viewer (a click, not a drag, in the 3D view) and tests. It is
 * the inverse of inspect_overlay_scene, which frames a selection's objects.
 *
 * What each object selects (t is the state's time):
 *   - a matmul box (lit only while its sub-step runs): the action running it.
 *   - an activation or gradient face (h, x, a stage's input x): the action
 *     on its stage and micro-batch running at t; else, for a gradient that
 *     waits for its backward, that backward (what consumes it next); else
 *     the last one that ended by t (what made it look so); else the first
 *     after t (a received input waiting for its forward).
 *   - a p2p box or the slab crossing it (a transfer): the action that sent
 *     it, F for an activation, B or I for a gradient; its details card names
 *     the consumer and the delay.
 *   - a block of a stage's activation stack: the forward that stored that
 *     micro-batch's activations (block k: the k-th live one on the stage in
 *     the order their forwards started).
 *   - a weight face: the stage's action running at t (it reads and updates
 *     those weights); else the stage's all-reduce when it runs at t; else the
 *     stage's last action ended by t; else its first.
 *   - an all-reduce box or a gradient chunk: its stage's all-reduce.
 * Nothing hit (empty space): kind NONE, as a click on empty space clears.
 *
 * What it does not do: no GL, no input, no clock; it draws nothing. It
 * picks what is drawn (object_state.visible with some opacity, at the place
 * scene_object_place gives), boxes as the renderer draws them: faces are
 * boxes with no thickness, given a hair's width so that a ray can hit them.
 *
 * Call order:
 *     scene_state st; scene_state_init(&st, &sc); scene_state_at(&sc, t, &st);
 *     timeline_panel_hover h = scene_pick(&sc, &st, &cam, view_w, view_h, text_px, px, py, NULL);
 *     scene_state_deinit(&st);
 * Cost: one pass over every object of every copy (O(objects)), so for a
 * click, never per frame.
 *
 * Errors: none; a pixel outside the view gets a ray all the same (it hits
 * what lies beyond the view's edge, if anything), a view under a pixel gets
 * nothing.
 */
#ifndef PPFLOW_SCENE_PICK_H
#define PPFLOW_SCENE_PICK_H

#include <stdbool.h>

#include "camera.h"
#include "scene.h"
#include "timeline_view.h"
#include "timeline_hit.h"

/* One object met by a ray. */
typedef struct scene_pick_hit {
    scene_kind kind;
    int index;      /* layer, stage or boundary, as in scene_object_box */
    int slot;       /* micro-batch slot (scene_slot_of); 0 for per-layer kinds */
    int replica;    /* the copy (the gap for all-reduce boxes) */
    float distance; /* along the ray from the eye, in ray-direction units (unit length) */
} scene_pick_hit;

/* The ray from the eye through pixel (px, py) of a w x h view (origin
 * top-left, y down, pixel centres at +0.5 are the caller's choice), seen by
 * cam at aspect w / h: origin = the eye, dir of unit length. */
void scene_pick_ray(const camera *cam, float w, float h, float px, float py, float origin[3],
                    float dir[3]);

/* The slab test: where the ray first meets box b grown by `pad` on every
 * side (t >= 0; 0 when it starts inside); false when it misses. */
bool scene_pick_box(const scene_box *b, float pad, const float origin[3], const float dir[3],
                    float *t);

/* The nearest object drawn in state st at this level of detail
 * (scene_level_draws; at the detail level the blocks give way to the
 * matmul picture inside them) that the ray meets; false for none. */
bool scene_pick_object(const scene *s, const scene_state *st, scene_level level,
                       const float origin[3], const float dir[3], scene_pick_hit *out);

/* What selecting the object hit selects at st->t (see above); kind NONE
 * when nothing fits (an all-reduce box of a timeline without one). */
timeline_panel_hover scene_pick_owner(const scene *s, const scene_state *st,
                                      const scene_pick_hit *hit);

/* All three: the owner of the nearest object under pixel (px, py) of the
 * w x h view, at the level that view draws with small text of text_px
 * (scene_renderer_level); hit (NULL: not wanted) gets the object when there
 * is one. */
timeline_panel_hover scene_pick(const scene *s, const scene_state *st, const camera *cam, float w,
                                float h, float text_px, float px, float py, scene_pick_hit *hit);

#endif
