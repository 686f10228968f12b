/* cli.c - ppflow's commands: their options (rows for options.h), their
 * help, and the path from a scenario to an output. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "cli.h"
#include "exit_status.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "budget.h"
#include "camera.h"
#include "csv.h"
#include "deck.h"
#include "encoder.h"
#include "error.h"
#include "export.h"
#include "frame.h"
#include "options.h"
#include "output.h"
#include "pdf.h"
#include "per_beat.h"
#include "render_command.h"
#include "report.h"
#include "scenario.h"
#include "schedules.h"
#include "session.h"
#include "svg.h"
#include "theme.h"
#include "timeline.h"
#include "viewer.h"

#ifndef PPFLOW_VERSION /* set by the build from the project version */
#define PPFLOW_VERSION "0.1.0"
#endif

/* ---- output formats ------------------------------------------------------- */

typedef struct format_ctx {
    const timeline *tl;
    const beat_list *beats; /* the session's: json lists them, beats prints them */
    const timeline_costs *costs;
    FILE *f;
    int width;   /* Gantt columns */
    bool colour; /* ANSI colours in the Gantt chart */
    bool dark;   /* svg: the dark theme (--theme dark); else the light one, for print */
} format_ctx;

static bool write_table(const format_ctx *c, ppf_error *err)
{
    (void)err;
    report_table(c->tl, c->costs, c->f);
    return true;
}

static bool write_gantt(const format_ctx *c, ppf_error *err)
{
    (void)err;
    report_gantt(c->tl, c->f, c->width, c->colour);
    return true;
}

static bool write_json(const format_ctx *c, ppf_error *err)
{
    (void)err;
    export_timeline_json_beats(c->tl, c->beats, c->f);
    return true;
}

static bool write_beats(const format_ctx *c, ppf_error *err)
{
    (void)err;
    report_beats(c->beats, c->f);
    return true;
}

static bool write_csv(const format_ctx *c, ppf_error *err)
{
    (void)err;
    csv_write(c->tl->program, c->f);
    return true;
}

static bool write_chrome_trace(const format_ctx *c, ppf_error *err)
{
    (void)err;
    export_chrome_trace(c->tl, c->f);
    return true;
}

static bool write_svg(const format_ctx *c, ppf_error *err)
{
    return svg_write_timeline(c->f, c->tl, &(svg_desc){.dark = c->dark}, err);
}

static bool write_pdf(const format_ctx *c, ppf_error *err)
{
    return pdf_write_timeline(c->f, c->tl, &(svg_desc){.dark = c->dark}, err);
}

typedef struct output_format {
    const char *name;
    bool (*write)(const format_ctx *c, ppf_error *err); /* false: one line in err */
    const char *help;
} output_format;

static const output_format formats[] = {
    {"table", write_table, "per-rank table and metrics with their closed forms"},
    {"gantt", write_gantt,
     "Gantt chart for the terminal (colour when it is one and NO_COLOR is unset)"},
    {"json", write_json, "the simulated timeline: every action, transfer and metric"},
    {"csv", write_csv, "PyTorch's schedule CSV (one row per rank)"},
    {"chrome-trace", write_chrome_trace, "Trace Event JSON for Perfetto or chrome://tracing"},
    {"svg", write_svg,
     "the timeline as a vector figure with real text, alt text and a legend (light theme "
     "unless --theme dark)"},
    {"pdf", write_pdf, "the svg figure as a PDF that keeps its text (needs rsvg-convert)"},
    {"beats", write_beats,
     "the beats (pause points of a talk) as a table: number, time, title, caption; --format json "
     "lists them too, in the form a scenario's \"beats\" takes"},
};

enum { FORMAT_COUNT = sizeof formats / sizeof formats[0] };

static int format_find(const char *name)
{
    for (int k = 0; k < FORMAT_COUNT; k++)
        if (strcmp(formats[k].name, name) == 0)
            return k;
    return -1;
}

static const char *format_name(int k)
{
    return formats[k].name;
}

/* ---- what a command line asks for ------------------------------------------ */

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
} cli_request;

/* A request before any option: the command's defaults. Only the size
 * differs between the window and a recording. */
static cli_request cli_request_defaults(bool render)
{
    cli_request q = {.view = viewer_options_defaults(), .render = render_request_defaults()};
    q.show = render ? q.render.show : q.view.show;
    return q;
}

/* ---- options with their own syntax ------------------------------------------ */

enum { SIDE_MIN = 16, SIDE_MAX = 8192 };

/* "1280x720": each side from SIDE_MIN to SIDE_MAX pixels; into a session_show. */
static bool parse_size(const char *text, void *field, ppf_error *err)
{
    session_show *show = field;
    char *end;
    errno = 0;
    long a = strtol(text, &end, 10);
    long b = -1;
    if (end != text && (*end == 'x' || *end == 'X') && isdigit((unsigned char)end[1])) {
        char *end2;
        b = strtol(end + 1, &end2, 10);
        if (*end2 != '\0')
            b = -1;
    }
    if (errno || !isdigit((unsigned char)text[0]) || a < SIDE_MIN || a > SIDE_MAX || b < SIDE_MIN ||
        b > SIDE_MAX)
        return ppf_fail(err, "--size = \"%.40s\": must be WIDTHxHEIGHT, each from %d to %d", text,
                        SIDE_MIN, SIDE_MAX);
    show->width = (int)a;
    show->height = (int)b;
    return true;
}

static void size_default(char *out, size_t size)
{
    const session_show window = viewer_options_defaults().show;
    const session_show video = render_request_defaults().show;
    snprintf(out, size, "%dx%d; %dx%d for render", window.width, window.height, video.width,
             video.height);
}

/* "T0:T1", "T0:" or ":T1"; into a render_request. Checked against the
 * iteration's length once it is known. */
static bool parse_range(const char *text, void *field, ppf_error *err)
{
    render_request *q = field;
    const char *colon = strchr(text, ':');
    double t[2] = {0, 0};
    bool ok = colon != NULL && strchr(colon + 1, ':') == NULL;
    const char *part[2] = {text, colon ? colon + 1 : NULL};
    size_t len[2] = {colon ? (size_t)(colon - text) : 0, colon ? strlen(colon + 1) : 0};
    for (int k = 0; k < 2 && ok; k++) {
        if (len[k] == 0)
            continue;
        char buf[64];
        if (len[k] >= sizeof buf) {
            ok = false;
            break;
        }
        memcpy(buf, part[k], len[k]);
        buf[len[k]] = '\0';
        char *end;
        errno = 0;
        t[k] = strtod(buf, &end);
        ok = !errno && end != buf && *end == '\0' && isfinite(t[k]) && t[k] >= 0;
    }
    if (!ok)
        return ppf_fail(err,
                        "--range = \"%.40s\": must be T0:T1 in timeline units, each a number from "
                        "0 up (either may be empty)",
                        text);
    q->range_t0 = t[0];
    q->range_t1 = t[1];
    q->has_range_t1 = len[1] > 0;
    return true;
}

/* The rule --speed keeps to, worded once for its help and its messages:
 * the range the viewer's + and - keys reach (session_speed_limits). */
#define SPEED_RULE "from 1/1000 to 1000 times the default"

/* --speed S: any finite number here; its range depends on the scenario
 * (check_show), so that every refused speed, 0 and -1 included, gets the
 * same rule. */
static bool parse_speed(const char *text, void *field, ppf_error *err)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno == ERANGE && v == 0)
        errno = 0; /* an underflow is a tiny speed: refused by its range, later */
    if (errno || end == text || *end != '\0' || !isfinite(v))
        return ppf_fail(
            err, "--speed = \"%.40s\": must be a number of timeline units per second, " SPEED_RULE,
            text);
    *(double *)field = v;
    return true;
}

static void width_default(char *out, size_t size)
{
    snprintf(out, size, "the terminal's, else %d", REPORT_DEFAULT_WIDTH);
}

static void speed_default(char *out, size_t size)
{
    snprintf(out, size, "the iteration in %d s", SESSION_PLAY_SECONDS);
}

static const char *theme_name(int id)
{
    return theme_get((theme_id)id).name;
}

static const char *camera_name(int preset)
{
    return camera_preset_name((camera_preset)preset);
}

/* Choices are stored as an int through the row. */
_Static_assert(sizeof(theme_id) == sizeof(int) && sizeof(camera_preset) == sizeof(int),
               "an enum option is written as an int");

/* ---- the options -------------------------------------------------------------- */

typedef enum option_id {
    OPT_FORMAT,
    OPT_OUTPUT,
    OPT_WIDTH,
    OPT_SIZE,
    OPT_THEME,
    OPT_CAMERA,
    OPT_UI_SCALE,
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
    OPT_COUNT
} option_id;

#define FIELD(name) offsetof(cli_request, name)

static const option_row rows[OPT_COUNT] = {
    [OPT_FORMAT] = {.name = "format",
                    .arg = "FORMAT",
                    .type = OPTION_CHOICE,
                    .field = FIELD(format),
                    .find = format_find,
                    .name_of = format_name,
                    .refused = "unknown format; use table, gantt, json, csv, chrome-trace, svg, "
                               "pdf or beats",
                    .help = "output format: table, gantt, json, csv, chrome-trace, svg, pdf, beats "
                            "(default {default})"},
    [OPT_OUTPUT] = {.name = "output",
                    .short_name = 'o',
                    .arg = "FILE",
                    .type = OPTION_TEXT,
                    .field = FIELD(output),
                    .help = "write to FILE instead of standard output (written whole or not at "
                            "all); for render: OUT.mp4, OUT.gif, frames_%05d.png, or with --still "
                            "FILE.png, or with --per-beat DIR/"},
    [OPT_WIDTH] = {.name = "width",
                   .arg = "N",
                   .type = OPTION_INT,
                   .field = FIELD(width),
                   .min = REPORT_MIN_WIDTH,
                   .max = REPORT_MAX_WIDTH,
                   .unit = "columns",
                   .show_default = width_default,
                   .help = "Gantt chart width in columns (default: {default})"},
    [OPT_SIZE] = {.name = "size",
                  .arg = "WxH",
                  .type = OPTION_CUSTOM,
                  .field = FIELD(show),
                  .parse = parse_size,
                  .show_default = size_default,
                  .help = "window or image size in pixels (default {default})"},
    [OPT_THEME] = {.name = "theme",
                   .arg = "NAME",
                   .type = OPTION_CHOICE,
                   .field = FIELD(show.theme),
                   .find = theme_find,
                   .name_of = theme_name,
                   .refused = "unknown theme; use dark or light",
                   .help = "{default} (default) or light, for projectors"},
    [OPT_CAMERA] = {.name = "camera",
                    .arg = "NAME",
                    .type = OPTION_CHOICE,
                    .field = FIELD(show.camera),
                    .find = camera_preset_find,
                    .name_of = camera_name,
                    .refused = "unknown preset; use default, front, top, side, back, low, "
                               "first-stage, last-stage or replicas",
                    .help = "camera preset: default, front, top, side, back, low, first-stage, "
                            "last-stage, replicas"},
    [OPT_UI_SCALE] = {.name = "ui-scale",
                      .arg = "S",
                      .type = OPTION_NUMBER,
                      .field = FIELD(show.ui_scale),
                      .min = FRAME_UI_SCALE_MIN,
                      .max = FRAME_UI_SCALE_MAX,
                      .help = "text and line widths times S, on top of following the window's "
                              "height (default 1; ctrl+= ctrl+- ctrl+0 in the window)"},
    /* Times past the longest iteration (budget.h) mean nothing; a time past
     * this scenario's iteration is refused once it is known (check_show). */
    [OPT_TIME] = {.name = "time",
                  .arg = "T",
                  .type = OPTION_NUMBER,
                  .field = FIELD(view.time),
                  .min = -BUDGET_MAX_TIME, /* a negative time gets check_show's one rule too */
                  .max = BUDGET_MAX_TIME,
                  .help = "start at time T, within the iteration: 0 to its length (default "
                          "{default})"},
    [OPT_SPEED] = {.name = "speed",
                   .arg = "S",
                   .type = OPTION_CUSTOM,
                   .field = FIELD(show.speed),
                   .parse = parse_speed,
                   .show_default = speed_default,
                   .help = "timeline units per second of playback or video, " SPEED_RULE
                           " (default: {default}; the viewer's + and - keys reach the same range)"},
    [OPT_STILL] = {.name = "still",
                   .arg = "T",
                   .type = OPTION_NUMBER,
                   .field = FIELD(still),
                   .max = BUDGET_MAX_TIME,
                   .help = "draw only the frame at time T, into -o FILE.png"},
    [OPT_SCRIPT] = {.name = "script",
                    .arg = "FILE",
                    .type = OPTION_TEXT,
                    .field = FIELD(view.script),
                    .help = "play input events from FILE (one per line, see README) through the "
                            "same handlers as the mouse and keys"},
    [OPT_PRINT_STATE] = {.name = "print-state",
                         .type = OPTION_SWITCH,
                         .field = FIELD(view.print_state),
                         .help = "on quit, print the final time, speed and camera on standard "
                                 "output"},
    [OPT_PRESENT] = {.name = "present",
                     .type = OPTION_SWITCH,
                     .field = FIELD(view.present),
                     .help = "start presenting: fullscreen, larger text, a clicker's keys move "
                             "between beats (F5 in the window; Esc goes back)"},
    [OPT_SLIDE] = {.name = "slide",
                   .arg = "N",
                   .type = OPTION_INT,
                   .field = FIELD(view.slide),
                   .min = 1,
                   .max = TALK_SLIDES_MAX,
                   .help = "a talk file's slide N (from 1): where the window starts, what "
                           "render and schedule show (default: the first)"},
    [OPT_PRESENTER] = {.name = "presenter",
                       .type = OPTION_SWITCH,
                       .field = FIELD(view.presenter),
                       .help = "open the presenter's window too: the beat's notes, the next "
                               "beat, the clocks (on another monitor when there is one)"},
    /* How many monitors there are is known once the display is open
     * (viewer_run says which there are); 16 is more than any desk has. */
    [OPT_MONITOR] = {.name = "monitor",
                     .arg = "N",
                     .type = OPTION_INT,
                     .field = FIELD(view.monitor),
                     .min = 1,
                     .max = 16,
                     .help = "present on monitor N, counted from 1 (the primary first) "
                             "(default: with --presenter and two monitors, the one that is not "
                             "the primary; else the one the window is on)"},
    [OPT_FPS] = {.name = "fps",
                 .arg = "N",
                 .type = OPTION_INT,
                 .field = FIELD(render.video.fps),
                 .min = 1,
                 .max = ENCODER_MAX_FPS,
                 .help = "frames per second of video (default {default})"},
    [OPT_DURATION] = {.name = "duration",
                      .arg = "SECONDS",
                      .type = OPTION_NUMBER,
                      .field = FIELD(render.duration),
                      .max = BUDGET_MAX_TIME,
                      .positive = true,
                      .unit = "seconds",
                      .help = "seconds of video for the whole range (instead of --speed)"},
    [OPT_RANGE] = {.name = "range",
                   .arg = "T0:T1",
                   .type = OPTION_CUSTOM,
                   .field = FIELD(render),
                   .parse = parse_range,
                   .help = "the part of the iteration to record, in timeline units; either side "
                           "may be empty (default: all of it)"},
    [OPT_CRF] = {.name = "crf",
                 .arg = "N",
                 .type = OPTION_INT,
                 .field = FIELD(render.video.crf),
                 .max = ENCODER_MAX_CRF,
                 .help = "MP4 quality: 0 lossless ... 51 worst (x264's constant rate factor, "
                         "default {default})"},
    [OPT_PRESET] = {.name = "preset",
                    .arg = "NAME",
                    .type = OPTION_TEXT,
                    .field = FIELD(render.video.preset),
                    .valid = encoder_preset_valid,
                    .refused = "unknown x264 preset; use ultrafast, superfast, veryfast, faster, "
                               "fast, medium, slow, slower or veryslow",
                    .help = "x264 preset: ultrafast ... {default} (default) ... medium ... "
                            "veryslow"},
    [OPT_QUIET] = {.name = "quiet",
                   .short_name = 'q',
                   .type = OPTION_SWITCH,
                   .field = FIELD(render.quiet),
                   .help = "no progress line and no summary on stderr"},
    [OPT_PER_BEAT] = {.name = "per-beat",
                      .type = OPTION_SWITCH,
                      .field = FIELD(per_beat),
                      .help = "for PowerPoint: into -o DIR/ one MP4 per beat that ends on it "
                              "(NN-title.mp4), a PNG of each beat and beats.json"},
    [OPT_BEAT] = {.name = "beat",
                  .arg = "N",
                  .type = OPTION_INT,
                  .field = FIELD(beat),
                  .min = 1,
                  .max = 1000000,
                  .help = "with --per-beat (implied): only beat N's MP4 and PNG; beats.json is "
                          "left as it is"},
    [OPT_HELP] = {.name = "help",
                  .short_name = 'h',
                  .type = OPTION_SWITCH,
                  .field = FIELD(help),
                  .help = "show this help"},
};

#undef FIELD

#define OPT_BIT(id) (1u << (id))

static const option_set schedule_options = {rows, OPT_COUNT,
                                            OPT_BIT(OPT_FORMAT) | OPT_BIT(OPT_OUTPUT) |
                                                OPT_BIT(OPT_WIDTH) | OPT_BIT(OPT_THEME) |
                                                OPT_BIT(OPT_SLIDE) | OPT_BIT(OPT_HELP),
                                            "schedule"};
static const option_set run_options = {
    rows, OPT_COUNT,
    OPT_BIT(OPT_SIZE) | OPT_BIT(OPT_THEME) | OPT_BIT(OPT_CAMERA) | OPT_BIT(OPT_UI_SCALE) |
        OPT_BIT(OPT_TIME) | OPT_BIT(OPT_SPEED) | OPT_BIT(OPT_SCRIPT) | OPT_BIT(OPT_PRINT_STATE) |
        OPT_BIT(OPT_PRESENT) | OPT_BIT(OPT_SLIDE) | OPT_BIT(OPT_PRESENTER) | OPT_BIT(OPT_MONITOR) |
        OPT_BIT(OPT_HELP),
    "run"};
static const option_set render_options = {
    rows, OPT_COUNT,
    OPT_BIT(OPT_OUTPUT) | OPT_BIT(OPT_SIZE) | OPT_BIT(OPT_THEME) | OPT_BIT(OPT_CAMERA) |
        OPT_BIT(OPT_UI_SCALE) | OPT_BIT(OPT_STILL) | OPT_BIT(OPT_FPS) | OPT_BIT(OPT_SPEED) |
        OPT_BIT(OPT_DURATION) | OPT_BIT(OPT_RANGE) | OPT_BIT(OPT_CRF) | OPT_BIT(OPT_PRESET) |
        OPT_BIT(OPT_QUIET) | OPT_BIT(OPT_PER_BEAT) | OPT_BIT(OPT_BEAT) | OPT_BIT(OPT_SLIDE) |
        OPT_BIT(OPT_HELP),
    "render"};

/* Parses argv (argv[0] is the command) into *q, from the command's
 * defaults, and *args. Values are checked here as far as their row says;
 * scenario values are checked when they are applied, in order. */
static bool parse_args(const option_set *set, int argc, char **argv, cli_request *q,
                       option_args *args, ppf_error *err)
{
    *q = cli_request_defaults(set == &render_options);
    return options_parse(set, argc, argv, q, args, err);
}

static int fail(int status, const ppf_error *err)
{
    ppf_print(stderr, "%s", err->message[0] ? err->message : "failed");
    return status;
}

/* ---- help ------------------------------------------------------------------ */

static void print_options(FILE *f, const char *title, const option_set *set)
{
    const cli_request defaults = cli_request_defaults(set == &render_options);
    options_print(f, title, set, &defaults);
}

static void print_formats(FILE *f)
{
    fputs("formats:\n", f);
    for (int k = 0; k < FORMAT_COUNT; k++)
        options_print_line(f, formats[k].name, formats[k].help);
}

static void print_schedules(FILE *f)
{
    fputs("schedules:\n", f);
    int n;
    const schedule_info *list = schedule_list(&n);
    for (int k = 0; k < n; k++)
        options_print_line(f, list[k].name, list[k].summary);
    options_print_line(f, "csv:PATH",
                       "a PyTorch schedule CSV (torch.distributed.pipelining _dump_csv)");
}

static const char exit_help[] =
    "exit status: 0 success, 1 write failure after valid input, 2 bad input (a scenario over\n"
    "the limits included), 130 interrupted while writing -o FILE\n";

/* ---- commands -------------------------------------------------------------- */

/* The sections that `ppflow --help` and `ppflow schedule --help` share. */
static void print_schedule_sections(FILE *f)
{
    options_print_scenario(f);
    fputc('\n', f);
    print_options(f, "schedule options", &schedule_options);
    fputc('\n', f);
    print_formats(f);
    fputc('\n', f);
    print_schedules(f);
    fputc('\n', f);
}

static void print_schedule_help(FILE *f)
{
    fputs("usage: ppflow schedule [SCENARIO.json] [options]\n\n"
          "Builds the scenario's pipeline program, simulates it, and prints it in one format.\n\n",
          f);
    print_schedule_sections(f);
    fputs(exit_help, f);
}

static void print_run_help(FILE *f)
{
    fputs("usage: ppflow [run] [SCENARIO.json | TALK.json] [options]\n"
          "       ppflow present [SCENARIO.json | TALK.json] [options]\n\n"
          "Opens the live viewer: the iteration in 3D over its timeline. Press h in the window\n"
          "for the keys. A talk file's slides are shown one after the other (README, \"Talk\n"
          "files\").\n\n",
          f);
    options_print_scenario(f);
    fputc('\n', f);
    print_options(f, "options", &run_options);
    fputc('\n', f);
    print_schedules(f);
    fputc('\n', f);
    fputs(exit_help, f);
}

/* Writes one format to -o FILE or standard output; returns the exit status.
 * The file is opened only now, so bad input never creates or touches it.
 * A big trace takes seconds to write in one call that polls nothing, so
 * SIGINT and SIGTERM delete the temporary and exit 130 from the handler
 * (output_open_guarded). */
static int write_output(const cli_request *q, bool dark, const session *b, ppf_error *err)
{
    output out;
    if (!output_open_guarded(&out, q->output, err))
        return EXIT_STATUS_USAGE;
    const bool to_stdout = output_is_stdout(q->output);
    const format_ctx ctx = {
        .tl = &b->tl,
        .beats = &b->beats,
        .costs = &b->costs,
        .f = out.file,
        .width = q->width    ? q->width
                 : to_stdout ? report_terminal_width(stdout)
                             : REPORT_DEFAULT_WIDTH,
        .colour = to_stdout && report_want_colour(stdout),
        .dark = dark,
    };
    if (!formats[q->format].write(&ctx, err)) {
        output_abort(&out);
        return EXIT_STATUS_IO;
    }
    return output_commit(&out, err) ? EXIT_STATUS_OK : EXIT_STATUS_IO;
}

/* The slide --slide N names (0: the first), from 0; -1 with one line when
 * there is none. Render and schedule show one slide of a talk; the window
 * starts on it. */
static int pick_slide(const deck *d, int slide, ppf_error *err)
{
    if (slide <= d->count)
        return slide > 0 ? slide - 1 : 0;
    if (!d->is_talk)
        ppf_fail(err, "--slide = %d: a scenario is one slide (a talk file has several)", slide);
    else
        ppf_fail(err, "--slide = %d: the talk has %d slide%s", slide, d->count,
                 d->count == 1 ? "" : "s");
    return -1;
}

/* `ppflow schedule`: parse, build, simulate, write one format. */
static int cmd_schedule(int argc, char **argv)
{
    ppf_error err = {{0}};
    cli_request q;
    option_args args = {0};
    deck d = {0};
    int status = EXIT_STATUS_USAGE;
    if (!parse_args(&schedule_options, argc, argv, &q, &args, &err))
        goto done;
    if (q.help) {
        print_schedule_help(stdout);
        status = EXIT_STATUS_OK;
        goto done;
    }
    /* A target that cannot be written is bad input, found before the
     * simulation rather than after it. */
    if (!output_is_stdout(q.output) && !output_probe(q.output, OUTPUT_STREAM, &err))
        goto done;
    /* A converter that is not installed is no fault of the input: exit 1,
     * with what to install, before the simulation. */
    if (strcmp(format_name(q.format), "pdf") == 0 && !pdf_converter_found(&err)) {
        status = EXIT_STATUS_IO;
        goto done;
    }
    /* Default scenario, then the file, then the flags in order; then the
     * program and its simulation. Every failure here is bad input. */
    if (!deck_build(&d, args.scenario_path, args.flags, args.flag_count, false, &err))
        goto done;
    const int slide = pick_slide(&d, q.view.slide, &err);
    if (slide < 0)
        goto done;
    /* Figures are for print: light unless --theme asks for another. */
    const bool dark = (args.given & OPT_BIT(OPT_THEME)) && q.show.theme == THEME_DARK;
    status = write_output(&q, dark, d.slides[slide], &err);
done:
    deck_deinit(&d);
    option_args_deinit(&args);
    return status == EXIT_STATUS_OK ? status : fail(status, &err);
}

/* What can be checked only once the iteration is known: --speed within the
 * session's speed limits and --time within the iteration (refused, not
 * clamped, like --still and --range). */
static bool check_show(const option_args *args, const cli_request *q, const session *b,
                       ppf_error *err)
{
    if (args->given & OPT_BIT(OPT_SPEED)) {
        double lo, hi, v = q->show.speed;
        session_speed_limits(b, &lo, &hi);
        if (!(v >= lo && v <= hi))
            return ppf_fail(err,
                            "--speed = %g: must be from %.4g to %.4g timeline units per second "
                            "for this scenario, " SPEED_RULE " (%.4g)",
                            v, lo, hi, session_default_speed(b));
    }
    if (args->given & OPT_BIT(OPT_TIME) && !(q->view.time >= 0 && q->view.time <= b->tl.makespan))
        return ppf_fail(err, "--time = %g: must be within the iteration, 0 to %g", q->view.time,
                        b->tl.makespan);
    return true;
}

/* Parses and builds every slide, scenes included; on bad input prints one
 * line and returns exit status 2 (before any window opens); on --help
 * prints it and returns 0; else -1 with the deck built and *slide the one
 * --slide names (from 0). */
static int parse_and_build(const option_set *set, int argc, char **argv,
                           void (*print_help)(FILE *f), cli_request *q, option_args *args, deck *d,
                           int *slide)
{
    ppf_error err = {{0}};
    memset(d, 0, sizeof *d);
    if (!parse_args(set, argc, argv, q, args, &err))
        return fail(EXIT_STATUS_USAGE, &err);
    if (q->help) {
        print_help(stdout);
        return EXIT_STATUS_OK;
    }
    /* Both commands draw: a scene over the budget is bad input, found
     * before a window opens or a file is touched. */
    if (!deck_build(d, args->scenario_path, args->flags, args->flag_count, true, &err) ||
        (*slide = pick_slide(d, q->view.slide, &err)) < 0 ||
        !check_show(args, q, d->slides[*slide], &err))
        return fail(EXIT_STATUS_USAGE, &err);
    return -1;
}

/* The live viewer; presenting from the start for `ppflow present`. */
static int run_viewer(int argc, char **argv, bool present)
{
    cli_request q;
    option_args args = {0};
    deck d;
    int slide;
    int status = parse_and_build(&run_options, argc, argv, print_run_help, &q, &args, &d, &slide);
    if (status < 0) {
        q.view.show = q.show;
        q.view.present |= present;
        ppf_error err = {{0}};
        status = viewer_run(&d, &q.view, &err);
        if (status != EXIT_STATUS_OK)
            fail(status, &err);
    }
    deck_deinit(&d);
    option_args_deinit(&args);
    return status;
}

static int cmd_run(int argc, char **argv)
{
    return run_viewer(argc, argv, false);
}

/* `ppflow present TALK.json` is `ppflow --present TALK.json`. */
static int cmd_present(int argc, char **argv)
{
    return run_viewer(argc, argv, true);
}

static void print_render_help(FILE *f)
{
    fputs("usage: ppflow render [SCENARIO.json] [options] -o OUT.mp4 | OUT.gif | FRAMES_%05d.png\n"
          "       ppflow render [SCENARIO.json] [options] --still T -o FILE.png\n"
          "       ppflow render [SCENARIO.json] [options] --per-beat [--beat N] -o DIR/\n\n"
          "Records the iteration with no window (headless EGL): frame i shows time\n"
          "T0 + i * speed / fps, the same picture as --still at that time. MP4 is H.264\n"
          "(yuv420p, BT.709); a GIF has one palette and loops; a pattern writes numbered PNGs\n"
          "from 0. Nothing appears under the output's name until it is complete.\n"
          "--per-beat writes, for beat k, NN-title.mp4 from beat k-1 to beat k whose last\n"
          "frame is --still at beat k, NN-title.png of that frame, and beats.json (the index);\n"
          "DIR is made if its parent exists.\n\n",
          f);
    options_print_scenario(f);
    fputc('\n', f);
    print_options(f, "options", &render_options);
    fputc('\n', f);
    fputs("exit status: 0 success, 1 failure (no EGL, a write error), 2 bad input, 130 "
          "interrupted\n",
          f);
}

/* `render --per-beat` (or --beat N, which implies it): the options that
 * mean one recording or one frame are refused with it, then per_beat.h
 * does the rest with the one session. */
static int render_per_beat(const cli_request *q, const option_args *args, session *const *slides,
                           int slide_count)
{
    static const struct {
        option_id id;
        const char *why;
    } refused[] = {
        {OPT_STILL, "one frame; the PNG of each beat is already written"},
        {OPT_DURATION, "seconds for one recording; give --speed for the clips"},
        {OPT_RANGE, "one part of the iteration; the beats choose the clips' parts"},
    };
    const char *with = args->given & OPT_BIT(OPT_PER_BEAT) ? "--per-beat" : "--beat";
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++)
        if (args->given & OPT_BIT(refused[k].id)) {
            ppf_print(stderr, "--%s: not with %s (it asks for %s)", rows[refused[k].id].name, with,
                      refused[k].why);
            return EXIT_STATUS_USAGE;
        }
    if (!q->output || output_is_stdout(q->output)) {
        ppf_print(stderr, "-o: with %s give the directory to write into (-o DIR/)", with);
        return EXIT_STATUS_USAGE;
    }
    const per_beat_request pq = {
        .dir = q->output,
        .show = q->show,
        .video = q->render.video,
        .beat = q->beat,
        .quiet = q->render.quiet,
    };
    return per_beat_export(slides, slide_count, &pq);
}

static int cmd_render(int argc, char **argv)
{
    cli_request q;
    option_args args = {0};
    deck d;
    int slide;
    int status =
        parse_and_build(&render_options, argc, argv, print_render_help, &q, &args, &d, &slide);
    if (status < 0) {
        session *b = d.slides[slide]; /* a talk renders one slide (--slide) */
        q.render.show = q.show;
        q.render.output = q.output;
        q.render.theme_given = args.given & OPT_BIT(OPT_THEME);
        if (args.given & (OPT_BIT(OPT_PER_BEAT) | OPT_BIT(OPT_BEAT))) {
            /* a talk's every slide, its beats numbered on; one with --slide */
            const bool one = args.given & OPT_BIT(OPT_SLIDE);
            status =
                render_per_beat(&q, &args, one ? &d.slides[slide] : d.slides, one ? 1 : d.count);
        } else {
            status = args.given & OPT_BIT(OPT_STILL) ? render_command_still(b, &q.render, q.still)
                                                     : render_command_export(b, &q.render);
        }
    }
    deck_deinit(&d);
    option_args_deinit(&args);
    return status;
}

typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the command's name */
    const char *synopsis;
    const char *summary;
} cli_command;

static const cli_command commands[] = {
    {"run", cmd_run, "ppflow [run] [SCENARIO.json | TALK.json] [options]",
     "the live viewer: the iteration in 3D, its timeline under it"},
    {"present", cmd_present, "ppflow present [TALK.json | SCENARIO.json] [options]",
     "the live viewer, presenting from the start (same as --present)"},
    {"render", cmd_render,
     "ppflow render [SCENARIO.json] [options] -o OUT.mp4 | OUT.gif | FRAMES_%05d.png | --still T "
     "-o FILE.png | --per-beat -o DIR/",
     "record the iteration, or draw one frame, with no window"},
    {"schedule", cmd_schedule, "ppflow schedule [SCENARIO.json] [options] [--format F] [-o FILE]",
     "print, validate and convert a schedule"},
    {"bench", bench_main, "ppflow bench NAME [--repeat N]",
     "time the schedule generators and the simulator"},
};

enum { COMMAND_COUNT = sizeof commands / sizeof commands[0] };

static void print_main_help(FILE *f)
{
    fputs("ppflow " PPFLOW_VERSION
          " - pipeline-parallel training schedules, simulated and drawn\n\nusage:\n",
          f);
    for (int k = 0; k < COMMAND_COUNT; k++)
        fprintf(f, "  %s\n      %s\n", commands[k].synopsis, commands[k].summary);
    fputs("  ppflow --help | --version\n"
          "\n`ppflow COMMAND --help` shows the options of one command.\n\n",
          f);
    print_schedule_sections(f);
    bench_print_help(f);
    fputc('\n', f);
    fputs(exit_help, f);
}

static const cli_command *command_find(const char *name)
{
    for (int k = 0; k < COMMAND_COUNT; k++)
        if (strcmp(commands[k].name, name) == 0)
            return &commands[k];
    return NULL;
}

int cli_main(int argc, char **argv)
{
    if (argc < 2)
        return cmd_run(argc, argv);
    const char *first = argv[1];
    if (strcmp(first, "--help") == 0 || strcmp(first, "-h") == 0 || strcmp(first, "help") == 0) {
        print_main_help(stdout);
        return EXIT_STATUS_OK;
    }
    if (strcmp(first, "--version") == 0) {
        printf("ppflow %s\n", PPFLOW_VERSION);
        return EXIT_STATUS_OK;
    }
    const cli_command *cmd = command_find(first);
    if (cmd)
        return cmd->run(argc - 1, argv + 1);

    /* No command: `ppflow [SCENARIO.json] [options]` runs. A bare word that
     * names no file is more likely a mistyped command than a scenario. */
    struct stat st;
    if (first[0] != '-' && !strchr(first, '.') && !strchr(first, '/') && stat(first, &st) != 0) {
        ppf_print(stderr,
                  "unknown command \"%.60s\"; commands: run, present, render, schedule, bench (see "
                  "ppflow "
                  "--help)",
                  first);
        return EXIT_STATUS_USAGE;
    }
    return cmd_run(argc, argv);
}
