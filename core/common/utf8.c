/* utf8.c - strict UTF-8 decoding. See utf8.h. */
#include "utf8.h"

size_t utf8_decode(const char *s, size_t len, uint32_t *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    const unsigned c = u[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    /* The lead byte gives the length and the bits it carries; the second
     * byte's range excludes overlong forms (E0 80..9F, F0 80..8F),
     * surrogates (ED A0..BF) and code points past U+10FFFF (F4 90..BF),
     * as RFC 3629's table does. */
    size_t n;
    uint32_t v;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        v = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        v = c & 0x0F;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        v = c & 0x07;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else {
        return 0; /* a continuation byte, C0, C1 or F5..FF */
    }
    if (len < n || u[1] < lo || u[1] > hi)
        return 0;
    v = v << 6 | (u[1] & 0x3F);
    for (size_t k = 2; k < n; k++) {
        if (u[k] < 0x80 || u[k] > 0xBF)
            return 0;
        v = v << 6 | (u[k] & 0x3F);
    }
    *cp = v;
    return n;
}

bool utf8_check(const char *s, size_t len, size_t *bad_at)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t k = 0;
    while (k < len) {
        if (u[k] < 0x80) { /* the common case, without a call */
            k++;
            continue;
        }
        uint32_t cp;
        const size_t n = utf8_decode(s + k, len - k, &cp);
        if (n == 0) {
            if (bad_at)
                *bad_at = k;
            return false;
        }
        k += n;
    }
    return true;
}
