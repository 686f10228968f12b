#version 330 core
// draw2d.vert - 2D primitives given in framebuffer pixels (origin top-left,
// y down), see render/draw2d.h. Shared by the seven draw2d programs (one per
// fill, see draw2d.frag). Colours leave premultiplied (blending is
// GL_ONE, GL_ONE_MINUS_SRC_ALPHA) and flat: a primitive has one colour, and
// flat varyings cost nothing to interpolate on llvmpipe.

layout(location = 0) in vec2 a_pos;    // pixels
layout(location = 1) in vec2 a_uv;     // glyph: atlas 0..1; line: x = signed distance across, px
layout(location = 2) in float a_param; // pattern: period, px; line: half thickness, px
layout(location = 3) in vec4 a_color;  // fill, straight alpha
layout(location = 4) in vec4 a_ink;    // pattern colour, straight alpha

uniform vec2 u_viewport; // framebuffer size, pixels

out vec2 v_uv;
flat out float v_param;
flat out vec4 v_color; // premultiplied
flat out vec4 v_ink;   // premultiplied

void main()
{
    v_uv = a_uv;
    v_param = a_param;
    v_color = vec4(a_color.rgb * a_color.a, a_color.a);
    v_ink = vec4(a_ink.rgb * a_ink.a, a_ink.a);
    vec2 ndc = a_pos / u_viewport * 2.0 - 1.0;
    gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
}
