/* talk.c - a talk's slides, or one scenario, built into sessions. See talk.h. */
#include "talk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quote.h"

/* Room for n slides, zeroed. */
static void talk_alloc(talk *d, int n)
{
    d->slides = ppf_calloc((size_t)n, sizeof *d->slides);
    d->info = ppf_calloc((size_t)n, sizeof *d->info);
    d->count = n;
    for (int k = 0; k < n; k++)
        d->slides[k] = ppf_calloc(1, sizeof *d->slides[k]);
}

/* "FILE: slides[k]: " in front of the message in err; returns false. */
static bool at_slide(ppf_error *err, const char *path, int k)
{
    char rest[PPF_ERROR_MAX];
    memcpy(rest, err->message, sizeof rest);
    return ppf_fail(err, "%s: slides[%d]: %s", quote_path(path).s, k, rest);
}

/* The slide --slide N names, from 0 (0: the first); -1 with one line when
 * the file has no such slide. */
static int slide_index(bool is_talk, int count, int slide, ppf_error *err)
{
    if (slide <= count)
        return slide > 0 ? slide - 1 : 0;
    if (!is_talk)
        ppf_fail(err, "--slide = %d: a scenario is one slide (a talk file has several)", slide);
    else
        ppf_fail(err, "--slide = %d: the talk has %d slide%s", slide, count, count == 1 ? "" : "s");
    return -1;
}

/* The talk's slides [from, from + n) built into d; the flags apply to every
 * slide and every camera is checked, built or not (both cost nothing and
 * keep a talk's errors the same whichever slide is shown). */
static bool build_talk(talk *d, talk_file *t, const talk_desc *desc, int from, int n,
                       ppf_error *err)
{
    const char *path = desc->path;
    d->is_talk = true;
    d->first = from;
    d->talk_count = t->count;
    memcpy(d->title, t->title, sizeof d->title);
    for (int k = 0; k < t->count; k++) {
        const talk_file_slide *ts = &t->slides[k];
        if (ts->camera[0] && camera_preset_find(ts->camera) < 0) {
            ppf_fail(err,
                     "camera = %s: unknown preset; use default, front, top, side, back, "
                     "low, first-stage, last-stage or replicas",
                     quote_string(ts->camera).s);
            return at_slide(err, path, k);
        }
        /* the command line's flags on top of every slide: a bad one is the
         * flag's fault, worded as for a scenario */
        for (int j = 0; j < desc->flag_count; j++)
            if (!scenario_set(&t->slides[k].sc, desc->flags[j].field, desc->flags[j].value, err))
                return false;
    }
    /* Every slide held at once: their sum is what the budget bounds,
     * counted before the first is simulated. */
    if (n > 1 && !talk_file_check_budget(t, desc->with_scene, path, err))
        return false;
    talk_alloc(d, n);
    for (int j = 0; j < n; j++) {
        const talk_file_slide *ts = &t->slides[from + j];
        talk_slide *info = &d->info[j];
        memcpy(info->title, ts->title, sizeof info->title);
        memcpy(info->notes, ts->notes, sizeof info->notes);
        if (ts->camera[0]) {
            info->has_camera = true;
            info->camera = (camera_preset)camera_preset_find(ts->camera);
        }
        if (!(session_build_from(d->slides[j], &ts->sc, err) &&
              (!desc->with_scene || session_build_scene(d->slides[j], err))))
            return at_slide(err, path, from + j);
    }
    return true;
}

/* slide: -1 every slide; else the one --slide names (0: the first). */
static bool build(talk *d, const talk_desc *desc, int slide, ppf_error *err)
{
    memset(d, 0, sizeof *d);
    bool ok;
    if (desc->path && talk_file_detect(desc->path)) {
        talk_file t;
        if (!talk_file_load(&t, desc->path, desc->confine, err))
            return false;
        const int k = slide < 0 ? 0 : slide_index(true, t.count, slide, err);
        ok = k >= 0 && build_talk(d, &t, desc, k, slide < 0 ? t.count : 1, err);
        talk_file_deinit(&t);
    } else {
        ok = slide < 0 || slide_index(false, 1, slide, err) >= 0;
        if (ok) {
            talk_alloc(d, 1);
            d->talk_count = 1;
            scenario sc;
            ok = session_scenario(&sc, desc->path, desc->confine, desc->flags, desc->flag_count,
                                  err);
            if (ok) {
                ok = session_build_from(d->slides[0], &sc, err) &&
                     (!desc->with_scene || session_build_scene(d->slides[0], err));
                scenario_deinit(&sc);
            }
        }
    }
    if (!ok)
        talk_deinit(d);
    return ok;
}

bool talk_build(talk *d, const talk_desc *desc, ppf_error *err)
{
    return build(d, desc, -1, err);
}

bool talk_build_slide(talk *d, const talk_desc *desc, int slide, ppf_error *err)
{
    return build(d, desc, slide < 0 ? 0 : slide, err);
}

int talk_pick_slide(const talk *d, int slide, ppf_error *err)
{
    return slide_index(d->is_talk, d->count, slide, err);
}

const char *talk_slide_title(const talk *d, int k)
{
    return d->info[k].title[0] ? d->info[k].title : d->slides[k]->hud_title;
}

void talk_deinit(talk *d)
{
    if (!d)
        return;
    for (int k = 0; k < d->count; k++) {
        session_deinit(d->slides[k]);
        free(d->slides[k]);
    }
    free(d->slides);
    free(d->info);
    memset(d, 0, sizeof *d);
}
