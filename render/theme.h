/* theme.h - every colour ppflow shows, in two looks: dark for screens,
 * light for projectors. One table (theme.c) holds both.
 *
 * Object colours follow DESIGN.md's Okabe-Ito palette (colour-blind safe):
 * weights blue #0072B2, activations bluish green #009E73, gradients
 * vermillion #D55E00, matmul boxes yellow #F0E442 (translucent), p2p orange
 * #E69F00, all-reduce reddish purple #CC79A7. The timeline's bars keep those
 * meanings: forward work makes activations (green; an overlapped F+B a
 * deeper green), backward work makes gradients (vermillion; the input half
 * I a lighter shade of it), W accumulates weight gradients (the weight
 * blue). A theme also carries the background, text and line colours of the
 * 3D view, the HUD and the timeline panel (bubble, cursor, memory lane).
 *
 * Who reads it: the 3D view and the HUD (theme.role, .panel, .text...), the
 * timeline panel (theme.timeline), and the terminal Gantt of
 * `ppflow schedule --format gantt` (app/report), which draws each action
 * kind in the colour the window gives it (theme_action_colour).
 *
 * What it does not do: no GL, no fonts, no terminal codes; pure data, so
 * app/report and the fuzz build use it without a display.
 *
 * Call order: theme_get() whenever the colours are needed (it copies a
 * constant table; no init, nothing to free).
 */
#ifndef PPFLOW_THEME_H
#define PPFLOW_THEME_H

#include "action.h"
#include "colour.h"
#include "scene.h"

typedef enum theme_id { THEME_DARK = 0, THEME_LIGHT, THEME_COUNT } theme_id;

/* Colours of the timeline panel. Kinds are also told apart without colour
 * (timeline_panel.c: F solid, B and I hatched, W dotted, F+B cross-hatched),
 * and in the terminal by their letters. */
typedef struct timeline_palette {
    rgba8 background;    /* the panel */
    rgba8 row_alt;       /* every other row's background */
    rgba8 text;          /* labels, ticks, tooltip text */
    rgba8 grid;          /* tick lines across the rows, separators */
    rgba8 bubble;        /* idle time inside a row (hatch ink; the fill is fainter) */
    rgba8 f, b, i, w;    /* bars of each kind */
    rgba8 fb;            /* overlapped F+B (cross-hatched with the B colour) */
    rgba8 p2p;           /* transfer arrows */
    rgba8 allreduce;     /* all-reduce bars */
    rgba8 cursor;        /* the line at t and its handle */
    rgba8 selection;     /* the selected action's outline, an area selection (inspect_overlay.h) */
    rgba8 critical;      /* the critical path's outlines and transfers */
    rgba8 memory;        /* the live-activation curves */
    rgba8 memory_figure; /* the same in a figure (SVG, PDF), where no 3D tiles share the
                            activation green and it reads as more forward bars */
    rgba8 label_dark;    /* micro-batch numbers on light bars (colour_is_light) */
    rgba8 label_light;   /* micro-batch numbers on dark bars */
} timeline_palette;

typedef struct theme {
    const char *name;             /* "dark", "light" */
    rgba8 background;             /* 3D view */
    rgba8 panel;                  /* timeline panel and HUD cards */
    rgba8 text, text_dim;         /* body text, secondary text (also the terminal's idle time) */
    rgba8 edge;                   /* rims of faces and boxes */
    rgba8 grid;                   /* floor lines, dividers */
    rgba8 role[SCENE_ROLE_COUNT]; /* object colours by scene_role */
    timeline_palette timeline;    /* the timeline panel, and the terminal Gantt's kinds */
} theme;

/* The theme's colours (an unknown id gives the dark theme). */
theme theme_get(theme_id id);
/* The id of the theme called `name` ("dark", "light"), or -1. */
int theme_find(const char *name);
/* The bar colour of a compute kind (F, B, I, W, F+B; a programmer's mistake
 * for another kind). */
rgba8 theme_action_colour(const timeline_palette *pal, action_kind kind);
/* The ink for a label drawn on `fill`: label_dark on light fills, else label_light. */
rgba8 theme_label_on(const timeline_palette *pal, rgba8 fill);

/* How bars are filled, in the window and in a figure (SVG, PDF) alike:
 * colour plus pattern, so that F, B/I, W and F+B differ in greyscale too. */
typedef enum theme_pattern {
    THEME_PATTERN_SOLID,
    THEME_PATTERN_HATCH,      /* stripes along "\" */
    THEME_PATTERN_DOTS,       /* a grid of dots */
    THEME_PATTERN_CROSSHATCH, /* both diagonals */
} theme_pattern;

typedef struct theme_fill {
    rgba8 fill;            /* the colour under the pattern */
    rgba8 ink;             /* the pattern's */
    theme_pattern pattern; /* SOLID: fill alone */
} theme_fill;

/* A compute kind's bars: F solid, B and I hatched, W dotted, F+B
 * crosshatched in B's colour; the ink a lighter shade of the fill, visible
 * but quiet enough for the micro-batch numbers drawn over it. */
theme_fill theme_action_fill(const timeline_palette *pal, action_kind kind);
/* Idle time (the bubble): a faint hatch of the bubble colour on itself at
 * two fifths of its alpha. */
theme_fill theme_bubble_fill(const timeline_palette *pal);

#endif
