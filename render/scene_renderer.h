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
 * Two parts: the renderer (shader and meshes) is the GL context's, shared
 * by every scene drawn in it; the instances (scene_instances) are one
 * scene's, so that panes side by side each keep their own upload.
 *
 * No allocation once warm: instance arrays grow (doubling) to the most
 * objects a frame has shown, not to every object of the scene, so memory
 * follows what is on screen. Uploads happen only when what is drawn
 * changes (the scene or its generation, t, the theme or the camera's eye,
 * which decides the sort order): a paused viewer uploads nothing.
 *
 * Call order (a current GL 3.3 context):
 *     scene_renderer r; scene_renderer_init(&r, &err);
 *     scene_instances in; scene_instances_init(&in, &r, &scene, &err);    per scene
 *     each frame: scene_renderer_draw(&r, &in, &scene, &state, &theme, &cam, x, y, w, h, level,
 *                                     1, edge_px);
 *     scene_instances_deinit(&in); scene_renderer_deinit(&r);
 *
 * Errors: the renderer's init returns false with the shader log in *err,
 * the instances' with one line for a scene over the object budget.
 */
#ifndef PPFLOW_SCENE_RENDERER_H
#define PPFLOW_SCENE_RENDERER_H

#include <stdbool.h>
#include <stdint.h>

#include "camera.h"
#include "error.h"
#include "scene.h"
#include "theme.h"

/* scene.frag compiled for one mode of face (shaders/scene.frag's
 * SCENE_MODE), with where its uniforms are. */
typedef struct scene_program {
    unsigned id;
    int loc_view_proj, loc_face_mode, loc_light, loc_edge_color, loc_edge_px, loc_px, loc_origin;
} scene_program;

/* The programs: any mode, read per instance (the translucent pass, drawn
 * back to front in one call), then one per mode the opaque passes draw a
 * mode at a time (both chevrons share one). */
enum { SCENE_PROGRAM_ANY = 0, SCENE_PROGRAM_COUNT = 7 };

/* What one context draws every scene with: the shader's programs and the
 * box and face meshes. One per GL context (frame.h's frame_renderer). */
typedef struct scene_renderer {
    scene_program program[SCENE_PROGRAM_COUNT];
    unsigned cube_vbo, quad_vbo;
} scene_renderer;

/* What the drawing of one scene keeps from frame to frame (frame.h's
 * frame_cache, one per pane): its instances, the buffer and vertex arrays
 * they are drawn from (of the context of the scene_renderer it was made
 * with), and what the last upload showed. */
/* The four passes a frame draws, in order (scene_renderer.c). */
enum {
    SCENE_PASS_GROUND = 0,
    SCENE_PASS_FACES,
    SCENE_PASS_BOXES,
    SCENE_PASS_TRANSLUCENT,
    SCENE_PASS_COUNT
};

/* One pass's instances, grown to the most a frame has shown. */
typedef struct scene_pass {
    struct scene_instance *items;
    int count, capacity;
} scene_pass;

typedef struct scene_instances {
    unsigned instance_vbo;
    unsigned box_vao, face_vao;
    scene_pass pass[SCENE_PASS_COUNT]; /* CPU copies, per pass */
    void *order;                       /* sort scratch: (distance, index) per instance */
    struct scene_instance *sorted;     /* every pass's instances in draw order */
    int sorted_capacity;
    int gpu_capacity;                                     /* instances the GL buffer holds */
    int first[SCENE_PASS_COUNT], count[SCENE_PASS_COUNT]; /* each pass's run in sorted */
    struct scene_run *runs; /* consecutive instances of one program, every pass's in order */
    int run_count, run_capacity;
    int first_run[SCENE_PASS_COUNT], runs_in[SCENE_PASS_COUNT]; /* each pass's in runs */
    /* What the last upload showed, to skip identical frames: the scene (its
     * address and build: another build at the same address is another
     * scene), t, ... */
    const scene *last_scene;
    uint64_t last_generation;
    double last_t;
    float last_eye[3];
    const char *last_theme;
    int last_slots_per_instance[2]; /* slots (slices, stack blocks) merged into one instance */
    int last_level;
    bool uploaded;
    int uploads; /* count of uploads, for tests and benchmarks */
} scene_instances;

bool scene_renderer_init(scene_renderer *r, ppf_error *err);
void scene_renderer_deinit(scene_renderer *r); /* accepts a zeroed or deinited renderer */

/* The instances of scene s, drawn with r (its context current); false with
 * one line when the scene has more objects than the budget allows. */
bool scene_instances_init(scene_instances *in, const scene_renderer *r, const scene *s,
                          ppf_error *err);
/* Accepts a zeroed or deinited one; its renderer's context current. */
void scene_instances_deinit(scene_instances *in);

/* Draws the state into the viewport (x, y, w, h in framebuffer pixels, GL's
 * bottom-left origin) of the bound framebuffer, which must have a depth
 * buffer whose viewport the caller has cleared (frame_renderer_draw clears
 * colour and depth together, once: on llvmpipe a second, scissored clear
 * costs as much as a quad drawn over the view), at level (the caller's
 * scene_renderer_level, which its labels follow). scale is the framebuffer's
 * pixels per pixel of the output (a supersampled view's k, otherwise 1): the
 * instances' merging and every width in pixels follow the output,
 * so that a still drawn k times larger is the same picture, finer. edge_px is the
 * width of the faces' rims in the output's pixels (frame_layout.line_px, so
 * that rims grow with the window's height and the UI scale like the 2D
 * lines); under 1 or not a number: 1. in: s's instances, made with r. */
/* The level of detail a w x h view (pixels) under cam draws s at
 * (scene_level_for, with the plates' and blocks' widths on screen where the
 * scene comes nearest the eye), in units of text_px, the frame's small
 * text em (frame_layout.small_px; not over 0: SCENE_LEVEL_TEXT_PX): text
 * twice as large needs plates twice as wide for its labels, and the same
 * frame at 720p, at 1080p or drawn 4x larger for a still's sharpness shows
 * the same picture. Drawing, labels and picking ask it alike. */
scene_level scene_renderer_level(const scene *s, const camera *cam, float w, float h,
                                 float text_px);

void scene_renderer_draw(const scene_renderer *r, scene_instances *in, const scene *s,
                         const scene_state *st, const theme *th, const camera *cam, int x, int y,
                         int w, int h, scene_level level, float scale, float edge_px);

#endif
