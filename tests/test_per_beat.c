/* test_per_beat.c - `ppflow render --per-beat -o DIR/`: one MP4 and one
 * PNG per beat and beats.json, as a lecturer who must use PowerPoint gets
 * them (app/export/per_beat.h).
 *
 * First the plan alone (names, times, frame counts, cameras; no GL), then
 * the program as a child process (PPFLOW_EXE) on the default scenario with
 * one beat of its own that names a camera: every file the index names
 * exists and nothing else; the index's times and titles are `ppflow
 * schedule --format json`'s beats; every clip has the frames the plan
 * promises; and the last frame of several clips, decoded, is `ppflow
 * render --still t_k` (closer to it than to the still of the frame before,
 * so a clip that ends one frame early fails), its first frame the previous
 * beat's still, and each PNG is that still pixel for pixel. Then --beat N,
 * bad input (exit 2, one line, the directory as it was), a run over the
 * totals of files, frames or pixels (refused the same way, before anything
 * is drawn) and SIGINT (exit 130, the finished beats whole, no temporary,
 * no index).
 *
 * Files go to a fresh directory under $TMPDIR (or /tmp), removed at the
 * end; what ppflow writes goes under its subdirectory out/. */
#include <cjson/cJSON.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libavcodec/avcodec.h>

#include "error.h"
#include "image_png.h"
#include "per_beat.h"
#include "session.h"
#include "support/ppflow_run.h"
#include "support/video_read.h"

enum { W = 320, H = 180, FPS = 30 };
#define SIZE "320x180"
#define SPEED "8"
#define SPEED_VALUE 8.0
/* The look of the clips and stills, not the defaults, so that a clip that
 * ignored them would not match its stills; the scenario's own beat asks
 * for the top camera instead of front. */
#define LOOK "--theme", "light", "--camera", "front"
/* The default scenario (1F1B, 4 ranks, 8 micro-batches, 2 replicas: 8
 * automatic beats over 40 time units) with one beat of the scenario's own
 * between the automatic ones, with a camera and notes. */
static const char scenario_text[] =
    "{\"beats\": [{\"t\": 12.5, \"title\": \"Warm-up ends!\", \"caption\": \"Here the pipe "
    "is full.\", \"camera\": \"top\", \"notes\": \"Point at rank 3.\"}]}\n";
#define OWN_BEAT 5 /* its number among the 9 */

/* Mean absolute difference per colour channel (0-255) between a decoded
 * clip's frame and its still, measured with these clips at crf 0 (x264
 * lossless, in yuv420p): 1.9 to 2.5, nearly all of it the chroma that
 * yuv420p keeps at half resolution along thin coloured edges and text.
 * The luma alone (BT.709 weights), which x264 keeps: 0.35 to 0.36. The
 * still of the frame before the last (0.27 time units earlier) is 6.5 to
 * 9 away (luma 4.4 to 7.3); a build whose clips end one frame early fails
 * here with 9.0 (luma 7.3). */
#define MAX_DIFF 3.5
#define MAX_LUMA_DIFF 0.8

static char scratch[256];
static char out_dir[300];
static char scenario_path[320];

/* ---- running ppflow ---------------------------------------------------------- */

static child_result run_args(const char *const *args)
{
    return child_run(&(child_desc){.exe = PPFLOW_EXE, .args = args, .capture_dir = scratch});
}

#define RENDER(...) run_args((const char *const[]){"render", __VA_ARGS__, NULL})

/* `ppflow render SCENARIO --still T` at the clips' size and look, with
 * `camera` (NULL: the look's), read back; the PNG is left at path. */
static void still_read(double t, const char *camera, image *img, char *path, size_t size)
{
    char when[40];
    snprintf(when, sizeof when, "%.17g", t);
    scratch_join(path, size, scratch, "still.png");
    child_result r = RENDER(scenario_path, "--still", when, "--size", SIZE, LOOK, "--camera",
                            camera ? camera : "front", "-o", path);
    child_expect_status(&r, 0);
    child_result_deinit(&r);
    ppf_error err = {{0}};
    if (!image_read_png(path, img, &err))
        fail_msg("%s", err.message);
    assert_int_equal(img->width, W);
    assert_int_equal(img->height, H);
}

/* The beats `ppflow schedule SCENARIO --format json` lists. */
static cJSON *schedule_beats(void)
{
    child_result r = PPFLOW_RUN(scratch, "schedule", scenario_path, "--format", "json");
    child_expect_status(&r, 0);
    cJSON *doc = cJSON_Parse(r.out);
    child_result_deinit(&r);
    assert_non_null(doc);
    cJSON *beats = cJSON_DetachItemFromObject(doc, "beats");
    cJSON_Delete(doc);
    assert_true(cJSON_IsArray(beats));
    return beats;
}

static cJSON *index_read(const char *dir)
{
    char path[400];
    scratch_join(path, sizeof path, dir, "beats.json");
    char *text = child_read_file(path, NULL);
    if (!text)
        fail_msg("%s: missing", path);
    cJSON *index = cJSON_Parse(text);
    free(text);
    if (!cJSON_IsArray(index))
        fail_msg("%s: not a JSON array", path);
    return index;
}

static double number_of(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItem(o, name);
    if (!cJSON_IsNumber(v))
        fail_msg("\"%s\": not a number", name);
    return v->valuedouble;
}

static const char *string_of(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItem(o, name);
    if (!cJSON_IsString(v))
        fail_msg("\"%s\": not a string", name);
    return v->valuestring;
}

/* ---- decoding ------------------------------------------------------------------ */

/* The frames of an H.264 MP4: how many, and the first and last as RGBA
 * (BT.709 limited range, as ppflow writes it). */
typedef struct clip {
    int frames;
    image first, last;
} clip;

static void clip_deinit(clip *c)
{
    image_deinit(&c->first);
    image_deinit(&c->last);
    *c = (clip){0};
}

/* Frame i of v, as an image of its own. */
static image image_copy(const video *v, int i)
{
    const size_t size = (size_t)v->width * (size_t)v->height * 4;
    image img = {v->width, v->height, ppf_malloc(size)};
    memcpy(img.rgba, video_frame(v, i), size);
    return img;
}

/* Reads the MP4 at path (support/video_read.h): an H.264 stream at the
 * clips' size, its frame count and its two ends. */
static void clip_read(const char *path, clip *c)
{
    *c = (clip){0};
    video v;
    video_read(path, &v);
    assert_int_equal(v.codec, AV_CODEC_ID_H264);
    assert_int_equal(v.width, W);
    assert_int_equal(v.height, H);
    c->frames = v.frames;
    if (v.frames > 0) { /* one frame is both ends */
        c->first = image_copy(&v, 0);
        c->last = image_copy(&v, v.frames - 1);
    }
    video_deinit(&v);
}

/* ---- comparing pictures ---------------------------------------------------------- */

static double mean_abs_diff(const image *a, const image *b)
{
    uint64_t sum = 0;
    const size_t n = (size_t)W * H;
    for (size_t p = 0; p < n; p++)
        for (int c = 0; c < 3; c++)
            sum += (uint64_t)abs(a->rgba[p * 4 + c] - b->rgba[p * 4 + c]);
    return (double)sum / (double)(n * 3);
}

static double luma(const uint8_t *px)
{
    return 0.2126 * px[0] + 0.7152 * px[1] + 0.0722 * px[2];
}

static double mean_luma_diff(const image *a, const image *b)
{
    double sum = 0;
    const size_t n = (size_t)W * H;
    for (size_t p = 0; p < n; p++)
        sum += fabs(luma(a->rgba + p * 4) - luma(b->rgba + p * 4));
    return sum / (double)n;
}

/* ---- the plan, no GL ---------------------------------------------------------------- */

static void test_slug(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"steady state: one forward, one backward", "steady-state-one-forward-one-backward"},
        {"Warm-up ends!", "warm-up-ends"},
        {"  All-reduce  (stage 3) ", "all-reduce-stage-3"},
        {"bubble \xc2\xb7 27%", "bubble-27"}, /* a non-ASCII middle dot separates */
        {"\xe2\x86\x92", "beat"},             /* nothing left */
        {"", "beat"},
        {"aaaaaaaaaa bbbbbbbbbb cccccccccc dddddddddd eeeeeeeeee ffff",
         "aaaaaaaaaa-bbbbbbbbbb-cccccccccc-dddddddddd-eeee"},
        /* cut at PER_BEAT_SLUG_MAX bytes, never on a '-' */
        {"aaaaaaaaaa bbbbbbbbbb cccccccccc dddddddddd eeee x",
         "aaaaaaaaaa-bbbbbbbbbb-cccccccccc-dddddddddd-eeee"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char slug[PER_BEAT_SLUG_MAX + 1];
        assert_string_equal(per_beat_slug(cases[k][0], slug), cases[k][1]);
        assert_le(strlen(slug), PER_BEAT_SLUG_MAX);
    }
}

static void build(session *s, const char *path, const session_flag *flags, int n)
{
    ppf_error err = {{0}};
    if (!session_build(s, path, flags, n, &err))
        fail_msg("%s", err.message);
}

/* Names, times, frame counts and cameras, over two slides numbered on. */
static void test_plan(void **state)
{
    (void)state;
    session a = {0}, b = {0};
    build(&a, scenario_path, NULL, 0);
    build(&b, NULL, (const session_flag[]){{"schedule", "gpipe"}}, 1);
    assert_int_equal(a.beats.count, 9);
    session *slides[] = {&a, &b};
    const int slide_camera[] = {-1, CAMERA_PRESET_SIDE};
    per_beat_request q = {.show = {.camera = CAMERA_PRESET_FRONT, .speed = SPEED_VALUE},
                          .video = {.fps = FPS},
                          .slide_camera = slide_camera};
    per_beat_plan p;
    ppf_error err = {{0}};
    if (!per_beat_plan_make(&p, slides, 2, &q, &err))
        fail_msg("%s", err.message);
    assert_int_equal(p.count, a.beats.count + b.beats.count);
    for (int k = 0; k < p.count; k++) {
        const per_beat_clip *c = &p.clips[k];
        const bool first_slide = k < a.beats.count;
        const int in_slide = first_slide ? k : k - a.beats.count;
        assert_int_equal(c->number, k + 1);
        assert_int_equal(c->slide, first_slide ? 1 : 2);
        assert_ptr_equal(c->session, first_slide ? &a : &b);
        assert_same_double(c->t, c->beat->t);
        /* from the slide's previous beat, or its start */
        assert_same_double(c->t_start, in_slide == 0 ? 0.0 : p.clips[k - 1].t);
        assert_int_equal(c->frames, llround((c->t - c->t_start) * FPS / SPEED_VALUE) + 1);
        /* the scenario's own beat names top, and presenting keeps a camera
         * until a beat names another: top from there to the slide's end;
         * slide 2 has a camera of its own */
        assert_int_equal(c->camera, !first_slide            ? CAMERA_PRESET_SIDE
                                    : c->number >= OWN_BEAT ? CAMERA_PRESET_TOP
                                                            : CAMERA_PRESET_FRONT);
        char prefix[16];
        snprintf(prefix, sizeof prefix, "%02d-", k + 1);
        assert_memory_equal(c->video, prefix, 3);
        assert_string_equal(strrchr(c->video, '.'), ".mp4");
        assert_string_equal(strrchr(c->still, '.'), ".png");
        assert_memory_equal(c->video, c->still, strlen(c->video) - 4);
    }
    assert_string_equal(p.clips[0].video, "01-start.mp4");
    assert_int_equal(p.clips[0].frames, 1); /* a beat at the start: one frame */
    assert_string_equal(p.clips[OWN_BEAT - 1].video, "05-warm-up-ends.mp4");
    const int count = p.count;
    per_beat_plan_deinit(&p);
    per_beat_plan_deinit(&p); /* twice is harmless */

    /* bad input: one line naming the field, the value and the rule; *p zeroed */
    q.beat = count + 1;
    assert_false(per_beat_plan_make(&p, slides, 2, &q, &err));
    char value[40], range[40];
    snprintf(value, sizeof value, "--beat = %d", count + 1);
    snprintf(range, sizeof range, "1 to %d", count);
    assert_message(&err, value, range);
    assert_null(p.clips);
    q.beat = 0;
    q.show.speed = 1e-9; /* billions of frames */
    assert_false(per_beat_plan_make(&p, slides, 1, &q, &err));
    assert_message(&err, "--speed", "frames");
    assert_null(p.clips);
    session_deinit(&b);
    build(&b, NULL, (const session_flag[]){{"beats", "none"}}, 1);
    q.show.speed = 0;
    assert_false(per_beat_plan_make(&p, (session *[]){&b}, 1, &q, &err));
    assert_message(&err, "--per-beat", "no beats");
    session_deinit(&b);
    session_deinit(&a);
}

/* A scenario of `count` beats of its own (none automatic) over the default
 * iteration (40 time units), written as `name` in the scratch directory. */
static void put_many_beats(char *path, size_t size, const char *name, int count)
{
    const size_t cap = (size_t)count * 48 + 64;
    char *text = malloc(cap);
    size_t n = (size_t)snprintf(text, cap, "{\"auto_beats\": false, \"beats\": [");
    for (int k = 0; k < count; k++)
        n += (size_t)snprintf(text + n, cap - n, "%s{\"t\": %.6f, \"title\": \"b%d\"}",
                              k ? ", " : "", 40.0 * (k + 1) / count, k);
    snprintf(text + n, cap - n, "]}");
    scratch_put(path, size, scratch, name, text);
    free(text);
}

/* What a run writes in all, against PER_BEAT_MAX_FILES, _FRAMES and
 * _PIXELS: each at its limit passes and one past it is refused with one
 * line naming the total and the limit; --beat N counts the beat it writes. */
static void test_plan_totals(void **state)
{
    (void)state;
    char many[400];
    put_many_beats(many, sizeof many, "many.json", PER_BEAT_MAX_FILES / 4);
    session a = {0}, b = {0}, c = {0};
    build(&a, many, NULL, 0);
    build(&b, many, NULL, 0);
    build(&c, NULL, NULL, 0);
    assert_int_equal(a.beats.count, PER_BEAT_MAX_FILES / 4);
    per_beat_request q = {.show = {.width = W, .height = H}, .video = {.fps = FPS}};
    per_beat_plan p;
    ppf_error err = {{0}};
    /* files: two slides of 500 beats are 2000 clips and PNGs; a third slide more */
    if (!per_beat_plan_make(&p, (session *[]){&a, &b}, 2, &q, &err))
        fail_msg("%s", err.message);
    per_beat_plan_deinit(&p);
    assert_false(per_beat_plan_make(&p, (session *[]){&a, &b, &c}, 3, &q, &err));
    assert_message(&err, "--per-beat: 1008 beats over 3 slides make 2016 clips and PNGs: at most "
                         "2000 (1000 beats)");
    assert_null(p.clips);
    q.beat = 1008; /* the one beat written counts */
    if (!per_beat_plan_make(&p, (session *[]){&a, &b, &c}, 3, &q, &err))
        fail_msg("%s", err.message);
    per_beat_plan_deinit(&p);
    q.beat = 0;

    /* frames: the speed that makes the most frames under the limit, and
     * a little slower (at 30 fps the default scenario's 40 units) */
    q.show.speed = 40.0 * FPS / (PER_BEAT_MAX_FRAMES - 16); /* rounding: 8 clips, +1 each */
    if (!per_beat_plan_make(&p, (session *[]){&c}, 1, &q, &err))
        fail_msg("%s", err.message);
    int64_t frames = 0;
    for (int k = 0; k < p.count; k++)
        frames += p.clips[k].frames;
    assert_true(frames <= PER_BEAT_MAX_FRAMES && frames > PER_BEAT_MAX_FRAMES - 20);
    per_beat_plan_deinit(&p);
    q.show.speed *= 0.999;
    assert_false(per_beat_plan_make(&p, (session *[]){&c}, 1, &q, &err));
    assert_message(&err, "--per-beat: 8 beats make ", " frames at 30 fps: at most 300000 in all");

    /* pixels: the frames and PNGs times the (even) size */
    q.show.speed = 40.0 * FPS / 100000;
    if (!per_beat_plan_make(&p, (session *[]){&c}, 1, &q, &err))
        fail_msg("%s", err.message);
    double pictures = p.count;
    for (int k = 0; k < p.count; k++)
        pictures += (double)p.clips[k].frames;
    per_beat_plan_deinit(&p);
    q.show.width = 2000;
    q.show.height = (int)(PER_BEAT_MAX_PIXELS / (pictures * 2000)) & ~1;
    if (!per_beat_plan_make(&p, (session *[]){&c}, 1, &q, &err))
        fail_msg("%dx%d: %s", q.show.width, q.show.height, err.message);
    per_beat_plan_deinit(&p);
    q.show.height += 1; /* recorded one row taller: even sides */
    assert_false(per_beat_plan_make(&p, (session *[]){&c}, 1, &q, &err));
    assert_message(&err, "PNGs of 2000x", " pixels to draw and encode: at most 3e11");
    session_deinit(&c);
    session_deinit(&b);
    session_deinit(&a);
}

/* A talk whose slides repeat a base of 500 beats asks for more than a run
 * may write: refused before anything is drawn, the directory neither made
 * nor touched; --beat N of it writes that beat. */
static void test_totals_refused_before_any_work(void **state)
{
    (void)state;
    char many[400], talk[400], made[400], file[400];
    put_many_beats(many, sizeof many, "many.json", PER_BEAT_MAX_FILES / 4);
    scratch_put(talk, sizeof talk, scratch, "talk.json",
                "{\"base\": \"many.json\", \"slides\": [{}, {}, {}]}");
    scratch_join(made, sizeof made, out_dir, "new/");
    scratch_join(file, sizeof file, out_dir, "file.txt");
    scratch_write(file, "a file\n");
    const char *const dirs[] = {made, out_dir};
    for (int k = 0; k < 2; k++) {
        child_result r = RENDER(talk, "--per-beat", "--size", SIZE, "-o", dirs[k]);
        child_expect_status(&r, 2);
        child_expect_one_line(
            &r, "ppflow: ", "1500 beats over 3 slides make 3000 clips and PNGs: at most 2000");
        child_result_deinit(&r);
        assert_int_equal(scratch_count(out_dir, NULL), 1); /* file.txt alone */
    }
    child_result r =
        RENDER(scenario_path, "--per-beat", "--size", SIZE, "--speed", "0.003", "-o", made);
    child_expect_status(&r, 2);
    child_expect_one_line(&r, "ppflow: ", "frames at 30 fps: at most 300000 in all");
    child_result_deinit(&r);
    assert_int_equal(scratch_count(out_dir, NULL), 1);
    child_expect_file(file, "a file\n");
    r = RENDER(talk, "--beat", "1001", "--size", SIZE, "-o", made);
    child_expect_status(&r, 0);
    child_result_deinit(&r);
    assert_int_equal(scratch_count(made, NULL), 2); /* 1001-b0.mp4 and .png */
}

/* ---- the files ---------------------------------------------------------------------- */

/* The frames of a clip against the stills of its two ends: the last frame
 * is `--still t` (and the PNG is that still exactly), closer to it than to
 * the frame before's; the first is the previous beat's still. */
static void expect_clip(const char *dir, const cJSON *entry, bool first_too)
{
    const int number = (int)number_of(entry, "index");
    const double t = number_of(entry, "t"), t_start = number_of(entry, "t_start");
    const int frames = (int)number_of(entry, "frames");
    const char *camera = number == OWN_BEAT ? "top" : NULL;
    char path[400], still_path[400];
    scratch_join(path, sizeof path, dir, string_of(entry, "video"));
    clip c;
    clip_read(path, &c);
    assert_int_equal(c.frames, frames);

    image own = {0}, before = {0}, png = {0}, start = {0};
    still_read(t, camera, &own, still_path, sizeof still_path);
    /* the beat's PNG is the still, pixel for pixel */
    ppf_error err = {{0}};
    scratch_join(path, sizeof path, dir, string_of(entry, "still"));
    if (!image_read_png(path, &png, &err))
        fail_msg("%s", err.message);
    assert_int_equal(png.width, W);
    assert_int_equal(png.height, H);
    if (memcmp(png.rgba, own.rgba, (size_t)W * H * 4) != 0)
        fail_msg("beat %d: %s differs from --still %.17g", number, path, t);
    const double to_own = mean_abs_diff(&c.last, &own);
    const double luma_own = mean_luma_diff(&c.last, &own);
    print_message("beat %d: last of %d frames %.2f from --still %g (luma %.2f)\n", number, frames,
                  to_own, t, luma_own);
    if (!(to_own <= MAX_DIFF && luma_own <= MAX_LUMA_DIFF))
        fail_msg("beat %d: the last frame differs from --still %.17g by %.2f (luma %.2f; at most "
                 "%.2f, %.2f)",
                 number, t, to_own, luma_own, MAX_DIFF, MAX_LUMA_DIFF);
    if (frames >= 2) {
        /* the frame before the last, at the time the recorder gives it */
        const double t_before = t_start + (double)(frames - 2) * SPEED_VALUE / FPS;
        still_read(t_before, camera, &before, still_path, sizeof still_path);
        const double to_before = mean_abs_diff(&c.last, &before);
        const double luma_before = mean_luma_diff(&c.last, &before);
        print_message("beat %d: the last frame is %.2f (luma %.2f) from --still %g, the frame "
                      "before's\n",
                      number, to_before, luma_before, t_before);
        if (!(luma_own < luma_before && to_own < to_before))
            fail_msg("beat %d: the last frame is closer to the frame before's still (%.2f, luma "
                     "%.2f) than to --still %.17g (%.2f, luma %.2f): it does not end on its beat",
                     number, to_before, luma_before, t, to_own, luma_own);
    }
    if (first_too) {
        still_read(t_start, camera, &start, still_path, sizeof still_path);
        const double d = mean_luma_diff(&c.first, &start);
        print_message("beat %d: first frame %.2f (luma) from --still %g\n", number, d, t_start);
        if (!(d <= MAX_LUMA_DIFF))
            fail_msg("beat %d: the first frame differs from --still %.17g by %.2f (luma)", number,
                     t_start, d);
    }
    unlink(still_path);
    image_deinit(&own);
    image_deinit(&before);
    image_deinit(&png);
    image_deinit(&start);
    clip_deinit(&c);
}

/* Every beat into a directory that does not exist yet (its parent does). */
static void test_every_beat(void **state)
{
    (void)state;
    char dir[400];
    scratch_join(dir, sizeof dir, out_dir, "deck/");
    child_result r = RENDER(scenario_path, "--per-beat", "--size", SIZE, LOOK, "--speed", SPEED,
                            "--crf", "0", "-o", dir);
    child_expect_status(&r, 0);
    child_expect_one_line(&r, "ppflow: wrote 9 beats into ", dir);
    child_result_deinit(&r);

    cJSON *index = index_read(dir), *beats = schedule_beats();
    const int n = cJSON_GetArraySize(index);
    assert_int_equal(n, cJSON_GetArraySize(beats));
    assert_int_equal(n, 9);
    /* the index's files, and nothing else: no temporary */
    assert_int_equal(scratch_count(dir, NULL), 2 * n + 1);
    double t_start = 0;
    for (int k = 0; k < n; k++) {
        const cJSON *e = cJSON_GetArrayItem(index, k), *b = cJSON_GetArrayItem(beats, k);
        assert_int_equal((int)number_of(e, "index"), k + 1);
        assert_int_equal((int)number_of(e, "slide"), 1);
        assert_same_double(number_of(e, "t"), number_of(b, "t"));
        assert_same_double(number_of(e, "t_start"), t_start);
        assert_string_equal(string_of(e, "title"), string_of(b, "title"));
        assert_string_equal(string_of(e, "caption"), string_of(b, "caption"));
        const long long frames = llround((number_of(e, "t") - t_start) * FPS / SPEED_VALUE) + 1;
        assert_int_equal((long long)number_of(e, "frames"), frames);
        char path[400];
        scratch_join(path, sizeof path, dir, string_of(e, "video"));
        assert_true(scratch_exists(path));
        scratch_join(path, sizeof path, dir, string_of(e, "still"));
        assert_true(scratch_exists(path));
        /* every clip has the frames the index says */
        scratch_join(path, sizeof path, dir, string_of(e, "video"));
        clip c;
        clip_read(path, &c);
        assert_int_equal(c.frames, frames);
        clip_deinit(&c);
        t_start = number_of(e, "t");
    }
    const cJSON *own = cJSON_GetArrayItem(index, OWN_BEAT - 1);
    assert_string_equal(string_of(own, "video"), "05-warm-up-ends.mp4");
    assert_string_equal(string_of(own, "notes"), "Point at rank 3.");

    /* the pictures: a one-frame clip at the start, the warm-up, the beat
     * with its own camera and the end */
    expect_clip(dir, cJSON_GetArrayItem(index, 0), false);
    expect_clip(dir, cJSON_GetArrayItem(index, 1), true);
    expect_clip(dir, own, true);
    expect_clip(dir, cJSON_GetArrayItem(index, n - 1), true);
    cJSON_Delete(index);
    cJSON_Delete(beats);
}

/* --beat N (which implies --per-beat): that beat's two files only; an
 * index already there is left as it is. */
static void test_one_beat(void **state)
{
    (void)state;
    char index_path[400];
    scratch_join(index_path, sizeof index_path, out_dir, "beats.json");
    scratch_write(index_path, "[\"a whole run's index\"]\n");
    child_result r =
        RENDER(scenario_path, "--beat", "3", "--size", SIZE, LOOK, "--speed", SPEED, "-o", out_dir);
    child_expect_status(&r, 0);
    child_expect_one_line(&r, "ppflow: wrote beat 3 of 9", "03-steady-state");
    child_result_deinit(&r);
    assert_int_equal(scratch_count(out_dir, NULL), 3);
    char path[400];
    scratch_join(path, sizeof path, out_dir, "03-steady-state-one-forward-one-backward.mp4");
    clip c;
    clip_read(path, &c);
    assert_int_equal(c.frames, llround((4.75 - 3.75) * FPS / SPEED_VALUE) + 1);
    clip_deinit(&c);
    scratch_join(path, sizeof path, out_dir, "03-steady-state-one-forward-one-backward.png");
    assert_true(scratch_exists(path));
    child_expect_file(index_path, "[\"a whole run's index\"]\n");
}

/* Two PNGs are the same picture. */
static bool same_png(const char *a_path, const char *b_path)
{
    image a = {0}, b = {0};
    ppf_error err = {{0}};
    if (!image_read_png(a_path, &a, &err) || !image_read_png(b_path, &b, &err))
        fail_msg("%s", err.message);
    const bool same = a.width == b.width && a.height == b.height &&
                      memcmp(a.rgba, b.rgba, (size_t)a.width * (size_t)a.height * 4) == 0;
    image_deinit(&a);
    image_deinit(&b);
    return same;
}

/* A talk slide's "camera" draws its beats' PNGs and its stills, as when
 * presenting (where the slide's camera is set when it is shown): beat 9
 * (slide 2's only beat, after slide 1's eight automatic ones) is the still
 * of the same scenario alone under --camera top, not the default camera's,
 * and so is `--slide 2 --still` whatever --camera says. */
static void test_slide_camera(void **state)
{
    (void)state;
    char talk[400], alone[400], dir[400], png[400], still[400];
    scratch_join(talk, sizeof talk, scratch, "camera-talk.json");
    scratch_write(talk, "{\"slides\": [{\"title\": \"one\"},\n"
                        " {\"title\": \"two\", \"camera\": \"top\", \"auto_beats\": false,\n"
                        "  \"beats\": [{\"t\": 6, \"title\": \"from above\"}]}]}\n");
    scratch_join(alone, sizeof alone, scratch, "camera-alone.json");
    scratch_write(alone, "{\"auto_beats\": false, \"beats\": [{\"t\": 6, \"title\": \"from "
                         "above\"}]}\n");
    scratch_join(dir, sizeof dir, out_dir, "camera/");
    child_result r = RENDER(talk, "--beat", "9", "--size", SIZE, "--theme", "light", "-o", dir);
    child_expect_status(&r, 0);
    child_result_deinit(&r);
    scratch_join(png, sizeof png, dir, "09-from-above.png");
    assert_true(scratch_exists(png));

    scratch_join(still, sizeof still, scratch, "camera-still.png");
    const char *cameras[] = {"top", "default"};
    for (int k = 0; k < 2; k++) {
        r = RENDER(alone, "--still", "6", "--size", SIZE, "--theme", "light", "--camera",
                   cameras[k], "-o", still);
        child_expect_status(&r, 0);
        child_result_deinit(&r);
        if (same_png(png, still) != (k == 0))
            fail_msg("slide 2's beat PNG %s the still under --camera %s",
                     k ? "equals" : "differs from", cameras[k]);
    }
    char slide_still[400];
    scratch_join(slide_still, sizeof slide_still, scratch, "camera-slide.png");
    r = RENDER(talk, "--slide", "2", "--still", "6", "--size", SIZE, "--theme", "light", "--camera",
               "front", "-o", slide_still);
    child_expect_status(&r, 0);
    child_result_deinit(&r);
    if (!same_png(png, slide_still))
        fail_msg("--slide 2 --still 6 is not drawn with the slide's camera");
}

/* Bad input: exit status 2, one line naming the option, and out/ as it
 * was (nothing made, nothing written). */
static void test_bad_input(void **state)
{
    (void)state;
    char file[400], keep[400], locked[400], sky[400];
    scratch_join(file, sizeof file, out_dir, "file.txt");
    scratch_write(file, "a file\n");
    scratch_join(keep, sizeof keep, out_dir, "keep");
    assert_int_equal(mkdir(keep, 0755), 0);
    /* a file a run would replace but may not */
    scratch_join(locked, sizeof locked, keep, "02-first-forward-reaches-rank-3.png");
    scratch_write(locked, "old\n");
    assert_int_equal(chmod(locked, 0444), 0);
    scratch_put(sky, sizeof sky, scratch, "sky.json",
                "{\"beats\": [{\"t\": 1, \"title\": \"up\", \"camera\": \"sky\"}]}");
    static const struct {
        const char *target; /* under out/ */
        const char *args[5];
        const char *names;
    } cases[] = {
        {"file.txt", {"--per-beat"}, "-o"},
        {"x.mp4", {"--per-beat"}, "-o"},
        {"shot.png", {"--beat", "2"}, "-o"},
        {"no/such/", {"--per-beat"}, "-o"},
        {"new/", {"--beat", "10"}, "--beat = 10"},
        {"new/", {"--beat", "0"}, "--beat"},
        {"new/", {"--per-beat", "--still", "3"}, "--still"},
        {"new/", {"--per-beat", "--duration", "2"}, "--duration"},
        {"new/", {"--beat", "1", "--range", "0:5"}, "--range"},
        {"new/", {"--per-beat", "--beats", "none"}, "--per-beat"},
        {"keep", {"--per-beat"}, "02-first-forward-reaches-rank-3.png"},
        {NULL, {"--per-beat"}, "-o"},
        {"sky/", {"--per-beat", "SKY"}, "beats[0].camera = \"sky\": not a camera preset"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char path[400];
        const char *args[16] = {"render", "--size", SIZE, "--speed", SPEED};
        int n = 5;
        bool own_scenario = false;
        for (int j = 0; cases[k].args[j]; j++) {
            const bool is_sky = strcmp(cases[k].args[j], "SKY") == 0;
            own_scenario |= is_sky;
            args[n++] = is_sky ? sky : cases[k].args[j];
        }
        if (!own_scenario)
            args[n++] = scenario_path;
        if (cases[k].target) {
            scratch_join(path, sizeof path, out_dir, cases[k].target);
            args[n++] = "-o";
            args[n++] = path;
        }
        child_result r = run_args(args);
        child_expect_status(&r, 2);
        child_expect_one_line(&r, "ppflow: ", cases[k].names);
        assert_int_equal(r.out_len, 0);
        child_result_deinit(&r);
        assert_int_equal(scratch_count(out_dir, NULL), 2);
        assert_int_equal(scratch_count(keep, NULL), 1);
    }
    child_expect_file(file, "a file\n");
    child_expect_file(locked, "old\n");
}

/* SIGINT while beat 2's clip is encoded: exit status 130, one line naming
 * the directory; beat 1's files stay whole, no temporary, no index. */
static void test_sigint(void **state)
{
    (void)state;
    char dir[400];
    scratch_join(dir, sizeof dir, out_dir, "deck");
    assert_int_equal(mkdir(dir, 0755), 0); /* there to be watched from the start */
    /* beat 2 from 0 to 3.75 at 0.005 units a second: 22500 frames */
    const char *const args[] = {"render", scenario_path, "--per-beat", "--size", SIZE, "--speed",
                                "0.005",  "--quiet",     "-o",         dir,      NULL};
    const child_desc d = {.exe = PPFLOW_EXE, .args = args, .capture_dir = scratch};
    const pid_t pid = child_start(&d);
    child_await_entry(pid, &d, dir, ".02-first-forward", CHILD_TIMEOUT, NULL, 0);
    child_result r = child_stop(pid, &d, SIGINT, CHILD_TIMEOUT);
    child_expect_status(&r, 130);
    child_expect_one_line(&r, "ppflow: interrupted (SIGINT)", dir);
    child_result_deinit(&r);
    assert_int_equal(scratch_count(dir, NULL), 2);
    char path[400];
    scratch_join(path, sizeof path, dir, "01-start.mp4");
    clip c;
    clip_read(path, &c);
    assert_int_equal(c.frames, 1);
    clip_deinit(&c);
    scratch_join(path, sizeof path, dir, "01-start.png");
    assert_true(scratch_exists(path));
}

/* ---- fixtures ---------------------------------------------------------------------- */

static int setup(void **state)
{
    if (scratch_setup(state, scratch, sizeof scratch, "ppflow_test_per_beat") != 0)
        return -1;
    scratch_join(out_dir, sizeof out_dir, scratch, "out");
    return 0;
}

/* Each test starts with the scenario and an empty out/. */
static int before_each(void **state)
{
    scratch_before_each(state);
    scratch_put(scenario_path, sizeof scenario_path, scratch, "scenario.json", scenario_text);
    return mkdir(out_dir, 0755) == 0 ? 0 : -1;
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_slug, before_each),
        cmocka_unit_test_setup(test_plan, before_each),
        cmocka_unit_test_setup(test_plan_totals, before_each),
        cmocka_unit_test_setup(test_totals_refused_before_any_work, before_each),
        cmocka_unit_test_setup(test_every_beat, before_each),
        cmocka_unit_test_setup(test_one_beat, before_each),
        cmocka_unit_test_setup(test_slide_camera, before_each),
        cmocka_unit_test_setup(test_bad_input, before_each),
        cmocka_unit_test_setup(test_sigint, before_each),
    };
    return cmocka_run_group_tests(tests, setup, scratch_teardown);
}
