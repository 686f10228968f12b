/* json_text.h - a JSON value in a message, and a text value checked, for
 * the readers of user files (scenario_json.c, talk_file.c), so that a scenario
 * and a talk say the same things the same way; and a text written as a
 * JSON string, for every writer of JSON (export.c, per-beat beats.json).
 *
 * What it does: json_text_show gives a value as compact JSON on one short
 * line (a number as the user wrote it, when the reader kept that text in
 * valuestring, as scenario_json_document does: cJSON would print 1e999 as
 * null and 99999999999999999999 as 1e+20); json_text_type names a value's
 * kind ("a number", "an array"); json_text_string copies a string value
 * into a fixed buffer after checking that it is a string, fits and holds no
 * control character (C0, DEL, C1; a newline and a tab allowed where the
 * text may span lines, a line separator nowhere else) and is valid UTF-8 (utf8.h);
 * json_text_check_utf8 is that last check alone, for the reader that walks a whole document.
 *
 * Writing: json_text_escape_at escapes one unit of a text for a JSON
 * string, json_text_quote a whole text. The result is always valid UTF-8
 * and valid JSON, whatever the bytes: RFC 8259's escapes, every code point
 * quote.h escapes for a terminal (C0 and C1 controls, DEL, U+2028, U+2029,
 * bidi controls) as \uXXXX, so that the file shown with cat acts on no
 * terminal, and each byte that is not valid UTF-8 as \ufffd (U+FFFD, the
 * replacement character): readers refuse invalid UTF-8, and a text that
 * slipped past every check must not make the whole file unreadable.
 *
 * What it does not do: no parsing and no files (scenario_json.c reads the
 * document), no path in front of a message beyond the name it is given.
 *
 * Use:
 *     ppf_fail(err, "%s = %s: must be a number, not %s", name,
 *              json_text_show(item).s, json_text_type(item));
 *     if (!json_text_string(item, "title", false, out, sizeof out, err)) ...
 *
 * Errors: json_text_string returns false with a message that begins
 * "NAME = VALUE: ", and so does json_text_check_utf8; the others accept any
 * value and any bytes.
 */
#ifndef PPFLOW_JSON_TEXT_H
#define PPFLOW_JSON_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "quote.h"

struct cJSON;

/* The value as compact JSON text, escaped and cut to one short line. */
quoted json_text_show(const struct cJSON *item);

/* The value's kind in words: "a number", "a string", "an array", "an
 * object", "a boolean" or "null". */
const char *json_text_type(const struct cJSON *item);

/* A string value named `name` into out (size bytes with the NUL): false
 * with a message when it is no string, is size bytes or longer, is not
 * valid UTF-8, or holds a control character (C0, DEL or C1; a newline or a
 * tab is fine when multiline) or, when one line, U+2028 or U+2029. */
bool json_text_string(const struct cJSON *item, const char *name, bool multiline, char *out,
                      size_t size, ppf_error *err);

/* True when s is valid UTF-8; else false with "NAME = VALUE: invalid UTF-8
 * at byte offset N of the value (0xHH); text must be UTF-8". */
bool json_text_check_utf8(const char *s, const char *name, ppf_error *err);

/* Room for the longest escape of one unit ("\u202e"). */
enum { JSON_TEXT_ESCAPE_MAX = 8 };

/* The unit at s[0..len) (len >= 1) in a JSON string: *n gets its length in
 * bytes; returns 0 when its bytes stand as they are, else the length of its
 * escape, written into esc. */
size_t json_text_escape_at(const char *s, size_t len, char esc[JSON_TEXT_ESCAPE_MAX], size_t *n);

/* s as a JSON string, the double quotes included, allocated (free it). */
char *json_text_quote(const char *s);

#endif
