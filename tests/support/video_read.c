/* video_read.c - a video file demuxed, decoded and kept, for tests. See
 * video_read.h. */
#include "video_read.h"

#include <stdlib.h>

#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>

#include "check.h"
#include "error.h"

void video_deinit(video *v)
{
    free(v->rgba);
    free(v->raw);
    *v = (video){0};
}

const uint8_t *video_frame(const video *v, int i)
{
    assert_in_range(i, 0, v->frames - 1);
    return v->rgba + (size_t)i * (size_t)v->width * (size_t)v->height * 4;
}

/* Appends one decoded frame: its planes as they are, and RGBA. H.264 comes
 * back as BT.709 limited range, which swscale is told; RGBA is full range. */
static void video_add_frame(video *v, const AVFrame *f, struct SwsContext **sws)
{
    assert_int_equal(f->width, v->width);
    assert_int_equal(f->height, v->height);
    const int raw = av_image_get_buffer_size(f->format, f->width, f->height, 1);
    assert_true(raw > 0);
    v->raw = ppf_realloc(v->raw, v->raw_size + (size_t)raw);
    assert_int_equal(av_image_copy_to_buffer(v->raw + v->raw_size, raw,
                                             (const uint8_t *const *)f->data, f->linesize,
                                             f->format, f->width, f->height, 1),
                     raw);
    v->raw_size += (size_t)raw;

    if (!*sws) {
        *sws =
            sws_getContext(f->width, f->height, f->format, f->width, f->height, AV_PIX_FMT_RGBA,
                           SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, NULL, NULL, NULL);
        assert_non_null(*sws);
        if (f->format == AV_PIX_FMT_YUV420P) {
            const int *bt709 = sws_getCoefficients(SWS_CS_ITU709);
            sws_setColorspaceDetails(*sws, bt709, 0, bt709, 1, 0, 1 << 16, 1 << 16);
        }
    }
    const size_t size = (size_t)v->width * (size_t)v->height * 4;
    v->rgba = ppf_realloc(v->rgba, size * (size_t)(v->frames + 1));
    uint8_t *dst[4] = {v->rgba + size * (size_t)v->frames};
    int dst_stride[4] = {v->width * 4};
    assert_int_equal(sws_scale(*sws, (const uint8_t *const *)f->data, f->linesize, 0, f->height,
                               dst, dst_stride),
                     v->height);
    v->frames++;
}

/* Takes every frame the decoder has ready. */
static void video_drain(video *v, AVCodecContext *dec, AVFrame *f, struct SwsContext **sws)
{
    int ret;
    while ((ret = avcodec_receive_frame(dec, f)) >= 0) {
        video_add_frame(v, f, sws);
        av_frame_unref(f);
    }
    if (ret != AVERROR(EAGAIN) && ret != AVERROR_EOF)
        fail_msg("decoding failed: %s", av_err2str(ret));
}

/* Demuxes and decodes the whole file (one thread: the same bytes every
 * time), keeping the stream's properties and every frame. */
void video_read(const char *path, video *v)
{
    *v = (video){0};
    AVFormatContext *fmt = NULL;
    int ret = avformat_open_input(&fmt, path, NULL, NULL);
    if (ret < 0)
        fail_msg("cannot open %s: %s", path, av_err2str(ret));
    assert_true(avformat_find_stream_info(fmt, NULL) >= 0);
    const int index = av_find_best_stream(fmt, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
    assert_true(index >= 0);
    const AVStream *st = fmt->streams[index];
    const AVCodecParameters *par = st->codecpar;
    v->width = par->width;
    v->height = par->height;
    v->codec = par->codec_id;
    v->pix_fmt = (enum AVPixelFormat)par->format;
    v->primaries = par->color_primaries;
    v->trc = par->color_trc;
    v->space = par->color_space;
    v->range = par->color_range;
    v->stream_seconds = st->duration > 0 ? (double)st->duration * av_q2d(st->time_base) : 0;
    v->format_seconds = fmt->duration > 0 ? (double)fmt->duration / AV_TIME_BASE : 0;

    const AVCodec *codec = avcodec_find_decoder(par->codec_id);
    assert_non_null(codec);
    AVCodecContext *dec = avcodec_alloc_context3(codec);
    assert_non_null(dec);
    assert_true(avcodec_parameters_to_context(dec, par) >= 0);
    dec->thread_count = 1;
    assert_true(avcodec_open2(dec, codec, NULL) >= 0);

    AVPacket *pkt = av_packet_alloc();
    AVFrame *f = av_frame_alloc();
    struct SwsContext *sws = NULL;
    int64_t packet_ticks = 0;
    while ((ret = av_read_frame(fmt, pkt)) >= 0) {
        if (pkt->stream_index == index) {
            packet_ticks += pkt->duration;
            if ((ret = avcodec_send_packet(dec, pkt)) < 0)
                fail_msg("%s: decoding failed: %s", path, av_err2str(ret));
            video_drain(v, dec, f, &sws);
        }
        av_packet_unref(pkt);
    }
    if (ret != AVERROR_EOF)
        fail_msg("%s: reading failed: %s", path, av_err2str(ret));
    assert_true(avcodec_send_packet(dec, NULL) >= 0); /* flush */
    video_drain(v, dec, f, &sws);
    v->packet_seconds = (double)packet_ticks * av_q2d(st->time_base);

    sws_freeContext(sws);
    av_frame_free(&f);
    av_packet_free(&pkt);
    avcodec_free_context(&dec);
    avformat_close_input(&fmt);
}
