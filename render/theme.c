/* theme.c - dark and light colours. See theme.h. */
#include "theme.h"

#include <string.h>

static rgba8 hex(unsigned v)
{
    return (rgba8){(uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v, 255};
}

theme theme_get(theme_id id)
{
    theme t = {
        .role =
            {
                [SCENE_ROLE_WEIGHT] = hex(0x0072B2),
                [SCENE_ROLE_ACTIVATION] = hex(0x009E73),
                [SCENE_ROLE_GRADIENT] = hex(0xD55E00),
                [SCENE_ROLE_MATMUL] = hex(0xF0E442),
                [SCENE_ROLE_P2P] = hex(0xE69F00),
                [SCENE_ROLE_ALLREDUCE] = hex(0xCC79A7),
            },
    };
    if (id == THEME_LIGHT) {
        t.name = "light";
        t.background = hex(0xFAFAF7);
        t.panel = hex(0xEDEDE8);
        t.text = hex(0x1A1A1A);
        t.text_dim = hex(0x5A5A5A);
        t.edge = hex(0x202020);
        t.grid = hex(0xC8C8C0);
        /* Yellow on white vanishes: a deeper yellow for the matmul boxes. */
        t.role[SCENE_ROLE_MATMUL] = hex(0xD4C20A);
    } else {
        t.name = "dark";
        t.background = hex(0x16181D);
        t.panel = hex(0x1F2228);
        t.text = hex(0xECECEC);
        t.text_dim = hex(0xA0A4AC);
        t.edge = hex(0x08090B);
        t.grid = hex(0x3A3F48);
    }
    return t;
}

int theme_find(const char *name)
{
    for (int k = 0; k < THEME_COUNT; k++)
        if (name && strcmp(name, theme_get((theme_id)k).name) == 0)
            return k;
    return -1;
}
