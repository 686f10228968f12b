/* scene_renderer.h - draws the 3D picture: every visible object of a
 * scene_state as an instanced face or box.
 *
 * For: the live viewer, headless tests and export, which all call the same
 * draw into whatever framebuffer is bound.
 *
 * How: objects become instances (box corners, colour, fill colour, edge
 * strength, flash) on the CPU, one per object and replica, except that
 * neighbouring micro-batch slots that together are at most a pixel thick on
 * screen share one instance (the state scene_slot_merge picks, spanning the
 * slots shown): a large scenario draws what a pixel can show, and a frame
 * whose slots are a pixel or more is drawn slot by slot. Opaque faces are
 * drawn first, front to back with depth writes (llvmpipe skips hidden
 * pixels early), then translucent faces and boxes back to front without
 * depth writes, so the yellow matmul boxes read correctly from any angle.
 * Rims come from the fragment shader (no line geometry).
 *
 * No allocation once warm: instance arrays grow (doubling) to the most
 * objects a frame has shown, not to every object of the scene, so memory
 * follows what is on screen. Uploads happen only when what is drawn changes (the scene or its
 * generation, t, the theme or the camera's eye, which decides the sort order): a paused viewer
 * uploads nothing. So a renderer is not of one scene: it draws whichever it is given.
 *
 * Call order (a current GL 3.3 context):
 *     scene_renderer r; scene_renderer_init(&r, &scene, &err);
 *     each frame: scene_renderer_draw(&r, &scene, &state, &theme, &cam, x, y, w, h, edge_px);
 *     scene_renderer_deinit(&r);
 *
 * Errors: init returns false with the shader log in *err.
 */
#ifndef PPFLOW_SCENE_RENDERER_H
#define PPFLOW_SCENE_RENDERER_H

#include <stdbool.h>
#include <stdint.h>

#include "camera.h"
#include "error.h"
#include "scene.h"
#include "theme.h"

typedef struct scene_renderer {
    unsigned program;
    int loc_view_proj, loc_face_mode, loc_light, loc_edge_color, loc_edge_px;
    unsigned cube_vbo, quad_vbo, instance_vbo;
    unsigned box_vao, face_vao;
    struct scene_instance *instances; /* CPU copy: [opaque faces | translucent] */
    void *order;                      /* sort scratch: (distance, index) per instance */
    struct scene_instance *sorted;    /* instances in draw order */
    int capacity;          /* instances the CPU arrays hold: grown to what a frame shows */
    int gpu_capacity;      /* instances the GL buffer holds */
    int opaque_count;      /* faces drawn with depth writes */
    int translucent_count; /* faces and boxes, back to front */
    /* What the last upload showed, to skip identical frames: the scene (its
     * address and build: one rebuilt in place is another scene), t, ... */
    const scene *last_scene;
    uint64_t last_generation;
    double last_t;
    float last_eye[3];
    const char *last_theme;
    int last_slots_per_instance[2]; /* slots (slices, stack blocks) merged into one instance */
    bool uploaded;
    int uploads; /* count of uploads, for tests and benchmarks */
} scene_renderer;

bool scene_renderer_init(scene_renderer *r, const scene *s, ppf_error *err);
void scene_renderer_deinit(scene_renderer *r); /* accepts a zeroed or deinited renderer */

/* Draws the state into the viewport (x, y, w, h in framebuffer pixels, GL's
 * bottom-left origin) of the bound framebuffer, which must have a depth
 * buffer whose viewport the caller has cleared (frame_renderer_draw clears
 * colour and depth together, once: on llvmpipe a second, scissored clear
 * costs as much as a quad drawn over the view). edge_px is the
 * width of the faces' rims in pixels (frame_layout.line_px, so that rims
 * grow with the window's height and the UI scale like the 2D lines);
 * under 1 or not a number: 1. */
void scene_renderer_draw(scene_renderer *r, const scene *s, const scene_state *st, const theme *th,
                         const camera *cam, int x, int y, int w, int h, float edge_px);

#endif
