/* test_inspect_render.c - the inspection drawn over whole frames (headless,
 * the way the viewer and export draw them; render/inspect_overlay.h), on
 * 1F1B P=4 M=8 p2p 0.5 D=1:
 *   - a selected action's outline lies on its bar's edges, in the
 *     selection's colour, and is absent without a selection;
 *   - the critical path outlines its bars in its colour;
 *   - a highlighted micro-batch dims every other bar and leaves its own;
 *   - the selected action's objects are framed in 3D: the selection's
 *     colour appears round their projection;
 *   - the details card at 1920x1080: every line drawn, capitals at least
 *     22 px, no string overlapping another (HUD, legend, caption, labels).
 *   - the hover's tooltip lies over the critical path's outlines, none
 *     crossing it.
 * PPFLOW_INSPECT_PNG=FILE writes the 1920x1080 frame, to look at;
 * PPFLOW_TIP_PNG=FILE the tooltip's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image_png.h"
#include "inspect.h"
#include "offscreen.h"
#include "session.h"
#include "support/check.h"
#include "support/frame_fixture.h"

enum { W = 960, H = 540, MAX_RECTS = 4096 };

static const session_flag FLAGS[] = {
    {"schedule", "1f1b"}, {"stages", "4"}, {"microbatches", "8"}, {"p2p", "0.5"}, {"dp", "1"}};
enum { FLAG_COUNT = sizeof FLAGS / sizeof FLAGS[0] };

static frame_fixture *fixture(int w, int h)
{
    return frame_fixture_new(NULL, FLAGS, FLAG_COUNT, w, h);
}

static timeline_view placed(const frame_fixture *x, const frame_view *v)
{
    frame_layout l = frame_layout_of(v, x->o.width, x->o.height);
    timeline_view tv = v->timeline;
    if (!(tv.t1 > tv.t0))
        timeline_panel_view_init(&tv, &x->s.tl);
    frame_layout_place_timeline(&l, &tv);
    return tv;
}

static inspect_ref find(const timeline *tl, const char *text)
{
    for (int r = 0; r < tl->program->ranks; r++)
        for (int k = 0; k < tl->program->rank[r].count; k++) {
            char s[ACTION_TEXT_MAX];
            action_format(&tl->program->rank[r].actions[k], s);
            if (strcmp(s, text) == 0)
                return (inspect_ref){r, k};
        }
    fail_msg("no action %s", text);
    return (inspect_ref){-1, -1};
}

static bool near(const uint8_t *p, rgba8 c, int tol)
{
    return abs(p[0] - c.r) <= tol && abs(p[1] - c.g) <= tol && abs(p[2] - c.b) <= tol;
}

/* A bar's rectangle in the frame's pixels. */
typedef struct bar {
    float x0, x1, y0, y1;
} bar;

static bar bar_of(const timeline_view *tv, const timeline *tl, int rank, int index)
{
    const action_time *at = &tl->time[rank][index];
    const float y0 = tv->row_y + (float)rank * tv->row_pitch;
    return (bar){(float)timeline_view_time_to_x(tv, at->start),
                 (float)timeline_view_time_to_x(tv, at->end), y0, y0 + tv->bar_h};
}

/* Whether the outline in colour c runs just outside the bar: above its
 * middle, below it, left and right of its middle row. */
static int outline_sides(const frame_fixture *x, const bar *b, rgba8 c)
{
    const int xm = (int)lrintf(0.5f * (b->x0 + b->x1)), ym = (int)lrintf(0.5f * (b->y0 + b->y1));
    const uint8_t *probe[4] = {
        frame_fixture_pixel(x, xm, (int)floorf(b->y0) - 1),
        frame_fixture_pixel(x, xm, (int)ceilf(b->y1)),
        frame_fixture_pixel(x, (int)floorf(b->x0) - 1, ym),
        frame_fixture_pixel(x, (int)ceilf(b->x1), ym),
    };
    int n = 0;
    for (int k = 0; k < 4; k++) {
        n += near(probe[k], c, 8);
    }
    return n;
}

static void test_selection_outline(void **state)
{
    (void)state;
    frame_fixture *x = fixture(W, H);
    const timeline *tl = &x->s.tl;
    const rgba8 sel = theme_get(THEME_DARK).timeline.selection;
    frame_view v = offscreen_default_view(&x->o, 20, THEME_DARK, CAMERA_PRESET_DEFAULT);
    const timeline_view tv = placed(x, &v);
    static const char *const picks[] = {"1F3", "3F2", "0B7", "2B0"};
    for (size_t k = 0; k < sizeof picks / sizeof picks[0]; k++) {
        const inspect_ref r = find(tl, picks[k]);
        const bar b = bar_of(&tv, tl, r.rank, r.index);
        v.inspect = (inspect_overlay){0};
        frame_fixture_draw(x, &v);
        const int before = outline_sides(x, &b, sel);
        const int ix = (int)ceilf(b.x0) + 2, iy = (int)ceilf(b.y0) + 2; /* inside the bar */
        uint8_t inside[4];
        memcpy(inside, frame_fixture_pixel(x, ix, iy), 4);
        v.inspect.selected = (timeline_panel_hover){TIMELINE_HIT_ACTION, r.rank, r.index};
        frame_fixture_draw(x, &v);
        const int after = outline_sides(x, &b, sel);
        print_message("%s: %d of 4 sides in the selection's colour (%d without)\n", picks[k], after,
                      before);
        /* all four, but a side the plot's edge cuts off (0B7 ends the iteration) */
        const int cut = (ceilf(b.x1) >= tv.plot_x + tv.plot_w) + (floorf(b.x0) - 1 < tv.plot_x);
        assert_int_equal(after, 4 - cut);
        assert_le(before, 1);
        /* the bar itself is not covered */
        assert_memory_equal(frame_fixture_pixel(x, ix, iy), inside, 3);
    }
    frame_fixture_free(x);
}

/* A frame of the fixture at t = 20 with the critical path marked: the
 * inspection and its path, the view and its placed timeline. */
typedef struct critical_frame {
    frame_fixture *x;
    inspect in;
    inspect_path path;
    frame_view v;
    timeline_view tv;
} critical_frame;

static void critical_frame_init(critical_frame *c)
{
    c->x = fixture(W, H);
    inspect_init(&c->in, &c->x->s.tl);
    inspect_path_init(&c->path, &c->in);
    c->v = offscreen_default_view(&c->x->o, 20, THEME_DARK, CAMERA_PRESET_DEFAULT);
    c->tv = placed(c->x, &c->v);
    c->v.inspect.critical = &c->path;
}

static void critical_frame_deinit(critical_frame *c)
{
    inspect_path_deinit(&c->path);
    inspect_deinit(&c->in);
    frame_fixture_free(c->x);
}

static void test_critical_path_and_microbatch(void **state)
{
    (void)state;
    critical_frame cf;
    critical_frame_init(&cf);
    frame_fixture *x = cf.x;
    const timeline *tl = &x->s.tl;
    const timeline_palette pal = theme_get(THEME_DARK).timeline;
    const inspect_path path = cf.path;
    frame_view v = cf.v;
    const timeline_view tv = cf.tv;
    frame_fixture_draw(x, &v);
    int steps = 0, marked = 0;
    for (int k = 0; k < path.count; k++) {
        if (path.steps[k].kind != INSPECT_STEP_ACTION)
            continue;
        const bar b = bar_of(&tv, tl, path.steps[k].rank, path.steps[k].index);
        const uint8_t *p =
            frame_fixture_pixel(x, (int)lrintf(0.5f * (b.x0 + b.x1)), (int)floorf(b.y0) - 1);
        steps++;
        marked += near(p, pal.critical, 8);
    }
    print_message("critical path: %d of %d bars marked\n", marked, steps);
    assert_ge(steps, 8);
    assert_int_equal(marked, steps);

    /* micro-batch 3 lit: its bars keep their colour, 1F4's is dimmed */
    v.inspect = (inspect_overlay){.show_microbatch = true, .microbatch = 3};
    frame_fixture_draw(x, &v);
    uint8_t lit[4], dim[4];
    const inspect_ref a = find(tl, "1F3"), o = find(tl, "1F4");
    const bar ba = bar_of(&tv, tl, a.rank, a.index), bo = bar_of(&tv, tl, o.rank, o.index);
    const int ya = (int)lrintf(ba.y0 + 2), yo = (int)lrintf(bo.y0 + 2);
    memcpy(lit, frame_fixture_pixel(x, (int)lrintf(ba.x0 + 3), ya), 4);
    memcpy(dim, frame_fixture_pixel(x, (int)lrintf(bo.x0 + 3), yo), 4);
    v.inspect = (inspect_overlay){0};
    frame_fixture_draw(x, &v);
    const uint8_t *plain_a = frame_fixture_pixel(x, (int)lrintf(ba.x0 + 3), ya);
    assert_true(near(lit, (rgba8){plain_a[0], plain_a[1], plain_a[2], 255}, 4));
    const uint8_t *plain_o = frame_fixture_pixel(x, (int)lrintf(bo.x0 + 3), yo);
    const int bright_o = plain_o[0] + plain_o[1] + plain_o[2],
              bright_dim = dim[0] + dim[1] + dim[2];
    print_message("1F4 dimmed from %d to %d\n", bright_o, bright_dim);
    assert_lt(bright_dim, bright_o * 0.6);

    critical_frame_deinit(&cf);
}

/* Pixels of colour c inside the projected rectangle of the action's slice. */
static int count_in_3d(const frame_fixture *x, const frame_view *v, int rank, int index, rgba8 c)
{
    const scene *s = &x->s.scene;
    const action *a = &x->s.tl.program->rank[rank].actions[index];
    frame_layout l = frame_layout_of(v, x->o.width, x->o.height);
    float x0 = 1e9f, y0 = 1e9f, x1 = -1e9f, y1 = -1e9f;
    for (int layer = a->stage * s->layers_per_stage; layer < (a->stage + 1) * s->layers_per_stage;
         layer++) {
        const scene_box b = scene_object_box(s, SCENE_MATMUL1, layer, a->microbatch, 0);
        for (int k = 0; k < 8; k++) {
            const float w[3] = {k & 1 ? b.max[0] : b.min[0], k & 2 ? b.max[1] : b.min[1],
                                k & 4 ? s->d_model : -s->d_model};
            float px, py;
            assert_true(camera_project(&v->cam, l.view_w / l.view_h, w, (int)l.view_w,
                                       (int)l.view_h, &px, &py));
            x0 = fminf(x0, px + l.view_x), x1 = fmaxf(x1, px + l.view_x);
            y0 = fminf(y0, py + l.view_y), y1 = fmaxf(y1, py + l.view_y);
        }
    }
    int n = 0;
    for (int py = (int)y0 - 4; py <= (int)y1 + 4; py++)
        for (int px = (int)x0 - 4; px <= (int)x1 + 4; px++)
            if (px >= 0 && py >= 0 && px < x->o.width && py < (int)(l.view_y + l.view_h))
                n += near(frame_fixture_pixel(x, px, py), c, 8);
    return n;
}

/* The hover's tooltip over the critical path: opaque and drawn after the
 * path's outlines, none of which crosses it. The first hovered bar (rank 1
 * and down) whose tooltip, above it, covers the path's outlines on the row
 * above: in the box, no pixel has the path's colour, where without the
 * hover some have. */
static void test_tooltip_over_critical_path(void **state)
{
    (void)state;
    critical_frame cf;
    critical_frame_init(&cf);
    const rgba8 path_colour = theme_get(THEME_DARK).timeline.critical;
    frame_fixture *x = cf.x;
    const timeline *tl = &x->s.tl;
    const text_font *font = &x->o.frame.font;
    frame_view v = cf.v;
    const timeline_view tv = cf.tv;
    int tried = 0;
    for (int at = 0; at < 4 * 64 && !tried; at++) {
        const int rank = 1 + at / 64, k = at % 64;
        if (rank >= tl->program->ranks || k >= tl->program->rank[rank].count)
            continue;
        const bar b = bar_of(&tv, tl, rank, k);
        char text[256];
        timeline_describe_action(tl, rank, k, text, sizeof text);
        v.hover = (timeline_panel_hover){.kind = TIMELINE_HIT_NONE, .rank = -1, .index = -1};
        frame_fixture_draw(x, &v); /* and the font at this frame's sizes */
        /* the box as the panel places it (render/timeline_panel.c) */
        const float font_px = (float)font->sizes[FRAME_FONT_SMALL];
        const float w = text_width(font, FRAME_FONT_SMALL, text) + tv.em, bh = font_px * 1.6f;
        float bx = 0.5f * (fmaxf(b.x0, tv.plot_x) + fminf(b.x1, tv.plot_x + tv.plot_w)) - w * 0.5f;
        bx = fmaxf(fminf(bx, tv.x + tv.w - w), tv.x);
        const float by = b.y0 - bh - tv.em * 0.3f;
        if (by < tv.y)
            continue;
        int under = 0; /* the path's pixels where the box goes */
        for (int py = (int)ceilf(by) + 2; py < (int)(by + bh) - 2; py++)
            for (int px = (int)ceilf(bx) + 2; px < (int)(bx + w) - 2; px++)
                under += near(frame_fixture_pixel(x, px, py), path_colour, 8);
        if (under == 0)
            continue;
        tried++;
        v.hover = (timeline_panel_hover){TIMELINE_HIT_ACTION, rank, k};
        frame_fixture_draw(x, &v);
        int over = 0;
        for (int py = (int)ceilf(by) + 2; py < (int)(by + bh) - 2; py++)
            for (int px = (int)ceilf(bx) + 2; px < (int)(bx + w) - 2; px++)
                over += near(frame_fixture_pixel(x, px, py), path_colour, 8);
        const char *png = getenv("PPFLOW_TIP_PNG");
        if (png) {
            ppf_error err = {{0}};
            assert_true(image_write_png(png, x->pixels, W, H, 0, false, &err));
            print_message("box (%.1f,%.1f) %.1f x %.1f\n", bx, by, w, bh);
        }
        print_message("rank %d action %d: %d path pixels under the tooltip's box, %d in it\n", rank,
                      k, under, over);
        assert_int_equal(over, 0);
    }
    assert_int_equal(tried, 1);
    critical_frame_deinit(&cf);
}

static void test_selection_in_3d(void **state)
{
    (void)state;
    frame_fixture *x = fixture(W, H);
    const rgba8 sel = theme_get(THEME_DARK).timeline.selection;
    frame_view v = offscreen_default_view(&x->o, 13, THEME_DARK, CAMERA_PRESET_DEFAULT);
    v.bare = true; /* no labels: only the scene and the frame */
    const inspect_ref r = find(&x->s.tl, "1F3");
    frame_fixture_draw(x, &v);
    const int before = count_in_3d(x, &v, r.rank, r.index, sel);
    v.inspect.selected = (timeline_panel_hover){TIMELINE_HIT_ACTION, r.rank, r.index};
    frame_fixture_draw(x, &v);
    const int after = count_in_3d(x, &v, r.rank, r.index, sel);
    print_message("selection's colour round 1F3's objects: %d pixels (%d without)\n", after,
                  before);
    assert_gt(after, before + 100);
    frame_fixture_free(x);
}

static void test_details_card_legible(void **state)
{
    (void)state;
    frame_fixture *x = fixture(1920, 1080);
    static text_rect rects[MAX_RECTS];
    text_stats stats = {.rects = rects, .rect_capacity = MAX_RECTS};
    x->o.frame.font.stats = &stats;
    inspect in;
    inspect_init(&in, &x->s.tl);
    inspect_path path;
    inspect_path_init(&path, &in);
    const inspect_ref r = find(&x->s.tl, "1F3");
    inspect_text details;
    inspect_text_action(&in, r.rank, r.index, &details);
    for (int theme = 0; theme < THEME_COUNT; theme++) {
        for (int k = 0; k < 3; k++) {
            frame_view v =
                offscreen_default_view(&x->o, 13.0 + 9 * k, (theme_id)theme, CAMERA_PRESET_DEFAULT);
            text_stats_reset(&stats);
            frame_fixture_draw(x, &v);
            const int plain = stats.count;
            v.inspect = (inspect_overlay){
                .selected = {TIMELINE_HIT_ACTION, r.rank, r.index},
                .critical = &path,
                .details = &details,
            };
            text_stats_reset(&stats);
            frame_fixture_draw(x, &v);
            print_message("theme %d t=%.0f: %d strings (%d without the card), smallest capital "
                          "%.1f px\n",
                          theme, v.t, stats.count, plain, stats.min_cap_px);
            /* every line of the card drawn; 3D labels it covers give way */
            assert_ge(stats.count, plain + details.count - 6);
            assert_ge(stats.min_cap_px, 22.0f);
            assert_int_equal(frame_text_overlaps(&stats, "details card"), 0);
            const char *png = getenv("PPFLOW_INSPECT_PNG");
            if (png && theme == 0 && k == 0) {
                ppf_error err = {{0}};
                assert_true(image_write_png(png, x->pixels, 1920, 1080, 0, false, &err));
            }
        }
    }
    x->o.frame.font.stats = NULL;
    inspect_path_deinit(&path);
    inspect_deinit(&in);
    frame_fixture_free(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_selection_outline),
        cmocka_unit_test(test_critical_path_and_microbatch),
        cmocka_unit_test(test_tooltip_over_critical_path),
        cmocka_unit_test(test_selection_in_3d),
        cmocka_unit_test(test_details_card_legible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
