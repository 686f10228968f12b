/* frame.c - the whole picture: 3D view, timeline panel, HUD, legend, help
 * card; the caption and the 3D labels are frame_caption.c's and
 * frame_labels.c's. See frame.h. */
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
                        sv.h, frame_view_level(s, v, &l), sv.scale, l.line_px);
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
            draw_legend(f, c, v, &l, &th, labels, hud, frame_view_level(s, v, &l));
        draw_details(f, &l, v, &th, labels);
        frame_draw_labels(f, s, &c->state, &l, v, &th, labels);
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
