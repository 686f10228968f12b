/* yuv.h - RGBA pixels to BT.709 limited-range yuv420p, the MP4's pixels.
 *
 * For: the MP4 encoder (app/export/encoder.h), which hands libx264 planar
 * 4:2:0 pictures tagged BT.709, limited ("TV") range. This converts ppflow's
 * full-range RGBA8 frames into them the way libswscale did with those
 * settings (SWS_BILINEAR): Y from each pixel; U and V from each pair of
 * columns, averaged, then filtered down the rows with weights 1 3 3 1 (the
 * bilinear filter that halves the height, chroma sited between rows 2k and
 * 2k + 1); every value rounded to nearest. On ppflow's frames it differs
 * from libswscale by at most 1 in any sample.
 *
 *     Y = 16  + 219/255 * ( 0.2126 R + 0.7152 G + 0.0722 B)
 *     U = 128 + 224/255 * (-0.1146 R - 0.3854 G + 0.5    B)
 *     V = 128 + 224/255 * ( 0.5    R - 0.4542 G - 0.0458 B)
 *
 * Why not a library: libswscale's generic path took 4 ms a 1920x1080 frame
 * alone and 18% of an export's CPU beside llvmpipe and x264; Debian 12's
 * libyuv (0.2 ms) converts RGBA to I420 only with BT.601 (limited or JPEG
 * full range), which would put colours in the file other than its tags say.
 * This is plain C in 32-bit fixed point that the compiler vectorises, with
 * AVX-512 or AVX2 where the CPU has them: 0.64 to 0.96 ms.
 *
 * What it does not do: scale, other matrices, full range, alpha (ignored),
 * 4:2:2 or 4:4:4, allocate, or start threads (yuv_convert_rows converts a
 * band of rows, so a caller can split a frame between its threads).
 *
 * Sizes: any width and height from 1. Rows beyond the top and bottom edges
 * repeat the edge row; an odd last column counts twice in its chroma sample;
 * chroma planes are (width + 1) / 2 by (height + 1) / 2. H.264 in ppflow takes even sizes only
 * (encoder.h), but nothing here depends on that.
 *
 * Call order: none; each call is independent and keeps nothing. Bad
 * arguments are the caller's mistake (asserts).
 */
#ifndef PPFLOW_YUV_H
#define PPFLOW_YUV_H

#include <stdint.h>

/* Where a picture's three planes are; strides in bytes. */
typedef struct yuv_planes {
    uint8_t *y, *u, *v;
    int y_stride, u_stride, v_stride;
} yuv_planes;

/* Converts a whole width x height RGBA frame; `stride` is the byte step
 * from one row to the next (negative: rows bottom up, rgba at the top row). */
void yuv_from_rgba(const uint8_t *rgba, int stride, int width, int height, const yuv_planes *out);

/* The same for chroma rows [c0, c1) only, and Y rows 2 * c0 to 2 * c1 - 1
 * (fewer at an odd bottom); it reads RGBA rows 2 * c0 - 1 to 2 * c1. Bands
 * that do not overlap write disjoint bytes, so threads may convert them at
 * once. */
void yuv_convert_rows(const uint8_t *rgba, int stride, int width, int height, const yuv_planes *out,
                      int c0, int c1);

#endif
