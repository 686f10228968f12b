/* theme.h - the colours of one look: dark for screens, light for projectors.
 *
 * Object colours follow DESIGN.md's Okabe-Ito palette (colour-blind safe):
 * weights blue #0072B2, activations bluish green #009E73, gradients
 * vermillion #D55E00, matmul boxes yellow #F0E442 (translucent), p2p orange
 * #E69F00, all-reduce reddish purple #CC79A7. A theme also carries the
 * background, text and line colours of the 3D view, the HUD and the panel.
 *
 * What it does not do: no GL, no fonts; pure data.
 */
#ifndef PPFLOW_THEME_H
#define PPFLOW_THEME_H

#include "draw2d.h"
#include "scene.h"

typedef enum theme_id {
    THEME_DARK = 0,
    THEME_LIGHT,
    THEME_COUNT
} theme_id;

typedef struct theme {
    const char *name;                /* "dark", "light" */
    rgba8 background;                /* 3D view */
    rgba8 panel;                     /* timeline panel and HUD cards */
    rgba8 text, text_dim;            /* body text, secondary text */
    rgba8 edge;                      /* rims of faces and boxes */
    rgba8 grid;                      /* floor lines, dividers */
    rgba8 role[SCENE_ROLE_COUNT];    /* object colours by scene_role */
} theme;

/* The theme's colours; theme_find returns -1 for an unknown name. */
theme theme_get(theme_id id);
int theme_find(const char *name);

#endif
