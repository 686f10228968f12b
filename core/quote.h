/* quote.h - user text made safe to show inside a one-line message.
 *
 * A value from a file or a flag may hold anything: a newline, an escape
 * sequence that retitles the terminal, invalid UTF-8, a megabyte. Every
 * message of core/ and app/ that shows such text goes through here, so the
 * rule for what is escaped and how lives in one place: a byte that would
 * break the line or act on a terminal comes out as \xHH, and long text is
 * cut with "...". The result never holds a control character.
 *
 * Three forms, for three places a value can stand in a message:
 *   quote_value, quote_string  a value: in double quotes with \" and \\
 *                              inside, valid printable UTF-8 kept, cut
 *                              after QUOTE_VALUE_MAX bytes of the value;
 *   quote_bare, quote_path     the same escaping with no quotes around it
 *                              (text that is already JSON, a file path at
 *                              the front of a message, cut after
 *                              QUOTE_PATH_MAX bytes);
 *   quote_ascii                a short token whose caller writes the quotes
 *                              (an action cell): only printable ASCII
 *                              stays, everything else is \xhh;
 * and one for a whole message: quote_message escapes only what a terminal
 * acts on (C0 controls, DEL, C1 controls), leaving text that earlier forms
 * already made safe as it is. ppf_fail and ppf_print (error.h) run every
 * message through it.
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
 * What it does not do: decide what a message says, or allocate.
 *
 * Errors: none; every function accepts any bytes.
 */
#ifndef PPFLOW_QUOTE_H
#define PPFLOW_QUOTE_H

#include <stddef.h>

/* Bytes of a value, and of a path, shown before it is cut with "...". */
enum { QUOTE_VALUE_MAX = 60, QUOTE_PATH_MAX = 160 };

/* A quoted text, returned by value so a call can stand in a printf list:
 * ppf_fail(err, "x = %s: ...", quote_string(text).s). Room for the longest
 * form: every byte of a cut path escaped, the quotes and "...". */
typedef struct quoted {
    char s[QUOTE_PATH_MAX * 4 + 8];
} quoted;

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

/* The message s into out (cap bytes, at least 4): each byte of a C0 control, DEL or a
 * C1 control (UTF-8 0xC2 0x80..0x9F) as \xHH, every other byte as it is. A
 * message with none is copied whole when it fits; otherwise it is cut with
 * "..." where the next piece would leave no room for it. out and s must
 * not overlap. */
void quote_message(char *out, size_t cap, const char *s);

#endif
