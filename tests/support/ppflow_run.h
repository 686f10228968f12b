/* ppflow_run.h - what a test that runs the built ppflow program, as its
 * user does, includes: the checks (check.h), child processes (child.h), a
 * scratch directory (scratch.h) and the clock (clock.h), and the program's
 * path, PPFLOW_EXE, which tests/CMakeLists.txt defines for such a test.
 *
 * What it does not do: hold the scratch directory (each test program owns
 * one, from scratch_setup) or decide what a run must print (the test's own
 * expectations, with child_expect_status and child_expect_one_line).
 *
 * Use:
 *     static char scratch[256];
 *     child_result r = PPFLOW_RUN(scratch, "schedule", "--format", "json");
 *     child_expect_status(&r, 0);
 *     child_result_deinit(&r);
 */
#ifndef PPFLOW_TEST_PPFLOW_RUN_H
#define PPFLOW_TEST_PPFLOW_RUN_H

#include "check.h"
#include "child.h"
#include "clock.h"
#include "scratch.h"

#ifndef PPFLOW_EXE
#error "PPFLOW_EXE must name the ppflow program (tests/CMakeLists.txt defines it)"
#endif

/* Runs ppflow with the arguments written in place, its outputs captured in
 * the directory dir; returns the child_result (free it). */
#define PPFLOW_RUN(dir, ...)                                                                       \
    child_run(                                                                                     \
        &(child_desc){.exe = PPFLOW_EXE, .args = CHILD_ARGS(__VA_ARGS__), .capture_dir = (dir)})

#endif
