/* json_text.h - a JSON value in a message, and a text value checked, for
 * the readers of user files (scenario_json.c, talk.c), so that a scenario
 * and a talk say the same things the same way.
 *
 * What it does: json_text_show gives a value as compact JSON on one short
 * line (a number as the user wrote it, when the reader kept that text in
 * valuestring, as scenario_json_document does: cJSON would print 1e999 as
 * null and 99999999999999999999 as 1e+20); json_text_type names a value's
 * kind ("a number", "an array"); json_text_string copies a string value
 * into a fixed buffer after checking that it is a string, fits and holds no
 * control character (a newline and a tab allowed where the text may span
 * lines).
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
 * "NAME = VALUE: "; the other two accept any value.
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
 * with a message when it is no string, is size bytes or longer, or holds a
 * control character (a newline or a tab is fine when multiline). */
bool json_text_string(const struct cJSON *item, const char *name, bool multiline, char *out,
                      size_t size, ppf_error *err);

#endif
