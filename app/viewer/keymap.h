/* keymap.h - the viewer's keys, written once: each row of one table is a
 * line of the key card (the keys as the card writes them, what they do)
 * and the keys it stands for (GLFW key, modifiers held, command, argument).
 * The key handler (input.c) looks keys up in it and the key card
 * (frame_view.help) is made from it, so the two cannot disagree.
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

#include "command.h"
#include "frame.h"

enum {
    KEYMAP_KEYS_MAX = 10, /* keys one row stands for (1 - 9 and 0) */
    KEYMAP_ROWS_MAX = 32, /* rows of the table */
};

/* One key and what it asks for. */
typedef struct keymap_key {
    int key;  /* GLFW_KEY_*; 0 ends a row's list (0 is no GLFW key) */
    int mods; /* GLFW_MOD_* that must be held; others may be held too */
    command_kind command;
    double arg; /* the command's argument a (for CMD_TL_ZOOM, the factor b: the
                   handler puts the pointer's x in a) */
} keymap_key;

/* One line of the key card and the keys it stands for. */
typedef struct keymap_row {
    const char *keys;                 /* as the card writes them: "← →   . ," */
    const char *what;                 /* what they do */
    keymap_key bind[KEYMAP_KEYS_MAX]; /* none for the mouse's rows */
} keymap_row;

/* The table, in the card's order; count in *n. */
const keymap_row *keymap_rows(int *n);
/* The key a press of `key` with modifiers `mods` stands for, or NULL. */
const keymap_key *keymap_find(int key, int mods);
/* Writes the key card's rows, in the table's order, into out (room for
 * max); returns how many. */
int keymap_card(frame_help_item *out, int max);

#endif
