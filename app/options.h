/* options.h - command-line options as typed rows: one parser and the
 * --help layout for every command.
 *
 * A command describes its options as a table of rows (name, short name,
 * value placeholder, type, the field the value goes to, range, help). The
 * parser reads argv into the command's request struct through the rows; the
 * help printer writes one line per row, with the row's default read from
 * the same field of a request filled with the command's defaults, so the
 * parser, the defaults and --help cannot disagree. Scenario fields
 * (scenario.h's table) are options too: they are collected in order, for
 * session_build to apply, and printed with their own defaults.
 *
 * Forms accepted: --NAME VALUE, --NAME=VALUE, -X VALUE, -XVALUE, a switch
 * alone (--quiet, -q); one positional SCENARIO.json (or "-"), up to
 * OPTIONS_MAX_PATHS where the command takes several (a comparison); after
 * "--" every argument is positional.
 *
 * What it does not do: know any command. Values are checked here as far
 * as their row says (type, range, a name to look up); what depends on the
 * scenario (a time within the iteration) is the command's to check.
 *
 * Call order:
 *     option_args args;
 *     if (!options_parse(&(option_set){rows, count, allowed, "render"}, argc, argv, &request,
 *                        &args, &err)) ...
 *     ... session_build(&s, args.scenario_path, args.flags, args.flag_count, &err) ...
 *     option_args_deinit(&args);
 *
 * Errors: false with one line naming the option, the value as given (cut
 * to 40 bytes) and the rule; an unknown option suggests the closest known
 * one. The request may then hold some of the values; args is safe to
 * deinit.
 */
#ifndef PPFLOW_OPTIONS_H
#define PPFLOW_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "error.h"
#include "session.h"

typedef enum option_type {
    OPTION_SWITCH, /* no value: the bool field becomes true */
    OPTION_TEXT,   /* const char *: the value as given; `valid` may refuse it */
    OPTION_INT,    /* int: a whole number from min to max */
    OPTION_NUMBER, /* double: a finite number from min to max, above 0 too with `positive` */
    OPTION_CHOICE, /* int: what `find` returns for the name; -1 refuses it */
    OPTION_CUSTOM, /* its own syntax: `parse` writes the field */
} option_type;

typedef struct option_row {
    const char *name; /* long name without dashes */
    char short_name;  /* single-dash letter, or 0 */
    const char *arg;  /* placeholder of the value ("N", "FILE"); NULL for a switch */
    option_type type;
    size_t field;     /* offsetof the value in the command's request struct */
    double min, max;  /* INT, NUMBER: the range */
    bool positive;    /* NUMBER: must also be above 0 */
    const char *unit; /* INT, and NUMBER's "above 0": what the number counts ("columns") */
    const char *help; /* one line for --help; {default} stands for the default */
    bool (*valid)(const char *text);   /* TEXT: false refuses; NULL takes anything */
    int (*find)(const char *name);     /* CHOICE: the value for a name, or -1 */
    const char *(*name_of)(int value); /* CHOICE: the name --help shows for a value */
    const char *refused;               /* TEXT, CHOICE: the rule a refused value breaks */
    bool (*parse)(const char *text, void *field, ppf_error *err); /* CUSTOM */
    /* The default as --help words it, when it is not the field's own value
     * (computed later, or per command): "the terminal's, else 120". */
    void (*show_default)(char *out, size_t size);
} option_row;

/* A command's options: its rows, and which of them it takes. */
typedef struct option_set {
    const option_row *rows;
    int count;           /* at most 32 */
    unsigned allowed;    /* bit k: rows[k] is an option of this command */
    const char *command; /* for messages: "see ppflow COMMAND --help" */
    int max_paths;       /* positional scenario files it takes, up to OPTIONS_MAX_PATHS; 0: 1 */
} option_set;

/* The most positional scenario files a command line holds (a comparison's
 * sides). */
enum { OPTIONS_MAX_PATHS = 4 };

/* What a command line holds besides the options' values. */
typedef struct option_args {
    const char *scenario_path; /* the positional SCENARIO.json, or NULL (paths[0]) */
    const char *paths[OPTIONS_MAX_PATHS]; /* every positional file, in order */
    int path_count;
    session_flag *flags;       /* scenario fields set, in command-line order */
    int flag_count;
    unsigned given; /* bit k: rows[k] was given */
} option_args;

/* Reads argv[1..argc) (argv[0] is the command's name) into request, whose
 * fields the rows name, and into *args. */
bool options_parse(const option_set *set, int argc, char **argv, void *request, option_args *args,
                   ppf_error *err);
void option_args_deinit(option_args *args); /* accepts a zeroed or deinited one */

/* "  NAME  help", the help wrapped at 100 columns under its own column:
 * the layout of every --help line. */
void options_print_line(FILE *f, const char *name, const char *help);
/* "TITLE:" and one line per allowed row; {default} from the same field of
 * `defaults`, a request filled with the command's defaults. */
void options_print(FILE *f, const char *title, const option_set *set, const void *defaults);
/* The scenario fields as options, with their defaults. */
void options_print_scenario(FILE *f);

#endif
