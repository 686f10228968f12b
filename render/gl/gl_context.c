/* gl_context.c - headless GL 3.3 core through EGL: device platform, then
 * Mesa's surfaceless platform. See gl_context.h. */
#include "gl_context.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include <glad/egl.h>
#include <glad/gl.h>

enum { MAX_DEVICES = 16 };

#define INSTALL_HINT "install the Debian packages libegl1-mesa-dev libgl1-mesa-dri"

/* eglGetPlatformDisplay is EGL 1.5; older client libraries only have the EXT
 * form. Both take a NULL attribute list. */
static EGLDisplay get_platform_display(EGLenum platform, void *native)
{
    if (eglGetPlatformDisplay != NULL)
        return eglGetPlatformDisplay(platform, native, NULL);
    if (eglGetPlatformDisplayEXT != NULL)
        return eglGetPlatformDisplayEXT(platform, native, NULL);
    return EGL_NO_DISPLAY;
}

/* Initialises dpy and makes a GL 3.3 core surfaceless context current on it.
 * On failure writes why into why[why_size], terminates dpy and returns false;
 * on success fills ctx. */
static bool try_display(gl_context *ctx, EGLDisplay dpy, const char *platform, char *why,
                        size_t why_size)
{
    EGLContext egl_ctx = EGL_NO_CONTEXT;
    EGLint major = 0, minor = 0;

    if (dpy == EGL_NO_DISPLAY) {
        snprintf(why, why_size, "no display");
        return false;
    }
    if (!eglInitialize(dpy, &major, &minor)) {
        /* Nothing to terminate: the display never initialised. */
        snprintf(why, why_size, "eglInitialize failed (EGL error 0x%04x)", (unsigned)eglGetError());
        return false;
    }
    /* Reload with the display, for its own extensions and version. */
    if (!gladLoaderLoadEGL(dpy)) {
        snprintf(why, why_size, "cannot load EGL %d.%d functions", major, minor);
        goto fail;
    }
    if (!GLAD_EGL_VERSION_1_5) {
        snprintf(why, why_size, "EGL %d.%d, need 1.5", major, minor);
        goto fail;
    }
    if (!GLAD_EGL_KHR_surfaceless_context) {
        snprintf(why, why_size, "no EGL_KHR_surfaceless_context");
        goto fail;
    }
    if (!eglBindAPI(EGL_OPENGL_API)) {
        snprintf(why, why_size, "no desktop OpenGL (eglBindAPI, EGL error 0x%04x)",
                 (unsigned)eglGetError());
        goto fail;
    }

    /* EGL_SURFACE_TYPE defaults to EGL_WINDOW_BIT, which headless displays
     * lack; 0 accepts any config since the context will have no surface. */
    const EGLint config_attribs[] = {
        EGL_SURFACE_TYPE, 0, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE,
    };
    EGLConfig config = NULL;
    EGLint n_configs = 0;
    if (!eglChooseConfig(dpy, config_attribs, &config, 1, &n_configs) || n_configs < 1) {
        snprintf(why, why_size, "no EGL config for desktop OpenGL");
        goto fail;
    }

    /* One attribute and its value per line. */
    /* clang-format off */
    const EGLint context_attribs[] = {
        EGL_CONTEXT_MAJOR_VERSION, 3,
        EGL_CONTEXT_MINOR_VERSION, 3,
        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
        EGL_NONE,
    };
    /* clang-format on */
    egl_ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, context_attribs);
    if (egl_ctx == EGL_NO_CONTEXT) {
        snprintf(why, why_size, "no GL 3.3 core context (EGL error 0x%04x)",
                 (unsigned)eglGetError());
        goto fail;
    }
    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, egl_ctx)) {
        snprintf(why, why_size, "eglMakeCurrent failed (EGL error 0x%04x)",
                 (unsigned)eglGetError());
        goto fail;
    }

    int version = gladLoadGL((GLADloadfunc)eglGetProcAddress);
    int gl_major = GLAD_VERSION_MAJOR(version), gl_minor = GLAD_VERSION_MINOR(version);
    if (version == 0 || gl_major * 10 + gl_minor < 33) {
        snprintf(why, why_size, "GL %d.%d, need 3.3 core", gl_major, gl_minor);
        goto fail;
    }

    const char *renderer = (const char *)glGetString(GL_RENDERER);
    ctx->display = dpy;
    ctx->context = egl_ctx;
    ctx->platform = platform;
    snprintf(ctx->renderer, sizeof ctx->renderer, "%s", renderer ? renderer : "unknown");
    ctx->gl_major = gl_major;
    ctx->gl_minor = gl_minor;
    return true;

fail:
    if (egl_ctx != EGL_NO_CONTEXT) {
        eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(dpy, egl_ctx);
    }
    eglTerminate(dpy);
    return false;
}

/* The EGL device platform: the usual headless path on GPU drivers (and Mesa
 * lists a software device too). */
static bool try_devices(gl_context *ctx, char *why, size_t why_size)
{
    if (!GLAD_EGL_EXT_platform_device || !GLAD_EGL_EXT_device_enumeration ||
        eglQueryDevicesEXT == NULL) {
        snprintf(why, why_size, "no EGL_EXT_platform_device");
        return false;
    }
    EGLDeviceEXT devices[MAX_DEVICES];
    EGLint n = 0;
    if (!eglQueryDevicesEXT(MAX_DEVICES, devices, &n) || n < 1) {
        snprintf(why, why_size, "no EGL devices");
        return false;
    }
    for (EGLint i = 0; i < n; i++) {
        EGLDisplay dpy = get_platform_display(EGL_PLATFORM_DEVICE_EXT, devices[i]);
        char device_why[160];
        if (try_display(ctx, dpy, "device", device_why, sizeof device_why))
            return true;
        /* Report the first device's reason: usually the one a user expects. */
        if (i == 0)
            snprintf(why, why_size, "%d device(s), device 0: %s", (int)n, device_why);
    }
    return false;
}

static bool try_surfaceless(gl_context *ctx, char *why, size_t why_size)
{
    if (!GLAD_EGL_MESA_platform_surfaceless) {
        snprintf(why, why_size, "no EGL_MESA_platform_surfaceless");
        return false;
    }
    EGLDisplay dpy = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY);
    return try_display(ctx, dpy, "surfaceless", why, why_size);
}

bool gl_context_init_headless(gl_context *ctx, ppf_error *err)
{
    assert(ctx != NULL);
    memset(ctx, 0, sizeof *ctx);

    /* Loads libEGL.so.1 and the client (no display) functions and extensions. */
    if (!gladLoaderLoadEGL(EGL_NO_DISPLAY))
        return ppf_fail(err, "headless OpenGL: cannot load libEGL.so.1; " INSTALL_HINT);

    char device_why[240] = "", surfaceless_why[240] = "";
    if (try_devices(ctx, device_why, sizeof device_why))
        return true;
    /* try_devices reloaded glad for a failed display: start again from the client. */
    gladLoaderLoadEGL(EGL_NO_DISPLAY);
    if (try_surfaceless(ctx, surfaceless_why, sizeof surfaceless_why))
        return true;

    memset(ctx, 0, sizeof *ctx);
    return ppf_fail(err,
                    "headless OpenGL 3.3 core: no usable EGL display (device platform: %s; "
                    "surfaceless platform: %s); " INSTALL_HINT,
                    device_why, surfaceless_why);
}

void gl_context_deinit(gl_context *ctx)
{
    if (ctx == NULL || ctx->display == NULL) {
        if (ctx != NULL)
            memset(ctx, 0, sizeof *ctx);
        return;
    }
    EGLDisplay dpy = ctx->display;
    if (eglGetCurrentContext() == (EGLContext)ctx->context)
        eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, (EGLContext)ctx->context);
    eglTerminate(dpy);
    eglReleaseThread();
    /* libEGL stays loaded (gladLoaderUnloadEGL is not called): the GL and EGL
     * function pointers are process-wide and another context may follow. */
    memset(ctx, 0, sizeof *ctx);
}

const char *gl_context_renderer(const gl_context *ctx)
{
    return ctx != NULL ? ctx->renderer : "";
}

bool gl_load_current(void *(*get_proc_address)(const char *name), ppf_error *err)
{
    int version = gladLoadGL((GLADloadfunc)get_proc_address);
    if (!version)
        return ppf_fail(err, "cannot load OpenGL functions for the window");
    int major = GLAD_VERSION_MAJOR(version), minor = GLAD_VERSION_MINOR(version);
    if (major * 10 + minor < 33)
        return ppf_fail(err, "the window got OpenGL %d.%d; ppflow needs 3.3 core", major, minor);
    return true;
}
