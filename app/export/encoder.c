/* encoder.c - MP4, GIF and numbered PNG output through FFmpeg. See encoder.h. */
#include "encoder.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>

#include "image_png.h"
#include "output.h"
#include "palette.h"
#include "yuv.h"

/* A %d or %0Nd in a PNG path, split around the number. */
typedef struct name_pattern {
    char *prefix, *suffix; /* with %% already turned into % */
    int digits;            /* the N of %0Nd; 0 for %d */
} name_pattern;

struct encoder_impl {
    /* MP4 and GIF: one file through libavformat */
    output file;
    AVFormatContext *mux;
    AVCodecContext *codec;
    AVStream *stream;
    AVFrame *pictures[2]; /* alternate: the GIF encoder keeps the last one to diff against */
    AVPacket *packet;
    palette_map palette; /* GIF: RGBA -> indices */

    /* PNG frames: written into one temporary directory beside them, and
     * renamed out of it together at the end */
    name_pattern pattern;
    char *tmp_dir; /* "DIR/.f_%05d.png.tmp.XXXXXX" (mkdtemp); NULL when none */
};

static const char *const x264_presets[] = {"ultrafast", "superfast", "veryfast", "faster",
                                           "fast",      "medium",    "slow",     "slower",
                                           "veryslow",  "placebo"};

void encoder_quiet_ffmpeg(void)
{
    av_log_set_level(AV_LOG_QUIET);
}

bool encoder_preset_valid(const char *name)
{
    for (size_t k = 0; k < sizeof x264_presets / sizeof x264_presets[0]; k++)
        if (strcmp(name, x264_presets[k]) == 0)
            return true;
    return false;
}

static bool ends_with_nocase(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcasecmp(s + n - k, suffix) == 0;
}

/* Splits a PNG frame pattern; false with a reason for anything but exactly
 * one %d or %0Nd (N from 1 to 9) and %% escapes. */
static bool pattern_parse(const char *path, name_pattern *p, ppf_error *err)
{
    *p = (name_pattern){0};
    size_t n = strlen(path);
    char *prefix = ppf_malloc(n + 1), *suffix = ppf_malloc(n + 1);
    size_t pl = 0, sl = 0;
    int conversions = 0;
    for (size_t i = 0; i < n; i++) {
        char c = path[i];
        if (c != '%') {
            if (conversions)
                suffix[sl++] = c;
            else
                prefix[pl++] = c;
            continue;
        }
        if (path[i + 1] == '%') {
            if (conversions)
                suffix[sl++] = '%';
            else
                prefix[pl++] = '%';
            i++;
            continue;
        }
        int digits = 0;
        size_t j = i + 1;
        if (path[j] == '0' && path[j + 1] >= '1' && path[j + 1] <= '9' && path[j + 2] == 'd') {
            digits = path[j + 1] - '0';
            j += 2;
        }
        if (path[j] != 'd' || conversions || strchr(path + j, '/')) {
            free(prefix);
            free(suffix);
            return ppf_fail(err,
                            "-o %s: a frame pattern takes one %%d or %%0Nd (N 1 to 9) for the "
                            "frame number, in the file's name (not a folder's), and %%%% for a "
                            "%% sign",
                            path);
        }
        conversions = 1;
        p->digits = digits;
        i = j;
    }
    prefix[pl] = '\0';
    suffix[sl] = '\0';
    p->prefix = prefix;
    p->suffix = suffix;
    return true;
}

static void pattern_deinit(name_pattern *p)
{
    free(p->prefix);
    free(p->suffix);
    *p = (name_pattern){0};
}

static char *pattern_name(const name_pattern *p, int64_t index)
{
    int n = snprintf(NULL, 0, "%s%0*lld%s", p->prefix, p->digits, (long long)index, p->suffix);
    char *name = ppf_malloc((size_t)n + 1);
    snprintf(name, (size_t)n + 1, "%s%0*lld%s", p->prefix, p->digits, (long long)index, p->suffix);
    return name;
}

char *encoder_frame_name(const char *pattern, int64_t i)
{
    name_pattern p;
    const bool parsed = pattern_parse(pattern, &p, NULL);
    assert(parsed);
    (void)parsed;
    char *name = pattern_name(&p, i);
    pattern_deinit(&p);
    return name;
}

bool encoder_path_is_still(const char *path)
{
    return path && !output_is_stdout(path) && !strchr(path, '%') && ends_with_nocase(path, ".png");
}

bool encoder_path_is_figure(const char *path)
{
    return path && !output_is_stdout(path) && !strchr(path, '%') &&
           (ends_with_nocase(path, ".svg") || ends_with_nocase(path, ".pdf"));
}

bool encoder_kind_of(const char *path, encoder_kind *kind, ppf_error *err)
{
    if (!path || output_is_stdout(path))
        return ppf_fail(err, "-o: give the file to write (.mp4, .gif, or frames_%%05d.png)");
    if (strchr(path, '%')) {
        if (!ends_with_nocase(path, ".png"))
            return ppf_fail(err, "-o %s: numbered frames are PNG files: end the pattern in .png",
                            path);
        name_pattern p;
        if (!pattern_parse(path, &p, err))
            return false;
        pattern_deinit(&p);
        *kind = ENCODER_PNG_FRAMES;
        return true;
    }
    if (ends_with_nocase(path, ".mp4")) {
        *kind = ENCODER_MP4;
        return true;
    }
    if (ends_with_nocase(path, ".gif")) {
        *kind = ENCODER_GIF;
        return true;
    }
    if (encoder_path_is_still(path))
        return ppf_fail(err,
                        "-o %s: one PNG is a still: add --still T; for every frame give a "
                        "pattern such as frames_%%05d.png",
                        path);
    if (encoder_path_is_figure(path))
        return ppf_fail(err,
                        "-o %s: a figure is one still of the timeline: add --still T (or use "
                        "ppflow schedule --format svg)",
                        path);
    return ppf_fail(err, "-o %s: unknown kind of output; end it in .mp4, .gif or _%%05d.png", path);
}

static const char *av_reason(int code, char buf[AV_ERROR_MAX_STRING_SIZE])
{
    av_strerror(code, buf, AV_ERROR_MAX_STRING_SIZE);
    return buf;
}

static bool av_fail(ppf_error *err, const encoder_desc *d, const char *what, int code)
{
    char reason[AV_ERROR_MAX_STRING_SIZE];
    return ppf_fail(err, "-o %s: %s: %s", d->path, what, av_reason(code, reason));
}

/* ---- MP4 and GIF: one file through libavformat --------------------------- */

static bool open_codec(encoder_impl *m, const encoder_desc *d, bool mp4, ppf_error *err)
{
    const AVCodec *codec =
        mp4 ? avcodec_find_encoder_by_name("libx264") : avcodec_find_encoder(AV_CODEC_ID_GIF);
    if (!codec)
        return ppf_fail(err, "-o %s: this FFmpeg has no %s encoder (Debian: libavcodec59)", d->path,
                        mp4 ? "libx264" : "GIF");
    m->codec = avcodec_alloc_context3(codec);
    if (!m->codec)
        ppf_oom("video encoder");
    AVCodecContext *c = m->codec;
    c->width = d->width;
    c->height = d->height;
    c->time_base = (AVRational){1, d->video.fps};
    c->framerate = (AVRational){d->video.fps, 1};
    if (m->mux->oformat->flags & AVFMT_GLOBALHEADER)
        c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    if (mp4) {
        c->pix_fmt = AV_PIX_FMT_YUV420P;
        c->color_primaries = AVCOL_PRI_BT709;
        c->color_trc = AVCOL_TRC_BT709;
        c->colorspace = AVCOL_SPC_BT709;
        c->color_range = AVCOL_RANGE_MPEG;
        c->thread_count = 0; /* x264 picks, as `ffmpeg -threads auto` does */
        av_opt_set(c->priv_data, "preset", d->video.preset, 0);
        av_opt_set_double(c->priv_data, "crf", d->video.crf, 0);
    } else {
        c->pix_fmt = AV_PIX_FMT_PAL8;
    }
    int ret = avcodec_open2(c, codec, NULL);
    if (ret < 0)
        return av_fail(err, d, "cannot open the encoder", ret);

    m->stream = avformat_new_stream(m->mux, NULL);
    if (!m->stream)
        ppf_oom("video stream");
    /* GIF delays are in hundredths of a second; MP4 keeps 1/fps. */
    m->stream->time_base = mp4 ? c->time_base : (AVRational){1, 100};
    m->stream->avg_frame_rate = c->framerate;
    if ((ret = avcodec_parameters_from_context(m->stream->codecpar, c)) < 0)
        return av_fail(err, d, "cannot set up the stream", ret);

    m->packet = av_packet_alloc();
    if (!m->packet)
        ppf_oom("video packet");
    for (int k = 0; k < 2; k++) {
        AVFrame *f = m->pictures[k] = av_frame_alloc();
        if (!f)
            ppf_oom("video frame");
        f->format = c->pix_fmt;
        f->width = d->width;
        f->height = d->height;
        f->color_primaries = c->color_primaries;
        f->color_trc = c->color_trc;
        f->colorspace = c->colorspace;
        f->color_range = c->color_range;
        if ((ret = av_frame_get_buffer(f, 0)) < 0)
            ppf_oom("video frame");
    }

    if (!mp4)
        palette_map_init(&m->palette, d->palette, d->palette_count);
    return true;
}

static bool open_file(encoder *e, const encoder_desc *d, ppf_error *err)
{
    encoder_impl *m = e->impl;
    const bool mp4 = e->kind == ENCODER_MP4;
    if (!output_reserve(&m->file, d->path, err))
        return false;
    int ret = avformat_alloc_output_context2(&m->mux, NULL, mp4 ? "mp4" : "gif", m->file.tmp_path);
    if (ret < 0 || !m->mux)
        return av_fail(err, d, mp4 ? "no MP4 muxer" : "no GIF muxer", ret);
    if (!open_codec(m, d, mp4, err))
        return false;
    if ((ret = avio_open(&m->mux->pb, m->file.tmp_path, AVIO_FLAG_WRITE)) < 0)
        return av_fail(err, d, "cannot open the temporary", ret);

    AVDictionary *opts = NULL;
    if (mp4)
        av_dict_set(&opts, "movflags", "+faststart", 0); /* index first: plays while loading */
    else
        av_dict_set(&opts, "loop", "0", 0); /* forever */
    ret = avformat_write_header(m->mux, &opts);
    av_dict_free(&opts);
    if (ret < 0)
        return av_fail(err, d, "cannot write the header", ret);
    return true;
}

/* Moves every packet the encoder has ready into the file. */
static bool drain(encoder *e, const char *path, ppf_error *err)
{
    encoder_impl *m = e->impl;
    char reason[AV_ERROR_MAX_STRING_SIZE];
    for (;;) {
        int ret = avcodec_receive_packet(m->codec, m->packet);
        if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF)
            return true;
        if (ret < 0)
            return ppf_fail(err, "-o %s: encoding failed: %s", path, av_reason(ret, reason));
        m->packet->stream_index = m->stream->index;
        /* Without a duration the last frame has none and the stream comes
         * out one frame short. */
        m->packet->duration = 1;
        av_packet_rescale_ts(m->packet, m->codec->time_base, m->stream->time_base);
        ret = av_interleaved_write_frame(m->mux, m->packet);
        if (ret < 0)
            return ppf_fail(err, "-o %s: writing failed: %s", path, av_reason(ret, reason));
    }
}

static bool write_file_frame(encoder *e, const uint8_t *rgba, int stride, bool bottom_up,
                             const char *path, ppf_error *err)
{
    encoder_impl *m = e->impl;
    char reason[AV_ERROR_MAX_STRING_SIZE];
    /* The encoder holds at most the frame before this one (GIF diffs
     * against it), so the other buffer is free; should it not be, this
     * gives a new one rather than overwrite what the encoder reads. */
    AVFrame *frame = m->pictures[e->frames % 2];
    int ret = av_frame_make_writable(frame);
    if (ret < 0)
        ppf_oom("video frame");
    const uint8_t *first = bottom_up ? rgba + (size_t)stride * (size_t)(e->height - 1) : rgba;
    const int step = bottom_up ? -stride : stride;
    if (e->kind == ENCODER_MP4) {
        /* Full-range RGB in, BT.709 limited-range YUV out: what the tags say. */
        const yuv_planes planes = {frame->data[0],     frame->data[1],     frame->data[2],
                                   frame->linesize[0], frame->linesize[1], frame->linesize[2]};
        yuv_from_rgba(first, step, e->width, e->height, &planes);
    } else {
        palette_map_apply(&m->palette, first, e->width, e->height, step, frame->data[0],
                          frame->linesize[0]);
        memcpy(frame->data[1], m->palette.colors, sizeof m->palette.colors);
    }
    frame->pts = e->frames;
    if ((ret = avcodec_send_frame(m->codec, frame)) < 0)
        return ppf_fail(err, "-o %s: encoding failed: %s", path, av_reason(ret, reason));
    return drain(e, path, err);
}

static bool finish_file(encoder *e, ppf_error *err)
{
    encoder_impl *m = e->impl;
    const char *path = m->file.path;
    char reason[AV_ERROR_MAX_STRING_SIZE];
    int ret = avcodec_send_frame(m->codec, NULL);
    if (ret < 0)
        return ppf_fail(err, "-o %s: encoding failed: %s", path, av_reason(ret, reason));
    if (!drain(e, path, err))
        return false;
    if ((ret = av_write_trailer(m->mux)) < 0)
        return ppf_fail(err, "-o %s: writing failed: %s", path, av_reason(ret, reason));
    int io_error = m->mux->pb->error;
    ret = avio_closep(&m->mux->pb);
    if (io_error < 0 || ret < 0)
        return ppf_fail(err, "-o %s: writing failed: %s", path,
                        av_reason(io_error < 0 ? io_error : ret, reason));
    return output_commit(&m->file, err);
}

/* ---- PNG frames ------------------------------------------------------------ */

/* Frames go into one directory beside them, ".f_%05d.png.tmp.XXXXXX", and
 * are renamed out of it once all are written: a stopped export removes one
 * directory, and what a SIGKILL leaves is one name, plainly a temporary. */

/* The last path component: frames all share the pattern's directory. */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* "TMP_DIR/NAME" for the frame whose final path is `name`. */
static char *inner_path(const encoder_impl *m, const char *name)
{
    const char *base = base_name(name);
    size_t n = strlen(m->tmp_dir) + 1 + strlen(base) + 1;
    char *p = ppf_malloc(n);
    snprintf(p, n, "%s/%s", m->tmp_dir, base);
    return p;
}

static bool open_png_frames(encoder_impl *m, const char *path, ppf_error *err)
{
    if (!pattern_parse(path, &m->pattern, err))
        return false;
    /* The directory as the file system spells it (%% already a %), the
     * name as given: ".f_%05d.png.tmp.XXXXXX". */
    const char *dir = m->pattern.prefix;
    const size_t dir_len = (size_t)(base_name(dir) - dir);
    const char *base = base_name(path);
    static const char suffix[] = ".tmp.XXXXXX";
    const size_t n = dir_len + 1 + strlen(base) + sizeof suffix;
    char *t = ppf_malloc(n);
    memcpy(t, dir, dir_len);
    snprintf(t + dir_len, n - dir_len, ".%s%s", base, suffix);
    if (!mkdtemp(t)) {
        const int e = errno;
        free(t);
        /* the directory without its final slash, unless it is "/" */
        const int shown = dir_len > 1 ? (int)dir_len - 1 : 1;
        return ppf_fail(err, "-o %s: cannot create a folder in %.*s: %s", path, shown,
                        dir_len ? dir : ".", strerror(e));
    }
    m->tmp_dir = t;
    return true;
}

/* Writes and syncs one file that nobody else has: 0 or an errno. */
static int write_new_file(const char *path, const uint8_t *data, size_t size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0)
        return errno;
    int e = 0;
    for (size_t done = 0; done < size && e == 0;) {
        ssize_t w = write(fd, data + done, size - done);
        if (w < 0 && errno != EINTR)
            e = errno;
        else if (w == 0)
            e = EIO;
        else if (w > 0)
            done += (size_t)w;
    }
    if (e == 0 && fsync(fd) != 0 && errno != EINVAL && errno != EROFS)
        e = errno;
    if (close(fd) != 0 && e == 0)
        e = errno;
    return e;
}

static bool write_png_frame(encoder *e, const uint8_t *rgba, int stride, bool bottom_up,
                            ppf_error *err)
{
    encoder_impl *m = e->impl;
    uint8_t *png = NULL;
    size_t size = 0;
    ppf_error why = {{0}};
    char *name = pattern_name(&m->pattern, e->frames);
    char *inner = NULL;
    bool ok = false;
    if (!image_encode_png(rgba, e->width, e->height, stride, bottom_up, &png, &size, &why)) {
        ppf_fail(err, "-o %s: %s", name, why.message);
        goto done;
    }
    inner = inner_path(m, name);
    const int failed = write_new_file(inner, png, size);
    if (failed)
        ppf_fail(err, "-o %s: writing failed: %s", name, strerror(failed));
    ok = failed == 0;
done:
    free(inner);
    free(png);
    free(name);
    return ok;
}

/* Removes the temporary directory and whatever is in it (only files:
 * nothing else makes entries there). */
static void remove_tmp_dir(encoder_impl *m)
{
    if (!m->tmp_dir)
        return;
    DIR *d = opendir(m->tmp_dir);
    if (d) {
        for (struct dirent *entry; (entry = readdir(d));) {
            if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
                continue;
            size_t n = strlen(m->tmp_dir) + 1 + strlen(entry->d_name) + 1;
            char *p = ppf_malloc(n);
            snprintf(p, n, "%s/%s", m->tmp_dir, entry->d_name);
            unlink(p);
            free(p);
        }
        closedir(d);
    }
    rmdir(m->tmp_dir);
    free(m->tmp_dir);
    m->tmp_dir = NULL;
}

/* The frame number that the directory entry `entry` is the name of, or -1. */
static int64_t frame_of_entry(const name_pattern *p, const char *prefix_base, const char *entry)
{
    const size_t pl = strlen(prefix_base), sl = strlen(p->suffix), n = strlen(entry);
    if (n <= pl + sl || strncmp(entry, prefix_base, pl) != 0 ||
        strcmp(entry + n - sl, p->suffix) != 0 || n - pl - sl > 18)
        return -1;
    int64_t i = 0;
    for (size_t k = pl; k < n - sl; k++) {
        if (entry[k] < '0' || entry[k] > '9')
            return -1;
        i = i * 10 + (entry[k] - '0');
    }
    return i;
}

/* output_check for each of frames 0 to frames - 1 whose name exists: one
 * pass over the directory, not one lstat a frame. With m, a replaced
 * regular file also passes its permission bits to the new frame. */
static bool check_existing_frames(const name_pattern *p, int64_t frames, const encoder_impl *m,
                                  ppf_error *err)
{
    const char *prefix_base = base_name(p->prefix);
    const size_t dir_len = (size_t)(prefix_base - p->prefix);
    char *dir = dir_len ? ppf_malloc(dir_len + 1) : ppf_strdup(".");
    if (dir_len)
        snprintf(dir, dir_len + 1, "%s", p->prefix);
    DIR *d = opendir(dir);
    free(dir);
    if (!d)
        return true; /* nothing to check; creating the files will say why */
    bool ok = true;
    for (struct dirent *entry; ok && (entry = readdir(d));) {
        const int64_t i = frame_of_entry(p, prefix_base, entry->d_name);
        if (i < 0 || i >= frames)
            continue;
        char *name = pattern_name(p, i);
        if (strcmp(base_name(name), entry->d_name) == 0) { /* f_7.png is not f_%03d.png's */
            ok = output_check(name, OUTPUT_BY_NAME, err);
            struct stat st;
            if (ok && m && lstat(name, &st) == 0 && S_ISREG(st.st_mode)) {
                char *inner = inner_path(m, name);
                (void)chmod(inner, st.st_mode & 0777);
                free(inner);
            }
        }
        free(name);
    }
    closedir(d);
    return ok;
}

bool encoder_check_frame_names(const char *pattern, int64_t frames, ppf_error *err)
{
    name_pattern p;
    if (!pattern_parse(pattern, &p, err))
        return false;
    const bool ok = check_existing_frames(&p, frames, NULL, err);
    pattern_deinit(&p);
    return ok;
}

/* Every frame's name is checked before the first is renamed (output.h's
 * rules: no directory, no read-only file, no link to a device), so that a
 * refused name does not leave half the frames published. A replaced
 * regular file passes on its permission bits. */
static bool finish_png_frames(encoder *e, ppf_error *err)
{
    encoder_impl *m = e->impl;
    bool ok = check_existing_frames(&m->pattern, e->frames, m, err);
    for (int64_t i = 0; i < e->frames && ok; i++) {
        char *name = pattern_name(&m->pattern, i);
        char *inner = inner_path(m, name);
        if (rename(inner, name) != 0)
            ok = ppf_fail(err, "-o %s: writing failed: %s", name, strerror(errno));
        free(inner);
        free(name);
    }
    if (!ok)
        return false;
    remove_tmp_dir(m);
    /* The renames made durable: the frames' directory synced. */
    const char *base = base_name(m->pattern.prefix);
    const size_t dir_len = (size_t)(base - m->pattern.prefix);
    char *dir = dir_len ? ppf_malloc(dir_len + 1) : ppf_strdup(".");
    if (dir_len)
        snprintf(dir, dir_len + 1, "%s", m->pattern.prefix);
    int fd = open(dir, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    free(dir);
    return true;
}

/* ---- the public calls --------------------------------------------------------- */

static bool check_desc(const encoder_desc *d, encoder_kind kind, ppf_error *err)
{
    if (d->width < 1 || d->height < 1 || d->width > 16384 || d->height > 16384)
        return ppf_fail(err, "--size %dx%d: each side must be 1 to 16384 pixels", d->width,
                        d->height);
    if (kind == ENCODER_MP4 && (d->width % 2 || d->height % 2))
        return ppf_fail(err, "--size %dx%d: H.264 in yuv420p needs even sides", d->width,
                        d->height);
    if (d->video.fps < 1 || d->video.fps > ENCODER_MAX_FPS)
        return ppf_fail(err, "--fps %d: must be 1 to %d", d->video.fps, ENCODER_MAX_FPS);
    if (d->video.crf < 0 || d->video.crf > ENCODER_MAX_CRF)
        return ppf_fail(err, "--crf %d: must be 0 to %d", d->video.crf, ENCODER_MAX_CRF);
    assert(kind != ENCODER_MP4 || d->video.preset); /* encoder_video_defaults() has one */
    if (d->video.preset && !encoder_preset_valid(d->video.preset))
        return ppf_fail(err, "--preset %s: not an x264 preset (ultrafast ... veryslow)",
                        d->video.preset);
    if (kind == ENCODER_GIF && (!d->palette || d->palette_count < 1 || d->palette_count > 256))
        return ppf_fail(err, "-o %s: a GIF needs a palette of 1 to 256 colours", d->path);
    return true;
}

bool encoder_open(encoder *e, const encoder_desc *d, ppf_error *err)
{
    memset(e, 0, sizeof *e);
    encoder_kind kind;
    if (!encoder_kind_of(d->path, &kind, err) || !check_desc(d, kind, err))
        return false;
    e->kind = kind;
    e->width = d->width;
    e->height = d->height;
    e->fps = d->video.fps;
    e->impl = ppf_calloc(1, sizeof *e->impl);
    if (kind == ENCODER_PNG_FRAMES) {
        if (!open_png_frames(e->impl, d->path, err))
            goto fail;
        return true;
    }
    if (open_file(e, d, err))
        return true;
fail:
    encoder_abort(e);
    return false;
}

bool encoder_write(encoder *e, const uint8_t *rgba, int stride_bytes, bool bottom_up,
                   ppf_error *err)
{
    assert(e->impl && rgba);
    if (stride_bytes == 0)
        stride_bytes = e->width * 4;
    bool ok = e->kind == ENCODER_PNG_FRAMES
                  ? write_png_frame(e, rgba, stride_bytes, bottom_up, err)
                  : write_file_frame(e, rgba, stride_bytes, bottom_up, e->impl->file.path, err);
    if (ok)
        e->frames++;
    return ok;
}

bool encoder_finish(encoder *e, ppf_error *err)
{
    assert(e->impl);
    bool ok = e->kind == ENCODER_PNG_FRAMES ? finish_png_frames(e, err) : finish_file(e, err);
    encoder_abort(e); /* frees; whatever was published stays */
    return ok;
}

void encoder_abort(encoder *e)
{
    encoder_impl *m = e->impl;
    if (!m) {
        memset(e, 0, sizeof *e);
        return;
    }
    if (m->mux) {
        if (m->mux->pb)
            avio_closep(&m->mux->pb);
        avformat_free_context(m->mux);
    }
    avcodec_free_context(&m->codec);
    av_frame_free(&m->pictures[0]);
    av_frame_free(&m->pictures[1]);
    av_packet_free(&m->packet);
    palette_map_deinit(&m->palette);
    output_abort(&m->file);
    remove_tmp_dir(m);
    pattern_deinit(&m->pattern);
    free(m);
    memset(e, 0, sizeof *e);
}
