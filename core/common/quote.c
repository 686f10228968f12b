/* quote.c - user text made safe for a terminal. See quote.h. */
#include "quote.h"

#include <assert.h>
#include <string.h>

#include "utf8.h"

/* Room for the longest escape of one unit: a C1 control's two bytes
 * ("\xC2\x9B"), a bidi control's "\u202E", or one byte's "\xFF". */
enum { ESCAPE_MAX = 9 };

bool quote_codepoint_escaped(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x061C || cp == 0x200E ||
           cp == 0x200F || (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

static const char hex[] = "0123456789ABCDEF";

static size_t put_byte_escape(char *out, unsigned char c)
{
    out[0] = '\\';
    out[1] = 'x';
    out[2] = hex[c >> 4];
    out[3] = hex[c & 15];
    return 4;
}

/* The unit that starts at s[0..len) (len >= 1): *n gets its length in bytes.
 * Returns 0 when it may stand as it is; otherwise writes its escape into
 * esc and returns the escape's length. A byte that starts no valid UTF-8
 * is a unit of its own, so the text after it is judged afresh. */
static size_t escape_unit(const unsigned char *s, size_t len, char esc[ESCAPE_MAX], size_t *n)
{
    if (s[0] >= 0x20 && s[0] < 0x7F) {
        *n = 1;
        return 0;
    }
    uint32_t cp = 0;
    const size_t k = utf8_decode((const char *)s, len, &cp);
    if (k == 0) {
        *n = 1;
        return put_byte_escape(esc, s[0]);
    }
    *n = k;
    if (!quote_codepoint_escaped(cp))
        return 0;
    if (cp <= 0x9F) { /* a control: its bytes, as a hex dump shows them */
        size_t o = 0;
        for (size_t j = 0; j < k; j++)
            o += put_byte_escape(esc + o, s[j]);
        return o;
    }
    esc[0] = '\\';
    esc[1] = 'u';
    for (int j = 0; j < 4; j++)
        esc[2 + j] = hex[(cp >> (12 - 4 * j)) & 15];
    return 6;
}

/* s[0..len) as one printable line by the rule, cut after max bytes (at
 * most QUOTE_PATH_MAX) with "...". With wrap, in double quotes, inner
 * quotes and backslashes escaped. A UTF-8 sequence that the cut splits is
 * escaped byte by byte. */
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
        char esc[ESCAPE_MAX];
        size_t n;
        const size_t e = escape_unit(u + k, shown - k, esc, &n);
        if (e) {
            memcpy(out.s + o, esc, e);
            o += e;
        } else {
            if (wrap && (u[k] == '"' || u[k] == '\\'))
                out.s[o++] = '\\';
            memcpy(out.s + o, u + k, n);
            o += n;
        }
        k += n;
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

/* Whether the rule leaves s[0..len) as it is. */
static bool is_clean(const unsigned char *s, size_t len)
{
    for (size_t k = 0; k < len;) {
        char esc[ESCAPE_MAX];
        size_t n;
        if (escape_unit(s + k, len - k, esc, &n))
            return false;
        k += n;
    }
    return true;
}

quoted quote_shown(const char *s)
{
    quoted q;
    quote_text(q.s, sizeof q.s, s);
    return q;
}

size_t quote_text(char *out, size_t cap, const char *s)
{
    if (cap < 4) { /* no room for "..." */
        if (cap > 0)
            out[0] = '\0';
        return 0;
    }
    const unsigned char *u = (const unsigned char *)s;
    const size_t len = strlen(s);
    if (len < cap && is_clean(u, len)) {
        memcpy(out, s, len + 1);
        return len;
    }
    size_t o = 0;
    for (size_t k = 0; k < len;) {
        char esc[ESCAPE_MAX];
        size_t n;
        const size_t e = escape_unit(u + k, len - k, esc, &n);
        const size_t piece = e ? e : n;
        if (o + piece + 4 > cap) { /* keep room for "..." and the NUL */
            memcpy(out + o, "...", 3);
            o += 3;
            break;
        }
        memcpy(out + o, e ? esc : s + k, piece);
        o += piece;
        k += n;
    }
    out[o] = '\0';
    return o;
}

void quote_message(char *out, size_t cap, const char *s)
{
    quote_text(out, cap, s);
}

void quote_put(FILE *f, const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    const size_t len = strlen(s);
    size_t run = 0; /* start of the bytes that stand as they are */
    for (size_t k = 0; k < len;) {
        char esc[ESCAPE_MAX];
        size_t n;
        const size_t e = escape_unit(u + k, len - k, esc, &n);
        if (e) {
            fwrite(s + run, 1, k - run, f);
            fwrite(esc, 1, e, f);
            run = k + n;
        }
        k += n;
    }
    fwrite(s + run, 1, len - run, f);
}
