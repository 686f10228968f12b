/* camera.h - the orbit camera of the 3D view: where it looks from, fitting
 * the scene, presets, and smooth moves between two cameras.
 *
 * For: the viewer (mouse orbit, pan, zoom, keys 1-9) and export (--camera).
 * The world's z axis is up (the model width in the scene), x runs along the
 * layers and y along the batch. A camera orbits `target` at `distance`, at
 * `yaw` around z (0 looks along +y, from the front of the scene) and `pitch`
 * above the x-y plane, with a vertical field of view `fov_y`.
 *
 * What it does not do: no GL (pure math with cglm, testable without a
 * display), no clock: a move between two cameras is evaluated at a fraction
 * the caller computes from its own time, so every frame is a function of
 * that fraction.
 *
 * Call order:
 *     camera cam = camera_preset_view(CAMERA_PRESET_DEFAULT, &bounds, aspect);
 *     camera_orbit(&cam, dx_pixels, dy_pixels, fb_height);   (input)
 *     camera_view_proj(&cam, aspect, view, proj, view_proj);  (each frame)
 *     camera c = camera_blend(&from, &to, fraction);          (smooth moves)
 */
#ifndef PPFLOW_CAMERA_H
#define PPFLOW_CAMERA_H

#include <stdbool.h>

typedef struct camera_bounds {
    float min[3], max[3]; /* world-space box that must stay in view */
    /* Optional, borrowed: points inside the box that outline what is drawn
     * (the corners of its parts). Fits frame these instead of the box's
     * corners, so a scene whose box has empty corners fills the view. */
    const float (*points)[3];
    int point_count;
} camera_bounds;

typedef struct camera {
    float target[3]; /* the point orbited and looked at */
    float yaw;       /* radians around +z; 0 looks along +y */
    float pitch;     /* radians above the x-y plane, within (-pi/2, pi/2) */
    float distance;  /* from target to eye, > 0 */
    float fov_y;     /* vertical field of view, radians */
    float shift[2];  /* lens shift: where the target lands on screen, in normalised device
                        coordinates (x right, y up); 0 = the view's centre */
} camera;

/* What fits frame: the bounds' points when it has them, else the box's
 * eight corners. i in [0, camera_bounds_point_count(b)). */
int camera_bounds_point_count(const camera_bounds *b);
void camera_bounds_point(const camera_bounds *b, int i, float out[3]);

/* A rectangle of the view as fractions of its width and height (origin
 * top-left, y down): {0, 0, 1, 1} is the whole view. */
typedef struct camera_rect {
    float x0, y0, x1, y1;
} camera_rect;

/* Presets reachable with keys 1-9. */
typedef enum camera_preset {
    CAMERA_PRESET_DEFAULT = 0, /* 1: three-quarter view from above and in front */
    CAMERA_PRESET_FRONT,       /* 2: from the front, level: layers left to right */
    CAMERA_PRESET_TOP,         /* 3: from above: the batch bands and the pipeline */
    CAMERA_PRESET_SIDE,        /* 4: along the layers: one stage's depth */
    CAMERA_PRESET_BACK,        /* 5: three-quarter from behind: the weights */
    CAMERA_PRESET_LOW,         /* 6: from below the model: the lower residuals */
    CAMERA_PRESET_FIRST_STAGE, /* 7: close on the first stage */
    CAMERA_PRESET_LAST_STAGE,  /* 8: close on the last stage */
    CAMERA_PRESET_REPLICAS,    /* 9: across the data-parallel replicas */
    CAMERA_PRESET_COUNT
} camera_preset;

/* The preset's camera, fitted so that `bounds` fills the view (aspect =
 * width / height) with a small margin. FIRST/LAST_STAGE fit the first or
 * last tenth of the bounds along x. */
camera camera_preset_view(camera_preset preset, const camera_bounds *bounds, float aspect);
/* The same, fitted into a rectangle of the view (the part that cards and
 * captions leave free), with the lens shift that centres it there. */
camera camera_preset_view_rect(camera_preset preset, const camera_bounds *bounds, float aspect,
                               camera_rect rect);

/* The preset's name for the HUD and --camera ("default", "front", ...), and back;
 * camera_preset_find returns -1 for an unknown name. */
const char *camera_preset_name(camera_preset preset);
int camera_preset_find(const char *name);

/* Keeps the direction and moves the target and distance so that bounds fit
 * the view with a margin (the F-key "fit"). */
void camera_fit(camera *cam, const camera_bounds *bounds, float aspect);
/* The same into a rectangle of the view: bounds fill it with a margin, and
 * the lens shift (cam->shift) centres them on it. */
void camera_fit_rect(camera *cam, const camera_bounds *bounds, float aspect, camera_rect rect);
/* Fits into each of n >= 1 rectangles and keeps the nearest camera (the
 * largest scene); returns the index of the rectangle kept. */
int camera_fit_best(camera *cam, const camera_bounds *bounds, float aspect,
                    const camera_rect *rects, int n);
/* Grows what a fitted camera shows: moves the eye nearer along its line of
 * sight and the lens shift with it, as far as the outline of the bounds'
 * points on screen (their convex hull) stays inside `view` (fractions of
 * the view, as camera_rect) and meets none of the n obstacles (the cards
 * over the view). A fit into the best free rectangle leaves the corners
 * of an L-shaped free area unused; this fills them. Returns the growth
 * (1: none found). The direction never changes, so a preset stays itself. */
float camera_grow_clear(camera *cam, const camera_bounds *bounds, float aspect, camera_rect view,
                        const camera_rect *obstacles, int n);

/* camera_preset_view_rect into the best of n >= 1 rectangles. */
camera camera_preset_view_best(camera_preset preset, const camera_bounds *bounds, float aspect,
                               const camera_rect *rects, int n);

/* Mouse input, in framebuffer pixels (so HiDPI needs no special case): a
 * drag across the whole height turns the camera by about 180 degrees;
 * pan moves the target so the point under the pointer follows it. dx > 0
 * (a drag to the right) turns the scene to the right; dy > 0 (down) tilts
 * its top towards the viewer, i.e. raises the eye. */
void camera_orbit(camera *cam, float dx, float dy, float fb_height);
void camera_pan(camera *cam, float dx, float dy, float fb_height);

/* Zoom keeps the distance within [CAMERA_ZOOM_IN, CAMERA_ZOOM_OUT] times the
 * fit distance: the one camera_fit gives for the camera's direction and the
 * view's aspect. Close enough to read one layer, far enough that the whole
 * scene stays a recognisable object (about a quarter of the view across). */
#define CAMERA_ZOOM_IN 0.1f
#define CAMERA_ZOOM_OUT 4.0f
/* The distances zoom keeps to for these bounds and aspect (width / height). */
void camera_zoom_limits(const camera *cam, const camera_bounds *bounds, float aspect,
                        float *min_distance, float *max_distance);
/* Multiplies the distance by 0.9^steps (steps > 0 zooms in), within the
 * limits above; a distance already outside them (a preset, a narrow window)
 * is never pushed further out, only brought back. */
void camera_zoom(camera *cam, float steps, const camera_bounds *bounds, float aspect);

/* The eye position in world space. */
void camera_eye(const camera *cam, float eye[3]);
/* Column-major 4x4 view and projection matrices (cglm's mat4 layout),
 * near and far planes chosen from the distance (distance / 100 and
 * distance * 100); any of the three outputs may be NULL. */
void camera_view_proj(const camera *cam, float aspect, float view[16], float proj[16],
                      float view_proj[16]);
/* Projects a world point to framebuffer pixels (origin top-left, y down);
 * false when it is behind the eye. */
bool camera_project(const camera *cam, float aspect, const float world[3], int fb_width,
                    int fb_height, float *px, float *py);

/* The camera a fraction s in [0, 1] of the way from `from` to `to`, eased
 * (smoothstep), yaw taking the shorter way round. */
camera camera_blend(const camera *from, const camera *to, float s);

#endif
