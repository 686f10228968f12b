/* test_legibility.c - the picture read from the back row of a lecture hall,
 * on whole frames drawn headless the way export draws them:
 *   - every string drawn at 1920x1080 has capitals at least 22 px tall
 *     (1/50 of the height), measured from the text renderer's metrics of
 *     every text_draw call (text_font.stats), HUD, legend, caption, labels,
 *     bar numbers, axis, tooltip and key card included; sizes follow the
 *     height and the UI scale;
 *   - no two strings overlap, on frames of every asset at three times;
 *   - every camera preset puts the scene inside the area that the HUD,
 *     legend and caption leave free, at several window shapes;
 *   - the bubble (idle) area differs from its row's background by at least
 *     3:1 (WCAG contrast of relative luminance) in both themes;
 *   - F, B, I, W, bubble, p2p and all-reduce, as drawn, stay apart under
 *     simulated protanopia, deuteranopia and tritanopia (Machado, Oliveira
 *     and Fernandes 2009, severity 1), by CIELAB distance or, where two
 *     colours come close, by a second cue (pattern or shape);
 *   - a caption of 255 bytes, or one long word, wraps whole onto as many
 *     lines as it takes, in a still and presenting.
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keymap.h"
#include "offscreen.h"
#include "session.h"
#include "support/check.h"
#include "support/frame_fixture.h"
#include "talk_file.h"
#include "viewer_state.h"

enum { MAX_RECTS = 4096 };

/* A frame fixture that also records every string drawn (text_stats). */
typedef struct fixture {
    frame_fixture *f;
    text_stats stats;
    text_rect rects[MAX_RECTS];
    char texts[MAX_RECTS][TEXT_STATS_TEXT_MAX];
} fixture;

static fixture *fixture_new(const char *path, const session_flag *flags, int n, int w, int h)
{
    fixture *x = calloc(1, sizeof *x);
    assert_non_null(x);
    x->f = frame_fixture_new(path, flags, n, w, h);
    x->stats.rects = x->rects;
    x->stats.rect_capacity = MAX_RECTS;
    x->stats.texts = x->texts;
    x->f->o.frame.font.stats = &x->stats;
    return x;
}

static void fixture_free(fixture *x)
{
    frame_fixture_free(x->f);
    free(x);
}

static void draw(fixture *x, const frame_view *v)
{
    text_stats_reset(&x->stats);
    frame_fixture_draw(x->f, v);
}

/* The view export starts from, at a UI scale. */
static frame_view view_at(const fixture *x, double t, theme_id theme, float ui_scale)
{
    frame_view v = offscreen_default_view(&x->f->o, t, theme, CAMERA_PRESET_DEFAULT);
    v.ui_scale = ui_scale;
    v.cam =
        session_camera(&x->f->s, CAMERA_PRESET_DEFAULT, x->f->o.width, x->f->o.height, 0, ui_scale);
    return v;
}

/* The timeline view as the frame lays it out. */
static timeline_view placed_timeline(const fixture *x, const frame_view *v)
{
    frame_layout l = frame_layout_of(v, x->f->o.width, x->f->o.height);
    timeline_view tv = v->timeline;
    frame_layout_place_timeline(&l, &tv);
    return tv;
}

/* ---- text height ----------------------------------------------------------- */

static void test_text_height(void **state)
{
    (void)state;
    fixture *x = fixture_new(NULL, NULL, 0, 1920, 1080);
    frame_help_item help[KEYMAP_ROWS_MAX];
    const int help_count = keymap_card(help, KEYMAP_ROWS_MAX, KEYMAP_WINDOW);
    const double T = x->f->s.tl.makespan;
    for (int theme = 0; theme < THEME_COUNT; theme++) {
        for (int k = 0; k < 3; k++) {
            frame_view v = view_at(x, T * (0.2 + 0.3 * k), (theme_id)theme, 1);
            /* a tooltip: the first action of rank 0 */
            v.hover = (timeline_panel_hover){.kind = TIMELINE_HIT_ACTION, .rank = 0, .index = 0};
            draw(x, &v);
            assert_gt(x->stats.count, 20);
            print_message("theme %d t=%.1f: %d strings, smallest capital %.1f px\n", theme, v.t,
                          x->stats.count, x->stats.min_cap_px);
            assert_ge(x->stats.min_cap_px, 22.0f);
            /* the key card too */
            v.show_help = true, v.help = help, v.help_count = help_count;
            draw(x, &v);
            assert_ge(x->stats.min_cap_px, 22.0f);
        }
    }
    /* Sizes follow the height, and the UI scale multiplies them. */
    float at_1080 = x->stats.min_cap_px;
    fixture_free(x);
    x = fixture_new(NULL, NULL, 0, 1280, 720);
    frame_view v = view_at(x, 10, THEME_DARK, 1);
    draw(x, &v);
    float at_720 = x->stats.min_cap_px;
    v = view_at(x, 10, THEME_DARK, 1.5f);
    draw(x, &v);
    float scaled = x->stats.min_cap_px;
    print_message("smallest capital: %.1f px at 1080, %.1f at 720, %.1f at 720 x1.5\n", at_1080,
                  at_720, scaled);
    assert_ge(at_720, 720.0f / 50);
    assert_lt(at_720, at_1080);
    assert_ge(scaled, at_720 * 1.4f);
    fixture_free(x);
}

/* ---- overlaps -------------------------------------------------------------- */

static void test_no_overlaps(void **state)
{
    (void)state;
    const char *dir_path = PPFLOW_SOURCE_DIR "/assets";
    DIR *dir = opendir(dir_path);
    assert_non_null(dir);
    int assets = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir_path, e->d_name);
        if (talk_file_detect(path))
            continue; /* a talk's slides are scenarios drawn as these are */
        fixture *x = fixture_new(path, NULL, 0, 1920, 1080);
        for (int k = 0; k < 3; k++) {
            frame_view v = view_at(x, x->f->s.tl.makespan * (0.15 + 0.35 * k), THEME_DARK, 1);
            draw(x, &v);
            char what[600];
            snprintf(what, sizeof what, "%s at t=%.2f", e->d_name, v.t);
            assert_true(x->stats.rect_count > 10 && x->stats.rect_count < MAX_RECTS);
            assert_int_equal(frame_text_overlaps(&x->stats, what), 0);
        }
        fixture_free(x);
        assets++;
    }
    closedir(dir);
    assert_int_equal(assets, 10); /* the nine schedules and textbook.json */
    /* Rows under a pixel (P=256 in a 720p window) still label every k-th
     * rank a line apart. */
    static const session_flag large[] = {{"stages", "256"}, {"microbatches", "4096"}, {"dp", "8"}};
    fixture *x = fixture_new(NULL, large, 3, 1280, 720);
    frame_view v = view_at(x, 400, THEME_DARK, 1);
    draw(x, &v);
    assert_int_equal(frame_text_overlaps(&x->stats, "P=256 M=4096 D=8 at 1280x720"), 0);
    fixture_free(x);
}

static bool rect_inside(const float lo[2], const float hi[2], frame_rect r)
{
    return lo[0] >= r.x0 - 1 && lo[1] >= r.y0 - 1 && hi[0] <= r.x1 + 1 && hi[1] <= r.y1 + 1;
}

static bool rect_meets(frame_rect a, frame_rect b)
{
    return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/* What the camera frames (camera_bounds_point), projected, lies in one of the free
 * rectangles, which no card covers, and fill a fair part of it. */
static void test_presets_fit_free_area(void **state)
{
    (void)state;
    session s;
    ppf_error err = {{0}};
    assert_true(session_build(&s, NULL, NULL, 0, &err) && session_build_scene(&s, &err));
    const int sizes[][2] = {{1920, 1080}, {1280, 720}, {700, 1000}, {1600, 500}, {1000, 1000}};
    camera_bounds b = session_camera_bounds(&s);
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        const int w = sizes[k][0], h = sizes[k][1];
        frame_layout l = frame_layout_compute(w, h, 0, 1);
        assert_true(l.free_count >= 1 && l.free_count <= FRAME_FREE_MAX);
        /* a window too short for the cards: the band under them is a third
           of the view and the cards cover part of it */
        const bool short_view = l.free_h <= l.view_h / 3 + 1;
        for (int f = short_view ? 1 : 0; f < l.free_count; f++) {
            assert_false(rect_meets(l.free[f], l.hud));
            assert_false(rect_meets(l.free[f], l.legend));
        }
        for (int p = 0; p < CAMERA_PRESET_COUNT; p++) {
            if (p == CAMERA_PRESET_FIRST_STAGE || p == CAMERA_PRESET_LAST_STAGE)
                continue; /* close-ups: part of the scene on purpose */
            camera cam = session_camera(&s, (camera_preset)p, w, h, 0, 1);
            float lo[2] = {1e9f, 1e9f}, hi[2] = {-1e9f, -1e9f};
            for (int i = 0; i < camera_bounds_point_count(&b); i++) {
                float c[3], px, py;
                camera_bounds_point(&b, i, c);
                assert_true(camera_project(&cam, l.view_w / l.view_h, c, (int)l.view_w,
                                           (int)l.view_h, &px, &py));
                px += l.view_x, py += l.view_y;
                lo[0] = fminf(lo[0], px), lo[1] = fminf(lo[1], py);
                hi[0] = fmaxf(hi[0], px), hi[1] = fmaxf(hi[1], py);
            }
            int in = -1;
            for (int f = 0; f < l.free_count && in < 0; f++)
                if (rect_inside(lo, hi, l.free[f]))
                    in = f;
            /* the views of the whole scene grow past their rectangle into the
             * rest of the free area (camera_grow_clear): clear of the cards
             * (where the layout keeps them clear: not in a view too short for
             * them) and above the caption */
            const bool grown = p == CAMERA_PRESET_DEFAULT || p == CAMERA_PRESET_FRONT ||
                               p == CAMERA_PRESET_TOP || p == CAMERA_PRESET_BACK ||
                               p == CAMERA_PRESET_REPLICAS;
            if (grown && in < 0) {
                camera_rect area, cards[2];
                const int n_cards = frame_layout_obstacles(&l, &area, cards);
                bool clear = lo[0] >= l.view_x - 1 && hi[0] <= l.view_x + l.view_w + 1 &&
                             lo[1] >= l.view_y - 1 && hi[1] <= l.view_y + area.y1 * l.view_h + 1;
                for (int i = 0; i < camera_bounds_point_count(&b) && clear; i++) {
                    float c[3], px, py;
                    camera_bounds_point(&b, i, c);
                    camera_project(&cam, l.view_w / l.view_h, c, (int)l.view_w, (int)l.view_h, &px,
                                   &py);
                    const float u = px / l.view_w, v = py / l.view_h;
                    for (int q = 0; q < n_cards && !short_view; q++)
                        clear = clear && !(u > cards[q].x0 + 1e-3f && u < cards[q].x1 - 1e-3f &&
                                           v > cards[q].y0 + 1e-3f && v < cards[q].y1 - 1e-3f);
                }
                in = clear ? 0 : -1; /* judged against the band under both cards below */
            }
            /* and it fills a fair part of it: fitted, not merely inside */
            frame_rect r = l.free[in < 0 ? 0 : in];
            const bool fills =
                (hi[0] - lo[0]) >= 0.6f * (r.x1 - r.x0) || (hi[1] - lo[1]) >= 0.6f * (r.y1 - r.y0);
            /* and no smaller than in the band under both cards */
            const bool large =
                (hi[0] - lo[0]) >= 0.6f * l.free_w * 0.99f || (hi[1] - lo[1]) >= 0.6f * l.free_h;
            if (in < 0 || !fills || !large)
                print_message("%dx%d %s: scene (%.0f,%.0f)-(%.0f,%.0f), in free rect %d of %d\n", w,
                              h, camera_preset_name((camera_preset)p), lo[0], lo[1], hi[0], hi[1],
                              in, l.free_count);
            assert_ge(in, 0);
            assert_true(fills);
            assert_true(large);
        }
    }
    session_deinit(&s);
}

/* The HUD and legend as drawn lie inside the rectangles the layout reserves
 * for them (which the cameras keep clear of), for every asset, at several
 * window shapes, with the widest play status. */
static void test_cards_within_reserve(void **state)
{
    (void)state;
    const char *dir_path = PPFLOW_SOURCE_DIR "/assets";
    const int sizes[][2] = {{1920, 1080}, {1280, 720}, {700, 1000}, {3840, 2160}};
    DIR *dir = opendir(dir_path);
    assert_non_null(dir);
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir_path, e->d_name);
        if (talk_file_detect(path))
            continue; /* a talk's slides are scenarios drawn as these are */
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            fixture *x = fixture_new(path, NULL, 0, sizes[k][0], sizes[k][1]);
            frame_view v = view_at(x, x->f->s.tl.makespan * 0.5, THEME_DARK, 1);
            v.status = "\u25b6 \u00d710.0";
            v.show_legend = true;
            draw(x, &v);
            frame_layout l = frame_layout_of(&v, x->f->o.width, x->f->o.height);
            /* drawn in order: the HUD's 4 strings, the caption's lines
               (centred at the view's foot), the legend's rows */
            int caption_lines = 0;
            for (int i = 4; i < x->stats.rect_count; i++) {
                const text_rect *t = &x->stats.rects[i];
                if (fabsf((t->x0 + t->x1) / 2 - (l.view_x + l.view_w / 2)) > 4 ||
                    t->y0 < l.view_y + l.view_h / 2)
                    break;
                caption_lines++;
            }
            assert_ge(caption_lines, 1);
            /* the legend's rows: those of the kinds the schedule runs and
               the scenario draws, at least F, a backward, idle and held */
            int rows = 0;
            while (4 + caption_lines + rows < x->stats.rect_count && rows < FRAME_LEGEND_ROWS) {
                const text_rect *t = &x->stats.rects[4 + caption_lines + rows];
                if (!(t->y0 >= l.legend.y0 && t->y1 <= l.legend.y1 && t->x0 >= l.legend.x0 &&
                      t->x1 <= l.legend.x1))
                    break;
                rows++;
            }
            assert_ge(rows, 4);
            for (int j = 0; j < 4 + rows; j++) {
                const int i = j < 4 ? j : j + caption_lines;
                const text_rect *t = &x->stats.rects[i];
                frame_rect r = j < 4 ? l.hud : l.legend;
                float lo[2] = {t->x0, t->y0}, hi[2] = {t->x1, t->y1};
                if (!rect_inside(lo, hi, r))
                    print_message("%s %dx%d: string %d (%.0f,%.0f)-(%.0f,%.0f) outside its card "
                                  "(%.0f,%.0f)-(%.0f,%.0f)\n",
                                  e->d_name, sizes[k][0], sizes[k][1], i, t->x0, t->y0, t->x1,
                                  t->y1, r.x0, r.y0, r.x1, r.y1);
                assert_true(rect_inside(lo, hi, r));
                /* the legend's rows start after its swatches, from the card's
                   reserved left edge: the card was drawn where reserved */
                if (j >= 4)
                    assert_ge(t->x0, l.legend.x0 + 1.9f * (float)l.small_px);
            }
            fixture_free(x);
        }
    }
    closedir(dir);
}

/* ---- colour -------------------------------------------------------------- */

static double to_linear(double c)
{
    c /= 255;
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static double luminance_lin(const double lin[3])
{
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
}

static double contrast(double l1, double l2)
{
    return (fmax(l1, l2) + 0.05) / (fmin(l1, l2) + 0.05);
}

/* What a region of the frame looks like: the mean of its linear colour,
 * the mean relative luminance, and how much the luminance varies (a
 * pattern varies, a solid fill does not). */
typedef struct region {
    double lin[3];
    double lum, lum_sd;
} region;

static region measure(const fixture *x, int x0, int y0, int x1, int y1)
{
    region r = {{0, 0, 0}, 0, 0};
    double n = 0, sq = 0;
    if (!(x1 > x0 && y1 > y0))
        print_message("region (%d,%d)-(%d,%d)\n", x0, y0, x1, y1);
    assert_true(x0 >= 0 && y0 >= 0 && x1 <= x->f->o.width && y1 <= x->f->o.height && x1 > x0 &&
                y1 > y0);
    for (int y = y0; y < y1; y++)
        for (int xx = x0; xx < x1; xx++) {
            const uint8_t *p = x->f->pixels + ((size_t)y * x->f->o.width + xx) * 4;
            double lin[3] = {to_linear(p[0]), to_linear(p[1]), to_linear(p[2])};
            double l = luminance_lin(lin);
            for (int k = 0; k < 3; k++)
                r.lin[k] += lin[k];
            r.lum += l, sq += l * l, n++;
        }
    for (int k = 0; k < 3; k++)
        r.lin[k] /= n;
    r.lum /= n;
    r.lum_sd = sqrt(fmax(0, sq / n - r.lum * r.lum));
    return r;
}

/* Two regions as one (weighted by area). */
static region merge(region a, double na, region b, double nb)
{
    region r;
    const double n = na + nb;
    for (int k = 0; k < 3; k++)
        r.lin[k] = (a.lin[k] * na + b.lin[k] * nb) / n;
    r.lum = (a.lum * na + b.lum * nb) / n;
    const double sq =
        ((a.lum_sd * a.lum_sd + a.lum * a.lum) * na + (b.lum_sd * b.lum_sd + b.lum * b.lum) * nb) /
        n;
    r.lum_sd = sqrt(fmax(0, sq - r.lum * r.lum));
    return r;
}

/* The inside of a bar of rank r over [s, e], a few pixels in from its edges;
 * with `label`, the columns of its centred number left out. */
static region measure_bar(const fixture *x, const timeline_view *tv, double s, double e, int r,
                          const char *label)
{
    const float top = tv->row_y + (float)r * tv->row_pitch;
    const int x0 = (int)ceilf((float)timeline_view_time_to_x(tv, s)) + 3;
    const int x1 = (int)floorf((float)timeline_view_time_to_x(tv, e)) - 3;
    const int y0 = (int)ceilf(top) + 1, y1 = (int)floorf(top + tv->bar_h) - 1;
    if (!label)
        return measure(x, x0, y0, x1, y1);
    const float half = 0.5f * text_width(&x->f->o.frame.font, FRAME_FONT_SMALL, label) + 3;
    const int c = (x0 + x1) / 2, l1 = (int)floorf((float)c - half),
              r0 = (int)ceilf((float)c + half);
    assert_true(l1 - x0 >= 4 && x1 - r0 >= 4);
    return merge(measure(x, x0, y0, l1, y1), l1 - x0, measure(x, r0, y0, x1, y1), x1 - r0);
}

/* An idle stretch of rank r inside the view: the first gap between two
 * bars at least `min` long, as [*s, *e]; false when there is none. */
static bool find_gap(const timeline *tl, int r, double min, double *s, double *e)
{
    const int n = tl->program->rank[r].count;
    double prev = 0;
    for (int k = 0; k < n; k++) {
        if (!action_is_compute((action_kind)tl->program->rank[r].actions[k].kind))
            continue;
        if (tl->time[r][k].start - prev >= min) {
            *s = prev, *e = tl->time[r][k].start;
            return true;
        }
        prev = tl->time[r][k].end;
    }
    return false;
}

static void test_bubble_contrast(void **state)
{
    (void)state;
    fixture *x = fixture_new(NULL, NULL, 0, 1920, 1080);
    for (int theme = 0; theme < THEME_COUNT; theme++) {
        frame_view v = view_at(x, 0, (theme_id)theme, 1);
        draw(x, &v);
        timeline_view tv = placed_timeline(x, &v);
        const timeline_palette pal = theme_get((theme_id)theme).timeline;
        for (int r = 1; r < x->f->s.tl.program->ranks; r++) {
            double s, e;
            assert_true(find_gap(&x->f->s.tl, r, x->f->s.tl.makespan * 0.02, &s, &e));
            region idle = measure_bar(x, &tv, s, e, r, NULL);
            const rgba8 bg = r % 2 ? pal.row_alt : pal.background;
            double bg_lin[3] = {to_linear(bg.r), to_linear(bg.g), to_linear(bg.b)};
            double c = contrast(idle.lum, luminance_lin(bg_lin));
            print_message("%s rank %d: idle [%.2f, %.2f] luminance %.3f, row %.3f: %.2f:1\n",
                          theme_get((theme_id)theme).name, r, s, e, idle.lum, luminance_lin(bg_lin),
                          c);
            assert_ge(c, 3.0);
        }
    }
    fixture_free(x);
}

/* Machado, Oliveira and Fernandes (2009), severity 1.0, on linear RGB. */
static const double MACHADO[3][3][3] = {
    {{0.152286, 1.052583, -0.204868},
     {0.114503, 0.786281, 0.099216},
     {-0.003882, -0.048116, 1.051998}}, /* protanopia */
    {{0.367322, 0.860646, -0.227968},
     {0.280085, 0.672501, 0.047413},
     {-0.011820, 0.042940, 0.968881}}, /* deuteranopia */
    {{1.255528, -0.076749, -0.178779},
     {-0.078411, 0.930809, 0.147602},
     {0.004733, 0.691367, 0.303900}}, /* tritanopia */
};
static const char *const CVD_NAME[] = {"protanopia", "deuteranopia", "tritanopia"};

static void simulate(int kind, const double in[3], double out[3])
{
    for (int i = 0; i < 3; i++) {
        out[i] = 0;
        for (int j = 0; j < 3; j++)
            out[i] += MACHADO[kind][i][j] * in[j];
        out[i] = out[i] < 0 ? 0 : out[i] > 1 ? 1 : out[i];
    }
}

static double lab_f(double t)
{
    return t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116;
}

/* Linear sRGB (D65) to CIELAB. */
static void lab(const double lin[3], double out[3])
{
    const double X = (0.4124 * lin[0] + 0.3576 * lin[1] + 0.1805 * lin[2]) / 0.95047;
    const double Y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
    const double Z = (0.0193 * lin[0] + 0.1192 * lin[1] + 0.9505 * lin[2]) / 1.08883;
    const double fx = lab_f(X), fy = lab_f(Y), fz = lab_f(Z);
    out[0] = 116 * fy - 16, out[1] = 500 * (fx - fy), out[2] = 200 * (fy - fz);
}

/* The second cue each element carries besides its colour. */
typedef enum cue { CUE_SOLID, CUE_HATCH, CUE_DOTS, CUE_ARROW, CUE_LANE } cue;

typedef struct element {
    const char *name;
    double lin[3]; /* its mean colour as drawn */
    cue cue;
} element;

static void test_colour_blind(void **state)
{
    (void)state;
    /* ZB-H1 draws F, B (as I) and W; 1F1B B; a data-parallel run with
     * visible p2p and all-reduce times draws both. */
    const session_flag flags[] = {{"p2p", "0.3"}, {"allreduce", "4"}, {"dp", "2"}};
    const char *assets[] = {PPFLOW_SOURCE_DIR "/assets/1f1b.json",
                            PPFLOW_SOURCE_DIR "/assets/zb-h1.json"};
    const double MIN_DELTA_E = 12;
    for (int theme = 0; theme < THEME_COUNT; theme++) {
        element el[7];
        int n = 0;
        bool have[ACTION_OVERLAP_F_B + 1] = {false};
        for (int a = 0; a < 2; a++) {
            fixture *x = fixture_new(assets[a], flags, 3, 1920, 1080);
            frame_view v = view_at(x, 0, (theme_id)theme, 1);
            v.bare = true;
            draw(x, &v);
            timeline_view tv = placed_timeline(x, &v);
            const timeline *tl = &x->f->s.tl;
            /* the widest bar of each kind, so patterns average out */
            for (int kind = ACTION_F; kind <= ACTION_W; kind++) {
                if (have[kind])
                    continue;
                int best_r = -1, best_k = -1;
                double best = 0;
                for (int r = 0; r < tl->program->ranks; r++)
                    for (int k = 0; k < tl->program->rank[r].count; k++)
                        if (tl->program->rank[r].actions[k].kind == kind &&
                            tl->time[r][k].end - tl->time[r][k].start > best)
                            best = tl->time[r][k].end - tl->time[r][k].start, best_r = r,
                            best_k = k;
                if (best_r < 0)
                    continue;
                char label[16];
                snprintf(label, sizeof label, "%d",
                         (int)tl->program->rank[best_r].actions[best_k].microbatch);
                region g = measure_bar(x, &tv, tl->time[best_r][best_k].start,
                                       tl->time[best_r][best_k].end, best_r, label);
                static const char *const names[] = {
                    [ACTION_F] = "F", [ACTION_B] = "B", [ACTION_I] = "I", [ACTION_W] = "W"};
                el[n] = (element){names[kind],
                                  {g.lin[0], g.lin[1], g.lin[2]},
                                  kind == ACTION_F   ? CUE_SOLID
                                  : kind == ACTION_W ? CUE_DOTS
                                                     : CUE_HATCH};
                print_message("%s: sd of luminance %.3f\n", names[kind], g.lum_sd);
                /* the pattern is really there, or really not */
                assert_true(kind == ACTION_F ? g.lum_sd < 0.01 : g.lum_sd > 0.02);
                n++;
                have[kind] = true;
            }
            if (a == 0) {
                double s, e;
                assert_true(find_gap(tl, 1, tl->makespan * 0.02, &s, &e));
                region g = measure_bar(x, &tv, s, e, 1, NULL);
                assert_gt(g.lum_sd, 0.02);
                el[n++] = (element){"bubble", {g.lin[0], g.lin[1], g.lin[2]}, CUE_HATCH};
                /* an all-reduce bar in rank 0's lane */
                assert_true(tl->allreduce_count > 0 && tv.lane_h > 4);
                const transfer *ar = &tl->allreduces[0];
                for (int i = 0; i < tl->allreduce_count; i++)
                    if (tl->allreduces[i].src_rank == 0)
                        ar = &tl->allreduces[i];
                const float top = tv.row_y + (float)ar->src_rank * tv.row_pitch + tv.lane_y;
                region q = measure(x, (int)timeline_view_time_to_x(&tv, ar->start) + 2,
                                   (int)(top + tv.lane_h * 0.35f),
                                   (int)timeline_view_time_to_x(&tv, ar->end) - 2,
                                   (int)(top + tv.lane_h * 0.65f));
                el[n++] = (element){"all-reduce", {q.lin[0], q.lin[1], q.lin[2]}, CUE_LANE};
                /* a p2p arrow's middle, from rank 0 down to rank 1 */
                p2p_cursor cur = {.rank = 0, .index = 0};
                transfer t;
                assert_true(timeline_next_p2p(tl, &cur, &t) && t.end > t.start);
                const float ys = tv.row_y + (float)t.src_rank * tv.row_pitch + tv.bar_h;
                const float ye = tv.row_y + (float)t.dst_rank * tv.row_pitch;
                const int px = (int)lrint(0.5 * (timeline_view_time_to_x(&tv, t.start) +
                                                 timeline_view_time_to_x(&tv, t.end)));
                const int py = (int)lrintf(0.5f * (ys + ye));
                region p = measure(x, px, py, px + 1, py + 1);
                el[n++] = (element){"p2p", {p.lin[0], p.lin[1], p.lin[2]}, CUE_ARROW};
            }
            fixture_free(x);
        }
        assert_int_equal(n, 7);
        for (int kind = 0; kind < 3; kind++) {
            double lab_of[7][3];
            for (int i = 0; i < n; i++) {
                double sim[3];
                simulate(kind, el[i].lin, sim);
                lab(sim, lab_of[i]);
            }
            for (int i = 0; i < n; i++)
                for (int j = i + 1; j < n; j++) {
                    const double d = sqrt(pow(lab_of[i][0] - lab_of[j][0], 2) +
                                          pow(lab_of[i][1] - lab_of[j][1], 2) +
                                          pow(lab_of[i][2] - lab_of[j][2], 2));
                    if (d >= MIN_DELTA_E)
                        continue;
                    print_message("%s, %s theme: %s and %s are %.1f apart in CIELAB; cues %d, %d\n",
                                  CVD_NAME[kind], theme_get((theme_id)theme).name, el[i].name,
                                  el[j].name, d, el[i].cue, el[j].cue);
                    assert_true(el[i].cue != el[j].cue);
                }
        }
    }
}

/* ---- the caption stays inside the window ----------------------------------- */

/* In a narrow window or at a large UI scale the caption is shortened with
 * an ellipsis rather than cut off at both edges: no text of the 3D view's
 * cards reaches past the window's sides. */
static void test_caption_fits(void **state)
{
    (void)state;
    const struct {
        int w, h;
        float ui_scale;
    } cases[] = {{700, 1000, 1}, {1920, 1080, 2}, {480, 640, 1.5f}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        fixture *x = fixture_new(NULL, NULL, 0, cases[c].w, cases[c].h);
        frame_view v = view_at(x, 3.12, THEME_DARK, cases[c].ui_scale);
        draw(x, &v);
        frame_layout l = frame_layout_of(&v, x->f->o.width, x->f->o.height);
        int in_view = 0;
        for (int k = 0; k < x->stats.rect_count; k++) {
            const text_rect *r = &x->stats.rects[k];
            if (r->y1 > l.view_y + l.view_h)
                continue; /* the timeline's own texts: its labels scroll with the plot */
            in_view++;
            if (r->x0 < 0 || r->x1 > (float)cases[c].w)
                fail_msg("%dx%d ui %.1f: a text at x %.1f..%.1f reaches past the window",
                         cases[c].w, cases[c].h, (double)cases[c].ui_scale, (double)r->x0,
                         (double)r->x1);
        }
        assert_gt(in_view, 3); /* the HUD's lines and the caption at least */
        fixture_free(x);
    }
}

/* ---- long captions wrap whole -------------------------------------------------- */

/* A beat's caption as long as a scenario allows (255 bytes), and one long
 * word (a compound, a path) that no space can break, in a window, in a
 * still and presenting, at 1280x720 and 1920x1080: drawn whole on as many
 * centred lines as it takes (their widths add up to the caption's in one
 * line, give or take the spaces broken at: nothing cut, no ellipsis),
 * every line inside the view, and no two texts overlapping. */
static void test_long_captions_wrap(void **state)
{
    (void)state;
    static const char sentence[] =
        "The pipeline is now full: every rank runs one forward and one backward in turn, "
        "the activations held per rank stop growing at P minus the rank, and the bubble "
        "stays at the warm-up and cool-down wedges while the steady state does useful work "
        "for every GPU.";
    _Static_assert(sizeof sentence - 1 == 255, "the longest caption a beat may have");
    static const char word[] = "Gradientenakkumulationsschrittweitenberechnungsverfahrens"
                               "beschreibungsdokumentationsverzeichnisstrukturanalyse/pipeline/"
                               "stage/rank/microbatch";
    const char *captions[] = {sentence, word};
    const struct {
        int w, h;
        float ui_scale;
    } cases[] = {{1280, 720, 1},
                 {1920, 1080, 1},
                 {1280, 720, VIEWER_PRESENT_SCALE},
                 {1920, 1080, VIEWER_PRESENT_SCALE}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        fixture *x = fixture_new(NULL, NULL, 0, cases[c].w, cases[c].h);
        const text_font *font = &x->f->o.frame.font;
        for (int k = 0; k < 2; k++) {
            frame_view v = view_at(x, 12.5, THEME_DARK, cases[c].ui_scale);
            v.caption = captions[k];
            draw(x, &v);
            char what[96];
            snprintf(what, sizeof what, "%dx%d ui %.2f, caption %d", cases[c].w, cases[c].h,
                     (double)cases[c].ui_scale, k + 1);
            assert_int_equal(frame_text_overlaps(&x->stats, what), 0);
            const frame_layout l = frame_layout_of(&v, cases[c].w, cases[c].h);
            const text_metrics m = text_font_metrics(font, FRAME_FONT_BODY);
            const float foot = l.view_y + l.view_h, centre = l.view_x + l.view_w / 2;
            float drawn = 0;
            int lines = 0;
            for (int i = 0; i < x->stats.rect_count; i++) {
                const text_rect *r = &x->stats.rects[i];
                if (r->y1 > foot || r->y0 < foot - 0.5f * l.view_h ||
                    fabsf((r->x0 + r->x1) / 2 - centre) > 4)
                    continue;
                if (r->x0 < l.view_x || r->x1 > l.view_x + l.view_w)
                    fail_msg("%s: a caption line at x %.0f..%.0f leaves the view", what,
                             (double)r->x0, (double)r->x1);
                drawn += r->x1 - r->x0, lines++;
            }
            const float whole = text_width(font, FRAME_FONT_BODY, captions[k]);
            const float space = text_width(font, FRAME_FONT_BODY, " ");
            print_message("%s: %.0f px in one line, %d lines %.0f px in all\n", what, (double)whole,
                          lines, (double)drawn);
            if (lines < 2 || drawn < whole - (float)(lines - 1) * space - 0.5f * m.ascent)
                fail_msg("%s: the caption (%.0f px in one line, a view %.0f px wide) is %d "
                         "line(s) %.0f px wide in all: cut?",
                         what, (double)whole, (double)l.view_w, lines, (double)drawn);
        }
        fixture_free(x);
    }
}

/* ---- presenting, from the back row ----------------------------------------- */

/* Presenting at 1920x1080, on every beat of the default scenario with its
 * caption and the HUD's "beat k/N · title": every text's capitals at
 * least 27 px (1/40 of the height), no two texts overlap, and a caption too
 * long for one line is drawn whole on two (its lines together as wide as
 * the caption in one, give or take a space: nothing cut off). The key card
 * of presenting mode too. */
/* ---- files are not windows ---------------------------------------------- */

/* Strings starting "numbers:" (the window's note on bar numbers left out)
 * in the frame just drawn. */
static int hints_drawn(const fixture *x)
{
    int n = 0;
    for (int j = 0; j < x->stats.rect_count; j++)
        n += strncmp(x->texts[j], "numbers:", 8) == 0;
    return n;
}

/* A frame drawn for a file (still, video, GIF, a beat's clip: the view
 * offscreen_default_view gives) never tells the reader to zoom in or to
 * make the panel taller, which a file cannot do; the same frame in the
 * window does, where numbers are left out (so the check is not empty). */
static void test_files_show_no_hints(void **state)
{
    (void)state;
    static const char *const scenarios[] = {"default.json", "zbv.json"};
    static const int sizes[][2] = {{1920, 1080}, {1280, 720}};
    int window_hints = 0;
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++)
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            char path[512];
            snprintf(path, sizeof path, "%s/assets/%s", PPFLOW_SOURCE_DIR, scenarios[i]);
            fixture *x = fixture_new(path, NULL, 0, sizes[k][0], sizes[k][1]);
            for (int j = 0; j < 4; j++) {
                frame_view v = view_at(x, x->f->s.tl.makespan * (j + 0.5) / 4, THEME_DARK, 1);
                assert_true(v.timeline.for_file);
                draw(x, &v);
                if (hints_drawn(x))
                    fail_msg("%s %dx%d t=%.2f: a file's frame says how to see more numbers",
                             scenarios[i], sizes[k][0], sizes[k][1], v.t);
                v.timeline.for_file = false;
                draw(x, &v);
                window_hints += hints_drawn(x);
            }
            fixture_free(x);
        }
    print_message("the same frames in the window: %d hints\n", window_hints);
    assert_true(window_hints > 0);
}

/* ---- presenting's timeline reads whole ---------------------------------------- */

/* Texts drawn in the last frame equal to s. */
static int texts_equal(const fixture *x, const char *s)
{
    int n = 0;
    for (int j = 0; j < x->stats.rect_count; j++)
        n += strcmp(x->texts[j], s) == 0;
    return n;
}

/* Presenting at 1920x1080 and 1280x720, for the default scenario and the
 * talk's slides with one stage per rank (GPipe, 1F1B, ZB-H1 at P=4, M=8):
 * at five moments each rank's label is drawn once and no bar's number is
 * left out (the window's hint "numbers: ..." is absent: the rows keep the
 * pitch their labels and numbers need, the memory lane yielding them its
 * share down to its own label's line). */
static void test_presenting_timeline_reads(void **state)
{
    (void)state;
    static const session_flag gpipe[] = {{"schedule", "gpipe"}, {"dp", "1"}};
    static const session_flag zb[] = {{"schedule", "zb-h1"}, {"dp", "1"}};
    static const struct {
        const session_flag *flags;
        int n;
        const char *what;
    } cases[] = {{NULL, 0, "default"}, {gpipe, 2, "gpipe"}, {zb, 2, "zb-h1"}};
    static const int sizes[][2] = {{1920, 1080}, {1280, 720}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            const int W = sizes[k][0], H = sizes[k][1];
            fixture *x = fixture_new(NULL, cases[c].flags, cases[c].n, W, H);
            const timeline *tl = &x->f->s.tl;
            for (int j = 0; j < 5; j++) {
                frame_view v =
                    view_at(x, tl->makespan * (j + 0.5) / 5, THEME_DARK, VIEWER_PRESENT_SCALE);
                v.timeline.for_file = false; /* the window's: it says what it leaves out */
                draw(x, &v);
                for (int r = 0; r < tl->program->ranks; r++) {
                    char label[32];
                    snprintf(label, sizeof label, "rank %d", r);
                    if (texts_equal(x, label) != 1)
                        fail_msg("%s %dx%d t=%.2f: \"%s\" drawn %d times", cases[c].what, W, H, v.t,
                                 label, texts_equal(x, label));
                }
                if (hints_drawn(x) || texts_equal(x, "memory") != 1)
                    fail_msg("%s %dx%d t=%.2f: bar numbers left out, or no memory lane label",
                             cases[c].what, W, H, v.t);
            }
            const frame_view at0 = view_at(x, 0, THEME_DARK, VIEWER_PRESENT_SCALE);
            const timeline_view tv = placed_timeline(x, &at0);
            print_message("%s presenting at %dx%d: rows %.1f px apart, bars %.1f px, memory "
                          "lane %.1f px\n",
                          cases[c].what, W, H, tv.row_pitch, tv.bar_h, tv.mem_h);
            fixture_free(x);
        }
}

/* ---- the key card inside the window ---------------------------------------- */

/* Whether `drawn` is the description `what`, whole or cut short with "…"
 * (a narrow pane's key card). */
static bool shown_as(const char *drawn, const char *what)
{
    static const char ellipsis[] = "…";
    const size_t n = strlen(drawn), e = sizeof ellipsis - 1;
    if (strcmp(drawn, what) == 0)
        return true;
    return n > e && strcmp(drawn + n - e, ellipsis) == 0 && strncmp(drawn, what, n - e) == 0;
}

/* In the window and presenting, at 1920x1080 and 1280x720, the key card
 * lies inside the frame, page after page where it takes several (h steps
 * through them), and its pages together show every row once; in a
 * comparison's pane (half the width) inside the pane, its descriptions cut
 * short where they would pass its edge. */
static void test_key_card_inside(void **state)
{
    (void)state;
    static const int sizes[][2] = {{1920, 1080}, {1280, 720}};
    static const struct {
        keymap_mode mode;
        float ui;
        const char *what;
        bool pane; /* in the left half under a strip, as a comparison's first pane */
    } modes[] = {{KEYMAP_WINDOW, 1, "window", false},
                 {KEYMAP_PRESENT, VIEWER_PRESENT_SCALE, "presenting", false},
                 {KEYMAP_WINDOW, 1, "a comparison's pane", true}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
            const int W = sizes[k][0], H = sizes[k][1];
            fixture *x = fixture_new(NULL, NULL, 0, W, H);
            frame_help_item help[KEYMAP_ROWS_MAX];
            frame_view v = view_at(x, 12, THEME_DARK, modes[m].ui);
            if (modes[m].pane)
                v.viewport = (frame_viewport){0, H / 10, W / 2, H - H / 10};
            const frame_viewport in = modes[m].pane ? v.viewport : (frame_viewport){0, 0, W, H};
            v.show_help = true;
            v.help = help;
            v.help_count = keymap_card(help, KEYMAP_ROWS_MAX, modes[m].mode);
            draw(x, &v); /* the font at this frame's sizes */
            const int pages = frame_help_pages(&x->f->o.frame, &v, W, H);
            int seen[KEYMAP_ROWS_MAX] = {0};
            for (int page = 0; page < pages; page++) {
                v.help_page = page;
                draw(x, &v);
                for (int j = 0; j < x->stats.rect_count; j++) {
                    const text_rect *r = &x->rects[j];
                    for (int i = 0; i < v.help_count; i++)
                        if (shown_as(x->texts[j], help[i].what)) {
                            seen[i]++;
                            if (r->x0 < in.x || r->y0 < in.y || r->x1 > in.x + in.w ||
                                r->y1 > in.y + in.h)
                                fail_msg("%s %dx%d page %d: \"%s\" at (%.0f,%.0f)-(%.0f,%.0f), "
                                         "outside the frame",
                                         modes[m].what, W, H, page + 1, help[i].what, r->x0, r->y0,
                                         r->x1, r->y1);
                        }
                }
            }
            for (int i = 0; i < v.help_count; i++)
                if (seen[i] != 1)
                    fail_msg("%s %dx%d: \"%s\" shown on %d pages of %d", modes[m].what, W, H,
                             help[i].what, seen[i], pages);
            print_message("%s at %dx%d: %d rows on %d page(s)\n", modes[m].what, W, H, v.help_count,
                          pages);
            fixture_free(x);
        }
}

static void test_presenting_back_row(void **state)
{
    (void)state;
    fixture *x = fixture_new(NULL, NULL, 0, 1920, 1080);
    const beat_list *bl = &x->f->s.beats;
    assert_ge(bl->count, 5);
    const text_font *font = &x->f->o.frame.font;
    float smallest = 1e9f;
    int wrapped = 0;
    for (int k = 0; k < bl->count; k++) {
        const beat *b = &bl->beats[k];
        frame_view v = view_at(x, b->t, THEME_DARK, VIEWER_PRESENT_SCALE);
        char status[192];
        snprintf(status, sizeof status, "beat %d/%d · %s", k + 1, bl->count, b->title);
        v.status = status;
        v.caption = b->caption;
        draw(x, &v);
        char what[64];
        snprintf(what, sizeof what, "presenting, beat %d", k + 1);
        smallest = fminf(smallest, x->stats.min_cap_px);
        if (x->stats.min_cap_px < 27.0f)
            fail_msg("%s: a capital of %.1f px, want 27 at least", what, x->stats.min_cap_px);
        assert_int_equal(frame_text_overlaps(&x->stats, what), 0);

        /* the caption: the texts in the band over the view's foot */
        frame_layout l = frame_layout_of(&v, 1920, 1080);
        const text_metrics m = text_font_metrics(font, FRAME_FONT_BODY);
        const float foot = l.view_y + l.view_h, band = foot - 2.6f * m.line_height;
        float drawn = 0;
        int lines = 0;
        for (int i = 0; i < x->stats.rect_count; i++) {
            const text_rect *r = &x->stats.rects[i];
            const float mid = (r->x0 + r->x1) / 2;
            if (r->y0 >= band && r->y1 <= foot && fabsf(mid - (l.view_x + l.view_w / 2)) < 4)
                drawn += r->x1 - r->x0, lines++;
        }
        const float whole = text_width(font, FRAME_FONT_BODY, b->caption);
        const float space = text_width(font, FRAME_FONT_BODY, " ");
        const bool one_line = whole <= l.view_w - 2 * m.ascent;
        wrapped += !one_line;
        if (lines != (one_line ? 1 : 2) || drawn < whole - space - 0.5f * m.ascent)
            fail_msg("%s: the caption (%.0f px in one line, %.0f free) is %d line(s) %.0f px "
                     "wide in all: cut?",
                     what, whole, l.view_w, lines, drawn);
    }
    assert_gt(wrapped, 0); /* the default scenario's beats have long captions */

    frame_help_item help[KEYMAP_ROWS_MAX];
    frame_view v = view_at(x, 0, THEME_DARK, VIEWER_PRESENT_SCALE);
    v.show_help = true;
    v.help = help;
    v.help_count = keymap_card(help, KEYMAP_ROWS_MAX, KEYMAP_PRESENT);
    draw(x, &v);
    smallest = fminf(smallest, x->stats.min_cap_px);
    print_message("presenting at 1920x1080: smallest capital %.1f px over %d beats and the key "
                  "card (%d captions on two lines)\n",
                  smallest, bl->count, wrapped);
    assert_ge(x->stats.min_cap_px, 27.0f);
    fixture_free(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_height),
        cmocka_unit_test(test_no_overlaps),
        cmocka_unit_test(test_presets_fit_free_area),
        cmocka_unit_test(test_cards_within_reserve),
        cmocka_unit_test(test_bubble_contrast),
        cmocka_unit_test(test_colour_blind),
        cmocka_unit_test(test_caption_fits),
        cmocka_unit_test(test_presenting_back_row),
        cmocka_unit_test(test_long_captions_wrap),
        cmocka_unit_test(test_files_show_no_hints),
        cmocka_unit_test(test_presenting_timeline_reads),
        cmocka_unit_test(test_key_card_inside),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
