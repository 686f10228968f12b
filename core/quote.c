/* quote.c - user text made safe for a one-line message. See quote.h. */
#include "quote.h"

#include <assert.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Length of the terminal control starting at s (0 when there is none): a
 * C0 control or DEL (1 byte), or a C1 control in its UTF-8 form (0xC2
 * 0x80..0x9F, 2 bytes). s[0] is not the string's terminating NUL. */
static size_t control_length(const unsigned char *s)
{
    if (s[0] < 0x20 || s[0] == 0x7F)
        return 1;
    if (s[0] == 0xC2 && s[1] >= 0x80 && s[1] <= 0x9F)
        return 2;
    return 0;
}

/* Length of the valid, printable UTF-8 sequence at s (0 if it is not one):
 * C1 controls and the Unicode line and paragraph separators count as not
 * printable, since they break lines in some viewers. */
static size_t utf8_printable(const unsigned char *s, size_t len)
{
    size_t n = s[0] >= 0xC2 && s[0] <= 0xDF   ? 2
               : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
               : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4
                                              : 0;
    if (n == 0 || n > len)
        return 0;
    for (size_t k = 1; k < n; k++)
        if (s[k] < 0x80 || s[k] > 0xBF)
            return 0;
    if (s[0] == 0xC2 && s[1] < 0xA0)
        return 0;
    if (s[0] == 0xE2 && s[1] == 0x80 && (s[2] == 0xA8 || s[2] == 0xA9))
        return 0;
    return n;
}

/* How many conceal_begin calls are open on this thread (quote.h). */
static _Thread_local int conceal_depth;

void quote_conceal_begin(void)
{
    conceal_depth++;
}

void quote_conceal_end(void)
{
    assert(conceal_depth > 0);
    conceal_depth--;
}

/* s[0..len) as one printable line: printable ASCII and valid printable
 * UTF-8 as they are, every other byte as \xHH, cut after max bytes (at most
 * QUOTE_PATH_MAX) with "...". With wrap, in double quotes, inner quotes and
 * backslashes escaped. A UTF-8 sequence that the cut splits is escaped. */
static quoted quote_cut(const char *s, size_t len, size_t max, bool wrap)
{
    quoted out;
    if (conceal_depth > 0) {
        memcpy(out.s, QUOTE_CONCEALED, sizeof QUOTE_CONCEALED);
        return out;
    }
    size_t o = 0;
    const unsigned char *u = (const unsigned char *)s;
    const size_t shown = len > max ? max : len;
    if (wrap)
        out.s[o++] = '"';
    for (size_t k = 0; k < shown;) {
        size_t n;
        if (u[k] >= 0x20 && u[k] < 0x7F) {
            if (wrap && (u[k] == '"' || u[k] == '\\'))
                out.s[o++] = '\\';
            out.s[o++] = (char)u[k++];
        } else if (u[k] >= 0x80 && (n = utf8_printable(u + k, shown - k)) > 0) {
            memcpy(out.s + o, u + k, n);
            o += n;
            k += n;
        } else {
            o += (size_t)snprintf(out.s + o, 5, "\\x%02X", u[k++]);
        }
    }
    if (len > shown) {
        memcpy(out.s + o, "...", 3);
        o += 3;
    }
    if (wrap)
        out.s[o++] = '"';
    out.s[o] = '\0';
    return out;
}

quoted quote_value(const char *s, size_t len)
{
    return quote_cut(s, len, QUOTE_VALUE_MAX, true);
}

quoted quote_string(const char *s)
{
    return quote_cut(s, strlen(s), QUOTE_VALUE_MAX, true);
}

quoted quote_bare(const char *s, size_t len)
{
    return quote_cut(s, len, QUOTE_VALUE_MAX, false);
}

quoted quote_path(const char *path)
{
    return quote_cut(path, strlen(path), QUOTE_PATH_MAX, false);
}

size_t quote_ascii(char *out, size_t cap, const char *s, size_t len)
{
    if (conceal_depth > 0) {
        s = QUOTE_CONCEALED;
        len = sizeof QUOTE_CONCEALED - 1;
    }
    size_t o = 0;
    for (size_t i = 0; i < len && o + 5 < cap; i++) {
        const unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7F && c != '"')
            out[o++] = (char)c;
        else
            o += (size_t)snprintf(out + o, cap - o, "\\x%02x", c);
    }
    if (len > 0 && o + 5 >= cap && o + 4 <= cap) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o] = '\0';
    return o;
}

void quote_message(char *out, size_t cap, const char *s)
{
    if (cap < 4) { /* no room for "..." */
        if (cap > 0)
            out[0] = '\0';
        return;
    }
    const unsigned char *u = (const unsigned char *)s;
    const size_t len = strlen(s);
    bool clean = true;
    for (size_t k = 0; k < len && clean; k++)
        clean = control_length(u + k) == 0;
    if (clean && len < cap) {
        memcpy(out, s, len + 1);
        return;
    }
    size_t o = 0;
    for (size_t k = 0; k < len;) {
        const size_t n = control_length(u + k);
        if (o + (n ? 4 * n : 1) + 4 > cap) { /* keep room for "..." and the NUL */
            memcpy(out + o, "...", 3);
            o += 3;
            break;
        }
        if (n == 0) {
            out[o++] = (char)u[k++];
            continue;
        }
        for (size_t j = 0; j < n; j++, k++)
            o += (size_t)snprintf(out + o, 5, "\\x%02X", u[k]);
    }
    out[o] = '\0';
}
