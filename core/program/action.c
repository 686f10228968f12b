#include "action.h"

#include <stdio.h>
#include <string.h>

#include "quote.h"

static const char *const kind_names[ACTION_KIND_COUNT] = {
    [ACTION_IDLE] = "",
    [ACTION_F] = "F",
    [ACTION_B] = "B",
    [ACTION_I] = "I",
    [ACTION_W] = "W",
    [ACTION_OVERLAP_F_B] = "OVERLAP_F_B",
    [ACTION_SEND_F] = "SEND_F",
    [ACTION_RECV_F] = "RECV_F",
    [ACTION_SEND_B] = "SEND_B",
    [ACTION_RECV_B] = "RECV_B",
    [ACTION_UNSHARD] = "UNSHARD",
    [ACTION_RESHARD] = "RESHARD",
    [ACTION_REDUCE_GRAD] = "REDUCE_GRAD",
};

/* Kinds that follow the stage number in the plain form, longest first so that
 * "SEND_F" is not read as something shorter. */
static const action_kind plain_kinds[] = {
    ACTION_REDUCE_GRAD, ACTION_UNSHARD, ACTION_RESHARD, ACTION_SEND_F, ACTION_RECV_F, ACTION_SEND_B,
    ACTION_RECV_B,      ACTION_F,       ACTION_B,       ACTION_I,      ACTION_W,
};

action action_make(action_kind kind, int stage, int microbatch)
{
    return (action){
        .kind = (uint8_t)kind, .stage = stage, .microbatch = microbatch, .microbatch2 = -1};
}

action action_make_overlap(int f_stage, int f_microbatch, int b_stage, int b_microbatch)
{
    return (action){.kind = ACTION_OVERLAP_F_B,
                    .stage = f_stage,
                    .microbatch = f_microbatch,
                    .stage2 = (uint16_t)b_stage,
                    .microbatch2 = b_microbatch};
}

const char *action_kind_name(action_kind kind)
{
    return (unsigned)kind < ACTION_KIND_COUNT ? kind_names[kind] : "?";
}

const char *action_kind_words(action_kind kind)
{
    switch (kind) {
    case ACTION_F:
        return "forward";
    case ACTION_B:
        return "backward";
    case ACTION_I:
        return "backward for inputs";
    case ACTION_W:
        return "backward for weights";
    case ACTION_OVERLAP_F_B:
        return "overlapped forward and backward";
    default:
        return action_kind_name(kind);
    }
}

static bool kind_has_microbatch(action_kind k)
{
    return !(k == ACTION_UNSHARD || k == ACTION_RESHARD || k == ACTION_REDUCE_GRAD);
}

/* Reads a decimal number without sign or leading zeros; false if absent or
 * larger than max. */
static bool read_number(const char *s, size_t len, size_t *pos, long max, long *out)
{
    size_t p = *pos;
    if (p >= len || s[p] < '0' || s[p] > '9')
        return false;
    if (s[p] == '0' && p + 1 < len && s[p + 1] >= '0' && s[p + 1] <= '9')
        return false; /* "01" would not print back the same */
    long v = 0;
    while (p < len && s[p] >= '0' && s[p] <= '9') {
        v = v * 10 + (s[p] - '0');
        if (v > max)
            return false;
        p++;
    }
    *pos = p;
    *out = v;
    return true;
}

static bool parse_plain(const char *s, size_t len, action *out, const char **why)
{
    size_t pos = 0;
    long stage, mb = -1;
    if (!read_number(s, len, &pos, ACTION_MAX_STAGE, &stage)) {
        *why = "an action starts with its stage number (0 to 65535, no leading zeros)";
        return false;
    }
    action_kind kind = ACTION_IDLE;
    for (size_t k = 0; k < sizeof plain_kinds / sizeof plain_kinds[0]; k++) {
        const char *name = kind_names[plain_kinds[k]];
        size_t n = strlen(name);
        if (len - pos >= n && memcmp(s + pos, name, n) == 0) {
            kind = plain_kinds[k];
            pos += n;
            break;
        }
    }
    if (kind == ACTION_IDLE) {
        *why = "the kind after the stage must be F, B, I, W, SEND_F, RECV_F, SEND_B, RECV_B, "
               "UNSHARD, RESHARD or REDUCE_GRAD";
        return false;
    }
    if (kind_has_microbatch(kind)) {
        if (!read_number(s, len, &pos, ACTION_MAX_MICROBATCH, &mb)) {
            *why = "the kind must be followed by a micro-batch number (no leading zeros)";
            return false;
        }
    }
    if (pos != len) {
        *why = kind_has_microbatch(kind) ? "unexpected text after the micro-batch number"
                                         : "UNSHARD, RESHARD and REDUCE_GRAD take no micro-batch";
        return false;
    }
    *out = action_make(kind, (int)stage, (int)mb);
    return true;
}

static bool parse_overlap(const char *s, size_t len, action *out, const char **why)
{
    static const char suffix[] = ")OVERLAP_F_B";
    const size_t slen = sizeof suffix - 1;
    const char *close = memchr(s, ')', len);
    if (!close || (size_t)(close - s) + slen != len || memcmp(close, suffix, slen) != 0) {
        *why = "an overlapped pair is written (F;B)OVERLAP_F_B";
        return false;
    }
    const char *inner = s + 1;
    size_t inner_len = (size_t)(close - inner);
    const char *semi = memchr(inner, ';', inner_len);
    if (!semi || memchr(semi + 1, ';', inner_len - (size_t)(semi - inner) - 1)) {
        *why = "an overlapped pair holds exactly two actions separated by ';'";
        return false;
    }
    action half[2];
    if (!parse_plain(inner, (size_t)(semi - inner), &half[0], why) ||
        !parse_plain(semi + 1, inner_len - (size_t)(semi - inner) - 1, &half[1], why))
        return false;
    int f = half[0].kind == ACTION_F ? 0 : half[1].kind == ACTION_F ? 1 : -1;
    if (f < 0 || half[1 - f].kind != ACTION_B) {
        *why = "an overlapped pair holds one F and one B";
        return false;
    }
    *out = action_make_overlap(half[f].stage, half[f].microbatch, half[1 - f].stage,
                               half[1 - f].microbatch);
    if (f == 1)
        out->flags |= ACTION_FLAG_B_FIRST;
    return true;
}

bool action_parse(const char *text, size_t len, action *out, ppf_error *err)
{
    while (len > 0 && (text[0] == ' ' || text[0] == '\t')) {
        text++;
        len--;
    }
    while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '\t'))
        len--;
    if (len == 0) {
        *out = action_idle();
        return true;
    }
    const char *why = NULL;
    bool ok =
        text[0] == '(' ? parse_overlap(text, len, out, &why) : parse_plain(text, len, out, &why);
    if (!ok) {
        char shown[96];
        quote_ascii(shown, sizeof shown, text, len);
        return ppf_fail(err, "action \"%s\": %s", shown, why);
    }
    return true;
}

size_t action_format(const action *a, char *buf)
{
    int n;
    switch (a->kind) {
    case ACTION_IDLE:
        buf[0] = 0;
        return 0;
    case ACTION_OVERLAP_F_B:
        if (a->flags & ACTION_FLAG_B_FIRST)
            n = snprintf(buf, ACTION_TEXT_MAX, "(%uB%d;%dF%d)OVERLAP_F_B", (unsigned)a->stage2,
                         (int)a->microbatch2, (int)a->stage, (int)a->microbatch);
        else
            n = snprintf(buf, ACTION_TEXT_MAX, "(%dF%d;%uB%d)OVERLAP_F_B", (int)a->stage,
                         (int)a->microbatch, (unsigned)a->stage2, (int)a->microbatch2);
        break;
    default:
        if (a->microbatch >= 0)
            n = snprintf(buf, ACTION_TEXT_MAX, "%d%s%d", (int)a->stage, action_kind_name(a->kind),
                         (int)a->microbatch);
        else
            n = snprintf(buf, ACTION_TEXT_MAX, "%d%s", (int)a->stage, action_kind_name(a->kind));
        break;
    }
    return n < 0 ? 0 : (size_t)n;
}

bool action_equal(const action *a, const action *b)
{
    if (a->kind != b->kind)
        return false;
    if (a->kind == ACTION_IDLE)
        return true;
    if (a->stage != b->stage || a->microbatch != b->microbatch)
        return false;
    if (a->kind == ACTION_OVERLAP_F_B)
        return a->stage2 == b->stage2 && a->microbatch2 == b->microbatch2 &&
               (a->flags & ACTION_FLAG_B_FIRST) == (b->flags & ACTION_FLAG_B_FIRST);
    return true;
}
