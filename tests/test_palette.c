/* test_palette.c - the GIF palette: flat colours come out exact, gradients
 * stay close, few colours are kept as they are, the map agrees with a
 * brute-force search, and the same input gives the same palette. How long
 * the steps take is `ppflow bench palette`'s question, not a test's. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "palette.h"
#include "support/check.h"

/* Dark theme background and four Okabe-Ito fills. */
static const uint32_t FLAT[5] = {0x1E1E24, 0x0072B2, 0x009E73, 0xD55E00, 0xF0E442};

typedef struct picture {
    int width, height;
    uint8_t *rgba; /* width * height * 4, stride width * 4 */
} picture;

static picture picture_new(int width, int height)
{
    return (picture){width, height, ppf_calloc((size_t)width * (size_t)height, 4)};
}

static uint8_t *at(const picture *p, int x, int y)
{
    return p->rgba + ((size_t)y * (size_t)p->width + (size_t)x) * 4;
}

static void put(const picture *p, int x, int y, uint32_t rgb)
{
    uint8_t *q = at(p, x, y);
    q[0] = (uint8_t)(rgb >> 16);
    q[1] = (uint8_t)(rgb >> 8);
    q[2] = (uint8_t)rgb;
    q[3] = 255;
}

static uint32_t get(const picture *p, int x, int y)
{
    const uint8_t *q = at(p, x, y);
    return (uint32_t)q[0] << 16 | (uint32_t)q[1] << 8 | q[2];
}

static uint32_t channel(uint32_t rgb, int c)
{
    return rgb >> (16 - 8 * c) & 0xFF;
}

/* A disc of colour rgb over the picture, its edge anti-aliased by the
 * covered fraction of each pixel (approximated from the distance), the way
 * a rasteriser blends edges: many in-between colours, some of them within
 * a level or two of the flat colours on either side. */
static void draw_disc(const picture *p, double cx, double cy, double radius, uint32_t rgb)
{
    for (int y = 0; y < p->height; y++)
        for (int x = 0; x < p->width; x++) {
            double d = hypot(x + 0.5 - cx, y + 0.5 - cy);
            double cover = radius + 0.5 - d;
            if (cover <= 0)
                continue;
            if (cover > 1)
                cover = 1;
            uint32_t old = get(p, x, y), mix = 0;
            for (int c = 0; c < 3; c++) {
                double v = channel(old, c) + (channel(rgb, c) - (double)channel(old, c)) * cover;
                mix = mix << 8 | (uint32_t)lround(v);
            }
            put(p, x, y, mix);
        }
}

/* Blends rgb with the given opacity over a rectangle whose edges fall
 * between pixels (a translucent box: new flat colours, blended edges). */
static void draw_box(const picture *p, double x0, double y0, double x1, double y1, uint32_t rgb,
                     double opacity)
{
    for (int y = 0; y < p->height; y++)
        for (int x = 0; x < p->width; x++) {
            double cx = fmin(x + 1, x1) - fmax(x, x0), cy = fmin(y + 1, y1) - fmax(y, y0);
            if (cx <= 0 || cy <= 0)
                continue;
            double a = cx * cy * opacity;
            uint32_t old = get(p, x, y), mix = 0;
            for (int c = 0; c < 3; c++) {
                double v = channel(old, c) + (channel(rgb, c) - (double)channel(old, c)) * a;
                mix = mix << 8 | (uint32_t)lround(v);
            }
            put(p, x, y, mix);
        }
}

/* Background, four overlapping discs, grey grid lines and a translucent
 * box over part of it all: five flat colours that stay uncovered, a few
 * blended flat colours, and hundreds of edge colours. */
static picture flat_picture(int width, int height)
{
    picture p = picture_new(width, height);
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++)
            put(&p, x, y, FLAT[0]);
    for (double x = width * 0.1; x < width; x += width * 0.2)
        draw_box(&p, x, 0, x + 1.3, height, 0x5A5A5A, 1);
    double r = height * 0.17;
    draw_disc(&p, width * 0.25, height * 0.3, r, FLAT[1]);
    draw_disc(&p, width * 0.38, height * 0.45, r, FLAT[2]);
    draw_disc(&p, width * 0.7, height * 0.3, r * 1.3, FLAT[3]);
    draw_disc(&p, width * 0.6, height * 0.72, r, FLAT[4]);
    draw_box(&p, width * 0.33, height * 0.42, width * 0.755, height * 0.9, 0xF0E442, 0.35);
    return p;
}

static int count_distinct(const picture *p)
{
    static uint8_t seen[1 << 24 >> 3];
    memset(seen, 0, sizeof seen);
    int n = 0;
    for (int y = 0; y < p->height; y++)
        for (int x = 0; x < p->width; x++) {
            uint32_t c = get(p, x, y);
            if (!(seen[c >> 3] & 1 << (c & 7))) {
                seen[c >> 3] |= (uint8_t)(1 << (c & 7));
                n++;
            }
        }
    return n;
}

static int build(const picture *p, uint32_t colors[256], int max_colors)
{
    palette_histogram h = {0};
    palette_histogram_init(&h, NULL);
    palette_histogram_add(&h, p->rgba, p->width, p->height, 0);
    int n = palette_build(&h, colors, max_colors);
    palette_histogram_deinit(&h);
    return n;
}

static int find_color(const uint32_t *colors, int n, uint32_t rgb)
{
    for (int i = 0; i < n; i++)
        if ((colors[i] & 0xFFFFFF) == rgb)
            return i;
    return -1;
}

/* Every palette entry: alpha 0xFF, sorted, unique. */
static void check_palette_form(const uint32_t *colors, int n, int max_colors)
{
    assert_in_range(n, 1, max_colors);
    for (int i = 0; i < n; i++) {
        assert_int_equal(colors[i] >> 24, 0xFF);
        if (i > 0 && colors[i - 1] >= colors[i])
            fail_msg("palette not sorted and unique at %d: %08x then %08x", i, colors[i - 1],
                     colors[i]);
    }
}

typedef struct errors {
    int max;     /* largest error of one channel */
    double mean; /* mean error per channel */
} errors;

/* Maps the picture and measures how far each pixel lands from its colour. */
static errors map_errors(const picture *p, const uint32_t *colors, int n, uint8_t *indices)
{
    palette_map m = {0};
    palette_map_init(&m, colors, n);
    palette_map_apply(&m, p->rgba, p->width, p->height, 0, indices, 0);
    errors e = {0};
    double sum = 0;
    for (int y = 0; y < p->height; y++)
        for (int x = 0; x < p->width; x++) {
            uint32_t want = get(p, x, y), got = colors[indices[y * p->width + x]];
            for (int c = 0; c < 3; c++) {
                int d = abs((int)channel(want, c) - (int)channel(got, c));
                e.max = d > e.max ? d : e.max;
                sum += d;
            }
        }
    e.mean = sum / (3.0 * p->width * p->height);
    palette_map_deinit(&m);
    return e;
}

typedef struct tally {
    uint32_t rgb;
    int count;
} tally;

static int compare_rgb(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int compare_tally(const void *a, const void *b)
{
    const tally *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return compare_rgb(&x->rgb, &y->rgb);
}

/* The colours palette.h promises to keep exact (each here is the only
 * colour of most of its bin): those covering at least pixels / (4 *
 * max_colors), the heaviest max_colors - max_colors / 4 of them. */
static int heavy_colors(const picture *p, int max_colors, uint32_t *out)
{
    int total = p->width * p->height, n = 0;
    uint32_t *all = ppf_malloc((size_t)total * sizeof *all);
    tally *t = ppf_malloc((size_t)total * sizeof *t);
    for (int i = 0; i < total; i++)
        all[i] = get(p, i % p->width, i / p->width);
    qsort(all, (size_t)total, sizeof *all, compare_rgb);
    for (int i = 0; i < total; i++)
        if (n > 0 && t[n - 1].rgb == all[i])
            t[n - 1].count++;
        else
            t[n++] = (tally){all[i], 1};
    qsort(t, (size_t)n, sizeof *t, compare_tally);
    int k = 0;
    while (k < n && k < max_colors - max_colors / 4 && (long)t[k].count * 4 * max_colors >= total)
        out[k] = t[k].rgb, k++;
    free(t);
    free(all);
    return k;
}

static void check_flat_exact(int max_colors, bool all_flat)
{
    picture p = flat_picture(320, 240);
    int distinct = count_distinct(&p);
    assert_gt(distinct, 256); /* the cutting path, not "one colour each" */
    uint32_t colors[256], heavy[256];
    int n = build(&p, colors, max_colors);
    check_palette_form(colors, n, max_colors);
    int nheavy = heavy_colors(&p, max_colors, heavy);
    for (int i = 0; all_flat && i < 5; i++)
        if (find_color(heavy, nheavy, FLAT[i]) < 0)
            fail_msg("flat colour %06x is not among the %d heavy ones", FLAT[i], nheavy);
    for (int i = 0; i < nheavy; i++)
        if (find_color(colors, n, heavy[i]) < 0)
            fail_msg("heavy colour %06x missing from a %d-colour palette", heavy[i], n);

    uint8_t *indices = ppf_malloc((size_t)p.width * (size_t)p.height);
    errors e = map_errors(&p, colors, n, indices);
    long exact = 0;
    for (int y = 0; y < p.height; y++)
        for (int x = 0; x < p.width; x++) {
            uint32_t rgb = get(&p, x, y);
            if (find_color(heavy, nheavy, rgb) < 0)
                continue;
            exact++;
            assert_int_equal(colors[indices[y * p.width + x]] & 0xFFFFFF, rgb);
        }
    printf("flat picture, %d distinct colours, %d-colour palette: %d heavy colours, %ld pixels, "
           "exact; all pixels: max channel error %d, mean %.3f\n",
           distinct, n, nheavy, exact, e.max, e.mean);
    free(indices);
    free(p.rgba);
}

static void test_flat_colours_exact(void **state)
{
    (void)state;
    check_flat_exact(256, true);
    check_flat_exact(16, true);
    check_flat_exact(6, false); /* room for the five heaviest, not all five fills */
}

/* 512 x 512, every pixel a different colour along two axes. */
static picture gradient_picture(void)
{
    picture p = picture_new(512, 512);
    for (int y = 0; y < 512; y++)
        for (int x = 0; x < 512; x++)
            put(&p, x, y,
                (uint32_t)(x / 2) << 16 | (uint32_t)(y / 2) << 8 | (uint32_t)(255 - (x + y) / 4));
    return p;
}

static void test_gradient_close(void **state)
{
    (void)state;
    picture p = gradient_picture();
    assert_gt(count_distinct(&p), 256);
    uint32_t colors[256];
    int n = build(&p, colors, 256);
    check_palette_form(colors, n, 256);
    assert_int_equal(n, 256);
    uint8_t *indices = ppf_malloc(512 * 512);
    errors e = map_errors(&p, colors, n, indices);
    printf("gradient 512x512, 256 colours: max channel error %d, mean %.3f\n", e.max, e.mean);
    /* Measured: max 11, mean 3.50. 65536 colours on a plane in 256: each
     * colour serves a patch about 16 levels across, so ~4 a channel is
     * what any palette can do here, plus up to 1.5 from matching by bin. */
    assert_in_range(e.max, 0, 12);
    assert_le(e.mean, 3.6);
    free(indices);
    free(p.rgba);
}

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static void test_few_colours_kept(void **state)
{
    (void)state;
    /* 100 colours, no two in one 6-bit bin, each painted on a strip of
     * its own length: fewer colours than room, so each is kept exactly. */
    enum { N = 100 };
    uint32_t want[N], seed = 7;
    static uint8_t bin_used[1 << 18];
    memset(bin_used, 0, sizeof bin_used);
    for (int i = 0; i < N;) {
        uint32_t c = lcg(&seed) & 0xFFFFFF;
        uint32_t bin = (c >> 18) << 12 | ((c >> 10) & 63) << 6 | ((c >> 2) & 63);
        if (bin_used[bin])
            continue;
        bin_used[bin] = 1;
        want[i++] = c;
    }
    picture p = picture_new(N, 64);
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < N; x++)
            put(&p, x, y, want[(x + (y < x % 64 ? 1 : 0)) % N]);
    for (int max_colors = N; max_colors <= 256; max_colors += 256 - N) {
        uint32_t colors[256];
        int n = build(&p, colors, max_colors);
        check_palette_form(colors, n, max_colors);
        assert_int_equal(n, N);
        for (int i = 0; i < N; i++)
            assert_ge(find_color(colors, n, want[i]), 0);
        uint8_t indices[N * 64];
        errors e = map_errors(&p, colors, n, indices);
        assert_int_equal(e.max, 0);
    }
    free(p.rgba);
}

/* The documented answer: the lowest index equal to the colour, else the
 * lowest index nearest (2:4:3) to the centre of the colour's 6-bit bin. */
static int brute_force(const uint32_t *colors, int n, uint32_t rgb)
{
    for (int i = 0; i < n; i++)
        if ((colors[i] & 0xFFFFFF) == rgb)
            return i;
    static const int w[3] = {2, 4, 3};
    int best = -1;
    long best_d = 0;
    for (int i = 0; i < n; i++) {
        long d = 0;
        for (int c = 0; c < 3; c++) {
            long centre2 = (long)(channel(rgb, c) >> 2) * 8 + 3; /* doubled: 4v + 1.5 */
            long diff = centre2 - 2 * (long)channel(colors[i], c);
            d += w[c] * diff * diff;
        }
        if (best < 0 || d < best_d) {
            best = i;
            best_d = d;
        }
    }
    return best;
}

static void check_against_brute_force(const uint32_t *colors, int n, uint32_t seed)
{
    palette_map m = {0};
    palette_map_init(&m, colors, n);
    enum { RANDOM = 10000 };
    int total = RANDOM + 3 * n;
    picture p = picture_new(total, 1);
    for (int i = 0; i < total; i++) {
        uint32_t rgb;
        if (i < RANDOM)
            rgb = lcg(&seed) & 0xFFFFFF;
        else if (i < RANDOM + n)
            rgb = colors[i - RANDOM] & 0xFFFFFF; /* exact palette colours */
        else                                     /* one level off a palette colour */
            rgb = (colors[(i - RANDOM) % n] & 0xFFFFFF) ^ (1u << (lcg(&seed) % 24));
        put(&p, i, 0, rgb);
    }
    uint8_t *indices = ppf_malloc((size_t)total);
    palette_map_apply(&m, p.rgba, total, 1, 0, indices, 0);
    for (int i = 0; i < total; i++) {
        uint32_t rgb = get(&p, i, 0);
        int want = brute_force(colors, n, rgb);
        int got = palette_map_lookup(&m, (uint8_t)(rgb >> 16), (uint8_t)(rgb >> 8), (uint8_t)rgb);
        assert_in_range(got, 0, n - 1);
        if (got != want) /* % n: gcc cannot see the range check above */
            fail_msg("pixel %06x: lookup %d (%06x), brute force %d (%06x)", rgb, got,
                     colors[got % n] & 0xFFFFFF, want, colors[want] & 0xFFFFFF);
        assert_int_equal(indices[i], got);
    }
    free(indices);
    free(p.rgba);
    palette_map_deinit(&m);
}

static void test_map_matches_brute_force(void **state)
{
    (void)state;
    uint32_t colors[256];
    picture p = flat_picture(320, 240);
    int n = build(&p, colors, 256);
    check_against_brute_force(colors, n, 1);
    free(p.rgba);
    p = gradient_picture();
    n = build(&p, colors, 256);
    check_against_brute_force(colors, n, 2);
    free(p.rgba);

    /* Random colours, with duplicates and several colours in one bin
     * (unsorted, as a caller may pass them): ties go to the lower index. */
    uint32_t seed = 3;
    for (int i = 0; i < 256; i++)
        colors[i] = 0xFF000000u | (lcg(&seed) & 0xFFFFFF);
    colors[10] = colors[200];
    colors[11] = colors[12] ^ 1;
    colors[13] = colors[12] ^ 0x010101;
    check_against_brute_force(colors, 256, 4);
    /* Tiny palettes: everything is a tie or far away. */
    check_against_brute_force((const uint32_t[]){0xFF000000u}, 1, 5);
    check_against_brute_force((const uint32_t[]){0xFF808080u, 0xFF808080u, 0xFF7F7F7Fu}, 3, 6);
}

static void test_deterministic(void **state)
{
    (void)state;
    picture a = flat_picture(320, 240), b = gradient_picture();
    uint32_t first[256], second[256];
    palette_histogram h1 = {0}, h2 = {0};
    palette_histogram_init(&h1, NULL);
    palette_histogram_init(&h2, NULL);
    palette_histogram_add(&h1, a.rgba, a.width, a.height, 0);
    palette_histogram_add(&h1, b.rgba, b.width, b.height, 0);
    palette_histogram_add(&h2, a.rgba, a.width, a.height, 0);
    palette_histogram_add(&h2, b.rgba, b.width, b.height, 0);
    int n1 = palette_build(&h1, first, 256);
    int n2 = palette_build(&h1, second, 256);
    assert_int_equal(n1, n2);
    assert_memory_equal(first, second, (size_t)n1 * sizeof *first);
    n2 = palette_build(&h2, second, 256);
    assert_int_equal(n1, n2);
    assert_memory_equal(first, second, (size_t)n1 * sizeof *first);
    for (int i = 0; i < 5; i++)
        assert_ge(find_color(first, n1, FLAT[i]), 0);
    palette_histogram_deinit(&h1);
    palette_histogram_deinit(&h2);
    free(a.rgba);
    free(b.rgba);
}

static void test_empty_and_two_colours(void **state)
{
    (void)state;
    palette_histogram h = {0};
    palette_histogram_init(&h, NULL);
    uint32_t colors[256];
    assert_int_equal(palette_build(&h, colors, 256), 1);
    assert_int_equal(colors[0], 0xFF000000u);
    palette_histogram_add(&h, NULL, 0, 10, 0); /* empty images count nothing */
    palette_histogram_add(&h, NULL, 10, 0, 0);
    assert_int_equal(palette_build(&h, colors, 1), 1);
    assert_int_equal(colors[0], 0xFF000000u);
    palette_histogram_deinit(&h);

    /* Two colours for the flat picture: the background (the heaviest
     * colour) is kept exact, the other is whatever serves the rest best. */
    picture p = flat_picture(320, 240);
    int n = build(&p, colors, 2);
    check_palette_form(colors, n, 2);
    assert_int_equal(n, 2);
    assert_ge(find_color(colors, n, FLAT[0]), 0);
    uint8_t *indices = ppf_malloc((size_t)p.width * (size_t)p.height);
    map_errors(&p, colors, n, indices);
    assert_int_equal(colors[indices[0]] & 0xFFFFFF, FLAT[0]);
    free(indices);

    /* One colour: the mean of everything. */
    n = build(&p, colors, 1);
    assert_int_equal(n, 1);
    free(p.rgba);
}

/* Halving when the histogram fills keeps proportions: the one-colour
 * palette (the weighted mean; no colour is heavy enough to be reserved,
 * each being under a quarter) comes out as without halving. */
static void test_halving_keeps_proportions(void **state)
{
    (void)state;
    enum { K = 5 };
    static const uint32_t rgb[K] = {0x204060, 0xC08000, 0x10F0F0, 0x808080, 0xF01020};
    static const int share[K] = {24, 22, 20, 18, 16}; /* pixels of each in a row of 100 */
    picture p = picture_new(100, 10);
    for (int y = 0; y < 10; y++)
        for (int x = 0, k = 0, end = share[0]; x < 100; x++) {
            if (x == end)
                end += share[++k];
            put(&p, x, y, rgb[k]);
        }
    uint32_t mean = 0;
    for (int c = 0; c < 3; c++) {
        int sum = 0;
        for (int k = 0; k < K; k++)
            sum += share[k] * (int)channel(rgb[k], c);
        mean = mean << 8 | (uint32_t)((sum + 50) / 100);
    }

    palette_histogram plain = {0}, small = {0};
    palette_histogram_init(&plain, NULL);
    palette_histogram_init(&small, &(palette_histogram_desc){.max_pixels = 3000});
    for (int i = 0; i < 40; i++) {
        palette_histogram_add(&plain, p.rgba, p.width, p.height, 0);
        palette_histogram_add(&small, p.rgba, p.width, p.height, 0);
        assert_le(small.pixels, 3000);
    }
    assert_int_equal(plain.pixels, 40000);
    uint32_t a[256], b[256];
    assert_int_equal(palette_build(&plain, a, 1), 1);
    assert_int_equal(a[0], 0xFF000000u | mean);
    assert_int_equal(palette_build(&small, b, 1), 1);
    for (int c = 0; c < 3; c++) {
        int d = abs((int)channel(mean, c) - (int)channel(b[0], c));
        if (d > 1)
            fail_msg("mean %06x with halving, %06x without", b[0] & 0xFFFFFF, mean);
    }
    assert_int_equal(palette_build(&small, b, 256), K);
    for (int k = 0; k < K; k++)
        assert_ge(find_color(b, K, rgb[k]), 0);
    palette_histogram_deinit(&plain);
    palette_histogram_deinit(&small);
    free(p.rgba);
}

/* Padded rows, padded index rows and bottom-up (negative) strides. */
static void test_strides(void **state)
{
    (void)state;
    picture p = flat_picture(64, 48);
    enum { W = 64, H = 48, STRIDE = W * 4 + 20, ISTRIDE = W + 9 };
    static uint8_t padded[STRIDE * H], out[ISTRIDE * H], flipped_out[ISTRIDE * H];
    memset(padded, 0xEE, sizeof padded);
    for (int y = 0; y < H; y++)
        memcpy(padded + y * STRIDE, at(&p, 0, y), W * 4);

    uint32_t want[256], got[256];
    int n = build(&p, want, 256);
    palette_histogram h = {0};
    palette_histogram_init(&h, NULL);
    palette_histogram_add(&h, padded, W, H, STRIDE);
    assert_int_equal(palette_build(&h, got, 256), n);
    assert_memory_equal(got, want, (size_t)n * sizeof *got);
    palette_histogram_deinit(&h);
    palette_histogram_init(&h, NULL);
    palette_histogram_add(&h, padded + (H - 1) * STRIDE, W, H, -STRIDE);
    assert_int_equal(palette_build(&h, got, 256), n);
    palette_histogram_deinit(&h);

    palette_map m = {0};
    palette_map_init(&m, want, n);
    memset(out, 0xAB, sizeof out);
    palette_map_apply(&m, padded, W, H, STRIDE, out, ISTRIDE);
    memset(flipped_out, 0xAB, sizeof flipped_out);
    palette_map_apply(&m, padded + (H - 1) * STRIDE, W, H, -STRIDE, flipped_out + (H - 1) * ISTRIDE,
                      -ISTRIDE);
    assert_memory_equal(out, flipped_out, sizeof out);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            uint32_t rgb = get(&p, x, y);
            assert_int_equal(
                out[y * ISTRIDE + x],
                palette_map_lookup(&m, (uint8_t)(rgb >> 16), (uint8_t)(rgb >> 8), (uint8_t)rgb));
        }
        for (int x = W; x < ISTRIDE; x++)
            assert_int_equal(out[y * ISTRIDE + x], 0xAB); /* padding untouched */
    }
    /* Re-initialising with another palette refills the whole table. */
    palette_map_init(&m, (const uint32_t[]){0xFFFFFFFFu}, 1);
    palette_map_apply(&m, padded, W, H, STRIDE, out, ISTRIDE);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            assert_int_equal(out[y * ISTRIDE + x], 0);
    palette_map_deinit(&m);
    free(p.rgba);
}

static void test_deinit_accepts_zeroed(void **state)
{
    (void)state;
    palette_histogram h = {0};
    palette_histogram_deinit(&h);
    palette_histogram_deinit(&h);
    palette_map m = {0};
    palette_map_deinit(&m);
    palette_map_deinit(&m);
    assert_null(h.bins);
    assert_null(m.table);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flat_colours_exact),
        cmocka_unit_test(test_gradient_close),
        cmocka_unit_test(test_few_colours_kept),
        cmocka_unit_test(test_map_matches_brute_force),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_empty_and_two_colours),
        cmocka_unit_test(test_halving_keeps_proportions),
        cmocka_unit_test(test_strides),
        cmocka_unit_test(test_deinit_accepts_zeroed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
