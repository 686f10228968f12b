/* deck.h - what a ppflow run presents: one built session per slide. A talk
 * file (talk.h) gives several slides; a scenario file, or none, gives a
 * deck of one. The viewer moves through the slides (Next past a slide's
 * last beat shows the next slide's first beat) and an export may take them
 * all (`session *const *slides, int slide_count`).
 *
 * Every slide is built whole up front, scene included when asked: a bad
 * slide is bad input found before any window opens or file is written,
 * and changing slides in a lecture costs no simulation.
 *
 * What it does not do: no drawing, no window; the per-slide notes and
 * camera are carried for the viewer and the presenter window, not applied.
 *
 * Call order:
 *     deck d;
 *     if (!deck_build(&d, &(deck_desc){.path = path_or_NULL, .flags = flags, .flag_count = n,
 *                                      .with_scene = true}, &err)) { one line, exit 2 }
 *     ... d.slides[k] (a session), d.info[k].title, .notes, .camera ...
 *     deck_deinit(&d);
 *
 * Errors: one line. A talk's own errors as talk.h words them; a slide that
 * fails to build (a deadlock, over the budget, a beat's "after" naming no
 * action, an unknown camera) starts with the talk's path and the slide
 * ("talk.json: slides[2]: ..."); a bad command-line flag is worded as for
 * a scenario. A failed build leaves the deck zeroed.
 */
#ifndef PPFLOW_DECK_H
#define PPFLOW_DECK_H

#include <stdbool.h>

#include "camera.h"
#include "error.h"
#include "session.h"
#include "talk.h"

typedef struct deck_slide {
    char title[TALK_TITLE_MAX]; /* the slide's title; "" = none given */
    char notes[BEAT_NOTES_MAX]; /* the lecturer's notes for the slide; "" = none */
    bool has_camera;            /* the slide sets the camera when it is shown */
    camera_preset camera;
} deck_slide;

typedef struct deck {
    session **slides;           /* [count], each built (and its scene, when asked); not movable */
    deck_slide *info;           /* [count] */
    int count;                  /* at least 1 once built */
    bool is_talk;               /* built from a talk file */
    char title[TALK_TITLE_MAX]; /* the talk's title; "" = none */
} deck;

/* What a command line gives a deck; zero is the built-in default scenario. */
typedef struct deck_desc {
    const char *path;          /* a talk or a scenario file; NULL: the built-in default */
    const session_flag *flags; /* the scenario flags, applied to every slide in order */
    int flag_count;
    bool with_scene; /* build the 3D scenes too (something will be drawn) */
    bool confine;    /* --confine: the files the file names stay in its folder (file_read.h) */
} deck_desc;

/* The talk at path (talk_file_detect), else the scenario at path (NULL:
 * the built-in default) as a deck of one; each slide with the command-line
 * flags applied on top, in order, then built (scene too when with_scene). */
bool deck_build(deck *d, const deck_desc *desc, ppf_error *err);
/* The slide's title as a window or a HUD shows it: its own, else the
 * session's ("1F1B   P=4 ..."). */
const char *deck_slide_title(const deck *d, int k);
void deck_deinit(deck *d); /* accepts a zeroed or deinited deck */

#endif
