/* Anti-aliasing of the 3D view (render/scene_aa.h, render/edge_aa.h).
 *
 * The measure: a frame against the same frame drawn at 4 x 4 its size and
 * box-filtered down (the reference: 16 samples a pixel), as the mean
 * absolute error per channel (0..255) over the edge pixels of the 3D view:
 * pixels where the reference's Sobel magnitude (of its luma) is at least
 * EDGE_SOBEL, inside the view less a 2-pixel border. The frames are bare
 * (frame_view.bare: no HUD, labels or caption), so that the view holds the
 * 3D scene alone: text and line widths follow the frame's height, and a
 * 4x frame's overlay would be another picture, not a finer one. The default
 * scenario at 1920x1080, t = 12 and t = 37, with the default camera.
 *
 * Held: supersampling (stills, PNG frames) at most half the error of the
 * frame as rasterised, edge anti-aliasing (the window, MP4, GIF) under
 * EDGE_MAX_SHARE of it, multisampling (the window on a GPU; llvmpipe
 * draws it too, slowly) under MULTISAMPLE_MAX_SHARE and no worse than edge
 * anti-aliasing; the bounds are ones the rasterised frame fails.
 * The figures are printed (README's Export section sums them up).
 *
 * Also: the same frame drawn twice gives the same bytes whatever was drawn
 * between; export's pass, done on the frame read back, gives the bytes of
 * the pass done in the target; the morphological filter on pictures whose right answer is
 * known (a staircase against the area its line covers, within a tenth of
 * the error it had; a flat picture, a
 * rectangle's corners and an edge already smooth left as they are).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edge_aa.h"
#include "support/check.h"
#include "support/frame_fixture.h"

enum { W = 1920, H = 1080, SS = 4 };
#define EDGE_SOBEL 64.0
#define SUPERSAMPLE_MAX_SHARE 0.5
#define EDGE_MAX_SHARE 0.95
#define MULTISAMPLE_MAX_SHARE 0.8

/* Mean absolute difference per colour channel (R, G, B) of two w x h frames. */
static double mean_abs_diff(const uint8_t *a, const uint8_t *b, int w, int h)
{
    double sum = 0;
    for (size_t p = 0; p < (size_t)w * (size_t)h; p++)
        for (int c = 0; c < 3; c++)
            sum += fabs((double)a[p * 4 + (size_t)c] - (double)b[p * 4 + (size_t)c]);
    return sum / (3.0 * (double)w * (double)h);
}

static double luma(const uint8_t *p)
{
    return 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
}

/* The measure (above) of frame a against the reference. */
static double edge_error(const uint8_t *a, const uint8_t *ref, frame_layout l, long *edges)
{
    double sum = 0;
    long n = 0;
    const int x0 = (int)l.view_x + 2, y0 = (int)l.view_y + 2;
    const int x1 = (int)(l.view_x + l.view_w) - 2, y1 = (int)(l.view_y + l.view_h) - 2;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            double g[3][3];
            for (int j = -1; j <= 1; j++)
                for (int i = -1; i <= 1; i++)
                    g[j + 1][i + 1] = luma(ref + ((size_t)(y + j) * W + (size_t)(x + i)) * 4);
            const double gx = (g[0][2] + 2 * g[1][2] + g[2][2]) - (g[0][0] + 2 * g[1][0] + g[2][0]);
            const double gy = (g[2][0] + 2 * g[2][1] + g[2][2]) - (g[0][0] + 2 * g[0][1] + g[0][2]);
            if (sqrt(gx * gx + gy * gy) < EDGE_SOBEL)
                continue;
            const uint8_t *p = a + ((size_t)y * W + (size_t)x) * 4;
            const uint8_t *q = ref + ((size_t)y * W + (size_t)x) * 4;
            for (int c = 0; c < 3; c++)
                sum += fabs((double)p[c] - (double)q[c]);
            n++;
        }
    *edges = n;
    return n ? sum / (3.0 * (double)n) : 0;
}

/* The reference of the bare frame at t with camera cam: drawn at SS x SS
 * the size with no anti-aliasing, each SS x SS block averaged. */
static uint8_t *reference(double t, const camera *cam)
{
    frame_fixture *big = frame_fixture_new(NULL, NULL, 0, SS * W, SS * H);
    frame_view v = offscreen_default_view(&big->o, t, THEME_DARK, CAMERA_PRESET_DEFAULT);
    v.cam = *cam;
    v.bare = true;
    v.aa = SCENE_AA_OFF;
    frame_fixture_draw(big, &v);
    uint8_t *ref = malloc((size_t)W * H * 4);
    assert_non_null(ref);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            for (int c = 0; c < 4; c++) {
                unsigned s = 0;
                for (int j = 0; j < SS; j++)
                    for (int i = 0; i < SS; i++)
                        s +=
                            big->pixels[((size_t)(SS * y + j) * SS * W + (size_t)(SS * x + i)) * 4 +
                                        (size_t)c];
                ref[((size_t)y * W + (size_t)x) * 4 + (size_t)c] =
                    (uint8_t)((s + SS * SS / 2) / (SS * SS));
            }
    frame_fixture_free(big);
    return ref;
}

static void expect_edges_smoothed(double t)
{
    frame_fixture *x = frame_fixture_new(NULL, NULL, 0, W, H);
    frame_view v = offscreen_default_view(&x->o, t, THEME_DARK, CAMERA_PRESET_DEFAULT);
    v.bare = true;
    const frame_layout l = frame_layout_of(&v, W, H);
    static const scene_aa_mode modes[] = {SCENE_AA_OFF, SCENE_AA_EDGE, SCENE_AA_SUPERSAMPLE,
                                          SCENE_AA_MULTISAMPLE};
    enum { MODES = sizeof modes / sizeof modes[0] };
    uint8_t *shot[MODES];
    for (int m = 0; m < MODES; m++) {
        v.aa = modes[m];
        frame_fixture_draw(x, &v);
        shot[m] = malloc((size_t)W * H * 4);
        assert_non_null(shot[m]);
        memcpy(shot[m], x->pixels, (size_t)W * H * 4);
    }
    const camera cam = v.cam;
    frame_fixture_free(x);

    uint8_t *ref = reference(t, &cam);
    double e[MODES];
    long edges = 0;
    for (int m = 0; m < MODES; m++) {
        e[m] = edge_error(shot[m], ref, l, &edges);
        print_message("t = %g, %dx%d: edge error %.2f with --aa %s (%ld edge pixels)\n", t, W, H,
                      e[m], scene_aa_name(modes[m]), edges);
        free(shot[m]);
    }
    free(ref);
    /* the measure sees the scene's edges at all */
    assert_true(edges > 1000);
    assert_true(e[0] > 1.0);
    if (e[2] > SUPERSAMPLE_MAX_SHARE * e[0])
        fail_msg("t = %g: supersampled edge error %.2f over %.2f (%.2f x the rasterised %.2f)", t,
                 e[2], SUPERSAMPLE_MAX_SHARE * e[0], SUPERSAMPLE_MAX_SHARE, e[0]);
    if (e[3] > MULTISAMPLE_MAX_SHARE * e[0])
        fail_msg("t = %g: multisampled edge error %.2f over %.2f (%.2f x the rasterised %.2f)", t,
                 e[3], MULTISAMPLE_MAX_SHARE * e[0], MULTISAMPLE_MAX_SHARE, e[0]);
    if (e[3] > e[1])
        fail_msg("t = %g: multisampled edge error %.2f over the edge-smoothed %.2f", t, e[3], e[1]);
    if (e[1] > EDGE_MAX_SHARE * e[0])
        fail_msg("t = %g: edge-smoothed error %.2f over %.2f (%.2f x the rasterised %.2f)", t, e[1],
                 EDGE_MAX_SHARE * e[0], EDGE_MAX_SHARE, e[0]);
}

static void test_edge_error_t12(void **state)
{
    (void)state;
    expect_edges_smoothed(12);
}

static void test_edge_error_t37(void **state)
{
    (void)state;
    expect_edges_smoothed(37);
}

/* The same frame twice, another between them: the same bytes, each mode;
 * the two modes that smooth change the view and nothing outside it; and
 * edge smoothing, done once the overlay is drawn, changes no pixel of the
 * text drawn over the view (labels, HUD, caption: the overlay is kept). */
static void test_deterministic_and_view_only(void **state)
{
    (void)state;
    enum { w = 640, h = 360 };
    frame_fixture *x = frame_fixture_new(NULL, NULL, 0, w, h);
    const size_t bytes = (size_t)w * h * 4;
    uint8_t *first = malloc(bytes), *off = malloc(bytes);
    assert_non_null(first);
    assert_non_null(off);
    frame_view v = offscreen_default_view(&x->o, 12, THEME_DARK, CAMERA_PRESET_DEFAULT);
    v.aa = SCENE_AA_OFF;
    text_rect rects[256];
    text_stats stats = {.rects = rects, .rect_capacity = 256};
    x->o.frame.font.stats = &stats;
    frame_fixture_draw(x, &v);
    x->o.frame.font.stats = NULL;
    memcpy(off, x->pixels, bytes);
    const frame_layout l = frame_layout_of(&v, w, h);
    static const scene_aa_mode smoothing[] = {SCENE_AA_EDGE, SCENE_AA_SUPERSAMPLE,
                                              SCENE_AA_MULTISAMPLE};
    for (size_t i = 0; i < sizeof smoothing / sizeof smoothing[0]; i++) {
        const scene_aa_mode m = smoothing[i];
        v.aa = m;
        v.t = 12;
        frame_fixture_draw(x, &v);
        memcpy(first, x->pixels, bytes);
        v.t = 37;
        frame_fixture_draw(x, &v);
        v.t = 12;
        frame_fixture_draw(x, &v);
        if (memcmp(first, x->pixels, bytes) != 0)
            fail_msg("--aa %s: the frame at t = 12 drawn again differs", scene_aa_name(m));
        long inside = 0, outside = 0;
        for (int y = 0; y < h; y++)
            for (int xx = 0; xx < w; xx++) {
                const size_t k = ((size_t)y * w + (size_t)xx) * 4;
                if (!memcmp(first + k, off + k, 4))
                    continue;
                const bool in_view = xx >= (int)l.view_x && xx < (int)(l.view_x + l.view_w) &&
                                     y >= (int)l.view_y && y < (int)(l.view_y + l.view_h);
                if (in_view)
                    inside++;
                else
                    outside++;
            }
        long in_text = 0, text_pixels = 0;
        for (int i = 0; i < stats.rect_count; i++) {
            const text_rect *t = &rects[i];
            for (int y = (int)t->y0; y < (int)t->y1 + 1; y++)
                for (int xx = (int)t->x0; xx < (int)t->x1 + 1; xx++) {
                    if (xx < (int)l.view_x || xx >= (int)(l.view_x + l.view_w) ||
                        y < (int)l.view_y || y >= (int)(l.view_y + l.view_h))
                        continue;
                    const size_t k = ((size_t)y * w + (size_t)xx) * 4;
                    text_pixels++;
                    in_text += memcmp(first + k, off + k, 4) != 0;
                }
        }
        print_message("--aa %s: %ld pixels of the view differ from --aa off, %ld outside it, %ld "
                      "of %ld under its text\n",
                      scene_aa_name(m), inside, outside, in_text, text_pixels);
        assert_true(inside > 0);
        assert_int_equal(outside, 0);
        assert_true(text_pixels > 1000);
        if (m == SCENE_AA_EDGE) /* drawn apart, the view under translucent plates differs */
            assert_int_equal(in_text, 0);
    }
    free(first);
    free(off);
    frame_fixture_free(x);
}

/* Rows reversed in place: offscreen_read's top row first to GL's bottom
 * row first, and back. */
static void flip_rows(uint8_t *px, int w, int h)
{
    const size_t row = (size_t)w * 4;
    uint8_t *tmp = malloc(row);
    assert_non_null(tmp);
    for (int top = 0, bottom = h - 1; top < bottom; top++, bottom--) {
        memcpy(tmp, px + row * (size_t)top, row);
        memcpy(px + row * (size_t)top, px + row * (size_t)bottom, row);
        memcpy(px + row * (size_t)bottom, tmp, row);
    }
    free(tmp);
}

/* Export's way (scene_aa_defer): the pass noted at the end of the frame
 * and done on the whole frame read back gives the bytes the pass done in
 * the target gives, overlay kept; the frame drawn deferred is the frame as
 * rasterised until then; and a frame drawn again defers its own pass, not
 * one left over. */
static void test_deferred_same_bytes(void **state)
{
    (void)state;
    enum { w = 640, h = 360 };
    const size_t bytes = (size_t)w * h * 4;
    frame_fixture *x = frame_fixture_new(NULL, NULL, 0, w, h);
    uint8_t *in_target = malloc(bytes), *off = malloc(bytes);
    assert_non_null(in_target);
    assert_non_null(off);
    frame_view v = offscreen_default_view(&x->o, 12, THEME_DARK, CAMERA_PRESET_DEFAULT);
    v.aa = SCENE_AA_OFF;
    frame_fixture_draw(x, &v);
    memcpy(off, x->pixels, bytes);
    v.aa = SCENE_AA_EDGE;
    frame_fixture_draw(x, &v);
    memcpy(in_target, x->pixels, bytes);

    scene_aa_deferred pass = {0};
    scene_aa_filter filter = {0};
    offscreen_defer_aa(&x->o, true);
    for (int round = 0; round < 2; round++) {
        frame_fixture_draw(x, &v);
        offscreen_take_aa(&x->o, &pass);
        assert_int_equal(pass.count, 1);
        if (memcmp(x->pixels, off, bytes) != 0)
            fail_msg("drawn deferred, the frame is not the frame as rasterised");
        flip_rows(x->pixels, w, h);
        const long changed = scene_aa_apply(&filter, &pass, x->pixels, (size_t)w * 4);
        flip_rows(x->pixels, w, h);
        print_message("deferred: %ld pixels changed\n", changed);
        assert_true(changed > 0);
        if (memcmp(x->pixels, in_target, bytes) != 0)
            fail_msg("round %d: smoothed in memory, the frame differs from the one smoothed in "
                     "the target (mean difference %.3f)",
                     round, mean_abs_diff(x->pixels, in_target, w, h));
    }
    /* nothing drawn since: nothing to take */
    offscreen_take_aa(&x->o, &pass);
    assert_int_equal(pass.count, 0);
    offscreen_defer_aa(&x->o, false);
    frame_fixture_draw(x, &v);
    assert_memory_equal(x->pixels, in_target, bytes);
    scene_aa_deferred_deinit(&pass);
    scene_aa_filter_deinit(&filter);
    free(in_target);
    free(off);
    frame_fixture_free(x);
}

/* ---- the filter alone ----------------------------------------------------- */

enum { PW = 96, PH = 48 };
static const uint8_t DARK[4] = {20, 24, 30, 255}, LIGHT[4] = {230, 120, 10, 255};

static void fill(uint8_t *px, int x, int y, const uint8_t c[4])
{
    memcpy(px + ((size_t)y * PW + (size_t)x) * 4, c, 4);
}

/* A staircase: the line y = 20 + x / 8 rasterised by pixel centres (light
 * below it), against the share of each pixel the line really covers. The
 * filter must take the error of the pixels along it to under a tenth. */
static void test_staircase_towards_coverage(void **state)
{
    (void)state;
    uint8_t *px = malloc((size_t)PW * PH * 4);
    assert_non_null(px);
    for (int y = 0; y < PH; y++)
        for (int x = 0; x < PW; x++)
            fill(px, x, y, (y + 0.5) > 20 + (x + 0.5) / 8.0 ? LIGHT : DARK);
    uint8_t *before = malloc((size_t)PW * PH * 4);
    assert_non_null(before);
    memcpy(before, px, (size_t)PW * PH * 4);
    edge_aa a = {0};
    edge_aa_apply(&a, px, PW, PH, (size_t)PW * 4, NULL);
    assert_true(a.edge_pixels > 0);
    double err_before = 0, err_after = 0;
    for (int x = 8; x < PW - 8; x++) /* away from the picture's sides */
        for (int y = 16; y < 36; y++) {
            /* the share of pixel (x, y) under the line, by 64 x 64 samples */
            int below = 0;
            for (int j = 0; j < 64; j++)
                for (int i = 0; i < 64; i++)
                    below += (y + (j + 0.5) / 64) > 20 + (x + (i + 0.5) / 64) / 8.0;
            const double cover = below / 4096.0;
            const double want = DARK[0] + cover * (LIGHT[0] - DARK[0]);
            err_before += fabs(before[((size_t)y * PW + (size_t)x) * 4] - want);
            err_after += fabs(px[((size_t)y * PW + (size_t)x) * 4] - want);
        }
    print_message("staircase: red error %.0f before, %.0f after\n", err_before, err_after);
    assert_true(err_after < 0.1 * err_before);
    edge_aa_deinit(&a);
    free(before);
    free(px);
}

/* Pictures with nothing to smooth stay as they are: flat, an axis-aligned
 * rectangle (its corners are corners, not steps), a soft edge (a ramp, as
 * the faces' rims are drawn), in a buffer with padding after each row. */
static void test_nothing_to_smooth(void **state)
{
    (void)state;
    const size_t stride = (size_t)PW * 4 + 12;
    uint8_t *px = malloc(stride * PH), *copy = malloc(stride * PH);
    assert_non_null(px);
    assert_non_null(copy);
    edge_aa a = {0};
    for (int picture = 0; picture < 3; picture++) {
        for (int y = 0; y < PH; y++)
            for (int x = 0; x < PW; x++) {
                uint8_t *p = px + stride * (size_t)y + (size_t)x * 4;
                const uint8_t *c = DARK;
                if (picture == 1 && x >= 20 && x < 70 && y >= 10 && y < 30)
                    c = LIGHT;
                memcpy(p, c, 4);
                if (picture == 2) { /* a vertical edge spread over four pixels */
                    const int k = x < 40 ? 0 : x > 43 ? 4 : x - 39;
                    for (int ch = 0; ch < 3; ch++)
                        p[ch] = (uint8_t)(DARK[ch] + (LIGHT[ch] - DARK[ch]) * k / 4);
                }
            }
        memcpy(copy, px, stride * PH);
        edge_aa_apply(&a, px, PW, PH, stride, NULL);
        if (memcmp(copy, px, stride * PH) != 0)
            fail_msg("picture %d (flat, rectangle, ramp): %ld pixels changed", picture,
                     a.edge_pixels);
    }
    edge_aa_deinit(&a);
    free(px);
    free(copy);
}

/* The live view's mode follows the renderer: the morphological pass on a
 * CPU rasteriser, multisampling on a GPU (GL_RENDERER strings as read). */
static void test_live_mode_follows_renderer(void **state)
{
    (void)state;
    assert_int_equal(scene_aa_for_renderer("llvmpipe (LLVM 15.0.6, 256 bits)"), SCENE_AA_EDGE);
    assert_int_equal(scene_aa_for_renderer("softpipe"), SCENE_AA_EDGE);
    assert_int_equal(scene_aa_for_renderer("Google SwiftShader"), SCENE_AA_EDGE);
    assert_int_equal(scene_aa_for_renderer(NULL), SCENE_AA_EDGE);
    assert_int_equal(scene_aa_for_renderer("NVIDIA H200/PCIe/SSE2"), SCENE_AA_MULTISAMPLE);
    assert_int_equal(
        scene_aa_for_renderer("AMD Radeon RX 7900 XTX (radeonsi, navi31, LLVM 15.0.6)"),
        SCENE_AA_MULTISAMPLE);
    assert_int_equal(scene_aa_for_renderer("Mesa Intel(R) UHD Graphics 620 (KBL GT2)"),
                     SCENE_AA_MULTISAMPLE);
    assert_string_equal(scene_aa_name(SCENE_AA_MULTISAMPLE), "msaa");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_live_mode_follows_renderer),
        cmocka_unit_test(test_staircase_towards_coverage),
        cmocka_unit_test(test_nothing_to_smooth),
        cmocka_unit_test(test_deterministic_and_view_only),
        cmocka_unit_test(test_deferred_same_bytes),
        cmocka_unit_test(test_edge_error_t12),
        cmocka_unit_test(test_edge_error_t37),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
