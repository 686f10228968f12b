/* presenter_view.h - the presenter window's page: what the lecturer reads
 * from a step away while the audience sees the frame.
 *
 * The page, at any window size:
 *     +--------------------------------------------------------------+
 *     | beat 4/9              0:03:25                         14:05  |  top bar
 *     +----------------------------------+---------------------------+
 *     | steady state: one forward,       | now                       |
 *     | one backward                     | [the audience's frame,    |
 *     | caption                          |  small, laser dot too]    |
 *     | notes, wrapped at the column's   | next · beat 5: cool-down  |
 *     | width, newlines kept ...         | [the next beat's end]     |
 *     +----------------------------------+---------------------------+
 * The left column is the text (the beat's title, caption and notes), the
 * right one two previews of the audience's aspect, stacked: the frame the
 * audience sees now and the next beat's end state. The previews are
 * frames (frame.h) that the caller draws into presenter_layout.now and
 * .next after presenter_view_draw, with a frame renderer made in the
 * presenter window's context; this module draws everything else and leaves
 * those two rectangles for them (a placeholder when there is no next beat).
 *
 * Text sizes follow the window's height, large enough to read a step away:
 * the notes' capitals are about 1/33 of the height (22 px at 720), the title
 * 1/22, the clocks 1/19, times the UI scale.
 *
 * What it does not do: no clock (the caller writes the times), no input, no
 * state besides GPU resources and the font's sizes; no frames (the caller's
 * frame renderer draws the previews).
 *
 * Call order (the presenter window's context current):
 *     presenter_view pv; presenter_view_init(&pv, &err);
 *     each frame: presenter_layout l = presenter_layout_compute(fb_w, fb_h, aspect, ui);
 *                 presenter_view_draw(&pv, &l, &page, fb_w, fb_h);
 *                 frame_renderer_draw(... viewport l.now ...), (... l.next ...)
 *     presenter_view_deinit(&pv);
 *
 * Errors: init returns false with one line (shader log, no font).
 */
#ifndef PPFLOW_PRESENTER_VIEW_H
#define PPFLOW_PRESENTER_VIEW_H

#include <stdbool.h>

#include "draw2d.h"
#include "error.h"
#include "frame.h"
#include "text.h"
#include "theme.h"

/* The page's font sizes (indices into the view's font). */
enum { PRESENTER_FONT_BODY = 0, PRESENTER_FONT_TITLE = 1, PRESENTER_FONT_CLOCK = 2 };

/* Where the page's parts go, pixels of the presenter's framebuffer (origin
 * top-left, y down). Pure: tests and the caller compute it alike. */
typedef struct presenter_layout {
    int width, height;               /* the framebuffer */
    float margin;                    /* around and between the parts */
    float bar_y0, bar_y1;            /* the top bar */
    frame_rect text;                 /* the left column: title, caption, notes */
    frame_viewport now, next;        /* the previews, the audience's aspect */
    float now_label_y, next_label_y; /* baselines of the previews' labels */
    int body_px, title_px, clock_px; /* text sizes (em) */
} presenter_layout;

/* What the page says; strings are UTF-8, "" or NULL for none. */
typedef struct presenter_page {
    theme_id theme;
    const char *beat;       /* "beat 4/9" */
    const char *title;      /* the beat's title */
    const char *caption;    /* the beat's caption */
    const char *notes;      /* the lecturer's notes; newlines start new lines */
    const char *now_label;  /* over the "now" preview: "now", "now · screen black" */
    const char *next_label; /* over the "next" preview: "next · beat 5: cool-down" */
    bool has_next;          /* false: no preview goes into layout.next; a placeholder does */
    const char *no_next;    /* the placeholder's word ("the end", "next slide"); NULL: the end */
    const char *elapsed;    /* "0:03:25", or "0:00:00" before the first advance */
    bool elapsed_running;   /* false: the elapsed clock is drawn dim (not started) */
    const char *wall;       /* the time of day, "14:05" */
} presenter_page;

typedef struct presenter_view {
    draw2d batch;
    text_font font;
    bool ready;
} presenter_view;

/* The layout for a framebuffer of fb_w x fb_h, previews of aspect
 * `aspect` (width / height of the audience's frame; <= 0: 16:9), text
 * times ui_scale (0: 1). */
presenter_layout presenter_layout_compute(int fb_w, int fb_h, float aspect, float ui_scale);

/* Needs the presenter window's context current (its own vertex arrays). */
bool presenter_view_init(presenter_view *pv, ppf_error *err);
void presenter_view_deinit(presenter_view *pv); /* accepts a zeroed or deinited view */

/* Clears the framebuffer and draws the page around the previews' rectangles. */
void presenter_view_draw(presenter_view *pv, const presenter_layout *l, const presenter_page *pg,
                         int fb_w, int fb_h);

#endif
