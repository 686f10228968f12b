/* test_bench.c - `ppflow bench`, which is not a test but must not rot:
 *   - the bars' judgments on fixed inputs (bench_verdict.h): each bar met at
 *     its edge and missed just past it, the GPU's tighter bars only on a
 *     GPU's renderer, a row without bars shown as "-";
 *   - each benchmark run once (--repeat 1) as a user runs it, within a time
 *     limit: exit status 0 and every row it promises printed. The export and
 *     viewer benchmarks run in the release build only (a sanitizer build
 *     skips them, saying so: they time whole ppflow processes and ffmpeg,
 *     minutes under AddressSanitizer, and the others already run the code
 *     they measure); the viewer's needs Xvfb (tools/deps.sh installs it).
 * PPFLOW_EXE is the program. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_verdict.h"
#include "support/ppflow_run.h"
#include "support/spawn.h"

#define BENCH_SECONDS 240.0 /* one benchmark's run, at the most */

static char scratch[256];

/* ---- the judgments ---------------------------------------------------------------- */

static void test_renderers(void **state)
{
    (void)state;
    assert_true(bench_cpu_renderer("llvmpipe (LLVM 15.0.6, 256 bits)"));
    assert_true(bench_cpu_renderer("softpipe"));
    assert_true(bench_cpu_renderer("Mesa swrast"));
    assert_false(bench_cpu_renderer("NVIDIA H100 80GB HBM3/PCIe/SSE2"));
    assert_false(bench_cpu_renderer("AMD Radeon Graphics (radeonsi, renoir, LLVM 15.0.6)"));
    assert_false(bench_cpu_renderer(""));
}

static void test_viewer_bars(void **state)
{
    (void)state;
    char bar[96];
    const bench_bars fps_only = {60, 0, 0};
    assert_string_equal(bench_judge_viewer(&fps_only, 60, 9, 9999, bar, sizeof bar), "met");
    assert_string_equal(bar, ">= 60 fps");
    assert_string_equal(bench_judge_viewer(&fps_only, 59.99, 0, 0, bar, sizeof bar), "missed");

    const bench_bars all = {30, 1, 300};
    assert_string_equal(bench_judge_viewer(&all, 31, 0.99, 299, bar, sizeof bar), "met");
    assert_string_equal(bar, ">= 30 fps, opens < 1 s, < 300 MB");
    assert_string_equal(bench_judge_viewer(&all, 31, 1.0, 299, bar, sizeof bar), "missed");
    assert_string_equal(bench_judge_viewer(&all, 31, 0.99, 300, bar, sizeof bar), "missed");
    assert_string_equal(bench_judge_viewer(&all, 29, 0.5, 100, bar, sizeof bar), "missed");

    const bench_bars open_only = {0, 2, 0};
    assert_string_equal(bench_judge_viewer(&open_only, 0, 1.9, 0, bar, sizeof bar), "met");
    assert_string_equal(bar, "opens < 2 s");

    const bench_bars none = {0, 0, 0};
    assert_string_equal(bench_judge_viewer(&none, 1, 100, 1e6, bar, sizeof bar), "-");
    assert_string_equal(bar, "-");
}

static void test_other_bars(void **state)
{
    (void)state;
    /* heap: no brk at all, under one fault a frame */
    assert_true(bench_heap_met(0, 0.99));
    assert_false(bench_heap_met(0, 1));
    assert_false(bench_heap_met(0.01, 0));
    /* export: the case's bar on a CPU renderer or an unknown one, 1.10 on a GPU's */
    assert_near(bench_export_bar(1.25, "llvmpipe (LLVM 15.0.6, 256 bits)"), 1.25, 0);
    assert_near(bench_export_bar(1.25, ""), 1.25, 0);
    assert_near(bench_export_bar(1.25, "NVIDIA H100"), BENCH_EXPORT_GPU_BAR, 0);
    assert_near(bench_export_bar(1.05, "NVIDIA H100"), 1.05, 0); /* never looser */
    assert_string_equal(bench_judge_ratio(12.5, 10, 1.25), "bar met");
    assert_string_equal(bench_judge_ratio(12.6, 10, 1.25), "bar missed");
    assert_string_equal(bench_judge_ratio(1, 0, 1.25), "bar missed"); /* no bare time */
    /* the 4K row: judged on a GPU only */
    assert_string_equal(bench_judge_uhd("llvmpipe", 1000), "not judged, a CPU renderer");
    assert_string_equal(bench_judge_uhd("NVIDIA H100", BENCH_UHD_GPU_FPS), "met");
    assert_string_equal(bench_judge_uhd("NVIDIA H100", BENCH_UHD_GPU_FPS - 0.1), "missed");
    /* a what-if's rebuild within a frame at 60 Hz */
    assert_true(bench_rebuild_met(BENCH_REBUILD_FRAME_MS));
    assert_false(bench_rebuild_met(BENCH_REBUILD_FRAME_MS + 0.01));
}

/* ---- each benchmark once ---------------------------------------------------------- */

/* `ppflow bench NAME --repeat 1`: exit status 0, and each of rows[] in its
 * standard output. */
static void run_bench(const char *name, const char *const *rows)
{
    const child_desc d = {.exe = PPFLOW_EXE,
                          .args = CHILD_ARGS("bench", name, "--repeat", "1"),
                          .capture_dir = scratch};
    const double t0 = now_seconds();
    child_result r = child_wait_bounded(child_start(&d), &d, BENCH_SECONDS, name);
    print_message("ppflow bench %s --repeat 1: %.1f s\n", name, now_seconds() - t0);
    if (r.status != 0)
        fail_msg("ppflow bench %s: exit status %d (signal %d); stderr:\n%.2000s", name, r.status,
                 r.signal, r.err);
    for (int k = 0; rows[k]; k++)
        if (!strstr(r.out, rows[k]))
            fail_msg("ppflow bench %s printed no row with \"%s\":\n%.4000s", name, rows[k], r.out);
    child_result_deinit(&r);
}

#define ROWS(...) ((const char *const[]){__VA_ARGS__, NULL})

static void test_model_benches(void **state)
{
    (void)state;
    run_bench("schedule", ROWS("gpipe", "1f1b", "zbv", "dualpipev"));
    run_bench("palette", ROWS("diagram", "noise"));
    run_bench("rebuild", ROWS("P=16 M=64 D=8", "P=64 M=512 D=8", "16 ms bar"));
    run_bench("render", ROWS("renderer: ", "default scenario at 3840x2160", "bar with a GPU"));
}

static bool sanitized(void)
{
#ifdef __SANITIZE_ADDRESS__
    return true;
#else
    return false;
#endif
}

static void test_export_bench(void **state)
{
    (void)state;
    if (sanitized()) {
        print_message("test_bench: SKIPPED: bench export times whole processes, not run under "
                      "AddressSanitizer\n");
        skip();
    }
    run_bench("export", ROWS("default scenario", "notebook (gpipe D=2 P=3 M=12)", "bar"));
}

static void test_viewer_bench(void **state)
{
    (void)state;
    if (sanitized()) {
        print_message("test_bench: SKIPPED: bench viewer times whole processes, not run under "
                      "AddressSanitizer\n");
        skip();
    }
    if (!spawn_on_path("Xvfb") || !spawn_on_path("strace"))
        skip_for_missing_tool("test_bench: bench viewer needs Xvfb and strace (tools/deps.sh "
                              "installs them)");
    unsetenv("DISPLAY"); /* an Xvfb of its own, as on CI */
    run_bench("viewer", ROWS("1920x1080", "D=8 P=16 M=64", "D=8 P=64 M=512", "D=8 P=256 M=4096",
                             "heap per frame"));
}

static int setup(void **state)
{
    return scratch_setup(state, scratch, sizeof scratch, "ppflow_test_bench");
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_renderers),    cmocka_unit_test(test_viewer_bars),
        cmocka_unit_test(test_other_bars),   cmocka_unit_test(test_model_benches),
        cmocka_unit_test(test_export_bench), cmocka_unit_test(test_viewer_bench),
    };
    return cmocka_run_group_tests(tests, setup, scratch_teardown);
}
