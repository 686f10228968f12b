/* test_image_png.c - PNG round trips, row order, pixel formats, and clean
 * failures that leave no files behind.
 *
 * Files go to a fresh directory under $TMPDIR (or /tmp), removed at the end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libavcodec/avcodec.h>
#include <libavutil/frame.h>

#include "image_png.h"
#include "support/check.h"
#include "support/scratch.h"

enum { W = 37, H = 21 };

static char dir[256];

/* DIR/name in a static buffer (one at a time is enough here). */
static const char *in_dir(const char *name)
{
    static char path[512];
    scratch_join(path, sizeof path, dir, name);
    return path;
}

static int count_entries(void)
{
    return scratch_count(dir, NULL);
}

static int setup(void **state)
{
    return scratch_setup(state, dir, sizeof dir, "ppflow_test_image");
}

/* A pattern where every channel of every pixel differs from its
 * neighbours', alpha runs through 0..255, and rows are told apart. */
static void fill_pattern(uint8_t *px, int w, int h, int stride)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint8_t *p = px + (size_t)y * (size_t)stride + (size_t)x * 4;
            p[0] = (uint8_t)(x * 7 + y * 3);
            p[1] = (uint8_t)(y * 11 + 5);
            p[2] = (uint8_t)(x * y + 13);
            p[3] = (uint8_t)((x + y * w) * 255 / (w * h - 1));
        }
}

static void test_round_trip(void **state)
{
    (void)state;
    static uint8_t px[W * H * 4];
    fill_pattern(px, W, H, W * 4);
    ppf_error err = {0};
    const char *path = in_dir("round.png");
    assert_true(image_write_png(path, px, W, H, 0, false, &err));
    image img = {0};
    if (!image_read_png(path, &img, &err))
        fail_msg("%s", err.message);
    assert_int_equal(img.width, W);
    assert_int_equal(img.height, H);
    assert_memory_equal(img.rgba, px, sizeof px);
    /* Fully transparent pixels keep their colour: nothing is premultiplied. */
    assert_int_equal(px[3], 0);
    assert_memory_equal(img.rgba, px, 4);
    image_deinit(&img);
    assert_null(img.rgba);
    assert_int_equal(count_entries(), 1); /* no temporary left beside it */
}

static void test_padded_stride(void **state)
{
    (void)state;
    enum { STRIDE = W * 4 + 12 };
    static uint8_t padded[STRIDE * H], packed[W * H * 4];
    memset(padded, 0xAB, sizeof padded);
    fill_pattern(padded, W, H, STRIDE);
    fill_pattern(packed, W, H, W * 4);
    ppf_error err = {0};
    const char *path = in_dir("padded.png");
    assert_true(image_write_png(path, padded, W, H, STRIDE, false, &err));
    image img = {0};
    assert_true(image_read_png(path, &img, &err));
    assert_memory_equal(img.rgba, packed, sizeof packed);
    image_deinit(&img);

    /* Padded and bottom-up together (the negative line size skips the padding). */
    assert_true(image_write_png(path, padded, W, H, STRIDE, true, &err));
    assert_true(image_read_png(path, &img, &err));
    for (int y = 0; y < H; y++)
        assert_memory_equal(img.rgba + (size_t)y * W * 4, packed + (size_t)(H - 1 - y) * W * 4,
                            W * 4);
    image_deinit(&img);
}

static void test_bottom_up_flips_rows(void **state)
{
    (void)state;
    static uint8_t px[W * H * 4];
    fill_pattern(px, W, H, W * 4);
    ppf_error err = {0};
    const char *path = in_dir("flipped.png");
    assert_true(image_write_png(path, px, W, H, 0, true, &err));
    image img = {0};
    assert_true(image_read_png(path, &img, &err));
    assert_int_equal(img.width, W);
    assert_int_equal(img.height, H);
    for (int y = 0; y < H; y++)
        assert_memory_equal(img.rgba + (size_t)y * W * 4, px + (size_t)(H - 1 - y) * W * 4, W * 4);
    image_deinit(&img);
}

static void test_encode_in_memory(void **state)
{
    (void)state;
    static uint8_t px[W * H * 4];
    fill_pattern(px, W, H, W * 4);
    uint8_t *data = NULL;
    size_t size = 0;
    ppf_error err = {0};
    assert_true(image_encode_png(px, W, H, 0, false, &data, &size, &err));
    assert_gt(size, 8);
    assert_memory_equal(data, "\x89PNG\r\n\x1a\n", 8);
    free(data);
}

static void test_unwritable_path_fails(void **state)
{
    (void)state;
    static uint8_t px[W * H * 4];
    ppf_error err = {0};
    const char *path = "/nonexistent/dir/x.png";
    assert_false(image_write_png(path, px, W, H, 0, false, &err));
    print_message("error: %s\n", err.message);
    assert_non_null(strstr(err.message, path));
    assert_null(strchr(err.message, '\n'));
    struct stat st;
    assert_int_equal(stat(path, &st), -1);
}

static void test_failed_write_leaves_nothing(void **state)
{
    (void)state;
    static uint8_t px[W * H * 4];
    ppf_error err = {0};
    const char *path = in_dir("bad.png");
    /* An encoder error (a zero width) creates no file and no temporary. */
    assert_false(image_write_png(path, px, 0, H, 0, false, &err));
    print_message("error: %s\n", err.message);
    assert_non_null(strstr(err.message, path));
    assert_int_equal(count_entries(), 0);

    /* A failed rewrite keeps the old file as it was. */
    fill_pattern(px, W, H, W * 4);
    assert_true(image_write_png(path, px, W, H, 0, false, &err));
    assert_false(image_write_png(path, px, W, H, W, false, &err)); /* stride too small */
    assert_int_equal(count_entries(), 1);
    image img = {0};
    assert_true(image_read_png(path, &img, &err));
    assert_memory_equal(img.rgba, px, sizeof px);
    image_deinit(&img);

    /* A directory as the target. */
    assert_false(image_write_png(dir, px, W, H, 0, false, &err));
    assert_non_null(strstr(err.message, dir));
    assert_int_equal(count_entries(), 1);
}

static void test_read_not_png_fails(void **state)
{
    (void)state;
    const char *path = in_dir("garbage.png");
    static const char garbage[] = "this is not a PNG file, just some text \x01\x02\x03";
    scratch_write_bytes(path, garbage, sizeof garbage);
    image img = {.width = 5}; /* overwritten and zeroed on failure */
    ppf_error err = {0};
    assert_false(image_read_png(path, &img, &err));
    print_message("error: %s\n", err.message);
    assert_non_null(strstr(err.message, path));
    assert_null(img.rgba);
    assert_int_equal(img.width, 0);

    /* Empty file. */
    scratch_write_bytes(path, "", 0);
    assert_false(image_read_png(path, &img, &err));
    assert_non_null(strstr(err.message, path));

    /* A directory. */
    assert_false(image_read_png(dir, &img, &err));
    print_message("error: %s\n", err.message);
    assert_non_null(strstr(err.message, dir));
}

static void test_read_truncated_png_fails(void **state)
{
    (void)state;
    static uint8_t px[W * H * 4];
    fill_pattern(px, W, H, W * 4);
    uint8_t *data = NULL;
    size_t size = 0;
    ppf_error err = {0};
    assert_true(image_encode_png(px, W, H, 0, false, &data, &size, &err));
    const char *path = in_dir("truncated.png");
    for (size_t keep = 8; keep < size; keep += size / 5) {
        scratch_write_bytes(path, data, keep);
        image img = {0};
        assert_false(image_read_png(path, &img, &err));
        print_message("%zu of %zu bytes: %s\n", keep, size, err.message);
        assert_non_null(strstr(err.message, path));
        assert_null(img.rgba);
    }
    /* A corrupted byte in the middle (the CRC or zlib stream notices). */
    data[size / 2] ^= 0x55;
    scratch_write_bytes(path, data, size);
    image img = {0};
    bool ok = image_read_png(path, &img, &err);
    if (!ok)
        print_message("corrupted: %s\n", err.message);
    image_deinit(&img); /* some corruption decodes; either way nothing leaks */
    free(data);
}

static void test_read_missing_file_fails(void **state)
{
    (void)state;
    const char *path = in_dir("missing.png");
    image img = {0};
    ppf_error err = {0};
    assert_false(image_read_png(path, &img, &err));
    print_message("error: %s\n", err.message);
    assert_non_null(strstr(err.message, path));
    assert_non_null(strstr(err.message, "No such file"));
}

static void test_deinit_accepts_zeroed(void **state)
{
    (void)state;
    image img = {0};
    image_deinit(&img);
    image_deinit(&img);
    image_deinit(NULL);
}

/* Encodes a PNG of another pixel format with libavcodec directly, to check
 * that reading converts it. `fill` sets the frame's pixels. */
static void write_png_as(const char *path, enum AVPixelFormat fmt, int w, int h,
                         void (*fill)(AVFrame *))
{
    const AVCodec *codec = avcodec_find_encoder(AV_CODEC_ID_PNG);
    assert_non_null(codec);
    AVCodecContext *ctx = avcodec_alloc_context3(codec);
    AVFrame *frame = av_frame_alloc();
    AVPacket *pkt = av_packet_alloc();
    ctx->width = w;
    ctx->height = h;
    ctx->pix_fmt = fmt;
    ctx->time_base = (AVRational){1, 1};
    assert_int_equal(avcodec_open2(ctx, codec, NULL), 0);
    frame->format = fmt;
    frame->width = w;
    frame->height = h;
    assert_int_equal(av_frame_get_buffer(frame, 0), 0);
    fill(frame);
    assert_int_equal(avcodec_send_frame(ctx, frame), 0);
    assert_int_equal(avcodec_send_frame(ctx, NULL), 0);
    assert_int_equal(avcodec_receive_packet(ctx, pkt), 0);
    scratch_write_bytes(path, pkt->data, (size_t)pkt->size);
    av_packet_free(&pkt);
    av_frame_free(&frame);
    avcodec_free_context(&ctx);
}

enum { FW = 5, FH = 3 };

static uint8_t gray_at(int x, int y)
{
    return (uint8_t)(x * 50 + y * 17);
}

static void fill_gray(AVFrame *f)
{
    for (int y = 0; y < FH; y++)
        for (int x = 0; x < FW; x++)
            f->data[0][y * f->linesize[0] + x] = gray_at(x, y);
}

static void fill_rgb24(AVFrame *f)
{
    for (int y = 0; y < FH; y++)
        for (int x = 0; x < FW; x++) {
            uint8_t *p = f->data[0] + y * f->linesize[0] + x * 3;
            p[0] = gray_at(x, y);
            p[1] = (uint8_t)(255 - gray_at(x, y));
            p[2] = (uint8_t)(x * 9);
        }
}

/* 16-bit big-endian samples whose high byte is the 8-bit value (low byte
 * below half, so rounding keeps it). */
static void fill_rgba64be(AVFrame *f)
{
    for (int y = 0; y < FH; y++)
        for (int x = 0; x < FW; x++) {
            uint8_t *p = f->data[0] + y * f->linesize[0] + x * 8;
            uint8_t v[4] = {gray_at(x, y), (uint8_t)(255 - gray_at(x, y)), (uint8_t)(x * 9),
                            (uint8_t)(y * 100)};
            for (int c = 0; c < 4; c++) {
                p[2 * c] = v[c];
                p[2 * c + 1] = v[c];
            }
        }
}

/* Grey 16-bit: v * 257 + 100 still rounds to v. */
static void fill_gray16be(AVFrame *f)
{
    for (int y = 0; y < FH; y++)
        for (int x = 0; x < FW; x++) {
            unsigned v = gray_at(x, y) * 257u + (gray_at(x, y) < 255 ? 100u : 0u);
            f->data[0][y * f->linesize[0] + 2 * x] = (uint8_t)(v >> 8);
            f->data[0][y * f->linesize[0] + 2 * x + 1] = (uint8_t)v;
        }
}

static void fill_ya8(AVFrame *f)
{
    for (int y = 0; y < FH; y++)
        for (int x = 0; x < FW; x++) {
            f->data[0][y * f->linesize[0] + 2 * x] = gray_at(x, y);
            f->data[0][y * f->linesize[0] + 2 * x + 1] = (uint8_t)(x * 60);
        }
}

static void fill_pal8(AVFrame *f)
{
    uint32_t *pal = (uint32_t *)f->data[1]; /* native-endian ARGB */
    for (int i = 0; i < 256; i++)
        pal[i] = (uint32_t)(i * 0x010203u) | 0xFF000000u;
    pal[3] = 0x80102030u;
    for (int y = 0; y < FH; y++)
        for (int x = 0; x < FW; x++)
            f->data[0][y * f->linesize[0] + x] = (uint8_t)(x + y * FW);
}

/* What each format must read back as at (x, y), RGBA; -1: not checked (the
 * green of grey + alpha, which no promise covers). */
static void want_gray(int x, int y, int c[4])
{
    c[0] = c[1] = c[2] = gray_at(x, y);
    c[3] = 255;
}

static void want_rgb24(int x, int y, int c[4])
{
    c[0] = gray_at(x, y);
    c[1] = 255 - gray_at(x, y);
    c[2] = x * 9;
    c[3] = 255;
}

static void want_rgba64be(int x, int y, int c[4])
{
    want_rgb24(x, y, c);
    c[3] = y * 100;
}

static void want_ya8(int x, int y, int c[4])
{
    c[0] = c[2] = gray_at(x, y);
    c[1] = -1;
    c[3] = x * 60;
}

static void want_pal8(int x, int y, int c[4])
{
    const int i = y * FW + x;
    if (i == 3) {
        c[0] = 0x10, c[1] = 0x20, c[2] = 0x30, c[3] = 0x80;
    } else {
        c[0] = (i * 1) & 0xFF, c[1] = (i * 2) & 0xFF, c[2] = (i * 3) & 0xFF, c[3] = 255;
    }
}

static void test_reads_other_pixel_formats(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        enum AVPixelFormat fmt;
        void (*fill)(AVFrame *);
        void (*want)(int x, int y, int c[4]);
    } formats[] = {
        {"gray8", AV_PIX_FMT_GRAY8, fill_gray, want_gray},
        {"rgb24", AV_PIX_FMT_RGB24, fill_rgb24, want_rgb24},
        {"rgba64be", AV_PIX_FMT_RGBA64BE, fill_rgba64be, want_rgba64be},
        {"gray16be", AV_PIX_FMT_GRAY16BE, fill_gray16be, want_gray},
        {"ya8", AV_PIX_FMT_YA8, fill_ya8, want_ya8},
        {"pal8", AV_PIX_FMT_PAL8, fill_pal8, want_pal8},
    };
    const char *path = in_dir("format.png");
    ppf_error err = {0};
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
        image img = {0};
        write_png_as(path, formats[f].fmt, FW, FH, formats[f].fill);
        if (!image_read_png(path, &img, &err))
            fail_msg("%s: %s", formats[f].name, err.message);
        assert_int_equal(img.width, FW);
        assert_int_equal(img.height, FH);
        for (int y = 0; y < FH; y++)
            for (int x = 0; x < FW; x++) {
                const uint8_t *p = img.rgba + (y * FW + x) * 4;
                int c[4];
                formats[f].want(x, y, c);
                for (int k = 0; k < 4; k++)
                    if (c[k] >= 0 && p[k] != c[k])
                        fail_msg("%s pixel (%d, %d) channel %d: got %d, want %d", formats[f].name,
                                 x, y, k, p[k], c[k]);
            }
        image_deinit(&img);
    }
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* Every test starts from an empty directory. */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_round_trip, scratch_before_each),
        cmocka_unit_test_setup(test_padded_stride, scratch_before_each),
        cmocka_unit_test_setup(test_bottom_up_flips_rows, scratch_before_each),
        cmocka_unit_test_setup(test_encode_in_memory, scratch_before_each),
        cmocka_unit_test_setup(test_unwritable_path_fails, scratch_before_each),
        cmocka_unit_test_setup(test_failed_write_leaves_nothing, scratch_before_each),
        cmocka_unit_test_setup(test_read_not_png_fails, scratch_before_each),
        cmocka_unit_test_setup(test_read_truncated_png_fails, scratch_before_each),
        cmocka_unit_test_setup(test_read_missing_file_fails, scratch_before_each),
        cmocka_unit_test_setup(test_deinit_accepts_zeroed, scratch_before_each),
        cmocka_unit_test_setup(test_reads_other_pixel_formats, scratch_before_each),
    };
    return cmocka_run_group_tests(tests, setup, scratch_teardown);
}
