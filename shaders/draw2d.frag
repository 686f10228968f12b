#version 330 core
// draw2d.frag - one shader for every 2D primitive, chosen by v_mode (see
// draw2d.c). Kept to a handful of ALU operations per fragment: it runs on
// llvmpipe (CPU) at 1920x1080 next to the 3D scene. The common cases (solid,
// glyph) return first.

uniform sampler2D u_atlas; // GL_R8 glyph coverage (text.h)

in vec2 v_uv;
flat in float v_param;
flat in vec4 v_color;
flat in vec4 v_ink;
flat in uint v_mode;

out vec4 frag_color;

const uint MODE_SOLID = 0u;
const uint MODE_HATCH = 1u;
const uint MODE_DOTS = 2u;
const uint MODE_CROSSHATCH = 3u;
const uint MODE_GLYPH = 4u;
const uint MODE_LINE = 5u;

const float INV_SQRT2 = 0.70710678;

// Coverage (0..1) of diagonal stripes that repeat every `period` pixels
// along x (and y), s being x + y or x - y: an integer period gives every
// stripe the same pixels. Stripes are 40% of the period; the edges get a
// 1-pixel ramp (measured across the stripe) for the price of an abs and a
// clamp.
float stripes(float s, float period)
{
    float d = abs(mod(s, period) - 0.5 * period); // to the stripe's middle, along x
    return clamp((0.2 * period - d) * INV_SQRT2 + 0.5, 0.0, 1.0);
}

void main()
{
    if (v_mode == MODE_SOLID) {
        frag_color = v_color;
        return;
    }
    if (v_mode == MODE_GLYPH) {
        frag_color = vec4(v_color.rgb, v_color.a * texture(u_atlas, v_uv).r);
        return;
    }
    if (v_mode == MODE_LINE) {
        // Full coverage within the half thickness, a 1-pixel ramp outside.
        float cover = clamp(v_param + 0.5 - abs(v_uv.x), 0.0, 1.0);
        frag_color = vec4(v_color.rgb, v_color.a * cover);
        return;
    }

    // Patterns, anchored to the framebuffer so neighbouring bars line up.
    vec2 p = gl_FragCoord.xy;
    float period = v_param;
    float k;
    if (v_mode == MODE_DOTS) {
        vec2 c = mod(p, period) - 0.5 * period;
        k = clamp(0.25 * period + 0.5 - length(c), 0.0, 1.0);
    } else {
        k = stripes(p.x + p.y, period);
        if (v_mode == MODE_CROSSHATCH)
            k = max(k, stripes(p.x - p.y, period));
    }
    // Stripe pixels are the ink, the rest the fill (the ink replaces the
    // fill rather than being composited over it, so a translucent ink gives
    // exactly that shade); mixed premultiplied so the antialiased edges of
    // colours with different alphas do not darken.
    vec4 fill = vec4(v_color.rgb * v_color.a, v_color.a);
    vec4 ink = vec4(v_ink.rgb * v_ink.a, v_ink.a);
    vec4 pm = mix(fill, ink, k);
    frag_color = vec4(pm.rgb / max(pm.a, 1e-6), pm.a);
}
