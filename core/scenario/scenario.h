/* scenario.h - what one ppflow run shows: schedule, sizes, costs.
 *
 * A scenario comes from three places, later ones overriding earlier ones:
 * the built-in default (the table's defaults: 1f1b, P=4, M=8, D=2, 2 layers
 * per stage), a JSON file (scenario_json.c), and command-line flags. Every
 * field has the same name in JSON and as a flag (`--layers-per-stage` is
 * "layers_per_stage"); the table returned by scenario_fields() (name, type,
 * range, default, help) is the single list that the JSON reader, the flag
 * parser, scenario_init and --help all read.
 *
 *   {
 *     "schedule": "interleaved-1f1b",   name, or "csv:PATH" to import a PyTorch CSV
 *     "stages": 4,                      P, pipeline ranks
 *     "microbatches": 8,                M
 *     "virtual": 2,                     V, stages per rank (omit for the schedule's default)
 *     "dp": 2,                          D, data-parallel replicas
 *     "layers_per_stage": 2,
 *     "d_model": 8, "d_hidden": 16, "batch": 48,   sizes of the 3D picture (scene units)
 *     "stage_gap": 12, "replica_gap": 16,
 *     "costs": { "f": 1, "b": [2, 2, 2, 2.5], "i": 1, "w": 1, "fb": 3, "p2p": 0.1,
 *                "allreduce": 4 },
 *              (allreduce may be {"bytes":..,"bandwidth":..,"algorithm":"ring","latency":..})
 *     "beats": [{"t": 12.5, "title": "steady state", "caption": "...", "camera": "top",
 *                "notes": "..."}, {"after": "3B0", "title": "..."}],
 *     "auto_beats": false               (default true: the automatic beats too)
 *   }
 * A beat (beats.h) has exactly one of "t" (a time from 0) and "after" (the
 * compute action in PyTorch's notation whose end it is), a non-empty one-line
 * title, and optional caption, camera (a preset's name, checked by app/) and
 * notes (which may hold newlines); longer texts than beats.h's limits are
 * refused, naming the field ("beats[2].title"). As a flag, --beats auto keeps
 * the automatic beats only, --beats none drops them all, and --beats FILE
 * reads {"beats": [...], "auto_beats": ...} from FILE in place of the
 * scenario's.
 * A cost is a number or one number per rank (JSON array, or a comma list on
 * the command line). --allreduce takes seconds ("4") or the model form
 * BYTES/BANDWIDTH[/ring|tree[/LATENCY]] (numbers may carry k, M, G, T or
 * Ki, Mi, Gi, Ti suffixes).
 *
 * Call order:
 *     scenario sc; scenario_init(&sc);          (the built-in default)
 *     scenario_load_file(&sc, path, &err);      (optional)
 *     scenario_set(&sc, "microbatches", "16", &err) ...   (flags)
 *     scenario_build(&sc, &prog, &costs, &err); (program + resolved costs)
 *     scenario_deinit(&sc);
 *
 * Errors: one line naming the field, the value and the rule; unknown JSON
 * fields, malformed JSON, out-of-range values and per-rank lists of the wrong
 * length are all errors.
 * Messages name a field by its JSON path ("layers_per_stage", "costs.b") and
 * quote the value escaped and cut to stay one printable line (quote.h);
 * messages about a file start with its path. A call that fails leaves the scenario as it was
 * (a JSON text is applied whole or not at all).
 */
#ifndef PPFLOW_SCENARIO_H
#define PPFLOW_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>

#include "beats.h"
#include "budget.h"
#include "error.h"
#include "file_read.h"
#include "program.h"
#include "timeline.h"

/* Limits that keep a scenario within memory; each is named in its error. */
enum {
    SCENARIO_MAX_RANKS = 4096,
    SCENARIO_MAX_MICROBATCHES = 1000000,
    SCENARIO_MAX_VIRTUAL = 64,
    SCENARIO_MAX_DP = 1000000,
    SCENARIO_MAX_LAYERS = 1024,
    SCENARIO_MAX_SCENE_SIZE = 4096, /* d_model, d_hidden, batch and the gaps */
};

typedef struct cost_list {
    int count;      /* 0 = not given (default), 1 = one value for every rank, else one per rank */
    double *values; /* [count] */
} cost_list;

typedef enum scenario_field_id {
    FIELD_SCHEDULE = 0,
    FIELD_STAGES,
    FIELD_MICROBATCHES,
    FIELD_VIRTUAL,
    FIELD_DP,
    FIELD_LAYERS_PER_STAGE,
    FIELD_D_MODEL,
    FIELD_D_HIDDEN,
    FIELD_BATCH,
    FIELD_STAGE_GAP,
    FIELD_REPLICA_GAP,
    FIELD_F,
    FIELD_B,
    FIELD_I,
    FIELD_W,
    FIELD_FB,
    FIELD_P2P,
    FIELD_ALLREDUCE,
    FIELD_BEATS,
    FIELD_COUNT
} scenario_field_id;

typedef enum scenario_field_type {
    SCENARIO_FIELD_SCHEDULE,  /* a schedule name or "csv:PATH" (char[256]) */
    SCENARIO_FIELD_INT,       /* a whole number from min to max (int) */
    SCENARIO_FIELD_COST,      /* one cost, or one per rank (cost_list) */
    SCENARIO_FIELD_ALLREDUCE, /* the all-reduce's cost model (allreduce_cost) */
    SCENARIO_FIELD_BEATS,     /* the pause points of a talk (beat_specs): an array in JSON,
                                 auto, none or FILE as a flag */
} scenario_field_type;

/* One row of the field table. The JSON reader, the flag parser, --help,
 * scenario_init and scenario_build all read it, so a field's name, range
 * and default are written once. */
typedef struct scenario_field {
    scenario_field_id id;
    const char *json; /* JSON key ("layers_per_stage"); costs live under "costs" */
    const char *flag; /* command-line flag without dashes ("layers-per-stage") */
    const char *path; /* what messages call it: the JSON path ("costs.b") */
    const char *arg;  /* placeholder for --help ("N", "COST") */
    scenario_field_type type;
    size_t offset;        /* of the value in struct scenario */
    int min, max;         /* SCENARIO_FIELD_INT: the range */
    double def;           /* INT, COST: the default (0 for V: the schedule's own; for the
                             costs derived from others, i, w and fb, unused) */
    const char *def_text; /* SCHEDULE, ALLREDUCE: the default as it is written */
    const char *help;     /* one line for --help; {default} stands for the default */
    bool is_cost;         /* lives under "costs" in JSON */
} scenario_field;

typedef struct scenario {
    char schedule[256]; /* generator name, or "csv:PATH" */
    int stages;         /* P */
    int microbatches;   /* M */
    int virtual_stages; /* V; 0 = the schedule's default */
    int dp;             /* D */
    int layers_per_stage;
    int d_model;     /* scene: model width (z extent of a residual), in scene units */
    int d_hidden;    /* scene: hidden width (x extent of a layer) */
    int batch;       /* scene: a replica's batch (y extent of its band) */
    int stage_gap;   /* scene: gap between GPUs along the ranks (the p2p wires) */
    int replica_gap; /* scene: gap between data-parallel replicas along y (the all-reduce wire) */
    cost_list f, b, i, w, fb, p2p;
    allreduce_cost allreduce;
    beat_specs beats;  /* "beats" and "auto_beats" (or --beats): resolved by beats_build */
    unsigned set_mask; /* bit (1u << field id) for each field given by a file or a flag */
    char source[256];  /* "built-in default" or the scenario file's path */
    /* Files that files name (file_read.h): */
    bool csv_named_by_file; /* "csv:PATH" came from a JSON text (a scenario file, a talk), not
                               from a flag: only a regular file is read, confined when
                               confine is set */
    int csv_dir_len;        /* with csv_named_by_file: PATH's first csv_dir_len bytes are the
                               naming file's folder and a '/' (0: PATH as written, from the
                               working directory) */
    bool confine;           /* --confine: a file named by a file resolves inside the naming
                               file's folder, and the command line's files must be regular
                               files; text of the files named is never quoted */
    bool conceal;           /* holds values from a file named by a file, read confined: every
                               check on them quotes none of them (quote.h) */
} scenario;

/* The table of fields, in FIELD_* order; count in *n. */
const scenario_field *scenario_fields(int *n);

/* The field with this flag name (without dashes), JSON key or JSON path
 * ("costs.b"), or NULL. */
const scenario_field *scenario_field_find(const char *name);

/* The field's default as --help shows it ("4", "1f1b", "none") into out. */
void scenario_field_default(const scenario_field *f, char *out, size_t size);

void scenario_init(scenario *sc);   /* the built-in default scenario: the table's defaults */
void scenario_deinit(scenario *sc); /* accepts a zeroed or deinited scenario */
/* A deep copy of src into dst (not initialised): change one and the other
 * stays as it was. */
void scenario_copy(scenario *dst, const scenario *src);

/* Sets one field from its text form, as given on the command line. `field`
 * is the flag name, the JSON key or the JSON path ("costs.b"). Integers are
 * whole decimal numbers within the SCENARIO_MAX_* limits; a schedule name is
 * stored under its canonical name ("ZB1P" -> "zb-h1"). */
bool scenario_set(scenario *sc, const char *field, const char *value, ppf_error *err);

/* Applies a JSON scenario (text of len bytes, need not end in NUL) over *sc.
 * Besides the fields, a top-level "description" string is allowed (free
 * text for example files); duplicate keys are errors. */
bool scenario_parse_json(scenario *sc, const char *text, size_t len, ppf_error *err);

/* For readers of documents that hold scenarios (a talk, talk_file.h), which
 * must read JSON as scenario files are read and apply the same keys: */
struct cJSON;
/* The JSON document of text[0..len) (need not end in NUL), whose top level
 * must be an object (shape shows one in messages), with each number's text
 * as written kept in its valuestring for messages; NULL with one line
 * (malformed JSON with its line and column, a NUL byte, a \u0000 escape).
 * Free it with cJSON_Delete. */
struct cJSON *scenario_json_document(const char *text, size_t len, const char *shape,
                                     ppf_error *err);
/* The same for a file (at most 16 MiB; `what` names it in messages: "a
 * talk file"); messages start with its path. With regular_only a pipe or a
 * device is refused (file_read.h), else read as a stream. */
struct cJSON *scenario_json_load(const char *path, const char *what, const char *shape,
                                 bool regular_only, ppf_error *err);
/* Applies a scenario's keys in a JSON object over *sc, whole or not at all,
 * as scenario_parse_json does; the keys listed in skip (NULL-ended, may be
 * NULL) are the caller's: left alone here, and named among the known keys
 * when a key is unknown. file (may be NULL) anchors a relative "csv:PATH". */
bool scenario_apply_json(scenario *sc, const struct cJSON *object, const char *file,
                         const char *const *skip, ppf_error *err);

/* Reads a beats file, {"beats": [...], "auto_beats": true|false} (at most 16
 * MiB; auto_beats defaults to true), into *out (not initialised; left zeroed
 * on failure): what --beats FILE puts in place of a scenario's beats.
 * With regular_only, a pipe or a device is refused (file_read.h).
 * Messages start with the path and name the field ("beats[2].title"). */
bool scenario_load_beats_file(beat_specs *out, const char *path, bool regular_only, ppf_error *err);

/* Reads a JSON scenario file (at most 16 MiB) and applies it over *sc; sets
 * sc->source to the path. A relative "csv:PATH" in the file is taken
 * relative to the file's folder. The file is the one the command line
 * names: with sc->confine it must be a regular file, else a pipe is read
 * too. */
bool scenario_load_file(scenario *sc, const char *path, ppf_error *err);

/* The same for a scenario file that another file names (a talk's "base" or
 * a slide's "scenario"): ref->name from ref->dir, by file_read.h's rules
 * for references (a regular file, no pseudo-file; inside ref->dir when
 * ref->confine, and then none of its text is quoted in messages, and the
 * scenario is marked to conceal it in later checks too). Messages start
 * with dir/name as the kernel would join them. */
bool scenario_load_ref(scenario *sc, const file_ref *ref, ppf_error *err);

/* Builds the program (generated, or imported from the CSV) and resolves the
 * costs to one value per rank. *prog and *costs must not be initialised; on
 * failure both are left zeroed. A CSV that a JSON text named
 * (csv_named_by_file) is read as file_read.h reads a file another file
 * names, confined with sc->confine, its cells never quoted then; one from a
 * flag may be a pipe (a regular file only with sc->confine). With
 * csv:PATH the CSV decides P, M and V, and
 * stages, microbatches or virtual set explicitly (set_mask) must agree with
 * it; a program over the budget (budget.h) is refused before anything big
 * is allocated. Costs: F=1, B=2, I=W=B/2, FB=F+B, p2p=0 by default;
 * with only I (or W) given the other is B minus it, with I and W but no B,
 * B = I + W. */
bool scenario_build(const scenario *sc, program *prog, timeline_costs *costs, ppf_error *err);

/* What building the scenario will hold (budget.h, totals), counted from
 * its sizes before anything is built: a generated program's actions as
 * budget_check_generated counts them, a CSV's cells and sizes from one walk
 * over the file (csv_measure; a FIFO counts as the limits), the scene's
 * objects when with_scene. False with the build's own message for what the
 * count cannot pass (an unknown schedule, a CSV that cannot be read or is
 * over a limit alone). */
bool scenario_cost(const scenario *sc, bool with_scene, budget_cost *out, ppf_error *err);

/* Parses "1", "1,2,3" into a cost list (finite, >= 0). `field` names it in errors.
 * *out must not be initialised; on failure it is left zeroed. */
bool cost_list_parse(cost_list *out, const char *field, const char *text, ppf_error *err);
void cost_list_deinit(cost_list *c);

/* A number with an optional scale suffix (k K M G T = powers of 1000, Ki
 * Mi Gi Ti = powers of 1024) and an optional trailing B, all of
 * text[0..len): "1.5GB", "64KiB"; finite, or false. */
bool scenario_parse_scaled(const char *text, size_t len, double *out);

/* Parses the --allreduce forms into *out: "none", a time ("4"), or
 * BYTES/BANDWIDTH[/ring|tree[/LATENCY]] (ring when not given, latency 0).
 * On failure *out is unchanged. */
bool allreduce_parse(allreduce_cost *out, const char *text, ppf_error *err);

#endif
