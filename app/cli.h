/* cli.h - the ppflow command line.
 *
 * Commands (a table in cli.c; `ppflow --help` prints it):
 *     ppflow [run] [SCENARIO.json] [scenario flags] [viewer options]
 *         the live viewer (viewer.h)
 *     ppflow render [SCENARIO.json] [scenario flags] [options] -o OUT
 *         an MP4, a GIF, numbered PNGs or one still, with no window
 *         (render_command.h)
 *     ppflow schedule [SCENARIO.json] [scenario flags]
 *                     [--format table|gantt|json|csv|chrome-trace] [-o FILE] [--width N]
 *         print, validate and convert a schedule
 *     ppflow bench NAME [--repeat N]
 *         benchmarks (bench.h)
 *
 * A scenario is built as scenario.h describes: the built-in default, then
 * the SCENARIO.json file when one is given, then every scenario flag in the
 * order given (`--NAME VALUE` or `--NAME=VALUE`, names from
 * scenario_fields(), so --help and the parser cannot disagree).
 *
 * Each command's own options are rows of one table in cli.c (options.h
 * parses them and prints their help); their values go into the command's
 * request, which starts from the defaults of the module that uses it
 * (viewer_options_defaults, render_request_defaults), so a default is
 * written once and --help shows that one.
 *
 * What it does not do: any modelling (core/ does), drawing (report.h), or
 * parsing argv itself (options.h).
 *
 * Errors: one line `ppflow: <message>` on stderr. Exit status (exit_status.h) 0 on success,
 * 2 for bad input (unknown command, flag or format, a missing value, a bad
 * scenario, a scenario over the budget of budget.h, a deadlocking program,
 * an -o path that cannot be created or is refused), 1 for a failure after
 * the input was found good (a full disk, no EGL), 130 when writing an -o
 * file or an export was interrupted (SIGINT, SIGTERM). An -o file is either
 * written completely or not touched (output.h).
 */
#ifndef PPFLOW_CLI_H
#define PPFLOW_CLI_H

/* Runs the program; returns the process exit status. */
int cli_main(int argc, char **argv);

#endif
