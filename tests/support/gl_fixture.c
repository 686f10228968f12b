/* gl_fixture.c - headless GL, a framebuffer and draw2d for tests. See
 * gl_fixture.h. */
#include "gl_fixture.h"

#include <stdio.h>
#include <stdlib.h>

#include <glad/gl.h>

#include "check.h"

gl_fixture *gl_fixture_new(const gl_fixture_desc *desc)
{
    gl_fixture *g = calloc(1, sizeof *g);
    ppf_error err = {{0}};
    const char *what = "calloc";
    if (!g)
        goto fail;
    g->dump_env = desc->dump_env ? desc->dump_env : "PPFLOW_TEST_PPM_DIR";
    what = "gl_context_init_headless";
    if (!gl_context_init_headless(&g->gl, &err))
        goto fail;
    what = "draw2d_init";
    if (!draw2d_init(&g->d, &err))
        goto fail;
    what = "text_font_init";
    if (desc->font.size_count > 0 && !text_font_init(&g->font, &desc->font, &err))
        goto fail;
    what = "render_target_init";
    if (desc->width > 0 && desc->height > 0) {
        g->pixels = malloc((size_t)desc->width * (size_t)desc->height * 4);
        if (!g->pixels || !render_target_init(&g->target, desc->width, desc->height, &err))
            goto fail;
        g->width = desc->width;
        g->height = desc->height;
    }
    return g;

fail:
    print_error("%s: %s\n", what, err.message);
    gl_fixture_free(g);
    return NULL;
}

void gl_fixture_free(gl_fixture *g)
{
    if (!g)
        return;
    text_font_deinit(&g->font);
    draw2d_deinit(&g->d);
    render_target_deinit(&g->target);
    gl_context_deinit(&g->gl);
    free(g->pixels);
    free(g);
}

int gl_fixture_teardown(void **state)
{
    gl_fixture_free(*state);
    return 0;
}

void gl_fixture_resize(gl_fixture *g, int w, int h)
{
    ppf_error err = {{0}};
    render_target_deinit(&g->target);
    if (!render_target_init(&g->target, w, h, &err))
        fail_msg("render_target_init: %s", err.message);
    uint8_t *pixels = realloc(g->pixels, (size_t)w * (size_t)h * 4);
    assert_non_null(pixels);
    g->pixels = pixels;
    g->width = w;
    g->height = h;
}

void gl_fixture_begin(gl_fixture *g, rgba8 clear)
{
    assert_true(g->width > 0 && g->height > 0);
    render_target_bind(&g->target);
    glClearColor(clear.r / 255.0f, clear.g / 255.0f, clear.b / 255.0f, clear.a / 255.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    draw2d_begin(&g->d, g->width, g->height);
}

void gl_fixture_finish(gl_fixture *g)
{
    draw2d_flush(&g->d);
    render_target_read(&g->target, g->pixels);
    assert_int_equal(glGetError(), GL_NO_ERROR);
}

rgba8 gl_fixture_pixel(const gl_fixture *g, int x, int y)
{
    if (x < 0 || x >= g->width || y < 0 || y >= g->height)
        fail_msg("pixel (%d, %d) outside the %d x %d target", x, y, g->width, g->height);
    const uint8_t *p = g->pixels + ((size_t)y * (size_t)g->width + (size_t)x) * 4;
    return (rgba8){p[0], p[1], p[2], p[3]};
}

int gl_fixture_count(const gl_fixture *g, int x0, int y0, int x1, int y1, rgba8 c)
{
    int n = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
            n += rgba8_equal(gl_fixture_pixel(g, x, y), c);
    return n;
}

void gl_fixture_dump(const gl_fixture *g, const char *name)
{
    const char *dir = getenv(g->dump_env);
    if (!dir || !*dir)
        return;
    char path[512];
    snprintf(path, sizeof path, "%s/%s.ppm", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        fail_msg("cannot write %s", path);
    fprintf(f, "P6\n%d %d\n255\n", g->width, g->height);
    for (int i = 0; i < g->width * g->height; i++)
        fwrite(g->pixels + (size_t)i * 4, 1, 3, f);
    fclose(f);
    print_message("wrote %s\n", path);
}

bool rgba8_equal(rgba8 a, rgba8 b)
{
    return a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a;
}

int rgba8_distance(rgba8 a, rgba8 b)
{
    int d = abs(a.r - b.r);
    d = abs(a.g - b.g) > d ? abs(a.g - b.g) : d;
    return abs(a.b - b.b) > d ? abs(a.b - b.b) : d;
}

void gl_fixture_expect_pixel(const gl_fixture *g, int x, int y, rgba8 want, bool alpha,
                             const char *file, int line)
{
    const rgba8 got = gl_fixture_pixel(g, x, y);
    if (alpha && !rgba8_equal(got, want)) {
        print_error("pixel (%d, %d): got %d,%d,%d,%d, want %d,%d,%d,%d\n", x, y, got.r, got.g,
                    got.b, got.a, want.r, want.g, want.b, want.a);
        _fail(file, line);
    }
    if (!alpha && (got.r != want.r || got.g != want.g || got.b != want.b)) {
        print_error("pixel (%d, %d): got %d,%d,%d, want %d,%d,%d\n", x, y, got.r, got.g, got.b,
                    want.r, want.g, want.b);
        _fail(file, line);
    }
}
