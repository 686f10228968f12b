/* fuzz_scenario.c - libFuzzer target: arbitrary bytes as a scenario file.
 *
 * The bytes are applied as JSON over the built-in default scenario. A text
 * that does not parse must leave the scenario as it was and say why on one
 * printable line (invalid UTF-8 in any field included: scenario_json.c's
 * walk refuses it); one that parses holds only valid text
 * (fuzz_check_scenario_text) and is built (the budget in core/scenario/budget.h
 * decides what is too big), simulated, exported in every format, reported
 * and laid out as a scene (fuzz_support.h), exactly as `ppflow` would. The
 * report's width and colour and the caption's rank come from a hash of the
 * bytes, so every seed stays a plain scenario file. CSV schedules are
 * skipped: their path comes from the input and could name any file. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "scenario.h"

#include "fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    scenario sc, before;
    scenario_init(&sc);
    before = sc;
    ppf_error err = {0};
    if (!scenario_parse_json(&sc, (const char *)data, size, &err)) {
        fuzz_check_message(&err);
        /* Applied whole or not at all (scenario.h). */
        if (memcmp(&sc, &before, sizeof sc) != 0)
            __builtin_trap();
        scenario_deinit(&sc);
        return 0;
    }
    fuzz_check_scenario_text(&sc);
    fuzz_run_scenario(&sc, fuzz_hash(data, size));
    scenario_deinit(&sc);
    return 0;
}
