/* test_timeline_panel.c - the timeline panel: its view model (pure, on a real
 * 1F1B P=4 M=8 timeline with F=1, B=2) and its drawing into a headless
 * framebuffer, checked pixel by pixel where the panel's geometry
 * (render/timeline_panel.c, timeline_view.h) puts each thing: the cursor,
 * bars of every kind in the theme's colours and patterns, the bubble, p2p
 * arrows, all-reduce lanes, the memory curves, the hover tooltip, and single
 * bars when a dense timeline is zoomed in.
 *
 * With PPFLOW_TIMELINE_PPM_DIR set, the GL tests also write the images they
 * draw there as PPM files, to look at. */
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
    assert_le(v->row_y + v->ranks * v->row_pitch, v->mem_y);
    assert_le(v->mem_y + v->mem_h, v->axis_y + 0.01f);
    assert_le(v->axis_y + v->axis_h, v->y + v->h + 0.01f);
    assert_gt(v->bar_h, 0.5f * v->row_pitch);
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
    assert_true(timeline_hit_at(v, tl, x, y, &h));
    assert_int_equal(h.kind, TIMELINE_HIT_ACTION);
    assert_int_equal(h.rank, 1);
    assert_int_equal(h.index, k);

    /* every compute action is hit at its middle */
    for (int r = 0; r < 4; r++) {
        for (int j = 0; j < fx->run.p.rank[r].count; j++) {
            if (!action_is_compute((action_kind)fx->run.p.rank[r].actions[j].kind))
                continue;
            const double tm = 0.5 * (tl->time[r][j].start + tl->time[r][j].end);
            assert_true(timeline_hit_at(v, tl, timeline_view_time_to_x(v, tm),
                                        v->row_y + (r + 0.3) * v->row_pitch, &h));
            assert_int_equal(h.rank, r);
            assert_int_equal(h.index, j);
        }
    }

    /* rank 3 waits for the first forward until t = 3: a bubble, no bar */
    assert_false(timeline_hit_at(v, tl, timeline_view_time_to_x(v, 1.5),
                                 v->row_y + 3 * v->row_pitch + 0.5 * v->bar_h, &h));
    assert_int_equal(h.kind, TIMELINE_HIT_NONE);
    assert_int_equal(h.rank, -1);
    /* every y of row 1's pitch, the gap under its bars too, is row 1's:
       no dead band between rows */
    for (double yy = v->row_y + v->row_pitch + 0.01; yy < v->row_y + 2 * v->row_pitch; yy += 0.25) {
        if (!timeline_hit_at(v, tl, x, yy, &h) || h.rank != 1 || h.index != k)
            fail_msg("y = %.2f (row 1 from %.2f to %.2f): hit rank %d action %d, want 1, %d", yy,
                     v->row_y + v->row_pitch, v->row_y + 2 * v->row_pitch, h.rank, h.index, k);
    }
    /* left of the plot, the memory lane */
    assert_false(timeline_hit_at(v, tl, v->plot_x - 5, y, &h));
    assert_false(timeline_hit_at(v, tl, x, v->mem_y + 2, &h));
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
        assert_true(timeline_hit_at(v, &x.run.tl, ax, ay, &h));
        assert_int_equal(h.kind, TIMELINE_HIT_ALLREDUCE);
        assert_int_equal(h.rank, ar->src_rank);
        assert_int_equal(h.index, i);
        /* the bar band above it holds the rank's actions, not the all-reduce */
        assert_false(timeline_hit_at(v, &x.run.tl, ax, ay - v->lane_h, &h) &&
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
    timeline_panel_draw_tip(&x->panel, &x->view, &g->d, &g->font, size, pal, hover);
    gl_fixture_finish(g);
}

/* c over dst, straight alpha, as the blending does (the result's alpha aside). */
static rgba8 over(rgba8 c, rgba8 dst)
{
    return colour_mix(dst, c, c.a / 255.0f);
}

/* ---- where the panel draws what (render/timeline_panel.c) --------------- */

static float time_x(const timeline_view *v, double t)
{
    return (float)timeline_view_time_to_x(v, t);
}

static float row_top(const timeline_view *v, int r)
{
    return v->row_y + (float)r * v->row_pitch;
}

/* True when [x0, x1] comes within 2 em of the cursor's column at t (its
 * line, its notch). */
static bool near_cursor(const timeline_view *v, double t, float x0, float x1)
{
    const float c = time_x(v, t);
    return fmaxf(x0, x1) > c - 2 * v->em && fminf(x0, x1) < c + 2 * v->em;
}

/* A compute kind's look (theme.h): its colour as the fill and a pattern in
 * `ink`: F solid (ink = fill), B and I hatched and W dotted in a lighter
 * shade of their colour, F+B cross-hatched in the B colour. */
static void kind_look(const timeline_palette *pal, int kind, rgba8 *fill, rgba8 *ink)
{
    *fill = theme_action_colour(pal, (action_kind)kind);
    *ink = kind == ACTION_B || kind == ACTION_I ? colour_lighten(*fill, 0.3f)
           : kind == ACTION_W                   ? colour_lighten(*fill, 0.35f)
           : kind == ACTION_OVERLAP_F_B         ? pal->b
                                                : *fill;
}

/* Where c lies from fill (0) to ink (1), as a pattern's edge mixes them, or
 * -1 when c is more than 2 off that line in any channel. */
static float mix_position(rgba8 c, rgba8 fill, rgba8 ink)
{
    const float from[3] = {fill.r, fill.g, fill.b}, to[3] = {ink.r, ink.g, ink.b};
    const float got[3] = {c.r, c.g, c.b};
    int k = 0;
    for (int j = 1; j < 3; j++)
        if (fabsf(to[j] - from[j]) > fabsf(to[k] - from[k]))
            k = j;
    const float f =
        to[k] == from[k] ? 0 : fminf(1, fmaxf(0, (got[k] - from[k]) / (to[k] - from[k])));
    for (int j = 0; j < 3; j++)
        if (fabsf(from[j] + f * (to[j] - from[j]) - got[j]) > 2)
            return -1;
    return f;
}

/* The widest bar of `kind` wholly in the plot and clear of the cursor at t:
 * its rank and index, or false when there is none. */
static bool find_bar(const panel_run *x, int kind, double t, int *rank, int *index)
{
    const timeline_view *v = &x->view;
    float widest = 0;
    for (int r = 0; r < x->run.p.ranks; r++)
        for (int k = 0; k < x->run.p.rank[r].count; k++) {
            const float x0 = time_x(v, x->run.tl.time[r][k].start);
            const float x1 = time_x(v, x->run.tl.time[r][k].end);
            if (x->run.p.rank[r].actions[k].kind != kind || x0 < v->plot_x ||
                x1 > v->plot_x + v->plot_w || near_cursor(v, t, x0, x1) || x1 - x0 <= widest)
                continue;
            widest = x1 - x0;
            *rank = r;
            *index = k;
        }
    return widest > 0;
}

/* Fails unless the bar of action k on rank r shows its kind: inside it (a
 * pixel in from its edges, clear of its number and of the cursor at t)
 * every pixel is its fill, its pattern's ink or a mix of the two, some are
 * the fill, and a patterned kind shows its ink. `size` is the font size
 * the panel was drawn with (the number is never wider than at that size). */
static void expect_bar(const gl_fixture *g, const panel_run *x, const timeline_palette *pal,
                       int size, double t, int r, int k)
{
    const timeline_view *v = &x->view;
    const action *a = &x->run.p.rank[r].actions[k];
    rgba8 fill, ink;
    kind_look(pal, a->kind, &fill, &ink);
    const float x0 = time_x(v, x->run.tl.time[r][k].start);
    float x1 = time_x(v, x->run.tl.time[r][k].end);
    x1 -= x1 - x0 >= 4 ? 1 : 0; /* the hairline gap between wide bars */
    char number[32];
    if (a->kind == ACTION_OVERLAP_F_B)
        snprintf(number, sizeof number, "%d|%d", (int)a->microbatch, (int)a->microbatch2);
    else
        snprintf(number, sizeof number, "%d", (int)a->microbatch);
    /* the number's box: centred in the bar, at most as wide as at `size`, an em high */
    const float mid_x = 0.5f * (x0 + x1), half_w = 0.5f * text_width(&g->font, size, number) + 1.5f;
    const float mid_y = row_top(v, r) + 0.5f * v->bar_h, half_h = 0.5f * g->font.sizes[size] + 2;
    const int y0 = (int)ceilf(row_top(v, r)) + 1, y1 = (int)floorf(row_top(v, r) + v->bar_h) - 1;
    int pixels = 0, fills = 0, inks = 0;
    for (int px = (int)ceilf(x0) + 1; px < (int)floorf(x1) - 1; px++) {
        if (near_cursor(v, t, (float)px, (float)px + 1))
            continue;
        for (int py = y0; py < y1; py++) {
            if (fabsf((float)px + 0.5f - mid_x) < half_w &&
                fabsf((float)py + 0.5f - mid_y) < half_h)
                continue;
            const rgba8 c = gl_fixture_pixel(g, px, py);
            const float f = mix_position(c, fill, ink);
            if (f < 0)
                fail_msg("%s bar of rank %d (action %d): pixel (%d, %d) = %d,%d,%d is neither "
                         "its fill %d,%d,%d nor its ink %d,%d,%d",
                         action_kind_name((action_kind)a->kind), r, k, px, py, c.r, c.g, c.b,
                         fill.r, fill.g, fill.b, ink.r, ink.g, ink.b);
            pixels++;
            fills += rgba8_distance(c, fill) <= 1;
            inks += f >= 0.5f;
        }
    }
    if (pixels < 12 || fills == 0 || (!rgba8_equal(fill, ink) && inks == 0))
        fail_msg("%s bar of rank %d (action %d): %d pixels looked at, %d of the fill, %d inked",
                 action_kind_name((action_kind)a->kind), r, k, pixels, fills, inks);
}

/* Checks a bar of every compute kind the program holds; returns how many
 * kinds were checked. */
static int expect_every_kind(const gl_fixture *g, const panel_run *x, const timeline_palette *pal,
                             int size, double t)
{
    int kinds = 0;
    for (int kind = ACTION_F; kind <= ACTION_OVERLAP_F_B; kind++) {
        bool held = false;
        for (int r = 0; r < x->run.p.ranks && !held; r++)
            for (int k = 0; k < x->run.p.rank[r].count && !held; k++)
                held = x->run.p.rank[r].actions[k].kind == kind;
        int r = -1, k = -1;
        if (!held)
            continue;
        if (!find_bar(x, kind, t, &r, &k))
            fail_msg("no %s bar wholly in view and clear of the cursor",
                     action_kind_name((action_kind)kind));
        expect_bar(g, x, pal, size, t, r, k);
        kinds++;
    }
    return kinds;
}

/* Fails unless the p2p arrows are drawn: each transfer between neighbouring
 * ranks (a longer arrow runs under the bars of the rows it crosses), clear
 * of the cursor at t and over before the first all-reduce (whose lanes lie
 * in the same gaps), has a line from the producing bar's end (at the transfer's start,
 * on the bar's edge facing the consumer) towards the consumer's row at the
 * arrival, its head aside. Every pixel whose centre is close enough to the
 * line to be fully covered, in the gap between the two rows (bars are drawn
 * over arrows), is the p2p colour. */
static void expect_arrows(const gl_fixture *g, const panel_run *x, const timeline_palette *pal,
                          double t)
{
    const timeline_view *v = &x->view;
    const float full = 0.5f * fmaxf(1, v->em * 0.09f) - 0.5f; /* half the line, less its ramp */
    assert_ge(full, 0.2f);
    double reduced = INFINITY; /* the first all-reduce's start */
    for (int i = 0; i < x->run.tl.allreduce_count; i++)
        reduced = fmin(reduced, x->run.tl.allreduces[i].start);
    int arrows = 0, on = 0;
    p2p_cursor cur = {0};
    transfer tr;
    while (timeline_next_p2p(&x->run.tl, &cur, &tr)) {
        const float xs = time_x(v, tr.start), xe = time_x(v, tr.end);
        const int r = tr.src_rank, to = tr.dst_rank;
        if (near_cursor(v, t, xs, xe) || tr.end >= reduced || abs(to - r) != 1)
            continue;
        assert_gt(tr.end, tr.start);
        const float ys = to > r ? row_top(v, r) + v->bar_h : row_top(v, r);
        const float ye = to > r ? row_top(v, to) : row_top(v, to) + v->bar_h;
        const float len = hypotf(xe - xs, ye - ys), head = fminf(v->em * 0.4f, len * 0.6f);
        const float bx = xe - (xe - xs) / len * head, by = ye - (ye - ys) / len * head;
        const float seg = hypotf(bx - xs, by - ys);
        for (int py = (int)fminf(ys, ye); py <= (int)fmaxf(ys, ye); py++) {
            const float cy = (float)py + 0.5f;
            if (cy < fminf(ys, ye) + 0.5f || cy > fmaxf(ys, ye) - 0.5f)
                continue;
            for (int px = (int)fminf(xs, bx) - 1; px <= (int)fmaxf(xs, bx) + 1; px++) {
                const float cx = (float)px + 0.5f;
                const float along = ((cx - xs) * (bx - xs) + (cy - ys) * (by - ys)) / (seg * seg);
                const float off = fabsf((cx - xs) * (by - ys) - (cy - ys) * (bx - xs)) / seg;
                if (along < 0 || along > 1 || off > full)
                    continue;
                const rgba8 c = gl_fixture_pixel(g, px, py);
                if (rgba8_distance(c, pal->p2p) > 2)
                    fail_msg("p2p arrow rank %d -> %d at [%g, %g]: pixel (%d, %d) on its line is "
                             "%d,%d,%d, not %d,%d,%d",
                             r, to, tr.start, tr.end, px, py, c.r, c.g, c.b, pal->p2p.r, pal->p2p.g,
                             pal->p2p.b);
                on++;
            }
        }
        arrows++;
    }
    if (arrows == 0 || on < arrows)
        fail_msg("%d p2p arrows looked at, %d pixels on their lines", arrows, on);
}

/* Fails unless every all-reduce clear of the cursor at t fills its rank's
 * lane (under the rank's bars) in the all-reduce colour at the middle of its
 * span, and each lane shows no all-reduce colour at the iteration's start. */
static void expect_allreduces(const gl_fixture *g, const panel_run *x, const timeline_palette *pal,
                              double t)
{
    const timeline_view *v = &x->view;
    const timeline *tl = &x->run.tl;
    int checked = 0;
    assert_gt(v->lane_h, 0);
    for (int i = 0; i < tl->allreduce_count; i++) {
        const transfer *ar = &tl->allreduces[i];
        if (near_cursor(v, t, time_x(v, ar->start), time_x(v, ar->end)))
            continue;
        const float y = row_top(v, ar->src_rank) + v->lane_y + 0.5f * v->lane_h;
        assert_pixel_rgb(g, (int)time_x(v, 0.5 * (ar->start + ar->end)), (int)y, pal->allreduce);
        checked++;
    }
    assert_gt(checked, 0);
    for (int r = 0; r < v->ranks; r++) {
        const float y = row_top(v, r) + v->lane_y + 0.5f * v->lane_h;
        const rgba8 c = gl_fixture_pixel(g, (int)time_x(v, 0.1), (int)y);
        if (rgba8_distance(c, pal->allreduce) <= 30)
            fail_msg("rank %d's lane shows the all-reduce colour at t = 0.1", r);
    }
}

/* Fails unless each rank's part of the memory lane draws its live
 * activations as a bar of count / peak of 85% of the part's height: at the
 * middle of its highest step that fits under the part's top (the widest of
 * those, clear of the cursor at t), the first pixel row the bar covers and
 * the row half-way down are the curve's colour, the row above it the part's
 * background. */
static void expect_memory_lane(const gl_fixture *g, const panel_run *x, const timeline_palette *pal,
                               double t)
{
    const timeline_view *v = &x->view;
    const timeline_memory *m = &x->panel.memory;
    const float sub = v->mem_h / (float)v->ranks, scale = sub * 0.85f / (float)m->peak;
    /* the peak's notch at its first step is as wide as the sub-lane allows */
    const int notch = (int)ceilf(fmaxf(3, fminf(sub * 0.3f, v->em * 0.4f)));
    for (int r = 0; r < v->ranks; r++) {
        const timeline_memory_curve *c = &m->rank[r];
        const float base = v->mem_y + sub * (float)(r + 1);
        int best = -1;
        float x0 = 0, x1 = 4, top = base; /* the step's pixels and its bar's top */
        for (int i = 0; i < c->count; i++) {
            const float a = time_x(v, c->steps[i].time);
            const float b = time_x(v, i + 1 < c->count ? c->steps[i + 1].time : x->run.tl.makespan);
            const float y = base - scale * (float)c->steps[i].count;
            const float tie = ceilf(y - 0.5f) + 0.5f - y; /* where the first row's centre is */
            if (base - y < 3 || base - y > sub - 2 || tie < 0.05f || tie > 0.95f ||
                b - a < (float)notch + 9 || near_cursor(v, t, a, b) || y > top ||
                (y == top && b - a <= x1 - x0))
                continue;
            best = i;
            x0 = a;
            x1 = b;
            top = y;
        }
        if (best < 0)
            fail_msg("rank %d: no step of its memory curve to look at", r);
        const rgba8 lane = r % 2 ? pal->row_alt : pal->background, curve = over(pal->memory, lane);
        const int first = (int)ceilf(top - 0.5f), mid = (int)floorf(0.5f * (top + base - 1));
        /* a column clear of the grid's lines, the riser at the step's start
         * and the count centred over it: the part's own background above the
         * bar's outline and the peak's line, the curve's colour under them */
        /* (past the peak's notch, and a row off the peak's line across the lane) */
        const float peak_y = base - scale * (float)c->peak; /* its line: one row near it */
        const int lane_top = (int)ceilf(base - sub - 0.5f); /* inside this rank's part */
        int above = first - 3;
        const int tries[3] = {first - 3, first - 2, first - 4};
        for (int k = 2; k >= 0; k--)
            if (tries[k] >= lane_top && fabsf((float)tries[k] + 0.5f - peak_y) >= 1.5f)
                above = tries[k]; /* the first in the list that suits */
        int col = -1;
        for (int dx = 3; dx <= notch + 5 && (float)dx < x1 - x0 - 2 && col < 0; dx++)
            if (rgba8_distance(gl_fixture_pixel(g, (int)x0 + dx, above), lane) <= 1 &&
                rgba8_distance(gl_fixture_pixel(g, (int)x0 + dx, first + 2), curve) <= 1 &&
                rgba8_distance(gl_fixture_pixel(g, (int)x0 + dx, mid), curve) <= 1)
                col = (int)x0 + dx;
        if (col < 0)
            fail_msg("rank %d, %d live from t = %g: want the part's background at y = %d and the "
                     "curve at y = %d and %d (its top %.2f), column %d",
                     r, c->steps[best].count, c->steps[best].time, above, first + 2, mid, top, col);
    }
}

/* Fails unless hovering action h draws what timeline_panel.c promises and
 * nothing else: an outline in the text colour around the hovered bar and,
 * centred over it (under it at the panel's top), a box of the panel's
 * background, opaque, outlined and holding the action's
 * description; every other pixel is as in `plain`, drawn without the hover
 * (size 0 text). */
static void expect_tooltip(const gl_fixture *g, const panel_run *x, const timeline_palette *pal,
                           const uint8_t *plain, const timeline_panel_hover *h, double hx)
{
    const timeline_view *v = &x->view;
    const action_time at = x->run.tl.time[h->rank][h->index];
    const float x0 = time_x(v, at.start), x1 = time_x(v, at.end), y0 = row_top(v, h->rank);
    char text[256];
    timeline_describe_action(&x->run.tl, h->rank, h->index, text, sizeof text);
    const float w = text_width(&g->font, 0, text) + v->em, bh = (float)g->font.sizes[0] * 1.6f;
    const float bx = fmaxf(fminf(0.5f * (x0 + x1) - 0.5f * w, v->x + v->w - w), v->x);
    float by = y0 - v->em * 0.3f - bh;
    if (by < v->y)
        by = y0 + v->bar_h + v->em * 0.3f;
    /* near the pointer: above (or under) the bar, across the pointer's x */
    assert_true(bx <= hx && hx <= bx + w);
    assert_true(by + bh <= y0 || by >= y0 + v->bar_h);

    int box = 0, changed = 0, inked = 0;
    for (int py = 0; py < g->height; py++)
        for (int px = 0; px < g->width; px++) {
            const uint8_t *q = plain + ((size_t)py * g->width + px) * 4;
            const rgba8 was = {q[0], q[1], q[2], q[3]}, c = gl_fixture_pixel(g, px, py);
            const float cx = (float)px + 0.5f, cy = (float)py + 0.5f;
            const bool in_box = cx > bx + 1 && cx < bx + w - 1 && cy > by + 1 && cy < by + bh - 1;
            const bool near_box = cx > bx - 2 && cx < bx + w + 2 && cy > by - 2 && cy < by + bh + 2;
            const bool near_bar =
                cx > x0 - 4 && cx < x1 + 4 && cy > y0 - 4 && cy < y0 + v->bar_h + 4;
            if (!near_box && !near_bar && !rgba8_equal(c, was))
                fail_msg("pixel (%d, %d) away from the tooltip and the bar changed with the hover",
                         px, py);
            box += in_box;
            changed += in_box && rgba8_distance(c, was) > 2;
            inked += in_box && rgba8_distance(c, pal->text) <= 16;
            /* the padding left of the text: the box's fill over what was there */
            if (in_box && cx < bx + v->em * 0.5f - 1 && rgba8_distance(c, pal->background) > 2)
                fail_msg(
                    "tooltip pixel (%d, %d) = %d,%d,%d is not the panel background (was %d,%d,%d)",
                    px, py, c.r, c.g, c.b, was.r, was.g, was.b);
        }
    if (changed < box * 8 / 10 || inked < 20)
        fail_msg("tooltip box of %d pixels: %d changed, %d in the text colour", box, changed,
                 inked);
    /* the box's outline (left and top) and the bar's, in the text colour */
    if (rgba8_distance(gl_fixture_pixel(g, (int)ceilf(bx - 0.5f), (int)(by + 0.5f * bh)),
                       pal->text) > 2 ||
        rgba8_distance(gl_fixture_pixel(g, (int)(bx + 0.5f * w), (int)ceilf(by - 0.5f)),
                       pal->text) > 2 ||
        rgba8_distance(gl_fixture_pixel(g, (int)(0.5f * (x0 + x1)), (int)floorf(y0) - 1),
                       pal->text) > 2)
        fail_msg("the tooltip's or the hovered bar's outline is not in the text colour");
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
    assert_pixel_rgb(g, 1, 1, pal.background);

    /* the cursor's column, in the middle of row 2 and in the memory lane */
    const int cx = (int)floor(timeline_view_time_to_x(v, t));
    assert_pixel_rgb(g, cx, (int)(v->row_y + 2.5f * v->row_pitch), pal.cursor);
    assert_pixel_rgb(g, cx, (int)(v->mem_y + 0.5f * v->mem_h), pal.cursor);

    /* rank 0's forward of micro-batch 1, near its top-left corner (clear of
     * the number), and the bars of both kinds */
    const int k = find_action(&fx.run.p, 0, ACTION_F, 1);
    const int fx0 = (int)ceil(timeline_view_time_to_x(v, fx.run.tl.time[0][k].start)) + 2;
    const int fy0 = (int)ceil(v->row_y) + 2;
    assert_pixel_rgb(g, fx0, fy0, pal.f);
    expect_bar(g, &fx, &pal, 0, t, 0, k);
    assert_int_equal(expect_every_kind(g, &fx, &pal, 0, t), 2);

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

    /* the light theme: its background, the bars in their colours */
    const timeline_palette light = theme_get(THEME_LIGHT).timeline;
    render(g, &fx, 0, &light, t, NULL);
    assert_pixel_rgb(g, 1, 1, light.background);
    assert_int_equal(expect_every_kind(g, &fx, &light, 0, t), 2);
    static uint8_t plain[W * H * 4];
    memcpy(plain, g->pixels, sizeof plain);

    /* and a hover tooltip over rank 2's backward of micro-batch 2 */
    timeline_panel_hover hover;
    const int kb = find_action(&fx.run.p, 2, ACTION_B, 2);
    const double hx =
        timeline_view_time_to_x(v, 0.5 * (fx.run.tl.time[2][kb].start + fx.run.tl.time[2][kb].end));
    assert_true(timeline_hit_at(v, &fx.run.tl, hx, v->row_y + 2.5 * v->row_pitch, &hover));
    render(g, &fx, 0, &light, t, &hover);
    gl_fixture_dump(g, "timeline_1f1b_light_hover");
    assert_pixel_rgb(g, cx, (int)(v->row_y + 0.5f * v->row_pitch), light.cursor);
    expect_tooltip(g, &fx, &light, plain, &hover, hx);
    panel_run_deinit(&fx);
}

/* A large timeline zoomed out: bars merge into pixel columns (vertices
 * bounded by the width, not the action count), p2p arrows are skipped, and
 * a second frame allocates nothing. Zoomed in, single bars again. */
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
    assert_lt(vertices, 8 * 2 * W * 6 + 6000);
    assert_int_equal(g->d.capacity, capacity);

    /* zoomed in, the same timeline shows single bars, F and B, with numbers */
    timeline_view_zoom(v, v->plot_x + 0.5 * v->plot_w, 2000);
    render(g, &fx, 0, &pal, fx.run.tl.makespan * 0.5, NULL);
    gl_fixture_dump(g, "timeline_dense_zoomed");
    assert_int_equal(expect_every_kind(g, &fx, &pal, 0, fx.run.tl.makespan * 0.5), 2);
    panel_run_deinit(&fx);
}

/* A bigger panel with every feature: ZB-H1 (I and W), DualPipeV (F+B),
 * interleaved (two stages a rank); p2p time (slanted arrows), two replicas
 * (all-reduce lanes), the memory curves; each checked where it is drawn. */
static void test_draw_features(void **state)
{
    gl_fixture *g = *state;
    const struct {
        const char *file;
        run_fixture_desc run;
        int kinds; /* compute kinds in the program */
    } cases[] = {
        {"timeline_zbh1",
         {.schedule = "zb-h1", .P = 4, .M = 8, .p2p = 0.3, .D = 2, .allreduce = 1.5},
         3},
        {"timeline_dualpipev", {.schedule = "dualpipev", .P = 4, .M = 10, .p2p = 0.1}, 5},
        {"timeline_interleaved",
         {.schedule = "interleaved-1f1b",
          .P = 4,
          .M = 8,
          .V = 2,
          .p2p = 0.1,
          .D = 2,
          .allreduce = 1.5},
         2},
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
        /* the cursor is drawn over whatever is at its column but a bar's
         * number that has no room to step aside (probed above the number) */
        const int cx = (int)floor(timeline_view_time_to_x(v, t));
        assert_pixel_rgb(g, cx, (int)(v->row_y + 2), pal.cursor);
        assert_int_equal(expect_every_kind(g, &fx, &pal, 1, t), cases[c].kinds);
        expect_arrows(g, &fx, &pal, t);
        if (cases[c].run.D > 1)
            expect_allreduces(g, &fx, &pal, t);
        expect_memory_lane(g, &fx, &pal, t);
        panel_run_deinit(&fx);
    }
}

/* The live activations at the cursor: one number per rank, level with its
 * memory sub-lane, beside the cursor's line and never on it, no two
 * overlapping (thin sub-lanes alternate sides). */
static void test_memory_readout(void **state)
{
    gl_fixture *g = *state;
    panel_run fx;
    panel_run_init(&fx, &(run_fixture_desc){.schedule = "gpipe", .P = 4, .M = 8, .V = 1}, 0, 0,
                   BIG_W, BIG_H, (float)g->font.sizes[1]);
    const timeline_view *v = &fx.view;
    gl_fixture_resize(g, BIG_W, BIG_H);
    text_rect rects[256];
    text_stats stats = {.rects = rects, .rect_capacity = 256};
    g->font.stats = &stats;
    const timeline_palette pal = theme_get(THEME_DARK).timeline;
    const double times[] = {0.2, 9.5, fx.run.tl.makespan - 0.2}; /* both ends: one side only */
    for (size_t k = 0; k < sizeof times / sizeof times[0]; k++) {
        text_stats_reset(&stats);
        render(g, &fx, 1, &pal, times[k], NULL);
        const float cx = time_x(v, times[k]), sub = v->mem_h / (float)v->ranks;
        int found[4] = {0};
        int which[4] = {-1, -1, -1, -1};
        for (int i = 0; i < stats.rect_count; i++) {
            const text_rect *r = &rects[i];
            const float yc = 0.5f * (r->y0 + r->y1);
            /* the plates reach two columns out (two digits and pads each);
               the plateaus' own counts keep clear of them, further out */
            const float xc = 0.5f * (r->x0 + r->x1);
            if (yc < v->mem_y || yc > v->mem_y + v->mem_h || fabsf(xc - cx) > 3.8f * v->em ||
                r->x0 < v->plot_x)
                continue;
            const int rank = (int)((yc - v->mem_y) / sub);
            assert_true(rank >= 0 && rank < 4);
            found[rank]++;
            which[rank] = i;
            assert_false(r->x0 <= cx && r->x1 >= cx); /* beside the line */
        }
        for (int r = 0; r < 4; r++) {
            if (found[r] != 1)
                fail_msg("t=%.2f: rank %d has %d numbers in its sub-lane", times[k], r, found[r]);
            for (int q = 0; q < r; q++) {
                const text_rect *a = &rects[which[r]], *b = &rects[which[q]];
                assert_false(a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1);
            }
        }
        print_message("t=%.2f: readout of 4 ranks, sub-lanes %.1f px\n", times[k], sub);
    }
    g->font.stats = NULL;
    gl_fixture_dump(g, "timeline_memory_readout");
    panel_run_deinit(&fx);
}

/* The hint on left-out bar numbers names what is missing: with low rows
 * but room across (zoomed far in), a taller panel; with rows tall enough
 * but bars too short (the whole of a long iteration), zooming in; with
 * both short of room, both. */
static const char *hint_drawn(gl_fixture *g, const panel_run *x, const timeline_palette *pal,
                              char out[TEXT_STATS_TEXT_MAX])
{
    text_rect rects[512];
    char texts[512][TEXT_STATS_TEXT_MAX];
    text_stats stats = {.rects = rects, .rect_capacity = 512, .texts = texts};
    g->font.stats = &stats;
    render(g, x, 1, pal, x->view.t0, NULL);
    g->font.stats = NULL;
    out[0] = '\0';
    for (int i = 0; i < stats.rect_count; i++)
        if (strncmp(texts[i], "numbers:", 8) == 0)
            snprintf(out, TEXT_STATS_TEXT_MAX, "%s", texts[i]);
    return out;
}

static void test_hint_names_what_is_missing(void **state)
{
    gl_fixture *g = *state;
    gl_fixture_resize(g, BIG_W, BIG_H);
    const timeline_palette pal = theme_get(THEME_DARK).timeline;
    const float text_px = (float)g->font.sizes[1];
    char hint[TEXT_STATS_TEXT_MAX];
    static const struct {
        run_fixture_desc run;
        float h;     /* the panel's height */
        double zoom; /* zoomed in by this around the panel's left edge */
        const char *want;
    } cases[] = {
        {{.schedule = "1f1b", .P = 16, .M = 16, .V = 1}, 120, 40, "numbers: taller panel"},
        {{.schedule = "1f1b", .P = 2, .M = 200, .V = 1}, BIG_H, 1, "numbers: zoom in"},
        {{.schedule = "1f1b", .P = 16, .M = 200, .V = 1}, 120, 1, "numbers: zoom in, taller panel"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        panel_run fx;
        panel_run_init(&fx, &cases[k].run, 0, 0, BIG_W, cases[k].h, text_px);
        if (cases[k].zoom > 1)
            timeline_view_zoom(&fx.view, fx.view.plot_x, cases[k].zoom);
        hint_drawn(g, &fx, &pal, hint);
        print_message("P=%d M=%d, %.0f px high, zoomed %gx: \"%s\"\n", cases[k].run.P,
                      cases[k].run.M, cases[k].h, cases[k].zoom, hint);
        assert_string_equal(hint, cases[k].want);
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
        cmocka_unit_test(test_memory_readout),
        cmocka_unit_test(test_hint_names_what_is_missing),
    };
    int failed = cmocka_run_group_tests_name("view model", pure, setup_pure, teardown_pure);
    failed += cmocka_run_group_tests_name("drawing", gl, setup_gl, gl_fixture_teardown);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
