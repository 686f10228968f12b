/* Tests of the viewer's state without a window: the commands applied to a
 * session of the default scenario (1F1B, P=4, M=8, D=2) and the window's
 * resizes, as the viewer's loop applies them.
 *
 *   - the camera follows the 3D view's aspect: a resize from 1280x720 to
 *     700x1000 keeps the whole scene (GPU 0 and GPU 3 among it) in view, and
 *     back to 1280x720 gives the camera it started with; a user's orbited
 *     view is kept and still shows all it showed; dragging the divider
 *     refits too;
 *   - the hover follows a still pointer through keyboard changes of the
 *     timeline (f, w, s, a, d), of time (Home, End) and of the camera;
 *   - the wheel's 3D zoom stays within the scene's limits;
 *   - the speed stays within the session's limits;
 *   - the legend never covers the HUD (frame_legend_place, the frame's rule)
 *     at the window sizes where it did: 700x1000 and 333x211. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"
#include "session.h"
#include "support/check.h"
#include "support/child.h"
#include "viewer_state.h"

static session *default_session(void)
{
    session *s = calloc(1, sizeof *s);
    ppf_error err = {{0}};
    if (!session_build(s, NULL, NULL, 0, &err) || !session_build_scene(s, &err))
        fail_msg("default session: %s", err.message);
    return s;
}

static void free_session(session *s)
{
    session_deinit(s);
    free(s);
}

static viewer_state state_for(const session *s, int w, int h)
{
    viewer_state v;
    viewer_state_init(&v, s, w, h);
    viewer_state_set_speed(&v, session_default_speed(s));
    viewer_state_place_timeline(&v);
    viewer_state_set_camera(&v, CAMERA_PRESET_DEFAULT);
    return v;
}

static void apply(viewer_state *v, command_kind kind, double a, double b)
{
    viewer_state_apply(v, &(command){kind, a, b}, 0);
}

/* Where the point lands in the 3D view (pixels from its top-left corner);
 * false when behind the eye. */
static bool project(const viewer_state *v, const float p[3], float *x, float *y)
{
    frame_layout l = viewer_state_layout(v);
    return camera_project(&v->camera.cam, l.view_w / l.view_h, p, (int)l.view_w, (int)l.view_h, x,
                          y);
}

static bool in_view(const viewer_state *v, const float p[3])
{
    frame_layout l = viewer_state_layout(v);
    float x, y;
    return project(v, p, &x, &y) && x >= 0 && y >= 0 && x <= l.view_w && y <= l.view_h;
}

/* Every point the camera frames (camera_bounds_point) is in the 3D view, and the GPU labels
 * of the first and last stage are where the frame puts them (over the
 * first replica). */
static void expect_scene_in_view(const viewer_state *v, const char *what)
{
    camera_bounds b = session_camera_bounds(v->s);
    for (int i = 0; i < camera_bounds_point_count(&b); i++) {
        float p[3], x, y;
        camera_bounds_point(&b, i, p);
        if (!in_view(v, p)) {
            bool front = project(v, p, &x, &y);
            fail_msg("%s (%dx%d): point %d of the scene at (%.1f, %.1f)%s, view %.0fx%.0f", what,
                     v->fb_w, v->fb_h, i, x, y, front ? "" : " behind the eye",
                     viewer_state_layout(v).view_w, viewer_state_layout(v).view_h);
        }
    }
    const scene *sc = &v->s->scene;
    const int stages[2] = {0, sc->stages - 1};
    for (int k = 0; k < 2; k++) {
        float x0, x1, y0, y1;
        scene_stage_x(sc, stages[k], &x0, &x1);
        scene_replica_y(sc, 0, &y0, &y1);
        float p[3] = {0.5f * (x0 + x1), y0, sc->d_model * 1.45f};
        if (!in_view(v, p))
            fail_msg("%s: the label of GPU %d is off screen", what, sc->stage_rank[stages[k]]);
    }
}

/* The scene's projected size across the area the HUD, legend and caption
 * leave (frame_layout_obstacles: the view down to the free area's foot), as
 * a fraction of its width and height, the larger of the two; 0 when a
 * point of the scene's outline lies under a card (one the layout keeps
 * clear) or out of that area. */
/* Whether a card lies over a free rectangle: a window too short for the
 * cards keeps a third of its view for the scene and lets them cover part of
 * it (frame.h, "Free area"). */
static bool covers_free(const frame_layout *l, camera_rect c)
{
    camera_rect free[FRAME_FREE_MAX];
    const int n = frame_layout_free_rects(l, free);
    for (int k = 0; k < n; k++)
        if (c.x0 < free[k].x1 && c.x1 > free[k].x0 && c.y0 < free[k].y1 && c.y1 > free[k].y0)
            return true;
    return false;
}

static float scene_fill(const viewer_state *v)
{
    camera_bounds b = session_camera_bounds(v->s);
    frame_layout l = viewer_state_layout(v);
    camera_rect area, cards[2];
    const int n_cards = frame_layout_obstacles(&l, &area, cards);
    float x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (int i = 0; i < camera_bounds_point_count(&b); i++) {
        float p[3], x, y;
        camera_bounds_point(&b, i, p);
        assert_true(project(v, p, &x, &y));
        const float u = x / l.view_w, w = y / l.view_h;
        for (int k = 0; k < n_cards && !covers_free(&l, cards[k]); k++)
            if (u > cards[k].x0 + 1e-3f && u < cards[k].x1 - 1e-3f && w > cards[k].y0 + 1e-3f &&
                w < cards[k].y1 - 1e-3f) {
                print_message("%dx%d: point %d (%.3f, %.3f) under card %d\n", v->fb_w, v->fb_h, i,
                              (double)u, (double)w, k);
                return 0;
            }
        x0 = fminf(x0, u), x1 = fmaxf(x1, u), y0 = fminf(y0, w), y1 = fmaxf(y1, w);
    }
    if (x0 < area.x0 - 1e-3f || x1 > area.x1 + 1e-3f || y0 < area.y0 - 1e-3f ||
        y1 > area.y1 + 1e-3f) {
        print_message("%dx%d: the scene x %.3f-%.3f y %.3f-%.3f leaves %.3f-%.3f x %.3f-%.3f\n",
                      v->fb_w, v->fb_h, (double)x0, (double)x1, (double)y0, (double)y1,
                      (double)area.x0, (double)area.x1, (double)area.y0, (double)area.y1);
        return 0;
    }
    const float fill = fmaxf((x1 - x0) / (area.x1 - area.x0), (y1 - y0) / (area.y1 - area.y0));
    print_message("%dx%d: the scene spans %.2f of the free area\n", v->fb_w, v->fb_h, (double)fill);
    return fill;
}

static void expect_same_camera(const camera *a, const camera *b, const char *what)
{
    bool same = fabsf(a->yaw - b->yaw) < 1e-5f && fabsf(a->pitch - b->pitch) < 1e-5f &&
                fabsf(a->distance - b->distance) < 1e-4f * b->distance;
    for (int k = 0; k < 3; k++)
        same = same && fabsf(a->target[k] - b->target[k]) < 1e-4f * b->distance;
    if (!same)
        fail_msg("%s: camera yaw %.4f pitch %.4f distance %.3f, want %.4f %.4f %.3f", what, a->yaw,
                 a->pitch, a->distance, b->yaw, b->pitch, b->distance);
}

static void test_resize_refits_the_camera(void **state)
{
    (void)state;
    session *s = default_session();
    viewer_state v = state_for(s, 1280, 720);
    const camera start = v.camera.cam;
    expect_scene_in_view(&v, "at the start");
    viewer_state_resize(&v, 700, 1000);
    expect_scene_in_view(&v, "after the resize to 700x1000");
    /* of the whole free area, an L round the cards: 0.59 at 700x1000 and
     * 0.69 at 1280x720 when this was written */
    assert_gt(scene_fill(&v), 0.5f);
    viewer_state_resize(&v, 1280, 720);
    expect_same_camera(&v.camera.cam, &start, "back at 1280x720");
    assert_gt(scene_fill(&v), 0.5f); /* not tiny */
    /* a wide, low window and a tiny one */
    viewer_state_resize(&v, 1900, 400);
    expect_scene_in_view(&v, "at 1900x400");
    viewer_state_resize(&v, 333, 211);
    expect_scene_in_view(&v, "at 333x211");
    /* minimised: nothing to fit, nothing asserts; restored: fitted */
    viewer_state_resize(&v, 0, 0);
    viewer_state_resize(&v, 700, 1000);
    expect_scene_in_view(&v, "restored at 700x1000");

    /* every preset, the one being moved to included */
    for (int p = 0; p < CAMERA_PRESET_COUNT; p++) {
        viewer_state_resize(&v, 1280, 720);
        apply(&v, CMD_PRESET, p, 0);
        viewer_state_resize(&v, 700, 1000);
        camera want = session_camera(s, (camera_preset)p, 700, 1000, v.look.split, v.look.ui_scale);
        expect_same_camera(&v.camera.cam, &want, camera_preset_name((camera_preset)p));
        expect_same_camera(&v.camera.to, &want, "the move's end");
    }
    /* key 0 (fit, keeping the direction) is fitted again too */
    viewer_state_resize(&v, 1280, 720);
    apply(&v, CMD_PRESET, CAMERA_PRESET_DEFAULT, 0);
    apply(&v, CMD_ORBIT, 200, 0);
    apply(&v, CMD_FIT_3D, 0, 0);
    viewer_state_resize(&v, 700, 1000);
    expect_scene_in_view(&v, "fitted with 0, then resized");
    /* the divider changes the view's aspect as a resize does */
    viewer_state_resize(&v, 1280, 720);
    apply(&v, CMD_PRESET, CAMERA_PRESET_DEFAULT, 0);
    apply(&v, CMD_SPLIT, 0.3 * 720, 0);
    expect_scene_in_view(&v, "with the divider at 30%");
    free_session(s);
}

static void test_resize_keeps_a_user_view(void **state)
{
    (void)state;
    session *s = default_session();
    viewer_state v = state_for(s, 1280, 720);
    apply(&v, CMD_ORBIT, 150, 40);
    apply(&v, CMD_ZOOM, 2, 0);
    apply(&v, CMD_PAN, 30, -10);
    const camera user = v.camera.cam;
    /* what the user sees: the corners in view, and the target's pixel */
    camera_bounds b = session_camera_bounds(s);
    bool seen[1024];
    assert_le(camera_bounds_point_count(&b), 1024);
    for (int i = 0; i < camera_bounds_point_count(&b); i++) {
        float p[3];
        camera_bounds_point(&b, i, p);
        seen[i] = in_view(&v, p);
    }
    viewer_state_resize(&v, 700, 1000);
    /* their direction and target, further back only as the narrower view needs */
    assert_near(v.camera.cam.yaw, user.yaw, 1e-6);
    assert_near(v.camera.cam.pitch, user.pitch, 1e-6);
    for (int k = 0; k < 3; k++)
        assert_near(v.camera.cam.target[k], user.target[k], 1e-6);
    assert_gt(v.camera.cam.distance, user.distance);
    for (int i = 0; i < camera_bounds_point_count(&b); i++) {
        float p[3];
        camera_bounds_point(&b, i, p);
        if (seen[i] && !in_view(&v, p))
            fail_msg("point %d was in view at 1280x720 and is lost at 700x1000", i);
    }
    /* back: their view exactly; a wider view keeps it as it is */
    viewer_state_resize(&v, 1280, 720);
    expect_same_camera(&v.camera.cam, &user, "back at 1280x720");
    viewer_state_resize(&v, 1900, 720);
    expect_same_camera(&v.camera.cam, &user, "wider");
    /* a preset ends the user's view: resizes fit again */
    apply(&v, CMD_PRESET, CAMERA_PRESET_TOP, 0);
    viewer_state_resize(&v, 700, 1000);
    camera want = session_camera(s, CAMERA_PRESET_TOP, 700, 1000, v.look.split, v.look.ui_scale);
    expect_same_camera(&v.camera.cam, &want, "a preset after the user's view");
    free_session(s);
}

/* The hover is what the timeline as it is now has under the pointer. */
static void expect_hover_fresh(viewer_state *v, const char *what)
{
    timeline_panel_hover h;
    viewer_state_place_timeline(v);
    if (!timeline_hit_at(&v->timeline, &v->s->tl, v->pointer.x, v->pointer.y, &h))
        h = (timeline_panel_hover){.kind = TIMELINE_HIT_NONE, .rank = -1, .index = -1};
    if (h.kind != v->pointer.hover.kind || h.rank != v->pointer.hover.rank ||
        h.index != v->pointer.hover.index)
        fail_msg("%s: hover kind %d rank %d index %d, the pointer is over kind %d rank %d index %d",
                 what, v->pointer.hover.kind, v->pointer.hover.rank, v->pointer.hover.index, h.kind,
                 h.rank, h.index);
}

/* The first point from (x, y) by steps of (dx, dy) pixels, inside the plot,
 * over a compute bar: its x (dx > 0) or its y (dy > 0); -1 when none. */
static double first_bar_on(const timeline_view *tv, const timeline *tl, double x, double y,
                           double dx, double dy)
{
    for (; x < tv->plot_x + tv->plot_w && y < tv->plot_y + tv->plot_h; x += dx, y += dy) {
        timeline_panel_hover h;
        if (timeline_hit_at(tv, tl, x, y, &h) && h.kind == TIMELINE_HIT_ACTION)
            return dx > 0 ? x : y;
    }
    return -1;
}

/* The caption follows the rank whose row the pointer is on, at t; while the
 * pointer's card describes one of that row's bars (at the pointer's time,
 * not t), the caption is the automatic one, so that two descriptions of
 * one rank at different moments never stand side by side. No card while
 * the cursor is dragged. */
static void test_caption_and_card_one_moment(void **state)
{
    (void)state;
    session *s = default_session();
    viewer_state v = state_for(s, 1280, 720);
    viewer_state_place_timeline(&v);
    const timeline_view *tv = &v.timeline;
    char status[192];
    /* rank 2's row: over a bar, then over its idle start (a bubble) */
    const double y = tv->row_y + 2.5 * tv->row_pitch;
    const double idle_x = tv->plot_x + 1;
    const double bar_x = first_bar_on(tv, &s->tl, tv->plot_x, y, 1, 0);
    assert_ge(bar_x, 0);
    apply(&v, CMD_HOVER, idle_x, y);
    assert_int_equal(v.pointer.hover.kind, TIMELINE_HIT_NONE);
    assert_int_equal(viewer_state_frame_view(&v, 0, status, sizeof status).caption_rank, 2);
    apply(&v, CMD_HOVER, bar_x, y);
    assert_int_equal(v.pointer.hover.kind, TIMELINE_HIT_ACTION);
    assert_int_equal(viewer_state_frame_view(&v, 0, status, sizeof status).caption_rank, -1);
    /* dragging the cursor over the bar: no card over the moving line; the
       first move after the drag brings it back */
    apply(&v, CMD_SCRUB, bar_x, 0);
    apply(&v, CMD_HOVER, bar_x, y);
    assert_int_equal(v.pointer.hover.kind, TIMELINE_HIT_NONE);
    viewer_state_frame_view(&v, 0, status, sizeof status);
    assert_int_equal(v.pointer.hover.kind, TIMELINE_HIT_NONE);
    apply(&v, CMD_HOVER, bar_x, y);
    assert_int_equal(v.pointer.hover.kind, TIMELINE_HIT_ACTION);
    free_session(s);
}

static void test_hover_follows_view_changes(void **state)
{
    (void)state;
    session *s = default_session();
    viewer_state v = state_for(s, 1280, 720);
    const timeline_view *tv = &v.timeline;
    /* a pointer over a compute bar of some rank, a third of the way in */
    const double x = tv->plot_x + 0.33 * tv->plot_w;
    const double y = first_bar_on(tv, &s->tl, x, tv->plot_y, 0, 1);
    assert_ge(y, 0);
    apply(&v, CMD_HOVER, x, y);
    assert_int_equal(v.pointer.hover.kind, TIMELINE_HIT_ACTION);
    /* keys, with the pointer still; each must leave the hover current, and
     * the timeline's keys must move another bar under it at least once */
    const struct {
        command_kind kind;
        double a, b;
        const char *what;
    } keys[] = {
        {CMD_TL_ZOOM, tv->plot_x + 0.8 * tv->plot_w, 3.0, "w (zoom in around another point)"},
        {CMD_TL_PAN, 0.1, 0, "d (pan)"},
        {CMD_TL_PAN, -0.3, 0, "a (pan)"},
        {CMD_TL_FIT, 0, 0, "f (fit)"},
        {CMD_TL_ZOOM, tv->plot_x + 0.8 * tv->plot_w, 1 / 1.25, "s (zoom out)"},
        {CMD_HOME, 0, 0, "Home"},
        {CMD_END, 0, 0, "End"},
        {CMD_PRESET, CAMERA_PRESET_TOP, 0, "a preset"},
        {CMD_SPLIT, 0.5 * 720, 0, "the divider"},
    };
    int changed = 0;
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        timeline_panel_hover before = v.pointer.hover;
        apply(&v, keys[k].kind, keys[k].a, keys[k].b);
        expect_hover_fresh(&v, keys[k].what);
        changed += before.index != v.pointer.hover.index || before.rank != v.pointer.hover.rank ||
                   before.kind != v.pointer.hover.kind;
    }
    assert_ge(changed, 3);
    /* a resize lays the panel out again: the hover follows */
    viewer_state_resize(&v, 900, 900);
    expect_hover_fresh(&v, "a resize");
    free_session(s);
}

static void test_zoom_and_speed_stay_in_range(void **state)
{
    (void)state;
    session *s = default_session();
    viewer_state v = state_for(s, 1280, 720);
    frame_layout l = viewer_state_layout(&v);
    camera_bounds b = session_camera_bounds(s);
    float lo, hi;
    camera_zoom_limits(&v.camera.cam, &b, l.view_w / l.view_h, &lo, &hi);
    /* the wheel's largest steps, as a script may send them (once 89419) */
    for (int k = 0; k < 3; k++)
        apply(&v, CMD_ZOOM, -60, 0);
    assert_le(v.camera.cam.distance, hi * 1.0001f);
    assert_gt(scene_fill(&v), 0.04f);
    expect_scene_in_view(&v, "zoomed out all the way");
    for (int k = 0; k < 5; k++)
        apply(&v, CMD_ZOOM, 100, 0);
    assert_ge(v.camera.cam.distance, lo * 0.9999f);
    /* speed: + and - keep to the session's limits, as --speed does */
    double smin, smax;
    session_speed_limits(s, &smin, &smax);
    for (int k = 0; k < 100; k++)
        apply(&v, CMD_SPEED, 1.5, 0);
    assert_near_rel(v.play.speed, smax, 1e-12);
    for (int k = 0; k < 200; k++)
        apply(&v, CMD_SPEED, 1 / 1.5, 0);
    assert_near_rel(v.play.speed, smin, 1e-12);
    viewer_state_set_speed(&v, 1e300);
    assert_near_rel(v.play.speed, smax, 1e-12);
    viewer_state_set_speed(&v, NAN);
    assert_near_rel(v.play.speed, smin, 1e-12);
    free_session(s);
}

static bool overlap(frame_rect a, frame_rect b)
{
    return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

static void test_legend_never_covers_the_hud(void **state)
{
    (void)state;
    /* the cards' sizes as the viewer draws them (body text 1/50 of the
     * height, 12 px at least): the HUD with "paused ×1", the legend's six rows */
    const int sizes[][2] = {{1280, 720}, {1920, 1080}, {700, 1000}, {333, 211},
                            {500, 900},  {2560, 600},  {16, 16}};
    int beside = 0, under = 0, hidden = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        frame_layout l = frame_layout_compute(sizes[k][0], sizes[k][1], 0, 1);
        float px = (float)l.body_px, gap = 0.6f * px;
        frame_rect hud = {l.view_x + gap, l.view_y + gap, l.view_x + gap + 26.0f * px,
                          l.view_y + gap + 4.8f * px};
        float w = 11.5f * px, h = 7.5f * px, bottom = l.view_y + l.view_h - 2.5f * px;
        frame_rect at;
        if (!frame_legend_place(&l, hud, w, h, gap, bottom, &at)) {
            hidden++;
            continue;
        }
        if (overlap(at, hud))
            fail_msg(
                "%dx%d: the legend (%.0f,%.0f)-(%.0f,%.0f) covers the HUD (%.0f,%.0f)-(%.0f,%.0f)",
                sizes[k][0], sizes[k][1], at.x0, at.y0, at.x1, at.y1, hud.x0, hud.y0, hud.x1,
                hud.y1);
        assert_true(at.x0 >= l.view_x && at.x1 <= l.view_x + l.view_w && at.y1 <= bottom);
        assert_near(at.x1 - at.x0, w, 1e-3);
        assert_near(at.y1 - at.y0, h, 1e-3);
        if (at.y0 >= hud.y1)
            under++;
        else
            beside++;
        if (sizes[k][0] == 1280 || sizes[k][0] == 1920) /* wide: the top-right corner */
            assert_near(at.y0, l.view_y + gap, 1e-3);
        if (sizes[k][0] == 700) /* tall: under the HUD */
            assert_ge(at.y0, hud.y1);
    }
    /* 333x211 and 16x16 have no room for it */
    assert_int_equal(hidden, 2);
    assert_true(beside >= 2 && under >= 2);
}

/* The state line is one line a terminal shows as text whatever a value in
 * it holds: a what-if's message or a name that came from a file, with an
 * escape sequence, a C1 control, a bidi override, a line separator or
 * invalid UTF-8, comes out escaped by quote.h's rule; the keys before it
 * are as they were. */
static void test_state_line_is_terminal_safe(void **state)
{
    (void)state;
    session *s = default_session();
    viewer_state v = state_for(s, 1280, 720);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    viewer_state_print_more(&v, 1280, 720,
                            "whatif_error=\x1b]0;owned\x07\x1b[31m\xC2\x9B"
                            "2J\xE2\x80\xAE"
                            "x\xE2\x80\xA8y\xFF name=\"a\\b\"",
                            f);
    fclose(f);
    assert_true(len > 0 && text[len - 1] == '\n');
    assert_int_equal(child_count_lines(text), 1);
    assert_terminal_safe(text, len);
    assert_true(strncmp(text, "t=0.000000 playing=0 ", 21) == 0);
    assert_non_null(strstr(text, " slide=1 whatif_error=\\x1B]0;owned\\x07\\x1B[31m\\xC2\\x9B2J"
                                 "\\u202Ex\\u2028y\\xFF name=\"a\\b\"\n"));
    free(text);
    free_session(s);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resize_refits_the_camera),
        cmocka_unit_test(test_resize_keeps_a_user_view),
        cmocka_unit_test(test_hover_follows_view_changes),
        cmocka_unit_test(test_caption_and_card_one_moment),
        cmocka_unit_test(test_zoom_and_speed_stay_in_range),
        cmocka_unit_test(test_legend_never_covers_the_hud),
        cmocka_unit_test(test_state_line_is_terminal_safe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
