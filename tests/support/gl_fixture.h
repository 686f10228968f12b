/* gl_fixture.h - a headless GL context with an offscreen framebuffer, a
 * draw2d batch and optionally a font, for the tests that draw and then look
 * at the pixels (test_draw2d, test_text, test_timeline_panel).
 *
 * What it does: gl_context_init_headless (EGL; llvmpipe without a GPU),
 * a render target of the size asked for (gl_fixture_resize changes it),
 * draw2d, text_font when the desc names sizes; begin clears and starts a
 * batch, finish flushes, reads the framebuffer back top row first and checks
 * that GL raised no error. Pixels are then read with gl_fixture_pixel and
 * compared with assert_pixel (every channel) or assert_pixel_rgb (alpha
 * aside); gl_fixture_dump writes them as a PPM file to look at when the
 * environment variable the desc names holds a folder.
 *
 * What it does not do: no 3D scene (offscreen.h draws whole frames), no
 * window, no golden images.
 *
 * Call order, as a cmocka group fixture:
 *     static int setup(void **state)
 *     {
 *         *state = gl_fixture_new(&(gl_fixture_desc){.width = 256, .height = 128});
 *         return *state ? 0 : -1;
 *     }
 *     cmocka_run_group_tests(tests, setup, gl_fixture_teardown);
 *   in a test:
 *     gl_fixture *g = *state;
 *     gl_fixture_begin(g, (rgba8){0, 0, 0, 255});
 *     draw2d_rect(&g->d, ...);
 *     gl_fixture_finish(g);
 *     assert_pixel(g, 10, 20, RED);
 *
 * Errors: gl_fixture_new prints what failed and returns NULL (a group setup
 * returns -1 with it); the rest are cmocka helpers that fail the current
 * test.
 */
#ifndef PPFLOW_TEST_GL_FIXTURE_H
#define PPFLOW_TEST_GL_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "draw2d.h"
#include "gl_context.h"
#include "render_target.h"
#include "text.h"

typedef struct gl_fixture_desc {
    int width, height;    /* the framebuffer; 0: none until gl_fixture_resize */
    text_font_desc font;  /* size_count 0: no font */
    const char *dump_env; /* variable naming gl_fixture_dump's folder; NULL: PPFLOW_TEST_PPM_DIR */
} gl_fixture_desc;

typedef struct gl_fixture {
    gl_context gl;
    render_target target; /* width x height */
    int width, height;
    draw2d d;
    text_font font;       /* zeroed when the desc asked for none */
    uint8_t *pixels;      /* width x height RGBA, top row first after gl_fixture_finish */
    const char *dump_env; /* see gl_fixture_desc */
} gl_fixture;

/* Creates the context, the target (when the desc gives a size), draw2d and
 * the font; NULL, after printing why, when one of them fails. */
gl_fixture *gl_fixture_new(const gl_fixture_desc *desc);

/* Releases everything new made; accepts NULL. */
void gl_fixture_free(gl_fixture *g);

/* cmocka group teardown: gl_fixture_free(*state). */
int gl_fixture_teardown(void **state);

/* Replaces the target with a w x h one (the pixels follow). */
void gl_fixture_resize(gl_fixture *g, int w, int h);

/* Binds the target, clears it to `clear` and starts a draw2d batch over it. */
void gl_fixture_begin(gl_fixture *g, rgba8 clear);

/* Flushes the batch, reads the pixels back and fails on a GL error. */
void gl_fixture_finish(gl_fixture *g);

/* The pixel at (x, y), y down from the top row; fails outside the target. */
rgba8 gl_fixture_pixel(const gl_fixture *g, int x, int y);

/* Pixels of colour c (every channel) in [x0, x1) x [y0, y1). */
int gl_fixture_count(const gl_fixture *g, int x0, int y0, int x1, int y1, rgba8 c);

/* Writes the pixels as FOLDER/NAME.ppm (RGB) when the fixture's dump
 * variable holds a folder; does nothing when it is unset or empty. */
void gl_fixture_dump(const gl_fixture *g, const char *name);

/* True when every channel of a and b is the same. */
bool rgba8_equal(rgba8 a, rgba8 b);

/* The largest difference between a and b over R, G and B (alpha aside). */
int rgba8_distance(rgba8 a, rgba8 b);

/* Fails with both colours unless pixel (x, y) is `want`, every channel. */
#define assert_pixel(g, x, y, want)                                                                \
    gl_fixture_expect_pixel((g), (x), (y), (want), true, __FILE__, __LINE__)

/* Fails with both colours unless pixel (x, y) is `want` in R, G and B. */
#define assert_pixel_rgb(g, x, y, want)                                                            \
    gl_fixture_expect_pixel((g), (x), (y), (want), false, __FILE__, __LINE__)

/* The body of assert_pixel and assert_pixel_rgb; file and line the caller's. */
void gl_fixture_expect_pixel(const gl_fixture *g, int x, int y, rgba8 want, bool alpha,
                             const char *file, int line);

#endif
