/* keymap.c - the table of the viewer's keys. See keymap.h. */
#include "keymap.h"

#include <stddef.h>

#include <GLFW/glfw3.h>

/* A row of the card with no keys of its own (the mouse, or keys bound in another row). */
/* clang-format off */
#define MOUSE {{0}}
/* clang-format on */

/* Repeat: yes for keys that move by a step (events, zoom, pan, speed, text
 * size), never for beats, blackout, modes or toggles. */
#define R true
#define ONCE false

static const keymap_row rows[] = {
    /* presenting mode first: its keys take the place of the engineer's */
    {"PgDn Space → N Enter",
     "next beat (plays to it; again: lands on it)",
     KEYMAP_PRESENT,
     {{GLFW_KEY_PAGE_DOWN, 0, CMD_BEAT_NEXT, 0, ONCE},
      {GLFW_KEY_SPACE, 0, CMD_BEAT_NEXT, 0, ONCE},
      {GLFW_KEY_RIGHT, 0, CMD_BEAT_NEXT, 0, ONCE},
      {GLFW_KEY_N, 0, CMD_BEAT_NEXT, 0, ONCE},
      {GLFW_KEY_ENTER, 0, CMD_ENTER, 0, ONCE},
      {GLFW_KEY_KP_ENTER, 0, CMD_ENTER, 0, ONCE}}},
    {"PgUp ← Backspace P",
     "previous beat (its end, no replay)",
     KEYMAP_PRESENT,
     {{GLFW_KEY_PAGE_UP, 0, CMD_BEAT_PREV, 0, ONCE},
      {GLFW_KEY_LEFT, 0, CMD_BEAT_PREV, 0, ONCE},
      {GLFW_KEY_BACKSPACE, 0, CMD_BEAT_PREV, 0, ONCE},
      {GLFW_KEY_P, 0, CMD_BEAT_PREV, 0, ONCE}}},
    {"Home End",
     "first / last beat",
     KEYMAP_PRESENT,
     {{GLFW_KEY_HOME, 0, CMD_BEAT_FIRST, 0, ONCE}, {GLFW_KEY_END, 0, CMD_BEAT_LAST, 0, ONCE}}},
    {"R  V",
     "replay this beat / play back to the previous",
     KEYMAP_PRESENT,
     {{GLFW_KEY_R, 0, CMD_BEAT_REPLAY, 0, ONCE}, {GLFW_KEY_V, 0, CMD_BEAT_REVERSE, 0, ONCE}}},
    {"G, digits, Enter", "go to beat N", KEYMAP_PRESENT, {{GLFW_KEY_G, 0, CMD_BEAT_GOTO, 0, ONCE}}},
    {"B  .",
     "black screen, and back",
     KEYMAP_PRESENT,
     {{GLFW_KEY_B, 0, CMD_BLACKOUT, 0, ONCE}, {GLFW_KEY_PERIOD, 0, CMD_BLACKOUT, 0, ONCE}}},
    {"ctrl+L",
     "laser dot at the pointer",
     KEYMAP_PRESENT,
     {{GLFW_KEY_L, GLFW_MOD_CONTROL, CMD_LASER, 0, ONCE}}},
    {"ctrl+T",
     "presenter's clock back to 0 (runs from the next beat)",
     KEYMAP_PRESENT,
     {{GLFW_KEY_T, GLFW_MOD_CONTROL, CMD_CLOCK_RESET, 0, ONCE}}},
    /* the engineer's */
    {"space", "play / pause", KEYMAP_WINDOW, {{GLFW_KEY_SPACE, 0, CMD_PLAY_TOGGLE, 0, ONCE}}},
    {"← →   . ,",
     "previous / next event",
     KEYMAP_WINDOW,
     {{GLFW_KEY_LEFT, 0, CMD_EVENT_STEP, -1, R},
      {GLFW_KEY_RIGHT, 0, CMD_EVENT_STEP, 1, R},
      {GLFW_KEY_PERIOD, 0, CMD_EVENT_STEP, 1, R},
      {GLFW_KEY_COMMA, 0, CMD_EVENT_STEP, -1, R}}},
    {"PgDn PgUp",
     "next / previous beat (a clicker)",
     KEYMAP_WINDOW,
     {{GLFW_KEY_PAGE_DOWN, 0, CMD_BEAT_NEXT, 0, ONCE},
      {GLFW_KEY_PAGE_UP, 0, CMD_BEAT_PREV, 0, ONCE}}},
    {"F5",
     "present (fullscreen, beats, clicker keys)",
     KEYMAP_BOTH,
     {{GLFW_KEY_F5, 0, CMD_PRESENT, 0, ONCE}}},
    {"ctrl+= ctrl+− ctrl+0",
     "larger / smaller / usual text",
     KEYMAP_BOTH,
     {{GLFW_KEY_EQUAL, GLFW_MOD_CONTROL, CMD_UI_SCALE, 1.25, R},
      {GLFW_KEY_KP_ADD, GLFW_MOD_CONTROL, CMD_UI_SCALE, 1.25, R},
      {GLFW_KEY_MINUS, GLFW_MOD_CONTROL, CMD_UI_SCALE, 1 / 1.25, R},
      {GLFW_KEY_KP_SUBTRACT, GLFW_MOD_CONTROL, CMD_UI_SCALE, 1 / 1.25, R},
      {GLFW_KEY_0, GLFW_MOD_CONTROL, CMD_UI_SCALE, 0, ONCE}}},
    {"+ −",
     "faster / slower",
     KEYMAP_BOTH,
     {{GLFW_KEY_EQUAL, 0, CMD_SPEED, 1.5, R},
      {GLFW_KEY_KP_ADD, 0, CMD_SPEED, 1.5, R},
      {GLFW_KEY_MINUS, 0, CMD_SPEED, 1 / 1.5, R},
      {GLFW_KEY_KP_SUBTRACT, 0, CMD_SPEED, 1 / 1.5, R}}},
    {"Home End",
     "start / end of the iteration",
     KEYMAP_WINDOW,
     {{GLFW_KEY_HOME, 0, CMD_HOME, 0, ONCE}, {GLFW_KEY_END, 0, CMD_END, 0, ONCE}}},
    {"drag timeline", "scrub time (the 3D view follows)", KEYMAP_BOTH, MOUSE},
    {"W S, wheel",
     "zoom the timeline around the pointer",
     KEYMAP_WINDOW,
     {{GLFW_KEY_W, 0, CMD_TL_ZOOM, 1.25, R}, {GLFW_KEY_S, 0, CMD_TL_ZOOM, 1 / 1.25, R}}},
    {"A D, shift+wheel",
     "pan the timeline; right drag too",
     KEYMAP_WINDOW,
     {{GLFW_KEY_A, 0, CMD_TL_PAN, -0.1, R}, {GLFW_KEY_D, 0, CMD_TL_PAN, 0.1, R}}},
    {"f",
     "fit the timeline to the iteration",
     KEYMAP_WINDOW,
     {{GLFW_KEY_F, 0, CMD_TL_FIT, 0, ONCE}}},
    /* inspecting (viewer_inspect.h): Perfetto's click, . , ] [ f and Esc; c and b are free */
    {"click a bar  ] [  . ,  f",
     "select; consumer / producer, same rank; centre, fit",
     KEYMAP_WINDOW,
     {{GLFW_KEY_RIGHT_BRACKET, 0, CMD_INSPECT_WALK, 1, R},
      {GLFW_KEY_LEFT_BRACKET, 0, CMD_INSPECT_WALK, -1, R}}},
    {"shift+drag timeline", "area: busy, idle, bubble per rank", KEYMAP_WINDOW, MOUSE},
    {"c  b",
     "critical path; micro-batch highlight (next)",
     KEYMAP_WINDOW,
     {{GLFW_KEY_C, 0, CMD_CRITICAL, 0, ONCE}, {GLFW_KEY_B, 0, CMD_MICROBATCH, 0, R}}},
    {"drag the divider", "share of the 3D view and the timeline", KEYMAP_WINDOW, MOUSE},
    {"left drag", "orbit the 3D view; a click selects there", KEYMAP_BOTH, MOUSE},
    {"right drag", "pan the 3D view", KEYMAP_BOTH, MOUSE},
    {"wheel", "zoom the 3D view", KEYMAP_BOTH, MOUSE},
    {"1 – 9, 0",
     "camera presets, fit the 3D view",
     KEYMAP_BOTH,
     {{GLFW_KEY_1, 0, CMD_DIGIT, 1, ONCE},
      {GLFW_KEY_2, 0, CMD_DIGIT, 2, ONCE},
      {GLFW_KEY_3, 0, CMD_DIGIT, 3, ONCE},
      {GLFW_KEY_4, 0, CMD_DIGIT, 4, ONCE},
      {GLFW_KEY_5, 0, CMD_DIGIT, 5, ONCE},
      {GLFW_KEY_6, 0, CMD_DIGIT, 6, ONCE},
      {GLFW_KEY_7, 0, CMD_DIGIT, 7, ONCE},
      {GLFW_KEY_8, 0, CMD_DIGIT, 8, ONCE},
      {GLFW_KEY_9, 0, CMD_DIGIT, 9, ONCE},
      {GLFW_KEY_0, 0, CMD_DIGIT, 0, ONCE}}},
    {"F11, alt+Enter",
     "fullscreen",
     KEYMAP_BOTH,
     {{GLFW_KEY_F11, 0, CMD_FULLSCREEN, 0, ONCE},
      {GLFW_KEY_ENTER, GLFW_MOD_ALT, CMD_FULLSCREEN, 0, ONCE}}},
    /* live what-if (whatif.h): the command line (`:`, or ctrl+shift+P, Perfetto's command
       palette), the changes a talk makes most, undo; one short row, so that the card still
       fits a 720-line window (presenting: the line and undo) */
    {": n N m M r R ctrl+Z",
     "what if: stages 8 …; schedule ±, M ×2 ÷2, P ±1; undo",
     KEYMAP_WINDOW,
     {{GLFW_KEY_P, GLFW_MOD_CONTROL | GLFW_MOD_SHIFT, CMD_LINE_OPEN, 0, ONCE},
      {GLFW_KEY_N, 0, CMD_WHATIF_STEP, 1, ONCE},
      {GLFW_KEY_N, GLFW_MOD_SHIFT, CMD_WHATIF_STEP, -1, ONCE},
      {GLFW_KEY_M, 0, CMD_WHATIF_STEP, 2, ONCE},
      {GLFW_KEY_M, GLFW_MOD_SHIFT, CMD_WHATIF_STEP, -2, ONCE},
      {GLFW_KEY_R, 0, CMD_WHATIF_STEP, 3, ONCE},
      {GLFW_KEY_R, GLFW_MOD_SHIFT, CMD_WHATIF_STEP, -3, ONCE},
      {GLFW_KEY_Z, GLFW_MOD_CONTROL, CMD_WHATIF_UNDO, 0, ONCE}}},
    {": ctrl+shift+P  ctrl+Z",
     "what if: stages 8, schedule zb-h1 …; undo",
     KEYMAP_PRESENT,
     {{GLFW_KEY_P, GLFW_MOD_CONTROL | GLFW_MOD_SHIFT, CMD_LINE_OPEN, 0, ONCE},
      {GLFW_KEY_Z, GLFW_MOD_CONTROL, CMD_WHATIF_UNDO, 0, ONCE}}},
    /* a comparison's panes (viewer_compare.h): x makes one from a single frame, presenting
       too (a lecturer's answer to "and the other schedule?"), adds a pane to one, shift+X
       takes one away and on two ends it. x and X are bound once, in the first row; the
       comparison's cards list them in their own rows (keys act by mode, not by card) */
    {"x",
     "compare with the next schedule (X: back)",
     KEYMAP_BOTH | KEYMAP_SINGLE,
     {{GLFW_KEY_X, 0, CMD_COMPARE, 3, ONCE}, {GLFW_KEY_X, GLFW_MOD_SHIFT, CMD_COMPARE, 4, ONCE}}},
    {"x X", "compare: add / remove a pane", KEYMAP_PRESENT | KEYMAP_COMPARE, MOUSE},
    {"o  l  x X",
     "compare: layout, link cameras, add / remove a pane",
     KEYMAP_WINDOW | KEYMAP_COMPARE,
     {{GLFW_KEY_O, 0, CMD_COMPARE, 1, ONCE}, {GLFW_KEY_L, 0, CMD_COMPARE, 2, ONCE}}},
    {"t", "dark / light theme", KEYMAP_BOTH, {{GLFW_KEY_T, 0, CMD_THEME, 0, ONCE}}},
    /* F3: games' and browsers' frame-rate key; no clicker sends it */
    {"F3",
     "frame rate and frame time, under the HUD",
     KEYMAP_BOTH,
     {{GLFW_KEY_F3, 0, CMD_FRAME_TIMES, 0, ONCE}}},
    {"p", "save a screenshot (PNG)", KEYMAP_WINDOW, {{GLFW_KEY_P, 0, CMD_SCREENSHOT, 0, ONCE}}},
    /* "?" is shift and slash on the keyboards GLFW names keys after */
    {"h ?",
     "this card",
     KEYMAP_BOTH,
     {{GLFW_KEY_H, 0, CMD_HELP, 0, ONCE}, {GLFW_KEY_SLASH, GLFW_MOD_SHIFT, CMD_HELP, 0, ONCE}}},
    {"Esc",
     "back out: this card, black screen, presenting; never quits",
     KEYMAP_BOTH,
     {{GLFW_KEY_ESCAPE, 0, CMD_ESCAPE, 0, ONCE}}},
    {"q ctrl+Q",
     "quit",
     KEYMAP_WINDOW,
     {{GLFW_KEY_Q, GLFW_MOD_CONTROL, CMD_QUIT, 0, ONCE}, {GLFW_KEY_Q, 0, CMD_QUIT, 0, ONCE}}},
    {"ctrl+Q", "quit", KEYMAP_PRESENT, {{GLFW_KEY_Q, GLFW_MOD_CONTROL, CMD_QUIT, 0, ONCE}}},
};

enum { ROW_COUNT = sizeof rows / sizeof rows[0] };
_Static_assert((int)ROW_COUNT <= (int)KEYMAP_ROWS_MAX, "KEYMAP_ROWS_MAX holds the table");

const keymap_row *keymap_rows(int *n)
{
    *n = ROW_COUNT;
    return rows;
}

static int bits(int mask)
{
    int n = 0;
    for (; mask; mask &= mask - 1)
        n++;
    return n;
}

/* Of the bindings the press matches, the one asking for the most modifiers
 * wins (alt+Enter is fullscreen, Enter alone the next beat); then the
 * table's order. */
const keymap_key *keymap_find(int key, int mods, keymap_mode mode)
{
    const keymap_key *best = NULL;
    for (int r = 0; r < ROW_COUNT; r++) {
        if (!(rows[r].modes & mode))
            continue;
        for (int k = 0; k < KEYMAP_KEYS_MAX && rows[r].bind[k].key; k++) {
            const keymap_key *b = &rows[r].bind[k];
            if (b->key == key && (mods & b->mods) == b->mods &&
                (!best || bits(b->mods) > bits(best->mods)))
                best = b;
        }
    }
    return best;
}

bool keymap_on_card(int row_modes, int mode)
{
    const bool compare = (mode & KEYMAP_COMPARE) != 0;
    return (row_modes & mode & KEYMAP_BOTH) && (!(row_modes & KEYMAP_COMPARE) || compare) &&
           (!(row_modes & KEYMAP_SINGLE) || !compare);
}

int keymap_card(frame_help_item *out, int max, keymap_mode mode)
{
    int n = 0;
    for (int r = 0; r < ROW_COUNT && n < max; r++)
        if (keymap_on_card(rows[r].modes, mode))
            out[n++] = (frame_help_item){rows[r].keys, rows[r].what};
    return n;
}
