/* json_text.c - JSON values in messages, text values checked. See
 * json_text.h. */
#include "json_text.h"

#include <cjson/cJSON.h>
#include <string.h>

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
    for (const char *c = v; *c; c++)
        if (((unsigned char)*c < 0x20 && !(multiline && (*c == '\n' || *c == '\t'))) || *c == 0x7f)
            return ppf_fail(err, "%s = %s: must be %s (no control characters)", name,
                            quote_string(v).s, multiline ? "text" : "one line");
    memcpy(out, v, len + 1);
    return true;
}
