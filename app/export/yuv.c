/* yuv.c - RGBA to BT.709 limited-range yuv420p. See yuv.h.
 *
 * Fixed point: Y in 16 fractional bits per pixel, U and V in 20 from the
 * weighted sums of 8 pixels (weights adding to 16: 4 more bits), each with
 * half a step added before the shift, so values round to nearest. The coefficients are
 * BT.709's scaled by 219/255 (Y) and 224/255 (U, V) and rounded; U's and V's
 * sum to 0, so every grey gives exactly 128. Every intermediate stays
 * within 0 to 2^24 for Y and 0 to 2^28 for U and V: int32 is enough,
 * which keeps the loops easy for the compiler to vectorise. */
#include "yuv.h"

#include <assert.h>
#include <stddef.h>

enum {
    Y_R = 11966, /* round(0.2126 * 219/255 * 2^16) */
    Y_G = 40254, /* round(0.7152 * 219/255 * 2^16) */
    Y_B = 4064,  /* round(0.0722 * 219/255 * 2^16) */
    U_R = -6596, /* round(-0.2126 / 1.8556 * 224/255 * 2^16) */
    U_G = -22189,
    U_B = 28785, /* -(U_R + U_G): a grey is 128 */
    V_R = 28784, /* round(0.5 * 224/255 * 2^16) */
    V_G = -26145,
    V_B = -2639,                     /* -(V_R + V_G) */
    Y_ADD = (16 << 16) + (1 << 15),  /* the offset and half a step */
    C_ADD = (128 << 20) + (1 << 19), /* for sums weighing 16 pixels */
};

/* The clones: where the CPU has AVX-512 (x86-64-v4) or AVX2 the vectorised
 * loops use it (1080p: about 0.9 ms, 1.6 ms, and 2.5 ms with SSE2's 32-bit
 * multiplies); elsewhere the plain build. The choice is made once, at load
 * time. */
#if defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#endif
#endif
#ifndef VECTOR_CLONES
#define VECTOR_CLONES
#endif

/* One row's Y. Kept apart from chroma so that each loop is a plain map the
 * compiler turns into vector code. */
VECTOR_CLONES static void luma_row(const uint8_t *restrict px, int width, uint8_t *restrict y)
{
    for (int x = 0; x < width; x++) {
        const int r = px[4 * x], g = px[4 * x + 1], b = px[4 * x + 2];
        y[x] = (uint8_t)((Y_R * r + Y_G * g + Y_B * b + Y_ADD) >> 16);
    }
}

/* U and V of `pairs` whole column pairs from rows above (a), at (b, c) and
 * below (d) a chroma row, weighted 1 3 3 1: libswscale's bilinear filter
 * for halving the height, with chroma sited between b and c. */
VECTOR_CLONES static void chroma_row(const uint8_t *restrict a, const uint8_t *restrict b,
                                     const uint8_t *restrict c, const uint8_t *restrict d,
                                     int pairs, uint8_t *restrict u, uint8_t *restrict v)
{
    for (int x = 0; x < pairs; x++) {
        const int i = 8 * x;
        const int r = a[i] + a[i + 4] + 3 * (b[i] + b[i + 4] + c[i] + c[i + 4]) + d[i] + d[i + 4];
        const int g = a[i + 1] + a[i + 5] + 3 * (b[i + 1] + b[i + 5] + c[i + 1] + c[i + 5]) +
                      d[i + 1] + d[i + 5];
        const int bl = a[i + 2] + a[i + 6] + 3 * (b[i + 2] + b[i + 6] + c[i + 2] + c[i + 6]) +
                       d[i + 2] + d[i + 6];
        u[x] = (uint8_t)((U_R * r + U_G * g + U_B * bl + C_ADD) >> 20);
        v[x] = (uint8_t)((V_R * r + V_G * g + V_B * bl + C_ADD) >> 20);
    }
}

/* The chroma of an odd last column: its one pixel per row counts twice. */
static void chroma_last(const uint8_t *a, const uint8_t *b, const uint8_t *c, const uint8_t *d,
                        uint8_t *u, uint8_t *v)
{
    int sum[3];
    for (int k = 0; k < 3; k++)
        sum[k] = 2 * (a[k] + 3 * (b[k] + c[k]) + d[k]);
    *u = (uint8_t)((U_R * sum[0] + U_G * sum[1] + U_B * sum[2] + C_ADD) >> 20);
    *v = (uint8_t)((V_R * sum[0] + V_G * sum[1] + V_B * sum[2] + C_ADD) >> 20);
}

/* Row r of the picture, the edge repeated above and below it. */
static const uint8_t *row_at(const uint8_t *rgba, int stride, int height, int r)
{
    r = r < 0 ? 0 : r >= height ? height - 1 : r;
    return rgba + (ptrdiff_t)stride * r;
}

void yuv_convert_rows(const uint8_t *rgba, int stride, int width, int height, const yuv_planes *out,
                      int c0, int c1)
{
    assert(rgba && out && width >= 1 && height >= 1);
    assert(0 <= c0 && c0 <= c1 && c1 <= (height + 1) / 2);
    const int pairs = width / 2;
    for (int k = c0; k < c1; k++) {
        const int r = 2 * k;
        const uint8_t *a = row_at(rgba, stride, height, r - 1),
                      *b = row_at(rgba, stride, height, r),
                      *c = row_at(rgba, stride, height, r + 1),
                      *d = row_at(rgba, stride, height, r + 2);
        uint8_t *u = out->u + (ptrdiff_t)out->u_stride * k;
        uint8_t *v = out->v + (ptrdiff_t)out->v_stride * k;
        luma_row(b, width, out->y + (ptrdiff_t)out->y_stride * r);
        if (r + 1 < height)
            luma_row(c, width, out->y + (ptrdiff_t)out->y_stride * (r + 1));
        chroma_row(a, b, c, d, pairs, u, v);
        if (width % 2) {
            const int i = 8 * pairs;
            chroma_last(a + i, b + i, c + i, d + i, u + pairs, v + pairs);
        }
    }
}

void yuv_from_rgba(const uint8_t *rgba, int stride, int width, int height, const yuv_planes *out)
{
    yuv_convert_rows(rgba, stride, width, height, out, 0, (height + 1) / 2);
}
