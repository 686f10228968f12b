/* bench.h - `ppflow bench`: how fast the model is on this machine.
 *
 * Benchmarks, not tests: they print timings and check nothing beyond "it
 * ran". Each benchmark is a row of a table in bench.c (name, function, one
 * line of help), so `bench render` and `bench export` can join later:
 *
 *   schedule   every schedule generated and simulated at P=64, M=2048 with
 *              default costs (median and min over --repeat runs, default 7),
 *              then 1f1b at P=256, M=16384 (3 runs)
 *
 * Times come from clock_gettime(CLOCK_MONOTONIC); the header names the CPU
 * (from /proc/cpuinfo when it says).
 *
 * Call order: bench_main(argc, argv) with argv[0] == "bench".
 * Errors: one line `ppflow: <message>` on stderr and exit status 2 for an
 * unknown benchmark or option; 0 otherwise.
 */
#ifndef PPFLOW_BENCH_H
#define PPFLOW_BENCH_H

#include <stdio.h>

/* Runs `ppflow bench ...`; returns the exit status. */
int bench_main(int argc, char **argv);

/* Prints the benchmarks and their options, for --help. */
void bench_print_help(FILE *f);

#endif
