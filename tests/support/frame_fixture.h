/* frame_fixture.h - a whole ppflow frame drawn headless, for the tests that
 * hold the picture to its promises (test_render, test_legibility and
 * others): a frame drawn, its pixels, and its strings' overlaps.
 *
 * A session built from a scenario file (or the default) and flags, scene
 * included; an offscreen target of w x h; and the last frame's pixels, top
 * row first (RGBA). Every failure fails the running test.
 *
 *     frame_fixture *x = frame_fixture_new(NULL, flags, n, 640, 360);
 *     frame_view v = offscreen_default_view(&x->o, t, THEME_DARK, CAMERA_PRESET_DEFAULT);
 *     frame_fixture_draw(x, &v);   ... x->pixels, frame_fixture_pixel(x, px, py) ...
 *     frame_fixture_free(x);
 */
#ifndef PPFLOW_TEST_FRAME_FIXTURE_H
#define PPFLOW_TEST_FRAME_FIXTURE_H

#include <stdint.h>

#include "offscreen.h"
#include "session.h"
#include "text.h"

typedef struct frame_fixture {
    session s;
    offscreen o;
    uint8_t *pixels; /* o.width x o.height x 4, top row first */
} frame_fixture;

/* path: a scenario file, or NULL for the built-in default. */
frame_fixture *frame_fixture_new(const char *path, const session_flag *flags, int n, int w, int h);
void frame_fixture_free(frame_fixture *x);
/* Draws v and reads the pixels back. */
void frame_fixture_draw(frame_fixture *x, const frame_view *v);
/* The pixel at (px, py); fails the test outside the target. */
const uint8_t *frame_fixture_pixel(const frame_fixture *x, int px, int py);

/* Pairs of strings whose ink boxes overlap among those a frame drew
 * (text_stats.rects); one string drawn twice in the same place, as bar
 * numbers are over the cursor, is one string. Prints the first few pairs,
 * named by `what`. */
int frame_text_overlaps(const text_stats *st, const char *what);

#endif
