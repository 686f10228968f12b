/* frame_fixture.c - a whole frame drawn headless. See frame_fixture.h. */
#include "frame_fixture.h"

#include <stdlib.h>

#include "check.h"

frame_fixture *frame_fixture_new(const char *path, const session_flag *flags, int n, int w, int h)
{
    frame_fixture *x = calloc(1, sizeof *x);
    assert_non_null(x);
    ppf_error err = {{0}};
    if (!session_build(&x->s, path, flags, n, &err) || !session_build_scene(&x->s, &err))
        fail_msg("session %s: %s", path ? path : "(default)", err.message);
    if (!offscreen_init(&x->o, &x->s, w, h, &err))
        fail_msg("offscreen: %s", err.message);
    x->pixels = malloc((size_t)w * (size_t)h * 4);
    assert_non_null(x->pixels);
    return x;
}

void frame_fixture_free(frame_fixture *x)
{
    if (!x)
        return;
    offscreen_deinit(&x->o);
    session_deinit(&x->s);
    free(x->pixels);
    free(x);
}

void frame_fixture_draw(frame_fixture *x, const frame_view *v)
{
    offscreen_draw(&x->o, v);
    offscreen_read(&x->o, x->pixels);
}

const uint8_t *frame_fixture_pixel(const frame_fixture *x, int px, int py)
{
    assert_true(px >= 0 && px < x->o.width && py >= 0 && py < x->o.height);
    return x->pixels + ((size_t)py * (size_t)x->o.width + (size_t)px) * 4;
}
