/* cli.c - commands, options and the path from a scenario to an output. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "cli.h"
#include "exit_status.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "budget.h"
#include "camera.h"
#include "encoder.h"
#include "render_command.h"
#include "session.h"
#include "theme.h"
#include "viewer.h"
#include "csv.h"
#include "error.h"
#include "export.h"
#include "output.h"
#include "report.h"
#include "scenario.h"
#include "schedules.h"
#include "timeline.h"

#ifndef PPFLOW_VERSION /* set by the build from the project version */
#define PPFLOW_VERSION "0.1.0"
#endif

enum { HELP_WIDTH = 100, HELP_NAME_WIDTH = 24 };

/* ---- command options: one table for the parser and --help ---------------- */

typedef enum option_id {
    OPT_FORMAT,
    OPT_OUTPUT,
    OPT_WIDTH,
    OPT_SIZE,
    OPT_THEME,
    OPT_CAMERA,
    OPT_TIME,
    OPT_SPEED,
    OPT_STILL,
    OPT_SCRIPT,
    OPT_PRINT_STATE,
    OPT_FPS,
    OPT_DURATION,
    OPT_RANGE,
    OPT_CRF,
    OPT_PRESET,
    OPT_QUIET,
    OPT_HELP,
    OPT_COUNT
} option_id;

typedef struct cli_option {
    const char *name; /* long name without dashes */
    char short_name;  /* single-dash letter, or 0 */
    const char *arg;  /* placeholder of the value; NULL for a switch */
    const char *help;
} cli_option;

static const cli_option options[OPT_COUNT] = {
    [OPT_FORMAT] = {"format", 0, "FORMAT",
                    "output format: table, gantt, json, csv, chrome-trace (default table)"},
    [OPT_OUTPUT] = {"output", 'o', "FILE",
                    "write to FILE instead of standard output (written whole or not at all); "
                    "for render: OUT.mp4, OUT.gif, frames_%05d.png, or with --still FILE.png"},
    [OPT_WIDTH] = {"width", 0, "N",
                   "Gantt chart width in columns (default: the terminal's, else 120)"},
    [OPT_SIZE] = {"size", 0, "WxH", "window or image size in pixels (default 1280x720; 1920x1080 for render)"},
    [OPT_THEME] = {"theme", 0, "NAME", "dark (default) or light, for projectors"},
    [OPT_CAMERA] = {"camera", 0, "NAME",
                    "camera preset: default, front, top, side, back, low, first-stage, last-stage, "
                    "replicas"},
    [OPT_TIME] = {"time", 0, "T", "start at time T of the iteration (default 0)"},
    [OPT_SPEED] = {"speed", 0, "S",
                   "timeline units per second of playback or video (default: the iteration in "
                   "20 s)"},
    [OPT_STILL] = {"still", 0, "T", "draw only the frame at time T, into -o FILE.png"},
    [OPT_SCRIPT] = {"script", 0, "FILE",
                    "play input events from FILE (one per line, see README) through the same "
                    "handlers as the mouse and keys"},
    [OPT_PRINT_STATE] = {"print-state", 0, NULL,
                         "on quit, print the final time, speed and camera on standard output"},
    [OPT_FPS] = {"fps", 0, "N", "frames per second of video (default 30)"},
    [OPT_DURATION] = {"duration", 0, "SECONDS",
                      "seconds of video for the whole range (instead of --speed)"},
    [OPT_RANGE] = {"range", 0, "T0:T1",
                   "the part of the iteration to record, in timeline units; either side may be "
                   "empty (default: all of it)"},
    [OPT_CRF] = {"crf", 0, "N",
                 "MP4 quality: 0 lossless ... 51 worst (x264's constant rate factor, default 20)"},
    [OPT_PRESET] = {"preset", 0, "NAME",
                    "x264 preset: ultrafast ... veryfast (default) ... medium ... veryslow"},
    [OPT_QUIET] = {"quiet", 'q', NULL, "no progress line and no summary on stderr"},
    [OPT_HELP] = {"help", 'h', NULL, "show this help"},
};

#define OPT_BIT(id) (1u << (id))

/* ---- output formats ------------------------------------------------------- */

typedef struct format_ctx {
    const timeline *tl;
    const timeline_costs *costs;
    FILE *f;
    int width;   /* Gantt columns */
    bool colour; /* ANSI colours in the Gantt chart */
} format_ctx;

static void write_table(const format_ctx *c)
{
    report_table(c->tl, c->costs, c->f);
}

static void write_gantt(const format_ctx *c)
{
    report_gantt(c->tl, c->f, c->width, c->colour);
}

static void write_json(const format_ctx *c)
{
    export_timeline_json(c->tl, c->f);
}

static void write_csv(const format_ctx *c)
{
    csv_write(c->tl->program, c->f);
}

static void write_chrome_trace(const format_ctx *c)
{
    export_chrome_trace(c->tl, c->f);
}

typedef struct output_format {
    const char *name;
    void (*write)(const format_ctx *c);
    const char *help;
} output_format;

static const output_format formats[] = {
    {"table", write_table, "per-rank table and metrics with their closed forms"},
    {"gantt", write_gantt,
     "Gantt chart for the terminal (colour when it is one and NO_COLOR is unset)"},
    {"json", write_json, "the simulated timeline: every action, transfer and metric"},
    {"csv", write_csv, "PyTorch's schedule CSV (one row per rank)"},
    {"chrome-trace", write_chrome_trace, "Trace Event JSON for Perfetto or chrome://tracing"},
};

enum { FORMAT_COUNT = sizeof formats / sizeof formats[0] };

static const output_format *format_find(const char *name)
{
    for (int k = 0; k < FORMAT_COUNT; k++)
        if (strcmp(formats[k].name, name) == 0)
            return &formats[k];
    return NULL;
}

/* ---- parsed arguments --------------------------------------------------- */

typedef struct cli_args {
    const char *command;       /* for messages: "schedule", "run" */
    const char *scenario_path; /* the positional SCENARIO.json, or NULL */
    const char *format;        /* NULL: table */
    const char *output;        /* NULL: standard output */
    int width;                 /* 0: the terminal's */
    int size_w, size_h;        /* 0: the command's default */
    int theme;                 /* theme_id */
    int camera;                /* camera_preset */
    double time;               /* start time (viewer) */
    double speed;              /* 0: the default */
    double still;              /* -1: not given */
    int fps;                   /* 0: the default */
    double duration;           /* 0: not given */
    bool has_range;
    double range_t0, range_t1; /* -1 for an empty side: the start or the end */
    int crf;                   /* -1: the default */
    const char *preset;        /* NULL: the default */
    bool quiet;
    const char *script;        /* NULL: none */
    bool print_state;
    bool help;
    session_flag *sets; /* scenario flags in command-line order */
    int set_count;
} cli_args;

static void args_deinit(cli_args *a)
{
    free(a->sets);
    a->sets = NULL;
}

/* Edit distance, capped: enough to suggest "--microbatches" for "--microbatch". */
static int distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 40 || lb > 40)
        return 99;
    int row[41];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j];
            int best = diag + (a[i - 1] != b[j - 1]);
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* The known option closest to `name`, or NULL when none is close. */
static const char *suggest(const char *name, unsigned allowed)
{
    const char *best = NULL;
    int best_d = 3;
    int n;
    const scenario_field *fields = scenario_fields(&n);
    for (int k = 0; k < n + OPT_COUNT; k++) {
        const char *candidate;
        if (k < n)
            candidate = fields[k].flag;
        else if (allowed & OPT_BIT(k - n))
            candidate = options[k - n].name;
        else
            continue;
        int d = distance(name, candidate);
        if (d < best_d ||
            (strncmp(candidate, name, strlen(name)) == 0 && strlen(name) >= 3 && best_d > 1)) {
            best_d = d < best_d ? d : 1;
            best = candidate;
        }
    }
    return best;
}

static bool fail_unknown_option(const char *arg, size_t name_len, const char *command,
                                unsigned allowed, ppf_error *err)
{
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(name_len < 63 ? name_len : 63), arg);
    const char *hint = name[0] == '-' && name[1] == '-' ? suggest(name + 2, allowed) : NULL;
    if (hint)
        return ppf_fail(err, "unknown option %s (did you mean --%s?); see ppflow %s --help", name,
                        hint, command);
    return ppf_fail(err, "unknown option %s; see ppflow %s --help", name, command);
}

static bool parse_width(const char *text, int *out, ppf_error *err)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || v < REPORT_MIN_WIDTH || v > REPORT_MAX_WIDTH)
        return ppf_fail(err, "--width = \"%.40s\": must be a whole number of columns from %d to %d",
                        text, REPORT_MIN_WIDTH, REPORT_MAX_WIDTH);
    *out = (int)v;
    return true;
}

/* "1280x720": each side from 16 to 8192 pixels. */
static bool parse_size(const char *text, int *w, int *h, ppf_error *err)
{
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
    if (errno || !isdigit((unsigned char)text[0]) || a < 16 || a > 8192 || b < 16 || b > 8192)
        return ppf_fail(err, "--size = \"%.40s\": must be WIDTHxHEIGHT, each from 16 to 8192",
                        text);
    *w = (int)a;
    *h = (int)b;
    return true;
}

/* A finite number >= 0. */
static bool parse_time(const char *text, const char *name, double *out, ppf_error *err)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    /* Times past the longest iteration (budget.h) mean nothing, and a speed
     * of 1e308 would overflow to infinity once the viewer scales it. */
    if (errno || end == text || *end != '\0' || !isfinite(v) || v < 0 || v > BUDGET_MAX_TIME)
        return ppf_fail(err, "%s = \"%.40s\": must be a number from 0 to 1e12", name, text);
    *out = v;
    return true;
}

/* A whole number from lo to hi. */
static bool parse_int(const char *text, const char *name, int lo, int hi, int *out, ppf_error *err)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end != '\0' || v < lo || v > hi)
        return ppf_fail(err, "%s = \"%.40s\": must be a whole number from %d to %d", name, text, lo,
                        hi);
    *out = (int)v;
    return true;
}

/* "T0:T1", "T0:" or ":T1"; an empty side is -1. Checked against the
 * iteration's length once it is known. */
static bool parse_range(const char *text, cli_args *a, ppf_error *err)
{
    const char *colon = strchr(text, ':');
    double t[2] = {-1, -1};
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
    a->has_range = true;
    a->range_t0 = t[0];
    a->range_t1 = t[1];
    return true;
}

static bool apply_option(cli_args *a, option_id id, const char *value, ppf_error *err)
{
    switch (id) {
    case OPT_FORMAT:
        if (!format_find(value))
            return ppf_fail(
                err,
                "--format = \"%.40s\": unknown format; use table, gantt, json, csv or chrome-trace",
                value);
        a->format = value;
        return true;
    case OPT_OUTPUT:
        a->output = value;
        return true;
    case OPT_WIDTH:
        return parse_width(value, &a->width, err);
    case OPT_SIZE:
        return parse_size(value, &a->size_w, &a->size_h, err);
    case OPT_THEME:
        a->theme = theme_find(value);
        if (a->theme < 0)
            return ppf_fail(err, "--theme = \"%.40s\": unknown theme; use dark or light", value);
        return true;
    case OPT_CAMERA:
        a->camera = camera_preset_find(value);
        if (a->camera < 0)
            return ppf_fail(err,
                            "--camera = \"%.40s\": unknown preset; use default, front, top, side, "
                            "back, low, first-stage, last-stage or replicas",
                            value);
        return true;
    case OPT_TIME:
        return parse_time(value, "--time", &a->time, err);
    case OPT_STILL:
        return parse_time(value, "--still", &a->still, err);
    case OPT_SPEED:
        if (!parse_time(value, "--speed", &a->speed, err))
            return false;
        if (!(a->speed > 0))
            return ppf_fail(err, "--speed = \"%.40s\": must be a number above 0", value);
        return true;
    case OPT_SCRIPT:
        a->script = value;
        return true;
    case OPT_PRINT_STATE:
        a->print_state = true;
        return true;
    case OPT_FPS:
        return parse_int(value, "--fps", 1, ENCODER_MAX_FPS, &a->fps, err);
    case OPT_DURATION:
        if (!parse_time(value, "--duration", &a->duration, err))
            return false;
        if (!(a->duration > 0))
            return ppf_fail(err, "--duration = \"%.40s\": must be a number of seconds above 0",
                            value);
        return true;
    case OPT_RANGE:
        return parse_range(value, a, err);
    case OPT_CRF:
        return parse_int(value, "--crf", 0, ENCODER_MAX_CRF, &a->crf, err);
    case OPT_PRESET:
        if (!encoder_preset_valid(value))
            return ppf_fail(err,
                            "--preset = \"%.40s\": unknown x264 preset; use ultrafast, superfast, "
                            "veryfast, faster, fast, medium, slow, slower or veryslow",
                            value);
        a->preset = value;
        return true;
    case OPT_QUIET:
        a->quiet = true;
        return true;
    case OPT_HELP:
        a->help = true;
        return true;
    case OPT_COUNT:
        break;
    }
    return false;
}

/* Splits argv (argv[0] is the command) into the scenario path, scenario
 * flags and command options; `allowed` has a bit per option_id. Values are
 * checked here only where the option is the CLI's own; scenario values are
 * checked when they are applied, in order. */
static bool parse_args(int argc, char **argv, const char *command, unsigned allowed, cli_args *a,
                       ppf_error *err)
{
    *a = (cli_args){.command = command, .still = -1, .crf = -1};
    a->sets = ppf_malloc(sizeof(session_flag) * (size_t)(argc > 0 ? argc : 1));
    bool only_positional = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (only_positional || arg[0] != '-' || strcmp(arg, "-") == 0) {
            if (a->scenario_path)
                return ppf_fail(
                    err,
                    "unexpected argument \"%.60s\": one scenario file (%.60s) is already given",
                    arg, a->scenario_path);
            a->scenario_path = arg;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            only_positional = true;
            continue;
        }

        /* The option's name and, for --NAME=VALUE or -oFILE, its attached value. */
        const char *name, *attached = NULL;
        size_t name_len;
        int opt = -1;
        if (arg[1] == '-') {
            name = arg + 2;
            const char *eq = strchr(name, '=');
            name_len = eq ? (size_t)(eq - name) : strlen(name);
            attached = eq ? eq + 1 : NULL;
            for (int k = 0; k < OPT_COUNT; k++)
                if ((allowed & OPT_BIT(k)) && strlen(options[k].name) == name_len &&
                    strncmp(options[k].name, name, name_len) == 0)
                    opt = k;
        } else {
            name = arg + 1;
            name_len = 1;
            attached = arg[2] ? arg + 2 : NULL;
            for (int k = 0; k < OPT_COUNT; k++)
                if ((allowed & OPT_BIT(k)) && options[k].short_name == arg[1])
                    opt = k;
            if (opt < 0)
                return fail_unknown_option(arg, 2, command, allowed, err);
        }

        const scenario_field *field = NULL;
        if (opt < 0) {
            char key[64];
            if (name_len < sizeof key) {
                memcpy(key, name, name_len);
                key[name_len] = '\0';
                field = scenario_field_find(key);
            }
            if (!field)
                return fail_unknown_option(arg, (size_t)(name - arg) + name_len, command, allowed,
                                           err);
        }

        const bool takes_value = field || options[opt].arg;
        const char *shown = field ? field->flag : options[opt].name;
        const char *value = attached;
        if (!takes_value) {
            if (attached)
                return ppf_fail(err, "--%s takes no value (got \"%.40s\")", shown, attached);
        } else if (!value) {
            if (i + 1 >= argc)
                return ppf_fail(err, "--%s needs a value (%s)", shown,
                                field ? field->arg : options[opt].arg);
            value = argv[++i];
        }
        if (field) {
            a->sets[a->set_count++] = (session_flag){field->flag, value};
        } else if (!apply_option(a, (option_id)opt, value, err)) {
            return false;
        }
    }
    return true;
}

/* ---- from scenario to timeline -------------------------------------------- */

/* Default scenario, then the file, then the flags in order; then the program
 * and its simulation. Every failure here is bad input. */
static bool build(const cli_args *a, session *b, ppf_error *err)
{
    return session_build(b, a->scenario_path, a->sets, a->set_count, err);
}

static int fail(int status, const ppf_error *err)
{
    ppf_print(stderr, "%s", err->message[0] ? err->message : "failed");
    return status;
}

/* ---- help ------------------------------------------------------------------ */

/* "  NAME  help text", the help wrapped at HELP_WIDTH under its own column. */
static void help_line(FILE *f, const char *name, const char *help)
{
    int used = fprintf(f, "  %s", name);
    if (used > HELP_NAME_WIDTH) {
        fputc('\n', f);
        used = 0;
    }
    fprintf(f, "%*s", HELP_NAME_WIDTH + 1 - used, "");
    int col = HELP_NAME_WIDTH + 1;
    const char *p = help;
    while (*p) {
        const char *sp = strchr(p, ' ');
        int word = sp ? (int)(sp - p) : (int)strlen(p);
        if (col > HELP_NAME_WIDTH + 1 && col + 1 + word > HELP_WIDTH) {
            fprintf(f, "\n%*s", HELP_NAME_WIDTH + 1, "");
            col = HELP_NAME_WIDTH + 1;
        } else if (col > HELP_NAME_WIDTH + 1) {
            fputc(' ', f);
            col++;
        }
        fwrite(p, 1, (size_t)word, f);
        col += word;
        p += word;
        while (*p == ' ')
            p++;
    }
    fputc('\n', f);
}

static void print_scenario_options(FILE *f)
{
    fputs("scenario options (also the fields of SCENARIO.json; costs go under \"costs\"):\n", f);
    int n;
    const scenario_field *fields = scenario_fields(&n);
    for (int k = 0; k < n; k++) {
        char name[64], def[64], help[512];
        snprintf(name, sizeof name, "--%s %s", fields[k].flag, fields[k].arg);
        scenario_field_default(&fields[k], def, sizeof def);
        const char *at = strstr(fields[k].help, "{default}");
        if (at)
            snprintf(help, sizeof help, "%.*s%s%s", (int)(at - fields[k].help), fields[k].help, def,
                     at + strlen("{default}"));
        else
            snprintf(help, sizeof help, "%s", fields[k].help);
        help_line(f, name, help);
    }
}

static void print_options(FILE *f, const char *title, unsigned allowed)
{
    fprintf(f, "%s:\n", title);
    for (int k = 0; k < OPT_COUNT; k++) {
        if (!(allowed & OPT_BIT(k)))
            continue;
        char name[64];
        if (options[k].short_name)
            snprintf(name, sizeof name, "-%c, --%s%s%s", options[k].short_name, options[k].name,
                     options[k].arg ? " " : "", options[k].arg ? options[k].arg : "");
        else
            snprintf(name, sizeof name, "--%s%s%s", options[k].name, options[k].arg ? " " : "",
                     options[k].arg ? options[k].arg : "");
        help_line(f, name, options[k].help);
    }
}

static void print_formats(FILE *f)
{
    fputs("formats:\n", f);
    for (int k = 0; k < FORMAT_COUNT; k++)
        help_line(f, formats[k].name, formats[k].help);
}

static void print_schedules(FILE *f)
{
    fputs("schedules:\n", f);
    int n;
    const schedule_info *list = schedule_list(&n);
    for (int k = 0; k < n; k++)
        help_line(f, list[k].name, list[k].summary);
    help_line(f, "csv:PATH", "a PyTorch schedule CSV (torch.distributed.pipelining _dump_csv)");
}

static const char exit_help[] =
    "exit status: 0 success, 1 write failure after valid input, 2 bad input (a scenario over\n"
    "the limits included), 130 interrupted while writing -o FILE\n";

/* ---- commands -------------------------------------------------------------- */

static const unsigned schedule_options =
    OPT_BIT(OPT_FORMAT) | OPT_BIT(OPT_OUTPUT) | OPT_BIT(OPT_WIDTH) | OPT_BIT(OPT_HELP);
static const unsigned run_options = OPT_BIT(OPT_SIZE) | OPT_BIT(OPT_THEME) | OPT_BIT(OPT_CAMERA) |
                                    OPT_BIT(OPT_TIME) | OPT_BIT(OPT_SPEED) | OPT_BIT(OPT_SCRIPT) |
                                    OPT_BIT(OPT_PRINT_STATE) | OPT_BIT(OPT_HELP);
static const unsigned render_options =
    OPT_BIT(OPT_OUTPUT) | OPT_BIT(OPT_SIZE) | OPT_BIT(OPT_THEME) | OPT_BIT(OPT_CAMERA) |
    OPT_BIT(OPT_STILL) | OPT_BIT(OPT_FPS) | OPT_BIT(OPT_SPEED) | OPT_BIT(OPT_DURATION) |
    OPT_BIT(OPT_RANGE) | OPT_BIT(OPT_CRF) | OPT_BIT(OPT_PRESET) | OPT_BIT(OPT_QUIET) |
    OPT_BIT(OPT_HELP);

/* The sections that `ppflow --help` and `ppflow schedule --help` share. */
static void print_schedule_sections(FILE *f)
{
    print_scenario_options(f);
    fputc('\n', f);
    print_options(f, "schedule options", schedule_options);
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
    fputs("usage: ppflow [run] [SCENARIO.json] [options]\n\n"
          "Opens the live viewer: the iteration in 3D over its timeline. Press h in the window\n"
          "for the keys.\n\n",
          f);
    print_scenario_options(f);
    fputc('\n', f);
    print_options(f, "options", run_options);
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
static int write_output(const cli_args *a, const session *b, void (*write)(const format_ctx *c),
                        ppf_error *err)
{
    output out;
    if (!output_open_guarded(&out, a->output, err))
        return EXIT_STATUS_USAGE;
    const bool to_stdout = output_is_stdout(a->output);
    const format_ctx ctx = {
        .tl = &b->tl,
        .costs = &b->costs,
        .f = out.file,
        .width = a->width    ? a->width
                 : to_stdout ? report_terminal_width(stdout)
                             : REPORT_DEFAULT_WIDTH,
        .colour = to_stdout && report_want_colour(stdout),
    };
    write(&ctx);
    return output_commit(&out, err) ? EXIT_STATUS_OK : EXIT_STATUS_IO;
}

/* Parse, build, simulate, write: the body of `schedule` and `run`, which
 * differ in their options, their help and what they write by default. */
static int build_and_write(int argc, char **argv, const char *command, unsigned allowed,
                           void (*print_help)(FILE *f), void (*write_default)(const format_ctx *c))
{
    ppf_error err = {{0}};
    cli_args a;
    session b = {0};
    int status = EXIT_STATUS_USAGE;
    if (!parse_args(argc, argv, command, allowed, &a, &err))
        goto done;
    if (a.help) {
        print_help(stdout);
        status = EXIT_STATUS_OK;
        goto done;
    }
    /* A target that cannot be written is bad input, found before the
     * simulation rather than after it. */
    if (!output_is_stdout(a.output) && !output_probe(a.output, OUTPUT_STREAM, &err))
        goto done;
    if (!build(&a, &b, &err))
        goto done;
    status = write_output(&a, &b, a.format ? format_find(a.format)->write : write_default, &err);
done:
    session_deinit(&b);
    args_deinit(&a);
    return status == EXIT_STATUS_OK ? status : fail(status, &err);
}

static int cmd_schedule(int argc, char **argv)
{
    return build_and_write(argc, argv, "schedule", schedule_options, print_schedule_help,
                           write_table);
}

/* Parses and builds, scene included; on bad input prints one line and
 * returns exit status 2 (before any window opens); on --help prints it and
 * returns 0; else -1 with the session built. */
static int parse_and_build(int argc, char **argv, const char *command, unsigned allowed,
                           void (*print_help)(FILE *f), cli_args *a, session *b)
{
    ppf_error err = {{0}};
    memset(b, 0, sizeof *b);
    if (!parse_args(argc, argv, command, allowed, a, &err))
        return fail(EXIT_STATUS_USAGE, &err);
    if (a->help) {
        print_help(stdout);
        return EXIT_STATUS_OK;
    }
    /* Both commands draw: a scene over the budget is bad input, found
     * before a window opens or a file is touched. */
    if (!build(a, b, &err) || !session_build_scene(b, &err))
        return fail(EXIT_STATUS_USAGE, &err);
    return -1;
}

/* The live viewer. */
static int cmd_run(int argc, char **argv)
{
    cli_args a;
    session b;
    int status = parse_and_build(argc, argv, "run", run_options, print_run_help, &a, &b);
    if (status < 0) {
        viewer_options o = {
            .width = a.size_w,
            .height = a.size_h,
            .theme = (theme_id)a.theme,
            .camera = (camera_preset)a.camera,
            .time = a.time,
            .speed = a.speed,
            .script = a.script,
            .print_state = a.print_state,
        };
        ppf_error err = {{0}};
        status = viewer_run(&b, &o, &err);
        if (status != EXIT_STATUS_OK)
            fail(status, &err);
    }
    session_deinit(&b);
    args_deinit(&a);
    return status;
}

static void print_render_help(FILE *f)
{
    fputs("usage: ppflow render [SCENARIO.json] [options] -o OUT.mp4 | OUT.gif | FRAMES_%05d.png\n"
          "       ppflow render [SCENARIO.json] [options] --still T -o FILE.png\n\n"
          "Records the iteration with no window (headless EGL): frame i shows time\n"
          "T0 + i * speed / fps, the same picture as --still at that time. MP4 is H.264\n"
          "(yuv420p, BT.709); a GIF has one palette and loops; a pattern writes numbered PNGs\n"
          "from 0. Nothing appears under the output's name until it is complete.\n\n",
          f);
    print_scenario_options(f);
    fputc('\n', f);
    print_options(f, "options", render_options);
    fputc('\n', f);
    fputs("exit status: 0 success, 1 failure (no EGL, a write error), 2 bad input, 130 "
          "interrupted\n",
          f);
}

static int cmd_render(int argc, char **argv)
{
    cli_args a;
    session b;
    int status = parse_and_build(argc, argv, "render", render_options, print_render_help, &a, &b);
    if (status < 0) {
        render_request q = {
            .output = a.output,
            .width = a.size_w,
            .height = a.size_h,
            .fps = a.fps,
            .speed = a.speed,
            .duration = a.duration,
            .range_t0 = a.has_range ? a.range_t0 : -1,
            .range_t1 = a.has_range ? a.range_t1 : -1,
            .crf = a.crf,
            .preset = a.preset,
            .theme = (theme_id)a.theme,
            .camera = (camera_preset)a.camera,
            .quiet = a.quiet,
        };
        status = a.still >= 0 ? render_command_still(&b, &q, a.still)
                              : render_command_export(&b, &q);
    }
    session_deinit(&b);
    args_deinit(&a);
    return status;
}

typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the command's name */
    const char *synopsis;
    const char *summary;
} cli_command;

static const cli_command commands[] = {
    {"run", cmd_run, "ppflow [run] [SCENARIO.json] [options]",
     "the live viewer: the iteration in 3D, its timeline under it"},
    {"render", cmd_render,
     "ppflow render [SCENARIO.json] [options] -o OUT.mp4 | OUT.gif | FRAMES_%05d.png | --still T "
     "-o FILE.png",
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
                  "unknown command \"%.60s\"; commands: run, render, schedule, bench (see ppflow "
                  "--help)",
                first);
        return EXIT_STATUS_USAGE;
    }
    return cmd_run(argc, argv);
}
