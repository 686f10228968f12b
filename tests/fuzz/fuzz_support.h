/* fuzz_support.h - what every ppflow fuzz target checks.
 *
 * Two kinds of check, shared by fuzz_scenario, fuzz_csv and fuzz_options:
 *
 *   fuzz_check_message  a rejection explains itself on one non-empty
 *                       printable line (bad input is an error, never a crash):
 *                       valid UTF-8 that acts on no terminal (fuzz_check_text,
 *                       written apart from core/common/utf8.c and quote.h);
 *   fuzz_run_program    an accepted program goes the whole way a user's
 *                       would: simulate -> JSON timeline, Chrome trace,
 *                       csv_write (read back), report table and Gantt ->
 *                       scene_check_budget -> scene_init -> scene_state_at
 *                       at several times -> scene_caption, and the beats
 *                       (beats_build: the scenario's with the automatic
 *                       ones), its JSON and `--format beats` (valid UTF-8 that
 *                       reads back, text a terminal only shows). Every number
 *                       an exporter writes must be
 *                       finite, the timeline must keep the rules of
 *                       timeline.h, the scene the promises of scene.h and
 *                       the beats those of beats.h.
 *
 * What it does not do: decide what is too big. The budget (core/scenario/budget.h)
 * refuses; the caps below only bound the fuzzer's time per input, where it
 * would otherwise explode under ASan.
 *
 * A broken promise prints what was expected and what came, with the file
 * and line, and aborts: libFuzzer keeps the input as a crash.
 */
#ifndef PPFLOW_FUZZ_SUPPORT_H
#define PPFLOW_FUZZ_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "error.h"
#include "program.h"
#include "scenario.h"
#include "timeline.h"

/* Caps on the fuzzer's own time per input, not on what ppflow accepts (the
 * budget decides that, and every size past it is still fed to the checks
 * that refuse it). Measured with this build (clang -O1, ASan + UBSan +
 * libFuzzer, one core):
 *   - the exporters, their JSON read back with cJSON, the report and the
 *     scene cost about 25 us per action: 0.14 s at 4800 actions, 1.2 s at
 *     48000 (most of it ASan allocations of cJSON reading the exports back);
 *   - building and simulating the largest programs the budget accepts takes
 *     5 to 8 s (zbv P=1000 M=600, 1f1b P=8 M=800000) and 0.8-1 GB: next to
 *     -timeout=10, and a corpus holding a few such inputs would spend its
 *     time on them instead of exploring.
 * The sizes that drive these are the same code paths as small ones (the
 * budget keeps every index far below 2^31), so little is lost. */
enum {
    FUZZ_MAX_WORK = 5000,     /* actions exported, reported and drawn per input */
    FUZZ_MAX_OBJECTS = 50000, /* scene objects of one replica laid out per input */
};
/* Actions (the budget's own count, budget_generated_per_rank x ranks) up to
 * which a generated program is built and simulated: at most about 0.3 s. */
/* A broken promise: the place and what broke, then abort(), which libFuzzer
 * records as a finding. */
#define FUZZ_FAIL(...)                                                                             \
    do {                                                                                           \
        fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                                            \
        fprintf(stderr, __VA_ARGS__);                                                              \
        fputc('\n', stderr);                                                                       \
        abort();                                                                                   \
    } while (0)

/* A promise about a number: prints the expression and both sides. */
#define FUZZ_CHECK(cond, a, b)                                                                     \
    do {                                                                                           \
        if (!(cond))                                                                               \
            FUZZ_FAIL("%s fails: %.17g vs %.17g", #cond, (double)(a), (double)(b));                \
    } while (0)

#define FUZZ_MAX_BUILD 250000.0

/* What the user's picture and terminal look like: the scene's sizes (as
 * session_build_scene passes them) and the report's width and colour. */
typedef struct fuzz_view {
    int layers_per_stage; /* 0 = the scene's default */
    float d_model, d_hidden, batch;
    float stage_gap, replica_gap; /* 0 = none */
    int report_width;             /* passed as is: report_gantt clamps it */
    bool colour;
    unsigned pick;           /* varies the caption's rank and buffer sizes */
    const beat_specs *beats; /* the scenario's beats; NULL: the automatic ones only */
} fuzz_view;

/* What fuzz_check_text asks of a text. */
enum {
    FUZZ_TEXT_UTF8,  /* valid UTF-8, nothing more */
    FUZZ_TEXT_LINE,  /* and nothing a terminal acts on (controls, bidi, U+2028) */
    FUZZ_TEXT_LINES, /* the same, newlines and tabs allowed */
};

/* s[0..len) keeps the rule (FUZZ_TEXT_*); else stops the fuzzer naming
 * what and the offset. */
void fuzz_check_text(const char *s, size_t len, int rule, const char *what);

/* Every rejection explains itself on one non-empty printable line; anything
 * else stops the fuzzer with the input that caused it. */
void fuzz_check_message(const ppf_error *err);

/* The view a scenario asks for, exactly as the app builds it; `pick` from
 * the input's bytes, so that a seed stays a plain scenario file. */
fuzz_view fuzz_view_from_scenario(const scenario *sc, unsigned pick);

/* A hash of the input, for choices that must not change its format. */
unsigned fuzz_hash(const uint8_t *data, size_t size);

/* Every text a scenario reader accepted (its beats' titles, captions,
 * notes, cameras, "after" names) is valid UTF-8 with no control character
 * (a note's newlines and tabs aside): the readers' promise. */
void fuzz_check_scenario_text(const scenario *sc);

/* Simulates the program under the costs and runs everything downstream
 * (see above). The program must be validated; rejections are checked with
 * fuzz_check_message, broken promises abort. */
void fuzz_run_program(const program *prog, const timeline_costs *costs, const fuzz_view *view);

/* Builds the scenario (generated schedules only: a "csv:PATH" could name any
 * file on the machine) and, when it builds, runs fuzz_run_program. */
void fuzz_run_scenario(const scenario *sc, unsigned pick);

#endif
