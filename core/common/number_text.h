/* number_text.h - numbers written as a person reads them, for the report
 * table, the closed forms beside it, the terminal Gantt and the HUD.
 *
 * number_text_format: integers without decimals, others with at most four,
 * trailing zeros dropped ("28.5", "0.3333", "6333", never "-0"); values that
 * are not finite or of 1e15 and more in %.6g.
 * number_text_list: one value per rank as "2" when all are equal, else
 * "smallest..largest" ("2..2.5").
 *
 * What it does not do: parse numbers (scenario.c), or write machine formats,
 * which keep every digit (export.c, csv.c).
 *
 * Errors: none; buffers are NUMBER_TEXT_MAX bytes and always terminated.
 */
#ifndef PPFLOW_NUMBER_TEXT_H
#define PPFLOW_NUMBER_TEXT_H

enum { NUMBER_TEXT_MAX = 48 }; /* longest text of either function, with the NUL */

/* v as a person reads it, into buf; returns buf. */
const char *number_text_format(double v, char buf[NUMBER_TEXT_MAX]);
/* number_text_format's text as a value, for a message that writes several
 * numbers at once: printf("%s", number_text_of(t).s). */
typedef struct number_text {
    char s[NUMBER_TEXT_MAX];
} number_text;
number_text number_text_of(double v);
/* The n >= 1 values as one ("2") or as their range ("2..2.5"); returns buf. */
const char *number_text_list(const double *v, int n, char buf[NUMBER_TEXT_MAX]);

#endif
