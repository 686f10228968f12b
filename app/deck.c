/* deck.c - a talk's slides, or one scenario, built into sessions. See deck.h. */
#include "deck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quote.h"

/* Room for n slides, zeroed. */
static void deck_alloc(deck *d, int n)
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

static bool build_talk(deck *d, const deck_desc *desc, ppf_error *err)
{
    const char *path = desc->path;
    const session_flag *flags = desc->flags;
    const int flag_count = desc->flag_count;
    const bool with_scene = desc->with_scene;
    talk t;
    if (!talk_load_file(&t, path, desc->confine, err))
        return false;
    d->is_talk = true;
    memcpy(d->title, t.title, sizeof d->title);
    deck_alloc(d, t.count);
    bool ok = true;
    for (int k = 0; ok && k < t.count; k++) {
        const talk_slide *ts = &t.slides[k];
        deck_slide *info = &d->info[k];
        memcpy(info->title, ts->title, sizeof info->title);
        memcpy(info->notes, ts->notes, sizeof info->notes);
        if (ts->camera[0]) {
            int preset = camera_preset_find(ts->camera);
            if (preset < 0) {
                ppf_fail(err,
                         "camera = %s: unknown preset; use default, front, top, side, back, "
                         "low, first-stage, last-stage or replicas",
                         quote_string(ts->camera).s);
                ok = at_slide(err, path, k);
                break;
            }
            info->has_camera = true;
            info->camera = (camera_preset)preset;
        }
        /* the command line's flags on top of every slide: a bad one is the
         * flag's fault, worded as for a scenario */
        scenario sc;
        scenario_copy(&sc, &ts->sc);
        for (int j = 0; ok && j < flag_count; j++)
            ok = scenario_set(&sc, flags[j].field, flags[j].value, err);
        if (ok && !(session_build_from(d->slides[k], &sc, err) &&
                    (!with_scene || session_build_scene(d->slides[k], err))))
            ok = at_slide(err, path, k);
        scenario_deinit(&sc);
    }
    talk_deinit(&t);
    return ok;
}

bool deck_build(deck *d, const deck_desc *desc, ppf_error *err)
{
    memset(d, 0, sizeof *d);
    bool ok;
    if (desc->path && talk_file_detect(desc->path)) {
        ok = build_talk(d, desc, err);
    } else {
        deck_alloc(d, 1);
        scenario sc;
        ok = session_scenario(&sc, desc->path, desc->confine, desc->flags, desc->flag_count, err);
        if (ok) {
            ok = session_build_from(d->slides[0], &sc, err) &&
                 (!desc->with_scene || session_build_scene(d->slides[0], err));
            scenario_deinit(&sc);
        }
    }
    if (!ok)
        deck_deinit(d);
    return ok;
}

const char *deck_slide_title(const deck *d, int k)
{
    return d->info[k].title[0] ? d->info[k].title : d->slides[k]->hud_title;
}

void deck_deinit(deck *d)
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
