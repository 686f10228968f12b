#version 330 core
// One instance per scene object. Boxes draw a unit cube scaled to
// [i_min, i_max]; faces (u_face_mode = 1) draw a unit quad laid in the plane
// where the instance has zero extent.
layout(location = 0) in vec3 a_pos;    // unit cube corner, or (u, v, 0) for a quad
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;
layout(location = 3) in vec3 i_min;
layout(location = 4) in vec3 i_max;
layout(location = 5) in vec4 i_color;  // base colour and opacity
layout(location = 6) in vec4 i_color2; // fill colour (weights' accumulated gradient)
layout(location = 7) in vec4 i_params; // x: fill fraction, y: edge strength, z: flash

uniform mat4 u_view_proj;
uniform int u_face_mode;
uniform vec3 u_light; // direction towards the light, normalised

flat out float v_shade; // a face is flat: its light is one number
out vec2 v_uv;
flat out vec4 v_color;
flat out vec4 v_color2;
flat out vec4 v_params;

void main()
{
    vec3 size = i_max - i_min;
    vec3 p;
    vec3 n;
    if (u_face_mode == 1) {
        if (size.x == 0.0) {
            p = i_min + vec3(0.0, a_pos.x * size.y, a_pos.y * size.z);
            n = vec3(1.0, 0.0, 0.0);
        } else if (size.y == 0.0) {
            p = i_min + vec3(a_pos.x * size.x, 0.0, a_pos.y * size.z);
            n = vec3(0.0, 1.0, 0.0);
        } else {
            p = i_min + vec3(a_pos.x * size.x, a_pos.y * size.y, 0.0);
            n = vec3(0.0, 0.0, 1.0);
        }
        v_uv = a_pos.xy;
    } else {
        p = i_min + a_pos * size;
        n = a_normal;
        v_uv = a_uv;
    }
    // Faces are seen from both sides: shade by the angle, whichever side.
    v_shade = 0.55 + 0.45 * abs(dot(n, u_light));
    v_color = i_color;
    v_color2 = i_color2;
    v_params = i_params;
    gl_Position = u_view_proj * vec4(p, 1.0);
}
