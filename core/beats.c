/* TEMPORARY development stub; replaced by the real implementation. */
#include "beats.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
void beat_specs_deinit(beat_specs *s) { if (s) { free(s->items); memset(s, 0, sizeof *s); } }
void beat_specs_copy(beat_specs *dst, const beat_specs *src) { *dst = *src; dst->items = NULL; dst->count = 0; }
void beat_list_deinit(beat_list *bl) { if (bl) { free(bl->beats); memset(bl, 0, sizeof *bl); } }
void beats_auto(beat_list *out, const timeline *tl)
{
    out->beats = calloc(5, sizeof *out->beats); out->count = 0;
    double ts[5] = {0, 3, 4, tl->compute_end, tl->makespan};
    const char *names[5] = {"start", "first forward reaches the last rank", "steady state", "compute done", "the end"};
    for (int k = 0; k < 5; k++) {
        if (k > 0 && ts[k] <= out->beats[out->count - 1].t) continue;
        beat *b = &out->beats[out->count++];
        b->t = ts[k]; snprintf(b->title, sizeof b->title, "%s", names[k]); b->automatic = true;
        snprintf(b->caption, sizeof b->caption, "caption of %s", names[k]);
    }
}
bool beats_build(beat_list *out, const timeline *tl, const beat_specs *specs, ppf_error *err) { (void)specs; (void)err; beats_auto(out, tl); return true; }
static double eps(const timeline *tl) { return BEATS_EPSILON * (tl->makespan > 0 ? tl->makespan : 1); }
int beats_next(const beat_list *bl, const timeline *tl, double t) { for (int k = 0; k < bl->count; k++) if (bl->beats[k].t > t + eps(tl)) return k; return -1; }
int beats_prev(const beat_list *bl, const timeline *tl, double t) { for (int k = bl->count - 1; k >= 0; k--) if (bl->beats[k].t < t - eps(tl)) return k; return -1; }
int beats_at(const beat_list *bl, const timeline *tl, double t) { for (int k = 0; k < bl->count; k++) if (fabs(bl->beats[k].t - t) <= eps(tl)) return k; return -1; }
int beats_current(const beat_list *bl, const timeline *tl, double t) { for (int k = bl->count - 1; k >= 0; k--) if (bl->beats[k].t <= t + eps(tl)) return k; return -1; }
