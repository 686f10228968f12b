/* cli_options.c - the command line's request, option rows and formats.
 * See cli_options.h. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "cli_options.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "budget.h"
#include "camera.h"
#include "csv.h"
#include "export.h"
#include "frame.h"
#include "pdf.h"
#include "per_beat.h"
#include "report.h"
#include "svg.h"
#include "talk_file.h"
#include "theme.h"

/* ---- output formats ------------------------------------------------------- */

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

bool cli_format_write(int format, const format_ctx *c, ppf_error *err)
{
    return formats[format].write(c, err);
}

void cli_print_formats(FILE *f)
{
    fputs("formats:\n", f);
    for (int k = 0; k < FORMAT_COUNT; k++)
        options_print_line(f, formats[k].name, formats[k].help);
}

void cli_print_options(FILE *f, const char *title, const option_set *set)
{
    const cli_request defaults = cli_request_defaults(set == &cli_render_options);
    options_print(f, title, set, &defaults);
}

static int format_find(const char *name)
{
    for (int k = 0; k < FORMAT_COUNT; k++)
        if (strcmp(formats[k].name, name) == 0)
            return k;
    return -1;
}

const char *cli_format_name(int k)
{
    return formats[k].name;
}

/* ---- what a command line asks for ------------------------------------------ */

/* A request before any option: the command's defaults. Only the size
 * differs between the window and a recording. */
cli_request cli_request_defaults(bool render)
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
            err,
            "--speed = \"%.40s\": must be a number of timeline units per second, " CLI_SPEED_RULE,
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

/* --aa: "auto" (0) lets each output choose; a mode m is stored as 1 + m. */
static int aa_find(const char *name)
{
    if (strcmp(name, "auto") == 0)
        return 0;
    for (int m = 0; m < SCENE_AA_MODES; m++)
        if (strcmp(name, scene_aa_name((scene_aa_mode)m)) == 0)
            return 1 + m;
    return -1;
}

static const char *aa_name(int choice)
{
    return choice == 0 ? "auto" : scene_aa_name((scene_aa_mode)(choice - 1));
}

/* Choices are stored as an int through the row. */
_Static_assert(sizeof(theme_id) == sizeof(int) && sizeof(camera_preset) == sizeof(int),
               "an enum option is written as an int");

/* ---- the options -------------------------------------------------------------- */

#define FIELD(name) offsetof(cli_request, name)

const option_row cli_rows[OPT_COUNT] = {
    [OPT_FORMAT] = {.name = "format",
                    .arg = "FORMAT",
                    .type = OPTION_CHOICE,
                    .field = FIELD(format),
                    .find = format_find,
                    .name_of = cli_format_name,
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
    [OPT_AA] = {.name = "aa",
                .arg = "MODE",
                .type = OPTION_CHOICE,
                .field = FIELD(show.aa),
                .find = aa_find,
                .name_of = aa_name,
                .refused = "unknown anti-aliasing; use auto, edge, supersample, msaa or off",
                .help = "anti-aliasing of the 3D view: {default} (default: supersample for "
                        "stills and PNG frames, edge for MP4 and GIF, for the window msaa on a "
                        "GPU and edge on llvmpipe), edge, supersample, msaa or off"},
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
                   .help = "timeline units per second of playback or video, " CLI_SPEED_RULE
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
    [OPT_COMPARE] = {.name = "compare",
                     .arg = "A,B[,C,D]",
                     .type = OPTION_TEXT,
                     .field = FIELD(compare),
                     .help = "compare 2 to 4 schedules (the scenario flags apply to all) or "
                             "scenario files (.json) side by side on one clock; several "
                             "SCENARIO.json files given alone compare too"},
    [OPT_CONFINE] = {.name = "confine",
                     .type = OPTION_SWITCH,
                     .field = FIELD(confine),
                     .help = "for a service: a file that a file names (a talk's base and "
                             "scenarios, csv:PATH) must resolve inside the naming file's folder "
                             "(no absolute path, no .., no symbolic link out), every file read "
                             "must be a regular file, and messages quote nothing of the files "
                             "named (also " CLI_CONFINE_ENV "=1)"},
};

#undef FIELD

const option_set cli_schedule_options = {
    cli_rows, OPT_COUNT,
    OPT_BIT(OPT_FORMAT) | OPT_BIT(OPT_OUTPUT) | OPT_BIT(OPT_WIDTH) | OPT_BIT(OPT_THEME) |
        OPT_BIT(OPT_SLIDE) | OPT_BIT(OPT_HELP) | OPT_BIT(OPT_COMPARE) | OPT_BIT(OPT_CONFINE),
    "schedule", OPTIONS_MAX_PATHS};
const option_set cli_run_options = {
    cli_rows, OPT_COUNT,
    OPT_BIT(OPT_SIZE) | OPT_BIT(OPT_THEME) | OPT_BIT(OPT_CAMERA) | OPT_BIT(OPT_UI_SCALE) |
        OPT_BIT(OPT_AA) | OPT_BIT(OPT_TIME) | OPT_BIT(OPT_SPEED) | OPT_BIT(OPT_SCRIPT) |
        OPT_BIT(OPT_PRINT_STATE) | OPT_BIT(OPT_PRESENT) | OPT_BIT(OPT_SLIDE) |
        OPT_BIT(OPT_PRESENTER) | OPT_BIT(OPT_MONITOR) | OPT_BIT(OPT_HELP) | OPT_BIT(OPT_COMPARE) |
        OPT_BIT(OPT_CONFINE),
    "run", OPTIONS_MAX_PATHS};
const option_set cli_render_options = {
    cli_rows, OPT_COUNT,
    OPT_BIT(OPT_OUTPUT) | OPT_BIT(OPT_SIZE) | OPT_BIT(OPT_THEME) | OPT_BIT(OPT_CAMERA) |
        OPT_BIT(OPT_UI_SCALE) | OPT_BIT(OPT_AA) | OPT_BIT(OPT_STILL) | OPT_BIT(OPT_FPS) |
        OPT_BIT(OPT_SPEED) | OPT_BIT(OPT_DURATION) | OPT_BIT(OPT_RANGE) | OPT_BIT(OPT_CRF) |
        OPT_BIT(OPT_PRESET) | OPT_BIT(OPT_QUIET) | OPT_BIT(OPT_PER_BEAT) | OPT_BIT(OPT_BEAT) |
        OPT_BIT(OPT_SLIDE) | OPT_BIT(OPT_HELP) | OPT_BIT(OPT_COMPARE) | OPT_BIT(OPT_CONFINE),
    "render", OPTIONS_MAX_PATHS};

/* Parses argv (argv[0] is the command) into *q, from the command's
 * defaults, and *args. Values are checked here as far as their row says;
 * scenario values are checked when they are applied, in order. */
bool cli_parse_args(const option_set *set, int argc, char **argv, cli_request *q, option_args *args,
                    ppf_error *err)
{
    *q = cli_request_defaults(set == &cli_render_options);
    if (!options_parse(set, argc, argv, q, args, err))
        return false;
    /* The environment turns it on for a service's every call; nothing
     * turns it off from the command line once the operator set it. */
    const char *env = getenv(CLI_CONFINE_ENV);
    q->confine |= env && env[0] && strcmp(env, "0") != 0;
    return true;
}
