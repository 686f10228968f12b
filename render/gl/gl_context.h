/* gl_context.h - a headless OpenGL 3.3 core context through EGL, no X server.
 *
 * For: tests that draw and read pixels back, and offscreen export, on
 * machines with no display: a GPU through the EGL device platform
 * (EGL_EXT_platform_device), or Mesa's llvmpipe on the CPU through the
 * surfaceless platform (EGL_MESA_platform_surfaceless).
 *
 * What it does not do: it creates no window and no default framebuffer (the
 * context is surfaceless), so the caller renders into its own FBO, e.g. a
 * GL_RGBA8 renderbuffer. It does not pick among several GPUs (the first
 * device that gives a 3.3 core context wins). One headless context per
 * process at a time: contexts on the same platform share one EGLDisplay,
 * which gl_context_deinit terminates.
 *
 * Call order:
 *     gl_context gl = {0};
 *     if (!gl_context_init_headless(&gl, &err)) { report err.message; }
 *     ... GL calls (glad is loaded, the context is current on this thread) ...
 *     gl_context_deinit(&gl);
 *
 * Errors: gl_context_init_headless returns false with one line in *err that
 * says which platforms were tried and why each failed, and names the Debian
 * packages to install; *ctx is then zeroed. Nothing is printed.
 */
#ifndef PPFLOW_GL_CONTEXT_H
#define PPFLOW_GL_CONTEXT_H

#include <stdbool.h>
#include <string.h>

#include "error.h"

typedef struct gl_context {
    void *display;        /* EGLDisplay; NULL when not initialised */
    void *context;        /* EGLContext, current on the thread that created it */
    const char *platform; /* "device" or "surfaceless": the EGL platform that worked */
    char renderer[128];   /* GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"; "" when none */
    int gl_major;         /* GL version the context got (at least 3.3) */
    int gl_minor;
} gl_context;

/* Creates a GL 3.3 core context with no surface, makes it current on this
 * thread and loads the GL functions; false and a message in *err if none. */
bool gl_context_init_headless(gl_context *ctx, ppf_error *err);

/* Releases the context and terminates its display; accepts a zeroed or
 * already deinited context, and leaves *ctx zeroed. */
void gl_context_deinit(gl_context *ctx);

/* Loads the GL functions for a context that someone else made current (the
 * viewer's GLFW window), through its proc-address function; false and a
 * message when the context is older than GL 3.3 core. */
bool gl_load_current(void *(*get_proc_address)(const char *name), ppf_error *err);

/* The GL_RENDERER string of the context, "" when not initialised. */
const char *gl_context_renderer(const gl_context *ctx);

/* Whether a GL_RENDERER string names one of Mesa's CPU renderers
 * (llvmpipe, softpipe, swrast): drawing there shares the cores with
 * everything else, and nothing runs asynchronously. */
static inline bool gl_renderer_on_cpu(const char *renderer)
{
    return strstr(renderer, "llvmpipe") || strstr(renderer, "softpipe") ||
           strstr(renderer, "swrast");
}

#endif
