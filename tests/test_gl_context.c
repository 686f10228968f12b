/* test_gl_context.c - the headless EGL context renders and reads back pixels.
 *
 * Needs no display and no GPU: on CI it runs on Mesa's llvmpipe through the
 * EGL device or surfaceless platform. */
#include <stdio.h>
#include <stdlib.h>

#include <glad/gl.h>

#include "gl_context.h"
#include "support/check.h"

enum { SIZE = 64 };

/* A colour every 8-bit target stores exactly (k / 255). */
static const uint8_t CLEAR_RGBA[4] = {51, 102, 204, 255};

static int setup(void **state)
{
    static gl_context gl;
    ppf_error err = {0};
    if (!gl_context_init_headless(&gl, &err)) {
        print_error("gl_context_init_headless: %s\n", err.message);
        return -1;
    }
    print_message("renderer: %s (GL %d.%d, EGL platform %s)\n", gl_context_renderer(&gl),
                  gl.gl_major, gl.gl_minor, gl.platform);
    *state = &gl;
    return 0;
}

static int teardown(void **state)
{
    gl_context_deinit(*state);
    return 0;
}

static void test_renderer_is_named(void **state)
{
    const gl_context *gl = *state;
    const char *renderer = gl_context_renderer(gl);
    assert_non_null(renderer);
    assert_true(renderer[0] != '\0');
    assert_ge(gl->gl_major * 10 + gl->gl_minor, 33);
}

static void test_clear_and_read_back(void **state)
{
    (void)state;
    GLuint rbo = 0, fbo = 0;
    glGenRenderbuffers(1, &rbo);
    glBindRenderbuffer(GL_RENDERBUFFER, rbo);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, SIZE, SIZE);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rbo);
    assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);

    glViewport(0, 0, SIZE, SIZE);
    glClearColor(CLEAR_RGBA[0] / 255.0f, CLEAR_RGBA[1] / 255.0f, CLEAR_RGBA[2] / 255.0f,
                 CLEAR_RGBA[3] / 255.0f);
    glClear(GL_COLOR_BUFFER_BIT);

    static uint8_t pixels[SIZE * SIZE * 4];
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, SIZE, SIZE, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    assert_int_equal(glGetError(), GL_NO_ERROR);

    for (int i = 0; i < SIZE * SIZE; i++) {
        for (int c = 0; c < 4; c++) {
            if (pixels[i * 4 + c] != CLEAR_RGBA[c])
                fail_msg("pixel (%d, %d) channel %d: got %d, want %d", i % SIZE, i / SIZE, c,
                         pixels[i * 4 + c], CLEAR_RGBA[c]);
        }
    }

    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    glDeleteRenderbuffers(1, &rbo);
    assert_int_equal(glGetError(), GL_NO_ERROR);
}

/* deinit accepts a zeroed and an already deinited context. */
static void test_deinit_zeroed(void **state)
{
    (void)state;
    gl_context zero = {0};
    gl_context_deinit(&zero);
    gl_context_deinit(&zero);
    gl_context_deinit(NULL);
    assert_null(zero.display);
    assert_string_equal(gl_context_renderer(&zero), "");
}

/* A second context after the first one is gone works: export after a test. */
static void test_init_again(void **state)
{
    (void)state;
    ppf_error err = {0};
    gl_context gl = {0};
    if (!gl_context_init_headless(&gl, &err))
        fail_msg("%s", err.message);
    assert_true(gl_context_renderer(&gl)[0] != '\0');
    gl_context_deinit(&gl);
    assert_null(gl.display);
    gl_context_deinit(&gl);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest with_context[] = {
        cmocka_unit_test(test_renderer_is_named),
        cmocka_unit_test(test_clear_and_read_back),
    };
    const struct CMUnitTest without_context[] = {
        cmocka_unit_test(test_deinit_zeroed),
        cmocka_unit_test(test_init_again),
    };
    int failed = cmocka_run_group_tests(with_context, setup, teardown);
    failed += cmocka_run_group_tests(without_context, NULL, NULL);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
