/* render_target.c - offscreen RGBA8 + depth framebuffer. See render_target.h. */
#include "render_target.h"

#include <stddef.h>

#include <glad/gl.h>

bool render_target_init(render_target *rt, int width, int height, ppf_error *err)
{
    return render_target_init_multisample(rt, width, height, 0, err);
}

bool render_target_init_multisample(render_target *rt, int width, int height, int samples,
                                    ppf_error *err)
{
    *rt = (render_target){.width = width, .height = height, .samples = samples};
    GLint max = 0;
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max);
    if (width < 1 || height < 1 || width > max || height > max)
        return ppf_fail(err, "size = %dx%d: must be from 1x1 to %dx%d on this GL", width, height,
                        max, max);
    glGenRenderbuffers(1, &rt->color);
    glBindRenderbuffer(GL_RENDERBUFFER, rt->color);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_RGBA8, width, height);
    glGenRenderbuffers(1, &rt->depth);
    glBindRenderbuffer(GL_RENDERBUFFER, rt->depth);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_DEPTH_COMPONENT24, width, height);
    glGenFramebuffers(1, &rt->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, rt->fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rt->color);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rt->depth);
    GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        render_target_deinit(rt);
        return ppf_fail(err, "offscreen framebuffer %dx%d is incomplete (GL status 0x%04x)", width,
                        height, (unsigned)status);
    }
    return true;
}

void render_target_deinit(render_target *rt)
{
    if (!rt)
        return;
    if (rt->fbo) {
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glDeleteFramebuffers(1, &rt->fbo);
    }
    if (rt->color)
        glDeleteRenderbuffers(1, &rt->color);
    if (rt->depth)
        glDeleteRenderbuffers(1, &rt->depth);
    *rt = (render_target){0};
}

void render_target_bind(const render_target *rt)
{
    glBindFramebuffer(GL_FRAMEBUFFER, rt->fbo);
    glViewport(0, 0, rt->width, rt->height);
}

/* Reads the bound read framebuffer, then flips rows in place: one call is
 * cheaper than a call per row on llvmpipe. */
static void read_flipped(int width, int height, uint8_t *out)
{
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, out);
    size_t row = (size_t)width * 4;
    for (int top = 0, bottom = height - 1; top < bottom; top++, bottom--) {
        uint8_t *a = out + row * (size_t)top, *b = out + row * (size_t)bottom;
        for (size_t k = 0; k < row; k++) {
            uint8_t tmp = a[k];
            a[k] = b[k];
            b[k] = tmp;
        }
    }
}

void render_target_read(const render_target *rt, uint8_t *out)
{
    glBindFramebuffer(GL_READ_FRAMEBUFFER, rt->fbo);
    read_flipped(rt->width, rt->height, out);
}

void render_read_window(int width, int height, uint8_t *out)
{
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glReadBuffer(GL_BACK);
    read_flipped(width, height, out);
}

void render_target_finish(const render_target *rt)
{
    (void)rt;
    glFinish();
}
