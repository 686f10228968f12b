/* viewer_script_replay.c - a script's events replayed in the running
 * viewer (viewer_script.h reads and checks the script before the window
 * opens), and the state line a script's `print` writes. See viewer_core.h. */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "clock.h"
#include "export.h"
#include "quote.h"
#include "viewer_core.h"

/* The state line, the windows' monitors at its end. */
void viewer_print_state(viewer *v)
{
    char more[160 + PPF_ERROR_MAX + 256 + 768 + 512];
    presenter_state(&v->pres, &v->win, more, sizeof more);
    /* the inspection's, before the what-if's whose error stays the line's last key */
    viewer_inspect_state(&v->insp, &v->st, more + strlen(more), sizeof more - strlen(more));
    snprintf(more + strlen(more), sizeof more - strlen(more), " frame_times=%d", v->show_times);
    if (v->cmp) { /* the panes' */
        size_t at = strlen(more);
        more[at++] = ' ';
        viewer_compare_state_line(v->cmp, more + at, sizeof more - at);
    }
    /* the what-if's: the shown session's sizes and build, undo's depth and
     * the sessions it keeps whole, the line, the error last */
    const whatif *w = viewer_shown_whatif(v);
    const session *s = v->st.s;
    int kept = 0;
    for (int k = 0; k < w->undo_count; k++)
        kept += w->undo[k].kept != NULL;
    size_t len = strlen(more);
    snprintf(more + len, sizeof more - len,
             " makespan=%.6f stages=%d microbatches=%d schedule=%s generation=%llu undo=%d "
             "undo_kept=%d line=%d whatif_error=%s",
             s->tl.makespan, s->prog.ranks, s->prog.microbatches, s->prog.schedule,
             (unsigned long long)s->tl.generation, w->undo_count, kept, w->line.open,
             quote_string(w->error).s);
    viewer_state_print_more(&v->st, v->win.win_w, v->win.win_h, more, stdout);
}

/* A script's `frametimes N`: the last N frames' times, and the page
 * faults so far (heap given back and taken again shows there), flushed so
 * that a reader (ppflow bench viewer) sees it at once. */
static void print_frame_times(viewer *v, int n)
{
    const frame_times_summary s = frame_times_last(&v->times, n);
    struct rusage u;
    const long faults = getrusage(RUSAGE_SELF, &u) == 0 ? u.ru_minflt : -1;
    printf("frametimes frames=%d fps=%.2f mean_ms=%.3f median_ms=%.3f worst_ms=%.3f "
           "minor_faults=%ld\n",
           s.count, s.fps, s.mean_ms, s.median_ms, s.worst_ms, faults);
    fflush(stdout);
}

/* A script's `type`: each character of the UTF-8 text (checked when the
 * script was loaded) as a keyboard gives it: the key's press (those of a US
 * layout), then the character from GLFW's char callback; so a script sees
 * that a key typed into the command line does not act as a viewer key. */
static void type_text(viewer *v, const char *text)
{
    const unsigned char *p = (const unsigned char *)text;
    while (*p) {
        unsigned c = *p, n = c < 0x80 ? 0 : c < 0xe0 ? 1 : c < 0xf0 ? 2 : 3;
        unsigned cp = n == 0 ? c : c & (0x3fu >> n);
        for (unsigned k = 1; k <= n && p[k]; k++)
            cp = cp << 6 | (p[k] & 0x3f);
        int mods;
        const int key = viewer_script_key_of_char(cp, &mods);
        if (key)
            input_key(&v->in, key, mods, false);
        input_char(&v->in, cp);
        p += n + 1;
    }
}

/* A script's `timeline PATH`: the shown timeline as `ppflow schedule
 * --format json` writes it. */
static void write_timeline(viewer *v, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        ppf_print(stderr, "timeline not written: cannot open %s", quote_path(path).s);
        return;
    }
    export_timeline_json_beats(&v->st.s->tl, &v->st.s->beats, f);
    if (fclose(f) != 0)
        ppf_print(stderr, "timeline not written: %s", quote_path(path).s);
}

/* Replays script events (checked when the script was loaded) until one asks
 * to draw frames; false at the end of the script. */
bool viewer_script_step(viewer *v)
{
    while (v->wait_frames == 0 && !v->st.quit) {
        if (v->script_next >= v->script.count)
            return false;
        const viewer_script_event *e = &v->script.events[v->script_next++];
        double x = e->x, y = e->y;
        window_to_fb(&v->win, &x, &y);
        switch (e->verb) {
        case VIEWER_SCRIPT_KEY: {
            /* and the character it types, as a window reports both */
            input_key(&v->in, e->key, e->mods, e->repeat);
            const unsigned c = viewer_script_char_of_key(e->key, e->mods);
            if (c)
                input_char(&v->in, c);
            break;
        }
        case VIEWER_SCRIPT_TYPE:
            type_text(v, e->path);
            break;
        case VIEWER_SCRIPT_TIMELINE:
            viewer_apply_queue(v, clock_now_seconds()); /* the timeline after the events above */
            write_timeline(v, e->path);
            break;
        case VIEWER_SCRIPT_DOWN:
        case VIEWER_SCRIPT_UP:
            input_move(&v->in, x, y);
            input_button_mods(&v->in, e->button, e->verb == VIEWER_SCRIPT_DOWN, e->mods);
            break;
        case VIEWER_SCRIPT_MOVE:
            input_move(&v->in, x, y);
            break;
        case VIEWER_SCRIPT_SCROLL:
            input_scroll(&v->in, e->y, e->mods);
            break;
        case VIEWER_SCRIPT_FRAMES:
            v->wait_frames = e->frames;
            break;
        case VIEWER_SCRIPT_SCREENSHOT:
            /* Saved after the next frame, which shows what the events so far asked for. */
            v->screenshot_path = e->path;
            v->screenshot_pending = true;
            v->wait_frames = 1;
            break;
        case VIEWER_SCRIPT_PRESENTER_SCREENSHOT:
            v->pres_shot = e->path;
            v->wait_frames = 1;
            break;
        case VIEWER_SCRIPT_PRINT:
            viewer_apply_queue(v, clock_now_seconds()); /* the state after the events above */
            viewer_print_state(v);
            break;
        case VIEWER_SCRIPT_FRAME_TIMES:
            print_frame_times(v, e->frames);
            break;
        case VIEWER_SCRIPT_QUIT:
            v->st.quit = true;
            break;
        }
    }
    return true;
}
