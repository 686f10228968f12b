/* frame_labels.c - the 3D view's labels: GPU names and their counts, the
 * blocks' stages, tensors in flight, all-reduces, replicas, the cluster
 * level's axes and the close-up level's faces, each placed on its object
 * and never over another label (frame_internal.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame_internal.h"
#include "program.h"

/* ---- labels in 3D -------------------------------------------------------- */

/* Where a label sits against the projection of its world point. */
typedef enum label_side {
    LABEL_CENTRED, /* on the point: the object it names */
    LABEL_BELOW,   /* hung under the point: under the scene's front edge */
    LABEL_ABOVE,   /* standing on the point: over the scene's back edge */
    LABEL_LEFT,    /* ending at the point: left of the scene */
} label_side;

/* How far a label moves from its side's place (place_label_moved): rows
 * further that way (below or above; for LABEL_LEFT, lines of text down),
 * and across by a share of its width. */
typedef struct label_shift {
    float rows, across;
} label_shift;

/* Whether the segment from (ax, ay) to (bx, by) passes over a label
 * already placed: sampled every few pixels, which is finer than a label. */
static bool crosses_labels(const label_set *ls, float ax, float ay, float bx, float by)
{
    const float length = hypotf(bx - ax, by - ay);
    const int steps = (int)(length / 4) + 1;
    for (int k = 0; k <= steps; k++) {
        const float t = (float)k / (float)steps;
        const float x = ax + t * (bx - ax), y = ay + t * (by - ay);
        for (int i = 0; i < ls->count; i++) {
            const label_rect *r = &ls->placed[i];
            if (x > r->x0 && x < r->x1 && y > r->y0 && y < r->y1)
                return true;
        }
    }
    return false;
}

/* Where a label of `text` would stand against the projection of a world
 * point, moved by `shift`: its plate's rectangle and the text's centre
 * (px, py). False where the point is behind the eye, or the plate would
 * leave the 3D view or cover a label already placed. */
typedef struct label_spot {
    label_rect r;
    float px, py;
} label_spot;

static bool label_find_spot(frame_renderer *f, const label_set *ls, const frame_layout *l,
                            const camera *cam, const float world[3], label_side side,
                            label_shift shift, const char *text, label_spot *out)
{
    float px, py;
    if (ls->count >= MAX_LABELS || !text[0])
        return false;
    if (!camera_project(cam, l->view_w / l->view_h, world, (int)l->view_w, (int)l->view_h, &px,
                        &py))
        return false;
    px += l->view_x, py += l->view_y;
    text_metrics m = text_font_metrics(&f->font, FRAME_FONT_SMALL);
    /* one line, or two ("B 0\nstage 4"): as wide as the wider, centred on
     * the point as a whole */
    const char *nl = strchr(text, '\n');
    const int n = nl ? 2 : 1;
    char first[96];
    snprintf(first, sizeof first, "%.*s", nl ? (int)(nl - text) : (int)strlen(text), text);
    float w = text_width(&f->font, FRAME_FONT_SMALL, first);
    if (n == 2)
        w = fmaxf(w, text_width(&f->font, FRAME_FONT_SMALL, nl + 1));
    const float line_h = m.ascent + m.descent;
    const float extra = (float)(n - 1) * line_h; /* the height past one line */
    float pad = m.ascent * 0.25f;
    const float half_h = m.ascent / 2 + pad + m.descent * 0.75f + extra / 2;
    const float row = 2 * half_h + pad; /* one label lower or higher */
    if (side == LABEL_BELOW)
        py += half_h + pad + shift.rows * row;
    else if (side == LABEL_ABOVE)
        py -= half_h + pad + shift.rows * row;
    else if (side == LABEL_LEFT)
        px -= w / 2 + 2 * pad, py += shift.rows * line_h;
    px += shift.across * (w + 2 * pad);
    const label_rect r = {px - w / 2 - pad, py - m.ascent / 2 - pad - m.descent / 2 - extra / 2,
                          px + w / 2 + pad, py + m.ascent / 2 + pad + m.descent + extra / 2};
    if (r.x0 < l->view_x || r.y0 < l->view_y || r.x1 > l->view_x + l->view_w ||
        r.y1 > l->view_y + l->view_h || overlaps(ls, r))
        return false;
    *out = (label_spot){r, px, py};
    return true;
}

/* Draws a label against the projection of a world point, on a plate,
 * unless it would cover one already placed or leave the 3D view: the
 * labels placed first win (draw_labels' order). True when drawn.
 * Moved by `shift`; with a leader (not NULL: a point of the
 * frame) drawn from the label's nearer edge to it, a place whose leader
 * would cross another label is no place. */
static bool place_label_moved(frame_renderer *f, label_set *ls, const frame_layout *l,
                              const camera *cam, const float world[3], label_side side,
                              label_shift shift, const float *leader, const char *text,
                              const theme *th, rgba8 accent)
{
    label_spot spot;
    if (!label_find_spot(f, ls, l, cam, world, side, shift, text, &spot))
        return false;
    const label_rect r = spot.r;
    text_metrics m = text_font_metrics(&f->font, FRAME_FONT_SMALL);
    const float pad = m.ascent * 0.25f;
    char lines[2][96];
    const char *nl = strchr(text, '\n');
    const int n = nl ? 2 : 1;
    snprintf(lines[0], sizeof lines[0], "%.*s", nl ? (int)(nl - text) : (int)strlen(text), text);
    snprintf(lines[1], sizeof lines[1], "%s", nl ? nl + 1 : "");
    const float line_h = m.ascent + m.descent;
    const float extra = (float)(n - 1) * line_h;
    /* a leader leaves the edge that faces its point, as near above or
     * below it as the edge reaches: short, and upright where it can be */
    const float lead_y = leader && leader[1] < r.y0 ? r.y0 : r.y1;
    const float lead_x = leader ? fminf(fmaxf(leader[0], r.x0 + 4 * l->line_px), r.x1 - pad) : 0;
    if (leader && crosses_labels(ls, lead_x, lead_y, leader[0], leader[1]))
        return false;
    ls->placed[ls->count++] = r;
    if (leader)
        draw2d_line(&f->batch, lead_x, lead_y, leader[0], leader[1], l->line_px, accent);
    draw2d_rect(&f->batch, r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0, colour_with_alpha(th->panel, 215));
    draw2d_rect(&f->batch, r.x0, r.y0, 3 * l->line_px, r.y1 - r.y0, accent);
    for (int k = 0; k < n; k++)
        text_draw(&f->font, &f->batch, FRAME_FONT_SMALL, spot.px,
                  spot.py + m.ascent / 2 - extra / 2 + (float)k * line_h, lines[k], th->text,
                  TEXT_ALIGN_CENTER);
    return true;
}

/* place_label_moved, not moved and with no leader. */
static bool place_label(frame_renderer *f, label_set *ls, const frame_layout *l, const camera *cam,
                        const float world[3], label_side side, const char *text, const theme *th,
                        rgba8 accent)
{
    return place_label_moved(f, ls, l, cam, world, side, (label_shift){0, 0}, NULL, text, th,
                             accent);
}

static void box_centre(const scene_box *b, float out[3])
{
    for (int a = 0; a < 3; a++)
        out[a] = 0.5f * (b->min[a] + b->max[a]);
}

/* The projected width in pixels of the segment a-b, or 0 when either end is
 * behind the eye. */
static float projected_length(const frame_layout *l, const camera *cam, const float a[3],
                              const float b[3])
{
    float ax, ay, bx, by;
    const float aspect = l->view_w / l->view_h;
    if (!camera_project(cam, aspect, a, (int)l->view_w, (int)l->view_h, &ax, &ay) ||
        !camera_project(cam, aspect, b, (int)l->view_w, (int)l->view_h, &bx, &by))
        return 0;
    return hypotf(bx - ax, by - ay);
}

/* Which replica each row of GPUs is, left of the row. The rows behind the
 * nearest, whose blocks mostly go unnamed, say that they do what it does
 * (data parallelism: the same steps at the same moments, on other data),
 * where a second line fits (near < 0: none says so, the cluster level). */
static void draw_replica_labels(frame_renderer *f, const scene *s, const frame_layout *l,
                                const frame_view *v, const theme *th, label_set *ls, int near)
{
    char text[48];
    for (int d = 0; d < s->replicas; d++) {
        const scene_box pl = scene_object_box(s, SCENE_GPU, 0, 0, d);
        const float p[3] = {pl.min[0] - s->unit, 0.5f * (pl.min[1] + pl.max[1]), 0};
        /* the second line hangs below the first, which stays where the
         * one-line label stands: what has room for that has room for it;
         * the shorter words where the view's edge leaves no room for the
         * longer (their first line is the widest) */
        static const char *const same[] = {"replica %d\nsame steps as %d",
                                           "replica %d\nsame as %d"};
        bool placed = false;
        for (int k = 0; k < 2 && near >= 0 && d != near && !placed; k++) {
            snprintf(text, sizeof text, same[k], d, near);
            placed = place_label_moved(f, ls, l, &v->cam, p, LABEL_LEFT, (label_shift){0.5f, 0},
                                       NULL, text, th, th->text_dim);
        }
        if (placed)
            continue;
        snprintf(text, sizeof text, "replica %d", d);
        place_label(f, ls, l, &v->cam, p, LABEL_LEFT, text, th, th->text_dim);
    }
}

/* "F 3": what a block runs, in the timeline's letters. */
static void block_text(const stage_focus *fo, char *out, size_t size)
{
    snprintf(out, size, "%s %d", action_kind_name((action_kind)fo->kind), fo->microbatch);
}

/* The replica whose row of plates is nearest the eye. */
static int nearest_replica(const scene *s, const camera *cam)
{
    float eye[3];
    camera_eye(cam, eye);
    int best = 0;
    float best_d2 = INFINITY;
    for (int d = 0; d < s->replicas; d++) {
        const scene_box a = scene_object_box(s, SCENE_GPU, 0, 0, d);
        const scene_box b = scene_object_box(s, SCENE_GPU, s->ranks - 1, 0, d);
        const float c[3] = {0.5f * (a.min[0] + b.max[0]), 0.5f * (a.min[1] + b.max[1]), 0};
        const float d2 =
            (c[0] - eye[0]) * (c[0] - eye[0]) + (c[1] - eye[1]) * (c[1] - eye[1]) + eye[2] * eye[2];
        if (d2 < best_d2)
            best_d2 = d2, best = d;
    }
    return best;
}

/* An all-reduce's label where its face (the world point c) has no room for
 * "all-reduce stage s" on one line: a third of a label to either side,
 * just over and under the face, then from its middle to a side with a
 * leader to it; each first on two lines (half as wide, leaving a
 * neighbour's room), then on one. True when drawn. */
static bool place_reduce_label(frame_renderer *f, label_set *ls, const frame_layout *l,
                               const camera *cam, const float c[3], int stage, const theme *th,
                               rgba8 accent)
{
    static const struct {
        label_side side;
        float across;
    } tries[] = {{LABEL_CENTRED, 0},   {LABEL_CENTRED, 0.3f}, {LABEL_CENTRED, -0.3f},
                 {LABEL_ABOVE, 0},     {LABEL_BELOW, 0},      {LABEL_ABOVE, 0.3f},
                 {LABEL_ABOVE, -0.3f}, {LABEL_CENTRED, 0.6f}, {LABEL_CENTRED, -0.6f}};
    enum { TRIES = sizeof tries / sizeof tries[0] };
    float q[2]; /* the face's middle in the frame, for a leader */
    if (!camera_project(cam, l->view_w / l->view_h, c, (int)l->view_w, (int)l->view_h, &q[0],
                        &q[1]))
        return false;
    q[0] += l->view_x, q[1] += l->view_y;
    char text[48];
    for (int k = 0; k < 2 * TRIES; k++) {
        snprintf(text, sizeof text, k < TRIES ? "all-reduce\nstage %d" : "all-reduce stage %d",
                 stage);
        /* a label whose middle is off the face points at it */
        const float across = tries[k % TRIES].across;
        if (place_label_moved(f, ls, l, cam, c, tries[k % TRIES].side, (label_shift){0, across},
                              fabsf(across) > 0.5f ? q : NULL, text, th, accent))
            return true;
    }
    return false;
}

typedef enum block_pass { BLOCKS_RUNNING, BLOCKS_IDLE, BLOCKS_ALL } block_pass;

/* What each block of replica d's row does, standing on it: what it runs
 * ("F 3"), its all-reduce, and its stage where blocks need naming (a GPU
 * holds other stages than its rank's own, as interleaved, V or a CSV's
 * placement) or where nothing else says it (`stages_named`: the names say
 * counts, not stages); running blocks first. */
static void draw_block_labels(frame_renderer *f, const scene *s, const scene_state *st,
                              const frame_layout *l, const frame_view *v, const theme *th,
                              label_set *ls, int d, block_pass which, bool stages_named)
{
    char text[96];
    bool stage_row = s->stages != s->ranks || stages_named;
    for (int stage = 0; stage < s->stages; stage++)
        stage_row = stage_row || s->stage_rank[stage] != stage;
    for (int pass = which == BLOCKS_IDLE; pass < (which == BLOCKS_RUNNING ? 1 : 2); pass++)
        for (int stage = 0; stage < s->stages; stage++) {
            const stage_focus *fo = &st->focus[stage];
            const object_state *o = &st->kind[SCENE_BLOCK][stage];
            rgba8 accent = th->text_dim;
            if ((fo->kind != ACTION_IDLE) != (pass == 0))
                continue;
            if (fo->kind != ACTION_IDLE) {
                block_text(fo, text, sizeof text);
                if (stage_row) { /* two lines, as narrow as a block */
                    const size_t n = strlen(text);
                    snprintf(text + n, sizeof text - n, "\nstage %d", stage);
                }
                accent = theme_action_colour(&th->timeline, (action_kind)fo->kind);
            } else if (o->role == SCENE_ROLE_ALLREDUCE) {
                snprintf(text, sizeof text, "all-reduce stage %d", stage);
                accent = th->role[SCENE_ROLE_ALLREDUCE];
            } else if (stage_row) {
                snprintf(text, sizeof text, "stage %d", stage);
            } else {
                continue;
            }
            /* on the block's top face; where a label placed before leaves
             * no room there, an all-reduce looks further (place_reduce_label)
             * and an idle block's stage a third of a label aside, still on
             * the block (the running blocks' labels stay put: their room is
             * the tensors' in flight) */
            scene_box b;
            scene_object_place(s, SCENE_BLOCK, stage, 0, d, o, &b);
            const float c[3] = {0.5f * (b.min[0] + b.max[0]), 0.5f * (b.min[1] + b.max[1]),
                                b.max[2]};
            if (place_label(f, ls, l, &v->cam, c, LABEL_CENTRED, text, th, accent) ||
                fo->kind != ACTION_IDLE)
                continue;
            if (o->role == SCENE_ROLE_ALLREDUCE) {
                place_reduce_label(f, ls, l, &v->cam, c, stage, th, accent);
                continue;
            }
            static const float aside[] = {0.3f, -0.3f};
            for (int k = 0; k < 2; k++)
                if (place_label_moved(f, ls, l, &v->cam, c, LABEL_CENTRED,
                                      (label_shift){0, aside[k]}, NULL, text, th, accent))
                    break;
        }
}

/* The activations a rank holds at t: micro-batches whose forward has
 * started on one of its stages and whose memory is not yet freed (the
 * timeline's live count). */
static int live_activations(const scene *s, int rank, double t)
{
    int count = 0;
    for (int stage = 0; stage < s->stages; stage++) {
        if (s->stage_rank[stage] != rank)
            continue;
        for (int m = 0; m < s->microbatches; m++) {
            const timeline_cell *c = timeline_cell_at(&s->cells, stage, m);
            count += t >= c->f_start && t < c->freed;
        }
    }
    return count;
}

/* How far the frame point (x, y) lies from the top face of GPU rank's
 * plate in replica d's row, as drawn: 0 inside its outline, else the
 * pixels to its nearest edge; INFINITY where a corner does not project. */
static float plate_gap(const scene *s, const frame_layout *l, const camera *cam, int rank, int d,
                       float x, float y)
{
    const scene_box b = scene_object_box(s, SCENE_GPU, rank, 0, d);
    const float xs[4] = {b.min[0], b.max[0], b.max[0], b.min[0]};
    const float ys[4] = {b.min[1], b.min[1], b.max[1], b.max[1]};
    float q[4][2];
    for (int k = 0; k < 4; k++) {
        const float p[3] = {xs[k], ys[k], b.max[2]};
        if (!camera_project(cam, l->view_w / l->view_h, p, (int)l->view_w, (int)l->view_h, &q[k][0],
                            &q[k][1]))
            return INFINITY;
        q[k][0] += l->view_x, q[k][1] += l->view_y;
    }
    /* inside a convex outline: on one side of every edge */
    int sides = 0;
    float nearest = INFINITY;
    for (int k = 0; k < 4; k++) {
        const float *a = q[k], *c = q[(k + 1) % 4];
        const float ex = c[0] - a[0], ey = c[1] - a[1];
        const float cross = ex * (y - a[1]) - ey * (x - a[0]);
        sides += cross > 0 ? 1 : cross < 0 ? -1 : 0;
        const float len2 = ex * ex + ey * ey;
        float u = len2 > 0 ? ((x - a[0]) * ex + (y - a[1]) * ey) / len2 : 0;
        u = u < 0 ? 0 : u > 1 ? 1 : u;
        nearest = fminf(nearest, hypotf(x - a[0] - u * ex, y - a[1] - u * ey));
    }
    return abs(sides) == 4 ? 0 : nearest;
}

/* Whether a count's label centred at (x, y) reads as GPU rank's of row d:
 * no plate around it (the next GPU's, the rows' in front and behind) is
 * nearer than its own. */
static bool reads_as_own(const scene *s, const frame_layout *l, const camera *cam, int rank, int d,
                         float x, float y)
{
    const float own = plate_gap(s, l, cam, rank, d, x, y);
    for (int r = rank - 1; r <= rank + 1; r++)
        for (int e = d - 1; e <= d + 1; e++)
            if ((r != rank || e != d) && r >= 0 && r < s->ranks && e >= 0 && e < s->replicas &&
                plate_gap(s, l, cam, r, e, x, y) < own)
                return false;
    return true;
}

/* Where a GPU's count goes (draw_count_labels): the first of its places
 * where a label of `text` has room, and the spot it would take there
 * (label_find_spot), not drawn; false where none has. A place must read
 * as the GPU's own (reads_as_own) but in a crowded row (`crowded`: names
 * at every k-th GPU, P=16 at 1080p), where a label reaches over the next
 * plates wherever it stands, and the counts by the towers, read together
 * as 16 - k, are the row's only measure of memory. */
typedef struct count_place {
    float at[3];
    label_side side;
    label_shift shift;
} count_place;

static bool find_count_place(frame_renderer *f, const scene *s, const scene_state *st,
                             const frame_layout *l, const frame_view *v, const label_set *ls, int d,
                             int rank, const char *text, bool plate_only, bool crowded,
                             count_place *out, label_spot *spot)
{
    const int J = s->slots;
    int tiles = 0;
    for (int stage = 0; stage < s->stages; stage++)
        if (s->stage_rank[stage] == rank)
            for (int j = 0; j < J; j++)
                tiles += st->kind[SCENE_STACK][(size_t)stage * J + j].visible;
    /* an empty tower's count ("0 held") where its first tile would stand */
    const object_state top_tile = {.visible = 1, .travel = (float)(tiles > 0 ? tiles - 1 : 0)};
    scene_box top;
    scene_object_place(s, SCENE_STACK, s->rank_stage0[rank], 0, d, &top_tile, &top);
    /* Under the tower, on the plate: read as this row's, not the row
     * behind's, as a number over the tower was; over it where a block's
     * label takes that place. */
    const float base[3] = {0.5f * (top.min[0] + top.max[0]), top.min[1], 0};
    const float over[3] = {base[0], 0.5f * (top.min[1] + top.max[1]), top.max[2]};
    /* then either of those a label's width aside, still by the tower.
     * Where a GPU runs one stage, whose name its own label gives, the
     * plate is the count's: every place on it comes first, as over the
     * tower the number reaches toward the row behind, whose it could be
     * taken for. Where a GPU runs several, the plate's room beside the
     * tower is where their idle blocks are named (which stage is where),
     * and the places alternate. */
    static const struct {
        bool over;
        float across;
    } plate_first[] = {{false, 0}, {false, 1}, {false, -1}, {true, 0}, {true, 1},
                       {true, -1}, {false, 2}, {false, -2}, {true, 2}, {true, -2}},
      alternate[] = {{false, 0}, {true, 0},  {false, 1}, {true, 1},   {false, -1},
                     {true, -1}, {false, 2}, {true, 2},  {false, -2}, {true, -2}};
    const bool one_stage = s->stages == s->ranks;
    for (size_t k = 0; k < sizeof plate_first / sizeof plate_first[0]; k++) {
        const bool up = one_stage ? plate_first[k].over : alternate[k].over;
        if (up && (tiles == 0 || plate_only))
            continue;
        const float across = one_stage ? plate_first[k].across : alternate[k].across;
        count_place c = {{0}, up ? LABEL_ABOVE : LABEL_BELOW, {0, across}};
        memcpy(c.at, up ? over : base, sizeof c.at);
        if (label_find_spot(f, ls, l, &v->cam, c.at, c.side, c.shift, text, spot) &&
            (crowded || reads_as_own(s, l, &v->cam, rank, d, spot->px, spot->py))) {
            *out = c;
            return true;
        }
    }
    return false;
}

/* Rooms held for the counts while the tensors are named: the n rooms
 * placed just before ls->placed[end]. */
typedef struct count_hold {
    int n, end;
} count_hold;

/* Holds, in ls, the room on its plate beside its tower that each GPU's
 * count of replica d's row would take ("4 held"), for the tensors' labels
 * placed next to go elsewhere (a tensor is named in any row: every replica
 * sends the same; a count pushed off its plate stood between the rows and
 * was taken for the row behind's). Returns what it held: the last rooms
 * of ls, which release_counts gives back before the counts are drawn, or
 * for a tensor with no room left elsewhere. */
static count_hold hold_count_room(frame_renderer *f, const scene *s, const scene_state *st,
                                  const frame_layout *l, const frame_view *v, label_set *ls, int d,
                                  bool crowded)
{
    int held = 0;
    for (int rank = 0; rank < s->ranks && ls->count < MAX_LABELS; rank++) {
        const int count = live_activations(s, rank, st->t);
        char text[32];
        count_place c;
        label_spot spot;
        snprintf(text, sizeof text, "%d held", count);
        if (count > 0 &&
            find_count_place(f, s, st, l, v, ls, d, rank, text, true, crowded, &c, &spot)) {
            ls->placed[ls->count++] = spot.r;
            held++;
        }
    }
    return (count_hold){.n = held, .end = ls->count};
}

/* Gives back the rooms hold_count_room held (once; then none are held). */
static void release_counts(label_set *ls, count_hold *h)
{
    const int after = ls->count - h->end, first = h->end - h->n;
    memmove(&ls->placed[first], &ls->placed[h->end], (size_t)after * sizeof ls->placed[0]);
    ls->count -= h->n;
    h->end -= h->n;
    h->n = 0;
}

/* The tensors in flight, each labelled once: over the middle of its way in
 * the row nearest the eye, else in the next row, ..., else under the
 * nearest row's names or over the farthest row with a leader to it (every
 * replica sends the same tensors at the same time). The
 * middle of the way is the gap between two plates (an arc's top), and a
 * label that stays still while its tensor crosses under it reads in a
 * video. Not those that have arrived, shown faint a moment longer
 * (scene.h, "Zero time"). The label gives the micro-batch, an arrow the
 * way the tensor goes on screen and, where GPUs hold several, its stages. */
static void draw_tensor_labels(frame_renderer *f, const scene *s, const scene_state *st,
                               const frame_layout *l, const frame_view *v, const theme *th,
                               label_set *ls, int near, count_hold *counts)
{
    const int J = s->slots;
    char text[96];
    for (int i = 0; i < (int)scene_kind_count(s, SCENE_SLAB); i++) {
        const object_state *o = &st->kind[SCENE_SLAB][i];
        if (!o->visible || !(o->flash > 0))
            continue;
        object_state a0 = *o, a1 = *o, half = *o;
        a0.travel = 0, a1.travel = 1, half.travel = 0.5f;
        scene_box b0, b1;
        if (!scene_object_place(s, SCENE_SLAB, i / J, i % J, near, &a0, &b0) ||
            !scene_object_place(s, SCENE_SLAB, i / J, i % J, near, &a1, &b1))
            continue;
        float p0x, p0y, p1x, p1y;
        const float aspect = l->view_w / l->view_h;
        bool right = true;
        if (camera_project(&v->cam, aspect, b0.min, (int)l->view_w, (int)l->view_h, &p0x, &p0y) &&
            camera_project(&v->cam, aspect, b1.min, (int)l->view_w, (int)l->view_h, &p1x, &p1y))
            right = p1x >= p0x;
        int first, end;
        scene_slot_members(s, i % J, &first, &end);
        char mb[32];
        if (end - first == 1)
            snprintf(mb, sizeof mb, "mb %d", first);
        else
            snprintf(mb, sizeof mb, "mb %d–%d", first, end - 1);
        const bool grad = o->label == SCENE_LABEL_GRAD;
        /* Where a GPU holds several stages, the stages it goes between,
         * the arrow as it goes on screen ("x mb 4: stage 2 → 3", "∇ mb 1:
         * stage 1 ← 2"): the way alone does not say which (2 -> 3 and
         * 6 -> 7 run between the same two GPUs), and readers asked for the
         * sender where the label named only where it went. (Under one
         * stage a GPU the longer label lost its place between frames and
         * when presenting; there the arrow between GPU k and k+1 says it.) */
        const int from = i / J + (grad ? 1 : 0), to = i / J + (grad ? 0 : 1);
        if (s->stages == s->ranks) /* GPU k runs stage k: the arrow says it */
            snprintf(text, sizeof text, "%s%s%s%s", right ? "" : "← ", grad ? "∇ " : "x ", mb,
                     right ? " →" : "");
        else if (right)
            snprintf(text, sizeof text, "%s%s: stage %d → %d", grad ? "∇ " : "x ", mb, from, to);
        else
            snprintf(text, sizeof text, "%s%s: stage %d ← %d", grad ? "∇ " : "x ", mb, to, from);
        bool placed = false;
        for (int k = 0; k < s->replicas && !placed; k++) {
            const int d = k == 0 ? near : k <= near ? k - 1 : k;
            scene_box mid;
            scene_object_place(s, SCENE_SLAB, i / J, i % J, d, &half, &mid);
            float c[3];
            box_centre(&mid, c);
            c[2] = mid.max[2];
            placed = place_label(f, ls, l, &v->cam, c, LABEL_ABOVE, text, th, th->role[o->role]);
        }
        if (placed)
            continue;
        /* a tensor named matters more than a count kept on its plate */
        release_counts(ls, counts);
        /* No room among the plates: under the nearest row's names, else
         * over the farthest row, in line with the middle of the way, with a
         * leader to the tensor; where a name or a block's label is in the
         * way, a row further out or half a label aside (a larger text, in
         * presenting, leaves less room). */
        const int far = near == 0 ? s->replicas - 1 : 0;
        scene_box mid, now;
        scene_object_place(s, SCENE_SLAB, i / J, i % J, near, &half, &mid);
        scene_object_place(s, SCENE_SLAB, i / J, i % J, near, o, &now);
        const scene_box front = scene_object_box(s, SCENE_GPU, 0, 0, near);
        const scene_box back = scene_object_box(s, SCENE_GPU, 0, 0, far);
        const float x = 0.5f * (mid.min[0] + mid.max[0]);
        const float under[3] = {x, front.min[1], 0};
        const float over[3] = {x, near == 0 ? back.max[1] : back.min[1], back.max[2]};
        float c[3], q[2];
        box_centre(&now, c);
        if (!camera_project(&v->cam, aspect, c, (int)l->view_w, (int)l->view_h, &q[0], &q[1]))
            continue;
        q[0] += l->view_x, q[1] += l->view_y;
        static const label_shift tries[] = {{1, 0}, {1, -0.5f}, {1, 0.5f},
                                            {2, 0}, {2, -0.5f}, {2, 0.5f}};
        enum { TRIES = sizeof tries / sizeof tries[0] };
        bool placed_out = false;
        for (int k = 0; k < TRIES && !placed_out; k++)
            placed_out = place_label_moved(f, ls, l, &v->cam, under, LABEL_BELOW, tries[k], q, text,
                                           th, th->role[o->role]);
        for (int k = 0; k < TRIES && !placed_out; k++)
            placed_out = place_label_moved(f, ls, l, &v->cam, over, LABEL_ABOVE,
                                           (label_shift){tries[k].rows - 1, tries[k].across}, q,
                                           text, th, th->role[o->role]);
    }
}

/* Each GPU's live activations in replica d's row, by its tower: the number
 * its tiles count (a tile holds slot_size micro-batches where they are
 * many), "4 held" where every count of the row has room for the word (a
 * bare number beside a tower was read as a micro-batch's), else "4".
 * `empty` says which: the towers holding some, or the empty ones ("0 held",
 * where a reader would otherwise guess from a missing number), last of all
 * labels, as they take the room of nothing that happens, and only on the
 * plate (with no tower under it, a count over one's place would stand on
 * the row behind). An empty tower's count is worded or absent. */
static bool draw_count_labels(frame_renderer *f, const scene *s, const scene_state *st,
                              const frame_layout *l, const frame_view *v, const theme *th,
                              label_set *ls, int d, bool empty, bool worded, bool crowded)
{
    char text[32];
    if (!empty) {
        const int held = ls->count;
        for (int rank = 0; rank < s->ranks && worded; rank++) {
            const int count = live_activations(s, rank, st->t);
            count_place c;
            label_spot spot;
            snprintf(text, sizeof text, "%d held", count);
            if (count == 0)
                continue;
            if (find_count_place(f, s, st, l, v, ls, d, rank, text, false, crowded, &c, &spot)) {
                ls->placed[ls->count++] = spot.r; /* held while the others try */
                continue;
            }
            /* a count with room for neither form does not make the others bare */
            snprintf(text, sizeof text, "%d", count);
            worded =
                !find_count_place(f, s, st, l, v, ls, d, rank, text, false, crowded, &c, &spot);
        }
        ls->count = held; /* the trial's places, given back */
    }
    if (empty && !worded)
        return worded;
    for (int rank = 0; rank < s->ranks; rank++) {
        const int count = live_activations(s, rank, st->t);
        count_place c;
        label_spot spot;
        if ((count == 0) != empty)
            continue;
        snprintf(text, sizeof text, worded ? "%d held" : "%d", count);
        if (find_count_place(f, s, st, l, v, ls, d, rank, text, false, crowded, &c, &spot))
            place_label_moved(f, ls, l, &v->cam, c.at, c.side, c.shift, NULL, text, th,
                              th->role[SCENE_ROLE_ACTIVATION]);
    }
    return worded;
}

/* Each GPU's name in a row behind the nearest: on its plate's back edge,
 * over the plate on screen, away from the row in front's blocks; else on
 * its front edge where that place is taken. */
static void draw_gpu_names(frame_renderer *f, const scene *s, const frame_layout *l,
                           const frame_view *v, const theme *th, label_set *ls, int d)
{
    static const float places[][2] = {{0.5f, 1}, {0.2f, 1}, {0.8f, 1}, {0.3f, 0}, {0.75f, 0}};
    char text[32];
    for (int rank = 0; rank < s->ranks; rank++) {
        const scene_box b = scene_object_box(s, SCENE_GPU, rank, 0, d);
        snprintf(text, sizeof text, "GPU %d", rank);
        for (size_t k = 0; k < sizeof places / sizeof places[0]; k++) {
            const float p[3] = {b.min[0] + places[k][0] * (b.max[0] - b.min[0]),
                                b.min[1] + places[k][1] * (b.max[1] - b.min[1]), b.max[2]};
            if (place_label(f, ls, l, &v->cam, p, LABEL_CENTRED, text, th, th->text))
                break;
        }
    }
}

/* Where the nearest row's name of `rank` hangs from: under its plate's
 * front edge, left of the middle, clear of the tower at its right. */
static void near_name_anchor(const scene *s, int rank, int d, float p[3])
{
    const scene_box b = scene_object_box(s, SCENE_GPU, rank, 0, d);
    p[0] = b.min[0] + 0.3f * (b.max[0] - b.min[0]), p[1] = b.min[1], p[2] = b.max[2];
}

/* A GPU's name in one of draw_near_gpu_names' forms. */
enum { NAME_WITH_COUNT, NAME_BARE };
static void gpu_name(char *text, size_t size, int form, int rank, int held)
{
    if (form == NAME_WITH_COUNT)
        snprintf(text, size, "GPU %d \u00b7 %d held", rank, held);
    else
        snprintf(text, size, "GPU %d", rank);
}

/* What the nearest row's names say (draw_near_gpu_names). */
typedef struct near_names {
    bool counts; /* each GPU's count ("GPU 1 · 3 held"); the blocks say their stage */
    int stride;  /* every stride-th GPU named; 1: each */
} near_names;

/* Whether every name of the nearest row (replica d) in this form, at each
 * stride-th rank, has room in the view beside the others, none drawn. Not
 * beside the labels already placed: a card over a few of the names
 * (inspect's details) hides those, and does not change how the others are
 * written. */
static bool near_names_fit(frame_renderer *f, const scene *s, const frame_layout *l,
                           const frame_view *v, int d, int form, int first, int stride)
{
    const int most = s->microbatches * (s->stages / s->ranks);
    label_set names; /* the names alone */
    names.count = 0;
    label_set *ls = &names;
    bool all = true;
    for (int rank = first; rank < s->ranks && all; rank += stride) {
        char text[48];
        float p[3];
        label_spot spot;
        gpu_name(text, sizeof text, form, rank, most);
        near_name_anchor(s, rank, d, p);
        all = label_find_spot(f, ls, l, &v->cam, p, LABEL_BELOW, (label_shift){0, 0}, text, &spot);
        if (all)
            ls->placed[ls->count++] = spot.r; /* held while the others try */
    }
    return all;
}

/* The names of the row nearest the eye, first of all labels: hung under
 * each plate's front edge, clear of what stands on the plate, and never
 * moved by what comes and goes around them. Where every name of the row
 * has room for it, the name says how many activations its GPU holds
 * ("GPU 1 · 3 held"), and the blocks then say their stage (draw_block_labels):
 * a count by the tower stood between the rows, or beside the next GPU, and
 * readers could not tell whose it was. Room is measured for the most a GPU
 * can hold, so that the form holds from frame to frame. (On two lines a
 * name would take the room below, where a tensor's label goes when
 * presenting.) Otherwise the names are the bare "GPU 1" (a row says it for
 * all or for none), and where not even those all have room (P=16 at
 * 1080p), every k-th GPU is named, at the smallest step k that has room
 * for all of them, as the cluster level labels its axis: a row of names at
 * a regular step reads as an axis, where names left out here and there,
 * and the rows behind naming others, left readers unsure which plate a
 * name was on. */
static near_names draw_near_gpu_names(frame_renderer *f, const scene *s, const scene_state *st,
                                      const frame_layout *l, const frame_view *v, const theme *th,
                                      label_set *ls, int d)
{
    int form = NAME_WITH_COUNT;
    if (!near_names_fit(f, s, l, v, d, form, 0, 1))
        form = NAME_BARE;
    /* from GPU 0, else from the next (the nearest corner's name can fall
     * past the view's edge) */
    int stride = 1, first = 0;
    while (form == NAME_BARE && stride < s->ranks) {
        for (first = 0; first < stride; first++)
            if (near_names_fit(f, s, l, v, d, form, first, stride))
                break;
        if (first < stride)
            break;
        first = 0;
        stride++;
    }
    for (int rank = first; rank < s->ranks; rank += stride) {
        char text[48];
        float p[3];
        gpu_name(text, sizeof text, form, rank, live_activations(s, rank, st->t));
        near_name_anchor(s, rank, d, p);
        place_label(f, ls, l, &v->cam, p, LABEL_BELOW, text, th, th->text);
    }
    return (near_names){.counts = form == NAME_WITH_COUNT, .stride = stride};
}

/* The labels of the GPU level (scene.h, "Levels"), each on or under its
 * object, in the order that decides which wins where two would meet: the
 * nearest row's names and the replicas' (both fixed), then the rest of the
 * nearest row (what each block does, what is in flight, what each GPU
 * holds), then the other rows' names and blocks. Replicas run the same
 * schedule, hold the same and send the same tensors at the same time, so
 * one row says it all: the others are named, said to take the same steps,
 * and told what they run as far as room allows, but carry no counts that a
 * tower of the row in front could be taken to own, nor their idle blocks'
 * stages (readers took a lone "stage 2" over the row behind for the front
 * row's, or for a row's title). */
static void draw_gpu_labels(frame_renderer *f, const scene *s, const scene_state *st,
                            const frame_layout *l, const frame_view *v, const theme *th,
                            label_set *ls)
{
    const int near = nearest_replica(s, &v->cam);
    const near_names names = draw_near_gpu_names(f, s, st, l, v, th, ls, near);
    /* the rows, early: fixed, and saying that the rows behind do as the
     * nearest, which the labels after tell in full */
    if (s->replicas > 1)
        draw_replica_labels(f, s, l, v, th, ls, near);
    draw_block_labels(f, s, st, l, v, th, ls, near, BLOCKS_RUNNING, names.counts);
    count_hold held = {0, ls->count};
    if (!names.counts)
        held = hold_count_room(f, s, st, l, v, ls, near, names.stride > 1);
    draw_tensor_labels(f, s, st, l, v, th, ls, near, &held);
    release_counts(ls, &held);
    const bool worded = !names.counts && draw_count_labels(f, s, st, l, v, th, ls, near, false,
                                                           true, names.stride > 1);
    for (int d = 0; d < s->replicas && names.stride == 1; d++)
        if (d != near)
            draw_gpu_names(f, s, l, v, th, ls, d);
    draw_block_labels(f, s, st, l, v, th, ls, near, BLOCKS_IDLE, names.counts);
    for (int d = 0; d < s->replicas; d++)
        if (d != near)
            draw_block_labels(f, s, st, l, v, th, ls, d, BLOCKS_RUNNING, names.counts);
    if (worded)
        draw_count_labels(f, s, st, l, v, th, ls, near, true, true, names.stride > 1);
}

/* The cluster level's labels: no GPU is large enough to carry its own, so
 * the axes are labelled, every k-th rank under the front row and each
 * replica left of its row, at the widest spacing that keeps them apart. */
static void draw_cluster_labels(frame_renderer *f, const scene *s, const scene_state *st,
                                const frame_layout *l, const frame_view *v, const theme *th,
                                label_set *ls)
{
    char text[64];
    const scene_box a = scene_object_box(s, SCENE_GPU, 0, 0, 0);
    const scene_box b = scene_object_box(s, SCENE_GPU, s->ranks > 1 ? 1 : 0, 0, 0);
    const float pa[3] = {a.min[0], a.min[1], 0}, pb[3] = {b.min[0], b.min[1], 0};
    const float pitch = s->ranks > 1 ? projected_length(l, &v->cam, pa, pb) : 1e9f;
    snprintf(text, sizeof text, "rank %d", s->ranks - 1);
    const float need = 1.3f * text_width(&f->font, FRAME_FONT_SMALL, text);
    int every = 1;
    while (every < s->ranks && pitch * (float)every < need)
        every *= 2;
    for (int rank = 0; rank < s->ranks; rank += every) {
        const scene_box pl = scene_object_box(s, SCENE_GPU, rank, 0, 0);
        const float p[3] = {0.5f * (pl.min[0] + pl.max[0]), pl.min[1], 0};
        /* with the number its column's height stands for: heights seen in
         * perspective are hard to compare, a few numbers anchor them */
        snprintf(text, sizeof text, "rank %d\n%d held", rank, live_activations(s, rank, st->t));
        if (!place_label(f, ls, l, &v->cam, p, LABEL_BELOW, text, th, th->text_dim)) {
            snprintf(text, sizeof text, "rank %d", rank);
            place_label(f, ls, l, &v->cam, p, LABEL_BELOW, text, th, th->text_dim);
        }
    }
    draw_replica_labels(f, s, l, v, th, ls, -1);
}

/* The level the view draws at: the scene, its labels and legend agree. */
scene_level frame_view_level(const scene *s, const frame_view *v, const frame_layout *l)
{
    return scene_renderer_level(s, &v->cam, l->view_w, l->view_h, (float)l->small_px);
}

void frame_draw_labels(frame_renderer *f, const scene *s, const scene_state *st,
                       const frame_layout *l, const frame_view *v, const theme *th, label_set *ls)
{
    const scene_level level = frame_view_level(s, v, l);
    if (level == SCENE_LEVEL_CLUSTER) {
        draw_cluster_labels(f, s, st, l, v, th, ls);
        return;
    }
    draw_gpu_labels(f, s, st, l, v, th, ls);
    if (level != SCENE_LEVEL_DETAIL)
        return;
    char text[64];
    /* Activations only for the micro-batch in flight on each stage. */
    for (int stage = 0; stage < s->stages; stage++) {
        const stage_focus *fo = &st->focus[stage];
        if (fo->kind == ACTION_IDLE || fo->layer < 0)
            continue;
        int m = fo->microbatch, layer = fo->layer, slot = scene_slot_of(s, m);
        struct {
            scene_kind kind;
            int index;
        } faces[2] = {{SCENE_RESIDUAL, layer}, {SCENE_HIDDEN, layer}};
        for (int k = 0; k < 2; k++) {
            object_state o = st->kind[faces[k].kind][(size_t)faces[k].index * s->slots + slot];
            if (!o.visible)
                continue;
            scene_box b = scene_object_box(s, faces[k].kind, faces[k].index, slot, 0);
            float c[3];
            box_centre(&b, c);
            scene_object_label(s, faces[k].kind, faces[k].index, (scene_label_variant)o.label, text,
                               sizeof text);
            char full[96];
            snprintf(full, sizeof full, "%s  mb %d", text, m);
            place_label(f, ls, l, &v->cam, c, LABEL_CENTRED, full, th, th->role[o.role]);
        }
    }
    /* Weights once per layer, over the last replica's back edge, where they
     * cover nothing: the upper face of each layer (W1 and W2 alternate); on
     * the face when the HUD is in the way and the face is wider than the
     * label (zoomed in), so a label never hides the face it names. */
    for (int layer = 0; layer < s->layers; layer++) {
        for (int w = 0; w < 2; w++) {
            scene_kind kind = w ? SCENE_WEIGHT2 : SCENE_WEIGHT1;
            scene_box b = scene_object_box(s, kind, layer, 0, s->replicas - 1);
            if (b.min[2] < 0)
                continue;
            float c[3];
            box_centre(&b, c);
            scene_object_label(s, kind, layer, SCENE_LABEL_PLAIN, text, sizeof text);
            float top[3] = {c[0], c[1], b.max[2]};
            if (place_label(f, ls, l, &v->cam, top, LABEL_ABOVE, text, th,
                            th->role[SCENE_ROLE_WEIGHT]))
                continue;
            const float a[3] = {b.min[0], c[1], c[2]}, z[3] = {b.max[0], c[1], c[2]};
            float ax, ay, zx, zy;
            const float aspect = l->view_w / l->view_h;
            if (camera_project(&v->cam, aspect, a, (int)l->view_w, (int)l->view_h, &ax, &ay) &&
                camera_project(&v->cam, aspect, z, (int)l->view_w, (int)l->view_h, &zx, &zy) &&
                hypotf(zx - ax, zy - ay) >= 1.5f * text_width(&f->font, FRAME_FONT_SMALL, text))
                place_label(f, ls, l, &v->cam, c, LABEL_CENTRED, text, th,
                            th->role[SCENE_ROLE_WEIGHT]);
        }
    }
}
