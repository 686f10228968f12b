/* image_png.c - PNG encoding and decoding through libavcodec and libswscale. */
#include "image_png.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavcodec/avcodec.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

#include "output.h"

/* Largest side accepted for writing; FFmpeg's own limit is near this. */
enum { IMAGE_MAX_SIDE = 16384 };
/* Largest file read: far above any frame we write, small enough that a
 * wrong path (a disk image, /dev/zero) fails quickly instead of eating memory. */
#define IMAGE_MAX_FILE_BYTES ((size_t)1 << 30)

static const uint8_t PNG_SIGNATURE[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

/* FFmpeg's message for an error code, for our one-line errors. */
static const char *av_reason(int code, char buf[AV_ERROR_MAX_STRING_SIZE])
{
    av_strerror(code, buf, AV_ERROR_MAX_STRING_SIZE);
    return buf;
}

/* Pushes every message of this codec context below AV_LOG_TRACE, so
 * FFmpeg prints nothing for our calls while the global log level stays
 * what the rest of the program chose. Errors reach the caller through
 * return codes instead. */
static void silence(AVCodecContext *ctx)
{
    ctx->log_level_offset = AV_LOG_TRACE + 8;
}

/* The pixels belong to the caller: the buffer wrapping them frees nothing. */
static void keep_pixels(void *opaque, uint8_t *data)
{
    (void)opaque;
    (void)data;
}

bool image_encode_png(const uint8_t *rgba, int width, int height, int stride_bytes, bool bottom_up,
                      uint8_t **data, size_t *size, ppf_error *err)
{
    assert(rgba && data && size);
    *data = NULL;
    *size = 0;
    if (width < 1 || height < 1 || width > IMAGE_MAX_SIDE || height > IMAGE_MAX_SIDE)
        return ppf_fail(err, "PNG: image size %dx%d: each side must be 1 to %d pixels", width,
                        height, IMAGE_MAX_SIDE);
    if (stride_bytes == 0)
        stride_bytes = width * 4;
    if (stride_bytes < width * 4)
        return ppf_fail(err, "PNG: row stride %d bytes: must be at least width * 4 = %d",
                        stride_bytes, width * 4);

    AVCodecContext *ctx = NULL;
    AVFrame *frame = NULL;
    AVPacket *pkt = NULL;
    uint8_t *out = NULL;
    size_t out_size = 0;
    char reason[AV_ERROR_MAX_STRING_SIZE];
    int ret;

    const AVCodec *codec = avcodec_find_encoder(AV_CODEC_ID_PNG);
    if (!codec) {
        ppf_fail(err, "PNG: this FFmpeg build has no PNG encoder");
        goto fail;
    }
    ctx = avcodec_alloc_context3(codec);
    frame = av_frame_alloc();
    pkt = av_packet_alloc();
    if (!ctx || !frame || !pkt)
        ppf_oom("PNG encoder");
    silence(ctx);
    ctx->width = width;
    ctx->height = height;
    ctx->pix_fmt = AV_PIX_FMT_RGBA;
    ctx->time_base = (AVRational){1, 1}; /* required of every video encoder */
    /* Paeth prediction: rendered frames (flat colours, edges) come out
     * several times smaller than with no prediction, at little cost. */
    av_opt_set(ctx->priv_data, "pred", "paeth", 0);
    if ((ret = avcodec_open2(ctx, codec, NULL)) < 0) {
        ppf_fail(err, "PNG: cannot open the encoder: %s", av_reason(ret, reason));
        goto fail;
    }

    /* Hand the caller's rows to the encoder as a reference-counted frame
     * that owns nothing, so avcodec_send_frame references them instead of
     * copying; bottom-up rows become top-down with a negative line size. */
    size_t span = (size_t)stride_bytes * (size_t)(height - 1) + (size_t)width * 4;
    frame->buf[0] =
        av_buffer_create((uint8_t *)rgba, span, keep_pixels, NULL, AV_BUFFER_FLAG_READONLY);
    if (!frame->buf[0])
        ppf_oom("PNG encoder frame");
    frame->format = AV_PIX_FMT_RGBA;
    frame->width = width;
    frame->height = height;
    frame->data[0] =
        (uint8_t *)rgba + (bottom_up ? (size_t)stride_bytes * (size_t)(height - 1) : 0);
    frame->linesize[0] = bottom_up ? -stride_bytes : stride_bytes;

    if ((ret = avcodec_send_frame(ctx, frame)) < 0 || (ret = avcodec_send_frame(ctx, NULL)) < 0) {
        ppf_fail(err, "PNG: encoding failed: %s", av_reason(ret, reason));
        goto fail;
    }
    for (;;) {
        ret = avcodec_receive_packet(ctx, pkt);
        if (ret == AVERROR_EOF)
            break;
        if (ret < 0) {
            ppf_fail(err, "PNG: encoding failed: %s", av_reason(ret, reason));
            goto fail;
        }
        out = ppf_realloc(out, out_size + (size_t)pkt->size);
        memcpy(out + out_size, pkt->data, (size_t)pkt->size);
        out_size += (size_t)pkt->size;
        av_packet_unref(pkt);
    }
    if (out_size == 0) {
        ppf_fail(err, "PNG: the encoder produced no data");
        goto fail;
    }

    av_packet_free(&pkt);
    av_frame_free(&frame);
    avcodec_free_context(&ctx);
    *data = out;
    *size = out_size;
    return true;

fail:
    free(out);
    av_packet_free(&pkt);
    av_frame_free(&frame);
    avcodec_free_context(&ctx);
    return false;
}

bool image_write_png(const char *path, const uint8_t *rgba, int width, int height, int stride_bytes,
                     bool bottom_up, ppf_error *err)
{
    assert(path);
    uint8_t *png = NULL;
    size_t size = 0;
    output out = {0};
    ppf_error why = {0};

    /* Encode first: a size or encoder error must not create the file. */
    if (!image_encode_png(rgba, width, height, stride_bytes, bottom_up, &png, &size, &why)) {
        ppf_fail(err, "%s: %s", path, why.message);
        goto fail;
    }
    if (!output_open(&out, path, err))
        goto fail;
    errno = 0;
    if (fwrite(png, 1, size, out.file) != size) {
        ppf_fail(err, "%s: writing failed: %s", path, strerror(errno ? errno : EIO));
        goto fail;
    }
    free(png);
    png = NULL;
    return output_commit(&out, err); /* removes the temporary when it fails */

fail:
    output_abort(&out);
    free(png);
    return false;
}

/* The whole file in a ppf_malloc'd buffer. */
static bool read_whole_file(const char *path, uint8_t **data, size_t *size, ppf_error *err)
{
    *data = NULL;
    *size = 0;
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return ppf_fail(err, "%s: cannot open: %s", path, strerror(errno));
    for (;;) {
        if (len == cap) {
            if (cap >= IMAGE_MAX_FILE_BYTES) {
                ppf_fail(err, "%s: larger than %zu bytes: not an image we wrote", path,
                         IMAGE_MAX_FILE_BYTES);
                goto fail;
            }
            cap = cap ? 2 * cap : 64 * 1024;
            buf = ppf_realloc(buf, cap);
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0) {
            if (ferror(f)) {
                ppf_fail(err, "%s: cannot read: %s", path, strerror(errno ? errno : EIO));
                goto fail;
            }
            break;
        }
    }
    fclose(f);
    *data = buf;
    *size = len;
    return true;

fail:
    fclose(f);
    free(buf);
    return false;
}

/* A 16-bit big-endian sample rounded to the nearest 8-bit value. */
static uint8_t sample16(const uint8_t *be)
{
    unsigned v = (unsigned)be[0] << 8 | be[1];
    return (uint8_t)((v * 255u + 32767u) / 65535u);
}

/* The 16-bit formats of the PNG decoder, converted by hand: swscale takes
 * 16-bit RGB through YUV, which moves some values by one. Returns false for
 * any other format. */
static bool convert_16bit(const AVFrame *frame, uint8_t *rgba)
{
    int channels, gray;
    switch (frame->format) {
    case AV_PIX_FMT_RGBA64BE:
        channels = 4, gray = 0;
        break;
    case AV_PIX_FMT_RGB48BE:
        channels = 3, gray = 0;
        break;
    case AV_PIX_FMT_YA16BE:
        channels = 2, gray = 1;
        break;
    case AV_PIX_FMT_GRAY16BE:
        channels = 1, gray = 1;
        break;
    default:
        return false;
    }
    for (int y = 0; y < frame->height; y++) {
        const uint8_t *src = frame->data[0] + (ptrdiff_t)y * frame->linesize[0];
        uint8_t *dst = rgba + (size_t)y * (size_t)frame->width * 4;
        for (int x = 0; x < frame->width; x++, src += 2 * channels, dst += 4) {
            if (gray) {
                dst[0] = dst[1] = dst[2] = sample16(src);
                dst[3] = channels == 2 ? sample16(src + 2) : 255;
            } else {
                for (int c = 0; c < 3; c++)
                    dst[c] = sample16(src + 2 * c);
                dst[3] = channels == 4 ? sample16(src + 6) : 255;
            }
        }
    }
    return true;
}

/* Converts a decoded frame of any pixel format to tightly packed RGBA8. */
static bool frame_to_rgba(const char *path, const AVFrame *frame, uint8_t *rgba, ppf_error *err)
{
    int w = frame->width, h = frame->height, stride = w * 4;
    if (frame->format == AV_PIX_FMT_RGBA) {
        for (int y = 0; y < h; y++)
            memcpy(rgba + (size_t)y * (size_t)stride,
                   frame->data[0] + (ptrdiff_t)y * frame->linesize[0], (size_t)stride);
        return true;
    }
    if (convert_16bit(frame, rgba))
        return true;
    /* The 8-bit formats (grey, grey + alpha, RGB, palette, 1-bit): same
     * size, so no filtering; these conversions are exact. */
    struct SwsContext *sws = sws_alloc_context();
    if (!sws)
        ppf_oom("swscale context");
    av_opt_set_int(sws, "srcw", w, 0);
    av_opt_set_int(sws, "srch", h, 0);
    av_opt_set_int(sws, "src_format", frame->format, 0);
    av_opt_set_int(sws, "dstw", w, 0);
    av_opt_set_int(sws, "dsth", h, 0);
    av_opt_set_int(sws, "dst_format", AV_PIX_FMT_RGBA, 0);
    av_opt_set_int(sws, "sws_flags", SWS_POINT | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, 0);
    av_opt_set(sws, "sws_dither", "none", 0);
    if (sws_init_context(sws, NULL, NULL) < 0) {
        sws_freeContext(sws);
        const char *name = av_get_pix_fmt_name(frame->format);
        return ppf_fail(err, "%s: cannot convert PNG pixel format %s to RGBA", path,
                        name ? name : "(unknown)");
    }
    uint8_t *dst[4] = {rgba, NULL, NULL, NULL};
    int dst_stride[4] = {stride, 0, 0, 0};
    int lines =
        sws_scale(sws, (const uint8_t *const *)frame->data, frame->linesize, 0, h, dst, dst_stride);
    sws_freeContext(sws);
    if (lines != h)
        return ppf_fail(err, "%s: converting PNG pixel format %s to RGBA failed", path,
                        av_get_pix_fmt_name(frame->format));
    return true;
}

bool image_read_png(const char *path, image *out, ppf_error *err)
{
    assert(path && out);
    *out = (image){0};
    uint8_t *file = NULL;
    size_t file_size = 0;
    AVCodecContext *ctx = NULL;
    AVPacket *pkt = NULL;
    AVFrame *frame = NULL;
    uint8_t *rgba = NULL;
    char reason[AV_ERROR_MAX_STRING_SIZE];
    int ret;

    if (!read_whole_file(path, &file, &file_size, err))
        goto fail;
    /* Checked here so that any other file gets a plain answer rather than
     * whatever the decoder makes of it. */
    if (file_size < sizeof PNG_SIGNATURE || memcmp(file, PNG_SIGNATURE, sizeof PNG_SIGNATURE)) {
        ppf_fail(err, "%s: not a PNG file (no PNG signature)", path);
        goto fail;
    }
    if (file_size > INT_MAX - AV_INPUT_BUFFER_PADDING_SIZE) {
        ppf_fail(err, "%s: file too large for the PNG decoder", path);
        goto fail;
    }

    const AVCodec *codec = avcodec_find_decoder(AV_CODEC_ID_PNG);
    if (!codec) {
        ppf_fail(err, "%s: this FFmpeg build has no PNG decoder", path);
        goto fail;
    }
    ctx = avcodec_alloc_context3(codec);
    pkt = av_packet_alloc();
    frame = av_frame_alloc();
    if (!ctx || !pkt || !frame)
        ppf_oom("PNG decoder");
    silence(ctx);
    if ((ret = avcodec_open2(ctx, codec, NULL)) < 0) {
        ppf_fail(err, "%s: cannot open the PNG decoder: %s", path, av_reason(ret, reason));
        goto fail;
    }
    /* The whole file is one packet, as FFmpeg's image2 demuxer sends it. */
    if (av_new_packet(pkt, (int)file_size) < 0)
        ppf_oom("PNG packet");
    memcpy(pkt->data, file, file_size);
    free(file);
    file = NULL;
    if ((ret = avcodec_send_packet(ctx, pkt)) < 0 || (ret = avcodec_send_packet(ctx, NULL)) < 0 ||
        (ret = avcodec_receive_frame(ctx, frame)) < 0) {
        /* The decoder reports zlib's complaints as an "external library" error. */
        ppf_fail(err, "%s: cannot decode PNG: %s", path,
                 ret == AVERROR_EOF        ? "no image in the file"
                 : ret == AVERROR_EXTERNAL ? "corrupt compressed image data"
                                           : av_reason(ret, reason));
        goto fail;
    }
    if (frame->width < 1 || frame->height < 1) {
        ppf_fail(err, "%s: PNG has size %dx%d", path, frame->width, frame->height);
        goto fail;
    }

    /* The decoder bounds width * height well below INT_MAX / 8. */
    rgba = ppf_malloc((size_t)frame->width * (size_t)frame->height * 4);
    if (!frame_to_rgba(path, frame, rgba, err))
        goto fail;
    *out = (image){.width = frame->width, .height = frame->height, .rgba = rgba};
    av_frame_free(&frame);
    av_packet_free(&pkt);
    avcodec_free_context(&ctx);
    return true;

fail:
    free(rgba);
    av_frame_free(&frame);
    av_packet_free(&pkt);
    avcodec_free_context(&ctx);
    free(file);
    return false;
}

void image_deinit(image *img)
{
    if (!img)
        return;
    free(img->rgba);
    *img = (image){0};
}
