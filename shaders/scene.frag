#version 330 core
// Flat colour, directional shading so a box's faces differ, a darker rim so
// neighbouring faces stay apart, the weights' gradient fill rising from the
// bottom edge, and the patterns that tell kinds apart without colour.
//
// One program per mode (scene_renderer.c compiles this file with
// `#define SCENE_MODE n` after the #version line), as draw2d.frag does for
// its fills: llvmpipe runs every side of every branch for every fragment,
// and the opaque passes are drawn a mode at a time. SCENE_MODE_ANY (the
// translucent pass, drawn back to front in one call) reads the mode per
// instance; SCENE_MODE_CHEVRON draws both directions of a wire.
#define MODE_PLAIN 0
#define MODE_HATCH 1
#define MODE_DOTS 2
#define MODE_CROSSHATCH 3
#define MODE_SHADOW 4
#define MODE_CHEVRON_UP 5
#define MODE_CHEVRON_DOWN 6
#define SCENE_MODE_ANY -1
#define SCENE_MODE_CHEVRON 7

#ifndef SCENE_MODE
#define SCENE_MODE SCENE_MODE_ANY
#endif
// Whether this program draws faces of mode m.
#define DRAWS(m) (SCENE_MODE == SCENE_MODE_ANY || SCENE_MODE == (m) || \
                  (SCENE_MODE == SCENE_MODE_CHEVRON && \
                   ((m) == MODE_CHEVRON_UP || (m) == MODE_CHEVRON_DOWN)))

flat in float v_shade; // the face's light (scene.vert)
in vec2 v_uv;
flat in vec4 v_color;
flat in vec4 v_color2;
flat in vec4 v_params;

uniform vec3 u_edge_color;
uniform float u_edge_px;   // the rim's width in pixels (the frame's line width)
uniform float u_px;        // pixels here per pixel of the output (a supersampled still's k)
uniform vec2 u_origin;     // the view's lower-left corner in the target: patterns start there

out vec4 frag;

// v_params.w: what the face draws besides its colour (scene_renderer.c's
// MODE_*): the timeline's patterns in the ink v_color2, a soft shadow, or
// chevrons pointing along +u or -u (a wire's direction).

// Coverage of a stripe of half-width w (pixels) at signed distance d, with
// a one-pixel ramp: anti-aliased without multisampling.
float stripe(float d, float w)
{
    return 1.0 - smoothstep(w - 0.5, w + 0.5, abs(d));
}

void main()
{
#if SCENE_MODE == SCENE_MODE_ANY || SCENE_MODE == SCENE_MODE_CHEVRON
    int mode = int(v_params.w * 255.0 + 0.5);
#else
    const int mode = SCENE_MODE;
#endif
#if DRAWS(MODE_SHADOW)
    if (mode == MODE_SHADOW) {
        // darkest under the middle, fading to nothing at the edges
        vec2 d = min(v_uv, 1.0 - v_uv) * 2.0;
        float a = smoothstep(0.0, 0.55, min(d.x, d.y));
        frag = vec4(v_color.rgb, v_color.a * a);
        return;
    }
#endif
#if SCENE_MODE != MODE_SHADOW
    vec2 px = 1.0 / max(fwidth(v_uv), vec2(1e-6)); // the face's size in pixels
    // Weights keep a rim of their own colour while the accumulated gradient
    // rises inside it, so a full face still reads as a weight, not as an
    // activation's gradient.
    const float rim = 0.14;
    vec2 inner = (v_uv - rim) / (1.0 - 2.0 * rim);
    // The share of the pixel the fill (inner 0..1 across, 0..level up)
    // covers, from its distances in pixels to the fill's sides: a smooth
    // edge at 1x and under multisampling alike, which shades a pixel once.
    vec2 inner_px = px * (1.0 - 2.0 * rim);
    float fx = min(inner.x, 1.0 - inner.x) * inner_px.x;
    float fy = min(inner.y, v_params.x - inner.y) * inner_px.y;
    float fill = v_params.x > 0.0 && mode == 0
                     ? clamp(fx + 0.5, 0.0, 1.0) * clamp(fy + 0.5, 0.0, 1.0)
                     : 0.0;
    vec3 c = mix(v_color.rgb, v_color2.rgb, fill);
#if DRAWS(MODE_HATCH) || DRAWS(MODE_DOTS) || DRAWS(MODE_CROSSHATCH)
    if (mode >= MODE_HATCH && mode <= MODE_CROSSHATCH) {
        // The timeline's patterns, in screen pixels as there: "\" stripes,
        // a grid of dots, both diagonals.
        float pitch = max(7.0 * u_px, 5.0 * u_edge_px);
        vec2 p = gl_FragCoord.xy - u_origin; // a view drawn elsewhere is the same, moved
        float ink = 0.0;
        if (mode == MODE_HATCH || mode == MODE_CROSSHATCH) {
            float d = mod(p.x + p.y, pitch) - pitch * 0.5;
            ink = stripe(d, pitch * 0.2);
        }
        if (mode == MODE_CROSSHATCH) {
            float d = mod(p.x - p.y, pitch) - pitch * 0.5;
            ink = max(ink, stripe(d, pitch * 0.2));
        }
        if (mode == MODE_DOTS) {
            vec2 q = mod(p, pitch) - pitch * 0.5;
            ink = stripe(length(q), pitch * 0.22);
        }
        c = mix(c, v_color2.rgb, ink * v_color2.a);
    }
#endif
    float alpha = v_color.a;
#if DRAWS(MODE_CHEVRON_UP)
    if (mode == MODE_CHEVRON_UP || mode == MODE_CHEVRON_DOWN) {
        // ">" marks every few widths along the wire, pointing its way
        float u = (mode == MODE_CHEVRON_UP ? v_uv.x : 1.0 - v_uv.x) * px.x;
        float across = abs(v_uv.y - 0.5) * px.y;
        float pitch = max(px.y * 1.6, 10.0 * u_px);
        float d = mod(u + across, pitch) - pitch * 0.5;
        float ink = stripe(d, max(u_px, px.y * 0.12));
        c = mix(c, v_color2.rgb, ink * v_color2.a);
        alpha = max(alpha, ink * v_color2.a);
    }
#endif
    c *= v_shade;
    // A flash lightens a little; hue stays (orange p2p must not turn yellow).
    c = mix(c, vec3(1.0), v_params.z * 0.12);
    // Distance to the nearest edge in pixels, from the uv's screen derivatives.
    vec2 d = min(v_uv, 1.0 - v_uv) * px;
    // Rims as wide as the frame's lines, but never over a sixth of the
    // face across them (a far scene would turn to rims) nor under a pixel;
    // solid to w - 0.4, then a one-pixel fade (0.6..1.6 at a width of 1).
    vec2 w = clamp(px / 6.0, vec2(u_px), vec2(u_edge_px));
    vec2 e = d - w;
    float edge = 1.0 - smoothstep(-0.4, 0.6, min(e.x, e.y));
    c = mix(c, u_edge_color, edge * v_params.y);
    frag = vec4(c, max(alpha, edge * v_params.y * 0.9));
#endif
}
