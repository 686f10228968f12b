/* test_draw2d.c - 2D primitives rendered headless (EGL, llvmpipe on CI) into a
 * 256x128 GL_RGBA8 framebuffer and read back: exact colours inside and
 * outside rectangles, clipping, patterns, lines, blending, order, growth and
 * frame-to-frame determinism. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "draw2d.h"
#include "gl_shader.h"
#include "support/check.h"
#include "support/gl_fixture.h"

enum { W = 256, H = 128 };

/* Colours every 8-bit target stores exactly. */
static const rgba8 BG = {0, 0, 0, 255};
static const rgba8 RED = {200, 30, 40, 255};
static const rgba8 GREEN = {20, 180, 60, 255};
static const rgba8 BLUE = {0, 0, 255, 255};
static const rgba8 WHITE = {255, 255, 255, 255};

static int setup(void **state)
{
    *state = gl_fixture_new(&(gl_fixture_desc){.width = W, .height = H});
    return *state ? 0 : -1;
}

static void test_solid_rect(void **state)
{
    gl_fixture *fx = *state;
    gl_fixture_begin(fx, BG);
    draw2d_rect(&fx->d, 10, 20, 30, 40, RED);
    gl_fixture_finish(fx);
    assert_pixel(fx, 10, 20, RED); /* corners inside */
    assert_pixel(fx, 39, 59, RED);
    assert_pixel(fx, 9, 20, BG); /* just outside each edge */
    assert_pixel(fx, 40, 20, BG);
    assert_pixel(fx, 10, 19, BG);
    assert_pixel(fx, 10, 60, BG);
    assert_int_equal(gl_fixture_count(fx, 0, 0, W, H, RED), 30 * 40);
}

/* Fractional edges follow the pixel-centre rule: (10.6, 20.4) to (20.4, 30.6)
 * covers the pixels whose centres are inside, x 11..19 and y 20..30. */
static void test_fractional_rect(void **state)
{
    gl_fixture *fx = *state;
    gl_fixture_begin(fx, BG);
    draw2d_rect(&fx->d, 10.6f, 20.4f, 9.8f, 10.2f, RED);
    gl_fixture_finish(fx);
    assert_int_equal(gl_fixture_count(fx, 0, 0, W, H, RED), 9 * 11);
    assert_pixel(fx, 11, 20, RED);
    assert_pixel(fx, 19, 30, RED);
    assert_pixel(fx, 10, 20, BG);
    assert_pixel(fx, 20, 20, BG);
    assert_pixel(fx, 11, 19, BG);
    assert_pixel(fx, 11, 31, BG);
}

/* Everything appended under a clip stays inside it, to the pixel: a rect
 * over the whole framebuffer, a line and a triangle crossing the clip's
 * edges. After clip_off, drawing reaches the whole framebuffer again. */
static void test_clip(void **state)
{
    gl_fixture *fx = *state;
    gl_fixture_begin(fx, BG);
    draw2d_clip(&fx->d, 50, 30, 20, 10);
    draw2d_rect(&fx->d, 0, 0, W, H, RED);
    draw2d_clip(&fx->d, 100, 30, 20, 10);
    draw2d_line(&fx->d, 90, 20, 130, 50, 3, GREEN);
    draw2d_triangle(&fx->d, 95, 25, 125, 30, 110, 60, GREEN);
    draw2d_clip_off(&fx->d);
    draw2d_rect(&fx->d, 200, 100, 10, 10, BLUE);
    gl_fixture_finish(fx);

    assert_int_equal(gl_fixture_count(fx, 0, 0, W, H, RED), 20 * 10);
    assert_int_equal(gl_fixture_count(fx, 50, 30, 70, 40, RED), 20 * 10);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            rgba8 p = gl_fixture_pixel(fx, x, y);
            bool in_line_clip = x >= 100 && x < 120 && y >= 30 && y < 40;
            if (p.g > 0 && p.b == 0 && !rgba8_equal(p, RED) && !in_line_clip)
                fail_msg("green at (%d, %d) outside the clip", x, y);
        }
    assert_gt(gl_fixture_count(fx, 100, 30, 120, 40, GREEN), 20);
    assert_int_equal(gl_fixture_count(fx, 0, 0, W, H, BLUE), 100);
}

/* A rect that lies wholly outside the clip is never appended. */
static void test_clip_culls(void **state)
{
    gl_fixture *fx = *state;
    gl_fixture_begin(fx, BG);
    draw2d_clip(&fx->d, 0, 0, 50, 50);
    draw2d_rect(&fx->d, 60, 60, 10, 10, RED);
    draw2d_glyph(&fx->d, 100, 0, 110, 10, 0, 0, 1, 1, RED);
    assert_int_equal(fx->d.count, 0);
    draw2d_rect(&fx->d, 40, 40, 20, 20, RED); /* straddles the clip: kept */
    assert_int_equal(fx->d.count, 6);
    gl_fixture_finish(fx);
    assert_int_equal(gl_fixture_count(fx, 0, 0, W, H, RED), 10 * 10);
}

/* Each pattern shows both colours inside its rect and nothing outside; two
 * neighbouring bars give the same pixels as one bar twice as wide (the
 * pattern is anchored to the framebuffer, so the stripes line up). */
static void test_patterns(void **state)
{
    gl_fixture *fx = *state;
    const draw2d_pattern patterns[] = {DRAW2D_HATCH, DRAW2D_DOTS, DRAW2D_CROSSHATCH};
    for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++) {
        gl_fixture_begin(fx, BG);
        draw2d_rect_pattern(&fx->d, 20, 20, 40, 30, BLUE, WHITE, patterns[i], 8);
        draw2d_rect_pattern(&fx->d, 100, 20, 20, 30, BLUE, WHITE, patterns[i], 8);
        draw2d_rect_pattern(&fx->d, 120, 20, 20, 30, BLUE, WHITE, patterns[i], 8);
        gl_fixture_finish(fx);
        int fill = gl_fixture_count(fx, 20, 20, 60, 50, BLUE);
        int ink = gl_fixture_count(fx, 20, 20, 60, 50, WHITE);
        print_message("pattern %d: %d fill, %d ink pixels of 1200\n", (int)patterns[i], fill, ink);
        assert_gt(fill, 100);
        assert_gt(ink, 50);
        assert_int_equal(gl_fixture_count(fx, 0, 0, W, 20, BG), W * 20);
        assert_int_equal(gl_fixture_count(fx, 0, 50, W, H, BG), W * (H - 50));
        assert_int_equal(gl_fixture_count(fx, 0, 20, 20, 50, BG), 20 * 30);

        /* Shift the joined pair onto the single bar: same pixels where the
         * pattern repeats (the shift of 80 is a multiple of the period 8
         * along x, and the stripes are diagonal, so the phase matches). */
        for (int y = 20; y < 50; y++)
            for (int x = 0; x < 40; x++)
                if (!rgba8_equal(gl_fixture_pixel(fx, 20 + x, y), gl_fixture_pixel(fx, 100 + x, y)))
                    fail_msg("pattern %d differs at (%d, %d) between one bar and two",
                             (int)patterns[i], 20 + x, y);
    }
}

/* The ink replaces the fill: with a transparent fill and a half-transparent
 * ink, stripe pixels are the ink over the background and the gaps show the
 * background untouched. */
static void test_pattern_translucent(void **state)
{
    gl_fixture *fx = *state;
    gl_fixture_begin(fx, BG);
    draw2d_rect_pattern(&fx->d, 0, 0, 64, 64, (rgba8){255, 0, 0, 0}, (rgba8){255, 255, 255, 128},
                        DRAW2D_HATCH, 8);
    gl_fixture_finish(fx);
    int gaps = 0, stripes = 0;
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            rgba8 p = gl_fixture_pixel(fx, x, y);
            assert_true(p.r == p.g && p.g == p.b); /* never tinted by the red fill */
            assert_in_range(p.r, 0, 129);
            gaps += p.r == 0;
            stripes += p.r >= 127;
        }
    assert_true(gaps > 500 && stripes > 500);
}

/* Zero period means the default; the rect still gets both colours. */
static void test_pattern_default_period(void **state)
{
    gl_fixture *fx = *state;
    gl_fixture_begin(fx, BG);
    draw2d_rect_pattern(&fx->d, 0, 0, 64, 64, RED, WHITE, DRAW2D_HATCH, 0);
    gl_fixture_finish(fx);
    assert_gt(gl_fixture_count(fx, 0, 0, 64, 64, RED), 0);
    assert_gt(gl_fixture_count(fx, 0, 0, 64, 64, WHITE), 0);
}

/* A 2-pixel horizontal line on a pixel boundary covers exactly two rows at
 * full colour; a 1-pixel vertical line through pixel centres one column. */
static void test_lines(void **state)
{
    gl_fixture *fx = *state;
    gl_fixture_begin(fx, BG);
    draw2d_line(&fx->d, 20, 40, 100, 40, 2, GREEN);
    draw2d_line(&fx->d, 150.5f, 10, 150.5f, 90, 1, RED);
    gl_fixture_finish(fx);
    for (int x = 20; x < 100; x++) {
        assert_pixel(fx, x, 39, GREEN);
        assert_pixel(fx, x, 40, GREEN);
        assert_pixel(fx, x, 38, BG);
        assert_pixel(fx, x, 41, BG);
    }
    assert_pixel(fx, 18, 40, BG);
    assert_pixel(fx, 101, 40, BG);
    assert_int_equal(gl_fixture_count(fx, 0, 0, W, H, GREEN), 80 * 2);
    for (int y = 10; y < 90; y++) {
        assert_pixel(fx, 150, y, RED);
        assert_pixel(fx, 149, y, BG);
        assert_pixel(fx, 151, y, BG);
    }
}

/* A diagonal line lights pixels near it (antialiased edges) and none far off. */
static void test_diagonal_line(void **state)
{
    gl_fixture *fx = *state;
    gl_fixture_begin(fx, BG);
    draw2d_line(&fx->d, 10, 10, 110, 110, 2, WHITE);
    gl_fixture_finish(fx);
    int lit = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            rgba8 p = gl_fixture_pixel(fx, x, y);
            if (rgba8_equal(p, BG))
                continue;
            lit++;
            float d = ((float)x - (float)y) / 1.41421356f; /* centre to the line */
            if (d > 3.0f || d < -3.0f)
                fail_msg("pixel (%d, %d) lit %.1f px from the line", x, y, d);
        }
    assert_gt(lit, 200);
    assert_pixel(fx, 60, 60, WHITE);
}

static void test_triangle(void **state)
{
    gl_fixture *fx = *state;
    gl_fixture_begin(fx, BG);
    draw2d_triangle(&fx->d, 10, 10, 60, 10, 10, 60, GREEN); /* either winding draws */
    draw2d_triangle(&fx->d, 100, 10, 100, 60, 150, 10, GREEN);
    gl_fixture_finish(fx);
    assert_pixel(fx, 12, 12, GREEN);
    assert_pixel(fx, 55, 12, GREEN);
    assert_pixel(fx, 55, 55, BG);
    assert_pixel(fx, 102, 12, GREEN);
    int n = gl_fixture_count(fx, 0, 0, W, H, GREEN);
    assert_in_range(n, 2 * 1250 - 120, 2 * 1250 + 120); /* two times 50 * 50 / 2 */
}

/* Half-transparent red over blue: straight alpha, result in the middle. */
static void test_alpha_blend(void **state)
{
    gl_fixture *fx = *state;
    gl_fixture_begin(fx, BG);
    draw2d_rect(&fx->d, 0, 0, 50, 50, BLUE);
    draw2d_rect(&fx->d, 10, 10, 20, 20, (rgba8){255, 0, 0, 128});
    gl_fixture_finish(fx);
    rgba8 p = gl_fixture_pixel(fx, 20, 20);
    assert_in_range(p.r, 127, 129);
    assert_int_equal(p.g, 0);
    assert_in_range(p.b, 126, 128);
    assert_int_equal(p.a, 255);
    assert_pixel(fx, 5, 5, BLUE);
}

/* Later primitives land over earlier ones, whatever the kind or clip. */
static void test_order(void **state)
{
    gl_fixture *fx = *state;
    gl_fixture_begin(fx, BG);
    draw2d_rect(&fx->d, 10, 10, 40, 40, RED);
    draw2d_rect(&fx->d, 30, 30, 40, 40, GREEN);
    draw2d_clip(&fx->d, 0, 0, W, H);
    draw2d_rect(&fx->d, 60, 60, 20, 20, BLUE);
    draw2d_clip_off(&fx->d);
    draw2d_line(&fx->d, 0, 75.5f, W, 75.5f, 1, WHITE);
    gl_fixture_finish(fx);
    assert_pixel(fx, 20, 20, RED);
    assert_pixel(fx, 40, 40, GREEN);
    assert_pixel(fx, 65, 65, BLUE);
    assert_pixel(fx, 65, 75, WHITE);
    assert_pixel(fx, 35, 75, WHITE);
    assert_pixel(fx, 35, 74, BG);

    gl_fixture_begin(fx, BG); /* reversed */
    draw2d_rect(&fx->d, 30, 30, 40, 40, GREEN);
    draw2d_rect(&fx->d, 10, 10, 40, 40, RED);
    gl_fixture_finish(fx);
    assert_pixel(fx, 40, 40, RED);
}

/* Outline inside the box, thickness pixels wide, hollow middle. */
static void test_rect_outline(void **state)
{
    gl_fixture *fx = *state;
    gl_fixture_begin(fx, BG);
    draw2d_rect_outline(&fx->d, 10, 10, 40, 30, 2, WHITE);
    gl_fixture_finish(fx);
    assert_int_equal(gl_fixture_count(fx, 0, 0, W, H, WHITE), 40 * 30 - 36 * 26);
    assert_pixel(fx, 10, 10, WHITE);
    assert_pixel(fx, 49, 39, WHITE);
    assert_pixel(fx, 12, 12, BG);
}

/* The same content twice gives the same pixels; the batch keeps its
 * capacity across frames (no allocation in steady state), even after it
 * had to grow past its initial size. */
static void draw_scene(draw2d *d)
{
    draw2d_rect(d, 0, 0, W, H, (rgba8){30, 30, 40, 255});
    for (int i = 0; i < 2000; i++) {
        float x = (float)(i * 37 % W), y = (float)(i * 13 % H);
        draw2d_rect_pattern(d, x, y, 9.5f, 7.25f, (rgba8){(uint8_t)i, 100, 200, 200}, WHITE,
                            (draw2d_pattern)(i % 4), 5);
    }
    draw2d_clip(d, 30, 30, 100, 50);
    draw2d_line(d, 0, 0, W, H, 1.5f, (rgba8){255, 200, 0, 180});
    draw2d_triangle(d, 40, 40, 140, 45, 60, 120, (rgba8){0, 200, 100, 128});
    draw2d_clip_off(d);
}

static void test_frames_identical(void **state)
{
    gl_fixture *fx = *state;
    static uint8_t first[W * H * 4];
    gl_fixture_begin(fx, BG);
    draw_scene(&fx->d);
    int capacity = fx->d.capacity;
    assert_ge(capacity, 2000 * 6);
    gl_fixture_finish(fx);
    memcpy(first, fx->pixels, sizeof first);
    assert_int_equal(fx->d.gpu_capacity, capacity);

    gl_fixture_begin(fx, BG);
    draw_scene(&fx->d);
    gl_fixture_finish(fx);
    assert_int_equal(fx->d.capacity, capacity);
    assert_int_equal(fx->d.gpu_capacity, capacity);
    assert_memory_equal(first, fx->pixels, sizeof first);
}

/* A glyph quad with no atlas bound draws nothing visible (coverage 0). */
static void test_glyph_without_atlas(void **state)
{
    gl_fixture *fx = *state;
    gl_fixture_begin(fx, BG);
    draw2d_set_atlas(&fx->d, 0);
    draw2d_glyph(&fx->d, 10, 10, 30, 30, 0, 0, 1, 1, WHITE);
    gl_fixture_finish(fx);
    assert_int_equal(gl_fixture_count(fx, 0, 0, W, H, BG), W * H);
}

/* flush leaves the state draw2d.h promises. */
static void test_flush_state(void **state)
{
    gl_fixture *fx = *state;
    glEnable(GL_DEPTH_TEST);
    gl_fixture_begin(fx, BG);
    draw2d_rect(&fx->d, 0, 0, 10, 10, RED);
    gl_fixture_finish(fx);
    assert_true(glIsEnabled(GL_BLEND));
    assert_false(glIsEnabled(GL_DEPTH_TEST));
    assert_false(glIsEnabled(GL_SCISSOR_TEST));
    assert_int_equal(glGetError(), GL_NO_ERROR);
}

/* Compile and link errors come back as one line naming the program and stage. */
static void test_shader_errors(void **state)
{
    (void)state;
    static const char *vert = "#version 330 core\nvoid main() { gl_Position = vec4(0.0); }\n";
    static const char *frag_ok = "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
    static const char *frag_bad = "#version 330 core\nout vec4 c;\nvoid main() { c = oops; }\n";
    static const char *vert_no_main = "#version 330 core\nvoid helper() {}\n";
    ppf_error err = {0};
    unsigned prog = 123;

    assert_false(gl_program_build(&prog, "broken", vert, frag_bad, &err));
    print_message("compile error: %s\n", err.message);
    assert_int_equal(prog, 0);
    assert_non_null(strstr(err.message, "shader broken (fragment): compile failed: "));
    assert_non_null(strstr(err.message, "oops"));
    assert_null(strchr(err.message, '\n'));

    assert_false(gl_program_build(&prog, "unlinked", vert_no_main, frag_ok, &err));
    print_message("link error: %s\n", err.message);
    assert_int_equal(prog, 0);
    assert_non_null(strstr(err.message, "shader unlinked: link failed: "));
    assert_null(strchr(err.message, '\n'));

    assert_true(gl_program_build(&prog, "fine", vert, frag_ok, &err));
    assert_true(prog != 0);
    gl_program_delete(&prog);
    assert_int_equal(prog, 0);
    gl_program_delete(&prog);
    assert_int_equal(glGetError(), GL_NO_ERROR);
}

/* Glyphs keep the atlas that was set when they were appended. */
static void test_atlas_per_glyph(void **state)
{
    gl_fixture *fx = *state;
    static const uint8_t full[4] = {255, 255, 255, 255};
    GLuint tex = 0;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, 2, 2, 0, GL_RED, GL_UNSIGNED_BYTE, full);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindTexture(GL_TEXTURE_2D, 0);

    gl_fixture_begin(fx, BG);
    draw2d_set_atlas(&fx->d, tex);
    draw2d_glyph(&fx->d, 10, 10, 20, 20, 0, 0, 1, 1, RED);
    draw2d_set_atlas(&fx->d, 0);
    draw2d_glyph(&fx->d, 30, 10, 40, 20, 0, 0, 1, 1, RED);
    draw2d_set_atlas(&fx->d, tex);
    draw2d_glyph(&fx->d, 50, 10, 60, 20, 0, 0, 1, 1, GREEN);
    gl_fixture_finish(fx);
    assert_int_equal(gl_fixture_count(fx, 10, 10, 20, 20, RED), 100);
    assert_int_equal(gl_fixture_count(fx, 30, 10, 40, 20, BG), 100);
    assert_int_equal(gl_fixture_count(fx, 50, 10, 60, 20, GREEN), 100);
    glDeleteTextures(1, &tex);
}

/* Pixels uploaded from memory (rows bottom first, RGBA or BGRA, a row
 * length longer than the rectangle) go back where they were asked to, one
 * for one, by a copy into the FBO and by quads as into a window, whole or
 * in parts; a smaller upload into the same texture (which only grows) puts
 * only its own rectangle. */
static void test_pixels_upload_put(void **state)
{
    gl_fixture *fx = *state;
    enum { PW = 40, PH = 20, ROW = 48 };
    static uint8_t rgba[ROW * PH * 4], bgra[ROW * PH * 4];
    for (int y = 0; y < PH; y++) /* memory row y is the rectangle's row PH - 1 - y, from the top */
        for (int x = 0; x < ROW; x++) {
            uint8_t *p = rgba + ((size_t)y * ROW + (size_t)x) * 4, *q = bgra + (p - rgba);
            p[0] = (uint8_t)(x * 5), p[1] = (uint8_t)(y * 10), p[2] = 77, p[3] = 255;
            q[0] = p[2], q[1] = p[1], q[2] = p[0], q[3] = 255;
        }
    draw2d_pixels px = {0};
    for (int mode = 0; mode < 4; mode++) { /* copy or quad; RGBA whole or BGRA in parts */
        fx->d.put_as_quad = mode & 1;
        const bool parts = mode & 2;
        gl_fixture_begin(fx, BG);
        draw2d_pixels_upload(&px, 100, 50, PW, PH, parts ? bgra : rgba, ROW, parts);
        if (!parts) {
            draw2d_put(&fx->d, &px);
        } else {
            for (int y = 50; y < 50 + PH; y++) /* every row in two parts */
                for (int k = 0; k < 2; k++)
                    draw2d_put_part(&fx->d, &px, 100 + k * (PW / 2), y, PW / 2, 1);
        }
        gl_fixture_finish(fx);
        for (int y = 0; y < PH; y++)
            for (int x = 0; x < PW; x++) {
                const uint8_t *p = rgba + ((size_t)(PH - 1 - y) * ROW + (size_t)x) * 4;
                assert_pixel(fx, 100 + x, 50 + y, ((rgba8){p[0], p[1], p[2], 255}));
            }
        assert_int_equal(gl_fixture_count(fx, 0, 0, W, H, BG), W * H - PW * PH);
    }
    /* a smaller one after: the texture keeps its size, the put its rectangle */
    gl_fixture_begin(fx, BG);
    draw2d_pixels_upload(&px, 10, 10, 8, 4, rgba, ROW, false);
    assert_int_equal(px.tex_w, PW);
    assert_int_equal(px.tex_h, PH);
    draw2d_put(&fx->d, &px);
    gl_fixture_finish(fx);
    assert_int_equal(gl_fixture_count(fx, 0, 0, W, H, BG), W * H - 8 * 4);
    assert_pixel(fx, 17, 13, ((rgba8){35, 0, 77, 255}));
    fx->d.put_as_quad = false;
    draw2d_pixels_deinit(&px);
}

static void test_deinit_zeroed(void **state)
{
    (void)state;
    draw2d zero = {0};
    draw2d_deinit(&zero);
    draw2d_deinit(&zero);
    draw2d_deinit(NULL);
    assert_int_equal(zero.programs[0], 0);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solid_rect),
        cmocka_unit_test(test_fractional_rect),
        cmocka_unit_test(test_clip),
        cmocka_unit_test(test_clip_culls),
        cmocka_unit_test(test_patterns),
        cmocka_unit_test(test_pattern_translucent),
        cmocka_unit_test(test_pattern_default_period),
        cmocka_unit_test(test_lines),
        cmocka_unit_test(test_diagonal_line),
        cmocka_unit_test(test_triangle),
        cmocka_unit_test(test_alpha_blend),
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_rect_outline),
        cmocka_unit_test(test_frames_identical),
        cmocka_unit_test(test_glyph_without_atlas),
        cmocka_unit_test(test_flush_state),
        cmocka_unit_test(test_shader_errors),
        cmocka_unit_test(test_atlas_per_glyph),
        cmocka_unit_test(test_pixels_upload_put),
        cmocka_unit_test(test_deinit_zeroed),
    };
    return cmocka_run_group_tests(tests, setup, gl_fixture_teardown) == 0 ? EXIT_SUCCESS
                                                                          : EXIT_FAILURE;
}
