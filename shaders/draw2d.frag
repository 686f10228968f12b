#version 330 core
// draw2d.frag - the fills of 2D primitives, one program each: draw2d.c
// compiles this file seven times with `#define DRAW2D_FILL n` inserted after
// the #version line (n = FILL_* below). One shader with a per-vertex mode
// would be simpler, but llvmpipe runs every side of a branch for every
// fragment (it has no real branches, not even on a uniform), which made
// plain rectangles three times as expensive as they need to be at 1080p.
// Output is premultiplied (blending is GL_ONE, GL_ONE_MINUS_SRC_ALPHA).

#define FILL_SOLID 0
#define FILL_HATCH 1
#define FILL_DOTS 2
#define FILL_CROSSHATCH 3
#define FILL_GLYPH 4
#define FILL_LINE 5
#define FILL_IMAGE 6

#ifndef DRAW2D_FILL
#define DRAW2D_FILL FILL_SOLID
#endif

in vec2 v_uv;
flat in float v_param;
flat in vec4 v_color;
flat in vec4 v_ink;

out vec4 frag_color;

#if DRAW2D_FILL == FILL_SOLID

void main()
{
    frag_color = v_color;
}

#elif DRAW2D_FILL == FILL_GLYPH

uniform sampler2D u_atlas; // GL_R8 glyph coverage (text.h), on unit 0

void main()
{
    frag_color = v_color * texture(u_atlas, v_uv).r;
}

#elif DRAW2D_FILL == FILL_IMAGE

uniform sampler2D u_atlas; // pixels kept by draw2d_keep, on unit 0

// v_uv is the kept rectangle's GL origin on every vertex: texel = pixel - origin.
void main()
{
    frag_color = texelFetch(u_atlas, ivec2(gl_FragCoord.xy) - ivec2(floor(v_uv + 0.5)), 0);
}

#elif DRAW2D_FILL == FILL_LINE

// Full coverage within the half thickness (v_param) of the line's middle,
// a 1-pixel ramp outside it: antialiased edges for an abs and a clamp.
void main()
{
    frag_color = v_color * clamp(v_param + 0.5 - abs(v_uv.x), 0.0, 1.0);
}

#else // patterns, anchored to the framebuffer so neighbouring bars line up

const float INV_SQRT2 = 0.70710678;

// Coverage (0..1) of diagonal stripes that repeat every `period` pixels
// along x (and y), s being x + y or x - y: an integer period gives every
// stripe the same pixels. Stripes are 40% of the period; the edges get a
// 1-pixel ramp measured across the stripe.
float stripes(float s, float period)
{
    float d = abs(mod(s, period) - 0.5 * period); // to the stripe's middle, along x
    return clamp((0.2 * period - d) * INV_SQRT2 + 0.5, 0.0, 1.0);
}

uniform vec2 u_anchor; // where patterns repeat from (draw2d_anchor_patterns), GL pixels

void main()
{
    vec2 p = gl_FragCoord.xy - u_anchor;
    float period = v_param;
#if DRAW2D_FILL == FILL_DOTS
    vec2 c = mod(p, period) - 0.5 * period;
    float k = clamp(0.25 * period + 0.5 - length(c), 0.0, 1.0);
#elif DRAW2D_FILL == FILL_CROSSHATCH
    float k = max(stripes(p.x + p.y, period), stripes(p.x - p.y, period));
#else
    float k = stripes(p.x + p.y, period);
#endif
    // Stripe pixels are the ink, the rest the fill: the ink replaces the
    // fill rather than being composited over it, so a translucent ink gives
    // exactly that shade. Mixed premultiplied, so antialiased edges between
    // colours of different alphas do not darken.
    frag_color = mix(v_color, v_ink, k);
}

#endif
