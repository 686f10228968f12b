/* bench_palette.c - `ppflow bench palette`: the GIF palette's steps on one
 * 1920x1080 frame, median and minimum over --repeat runs.
 *
 * Two frames: a diagram (a dark background, bars in five flat colours with
 * soft edges and grid lines: what ppflow's frames are made of, a few hundred
 * colours) and noise (every pixel a random colour: the worst case for the
 * histogram and the map). Synthetic, so the numbers need no GL and do not
 * move when the picture does. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "error.h"
#include "palette.h"

enum { FRAME_W = 1920, FRAME_H = 1080, PALETTE_DEFAULT_REPEAT = 7 };

static const uint32_t BACKGROUND = 0x1E1E24;
static const uint32_t FILLS[5] = {0x0072B2, 0x009E73, 0xD55E00, 0xF0E442, 0xCC79A7};

static void put(uint8_t *rgba, int x, int y, uint32_t rgb)
{
    uint8_t *p = rgba + ((size_t)y * FRAME_W + (size_t)x) * 4;
    p[0] = (uint8_t)(rgb >> 16), p[1] = (uint8_t)(rgb >> 8), p[2] = (uint8_t)rgb, p[3] = 255;
}

static uint32_t mix(uint32_t a, uint32_t b, double s)
{
    uint32_t out = 0;
    for (int shift = 0; shift <= 16; shift += 8) {
        double ca = (a >> shift) & 255, cb = (b >> shift) & 255;
        out |= (uint32_t)(ca + (cb - ca) * s + 0.5) << shift;
    }
    return out;
}

/* Rows of bars with two-pixel soft edges, and a grid line every 96 pixels. */
static uint8_t *diagram_frame(void)
{
    uint8_t *rgba = ppf_malloc((size_t)FRAME_W * FRAME_H * 4);
    for (int y = 0; y < FRAME_H; y++) {
        int row = y / 60, in_row = y % 60;
        for (int x = 0; x < FRAME_W; x++) {
            uint32_t c = x % 96 == 0 ? 0x5A5A5A : BACKGROUND;
            int bar = (x + row * 37) / 120, in_bar = (x + row * 37) % 120;
            if (in_row >= 8 && in_row < 52 && bar % 3 != 2) {
                uint32_t fill = FILLS[(bar + row) % 5];
                double edge = in_bar < 2     ? (in_bar + 1) / 3.0
                              : in_bar > 117 ? (120 - in_bar) / 3.0
                                             : 1;
                c = mix(c, fill, edge);
            }
            put(rgba, x, y, c);
        }
    }
    return rgba;
}

static uint8_t *noise_frame(void)
{
    uint8_t *rgba = ppf_malloc((size_t)FRAME_W * FRAME_H * 4);
    uint32_t seed = 9;
    for (int y = 0; y < FRAME_H; y++)
        for (int x = 0; x < FRAME_W; x++) {
            seed = seed * 1664525u + 1013904223u;
            put(rgba, x, y, seed >> 8);
        }
    return rgba;
}

typedef struct palette_times {
    double add, build, map_init, apply;
} palette_times;

/* One run of the four steps on one frame, in milliseconds. */
static palette_times time_steps(const uint8_t *rgba)
{
    palette_times t;
    palette_histogram h = {0};
    palette_histogram_init(&h, NULL);
    double t0 = bench_now_ms();
    palette_histogram_add(&h, rgba, FRAME_W, FRAME_H, 0);
    double t1 = bench_now_ms();
    uint32_t colors[PALETTE_MAX_COLORS];
    int n = palette_build(&h, colors, PALETTE_MAX_COLORS);
    double t2 = bench_now_ms();
    palette_map m = {0};
    palette_map_init(&m, colors, n);
    double t3 = bench_now_ms();
    uint8_t *indices = ppf_malloc((size_t)FRAME_W * FRAME_H);
    palette_map_apply(&m, rgba, FRAME_W, FRAME_H, 0, indices, 0);
    double t4 = bench_now_ms();
    t = (palette_times){t1 - t0, t2 - t1, t3 - t2, t4 - t3};
    free(indices);
    palette_map_deinit(&m);
    palette_histogram_deinit(&h);
    return t;
}

int bench_palette(const bench_opts *o, FILE *f)
{
    const int n = o->repeat ? o->repeat : PALETTE_DEFAULT_REPEAT;
    fprintf(f, "ppflow bench palette: the GIF palette's steps on one %dx%d frame\n", FRAME_W,
            FRAME_H);
    print_machine(f);
    fprintf(f, "median (min) of %d runs, ms\n\n", n);
    fprintf(f, "%-10s %18s %18s %18s %18s\n", "frame", "histogram_add", "palette_build",
            "palette_map_init", "palette_map_apply");
    struct {
        const char *name;
        uint8_t *rgba;
    } frames[] = {{"diagram", diagram_frame()}, {"noise", noise_frame()}};
    double *samples = ppf_malloc(sizeof *samples * 4 * (size_t)n);
    for (size_t k = 0; k < sizeof frames / sizeof frames[0]; k++) {
        for (int i = 0; i < n; i++) {
            palette_times t = time_steps(frames[k].rgba);
            samples[0 * n + i] = t.add, samples[1 * n + i] = t.build;
            samples[2 * n + i] = t.map_init, samples[3 * n + i] = t.apply;
        }
        fprintf(f, "%-10s", frames[k].name);
        for (int step = 0; step < 4; step++) {
            stats s = summarise(samples + step * n, n);
            fprintf(f, " %9.2f (%6.2f)", s.median, s.min);
        }
        fputc('\n', f);
        free(frames[k].rgba);
    }
    free(samples);
    return 0;
}

void bench_palette_help(char *out, size_t size)
{
    snprintf(out, size,
             "the GIF palette (histogram, build, map, apply) on a %dx%d diagram and on noise",
             FRAME_W, FRAME_H);
}
