/* fuzz_talk.c - libFuzzer target: arbitrary bytes as a talk file.
 *
 * The bytes are read as a talk (core/scenario/talk_file.h) with no file of its own: a
 * text that is refused must say why on one printable line and leave the
 * talk zeroed; one that is read has at least one slide, its texts valid
 * UTF-8 with no control character (fuzz_support.h), its slides' total
 * goes through the budget as the window's and per-beat export's does
 * (talk_file_check_budget, with the scenes or without): refused on one line, or
 * accepted with every slide counted and the sum within every limit; and
 * each slide's scenario is built and checked as fuzz_scenario checks one
 * (fuzz_support.h; the first few slides, to bound the time per input). A "base" or
 * "scenario" path is read relative to the fuzzer's working directory, read
 * only, as a file that a file names (file_read.h): every other input
 * (chosen by a hash of its bytes, so that a seed stays a plain talk) is
 * read confined, so the component walk sees the names the fuzzer makes up
 * and messages from the files it reaches come concealed. CSV schedules are
 * skipped as in fuzz_scenario (the total reads them, by the same rules). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "budget.h"
#include "talk_file.h"

#include "fuzz_support.h"

enum { FUZZ_TALK_SLIDES = 3 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    talk_file t;
    ppf_error err = {0};
    const bool confine = fuzz_hash(data, size) & 1;
    if (!talk_file_parse_json(&t, (const char *)data, size, NULL, confine, &err)) {
        fuzz_check_message(&err);
        if (t.count != 0 || t.slides != NULL)
            __builtin_trap();
        return 0;
    }
    if (t.count < 1 || t.count > TALK_SLIDES_MAX)
        __builtin_trap();
    /* what it read is valid text: the talk's and each slide's */
    fuzz_check_text(t.title, strlen(t.title), FUZZ_TEXT_UTF8, "the talk's title");
    for (int k = 0; k < t.count; k++) {
        fuzz_check_text(t.slides[k].title, strlen(t.slides[k].title), FUZZ_TEXT_UTF8,
                        "a slide's title");
        fuzz_check_text(t.slides[k].notes, strlen(t.slides[k].notes), FUZZ_TEXT_UTF8,
                        "a slide's notes");
        fuzz_check_scenario_text(&t.slides[k].sc);
    }
    const bool with_scene = (fuzz_hash(data, size) >> 1) & 1; /* another bit than confine's */
    ppf_error budget_err = {0};
    if (!talk_file_check_budget(&t, with_scene, NULL, &budget_err)) {
        fuzz_check_message(&budget_err);
    } else {
        budget_cost sum = {0};
        for (int k = 0; k < t.count; k++) {
            budget_cost c;
            if (!scenario_cost(&t.slides[k].sc, with_scene, &c, &budget_err))
                FUZZ_FAIL("slides[%d] counted in the total, then not: %s", k, budget_err.message);
            budget_cost_add(&sum, &c);
        }
        if (!budget_cost_fits(&sum))
            FUZZ_FAIL("a talk over the budget accepted: %g actions, %g pairs, %g objects",
                      sum.actions, sum.pairs, sum.objects);
    }
    for (int k = 0; k < t.count && k < FUZZ_TALK_SLIDES; k++)
        fuzz_run_scenario(&t.slides[k].sc, fuzz_hash(data, size) + (unsigned)k);
    talk_file_deinit(&t);
    return 0;
}
