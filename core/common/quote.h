/* quote.h - user text made safe to show on a terminal: the one rule.
 *
 * A value from a file or a flag may hold anything: a newline, an escape
 * sequence that retitles the terminal, a C1 control (U+009B is a CSI on
 * many terminals), a bidi override (U+202E) that makes "gpj.exe" read as
 * "exe.jpg", invalid UTF-8, a megabyte. Everything ppflow shows a person
 * from such text - a message, a beat's title in `--format beats`, a side's
 * name in `schedule --compare`, the viewer's state line - goes through
 * here, so what is escaped and how lives in one place:
 *
 *   - C0 controls (newline and tab included), DEL, C1 controls (U+0080 to
 *     U+009F) and every byte that is not part of valid UTF-8 (utf8.h): each
 *     byte as \xHH;
 *   - the line and paragraph separators U+2028 and U+2029, and the bidi
 *     controls U+061C, U+200E, U+200F, U+202A to U+202E and U+2066 to
 *     U+2069, which reorder or break what follows them: as \uXXXX;
 *   - everything else (printable ASCII, other valid UTF-8) as it is.
 * quote_codepoint_escaped says which code points the rule escapes, for
 * writers of other formats (a JSON string escapes the same ones as \uXXXX,
 * export.c, json_text.h), so that a file printed with cat is as safe.
 *
 * The forms, for the places text stands:
 *   quote_value, quote_string  a value in a message: in double quotes with
 *                              \" and \\ inside, cut after QUOTE_VALUE_MAX
 *                              bytes of the value with "...";
 *   quote_bare, quote_path     the same with no quotes around it (text that
 *                              is already JSON, a file path at the front of
 *                              a message, cut after QUOTE_PATH_MAX bytes);
 *   quote_ascii                a short token whose caller writes the quotes
 *                              (an action cell): only printable ASCII
 *                              stays, everything else is \xhh;
 *   quote_text                 any text, whole, into a buffer: a message
 *                              (quote_message: ppf_fail and ppf_print,
 *                              error.h, run every message through it), a
 *                              table cell; a text that is already safe,
 *                              backslashes included, comes out unchanged;
 *   quote_put                  the same, written to a FILE, any length.
 *
 * Concealed text. A file that another file names, read in confined mode
 * (file_read.h), may be anything on the machine that a service's user
 * managed to point at; its text must not come back in a message. While a
 * reader works on such a text (quote_conceal_begin ... quote_conceal_end)
 * every value and path form gives QUOTE_CONCEALED instead of the text, so
 * the messages that every reader already writes still name the field and
 * the rule, and show nothing of the file. This is a per-thread counter, the
 * one piece of state in core/: the alternative, a flag through every
 * reader, every check and every quote call, would be state all the same,
 * spread over a hundred call sites. A begin and its end pair up within one
 * call of a reader, so no setting outlives a call.
 *
 * What it does not do: decide what a message says, or allocate. Machine
 * formats keep their own escapes (JSON's \uXXXX, XML's entities).
 *
 * Errors: none; every function accepts any bytes.
 */
#ifndef PPFLOW_QUOTE_H
#define PPFLOW_QUOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Bytes of a value, and of a path, shown before it is cut with "...". */
enum { QUOTE_VALUE_MAX = 60, QUOTE_PATH_MAX = 160 };

/* A quoted text, returned by value so a call can stand in a printf list:
 * ppf_fail(err, "x = %s: ...", quote_string(text).s). Room for the longest
 * form: every byte of a cut path escaped, the quotes and "...". */
typedef struct quoted {
    char s[QUOTE_PATH_MAX * 4 + 8];
} quoted;

/* True for a code point the rule above escapes: a C0 control, DEL, a C1
 * control, U+2028, U+2029 or a bidi control. */
bool quote_codepoint_escaped(uint32_t cp);

/* s[0..len) in double quotes, cut after QUOTE_VALUE_MAX bytes. */
quoted quote_value(const char *s, size_t len);
/* quote_value of a NUL-terminated string. */
quoted quote_string(const char *s);
/* s[0..len) escaped as quote_value does, without the quotes. */
quoted quote_bare(const char *s, size_t len);
/* A file path, unquoted, cut after QUOTE_PATH_MAX bytes. */
quoted quote_path(const char *path);

/* What a value, a path or an ASCII token reads as while concealed. */
#define QUOTE_CONCEALED "(not shown)"

/* From here to the matching end, on this thread, the forms above give
 * QUOTE_CONCEALED (quote_ascii too); pairs nest. */
void quote_conceal_begin(void);
void quote_conceal_end(void);

/* s[0..len) into out (cap bytes, at least 6): printable ASCII other than
 * the double quote as it is, every other byte as \xhh (lower case). Writing
 * stops once fewer than 6 bytes of out are left, and "..." follows when 4
 * or 5 are. Returns the length written. */
size_t quote_ascii(char *out, size_t cap, const char *s, size_t len);

/* The text s into out (cap bytes, at least 4) by the rule above. A text
 * with nothing to escape is copied whole when it fits; otherwise it is cut
 * with "..." where the next piece would leave no room for it. Returns the
 * length written. out and s must not overlap. */
size_t quote_text(char *out, size_t cap, const char *s);

/* quote_text of s into a quoted: a text as a terminal shows it, in a
 * printf list (a beat's title, a comparison side's name: whole, since
 * every byte of either escaped fits). */
quoted quote_shown(const char *s);

/* quote_text for a whole message (ppf_fail, ppf_print). */
void quote_message(char *out, size_t cap, const char *s);

/* Writes s to f by the rule above, whole. */
void quote_put(FILE *f, const char *s);

#endif
