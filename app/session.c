/* session.c - scenario to timeline to scene. See session.h. */
#include "session.h"

#include <stdio.h>
#include <string.h>

#include "budget.h"
#include "frame.h"
#include "report.h"

bool session_build(session *s, const char *path, const session_flag *flags, int flag_count,
                   ppf_error *err)
{
    memset(s, 0, sizeof *s);
    scenario_init(&s->sc);
    if (path && !scenario_load_file(&s->sc, path, err))
        return false;
    for (int k = 0; k < flag_count; k++)
        if (!scenario_set(&s->sc, flags[k].field, flags[k].value, err))
            return false;
    if (!scenario_build(&s->sc, &s->prog, &s->costs, err))
        return false;
    if (!timeline_simulate(&s->tl, &s->prog, &s->costs, err))
        return false;
    snprintf(s->hud_title, sizeof s->hud_title, "%s   P=%d  M=%d  D=%d  V=%d", s->prog.schedule,
             s->prog.ranks, s->prog.microbatches, s->tl.dp, s->prog.stages_per_rank);
    report_bubble_line(&s->tl, &s->costs, s->hud_bubble, sizeof s->hud_bubble);
    return true;
}

bool session_build_scene(session *s, ppf_error *err)
{
    if (s->has_scene)
        return true;
    if (!budget_check_scene(s->prog.stages, s->sc.layers_per_stage, s->prog.microbatches,
                            s->tl.dp > 0 ? s->tl.dp : 1, err))
        return false;
    scene_desc d = {
        .layers_per_stage = s->sc.layers_per_stage,
        .d_model = (float)s->sc.d_model,
        .d_hidden = (float)s->sc.d_hidden,
        .batch = (float)s->sc.batch,
        /* A zero gap is asked for: negative means none in scene_desc. */
        .stage_gap = s->sc.stage_gap > 0 ? (float)s->sc.stage_gap : -1,
        .replica_gap = s->sc.replica_gap > 0 ? (float)s->sc.replica_gap : -1,
    };
    scene_init(&s->scene, &d, &s->tl);
    s->has_scene = true;
    return true;
}

void session_deinit(session *s)
{
    if (!s)
        return;
    if (s->has_scene)
        scene_deinit(&s->scene);
    timeline_deinit(&s->tl);
    timeline_costs_deinit(&s->costs);
    program_deinit(&s->prog);
    scenario_deinit(&s->sc);
    memset(s, 0, sizeof *s);
}

camera session_camera(const session *s, camera_preset preset, int fb_width, int fb_height,
                      float split)
{
    frame_layout l = frame_layout_compute(fb_width, fb_height, split);
    camera_bounds b = session_camera_bounds(s);
    return camera_preset_view(preset, &b, l.view_w / l.view_h);
}

double session_default_speed(const session *s)
{
    return s->tl.makespan > 0 ? s->tl.makespan / SESSION_PLAY_SECONDS : 1;
}

camera_bounds session_camera_bounds(const session *s)
{
    camera_bounds b;
    memcpy(b.min, s->scene.bounds.min, sizeof b.min);
    memcpy(b.max, s->scene.bounds.max, sizeof b.max);
    return b;
}
