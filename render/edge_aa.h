/* edge_aa.h - morphological anti-aliasing of a picture in memory (MLAA):
 * the stair-steps of hard edges are found, the straight edge each one
 * samples is reconstructed, and every pixel along it is blended with its
 * neighbour across the edge by the share of the pixel the edge cuts off.
 *
 * For: the 3D view of every frame drawn at 1x (the live window and the
 * frames of an export, render/scene_aa.h). On Mesa's llvmpipe, the CPU
 * renderer of machines without a GPU, multisampling costs about 13 ms of a
 * 1080p frame (the resolve is a shader pass over every pixel) and leaves
 * the edges the fragment shader draws (the weights' gradient fill) as
 * jagged as before; this filter reaches those too, and costs a pass over
 * the pixels plus work in proportion to the edges' length.
 *
 * What it does not do: no GL (it works on bytes read back, RGBA or BGRA
 * alike), no colour spaces (bytes blended linearly, as the GL blends), no
 * smoothing of edges that are already soft (a ramp is not an edge), no
 * rounding of corners (a shape's corner is not a stair's step), no
 * recovery of what the rasteriser dropped (features under a pixel).
 *
 * Deterministic: the same pixels in give the same pixels out, bit for bit,
 * whatever was filtered before.
 *
 * Call order:
 *     edge_aa a = {0};
 *     edge_aa_apply(&a, rgba, w, h, stride, keep);   any number of times, any sizes
 *     edge_aa_deinit(&a);
 * Scratch memory grows to the largest picture filtered and is kept.
 *
 * Errors: none (out of memory aborts, as everywhere in ppflow).
 */
#ifndef PPFLOW_EDGE_AA_H
#define PPFLOW_EDGE_AA_H

#include <stddef.h>
#include <stdint.h>

/* Two neighbouring pixels whose largest channel difference (R, G or B) is
 * at least this are on either side of an edge. */
#define EDGE_AA_THRESHOLD 24

typedef struct edge_aa {
    uint8_t *edges;    /* per pixel: bit 0 an edge with the next pixel in its row, bit 1 with
                          the pixel below it (the next row in memory) */
    uint8_t *weights;  /* per pixel, 4 bytes: its share of the pixel above, below, left and
                          right (1/256ths); zero between calls */
    uint32_t *touched; /* pixels given a share, in the order found */
    uint8_t *blended;  /* their new colours, [touched_count] x 4 bytes */
    int touched_count; /* entries of touched and blended */
    size_t capacity;   /* pixels edges, weights, touched and blended hold */
    int *column_start; /* per column: the row its open run of edges began at, or -1 */
    int *open;         /* per group of 8 columns: runs open in it */
    int columns;       /* entries of column_start (open: columns / 8 + 1) */
    long edge_pixels;  /* pixels changed by the last apply (tests, benches) */
} edge_aa;

/* Filters the w x h RGBA picture at rgba in place; rows are `stride` bytes
 * apart (at least w * 4). Alpha is blended like the colour channels. keep:
 * NULL, or w x h bytes (rows packed), nonzero where a pixel must stay as
 * it is: no edge is found between it and a neighbour (the 2D overlay over
 * a 3D view, scene_aa.h). */
void edge_aa_apply(edge_aa *a, uint8_t *rgba, int w, int h, size_t stride, const uint8_t *keep);

/* Frees the scratch memory; accepts a zeroed or deinited one. */
void edge_aa_deinit(edge_aa *a);

#endif
