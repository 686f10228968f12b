/* gl_shader.h - compiles and links one GL program from GLSL sources.
 *
 * For: every renderer in render/ (draw2d, the 3D scene). The sources usually
 * come from shaders_embedded.h (shaders/NAME.vert -> ppf_shader_NAME_vert),
 * generated at build time by cmake/embed_shaders.cmake.
 *
 * What it does not do: no uniform or attribute lookup, no caching, no
 * reloading from disk, no geometry or compute stages.
 *
 * Call order (a GL 3.3 core context must be current):
 *     unsigned prog = 0;
 *     if (!gl_program_build(&prog, "draw2d", vert_src, frag_src, &err)) return false;
 *     ... glUseProgram(prog) ...
 *     gl_program_delete(&prog);
 *
 * Errors: gl_program_build returns false and writes one line into *err that
 * names the program and the stage and quotes the first error line of the
 * compiler or linker log (e.g. "shader draw2d (fragment): compile failed:
 * 0:12(3): error: ..."). Nothing is printed.
 */
#ifndef PPFLOW_GL_SHADER_H
#define PPFLOW_GL_SHADER_H

#include <stdbool.h>

#include "error.h"

/* Compiles both stages and links them into *program (0 on failure; the
 * shader objects are deleted either way). name is only used in messages. */
bool gl_program_build(unsigned *program, const char *name, const char *vertex_src,
                      const char *fragment_src, ppf_error *err);

/* gl_program_build with `#define DEFINE VALUE` inserted into both sources
 * after their #version line (which must come first): one program per
 * variant of a shader whose branches would otherwise all run for every
 * fragment, as llvmpipe runs them (draw2d.frag's fills, scene.frag's
 * modes). The vertex stage sees the line too and may ignore it. */
bool gl_program_build_variant(unsigned *program, const char *name, const char *vertex_src,
                              const char *fragment_src, const char *define, int value,
                              ppf_error *err);

/* Deletes the program and sets *program to 0; accepts 0. */
void gl_program_delete(unsigned *program);

#endif
