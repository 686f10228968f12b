/* video_read.h - a video file as the tests that export one read it back:
 * demuxed with libavformat, decoded with libavcodec, every frame kept as
 * it came and as RGBA (test_video, test_per_beat).
 *
 * What it does: video_read opens the file, takes its best video stream,
 * records the stream's properties (size, codec, pixel format, colour tags,
 * the stream's, the container's and the packets' durations), decodes every
 * frame on one thread (the same bytes every time), flushes the decoder,
 * and keeps each frame's planes packed as they are and converted to RGBA
 * (full range; YUV 4:2:0 read as BT.709 limited range, as ppflow writes
 * it). video_frame gives frame i's RGBA.
 *
 * What it does not do: no seeking, no audio, no comparison with stills
 * (each test compares in its own terms); it keeps the whole clip in
 * memory, so it is for the short clips tests make.
 *
 * Call order:
 *     video v;
 *     video_read(path, &v);
 *     assert_int_equal(v.codec, AV_CODEC_ID_H264);
 *     const uint8_t *last = video_frame(&v, v.frames - 1);
 *     video_deinit(&v);
 *
 * Errors: a file that cannot be opened, read or decoded fails the current
 * cmocka test with a message naming it.
 */
#ifndef PPFLOW_TEST_VIDEO_READ_H
#define PPFLOW_TEST_VIDEO_READ_H

#include <stddef.h>
#include <stdint.h>

#include <libavcodec/avcodec.h>
#include <libavutil/pixfmt.h>

typedef struct video {
    int width, height; /* of the stream */
    enum AVCodecID codec;
    enum AVPixelFormat pix_fmt; /* of the stream */
    enum AVColorPrimaries primaries;
    enum AVColorTransferCharacteristic trc;
    enum AVColorSpace space;
    enum AVColorRange range;
    double stream_seconds; /* the stream's duration */
    double format_seconds; /* the container's duration */
    double packet_seconds; /* the sum of the packets' durations */
    int frames;            /* decoded */
    uint8_t *rgba;         /* frames x width x height x 4, converted */
    uint8_t *raw;          /* every decoded frame's planes, packed */
    size_t raw_size;
} video;

/* Demuxes and decodes the whole file at path into *v (overwritten). */
void video_read(const char *path, video *v);

/* Frees what video_read kept and zeroes *v; a zeroed video is fine. */
void video_deinit(video *v);

/* Frame i's RGBA (width x height x 4, top row first); i must be a frame. */
const uint8_t *video_frame(const video *v, int i);

#endif
