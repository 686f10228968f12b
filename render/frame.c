/* frame.c - the whole picture: 3D view, timeline panel, HUD, legend,
 * caption, labels, help card. See frame.h. */
#include "frame.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "frame_whatif_card.h"
#include "frame_internal.h"
#include "program.h"

static text_font_desc font_desc(const frame_layout *l)
{
    return (text_font_desc){.sizes = {l->body_px, l->small_px, l->large_px}, .size_count = 3};
}

bool frame_renderer_init(frame_renderer *f, ppf_error *err)
{
    *f = (frame_renderer){0};
    /* Any size will do: the font is loaded now so that a missing font fails
     * here, and its sizes follow the first frame's height when it is drawn. */
    frame_layout l = frame_layout_compute(1280, 720, 0, 1);
    text_font_desc fd = font_desc(&l);
    if (!scene_renderer_init(&f->scene, err))
        goto fail;
    if (!draw2d_init(&f->batch, err))
        goto fail;
    if (!text_font_init(&f->font, &fd, err))
        goto fail;
    f->font_body_px = l.body_px;
    f->labels = ppf_calloc(1, sizeof *f->labels);
    f->ready = true;
    return true;
fail:
    frame_renderer_deinit(f);
    return false;
}

void frame_renderer_deinit(frame_renderer *f)
{
    if (!f)
        return;
    free(f->labels);
    scene_aa_deinit(&f->aa);
    text_font_deinit(&f->font);
    draw2d_deinit(&f->batch);
    scene_renderer_deinit(&f->scene);
    *f = (frame_renderer){0};
}

bool frame_cache_init(frame_cache *c, const frame_renderer *f, const scene *s, const timeline *tl,
                      ppf_error *err)
{
    assert(f->ready && s->timeline == tl && s->generation == tl->generation &&
           "a scene laid out for this build of the timeline");
    *c = (frame_cache){0};
    if (!timeline_panel_init(&c->panel, tl, err) ||
        !scene_instances_init(&c->instances, &f->scene, s, err)) {
        frame_cache_deinit(c);
        return false;
    }
    scene_state_init(&c->state, s);
    c->scene = s;
    c->tl = tl;
    c->kinds = program_kind_mask(tl->program);
    c->generation = tl->generation;
    return true;
}

void frame_cache_deinit(frame_cache *c)
{
    if (!c)
        return;
    scene_state_deinit(&c->state);
    timeline_panel_deinit(&c->panel);
    draw2d_pixels_deinit(&c->legend.inside);
    draw2d_pixels_deinit(&c->hud.inside);
    scene_instances_deinit(&c->instances);
    *c = (frame_cache){0};
}

bool frame_cache_of(const frame_cache *c, const scene *s, const timeline *tl)
{
    return c->scene && c->scene == s && c->tl == tl && c->generation == tl->generation &&
           s->generation == tl->generation;
}

/* Re-renders the glyph atlas when the layout's text sizes changed; false
 * (the old size stays) only when the font cannot be re-rendered. */
static bool fit_font(frame_renderer *f, const frame_layout *l, ppf_error *err)
{
    if (l->body_px == f->font_body_px && l->small_px == f->font.sizes[FRAME_FONT_SMALL] &&
        l->large_px == f->font.sizes[FRAME_FONT_LARGE])
        return true;
    text_font_desc fd = font_desc(l);
    if (!text_font_resize(&f->font, &fd, err))
        return false;
    f->font_body_px = l->body_px;
    return true;
}

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
static scene_level view_level(const scene *s, const frame_view *v, const frame_layout *l)
{
    return scene_renderer_level(s, &v->cam, l->view_w, l->view_h, (float)l->small_px);
}

static void draw_labels(frame_renderer *f, const scene *s, const scene_state *st,
                        const frame_layout *l, const frame_view *v, const theme *th, label_set *ls)
{
    const scene_level level = view_level(s, v, l);
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

/* ---- HUD, legend, caption, help ------------------------------------------ */

static void draw_card(frame_renderer *f, const frame_layout *l, float x, float y, float w, float h,
                      const theme *th)
{
    draw2d_rect(&f->batch, x, y, w, h, colour_with_alpha(th->panel, 255));
    draw2d_rect_outline(&f->batch, x, y, w, h, l->line_px, colour_with_alpha(th->grid, 255));
}

/* A card (draw_card) as it would be drawn again, its inside given back
 * from the pixels kept when it was last drawn afresh (keep_card): a copy,
 * on llvmpipe, in place of a hundred thousand blended pixels of card and
 * text (the legend: 1.6% of a 1080p export). The card is opaque, so its
 * inside does not depend on what lies under it; only its rim (the
 * outline, and the fill's partly covered edge pixels) is drawn each time.
 * Only into a target whose pixels can be kept (export, stills:
 * draw2d_target_exact), and not while the strings drawn are counted
 * (text_font.stats), as a copy draws none; `pad`, the card's margin,
 * must leave its words inside. Sets `inside` and whether the card, drawn
 * afresh, is to be kept; true when drawn so. */
static bool put_kept_card(frame_renderer *f, const frame_layout *l, const theme *th,
                          const frame_kept_card *k, const frame_card_key *key, float pad,
                          bool *keep, int inside[4])
{
    const int rim = (int)ceilf(l->line_px) + 1;
    inside[0] = (int)ceilf(key->x) + rim, inside[1] = (int)ceilf(key->y) + rim;
    inside[2] = (int)floorf(key->x + key->w) - rim, inside[3] = (int)floorf(key->y + key->h) - rim;
    *keep = draw2d_target_exact(&f->batch) && !f->font.stats && pad > (float)(rim + 1) &&
            inside[2] > inside[0] && inside[3] > inside[1] && inside[0] >= 0 && inside[1] >= 0 &&
            inside[2] <= f->batch.width && inside[3] <= f->batch.height; /* all on the target */
    const frame_card_key *was = &k->key;
    if (!*keep || !k->inside.texture || key->x != was->x || key->y != was->y || key->w != was->w ||
        key->h != was->h || key->theme != was->theme || key->text_px != was->text_px ||
        key->line_px != was->line_px || strcmp(key->words, was->words) != 0)
        return false;
    /* the rim: the fill in four strips round the inside, then the outline */
    const rgba8 fill = colour_with_alpha(th->panel, 255);
    const float x1 = key->x + key->w, y1 = key->y + key->h;
    const float ix0 = (float)inside[0], iy0 = (float)inside[1];
    const float ix1 = (float)inside[2], iy1 = (float)inside[3];
    draw2d_rect(&f->batch, key->x, key->y, key->w, iy0 - key->y, fill);
    draw2d_rect(&f->batch, key->x, iy1, key->w, y1 - iy1, fill);
    draw2d_rect(&f->batch, key->x, iy0, ix0 - key->x, iy1 - iy0, fill);
    draw2d_rect(&f->batch, ix1, iy0, x1 - ix1, iy1 - iy0, fill);
    draw2d_rect_outline(&f->batch, key->x, key->y, key->w, key->h, l->line_px,
                        colour_with_alpha(th->grid, 255));
    draw2d_put(&f->batch, &k->inside);
    return true;
}

/* Keeps the inside of a card just drawn afresh, for put_kept_card. */
static void keep_card(frame_renderer *f, frame_kept_card *k, const frame_card_key *key,
                      const int inside[4])
{
    draw2d_keep(&f->batch, &k->inside, inside[0], inside[1], inside[2] - inside[0],
                inside[3] - inside[1]);
    k->key = *key;
}

/* Returns the HUD card's rectangle. */
/* Shortens text (UTF-8, NUL-terminated, in a buffer of `size`) from its end
 * until it and an ellipsis fit max_w pixels, cutting only between
 * characters; returns its width. A caption cut short beats one cut off at
 * both edges of a narrow window or a large UI scale. */
float frame_fit_with_ellipsis(const frame_renderer *f, int font, char *text, size_t size,
                              float max_w)
{
    float w = text_width(&f->font, font, text);
    if (w <= max_w)
        return w;
    static const char ellipsis[] = "…";
    size_t n = strlen(text);
    while (n > 0) {
        do
            n--;
        while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80); /* a continuation byte */
        while (n > 0 && text[n - 1] == ' ')
            n--;
        if (n + sizeof ellipsis > size)
            continue;
        memcpy(text + n, ellipsis, sizeof ellipsis);
        w = text_width(&f->font, font, text);
        if (w <= max_w)
            return w;
    }
    text[0] = '\0'; /* not even one character fits */
    return 0;
}

/* Runs of spaces in s made one space, in place. */
static void squeeze_spaces(char *s)
{
    char *out = s;
    for (const char *in = s; *in; in++)
        if (!(*in == ' ' && out > s && out[-1] == ' '))
            *out++ = *in;
    *out = '\0';
}

static frame_rect draw_hud(frame_renderer *f, frame_cache *c, const timeline *tl,
                           const frame_layout *l, const frame_view *v, const theme *th,
                           label_set *ls)
{
    text_metrics big = text_font_metrics(&f->font, FRAME_FONT_LARGE);
    text_metrics body = text_font_metrics(&f->font, FRAME_FONT_BODY);
    char lines[3][160];
    snprintf(lines[0], sizeof lines[0], "%s", v->hud_title ? v->hud_title : "");
    if (v->hud_note && v->hud_note[0])
        snprintf(lines[1], sizeof lines[1], "t = %.2f / %.2f   ·   %s", v->t, tl->makespan,
                 v->hud_note);
    else
        snprintf(lines[1], sizeof lines[1], "t = %.2f / %.2f", v->t, tl->makespan);
    snprintf(lines[2], sizeof lines[2], "%s", v->hud_bubble ? v->hud_bubble : "");
    float pad = body.ascent * 0.6f;
    /* A window too narrow for a line shortens it (fit_with_ellipsis): the
     * card, status included, stays inside the view. */
    const float room = l->view_w - 4 * pad;
    /* The status shares the title's row: the title keeps its room, and a
     * long status (a beat's title) is the one shortened. */
    char status[160] = "";
    if (v->status)
        snprintf(status, sizeof status, "%s", v->status);
    /* A narrow view (a comparison's pane) first says the same in less room,
     * deliberately: the title with single spaces, the bubble without its
     * formula ("bubble 36.0%"); only then does a line lose its end. */
    const float title_room =
        room - (status[0] ? text_width(&f->font, FRAME_FONT_BODY, "…") + pad * 2 : 0);
    if (text_width(&f->font, FRAME_FONT_LARGE, lines[0]) > title_room)
        squeeze_spaces(lines[0]);
    /* then, in a comparison's pane, the schedule and V alone rather than an
       ellipsis that keeps P and M and loses V (what sets an interleaved or V
       schedule apart; P, M and D are most often the comparison's common
       flags, which a wider pane's HUD shows) */
    char *p_at = strstr(lines[0], " P="), *v_at = strstr(lines[0], " V=");
    if (v->compare_pane && text_width(&f->font, FRAME_FONT_LARGE, lines[0]) > title_room && p_at &&
        v_at > p_at)
        memmove(p_at, v_at, strlen(v_at) + 1);
    char *formula = strstr(lines[2], " = ");
    if (formula && text_width(&f->font, FRAME_FONT_BODY, lines[2]) > room)
        *formula = '\0';
    float w = frame_fit_with_ellipsis(f, FRAME_FONT_LARGE, lines[0], sizeof lines[0], title_room);
    const float status_w = status[0] ? frame_fit_with_ellipsis(f, FRAME_FONT_BODY, status,
                                                               sizeof status, room - w - pad * 2) +
                                           pad * 2
                                     : 0;
    w += status_w;
    for (int k = 1; k < 3; k++) {
        float lw = frame_fit_with_ellipsis(f, FRAME_FONT_BODY, lines[k], sizeof lines[k], room);
        w = lw > w ? lw : w;
    }
    float h = big.line_height + 2 * body.line_height + pad * 2;
    float x = l->view_x + pad, y = l->view_y + pad;
    ls->placed[ls->count++] = (label_rect){x, y, x + w + 2 * pad, y + h};
    const float base0 = y + pad + big.ascent;
    const float base1 = base0 + big.descent + body.line_height - body.descent;
    const float base2 = base1 + body.line_height;
    /* Kept as pixels (put_kept_card) but for the time's line, which changes
     * every frame: the rows its text can ink (any digit, '/', '.', '=' and
     * the note), and the one above and below, are filled and written again
     * over the kept inside, where the lines above and below ink none. */
    int band0 = 0, band1 = 0, above = 0, title_end = 0, below = 0, dim_top = 0;
    bool clear =
        text_ink_rows(&f->font, FRAME_FONT_BODY, base1, "t = 0123456789./", &band0, &band1) &&
        text_ink_rows(&f->font, FRAME_FONT_LARGE, base0, lines[0], &above, &title_end);
    if (clear && status[0])
        clear = text_ink_rows(&f->font, FRAME_FONT_BODY, base0, status, &above, &below) &&
                below < band0 - 1 && title_end < band0 - 1;
    if (clear && lines[2][0])
        clear = text_ink_rows(&f->font, FRAME_FONT_BODY, base2, lines[2], &dim_top, &below) &&
                dim_top > band1 + 1;
    clear = clear && title_end < band0 - 1 && !(v->hud_note && v->hud_note[0]);
    band0--, band1++;
    frame_card_key key = {x, y, w + 2 * pad, h, v->theme, f->font_body_px, l->line_px, ""};
    snprintf(key.words, sizeof key.words, "%s\n%s\n%s", lines[0], status, lines[2]);
    bool keep = false;
    int inside[4];
    if (clear && c && put_kept_card(f, l, th, &c->hud, &key, pad, &keep, inside)) {
        draw2d_rect(&f->batch, (float)inside[0], (float)band0, (float)(inside[2] - inside[0]),
                    (float)(band1 - band0), colour_with_alpha(th->panel, 255));
        text_draw(&f->font, &f->batch, FRAME_FONT_BODY, x + pad, base1, lines[1], th->text,
                  TEXT_ALIGN_LEFT);
        return (frame_rect){x, y, x + w + 2 * pad, y + h};
    }
    draw_card(f, l, x, y, w + 2 * pad, h, th);
    text_draw(&f->font, &f->batch, FRAME_FONT_LARGE, x + pad, base0, lines[0], th->text,
              TEXT_ALIGN_LEFT);
    if (status[0])
        text_draw(&f->font, &f->batch, FRAME_FONT_BODY, x + w + pad, base0, status, th->text,
                  TEXT_ALIGN_RIGHT);
    text_draw(&f->font, &f->batch, FRAME_FONT_BODY, x + pad, base1, lines[1], th->text,
              TEXT_ALIGN_LEFT);
    text_draw(&f->font, &f->batch, FRAME_FONT_BODY, x + pad, base2, lines[2], th->text_dim,
              TEXT_ALIGN_LEFT);
    if (clear && c && keep)
        keep_card(f, &c->hud, &key, inside);
    return (frame_rect){x, y, x + w + 2 * pad, y + h};
}

/* The top of the caption's plate (draw_caption), which the legend and F3's
 * readout stay above. */
static float caption_top(const frame_renderer *f, const frame_layout *l)
{
    text_metrics m = text_font_metrics(&f->font, FRAME_FONT_BODY);
    return l->view_y + l->view_h - m.line_height - 1.5f * (m.ascent * 0.5f);
}

/* The viewer's frame-rate readout: one body line on a card under the HUD,
 * at its left edge, or beside it where a short view (a compare grid's
 * pane) has no room above the caption, or nowhere when neither fits; the
 * 3D labels keep clear of it. Returns the HUD and the card together, for
 * the legend to keep clear of both (in a narrow pane it goes under them). */
static frame_rect draw_frame_times(frame_renderer *f, const frame_layout *l, const char *text,
                                   frame_rect hud, const theme *th, label_set *ls)
{
    text_metrics body = text_font_metrics(&f->font, FRAME_FONT_BODY);
    const float pad = body.ascent * 0.6f;
    const float w = text_width(&f->font, FRAME_FONT_BODY, text) + 2 * pad;
    const float h = body.line_height + pad;
    float x = hud.x0, y = hud.y1 + pad;
    if (y + h > caption_top(f, l) - pad) {
        x = hud.x1 + pad, y = hud.y0;
        if (x + w > l->view_x + l->view_w - pad)
            return hud;
    }
    draw_card(f, l, x, y, w, h, th);
    if (ls->count < MAX_LABELS)
        ls->placed[ls->count++] = (label_rect){x, y, x + w, y + h};
    text_draw(&f->font, &f->batch, FRAME_FONT_BODY, x + pad, y + 0.5f * pad + body.ascent, text,
              th->text, TEXT_ALIGN_LEFT);
    return (frame_rect){hud.x0, hud.y0, fmaxf(hud.x1, x + w), fmaxf(hud.y1, y + h)};
}

/* A legend row's swatch: what it explains, drawn as the 3D view draws it. */
typedef enum legend_swatch {
    SWATCH_ACTION, /* a block running `kind`, in the timeline's fill and pattern */
    SWATCH_IDLE,   /* an idle block */
    SWATCH_ROLE,   /* a solid square in the role's colour */
    SWATCH_BOX,    /* a translucent box in the role's colour */
    SWATCH_TILE,   /* an activation tile: a small outlined square */
    SWATCH_REDUCE, /* the role's square with a gradient chunk on it, as an all-reduce's
                      links carry them */
} legend_swatch;

typedef struct legend_row {
    legend_swatch swatch;
    int what; /* the action_kind or scene_role */
    const char *name;
    int what2; /* SWATCH_ACTION: a second kind shown in the swatch's right half; 0: none */
} legend_row;

/* What the view shows at each level (scene.h, "Levels"): the GPU level's
 * blocks, tiles and tensors, with the notation of its labels (an
 * all-reduce is labelled where it runs); the cluster level's columns; the
 * detail level's matmul picture. Each as many rows as the layout reserves.
 * A tensor that has arrived stays in sight a moment, faint (scene.h, "Zero
 * time"): readers of stills could not tell whether those were arriving,
 * leaving or done, so the legend says. */
static const legend_row GPU_LEGEND[] = {
    {SWATCH_ACTION, ACTION_F, "F n = forward of mb n", 0},
    {SWATCH_ACTION, ACTION_B, "B, I  backward (I: inputs)", ACTION_I},
    {SWATCH_ACTION, ACTION_W, "W  weight gradients", 0},
    {SWATCH_IDLE, 0, "idle", 0},
    {SWATCH_REDUCE, SCENE_ROLE_ALLREDUCE, "all-reduce of its gradients", 0},
    {SWATCH_TILE, SCENE_ROLE_ACTIVATION, "activation held", 0},
    {SWATCH_ACTION, ACTION_F, "x, ∇  in flight (faint: done)", ACTION_B},
};
static const legend_row CLUSTER_LEGEND[] = {
    {SWATCH_ACTION, ACTION_F, "F  forward", 0},
    {SWATCH_ACTION, ACTION_B, "B, I  backward (I: inputs)", ACTION_I},
    {SWATCH_ACTION, ACTION_W, "W  weight gradients", 0},
    {SWATCH_IDLE, 0, "idle", 0},
    {SWATCH_TILE, SCENE_ROLE_ACTIVATION, "height: activations", 0},
    {SWATCH_ROLE, SCENE_ROLE_ALLREDUCE, "all-reduce", 0},
    {SWATCH_ROLE, SCENE_ROLE_GPU, "plate: one GPU", 0},
};
static const legend_row DETAIL_LEGEND[] = {
    {SWATCH_ROLE, SCENE_ROLE_WEIGHT, "weights W (fill: gradient)", 0},
    {SWATCH_ROLE, SCENE_ROLE_ACTIVATION, "activations x, h", 0},
    {SWATCH_ROLE, SCENE_ROLE_GRADIENT, "gradients ∇", 0},
    {SWATCH_BOX, SCENE_ROLE_MATMUL, "matmul (box)", 0},
    {SWATCH_ACTION, ACTION_F, "F n = forward of mb n", 0},
    {SWATCH_TILE, SCENE_ROLE_ACTIVATION, "activation held", 0},
    {SWATCH_ROLE, SCENE_ROLE_ALLREDUCE, "all-reduce", 0},
};
_Static_assert(sizeof GPU_LEGEND / sizeof GPU_LEGEND[0] == FRAME_LEGEND_ROWS,
               "the layout leaves room for every row");
_Static_assert(sizeof DETAIL_LEGEND / sizeof DETAIL_LEGEND[0] == FRAME_LEGEND_ROWS,
               "the layout leaves room for every row");
_Static_assert(sizeof CLUSTER_LEGEND / sizeof CLUSTER_LEGEND[0] == FRAME_LEGEND_ROWS,
               "the layout leaves room for every row");

static void draw_swatch(frame_renderer *f, const frame_layout *l, const theme *th,
                        const legend_row *row, float x, float y, float sw)
{
    const timeline_palette *pal = &th->timeline;
    switch (row->swatch) {
    case SWATCH_ACTION:
    case SWATCH_IDLE: {
        theme_fill fill = row->swatch == SWATCH_IDLE
                              ? theme_bubble_fill(pal)
                              : theme_action_fill(pal, (action_kind)row->what);
        if (row->swatch == SWATCH_IDLE)
            fill.fill = th->role[SCENE_ROLE_COMPUTE];
        static const draw2d_pattern patterns[] = {
            [THEME_PATTERN_SOLID] = DRAW2D_SOLID,
            [THEME_PATTERN_HATCH] = DRAW2D_HATCH,
            [THEME_PATTERN_DOTS] = DRAW2D_DOTS,
            [THEME_PATTERN_CROSSHATCH] = DRAW2D_CROSSHATCH,
        };
        /* the pattern at the timeline's repeat (timeline_panel.c): the
           swatch is a piece of a bar */
        const float half = row->what2 ? sw / 2 : sw;
        for (int k = 0; k < (row->what2 ? 2 : 1); k++) {
            if (k == 1)
                fill = theme_action_fill(pal, (action_kind)row->what2);
            if (fill.pattern == THEME_PATTERN_SOLID)
                draw2d_rect(&f->batch, x + half * (float)k, y, half, sw, fill.fill);
            else
                draw2d_rect_pattern(&f->batch, x + half * (float)k, y, half, sw, fill.fill,
                                    fill.ink, patterns[fill.pattern],
                                    fmaxf(4, roundf((float)l->small_px * 0.5f)));
        }
        draw2d_rect_outline(&f->batch, x, y, sw, sw, l->line_px, th->edge);
        break;
    }
    case SWATCH_BOX: {
        const rgba8 c = th->role[row->what];
        draw2d_rect(&f->batch, x, y, sw, sw, colour_with_alpha(c, 140));
        draw2d_rect_outline(&f->batch, x, y, sw, sw, 1.5f * l->line_px, c);
        break;
    }
    case SWATCH_TILE: {
        const float t = sw * 0.6f, o = (sw - t) / 2;
        draw2d_rect(&f->batch, x + o, y + o, t, t, th->role[row->what]);
        draw2d_rect_outline(&f->batch, x + o, y + o, t, t, l->line_px, th->edge);
        break;
    }
    case SWATCH_ROLE:
        draw2d_rect(&f->batch, x, y, sw, sw, th->role[row->what]);
        break;
    case SWATCH_REDUCE: {
        const float t = sw * 0.45f, o = (sw - t) / 2;
        draw2d_rect(&f->batch, x, y, sw, sw, th->role[row->what]);
        draw2d_rect(&f->batch, x + o, y + o, t, t, th->role[SCENE_ROLE_GRADIENT]);
        draw2d_rect_outline(&f->batch, x + o, y + o, t, t, l->line_px, th->edge);
        break;
    }
    }
}

static void draw_legend(frame_renderer *f, frame_cache *c, const frame_view *v,
                        const frame_layout *l, const theme *th, label_set *ls, frame_rect hud,
                        scene_level level)
{
    /* the kinds this schedule runs, and what this scenario draws: no W row
     * for 1F1B (readers asked where the W was), no all-reduce without
     * replicas, no tensors in flight on one GPU */
    const legend_row *rows = level == SCENE_LEVEL_DETAIL    ? DETAIL_LEGEND
                             : level == SCENE_LEVEL_CLUSTER ? CLUSTER_LEGEND
                                                            : GPU_LEGEND;
    const unsigned kinds = c->kinds;
    const bool b = kinds & 1u << ACTION_B, i = kinds & 1u << ACTION_I;
    legend_row items[FRAME_LEGEND_ROWS];
    int N = 0;
    for (int k = 0; k < FRAME_LEGEND_ROWS; k++) {
        legend_row r = rows[k];
        const bool action = r.swatch == SWATCH_ACTION;
        if (action && r.what == ACTION_B && r.what2 == ACTION_I) {
            if (!b && !i)
                continue;
            if (!i)
                r = (legend_row){SWATCH_ACTION, ACTION_B, "B  backward", 0};
            else if (!b)
                r = (legend_row){SWATCH_ACTION, ACTION_I, "I  backward for inputs", 0};
        }
        if (action && r.what == ACTION_W && !(kinds & 1u << ACTION_W))
            continue;
        if ((r.swatch == SWATCH_REDUCE ||
             (r.swatch == SWATCH_ROLE && r.what == SCENE_ROLE_ALLREDUCE)) &&
            c->tl->allreduce_count == 0)
            continue;
        if (action && r.what == ACTION_F && r.what2 == ACTION_B) { /* tensors in flight */
            if (c->scene->ranks < 2)
                continue;
            if (v->still)
                r.name = "x, ∇  in flight (wire lit)"; /* nothing faint to explain */
        }
        items[N++] = r;
    }
    text_metrics m = text_font_metrics(&f->font, FRAME_FONT_SMALL);
    float pad = m.ascent * 0.6f, sw = m.ascent;
    float w = 0;
    for (int k = 0; k < N; k++) {
        float tw = text_width(&f->font, FRAME_FONT_SMALL, items[k].name);
        w = tw > w ? tw : w;
    }
    w += sw + 3 * pad;
    float h = m.line_height * N + 2 * pad;
    /* Where the layout reserved room (the cameras keep clear of it), as
     * large as reserved; beside a HUD wider than FRAME_HUD_EM, under it. */
    frame_rect at = l->legend;
    if (at.x1 - at.x0 >= w && at.y1 - at.y0 >= h && !rect_meets(at, hud)) {
        w = at.x1 - at.x0; /* as tall as its rows: a shorter list leaves the rest empty */
    } else if (!frame_legend_place(l, hud, w, h, pad, caption_top(f, l) - pad, &at)) {
        return;
    }
    float x = at.x0, y = at.y0;
    /* a caption wrapped onto more lines than the layout reserved comes first:
       the beat's words say more than the legend's colours */
    if (overlaps(ls, (label_rect){x, y, x + w, y + h}))
        return;
    ls->placed[ls->count++] = (label_rect){x, y, x + w, y + h};
    frame_card_key key = {x, y, w, h, v->theme, f->font_body_px, l->line_px, ""};
    for (int k = 0; k < N; k++)
        snprintf(key.words + strlen(key.words), sizeof key.words - strlen(key.words), "%s\n",
                 items[k].name);
    bool keep;
    int inside[4];
    if (put_kept_card(f, l, th, &c->legend, &key, pad, &keep, inside))
        return;
    draw_card(f, l, x, y, w, h, th);
    for (int k = 0; k < N; k++) {
        float base = y + pad + m.line_height * (float)k + m.ascent;
        draw_swatch(f, l, th, &items[k], x + pad, base - m.ascent, sw);
        text_draw(&f->font, &f->batch, FRAME_FONT_SMALL, x + 2 * pad + sw, base, items[k].name,
                  th->text, TEXT_ALIGN_LEFT);
    }
    if (keep)
        keep_card(f, &c->legend, &key, inside);
}

/* The details card (inspect_overlay.h) at the view's right edge, as high as
 * the cards already placed let it (under the legend, beside the HUD), above
 * the caption; at the small size when the body size has no room, not at
 * all when neither has. The 3D labels placed after it keep clear of it. */
static void draw_details(frame_renderer *f, const frame_layout *l, const frame_view *v,
                         const theme *th, label_set *ls)
{
    const inspect_text *t = v->inspect.details;
    if (!t || t->count <= 0 || ls->count >= MAX_LABELS)
        return;
    const float gap = (float)l->body_px * ASCENT_PER_EM * 0.6f;
    const float bottom = caption_top(f, l) - gap, right = l->view_x + l->view_w - gap;
    static const int sizes[2][2] = {{FRAME_FONT_BODY, FRAME_FONT_SMALL},
                                    {FRAME_FONT_SMALL, FRAME_FONT_SMALL}};
    for (int k = 0; k < 2; k++) {
        const float pad = text_font_metrics(&f->font, sizes[k][1]).ascent * 0.6f;
        float w, h;
        inspect_overlay_details_size(t, &f->font, sizes[k][0], sizes[k][1], pad, &w, &h);
        label_rect r = {right - w, l->view_y + gap, right, l->view_y + gap + h};
        for (int i = 0; i < ls->count; i++) { /* down past every card it meets */
            const label_rect *p = &ls->placed[i];
            if (r.x0 < p->x1 && p->x0 < r.x1 && r.y0 < p->y1 && p->y0 < r.y1) {
                r.y0 = p->y1 + gap, r.y1 = r.y0 + h;
                i = -1;
            }
        }
        if (r.x0 < l->view_x || r.y1 > bottom)
            continue;
        ls->placed[ls->count++] = r;
        inspect_overlay_details(t, &f->font, sizes[k][0], sizes[k][1], pad, r.x0, r.y0, w, h,
                                &f->batch, th->panel, th->grid, th->text, th->text_dim, l->line_px);
        return;
    }
}

/* A laser pointer's dot (a red square in a white rim), large enough to follow from
 * the back row (a third of a line), on top of everything. */
static void draw_laser(frame_renderer *f, const frame_layout *l, const frame_view *v)
{
    const float r = (float)l->small_px * 0.35f, rim = fmaxf(1.5f, l->line_px * 1.5f);
    const float x = v->laser_x, y = v->laser_y;
    draw2d_rect(&f->batch, x - r - rim, y - r - rim, 2 * (r + rim), 2 * (r + rim),
                (rgba8){255, 255, 255, 230});
    draw2d_rect(&f->batch, x - r, y - r, 2 * r, 2 * r, (rgba8){230, 20, 20, 255});
}

/* The key card's table at one text size in one or two columns. */
typedef struct help_card {
    int size, cols, rows;
    text_metrics m;
    float kw, pad, gap, col_w, w, h; /* w without the padding */
    float what_w; /* > 0: the descriptions' width, each ending in "…" past it (a narrow frame) */
} help_card;

static help_card measure_help(const frame_renderer *f, const frame_help_item *help, int n, int size,
                              int cols)
{
    help_card c = {.size = size, .cols = cols, .rows = (n + cols - 1) / cols};
    c.m = text_font_metrics(&f->font, size);
    float ww = 0;
    for (int k = 0; k < n; k++) {
        float a = text_width(&f->font, size, help[k].keys);
        float b = text_width(&f->font, size, help[k].what);
        c.kw = a > c.kw ? a : c.kw;
        ww = b > ww ? b : ww;
    }
    c.pad = c.m.ascent, c.gap = c.m.ascent * 1.5f, c.col_w = c.kw + c.gap + ww;
    c.w = c.col_w * (float)cols + 2 * c.gap * (float)(cols - 1);
    c.h = c.m.line_height * (float)(c.rows + 1) + 2 * c.pad;
    return c;
}

/* The key card's layout in this frame: its table (size, columns, rows per
 * column), the rows a page holds and the pages. The first that fits three
 * quarters of the height and most of the width: body text in one column,
 * then in two side by side, then the small size in one or two. When none
 * does, the small size whole where it fits the frame at all, else
 * (presenting at 1080p: 24 rows at the 27 px floor) pages of it, in two
 * columns where they fit across, else one, each as tall as nine tenths of
 * the frame: the viewer's h steps through them. */
static help_card help_pages_layout(const frame_renderer *f, const frame_layout *l,
                                   const frame_view *v, int *per_page, int *pages);

/* help_pages_layout's card, kept inside a frame narrower than its widest
 * row (a comparison's pane): one column whose descriptions end in "…" where
 * they would pass the frame's edge, the keys whole. */
static help_card help_layout(const frame_renderer *f, const frame_layout *l, const frame_view *v,
                             int *per_page, int *pages)
{
    help_card c = help_pages_layout(f, l, v, per_page, pages);
    const float room = (float)l->width * 0.95f - 2 * c.pad;
    if (c.w > room && c.cols == 1 && room > c.kw + c.gap) {
        c.what_w = room - c.kw - c.gap;
        c.w = c.col_w = room;
    }
    return c;
}

static help_card help_pages_layout(const frame_renderer *f, const frame_layout *l,
                                   const frame_view *v, int *per_page, int *pages)
{
    const frame_help_item *help = v->help;
    const int n = v->help_count;
    static const struct {
        int size, cols;
    } tries[] = {
        {FRAME_FONT_BODY, 1}, {FRAME_FONT_BODY, 2}, {FRAME_FONT_SMALL, 1}, {FRAME_FONT_SMALL, 2}};
    for (size_t t = 0; t < sizeof tries / sizeof tries[0]; t++) {
        help_card try = measure_help(f, help, n, tries[t].size, tries[t].cols);
        if (try.h <= (float)l->height * 0.75f && try.w + 2 * try.pad <= (float)l->width * 0.95f) {
            *per_page = n, *pages = 1;
            return try;
        }
    }
    help_card c = measure_help(f, help, n, FRAME_FONT_SMALL, 2);
    const int cols = c.w + 2 * c.pad <= (float)l->width * 0.95f ? 2 : 1;
    c = measure_help(f, help, n, FRAME_FONT_SMALL, cols);
    if (c.h <= (float)l->height * 0.95f && c.w + 2 * c.pad <= (float)l->width * 0.95f) {
        *per_page = n, *pages = 1; /* taller than the rule, but whole on one page */
        return c;
    }
    int rows = (int)(((float)l->height * 0.9f - 2 * c.pad) / c.m.line_height) - 1;
    rows = rows < 1 ? 1 : rows;
    *per_page = rows * cols;
    *pages = (n + *per_page - 1) / *per_page;
    if (*pages <= 1) {
        *per_page = n, *pages = 1;
        return c;
    }
    c.rows = rows;
    c.h = c.m.line_height * (float)(rows + 1) + 2 * c.pad;
    return c;
}

int frame_help_pages(const frame_renderer *f, const frame_view *v, int fb_width, int fb_height)
{
    if (!v->help || v->help_count <= 0)
        return 1;
    const frame_layout l = frame_layout_of(v, fb_width, fb_height);
    int per_page, pages;
    help_layout(f, &l, v, &per_page, &pages);
    return pages;
}

static void draw_help(frame_renderer *f, const frame_layout *l, const frame_view *v,
                      const theme *th)
{
    const frame_help_item *help = v->help;
    const int n = v->help_count;
    if (!help || n <= 0)
        return;
    int per_page, pages;
    const help_card c = help_layout(f, l, v, &per_page, &pages);
    const int page = (v->help_page % pages + pages) % pages;
    const int first = page * per_page, end = first + per_page < n ? first + per_page : n;
    float x = (float)l->x + (((float)l->width - c.w) / 2 - c.pad);
    float y = (float)l->y + ((float)l->height - c.h) / 2;
    draw2d_rect(&f->batch, x, y, c.w + 2 * c.pad, c.h, colour_with_alpha(th->panel, 255));
    draw2d_rect_outline(&f->batch, x, y, c.w + 2 * c.pad, c.h, 2 * l->line_px, th->grid);
    const float top = y + c.pad + c.m.ascent;
    char title[48] = "Keys";
    if (pages > 1)
        snprintf(title, sizeof title, "Keys  %d/%d  (h: %s)", page + 1, pages,
                 page + 1 < pages ? "more" : "close");
    text_draw(&f->font, &f->batch, c.size, x + c.pad, top, title, th->text, TEXT_ALIGN_LEFT);
    for (int k = first; k < end; k++) {
        /* Down the first column, then the next: the table's order reads on. */
        const int i = k - first;
        const float cx = x + c.pad + (float)(i / c.rows) * (c.col_w + 2 * c.gap);
        const float base = top + c.m.line_height * (float)(i % c.rows + 1);
        text_draw(&f->font, &f->batch, c.size, cx, base, help[k].keys, th->text, TEXT_ALIGN_LEFT);
        char what[160];
        snprintf(what, sizeof what, "%s", help[k].what);
        if (c.what_w > 0)
            frame_fit_with_ellipsis(f, c.size, what, sizeof what, c.what_w);
        text_draw(&f->font, &f->batch, c.size, cx + c.kw + c.gap, base, what, th->text_dim,
                  TEXT_ALIGN_LEFT);
    }
}

void frame_renderer_draw(frame_renderer *f, frame_cache *c, const frame_view *v, int fb_width,
                         int fb_height)
{
    assert(f && f->ready && c && c->scene && v);
    const scene *s = c->scene;
    const timeline *tl = c->tl;
    assert(frame_cache_of(c, s, tl) && "a cache of the session as it is now");
    if (fb_width <= 0 || fb_height <= 0)
        return;
    frame_layout l = frame_layout_of(v, fb_width, fb_height);
    assert(l.x >= 0 && l.y >= 0 && l.x + l.width <= fb_width && l.y + l.height <= fb_height &&
           "the viewport lies inside the target");
    if (l.width <= 0 || l.height <= 0)
        return;
    fit_font(f, &l, NULL);
    timeline_view tv = v->timeline;
    if (!(tv.t1 > tv.t0))
        timeline_panel_view_init(&tv, tl);
    assert(tv.ranks == tl->program->ranks && "a timeline view of this timeline");
    frame_layout_place_timeline(&l, &tv);
    theme th = theme_get(v->theme);

    /* Only the viewport is cleared: a frame beside it keeps its pixels. A
     * blackout is that black clear and nothing else. The stencil, unused,
     * is cleared with the depth: a window's depth buffer holds both, and
     * llvmpipe clears depth alone by reading and rewriting every pixel. */
    glViewport(0, 0, fb_width, fb_height);
    glDepthMask(GL_TRUE);
    if (!v->cleared || v->blackout) {
        glEnable(GL_SCISSOR_TEST);
        glScissor(l.x, fb_height - (l.y + l.height), l.width, l.height);
        if (v->blackout)
            glClearColor(0, 0, 0, 1);
        else
            glClearColor(th.background.r / 255.0f, th.background.g / 255.0f,
                         th.background.b / 255.0f, 1);
        glClearDepth(1);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
        glDisable(GL_SCISSOR_TEST);
    }
    if (v->blackout)
        return;

    if (v->still)
        scene_state_exact_at(s, v->t, &c->state);
    else
        scene_state_at(s, v->t, &c->state);
    int gl_y = fb_height - (int)(l.view_y + l.view_h);
    /* drawn where scene_aa says; smoothed now (supersampled) or once the 2D
     * overlay is drawn (edges), the overlay's pixels kept */
    const scene_aa_desc aa = {
        .mode = v->aa,
        .x = (int)l.view_x,
        .y = gl_y,
        .w = (int)l.view_w,
        .h = (int)l.view_h,
        .fb_width = fb_width,
        .fb_height = fb_height,
        .cam = &v->cam,
        .bounds_min = s->bounds.min,
        .bounds_max = s->bounds.max,
        .background = th.background,
    };
    const scene_aa_view sv = scene_aa_begin(&f->aa, &aa);
    scene_renderer_draw(&f->scene, &c->instances, s, &c->state, &th, &v->cam, sv.x, sv.y, sv.w,
                        sv.h, view_level(s, v, &l), sv.scale, l.line_px);
    scene_aa_end(&f->aa, &f->batch);
    glViewport(0, 0, fb_width, fb_height);

    label_set *labels = f->labels;
    labels->count = 0;
    const float vx = (float)l.x, vy = (float)l.y, vw = (float)l.width, vh = (float)l.height;
    draw2d_begin(&f->batch, fb_width, fb_height);
    draw2d_anchor_patterns(&f->batch, vx, vy, vw, vh);
    /* Cards and the HUD may not fit a small viewport: what overflows is cut. */
    draw2d_clip(&f->batch, vx, vy, vw, vh);
    /* the inspection's frames in 3D, under the cards */
    inspect_overlay_scene(&v->inspect, s, v->t, &v->cam, l.view_x, l.view_y, l.view_w, l.view_h,
                          &f->batch, &th.timeline, l.line_px);
    draw2d_clip(&f->batch, vx, vy, vw, vh);
    if (!v->bare) {
        frame_rect hud = draw_hud(f, c, tl, &l, v, &th, labels);
        if (v->frame_times && v->frame_times[0])
            hud = draw_frame_times(f, &l, v->frame_times, hud, &th, labels);
        frame_draw_caption(f, s, &l, v, &th, labels);
        if (v->show_legend)
            draw_legend(f, c, v, &l, &th, labels, hud, view_level(s, v, &l));
        draw_details(f, &l, v, &th, labels);
        draw_labels(f, s, &c->state, &l, v, &th, labels);
    }
    timeline_panel_draw(&c->panel, &tv, &f->batch, &f->font, FRAME_FONT_SMALL, &th.timeline, v->t,
                        v->hover.kind != TIMELINE_HIT_NONE ? &v->hover : NULL);
    inspect_overlay_timeline(&v->inspect, tl, &tv, &f->batch, &th.timeline, l.line_px);
    timeline_panel_draw_tip(&c->panel, &tv, &f->batch, &f->font, FRAME_FONT_SMALL, &th.timeline,
                            v->hover.kind != TIMELINE_HIT_NONE ? &v->hover : NULL);
    draw2d_clip(&f->batch, vx, vy, vw, vh);
    draw2d_rect(&f->batch, vx, l.panel_y - l.line_px, vw, 2 * l.line_px, th.grid);
    inspect_overlay_tip(&v->inspect, &tv, &f->batch, &f->font, FRAME_FONT_SMALL, &th, l.line_px, vx,
                        vy, vw, vh);
    if (v->whatif_card && !v->bare)
        frame_whatif_card_draw(f, &l, v->whatif_card, &th);
    if (v->show_help)
        draw_help(f, &l, v, &th);
    if (v->laser)
        draw_laser(f, &l, v);
    draw2d_clip_off(&f->batch);
    draw2d_flush(&f->batch);
    scene_aa_finish(&f->aa, &f->batch); /* the view's edges, the overlay kept */
}
