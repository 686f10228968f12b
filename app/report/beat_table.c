/* beat_table.c - `ppflow schedule --format beats`: the beats of a scenario
 * as a table to read and to copy from (number, time, title, caption). See
 * report.h. Titles and captions are the scenario author's text: they are
 * shown by quote.h's rule, so a C1 control or a bidi override in one
 * cannot act on the terminal (a title's width is that of what is shown). */
#include "report.h"

#include "beats.h"
#include "number_text.h"
#include "quote.h"
#include "terminal.h"

void report_beats(const beat_list *bl, FILE *f)
{
    int automatic = 0, t_width = 1, title_width = 5; /* "t", "title" */
    for (int k = 0; k < bl->count; k++) {
        char t[NUMBER_TEXT_MAX];
        const beat *b = &bl->beats[k];
        automatic += b->automatic;
        int w = terminal_text_width(number_text_format(b->t, t));
        if (w > t_width)
            t_width = w;
        w = terminal_text_width(quote_shown(b->title).s);
        if (w > title_width)
            title_width = w;
    }
    if (bl->count == 0) {
        fputs("no beats (--beats none, or \"auto_beats\": false and no \"beats\")\n", f);
        return;
    }
    fprintf(f, "%d beat%s: %d automatic, %d from the scenario\n", bl->count,
            bl->count == 1 ? "" : "s", automatic, bl->count - automatic);
    char index_text[16];
    snprintf(index_text, sizeof index_text, "%d", bl->count);
    const int index_width = terminal_text_width(index_text);
    terminal_put_cell(f, "#", index_width, true);
    fputs("  ", f);
    terminal_put_cell(f, "t", t_width, true);
    fputs("  ", f);
    terminal_put_cell(f, "title", title_width, false);
    fputs("  caption\n", f);
    for (int k = 0; k < bl->count; k++) {
        const beat *b = &bl->beats[k];
        char t[NUMBER_TEXT_MAX], n[16];
        snprintf(n, sizeof n, "%d", k + 1);
        terminal_put_cell(f, n, index_width, true);
        fputs("  ", f);
        terminal_put_cell(f, number_text_format(b->t, t), t_width, true);
        fputs("  ", f);
        terminal_put_cell(f, quote_shown(b->title).s, b->caption[0] ? title_width : 0, false);
        if (b->caption[0]) {
            fputs("  ", f);
            quote_put(f, b->caption);
        }
        fputc('\n', f);
    }
}
