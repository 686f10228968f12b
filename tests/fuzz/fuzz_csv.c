/* fuzz_csv.c - libFuzzer target: arbitrary bytes as a PyTorch schedule CSV.
 *
 * The bytes are parsed; a program that parses and is small is simulated with
 * the default costs and two data-parallel replicas (so the all-reduce path
 * runs too). A program that cannot finish must be reported as a deadlock,
 * never hang or crash; every error must be one non-empty printable line. */
#include <stddef.h>
#include <stdint.h>

#include "csv.h"
#include "timeline.h"

#include "fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    program prog;
    ppf_error err = {0};
    if (!csv_parse((const char *)data, size, "fuzz", &prog, &err)) {
        fuzz_check_message(&err);
        return 0;
    }
    if (prog.ranks <= 256 && program_action_count(&prog) <= 20000) {
        timeline_costs costs;
        timeline_costs_init(&costs, prog.ranks);
        costs.dp = 2;
        costs.allreduce = (allreduce_cost){.mode = ALLREDUCE_TIME, .time = 0.5};
        timeline tl;
        if (timeline_simulate(&tl, &prog, &costs, &err)) {
            if (!(tl.makespan >= 0) || tl.bubble_fraction < -1e-9 || tl.bubble_fraction > 1 + 1e-9)
                __builtin_trap();
            timeline_deinit(&tl);
        } else {
            fuzz_check_message(&err);
        }
        timeline_costs_deinit(&costs);
    }
    program_deinit(&prog);
    return 0;
}
