/* bench.c - `ppflow bench`: timings of the model on this machine. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "bench.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "error.h"
#include "program.h"
#include "schedules.h"
#include "timeline.h"

enum { BENCH_DEFAULT_REPEAT = 7, BENCH_MAX_REPEAT = 1000 };
/* `bench schedule`: every schedule at P x M, then 1f1b at the big P x M. */
enum { SCHEDULE_P = 64, SCHEDULE_M = 2048, BIG_P = 256, BIG_M = 16384 };

/* ---- timing ------------------------------------------------------------ */

double bench_now_ms(void)
{
    return clock_now_seconds() * 1e3;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

stats summarise(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_double);
    double median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    return (stats){median, v[0]};
}

void print_machine(FILE *f)
{
    char line[512], model[256] = "";
    FILE *in = fopen("/proc/cpuinfo", "r");
    int cpus = 0;
    if (in) {
        while (fgets(line, sizeof line, in)) {
            if (strncmp(line, "processor", 9) == 0)
                cpus++;
            const char *colon = strchr(line, ':');
            if (!model[0] && colon && strncmp(line, "model name", 10) == 0) {
                const char *v = colon + 1;
                while (*v == ' ' || *v == '\t')
                    v++;
                snprintf(model, sizeof model, "%s", v);
                model[strcspn(model, "\n")] = '\0';
            }
        }
        fclose(in);
    }
    if (model[0])
        fprintf(f, "cpu: %s (%d logical cpus)\n", model, cpus);
    else
        fputs("cpu: unknown (no model name in /proc/cpuinfo)\n", f);
}

/* ---- bench schedule ------------------------------------------------------ */

/* Generates and simulates one schedule `repeat` times; prints one row. */
static bool bench_one(FILE *f, const char *name, int P, int M, int repeat, ppf_error *err)
{
    double *gen = ppf_malloc(sizeof(double) * (size_t)repeat);
    double *sim = ppf_malloc(sizeof(double) * (size_t)repeat);
    double *total = ppf_malloc(sizeof(double) * (size_t)repeat);
    long actions = 0;
    int V = 0;
    bool ok = true;
    timeline_costs costs;
    timeline_costs_init(&costs, P);
    for (int k = 0; k < repeat && ok; k++) {
        program prog;
        timeline tl;
        const schedule_params sp = {.ranks = P, .microbatches = M, .stages_per_rank = 0};
        double t0 = bench_now_ms();
        ok = schedule_generate(name, &sp, &prog, err);
        double t1 = bench_now_ms();
        if (!ok)
            break;
        ok = timeline_simulate(&tl, &prog, &costs, err);
        double t2 = bench_now_ms();
        actions = program_action_count(&prog);
        V = prog.stages_per_rank;
        gen[k] = t1 - t0;
        sim[k] = t2 - t1;
        total[k] = t2 - t0;
        timeline_deinit(&tl);
        program_deinit(&prog);
    }
    timeline_costs_deinit(&costs);
    if (ok) {
        stats g = summarise(gen, repeat), s = summarise(sim, repeat), t = summarise(total, repeat);
        fprintf(f, "%-18s %5d %6d %3d %10ld %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f\n", name, P, M, V,
                actions, g.median, g.min, s.median, s.min, t.median, t.min);
        fflush(f);
    }
    free(gen);
    free(sim);
    free(total);
    return ok;
}

static int bench_schedule(const bench_opts *o, FILE *f)
{
    const int repeat = o->repeat ? o->repeat : BENCH_DEFAULT_REPEAT;
    const int big_repeat = o->repeat && o->repeat < 3 ? o->repeat : 3;
    ppf_error err = {{0}};
    fprintf(f, "ppflow bench schedule: generate (with validation) and simulate, default costs\n");
    print_machine(f);
    fprintf(f,
            "times in ms, median and min of %d runs (%d for the last row); actions include idle "
            "steps\n\n",
            repeat, big_repeat);
    fprintf(f, "%-18s %5s %6s %3s %10s %9s %9s %9s %9s %9s %9s\n", "schedule", "P", "M", "V",
            "actions", "generate", "min", "simulate", "min", "total", "min");
    int n;
    const schedule_info *list = schedule_list(&n);
    for (int k = 0; k < n; k++)
        if (!bench_one(f, list[k].name, SCHEDULE_P, SCHEDULE_M, repeat, &err))
            goto fail;
    if (!bench_one(f, "1f1b", BIG_P, BIG_M, big_repeat, &err))
        goto fail;
    return 0;

fail:
    ppf_print(stderr, "%s", err.message);
    return 2;
}

/* ---- the table of benchmarks --------------------------------------------- */

static void bench_schedule_help(char *out, size_t size)
{
    snprintf(out, size,
             "generate and simulate every schedule at P=%d, M=%d, then 1f1b at P=%d, M=%d",
             SCHEDULE_P, SCHEDULE_M, BIG_P, BIG_M);
}

typedef struct bench_entry {
    const char *name;
    int (*run)(const bench_opts *o, FILE *f);
    void (*help)(char *out, size_t size); /* one line: the sizes it measures at */
} bench_entry;

static const bench_entry benches[] = {
    {"schedule", bench_schedule, bench_schedule_help},
    {"render", bench_render, bench_render_help},
    {"export", bench_export, bench_export_help},
    {"palette", bench_palette, bench_palette_help},
    {"rebuild", bench_rebuild, bench_rebuild_help},
    {"viewer", bench_viewer, bench_viewer_help},
};

enum { BENCH_COUNT = sizeof benches / sizeof benches[0] };

void bench_print_help(FILE *f)
{
    fprintf(f, "benchmarks (ppflow bench NAME [--repeat N], N runs per measurement, default %d):\n",
            BENCH_DEFAULT_REPEAT);
    for (int k = 0; k < BENCH_COUNT; k++) {
        char help[512];
        benches[k].help(help, sizeof help);
        fprintf(f, "  %-22s %s\n", benches[k].name, help);
    }
}

static bool parse_repeat(const char *text, int *out)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || v < 1 || v > BENCH_MAX_REPEAT)
        return false;
    *out = (int)v;
    return true;
}

int bench_main(int argc, char **argv)
{
    const bench_entry *which = NULL;
    bench_opts opts = {0};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            bench_print_help(stdout);
            return 0;
        }
        if (strncmp(arg, "--repeat", 8) == 0 && (arg[8] == '\0' || arg[8] == '=')) {
            const char *value = arg[8] == '=' ? arg + 9 : i + 1 < argc ? argv[++i] : NULL;
            if (!value) {
                fputs("ppflow: --repeat needs a value (N)\n", stderr);
                return 2;
            }
            if (!parse_repeat(value, &opts.repeat)) {
                ppf_print(stderr, "--repeat = \"%.40s\": must be a whole number from 1 to %d",
                          value, BENCH_MAX_REPEAT);
                return 2;
            }
            continue;
        }
        if (arg[0] == '-') {
            ppf_print(stderr, "unknown option %.60s; see ppflow bench --help", arg);
            return 2;
        }
        if (which) {
            ppf_print(stderr, "unexpected argument \"%.60s\": one benchmark at a time", arg);
            return 2;
        }
        for (int k = 0; k < BENCH_COUNT; k++)
            if (strcmp(benches[k].name, arg) == 0)
                which = &benches[k];
        if (!which) {
            ppf_print(stderr, "unknown benchmark \"%.60s\"; see ppflow bench --help", arg);
            return 2;
        }
    }
    if (!which) {
        fputs("ppflow: bench needs a benchmark name; see ppflow bench --help\n", stderr);
        return 2;
    }
    int status = which->run(&opts, stdout);
    if (status == 0 && (fflush(stdout) != 0 || ferror(stdout))) {
        fputs("ppflow: writing to standard output failed\n", stderr);
        return 1;
    }
    return status;
}
