/* test_camera.c - fitting, presets, input and blending of the orbit camera.
 *
 * Pure math: no GL context. Angles in radians unless a name says degrees. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "camera.h"
#include "support/check.h"

#define PI_F 3.14159265358979323846f
#define DEG(d) ((d) * (PI_F / 180.0f))

static const camera_bounds WIDE = {.min = {0.0f, 0.0f, -8.0f}, .max = {164.0f, 112.0f, 8.0f}};
static const camera_bounds LONG = {.min = {-500.0f, -50.0f, -8.0f}, .max = {500.0f, 50.0f, 8.0f}};

typedef struct extent {
    float min_x, max_x, min_y, max_y; /* projected corners, pixels */
    bool all_in_front;
} extent;

static extent project_corners(const camera *cam, const camera_bounds *b, int w, int h)
{
    extent e = {INFINITY, -INFINITY, INFINITY, -INFINITY, true};
    for (int i = 0; i < 8; i++) {
        float p[3] = {(i & 1) ? b->max[0] : b->min[0], (i & 2) ? b->max[1] : b->min[1],
                      (i & 4) ? b->max[2] : b->min[2]};
        float px, py;
        if (!camera_project(cam, (float)w / (float)h, p, w, h, &px, &py)) {
            e.all_in_front = false;
            continue;
        }
        e.min_x = fminf(e.min_x, px);
        e.max_x = fmaxf(e.max_x, px);
        e.min_y = fminf(e.min_y, py);
        e.max_y = fmaxf(e.max_y, py);
    }
    return e;
}

/* Every corner inside the viewport, the box filling at least 85% of one
 * axis, and centred (equal margins on the tight axis). */
static void check_fits(const camera *cam, const camera_bounds *b, int w, int h)
{
    extent e = project_corners(cam, b, w, h);
    print_message("%dx%d: x %.1f..%.1f y %.1f..%.1f\n", w, h, e.min_x, e.max_x, e.min_y, e.max_y);
    assert_true(e.all_in_front);
    assert_true(e.min_x >= 0.0f && e.max_x <= (float)w);
    assert_true(e.min_y >= 0.0f && e.max_y <= (float)h);
    float fill_x = (e.max_x - e.min_x) / (float)w, fill_y = (e.max_y - e.min_y) / (float)h;
    assert_ge(fmaxf(fill_x, fill_y), 0.85f);
    assert_near(0.5f * (e.min_x + e.max_x), 0.5f * (float)w, 0.01 * w);
    assert_near(0.5f * (e.min_y + e.max_y), 0.5f * (float)h, 0.01 * h);
}

static const int SIZES[][2] = {{1920, 1080}, {1600, 1200}, {1000, 1000}, {1080, 1920}};

static void test_default_fits_wide_box(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof SIZES / sizeof SIZES[0]; i++) {
        int w = SIZES[i][0], h = SIZES[i][1];
        camera cam = camera_preset_view(CAMERA_PRESET_DEFAULT, &WIDE, (float)w / (float)h);
        /* A three-quarter view from above and in front. */
        assert_true(cam.pitch > DEG(20.0f) && cam.pitch < DEG(45.0f));
        assert_true(cam.yaw < 0.0f && cam.yaw > DEG(-60.0f));
        check_fits(&cam, &WIDE, w, h);
    }
}

/* A box whose back-top corners are empty (an L in side view, like the
 * scene: a low, deep model with a tall stack at its front): fitting its
 * points frames them, centred, and never further than fitting the box. */
static void test_points_fit_tighter_than_their_box(void **state)
{
    (void)state;
    static const float pts[16][3] = {
        {0, 0, -8},  {164, 0, -8},  {0, 112, -8}, {164, 112, -8}, {0, 0, 8},  {164, 0, 8},
        {0, 112, 8}, {164, 112, 8}, {0, 0, 8},    {164, 0, 8},    {0, 12, 8}, {164, 12, 8},
        {0, 0, 80},  {164, 0, 80},  {0, 12, 80},  {164, 12, 80},
    };
    camera_bounds box = {.min = {0, 0, -8}, .max = {164, 112, 80}};
    camera_bounds with = box;
    with.points = pts, with.point_count = 16;
    for (size_t i = 0; i < sizeof SIZES / sizeof SIZES[0]; i++) {
        int w = SIZES[i][0], h = SIZES[i][1];
        float aspect = (float)w / (float)h;
        camera a = camera_preset_view(CAMERA_PRESET_DEFAULT, &box, aspect);
        camera b = camera_preset_view(CAMERA_PRESET_DEFAULT, &with, aspect);
        print_message("%dx%d: box %.1f points %.1f\n", w, h, a.distance, b.distance);
        /* Never further; at 16:9 the height binds and the empty corner
         * costs the box a tenth of the view. */
        assert_le(b.distance, a.distance * 1.0001f);
        if (w == 1920)
            assert_lt(b.distance, 0.93f * a.distance);
        extent e = {INFINITY, -INFINITY, INFINITY, -INFINITY, true};
        for (int k = 0; k < 16; k++) {
            float px, py;
            assert_true(camera_project(&b, aspect, pts[k], w, h, &px, &py));
            e.min_x = fminf(e.min_x, px), e.max_x = fmaxf(e.max_x, px);
            e.min_y = fminf(e.min_y, py), e.max_y = fmaxf(e.max_y, py);
        }
        assert_true(e.min_x >= 0 && e.max_x <= (float)w && e.min_y >= 0 && e.max_y <= (float)h);
        float fill_x = (e.max_x - e.min_x) / (float)w, fill_y = (e.max_y - e.min_y) / (float)h;
        assert_ge(fmaxf(fill_x, fill_y), 0.85f);
        assert_near(0.5f * (e.min_x + e.max_x), 0.5f * (float)w, 0.01 * w);
        assert_near(0.5f * (e.min_y + e.max_y), 0.5f * (float)h, 0.01 * h);
    }
}

static void test_default_fits_long_box(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof SIZES / sizeof SIZES[0]; i++) {
        int w = SIZES[i][0], h = SIZES[i][1];
        camera cam = camera_preset_view(CAMERA_PRESET_DEFAULT, &LONG, (float)w / (float)h);
        check_fits(&cam, &LONG, w, h);
    }
}

static void test_every_preset_fits(void **state)
{
    (void)state;
    for (int p = 0; p < CAMERA_PRESET_COUNT; p++) {
        camera_bounds b = WIDE;
        if (p == CAMERA_PRESET_FIRST_STAGE)
            b.max[0] = 16.4f;
        if (p == CAMERA_PRESET_LAST_STAGE)
            b.min[0] = 164.0f - 16.4f;
        camera cam = camera_preset_view(p, &WIDE, 16.0f / 9.0f);
        print_message("preset %s\n", camera_preset_name(p));
        check_fits(&cam, &b, 1920, 1080);
    }
}

static void test_stage_presets_are_closer(void **state)
{
    (void)state;
    camera all = camera_preset_view(CAMERA_PRESET_DEFAULT, &LONG, 16.0f / 9.0f);
    camera first = camera_preset_view(CAMERA_PRESET_FIRST_STAGE, &LONG, 16.0f / 9.0f);
    camera last = camera_preset_view(CAMERA_PRESET_LAST_STAGE, &LONG, 16.0f / 9.0f);
    assert_lt(first.distance, 0.5f * all.distance);
    assert_lt(last.distance, 0.5f * all.distance);
    assert_lt(first.target[0], -300.0f);
    assert_gt(last.target[0], 300.0f);
}

static void test_fit_keeps_direction(void **state)
{
    (void)state;
    camera cam = {.target = {1000.0f, -3.0f, 7.0f},
                  .yaw = 1.2f,
                  .pitch = -0.4f,
                  .distance = 3.0f,
                  .fov_y = DEG(50.0f)};
    camera_fit(&cam, &WIDE, 4.0f / 3.0f);
    assert_near(cam.yaw, 1.2f, 0.0);
    assert_near(cam.pitch, -0.4f, 0.0);
    assert_near(cam.fov_y, DEG(50.0f), 0.0);
    check_fits(&cam, &WIDE, 1600, 1200);
}

static void test_orbit_by_zero_is_identity(void **state)
{
    (void)state;
    camera cam = camera_preset_view(CAMERA_PRESET_DEFAULT, &WIDE, 1.5f);
    camera before = cam;
    camera_orbit(&cam, 0.0f, 0.0f, 720.0f);
    assert_memory_equal(&cam, &before, sizeof cam);
}

static void test_orbit_turns_and_clamps(void **state)
{
    (void)state;
    camera cam = camera_preset_view(CAMERA_PRESET_FRONT, &WIDE, 1.5f);
    /* A drag across the full height turns by half a turn. */
    camera_orbit(&cam, 720.0f, 0.0f, 720.0f);
    assert_near(fabsf(cam.yaw), PI_F, 1e-4);
    /* Pitch stops short of straight down and straight up. */
    camera_orbit(&cam, 0.0f, 1e5f, 720.0f);
    assert_true(cam.pitch < PI_F / 2.0f && cam.pitch > PI_F / 2.0f - 0.1f);
    camera_orbit(&cam, 0.0f, -1e5f, 720.0f);
    assert_true(cam.pitch > -PI_F / 2.0f && cam.pitch < -PI_F / 2.0f + 0.1f);
}

static void test_blend_endpoints_and_middle(void **state)
{
    (void)state;
    camera a = camera_preset_view(CAMERA_PRESET_DEFAULT, &WIDE, 1.5f);
    camera b = camera_preset_view(CAMERA_PRESET_TOP, &LONG, 1.5f);
    camera c0 = camera_blend(&a, &b, 0.0f), c1 = camera_blend(&a, &b, 1.0f);
    assert_memory_equal(&c0, &a, sizeof a);
    assert_memory_equal(&c1, &b, sizeof b);
    camera m = camera_blend(&a, &b, 0.5f);
    assert_true(m.pitch > fminf(a.pitch, b.pitch) && m.pitch < fmaxf(a.pitch, b.pitch));
    assert_gt(m.distance, fminf(a.distance, b.distance));
    assert_lt(m.distance, fmaxf(a.distance, b.distance));
    for (int k = 0; k < 3; k++) {
        if (a.target[k] == b.target[k])
            continue;
        assert_gt(m.target[k], fminf(a.target[k], b.target[k]));
        assert_lt(m.target[k], fmaxf(a.target[k], b.target[k]));
    }
}

static void test_blend_yaw_takes_short_way(void **state)
{
    (void)state;
    camera a = {
        .target = {0, 0, 0}, .yaw = DEG(350.0f), .pitch = 0.3f, .distance = 10.0f, .fov_y = 0.7f};
    camera b = a;
    b.yaw = DEG(10.0f);
    /* At the middle the yaw is 0 (mod 2 pi), not 180 degrees. */
    camera m = camera_blend(&a, &b, 0.5f);
    assert_near(remainderf(m.yaw, 2.0f * PI_F), 0.0f, 1e-4);
    /* And on the way it never strays more than 20 degrees from 0. */
    for (int i = 1; i < 10; i++) {
        camera c = camera_blend(&a, &b, (float)i / 10.0f);
        assert_le(fabsf(remainderf(c.yaw, 2.0f * PI_F)), DEG(10.0f) + 1e-4f);
    }
}

static void test_target_projects_to_centre(void **state)
{
    (void)state;
    for (int p = 0; p < CAMERA_PRESET_COUNT; p++) {
        camera cam = camera_preset_view(p, &LONG, 16.0f / 9.0f);
        float px, py;
        assert_true(camera_project(&cam, 16.0f / 9.0f, cam.target, 1920, 1080, &px, &py));
        assert_near(px, 960.0, 0.05);
        assert_near(py, 540.0, 0.05);
    }
}

static void test_project_behind_eye_fails(void **state)
{
    (void)state;
    camera cam = camera_preset_view(CAMERA_PRESET_FRONT, &WIDE, 1.0f);
    float eye[3], behind[3], px, py;
    camera_eye(&cam, eye);
    for (int k = 0; k < 3; k++)
        behind[k] = eye[k] + (eye[k] - cam.target[k]);
    assert_false(camera_project(&cam, 1.0f, behind, 100, 100, &px, &py));
}

static void test_eye_and_directions(void **state)
{
    (void)state;
    /* yaw 0, pitch 0: the eye is in front (-y) of the target, +x is to the
     * right of the screen and +z up. */
    camera cam = {
        .target = {0, 0, 0}, .yaw = 0.0f, .pitch = 0.0f, .distance = 10.0f, .fov_y = DEG(40.0f)};
    float eye[3], px, py;
    camera_eye(&cam, eye);
    assert_near(eye[0], 0.0, 1e-5);
    assert_near(eye[1], -10.0, 1e-5);
    assert_near(eye[2], 0.0, 1e-5);
    assert_true(camera_project(&cam, 1.0f, (float[3]){1, 0, 0}, 100, 100, &px, &py));
    assert_gt(px, 50.0f);
    assert_true(camera_project(&cam, 1.0f, (float[3]){0, 0, 1}, 100, 100, &px, &py));
    assert_lt(py, 50.0f);
    /* pitch > 0 looks down: the eye is above. */
    cam.pitch = 0.5f;
    camera_eye(&cam, eye);
    assert_gt(eye[2], 0.0f);
}

static void test_zoom(void **state)
{
    (void)state;
    const float aspect = 1.5f;
    camera cam = camera_preset_view(CAMERA_PRESET_DEFAULT, &WIDE, aspect);
    float d = cam.distance;
    camera_zoom(&cam, 1.0f, &WIDE, aspect);
    assert_near(cam.distance, 0.9 * d, 1e-3 * d);
    camera_zoom(&cam, -2.0f, &WIDE, aspect);
    assert_near(cam.distance, d / 0.9, 1e-3 * d);
    camera_zoom(&cam, 1e6f, &WIDE, aspect);
    assert_gt(cam.distance, 0.0f);
    camera_zoom(&cam, -1e6f, &WIDE, aspect);
    assert_true(isfinite(cam.distance));
    camera_zoom(&cam, NAN, &WIDE, aspect);
    assert_true(isfinite(cam.distance));
}

/* The viewer's `scroll -60` zoomed out to 89419 once, where the scene is a
 * dot: zoom stays within [0.1, 4] times the fit distance, at any aspect,
 * and at the far limit the scene is still a visible object. */
static void test_zoom_bounded_by_the_scene(void **state)
{
    (void)state;
    const camera_bounds *boxes[] = {&WIDE, &LONG};
    const float aspects[] = {1280.0f / 504.0f, 700.0f / 700.0f, 333.0f / 147.0f, 0.3f};
    for (int b = 0; b < 2; b++)
        for (int a = 0; a < 4; a++) {
            const int h = 600, w = (int)lrintf(h * aspects[a]);
            const float aspect = (float)w / (float)h;
            camera fit = camera_preset_view(CAMERA_PRESET_DEFAULT, boxes[b], aspect);
            float lo, hi;
            camera_zoom_limits(&fit, boxes[b], aspect, &lo, &hi);
            assert_near(lo, CAMERA_ZOOM_IN * fit.distance, 1e-4 * fit.distance);
            assert_near(hi, CAMERA_ZOOM_OUT * fit.distance, 1e-4 * fit.distance);
            camera out = fit, in = fit;
            camera_zoom(&out, -60.0f, boxes[b], aspect);
            camera_zoom(&in, 60.0f, boxes[b], aspect);
            assert_near(out.distance, hi, 1e-3 * hi);
            assert_near(in.distance, lo, 1e-3 * lo);
            /* the far limit still shows the scene: over 4% of the narrower side */
            extent e = project_corners(&out, boxes[b], w, h);
            assert_true(e.all_in_front);
            float size = fmaxf(e.max_x - e.min_x, e.max_y - e.min_y);
            if (!(size > 0.04f * (float)(w < h ? w : h)))
                fail_msg("box %d aspect %.2f: the scene is %.1f px across at the far limit", b,
                         aspect, size);
            assert_true(e.min_x >= 0 && e.max_x <= w && e.min_y >= 0 && e.max_y <= h);
            /* further zoom out stays put; in from beyond the limit comes back */
            camera_zoom(&out, -5.0f, boxes[b], aspect);
            assert_near(out.distance, hi, 1e-3 * hi);
            camera far = fit;
            far.distance = 3.0f * hi;
            camera_zoom(&far, -1.0f, boxes[b], aspect);
            assert_near(far.distance, 3.0f * hi, 1e-3 * hi);
            camera_zoom(&far, 1.0f, boxes[b], aspect);
            assert_near(far.distance, 2.7f * hi, 1e-3 * hi);
        }
}

static void test_pan_follows_pointer(void **state)
{
    (void)state;
    const int w = 1280, h = 720;
    const float aspect = (float)w / (float)h;
    camera cam = camera_preset_view(CAMERA_PRESET_DEFAULT, &WIDE, aspect);
    float old_target[3] = {cam.target[0], cam.target[1], cam.target[2]};
    camera_pan(&cam, 40.0f, -25.0f, (float)h);
    float px, py;
    assert_true(camera_project(&cam, aspect, old_target, w, h, &px, &py));
    assert_near(px, 640.0 + 40.0, 0.05);
    assert_near(py, 360.0 - 25.0, 0.05);
    /* Distance and direction are untouched. */
    camera ref = camera_preset_view(CAMERA_PRESET_DEFAULT, &WIDE, aspect);
    assert_near(cam.distance, ref.distance, 0.0);
    assert_near(cam.yaw, ref.yaw, 0.0);
}

static void test_names_round_trip(void **state)
{
    (void)state;
    static const char *const names[] = {"default", "front",       "top",        "side",    "back",
                                        "low",     "first-stage", "last-stage", "replicas"};
    assert_int_equal(sizeof names / sizeof names[0], CAMERA_PRESET_COUNT);
    for (int p = 0; p < CAMERA_PRESET_COUNT; p++) {
        assert_string_equal(camera_preset_name(p), names[p]);
        assert_int_equal(camera_preset_find(names[p]), p);
    }
    assert_int_equal(camera_preset_find("sideways"), -1);
    assert_int_equal(camera_preset_find(""), -1);
    assert_int_equal(camera_preset_find(NULL), -1);
}

static void test_view_proj_is_projection_times_view(void **state)
{
    (void)state;
    camera cam = camera_preset_view(CAMERA_PRESET_BACK, &WIDE, 1.5f);
    float v[16], p[16], vp[16];
    camera_view_proj(&cam, 1.5f, v, p, vp);
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            float sum = 0.0f;
            for (int k = 0; k < 4; k++)
                sum += p[k * 4 + r] * v[c * 4 + k];
            assert_near(vp[c * 4 + r], sum, 1e-3 * (1.0 + fabs(sum)));
        }
    /* The target is at depth between near and far: NDC z in (-1, 1). */
    float x = cam.target[0], y = cam.target[1], z = cam.target[2];
    float cz = vp[2] * x + vp[6] * y + vp[10] * z + vp[14];
    float cw = vp[3] * x + vp[7] * y + vp[11] * z + vp[15];
    assert_true(cw > 0.0f && fabsf(cz / cw) < 1.0f);
}

static void test_degenerate_bounds(void **state)
{
    (void)state;
    camera_bounds point = {.min = {3, 4, 5}, .max = {3, 4, 5}};
    camera cam = camera_preset_view(CAMERA_PRESET_DEFAULT, &point, 1.0f);
    assert_true(cam.distance > 0.0f && isfinite(cam.distance));
    camera_bounds flat = {.min = {0, 0, 0}, .max = {100, 50, 0}};
    cam = camera_preset_view(CAMERA_PRESET_TOP, &flat, 1.0f);
    check_fits(&cam, &flat, 800, 800);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_fits_wide_box),
        cmocka_unit_test(test_default_fits_long_box),
        cmocka_unit_test(test_points_fit_tighter_than_their_box),
        cmocka_unit_test(test_every_preset_fits),
        cmocka_unit_test(test_stage_presets_are_closer),
        cmocka_unit_test(test_fit_keeps_direction),
        cmocka_unit_test(test_orbit_by_zero_is_identity),
        cmocka_unit_test(test_orbit_turns_and_clamps),
        cmocka_unit_test(test_blend_endpoints_and_middle),
        cmocka_unit_test(test_blend_yaw_takes_short_way),
        cmocka_unit_test(test_target_projects_to_centre),
        cmocka_unit_test(test_project_behind_eye_fails),
        cmocka_unit_test(test_eye_and_directions),
        cmocka_unit_test(test_zoom),
        cmocka_unit_test(test_zoom_bounded_by_the_scene),
        cmocka_unit_test(test_pan_follows_pointer),
        cmocka_unit_test(test_names_round_trip),
        cmocka_unit_test(test_view_proj_is_projection_times_view),
        cmocka_unit_test(test_degenerate_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
