/* Tests of the viewer's one keymap and its input handlers, without a
 * window: no key is bound twice, the key card is the table's rows in order,
 * keys need their modifiers, and the handlers turn keys, the pointer and
 * the wheel into the commands the table and the frame's layout say (with a
 * host that records what is applied). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <GLFW/glfw3.h>

#include "input.h"
#include "keymap.h"
#include "support/check.h"
#include "viewer_script.h"

static void test_no_key_bound_twice(void **state)
{
    (void)state;
    int n, keys = 0;
    const keymap_row *rows = keymap_rows(&n);
    assert_true(n > 0 && n <= KEYMAP_ROWS_MAX);
    for (int r = 0; r < n; r++)
        for (int k = 0; k < KEYMAP_KEYS_MAX && rows[r].bind[k].key; k++, keys++)
            for (int r2 = 0; r2 < n; r2++)
                for (int k2 = 0; k2 < KEYMAP_KEYS_MAX && rows[r2].bind[k2].key; k2++)
                    if ((r2 != r || k2 != k) && (rows[r].modes & rows[r2].modes) &&
                        rows[r2].bind[k2].key == rows[r].bind[k].key &&
                        rows[r2].bind[k2].mods == rows[r].bind[k].mods)
                        fail_msg("key %d is bound in rows %d (%s) and %d (%s)", rows[r].bind[k].key,
                                 r, rows[r].keys, r2, rows[r2].keys);
    print_message("%d rows, %d keys\n", n, keys);
    /* a key with ctrl finds its own row, not the plain key's */
    for (keymap_mode m = KEYMAP_WINDOW; m <= KEYMAP_PRESENT; m++) {
        assert_int_equal(keymap_find(GLFW_KEY_EQUAL, GLFW_MOD_CONTROL, m)->command, CMD_UI_SCALE);
        assert_int_equal(keymap_find(GLFW_KEY_EQUAL, 0, m)->command, CMD_SPEED);
        assert_int_equal(keymap_find(GLFW_KEY_0, GLFW_MOD_CONTROL, m)->command, CMD_UI_SCALE);
        assert_int_equal(keymap_find(GLFW_KEY_0, 0, m)->command, CMD_DIGIT);
    }
}

static void test_card_is_the_table(void **state)
{
    (void)state;
    int n;
    const keymap_row *rows = keymap_rows(&n);
    frame_help_item card[KEYMAP_ROWS_MAX];
    /* each mode's card is the table's rows of that mode, in order; a
       comparison's rows only on a comparison's card, a single frame's only outside one */
    const keymap_mode modes[] = {KEYMAP_WINDOW, KEYMAP_PRESENT, KEYMAP_WINDOW | KEYMAP_COMPARE,
                                 KEYMAP_PRESENT | KEYMAP_COMPARE};
    for (int mi = 0; mi < 4; mi++) {
        const keymap_mode m = modes[mi];
        const int count = keymap_card(card, KEYMAP_ROWS_MAX, m);
        int i = 0;
        for (int r = 0; r < n; r++) {
            assert_true(rows[r].keys[0] && rows[r].what[0] && (rows[r].modes & KEYMAP_BOTH));
            if (!(rows[r].modes & m & KEYMAP_BOTH) ||
                ((rows[r].modes & KEYMAP_COMPARE) && !(m & KEYMAP_COMPARE)) ||
                ((rows[r].modes & KEYMAP_SINGLE) && (m & KEYMAP_COMPARE)))
                continue;
            assert_lt(i, count);
            assert_ptr_equal(card[i].keys, rows[r].keys);
            assert_ptr_equal(card[i].what, rows[r].what);
            i++;
        }
        assert_int_equal(i, count);
        print_message("mode %d: %d rows on the card\n", m, count);
    }
    /* a short buffer takes the first rows */
    assert_int_equal(keymap_card(card, 3, KEYMAP_WINDOW), 3);
    /* x, which makes a comparison, is on every single frame's card; in a
       comparison the card lists the panes' keys instead */
    const keymap_mode single[] = {KEYMAP_WINDOW, KEYMAP_PRESENT};
    const keymap_mode paned[] = {KEYMAP_WINDOW | KEYMAP_COMPARE, KEYMAP_PRESENT | KEYMAP_COMPARE};
    for (int mi = 0; mi < 2; mi++) {
        int count = keymap_card(card, KEYMAP_ROWS_MAX, single[mi]);
        int x = 0, xx = 0;
        for (int i = 0; i < count; i++) {
            x += strcmp(card[i].keys, "x") == 0;
            xx += strstr(card[i].keys, "x X") != NULL;
        }
        assert_int_equal(x, 1);
        assert_int_equal(xx, 0);
        count = keymap_card(card, KEYMAP_ROWS_MAX, paned[mi]);
        x = xx = 0;
        for (int i = 0; i < count; i++) {
            x += strcmp(card[i].keys, "x") == 0;
            xx += strstr(card[i].keys, "x X") != NULL;
        }
        assert_int_equal(x, 0);
        assert_int_equal(xx, 1);
    }
}

static void expect_key_in(keymap_mode mode, int key, int mods, command_kind kind, double arg)
{
    const keymap_key *k = keymap_find(key, mods, mode);
    if (!k)
        fail_msg("key %d with mods %d: nothing, want command %d", key, mods, kind);
    if (k->command != kind || k->arg != arg)
        fail_msg("key %d with mods %d: command %d (%g), want %d (%g)", key, mods, k->command,
                 k->arg, kind, arg);
}

static void expect_key(int key, int mods, command_kind kind, double arg)
{
    expect_key_in(KEYMAP_WINDOW, key, mods, kind, arg);
}

static void test_keys_and_modifiers(void **state)
{
    (void)state;
    expect_key(GLFW_KEY_SPACE, 0, CMD_PLAY_TOGGLE, 0);
    expect_key(GLFW_KEY_SPACE, GLFW_MOD_SHIFT, CMD_PLAY_TOGGLE, 0); /* others may be held */
    expect_key(GLFW_KEY_RIGHT, 0, CMD_EVENT_STEP, 1);
    expect_key(GLFW_KEY_COMMA, 0, CMD_EVENT_STEP, -1);
    expect_key(GLFW_KEY_KP_SUBTRACT, 0, CMD_SPEED, 1 / 1.5);
    expect_key(GLFW_KEY_S, 0, CMD_TL_ZOOM, 1 / 1.25);
    expect_key(GLFW_KEY_Q, GLFW_MOD_CONTROL, CMD_QUIT, 0);
    expect_key(GLFW_KEY_Q, 0, CMD_QUIT, 0);
    expect_key(GLFW_KEY_ESCAPE, 0, CMD_ESCAPE, 0);
    for (int k = 0; k <= 9; k++)
        expect_key(GLFW_KEY_0 + k, 0, CMD_DIGIT, k);
    /* a clicker works before presenting too */
    expect_key(GLFW_KEY_PAGE_DOWN, 0, CMD_BEAT_NEXT, 0);
    expect_key(GLFW_KEY_PAGE_UP, 0, CMD_BEAT_PREV, 0);
    expect_key(GLFW_KEY_F5, 0, CMD_PRESENT, 0);
    /* "?" is shift and slash; alt and Enter is fullscreen: not without them */
    expect_key(GLFW_KEY_SLASH, GLFW_MOD_SHIFT, CMD_HELP, 0);
    assert_null(keymap_find(GLFW_KEY_SLASH, 0, KEYMAP_WINDOW));
    expect_key(GLFW_KEY_ENTER, GLFW_MOD_ALT, CMD_FULLSCREEN, 0);
    expect_key(GLFW_KEY_ENTER, GLFW_MOD_ALT | GLFW_MOD_SHIFT, CMD_FULLSCREEN, 0);
    assert_null(keymap_find(GLFW_KEY_ENTER, 0, KEYMAP_WINDOW));
    assert_null(keymap_find(GLFW_KEY_Z, 0, KEYMAP_WINDOW));
    assert_null(keymap_find(0, 0, KEYMAP_WINDOW));
    /* x compares with the sibling, shift+X takes a pane away: presenting too */
    for (int m = KEYMAP_WINDOW; m <= KEYMAP_PRESENT; m++) {
        expect_key_in((keymap_mode)m, GLFW_KEY_X, 0, CMD_COMPARE, 3);
        expect_key_in((keymap_mode)m, GLFW_KEY_X, GLFW_MOD_SHIFT, CMD_COMPARE, 4);
    }
}

/* Presenting mode gives a clicker's keys their presenting meaning
 * (PRESENTING.md's table); q alone does not quit a talk, ctrl+Q does. */
static void test_presenting_keys(void **state)
{
    (void)state;
    const keymap_mode P = KEYMAP_PRESENT;
    const int next[] = {GLFW_KEY_PAGE_DOWN, GLFW_KEY_SPACE, GLFW_KEY_RIGHT, GLFW_KEY_N};
    for (size_t k = 0; k < sizeof next / sizeof next[0]; k++)
        expect_key_in(P, next[k], 0, CMD_BEAT_NEXT, 0);
    expect_key_in(P, GLFW_KEY_ENTER, 0, CMD_ENTER, 0); /* next, or the typed beat */
    const int prev[] = {GLFW_KEY_PAGE_UP, GLFW_KEY_LEFT, GLFW_KEY_BACKSPACE, GLFW_KEY_P};
    for (size_t k = 0; k < sizeof prev / sizeof prev[0]; k++)
        expect_key_in(P, prev[k], 0, CMD_BEAT_PREV, 0);
    expect_key_in(P, GLFW_KEY_HOME, 0, CMD_BEAT_FIRST, 0);
    expect_key_in(P, GLFW_KEY_END, 0, CMD_BEAT_LAST, 0);
    expect_key_in(P, GLFW_KEY_R, 0, CMD_BEAT_REPLAY, 0);
    expect_key_in(P, GLFW_KEY_V, 0, CMD_BEAT_REVERSE, 0);
    expect_key_in(P, GLFW_KEY_G, 0, CMD_BEAT_GOTO, 0);
    expect_key_in(P, GLFW_KEY_3, 0, CMD_DIGIT, 3);
    expect_key_in(P, GLFW_KEY_B, 0, CMD_BLACKOUT, 0);
    expect_key_in(P, GLFW_KEY_PERIOD, 0, CMD_BLACKOUT, 0);
    expect_key_in(P, GLFW_KEY_L, GLFW_MOD_CONTROL, CMD_LASER, 0);
    expect_key_in(P, GLFW_KEY_F5, 0, CMD_PRESENT, 0);
    expect_key_in(P, GLFW_KEY_ESCAPE, 0, CMD_ESCAPE, 0);
    expect_key_in(P, GLFW_KEY_Q, GLFW_MOD_CONTROL, CMD_QUIT, 0);
    assert_null(keymap_find(GLFW_KEY_Q, 0, P));
    expect_key_in(P, GLFW_KEY_ENTER, GLFW_MOD_ALT, CMD_FULLSCREEN, 0); /* alt wins over Enter */
    /* the engineer's keys that mean something else when presenting */
    expect_key(GLFW_KEY_SPACE, 0, CMD_PLAY_TOGGLE, 0);
    expect_key(GLFW_KEY_PERIOD, 0, CMD_EVENT_STEP, 1);
    expect_key(GLFW_KEY_P, 0, CMD_SCREENSHOT, 0);
}

/* ---- script key names, which the keymap's keys must be reachable by ------ */

/* Parses a one-line script; false (and the message in err) if it is refused. */
static bool parse_one(const char *line, viewer_script_event *e, ppf_error *err)
{
    size_t n = strlen(line);
    char *text = malloc(n + 1);
    assert_non_null(text);
    memcpy(text, line, n + 1);
    viewer_script sc = {0};
    bool ok = viewer_script_parse(&sc, text, n, "t.script", err);
    if (ok) {
        assert_int_equal(sc.count, 1);
        *e = sc.events[0];
    }
    viewer_script_deinit(&sc);
    return ok;
}

static void expect_script_key(const char *line, int key, int mods)
{
    viewer_script_event e;
    ppf_error err = {{0}};
    if (!parse_one(line, &e, &err))
        fail_msg("\"%s\" refused: %s", line, err.message);
    if (e.verb != VIEWER_SCRIPT_KEY || e.key != key || e.mods != mods)
        fail_msg("\"%s\": verb %d key %d mods %d, want key %d mods %d", line, e.verb, e.key, e.mods,
                 key, mods);
}

/* The UI scale's keys (ctrl and =, -, 0) can be written in a script, and
 * reach the keymap's UI scale rows. */
static void test_script_names_ui_scale_keys(void **state)
{
    (void)state;
    expect_script_key("key equal ctrl\n", GLFW_KEY_EQUAL, GLFW_MOD_CONTROL);
    expect_script_key("key plus ctrl\n", GLFW_KEY_EQUAL, GLFW_MOD_CONTROL | GLFW_MOD_SHIFT);
    expect_script_key("key minus ctrl\n", GLFW_KEY_MINUS, GLFW_MOD_CONTROL);
    expect_script_key("key 0 ctrl\n", GLFW_KEY_0, GLFW_MOD_CONTROL);
    expect_script_key("key equal\n", GLFW_KEY_EQUAL, 0);
    expect_script_key("key pagedown\n", GLFW_KEY_PAGE_DOWN, 0);
    expect_script_key("key f5\n", GLFW_KEY_F5, 0);
    expect_script_key("key backspace\n", GLFW_KEY_BACKSPACE, 0);
    {
        viewer_script_event e;
        ppf_error err = {{0}};
        assert_true(parse_one("key pagedown repeat\n", &e, &err));
        assert_true(e.repeat && e.key == GLFW_KEY_PAGE_DOWN);
        assert_true(parse_one("key pagedown\n", &e, &err));
        assert_false(e.repeat);
        assert_false(parse_one("scroll 1 repeat\n", &e, &err)); /* keys only */
    }
    expect_key(GLFW_KEY_EQUAL, GLFW_MOD_CONTROL, CMD_UI_SCALE, 1.25);
    expect_key(GLFW_KEY_MINUS, GLFW_MOD_CONTROL, CMD_UI_SCALE, 1 / 1.25);
    expect_key(GLFW_KEY_0, GLFW_MOD_CONTROL, CMD_UI_SCALE, 0);
    expect_key(GLFW_KEY_EQUAL, GLFW_MOD_CONTROL | GLFW_MOD_SHIFT, CMD_UI_SCALE, 1.25);
    /* "?" and "+" are typed with shift, as a person types them: "key
       question" opens the key card (it once sent a bare slash, bound to nothing) */
    expect_script_key("key question\n", GLFW_KEY_SLASH, GLFW_MOD_SHIFT);
    /* ":" opens the what-if line (README: ": n N m M r R"), typed with shift */
    expect_script_key("key colon\n", GLFW_KEY_SEMICOLON, GLFW_MOD_SHIFT);
    assert_int_equal(viewer_script_char_of_key(GLFW_KEY_SEMICOLON, GLFW_MOD_SHIFT), ':');
    assert_int_equal(viewer_script_char_of_key(GLFW_KEY_X, 0), 'x');
    assert_int_equal(viewer_script_char_of_key(GLFW_KEY_X, GLFW_MOD_CONTROL), 0);
    assert_int_equal(viewer_script_char_of_key(GLFW_KEY_PAGE_DOWN, 0), 0);
    expect_script_key("key plus\n", GLFW_KEY_EQUAL, GLFW_MOD_SHIFT);
    expect_key(GLFW_KEY_SLASH, GLFW_MOD_SHIFT, CMD_HELP, 0);
    expect_key(GLFW_KEY_EQUAL, GLFW_MOD_SHIFT, CMD_SPEED, 1.5);
    /* an unknown name is refused, naming the known ones */
    viewer_script_event e;
    ppf_error err = {{0}};
    assert_false(parse_one("key equals ctrl\n", &e, &err));
    assert_non_null(strstr(err.message, "t.script:1:"));
    assert_non_null(strstr(err.message, "equal, minus"));
}

/* ---- input, with a host that records what it applies ---------------------- */

typedef struct host {
    viewer_input in;
    command applied[4096];
    int count;
    int flushes;
} host;

static frame_layout host_layout(void *user)
{
    (void)user;
    return frame_layout_compute(1280, 720, 0.7f, 1); /* the panel from y = 504 */
}

static void host_flush(void *user)
{
    host *h = user;
    for (int k = 0; k < h->in.queued && h->count < 4096; k++)
        h->applied[h->count++] = h->in.queue[k];
    h->in.queued = 0;
    h->flushes++;
}

static host *host_new(void)
{
    host *h = calloc(1, sizeof *h);
    h->in = (viewer_input){.user = h, .layout = host_layout, .flush = host_flush};
    return h;
}

static const command *last(const host *h)
{
    assert_gt(h->in.queued, 0);
    return &h->in.queue[h->in.queued - 1];
}

static void test_input_to_commands(void **state)
{
    (void)state;
    host *h = host_new();
    /* W over the 3D view zooms around the panel's middle, over the panel around the pointer */
    input_move(&h->in, 100, 200);
    assert_int_equal(last(h)->kind, CMD_HOVER);
    input_key(&h->in, GLFW_KEY_W, 0, false);
    assert_int_equal(last(h)->kind, CMD_TL_ZOOM);
    assert_true(last(h)->a == 640 && last(h)->b == 1.25);
    input_move(&h->in, 100, 600);
    input_key(&h->in, GLFW_KEY_W, 0, false);
    assert_true(last(h)->a == 100 && last(h)->b == 1.25);
    /* a left drag in the panel scrubs */
    input_button(&h->in, GLFW_MOUSE_BUTTON_LEFT, true);
    assert_int_equal(last(h)->kind, CMD_SCRUB);
    input_move(&h->in, 300, 600);
    assert_int_equal(h->in.queue[h->in.queued - 2].kind, CMD_SCRUB);
    assert_true(h->in.queue[h->in.queued - 2].a == 300);
    input_button(&h->in, GLFW_MOUSE_BUTTON_LEFT, false);
    assert_int_equal(h->in.drag, INPUT_DRAG_NONE);
    /* on the divider, a drag moves it */
    input_move(&h->in, 300, 506);
    input_button(&h->in, GLFW_MOUSE_BUTTON_LEFT, true);
    assert_int_equal(h->in.drag, INPUT_DRAG_SPLIT);
    input_move(&h->in, 300, 400);
    assert_int_equal(h->in.queue[h->in.queued - 2].kind, CMD_SPLIT);
    input_button(&h->in, GLFW_MOUSE_BUTTON_LEFT, false);
    /* the wheel: the 3D view's zoom above, the timeline's below; shift pans */
    input_move(&h->in, 300, 100);
    input_scroll(&h->in, 2, 0);
    assert_int_equal(last(h)->kind, CMD_ZOOM);
    input_move(&h->in, 300, 650);
    input_scroll(&h->in, 1e300, 0);
    assert_int_equal(last(h)->kind, CMD_TL_ZOOM);
    assert_true(last(h)->b == pow(1.25, INPUT_SCROLL_STEPS_MAX));
    input_scroll(&h->in, -1, GLFW_MOD_SHIFT);
    assert_int_equal(last(h)->kind, CMD_TL_PAN);
    const int queued = h->in.queued;
    input_scroll(&h->in, NAN, 0);
    input_scroll(&h->in, INFINITY, 0);
    input_key(&h->in, GLFW_KEY_Z, 0, false);
    assert_int_equal(h->in.queued, queued);
    free(h);
}

/* A held key repeats only what steps (events, zoom); a beat key acts on
 * its press alone, so a held or bouncing clicker button advances one beat. */
static void test_repeat_never_skips_beats(void **state)
{
    (void)state;
    host *h = host_new();
    input_key(&h->in, GLFW_KEY_RIGHT, 0, true);
    assert_int_equal(last(h)->kind, CMD_EVENT_STEP);
    const int queued = h->in.queued;
    input_key(&h->in, GLFW_KEY_PAGE_DOWN, 0, false);
    assert_int_equal(last(h)->kind, CMD_BEAT_NEXT);
    for (int k = 0; k < 20; k++)
        input_key(&h->in, GLFW_KEY_PAGE_DOWN, 0, true);
    assert_int_equal(h->in.queued, queued + 1);
    h->in.mode = KEYMAP_PRESENT;
    input_key(&h->in, GLFW_KEY_RIGHT, 0, true); /* a beat key now */
    input_key(&h->in, GLFW_KEY_SPACE, 0, true);
    assert_int_equal(h->in.queued, queued + 1);
    input_key(&h->in, GLFW_KEY_RIGHT, 0, false);
    assert_int_equal(last(h)->kind, CMD_BEAT_NEXT);
    free(h);
}

/* A long run of events between two frames: the queue is flushed when full,
 * in order, and nothing is dropped. */
static void test_input_never_drops(void **state)
{
    (void)state;
    host *h = host_new();
    for (int k = 0; k < 1000; k++)
        input_key(&h->in, GLFW_KEY_RIGHT, 0, false);
    assert_int_equal(h->flushes, 1000 / INPUT_QUEUE_MAX);
    host_flush(h);
    assert_int_equal(h->count, 1000);
    for (int k = 0; k < 1000; k++)
        assert_int_equal(h->applied[k].kind, CMD_EVENT_STEP);
    free(h);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_key_bound_twice),
        cmocka_unit_test(test_card_is_the_table),
        cmocka_unit_test(test_keys_and_modifiers),
        cmocka_unit_test(test_presenting_keys),
        cmocka_unit_test(test_repeat_never_skips_beats),
        cmocka_unit_test(test_input_to_commands),
        cmocka_unit_test(test_input_never_drops),
        cmocka_unit_test(test_script_names_ui_scale_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
