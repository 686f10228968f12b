/* cli.c - ppflow's commands: their help, and the path from a scenario (or
 * a talk) to an output. What each command line can ask for (the option
 * rows, the formats) is cli_options.h's. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "cli.h"
#include "exit_status.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "cli_options.h"
#include "comparison.h"
#include "talk.h"
#include "error.h"
#include "options.h"
#include "output.h"
#include "pdf.h"
#include "per_beat.h"
#include "render_command.h"
#include "report.h"
#include "scenario.h"
#include "schedules.h"
#include "session.h"
#include "theme.h"
#include "viewer.h"

#ifndef PPFLOW_VERSION /* set by the build from the project version */
#define PPFLOW_VERSION "0.1.0"
#endif

static int fail(int status, const ppf_error *err)
{
    ppf_print(stderr, "%s", err->message[0] ? err->message : "failed");
    return status;
}

/* ---- help ------------------------------------------------------------------ */

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
    cli_print_options(f, "schedule options", &cli_schedule_options);
    fputc('\n', f);
    cli_print_formats(f);
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
    cli_print_options(f, "options", &cli_run_options);
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
    if (!cli_format_write(q->format, &ctx, err)) {
        output_abort(&out);
        return EXIT_STATUS_IO;
    }
    return output_commit(&out, err) ? EXIT_STATUS_OK : EXIT_STATUS_IO;
}

/* What a command line gives a comparison (comparison.h). */
static comparison_desc compare_desc_of(const cli_request *q, const option_args *args,
                                       bool with_scene)
{
    return (comparison_desc){.list = q->compare,
                             .paths = args->paths,
                             .path_count = args->path_count,
                             .flags = args->flags,
                             .flag_count = args->flag_count,
                             .with_scene = with_scene,
                             .confine = q->confine};
}

/* Options that pick one slide of a talk mean nothing to a comparison. */
static bool refuse_with_compare(const option_args *args, ppf_error *err)
{
    if (args->given & OPT_BIT(OPT_SLIDE))
        return !ppf_fail(err, "--slide: not with --compare (each side is one scenario)");
    return false;
}

/* `ppflow schedule --compare A,B` (or several files): the table, or the
 * JSON array; other formats show one schedule. Returns the exit status. */
static int schedule_compare(const cli_request *q, const option_args *args,
                            const comparison_desc *cd, ppf_error *err)
{
    const char *format = cli_format_name(q->format);
    const bool json = strcmp(format, "json") == 0;
    if (!json && strcmp(format, "table") != 0) {
        ppf_fail(err,
                 "--format %s: with --compare use table or json (one schedule at a time for %s)",
                 format, format);
        return EXIT_STATUS_USAGE;
    }
    if (refuse_with_compare(args, err))
        return EXIT_STATUS_USAGE;
    comparison c;
    if (!comparison_build(&c, cd, err))
        return EXIT_STATUS_USAGE;
    output out;
    int status = EXIT_STATUS_USAGE;
    if (output_open_guarded(&out, q->output, err)) {
        if (json)
            comparison_write_json(&c, out.file);
        else
            comparison_write_table(&c, out.file);
        status = output_commit(&out, err) ? EXIT_STATUS_OK : EXIT_STATUS_IO;
    }
    comparison_deinit(&c);
    return status;
}

/* `ppflow schedule`: parse, build, simulate, write one format. */
static int cmd_schedule(int argc, char **argv)
{
    ppf_error err = {{0}};
    cli_request q;
    option_args args = {0};
    talk d = {0};
    int status = EXIT_STATUS_USAGE;
    if (!cli_parse_args(&cli_schedule_options, argc, argv, &q, &args, &err))
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
    if (strcmp(cli_format_name(q.format), "pdf") == 0 && !pdf_converter_found(&err)) {
        status = EXIT_STATUS_IO;
        goto done;
    }
    const comparison_desc cd = compare_desc_of(&q, &args, false);
    if (comparison_wanted(&cd)) {
        status = schedule_compare(&q, &args, &cd, &err);
        goto done;
    }
    /* Default scenario, then the file, then the flags in order; then the
     * program and its simulation, of the one slide shown (a talk's others
     * are neither built nor counted). Every failure here is bad input. */
    if (!talk_build_slide(&d,
                          &(talk_desc){.path = args.scenario_path,
                                       .flags = args.flags,
                                       .flag_count = args.flag_count,
                                       .confine = q.confine},
                          q.view.slide, &err))
        goto done;
    /* Figures are for print: light unless --theme asks for another. */
    const bool dark = (args.given & OPT_BIT(OPT_THEME)) && q.show.theme == THEME_DARK;
    status = write_output(&q, dark, d.slides[0], &err);
done:
    talk_deinit(&d);
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
                            "for this scenario, " CLI_SPEED_RULE " (%.4g)",
                            v, lo, hi, session_default_speed(b));
    }
    if (args->given & OPT_BIT(OPT_TIME) && !(q->view.time >= 0 && q->view.time <= b->tl.makespan))
        return ppf_fail(err, "--time = %g: must be within the iteration, 0 to %g", q->view.time,
                        b->tl.makespan);
    return true;
}

/* Parses and builds the slides the command shows, scenes included: every
 * slide when `every` says so for the options given (the window, a talk's
 * per-beat export), else the one --slide names; on bad input prints one
 * line and returns exit status 2 (before any window opens); on --help
 * prints it and returns 0; else -1 with the talk built and *slide the
 * index in it of the one --slide names. */
static int parse_and_build(const option_set *set, int argc, char **argv,
                           void (*print_help)(FILE *f), bool (*every)(const option_args *args),
                           cli_request *q, option_args *args, talk *d, int *slide, comparison *cmp)
{
    ppf_error err = {{0}};
    memset(d, 0, sizeof *d);
    memset(cmp, 0, sizeof *cmp);
    if (!cli_parse_args(set, argc, argv, q, args, &err))
        return fail(EXIT_STATUS_USAGE, &err);
    if (q->help) {
        print_help(stdout);
        return EXIT_STATUS_OK;
    }
    /* A comparison's sides instead of a talk; checked against the longest. */
    const comparison_desc cd = compare_desc_of(q, args, true);
    if (comparison_wanted(&cd)) {
        if (refuse_with_compare(args, &err) || !comparison_build(cmp, &cd, &err))
            return fail(EXIT_STATUS_USAGE, &err);
        const session *longest = cmp->sides[0];
        for (int k = 1; k < cmp->count; k++)
            if (cmp->sides[k]->tl.makespan > longest->tl.makespan)
                longest = cmp->sides[k];
        if (!check_show(args, q, longest, &err))
            return fail(EXIT_STATUS_USAGE, &err);
        return -1;
    }
    /* Both commands draw: a scene over the budget is bad input, found
     * before a window opens or a file is touched. */
    const talk_desc desc = {.path = args->scenario_path,
                            .flags = args->flags,
                            .flag_count = args->flag_count,
                            .with_scene = true,
                            .confine = q->confine};
    bool ok;
    if (every(args)) {
        ok = talk_build(d, &desc, &err) && (*slide = talk_pick_slide(d, q->view.slide, &err)) >= 0;
    } else {
        *slide = 0;
        ok = talk_build_slide(d, &desc, q->view.slide, &err);
    }
    if (!ok || !check_show(args, q, d->slides[*slide], &err))
        return fail(EXIT_STATUS_USAGE, &err);
    return -1;
}

/* The window holds every slide, so that a slide change in a lecture
 * builds nothing. */
static bool viewer_builds_every_slide(const option_args *args)
{
    (void)args;
    return true;
}

/* The live viewer; presenting from the start for `ppflow present`. */
static int run_viewer(int argc, char **argv, bool present)
{
    cli_request q;
    option_args args = {0};
    talk d;
    comparison cmp;
    int slide;
    int status = parse_and_build(&cli_run_options, argc, argv, print_run_help,
                                 viewer_builds_every_slide, &q, &args, &d, &slide, &cmp);
    if (status < 0) {
        q.view.show = q.show;
        q.view.present |= present;
        /* A comparison's panes: the talk is its first side, one slide (the
           comparison keeps the sessions; this talk is not deinited). */
        talk first = {0};
        talk_slide first_info = {0};
        if (cmp.count > 0) {
            first = (talk){.slides = cmp.sides, .info = &first_info, .count = 1};
            q.view.compare = &cmp;
        }
        ppf_error err = {{0}};
        status = viewer_run(cmp.count > 0 ? &first : &d, &q.view, &err);
        if (status != EXIT_STATUS_OK)
            fail(status, &err);
    }
    comparison_deinit(&cmp);
    talk_deinit(&d);
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
    cli_print_options(f, "options", &cli_render_options);
    fputc('\n', f);
    fputs("exit status: 0 success, 1 failure (no EGL, a write error), 2 bad input, 130 "
          "interrupted\n",
          f);
}

/* `render --per-beat` (or --beat N, which implies it): the options that
 * mean one recording or one frame are refused with it, then per_beat.h
 * does the rest with the one session. */
static int render_per_beat(const cli_request *q, const option_args *args, session *const *slides,
                           const talk_slide *info, int slide_count)
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
            ppf_print(stderr, "--%s: not with %s (it asks for %s)", cli_rows[refused[k].id].name,
                      with, refused[k].why);
            return EXIT_STATUS_USAGE;
        }
    if (!q->output || output_is_stdout(q->output)) {
        ppf_print(stderr, "-o: with %s give the directory to write into (-o DIR/)", with);
        return EXIT_STATUS_USAGE;
    }
    /* a talk slide's own camera, as presenting shows it */
    int *slide_camera = ppf_malloc((size_t)slide_count * sizeof *slide_camera);
    for (int k = 0; k < slide_count; k++)
        slide_camera[k] = info[k].has_camera ? (int)info[k].camera : -1;
    const per_beat_request pq = {
        .dir = q->output,
        .show = q->show,
        .video = q->render.video,
        .beat = q->beat,
        .quiet = q->render.quiet,
        .slide_camera = slide_camera,
    };
    const int status = per_beat_export(slides, slide_count, &pq);
    free(slide_camera);
    return status;
}

/* `render --compare`: the panes on one clock, as a still or a recording;
 * per-beat clips follow one session's beats, so they are refused. */
static int render_compare(const cli_request *q, const option_args *args, const comparison *c)
{
    if (args->given & (OPT_BIT(OPT_PER_BEAT) | OPT_BIT(OPT_BEAT))) {
        ppf_print(stderr,
                  "--%s: not with --compare (the sides' beats differ; record the "
                  "comparison with -o OUT.mp4)",
                  args->given & OPT_BIT(OPT_PER_BEAT) ? "per-beat" : "beat");
        return EXIT_STATUS_USAGE;
    }
    const char *strip[COMPARE_MAX_SIDES];
    for (int k = 0; k < c->count; k++)
        strip[k] = c->result.line[k];
    return args->given & OPT_BIT(OPT_STILL)
               ? render_command_still_compare(c->sides, c->count, strip, &q->render, q->still)
               : render_command_export_compare(c->sides, c->count, strip, &q->render);
}

/* A render shows one slide (--slide), but a talk's per-beat export every
 * slide, its beats numbered on, unless --slide picks one. */
static bool render_builds_every_slide(const option_args *args)
{
    return (args->given & (OPT_BIT(OPT_PER_BEAT) | OPT_BIT(OPT_BEAT))) &&
           !(args->given & OPT_BIT(OPT_SLIDE));
}

static int cmd_render(int argc, char **argv)
{
    cli_request q;
    option_args args = {0};
    talk d;
    comparison cmp;
    int slide;
    int status = parse_and_build(&cli_render_options, argc, argv, print_render_help,
                                 render_builds_every_slide, &q, &args, &d, &slide, &cmp);
    if (status < 0 && cmp.count > 0) {
        q.render.show = q.show;
        q.render.output = q.output;
        q.render.theme_given = args.given & OPT_BIT(OPT_THEME);
        status = render_compare(&q, &args, &cmp);
    } else if (status < 0) {
        session *b = d.slides[slide]; /* a talk renders one slide (--slide) */
        q.render.show = q.show;
        q.render.output = q.output;
        q.render.theme_given = args.given & OPT_BIT(OPT_THEME);
        if (args.given & (OPT_BIT(OPT_PER_BEAT) | OPT_BIT(OPT_BEAT))) {
            /* a talk's every slide, its beats numbered on; one with --slide */
            status = render_per_beat(&q, &args, d.slides, d.info, d.count);
        } else {
            /* a slide's own camera draws it, --camera or not, as when presenting */
            if (d.info[slide].has_camera)
                q.render.show.camera = d.info[slide].camera;
            status = args.given & OPT_BIT(OPT_STILL) ? render_command_still(b, &q.render, q.still)
                                                     : render_command_export(b, &q.render);
        }
    }
    comparison_deinit(&cmp);
    talk_deinit(&d);
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
