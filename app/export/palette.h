/* palette.h - one 256-colour palette for a whole GIF, and the mapping of
 * RGBA frames onto it.
 *
 * For: `ppflow render -o out.gif`. The GIF encoder takes PAL8 frames (one
 * index a pixel plus 256 colours 0xAARRGGBB); the export adds a sample of
 * the frames (about 20) to a histogram, builds ONE global palette from it,
 * then maps every frame through it. ppflow's frames are flat theme colours
 * (background, Okabe-Ito fills, grey grid lines, text) plus anti-aliased
 * edges and translucent overlays, so the palette is built to keep those
 * flat colours EXACT and spend the rest on the edges and blends.
 *
 * How:
 * - The histogram counts pixels in 2^18 bins (6 bits a channel). Each bin
 *   also keeps the low 2 bits' sums (its mean colour is exact, not the bin
 *   centre) and its majority 8-bit colour (Boyer-Moore vote) with a count of
 *   pixels known to be exactly that colour.
 * - palette_build turns bins into weighted points (a bin's majority colour,
 *   exact, plus the mean of its other pixels). With at most max_colors
 *   points, each point is a colour. Otherwise: heavy exact colours are
 *   reserved (a bin's tracked exact count >= pixels / (4 * max_colors),
 *   the heaviest max_colors - max_colors / 4 of them); boxes are cut where
 *   the split lowers the squared error most (never leaving two reserved
 *   colours in one box);
 *   a box's colour is its reserved colour or its mean; then a few k-means
 *   (Lloyd) rounds move the unreserved colours to the mean of the pixels
 *   that the map sends to them. Colours come out sorted by value, unique,
 *   alpha 0xFF. No randomness: the same histogram gives the same palette.
 * - The map is a table from bin to the palette colour nearest the bin's
 *   centre (4v + 1.5 a channel) under the squared distance weighted
 *   2:4:3 (R:G:B; green errors show most, blue least), ties to the lower
 *   index, built per 8x8x8-bin cell from the few colours that can be
 *   nearest there. A pixel whose RGB is exactly a palette colour maps to
 *   that colour's (lowest) index, checked before the table.
 *
 * What it does not do: no dithering (flat diagrams look cleaner and
 * compress better in GIF's LZW without it); no transparency (alpha is
 * ignored, frames are opaque); no per-frame palettes; a colour exact in
 * the palette is only guaranteed for the majority colour of its 6-bit bin
 * whose tracked count (at least 2 * its count - the bin's count) reaches
 * the reserve threshold; a pixel that is not a palette colour is matched
 * by its bin's centre (up to 1.5 levels a channel away from it), so it may
 * get a colour slightly further than its very nearest.
 *
 * Call order:
 *     palette_histogram hist = {0};
 *     palette_histogram_init(&hist, NULL);
 *     for sampled frames: palette_histogram_add(&hist, rgba, w, h, stride);
 *     uint32_t colors[256];
 *     int n = palette_build(&hist, colors, 256);
 *     palette_map map = {0};
 *     palette_map_init(&map, colors, n);
 *     for every frame: palette_map_apply(&map, rgba, w, h, stride, indices, index_stride);
 *     palette_map_deinit(&map);
 *     palette_histogram_deinit(&hist);
 *
 * Errors: none can happen; bad arguments (sizes, counts out of range) are
 * programmer mistakes and assert. Only init and palette_build allocate (out
 * of memory aborts through ppf_oom); add, apply and lookup never do.
 */
#ifndef PPFLOW_PALETTE_H
#define PPFLOW_PALETTE_H

#include <stdint.h>

enum {
    PALETTE_MAX_COLORS = 256,            /* the most colours a palette holds (GIF, PAL8) */
    PALETTE_BINS = 1 << 18,              /* histogram bins: 6 bits of R, G and B */
    PALETTE_DEFAULT_MAX_PIXELS = 1 << 30 /* pixels a histogram holds before it halves */
};

typedef struct palette_bin palette_bin; /* one bin's counts, private to palette.c */

typedef struct palette_histogram_desc {
    uint32_t max_pixels; /* 0: PALETTE_DEFAULT_MAX_PIXELS (the most allowed); when adding a
                            row would pass it, every count is halved first, so the
                            proportions stay and no 32-bit sum overflows */
} palette_histogram_desc;

typedef struct palette_histogram {
    palette_bin *bins;   /* PALETTE_BINS bins; NULL when zeroed */
    uint64_t pixels;     /* pixels counted now (after any halving) */
    uint32_t max_pixels; /* from the desc, default applied */
} palette_histogram;

typedef struct palette_map {
    uint16_t *table; /* PALETTE_BINS entries: < 256 the index nearest the bin centre;
                        >= 256 the bin holds palette colours, see exact[] */
    uint32_t exact[2 * PALETTE_MAX_COLORS]; /* per such bin: (nearest << 16 | k), then k
                                               entries (rgb << 8 | index) */
    uint32_t colors[PALETTE_MAX_COLORS];    /* the palette, 0xAARRGGBB */
    int count;                              /* colours in use; 0 when zeroed */
} palette_map;

/* Allocates the bins (about 7 MB, zero pages until touched); desc may be
 * NULL for defaults. Accepts a zeroed histogram; deinit it before reuse. */
void palette_histogram_init(palette_histogram *h, const palette_histogram_desc *desc);

/* Counts every pixel of an RGBA8 image (alpha ignored). stride_bytes is the
 * distance from one row to the next (0: width * 4; negative walks up from
 * the given row, e.g. bottom-up glReadPixels output). Never allocates. */
void palette_histogram_add(palette_histogram *h, const uint8_t *rgba, int width, int height,
                           int stride_bytes);

/* Frees the bins and zeroes the histogram; accepts a zeroed one. */
void palette_histogram_deinit(palette_histogram *h);

/* Builds at most max_colors (1..256) colours, 0xFFRRGGBB, sorted by value
 * and unique, into colors[]; returns how many (>= 1: an empty histogram
 * gives one black). Deterministic. Allocates temporaries and frees them. */
int palette_build(const palette_histogram *h, uint32_t colors[PALETTE_MAX_COLORS], int max_colors);

/* Precomputes the bin table for count (1..256) colours (alpha ignored;
 * duplicates allowed, the lower index wins). Accepts a zeroed map or one
 * already initialised (it is refilled, the table kept). */
void palette_map_init(palette_map *m, const uint32_t *colors, int count);

/* The index for one RGB colour: the lowest index whose colour equals it,
 * else the table's nearest to the centre of its bin. */
uint8_t palette_map_lookup(const palette_map *m, uint8_t r, uint8_t g, uint8_t b);

/* Maps an RGBA8 image (stride as in palette_histogram_add) to one index a
 * pixel, written to indices with rows index_stride bytes apart (0: width).
 * Same answer as palette_map_lookup per pixel. Never allocates. */
void palette_map_apply(const palette_map *m, const uint8_t *rgba, int width, int height,
                       int stride_bytes, uint8_t *indices, int index_stride);

/* Frees the table and zeroes the map; accepts a zeroed map. */
void palette_map_deinit(palette_map *m);

#endif
