/* Headless render tests (EGL on llvmpipe, no X server): whole frames drawn
 * the way the viewer and export draw them, checked by pixel probes at the
 * screen positions of known objects in known states, by the timeline
 * cursor's column, by purity (the same t gives the same pixels whatever was
 * drawn before) and against golden images with a tolerance.
 *
 * Golden images live in tests/data/golden/. After a deliberate change of the
 * picture, look at the new frames and rewrite them with
 *     PPFLOW_UPDATE_GOLDEN=1 ./tests/test_render
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "image_png.h"
#include "keymap.h"
#include "offscreen.h"
#include "session.h"
#include "support/check.h"
#include "support/frame_fixture.h"

enum { W = 640, H = 360 };

typedef frame_fixture fixture;

/* The role whose colour is nearest in brightness-normalised RGB (faces are
 * shaded x0.72..1, so compare directions), each role taken as drawn over
 * the background at the opacity of translucent boxes. */
static int nearest_role(const theme *th, const uint8_t *p)
{
    int best = -1;
    double best_d = 1e9;
    const double alpha = 0.85;
    for (int r = 0; r < SCENE_ROLE_COUNT; r++) {
        rgba8 c = th->role[r], bg = th->background;
        bool box = r == SCENE_ROLE_MATMUL || r == SCENE_ROLE_P2P || r == SCENE_ROLE_ALLREDUCE;
        double a_ = box ? alpha : 1;
        double a[3] = {p[0], p[1], p[2]};
        double b[3] = {c.r * a_ + bg.r * (1 - a_), c.g * a_ + bg.g * (1 - a_),
                       c.b * a_ + bg.b * (1 - a_)};
        double na = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]) + 1e-9;
        double nb = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]) + 1e-9;
        double d = 0;
        for (int k = 0; k < 3; k++)
            d += (a[k] / na - b[k] / nb) * (a[k] / na - b[k] / nb);
        if (d < best_d)
            best_d = d, best = r;
    }
    return best;
}

/* Where a world point lands in the frame, given the frame's layout. */
static void project(const fixture *x, const frame_view *v, const float world[3], int *px, int *py)
{
    frame_layout l = frame_layout_compute(x->o.width, x->o.height, v->split, v->ui_scale);
    float fx, fy;
    assert_true(camera_project(&v->cam, l.view_w / l.view_h, world, (int)l.view_w, (int)l.view_h,
                               &fx, &fy));
    *px = (int)lrintf(fx + l.view_x);
    *py = (int)lrintf(fy + l.view_y);
}

static void expect_role_at(const fixture *x, const frame_view *v, const float world[3], int role,
                           const char *what)
{
    theme th = theme_get(v->theme);
    int px, py;
    project(x, v, world, &px, &py);
    const uint8_t *p = frame_fixture_pixel(x, px, py);
    int got = nearest_role(&th, p);
    if (got != role)
        fail_msg("%s at (%d, %d): rgb(%d, %d, %d) looks like role %d, expected role %d", what, px,
                 py, p[0], p[1], p[2], got, role);
}

/* From above, stage 1's block wears the forward's colour while its F runs
 * and the backward's while its B runs, as the timeline's bars do. */
static void test_activation_face_probe(void **state)
{
    (void)state;
    fixture *x = frame_fixture_new(NULL, NULL, 0, W, H);
    const scene *s = &x->s.scene;
    const timeline_cell *c = timeline_cell_at(&s->cells, 1, 3);
    frame_view v = offscreen_default_view(&x->o, c->f_start + 0.9 * (c->f_end - c->f_start),
                                          THEME_DARK, CAMERA_PRESET_TOP);
    v.bare = true;
    frame_fixture_draw(x, &v);
    scene_box b = scene_object_box(s, SCENE_BLOCK, 1, 0, 0);
    const float top[3] = {0.5f * (b.min[0] + b.max[0]), 0.5f * (b.min[1] + b.max[1]), b.max[2]};
    expect_role_at(x, &v, top, SCENE_ROLE_ACTIVATION, "stage 1's block during F of micro-batch 3");

    v.t = 0.5 * (c->b_start + c->b_end);
    frame_fixture_draw(x, &v);
    expect_role_at(x, &v, top, SCENE_ROLE_GRADIENT, "stage 1's block during B of micro-batch 3");
    frame_fixture_free(x);
}

/* Whether the pixel where a world point lands looks like the role. */
static bool role_at(const fixture *x, const frame_view *v, const float world[3], int role)
{
    theme th = theme_get(v->theme);
    int px, py;
    project(x, v, world, &px, &py);
    return nearest_role(&th, frame_fixture_pixel(x, px, py)) == role;
}

/* Whether the pixel where a world point lands is a tensor of the role: its
 * colour, and nearly as bright (a lit wire under the tensor's way wears
 * the colour too, darker). */
static bool tensor_at(const fixture *x, const frame_view *v, const float world[3], int role)
{
    theme th = theme_get(v->theme);
    int px, py;
    project(x, v, world, &px, &py);
    const uint8_t *p = frame_fixture_pixel(x, px, py);
    const rgba8 c = th.role[role];
    const int bright = p[0] > p[1] ? (p[0] > p[2] ? p[0] : p[2]) : (p[1] > p[2] ? p[1] : p[2]);
    const int full = c.r > c.g ? (c.r > c.b ? c.r : c.b) : (c.g > c.b ? c.g : c.b);
    return role_at(x, v, world, role) && bright >= 0.75 * full;
}

/* The top of the slab of boundary 0 and micro-batch 0, in state o. */
static void slab_top(const scene *s, const object_state *o, float out[3])
{
    scene_box b;
    assert_true(scene_object_place(s, SCENE_SLAB, 0, 0, 0, o, &b));
    out[0] = 0.5f * (b.min[0] + b.max[0]);
    out[1] = 0.5f * (b.min[1] + b.max[1]);
    out[2] = b.max[2];
}

/* A send's activation slab is drawn at the producer when the send starts
 * and at the consumer when it ends, in the activation colour, and the gap
 * is empty before the send. The wire under its way is lit in that colour,
 * darker (rgb(9, 87, 68) against the slab's (0, 141, 103) on the dark
 * theme), while the send runs, and only then. */
static void test_p2p_slab_probe(void **state)
{
    (void)state;
    /* longer than the shortest time a send is shown (scene.h, "Zero time"):
     * the tensor moves at the send's real times; one micro-batch, so that
     * no other send is on the wire */
    static const session_flag flags[] = {
        {"p2p", "2"}, {"microbatches", "1"}, {"schedule", "gpipe"}};
    fixture *x = frame_fixture_new(NULL, flags, 3, 2 * W, 2 * H); /* the slab big enough to probe */
    const scene *s = &x->s.scene;
    const timeline_cell *c = timeline_cell_at(&s->cells, 0, 0);
    const double arrive = timeline_input_ready(&s->cells, 1, 0);
    object_state at_start = {.visible = 1, .travel = 0}, at_end = {.visible = 1, .travel = 1};
    float p0[3], p1[3];
    slab_top(s, &at_start, p0);
    slab_top(s, &at_end, p1);
    object_state forward = {.visible = 1};
    scene_box wire;
    assert_true(scene_object_place(s, SCENE_P2P, 0, 0, 0, &forward, &wire));
    /* ahead of the tensor, which is halfway at the time probed */
    const float lane[3] = {wire.min[0] + 0.85f * (wire.max[0] - wire.min[0]),
                           0.5f * (wire.min[1] + wire.max[1]), 0};
    frame_view v = offscreen_default_view(&x->o, c->f_end, THEME_DARK, CAMERA_PRESET_TOP);
    v.bare = true;
    v.t = c->f_end + 0.5 * (arrive - c->f_end);
    frame_fixture_draw(x, &v);
    if (!role_at(x, &v, lane, SCENE_ROLE_ACTIVATION))
        fail_msg("the wire not lit while the send runs");
    v.t = c->f_end;
    frame_fixture_draw(x, &v);
    if (!tensor_at(x, &v, p0, SCENE_ROLE_ACTIVATION))
        fail_msg("no activation slab at the producer when the send starts");
    if (tensor_at(x, &v, p1, SCENE_ROLE_ACTIVATION))
        fail_msg("an activation slab at the consumer when the send starts");
    v.t = arrive;
    frame_fixture_draw(x, &v);
    if (!tensor_at(x, &v, p1, SCENE_ROLE_ACTIVATION))
        fail_msg("no activation slab at the consumer when the send ends");
    if (tensor_at(x, &v, p0, SCENE_ROLE_ACTIVATION)) {
        int px, py;
        project(x, &v, p0, &px, &py);
        const uint8_t *q = frame_fixture_pixel(x, px, py);
        fail_msg("the slab still at the producer when the send ends: rgb(%d, %d, %d) at (%d, %d)",
                 q[0], q[1], q[2], px, py);
    }
    /* Before the send, the gap is empty. */
    v.t = c->f_end - 0.25;
    frame_fixture_draw(x, &v);
    if (tensor_at(x, &v, p0, SCENE_ROLE_ACTIVATION) || tensor_at(x, &v, p1, SCENE_ROLE_ACTIVATION))
        fail_msg("a slab drawn before its send");
    if (role_at(x, &v, lane, SCENE_ROLE_ACTIVATION))
        fail_msg("the wire lit before its send");
    frame_fixture_free(x);
}

/* The timeline cursor is drawn at time_to_x(t) in every row. */
static void test_timeline_cursor(void **state)
{
    (void)state;
    fixture *x = frame_fixture_new(NULL, NULL, 0, W, H);
    timeline_palette pal = theme_get(THEME_DARK).timeline;
    const double ts[] = {0.5, 7.25, 20, 32.5};
    for (size_t k = 0; k < sizeof ts / sizeof ts[0]; k++) {
        frame_view v = offscreen_default_view(&x->o, ts[k], THEME_DARK, CAMERA_PRESET_DEFAULT);
        frame_fixture_draw(x, &v);
        /* the view as the frame placed it */
        frame_layout l = frame_layout_of(&v, x->o.width, x->o.height);
        timeline_view placed = v.timeline;
        frame_layout_place_timeline(&l, &placed);
        const timeline_view *tv = &placed;
        int cx = (int)floor(timeline_view_time_to_x(tv, ts[k]));
        int hits = 0, probes = 0;
        for (float y = tv->plot_y + 2; y < tv->plot_y + tv->plot_h - 2; y += tv->plot_h / 12) {
            probes++;
            for (int dx = -1; dx <= 1; dx++) {
                const uint8_t *p = frame_fixture_pixel(x, cx + dx, (int)y);
                if (abs(p[0] - pal.cursor.r) < 12 && abs(p[1] - pal.cursor.g) < 12 &&
                    abs(p[2] - pal.cursor.b) < 12) {
                    hits++;
                    break;
                }
            }
        }
        if (hits < probes * 3 / 4)
            fail_msg("t = %g: cursor colour at x = %d in %d of %d rows probed", ts[k], cx, hits,
                     probes);
    }
    frame_fixture_free(x);
}

/* The picture at t does not depend on what was drawn before. */
static void test_same_t_same_pixels(void **state)
{
    (void)state;
    fixture *x = frame_fixture_new(NULL, NULL, 0, 320, 180);
    size_t n = 320 * 180 * 4;
    uint8_t *first = malloc(n);
    frame_view v = offscreen_default_view(&x->o, 12.3, THEME_DARK, CAMERA_PRESET_DEFAULT);
    frame_fixture_draw(x, &v);
    memcpy(first, x->pixels, n);
    v.t = 30;
    frame_fixture_draw(x, &v);
    v.t = 1;
    frame_fixture_draw(x, &v);
    v.t = 12.3;
    frame_fixture_draw(x, &v);
    assert_memory_equal(first, x->pixels, n);
    free(first);
    frame_fixture_free(x);
}

/* Compares the frame with a golden PNG: at most 0.5% of pixels may differ
 * by more than 24 in a channel (driver versions round differently), and
 * the mean difference stays under 2. */
static void compare_golden(const fixture *x, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/tests/data/golden/%s", PPFLOW_SOURCE_DIR, name);
    ppf_error err = {{0}};
    const char *update = getenv("PPFLOW_UPDATE_GOLDEN");
    if (update && update[0] == '1') {
        if (!image_write_png(path, x->pixels, x->o.width, x->o.height, 0, false, &err))
            fail_msg("%s", err.message);
        print_message("wrote %s\n", path);
        return;
    }
    image want = {0};
    if (!image_read_png(path, &want, &err))
        fail_msg("%s (PPFLOW_UPDATE_GOLDEN=1 writes it)", err.message);
    assert_int_equal(want.width, x->o.width);
    assert_int_equal(want.height, x->o.height);
    long off = 0;
    double sum = 0;
    size_t n = (size_t)want.width * want.height;
    for (size_t i = 0; i < n; i++) {
        int worst = 0;
        for (int k = 0; k < 3; k++) {
            int d = abs((int)want.rgba[i * 4 + k] - (int)x->pixels[i * 4 + k]);
            worst = d > worst ? d : worst;
            sum += d;
        }
        off += worst > 24;
    }
    double mean = sum / (3.0 * n);
    if (off > (long)(n / 200) || mean > 2)
        fail_msg("%s: %ld of %zu pixels differ by more than 24, mean difference %.2f", name, off, n,
                 mean);
    image_deinit(&want);
}

static void test_golden_frames(void **state)
{
    (void)state;
    fixture *x = frame_fixture_new(NULL, NULL, 0, W, H);
    frame_help_item help[KEYMAP_ROWS_MAX];
    const int help_count = keymap_card(help, KEYMAP_ROWS_MAX, KEYMAP_WINDOW);
    struct {
        double t;
        theme_id theme;
        camera_preset cam;
        bool help;
        const char *name;
    } frames[] = {
        {6.5, THEME_DARK, CAMERA_PRESET_DEFAULT, false, "default_t6.5_dark.png"},
        {20.2, THEME_LIGHT, CAMERA_PRESET_DEFAULT, false, "default_t20.2_light.png"},
        {26, THEME_DARK, CAMERA_PRESET_TOP, true, "default_t26_top_help.png"},
    };
    for (size_t k = 0; k < sizeof frames / sizeof frames[0]; k++) {
        frame_view v = offscreen_default_view(&x->o, frames[k].t, frames[k].theme, frames[k].cam);
        v.show_help = frames[k].help;
        v.help = help;
        v.help_count = help_count;
        frame_fixture_draw(x, &v);
        compare_golden(x, frames[k].name);
    }
    frame_fixture_free(x);
}

/* ---- rims follow the UI scale -------------------------------------------------- */

/* Pixels of the 3D view within 24 of the theme's edge colour. */
static long edge_pixels(const fixture *x, const frame_view *v)
{
    frame_layout l = frame_layout_compute(x->o.width, x->o.height, v->split, v->ui_scale);
    rgba8 e = theme_get(v->theme).edge;
    long n = 0;
    for (int py = (int)l.view_y; py < (int)(l.view_y + l.view_h); py++)
        for (int px = (int)l.view_x; px < (int)(l.view_x + l.view_w); px++) {
            const uint8_t *p = frame_fixture_pixel(x, px, py);
            n += abs(p[0] - e.r) <= 24 && abs(p[1] - e.g) <= 24 && abs(p[2] - e.b) <= 24;
        }
    return n;
}

/* The faces' rims in 3D are as wide as the frame's lines: the same view at
 * UI scale 2 (lines 3 px at 720 rows, against 1 at scale 1) has about as
 * many more rim pixels (faces are near enough for rims that wide), so rims
 * stay visible wherever text is made larger. */
static void test_rims_follow_ui_scale(void **state)
{
    (void)state;
    fixture *x = frame_fixture_new(NULL, NULL, 0, 2 * W, 2 * H);
    frame_view v = offscreen_default_view(&x->o, 6.5, THEME_LIGHT, CAMERA_PRESET_DEFAULT);
    v.bare = true; /* no labels or cards over the scene: only the 3D view changes */
    /* closer, so that faces are wide enough for 3 px rims (rims stay under a
     * sixth of a face), but not so close that the larger text's view draws
     * the GPU level where the smaller's draws the detail */
    v.cam.distance *= 0.7f;
    long count[2];
    float line[2];
    for (int k = 0; k < 2; k++) {
        v.ui_scale = k == 0 ? 1 : 2; /* the camera stays: only the rims may change */
        const frame_layout l = frame_layout_compute(x->o.width, x->o.height, v.split, v.ui_scale);
        line[k] = l.line_px;
        /* the same picture at both: labels in ems choose it (scene_renderer_level) */
        assert_int_equal(scene_renderer_level(&x->o.session->scene, &v.cam, l.view_w, l.view_h,
                                              (float)l.small_px),
                         SCENE_LEVEL_GPU);
        frame_fixture_draw(x, &v);
        count[k] = edge_pixels(x, &v);
    }
    print_message("rim pixels: %ld at ui 1 (lines %.0f px), %ld at ui 2 (lines %.0f px)\n",
                  count[0], line[0], count[1], line[1]);
    assert_ge(line[1], 2 * line[0]);
    if (!(count[0] > 1000 && count[1] > 2 * count[0]))
        fail_msg("rim pixels: %ld at UI scale 1, %ld at 2: want over 1000 and twice as many",
                 count[0], count[1]);
    frame_fixture_free(x);
}

/* ---- viewports ---------------------------------------------------------------- */

/* The view a frame of session s at time t starts from, for a viewport of w x h. */
static frame_view view_for(const session *s, double t, int w, int h)
{
    frame_view v = {
        .t = t,
        .theme = THEME_DARK,
        .cam = session_camera(s, CAMERA_PRESET_DEFAULT, w, h, 0, 0),
        .hud_title = s->hud_title,
        .hud_bubble = s->hud_bubble,
        .show_legend = true,
        .caption_rank = -1,
    };
    timeline_panel_view_init(&v.timeline, &s->tl);
    return v;
}

/* Fills the bound target with magenta: pixels no frame drew stay magenta. */
static void clear_magenta(void)
{
    glViewport(0, 0, W, H);
    glClearColor(1, 0, 1, 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
}

/* Pixels of `whole` (W wide) in the rectangle (x, y, w, h) against `part`
 * (w x h): how many differ by more than `slack` in a channel, and the
 * largest difference. */
static long compare_region(const uint8_t *whole, int x, int y, int w, int h, const uint8_t *part,
                           int slack, int *worst)
{
    long off = 0;
    *worst = 0;
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++) {
            const uint8_t *a = whole + ((size_t)(y + r) * W + (size_t)(x + c)) * 4;
            const uint8_t *b = part + ((size_t)r * w + (size_t)c) * 4;
            int d = 0;
            for (int k = 0; k < 3; k++)
                d = abs(a[k] - b[k]) > d ? abs(a[k] - b[k]) : d;
            off += d > slack;
            *worst = d > *worst ? d : *worst;
        }
    return off;
}

/* Pixels of `whole` outside the rectangle that differ from `before`. */
static long changed_outside(const uint8_t *whole, const uint8_t *before, int x, int y, int w, int h)
{
    long n = 0;
    for (int r = 0; r < H; r++)
        for (int c = 0; c < W; c++) {
            if (c >= x && c < x + w && r >= y && r < y + h)
                continue;
            size_t i = ((size_t)r * W + (size_t)c) * 4;
            n += memcmp(whole + i, before + i, 3) != 0;
        }
    return n;
}

static long magenta_inside(const uint8_t *whole, int x, int y, int w, int h)
{
    long n = 0;
    for (int r = y; r < y + h; r++)
        for (int c = x; c < x + w; c++) {
            const uint8_t *p = whole + ((size_t)r * W + (size_t)c) * 4;
            n += p[0] == 255 && p[1] == 0 && p[2] == 255;
        }
    return n;
}

/* Two sessions side by side in one target, and a small preview over the
 * second: each frame draws only inside its viewport, covers all of it, and
 * is the frame drawn alone into a target of the viewport's size. */
static void test_viewports_side_by_side(void **state)
{
    (void)state;
    fixture *x = frame_fixture_new(NULL, NULL, 0, W, H); /* 1F1B; its context, target, renderer */
    static const session_flag gpipe[] = {{"schedule", "gpipe"}, {"microbatches", "6"}};
    session other;
    ppf_error err = {{0}};
    if (!session_build(&other, NULL, gpipe, 2, &err) || !session_build_scene(&other, &err))
        fail_msg("session: %s", err.message);
    /* one renderer, the context's, draws both: each session from its own cache */
    frame_cache fc = {0};
    if (!frame_cache_init(&fc, &x->o.frame, &other.scene, &other.tl, &err))
        fail_msg("frame cache: %s", err.message);
    frame_help_item help[KEYMAP_ROWS_MAX];
    const int help_count = keymap_card(help, KEYMAP_ROWS_MAX, KEYMAP_WINDOW);

    const int half = W / 2, pw = 160, ph = 90, px = W - pw - 10, py = 10;
    frame_view left = view_for(&x->s, 12.3, half, H);
    left.timeline.t0 = 5, left.timeline.t1 = 20; /* zoomed in: the view is the caller's */
    frame_view right = view_for(&other, 7.5, half, H);
    right.show_help = true; /* a card wider than the viewport: cut at its edge */
    right.help = help;
    right.help_count = help_count;
    frame_view preview = view_for(&x->s, 30, pw, ph);

    /* each alone, in a target of its size */
    struct {
        const frame_view *v;
        frame_cache *c;
        int x, y, w, h;
        uint8_t *alone;
    } frames[] = {
        {&left, &x->o.cache[0], 0, 0, half, H, NULL},
        {&right, &fc, half, 0, half, H, NULL},
        {&preview, &x->o.cache[0], px, py, pw, ph, NULL},
    };
    enum { N = sizeof frames / sizeof frames[0] };
    for (int k = 0; k < N; k++) {
        render_target t = {0};
        if (!render_target_init(&t, frames[k].w, frames[k].h, &err))
            fail_msg("target: %s", err.message);
        render_target_bind(&t);
        frame_renderer_draw(&x->o.frame, frames[k].c, frames[k].v, frames[k].w, frames[k].h);
        frames[k].alone = malloc((size_t)frames[k].w * frames[k].h * 4);
        render_target_read(&t, frames[k].alone);
        render_target_deinit(&t);
    }

    /* then into their viewports of one target, one after another */
    size_t n = (size_t)W * H * 4;
    uint8_t *before = malloc(n);
    render_target_bind(&x->o.target);
    clear_magenta();
    render_target_read(&x->o.target, before);
    for (int k = 0; k < N; k++) {
        frame_view v = *frames[k].v;
        v.viewport = (frame_viewport){frames[k].x, frames[k].y, frames[k].w, frames[k].h};
        render_target_bind(&x->o.target);
        frame_renderer_draw(&x->o.frame, frames[k].c, &v, W, H);
        render_target_read(&x->o.target, x->pixels);
        long outside =
            changed_outside(x->pixels, before, frames[k].x, frames[k].y, frames[k].w, frames[k].h);
        long undrawn =
            magenta_inside(x->pixels, frames[k].x, frames[k].y, frames[k].w, frames[k].h);
        /* The same picture, moved: the 3D view's rasteriser maps its
         * viewport through floats, so a shaded pixel may round one level
         * differently (llvmpipe: 2 pixels of 115200, by 1), and an edge
         * that passes exactly through a pixel's centre may flip. */
        int worst;
        long off = compare_region(x->pixels, frames[k].x, frames[k].y, frames[k].w, frames[k].h,
                                  frames[k].alone, 2, &worst);
        print_message("frame %d at (%d, %d) %dx%d: %ld pixels differ by more than 2 from it "
                      "drawn alone (the most by %d), %ld changed outside, %ld undrawn\n",
                      k, frames[k].x, frames[k].y, frames[k].w, frames[k].h, off, worst, outside,
                      undrawn);
        if (outside || undrawn)
            fail_msg("frame %d: %ld pixels changed outside its viewport, %ld left undrawn inside",
                     k, outside, undrawn);
        if (off > (long)frames[k].w * frames[k].h / 1000)
            fail_msg("frame %d: %ld pixels differ by more than 2 from the frame drawn alone", k,
                     off);
        memcpy(before, x->pixels, n);
    }

    for (int k = 0; k < N; k++)
        free(frames[k].alone);
    free(before);
    frame_cache_deinit(&fc);
    session_deinit(&other);
    frame_fixture_free(x);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_activation_face_probe), cmocka_unit_test(test_p2p_slab_probe),
        cmocka_unit_test(test_timeline_cursor),       cmocka_unit_test(test_same_t_same_pixels),
        cmocka_unit_test(test_golden_frames),         cmocka_unit_test(test_viewports_side_by_side),
        cmocka_unit_test(test_rims_follow_ui_scale),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
