/* per_beat.c - one clip, one still per beat, and the index. See per_beat.h. */
#include "per_beat.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "budget.h"
#include "clock.h"
#include "exit_status.h"
#include "json_text.h"
#include "offscreen.h"
#include "output.h"
#include "quote.h"
#include "recorder.h"
#include "stop_signals.h"

static const char INDEX_NAME[] = "beats.json";

char *per_beat_slug(const char *title, char out[PER_BEAT_SLUG_MAX + 1])
{
    size_t n = 0;
    bool gap = false;
    for (const unsigned char *c = (const unsigned char *)title; *c && n < PER_BEAT_SLUG_MAX; c++) {
        const bool letter = (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9');
        const bool upper = *c >= 'A' && *c <= 'Z';
        if (!letter && !upper) {
            /* Punctuation, spaces and every byte of a non-ASCII
             * character separate words. */
            gap = n > 0;
            continue;
        }
        if (gap) {
            if (n + 1 >= PER_BEAT_SLUG_MAX)
                break;
            out[n++] = '-';
            gap = false;
        }
        out[n++] = upper ? (char)(*c - 'A' + 'a') : (char)*c;
    }
    out[n] = '\0';
    if (n == 0)
        snprintf(out, PER_BEAT_SLUG_MAX + 1, "beat");
    return out;
}

void per_beat_plan_deinit(per_beat_plan *p)
{
    if (!p)
        return;
    free(p->clips);
    *p = (per_beat_plan){0};
}

/* "beat 3 (\"steady state\")", or with the slide when there are several. */
static void beat_name(char *out, size_t size, int slide_count, int slide, int number, const beat *b)
{
    if (slide_count > 1)
        snprintf(out, size, "slide %d, beat %d (%s)", slide, number, quote_string(b->title).s);
    else
        snprintf(out, size, "beat %d (%s)", number, quote_string(b->title).s);
}

/* What the run will write, against the totals (per_beat.h), before any of
 * it is drawn: the beats a talk's file asks for multiply by its slides. */
static bool check_totals(const per_beat_plan *p, int slide_count, const per_beat_request *q,
                         ppf_error *err)
{
    int64_t clips = 0, frames = 0;
    for (int k = 0; k < p->count; k++)
        if (!q->beat || p->clips[k].number == q->beat) {
            clips++;
            frames += p->clips[k].frames;
        }
    char over[40] = "";
    if (slide_count > 1)
        snprintf(over, sizeof over, " over %d slides", slide_count);
    if (2 * clips > PER_BEAT_MAX_FILES)
        return ppf_fail(err,
                        "--per-beat: %lld beats%s make %lld clips and PNGs: at most %d (%d "
                        "beats); export part of the talk with --slide N or --beat N",
                        (long long)clips, over, (long long)(2 * clips), PER_BEAT_MAX_FILES,
                        PER_BEAT_MAX_FILES / 2);
    if (frames > PER_BEAT_MAX_FRAMES)
        return ppf_fail(err,
                        "--per-beat: %lld beats%s make %lld frames at %d fps: at most %d in all; "
                        "use a higher --speed, a lower --fps or --slide N",
                        (long long)clips, over, (long long)frames, q->video.fps,
                        PER_BEAT_MAX_FRAMES);
    /* the sizes the clips are recorded at: even sides for H.264 */
    const double w = q->show.width + q->show.width % 2, h = q->show.height + q->show.height % 2;
    const double pixels = (double)(frames + clips) * w * h;
    if (pixels > PER_BEAT_MAX_PIXELS)
        return ppf_fail(err,
                        "--per-beat: %lld frames and %lld PNGs of %.0fx%.0f: %s pixels to draw "
                        "and encode: at most %s; use a smaller --size, a higher --speed or "
                        "--slide N",
                        (long long)frames, (long long)clips, w, h, budget_count_text(pixels).s,
                        budget_count_text(PER_BEAT_MAX_PIXELS).s);
    return true;
}

bool per_beat_plan_make(per_beat_plan *p, session *const *slides, int slide_count,
                        const per_beat_request *q, ppf_error *err)
{
    *p = (per_beat_plan){0};
    int total = 0;
    for (int s = 0; s < slide_count; s++)
        total += slides[s]->beats.count;
    if (total == 0)
        return ppf_fail(err,
                        "--per-beat: the %s no beats to export (--beats none, or "
                        "\"auto_beats\": false and no \"beats\"); give some or use --beats "
                        "auto",
                        slide_count > 1 ? "talk has" : "scenario has");
    if (q->beat < 0 || q->beat > total)
        return ppf_fail(err,
                        "--beat = %d: must be a beat's number, 1 to %d (ppflow schedule "
                        "--format beats lists them)",
                        q->beat, total);
    char count_text[16];
    const int digits = snprintf(count_text, sizeof count_text, "%d", total);
    const int width = digits < 2 ? 2 : digits;

    per_beat_clip *clips = ppf_malloc((size_t)total * sizeof *clips);
    int n = 0;
    for (int s = 0; s < slide_count; s++) {
        const session *ses = slides[s];
        const double speed = q->show.speed > 0 ? q->show.speed : session_default_speed(ses);
        double t_start = 0;
        for (int k = 0; k < ses->beats.count; k++, n++) {
            const beat *b = &ses->beats.beats[k];
            per_beat_clip *c = &clips[n];
            *c = (per_beat_clip){
                .number = n + 1,
                .slide = s + 1,
                .session = ses,
                .beat = b,
                .t_start = t_start,
                .t = b->t,
                .speed = speed,
            };
            const int own = q->slide_camera ? q->slide_camera[s] : -1;
            c->camera =
                session_camera_preset_at(ses, b->t, own >= 0 ? (camera_preset)own : q->show.camera);
            char name[sizeof(quoted) + 40];
            beat_name(name, sizeof name, slide_count, s + 1, n + 1, b);
            /* One frame more than the span takes: the first shows where the
             * clip starts, the last the beat itself. */
            const double frames = (b->t - t_start) * q->video.fps / speed;
            if (!(frames < RECORDER_MAX_FRAMES - 0.5)) {
                free(clips);
                return ppf_fail(err,
                                "--speed = %g: %s, from t %g to %g at %d fps, makes %.3g frames; "
                                "must make at most %d",
                                speed, name, t_start, b->t, q->video.fps, frames + 1,
                                RECORDER_MAX_FRAMES);
            }
            c->frames = frames > 0 ? llround(frames) + 1 : 1;
            char slug[PER_BEAT_SLUG_MAX + 1];
            per_beat_slug(b->title, slug);
            snprintf(c->video, sizeof c->video, "%0*d-%s.mp4", width, n + 1, slug);
            snprintf(c->still, sizeof c->still, "%0*d-%s.png", width, n + 1, slug);
            t_start = b->t;
        }
    }
    p->clips = clips;
    p->count = n;
    if (!check_totals(p, slide_count, q, err)) {
        per_beat_plan_deinit(p);
        return false;
    }
    return true;
}

/* ---- the directory --------------------------------------------------------- */

/* dir/name, allocated. */
static char *join(const char *dir, const char *name)
{
    const size_t len = strlen(dir);
    const bool slash = len > 0 && dir[len - 1] == '/';
    const size_t size = len + 1 + strlen(name) + 1;
    char *path = ppf_malloc(size);
    snprintf(path, size, "%s%s%s", dir, slash ? "" : "/", name);
    return path;
}

/* Makes sure dir is a directory: there already, or made now (one level,
 * its parent must exist; *made says so). False with one line: bad input. */
static bool prepare_dir(const char *dir, bool *made, ppf_error *err)
{
    *made = false;
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return true;
        return ppf_fail(err,
                        "-o = %s: --per-beat writes one file per beat into a directory (-o DIR/), "
                        "and this is a file",
                        quote_string(dir).s);
    }
    if (errno != ENOENT)
        return ppf_fail(err, "-o = %s: %s", quote_string(dir).s, strerror(errno));
    encoder_kind kind;
    ppf_error ignored = {{0}};
    if (encoder_kind_of(dir, &kind, &ignored) || encoder_path_is_still(dir) ||
        encoder_path_is_figure(dir))
        return ppf_fail(err,
                        "-o = %s: --per-beat writes one file per beat into a directory (-o DIR/), "
                        "not one file",
                        quote_string(dir).s);
    /* The parent: everything before the last name (trailing slashes
     * dropped); "." when there is no slash. */
    char *parent = ppf_malloc(strlen(dir) + 2);
    strcpy(parent, dir);
    size_t len = strlen(parent);
    while (len > 1 && parent[len - 1] == '/')
        parent[--len] = '\0';
    char *slash = strrchr(parent, '/');
    if (!slash)
        strcpy(parent, ".");
    else if (slash == parent)
        parent[1] = '\0';
    else
        *slash = '\0';
    const bool parent_ok = stat(parent, &st) == 0 && S_ISDIR(st.st_mode);
    if (!parent_ok) {
        ppf_fail(err,
                 "-o = %s: no such directory, nor its parent %s; --per-beat makes one level only",
                 quote_string(dir).s, quote_string(parent).s);
        free(parent);
        return false;
    }
    free(parent);
    if (mkdir(dir, 0777) != 0)
        return ppf_fail(err, "-o = %s: cannot make the directory: %s", quote_string(dir).s,
                        strerror(errno));
    *made = true;
    return true;
}

/* Every file the run will write can be written: output.h's rules for what
 * exists under its name, and a temporary made and removed beside it. */
static bool probe_targets(const char *dir, const per_beat_plan *p, int only, ppf_error *err)
{
    for (int k = 0; k < p->count; k++) {
        if (only && p->clips[k].number != only)
            continue;
        const char *names[2] = {p->clips[k].video, p->clips[k].still};
        for (int j = 0; j < 2; j++) {
            char *path = join(dir, names[j]);
            const bool ok = output_probe(path, OUTPUT_BY_NAME, err);
            free(path);
            if (!ok)
                return false;
        }
    }
    if (only)
        return true;
    char *path = join(dir, INDEX_NAME);
    const bool ok = output_probe(path, OUTPUT_BY_NAME, err);
    free(path);
    return ok;
}

/* ---- writing ---------------------------------------------------------------- */

/* SIGINT and SIGTERM while the files are written: the recorder polls
 * the flag between frames, and the loop between files. */
static bool stopped(void)
{
    return stop_signals_caught() != 0;
}

/* bytes into path, whole or not at all: not when a stop came meanwhile. */
static recorder_status write_whole(const char *path, const void *bytes, size_t size, ppf_error *err)
{
    output out = {0};
    if (!output_open(&out, path, err))
        return RECORDER_FAILED;
    errno = 0;
    if (fwrite(bytes, 1, size, out.file) != size) {
        const int e = errno ? errno : EIO;
        output_abort(&out);
        ppf_fail(err, "%s: writing failed: %s", quote_path(path).s, strerror(e));
        return RECORDER_FAILED;
    }
    if (stopped()) {
        output_abort(&out);
        return RECORDER_STOPPED;
    }
    return output_commit(&out, err) ? RECORDER_DONE : RECORDER_FAILED;
}

/* The beat's end state as a PNG: drawn as `--still t` draws it. */
static recorder_status write_still(const per_beat_clip *c, const session_show *show,
                                   const char *path, ppf_error *err)
{
    offscreen o;
    if (!offscreen_init(&o, c->session, show->width, show->height, err))
        return RECORDER_FAILED;
    frame_view v = offscreen_still_view(&o, c->t, show->theme, c->camera, show->ui_scale);
    v.aa = session_show_aa(show, v.aa);
    offscreen_draw(&o, &v);
    uint8_t *png = NULL;
    size_t size = 0;
    ppf_error why = {{0}};
    const bool encoded = offscreen_read_png(&o, &png, &size, &why);
    offscreen_deinit(&o);
    recorder_status status = RECORDER_FAILED;
    if (!encoded)
        ppf_fail(err, "%s: %s", quote_path(path).s, why.message);
    else
        status = write_whole(path, png, size, err);
    free(png);
    return status;
}

static void add_number(cJSON *o, const char *name, double v)
{
    cJSON_AddItemToObject(o, name, cJSON_CreateNumber(v));
}

/* A text as a string of the index, escaped by json_text.h's rule (cJSON
 * copies bytes as they are: a C1 control would reach a terminal that shows
 * the file, a stray byte would make the file unreadable). */
static void add_text(cJSON *o, const char *name, const char *text)
{
    char *literal = json_text_quote(text);
    cJSON_AddRawToObject(o, name, literal);
    free(literal);
}

static recorder_status write_index(const char *dir, const per_beat_plan *p, ppf_error *err)
{
    cJSON *list = cJSON_CreateArray();
    for (int k = 0; k < p->count; k++) {
        const per_beat_clip *c = &p->clips[k];
        cJSON *o = cJSON_CreateObject();
        add_number(o, "index", c->number);
        add_number(o, "slide", c->slide);
        add_number(o, "t", c->t);
        add_number(o, "t_start", c->t_start);
        add_text(o, "title", c->beat->title);
        add_text(o, "caption", c->beat->caption);
        if (c->beat->notes[0])
            add_text(o, "notes", c->beat->notes);
        add_text(o, "video", c->video);
        add_text(o, "still", c->still);
        add_number(o, "frames", (double)c->frames);
        cJSON_AddItemToArray(list, o);
    }
    char *text = cJSON_Print(list);
    cJSON_Delete(list);
    if (!text)
        ppf_oom("the beats' index");
    char *path = join(dir, INDEX_NAME);
    const size_t len = strlen(text);
    char *whole = ppf_malloc(len + 2);
    memcpy(whole, text, len);
    whole[len] = '\n';
    cJSON_free(text);
    const recorder_status status = write_whole(path, whole, len + 1, err);
    free(whole);
    free(path);
    return status;
}

/* One beat's clip and then its still. */
static recorder_status write_beat(const per_beat_clip *c, const per_beat_request *q,
                                  const session_show *show, bool progress, int64_t *frames,
                                  ppf_error *err)
{
    char *video = join(q->dir, c->video);
    recorder_desc d = {
        .path = video,
        .show = *show,
        .video = q->video,
        .t0 = c->t_start,
        .frames = c->frames,
        .t_last = c->t,
        .has_t_last = true,
        .progress = progress,
        .stop = stop_signals_flag(),
    };
    d.show.speed = c->speed;
    d.show.camera = c->camera;
    recorder_result r = {0};
    recorder_status status = recorder_run(c->session, &d, &r, err);
    *frames += r.frames;
    free(video);
    if (status != RECORDER_DONE)
        return status;
    char *still = join(q->dir, c->still);
    status = stopped() ? RECORDER_STOPPED : write_still(c, &d.show, still, err);
    free(still);
    return status;
}

int per_beat_export(session *const *slides, int slide_count, const per_beat_request *q)
{
    ppf_error err = {{0}};
    per_beat_plan p = {0};
    if (!per_beat_plan_make(&p, slides, slide_count, q, &err)) {
        ppf_print(stderr, "%s", err.message);
        return EXIT_STATUS_USAGE;
    }
    session_show show = q->show;
    show.width += show.width % 2;
    show.height += show.height % 2;
    bool made = false;
    if (!prepare_dir(q->dir, &made, &err) || !probe_targets(q->dir, &p, q->beat, &err)) {
        if (made)
            rmdir(q->dir);
        per_beat_plan_deinit(&p);
        ppf_print(stderr, "%s", err.message);
        return EXIT_STATUS_USAGE;
    }

    stop_signals saved;
    stop_signals_install(&saved);
    if (!q->quiet && (show.width != q->show.width || show.height != q->show.height))
        ppf_print(stderr, "--size %dx%d: H.264 needs even sides; recording %dx%d", q->show.width,
                  q->show.height, show.width, show.height);
    encoder_quiet_ffmpeg();
    setenv("EGL_LOG_LEVEL", "fatal", 0); /* as render_command.c: ppflow's one line says it */
    const double started = clock_now_seconds();
    const bool progress = !q->quiet && isatty(STDERR_FILENO);
    recorder_status status = RECORDER_DONE;
    int64_t frames = 0;
    int written = 0;
    const per_beat_clip *last = NULL; /* the last one written */
    for (int k = 0; k < p.count && status == RECORDER_DONE; k++) {
        const per_beat_clip *c = &p.clips[k];
        if (q->beat && c->number != q->beat)
            continue;
        status = write_beat(c, q, &show, progress, &frames, &err);
        if (status == RECORDER_DONE) {
            written++;
            last = c;
        }
    }
    if (status == RECORDER_DONE && !q->beat)
        status = stopped() ? RECORDER_STOPPED : write_index(q->dir, &p, &err);
    const int sig = stop_signals_caught();
    stop_signals_restore(&saved);

    int exit_status = EXIT_STATUS_OK;
    switch (status) {
    case RECORDER_DONE:
        if (q->quiet)
            break;
        if (q->beat)
            ppf_print(stderr,
                      "wrote beat %d of %d into %s: %s (%lld frames, %dx%d at %d fps, t %g to "
                      "%g) and %s in %.2f s",
                      q->beat, p.count, quote_path(q->dir).s, last->video, (long long)frames,
                      show.width, show.height, q->video.fps, last->t_start, last->t, last->still,
                      clock_now_seconds() - started);
        else
            ppf_print(stderr,
                      "wrote %d beats into %s: %d clips (%lld frames, %dx%d at %d fps), %d PNGs "
                      "and %s in %.2f s",
                      p.count, quote_path(q->dir).s, written, (long long)frames, show.width,
                      show.height, q->video.fps, written, INDEX_NAME,
                      clock_now_seconds() - started);
        break;
    case RECORDER_STOPPED:
        ppf_print(stderr,
                  "interrupted (%s); %s holds the %d beat%s finished (each whole) and no %s",
                  sig == SIGTERM ? "SIGTERM" : "SIGINT", quote_path(q->dir).s, written,
                  written == 1 ? "" : "s", INDEX_NAME);
        exit_status = EXIT_STATUS_INTERRUPTED;
        break;
    case RECORDER_FAILED:
        ppf_print(stderr, "%s", err.message);
        exit_status = EXIT_STATUS_IO;
        break;
    }
    if (exit_status != EXIT_STATUS_OK && made)
        rmdir(q->dir); /* only when nothing is in it */
    per_beat_plan_deinit(&p);
    return exit_status;
}
