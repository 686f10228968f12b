/* edge_aa.c - morphological anti-aliasing. See edge_aa.h.
 *
 * The method (Reshetov's MLAA, 2009), in three passes over the picture:
 *
 * 1. Edges: a pixel and its right (or lower) neighbour are apart when a
 *    channel differs by EDGE_AA_THRESHOLD or more, unless the step is part
 *    of a ramp: in that channel the pixel before or after it goes on the
 *    same way by a quarter of the step or more (an edge already smooth, such as the 3D
 *    faces' rims, which the shader fades over a pixel; blending it again
 *    would only blur it).
 * 2. Shapes: the boundary between two rows is cut into runs of edges. At
 *    each end of a run, an edge across it on the upper row, with the line
 *    going on a row up beyond it, is a stair's step: the true edge passes
 *    half a pixel into the upper row there; likewise on the lower row; an
 *    edge across without the line going on is the side of a shape (a
 *    corner, kept sharp), and the edge ends on the boundary. The true edge
 *    is taken as straight from each end's point to the middle of the run
 *    (two such halves make the Z, U and L shapes of the paper), and each
 *    pixel of the run is given the area of it that the line puts on the
 *    other side. Columns likewise.
 * 3. Blend: each pixel mixes in its neighbours by those areas, from the
 *    pair (above and below, or left and right) that gives it more, so that
 *    a corner is not blended twice.
 *
 * Areas, weights (whole 1/256ths) and the blend are integer arithmetic:
 * the same bytes in give the same bytes out on every machine.
 */
#include "edge_aa.h"

#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "error.h"

enum { EDGE_RIGHT = 1, EDGE_DOWN = 2 };
enum { W_UP = 0, W_DOWN = 1, W_LEFT = 2, W_RIGHT = 3 };

static void reserve(edge_aa *a, int w, int h)
{
    const size_t pixels = (size_t)w * (size_t)h;
    if (pixels > a->capacity) {
        free(a->edges);
        free(a->weights);
        free(a->touched);
        free(a->blended);
        /* in huge pages where the kernel gives them: 26 MB at 1080p is
         * 6500 page faults otherwise, 30 ms before an export's first frame */
        a->edges = ppf_malloc_large(pixels);
        a->weights = ppf_malloc_large(pixels * 4);
        a->touched = ppf_malloc_large(pixels * sizeof *a->touched);
        a->blended = ppf_malloc_large(pixels * 4);
        a->capacity = pixels;
        /* Written whole now: the weights must start at zero (only touched
         * entries are set, and cleared after), and every page is taken from
         * the kernel here rather than a few each frame as new pixels change
         * (faults the viewer's heap bar counts). */
        memset(a->edges, 0, pixels);
        memset(a->weights, 0, pixels * 4);
        memset(a->touched, 0, pixels * sizeof *a->touched);
        memset(a->blended, 0, pixels * 4);
    }
    if (w > a->columns) {
        free(a->column_start);
        free(a->open);
        a->column_start = ppf_malloc((size_t)w * sizeof *a->column_start);
        a->open = ppf_malloc(((size_t)w / 8 + 1) * sizeof *a->open);
        a->columns = w;
    }
}

static uint64_t load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Whether the step from p to the pixel `step` bytes on is an edge: in
 * some channel (R, G or B) large enough and not part of a ramp (pass 1
 * above). before and after say whether there is a pixel before p and one
 * after the next, that far. */
static int is_edge(const uint8_t *p, ptrdiff_t step, int before, int after)
{
    for (int c = 0; c < 3; c++) {
        const int d = (int)p[step + c] - (int)p[c];
        if (abs(d) < EDGE_AA_THRESHOLD)
            continue;
        /* a ramp: the pixel before or after goes on the same way by a
         * quarter of the step or more (the shader's soft rims) */
        const int prev = before ? (int)p[c] - (int)p[c - step] : 0;
        const int next = after ? (int)p[2 * step + c] - (int)p[step + c] : 0;
        if (d > 0 ? 4 * prev < d && 4 * next < d : 4 * prev > d && 4 * next > d)
            return 1;
    }
    return 0;
}

/* The edge bits (EDGE_RIGHT, EDGE_DOWN) of pixel (x, y) at q. */
static uint8_t edge_bits(const uint8_t *q, size_t row, int x, int y, int w, int h)
{
    uint8_t bits = 0;
    if (x + 1 < w && is_edge(q, 4, x > 0, x + 2 < w))
        bits |= EDGE_RIGHT;
    if (y + 1 < h && is_edge(q, (ptrdiff_t)row, y > 0, y + 2 < h))
        bits |= EDGE_DOWN;
    return bits;
}

#if defined(__SSE2__)
static inline __m128i load4(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

/* is_edge for four pixels at once, a byte a channel: a, b, c and d are
 * the pixels before, at, after and after that along the step. Bits
 * 4k..4k+2 of the result are pixel k's channels whose step is an edge. */
static inline unsigned edges4(__m128i a, __m128i b, __m128i c, __m128i d)
{
    const __m128i zero = _mm_setzero_si128(), one = _mm_set1_epi8(1);
    const __m128i low6 = _mm_set1_epi8(0x3f), all = _mm_set1_epi8(-1);
    const __m128i under = _mm_set1_epi8(EDGE_AA_THRESHOLD - 1);
    /* the step's rise and fall, each saturated at 0 */
    const __m128i up = _mm_subs_epu8(c, b), down = _mm_subs_epu8(b, c);
    /* the most the steps before and after may go the same way: (step - 1) / 4 */
    const __m128i up_q = _mm_and_si128(_mm_srli_epi16(_mm_subs_epu8(up, one), 2), low6);
    const __m128i down_q = _mm_and_si128(_mm_srli_epi16(_mm_subs_epu8(down, one), 2), low6);
    const __m128i big_up = _mm_xor_si128(_mm_cmpeq_epi8(_mm_subs_epu8(up, under), zero), all);
    const __m128i big_down = _mm_xor_si128(_mm_cmpeq_epi8(_mm_subs_epu8(down, under), zero), all);
    const __m128i before_up = _mm_subs_epu8(b, a), after_up = _mm_subs_epu8(d, c);
    const __m128i before_down = _mm_subs_epu8(a, b), after_down = _mm_subs_epu8(c, d);
    const __m128i rises =
        _mm_and_si128(big_up, _mm_and_si128(_mm_cmpeq_epi8(_mm_max_epu8(before_up, up_q), up_q),
                                            _mm_cmpeq_epi8(_mm_max_epu8(after_up, up_q), up_q)));
    const __m128i falls = _mm_and_si128(
        big_down, _mm_and_si128(_mm_cmpeq_epi8(_mm_max_epu8(before_down, down_q), down_q),
                                _mm_cmpeq_epi8(_mm_max_epu8(after_down, down_q), down_q)));
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(rises, falls)) & 0x7777u;
}
#endif

/* Whether any of R, G, B differs by EDGE_AA_THRESHOLD or more between
 * each of four pixels at p and the four at q: pixel k's in bits 4k..4k+2
 * (a bit per channel), 0 for none. */
static inline unsigned far_apart4(const uint8_t *p, const uint8_t *q)
{
#if defined(__SSE2__)
    const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
    const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)q);
    const __m128i diff = _mm_or_si128(_mm_subs_epu8(a, b), _mm_subs_epu8(b, a));
    const __m128i over = _mm_subs_epu8(diff, _mm_set1_epi8(EDGE_AA_THRESHOLD - 1));
    /* bytes still above 0 passed; alpha (every 4th byte) aside */
    return ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(over, _mm_setzero_si128())) & 0x7777u;
#else
    unsigned bits = 0;
    for (int k = 0; k < 12; k++)
        if (abs((int)p[k + k / 3] - (int)q[k + k / 3]) >= EDGE_AA_THRESHOLD)
            bits |= 1u << (k + k / 3);
    return bits;
#endif
}

/* Pass 1: the edges between each pixel and its right and lower neighbours
 * (is_edge). Four pixels at a time where every neighbour needed lies in
 * the picture: most are within the threshold of their neighbours, and the
 * rest are judged together (edges4). */
static void find_edges(edge_aa *a, const uint8_t *px, int w, int h, size_t row)
{
    for (int y = 0; y < h; y++) {
        const uint8_t *r = px + row * (size_t)y;
        uint8_t *e = a->edges + (size_t)w * (size_t)y;
        int x = 0;
#if defined(__SSE2__)
        if (y >= 1 && y + 2 < h) {
            for (e[0] = edge_bits(r, row, 0, y, w, h), x = 1; x + 6 <= w; x += 4) {
                const uint8_t *q = r + (size_t)x * 4;
                if (!(far_apart4(q, q + 4) | far_apart4(q, q + row))) {
                    memset(e + x, 0, 4);
                    continue;
                }
                const __m128i b = load4(q);
                const unsigned right = edges4(load4(q - 4), b, load4(q + 4), load4(q + 8));
                const unsigned down = edges4(load4(q - row), b, load4(q + row), load4(q + 2 * row));
                for (int k = 0; k < 4; k++)
                    e[x + k] = (uint8_t)(((right >> (4 * k)) & 7u ? EDGE_RIGHT : 0) |
                                         ((down >> (4 * k)) & 7u ? EDGE_DOWN : 0));
            }
        }
#endif
        for (; x < w; x++)
            e[x] = edge_bits(r + (size_t)x * 4, row, x, y, w, h);
    }
}

/* The area (in 1/256ths, rounded) that the reconstructed edge cuts off
 * pixel i of a run `len` long whose ends sit at heights h0 and h1 (each -1,
 * 0 or 1: half a pixel into the second side, on the boundary, or half a
 * pixel into the first side): on the first side into *first, on the second
 * into *second. The edge runs straight from each end to height 0 at the
 * run's middle. In whole numbers (coordinates doubled, areas times 8 len),
 * so that every machine rounds alike. */
static void run_area(int len, int h0, int h1, int i, int *first, int *second)
{
    const int64_t L = len, a2 = 2 * (int64_t)i, b2 = a2 + 2;
    int64_t pos = 0, neg = 0;
    if (a2 < L && h0) { /* from the start's point down to the middle */
        const int64_t e2 = b2 < L ? b2 : L;
        const int64_t n = 2 * L * (e2 - a2) - (e2 * e2 - a2 * a2);
        if (h0 > 0)
            pos += n;
        else
            neg += n;
    }
    if (b2 > L && h1) { /* from the middle up to the end's point */
        const int64_t s2 = a2 > L ? a2 : L;
        const int64_t n = (b2 - L) * (b2 - L) - (s2 - L) * (s2 - L);
        if (h1 > 0)
            pos += n;
        else
            neg += n;
    }
    /* area = n / (8 L); in 1/256ths 32 n / L, rounded */
    *first = (int)((64 * pos + L) / (2 * L));
    *second = (int)((64 * neg + L) / (2 * L));
}

/* Gives pixel p a share `weight` of its neighbour in direction `dir`,
 * listing it the first time it gets one. */
static void set_weight(edge_aa *a, size_t p, int dir, int weight)
{
    if (!weight)
        return;
    uint8_t *k = a->weights + p * 4;
    if (!(k[0] | k[1] | k[2] | k[3]))
        a->touched[a->touched_count++] = (uint32_t)p;
    k[dir] = (uint8_t)weight;
}

/* Pass 2 for the boundary under row y, run [x0, x1]. */
static void row_run(edge_aa *a, int w, int y, int x0, int x1)
{
    const uint8_t *up = a->edges + (size_t)w * (size_t)y, *down = up + w;
    /* the steps at either end: an edge across the run's line, on the upper
     * row (the true edge reaches into it) or the lower one */
    int h0 = 0, h1 = 0;
    if (x0 > 0)
        h0 = (up[x0 - 1] & EDGE_RIGHT ? 1 : 0) - (down[x0 - 1] & EDGE_RIGHT ? 1 : 0);
    h1 = (up[x1] & EDGE_RIGHT ? 1 : 0) - (down[x1] & EDGE_RIGHT ? 1 : 0);
    /* a step of a stair has the line going on beyond it, a row up or down;
     * an edge across without that is the side of a shape: a corner, kept */
    if (h0 > 0 && !(y > 0 && (up[x0 - 1 - w] & EDGE_DOWN)))
        h0 = 0;
    if (h0 < 0 && !(down[x0 - 1] & EDGE_DOWN))
        h0 = 0;
    if (h1 > 0 && !(x1 + 1 < w && y > 0 && (up[x1 + 1 - w] & EDGE_DOWN)))
        h1 = 0;
    if (h1 < 0 && !(x1 + 1 < w && (down[x1 + 1] & EDGE_DOWN)))
        h1 = 0;
    if (!h0 && !h1)
        return; /* a straight edge along the boundary: nothing to blend */
    const int len = x1 - x0 + 1;
    for (int i = 0; i < len; i++) {
        int first, second;
        run_area(len, h0, h1, i, &first, &second);
        const size_t p = (size_t)w * (size_t)y + (size_t)(x0 + i);
        set_weight(a, p, W_DOWN, first);
        set_weight(a, p + (size_t)w, W_UP, second);
    }
}

/* Pass 2 for the boundary right of column x, run [y0, y1]. */
static void column_run(edge_aa *a, int w, int h, int x, int y0, int y1)
{
    const uint8_t *e = a->edges;
    int h0 = 0, h1 = 0;
    if (y0 > 0) {
        const size_t p = (size_t)w * (size_t)(y0 - 1) + (size_t)x;
        h0 = (e[p] & EDGE_DOWN ? 1 : 0) - (e[p + 1] & EDGE_DOWN ? 1 : 0);
    }
    {
        const size_t p = (size_t)w * (size_t)y1 + (size_t)x;
        h1 = (e[p] & EDGE_DOWN ? 1 : 0) - (e[p + 1] & EDGE_DOWN ? 1 : 0);
    }
    /* corners kept, as for rows */
    if (h0 > 0 && !(x > 0 && (e[(size_t)w * (size_t)(y0 - 1) + (size_t)x - 1] & EDGE_RIGHT)))
        h0 = 0;
    if (h0 < 0 && !(x + 2 < w && (e[(size_t)w * (size_t)(y0 - 1) + (size_t)x + 1] & EDGE_RIGHT)))
        h0 = 0;
    if (h1 > 0 &&
        !(y1 + 1 < h && x > 0 && (e[(size_t)w * (size_t)(y1 + 1) + (size_t)x - 1] & EDGE_RIGHT)))
        h1 = 0;
    if (h1 < 0 && !(y1 + 1 < h && x + 2 < w &&
                    (e[(size_t)w * (size_t)(y1 + 1) + (size_t)x + 1] & EDGE_RIGHT)))
        h1 = 0;
    if (!h0 && !h1)
        return;
    const int len = y1 - y0 + 1;
    for (int i = 0; i < len; i++) {
        int first, second;
        run_area(len, h0, h1, i, &first, &second);
        const size_t p = (size_t)w * (size_t)(y0 + i) + (size_t)x;
        set_weight(a, p, W_RIGHT, first);
        set_weight(a, p + 1, W_LEFT, second);
    }
}

/* Pass 2: the runs of edges along every row boundary and down every
 * column boundary, each handed to row_run or column_run when it ends.
 * Column runs are tracked per column while the rows go by; eight pixels
 * without edges, no run open among them, are passed over at once. */
static void find_shapes(edge_aa *a, int w, int h)
{
    int *column_start = a->column_start;
    int *open = a->open; /* column runs open in each group of 8 columns */
    for (int x = 0; x < w; x++)
        column_start[x] = -1;
    memset(open, 0, ((size_t)w / 8 + 1) * sizeof *open);
    a->touched_count = 0;
    for (int y = 0; y < h; y++) {
        const uint8_t *e = a->edges + (size_t)w * (size_t)y;
        int start = -1;
        for (int x = 0; x < w; x++) {
            if ((x & 7) == 0 && x + 8 <= w && start < 0 && !load64(e + x)) {
                /* eight without edges: the column runs open among them end */
                for (int k = x; open[x >> 3] && k < x + 8; k++)
                    if (column_start[k] >= 0) {
                        column_run(a, w, h, k, column_start[k], y - 1);
                        column_start[k] = -1;
                        open[x >> 3]--;
                    }
                x += 7;
                continue;
            }
            /* runs along the row (the boundary under it) */
            if (e[x] & EDGE_DOWN) {
                if (start < 0)
                    start = x;
            } else if (start >= 0) {
                row_run(a, w, y, start, x - 1);
                start = -1;
            }
            /* runs down the columns, tracked per column */
            if (e[x] & EDGE_RIGHT) {
                if (column_start[x] < 0) {
                    column_start[x] = y;
                    open[x >> 3]++;
                }
            } else if (column_start[x] >= 0) {
                column_run(a, w, h, x, column_start[x], y - 1);
                column_start[x] = -1;
                open[x >> 3]--;
            }
        }
        if (start >= 0)
            row_run(a, w, y, start, w - 1);
    }
    for (int x = 0; x < w; x++)
        if (column_start[x] >= 0)
            column_run(a, w, h, x, column_start[x], h - 1);
}

/* Pass 3: each pixel with a share of its neighbours mixes them in, from
 * the pair (above and below, or left and right) that gives it more; all
 * are computed from the picture as given, then written, and the weights
 * are cleared for the next picture. */
static void blend(edge_aa *a, uint8_t *rgba, int w, int h, size_t stride)
{
    for (int i = 0; i < a->touched_count; i++) {
        const size_t p = a->touched[i];
        const int x = (int)(p % (size_t)w), y = (int)(p / (size_t)w);
        const uint8_t *k = a->weights + p * 4;
        const uint8_t *o = rgba + stride * (size_t)y + (size_t)x * 4, *n1, *n2;
        int w1, w2;
        if (k[W_UP] + k[W_DOWN] >= k[W_LEFT] + k[W_RIGHT]) {
            n1 = y > 0 ? o - stride : o, n2 = y + 1 < h ? o + stride : o;
            w1 = k[W_UP], w2 = k[W_DOWN];
        } else {
            n1 = x > 0 ? o - 4 : o, n2 = x + 1 < w ? o + 4 : o;
            w1 = k[W_LEFT], w2 = k[W_RIGHT];
        }
        const int w0 = 256 - w1 - w2;
        assert(w0 >= 0);
        uint8_t *q = a->blended + (size_t)i * 4;
        for (int c = 0; c < 4; c++)
            q[c] = (uint8_t)((o[c] * w0 + n1[c] * w1 + n2[c] * w2 + 128) >> 8);
    }
    for (int i = 0; i < a->touched_count; i++) {
        const size_t p = a->touched[i];
        memcpy(rgba + stride * (p / (size_t)w) + (p % (size_t)w) * 4, a->blended + (size_t)i * 4,
               4);
        memset(a->weights + p * 4, 0, 4);
    }
    a->edge_pixels = a->touched_count;
}

/* No edge between a pixel to keep and its neighbours: the pixel's own
 * edges (right and down) and those of the pixels left of and above it. */
static void keep_pixels(edge_aa *a, int w, int h, const uint8_t *keep)
{
    for (int y = 0; y < h; y++) {
        const uint8_t *k = keep + (size_t)w * (size_t)y;
        uint8_t *e = a->edges + (size_t)w * (size_t)y;
        for (int x = 0; x < w; x++) {
            if (x + 8 <= w && !load64(k + x)) {
                x += 7;
                continue;
            }
            if (!k[x])
                continue;
            e[x] = 0;
            if (x > 0)
                e[x - 1] &= (uint8_t)~EDGE_RIGHT;
            if (y > 0)
                e[x - w] &= (uint8_t)~EDGE_DOWN;
        }
    }
}

void edge_aa_apply(edge_aa *a, uint8_t *rgba, int w, int h, size_t stride, const uint8_t *keep)
{
    assert(a && rgba && w > 0 && h > 0 && stride >= (size_t)w * 4);
    reserve(a, w, h);
    find_edges(a, rgba, w, h, stride);
    if (keep)
        keep_pixels(a, w, h, keep);
    find_shapes(a, w, h);
    blend(a, rgba, w, h, stride);
}

void edge_aa_deinit(edge_aa *a)
{
    if (!a)
        return;
    free(a->edges);
    free(a->weights);
    free(a->touched);
    free(a->blended);
    free(a->column_start);
    free(a->open);
    *a = (edge_aa){0};
}
