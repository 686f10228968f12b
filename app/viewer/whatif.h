/* whatif.h - live what-if: the viewer's command line (`:` or ctrl+shift+P)
 * that changes the scenario shown, its direct keys, its undo, and the
 * HUD's line of what differs from the scenario the window opened with.
 *
 * The command line takes the scenario flags' names and values, as
 * `ppflow --stages 8` does: "stages 8", "schedule zb-h1", "microbatches 16",
 * "p2p 0.3", "allreduce 4", "dp 4", "virtual 2", "f 1,1,1,2"; every field of
 * the table (scenario.h) but "beats" (the pause points of a talk are the
 * talk's, not a what-if). A value is set with scenario_set, so a bad one
 * gets the flag's own one-line message (field, value, rule) and nothing
 * changes. Changing the schedule drops a V the new schedule cannot run
 * (back to the schedule's own), as a lecturer going from interleaved-1f1b
 * to 1f1b expects.
 *
 * What it does not do: no drawing, no window, no building: it makes the
 * next scenario; the viewer builds a session from it aside and shows it
 * (viewer_show.h; the build may still refuse it: a deadlock, over the
 * budget), and pushes what it replaced on the undo stack only then: the
 * scenario, and the replaced session itself while the budget lets the
 * window keep it, so that undo swaps it back without building
 * (whatif_keep_within lets kept sessions go, newest kept longest).
 *
 * Call order:
 *     whatif w; whatif_init(&w, &session.sc);          (the scenario opened)
 *     typing: whatif_line_insert / _backspace, whatif_complete (Tab),
 *             whatif_hint (what the card shows under the text)
 *     Enter:  scenario next; if (whatif_parse(&s->sc, w.line.text, &next, &err)) {
 *                 session *built = session_new(&next, true, &err);   (aside)
 *                 if (built) { shown = built; whatif_push(&w, &old->sc, old); }
 *                 scenario_deinit(&next);
 *             }
 *     a direct key: whatif_step(&s->sc, WHATIF_STEP_..., +1 or -1, &next, &err), then the same
 *     undo:   whatif_undo u; if (whatif_pop(&w, &u)) { shown = u.kept, or built from u.sc;
 *                 scenario_deinit(&u.sc); }
 *     HUD:    whatif_diff(&w.opened, &s->sc, text, size)
 *     whatif_deinit(&w);
 *
 * Errors: the parse and the steps return false with one line in err (the
 * flag's message, or "no field ..." naming the known ones) and leave *out
 * zeroed; line editing refuses quietly what does not fit (a full line, a
 * control character).
 */
#ifndef PPFLOW_WHATIF_H
#define PPFLOW_WHATIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "budget.h"
#include "error.h"
#include "scenario.h"
#include "session.h"

enum {
    WHATIF_TEXT_MAX = 200, /* bytes of the command line, NUL included */
    WHATIF_UNDO_MAX = 32,  /* changes kept for undo; the oldest goes first */
};

/* The direct keys' changes. */
typedef enum whatif_step_kind {
    WHATIF_STEP_SCHEDULE,     /* the next (+1) or previous (-1) schedule that runs at this P, M */
    WHATIF_STEP_MICROBATCHES, /* M doubled (+1) or halved (-1) */
    WHATIF_STEP_STAGES,       /* P plus or minus one */
} whatif_step_kind;

/* The command line as typed. */
typedef struct whatif_line {
    bool open;
    char text[WHATIF_TEXT_MAX]; /* UTF-8, NUL-terminated */
    size_t len;                 /* bytes */
} whatif_line;

/* What a change replaced: its scenario, and while kept the session itself. */
typedef struct whatif_undo {
    scenario sc;
    session *kept; /* NULL: let go (undo builds sc again) */
} whatif_undo;

typedef struct whatif {
    scenario opened;                   /* the scenario the window opened with: the diff's base */
    whatif_undo undo[WHATIF_UNDO_MAX]; /* what the changes replaced, oldest first */
    int undo_count;
    whatif_line line;
    char error[PPF_ERROR_MAX]; /* the last change's error, shown until the next change, Esc
                                  or an edit; "" none */
} whatif;

void whatif_init(whatif *w, const scenario *opened); /* a copy of opened; the line closed */
void whatif_deinit(whatif *w);                       /* accepts a zeroed or deinited one */

/* The field a command line's name stands for (the flag's name, or its JSON
 * key or path, as scenario_field_find), or NULL: unknown, or "beats". */
const scenario_field *whatif_field(const char *name);

/* "NAME VALUE" (blanks around and between them) applied to a copy of now
 * into *out (not initialised); false with one line and *out zeroed when the
 * name is unknown, the value missing or bad. */
bool whatif_parse(const scenario *now, const char *text, scenario *out, ppf_error *err);
/* A direct key's change of now into *out (not initialised); false with one
 * line and *out zeroed when there is none (M already 1, no other schedule
 * runs at this P and M, P out of range). */
bool whatif_step(const scenario *now, whatif_step_kind kind, int dir, scenario *out,
                 ppf_error *err);

/* Tab: the word being typed (the name, or the value of a name whose values
 * are a list: schedule, allreduce's "none") replaced by the longest prefix
 * its candidates share, and a space after a name that is complete; the
 * candidates, separated by two spaces, into shown. Returns how many there
 * are (0: nothing to complete; the text unchanged). */
int whatif_complete(whatif_line *line, char *shown, size_t shown_size);
/* What the card shows under the text: the names that fit what is typed, or
 * for a known name its current value and the values it takes. */
void whatif_hint(const scenario *now, const char *text, char *out, size_t size);
/* A field's value in now as the command line writes it ("4", "zb-h1",
 * "1,1,1,2", "3/1/ring"; "default" for a V left to the schedule, the default
 * for a cost not given). */
void whatif_value(const scenario *sc, const scenario_field *f, char *out, size_t size);
/* What differs in now from opened, for the HUD: "P=8 (was 4), schedule
 * zb-h1 (was 1f1b)"; "" when nothing does. */
void whatif_diff(const scenario *opened, const scenario *now, char *out, size_t size);

/* What a change replaced: a copy of its scenario, and the session (taken,
 * freed here when let go; NULL: none kept); the oldest dropped when full. */
void whatif_push(whatif *w, const scenario *before, session *kept);
/* The last one pushed, moved into *out (not initialised: the caller
 * deinits out->sc and owns out->kept); false when none. */
bool whatif_pop(whatif *w, whatif_undo *out);
/* Keeps the newest kept sessions that fit the budget beside *held
 * (budget.h, totals) and lets the others go (their scenarios stay, for
 * undo to build); adds what stays kept to *held. */
void whatif_keep_within(whatif *w, budget_cost *held);

/* Opens the line empty (and clears the error). */
void whatif_line_open(whatif_line *l);
void whatif_line_close(whatif_line *l);
/* Appends a character (a Unicode code point, as GLFW's char callback gives
 * it); false (nothing added) for a control character or when it does not fit. */
bool whatif_line_insert(whatif_line *l, uint32_t codepoint);
/* Removes the last character (all bytes of it). */
void whatif_line_backspace(whatif_line *l);

#endif
