/* test_video.c - `ppflow render -o OUT` end to end: the files a user gets.
 *
 * Every export runs the built program (PPFLOW_EXE) as a child process, and
 * the test reads the result back on its own: an MP4 through libavformat and
 * libavcodec (codec, size, colour tags, duration, frame count, the index
 * before the data), a GIF by walking its blocks and decoding it, PNG frames
 * with image_read_png. Decoded frames are compared with `ppflow render
 * --still T` at the time each frame must show: close to that still, and
 * closer to it than to a still of a clearly different moment, so frames
 * shifted in time fail. Then the failures: bad input, an unwritable path,
 * SIGINT and SIGTERM during an export, a full disk (a file size limit on
 * the child). After each, nothing exists under the target's name (or an
 * existing target keeps its content) and no temporary is left beside it.
 *
 * Files go to a fresh directory under $TMPDIR (or /tmp), removed at the end:
 * the child's captured outputs and the stills at its top, and what ppflow
 * writes in its subdirectory out/, so that counting out/'s entries finds
 * exactly what an export left. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libavcodec/avcodec.h>
#include <libavutil/pixdesc.h>

#include "error.h"
#include "image_png.h"
#include "support/ppflow_run.h"
#include "support/video_read.h"

/* The clip most tests record: 3 time units of the default scenario (1F1B on
 * 4 ranks, 8 micro-batches, makespan 33) from t = 3, where the pipeline
 * fills and the picture changes from frame to frame, at 320x180. */
enum { W = 320, H = 180 };
#define SIZE "320x180"
#define CLIP_T0 3.0
#define CLIP_T1 6.0
#define RANGE "3:6"
/* The look of every export and still; not the defaults, so that an export
 * that ignored them would not match its stills. */
#define LOOK "--theme", "light", "--camera", "front"

/* Bounds on the mean absolute difference per colour channel (0-255)
 * between a decoded frame and its still, measured with this clip. H.264 at
 * the default crf 20: 3.8 (4.3 with the dark theme and the default
 * camera), nearly all of it the chroma that yuv420p keeps at half
 * resolution, along the scene's many thin coloured edges and its text
 * (crf 0 gives 2.7); the still of the next frame is 0.25 to 0.5 further.
 * The GIF's one palette: 0.3, the next frame 0.5 further. Stills of a
 * clip's two ends: 5.8 to 6.6 apart. */
#define MP4_MAX_DIFF 5.0
#define GIF_MAX_DIFF 1.0
#define CLEARLY_DIFFERENT 4.0

static char scratch[256];
static char out_dir[300];

/* ---- running ppflow ------------------------------------------------------ */

static child_desc ppflow_desc(const char *const *args, long long fsize_limit)
{
    return (child_desc){
        .exe = PPFLOW_EXE,
        .args = args,
        .capture_dir = scratch,
        .fsize_limit = fsize_limit,
    };
}

static child_result run_ppflow(const char *const *args, long long fsize_limit)
{
    const child_desc d = ppflow_desc(args, fsize_limit);
    return child_run(&d);
}

#define RENDER(...) run_ppflow((const char *const[]){"render", __VA_ARGS__, NULL}, 0)

/* The time frame i shows with --range T0:T1 --duration SECONDS --fps FPS,
 * computed in the order ppflow computes it (speed, then t0 + i * speed /
 * fps), so that %.17g gives --still the very same double. */
static double frame_time(int i, int fps, double t0, double t1, double seconds)
{
    const double speed = (t1 - t0) / seconds;
    return t0 + (double)i * speed / fps;
}

/* `ppflow render --still T` at w x h with LOOK and the options in extra
 * (NULL-ended; NULL: none), read back. */
static void still_read_with(double t, int w, int h, const char *const *extra, image *img)
{
    char when[40], size[40], path[320];
    snprintf(when, sizeof when, "%.17g", t);
    snprintf(size, sizeof size, "%dx%d", w, h);
    scratch_join(path, sizeof path, scratch, "still.png");
    const char *const head[] = {"render", "--still", when, "--size", size, LOOK};
    const char *args[32];
    int n = 0;
    for (size_t k = 0; k < sizeof head / sizeof head[0]; k++)
        args[n++] = head[k];
    for (int k = 0; extra && extra[k]; k++) {
        assert_true(n < 28);
        args[n++] = extra[k];
    }
    args[n++] = "-o";
    args[n++] = path;
    args[n] = NULL;
    child_result r = run_ppflow(args, 0);
    child_expect_status(&r, 0);
    child_result_deinit(&r);
    ppf_error err = {{0}};
    if (!image_read_png(path, img, &err))
        fail_msg("%s", err.message);
    assert_int_equal(img->width, w);
    assert_int_equal(img->height, h);
    unlink(path);
}

/* `ppflow render --still T` at w x h with LOOK, read back. */
static void still_read(double t, int w, int h, image *img)
{
    still_read_with(t, w, h, NULL, img);
}

/* ---- reading the files back ------------------------------------------------ */

static uint32_t read_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Offsets of the top-level MP4 boxes named `a` and `b`; -1 when absent. */
static void mp4_box_offsets(const char *path, const char *a, const char *b, long *at_a, long *at_b)
{
    size_t len;
    uint8_t *data = (uint8_t *)child_read_file(path, &len);
    assert_non_null(data);
    *at_a = *at_b = -1;
    for (size_t at = 0; at + 8 <= len;) {
        uint64_t size = read_be32(data + at);
        if (size == 1) { /* a 64-bit size follows the type */
            assert_le(at + 16, len);
            size = (uint64_t)read_be32(data + at + 8) << 32 | read_be32(data + at + 12);
        } else if (size == 0) { /* to the end of the file */
            size = len - at;
        }
        if (memcmp(data + at + 4, a, 4) == 0)
            *at_a = (long)at;
        if (memcmp(data + at + 4, b, 4) == 0)
            *at_b = (long)at;
        assert_ge(size, 8);
        at += size;
    }
    free(data);
}

typedef struct gif_info {
    int width, height;   /* the logical screen */
    bool global_palette; /* a global colour table follows the screen descriptor */
    int images;          /* image descriptors */
    int other_palettes;  /* images with a colour table of their own, unlike the global one */
    int delay_cs;        /* the graphic control extensions' delays, summed (1/100 s) */
    bool loops;          /* a NETSCAPE2.0 application extension, loop count 0 (forever) */
} gif_info;

/* Skips data sub-blocks (a size byte, that many bytes, ... a 0 byte). */
static size_t gif_skip_blocks(const uint8_t *d, size_t len, size_t at)
{
    while (at < len && d[at] != 0)
        at += 1 + d[at];
    assert_lt(at, len);
    return at + 1;
}

/* Walks the blocks of a GIF89a file (the format's specification, not
 * FFmpeg's reading of it). */
static void gif_parse(const char *path, gif_info *g)
{
    *g = (gif_info){0};
    size_t len;
    uint8_t *d = (uint8_t *)child_read_file(path, &len);
    assert_non_null(d);
    assert_gt(len, 13);
    assert_memory_equal(d, "GIF89a", 6);
    g->width = d[6] | d[7] << 8;
    g->height = d[8] | d[9] << 8;
    g->global_palette = d[10] & 0x80;
    const size_t global_size = g->global_palette ? 3u << ((d[10] & 7) + 1) : 0;
    size_t at = 13 + global_size;
    for (;;) {
        assert_lt(at, len);
        if (d[at] == 0x3b) /* trailer */
            break;
        if (d[at] == 0x21) { /* extension: label, then sub-blocks */
            assert_lt(at + 2, len);
            const uint8_t label = d[at + 1];
            if (label == 0xf9 && at + 6 < len) /* graphic control: delay at +4 */
                g->delay_cs += d[at + 4] | d[at + 5] << 8;
            if (label == 0xff && at + 18 < len && d[at + 2] == 11 &&
                memcmp(d + at + 3, "NETSCAPE2.0", 11) == 0 && d[at + 14] == 3 && d[at + 15] == 1)
                g->loops = (d[at + 16] | d[at + 17] << 8) == 0;
            at = gif_skip_blocks(d, len, at + 2);
        } else {
            assert_int_equal(d[at], 0x2c); /* image descriptor */
            assert_lt(at + 10, len);
            const uint8_t packed = d[at + 9];
            g->images++;
            at += 10;
            if (packed & 0x80) {
                /* FFmpeg's encoder repeats the global table on the first
                 * image: the same colours are still one palette */
                const size_t size = 3u << ((packed & 7) + 1);
                assert_lt(at + size, len);
                if (size != global_size || memcmp(d + at, d + 13, size) != 0)
                    g->other_palettes++;
                at += size;
            }
            at = gif_skip_blocks(d, len, at + 1); /* after the LZW code size */
        }
    }
    free(d);
}

/* ---- comparing pictures -------------------------------------------------- */

/* Mean absolute difference per colour channel (R, G, B), 0 to 255. */
static double mean_abs_diff(const uint8_t *a, const uint8_t *b, int w, int h)
{
    uint64_t sum = 0;
    const size_t n = (size_t)w * (size_t)h;
    for (size_t p = 0; p < n; p++)
        for (int c = 0; c < 3; c++)
            sum += (uint64_t)abs(a[p * 4 + c] - b[p * 4 + c]);
    return (double)sum / (double)(n * 3);
}

/* Frames first, middle and last of a clip (n frames at fps over
 * CLIP_T0:CLIP_T1 in `seconds`) show the stills at their times: each is
 * within `bound` of its own still; closer to it than to the stills of the
 * frames just before and after (a clip shifted by one frame fails); and
 * closer to it than to the still at the far end of the clip, which differs
 * clearly (or that comparison would prove nothing). Prints what it
 * measured: the bounds above come from these lines. */
static void expect_clip_shows(const char *what, const video *v, int n, int fps, double seconds,
                              double bound)
{
    const int w = v->width, h = v->height;
    const int picks[3] = {0, n / 2, n - 1};
    /* stills[3 * k + 1 + d]: frame picks[k] + d, for d = -1, 0, 1 */
    image stills[9] = {{0}};
    for (int k = 0; k < 9; k++)
        still_read(frame_time(picks[k / 3] + k % 3 - 1, fps, CLIP_T0, CLIP_T1, seconds), w, h,
                   &stills[k]);
    for (int k = 0; k < 3; k++) {
        const int i = picks[k], far = k == 0 ? 2 : 0;
        const uint8_t *frame = video_frame(v, i);
        const image *own = &stills[3 * k + 1], *far_still = &stills[3 * far + 1];
        const double to_own = mean_abs_diff(frame, own->rgba, w, h);
        const double to_prev = mean_abs_diff(frame, stills[3 * k].rgba, w, h);
        const double to_next = mean_abs_diff(frame, stills[3 * k + 2].rgba, w, h);
        const double to_far = mean_abs_diff(frame, far_still->rgba, w, h);
        const double apart = mean_abs_diff(own->rgba, far_still->rgba, w, h);
        print_message("%s frame %d: %.2f from its still, %.2f and %.2f from frames %d and %d's, "
                      "%.2f from frame %d's (stills %.2f apart)\n",
                      what, i, to_own, to_prev, to_next, i - 1, i + 1, to_far, picks[far], apart);
        if (!(to_own <= bound))
            fail_msg("%s frame %d differs from its still by %.2f (at most %.2f)", what, i, to_own,
                     bound);
        if (!(to_own < to_prev && to_own < to_next))
            fail_msg("%s frame %d is closer to the still of frame %d or %d (%.2f, %.2f) than to "
                     "its own (%.2f): shifted in time",
                     what, i, i - 1, i + 1, to_prev, to_next, to_own);
        if (!(apart > CLEARLY_DIFFERENT))
            fail_msg("the stills of frames %d and %d differ by %.2f only: choose another clip", i,
                     picks[far], apart);
        if (!(to_own < to_far))
            fail_msg("%s frame %d is closer to frame %d's still (%.2f) than to its own (%.2f)",
                     what, i, picks[far], to_far, to_own);
    }
    for (int k = 0; k < 9; k++)
        image_deinit(&stills[k]);
}

/* ---- formats ------------------------------------------------------------- */

/* 30 frames of H.264 that play everywhere and show the stills. */
static void test_mp4(void **state)
{
    (void)state;
    char path[400];
    scratch_join(path, sizeof path, out_dir, "clip.mp4");
    child_result r = RENDER("--size", SIZE, LOOK, "--fps", "30", "--range", RANGE, "--duration",
                            "1", "-o", path);
    child_expect_status(&r, 0);
    char summary[600];
    snprintf(summary, sizeof summary, "ppflow: wrote %s: 30 frames, 320x180 at 30 fps", path);
    if (child_count_lines(r.err) != 1 || strncmp(r.err, summary, strlen(summary)) != 0)
        fail_msg("expected one summary line \"%s ...\", got: %s", summary, r.err);
    child_result_deinit(&r);
    assert_int_equal(child_count_other_files(out_dir, "clip.mp4"), 0);

    /* +faststart: the index (moov) before the data (mdat) */
    long moov, mdat;
    mp4_box_offsets(path, "moov", "mdat", &moov, &mdat);
    assert_ge(moov, 0);
    assert_ge(mdat, 0);
    if (!(moov < mdat))
        fail_msg("moov at %ld comes after mdat at %ld: not faststart", moov, mdat);

    video v;
    video_read(path, &v);
    assert_int_equal(v.codec, AV_CODEC_ID_H264);
    assert_string_equal(av_get_pix_fmt_name(v.pix_fmt), "yuv420p");
    assert_int_equal(v.width, W);
    assert_int_equal(v.height, H);
    assert_int_equal(v.frames, 30);
    assert_string_equal(av_color_primaries_name(v.primaries), "bt709");
    assert_string_equal(av_color_transfer_name(v.trc), "bt709");
    assert_string_equal(av_color_space_name(v.space), "bt709");
    assert_string_equal(av_color_range_name(v.range), "tv");
    print_message("mp4: stream %.6f s, container %.6f s\n", v.stream_seconds, v.format_seconds);
    assert_le(fabs(v.stream_seconds - 1.0), 0.001);
    assert_le(fabs(v.format_seconds - 1.0), 0.001);

    expect_clip_shows("mp4", &v, 30, 30, 1.0, MP4_MAX_DIFF);
    video_deinit(&v);
}

/* The same command twice: the same decoded frames, byte for byte. */
static void test_mp4_deterministic(void **state)
{
    (void)state;
    char paths[2][400];
    video v[2];
    for (int k = 0; k < 2; k++) {
        scratch_join(paths[k], sizeof paths[k], out_dir, k ? "b.mp4" : "a.mp4");
        child_result r = RENDER("--size", SIZE, LOOK, "--fps", "30", "--range", RANGE, "--duration",
                                "1", "--quiet", "-o", paths[k]);
        child_expect_status(&r, 0);
        assert_string_equal(r.err, ""); /* --quiet: no summary */
        child_result_deinit(&r);
        video_read(paths[k], &v[k]);
    }
    assert_int_equal(v[0].frames, 30);
    assert_int_equal(v[1].frames, v[0].frames);
    assert_int_equal(v[1].raw_size, v[0].raw_size);
    if (memcmp(v[0].raw, v[1].raw, v[0].raw_size) != 0)
        fail_msg("two runs of the same export decode to different frames");
    video_deinit(&v[0]);
    video_deinit(&v[1]);
}

/* 20 frames of GIF: one palette, looping, 1 s, and the stills. */
static void test_gif(void **state)
{
    (void)state;
    char path[400];
    scratch_join(path, sizeof path, out_dir, "clip.gif");
    child_result r = RENDER("--size", SIZE, LOOK, "--fps", "20", "--range", RANGE, "--duration",
                            "1", "--quiet", "-o", path);
    child_expect_status(&r, 0);
    child_result_deinit(&r);
    assert_int_equal(child_count_other_files(out_dir, "clip.gif"), 0);

    gif_info g;
    gif_parse(path, &g);
    assert_int_equal(g.width, W);
    assert_int_equal(g.height, H);
    assert_true(g.global_palette);
    assert_int_equal(g.other_palettes, 0);
    assert_int_equal(g.images, 20);
    assert_true(g.loops);
    print_message("gif: delays sum to %d/100 s\n", g.delay_cs);
    assert_in_range(g.delay_cs, 98, 102);

    video v;
    video_read(path, &v);
    assert_int_equal(v.codec, AV_CODEC_ID_GIF);
    assert_int_equal(v.width, W);
    assert_int_equal(v.height, H);
    assert_int_equal(v.frames, 20);
    print_message("gif: packets %.3f s\n", v.packet_seconds);
    assert_le(fabs(v.packet_seconds - 1.0), 0.02);
    expect_clip_shows("gif", &v, 20, 20, 1.0, GIF_MAX_DIFF);
    video_deinit(&v);
}

/* A pattern: f_000.png ... f_009.png and nothing else, each the still. */
static void test_png_frames(void **state)
{
    (void)state;
    char pattern[400];
    scratch_join(pattern, sizeof pattern, out_dir, "f_%03d.png");
    child_result r = RENDER("--size", SIZE, LOOK, "--fps", "10", "--range", RANGE, "--duration",
                            "1", "--quiet", "-o", pattern);
    child_expect_status(&r, 0);
    child_result_deinit(&r);
    assert_int_equal(child_count_other_files(out_dir, NULL), 10);

    for (int i = 0; i < 10; i++) {
        char name[32], path[400];
        snprintf(name, sizeof name, "f_%03d.png", i);
        scratch_join(path, sizeof path, out_dir, name);
        image frame = {0}, still = {0};
        ppf_error err = {{0}};
        if (!image_read_png(path, &frame, &err))
            fail_msg("%s", err.message);
        still_read(frame_time(i, 10, CLIP_T0, CLIP_T1, 1.0), W, H, &still);
        assert_int_equal(frame.width, W);
        assert_int_equal(frame.height, H);
        if (memcmp(frame.rgba, still.rgba, (size_t)W * H * 4) != 0)
            fail_msg("%s differs from its still (mean difference %.3f)", name,
                     mean_abs_diff(frame.rgba, still.rgba, W, H));
        image_deinit(&frame);
        image_deinit(&still);
    }
}

/* Frames smoothed as a video's are (--aa edge: each frame's 3D view done
 * on the frame read back for the encoder) are the stills smoothed so (in
 * the target, as the window does), byte for byte: one session, and two
 * compared (a pass a pane). PNG frames, being lossless, show it. */
static void test_png_frames_edge(void **state)
{
    (void)state;
    enum { FRAMES = 3 };
    static const char *const one[] = {"--aa", "edge", NULL};
    static const char *const two[] = {"--aa", "edge", "--compare", "1f1b,zb-h1", NULL};
    const char *const *const cases[] = {one, two};
    for (int c = 0; c < 2; c++) {
        char pattern[400];
        scratch_join(pattern, sizeof pattern, out_dir, c ? "c_%03d.png" : "e_%03d.png");
        const char *const head[] = {"render",  "--size", SIZE,         LOOK, "--fps",  "3",
                                    "--range", RANGE,    "--duration", "1",  "--quiet"};
        const char *args[32];
        int n = 0;
        for (size_t k = 0; k < sizeof head / sizeof head[0]; k++)
            args[n++] = head[k];
        for (int k = 0; cases[c][k]; k++)
            args[n++] = cases[c][k];
        args[n++] = "-o";
        args[n++] = pattern;
        args[n] = NULL;
        child_result r = run_ppflow(args, 0);
        child_expect_status(&r, 0);
        child_result_deinit(&r);
        for (int i = 0; i < FRAMES; i++) {
            char name[32], path[400];
            snprintf(name, sizeof name, c ? "c_%03d.png" : "e_%03d.png", i);
            scratch_join(path, sizeof path, out_dir, name);
            image frame = {0}, still = {0};
            ppf_error err = {{0}};
            if (!image_read_png(path, &frame, &err))
                fail_msg("%s", err.message);
            still_read_with(frame_time(i, FRAMES, CLIP_T0, CLIP_T1, 1.0), W, H, cases[c], &still);
            assert_int_equal(frame.width, W);
            assert_int_equal(frame.height, H);
            if (memcmp(frame.rgba, still.rgba, (size_t)W * H * 4) != 0)
                fail_msg("%s (--aa edge%s) differs from its still (mean difference %.3f)", name,
                         c ? ", compared" : "", mean_abs_diff(frame.rgba, still.rgba, W, H));
            image_deinit(&frame);
            image_deinit(&still);
        }
    }
}

/* An odd size for H.264 is rounded up to even, and ppflow says so. */
static void test_odd_size(void **state)
{
    (void)state;
    char path[400];
    scratch_join(path, sizeof path, out_dir, "odd.mp4");
    child_result r = RENDER("--size", "321x181", LOOK, "--fps", "30", "--range", "3:4",
                            "--duration", "0.2", "-o", path);
    child_expect_status(&r, 0);
    if (!strstr(r.err, "321x181") || !strstr(r.err, "322x182"))
        fail_msg("expected a note that 321x181 becomes 322x182, got: %s", r.err);
    child_result_deinit(&r);
    video v;
    video_read(path, &v);
    assert_int_equal(v.width, 322);
    assert_int_equal(v.height, 182);
    assert_int_equal(v.frames, 6);
    video_deinit(&v);
}

/* ---- failures ------------------------------------------------------------ */

/* Bad input: exit status 2, one line naming the option, nothing written. */
static void test_bad_input(void **state)
{
    (void)state;
    static const struct {
        const char *args[6];
        const char *target; /* the -o name in out/ */
        const char *names;
    } cases[] = {
        {{"--size", "10x10"}, "x.mp4", "--size"},
        {{"--size", "axb"}, "x.mp4", "--size"},
        {{"--range", "5:2"}, "x.mp4", "--range"},
        {{"--range", "5:99"}, "x.mp4", "--range"},
        {{"--range", "40:"}, "x.mp4", "--range"},
        {{"--range", "x:y"}, "x.mp4", "--range"},
        {{"--speed", "3", "--duration", "1"}, "x.mp4", "--speed"},
        {{"--speed", "3", "--duration", "1"}, "x.mp4", "--duration"},
        {{"--fps", "0"}, "x.mp4", "--fps"},
        {{"--crf", "99"}, "x.mp4", "--crf"},
        {{"--preset", "bogus"}, "x.mp4", "--preset"},
        {{"--size", "320x180"}, "x.avi", "x.avi"},
        {{"--size", "320x180"}, "x.png", "--still"},
        {{"--fps", "0"}, "x.gif", "--fps"},
        {{"--range", "5:2"}, "f_%03d.png", "--range"},
        /* frame counts that are not 1 to 10 million (nor any integer) */
        {{"--speed", "1e-300"}, "x.mp4", "--speed"},
        {{"--speed", "1e300"}, "x.gif", "--speed"},
        {{"--duration", "1e300"}, "x.mp4", "--duration"},
        {{"--duration", "1e-300"}, "f_%03d.png", "--duration"},
        {{"--range", "0:1e-300"}, "x.mp4", "--range"},
        {{"--range", "0:1e-300", "--duration", "1e300"}, "x.gif", "--duration"},
        {{"--speed", "1e-6", "--fps", "240"}, "f_%03d.png", "--speed"},
        {{"--range", "3:3.001"}, "x.mp4", "--range"},
        /* the frame number in a folder's name */
        {{"--size", "320x180"}, "f_%03d/x.png", "-o"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char path[400];
        scratch_join(path, sizeof path, out_dir, cases[c].target);
        const char *args[12] = {"render", "-o", path};
        int n = 3;
        for (int k = 0; cases[c].args[k]; k++)
            args[n++] = cases[c].args[k];
        child_result r = run_ppflow(args, 0);
        child_expect_status(&r, 2);
        child_expect_one_line(&r, "ppflow: ", cases[c].names);
        assert_int_equal(r.out_len, 0);
        child_result_deinit(&r);
        assert_int_equal(child_count_other_files(out_dir, NULL), 0);
    }

    /* an existing target keeps its content */
    char keep[400];
    scratch_join(keep, sizeof keep, out_dir, "keep.mp4");
    scratch_write(keep, "old content\n");
    child_result r = RENDER("--crf", "99", "-o", keep);
    child_expect_status(&r, 2);
    child_result_deinit(&r);
    child_expect_file(keep, "old content\n");
    assert_int_equal(child_count_other_files(out_dir, "keep.mp4"), 0);
}

/* A path that cannot be created is bad input, found before anything is
 * drawn: exit status 2 (as for `schedule -o`), one line naming the path,
 * and nothing left anywhere. */
static void test_unwritable(void **state)
{
    (void)state;
    char file[400];
    scratch_join(file, sizeof file, out_dir, "file");
    scratch_write(file, "a regular file\n");
    static const char *const targets[] = {"no/such/dir/x.mp4", "file/x.mp4", "no/such/x.gif",
                                          "file/f_%03d.png"};
    for (size_t c = 0; c < sizeof targets / sizeof targets[0]; c++) {
        char path[400];
        scratch_join(path, sizeof path, out_dir, targets[c]);
        child_result r = RENDER("--size", SIZE, "--range", "3:4", "--duration", "0.1", "-o", path);
        child_expect_status(&r, 2);
        child_expect_one_line(&r, "ppflow: ", path);
        child_result_deinit(&r);
        assert_int_equal(child_count_other_files(out_dir, "file"), 0);
    }
    child_expect_file(file, "a regular file\n");

    /* a FIFO, directly or through a link, and a read-only file: refused
     * at once (an MP4 is reopened by name, so it must be a regular file) */
    char fifo[400], link[400], locked[400];
    scratch_join(fifo, sizeof fifo, out_dir, "fifo.mp4");
    scratch_join(link, sizeof link, out_dir, "link.gif");
    scratch_join(locked, sizeof locked, out_dir, "locked.mp4");
    assert_int_equal(mkfifo(fifo, 0644), 0);
    assert_int_equal(symlink("fifo.mp4", link), 0);
    scratch_write(locked, "old content\n");
    assert_int_equal(chmod(locked, 0444), 0);
    const char *const refused[] = {fifo, link, locked};
    for (size_t c = 0; c < 3; c++) {
        const char *const args[] = {"render",     "--size", SIZE, "--range",  "3:4",
                                    "--duration", "0.1",    "-o", refused[c], NULL};
        const child_desc d = ppflow_desc(args, 0);
        child_result r = child_wait_bounded(child_start(&d), &d, CHILD_TIMEOUT, refused[c]);
        child_expect_status(&r, 2);
        child_expect_one_line(&r, "ppflow: ", refused[c]);
        child_result_deinit(&r);
    }
    child_expect_file(locked, "old content\n");
    assert_int_equal(child_count_other_files(out_dir, "file"), 3);

    /* an existing frame that may not be replaced: found before drawing,
     * and no frame is written */
    char pattern[400], frame[400];
    scratch_join(pattern, sizeof pattern, out_dir, "f_%03d.png");
    scratch_join(frame, sizeof frame, out_dir, "f_002.png");
    scratch_write(frame, "old frame\n");
    assert_int_equal(chmod(frame, 0444), 0);
    child_result r = RENDER("--size", SIZE, "--range", "3:4", "--duration", "0.2", "-o", pattern);
    child_expect_status(&r, 2);
    child_expect_one_line(&r, "ppflow: ", frame);
    child_result_deinit(&r);
    child_expect_file(frame, "old frame\n");
    assert_int_equal(child_count_other_files(out_dir, "file"), 4);
}

/* SIGINT or SIGTERM during an export: exit status 130, one line, no file
 * under the target's name (an existing one keeps its content), no
 * temporary. The signal goes out once the temporary has data, that is
 * while frames are being encoded. */
static void interrupt_export(int sig, bool existing_target)
{
    char path[400];
    scratch_join(path, sizeof path, out_dir, "long.mp4");
    if (existing_target)
        scratch_write(path, "old content\n");
    /* 9900 frames: minutes of work, stopped within a second */
    const char *const args[] = {"render", "--size",  "640x360", "--fps", "30", "--speed",
                                "0.1",    "--quiet", "-o",      path,    NULL};
    const child_desc d = ppflow_desc(args, 0);
    const pid_t pid = child_start(&d);
    child_await_entry(pid, &d, out_dir, ".long.mp4.tmp.", CHILD_TIMEOUT, NULL, 0);
    child_result r = child_stop(pid, &d, sig, CHILD_TIMEOUT);
    child_expect_status(&r, 130);
    child_expect_one_line(&r, "ppflow: ", path);
    child_result_deinit(&r);
    child_expect_untouched(out_dir, "long.mp4", existing_target ? "old content\n" : NULL);
    if (existing_target)
        unlink(path);
}

static void test_sigint(void **state)
{
    (void)state;
    interrupt_export(SIGINT, false);
}

static void test_sigterm(void **state)
{
    (void)state;
    interrupt_export(SIGTERM, true);
}

/* PNG frames go into one temporary directory beside them: a signal
 * removes it and everything in it (exit 130, nothing left); SIGKILL,
 * which cannot be caught, leaves that one directory and nothing else. */
static void interrupt_png_frames(int sig)
{
    char pattern[400], tmp_dir[600];
    scratch_join(pattern, sizeof pattern, out_dir, "f_%05d.png");
    const char *const args[] = {"render", "--size",  "320x180", "--fps", "30", "--speed",
                                "0.1",    "--quiet", "-o",      pattern, NULL};
    const child_desc d = ppflow_desc(args, 0);
    const pid_t pid = child_start(&d);
    child_await_entry(pid, &d, out_dir, ".f_%05d.png.tmp.", CHILD_TIMEOUT, tmp_dir, sizeof tmp_dir);
    child_result r = child_stop(pid, &d, sig, CHILD_TIMEOUT);
    if (sig == SIGKILL) {
        assert_int_equal(r.signal, SIGKILL);
        child_result_deinit(&r);
        /* one entry, the temporary directory, with the frames inside */
        assert_int_equal(child_count_other_files(out_dir, NULL), 1);
        assert_true(scratch_exists(tmp_dir));
        assert_gt(scratch_count(tmp_dir, NULL), 0);
        return;
    }
    child_expect_status(&r, 130);
    child_expect_one_line(&r, "ppflow: ", pattern);
    child_result_deinit(&r);
    assert_int_equal(child_count_other_files(out_dir, NULL), 0);
}

static void test_png_frames_sigint(void **state)
{
    (void)state;
    interrupt_png_frames(SIGINT);
}

static void test_png_frames_sigkill(void **state)
{
    (void)state;
    interrupt_png_frames(SIGKILL);
}

/* A full disk, as a file size limit on the child: writes past 64 KB fail
 * with EFBIG. Exit status 1, one line naming the output, nothing left; an
 * existing target keeps its content. */
static void test_full_disk(void **state)
{
    (void)state;
    enum { LIMIT = 32 * 1024 }; /* under any of the three outputs (the MP4 is about 60 KiB) */
    static const char *const targets[] = {"big.mp4", "big.gif", "f_%03d.png"};
    char path[400], named[400];
    for (size_t c = 0; c < sizeof targets / sizeof targets[0]; c++) {
        scratch_join(path, sizeof path, out_dir, targets[c]);
        const char *const args[] = {"render",  "--size", "640x360",    "--fps", "30",
                                    "--range", "0:10",   "--duration", "2",     "--quiet",
                                    "-o",      path,     NULL};
        child_result r = run_ppflow(args, LIMIT);
        child_expect_status(&r, 1);
        /* a pattern is named by the file that failed: its start is enough */
        snprintf(named, sizeof named, "%.*s", (int)strcspn(path, "%"), path);
        child_expect_one_line(&r, "ppflow: ", named);
        child_result_deinit(&r);
        assert_int_equal(child_count_other_files(out_dir, NULL), 0);
    }

    scratch_join(path, sizeof path, out_dir, "big.mp4");
    scratch_write(path, "old content\n");
    const char *const args[] = {"render",     "--size", "640x360", "--fps", "30", "--range", "0:10",
                                "--duration", "2",      "--quiet", "-o",    path, NULL};
    child_result r = run_ppflow(args, LIMIT);
    child_expect_status(&r, 1);
    child_result_deinit(&r);
    child_expect_file(path, "old content\n");
    assert_int_equal(child_count_other_files(out_dir, "big.mp4"), 0);

    /* without the limit the same export succeeds and is bigger than it:
     * the limit is what failed above */
    r = run_ppflow(args, 0);
    child_expect_status(&r, 0);
    child_result_deinit(&r);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    print_message("full disk: the MP4 is %lld bytes, the limit %d\n", (long long)st.st_size, LIMIT);
    assert_gt(st.st_size, LIMIT);
}

/* ---- fixtures ------------------------------------------------------------ */

static int setup(void **state)
{
    if (scratch_setup(state, scratch, sizeof scratch, "ppflow_test_video") != 0)
        return -1;
    scratch_join(out_dir, sizeof out_dir, scratch, "out");
    return 0;
}

/* Each test starts with an empty out/. */
static int before_each(void **state)
{
    scratch_before_each(state);
    return mkdir(out_dir, 0755) == 0 ? 0 : -1;
}

int main(void)
{
    /* Output line by line: a sanitizer that stops the program loses what
     * is buffered. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_mp4, before_each),
        cmocka_unit_test_setup(test_mp4_deterministic, before_each),
        cmocka_unit_test_setup(test_gif, before_each),
        cmocka_unit_test_setup(test_png_frames, before_each),
        cmocka_unit_test_setup(test_png_frames_edge, before_each),
        cmocka_unit_test_setup(test_odd_size, before_each),
        cmocka_unit_test_setup(test_bad_input, before_each),
        cmocka_unit_test_setup(test_unwritable, before_each),
        cmocka_unit_test_setup(test_sigint, before_each),
        cmocka_unit_test_setup(test_sigterm, before_each),
        cmocka_unit_test_setup(test_png_frames_sigint, before_each),
        cmocka_unit_test_setup(test_png_frames_sigkill, before_each),
        cmocka_unit_test_setup(test_full_disk, before_each),
    };
    return cmocka_run_group_tests(tests, setup, scratch_teardown);
}
