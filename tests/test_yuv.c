/* test_yuv.c - the MP4's colour conversion (app/export/yuv.h): BT.709
 * limited-range values of known colours, agreement with libswscale (what
 * ppflow used before, with the same settings), odd sizes, rows bottom up,
 * and bands converted apart. No GL, no files.
 *
 * Planes are allocated at their exact sizes, so a write past one shows
 * under AddressSanitizer. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavutil/pixfmt.h>
#include <libswscale/swscale.h>

#include "encoder.h"
#include "support/check.h"
#include "yuv.h"

/* A converted picture with exactly sized planes. */
typedef struct picture {
    int width, height, cw, ch;
    uint8_t *y, *u, *v;
    yuv_planes planes;
} picture;

static picture picture_new(int width, int height)
{
    picture p = {width, height, (width + 1) / 2, (height + 1) / 2, NULL, NULL, NULL, {0}};
    p.y = malloc((size_t)width * (size_t)height);
    p.u = malloc((size_t)p.cw * (size_t)p.ch);
    p.v = malloc((size_t)p.cw * (size_t)p.ch);
    assert_non_null(p.y);
    assert_non_null(p.u);
    assert_non_null(p.v);
    p.planes = (yuv_planes){p.y, p.u, p.v, width, p.cw, p.cw};
    return p;
}

static void picture_free(picture *p)
{
    free(p->y);
    free(p->u);
    free(p->v);
}

static void assert_same_picture(const picture *a, const picture *b, const char *what)
{
    for (int i = 0; i < a->width * a->height; i++)
        if (a->y[i] != b->y[i])
            fail_msg("%s: Y %d: %d against %d", what, i, a->y[i], b->y[i]);
    for (int i = 0; i < a->cw * a->ch; i++)
        if (a->u[i] != b->u[i] || a->v[i] != b->v[i])
            fail_msg("%s: chroma %d: U %d V %d against U %d V %d", what, i, a->u[i], a->v[i],
                     b->u[i], b->v[i]);
}

/* Deterministic pixels: blocks of flat colour with noise on top, so that
 * both flat areas and sharp edges are in the picture. */
static uint8_t *pattern_new(int width, int height)
{
    uint8_t *px = malloc((size_t)width * (size_t)height * 4);
    assert_non_null(px);
    uint32_t s = 12345;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            uint8_t *p = px + ((size_t)y * (size_t)width + (size_t)x) * 4;
            for (int k = 0; k < 4; k++) {
                s = s * 1664525u + 1013904223u;
                const int block = ((x / 7) * 37 + (y / 5) * 91 + k * 53) % 256;
                p[k] = (x + y) % 3 ? (uint8_t)block : (uint8_t)(s >> 24);
            }
        }
    return px;
}

/* Pure colours give BT.709 limited range's textbook values everywhere,
 * edges included. */
static void test_known_colours(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        uint8_t rgb[3], yuv[3];
    } colours[] = {
        {"red", {255, 0, 0}, {63, 102, 240}},       {"green", {0, 255, 0}, {173, 42, 26}},
        {"blue", {0, 0, 255}, {32, 240, 118}},      {"white", {255, 255, 255}, {235, 128, 128}},
        {"black", {0, 0, 0}, {16, 128, 128}},       {"grey", {128, 128, 128}, {126, 128, 128}},
        {"yellow", {255, 255, 0}, {219, 16, 138}},  {"cyan", {0, 255, 255}, {188, 154, 16}},
        {"magenta", {255, 0, 255}, {78, 214, 230}},
    };
    static const int sizes[][2] = {{6, 4}, {1, 1}, {5, 3}};
    for (size_t c = 0; c < sizeof colours / sizeof colours[0]; c++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            const int w = sizes[s][0], h = sizes[s][1];
            uint8_t px[6 * 4 * 4];
            for (int i = 0; i < w * h; i++) {
                memcpy(px + 4 * i, colours[c].rgb, 3);
                px[4 * i + 3] = (uint8_t)(i * 37); /* alpha plays no part */
            }
            picture p = picture_new(w, h);
            yuv_from_rgba(px, w * 4, w, h, &p.planes);
            for (int i = 0; i < w * h; i++)
                if (p.y[i] != colours[c].yuv[0])
                    fail_msg("%s %dx%d: Y %d, want %d", colours[c].name, w, h, p.y[i],
                             colours[c].yuv[0]);
            for (int i = 0; i < p.cw * p.ch; i++)
                if (p.u[i] != colours[c].yuv[1] || p.v[i] != colours[c].yuv[2])
                    fail_msg("%s %dx%d: U %d V %d, want %d %d", colours[c].name, w, h, p.u[i],
                             p.v[i], colours[c].yuv[1], colours[c].yuv[2]);
            picture_free(&p);
        }
}

/* libswscale with the settings ppflow's encoder used (SWS_BILINEAR, BT.709,
 * full range in, limited out) agrees within 1 in every sample. */
static void test_matches_swscale(void **state)
{
    (void)state;
    enum { W = 96, H = 64 };
    uint8_t *px = pattern_new(W, H);
    picture ours = picture_new(W, H), ref = picture_new(W, H);
    yuv_from_rgba(px, W * 4, W, H, &ours.planes);

    struct SwsContext *sws = sws_getContext(W, H, AV_PIX_FMT_RGBA, W, H, AV_PIX_FMT_YUV420P,
                                            SWS_BILINEAR, NULL, NULL, NULL);
    assert_non_null(sws);
    const int *bt709 = sws_getCoefficients(SWS_CS_ITU709);
    sws_setColorspaceDetails(sws, bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16);
    const uint8_t *src[1] = {px};
    const int src_stride[1] = {W * 4};
    uint8_t *dst[3] = {ref.y, ref.u, ref.v};
    const int dst_stride[3] = {W, W / 2, W / 2};
    sws_scale(sws, src, src_stride, 0, H, dst, dst_stride);
    sws_freeContext(sws);

    int worst = 0, differing = 0;
    for (int i = 0; i < W * H; i++) {
        const int d = abs(ours.y[i] - ref.y[i]);
        worst = d > worst ? d : worst;
        differing += d != 0;
    }
    for (int i = 0; i < W * H / 4; i++) {
        const int du = abs(ours.u[i] - ref.u[i]), dv = abs(ours.v[i] - ref.v[i]);
        worst = du > worst ? du : worst;
        worst = dv > worst ? dv : worst;
        differing += (du != 0) + (dv != 0);
    }
    printf("against libswscale: %d of %d samples differ, by at most %d\n", differing, W * H * 3 / 2,
           worst);
    assert_in_range(worst, 0, 1);
    assert_lt(differing * 20, W * H * 3 / 2); /* rounding, not a different filter */
    picture_free(&ours);
    picture_free(&ref);
    free(px);
}

/* An odd size (1279x719) is converted as its even neighbour (1280x720)
 * with the last column and row repeated; H.264 still refuses it. */
static void test_odd_size_repeats_the_edge(void **state)
{
    (void)state;
    enum { W = 1279, H = 719 };
    uint8_t *odd = pattern_new(W, H);
    uint8_t *even = malloc((size_t)(W + 1) * (H + 1) * 4);
    assert_non_null(even);
    for (int y = 0; y <= H; y++)
        for (int x = 0; x <= W; x++) {
            const int sx = x < W ? x : W - 1, sy = y < H ? y : H - 1;
            memcpy(even + ((size_t)y * (W + 1) + (size_t)x) * 4,
                   odd + ((size_t)sy * W + (size_t)sx) * 4, 4);
        }
    picture a = picture_new(W, H), b = picture_new(W + 1, H + 1);
    yuv_from_rgba(odd, W * 4, W, H, &a.planes);
    yuv_from_rgba(even, (W + 1) * 4, W + 1, H + 1, &b.planes);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            if (a.y[y * W + x] != b.y[y * (W + 1) + x])
                fail_msg("Y (%d, %d): %d against %d", x, y, a.y[y * W + x], b.y[y * (W + 1) + x]);
    assert_int_equal(a.cw, b.cw);
    assert_int_equal(a.ch, b.ch);
    assert_memory_equal(a.u, b.u, (size_t)a.cw * (size_t)a.ch);
    assert_memory_equal(a.v, b.v, (size_t)a.cw * (size_t)a.ch);
    picture_free(&a);
    picture_free(&b);
    free(odd);
    free(even);

    encoder e;
    ppf_error err = {{0}};
    const encoder_desc d = {
        .path = "never-written.mp4", .width = W, .height = H, .video = encoder_video_defaults()};
    assert_false(encoder_open(&e, &d, &err));
    assert_non_null(strstr(err.message, "even sides"));
}

/* Rows given bottom up (a negative stride from the top row's address, as
 * the encoder passes glReadPixels' rows) give the picture of the rows
 * flipped. */
static void test_bottom_up_stride(void **state)
{
    (void)state;
    enum { W = 34, H = 19 };
    uint8_t *px = pattern_new(W, H), *flipped = malloc((size_t)W * H * 4);
    assert_non_null(flipped);
    for (int y = 0; y < H; y++)
        memcpy(flipped + (size_t)y * W * 4, px + (size_t)(H - 1 - y) * W * 4, (size_t)W * 4);
    picture a = picture_new(W, H), b = picture_new(W, H);
    yuv_from_rgba(flipped + (size_t)(H - 1) * W * 4, -W * 4, W, H, &a.planes);
    yuv_from_rgba(px, W * 4, W, H, &b.planes);
    assert_same_picture(&a, &b, "bottom up");
    picture_free(&a);
    picture_free(&b);
    free(px);
    free(flipped);
}

/* Bands converted apart (as threads would) make the whole picture. */
static void test_bands_make_the_whole(void **state)
{
    (void)state;
    enum { W = 41, H = 27 };
    uint8_t *px = pattern_new(W, H);
    picture whole = picture_new(W, H), bands = picture_new(W, H);
    yuv_from_rgba(px, W * 4, W, H, &whole.planes);
    const int ch = (H + 1) / 2;
    for (int c0 = 0; c0 < ch; c0 += 5)
        yuv_convert_rows(px, W * 4, W, H, &bands.planes, c0, c0 + 5 < ch ? c0 + 5 : ch);
    assert_same_picture(&bands, &whole, "bands");
    picture_free(&whole);
    picture_free(&bands);
    free(px);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_colours),
        cmocka_unit_test(test_matches_swscale),
        cmocka_unit_test(test_odd_size_repeats_the_edge),
        cmocka_unit_test(test_bottom_up_stride),
        cmocka_unit_test(test_bands_make_the_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
