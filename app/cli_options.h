/* cli_options.h - what a ppflow command line can ask for: the request the
 * options write into, the option rows (options.h) and which command takes
 * which, the options with their own syntax (--size, --range, --speed), and
 * the output formats of `ppflow schedule --format`.
 *
 * For: cli.c, which runs the commands. What it does not do: build
 * sessions, open windows or write files (a format writes into the FILE it
 * is given).
 *
 * Call order:
 *     cli_request q; option_args args = {0};
 *     if (!cli_parse_args(&cli_render_options, argc, argv, &q, &args, &err)) exit 2
 *     ... q.show, q.render, args.given & OPT_BIT(OPT_STILL) ...
 *     option_args_deinit(&args);
 *
 * Errors: cli_parse_args returns false with one line naming the option, the
 * value and the rule.
 */
#ifndef PPFLOW_CLI_OPTIONS_H
#define PPFLOW_CLI_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

#include "beats.h"
#include "error.h"
#include "options.h"
#include "render_command.h"
#include "session.h"
#include "timeline.h"
#include "viewer.h"

/* What --speed accepts, said in its messages. */
#define CLI_SPEED_RULE "from 1/1000 to 1000 times the default"

/* Every command's options; the rows below write into it. */
typedef struct cli_request {
    bool help;
    int format;          /* schedule: index in formats[]; 0 is table */
    const char *output;  /* -o FILE; NULL: standard output */
    int width;           /* schedule: Gantt columns; 0: the terminal's, else REPORT_DEFAULT_WIDTH */
    session_show show;   /* run and render: size, theme, camera, speed */
    viewer_options view; /* run: start time, script, --print-state (its show is `show`) */
    render_request render; /* render: fps, crf, preset, duration, range, quiet (its show and
                              output are the ones above) */
    double still;          /* render --still T: the one frame at T, when given */
    bool per_beat;         /* render --per-beat: one clip and still per beat (per_beat.h) */
    int beat;              /* render --beat N: beat N only (implies --per-beat); 0: all */
    const char *compare;   /* --compare A,B[,C,D]: the sides (comparison.h); NULL: none */
    bool confine; /* --confine (or PPFLOW_CONFINE): files named by files stay in their folders */
} cli_request;

/* A request before any option: the command's defaults. Only the size
 * differs between the window and a recording. */
cli_request cli_request_defaults(bool render);

typedef enum option_id {
    OPT_FORMAT,
    OPT_OUTPUT,
    OPT_WIDTH,
    OPT_SIZE,
    OPT_THEME,
    OPT_CAMERA,
    OPT_UI_SCALE,
    OPT_AA,
    OPT_TIME,
    OPT_SPEED,
    OPT_STILL,
    OPT_SCRIPT,
    OPT_PRINT_STATE,
    OPT_PRESENT,
    OPT_SLIDE,
    OPT_PRESENTER,
    OPT_MONITOR,
    OPT_FPS,
    OPT_DURATION,
    OPT_RANGE,
    OPT_CRF,
    OPT_PRESET,
    OPT_QUIET,
    OPT_PER_BEAT,
    OPT_BEAT,
    OPT_HELP,
    OPT_COMPARE,
    OPT_CONFINE,
    OPT_COUNT
} option_id;

#define OPT_BIT(id) (1u << (id))

extern const option_row cli_rows[OPT_COUNT];
extern const option_set cli_schedule_options, cli_run_options, cli_render_options;

/* The environment variable that turns --confine on for every command: set
 * to anything but "" or "0". */
#define CLI_CONFINE_ENV "PPFLOW_CONFINE"

/* Parses argv (argv[0] is the command) into *q, from the command's
 * defaults, and *args. Values are checked here as far as their row says;
 * scenario values are checked when they are applied, in order. q->confine
 * is set by --confine or by CLI_CONFINE_ENV. */
bool cli_parse_args(const option_set *set, int argc, char **argv, cli_request *q, option_args *args,
                    ppf_error *err);
/* The command's options with their defaults, for --help. */
void cli_print_options(FILE *f, const char *title, const option_set *set);

/* What a format writes from (`ppflow schedule --format F`). */
typedef struct format_ctx {
    const timeline *tl;
    const beat_list *beats; /* the session's: json lists them, beats prints them */
    const timeline_costs *costs;
    FILE *f;
    int width;   /* Gantt columns */
    bool colour; /* ANSI colours in the Gantt chart */
    bool dark;   /* svg: the dark theme (--theme dark); else the light one, for print */
} format_ctx;

/* The name of format number k ("table", "json", ...). */
const char *cli_format_name(int k);
/* Writes format number q.format (0: table); false with one line in err. */
bool cli_format_write(int format, const format_ctx *c, ppf_error *err);
/* The formats and what each writes, for --help. */
void cli_print_formats(FILE *f);

#endif
