/* bench_rebuild.c - `ppflow bench rebuild`: how long a live what-if change
 * takes, from the new scenario to a viewer ready to draw it: program,
 * timeline, beats and scene built aside (session_new, the path the
 * window takes, viewer_core.h's viewer_show), on a headless EGL context. The change alternates the
 * schedule between 1f1b and zb-h1 at the same sizes, the what-if a lecturer asks most; the first
 * frame drawn after it is timed apart, and includes what the frame renderer remakes for the rebuilt
 * session (its state arrays and memory curves, frame.h). */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "offscreen.h"
#include "whatif.h"

enum { REBUILD_RUNS = 21, REBUILD_WARMUP = 2 };

typedef struct rebuild_size {
    int stages, microbatches, dp;
    bool has_bar; /* print the 16 ms bar against it */
} rebuild_size;

static bool bench_one(FILE *f, const rebuild_size *z, int runs, ppf_error *err)
{
    char p[16], m[16], d[16];
    snprintf(p, sizeof p, "%d", z->stages);
    snprintf(m, sizeof m, "%d", z->microbatches);
    snprintf(d, sizeof d, "%d", z->dp);
    const session_flag flags[] = {{"stages", p}, {"microbatches", m}, {"dp", d}};
    session *s = ppf_calloc(1, sizeof *s);
    offscreen o = {0};
    enum { W = 1280, H = 720 };
    bool ok = session_build(s, NULL, flags, 3, err) && session_build_scene(s, err) &&
              offscreen_init(&o, s, W, H, err);
    double *ms = ppf_malloc(sizeof(double) * (size_t)runs);
    double *draw = ppf_malloc(sizeof(double) * (size_t)runs);
    for (int i = -REBUILD_WARMUP; ok && i < runs; i++) {
        scenario next;
        ok = whatif_parse(&s->sc, i % 2 ? "schedule 1f1b" : "schedule zb-h1", &next, err);
        if (!ok)
            break;
        render_target_bind(&o.target);
        const double t0 = bench_now_ms();
        session *built = session_new(&next, true, err);
        render_target_finish(&o.target);
        const double t1 = bench_now_ms();
        scenario_deinit(&next);
        if (!(ok = built != NULL))
            break;
        /* shown; the window's undo would keep the one it replaced */
        ok = offscreen_show(&o, built, err);
        session_free(ok ? s : built);
        if (!ok)
            break;
        s = built;
        frame_view v =
            offscreen_default_view(&o, s->tl.makespan / 2, THEME_DARK, CAMERA_PRESET_DEFAULT);
        offscreen_draw(&o, &v);
        render_target_finish(&o.target);
        const double t2 = bench_now_ms();
        if (i >= 0)
            ms[i] = t1 - t0, draw[i] = t2 - t1;
    }
    if (ok) {
        stats st = summarise(ms, runs), sd = summarise(draw, runs);
        char name[96];
        snprintf(name, sizeof name, "P=%d M=%d D=%d", z->stages, z->microbatches, z->dp);
        fprintf(f, "%-22s %8ld %10.2f %8.2f %8.2f %12.2f", name,
                (long)program_action_count(&s->prog), st.median, st.min, ms[runs - 1], sd.median);
        if (z->has_bar)
            fprintf(f, "   %s the %.0f ms bar (one frame at 60 Hz)",
                    bench_rebuild_met(st.median) ? "under" : "OVER", BENCH_REBUILD_FRAME_MS);
        fputc('\n', f);
        fflush(f);
    }
    free(ms);
    free(draw);
    offscreen_deinit(&o);
    session_free(s);
    return ok;
}

void bench_rebuild_help(char *out, size_t size)
{
    snprintf(out, size,
             "a live what-if change (schedule 1f1b <-> zb-h1) to program, timeline, scene and GPU "
             "buffers ready, at P=16 M=64 D=8 and P=64 M=512 D=8");
}

int bench_rebuild(const bench_opts *o, FILE *f)
{
    const int runs = o->repeat ? o->repeat : REBUILD_RUNS;
    static const rebuild_size sizes[] = {{16, 64, 8, true}, {64, 512, 8, false}};
    ppf_error err = {{0}};
    fprintf(f, "ppflow bench rebuild: a what-if change (the schedule, 1f1b <-> zb-h1) to program, "
               "timeline, beats, scene and frame renderer ready (EGL, glFinish)\n");
    print_machine(f);
    fprintf(f,
            "times in ms over %d changes after %d warm-up ones; first frame: the frame drawn "
            "after the change at 1280x720\n\n",
            runs, REBUILD_WARMUP);
    fprintf(f, "%-22s %8s %10s %8s %8s %12s\n", "scenario", "actions", "median", "min", "worst",
            "first frame");
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        if (!bench_one(f, &sizes[k], runs, &err)) {
            ppf_print(stderr, "%s", err.message);
            return 1;
        }
    return 0;
}
