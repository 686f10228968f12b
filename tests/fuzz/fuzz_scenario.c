/* fuzz_scenario.c - libFuzzer target: arbitrary bytes as a scenario file.
 *
 * The bytes are applied as JSON over the built-in default scenario; when
 * they parse and describe a small generated schedule, the program is built
 * and its costs resolved. Nothing may crash, leak or hang, and every error
 * must be one non-empty printable line. CSV schedules are skipped: their
 * path comes from the input and could name any file on the machine. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "scenario.h"

#include "fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    scenario sc;
    scenario_init(&sc);
    ppf_error err = {0};
    if (!scenario_parse_json(&sc, (const char *)data, size, &err)) {
        fuzz_check_message(&err);
        scenario_deinit(&sc);
        return 0;
    }
    long long v = sc.virtual_stages > 0 ? sc.virtual_stages : 2;
    if (strncmp(sc.schedule, "csv:", 4) != 0 &&
        (long long)sc.stages * v * sc.microbatches <= 4096) {
        program prog;
        timeline_costs costs;
        if (scenario_build(&sc, &prog, &costs, &err)) {
            if (costs.ranks != prog.ranks || costs.dp != sc.dp)
                __builtin_trap();
            timeline_costs_deinit(&costs);
            program_deinit(&prog);
        } else {
            fuzz_check_message(&err);
        }
    }
    scenario_deinit(&sc);
    return 0;
}
