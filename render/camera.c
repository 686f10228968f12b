/* camera.c - the orbit camera: presets, fitting, input and projection.
 *
 * Pure math with cglm: no GL and no clock. Angles are radians throughout.
 * The eye sits at target - distance * forward, with
 *     forward = (-sin yaw cos pitch, cos yaw cos pitch, -sin pitch)
 *     right   = (cos yaw, sin yaw, 0)
 *     up      = right x forward
 * so yaw 0 looks along +y with +x to the right and +z up, and pitch > 0
 * looks down from above. */
#include "camera.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cglm/cglm.h>

#define PI_F 3.14159265358979323846f
#define DEG(d) ((d) * (PI_F / 180.0f))

/* Pitch stays this far from straight up or down, where the view's up
 * vector (+z) would be parallel to the view direction. */
#define PITCH_LIMIT (PI_F / 2.0f - 0.05f)
/* A fitted box spans this fraction of the view along its binding axis:
 * a 4% margin on each side. */
#define FIT_FILL 0.92f
/* No distance is closer or further than this, whatever the input or the
 * scene (zoom's own limits follow the scene: camera_zoom_limits). */
#define DISTANCE_MIN 1e-3f
#define DISTANCE_MAX 1e7f
/* Vertical field of view of the presets: narrow enough that long models
 * are not distorted much at the edges, wide enough to feel 3D. */
#define DEFAULT_FOV_Y DEG(40.0f)
/* FIRST/LAST_STAGE show this fraction of the bounds along x. */
#define STAGE_FRACTION 0.1f

/* Direction of each preset; the target and distance come from fitting. */
static const struct {
    const char *name;
    float yaw, pitch; /* radians */
} PRESETS[CAMERA_PRESET_COUNT] = {
    [CAMERA_PRESET_DEFAULT] = {"default", DEG(-10.0f), DEG(36.0f)},
    [CAMERA_PRESET_FRONT] = {"front", 0.0f, 0.0f},
    [CAMERA_PRESET_TOP] = {"top", 0.0f, PITCH_LIMIT},
    /* Looking along +x from before the first layer: the batch runs across
     * the screen and the stages recede one behind another. */
    [CAMERA_PRESET_SIDE] = {"side", DEG(-90.0f), DEG(20.0f)},
    /* The mirror of the default, from +y where the weight faces are. */
    [CAMERA_PRESET_BACK] = {"back", DEG(150.0f), DEG(30.0f)},
    [CAMERA_PRESET_LOW] = {"low", DEG(-30.0f), DEG(-30.0f)},
    [CAMERA_PRESET_FIRST_STAGE] = {"first-stage", DEG(-14.0f), DEG(40.0f)},
    [CAMERA_PRESET_LAST_STAGE] = {"last-stage", DEG(-14.0f), DEG(40.0f)},
    /* Turned towards the side so the batch axis (y), along which the
     * replicas are stacked, spreads across the screen. */
    [CAMERA_PRESET_REPLICAS] = {"replicas", DEG(-60.0f), DEG(35.0f)},
};

/* An angle brought into [-pi, pi], so yaw does not grow without bound
 * under long orbits and blends can take the shorter way. */
static float wrap_angle(float a)
{
    return remainderf(a, 2.0f * PI_F);
}

static float clampf(float v, float lo, float hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* The camera's orthonormal frame for a direction (see the top of file). */
static void camera_basis(float yaw, float pitch, vec3 right, vec3 up, vec3 forward)
{
    float cy = cosf(yaw), sy = sinf(yaw), cp = cosf(pitch), sp = sinf(pitch);
    forward[0] = -sy * cp;
    forward[1] = cy * cp;
    forward[2] = -sp;
    right[0] = cy;
    right[1] = sy;
    right[2] = 0.0f;
    glm_vec3_cross(right, forward, up);
}

int camera_bounds_point_count(const camera_bounds *b)
{
    return b->points && b->point_count > 0 ? b->point_count : 8;
}

void camera_bounds_point(const camera_bounds *b, int i, float out[3])
{
    if (b->points && b->point_count > 0) {
        assert(i >= 0 && i < b->point_count);
        memcpy(out, b->points[i], 3 * sizeof(float));
        return;
    }
    assert(i >= 0 && i < 8);
    out[0] = (i & 1) ? b->max[0] : b->min[0];
    out[1] = (i & 2) ? b->max[1] : b->min[1];
    out[2] = (i & 4) ? b->max[2] : b->min[2];
}

/* What must be framed (camera_bounds_point) relative to the box's centre,
 * in the camera frame: out[i] = (along right, along up, along forward). A
 * box reduced to a point becomes a unit cube so that fitting always has
 * something to fit. Returns the count; *out is malloc'd, the caller's. */
static int frame_points(const camera_bounds *b, const vec3 right, const vec3 up, const vec3 forward,
                        vec3 centre, vec3 **out)
{
    camera_bounds box = *b;
    bool degenerate = true;
    for (int k = 0; k < 3; k++) {
        assert(b->min[k] <= b->max[k]);
        centre[k] = 0.5f * (b->min[k] + b->max[k]);
        degenerate = degenerate && b->max[k] <= b->min[k];
    }
    if (degenerate) {
        box.points = NULL, box.point_count = 0;
        for (int k = 0; k < 3; k++)
            box.min[k] = centre[k] - 0.5f, box.max[k] = centre[k] + 0.5f;
    }
    const int n = camera_bounds_point_count(&box);
    vec3 *p = malloc((size_t)n * sizeof *p);
    assert(p && "camera: out of memory");
    for (int i = 0; i < n; i++) {
        vec3 w, c;
        camera_bounds_point(&box, i, w);
        glm_vec3_sub(w, centre, c);
        p[i][0] = glm_vec3_dot(c, (float *)right);
        p[i][1] = glm_vec3_dot(c, (float *)up);
        p[i][2] = glm_vec3_dot(c, (float *)forward);
    }
    *out = p;
    return n;
}

/* The apex of the narrowest symmetric wedge of half-angle atan(t) around
 * the forward axis that holds every corner, in the plane of one screen
 * axis (lateral coordinate `axis` = 0 for x, 1 for y) and forward: an eye
 * at lateral `*lateral` and forward `*along` sees the corners exactly
 * fill [-t, t] of that axis, centred. Each wedge side is the plane
 * lateral - t * forward = max over corners; the two sides meet at the apex. */
static void wedge_apex(const vec3 *corners, int n, int axis, float t, float *lateral, float *along)
{
    float m_pos = -INFINITY, m_neg = -INFINITY;
    for (int i = 0; i < n; i++) {
        float l = corners[i][axis], f = corners[i][2];
        m_pos = fmaxf(m_pos, l - t * f);
        m_neg = fmaxf(m_neg, -l - t * f);
    }
    *lateral = 0.5f * (m_pos - m_neg);
    *along = -(m_pos + m_neg) / (2.0f * t);
}

/* The half-angle tangent u in (0, t_max] whose wedge apex lies at `along`.
 * The apex moves forward monotonically as the wedge widens, so bisection
 * finds it; the caller guarantees apex(t_max) >= along. */
static float wedge_for_apex(const vec3 *corners, int n, int axis, float t_max, float along)
{
    float lo = 0.0f, hi = t_max;
    for (int i = 0; i < 48; i++) {
        float mid = 0.5f * (lo + hi), l, f;
        wedge_apex(corners, n, axis, mid, &l, &f);
        if (f < along)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

void camera_fit(camera *cam, const camera_bounds *bounds, float aspect)
{
    camera_fit_rect(cam, bounds, aspect, (camera_rect){0, 0, 1, 1});
}

void camera_fit_rect(camera *cam, const camera_bounds *bounds, float aspect, camera_rect rect)
{
    assert(cam && bounds && aspect > 0.0f);
    assert(rect.x0 >= 0 && rect.x1 <= 1 && rect.y0 >= 0 && rect.y1 <= 1 && rect.x1 > rect.x0 &&
           rect.y1 > rect.y0 && "a rectangle inside the view");
    if (!(cam->fov_y > 0.0f && cam->fov_y < PI_F))
        cam->fov_y = DEFAULT_FOV_Y;
    cam->pitch = clampf(cam->pitch, -PITCH_LIMIT, PITCH_LIMIT);

    vec3 right, up, forward, centre, *corners;
    camera_basis(cam->yaw, cam->pitch, right, up, forward);
    int n = frame_points(bounds, right, up, forward, centre, &corners);

    /* Both screen axes' tightest eyes; the one further back binds, and the
     * other axis is then centred with the narrower wedge that meets it. */
    /* The rectangle's share of the view narrows the wedges; the lens shift
     * then moves what they frame onto the rectangle. */
    float ty = tanf(0.5f * cam->fov_y) * FIT_FILL * (rect.y1 - rect.y0);
    float tx = tanf(0.5f * cam->fov_y) * FIT_FILL * aspect * (rect.x1 - rect.x0);
    cam->shift[0] = rect.x0 + rect.x1 - 1.0f;
    cam->shift[1] = 1.0f - (rect.y0 + rect.y1);
    float x_lat, x_along, y_lat, y_along;
    wedge_apex(corners, n, 0, tx, &x_lat, &x_along);
    wedge_apex(corners, n, 1, ty, &y_lat, &y_along);
    float along;
    if (x_along <= y_along) {
        along = x_along;
        float u = wedge_for_apex(corners, n, 1, ty, along);
        wedge_apex(corners, n, 1, u, &y_lat, &y_along);
    } else {
        along = y_along;
        float u = wedge_for_apex(corners, n, 0, tx, along);
        wedge_apex(corners, n, 0, u, &x_lat, &x_along);
    }

    /* The eye is centre + x_lat right + y_lat up + along forward; the target
     * is on its axis at the depth of the box's centre. */
    for (int k = 0; k < 3; k++)
        cam->target[k] = centre[k] + x_lat * right[k] + y_lat * up[k];
    cam->distance = clampf(-along, DISTANCE_MIN, DISTANCE_MAX);
    free(corners);
}

int camera_fit_best(camera *cam, const camera_bounds *bounds, float aspect,
                    const camera_rect *rects, int n)
{
    assert(cam && rects && n >= 1);
    camera best = *cam;
    int which = 0;
    for (int i = 0; i < n; i++) {
        camera c = *cam;
        camera_fit_rect(&c, bounds, aspect, rects[i]);
        if (i == 0 || c.distance < best.distance)
            best = c, which = i;
    }
    *cam = best;
    return which;
}

camera camera_preset_view(camera_preset preset, const camera_bounds *bounds, float aspect)
{
    return camera_preset_view_rect(preset, bounds, aspect, (camera_rect){0, 0, 1, 1});
}

camera camera_preset_view_rect(camera_preset preset, const camera_bounds *bounds, float aspect,
                               camera_rect rect)
{
    assert(preset >= 0 && preset < CAMERA_PRESET_COUNT && bounds);
    camera cam = {
        .yaw = PRESETS[preset].yaw, .pitch = PRESETS[preset].pitch, .fov_y = DEFAULT_FOV_Y};
    camera_bounds b = *bounds;
    float len = STAGE_FRACTION * (bounds->max[0] - bounds->min[0]);
    if (preset == CAMERA_PRESET_FIRST_STAGE)
        b.max[0] = bounds->min[0] + len;
    else if (preset == CAMERA_PRESET_LAST_STAGE)
        b.min[0] = bounds->max[0] - len;
    if (preset == CAMERA_PRESET_FIRST_STAGE || preset == CAMERA_PRESET_LAST_STAGE)
        b.points = NULL, b.point_count = 0; /* they describe the whole scene */
    camera_fit_rect(&cam, &b, aspect, rect);
    return cam;
}

camera camera_preset_view_best(camera_preset preset, const camera_bounds *bounds, float aspect,
                               const camera_rect *rects, int n)
{
    assert(rects && n >= 1);
    camera best = camera_preset_view_rect(preset, bounds, aspect, rects[0]);
    for (int i = 1; i < n; i++) {
        camera c = camera_preset_view_rect(preset, bounds, aspect, rects[i]);
        if (c.distance < best.distance)
            best = c;
    }
    return best;
}

const char *camera_preset_name(camera_preset preset)
{
    assert(preset >= 0 && preset < CAMERA_PRESET_COUNT);
    return PRESETS[preset].name;
}

int camera_preset_find(const char *name)
{
    for (int i = 0; name && i < CAMERA_PRESET_COUNT; i++)
        if (strcmp(name, PRESETS[i].name) == 0)
            return i;
    return -1;
}

void camera_orbit(camera *cam, float dx, float dy, float fb_height)
{
    assert(cam && fb_height > 0.0f);
    /* Dragging right turns the scene right (the eye goes left); dragging
     * down tilts the top of the scene towards the viewer (the eye rises). */
    float per_pixel = PI_F / fb_height;
    cam->yaw = wrap_angle(cam->yaw - dx * per_pixel);
    cam->pitch = clampf(cam->pitch + dy * per_pixel, -PITCH_LIMIT, PITCH_LIMIT);
}

void camera_pan(camera *cam, float dx, float dy, float fb_height)
{
    assert(cam && fb_height > 0.0f);
    vec3 right, up, forward;
    camera_basis(cam->yaw, cam->pitch, right, up, forward);
    /* World units per pixel in the plane through the target. The scene
     * follows the pointer, so the target moves the other way. */
    float per_pixel = 2.0f * cam->distance * tanf(0.5f * cam->fov_y) / fb_height;
    for (int k = 0; k < 3; k++)
        cam->target[k] += per_pixel * (-dx * right[k] + dy * up[k]);
}

void camera_zoom_limits(const camera *cam, const camera_bounds *bounds, float aspect,
                        float *min_distance, float *max_distance)
{
    assert(cam && bounds && aspect > 0.0f && min_distance && max_distance);
    camera fit = *cam;
    camera_fit(&fit, bounds, aspect);
    *min_distance = clampf(CAMERA_ZOOM_IN * fit.distance, DISTANCE_MIN, DISTANCE_MAX);
    *max_distance = clampf(CAMERA_ZOOM_OUT * fit.distance, DISTANCE_MIN, DISTANCE_MAX);
}

void camera_zoom(camera *cam, float steps, const camera_bounds *bounds, float aspect)
{
    assert(cam && bounds && aspect > 0.0f);
    float lo, hi, d = cam->distance;
    camera_zoom_limits(cam, bounds, aspect, &lo, &hi);
    float next = d * powf(0.9f, steps);
    if (!(next == next)) /* NaN steps: no zoom */
        return;
    /* The limit a zoom in this direction meets, or the distance itself when
     * it is already past it: zooming never moves further outside. */
    if (next > d)
        next = fminf(next, fmaxf(d, hi));
    else
        next = fmaxf(next, fminf(d, lo));
    cam->distance = clampf(next, DISTANCE_MIN, DISTANCE_MAX);
}

void camera_eye(const camera *cam, float eye[3])
{
    vec3 right, up, forward;
    camera_basis(cam->yaw, cam->pitch, right, up, forward);
    for (int k = 0; k < 3; k++)
        eye[k] = cam->target[k] - cam->distance * forward[k];
}

void camera_view_proj(const camera *cam, float aspect, float view[16], float proj[16],
                      float view_proj[16])
{
    assert(cam && aspect > 0.0f && cam->distance > 0.0f);
    vec3 eye, target = {cam->target[0], cam->target[1], cam->target[2]};
    vec3 world_up = {0.0f, 0.0f, 1.0f};
    camera_eye(cam, eye);
    /* A near plane 1/100 of the distance keeps a 24-bit depth buffer
     * precise over the whole fitted model (it spans about one distance)
     * while still letting the user zoom well into it. */
    mat4 v, p, vp;
    glm_lookat(eye, target, world_up, v);
    glm_perspective(cam->fov_y, aspect, cam->distance / 100.0f, cam->distance * 100.0f, p);
    /* The lens shift: every point moves by shift in normalised device
     * coordinates (clip x += shift x * w, and w = -z in view space). */
    p[2][0] = -cam->shift[0];
    p[2][1] = -cam->shift[1];
    glm_mat4_mul(p, v, vp);
    if (view)
        memcpy(view, v, sizeof v);
    if (proj)
        memcpy(proj, p, sizeof p);
    if (view_proj)
        memcpy(view_proj, vp, sizeof vp);
}

bool camera_project(const camera *cam, float aspect, const float world[3], int fb_width,
                    int fb_height, float *px, float *py)
{
    assert(cam && world && px && py);
    mat4 vp;
    camera_view_proj(cam, aspect, NULL, NULL, (float *)vp);
    vec4 w = {world[0], world[1], world[2], 1.0f}, clip;
    glm_mat4_mulv(vp, w, clip);
    if (!(clip[3] > 0.0f))
        return false;
    float nx = clip[0] / clip[3], ny = clip[1] / clip[3];
    *px = (0.5f * nx + 0.5f) * (float)fb_width;
    *py = (0.5f - 0.5f * ny) * (float)fb_height;
    return true;
}

camera camera_blend(const camera *from, const camera *to, float s)
{
    assert(from && to);
    if (!(s > 0.0f))
        return *from;
    if (s >= 1.0f)
        return *to;
    float e = s * s * (3.0f - 2.0f * s);
    camera c;
    for (int k = 0; k < 3; k++)
        c.target[k] = glm_lerp(from->target[k], to->target[k], e);
    c.yaw = wrap_angle(from->yaw + e * wrap_angle(to->yaw - from->yaw));
    c.pitch = glm_lerp(from->pitch, to->pitch, e);
    /* Geometric in distance: zooming by a factor takes equal time per
     * factor, so a long zoom does not rush at the start and crawl at the end. */
    c.distance = expf(glm_lerp(logf(from->distance), logf(to->distance), e));
    c.fov_y = glm_lerp(from->fov_y, to->fov_y, e);
    for (int k = 0; k < 2; k++)
        c.shift[k] = glm_lerp(from->shift[k], to->shift[k], e);
    return c;
}

/* ---- growing into the free area (camera_grow_clear) -------------------- */

enum { HULL_MAX = 256 };

static float cross2(const float o[2], const float a[2], const float b[2])
{
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

static int by_xy(const void *pa, const void *pb)
{
    const float *a = pa, *b = pb;
    return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : (a[1] > b[1]) - (a[1] < b[1]);
}

/* Andrew's monotone chain: the hull of n points (sorted in place), counter-
 * clockwise in a y-down frame as it comes; returns its size. */
static int convex_hull(float (*p)[2], int n, float (*out)[2])
{
    qsort(p, (size_t)n, sizeof *p, by_xy);
    int k = 0;
    for (int i = 0; i < n; i++) {
        while (k >= 2 && cross2(out[k - 2], out[k - 1], p[i]) <= 0)
            k--;
        memcpy(out[k++], p[i], sizeof *p);
    }
    for (int i = n - 2, lo = k + 1; i >= 0; i--) {
        while (k >= lo && cross2(out[k - 2], out[k - 1], p[i]) <= 0)
            k--;
        memcpy(out[k++], p[i], sizeof *p);
    }
    return k > 1 ? k - 1 : k;
}

/* Whether the convex polygon, moved by (dx, dy), meets the rectangle:
 * separating axes are the rectangle's two and the polygon's edge normals. */
static bool hull_meets(const float (*h)[2], int n, float dx, float dy, camera_rect r)
{
    float x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (int i = 0; i < n; i++) {
        x0 = fminf(x0, h[i][0] + dx), x1 = fmaxf(x1, h[i][0] + dx);
        y0 = fminf(y0, h[i][1] + dy), y1 = fmaxf(y1, h[i][1] + dy);
    }
    if (x1 <= r.x0 || x0 >= r.x1 || y1 <= r.y0 || y0 >= r.y1)
        return false;
    const float corners[4][2] = {{r.x0, r.y0}, {r.x1, r.y0}, {r.x1, r.y1}, {r.x0, r.y1}};
    for (int i = 0; i < n; i++) {
        const float *a = h[i], *b = h[(i + 1) % n];
        const float nx = b[1] - a[1], ny = a[0] - b[0];
        float pmin = INFINITY, pmax = -INFINITY, rmin = INFINITY, rmax = -INFINITY;
        for (int j = 0; j < n; j++) {
            const float v = (h[j][0] + dx) * nx + (h[j][1] + dy) * ny;
            pmin = fminf(pmin, v), pmax = fmaxf(pmax, v);
        }
        for (int j = 0; j < 4; j++) {
            const float v = corners[j][0] * nx + corners[j][1] * ny;
            rmin = fminf(rmin, v), rmax = fmaxf(rmax, v);
        }
        if (pmax <= rmin || rmax <= pmin)
            return false;
    }
    return true;
}

/* The hull, in fractions of the view (y down), of the bounds' points seen
 * by cam with no lens shift; 0 when a point is behind the eye. */
static int projected_hull(const camera *cam, const camera_bounds *b, float aspect, float (*hull)[2])
{
    float pts[HULL_MAX][2];
    camera c = *cam;
    c.shift[0] = c.shift[1] = 0;
    const int count = camera_bounds_point_count(b);
    int n = 0;
    for (int i = 0; i < count && n < HULL_MAX; i++) {
        float p[3], px, py;
        camera_bounds_point(b, i, p);
        if (!camera_project(&c, aspect, p, 1000, 1000, &px, &py))
            return 0;
        pts[n][0] = px / 1000.0f, pts[n][1] = py / 1000.0f, n++;
    }
    return n >= 3 ? convex_hull(pts, n, hull) : 0;
}

/* A move (dx, dy) of the hull that keeps it in `view` and off every
 * obstacle, the one nearest `want` on a grid; false when none. */
static bool clear_move(const float (*h)[2], int n, camera_rect view, const camera_rect *obs,
                       int n_obs, float want_x, float want_y, float *dx, float *dy)
{
    float x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (int i = 0; i < n; i++) {
        x0 = fminf(x0, h[i][0]), x1 = fmaxf(x1, h[i][0]);
        y0 = fminf(y0, h[i][1]), y1 = fmaxf(y1, h[i][1]);
    }
    const float lo_x = view.x0 - x0, hi_x = view.x1 - x1, lo_y = view.y0 - y0, hi_y = view.y1 - y1;
    if (lo_x > hi_x || lo_y > hi_y)
        return false;
    enum { STEPS_X = 33, STEPS_Y = 17 };
    bool found = false;
    float best = INFINITY;
    for (int i = 0; i < STEPS_X; i++)
        for (int j = 0; j < STEPS_Y; j++) {
            const float mx = lo_x + (hi_x - lo_x) * (float)i / (STEPS_X - 1);
            const float my = lo_y + (hi_y - lo_y) * (float)j / (STEPS_Y - 1);
            const float d = (mx - want_x) * (mx - want_x) + (my - want_y) * (my - want_y);
            if (d >= best)
                continue;
            bool clear = true;
            for (int k = 0; k < n_obs && clear; k++)
                clear = !hull_meets(h, n, mx, my, obs[k]);
            if (clear)
                best = d, *dx = mx, *dy = my, found = true;
        }
    return found;
}

float camera_grow_clear(camera *cam, const camera_bounds *bounds, float aspect, camera_rect view,
                        const camera_rect *obstacles, int n)
{
    assert(cam && bounds && aspect > 0 && (n == 0 || obstacles));
    float hull[HULL_MAX + 1][2];
    int h = projected_hull(cam, bounds, aspect, hull);
    if (h < 3)
        return 1;
    /* the move the fitted camera's shift makes: the search starts there */
    const float want_x = 0.5f * cam->shift[0], want_y = -0.5f * cam->shift[1];
    const camera start = *cam;
    float lo = 1, hi = 3, got_dx = want_x, got_dy = want_y;
    bool any = false;
    for (int it = 0; it < 12; it++) {
        const float k = it == 0 ? 1 : 0.5f * (lo + hi);
        camera c = start;
        c.distance = start.distance / k;
        h = projected_hull(&c, bounds, aspect, hull);
        float dx = 0, dy = 0;
        const bool ok = h >= 3 && clear_move((const float(*)[2])hull, h, view, obstacles, n, want_x,
                                             want_y, &dx, &dy);
        if (it == 0) {
            if (!ok)
                return 1; /* the fit itself is not clear: keep it as it is */
            any = true, got_dx = dx, got_dy = dy;
            continue;
        }
        if (ok) {
            lo = k, got_dx = dx, got_dy = dy, any = true;
        } else {
            hi = k;
        }
    }
    if (!any)
        return 1;
    cam->distance = start.distance / lo;
    cam->shift[0] = 2 * got_dx;
    cam->shift[1] = -2 * got_dy;
    return lo;
}
