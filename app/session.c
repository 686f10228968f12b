/* session.c - scenario to timeline to scene. See session.h. */
#include "session.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget.h"
#include "frame.h"
#include "closed_forms.h"
#include "quote.h"

bool session_scenario(scenario *sc, const char *path, bool confine, const session_flag *flags,
                      int flag_count, ppf_error *err)
{
    scenario_init(sc);
    sc->confine = confine;
    bool ok = !path || scenario_load_file(sc, path, err);
    for (int k = 0; ok && k < flag_count; k++)
        ok = scenario_set(sc, flags[k].field, flags[k].value, err);
    if (!ok)
        scenario_deinit(sc);
    return ok;
}

bool session_build(session *s, const char *path, const session_flag *flags, int flag_count,
                   ppf_error *err)
{
    memset(s, 0, sizeof *s);
    scenario sc;
    if (!session_scenario(&sc, path, false, flags, flag_count, err))
        return false;
    const bool ok = session_build_from(s, &sc, err);
    scenario_deinit(&sc);
    return ok;
}

/* A beat's camera names a preset: checked here, where the presets are
 * known (core does not know the renderer's cameras). */
static bool check_beat_cameras(const beat_specs *specs, ppf_error *err)
{
    for (int k = 0; k < specs->count; k++) {
        const char *name = specs->items[k].camera;
        if (!name[0] || camera_preset_find(name) >= 0)
            continue;
        char names[160] = "";
        for (int p = 0; p < CAMERA_PRESET_COUNT; p++) {
            size_t len = strlen(names);
            snprintf(names + len, sizeof names - len, "%s%s", p ? ", " : "",
                     camera_preset_name((camera_preset)p));
        }
        return ppf_fail(err, "beats[%d].camera = %s: not a camera preset (%s)", k,
                        quote_string(name).s, names);
    }
    return true;
}

/* The generation of the last session built: each build takes the next, so
 * no two builds in the process share one, wherever they live (a session
 * rebuilt in place, or freed and another built at its address). Atomic:
 * builds may run on any thread. */
static _Atomic uint64_t last_generation;

/* The program, its simulation and its beats; messages as they come. */
static bool build_timeline(session *s, ppf_error *err)
{
    return scenario_build(&s->sc, &s->prog, &s->costs, err) &&
           timeline_simulate(&s->tl, &s->prog, &s->costs, err) &&
           check_beat_cameras(&s->sc.beats, err) &&
           beats_build(&s->beats, &s->tl, &s->sc.beats, err);
}

bool session_build_from(session *s, const scenario *sc, ppf_error *err)
{
    memset(s, 0, sizeof *s);
    scenario_copy(&s->sc, sc);
    /* Values a confined file named by a file gave (a beat's "after", a
     * camera's name, its CSV's path) are checked here too: quoted by
     * none of these checks' messages. */
    if (sc->conceal)
        quote_conceal_begin();
    const bool ok = build_timeline(s, err);
    if (sc->conceal)
        quote_conceal_end();
    if (!ok)
        return false;
    s->tl.generation = atomic_fetch_add(&last_generation, 1) + 1;
    snprintf(s->hud_title, sizeof s->hud_title, "%s   P=%d  M=%d  D=%d  V=%d", s->prog.schedule,
             s->prog.ranks, s->prog.microbatches, s->tl.dp, s->prog.stages_per_rank);
    closed_forms_bubble_line(&s->tl, &s->costs, s->hud_bubble, sizeof s->hud_bubble);
    return true;
}

bool session_build_scene(session *s, ppf_error *err)
{
    if (s->has_scene)
        return true;
    if (!scene_check_budget(s->prog.stages, s->sc.layers_per_stage, s->prog.microbatches,
                            s->tl.dp > 0 ? s->tl.dp : 1, err))
        return false;
    scene_desc d = {
        .layers_per_stage = s->sc.layers_per_stage,
        .d_model = (float)s->sc.d_model,
        .d_hidden = (float)s->sc.d_hidden,
        .batch = (float)s->sc.batch,
        .stage_gap = (float)s->sc.stage_gap,
        .replica_gap = (float)s->sc.replica_gap,
        .allreduce_tree = s->sc.allreduce.mode == ALLREDUCE_TREE,
    };
    scene_init(&s->scene, &d, &s->tl);
    s->has_scene = true;
    return true;
}

budget_cost session_cost(const session *s)
{
    /* As scenario_cost counted it before the build: a generated program
     * by the budget's count, an imported one by its cells (the count that
     * walk of its file made). */
    budget_cost c;
    if (strncmp(s->sc.schedule, "csv:", 4) == 0) {
        c = (budget_cost){.pairs = (double)s->prog.stages * (double)s->prog.microbatches};
        for (int r = 0; r < s->prog.ranks; r++)
            c.actions += s->prog.rank[r].count;
    } else {
        c = budget_cost_generated(s->prog.ranks, s->prog.stages_per_rank, s->prog.microbatches);
    }
    if (s->has_scene)
        c.objects = scene_count_objects_rough(s->prog.stages, s->sc.layers_per_stage,
                                              s->prog.microbatches, s->tl.dp > 0 ? s->tl.dp : 1);
    return c;
}

bool session_check_room(const budget_cost *held, const scenario *sc, bool with_scene,
                        const char *what, ppf_error *err)
{
    budget_cost parts[2] = {*held};
    if (!scenario_cost(sc, with_scene, &parts[1], err))
        return false;
    /* Over a limit alone, its build refuses it before anything big is
     * allocated, in the words of the product that is over. */
    if (!budget_cost_fits(&parts[1]))
        return true;
    static const char *const names[2] = {"the sessions it holds", "this scenario"};
    return budget_check_total(parts, names, 2, what, err);
}

session *session_new(const scenario *sc, bool with_scene, ppf_error *err)
{
    session *s = ppf_calloc(1, sizeof *s);
    if (session_build_from(s, sc, err) && (!with_scene || session_build_scene(s, err)))
        return s;
    session_free(s);
    return NULL;
}

void session_free(session *s)
{
    session_deinit(s);
    free(s);
}

void session_deinit(session *s)
{
    if (!s)
        return;
    if (s->has_scene)
        scene_deinit(&s->scene);
    beat_list_deinit(&s->beats);
    timeline_deinit(&s->tl);
    timeline_costs_deinit(&s->costs);
    program_deinit(&s->prog);
    scenario_deinit(&s->sc);
    memset(s, 0, sizeof *s);
}

const char *session_beat_caption(const session *s, double t)
{
    const int k = beats_at(&s->beats, &s->tl, t);
    return k >= 0 && s->beats.beats[k].caption[0] ? s->beats.beats[k].caption : NULL;
}

camera_preset session_camera_preset_at(const session *s, double t, camera_preset base)
{
    const beat_list *bl = &s->beats;
    int heading = bl->count - 1; /* the beat the talk stands on or heads for */
    const int at = beats_at(bl, &s->tl, t);
    if (at >= 0) {
        heading = at;
    } else {
        const int next = beats_next(bl, &s->tl, t);
        if (next >= 0)
            heading = next;
    }
    for (int k = heading; k >= 0; k--) {
        /* a beat's camera names a preset: the session checked it */
        const int preset = camera_preset_find(bl->beats[k].camera);
        if (preset >= 0)
            return (camera_preset)preset;
    }
    return base;
}

camera session_camera(const session *s, camera_preset preset, int fb_width, int fb_height,
                      float split, float ui_scale)
{
    frame_layout l = frame_layout_compute(fb_width, fb_height, split, ui_scale);
    camera_bounds b = session_camera_bounds(s);
    camera_rect free[FRAME_FREE_MAX];
    int n = frame_layout_free_rects(&l, free);
    camera cam = camera_preset_view_best(preset, &b, l.view_w / l.view_h, free, n);
    if (preset == CAMERA_PRESET_DEFAULT || preset == CAMERA_PRESET_FRONT ||
        preset == CAMERA_PRESET_TOP || preset == CAMERA_PRESET_BACK ||
        preset == CAMERA_PRESET_REPLICAS) {
        /* the whole scene: as large as the cards leave room for */
        camera_rect view, cards[2];
        const int n_cards = frame_layout_obstacles(&l, &view, cards);
        camera_grow_clear(&cam, &b, l.view_w / l.view_h, view, cards, n_cards);
    }
    return cam;
}

scene_aa_mode session_show_aa(const session_show *show, scene_aa_mode own)
{
    return show->aa > 0 && show->aa <= SCENE_AA_MODES ? (scene_aa_mode)(show->aa - 1) : own;
}

double session_default_speed(const session *s)
{
    return s->tl.makespan > 0 ? s->tl.makespan / SESSION_PLAY_SECONDS : 1;
}

void session_speed_limits(const session *s, double *min_speed, double *max_speed)
{
    double d = session_default_speed(s);
    *min_speed = d / SESSION_SPEED_RANGE;
    *max_speed = d * SESSION_SPEED_RANGE;
}

camera_bounds session_camera_bounds(const session *s)
{
    camera_bounds b = {0};
    memcpy(b.min, s->scene.bounds.min, sizeof b.min);
    memcpy(b.max, s->scene.bounds.max, sizeof b.max);
    b.points = (const float(*)[3])s->scene.fit_points;
    b.point_count = s->scene.fit_point_count;
    return b;
}
