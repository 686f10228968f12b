/* test_timeline_panel.c - the timeline panel: its view model (pure, on a real
 * 1F1B P=4 M=8 timeline with F=1, B=2) and its drawing into a headless
 * 640x200 framebuffer (cursor, an F bar and a bubble checked by colour).
 *
 * With PPFLOW_TIMELINE_PPM_DIR set, the GL test also writes the images it
 * draws there as PPM files, to look at. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <glad/gl.h>

#include "draw2d.h"
#include "gl_context.h"
#include "render_target.h"
#include "schedules.h"
#include "text.h"
#include "timeline.h"
#include "timeline_panel.h"

#define assert_near(got, want, tol)                                                                \
    do {                                                                                           \
        double g_ = (got), w_ = (want);                                                            \
        if (!(fabs(g_ - w_) <= (tol)))                                                             \
            fail_msg("%s = %.12g, expected %s = %.12g", #got, g_, #want, w_);                      \
    } while (0)

typedef struct run {
    program p;
    timeline_costs c;
    timeline tl;
} run;

/* Generates and simulates a schedule with the default costs (F=1, B=2,
 * I=W=1) and an optional p2p time and all-reduce over dp replicas. */
static void run_make(run *x, const char *name, int P, int M, int V, double p2p, int dp)
{
    ppf_error err = {0};
    if (!schedule_generate(name, &(schedule_params){.ranks = P, .microbatches = M,
                                                    .stages_per_rank = V},
                           &x->p, &err))
        fail_msg("%s: %s", name, err.message);
    timeline_costs_init(&x->c, P);
    for (int r = 0; r < P; r++)
        x->c.p2p[r] = p2p;
    if (dp > 1) {
        x->c.dp = dp;
        x->c.allreduce = (allreduce_cost){.mode = ALLREDUCE_TIME, .time = 1.5};
    }
    if (!timeline_simulate(&x->tl, &x->p, &x->c, &err))
        fail_msg("%s: %s", name, err.message);
}

static void run_free(run *x)
{
    timeline_deinit(&x->tl);
    timeline_costs_deinit(&x->c);
    program_deinit(&x->p);
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

/* A panel over 1F1B P=4 M=8 in a 640x200 rectangle with 12-pixel text. */
typedef struct fixture {
    run x;
    timeline_panel panel;
    timeline_view view; /* what the panel shows, as its owner (the viewer) keeps it */
} fixture;

static int setup_pure(void **state)
{
    static fixture fx;
    memset(&fx, 0, sizeof fx);
    run_make(&fx.x, "1f1b", 4, 8, 1, 0, 1);
    ppf_error err = {0};
    if (!timeline_panel_init(&fx.panel, &fx.x.tl, &err)) {
        print_error("timeline_panel_init: %s\n", err.message);
        return -1;
    }
    timeline_panel_view_init(&fx.view, &fx.x.tl);
    timeline_view_set_rect(&fx.view, 0, 0, 640, 200);
    timeline_view_set_text_px(&fx.view, 12);
    *state = &fx;
    return 0;
}

static int teardown_pure(void **state)
{
    fixture *fx = *state;
    timeline_panel_deinit(&fx->panel);
    run_free(&fx->x);
    return 0;
}

static void test_makespan_is_known(void **state)
{
    fixture *fx = *state;
    assert_near(fx->x.tl.makespan, (8 + 4 - 1) * 3.0, 1e-12); /* (M + P - 1)(F + B) */
}

static void test_fit_shows_whole_makespan(void **state)
{
    fixture *fx = *state;
    timeline_view *v = &fx->view;
    timeline_view_zoom(v, v->plot_x + 100, 3);
    timeline_view_pan_pixels(v, -50);
    timeline_view_fit(v);
    assert_near(v->t0, 0, 0);
    assert_near(v->t1, fx->x.tl.makespan, 0);
    assert_near(timeline_view_time_to_x(v, 0), v->plot_x, 1e-4);
    assert_near(timeline_view_time_to_x(v, fx->x.tl.makespan), v->plot_x + v->plot_w, 1e-4);
    /* the layout stays inside the panel, rows above the memory lane above the axis */
    assert_true(v->plot_x > v->x && v->plot_x + v->plot_w <= v->x + v->w);
    assert_true(v->row_y + v->ranks * v->row_pitch <= v->mem_y);
    assert_true(v->mem_y + v->mem_h <= v->axis_y + 0.01f);
    assert_true(v->axis_y + v->axis_h <= v->y + v->h + 0.01f);
    assert_true(v->bar_h > 0.5f * v->row_pitch);
}

static void test_time_x_round_trip(void **state)
{
    fixture *fx = *state;
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
    fixture *fx = *state;
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
    assert_near(v->t1 - v->t0, fx->x.tl.makespan / 10000, 1e-12);
    assert_near(timeline_view_x_to_time(v, x), t, 1e-9);
    timeline_view_zoom(v, x, 1e-9);
    assert_near(v->t0, -v->margin, 1e-9);
    assert_near(v->t1, fx->x.tl.makespan + v->margin, 1e-9);

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
    assert_near(v->t1, fx->x.tl.makespan + v->margin, 1e-9);
    timeline_view_fit(v);
}

static void test_row_at_y(void **state)
{
    fixture *fx = *state;
    const timeline_view *v = &fx->view;
    assert_int_equal(timeline_view_row_at_y(v, v->row_y - 1), -1);
    for (int r = 0; r < 4; r++)
        assert_int_equal(timeline_view_row_at_y(v, v->row_y + (r + 0.5) * v->row_pitch), r);
    assert_int_equal(timeline_view_row_at_y(v, v->row_y + 4.01 * v->row_pitch), -1);
    assert_int_equal(timeline_view_row_at_y(v, v->mem_y + 1), -1);
}

static void test_hit_bars_and_gaps(void **state)
{
    fixture *fx = *state;
    const timeline_view *v = &fx->view;
    const timeline *tl = &fx->x.tl;
    timeline_panel_hover h;

    /* the middle of rank 1's forward of micro-batch 3 */
    const int k = find_action(&fx->x.p, 1, ACTION_F, 3);
    const action_time at = tl->time[1][k];
    const double x = timeline_view_time_to_x(v, 0.5 * (at.start + at.end));
    const double y = v->row_y + v->row_pitch + 0.5 * v->bar_h;
    assert_true(timeline_view_hit(v, tl, x, y, &h));
    assert_int_equal(h.kind, TIMELINE_HIT_ACTION);
    assert_int_equal(h.rank, 1);
    assert_int_equal(h.index, k);

    /* every compute action is hit at its middle */
    for (int r = 0; r < 4; r++) {
        for (int j = 0; j < fx->x.p.rank[r].count; j++) {
            if (!action_is_compute((action_kind)fx->x.p.rank[r].actions[j].kind))
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
    run x = {0};
    run_make(&x, "zb-h1", 4, 8, 0, 0.25, 2);
    timeline_panel panel = {0};
    ppf_error err = {0};
    assert_true(timeline_panel_init(&panel, &x.tl, &err));
    timeline_view view;
    timeline_view *v = &view;
    timeline_panel_view_init(v, &x.tl);
    timeline_view_set_rect(v, 10, 20, 1000, 300);
    timeline_view_set_text_px(v, 14);
    assert_true(v->allreduce_lane && v->lane_h > 0);
    assert_int_equal(x.tl.allreduce_count, 4);
    for (int i = 0; i < x.tl.allreduce_count; i++) {
        const transfer *ar = &x.tl.allreduces[i];
        const double ax = timeline_view_time_to_x(v, 0.5 * (ar->start + ar->end));
        const double ay = v->row_y + ar->src_rank * v->row_pitch + v->lane_y + 0.5 * v->lane_h;
        timeline_panel_hover h;
        assert_true(timeline_view_hit(v, &x.tl, ax, ay, &h));
        assert_int_equal(h.kind, TIMELINE_HIT_ALLREDUCE);
        assert_int_equal(h.rank, ar->src_rank);
        assert_int_equal(h.index, i);
        /* the bar band above it holds the rank's actions, not the all-reduce */
        assert_false(timeline_view_hit(v, &x.tl, ax, ay - v->lane_h, &h) &&
                     h.kind == TIMELINE_HIT_ALLREDUCE);
    }
    timeline_panel_deinit(&panel);
    run_free(&x);
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

typedef struct gl_fixture {
    gl_context gl;
    render_target target; /* fb_w x fb_h */
    int fb_w, fb_h;
    draw2d d;
    text_font font;
    uint8_t pixels[BIG_W * BIG_H * 4]; /* top row first */
} gl_fixture;

static void target_size(gl_fixture *g, int w, int h)
{
    ppf_error err = {0};
    render_target_deinit(&g->target);
    if (!render_target_init(&g->target, w, h, &err))
        fail_msg("render_target_init: %s", err.message);
    g->fb_w = w;
    g->fb_h = h;
}

static int setup_gl(void **state)
{
    static gl_fixture g;
    ppf_error err = {0};
    if (!gl_context_init_headless(&g.gl, &err)) {
        print_error("gl_context_init_headless: %s\n", err.message);
        return -1;
    }
    if (!draw2d_init(&g.d, &err) ||
        !text_font_init(&g.font, &(text_font_desc){.sizes = {12, 18}, .size_count = 2}, &err)) {
        print_error("%s\n", err.message);
        return -1;
    }
    *state = &g;
    return 0;
}

static int teardown_gl(void **state)
{
    gl_fixture *g = *state;
    text_font_deinit(&g->font);
    draw2d_deinit(&g->d);
    render_target_deinit(&g->target);
    gl_context_deinit(&g->gl);
    return 0;
}

/* Clears to magenta (so undrawn pixels stand out), draws the panel, reads back. */
static void render(gl_fixture *g, const timeline_panel *p, const timeline_view *v, int size,
                   const timeline_palette *pal, double t, const timeline_panel_hover *hover)
{
    render_target_bind(&g->target);
    glClearColor(1, 0, 1, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    draw2d_begin(&g->d, g->fb_w, g->fb_h);
    timeline_panel_draw(p, v, &g->d, &g->font, size, pal, t, hover);
    draw2d_flush(&g->d);
    render_target_read(&g->target, g->pixels);
    assert_int_equal(glGetError(), GL_NO_ERROR);
}

static void dump(const gl_fixture *g, const char *name)
{
    const char *dir = getenv("PPFLOW_TIMELINE_PPM_DIR");
    if (!dir || !*dir)
        return;
    char path[512];
    snprintf(path, sizeof path, "%s/%s.ppm", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        fail_msg("cannot write %s", path);
    fprintf(f, "P6\n%d %d\n255\n", g->fb_w, g->fb_h);
    for (int i = 0; i < g->fb_w * g->fb_h; i++)
        fwrite(g->pixels + (size_t)i * 4, 1, 3, f);
    fclose(f);
    print_message("wrote %s\n", path);
}

static rgba8 pixel(const gl_fixture *g, int x, int y)
{
    const uint8_t *p = g->pixels + ((size_t)y * g->fb_w + x) * 4;
    return (rgba8){p[0], p[1], p[2], p[3]};
}

#define assert_pixel(g, x, y, want)                                                                \
    do {                                                                                           \
        rgba8 got_ = pixel(g, x, y), want_ = (want);                                               \
        if (got_.r != want_.r || got_.g != want_.g || got_.b != want_.b)                           \
            fail_msg("pixel (%d, %d): got %d,%d,%d, want %d,%d,%d", (x), (y), got_.r, got_.g,     \
                     got_.b, want_.r, want_.g, want_.b);                                           \
    } while (0)

/* c over dst, straight alpha, as the blending does. */
static rgba8 over(rgba8 c, rgba8 dst)
{
    const float a = c.a / 255.0f;
    return (rgba8){(uint8_t)lrintf(c.r * a + dst.r * (1 - a)),
                   (uint8_t)lrintf(c.g * a + dst.g * (1 - a)),
                   (uint8_t)lrintf(c.b * a + dst.b * (1 - a)), 255};
}

static int channel_distance(rgba8 a, rgba8 b)
{
    int d = abs(a.r - b.r);
    d = abs(a.g - b.g) > d ? abs(a.g - b.g) : d;
    return abs(a.b - b.b) > d ? abs(a.b - b.b) : d;
}

static void test_draw_cursor_bar_bubble(void **state)
{
    gl_fixture *g = *state;
    fixture fx = {0};
    run_make(&fx.x, "1f1b", 4, 8, 1, 0, 1);
    ppf_error err = {0};
    assert_true(timeline_panel_init(&fx.panel, &fx.x.tl, &err));
    timeline_view *v = &fx.view;
    timeline_panel_view_init(v, &fx.x.tl);
    timeline_view_set_rect(v, 0, 0, W, H);
    timeline_view_set_text_px(v, (float)g->font.sizes[0]);
    target_size(g, W, H);
    const timeline_palette pal = theme_get(THEME_DARK).timeline;
    const double t = 13.25;
    render(g, &fx.panel, v, 0, &pal, t, NULL);
    dump(g, "timeline_1f1b_dark");

    /* nothing left undrawn inside the panel */
    for (int y = 0; y < H; y += 7)
        for (int x = 0; x < W; x += 5) {
            const rgba8 c = pixel(g, x, y);
            if (c.r == 255 && c.g == 0 && c.b == 255)
                fail_msg("pixel (%d, %d) not drawn", x, y);
        }

    /* the cursor's column, in the middle of row 2 and in the memory lane */
    const int cx = (int)floor(timeline_view_time_to_x(v, t));
    assert_pixel(g, cx, (int)(v->row_y + 2.5f * v->row_pitch), pal.cursor);
    assert_pixel(g, cx, (int)(v->mem_y + 0.5f * v->mem_h), pal.cursor);

    /* rank 0's forward of micro-batch 1, near its top-left corner (clear of the number) */
    const int k = find_action(&fx.x.p, 0, ACTION_F, 1);
    const int fx0 = (int)ceil(timeline_view_time_to_x(v, fx.x.tl.time[0][k].start)) + 2;
    const int fy0 = (int)ceil(v->row_y) + 2;
    assert_pixel(g, fx0, fy0, pal.f);

    /* rank 3 is idle until t = 3: the bubble's faint hatch over the row's
     * background, lighter than the row and no lighter than the full ink */
    const rgba8 row = pal.row_alt; /* odd rows */
    const rgba8 fill = over((rgba8){pal.bubble.r, pal.bubble.g, pal.bubble.b,
                                    (uint8_t)(pal.bubble.a * 2 / 5)},
                            row);
    /* the ink replaces the fill on the stripes or goes over it: either is a bubble */
    const rgba8 ink = over(pal.bubble, row), ink_over = over(pal.bubble, fill);
    const int bx0 = (int)timeline_view_time_to_x(v, 0.5), bx1 = (int)timeline_view_time_to_x(v, 2.5);
    const int by0 = (int)(v->row_y + 3 * v->row_pitch) + 1;
    const int by1 = (int)(v->row_y + 3 * v->row_pitch + v->bar_h) - 1;
    int fills = 0, inks = 0;
    for (int y = by0; y < by1; y++)
        for (int x = bx0; x < bx1; x++) {
            const rgba8 c = pixel(g, x, y);
            if (channel_distance(c, fill) <= 1)
                fills++;
            else if (channel_distance(c, ink) <= 1 || channel_distance(c, ink_over) <= 1)
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
    const int kb = find_action(&fx.x.p, 2, ACTION_B, 2);
    const double hx = timeline_view_time_to_x(
        v, 0.5 * (fx.x.tl.time[2][kb].start + fx.x.tl.time[2][kb].end));
    assert_true(timeline_view_hit(v, &fx.x.tl, hx, v->row_y + 2.5 * v->row_pitch, &hover));
    render(g, &fx.panel, v, 0, &light, t, &hover);
    dump(g, "timeline_1f1b_light_hover");
    assert_pixel(g, cx, (int)(v->row_y + 0.5f * v->row_pitch), light.cursor);

    timeline_panel_deinit(&fx.panel);
    run_free(&fx.x);
}

/* A large timeline zoomed out: bars merge into pixel columns (vertices
 * bounded by the width, not the action count), p2p arrows are skipped, and
 * a second frame allocates nothing. */
static void test_draw_dense_is_bounded(void **state)
{
    gl_fixture *g = *state;
    fixture fx = {0};
    run_make(&fx.x, "1f1b", 8, 4096, 1, 0.05, 2);
    ppf_error err = {0};
    assert_true(timeline_panel_init(&fx.panel, &fx.x.tl, &err));
    timeline_view *v = &fx.view;
    timeline_panel_view_init(v, &fx.x.tl);
    timeline_view_set_rect(v, 0, 0, W, H);
    timeline_view_set_text_px(v, (float)g->font.sizes[0]);
    target_size(g, W, H);
    const timeline_palette pal = theme_get(THEME_DARK).timeline;
    render(g, &fx.panel, v, 0, &pal, fx.x.tl.makespan * 0.4, NULL);
    dump(g, "timeline_dense");

    draw2d_begin(&g->d, W, H);
    timeline_panel_draw(&fx.panel, v, &g->d, &g->font, 0, &pal, fx.x.tl.makespan * 0.4, NULL);
    const int vertices = g->d.count, capacity = g->d.capacity;
    draw2d_begin(&g->d, W, H);
    timeline_panel_draw(&fx.panel, v, &g->d, &g->font, 0, &pal, fx.x.tl.makespan * 0.4, NULL);
    draw2d_flush(&g->d);
    print_message("dense: %ld actions, %d vertices\n", program_action_count(&fx.x.p), vertices);
    /* two quads per pixel column per rank (bars, memory), plus text and frame */
    assert_true(vertices < 8 * 2 * W * 6 + 6000);
    assert_int_equal(g->d.capacity, capacity);

    /* zoomed in, the same timeline shows single bars with numbers */
    timeline_view_zoom(v, v->plot_x + 0.5 * v->plot_w, 2000);
    render(g, &fx.panel, v, 0, &pal, fx.x.tl.makespan * 0.5, NULL);
    dump(g, "timeline_dense_zoomed");
    timeline_panel_deinit(&fx.panel);
    run_free(&fx.x);
}

/* A bigger panel with every feature, for the eye: ZB-H1 (I and W), p2p
 * time (slanted arrows), two replicas (all-reduce lanes). */
static void test_draw_features(void **state)
{
    gl_fixture *g = *state;
    const struct {
        const char *name, *file;
        int P, M, V, dp;
        double p2p;
    } cases[] = {
        {"zb-h1", "timeline_zbh1", 4, 8, 0, 2, 0.3},
        {"dualpipev", "timeline_dualpipev", 4, 10, 0, 1, 0.1},
        {"interleaved-1f1b", "timeline_interleaved", 4, 8, 2, 2, 0.1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        fixture fx = {0};
        run_make(&fx.x, cases[c].name, cases[c].P, cases[c].M, cases[c].V, cases[c].p2p,
                 cases[c].dp);
        ppf_error err = {0};
        assert_true(timeline_panel_init(&fx.panel, &fx.x.tl, &err));
        timeline_view *v = &fx.view;
        timeline_panel_view_init(v, &fx.x.tl);
        timeline_view_set_rect(v, 0, 0, BIG_W, BIG_H);
        timeline_view_set_text_px(v, (float)g->font.sizes[1]);
        target_size(g, BIG_W, BIG_H);
        const timeline_palette pal = theme_get(THEME_DARK).timeline;
        render(g, &fx.panel, v, 1, &pal, fx.x.tl.makespan * 0.37, NULL);
        dump(g, cases[c].file);
        /* the cursor is drawn over whatever is at its column */
        const int cx = (int)floor(timeline_view_time_to_x(v, fx.x.tl.makespan * 0.37));
        assert_pixel(g, cx, (int)(v->row_y + 0.5f * v->row_pitch), pal.cursor);
        timeline_panel_deinit(&fx.panel);
        run_free(&fx.x);
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
    failed += cmocka_run_group_tests_name("drawing", gl, setup_gl, teardown_gl);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
