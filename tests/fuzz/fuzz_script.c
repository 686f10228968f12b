/* fuzz_script.c - libFuzzer target: arbitrary bytes as a viewer script
 * (ppflow --script FILE, app/viewer_script.h).
 *
 * A script is read whole before any window opens, so every byte of it is
 * input the viewer must survive: the bytes are parsed as a script, and a
 * script that parses must keep every promise of viewer_script.h (each field
 * within its limit, finite numbers, frames adding up to the limit at most,
 * screenshot and timeline paths and typed text not empty and inside the
 * text); one that does not must
 * say why on one printable line. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frame_times.h"
#include "viewer_script.h"

#include "fuzz_support.h"

static void check_event(const viewer_script *sc, const viewer_script_event *e, long *frames)
{
    FUZZ_CHECK(e->line >= 1, e->line, 1);
    switch (e->verb) {
    case VIEWER_SCRIPT_DOWN:
    case VIEWER_SCRIPT_UP:
    case VIEWER_SCRIPT_MOVE:
        FUZZ_CHECK(isfinite(e->x) && fabs(e->x) <= VIEWER_SCRIPT_COORD_MAX, e->x, e->line);
        FUZZ_CHECK(isfinite(e->y) && fabs(e->y) <= VIEWER_SCRIPT_COORD_MAX, e->y, e->line);
        break;
    case VIEWER_SCRIPT_SCROLL:
        FUZZ_CHECK(isfinite(e->y) && fabs(e->y) <= VIEWER_SCRIPT_SCROLL_MAX, e->y, e->line);
        break;
    case VIEWER_SCRIPT_FRAMES:
        FUZZ_CHECK(e->frames >= 1 && e->frames <= VIEWER_SCRIPT_FRAMES_MAX, e->frames, e->line);
        *frames += e->frames;
        break;
    case VIEWER_SCRIPT_FRAME_TIMES: /* a report of frames already drawn: adds none */
        FUZZ_CHECK(e->frames >= 1 && e->frames <= FRAME_TIMES_KEPT, e->frames, e->line);
        break;
    case VIEWER_SCRIPT_SCREENSHOT:
    case VIEWER_SCRIPT_PRESENTER_SCREENSHOT:
        FUZZ_CHECK(e->path && e->path[0] != '\0', e->line, 0);
        FUZZ_CHECK(e->path >= sc->text, e->line, 0);
        *frames += 1;
        break;
    case VIEWER_SCRIPT_TYPE:
    case VIEWER_SCRIPT_TIMELINE:
        /* text to type, or a file to write: not empty, in the script's text */
        FUZZ_CHECK(e->path && e->path[0] != '\0', e->line, 0);
        FUZZ_CHECK(e->path >= sc->text, e->line, 0);
        break;
    case VIEWER_SCRIPT_KEY:
    case VIEWER_SCRIPT_PRINT:
    case VIEWER_SCRIPT_QUIT:
        break;
    default:
        FUZZ_FAIL("event on line %d has verb %d", e->line, (int)e->verb);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    viewer_script sc;
    ppf_error err = {{0}};
    if (!viewer_script_parse(&sc, text, size, "fuzz.script", &err)) {
        fuzz_check_message(&err);
        return 0;
    }
    FUZZ_CHECK(sc.count >= 0 && sc.count <= VIEWER_SCRIPT_EVENTS_MAX, sc.count, 0);
    long frames = 0;
    for (int k = 0; k < sc.count; k++) {
        check_event(&sc, &sc.events[k], &frames);
        if (k > 0)
            FUZZ_CHECK(sc.events[k].line > sc.events[k - 1].line, sc.events[k].line, k);
    }
    FUZZ_CHECK(frames <= VIEWER_SCRIPT_FRAMES_MAX, frames, VIEWER_SCRIPT_FRAMES_MAX);
    viewer_script_deinit(&sc);
    return 0;
}
