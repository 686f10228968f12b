/* readback.h - asynchronous reads of a framebuffer into a ring of pixel
 * buffer objects, for export.
 *
 * For: `ppflow render -o out.mp4`, where the pixels of frame i go to the
 * encoder thread while frame i + 1 is drawn. glReadPixels into a pixel pack
 * buffer returns at once on a GPU (the copy runs after the drawing); mapping
 * the buffer later waits for it. The mapped memory is handed to the encoder
 * thread as it is, so the pixels are copied once, by the GL. On llvmpipe the
 * read is a memcpy either way, so there (gl_renderer_on_cpu) the slots are
 * plain memory of our own instead, in huge pages where the kernel gives
 * them: the GL zeroes a buffer it makes, 4 KiB page by page, about 80 ms of
 * a 1080p export's start on a virtual machine. The pixels are writable
 * too, so that export finishes the frame in place (the 3D view's edges,
 * scene_aa_apply) before the encoder reads it.
 *
 * Pixels: width * height * 4 bytes, RGBA, rows BOTTOM row first (GL's
 * order; encoders flip for free with a negative stride), no padding.
 *
 * Call order (a current GL context, the framebuffer to read bound for
 * reading, e.g. by render_target_bind):
 *     readback rb; readback_init(&rb, 3, 1920, 1080, &err);
 *     readback_start(&rb, slot);                  after drawing a frame
 *     uint8_t *px = readback_map(&rb, slot);      waits, then valid until unmapped
 *     ... any thread may read or change px ...
 *     readback_unmap(&rb, slot);                  before the next start on that slot
 *     readback_deinit(&rb);
 *
 * Errors: init returns false with one line when the buffers cannot be made;
 * map returns NULL (and says why) when the GL cannot map the buffer.
 */
#ifndef PPFLOW_READBACK_H
#define PPFLOW_READBACK_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"

enum { READBACK_MAX_SLOTS = 4 };

typedef struct readback {
    unsigned pbo[READBACK_MAX_SLOTS];    /* pixel pack buffers; 0s where memory is */
    uint8_t *memory[READBACK_MAX_SLOTS]; /* a CPU renderer's slots; NULLs where buffers are */
    size_t memory_size;                  /* each one's length, to unmap it */
    uint8_t *mapped[READBACK_MAX_SLOTS]; /* NULL when not mapped */
    int slots;
    int width, height;
} readback;

bool readback_init(readback *rb, int slots, int width, int height, ppf_error *err);
void readback_deinit(readback *rb); /* accepts a zeroed one; unmaps what is mapped */

/* Starts reading the bound read framebuffer into `slot` (not mapped). */
void readback_start(readback *rb, int slot);
/* Waits for the read of `slot` and returns its pixels (bottom row first),
 * to read and to change. */
uint8_t *readback_map(readback *rb, int slot, ppf_error *err);
void readback_unmap(readback *rb, int slot);

#endif
