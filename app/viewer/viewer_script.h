/* viewer_script.h - the viewer's scripts (ppflow --script FILE), read and
 * checked whole before any window opens.
 *
 * A script is input events, one per line, with window coordinates as GLFW
 * reports them (viewer.c feeds them to the same handlers as real input):
 *     key NAME [shift|ctrl|alt|repeat ...]
 *                                     a key press: NAME is a..z, 0..9 or a name of
 *                                     viewer_script.c's script_keys (space, left,
 *                                     pagedown, f3, bracketright for ] ..., which
 *                                     an unknown name's error lists); "repeat":
 *                                     the keyboard's repeat of a held key; plus and
 *                                     equal are the same key, "+" with shift
 *                                     and "=" without; question is shift+slash
 *     type TEXT                       the characters of TEXT typed, each as a key
 *                                     press (a US layout's, for ASCII) and then as
 *                                     GLFW's char callback gives it (into the what-if
 *                                     command line when it is open; ":" opens it): the rest
 *                                     of the line after the blanks that follow the
 *                                     verb, blanks inside and at its end kept; keys
 *                                     such as enter, tab and escape are `key` lines
 *     down left|right X Y [shift|ctrl|alt ...]
 *                                     a mouse button pressed at (X, Y), with
 *                                     the modifiers held (shift: an area)
 *     move X Y                        the pointer moved (drags if a button is down)
 *     up left|right X Y [...]         released
 *     scroll DY [shift|ctrl|alt ...]  wheel steps (> 0 is away from the user)
 *     frames N                        draw N frames before the next line
 *     screenshot PATH                 save the window as a PNG (PATH: the rest of
 *                                     the line, spaces inside kept)
 *     frametimes N                    print the last N frames' times (frame_times.h)
 *                                     as one line on stdout, flushed:
 *                                     "frametimes frames=240 fps=61.2 mean_ms=16.34
 *                                     median_ms=16.30 worst_ms=18.10 minor_faults=N"
 *                                     (frames: how many there were, at most N; the
 *                                     process's page faults so far, all threads)
 *     presenter-screenshot PATH       save the presenter's window (--presenter) as
 *                                     a PNG, drawn after the same events; without
 *                                     one, a line on stderr says it was not saved
 *     timeline PATH                   write the timeline shown as `ppflow schedule
 *                                     --format json` writes it (after a what-if
 *                                     change, the new one) to PATH
 *     print                           print the state line (see viewer.h)
 *     quit
 * Words are separated by spaces or tabs; lines starting with '#' (after any
 * blanks) and blank lines are skipped; a line may end in "\r\n".
 *
 * A script is input that may be hostile, so every limit below is bad input,
 * never a silent cut or a clamp:
 *     the file          a regular file (not a folder, a pipe or a device) of at
 *                       most VIEWER_SCRIPT_BYTES_MAX bytes, plain text (no
 *                       control characters but tabs and line ends)
 *     a line            at most VIEWER_SCRIPT_LINE_MAX characters
 *     events            at most VIEWER_SCRIPT_EVENTS_MAX lines that are not
 *                       blank or comments
 *     X, Y              decimal numbers (no nan, inf or hex) with |X|, |Y| <=
 *                       VIEWER_SCRIPT_COORD_MAX
 *     DY                a decimal number with |DY| <= VIEWER_SCRIPT_SCROLL_MAX
 *     N                 digits only, 1 to VIEWER_SCRIPT_FRAMES_MAX, and all the
 *                       frames of a script (a screenshot draws one) add up to at
 *                       most VIEWER_SCRIPT_FRAMES_MAX: a script ends
 *     PATH              not empty
 *     TEXT              not empty, valid UTF-8 (no overlong forms or surrogates)
 *     N of frametimes   digits only, 1 to FRAME_TIMES_KEPT (the frames the
 *                       viewer remembers)
 *     print, quit       nothing after them
 *
 * What it does not do: no window and no GLFW calls (it uses GLFW's key, button
 * and modifier codes only), no replay, no check that a screenshot's folder
 * exists (a screenshot that cannot be saved says so and the script goes on).
 *
 * Call order:
 *     viewer_script sc = {0};
 *     if (!viewer_script_load(&sc, path, &err))   bad input: exit status 2
 *     for (int k = 0; k < sc.count; k++) replay(&sc.events[k]);
 *     viewer_script_deinit(&sc);
 *
 * Errors: viewer_script_load returns false and one line in err:
 * "FILE:LINE: what is wrong (the value and the rule)", or "FILE: ..." for
 * the file as a whole (a folder, unreadable, too big).
 */
#ifndef PPFLOW_VIEWER_SCRIPT_H
#define PPFLOW_VIEWER_SCRIPT_H

#include <stdbool.h>

#include "error.h"

enum {
    VIEWER_SCRIPT_BYTES_MAX = 1 << 20, /* 1 MiB */
    VIEWER_SCRIPT_LINE_MAX = 512,      /* characters, without the line end */
    VIEWER_SCRIPT_EVENTS_MAX = 100000, /* lines that are events */
    VIEWER_SCRIPT_FRAMES_MAX = 100000, /* one frames line, and the script's total */
    VIEWER_SCRIPT_COORD_MAX = 1000000, /* |X|, |Y| in window coordinates */
    VIEWER_SCRIPT_SCROLL_MAX = 100,    /* |DY| in wheel steps */
};

typedef enum viewer_script_verb {
    VIEWER_SCRIPT_KEY,
    VIEWER_SCRIPT_DOWN,
    VIEWER_SCRIPT_UP,
    VIEWER_SCRIPT_MOVE,
    VIEWER_SCRIPT_SCROLL,
    VIEWER_SCRIPT_FRAMES,
    VIEWER_SCRIPT_SCREENSHOT,
    VIEWER_SCRIPT_PRINT,
    VIEWER_SCRIPT_QUIT,
    VIEWER_SCRIPT_PRESENTER_SCREENSHOT,
    VIEWER_SCRIPT_TYPE,        /* path: the text typed */
    VIEWER_SCRIPT_TIMELINE,    /* path: where the timeline's JSON goes */
    VIEWER_SCRIPT_FRAME_TIMES, /* frames: how many of the last frames to sum up */
} viewer_script_verb;

/* One line of a script, checked: every field is within the limits above. */
typedef struct viewer_script_event {
    viewer_script_verb verb;
    int line;         /* 1-based line of the file, for messages */
    int key;          /* KEY: a GLFW_KEY_* code */
    int mods;         /* KEY, SCROLL, DOWN, UP: GLFW_MOD_* bits */
    bool repeat;      /* KEY: the keyboard's repeat of a held key, not a press */
    int button;       /* DOWN, UP: GLFW_MOUSE_BUTTON_LEFT or _RIGHT */
    double x, y;      /* DOWN, UP, MOVE: window coordinates; SCROLL: y is the steps */
    int frames;       /* FRAMES: 1..VIEWER_SCRIPT_FRAMES_MAX; FRAME_TIMES: 1..FRAME_TIMES_KEPT */
    const char *path; /* SCREENSHOT, PRESENTER_SCREENSHOT, TIMELINE: not empty; TYPE: the
                         text; points into the script's text */
} viewer_script_event;

typedef struct viewer_script {
    viewer_script_event *events; /* count events, in file order */
    int count;
    char *text; /* the file's bytes, each line cut in place; paths point here */
} viewer_script;

/* Reads and checks the whole file at path into sc (zeroed or deinited);
 * false with one line in err (and sc left empty) on the first thing wrong. */
bool viewer_script_load(viewer_script *sc, const char *path, ppf_error *err);

/* The same for a script already in memory: text holds size bytes in a
 * malloc'd buffer of at least size + 1 (lines are cut in place), which sc
 * takes over, also on failure; path names it in messages. */
bool viewer_script_parse(viewer_script *sc, char *text, size_t size, const char *path,
                         ppf_error *err);

/* Frees what viewer_script_load kept; accepts a zeroed or deinited script. */
void viewer_script_deinit(viewer_script *sc);

/* The key (and shift, in *mods) that types the character c on a US
 * layout, as GLFW reports the press before the character, for `type`'s
 * replay; 0 for a character no key types (it still arrives as text). */
int viewer_script_key_of_char(unsigned c, int *mods);
/* The other way: the printable ASCII character a key with these modifiers
 * types on a US layout (shift alone, or none), as GLFW then reports it;
 * 0 for none (ctrl or alt held, a key that types nothing). A script's
 * `key colon` opens the what-if line as typing ":" does. */
unsigned viewer_script_char_of_key(int key, int mods);

#endif
