/* viewer_whatif.c - a what-if change applied in the viewer. See
 * viewer_whatif.h. */
#include "viewer_whatif.h"

#include <stdio.h>
#include <string.h>

#include "timeline_panel.h"

viewer_whatif_moment viewer_whatif_moment_of(const viewer_state *v)
{
    const session *s = v->s;
    viewer_whatif_moment m = {
        .fraction = s->tl.makespan > 0 ? v->play.t / s->tl.makespan : 0,
        .beat = beats_at(&s->beats, &s->tl, v->play.t),
        .relative_speed = v->play.speed / session_default_speed(s),
    };
    if (m.beat >= 0)
        snprintf(m.beat_title, sizeof m.beat_title, "%s", s->beats.beats[m.beat].title);
    return m;
}

/* The beat of the new session to stand on: the same title, else the same
 * number; -1 when there is neither. */
static int same_beat(const beat_list *bl, const viewer_whatif_moment *m)
{
    if (m->beat < 0)
        return -1;
    for (int k = 0; k < bl->count; k++)
        if (strcmp(bl->beats[k].title, m->beat_title) == 0)
            return k;
    return m->beat < bl->count ? m->beat : -1;
}

void viewer_whatif_follow(viewer_state *v, const viewer_whatif_moment *m, double clock)
{
    const session *s = v->s;
    viewer_state_set_speed(v, m->relative_speed * session_default_speed(s));
    /* the beats are the new iteration's: a play to one becomes a plain play */
    v->play.target = -1;
    v->play.stop_at = -1;
    v->play.dir = 1;
    v->talk.goto_typing = false;
    v->talk.goto_number = 0;
    const int k = same_beat(&s->beats, m);
    v->talk.beat = k;
    viewer_state_set_time(v, k >= 0 ? s->beats.beats[k].t : m->fraction * s->tl.makespan, clock);
    timeline_panel_view_init(&v->timeline, &s->tl);
    viewer_state_place_timeline(v);
    /* a preset or a fit is fitted again to the new scene; the user's view stays */
    if (!v->camera.user && v->camera.preset == VIEWER_CAMERA_FIT) {
        viewer_state_apply(v, &(command){CMD_FIT_3D, 0, 0}, clock);
        v->camera.cam = v->camera.to; /* at once: the scene changed under the camera */
        v->camera.moving = false;
    } else if (!v->camera.user) {
        viewer_state_set_camera(v, (camera_preset)v->camera.preset);
    }
    viewer_state_resize(v, v->fb_w, v->fb_h); /* the hover, for the new bars */
}
