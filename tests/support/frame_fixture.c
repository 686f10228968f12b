/* frame_fixture.c - a whole frame drawn headless. See frame_fixture.h. */
#include "frame_fixture.h"

#include <math.h>
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

static bool same_rect(const text_rect *a, const text_rect *b)
{
    return fabsf(a->x0 - b->x0) < 0.5f && fabsf(a->x1 - b->x1) < 0.5f &&
           fabsf(a->y0 - b->y0) < 0.5f && fabsf(a->y1 - b->y1) < 0.5f;
}

int frame_text_overlaps(const text_stats *st, const char *what)
{
    int n = 0;
    for (int i = 0; i < st->rect_count; i++)
        for (int j = i + 1; j < st->rect_count; j++) {
            const text_rect *a = &st->rects[i], *b = &st->rects[j];
            if (same_rect(a, b))
                continue;
            if (a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1 && n++ < 4)
                print_message("%s: strings %d (%.0f,%.0f)-(%.0f,%.0f) and %d "
                              "(%.0f,%.0f)-(%.0f,%.0f) overlap\n",
                              what, i, a->x0, a->y0, a->x1, a->y1, j, b->x0, b->y0, b->x1, b->y1);
        }
    return n;
}
