/* test_timeline_panel.c - the timeline panel: its view model (pure, on a real
 * 1F1B P=4 M=8 timeline with F=1, B=2) and its drawing into a headless
 * 640x200 framebuffer (cursor, an F bar and a bubble checked by colour).
 *
 * With PPFLOW_TIMELINE_PPM_DIR set, the GL test also writes the images it
 * draws there as PPM files, to look at. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "support/gl_fixture.h"
#include "support/run_fixture.h"
#include "timeline_panel.h"

/* A panel over a simulated schedule, and the view its owner keeps. */
typedef struct panel_run {
    run_fixture run;
    timeline_panel panel;
    timeline_view view; /* what the panel shows, as its owner (the viewer) keeps it */
} panel_run;

/* Simulates d and fits a view of it into (left, top, w, h) with text_px
 * pixel text. The panel points into x: x stays where it is until deinit. */
static void panel_run_init(panel_run *x, const run_fixture_desc *d, float left, float top, float w,
                           float h, float text_px)
{
    *x = (panel_run){0};
    run_fixture_init(&x->run, d);
    ppf_error err = {{0}};
    if (!timeline_panel_init(&x->panel, &x->run.tl, &err))
        fail_msg("timeline_panel_init: %s", err.message);
    timeline_panel_view_init(&x->view, &x->run.tl);
    timeline_view_set_rect(&x->view, left, top, w, h);
    timeline_view_set_text_px(&x->view, text_px);
}

static void panel_run_deinit(panel_run *x)
{
    timeline_panel_deinit(&x->panel);
    run_fixture_deinit(&x->run);
}

/* The index of (kind, micro-batch) in a rank's program, or fails. */
static int find_action(const program *p, int rank, action_kind kind, int mb)
{
    for (int k = 0; k < p->rank[rank].count; k++)
        if (p->rank[rank].actions[k].kind == kind && p->rank[rank].actions[k].microbatch == mb)
            return k;
    fail_msg("rank %d has no %s of micro-batch %d", rank, action_kind_name(kind), mb);
    return -1;
}

/* 1F1B P=4 M=8 in a 640x200 rectangle with 12-pixel text. */
static int setup_pure(void **state)
{
    static panel_run fx;
    panel_run_init(&fx, &(run_fixture_desc){.schedule = "1f1b", .P = 4, .M = 8, .V = 1}, 0, 0, 640,
                   200, 12);
    *state = &fx;
    return 0;
}

static int teardown_pure(void **state)
{
    panel_run_deinit(*state);
    return 0;
}

static void test_makespan_is_known(void **state)
{
    panel_run *fx = *state;
    assert_near(fx->run.tl.makespan, (8 + 4 - 1) * 3.0, 1e-12); /* (M + P - 1)(F + B) */
}

static void test_fit_shows_whole_makespan(void **state)
{
    panel_run *fx = *state;
    timeline_view *v = &fx->view;
    timeline_view_zoom(v, v->plot_x + 100, 3);
    timeline_view_pan_pixels(v, -50);
    timeline_view_fit(v);
    assert_near(v->t0, 0, 0);
    assert_near(v->t1, fx->run.tl.makespan, 0);
    assert_near(timeline_view_time_to_x(v, 0), v->plot_x, 1e-4);
    assert_near(timeline_view_time_to_x(v, fx->run.tl.makespan), v->plot_x + v->plot_w, 1e-4);
    /* the layout stays inside the panel, rows above the memory lane above the axis */
    assert_true(v->plot_x > v->x && v->plot_x + v->plot_w <= v->x + v->w);
    assert_true(v->row_y + v->ranks * v->row_pitch <= v->mem_y);
    assert_true(v->mem_y + v->mem_h <= v->axis_y + 0.01f);
    assert_true(v->axis_y + v->axis_h <= v->y + v->h + 0.01f);
    assert_true(v->bar_h > 0.5f * v->row_pitch);
}

static void test_time_x_round_trip(void **state)
{
    panel_run *fx = *state;
    timeline_view *v = &fx->view;
    timeline_view_fit(v);
    for (int z = 0; z < 3; z++) {
        for (double t = -0.5; t < 34; t += 0.37) {
            const double x = timeline_view_time_to_x(v, t);
            assert_near(timeline_view_x_to_time(v, x), t, 1e-9);
        }
        for (double x = 0; x < 640; x += 13.3)
            assert_near(timeline_view_time_to_x(v, timeline_view_x_to_time(v, x)), x, 1e-9);
        timeline_view_zoom(v, v->plot_x + 0.4 * v->plot_w, 2.5);
    }
    timeline_view_fit(v);
}

static void test_zoom_keeps_time_under_pointer(void **state)
{
    panel_run *fx = *state;
    timeline_view *v = &fx->view;
    timeline_view_fit(v);
    const double x = v->plot_x + 0.3 * v->plot_w;
    const double t = timeline_view_x_to_time(v, x);
    const double span = v->t1 - v->t0;
    timeline_view_zoom(v, x, 4);
    assert_near(timeline_view_x_to_time(v, x), t, 1e-9);
    assert_near(v->t1 - v->t0, span / 4, 1e-9);
    timeline_view_zoom(v, x, 0.5);
    assert_near(timeline_view_x_to_time(v, x), t, 1e-9);
    assert_near(v->t1 - v->t0, span / 2, 1e-9);

    /* the deepest zoom is makespan / 10000, the widest the range plus margins */
    timeline_view_zoom(v, x, 1e9);
    assert_near(v->t1 - v->t0, fx->run.tl.makespan / 10000, 1e-12);
    assert_near(timeline_view_x_to_time(v, x), t, 1e-9);
    timeline_view_zoom(v, x, 1e-9);
    assert_near(v->t0, -v->margin, 1e-9);
    assert_near(v->t1, fx->run.tl.makespan + v->margin, 1e-9);

    /* panning: a drag right shows earlier times, clamped at the margin */
    timeline_view_fit(v);
    timeline_view_zoom(v, x, 4);
    const double t0 = v->t0, px = (v->t1 - v->t0) / v->plot_w;
    timeline_view_pan_pixels(v, 20);
    assert_near(v->t0, t0 - 20 * px, 1e-9);
    timeline_view_pan_fraction(v, 0.5);
    assert_near(v->t0, t0 - 20 * px + 0.5 * (v->t1 - v->t0), 1e-9);
    timeline_view_pan_fraction(v, -100);
    assert_near(v->t0, -v->margin, 1e-9);
    timeline_view_pan_fraction(v, 100);
    assert_near(v->t1, fx->run.tl.makespan + v->margin, 1e-9);
    timeline_view_fit(v);
}

static void test_row_at_y(void **state)
{
    panel_run *fx = *state;
    const timeline_view *v = &fx->view;
    assert_int_equal(timeline_view_row_at_y(v, v->row_y - 1), -1);
    for (int r = 0; r < 4; r++)
        assert_int_equal(timeline_view_row_at_y(v, v->row_y + (r + 0.5) * v->row_pitch), r);
    assert_int_equal(timeline_view_row_at_y(v, v->row_y + 4.01 * v->row_pitch), -1);
    assert_int_equal(timeline_view_row_at_y(v, v->mem_y + 1), -1);
}

static void test_hit_bars_and_gaps(void **state)
{
    panel_run *fx = *state;
    const timeline_view *v = &fx->view;
    const timeline *tl = &fx->run.tl;
    timeline_panel_hover h;

    /* the middle of rank 1's forward of micro-batch 3 */
    const int k = find_action(&fx->run.p, 1, ACTION_F, 3);
    const action_time at = tl->time[1][k];
    const double x = timeline_view_time_to_x(v, 0.5 * (at.start + at.end));
    const double y = v->row_y + v->row_pitch + 0.5 * v->bar_h;
    assert_true(timeline_view_hit(v, tl, x, y, &h));
    assert_int_equal(h.kind, TIMELINE_HIT_ACTION);
    assert_int_equal(h.rank, 1);
    assert_int_equal(h.index, k);

    /* every compute action is hit at its middle */
    for (int r = 0; r < 4; r++) {
        for (int j = 0; j < fx->run.p.rank[r].count; j++) {
            if (!action_is_compute((action_kind)fx->run.p.rank[r].actions[j].kind))
                continue;
            const double tm = 0.5 * (tl->time[r][j].start + tl->time[r][j].end);
            assert_true(timeline_view_hit(v, tl, timeline_view_time_to_x(v, tm),
                                          v->row_y + (r + 0.3) * v->row_pitch, &h));
            assert_int_equal(h.rank, r);
            assert_int_equal(h.index, j);
        }
    }

    /* rank 3 waits for the first forward until t = 3: a bubble, no bar */
    assert_false(timeline_view_hit(v, tl, timeline_view_time_to_x(v, 1.5),
                                   v->row_y + 3 * v->row_pitch + 0.5 * v->bar_h, &h));
    assert_int_equal(h.kind, TIMELINE_HIT_NONE);
    assert_int_equal(h.rank, -1);
    /* under the bars (the gap between rows), left of the plot, the memory lane */
    assert_false(timeline_view_hit(v, tl, x, v->row_y + v->row_pitch + v->bar_h + 1, &h));
    assert_false(timeline_view_hit(v, tl, v->plot_x - 5, y, &h));
    assert_false(timeline_view_hit(v, tl, x, v->mem_y + 2, &h));
}

/* With two replicas each row keeps a lane under its bars for the all-reduces. */
static void test_hit_allreduce_lane(void **state)
{
    (void)state;
    panel_run x;
    panel_run_init(&x,
                   &(run_fixture_desc){
                       .schedule = "zb-h1", .P = 4, .M = 8, .p2p = 0.25, .D = 2, .allreduce = 1.5},
                   10, 20, 1000, 300, 14);
    const timeline_view *v = &x.view;
    assert_true(v->allreduce_lane && v->lane_h > 0);
    assert_int_equal(x.run.tl.allreduce_count, 4);
    for (int i = 0; i < x.run.tl.allreduce_count; i++) {
        const transfer *ar = &x.run.tl.allreduces[i];
        const double ax = timeline_view_time_to_x(v, 0.5 * (ar->start + ar->end));
        const double ay = v->row_y + ar->src_rank * v->row_pitch + v->lane_y + 0.5 * v->lane_h;
        timeline_panel_hover h;
        assert_true(timeline_view_hit(v, &x.run.tl, ax, ay, &h));
        assert_int_equal(h.kind, TIMELINE_HIT_ALLREDUCE);
        assert_int_equal(h.rank, ar->src_rank);
        assert_int_equal(h.index, i);
        /* the bar band above it holds the rank's actions, not the all-reduce */
        assert_false(timeline_view_hit(v, &x.run.tl, ax, ay - v->lane_h, &h) &&
                     h.kind == TIMELINE_HIT_ALLREDUCE);
    }
    panel_run_deinit(&x);
}

static void test_init_rejects_empty_timeline(void **state)
{
    (void)state;
    timeline zero = {0};
    timeline_panel panel = {0};
    ppf_error err = {0};
    assert_false(timeline_panel_init(&panel, &zero, &err));
    assert_non_null(strstr(err.message, "no ranks"));
    timeline_panel_deinit(&panel);
    timeline_panel_deinit(&panel);
    timeline_panel_deinit(NULL);
}

/* ---- drawing (headless GL) ---------------------------------------------- */

enum { W = 640, H = 200, BIG_W = 1280, BIG_H = 360 };

static const rgba8 UNDRAWN = {255, 0, 255, 255}; /* the clear colour: magenta stands out */

static int setup_gl(void **state)
{
    *state = gl_fixture_new(&(gl_fixture_desc){.width = W,
                                               .height = H,
                                               .font = {.sizes = {12, 18}, .size_count = 2},
                                               .dump_env = "PPFLOW_TIMELINE_PPM_DIR"});
    return *state ? 0 : -1;
}

/* Clears to UNDRAWN, draws the panel with font size `size`, reads back. */
static void render(gl_fixture *g, const panel_run *x, int size, const timeline_palette *pal,
                   double t, const timeline_panel_hover *hover)
{
    gl_fixture_begin(g, UNDRAWN);
    timeline_panel_draw(&x->panel, &x->view, &g->d, &g->font, size, pal, t, hover);
    gl_fixture_finish(g);
}

/* c over dst, straight alpha, as the blending does (the result's alpha aside). */
static rgba8 over(rgba8 c, rgba8 dst)
{
    return colour_mix(dst, c, c.a / 255.0f);
}

static void test_draw_cursor_bar_bubble(void **state)
{
    gl_fixture *g = *state;
    panel_run fx;
    panel_run_init(&fx, &(run_fixture_desc){.schedule = "1f1b", .P = 4, .M = 8, .V = 1}, 0, 0, W, H,
                   (float)g->font.sizes[0]);
    const timeline_view *v = &fx.view;
    gl_fixture_resize(g, W, H);
    const timeline_palette pal = theme_get(THEME_DARK).timeline;
    const double t = 13.25;
    render(g, &fx, 0, &pal, t, NULL);
    gl_fixture_dump(g, "timeline_1f1b_dark");

    /* nothing left undrawn inside the panel */
    for (int y = 0; y < H; y += 7)
        for (int x = 0; x < W; x += 5)
            if (rgba8_equal(gl_fixture_pixel(g, x, y), UNDRAWN))
                fail_msg("pixel (%d, %d) not drawn", x, y);

    /* the cursor's column, in the middle of row 2 and in the memory lane */
    const int cx = (int)floor(timeline_view_time_to_x(v, t));
    assert_pixel_rgb(g, cx, (int)(v->row_y + 2.5f * v->row_pitch), pal.cursor);
    assert_pixel_rgb(g, cx, (int)(v->mem_y + 0.5f * v->mem_h), pal.cursor);

    /* rank 0's forward of micro-batch 1, near its top-left corner (clear of the number) */
    const int k = find_action(&fx.run.p, 0, ACTION_F, 1);
    const int fx0 = (int)ceil(timeline_view_time_to_x(v, fx.run.tl.time[0][k].start)) + 2;
    const int fy0 = (int)ceil(v->row_y) + 2;
    assert_pixel_rgb(g, fx0, fy0, pal.f);

    /* rank 3 is idle until t = 3: the bubble's faint hatch over the row's
     * background, lighter than the row and no lighter than the full ink */
    const rgba8 row = pal.row_alt; /* odd rows */
    const rgba8 fill = over(colour_with_alpha(pal.bubble, (uint8_t)(pal.bubble.a * 2 / 5)), row);
    /* the ink replaces the fill on the stripes or goes over it: either is a bubble */
    const rgba8 ink = over(pal.bubble, row), ink_over = over(pal.bubble, fill);
    const int bx0 = (int)timeline_view_time_to_x(v, 0.5),
              bx1 = (int)timeline_view_time_to_x(v, 2.5);
    const int by0 = (int)(v->row_y + 3 * v->row_pitch) + 1;
    const int by1 = (int)(v->row_y + 3 * v->row_pitch + v->bar_h) - 1;
    int fills = 0, inks = 0;
    for (int y = by0; y < by1; y++)
        for (int x = bx0; x < bx1; x++) {
            const rgba8 c = gl_fixture_pixel(g, x, y);
            if (rgba8_distance(c, fill) <= 1)
                fills++;
            else if (rgba8_distance(c, ink) <= 1 || rgba8_distance(c, ink_over) <= 1)
                inks++;
            else if (c.g + 1 < fill.g || c.g > ink_over.g + 1)
                fail_msg("bubble pixel (%d, %d) = %d,%d,%d outside the shade %d..%d", x, y, c.r,
                         c.g, c.b, fill.g, ink_over.g);
        }
    print_message("bubble: %d fill pixels, %d ink pixels\n", fills, inks);
    assert_true(fills > 0 && inks > 0);

    /* the light theme and a hover tooltip, for the eye */
    const timeline_palette light = theme_get(THEME_LIGHT).timeline;
    timeline_panel_hover hover;
    const int kb = find_action(&fx.run.p, 2, ACTION_B, 2);
    const double hx =
        timeline_view_time_to_x(v, 0.5 * (fx.run.tl.time[2][kb].start + fx.run.tl.time[2][kb].end));
    assert_true(timeline_view_hit(v, &fx.run.tl, hx, v->row_y + 2.5 * v->row_pitch, &hover));
    render(g, &fx, 0, &light, t, &hover);
    gl_fixture_dump(g, "timeline_1f1b_light_hover");
    assert_pixel_rgb(g, cx, (int)(v->row_y + 0.5f * v->row_pitch), light.cursor);
    panel_run_deinit(&fx);
}

/* A large timeline zoomed out: bars merge into pixel columns (vertices
 * bounded by the width, not the action count), p2p arrows are skipped, and
 * a second frame allocates nothing. */
static void test_draw_dense_is_bounded(void **state)
{
    gl_fixture *g = *state;
    panel_run fx;
    panel_run_init(
        &fx,
        &(run_fixture_desc){
            .schedule = "1f1b", .P = 8, .M = 4096, .V = 1, .p2p = 0.05, .D = 2, .allreduce = 1.5},
        0, 0, W, H, (float)g->font.sizes[0]);
    timeline_view *v = &fx.view;
    gl_fixture_resize(g, W, H);
    const timeline_palette pal = theme_get(THEME_DARK).timeline;
    const double t = fx.run.tl.makespan * 0.4;
    render(g, &fx, 0, &pal, t, NULL);
    gl_fixture_dump(g, "timeline_dense");

    draw2d_begin(&g->d, W, H);
    timeline_panel_draw(&fx.panel, v, &g->d, &g->font, 0, &pal, t, NULL);
    const int vertices = g->d.count, capacity = g->d.capacity;
    draw2d_begin(&g->d, W, H);
    timeline_panel_draw(&fx.panel, v, &g->d, &g->font, 0, &pal, t, NULL);
    draw2d_flush(&g->d);
    print_message("dense: %ld actions, %d vertices\n", program_action_count(&fx.run.p), vertices);
    /* two quads per pixel column per rank (bars, memory), plus text and frame */
    assert_true(vertices < 8 * 2 * W * 6 + 6000);
    assert_int_equal(g->d.capacity, capacity);

    /* zoomed in, the same timeline shows single bars with numbers */
    timeline_view_zoom(v, v->plot_x + 0.5 * v->plot_w, 2000);
    render(g, &fx, 0, &pal, fx.run.tl.makespan * 0.5, NULL);
    gl_fixture_dump(g, "timeline_dense_zoomed");
    panel_run_deinit(&fx);
}

/* A bigger panel with every feature, for the eye: ZB-H1 (I and W), p2p
 * time (slanted arrows), two replicas (all-reduce lanes). */
static void test_draw_features(void **state)
{
    gl_fixture *g = *state;
    const struct {
        const char *file;
        run_fixture_desc run;
    } cases[] = {
        {"timeline_zbh1",
         {.schedule = "zb-h1", .P = 4, .M = 8, .p2p = 0.3, .D = 2, .allreduce = 1.5}},
        {"timeline_dualpipev", {.schedule = "dualpipev", .P = 4, .M = 10, .p2p = 0.1}},
        {"timeline_interleaved",
         {.schedule = "interleaved-1f1b",
          .P = 4,
          .M = 8,
          .V = 2,
          .p2p = 0.1,
          .D = 2,
          .allreduce = 1.5}},
    };
    gl_fixture_resize(g, BIG_W, BIG_H);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        panel_run fx;
        panel_run_init(&fx, &cases[c].run, 0, 0, BIG_W, BIG_H, (float)g->font.sizes[1]);
        const timeline_view *v = &fx.view;
        const timeline_palette pal = theme_get(THEME_DARK).timeline;
        const double t = fx.run.tl.makespan * 0.37;
        render(g, &fx, 1, &pal, t, NULL);
        gl_fixture_dump(g, cases[c].file);
        /* the cursor is drawn over whatever is at its column */
        const int cx = (int)floor(timeline_view_time_to_x(v, t));
        assert_pixel_rgb(g, cx, (int)(v->row_y + 0.5f * v->row_pitch), pal.cursor);
        panel_run_deinit(&fx);
    }
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest pure[] = {
        cmocka_unit_test(test_makespan_is_known),
        cmocka_unit_test(test_fit_shows_whole_makespan),
        cmocka_unit_test(test_time_x_round_trip),
        cmocka_unit_test(test_zoom_keeps_time_under_pointer),
        cmocka_unit_test(test_row_at_y),
        cmocka_unit_test(test_hit_bars_and_gaps),
        cmocka_unit_test(test_hit_allreduce_lane),
        cmocka_unit_test(test_init_rejects_empty_timeline),
    };
    const struct CMUnitTest gl[] = {
        cmocka_unit_test(test_draw_cursor_bar_bubble),
        cmocka_unit_test(test_draw_dense_is_bounded),
        cmocka_unit_test(test_draw_features),
    };
    int failed = cmocka_run_group_tests_name("view model", pure, setup_pure, teardown_pure);
    failed += cmocka_run_group_tests_name("drawing", gl, setup_gl, gl_fixture_teardown);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
