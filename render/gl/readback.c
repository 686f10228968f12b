/* readback.c - pixel pack buffer ring. See readback.h. */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MADV_HUGEPAGE */
#endif
#include "readback.h"

#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/mman.h>

#include <glad/gl.h>

#include "gl_context.h"

/* Memory for one slot, in huge pages where the kernel gives them to those
 * who ask (transparent huge pages on "madvise", Debian's default): 4 faults
 * instead of 2048 for a 1080p frame. NULL when there is none. */
static uint8_t *slot_memory(size_t size)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, size, MADV_HUGEPAGE); /* a hint: 4 KiB pages work too */
#endif
    return p;
}

bool readback_init(readback *rb, int slots, int width, int height, ppf_error *err)
{
    *rb = (readback){.slots = slots, .width = width, .height = height};
    assert(slots >= 1 && slots <= READBACK_MAX_SLOTS && width > 0 && height > 0);
    const GLsizeiptr size = (GLsizeiptr)width * height * 4;
    const char *renderer = (const char *)glGetString(GL_RENDERER);
    if (renderer && gl_renderer_on_cpu(renderer)) {
        rb->memory_size = (size_t)size;
        for (int k = 0; k < slots; k++)
            if (!(rb->memory[k] = slot_memory(rb->memory_size))) {
                readback_deinit(rb);
                return ppf_fail(err, "readback memory for %dx%d: out of memory", width, height);
            }
        return true;
    }
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
    for (int k = 0; k < rb->slots; k++) {
        if (rb->mapped[k])
            readback_unmap(rb, k);
        if (rb->memory[k])
            munmap(rb->memory[k], rb->memory_size);
    }
    if (rb->pbo[0])
        glDeleteBuffers(rb->slots, rb->pbo);
    *rb = (readback){0};
}

void readback_start(readback *rb, int slot)
{
    assert(slot >= 0 && slot < rb->slots && !rb->mapped[slot]);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, rb->pbo[slot]); /* 0 for memory: the pointer is it */
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, rb->width, rb->height, GL_RGBA, GL_UNSIGNED_BYTE, rb->memory[slot]);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
}

uint8_t *readback_map(readback *rb, int slot, ppf_error *err)
{
    assert(slot >= 0 && slot < rb->slots);
    if (rb->mapped[slot])
        return rb->mapped[slot];
    if (rb->memory[slot]) /* read already: glReadPixels into memory returns when done */
        return rb->mapped[slot] = rb->memory[slot];
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
    if (rb->memory[slot]) {
        rb->mapped[slot] = NULL;
        return;
    }
    glBindBuffer(GL_PIXEL_PACK_BUFFER, rb->pbo[slot]);
    glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    rb->mapped[slot] = NULL;
}
