/* viewer_script.c - reading and checking viewer scripts. See viewer_script.h. */
#include "viewer_script.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GLFW_INCLUDE_NONE /* the key and modifier codes only: GL headers stay in render/ */
#include <GLFW/glfw3.h>

#include "file_read.h"
#include "frame_times.h"
#include "utf8.h"

enum { WORDS_MAX = 8 }; /* after the verb: a key name and its modifiers at most */

/* ---- the file ---------------------------------------------------------------- */

/* The whole regular file at path, NUL-terminated, its length in *size. */
static char *read_whole(const char *path, size_t *size, ppf_error *err)
{
    file_text ft;
    switch (file_read_path(&ft, path, VIEWER_SCRIPT_BYTES_MAX, true)) {
    case FILE_READ_OK:
        *size = ft.len;
        return ft.text;
    case FILE_READ_CANNOT_OPEN:
    case FILE_READ_ERROR:
        ppf_fail(err, "%.200s: cannot read it: %s", path, strerror(ft.errno_value));
        break;
    case FILE_READ_DIRECTORY:
        ppf_fail(err, "%.200s: is a folder, not a script file", path);
        break;
    case FILE_READ_NOT_REGULAR:
    case FILE_READ_PSEUDO:
    case FILE_READ_OUTSIDE: /* not confined: never */
        ppf_fail(err,
                 "%.200s: not a regular file (a script is read whole before the window "
                 "opens: no pipes, devices or /proc files)",
                 path);
        break;
    case FILE_READ_TOO_BIG:
        ppf_fail(err, "%.200s: over %d bytes: a script is at most 1 MiB", path,
                 VIEWER_SCRIPT_BYTES_MAX);
        break;
    }
    return NULL;
}

/* ---- lines --------------------------------------------------------------------- */

typedef struct reader {
    const char *path;
    int line;
    ppf_error *err;
} reader;

/* "FILE:LINE: what" into the error; returns false. */
__attribute__((format(printf, 2, 3))) static bool bad(const reader *r, const char *fmt, ...)
{
    char what[PPF_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return ppf_fail(r->err, "%.200s:%d: %s", r->path, r->line, what);
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Cuts the words of s in place; returns how many (WORDS_MAX + 1: too many). */
static int split_words(char *s, char *words[WORDS_MAX])
{
    int n = 0;
    for (;;) {
        while (is_blank(*s))
            s++;
        if (!*s)
            return n;
        if (n == WORDS_MAX)
            return WORDS_MAX + 1;
        words[n++] = s;
        while (*s && !is_blank(*s))
            s++;
        if (*s)
            *s++ = '\0';
    }
}

/* ---- values ---------------------------------------------------------------------- */

/* A decimal number within [-limit, limit]: strtod alone would also take
 * "nan", "inf", hex and a number followed by anything. */
static bool number(const reader *r, const char *verb, const char *what, const char *word,
                   double limit, double *out)
{
    char *end = NULL;
    bool ok = word[0] && strspn(word, "0123456789+-.eE") == strlen(word);
    double v = ok ? strtod(word, &end) : 0;
    if (!ok || *end != '\0' || !isfinite(v) || fabs(v) > limit)
        return bad(r, "%s %s = \"%.40s\": must be a decimal number from %.0f to %.0f", verb, what,
                   word, -limit, limit);
    *out = v;
    return true;
}

/* A count of frames, 1 to max: digits only (atoi would take "12abc" and overflow). */
static bool frame_count(const reader *r, const char *verb, const char *word, int max, int *out)
{
    size_t len = strlen(word);
    bool ok = len > 0 && len <= 6 && strspn(word, "0123456789") == len;
    int v = ok ? atoi(word) : 0;
    if (!ok || v < 1 || v > max)
        return bad(r, "%s N = \"%.40s\": must be a whole number from 1 to %d", verb, word, max);
    *out = v;
    return true;
}

/* The keys a script names, and the modifiers typing each takes on a US
 * layout: "?" is shift+slash and "+" shift+equal, as a person types them.
 * Besides these, a..z and 0..9 name themselves. The one list: the error
 * for an unknown name lists it (key_names). */
static const struct {
    const char *name;
    int key, mods;
} script_keys[] = {
    {"space", GLFW_KEY_SPACE, 0},
    {"left", GLFW_KEY_LEFT, 0},
    {"right", GLFW_KEY_RIGHT, 0},
    {"home", GLFW_KEY_HOME, 0},
    {"end", GLFW_KEY_END, 0},
    {"pagedown", GLFW_KEY_PAGE_DOWN, 0},
    {"pageup", GLFW_KEY_PAGE_UP, 0},
    {"enter", GLFW_KEY_ENTER, 0},
    {"backspace", GLFW_KEY_BACKSPACE, 0},
    {"tab", GLFW_KEY_TAB, 0},
    {"f3", GLFW_KEY_F3, 0},
    {"f5", GLFW_KEY_F5, 0},
    {"plus", GLFW_KEY_EQUAL, GLFW_MOD_SHIFT},
    {"equal", GLFW_KEY_EQUAL, 0},
    {"minus", GLFW_KEY_MINUS, 0},
    {"period", GLFW_KEY_PERIOD, 0},
    {"comma", GLFW_KEY_COMMA, 0},
    {"escape", GLFW_KEY_ESCAPE, 0},
    {"f11", GLFW_KEY_F11, 0},
    {"question", GLFW_KEY_SLASH, GLFW_MOD_SHIFT},
    {"bracketright", GLFW_KEY_RIGHT_BRACKET, 0},
    {"bracketleft", GLFW_KEY_LEFT_BRACKET, 0},
    {"colon", GLFW_KEY_SEMICOLON, GLFW_MOD_SHIFT},
    {"semicolon", GLFW_KEY_SEMICOLON, 0},
    {"slash", GLFW_KEY_SLASH, 0},
};

/* The key a name stands for (script_keys, a..z, 0..9) and its implied
 * modifiers; -1 for an unknown name. */
static int key_by_name(const char *name, int *implied_mods)
{
    *implied_mods = 0;
    for (size_t k = 0; k < sizeof script_keys / sizeof script_keys[0]; k++)
        if (strcmp(name, script_keys[k].name) == 0) {
            *implied_mods = script_keys[k].mods;
            return script_keys[k].key;
        }
    if (strlen(name) == 1 && isalpha((unsigned char)name[0]))
        return GLFW_KEY_A + (toupper((unsigned char)name[0]) - 'A');
    if (strlen(name) == 1 && isdigit((unsigned char)name[0]))
        return GLFW_KEY_0 + (name[0] - '0');
    return -1;
}

/* Every name key_by_name knows, for the error of an unknown one. */
static void key_names(char *out, size_t size)
{
    size_t at = 0;
    out[0] = '\0';
    for (size_t k = 0; k < sizeof script_keys / sizeof script_keys[0] && at < size; k++)
        at += (size_t)snprintf(out + at, size - at, "%s, ", script_keys[k].name);
    if (at < size)
        snprintf(out + at, size - at, "a..z, 0..9");
}

/* The key (and shift) that types an ASCII character on a US layout, as
 * GLFW reports the press before the character; 0 for the others. */
int viewer_script_key_of_char(unsigned c, int *mods)
{
    static const char shifted[] = ":<>?+_";
    static const int shifted_keys[] = {GLFW_KEY_SEMICOLON, GLFW_KEY_COMMA, GLFW_KEY_PERIOD,
                                       GLFW_KEY_SLASH,     GLFW_KEY_EQUAL, GLFW_KEY_MINUS};
    *mods = 0;
    if (c >= 'a' && c <= 'z')
        return GLFW_KEY_A + (int)(c - 'a');
    if (c >= 'A' && c <= 'Z') {
        *mods = GLFW_MOD_SHIFT;
        return GLFW_KEY_A + (int)(c - 'A');
    }
    if (c >= '0' && c <= '9')
        return GLFW_KEY_0 + (int)(c - '0');
    const char *s = c && c < 0x80 ? strchr(shifted, (int)c) : NULL;
    if (s) {
        *mods = GLFW_MOD_SHIFT;
        return shifted_keys[s - shifted];
    }
    switch (c) {
    case ' ':
        return GLFW_KEY_SPACE;
    case '.':
        return GLFW_KEY_PERIOD;
    case ',':
        return GLFW_KEY_COMMA;
    case '-':
        return GLFW_KEY_MINUS;
    case '=':
        return GLFW_KEY_EQUAL;
    case '/':
        return GLFW_KEY_SLASH;
    case ';':
        return GLFW_KEY_SEMICOLON;
    default:
        return 0;
    }
}

/* The modifier words words[0..n); false on an unknown one. "repeat" (keys
 * only: repeat != NULL) marks the keyboard's repeat of a held key. */
static bool modifiers(const reader *r, const char *verb, char **words, int n, int *mods,
                      bool *repeat)
{
    *mods = 0;
    for (int k = 0; k < n; k++) {
        if (repeat && strcmp(words[k], "repeat") == 0)
            *repeat = true;
        else if (strcmp(words[k], "shift") == 0)
            *mods |= GLFW_MOD_SHIFT;
        else if (strcmp(words[k], "ctrl") == 0)
            *mods |= GLFW_MOD_CONTROL;
        else if (strcmp(words[k], "alt") == 0)
            *mods |= GLFW_MOD_ALT;
        else
            return bad(r, "%s: unknown modifier \"%.40s\" (shift, ctrl, alt%s)", verb, words[k],
                       repeat ? ", repeat" : "");
    }
    return true;
}

/* ---- one line ------------------------------------------------------------------ */

/* Parses one line (NUL-terminated, plain text, not blank nor a comment)
 * into e; *frames adds the frames it draws. */
static bool parse_line(const reader *r, char *line, viewer_script_event *e, int *frames)
{
    char *p = line;
    while (is_blank(*p))
        p++;
    char *verb = p;
    while (*p && !is_blank(*p))
        p++;
    if (*p)
        *p++ = '\0';
    char *rest = p; /* after the verb, for screenshot's path */
    *e = (viewer_script_event){.line = r->line};

    if (strcmp(verb, "type") == 0) {
        /* the rest of the line as written, blanks inside and at its end kept */
        while (is_blank(*rest))
            rest++;
        if (!*rest)
            return bad(r, "type needs the TEXT to type");
        size_t bad_at;
        if (!utf8_check(rest, strlen(rest), &bad_at))
            return bad(r, "type: not UTF-8 at column %d (TEXT is text as typed)",
                       (int)(rest - line + (ptrdiff_t)bad_at) + 1);
        e->verb = VIEWER_SCRIPT_TYPE;
        e->path = rest;
        return true;
    }
    const bool presenter = strcmp(verb, "presenter-screenshot") == 0;
    const bool timeline = strcmp(verb, "timeline") == 0;
    if (timeline) {
        while (is_blank(*rest))
            rest++;
        size_t len = strlen(rest);
        while (len > 0 && is_blank(rest[len - 1]))
            rest[--len] = '\0';
        if (len == 0)
            return bad(r, "timeline needs a PATH (the JSON file to write)");
        e->verb = VIEWER_SCRIPT_TIMELINE;
        e->path = rest;
        return true;
    }
    if (presenter || strcmp(verb, "screenshot") == 0) {
        while (is_blank(*rest))
            rest++;
        size_t len = strlen(rest);
        while (len > 0 && is_blank(rest[len - 1]))
            rest[--len] = '\0';
        if (len == 0)
            return bad(r, "%s needs a PATH (the PNG file to save)", verb);
        e->verb = presenter ? VIEWER_SCRIPT_PRESENTER_SCREENSHOT : VIEWER_SCRIPT_SCREENSHOT;
        e->path = rest;
        *frames += 1;
        return true;
    }

    char *w[WORDS_MAX];
    int n = split_words(rest, w);
    if (strcmp(verb, "key") == 0) {
        if (n < 1 || n > 5)
            return bad(r, "expected: key NAME [shift|ctrl|alt|repeat ...]");
        e->verb = VIEWER_SCRIPT_KEY;
        int implied = 0;
        e->key = key_by_name(w[0], &implied);
        if (e->key < 0) {
            char names[400];
            key_names(names, sizeof names);
            return bad(r, "key \"%.40s\": unknown key (%s)", w[0], names);
        }
        if (!modifiers(r, "key", w + 1, n - 1, &e->mods, &e->repeat))
            return false;
        e->mods |= implied;
        return true;
    }
    if (strcmp(verb, "down") == 0 || strcmp(verb, "up") == 0) {
        if (n < 3 || n > 6 || (strcmp(w[0], "left") != 0 && strcmp(w[0], "right") != 0))
            return bad(r, "expected: %s left|right X Y [shift|ctrl|alt ...]", verb);
        e->verb = verb[0] == 'd' ? VIEWER_SCRIPT_DOWN : VIEWER_SCRIPT_UP;
        e->button = w[0][0] == 'l' ? GLFW_MOUSE_BUTTON_LEFT : GLFW_MOUSE_BUTTON_RIGHT;
        return number(r, verb, "X", w[1], VIEWER_SCRIPT_COORD_MAX, &e->x) &&
               number(r, verb, "Y", w[2], VIEWER_SCRIPT_COORD_MAX, &e->y) &&
               modifiers(r, verb, w + 3, n - 3, &e->mods, NULL);
    }
    if (strcmp(verb, "move") == 0) {
        if (n != 2)
            return bad(r, "expected: move X Y");
        e->verb = VIEWER_SCRIPT_MOVE;
        return number(r, verb, "X", w[0], VIEWER_SCRIPT_COORD_MAX, &e->x) &&
               number(r, verb, "Y", w[1], VIEWER_SCRIPT_COORD_MAX, &e->y);
    }
    if (strcmp(verb, "scroll") == 0) {
        if (n < 1 || n > 4)
            return bad(r, "expected: scroll DY [shift|ctrl|alt ...]");
        e->verb = VIEWER_SCRIPT_SCROLL;
        return number(r, verb, "DY", w[0], VIEWER_SCRIPT_SCROLL_MAX, &e->y) &&
               modifiers(r, "scroll", w + 1, n - 1, &e->mods, NULL);
    }
    if (strcmp(verb, "frames") == 0) {
        if (n != 1)
            return bad(r, "expected: frames N");
        e->verb = VIEWER_SCRIPT_FRAMES;
        if (!frame_count(r, verb, w[0], VIEWER_SCRIPT_FRAMES_MAX, &e->frames))
            return false;
        *frames += e->frames;
        return true;
    }
    if (strcmp(verb, "frametimes") == 0) {
        if (n != 1)
            return bad(r, "expected: frametimes N (the last N frames, 1 to %d)", FRAME_TIMES_KEPT);
        e->verb = VIEWER_SCRIPT_FRAME_TIMES;
        return frame_count(r, verb, w[0], FRAME_TIMES_KEPT, &e->frames);
    }
    if (strcmp(verb, "print") == 0 || strcmp(verb, "quit") == 0) {
        if (n != 0)
            return bad(r, "%s takes nothing after it, got \"%.40s\"", verb, w[0]);
        e->verb = verb[0] == 'p' ? VIEWER_SCRIPT_PRINT : VIEWER_SCRIPT_QUIT;
        return true;
    }
    return bad(r,
               "unknown verb \"%.40s\" (key, type, down, up, move, scroll, frames, screenshot, "
               "timeline, frametimes, print, quit)",
               verb);
}

/* ---- the script ------------------------------------------------------------------- */

bool viewer_script_load(viewer_script *sc, const char *path, ppf_error *err)
{
    *sc = (viewer_script){0};
    size_t size = 0;
    char *text = read_whole(path, &size, err);
    return text && viewer_script_parse(sc, text, size, path, err);
}

bool viewer_script_parse(viewer_script *sc, char *text, size_t size, const char *path,
                         ppf_error *err)
{
    *sc = (viewer_script){.text = text};
    if (size > VIEWER_SCRIPT_BYTES_MAX) {
        ppf_fail(err, "%.200s: over %d bytes: a script is at most 1 MiB", path,
                 VIEWER_SCRIPT_BYTES_MAX);
        viewer_script_deinit(sc);
        return false;
    }
    reader r = {.path = path, .err = err};
    int cap = 0, frames = 0;
    char *end = sc->text + size;
    for (char *line = sc->text; line < end;) {
        r.line++;
        char *nl = memchr(line, '\n', (size_t)(end - line));
        char *stop = nl ? nl : end, *next = nl ? nl + 1 : end;
        if (stop > line && stop[-1] == '\r')
            stop--;
        if (stop - line > VIEWER_SCRIPT_LINE_MAX) {
            bad(&r, "line longer than %d characters", VIEWER_SCRIPT_LINE_MAX);
            goto fail;
        }
        for (const char *c = line; c < stop; c++)
            if (((unsigned char)*c < 0x20 && *c != '\t') || *c == 0x7f) {
                bad(&r, "control character 0x%02x at column %d: a script is plain text",
                    (unsigned char)*c, (int)(c - line) + 1);
                goto fail;
            }
        *stop = '\0';
        const char *p = line;
        while (is_blank(*p))
            p++;
        if (*p && *p != '#') {
            if (sc->count == VIEWER_SCRIPT_EVENTS_MAX) {
                bad(&r, "more than %d events in one script", VIEWER_SCRIPT_EVENTS_MAX);
                goto fail;
            }
            if (sc->count == cap) {
                cap = cap ? 2 * cap : 64;
                sc->events = ppf_realloc(sc->events, (size_t)cap * sizeof *sc->events);
            }
            int before = frames;
            if (!parse_line(&r, line, &sc->events[sc->count], &frames))
                goto fail;
            if (frames > VIEWER_SCRIPT_FRAMES_MAX) {
                bad(&r, "the script's frames add up to %d here (%d before this line), over %d",
                    frames, before, VIEWER_SCRIPT_FRAMES_MAX);
                goto fail;
            }
            sc->count++;
        }
        line = next;
    }
    return true;
fail:
    viewer_script_deinit(sc);
    return false;
}

void viewer_script_deinit(viewer_script *sc)
{
    if (!sc)
        return;
    free(sc->events);
    free(sc->text);
    *sc = (viewer_script){0};
}

unsigned viewer_script_char_of_key(int key, int mods)
{
    if (mods & ~GLFW_MOD_SHIFT)
        return 0;
    for (unsigned c = 0x20; c < 0x7f; c++) {
        int m;
        if (viewer_script_key_of_char(c, &m) == key && m == mods)
            return c;
    }
    return 0;
}
