/* talk_file.h - a talk file read: several scenarios, one per slide.
 *
 *   {
 *     "talk": "Pipeline schedules, step by step",   title (optional)
 *     "base": "default.json",     a scenario file, or a scenario object (optional;
 *                                 the built-in default otherwise)
 *     "slides": [
 *       {"title": "GPipe", "notes": "...", "schedule": "gpipe"},
 *       {"title": "1F1B", "schedule": "1f1b", "camera": "top", "beats": [...]},
 *       {"title": "Interleaved", "scenario": "other.json", "virtual": 2}
 *     ],
 *     "description": "free text"
 *   }
 *
 * A slide's scenario is the base, then its "scenario" file, then its own
 * keys, which are exactly a scenario file's keys (scenario.h; read by the
 * same code, scenario_apply_json), besides the slide's "title" (one line),
 * "notes" (for the presenter; may hold newlines) and "camera" (a preset's
 * name, applied when the slide is shown; checked by app/, which knows the
 * presets). Paths (base, scenario, a relative "csv:PATH") are relative to
 * the talk file's folder, and each names a file that must be a regular file
 * (file_read.h's rules for a file another file names: no pipe, device or
 * /proc file). Confined (--confine), each must also resolve inside the
 * folder of the file that names it, and messages quote nothing of the
 * scenario and CSV files it names, only the talk's own text.
 *
 * What it does not do: build programs or timelines (app/talk.h builds a
 * session per slide, command-line flags on top of each), or check camera
 * names. It counts what building them would cost (talk_file_check_budget), for
 * the commands that build every slide at once.
 *
 * Call order:
 *     if (talk_file_detect(path)) {
 *         talk_file t;
 *         if (!talk_file_load(&t, path, confine, &err)) { one line, exit 2 }
 *         ... t.slides[k].sc, .title, .notes, .camera ...
 *         talk_file_deinit(&t);
 *     }
 *
 * Errors: one line starting with the talk file's path and naming the
 * place: "talk.json: slides[2].virtual = 99: must be an integer from 0 to
 * 64", "talk.json: slides = []: a talk needs at least one slide",
 * "talk.json: slides[1]: unknown field \"tilte\" (known: ...)". A failed
 * load leaves the talk zeroed.
 */
#ifndef PPFLOW_TALK_FILE_H
#define PPFLOW_TALK_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "beats.h"
#include "error.h"
#include "scenario.h"

enum {
    TALK_TITLE_MAX = 96, /* bytes with the NUL, like a beat's title */
    TALK_SLIDES_MAX = 100,
};

typedef struct talk_file_slide {
    scenario sc;                  /* base, then the slide's file, then its keys */
    char title[TALK_TITLE_MAX];   /* "" = none given */
    char notes[BEAT_NOTES_MAX];   /* "" = none */
    char camera[BEAT_CAMERA_MAX]; /* a preset's name; "" = keep the camera */
} talk_file_slide;

typedef struct talk_file {
    char title[TALK_TITLE_MAX]; /* "talk"; "" = none given */
    talk_file_slide *slides;    /* [count], at least one */
    int count;
} talk_file;

/* True when the file is a regular file holding a JSON object with a
 * "slides" key: a talk, not a scenario. A file that cannot be read or
 * parsed, or a pipe (read once, as a scenario), is no talk (the scenario
 * reader then says what is wrong with it). */
bool talk_file_detect(const char *path);
/* Reads a talk file (at most 16 MiB) into *t (not initialised); with
 * confine, its references are confined (see above) and the talk file
 * itself must be a regular file. */
bool talk_file_load(talk_file *t, const char *path, bool confine, ppf_error *err);
/* The same from text[0..len) (need not end in NUL); file (may be NULL: the
 * working directory) is where relative paths start and what messages start
 * with. */
bool talk_file_parse_json(talk_file *t, const char *text, size_t len, const char *file,
                          bool confine, ppf_error *err);
void talk_file_deinit(talk_file *t); /* accepts a zeroed or deinited one */

/* What building every slide at once will hold (budget.h, totals): each
 * slide's scenario_cost, their sum against the limits, checked before any
 * slide is built. False with one line: the sum over a limit ("talk.json:
 * 100 slides: 2e9 actions in all (the most, slides[0]: 2e7): at most 2e7
 * for everything one command builds"), or a slide whose cost cannot be
 * counted, as its build would say it ("talk.json: slides[2]: schedule =
 * ..."). A CSV slide met once the sum is over is not read (each is a walk
 * over its file) and the message says how many were not. file (may be
 * NULL) starts the message. */
bool talk_file_check_budget(const talk_file *t, bool with_scene, const char *file, ppf_error *err);

#endif
