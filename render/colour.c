/* colour.c - hex, alpha, mixing and lightness of one colour. See colour.h. */
#include "colour.h"

#include <math.h>
#include <stdio.h>

rgba8 colour_hex(uint32_t rgb)
{
    return (rgba8){(uint8_t)(rgb >> 16), (uint8_t)(rgb >> 8), (uint8_t)rgb, 255};
}

uint32_t colour_rgb(rgba8 c)
{
    return (uint32_t)c.r << 16 | (uint32_t)c.g << 8 | c.b;
}

const char *colour_format_hex(rgba8 c, char buf[COLOUR_HEX_MAX])
{
    if (c.a == 255)
        snprintf(buf, COLOUR_HEX_MAX, "#%02X%02X%02X", c.r, c.g, c.b);
    else
        snprintf(buf, COLOUR_HEX_MAX, "#%02X%02X%02X%02X", c.r, c.g, c.b, c.a);
    return buf;
}

rgba8 colour_with_alpha(rgba8 c, uint8_t a)
{
    c.a = a;
    return c;
}

rgba8 colour_mix(rgba8 a, rgba8 b, float f)
{
    return (rgba8){(uint8_t)lrintf(a.r + (b.r - a.r) * f), (uint8_t)lrintf(a.g + (b.g - a.g) * f),
                   (uint8_t)lrintf(a.b + (b.b - a.b) * f), (uint8_t)lrintf(a.a + (b.a - a.a) * f)};
}

rgba8 colour_lighten(rgba8 c, float f)
{
    return colour_mix(c, (rgba8){255, 255, 255, c.a}, f);
}

rgba8 colour_darken(rgba8 c, float f)
{
    return colour_mix(c, (rgba8){0, 0, 0, c.a}, f);
}

bool colour_is_light(rgba8 c)
{
    const float luma = 0.299f * c.r + 0.587f * c.g + 0.114f * c.b;
    return luma > 150;
}
