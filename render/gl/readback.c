/* readback.c - pixel pack buffer ring. See readback.h. */
#include "readback.h"

#include <assert.h>
#include <stddef.h>

#include <glad/gl.h>

bool readback_init(readback *rb, int slots, int width, int height, ppf_error *err)
{
    *rb = (readback){.slots = slots, .width = width, .height = height};
    assert(slots >= 1 && slots <= READBACK_MAX_SLOTS && width > 0 && height > 0);
    const GLsizeiptr size = (GLsizeiptr)width * height * 4;
    glGenBuffers(slots, rb->pbo);
    for (int k = 0; k < slots; k++) {
        glBindBuffer(GL_PIXEL_PACK_BUFFER, rb->pbo[k]);
        /* STREAM_READ: written by the GL once, read (and touched up) by us once. */
        glBufferData(GL_PIXEL_PACK_BUFFER, size, NULL, GL_STREAM_READ);
    }
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        readback_deinit(rb);
        return ppf_fail(err, "readback buffers for %dx%d: GL error 0x%04x (out of memory?)", width,
                        height, (unsigned)e);
    }
    return true;
}

void readback_deinit(readback *rb)
{
    if (!rb || !rb->slots)
        return;
    for (int k = 0; k < rb->slots; k++)
        if (rb->mapped[k])
            readback_unmap(rb, k);
    glDeleteBuffers(rb->slots, rb->pbo);
    *rb = (readback){0};
}

void readback_start(readback *rb, int slot)
{
    assert(slot >= 0 && slot < rb->slots && !rb->mapped[slot]);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, rb->pbo[slot]);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, rb->width, rb->height, GL_RGBA, GL_UNSIGNED_BYTE, (void *)0);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
}

uint8_t *readback_map(readback *rb, int slot, ppf_error *err)
{
    assert(slot >= 0 && slot < rb->slots);
    if (rb->mapped[slot])
        return rb->mapped[slot];
    glBindBuffer(GL_PIXEL_PACK_BUFFER, rb->pbo[slot]);
    void *p = glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, (GLsizeiptr)rb->width * rb->height * 4,
                               GL_MAP_READ_BIT | GL_MAP_WRITE_BIT);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    if (!p) {
        ppf_fail(err, "cannot map the readback buffer: GL error 0x%04x", (unsigned)glGetError());
        return NULL;
    }
    rb->mapped[slot] = p;
    return p;
}

void readback_unmap(readback *rb, int slot)
{
    assert(slot >= 0 && slot < rb->slots);
    if (!rb->mapped[slot])
        return;
    glBindBuffer(GL_PIXEL_PACK_BUFFER, rb->pbo[slot]);
    glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    rb->mapped[slot] = NULL;
}
