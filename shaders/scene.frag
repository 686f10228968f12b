#version 330 core
// Flat colour, a little directional shading so the box reads as 3D, a
// darker rim so neighbouring faces stay apart, and the weights' gradient
// fill rising from the bottom edge.
in vec3 v_normal;
in vec2 v_uv;
flat in vec4 v_color;
flat in vec4 v_color2;
flat in vec4 v_params;

uniform vec3 u_light;      // direction towards the light, normalised
uniform vec3 u_edge_color;
uniform float u_edge_px;   // the rim's width in pixels (the frame's line width)

out vec4 frag;

void main()
{
    // Weights keep a rim of their own colour while the accumulated gradient
    // rises inside it, so a full face still reads as a weight, not as an
    // activation's gradient.
    const float rim = 0.14;
    vec2 inner = (v_uv - rim) / (1.0 - 2.0 * rim);
    bool filled = v_params.x > 0.0 && all(greaterThanEqual(inner, vec2(0.0))) &&
                  inner.x <= 1.0 && inner.y <= v_params.x;
    vec3 c = filled ? v_color2.rgb : v_color.rgb;
    float shade = 0.72 + 0.28 * abs(dot(normalize(v_normal), u_light));
    c *= shade;
    // A flash lightens a little; hue stays (orange p2p must not turn yellow).
    c = mix(c, vec3(1.0), v_params.z * 0.12);
    // Distance to the nearest edge in pixels, from the uv's screen derivatives.
    vec2 px = 1.0 / max(fwidth(v_uv), vec2(1e-6)); // the face's size in pixels
    vec2 d = min(v_uv, 1.0 - v_uv) * px;
    // Rims as wide as the frame's lines, but never over a sixth of the
    // face across them (a far scene would turn to rims) nor under a pixel;
    // solid to w - 0.4, then a one-pixel fade (0.6..1.6 at a width of 1).
    vec2 w = clamp(px / 6.0, vec2(1.0), vec2(u_edge_px));
    vec2 e = d - w;
    float edge = 1.0 - smoothstep(-0.4, 0.6, min(e.x, e.y));
    c = mix(c, u_edge_color, edge * v_params.y);
    frag = vec4(c, max(v_color.a, edge * v_params.y * 0.9));
}
