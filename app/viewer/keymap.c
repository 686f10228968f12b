/* keymap.c - the table of the viewer's keys. See keymap.h. */
#include "keymap.h"

#include <stddef.h>

#include <GLFW/glfw3.h>

/* A row of the card with no keys of its own (the mouse). */
/* clang-format off */
#define MOUSE {{0}}
/* clang-format on */

static const keymap_row rows[] = {
    {"space", "play / pause", {{GLFW_KEY_SPACE, 0, CMD_PLAY_TOGGLE, 0}}},
    {"← →   . ,",
     "previous / next event",
     {{GLFW_KEY_LEFT, 0, CMD_EVENT_STEP, -1},
      {GLFW_KEY_RIGHT, 0, CMD_EVENT_STEP, 1},
      {GLFW_KEY_PERIOD, 0, CMD_EVENT_STEP, 1},
      {GLFW_KEY_COMMA, 0, CMD_EVENT_STEP, -1}}},
    /* Before "+ −": a key with ctrl is found here, not as the plain key. */
    {"ctrl+= ctrl+− ctrl+0",
     "larger / smaller / usual text",
     {{GLFW_KEY_EQUAL, GLFW_MOD_CONTROL, CMD_UI_SCALE, 1.25},
      {GLFW_KEY_KP_ADD, GLFW_MOD_CONTROL, CMD_UI_SCALE, 1.25},
      {GLFW_KEY_MINUS, GLFW_MOD_CONTROL, CMD_UI_SCALE, 1 / 1.25},
      {GLFW_KEY_KP_SUBTRACT, GLFW_MOD_CONTROL, CMD_UI_SCALE, 1 / 1.25},
      {GLFW_KEY_0, GLFW_MOD_CONTROL, CMD_UI_SCALE, 0}}},
    {"+ −",
     "faster / slower",
     {{GLFW_KEY_EQUAL, 0, CMD_SPEED, 1.5},
      {GLFW_KEY_KP_ADD, 0, CMD_SPEED, 1.5},
      {GLFW_KEY_MINUS, 0, CMD_SPEED, 1 / 1.5},
      {GLFW_KEY_KP_SUBTRACT, 0, CMD_SPEED, 1 / 1.5}}},
    {"Home End",
     "start / end of the iteration",
     {{GLFW_KEY_HOME, 0, CMD_HOME, 0}, {GLFW_KEY_END, 0, CMD_END, 0}}},
    {"drag timeline", "scrub time (the 3D view follows)", MOUSE},
    {"W S, wheel",
     "zoom the timeline around the pointer",
     {{GLFW_KEY_W, 0, CMD_TL_ZOOM, 1.25}, {GLFW_KEY_S, 0, CMD_TL_ZOOM, 1 / 1.25}}},
    {"A D, shift+wheel",
     "pan the timeline; right drag too",
     {{GLFW_KEY_A, 0, CMD_TL_PAN, -0.1}, {GLFW_KEY_D, 0, CMD_TL_PAN, 0.1}}},
    {"f", "fit the timeline to the iteration", {{GLFW_KEY_F, 0, CMD_TL_FIT, 0}}},
    {"drag the divider", "share of the 3D view and the timeline", MOUSE},
    {"left drag", "orbit the 3D view", MOUSE},
    {"right drag", "pan the 3D view", MOUSE},
    {"wheel", "zoom the 3D view", MOUSE},
    {"1 – 9, 0",
     "camera presets, fit the 3D view",
     {{GLFW_KEY_1, 0, CMD_PRESET, 0},
      {GLFW_KEY_2, 0, CMD_PRESET, 1},
      {GLFW_KEY_3, 0, CMD_PRESET, 2},
      {GLFW_KEY_4, 0, CMD_PRESET, 3},
      {GLFW_KEY_5, 0, CMD_PRESET, 4},
      {GLFW_KEY_6, 0, CMD_PRESET, 5},
      {GLFW_KEY_7, 0, CMD_PRESET, 6},
      {GLFW_KEY_8, 0, CMD_PRESET, 7},
      {GLFW_KEY_9, 0, CMD_PRESET, 8},
      {GLFW_KEY_0, 0, CMD_FIT_3D, 0}}},
    {"F11, alt+Enter",
     "fullscreen",
     {{GLFW_KEY_F11, 0, CMD_FULLSCREEN, 0}, {GLFW_KEY_ENTER, GLFW_MOD_ALT, CMD_FULLSCREEN, 0}}},
    {"t", "dark / light theme", {{GLFW_KEY_T, 0, CMD_THEME, 0}}},
    {"p", "save a screenshot (PNG)", {{GLFW_KEY_P, 0, CMD_SCREENSHOT, 0}}},
    /* "?" is shift and slash on the keyboards GLFW names keys after */
    {"h ?",
     "this card",
     {{GLFW_KEY_H, 0, CMD_HELP, 0}, {GLFW_KEY_SLASH, GLFW_MOD_SHIFT, CMD_HELP, 0}}},
    {"q Esc", "quit", {{GLFW_KEY_Q, 0, CMD_QUIT, 0}, {GLFW_KEY_ESCAPE, 0, CMD_ESCAPE, 0}}},
};

enum { ROW_COUNT = sizeof rows / sizeof rows[0] };
_Static_assert((int)ROW_COUNT <= (int)KEYMAP_ROWS_MAX, "KEYMAP_ROWS_MAX holds the table");

const keymap_row *keymap_rows(int *n)
{
    *n = ROW_COUNT;
    return rows;
}

const keymap_key *keymap_find(int key, int mods)
{
    for (int r = 0; r < ROW_COUNT; r++)
        for (int k = 0; k < KEYMAP_KEYS_MAX && rows[r].bind[k].key; k++) {
            const keymap_key *b = &rows[r].bind[k];
            if (b->key == key && (mods & b->mods) == b->mods)
                return b;
        }
    return NULL;
}

int keymap_card(frame_help_item *out, int max)
{
    int n = 0;
    for (int r = 0; r < ROW_COUNT && n < max; r++)
        out[n++] = (frame_help_item){rows[r].keys, rows[r].what};
    return n;
}
