/* gl_shader.c - compile and link GLSL programs. See gl_shader.h. */
#include "gl_shader.h"

#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

enum { LOG_MAX = 2048 };

/* Reduces a multi-line compiler or linker log to one line, in place: the
 * first line that mentions "error" (Mesa may put warnings first), else the
 * first non-empty line, without surrounding white space. */
static const char *log_first_error(char *log)
{
    const char *first = NULL;
    for (char *line = log; *line;) {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        while (isspace((unsigned char)*line))
            line++;
        size_t len = strlen(line);
        while (len > 0 && isspace((unsigned char)line[len - 1]))
            line[--len] = '\0';
        if (len > 0 && !first)
            first = line;
        if (len > 0 && strstr(line, "error")) {
            first = line;
            break;
        }
        if (!end)
            break;
        line = end + 1;
    }
    return first ? first : "(empty log)";
}

/* Compiles one stage; 0 and a message in err on failure. */
static GLuint compile_stage(GLenum type, const char *name, const char *src, ppf_error *err)
{
    const char *stage = type == GL_VERTEX_SHADER ? "vertex" : "fragment";
    GLuint shader = glCreateShader(type);
    if (shader == 0) {
        ppf_fail(err, "shader %s (%s): glCreateShader failed (GL error 0x%04x)", name, stage,
                 glGetError());
        return 0;
    }
    glShaderSource(shader, 1, &src, NULL);
    glCompileShader(shader);
    GLint ok = GL_FALSE;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[LOG_MAX] = "";
        glGetShaderInfoLog(shader, sizeof log, NULL, log);
        ppf_fail(err, "shader %s (%s): compile failed: %s", name, stage, log_first_error(log));
        glDeleteShader(shader);
        return 0;
    }
    return shader;
}

bool gl_program_build(unsigned *program, const char *name, const char *vertex_src,
                      const char *fragment_src, ppf_error *err)
{
    assert(program && name && vertex_src && fragment_src);
    GLuint vs = 0, fs = 0, prog = 0;
    *program = 0;

    vs = compile_stage(GL_VERTEX_SHADER, name, vertex_src, err);
    if (!vs)
        goto fail;
    fs = compile_stage(GL_FRAGMENT_SHADER, name, fragment_src, err);
    if (!fs)
        goto fail;
    prog = glCreateProgram();
    if (!prog) {
        ppf_fail(err, "shader %s: glCreateProgram failed (GL error 0x%04x)", name, glGetError());
        goto fail;
    }
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glLinkProgram(prog);
    GLint ok = GL_FALSE;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[LOG_MAX] = "";
        glGetProgramInfoLog(prog, sizeof log, NULL, log);
        ppf_fail(err, "shader %s: link failed: %s", name, log_first_error(log));
        goto fail;
    }
    /* The program keeps the compiled code; the shader objects can go. */
    glDetachShader(prog, vs);
    glDetachShader(prog, fs);
    glDeleteShader(fs);
    glDeleteShader(vs);
    *program = prog;
    return true;

fail:
    if (prog)
        glDeleteProgram(prog);
    if (fs)
        glDeleteShader(fs);
    if (vs)
        glDeleteShader(vs);
    return false;
}

/* source with `#define DEFINE VALUE` after its first line, the #version
 * (NULL, and one line in *err, when it has none); the caller frees it. */
static char *with_define(const char *name, const char *source, const char *define, int value,
                         ppf_error *err)
{
    const char *body = strchr(source, '\n');
    if (!body || strncmp(source, "#version", 8) != 0) {
        ppf_fail(err, "shader %s: a source must start with a #version line", name);
        return NULL;
    }
    body++;
    const int head = (int)(body - source);
    const size_t size = strlen(source) + strlen(define) + 32;
    char *out = ppf_malloc(size);
    snprintf(out, size, "%.*s#define %s %d\n%s", head, source, define, value, body);
    return out;
}

bool gl_program_build_variant(unsigned *program, const char *name, const char *vertex_src,
                              const char *fragment_src, const char *define, int value,
                              ppf_error *err)
{
    assert(program && name && vertex_src && fragment_src && define);
    *program = 0;
    char *vs = with_define(name, vertex_src, define, value, err);
    char *fs = vs ? with_define(name, fragment_src, define, value, err) : NULL;
    const bool ok = fs && gl_program_build(program, name, vs, fs, err);
    free(vs);
    free(fs);
    return ok;
}

void gl_program_delete(unsigned *program)
{
    if (program && *program) {
        glDeleteProgram(*program);
        *program = 0;
    }
}
