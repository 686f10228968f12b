/* keymap.h - the viewer's keys, written once: each row of one table is a
 * line of the key card (the keys as the card writes them, what they do)
 * and the keys it stands for (GLFW key, modifiers held, command, argument).
 * The key handler (input.c) looks keys up in it and the key card
 * (frame_view.help) is made from it, so the two cannot disagree.
 *
 * Two modes (../PRESENTING conventions): outside presenting mode the
 * engineer's keys (Perfetto's W A S D . , f ?) keep their meanings; in
 * presenting mode a clicker's keys (PgDn, PgUp, Space, arrows, B, `.`)
 * move between beats and black the screen. A row says in which modes it
 * acts; the card shows the rows of the mode the viewer is in.
 *
 * Key repeat (a held or bouncing clicker button) acts only on rows that
 * allow it (stepping events, zooming, panning): a beat key acts on its
 * press alone, so a held PgDn advances one beat.
 *
 * Rows for the mouse (drag, wheel) have no keys: the pointer's gestures
 * depend on where the pointer is, and input.c handles them; their rows are
 * here so that the card lists them in their place.
 *
 * What it does not do: no state, no GLFW calls (only its key codes), no
 * drawing; a key's command is applied elsewhere (viewer_state.h).
 *
 * Call order: keymap_find(key, mods) on each key press; keymap_card(rows,
 * n) once, for the frame's key card.
 */
#ifndef PPFLOW_KEYMAP_H
#define PPFLOW_KEYMAP_H

#include <stdbool.h>

#include "command.h"
#include "frame.h"

enum {
    KEYMAP_KEYS_MAX = 10, /* keys one row stands for (1 - 9 and 0) */
    KEYMAP_ROWS_MAX = 40, /* rows of the table */
};

/* The modes a row acts in (a mask). */
typedef enum keymap_mode {
    KEYMAP_WINDOW = 1,  /* the viewer, not presenting */
    KEYMAP_PRESENT = 2, /* presenting mode (F5, --present) */
    KEYMAP_BOTH = 3,
    KEYMAP_COMPARE = 4, /* with a mode: a comparison's row, on the card only in a comparison */
    KEYMAP_SINGLE = 8,  /* with a mode: a single frame's row, on the card only outside one */
} keymap_mode;

/* One key and what it asks for. */
typedef struct keymap_key {
    int key;  /* GLFW_KEY_*; 0 ends a row's list (0 is no GLFW key) */
    int mods; /* GLFW_MOD_* that must be held; others may be held too */
    command_kind command;
    double arg;     /* the command's argument a (for CMD_TL_ZOOM, the factor b: the
                       handler puts the pointer's x in a) */
    bool on_repeat; /* a held key repeats it */
} keymap_key;

/* One line of the key card and the keys it stands for. */
typedef struct keymap_row {
    const char *keys;                 /* as the card writes them: "← →   . ," */
    const char *what;                 /* what they do */
    int modes;                        /* keymap_mode mask */
    keymap_key bind[KEYMAP_KEYS_MAX]; /* none for the mouse's rows */
} keymap_row;

/* The table, in the card's order; count in *n. */
const keymap_row *keymap_rows(int *n);
/* The key a press of `key` with modifiers `mods` stands for in `mode`
 * (KEYMAP_WINDOW or KEYMAP_PRESENT), or NULL. */
const keymap_key *keymap_find(int key, int mods, keymap_mode mode);
/* Whether a row of these modes is on the card of `mode` (KEYMAP_WINDOW or
 * KEYMAP_PRESENT, with KEYMAP_COMPARE in a comparison): a row of the mode;
 * a comparison's rows (KEYMAP_COMPARE) only when mode has KEYMAP_COMPARE
 * too, a single frame's (KEYMAP_SINGLE) only when it has not. Keys act
 * by the mode alone (keymap_find): the card only says which to list. */
bool keymap_on_card(int row_modes, int mode);
/* Writes the key card's rows for `mode`, in the table's order, into out
 * (room for max); returns how many (keymap_on_card's). */
int keymap_card(frame_help_item *out, int max, keymap_mode mode);

#endif
