/* talk.h - what a ppflow run presents: one built session per slide. A talk
 * file (talk_file.h) gives several slides; a scenario file, or none, gives a
 * talk of one. The viewer moves through the slides (Next past a slide's
 * last beat shows the next slide's first beat) and an export may take them
 * all (`session *const *slides, int slide_count`).
 *
 * talk_build builds every slide whole up front, scene included when asked:
 * a bad slide is bad input found before any window opens or file is
 * written, and changing slides in a lecture costs no simulation. Since the
 * slides are held at once, the budget bounds their sum (budget.h, totals):
 * talk_file_check_budget counts every slide from its sizes before the first is
 * simulated. A command that shows one slide (`ppflow schedule`, `ppflow
 * render` but --per-beat) calls talk_build_slide, which builds that slide
 * only and holds it to the budget alone: what a command does not show, it
 * neither builds nor counts (the talk file is still read whole, every
 * slide's fields, flags and camera checked).
 *
 * What it does not do: no drawing, no window; the per-slide notes and
 * camera are carried for the viewer and the presenter window, not applied.
 *
 * Call order:
 *     talk d;
 *     if (!talk_build(&d, &(talk_desc){.path = path_or_NULL, .flags = flags, .flag_count = n,
 *                                      .with_scene = true}, &err)) { one line, exit 2 }
 *     or talk_build_slide(&d, &(talk_desc){...}, slide, &err)
 *     ... d.slides[k] (a session), d.info[k].title, .notes, .camera ...
 *     talk_deinit(&d);
 *
 * Errors: one line. A talk's own errors as talk_file.h words them; a slide that
 * fails to build (a deadlock, over the budget, a beat's "after" naming no
 * action, an unknown camera) starts with the talk's path and the slide
 * ("talk.json: slides[2]: ..."); slides over the budget together name the
 * talk, the sum and the largest slide ("talk.json: 100 slides: 2e9 actions
 * in all (the most, slides[0]: 2e7): at most 2e7 ..."); a bad command-line
 * flag is worded as for a scenario, a --slide past the last as
 * "--slide = 5: the talk has 3 slides". A failed build leaves the talk
 * zeroed.
 */
#ifndef PPFLOW_TALK_H
#define PPFLOW_TALK_H

#include <stdbool.h>

#include "camera.h"
#include "error.h"
#include "session.h"
#include "talk_file.h"

typedef struct talk_slide {
    char title[TALK_TITLE_MAX]; /* the slide's title; "" = none given */
    char notes[BEAT_NOTES_MAX]; /* the lecturer's notes for the slide; "" = none */
    bool has_camera;            /* the slide sets the camera when it is shown */
    camera_preset camera;
} talk_slide;

typedef struct talk {
    session **slides;           /* [count], each built (and its scene, when asked); not movable */
    talk_slide *info;           /* [count] */
    int count;                  /* at least 1 once built */
    int first;                  /* the file's slide slides[0] is, from 0 (talk_build_slide) */
    int talk_count;             /* the file's slides: count, unless one was built of several */
    bool is_talk;               /* built from a talk file */
    char title[TALK_TITLE_MAX]; /* the talk's title; "" = none */
} talk;

/* What a command line gives a talk; zero is the built-in default scenario. */
typedef struct talk_desc {
    const char *path;          /* a talk or a scenario file; NULL: the built-in default */
    const session_flag *flags; /* the scenario flags, applied to every slide in order */
    int flag_count;
    bool with_scene; /* build the 3D scenes too (something will be drawn) */
    bool confine;    /* --confine: the files the file names stay in its folder (file_read.h) */
} talk_desc;

/* The talk at path (talk_file_detect), else the scenario at path (NULL:
 * the built-in default) as a talk of one; each slide with the command-line
 * flags applied on top, in order; the slides' sum checked against the
 * budget; then each built (scene too when with_scene). */
bool talk_build(talk *d, const talk_desc *desc, ppf_error *err);
/* Only the slide --slide N names (slide, from 1; 0: the first) of the talk
 * at desc->path, or the scenario as a talk of one (slide 0 or 1): a talk of
 * one slide, d->first saying which. */
bool talk_build_slide(talk *d, const talk_desc *desc, int slide, ppf_error *err);
/* The index in d->slides of the slide --slide N names (0: the first); -1
 * with one line when there is none. */
int talk_pick_slide(const talk *d, int slide, ppf_error *err);
/* The slide's title as a window or a HUD shows it: its own, else the
 * session's ("1F1B   P=4 ..."). */
const char *talk_slide_title(const talk *d, int k);
void talk_deinit(talk *d); /* accepts a zeroed or deinited talk */

#endif
