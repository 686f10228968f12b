/* theme.c - the one table of colours, dark and light. See theme.h. */
#include "theme.h"

#include <assert.h>
#include <string.h>

/* The table reads best one colour a line: clang-format would pack it. */
/* clang-format off */

/* An opaque colour and a translucent one from 0xRRGGBB, as initialisers. */
#define HEX(v) {(uint8_t)((v) >> 16), (uint8_t)((v) >> 8), (uint8_t)(v), 255}
#define HEXA(v, a) {(uint8_t)((v) >> 16), (uint8_t)((v) >> 8), (uint8_t)(v), (a)}

/* DESIGN.md's Okabe-Ito palette: what each object is, in both themes. */
#define WEIGHT_BLUE HEX(0x0072B2)
#define ACTIVATION_GREEN HEX(0x009E73)
#define GRADIENT_VERMILLION HEX(0xD55E00)
#define MATMUL_YELLOW HEX(0xF0E442)
#define P2P_ORANGE HEX(0xE69F00)
#define ALLREDUCE_PURPLE HEX(0xCC79A7)

/* The objects by scene_role, the same in both themes but for the matmul
 * boxes' yellow and the neutral greys of a GPU's plate and of an idle
 * stage block (a running block wears its action's bar colour). */
#define ROLE_COLOURS(matmul, plate, idle)             \
    {                                                 \
        [SCENE_ROLE_WEIGHT] = WEIGHT_BLUE,            \
        [SCENE_ROLE_ACTIVATION] = ACTIVATION_GREEN,   \
        [SCENE_ROLE_GRADIENT] = GRADIENT_VERMILLION,  \
        [SCENE_ROLE_MATMUL] = matmul,                 \
        [SCENE_ROLE_P2P] = P2P_ORANGE,                \
        [SCENE_ROLE_ALLREDUCE] = ALLREDUCE_PURPLE,    \
        [SCENE_ROLE_GPU] = plate,                     \
        [SCENE_ROLE_COMPUTE] = idle,                  \
    }

/* The timeline's bars, the same in both themes: the work that makes an
 * object wears its colour (theme.h), and labels on them are dark or white. */
#define BAR_COLOURS                    \
    .f = ACTIVATION_GREEN,             \
    .b = GRADIENT_VERMILLION,          \
    .i = HEX(0xE8845A),                \
    .w = WEIGHT_BLUE,                  \
    .fb = HEX(0x00805D),               \
    .allreduce = ALLREDUCE_PURPLE,     \
    .label_dark = HEX(0x111111),       \
    .label_light = HEX(0xFFFFFF)

#define DARK_PANEL HEX(0x1F2228)
#define DARK_TEXT HEX(0xECECEC)
#define LIGHT_PANEL HEX(0xEDEDE8)
#define LIGHT_TEXT HEX(0x1A1A1A)

static const theme themes[THEME_COUNT] = {
    [THEME_DARK] = {
        .name = "dark",
        .background = HEX(0x16181D),
        .panel = DARK_PANEL,
        .text = DARK_TEXT,
        .text_dim = HEX(0xA0A4AC),
        .edge = HEX(0x08090B),
        .grid = HEX(0x3A3F48),
        .role = ROLE_COLOURS(MATMUL_YELLOW, HEX(0x4A505C), HEX(0x6A717E)),
        .timeline = {
            BAR_COLOURS,
            .background = DARK_PANEL,
            .row_alt = HEX(0x262A31),
            .text = DARK_TEXT,
            .grid = HEXA(0xFFFFFF, 26),
            /* What a lecture points at: 3:1 against the rows (WCAG contrast of
             * the hatch's mean luminance; tests/test_legibility.c measures it). */
            .bubble = HEX(0xB4B8C0),
            .p2p = P2P_ORANGE,
            .cursor = MATMUL_YELLOW,
            .selection = HEX(0xFFFFFF),
            .critical = HEX(0x56B4E9), /* Okabe-Ito's sky blue: no bar wears it */
            .memory = HEXA(0x009E73, 210), /* the activation green, translucent */
            .memory_figure = HEXA(0x56B4E9, 210), /* Okabe-Ito's sky blue */
        },
    },
    [THEME_LIGHT] = {
        .name = "light",
        .background = HEX(0xFAFAF7),
        .panel = LIGHT_PANEL,
        .text = LIGHT_TEXT,
        .text_dim = HEX(0x5A5A5A),
        .edge = HEX(0x202020),
        .grid = HEX(0xC8C8C0),
        /* Yellow on white vanishes: a deeper yellow for the matmul boxes. */
        .role = ROLE_COLOURS(HEX(0xD4C20A), HEX(0xB9B9B0), HEX(0xDADAD3)),
        .timeline = {
            BAR_COLOURS,
            .background = LIGHT_PANEL,
            .row_alt = HEX(0xE2E2DC),
            .text = LIGHT_TEXT,
            .grid = HEXA(0x000000, 28),
            .bubble = HEX(0x2A2A2A), /* 3:1 against the rows, as in the dark theme */
            .p2p = HEX(0xC98A00), /* thin arrows on a light panel: a deeper orange */
            .cursor = HEX(0x000000),
            .selection = HEX(0x000000),
            .critical = HEX(0x0B5C9E), /* the sky blue, deep enough for a light panel */
            .memory = HEXA(0x009E73, 200),
            .memory_figure = HEXA(0x56B4E9, 200),
        },
    },
};

/* clang-format on */

theme theme_get(theme_id id)
{
    return themes[(unsigned)id < THEME_COUNT ? id : THEME_DARK];
}

int theme_find(const char *name)
{
    for (int k = 0; k < THEME_COUNT; k++)
        if (name && strcmp(name, themes[k].name) == 0)
            return k;
    return -1;
}

rgba8 theme_action_colour(const timeline_palette *pal, action_kind kind)
{
    switch (kind) {
    case ACTION_F:
        return pal->f;
    case ACTION_B:
        return pal->b;
    case ACTION_I:
        return pal->i;
    case ACTION_W:
        return pal->w;
    case ACTION_OVERLAP_F_B:
        return pal->fb;
    default:
        assert(!"theme_action_colour: not a compute kind");
        return pal->f;
    }
}

theme_fill theme_action_fill(const timeline_palette *pal, action_kind kind)
{
    switch (kind) {
    case ACTION_B:
        return (theme_fill){pal->b, colour_lighten(pal->b, 0.3f), THEME_PATTERN_HATCH};
    case ACTION_I:
        return (theme_fill){pal->i, colour_lighten(pal->i, 0.3f), THEME_PATTERN_HATCH};
    case ACTION_W:
        return (theme_fill){pal->w, colour_lighten(pal->w, 0.35f), THEME_PATTERN_DOTS};
    case ACTION_OVERLAP_F_B:
        return (theme_fill){pal->fb, pal->b, THEME_PATTERN_CROSSHATCH};
    default:
        return (theme_fill){pal->f, pal->f, THEME_PATTERN_SOLID};
    }
}

theme_fill theme_bubble_fill(const timeline_palette *pal)
{
    const rgba8 ink = pal->bubble;
    return (theme_fill){colour_with_alpha(ink, (uint8_t)(ink.a * 2 / 5)), ink, THEME_PATTERN_HATCH};
}

rgba8 theme_label_on(const timeline_palette *pal, rgba8 fill)
{
    return colour_is_light(fill) ? pal->label_dark : pal->label_light;
}
