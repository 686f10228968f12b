/* json_text.c - JSON values in messages, text values checked. See
 * json_text.h. */
#include "json_text.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <string.h>

#include "utf8.h"

quoted json_text_show(const cJSON *item)
{
    if (cJSON_IsNumber(item) && item->valuestring)
        return quote_bare(item->valuestring, strlen(item->valuestring));
    char *text = cJSON_PrintUnformatted(item);
    quoted out = text ? quote_bare(text, strlen(text)) : quote_bare("?", 1);
    cJSON_free(text);
    return out;
}

const char *json_text_type(const cJSON *item)
{
    if (cJSON_IsNumber(item))
        return "a number";
    if (cJSON_IsString(item))
        return "a string";
    if (cJSON_IsArray(item))
        return "an array";
    if (cJSON_IsObject(item))
        return "an object";
    if (cJSON_IsBool(item))
        return "a boolean";
    return "null";
}

bool json_text_string(const cJSON *item, const char *name, bool multiline, char *out, size_t size,
                      ppf_error *err)
{
    if (!cJSON_IsString(item))
        return ppf_fail(err, "%s = %s: must be a string, not %s", name, json_text_show(item).s,
                        json_text_type(item));
    const char *v = item->valuestring;
    size_t len = strlen(v);
    if (len >= size)
        return ppf_fail(err, "%s = %s: longer than %zu bytes", name, quote_string(v).s, size - 1);
    if (!json_text_check_utf8(v, name, err))
        return false;
    /* Controls are C0, DEL and C1 (Unicode's Cc); a one-line text takes no
     * line or paragraph separator either. Bidi controls are text (a title
     * in Hebrew needs them) and are escaped where they are shown. */
    for (size_t k = 0; k < len;) {
        uint32_t cp = 0;
        const size_t n = utf8_decode(v + k, len - k, &cp); /* > 0: checked above */
        const bool control =
            (cp < 0x20 && !(multiline && (cp == '\n' || cp == '\t'))) || (cp >= 0x7F && cp <= 0x9F);
        if (control || (!multiline && (cp == 0x2028 || cp == 0x2029)))
            return ppf_fail(err, "%s = %s: must be %s (no control characters)", name,
                            quote_string(v).s, multiline ? "text" : "one line");
        k += n > 0 ? n : 1;
    }
    memcpy(out, v, len + 1);
    return true;
}

bool json_text_check_utf8(const char *s, const char *name, ppf_error *err)
{
    size_t at = 0;
    if (utf8_check(s, strlen(s), &at))
        return true;
    /* The value is quoted from a little before the bad byte, so that a long
     * note shows where it is. */
    const size_t from = at > QUOTE_VALUE_MAX / 2 ? at - QUOTE_VALUE_MAX / 2 : 0;
    const quoted q = quote_string(s + from);
    return ppf_fail(err,
                    "%s = %s%s: invalid UTF-8 at byte offset %zu of the value (0x%02X); text "
                    "must be UTF-8",
                    name, from ? "\"..." : "", from ? q.s + 1 : q.s, at, (unsigned char)s[at]);
}

size_t json_text_escape_at(const char *s, size_t len, char esc[JSON_TEXT_ESCAPE_MAX], size_t *n)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char c = (unsigned char)s[0];
    if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
        *n = 1;
        return 0;
    }
    uint32_t cp = 0xFFFD; /* a byte that starts no valid UTF-8 */
    size_t k = utf8_decode(s, len, &cp);
    *n = k ? k : 1;
    if (k && !quote_codepoint_escaped(cp) && c != '"' && c != '\\')
        return 0;
    esc[0] = '\\';
    switch (cp) {
    case '"':
    case '\\':
        esc[1] = (char)cp;
        return 2;
    case '\n':
        esc[1] = 'n';
        return 2;
    case '\r':
        esc[1] = 'r';
        return 2;
    case '\t':
        esc[1] = 't';
        return 2;
    case '\b':
        esc[1] = 'b';
        return 2;
    case '\f':
        esc[1] = 'f';
        return 2;
    default:
        esc[1] = 'u';
        for (int j = 0; j < 4; j++)
            esc[2 + j] = hex[(cp >> (12 - 4 * j)) & 15];
        return 6;
    }
}

char *json_text_quote(const char *s)
{
    const size_t len = strlen(s);
    /* at most 6 bytes of escape for each byte, the quotes and the NUL */
    char *out = ppf_malloc(6 * len + 3);
    size_t o = 0;
    out[o++] = '"';
    for (size_t k = 0; k < len;) {
        char esc[JSON_TEXT_ESCAPE_MAX];
        size_t n;
        const size_t e = json_text_escape_at(s + k, len - k, esc, &n);
        memcpy(out + o, e ? esc : s + k, e ? e : n);
        o += e ? e : n;
        k += n;
    }
    out[o++] = '"';
    out[o] = '\0';
    return out;
}
