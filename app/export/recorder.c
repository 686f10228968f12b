/* recorder.c - draw, read back and encode in a pipeline. See recorder.h. */
#include "recorder.h"

#include <assert.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "encoder.h"
#include "offscreen.h"
#include "palette.h"
#include "readback.h"

/* Three slots: one being drawn into, one waiting, one being encoded. */
enum { RING = 3, PALETTE_SAMPLES = 16 };

/* What the drawing thread and the encoder thread share, under `lock`. */
typedef struct pipeline {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    uint8_t *pixels[RING];             /* frame i's pixels are pixels[i % RING] once ready > i */
    const scene_aa_deferred *aa[RING]; /* and the 3D view's smoothing left to do on them */
    scene_aa_filter *filter;           /* the encoder thread's, for that */
    int64_t ready;                     /* frames handed to the encoder */
    int64_t done;                      /* frames the encoder has written */
    int64_t total;
    bool quit;   /* the drawing thread gives up */
    bool failed; /* the encoder failed; why in err */
    ppf_error err;
    encoder *enc;
    int stride;
} pipeline;

int64_t recorder_frame_count(double span, int fps, double speed)
{
    const double n = span * fps / speed;
    /* Compared as a double first: converting one outside int64_t's range
     * (1e300, infinity, NaN) to an integer is undefined. */
    if (!(n >= 0.5 && n < RECORDER_MAX_FRAMES + 0.5))
        return 0;
    return (int64_t)llround(n);
}

double recorder_frame_time(const recorder_desc *d, int64_t i)
{
    if (d->has_t_last && i == d->frames - 1)
        return d->t_last;
    return d->t0 + (double)i * d->show.speed / d->video.fps;
}

static void *encode_frames(void *arg)
{
    pipeline *p = arg;
    /* Signals are for the drawing thread, which checks the stop flag. */
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);

    pthread_mutex_lock(&p->lock);
    for (int64_t i = 0; i < p->total; i++) {
        while (p->ready <= i && !p->quit)
            pthread_cond_wait(&p->changed, &p->lock);
        if (p->quit)
            break;
        uint8_t *px = p->pixels[i % RING];
        const scene_aa_deferred *aa = p->aa[i % RING];
        pthread_mutex_unlock(&p->lock);
        /* Here rather than on the drawing thread, which sets the pace on a
         * CPU renderer: this thread waits for frames a quarter of the time. */
        scene_aa_apply(p->filter, aa, px, (size_t)p->stride);
        ppf_error err = {{0}};
        bool ok = encoder_write(p->enc, px, p->stride, true, &err);
        pthread_mutex_lock(&p->lock);
        if (!ok) {
            p->failed = true;
            p->err = err;
            pthread_cond_broadcast(&p->changed);
            break;
        }
        p->done = i + 1;
        pthread_cond_broadcast(&p->changed);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static bool stop_requested(const recorder_desc *d)
{
    return d->stop && *d->stop;
}

/* Waits until the encoder has written `frames` frames; false when it failed
 * or a stop was asked for (checked every 50 ms: a signal does not wake a
 * condition variable). */
static bool wait_done(pipeline *p, int64_t frames, const recorder_desc *d)
{
    pthread_mutex_lock(&p->lock);
    while (p->done < frames && !p->failed && !stop_requested(d)) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 50 * 1000 * 1000;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&p->changed, &p->lock, &until);
    }
    bool ok = p->done >= frames && !p->failed;
    pthread_mutex_unlock(&p->lock);
    return ok;
}

static void hand_over(pipeline *p, int64_t frame, uint8_t *pixels, const scene_aa_deferred *aa)
{
    pthread_mutex_lock(&p->lock);
    p->pixels[frame % RING] = pixels;
    p->aa[frame % RING] = aa;
    p->ready = frame + 1;
    pthread_cond_broadcast(&p->changed);
    pthread_mutex_unlock(&p->lock);
}

static void print_progress(pipeline *p, double started)
{
    pthread_mutex_lock(&p->lock);
    const int64_t done = p->done;
    pthread_mutex_unlock(&p->lock);
    const double elapsed = clock_now_seconds() - started;
    const double fps = elapsed > 0 ? (double)done / elapsed : 0;
    if (fps > 0 && done < p->total)
        fprintf(stderr, "\r\033[Kppflow: frame %lld/%lld  %.1f fps  %.1f s left", (long long)done,
                (long long)p->total, fps, (double)(p->total - done) / fps);
    else
        fprintf(stderr, "\r\033[Kppflow: frame %lld/%lld", (long long)done, (long long)p->total);
    fflush(stderr);
}

/* Clears the progress line, so the summary takes its place. */
static void clear_progress(void)
{
    fputs("\r\033[K", stderr);
}

/* What the frames show: one session's frame, or a comparison's panes; only
 * the time (and a standing frame's caption) changes from frame to frame. */
typedef struct picture {
    bool compare;
    frame_view one;
    compare_frame many;
} picture;

/* Frame i of the recording drawn; a clip from beat to beat stands on both
 * ends, showing their captions, as --still does. */
static void picture_draw(offscreen *o, picture *p, const recorder_desc *d, int64_t i, bool stands)
{
    const double t = recorder_frame_time(d, i);
    if (!p->compare) {
        p->one.t = t;
        p->one.caption = stands ? session_beat_caption(o->session, t) : NULL;
        offscreen_draw(o, &p->one);
        return;
    }
    for (int k = 0; k < p->many.count; k++) {
        p->many.pane[k].t = t;
        p->many.pane[k].caption = stands ? session_beat_caption(o->sides[k], t) : NULL;
    }
    offscreen_draw_compare(o, &p->many);
}

/* The GIF's one palette, from frames spread evenly over the clip. */
static bool choose_palette(offscreen *o, const recorder_desc *d, picture *pic, uint32_t colors[256],
                           int *count)
{
    palette_histogram h = {0};
    palette_histogram_init(&h, NULL);
    uint8_t *rgba = ppf_malloc((size_t)d->show.width * (size_t)d->show.height * 4);
    const int64_t samples = d->frames < PALETTE_SAMPLES ? d->frames : PALETTE_SAMPLES;
    bool stopped = false;
    for (int64_t k = 0; k < samples && !stopped; k++) {
        int64_t i = samples > 1 ? k * (d->frames - 1) / (samples - 1) : 0;
        picture_draw(o, pic, d, i, false);
        offscreen_read(o, rgba);
        palette_histogram_add(&h, rgba, d->show.width, d->show.height, d->show.width * 4);
        stopped = stop_requested(d);
    }
    *count = palette_build(&h, colors, 256);
    free(rgba);
    palette_histogram_deinit(&h);
    return !stopped;
}

recorder_status recorder_run(const session *s, const recorder_desc *d, recorder_result *r,
                             ppf_error *err)
{
    return recorder_run_compare(&s, 1, NULL, d, r, err);
}

recorder_status recorder_run_compare(const session *const *sides, int count,
                                     const char *const *strip, const recorder_desc *d,
                                     recorder_result *r, ppf_error *err)
{
    const session *s = sides[0];
    assert(d->frames >= 1 && d->frames <= RECORDER_MAX_FRAMES);
    *r = (recorder_result){0};
    offscreen o;
    readback rb = {0};
    encoder enc = {0};
    scene_aa_deferred aa_pass[RING]; /* each slot's frame's passes (scene_aa_take) */
    memset(aa_pass, 0, sizeof aa_pass);
    scene_aa_filter aa_filter = {0};
    recorder_status status = RECORDER_FAILED;
    uint32_t colors[256];
    int color_count = 0;
    const double started = clock_now_seconds();

    picture pic = {.compare = count > 1};
    if (pic.compare ? !offscreen_init_compare(&o, sides, count, d->show.width, d->show.height, err)
                    : !offscreen_init(&o, s, d->show.width, d->show.height, err))
        return RECORDER_FAILED;
    if (pic.compare) {
        pic.many = offscreen_default_compare(&o, d->t0, d->show.theme, d->show.camera,
                                             (float)d->show.ui_scale, strip);
    } else {
        pic.one = offscreen_default_view(&o, d->t0, d->show.theme, d->show.camera);
        pic.one.ui_scale = (float)d->show.ui_scale;
        pic.one.cam =
            session_camera(s, d->show.camera, d->show.width, d->show.height, 0, pic.one.ui_scale);
    }
    encoder_kind kind;
    if (!encoder_kind_of(d->path, &kind, err))
        goto out;
    /* PNG frames are lossless, each the still at its time: supersampled as
     * stills are, transfers at their own times (frame_view.still); a
     * video's frames are smoothed at 1x, within its time, and hold a short
     * transfer in sight for the eye to follow */
    const bool stills = kind == ENCODER_PNG_FRAMES;
    const scene_aa_mode aa =
        session_show_aa(&d->show, stills ? SCENE_AA_SUPERSAMPLE : SCENE_AA_EDGE);
    pic.one.aa = aa, pic.one.still = stills;
    for (int k = 0; k < pic.many.count; k++)
        pic.many.pane[k].aa = aa, pic.many.pane[k].still = stills;
    if (kind == ENCODER_GIF && !choose_palette(&o, d, &pic, colors, &color_count)) {
        status = RECORDER_STOPPED;
        goto out;
    }
    encoder_desc ed = {
        .path = d->path,
        .width = d->show.width,
        .height = d->show.height,
        .video = d->video,
        .palette = colors,
        .palette_count = color_count,
    };
    if (!encoder_open(&enc, &ed, err))
        goto out;
    if (!readback_init(&rb, RING, d->show.width, d->show.height, err))
        goto out;

    pipeline p = {
        .total = d->frames,
        .enc = &enc,
        .stride = d->show.width * 4,
        .filter = &aa_filter,
    };
    pthread_mutex_init(&p.lock, NULL);
    pthread_cond_init(&p.changed, NULL);
    pthread_t thread;
    if (pthread_create(&thread, NULL, encode_frames, &p) != 0) {
        ppf_fail(err, "cannot start the encoder thread");
        goto out_pipeline;
    }

    /* The frames are read back whole for the encoder: the 3D view's edges
     * are smoothed there, in the buffer mapped, by the encoder thread, not
     * read back and written back through the GL in the middle of each
     * frame. The palette's frames above were read with them done in the
     * target. */
    offscreen_defer_aa(&o, true);
    bool ok = true;
    double last_progress = 0;
    for (int64_t i = 0; i < d->frames && ok; i++) {
        const int slot = (int)(i % RING);
        if (i >= RING) {
            /* The slot held frame i - RING: wait until it is encoded. */
            if (!(ok = wait_done(&p, i - RING + 1, d)))
                break;
            readback_unmap(&rb, slot);
        }
        /* a clip from beat to beat stands on both: their captions, as --still */
        const bool stands = d->has_t_last && (i == 0 || i == d->frames - 1);
        picture_draw(&o, &pic, d, i, stands);
        offscreen_take_aa(&o, &aa_pass[slot]);
        readback_start(&rb, slot);
        /* Map the previous frame only now, so that on a GPU its copy ran
         * while this frame was drawn. */
        if (i >= 1) {
            const int prev = (int)((i - 1) % RING);
            uint8_t *px = readback_map(&rb, prev, err);
            if (!(ok = px != NULL))
                break;
            hand_over(&p, i - 1, px, &aa_pass[prev]);
        }
        if (stop_requested(d))
            ok = false;
        if (d->progress && clock_now_seconds() - last_progress > 0.25) {
            print_progress(&p, started);
            last_progress = clock_now_seconds();
        }
    }
    if (ok) {
        const int last = (int)((d->frames - 1) % RING);
        uint8_t *px = readback_map(&rb, last, err);
        ok = px != NULL;
        if (ok) {
            hand_over(&p, d->frames - 1, px, &aa_pass[last]);
            ok = wait_done(&p, d->frames, d);
        }
    }

    pthread_mutex_lock(&p.lock);
    p.quit = true;
    pthread_cond_broadcast(&p.changed);
    pthread_mutex_unlock(&p.lock);
    pthread_join(thread, NULL);
    if (d->progress)
        clear_progress();

    if (p.failed) {
        *err = p.err;
    } else if (!ok && stop_requested(d)) {
        status = RECORDER_STOPPED;
    } else if (ok) {
        r->frames = p.done;
        if (encoder_finish(&enc, err))
            status = RECORDER_DONE;
    }

out_pipeline:
    pthread_cond_destroy(&p.changed);
    pthread_mutex_destroy(&p.lock);
out:
    encoder_abort(&enc);
    for (int k = 0; k < RING; k++)
        scene_aa_deferred_deinit(&aa_pass[k]);
    scene_aa_filter_deinit(&aa_filter);
    readback_deinit(&rb);
    offscreen_deinit(&o);
    r->seconds = clock_now_seconds() - started;
    return status;
}
