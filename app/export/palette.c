/* palette.c - histogram, palette and bin table for GIF export (see palette.h). */
#include "palette.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

/* Distance weights for R, G, B: the eye notices green errors most and blue
 * least; a fixed diagonal weight keeps the mean as the best colour of a
 * cluster, so cutting, k-means and the map all optimise the same thing. */
static const int DIST_W[3] = {2, 4, 3};

enum {
    KEY_SCALE = 16,              /* sort keys: a point's mean in 1/16 of a level */
    KEY_COUNT = 256 * KEY_SCALE, /* keys run 0..4080 */
    LLOYD_ROUNDS = 4,            /* k-means rounds at most: on our test pictures 3 rounds
                                    give the palette 30 do; each costs a map init (~7 ms) */
    CELL_BINS = 8,               /* the map's search cells: 8x8x8 bins, 32 levels a side */
};

struct palette_bin {
    uint32_t count;  /* pixels in the bin */
    uint32_t rgb;    /* majority candidate, 0x00RRGGBB (0 in an empty bin) */
    uint32_t votes;  /* Boyer-Moore votes for rgb: > half the bin is rgb only if it wins */
    uint32_t exact;  /* pixels known to be exactly rgb (since it became the candidate) */
    uint32_t low[3]; /* sums of the low 2 bits of R, G, B: the mean is exact, not the centre */
};

static uint32_t bin_of(uint32_t r, uint32_t g, uint32_t b)
{
    return (r >> 2) << 12 | (g >> 2) << 6 | (b >> 2);
}

static uint32_t pixel_rgb(const uint8_t *p)
{
    return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static uint32_t channel(uint32_t rgb, int c)
{
    return rgb >> (16 - 8 * c) & 0xFF;
}

void palette_histogram_init(palette_histogram *h, const palette_histogram_desc *desc)
{
    uint32_t max = desc && desc->max_pixels ? desc->max_pixels : PALETTE_DEFAULT_MAX_PIXELS;
    /* Above 2^30 pixels the low-bit sums (3 a pixel) could pass 2^32. */
    assert(max <= PALETTE_DEFAULT_MAX_PIXELS);
    *h = (palette_histogram){
        .bins = ppf_calloc(PALETTE_BINS, sizeof(palette_bin)),
        .max_pixels = max,
    };
}

void palette_histogram_deinit(palette_histogram *h)
{
    free(h->bins);
    *h = (palette_histogram){0};
}

/* Counts n pixels of one colour (a run: flat areas cost one update). */
static void count_run(palette_bin *bins, uint32_t rgb, uint32_t n)
{
    palette_bin *bin = &bins[bin_of(channel(rgb, 0), channel(rgb, 1), channel(rgb, 2))];
    bin->count += n;
    for (int c = 0; c < 3; c++)
        bin->low[c] += (channel(rgb, c) & 3) * n;
    if (rgb == bin->rgb) {
        bin->votes += n;
        bin->exact += n;
    } else if (bin->votes >= n) {
        bin->votes -= n;
    } else {
        bin->rgb = rgb;
        bin->votes = n - bin->votes;
        bin->exact = n;
    }
}

/* Halves every count, keeping each bin's invariants (exact <= count, votes
 * <= exact, the others' low sums <= 3 a pixel); rounding down drops lone
 * pixels, which a sample of this size does not miss. */
static void halve(palette_histogram *h)
{
    uint64_t total = 0;
    for (uint32_t i = 0; i < PALETTE_BINS; i++) {
        palette_bin *bin = &h->bins[i];
        if (!bin->count)
            continue;
        uint32_t exact = bin->exact / 2, rest = (bin->count - bin->exact) / 2;
        for (int c = 0; c < 3; c++) {
            uint32_t own = channel(bin->rgb, c) & 3;
            uint32_t rest_low = (bin->low[c] - own * bin->exact) / 2;
            if (rest_low > 3 * rest)
                rest_low = 3 * rest;
            bin->low[c] = rest_low + own * exact;
        }
        bin->count = exact + rest;
        bin->votes = bin->votes / 2 < exact ? bin->votes / 2 : exact;
        bin->exact = exact;
        if (!bin->count)
            *bin = (palette_bin){0};
        total += bin->count;
    }
    h->pixels = total;
}

void palette_histogram_add(palette_histogram *h, const uint8_t *rgba, int width, int height,
                           int stride_bytes)
{
    assert(h->bins && width >= 0 && height >= 0 && (rgba || !width || !height));
    assert((uint32_t)width <= h->max_pixels);
    ptrdiff_t stride = stride_bytes ? stride_bytes : (ptrdiff_t)width * 4;
    if (!width)
        return;
    for (int y = 0; y < height; y++) {
        while (h->pixels + (uint32_t)width > h->max_pixels)
            halve(h);
        const uint8_t *row = rgba + (ptrdiff_t)y * stride;
        uint32_t run = pixel_rgb(row), n = 1;
        for (int x = 1; x < width; x++) {
            uint32_t rgb = pixel_rgb(row + 4 * x);
            if (rgb == run) {
                n++;
                continue;
            }
            count_run(h->bins, run, n);
            run = rgb;
            n = 1;
        }
        count_run(h->bins, run, n);
        h->pixels += (uint32_t)width;
    }
}

/* ---- palette_build ---------------------------------------------------- */

/* A weighted point: a bin's exact majority colour, or the mean of the rest
 * of the bin. Sums are of full 8-bit values. */
typedef struct point {
    uint64_t sum[3]; /* sum of R, G, B over its pixels */
    uint32_t weight; /* pixels */
    uint32_t rgb;    /* its colour: exact, or the rounded mean */
    bool exact;      /* all its pixels are rgb */
    bool reserved;   /* rgb must appear in the palette as it is */
} point;

/* A box of points: order[begin, end). */
typedef struct box {
    uint32_t begin, end;
    int reserved; /* reserved points inside */
    uint32_t rep; /* the first reserved point (when reserved > 0) */
    double score; /* what splitting could gain: squared error about its colour;
                     HUGE_VAL while it holds two reserved points; -1 unsplittable */
} box;

typedef struct sums {
    double w, s[3], q[3]; /* weight, sum of w * mean, sum of w * mean^2 (per channel) */
} sums;

typedef struct builder {
    point *points;
    uint32_t *order, *scratch, *keys; /* point indices by box; sort buffer; keys by position */
    uint32_t counts[KEY_COUNT + 1];
    box boxes[PALETTE_MAX_COLORS];
    int nboxes;
} builder;

static uint32_t round_div(uint64_t sum, uint32_t weight)
{
    return (uint32_t)((2 * sum + weight) / (2 * (uint64_t)weight));
}

static uint32_t point_mean_rgb(const point *p)
{
    return round_div(p->sum[0], p->weight) << 16 | round_div(p->sum[1], p->weight) << 8 |
           round_div(p->sum[2], p->weight);
}

/* The point's mean on axis c in 1/KEY_SCALE of a level, rounded. */
static uint32_t point_key(const point *p, int c)
{
    return round_div(p->sum[c] * KEY_SCALE, p->weight);
}

static void sums_add(sums *a, const point *p)
{
    a->w += p->weight;
    for (int c = 0; c < 3; c++) {
        double s = (double)p->sum[c];
        a->s[c] += s;
        a->q[c] += s * s / p->weight;
    }
}

/* Weighted squared error of a group about its mean. */
static double sums_error(const sums *a)
{
    if (a->w <= 0)
        return 0;
    double e = 0;
    for (int c = 0; c < 3; c++)
        e += DIST_W[c] * (a->q[c] - a->s[c] * a->s[c] / a->w);
    return e;
}

static sums box_sums(const builder *b, const box *bx)
{
    sums a = {0};
    for (uint32_t i = bx->begin; i < bx->end; i++)
        sums_add(&a, &b->points[b->order[i]]);
    return a;
}

/* Recounts reserved points and the score of a box. */
static void box_update(builder *b, box *bx)
{
    bx->reserved = 0;
    for (uint32_t i = bx->begin; i < bx->end; i++)
        if (b->points[b->order[i]].reserved && bx->reserved++ == 0)
            bx->rep = b->order[i];
    if (bx->reserved >= 2) {
        bx->score = HUGE_VAL;
        return;
    }
    sums a = box_sums(b, bx);
    bx->score = sums_error(&a);
    if (bx->reserved == 1) {
        /* Its colour is the reserved one, not the mean: count that distance too. */
        const point *r = &b->points[bx->rep];
        for (int c = 0; c < 3; c++) {
            double d = a.s[c] / a.w - (double)channel(r->rgb, c);
            bx->score += DIST_W[c] * a.w * d * d;
        }
    }
}

/* Stable counting sort of a box's points by their key on axis c; fills keys. */
static void sort_box(builder *b, const box *bx, int c)
{
    memset(b->counts, 0, sizeof b->counts);
    for (uint32_t i = bx->begin; i < bx->end; i++)
        b->counts[point_key(&b->points[b->order[i]], c) + 1]++;
    for (int k = 0; k < KEY_COUNT; k++)
        b->counts[k + 1] += b->counts[k];
    for (uint32_t i = bx->begin; i < bx->end; i++) {
        uint32_t k = point_key(&b->points[b->order[i]], c);
        uint32_t at = bx->begin + b->counts[k]++;
        b->scratch[at] = b->order[i];
        b->keys[at] = k;
    }
    memcpy(b->order + bx->begin, b->scratch + bx->begin, (bx->end - bx->begin) * sizeof *b->order);
}

/* Sorts the box on axis c and finds the cut (the last position of the
 * left part) with the least total error; a box holding several reserved
 * points must keep one on each side. False when no cut exists on c. */
static bool best_cut(builder *b, const box *bx, int c, uint32_t *cut, double *error)
{
    sort_box(b, bx, c);
    sums all = box_sums(b, bx), left = {0};
    int left_reserved = 0;
    bool found = false;
    for (uint32_t i = bx->begin; i + 1 < bx->end; i++) {
        const point *p = &b->points[b->order[i]];
        sums_add(&left, p);
        left_reserved += p->reserved;
        if (b->keys[i] == b->keys[i + 1])
            continue;
        if (bx->reserved >= 2 && (left_reserved == 0 || left_reserved == bx->reserved))
            continue;
        sums right = {.w = all.w - left.w};
        for (int k = 0; k < 3; k++) {
            right.s[k] = all.s[k] - left.s[k];
            right.q[k] = all.q[k] - left.q[k];
        }
        double e = sums_error(&left) + sums_error(&right);
        if (!found || e < *error) {
            found = true;
            *error = e;
            *cut = i;
        }
    }
    return found;
}

/* Splits box i in two, on the axis where it (or its reserved points)
 * spreads most that allows a cut. False when it cannot be split. */
static bool split_box(builder *b, int i)
{
    box *bx = &b->boxes[i];
    double spread[3] = {0};
    if (bx->reserved >= 2) {
        uint32_t lo[3] = {255, 255, 255}, hi[3] = {0};
        for (uint32_t k = bx->begin; k < bx->end; k++) {
            const point *p = &b->points[b->order[k]];
            for (int c = 0; p->reserved && c < 3; c++) {
                uint32_t v = channel(p->rgb, c);
                lo[c] = v < lo[c] ? v : lo[c];
                hi[c] = v > hi[c] ? v : hi[c];
            }
        }
        for (int c = 0; c < 3; c++)
            spread[c] = DIST_W[c] * (double)(hi[c] - lo[c]) * (hi[c] - lo[c]);
    } else {
        sums a = box_sums(b, bx);
        for (int c = 0; c < 3; c++)
            spread[c] = DIST_W[c] * (a.q[c] - a.s[c] * a.s[c] / a.w);
    }
    bool tried[3] = {false};
    for (int attempt = 0; attempt < 3; attempt++) {
        int axis = -1;
        for (int c = 0; c < 3; c++)
            if (!tried[c] && (axis < 0 || spread[c] > spread[axis]))
                axis = c;
        tried[axis] = true;
        uint32_t cut;
        double error;
        if (!best_cut(b, bx, axis, &cut, &error))
            continue;
        box right = {.begin = cut + 1, .end = bx->end};
        bx->end = cut + 1;
        box_update(b, bx);
        box_update(b, &right);
        b->boxes[b->nboxes++] = right;
        return true;
    }
    return false;
}

/* Cuts the points into at most max_colors boxes and writes each box's
 * colour (its reserved colour, else its rounded mean) into colors. */
static int cut_boxes(builder *b, uint32_t npoints, uint32_t *colors, bool *fixed, int max_colors)
{
    b->boxes[0] = (box){.begin = 0, .end = npoints};
    b->nboxes = 1;
    box_update(b, &b->boxes[0]);
    while (b->nboxes < max_colors) {
        int best = -1;
        for (int i = 0; i < b->nboxes; i++)
            if (b->boxes[i].score > 0 && (best < 0 || b->boxes[i].score > b->boxes[best].score))
                best = i;
        if (best < 0)
            break;
        if (!split_box(b, best))
            b->boxes[best].score = -1;
    }
    for (int i = 0; i < b->nboxes; i++) {
        const box *bx = &b->boxes[i];
        assert(bx->reserved <= 1);
        fixed[i] = bx->reserved == 1;
        if (fixed[i]) {
            colors[i] = b->points[bx->rep].rgb;
        } else {
            point mean = {0};
            for (uint32_t k = bx->begin; k < bx->end; k++) {
                const point *p = &b->points[b->order[k]];
                mean.weight += p->weight;
                for (int c = 0; c < 3; c++)
                    mean.sum[c] += p->sum[c];
            }
            colors[i] = point_mean_rgb(&mean);
        }
    }
    return b->nboxes;
}

/* k-means rounds: every unfixed colour moves to the mean of the points
 * the map sends to it (so the error minimised is the one pixels get). */
static void refine(const point *points, uint32_t npoints, uint32_t *colors, const bool *fixed,
                   int count)
{
    palette_map map = {0};
    for (int round = 0; round < LLOYD_ROUNDS; round++) {
        palette_map_init(&map, colors, count);
        uint64_t sum[PALETTE_MAX_COLORS][3] = {{0}}, weight[PALETTE_MAX_COLORS] = {0};
        for (uint32_t i = 0; i < npoints; i++) {
            const point *p = &points[i];
            int j = palette_map_lookup(&map, (uint8_t)channel(p->rgb, 0),
                                       (uint8_t)channel(p->rgb, 1), (uint8_t)channel(p->rgb, 2));
            weight[j] += p->weight;
            for (int c = 0; c < 3; c++)
                sum[j][c] += p->sum[c];
        }
        bool moved = false;
        for (int j = 0; j < count; j++) {
            if (fixed[j] || !weight[j])
                continue;
            uint32_t rgb = 0;
            for (int c = 0; c < 3; c++)
                rgb = rgb << 8 | (uint32_t)((2 * sum[j][c] + weight[j]) / (2 * weight[j]));
            moved |= rgb != (colors[j] & 0xFFFFFF);
            colors[j] = rgb;
        }
        if (!moved)
            break;
    }
    palette_map_deinit(&map);
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Heavier first, then by colour: a total order, so qsort is deterministic. */
static int compare_reserve(const void *a, const void *b)
{
    const point *p = *(const point *const *)a, *q = *(const point *const *)b;
    if (p->weight != q->weight)
        return p->weight > q->weight ? -1 : 1;
    return (p->rgb > q->rgb) - (p->rgb < q->rgb);
}

/* Sorts, drops duplicates, sets alpha; returns the new count. */
static int finish(uint32_t *colors, int count)
{
    for (int i = 0; i < count; i++)
        colors[i] &= 0xFFFFFF;
    qsort(colors, (size_t)count, sizeof *colors, compare_u32);
    int n = 0;
    for (int i = 0; i < count; i++)
        if (n == 0 || colors[i] != colors[n - 1])
            colors[n++] = colors[i];
    for (int i = 0; i < n; i++)
        colors[i] |= 0xFF000000u;
    return n;
}

int palette_build(const palette_histogram *h, uint32_t colors[PALETTE_MAX_COLORS], int max_colors)
{
    assert(h->bins && max_colors >= 1 && max_colors <= PALETTE_MAX_COLORS);
    uint32_t npoints = 0;
    for (uint32_t i = 0; i < PALETTE_BINS; i++)
        npoints += (h->bins[i].exact > 0) + (h->bins[i].count > h->bins[i].exact);
    if (!npoints) {
        colors[0] = 0xFF000000u;
        return 1;
    }

    /* Points in bin order, the exact one first: the order is part of the
     * determinism (the sorts are stable or total). */
    point *points = ppf_calloc(npoints, sizeof *points);
    uint32_t n = 0;
    uint64_t total = 0;
    for (uint32_t i = 0; i < PALETTE_BINS; i++) {
        const palette_bin *bin = &h->bins[i];
        if (!bin->count)
            continue;
        total += bin->count;
        if (bin->exact) {
            point *p = &points[n++];
            *p = (point){.weight = bin->exact, .rgb = bin->rgb, .exact = true};
            for (int c = 0; c < 3; c++)
                p->sum[c] = (uint64_t)channel(bin->rgb, c) * bin->exact;
        }
        uint32_t rest = bin->count - bin->exact;
        if (rest) {
            point *p = &points[n++];
            *p = (point){.weight = rest};
            for (int c = 0; c < 3; c++) {
                uint32_t base = (i >> (12 - 6 * c) & 63) << 2;
                uint32_t low = bin->low[c] - (channel(bin->rgb, c) & 3) * bin->exact;
                p->sum[c] = (uint64_t)base * rest + low;
            }
            p->rgb = point_mean_rgb(p);
        }
    }
    assert(n == npoints);

    int count;
    if (npoints <= (uint32_t)max_colors) {
        /* Room for every point: each is a colour, the exact ones exact. */
        for (uint32_t i = 0; i < npoints; i++)
            colors[i] = points[i].rgb;
        count = (int)npoints;
        free(points);
        return finish(colors, count);
    }

    /* Reserve the heaviest exact colours, up to three quarters of the
     * palette: a diagram's flat fills matter more than its edges, but the
     * edges and blends still get a quarter. */
    point **heavy = ppf_malloc(npoints * sizeof *heavy);
    uint32_t nheavy = 0;
    for (uint32_t i = 0; i < npoints; i++)
        if (points[i].exact && (uint64_t)points[i].weight * 4 * (uint64_t)max_colors >= total)
            heavy[nheavy++] = &points[i];
    qsort(heavy, nheavy, sizeof *heavy, compare_reserve);
    for (uint32_t i = 0; i < nheavy && i < (uint32_t)(max_colors - max_colors / 4); i++)
        heavy[i]->reserved = true;
    free(heavy);

    builder *b = ppf_calloc(1, sizeof *b);
    b->points = points;
    b->order = ppf_malloc(npoints * sizeof *b->order);
    b->scratch = ppf_malloc(npoints * sizeof *b->scratch);
    b->keys = ppf_malloc(npoints * sizeof *b->keys);
    for (uint32_t i = 0; i < npoints; i++)
        b->order[i] = i;
    bool fixed[PALETTE_MAX_COLORS];
    count = cut_boxes(b, npoints, colors, fixed, max_colors);
    free(b->keys);
    free(b->scratch);
    free(b->order);
    free(b);

    refine(points, npoints, colors, fixed, count);
    free(points);
    return finish(colors, count);
}

/* ---- palette_map ------------------------------------------------------ */

/* Fills the table for one cell of CELL_BINS^3 bins. All distances are in
 * doubled levels (a bin centre 4v + 1.5 is 8v + 3) to stay in integers.
 * Only colours whose nearest possible distance to the cell is within the
 * smallest farthest distance of any colour can be nearest to a bin in it;
 * they are kept in index order so ties go to the lower index, as in a
 * search over every colour. */
static void fill_cell(palette_map *m, const int32_t (*pal)[3], int cr, int cg, int cb)
{
    int cell[3] = {cr, cg, cb};
    int32_t lo[3], hi[3];
    for (int c = 0; c < 3; c++) {
        lo[c] = 8 * CELL_BINS * cell[c] + 3;
        hi[c] = lo[c] + 8 * (CELL_BINS - 1);
    }
    int32_t near[PALETTE_MAX_COLORS], limit = INT32_MAX;
    for (int j = 0; j < m->count; j++) {
        int32_t dmin = 0, dmax = 0;
        for (int c = 0; c < 3; c++) {
            int32_t p = pal[j][c];
            int32_t a = p < lo[c] ? lo[c] - p : p > hi[c] ? p - hi[c] : 0;
            int32_t z = p - lo[c] > hi[c] - p ? p - lo[c] : hi[c] - p;
            dmin += DIST_W[c] * a * a;
            dmax += DIST_W[c] * z * z;
        }
        near[j] = dmin;
        limit = dmax < limit ? dmax : limit;
    }
    /* Candidates outside, bins inside: the inner loop over one row of bins
     * is branch-free and vectorises; strict < in index order keeps ties
     * with the lower index. */
    enum { N = CELL_BINS * CELL_BINS * CELL_BINS };
    int32_t best_d[N];
    uint8_t best[N] = {0};
    for (int k = 0; k < N; k++)
        best_d[k] = INT32_MAX;
    for (int j = 0; j < m->count; j++) {
        if (near[j] > limit)
            continue;
        int32_t d[3][CELL_BINS];
        for (int c = 0; c < 3; c++)
            for (int v = 0; v < CELL_BINS; v++) {
                int32_t diff = lo[c] + 8 * v - pal[j][c];
                d[c][v] = DIST_W[c] * diff * diff;
            }
        for (int r = 0; r < CELL_BINS; r++)
            for (int g = 0; g < CELL_BINS; g++) {
                int32_t rg = d[0][r] + d[1][g];
                int32_t *row_d = &best_d[(r * CELL_BINS + g) * CELL_BINS];
                uint8_t *row = &best[(r * CELL_BINS + g) * CELL_BINS];
                for (int b = 0; b < CELL_BINS; b++) {
                    int32_t dist = rg + d[2][b];
                    bool closer = dist < row_d[b];
                    row_d[b] = closer ? dist : row_d[b];
                    row[b] = closer ? (uint8_t)j : row[b];
                }
            }
    }
    for (int r = 0; r < CELL_BINS; r++)
        for (int g = 0; g < CELL_BINS; g++) {
            uint32_t bin = (uint32_t)(cr * CELL_BINS + r) << 12 |
                           (uint32_t)(cg * CELL_BINS + g) << 6 | (uint32_t)(cb * CELL_BINS);
            for (int b = 0; b < CELL_BINS; b++)
                m->table[bin + (uint32_t)b] = best[(r * CELL_BINS + g) * CELL_BINS + b];
        }
}

void palette_map_init(palette_map *m, const uint32_t *colors, int count)
{
    assert(colors && count >= 1 && count <= PALETTE_MAX_COLORS);
    if (!m->table)
        m->table = ppf_malloc(PALETTE_BINS * sizeof *m->table);
    m->count = count;
    int32_t pal[PALETTE_MAX_COLORS][3];
    for (int j = 0; j < count; j++) {
        m->colors[j] = colors[j];
        for (int c = 0; c < 3; c++)
            pal[j][c] = 2 * (int32_t)channel(colors[j] & 0xFFFFFF, c);
    }
    enum { CELLS = 64 / CELL_BINS };
    for (int r = 0; r < CELLS; r++)
        for (int g = 0; g < CELLS; g++)
            for (int b = 0; b < CELLS; b++)
                fill_cell(m, (const int32_t(*)[3])pal, r, g, b);

    /* Bins that hold palette colours point into exact[]: a header with
     * the nearest index and how many colours follow, then the colours. */
    uint32_t pairs[PALETTE_MAX_COLORS];
    for (int j = 0; j < count; j++) {
        uint32_t rgb = colors[j] & 0xFFFFFF;
        pairs[j] = bin_of(channel(rgb, 0), channel(rgb, 1), channel(rgb, 2)) << 8 | (uint32_t)j;
    }
    qsort(pairs, (size_t)count, sizeof *pairs, compare_u32); /* by bin, then index */
    uint32_t at = 0;
    for (int j = 0; j < count;) {
        uint32_t bin = pairs[j] >> 8, head = at++;
        uint32_t k = 0;
        for (; j < count && pairs[j] >> 8 == bin; j++, k++) {
            uint32_t index = pairs[j] & 0xFF;
            m->exact[at++] = (colors[index] & 0xFFFFFF) << 8 | index;
        }
        m->exact[head] = (uint32_t)m->table[bin] << 16 | k;
        m->table[bin] = (uint16_t)(PALETTE_MAX_COLORS + head);
    }
    assert(at <= 2 * PALETTE_MAX_COLORS);
}

static uint8_t lookup_rgb(const palette_map *m, uint32_t rgb)
{
    uint16_t v = m->table[bin_of(channel(rgb, 0), channel(rgb, 1), channel(rgb, 2))];
    if (v < PALETTE_MAX_COLORS)
        return (uint8_t)v;
    const uint32_t *e = &m->exact[v - PALETTE_MAX_COLORS];
    uint32_t k = e[0] & 0xFFFF, key = rgb << 8;
    for (uint32_t i = 1; i <= k; i++)
        if ((e[i] & ~0xFFu) == key)
            return (uint8_t)(e[i] & 0xFF);
    return (uint8_t)(e[0] >> 16);
}

uint8_t palette_map_lookup(const palette_map *m, uint8_t r, uint8_t g, uint8_t b)
{
    assert(m->table);
    return lookup_rgb(m, (uint32_t)r << 16 | (uint32_t)g << 8 | b);
}

void palette_map_apply(const palette_map *m, const uint8_t *rgba, int width, int height,
                       int stride_bytes, uint8_t *indices, int index_stride)
{
    assert(m->table && width >= 0 && height >= 0);
    assert((rgba && indices) || !width || !height);
    ptrdiff_t stride = stride_bytes ? stride_bytes : (ptrdiff_t)width * 4;
    ptrdiff_t out_stride = index_stride ? index_stride : width;
    for (int y = 0; y < height; y++) {
        const uint8_t *row = rgba + (ptrdiff_t)y * stride;
        uint8_t *out = indices + (ptrdiff_t)y * out_stride;
        uint32_t last = 0xFFFFFFFFu; /* no RGB: the first pixel is looked up */
        uint8_t index = 0;
        for (int x = 0; x < width; x++) {
            uint32_t rgb = pixel_rgb(row + 4 * x);
            if (rgb != last) {
                last = rgb;
                index = lookup_rgb(m, rgb);
            }
            out[x] = index;
        }
    }
}

void palette_map_deinit(palette_map *m)
{
    free(m->table);
    *m = (palette_map){0};
}
