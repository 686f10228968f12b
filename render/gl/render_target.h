/* render_target.h - an offscreen framebuffer (RGBA8 colour + depth) to draw
 * frames into and read them back.
 *
 * For: headless tests, `ppflow bench render`, still images and export, where
 * there is no window. The pixels read back are top row first (the order
 * images and encoders want): GL's bottom-up rows are flipped in place.
 *
 * Call order (a current GL 3.3 context):
 *     render_target rt; render_target_init(&rt, 1920, 1080, &err);
 *     render_target_bind(&rt); ... draw ...
 *     render_target_read(&rt, pixels);        width * height * 4 bytes
 *     render_target_deinit(&rt);
 *
 * Errors: init returns false with one line when the framebuffer is incomplete
 * or the size exceeds GL_MAX_RENDERBUFFER_SIZE.
 */
#ifndef PPFLOW_RENDER_TARGET_H
#define PPFLOW_RENDER_TARGET_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"

typedef struct render_target {
    unsigned fbo, color, depth; /* GL objects; 0 when not initialised */
    int width, height;
    int samples; /* per pixel when multisampled; 0: one */
} render_target;

bool render_target_init(render_target *rt, int width, int height, ppf_error *err);
/* A multisampled target (samples up to GL_MAX_SAMPLES; 0 as init): drawn
 * into, then resolved by a blit into a single-sampled one; not read back. */
bool render_target_init_multisample(render_target *rt, int width, int height, int samples,
                                    ppf_error *err);
void render_target_deinit(render_target *rt); /* accepts a zeroed or deinited target */

/* Makes the target the draw and read framebuffer. */
void render_target_bind(const render_target *rt);

/* Waits for drawing to finish and copies the pixels, top row first, into
 * out (width * height * 4 bytes, RGBA). */
void render_target_read(const render_target *rt, uint8_t *out);

/* Reads the window's framebuffer (the default one, back buffer), top row
 * first, into out (width * height * 4 bytes): the viewer's screenshots. */
void render_read_window(int width, int height, uint8_t *out);

/* Waits for drawing to finish without reading (for timing). */
void render_target_finish(const render_target *rt);

#endif
