/* utf8.h - the one reader of UTF-8 that every check and every writer of
 * user text in ppflow shares.
 *
 * A scenario's titles and notes, a talk's slide titles, a script's typed
 * text: all are UTF-8, and what is not is refused where it comes in (a
 * JSON reader would refuse the JSON ppflow writes from it). Two questions
 * are asked of text, here and nowhere else:
 *
 *   utf8_decode  the code point whose encoding starts at s, and its length;
 *                0 when s starts none;
 *   utf8_check   whether s[0..len) is valid UTF-8 as a whole, and if not,
 *                the byte offset of the first byte that is not.
 *
 * The rule is RFC 3629's, strictly: no overlong forms (C0 80 for U+0000),
 * no surrogates (ED A0 80 is U+D800), nothing past U+10FFFF (F4 90 80 80),
 * no stray continuation bytes, no 0xC0, 0xC1 or 0xF5..0xFF, and a sequence
 * cut short by the end of the text is invalid.
 *
 * What it does not do: decide what a valid code point may do on a terminal
 * or in a file (quote.h: quote_codepoint_escaped), or allocate.
 *
 * Errors: none; any bytes are accepted and judged.
 */
#ifndef PPFLOW_UTF8_H
#define PPFLOW_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The length (1 to 4) of the valid UTF-8 sequence at s[0..len) and its
 * code point in *cp; 0 (and *cp untouched) when s[0] starts no valid
 * sequence within len bytes. len must be at least 1. */
size_t utf8_decode(const char *s, size_t len, uint32_t *cp);

/* True when s[0..len) is valid UTF-8 throughout; otherwise false, and
 * *bad_at (when not NULL) is the offset of the first byte that starts no
 * valid sequence. */
bool utf8_check(const char *s, size_t len, size_t *bad_at);

#endif
