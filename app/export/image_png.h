/* image_png.h - PNG files in and out, as 8-bit RGBA pixels.
 *
 * For: screenshots and `ppflow render -o frame.png` (write), golden-image
 * tests (read). Encoding and decoding go through FFmpeg's libavcodec PNG
 * codec, and whatever the decoder returns (grey, palette, RGB, 16-bit...)
 * is converted to RGBA8 with libswscale.
 *
 * Pixels: rows top row first, 4 bytes a pixel (R, G, B, A), no
 * premultiplied alpha. Writers take any row stride (0 means width * 4) and
 * a `bottom_up` flag for rows given bottom row first, as glReadPixels
 * returns them; the flip costs no copy (a negative line size).
 *
 * What it does not do: no other formats, no colour management (gamma and
 * ICC chunks are ignored), no animated PNG (the first frame is read), no
 * streaming: a whole image is held in memory.
 *
 * Call order:
 *     image_write_png("shot.png", pixels, w, h, 0, true, &err);   (atomic)
 *     image img = {0};
 *     if (image_read_png("golden.png", &img, &err)) { use img.rgba ...; }
 *     image_deinit(&img);
 *
 * Errors: false plus one line in err naming the path (or "PNG" for the
 * in-memory encoder) and the reason. A failed write leaves neither the
 * target nor a temporary behind (app/output.h), and an existing target
 * keeps its old content. FFmpeg's own log messages for these calls are
 * silenced (per codec context, not through the global log level); its
 * errors come back in err.
 */
#ifndef PPFLOW_IMAGE_PNG_H
#define PPFLOW_IMAGE_PNG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

typedef struct image {
    int width, height; /* pixels; 0 for a zeroed image */
    uint8_t *rgba;     /* width * height * 4 bytes, top row first, stride width * 4 */
} image;

/* Encodes rgba (w x h, rows `stride` bytes apart, 0 = w * 4; bottom row
 * first when bottom_up) into a PNG file in memory; *data is allocated with
 * ppf_malloc, free it with free(). */
bool image_encode_png(const uint8_t *rgba, int width, int height, int stride_bytes, bool bottom_up,
                      uint8_t **data, size_t *size, ppf_error *err);

/* Encodes as above and writes the file atomically ("-" is standard output). */
bool image_write_png(const char *path, const uint8_t *rgba, int width, int height, int stride_bytes,
                     bool bottom_up, ppf_error *err);

/* Reads and decodes a PNG file into *out (overwritten; deinit it first if it
 * held an image). On failure *out is zeroed. */
bool image_read_png(const char *path, image *out, ppf_error *err);

/* Frees the pixels and zeroes the image; accepts a zeroed image. */
void image_deinit(image *img);

#endif
