/* test_timeline_lod.c - the timeline drawn in a few draw calls, exactly:
 * draw2d's batching gives the pixels of strict append order; bars thinner
 * than a pixel merge by the kind that fills most of each column
 * (timeline_lod.h), and hovering a merged stretch finds it and counts it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "support/gl_fixture.h"
#include "timeline_lod.h"
#include "timeline_panel.h"

enum { W = 320, H = 200 };

/* ---- draw2d: batched draws give strict order's pixels ------------------- */

/* A linear congruential generator: the same scatter on every run. */
static uint32_t next(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return (*s >> 8) & 0xffff;
}

/* A deterministic scatter of overlapping, translucent primitives of every
 * fill, under two clips; step k draws primitive k only. */
static void primitive(gl_fixture *g, int k)
{
    draw2d *d = &g->d;
    uint32_t s = (uint32_t)k * 2654435761u + 12345u;
    uint32_t r[12];
    for (int i = 0; i < 12; i++)
        r[i] = next(&s);
    const float x = (float)(r[0] % (W - 40)) + (float)(r[1] % 100) / 100.0f;
    const float y = (float)(r[2] % (H - 30)) + (float)(r[3] % 100) / 100.0f;
    const float w = 1 + (float)(r[4] % 60) + (float)(r[5] % 100) / 100.0f;
    const float h = 1 + (float)(r[6] % 25);
    const rgba8 c = {(uint8_t)r[7], (uint8_t)r[8], (uint8_t)r[9], (uint8_t)(100 + r[10] % 156)};
    const rgba8 ink = {(uint8_t)r[11], (uint8_t)r[7], (uint8_t)r[9], 255};
    if (k % 17 == 0)
        draw2d_clip(d, 20.5f, 10.25f, W - 60, H - 30);
    if (k % 23 == 0)
        draw2d_clip_off(d);
    switch (next(&s) % 6) {
    case 0:
        draw2d_rect(d, x, y, w, h, c);
        break;
    case 1:
        draw2d_rect_pattern(d, x, y, w, h, c, ink, (draw2d_pattern)(1 + next(&s) % 3), 6);
        break;
    case 2:
        draw2d_line(d, x, y, x + w, y + h, 1 + (float)(next(&s) % 3), c);
        break;
    case 3:
        draw2d_triangle(d, x, y, x + w, y, x + 0.5f * w, y + h, c);
        break;
    case 4:
        draw2d_rect_outline(d, x, y, w, h, 2, c);
        break;
    default:
        text_draw(&g->font, d, 0, x, y + h, "F7 B|3", c, TEXT_ALIGN_LEFT);
        break;
    }
}

/* Bars side by side interleave fills like a timeline row (solid, hatch,
 * number, next bar); the scatter overlaps everything. Both must give the
 * bytes of drawing one primitive per flush, in fewer calls. */
static void test_batches_keep_strict_order(void **state)
{
    gl_fixture *g = *state;
    gl_fixture_resize(g, W, H);
    enum { N = 400 };
    const size_t bytes = (size_t)W * H * 4;
    uint8_t *strict = malloc(bytes);
    assert_non_null(strict);
    int calls = 0; /* strict order's */
    for (int pass = 0; pass < 2; pass++) {
        gl_fixture_begin(g, (rgba8){20, 30, 40, 255});
        for (int k = 0; k < N; k++) {
            primitive(g, k);
            if (pass == 0) /* strict order: one flush per primitive */
                draw2d_flush(&g->d);
        }
        /* a row of bars with their numbers, like the timeline */
        for (int k = 0; k < 40; k++) {
            const float x0 = 2 + 7.3f * (float)k, y0 = (float)(H - 24);
            if (k % 2)
                draw2d_rect(&g->d, x0, y0, 7.3f, 20, (rgba8){0, 158, 115, 255});
            else
                draw2d_rect_pattern(&g->d, x0, y0, 7.3f, 20, (rgba8){213, 94, 0, 255},
                                    (rgba8){230, 150, 90, 255}, DRAW2D_HATCH, 6);
            text_draw(&g->font, &g->d, 0, x0 + 2, y0 + 14, "1", (rgba8){0, 0, 0, 255},
                      TEXT_ALIGN_LEFT);
            if (pass == 0)
                draw2d_flush(&g->d);
        }
        gl_fixture_finish(g);
        if (pass == 0) {
            calls = g->d.draw_calls;
            memcpy(strict, g->pixels, bytes);
            print_message("strict order: %d draw calls\n", calls);
        } else {
            print_message("batched: %d draw calls\n", g->d.draw_calls);
            assert_lt(g->d.draw_calls * 4, calls * 3);
            long differ = 0;
            for (size_t i = 0; i < bytes; i++)
                differ += strict[i] != g->pixels[i];
            assert_int_equal(differ, 0);
        }
    }
    free(strict);

    /* the row alone: a call per fill, the first number apart (drawn before the
     * first solid bar, which the second number must follow) */
    gl_fixture_begin(g, (rgba8){20, 30, 40, 255});
    for (int k = 0; k < 10; k++) {
        const float x0 = 2 + 30.3f * (float)k, y0 = 4;
        if (k % 2)
            draw2d_rect(&g->d, x0, y0, 30.3f, 24, (rgba8){0, 158, 115, 255});
        else
            draw2d_rect_pattern(&g->d, x0, y0, 30.3f, 24, (rgba8){213, 94, 0, 255},
                                (rgba8){230, 150, 90, 255}, DRAW2D_HATCH, 6);
        text_draw(&g->font, &g->d, 0, x0 + 15, y0 + 17, "1", (rgba8){0, 0, 0, 255},
                  TEXT_ALIGN_CENTER);
    }
    gl_fixture_finish(g);
    assert_int_equal(g->d.draw_calls, 4); /* hatch, number, solid, numbers */
}

/* ---- the merge rule on a hand-made row ---------------------------------- */

/* One rank; each action's [start, end) in pixels from the plot's left edge
 * (the view maps 1 time unit to 1 pixel, plot_x = 100). */
typedef struct row {
    action actions[16];
    action_time time[16];
    action_time *time_rows[1];
    program_rank rank;
    program prog;
    timeline tl;
    timeline_view v;
} row;

static void row_init(row *r)
{
    static const struct {
        action_kind kind;
        double start, end;
    } spec[] = {
        {ACTION_F, 0.0, 0.6},      {ACTION_B, 0.6, 0.9},                       /* col 0: F 0.6 */
        {ACTION_F, 1.0, 1.3},      {ACTION_B, 1.3, 1.8},                       /* col 1: B 0.5 */
        {ACTION_W, 2.0, 2.2},                                                  /* col 2: idle 0.8 */
        {ACTION_W, 3.0, 3.5},      {ACTION_F, 3.5, 3.9}, {ACTION_W, 4.0, 4.6}, /* cols 3-4: W */
        {ACTION_F, 5.2, 8.0},                                                  /* a wide bar */
        {ACTION_B, 8.0, 8.4},      {ACTION_B, 8.4, 8.9},                       /* col 8: B */
        {ACTION_SEND_B, 8.9, 8.9},
    };
    const int n = (int)(sizeof spec / sizeof spec[0]);
    memset(r, 0, sizeof *r);
    for (int k = 0; k < n; k++) {
        r->actions[k] = (action){.kind = (uint8_t)spec[k].kind, .microbatch = k, .microbatch2 = -1};
        r->time[k] = (action_time){spec[k].start, spec[k].end};
    }
    r->rank = (program_rank){.actions = r->actions, .count = n};
    r->prog = (program){.ranks = 1, .stages = 1, .stages_per_rank = 1, .microbatches = n};
    r->prog.rank = &r->rank;
    r->time_rows[0] = r->time;
    r->tl = (timeline){.program = &r->prog, .time = r->time_rows, .makespan = 1000};
    timeline_view_init(&r->v, 1000, 1, false);
    timeline_view_set_rect(&r->v, 0, 0, 1200, 200);
    r->v.plot_x = 100;
    r->v.plot_w = 1000;
    r->v.t0 = 0;
    r->v.t1 = 1000;
}

static void test_merge_rule(void **state)
{
    (void)state;
    row r;
    row_init(&r);
    const struct {
        timeline_lod_kind kind;
        action_kind action;
        int first, last;
        float x0, x1;
    } want[] = {
        {TIMELINE_LOD_STRETCH, ACTION_F, 0, 1, 100, 101},
        {TIMELINE_LOD_STRETCH, ACTION_B, 2, 3, 101, 102},
        {TIMELINE_LOD_STRETCH, ACTION_W, 5, 7, 103, 105},
        {TIMELINE_LOD_BAR, ACTION_F, 8, 8, 105.2f, 108},
        {TIMELINE_LOD_STRETCH, ACTION_B, 9, 10, 108, 109},
    };
    timeline_lod_walk w;
    timeline_lod_piece p;
    timeline_lod_begin(&w, &r.tl, &r.v, 0);
    int n = 0;
    while (timeline_lod_next(&w, &p)) {
        assert_lt(n, (int)(sizeof want / sizeof want[0]));
        print_message("piece %d: kind %d action %d actions %d..%d x %.2f..%.2f\n", n, p.kind,
                      p.action, p.first, p.last, p.x0, p.x1);
        assert_int_equal(p.kind, want[n].kind);
        assert_int_equal(p.action, want[n].action);
        assert_int_equal(p.first, want[n].first);
        assert_int_equal(p.last, want[n].last);
        assert_float_equal(p.x0, want[n].x0, 1e-3);
        assert_float_equal(p.x1, want[n].x1, 1e-3);
        n++;
    }
    assert_int_equal(n, (int)(sizeof want / sizeof want[0]));
}

/* The pointer over a merged stretch finds it, and the card counts it; over
 * a mostly idle column, nothing; over the wide bar, the bar. */
static void test_hover_stretch(void **state)
{
    (void)state;
    row r;
    row_init(&r);
    const double y = r.v.row_y + 0.5 * r.v.bar_h;
    timeline_panel_hover h;
    assert_true(timeline_hit_at(&r.v, &r.tl, 104.5, y, &h));
    assert_int_equal(h.kind, TIMELINE_HIT_STRETCH);
    assert_int_equal(h.rank, 0);
    assert_int_equal(h.index, 5);
    timeline_lod_piece p;
    assert_true(timeline_lod_find(&r.tl, &r.v, 0, h.index, &p));
    char text[160];
    timeline_lod_describe(&r.tl, 0, timeline_view_x_to_time(&r.v, p.x0),
                          timeline_view_x_to_time(&r.v, p.x1), p.first, p.last, text, sizeof text);
    print_message("%s\n", text);
    assert_non_null(strstr(text, "rank 0"));
    assert_non_null(strstr(text, "3.00 to 5.00"));
    assert_non_null(strstr(text, "3 actions: 1 F, 2 W"));

    assert_false(timeline_hit_at(&r.v, &r.tl, 102.5, y, &h)); /* col 2: mostly idle */
    assert_true(timeline_hit_at(&r.v, &r.tl, 106.5, y, &h));
    assert_int_equal(h.kind, TIMELINE_HIT_ACTION);
    assert_int_equal(h.index, 8);
    assert_true(timeline_hit_at(&r.v, &r.tl, 100.5, y, &h));
    assert_int_equal(h.kind, TIMELINE_HIT_STRETCH);
    assert_int_equal(h.index, 0);
}

static int setup(void **state)
{
    *state = gl_fixture_new(
        &(gl_fixture_desc){.width = W, .height = H, .font = {.sizes = {14}, .size_count = 1}});
    return *state ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_batches_keep_strict_order),
        cmocka_unit_test(test_merge_rule),
        cmocka_unit_test(test_hover_stretch),
    };
    return cmocka_run_group_tests(tests, setup, gl_fixture_teardown);
}
