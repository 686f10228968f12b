/* timeline_panel_memory.c - the timeline panel's memory lane: live
 * activations per rank as step charts on one scale, their counts, each
 * rank's peak, and the counts at the cursor. See timeline_panel.h. */
#include <stdio.h>

#include "timeline_panel_internal.h"

/* Adjacent 1-pixel columns of the same colour and height become one quad:
 * a zoomed-out row of a thousand columns is then a handful of quads. */
typedef struct column_run {
    float x0, x1, y, h;
    rgba8 color;
    bool open;
} column_run;

static void run_flush(const frame *f, column_run *run)
{
    if (run->open)
        draw2d_rect(f->d, run->x0, run->y, run->x1 - run->x0, run->h, run->color);
    run->open = false;
}

static void run_add(const frame *f, column_run *run, float x0, float x1, float y, float h, rgba8 c)
{
    if (run->open && x0 <= run->x1 && y == run->y && h == run->h && c.r == run->color.r &&
        c.g == run->color.g && c.b == run->color.b && c.a == run->color.a) {
        run->x1 = maxf(run->x1, x1);
        return;
    }
    run_flush(f, run);
    *run = (column_run){x0, x1, y, h, c, true};
}

/* The width of draw_memory_readout's plates: the widest count (the peak's
 * digits, two at least) and its pad. */
static float readout_plate_w(const frame *f)
{
    char s[16];
    snprintf(s, sizeof s, "%d", f->p->memory.peak > 9 ? f->p->memory.peak : 10);
    return text_width(f->font, f->size, s) + 2 * maxf(2, f->v->em * 0.2f);
}

/* The peak of one rank's memory chart, marked where it is first reached: a
 * line at its level across the lane and a notch at its first time. */
static void memory_peak(const frame *f, const timeline_memory_curve *c, float base, float sub,
                        float scale)
{
    const timeline_view *v = f->v;
    const float peak_y = base - scale * (float)c->peak;
    draw2d_rect(f->d, v->plot_x, peak_y, v->plot_w, 1, colour_with_alpha(f->pal->text, 70));
    for (int i = 0; i < c->count; i++) {
        if (c->steps[i].count != c->peak)
            continue;
        const float x = tx(f, c->steps[i].time);
        if (x >= v->plot_x && x <= v->plot_x + v->plot_w) {
            const float n = maxf(3, minf(sub * 0.3f, v->em * 0.4f));
            draw2d_triangle(f->d, x - n, peak_y - n, x + n, peak_y - n, x, peak_y, f->pal->text);
        }
        break;
    }
}

/* The text of one rank's memory chart: the count over each plateau wide
 * enough for its digits, and "peak N" when there is room. Counts are asked
 * only of the steps that start on screen and are a text wide, so a dense
 * curve costs no more than its columns. */
static void memory_labels(const frame *f, const timeline_memory_curve *c, float base, float sub)
{
    const timeline_view *v = f->v;
    const double end_t = f->p->tl->makespan;
    const rgba8 ink = f->pal->text, dim = colour_with_alpha(f->pal->text, 150);
    if (!f->font || sub < f->digit_h * 1.2f)
        return;
    const float pad = v->em * 0.3f, y = base - 0.5f * (sub - f->digit_h);
    char s[32];
    /* "peak N" at the lane's right end, when the lane holds a line of text */
    snprintf(s, sizeof s, "peak %d", c->peak);
    const float pw = text_width(f->font, f->size, s);
    float right = v->plot_x + v->plot_w;
    /* the cursor's readout (draw_memory_readout) covers the counts near it */
    const float near = 2 * (readout_plate_w(f) + maxf(2, v->em * 0.25f)) + v->em * 0.3f;
    /* "peak N" stays clear of the readout's plates beside the cursor's line */
    const float reach = readout_plate_w(f) + 2 * maxf(2, v->em * 0.25f);
    const bool by_cursor = f->cursor_x == f->cursor_x &&
                           right - 2 * pad - pw < f->cursor_x + reach &&
                           right > f->cursor_x - reach;
    if (sub >= f->font_px * 0.9f && pw + 2 * pad < v->plot_w * 0.2f && !by_cursor) {
        text_draw(f->font, f->d, f->size, right - pad, y, s, dim, TEXT_ALIGN_RIGHT);
        right -= pw + 2 * pad;
    }
    int i = timeline_memory_step_at(c, v->t0);
    while (i < c->count && c->steps[i].time < v->t1) {
        const double s1 = i + 1 < c->count ? c->steps[i + 1].time : end_t;
        float x0 = maxf(tx(f, c->steps[i].time), v->plot_x), x1 = minf(tx(f, s1), right);
        if (f->cursor_x == f->cursor_x && x0 < f->cursor_x + near && x1 > f->cursor_x - near) {
            /* the wider side of the plateau the readout leaves */
            if (f->cursor_x - near - x0 >= x1 - (f->cursor_x + near))
                x1 = f->cursor_x - near;
            else
                x0 = f->cursor_x + near;
        }
        const int count = c->steps[i].count;
        if (count > 0 && x1 - x0 >= f->digit_h * 2.2f) {
            snprintf(s, sizeof s, "%d", count);
            if (text_width(f->font, f->size, s) + pad <= x1 - x0)
                text_draw(f->font, f->d, f->size, 0.5f * (x0 + x1), y, s, ink, TEXT_ALIGN_CENTER);
        }
        /* past a run of narrow steps in one go */
        const int next = timeline_memory_first_step_at_or_after(
            c, i + 1, timeline_view_x_to_time(v, tx(f, c->steps[i].time) + f->digit_h));
        i = next > i + 1 ? next - 1 : i + 1;
    }
}

/* The height of one rank's sub-lane of the memory lane; 0 when the panel
 * shows no memory lane. */
static float memory_sub_lane(const frame *f)
{
    if (f->p->memory.peak <= 0 || f->v->mem_h < 2)
        return 0;
    return f->v->mem_h / (float)f->v->ranks;
}

/* Live activations: one sub-lane per rank, a filled step plot on the scale
 * of the largest peak so ranks compare (GPipe's pile against 1F1B's
 * staircase), with a stronger line along its top so the steps read and
 * each rank's peak marked (the counts are draw_memory_labels'). Dense steps
 * merge into 1-pixel columns showing the highest count met (scanning a few
 * steps, then skipping the rest of the column). */
void panel_draw_memory(const frame *f)
{
    const timeline_view *v = f->v;
    const timeline_panel *p = f->p;
    const float sub = memory_sub_lane(f);
    if (sub <= 0)
        return;
    const float scale = sub * 0.85f / (float)p->memory.peak;
    const double end_t = p->tl->makespan;
    const rgba8 edge = colour_mix(f->pal->memory, f->pal->text, 0.55f); /* reads on both themes */
    for (int r = 0; r < v->ranks; r++) {
        const timeline_memory_curve *c = &p->memory.rank[r];
        const float base = v->mem_y + sub * (float)(r + 1);
        if (r % 2 == 1)
            draw2d_rect(f->d, v->plot_x, base - sub, v->plot_w, sub, f->pal->row_alt);
        if (sub >= 3)
            draw2d_rect(f->d, v->plot_x, base - 1, v->plot_w, 1, f->pal->grid);
        int i = timeline_memory_step_at(c, v->t0);
        float from = -INFINITY; /* pixels left of this are drawn */
        float last_top = base;  /* the outline's height so far, for its risers */
        column_run run = {0};
        while (i < c->count && c->steps[i].time < v->t1) {
            const double s1 = i + 1 < c->count ? c->steps[i + 1].time : end_t;
            const float x0 = maxf(tx(f, c->steps[i].time), from), x1 = tx(f, s1);
            int count = c->steps[i].count;
            if (x1 <= x0) {
                i++;
                continue;
            }
            if (x1 - x0 >= 1) {
                const float cx0 = clip_x(f, x0), cx1 = clip_x(f, x1);
                const float top = base - scale * (float)count;
                if (count > 0)
                    run_add(f, &run, cx0, cx1, top, scale * (float)count, f->pal->memory);
                if (sub >= 6) {
                    run_flush(f, &run);
                    draw2d_rect(f->d, cx0, minf(top, last_top) - 0.75f, 1.5f,
                                fabsf(top - last_top) + 1.5f, edge);
                    if (count > 0)
                        draw2d_rect(f->d, cx0, top - 0.75f, cx1 - cx0, 1.5f, edge);
                }
                last_top = top;
                from = x1;
                i++;
                continue;
            }
            const float col = floorf(x0);
            const double col_end = timeline_view_x_to_time(v, col + 1);
            int j = i + 1, scanned = 0;
            for (; j < c->count && c->steps[j].time < col_end && scanned < 8; j++, scanned++)
                count = c->steps[j].count > count ? c->steps[j].count : count;
            if (j < c->count && c->steps[j].time < col_end)
                j = timeline_memory_first_step_at_or_after(c, j, col_end);
            if (count > 0)
                run_add(f, &run, col, col + 1, base - scale * (float)count, scale * (float)count,
                        f->pal->memory);
            last_top = base - scale * (float)count;
            from = col + 1;
            /* the step in force at the column's end goes on from there */
            i = j - 1 > i ? j - 1 : i + 1;
        }
        run_flush(f, &run);
        memory_peak(f, c, base, sub, scale);
    }
}

/* memory_labels of every rank, with the moving parts (they step aside from
 * the cursor's readout). */
void panel_draw_memory_labels(const frame *f)
{
    const timeline_view *v = f->v;
    const float sub = memory_sub_lane(f);
    if (sub <= 0)
        return;
    for (int r = 0; r < v->ranks; r++)
        memory_labels(f, &f->p->memory.rank[r], v->mem_y + sub * (float)(r + 1), sub);
}

/* Each rank's live activations at the cursor, on a plate beside its line
 * level with the rank's memory sub-lane: the count a lecturer reads out
 * while scrubbing. Sub-lanes thinner than a plate alternate sides of the
 * line so plates never overlap; thinner than half a plate (many ranks in a
 * short lane) show none, the chart alone: a grid of numbers no one could
 * match to its rank. */
void panel_draw_memory_readout(const frame *f, double t)
{
    const timeline_view *v = f->v;
    const timeline_panel *p = f->p;
    if (!f->font || p->memory.peak <= 0 || v->ranks <= 0 || t < v->t0 || t > v->t1)
        return;
    const float sub = v->mem_h / (float)v->ranks;
    const float pad = maxf(2, v->em * 0.2f), plate_h = f->digit_h + 2 * pad;
    const int columns = (int)ceilf(plate_h / maxf(sub, 1e-3f));
    if (columns > 2 || v->mem_h < plate_h)
        return;
    const float x = tx(f, t), gap = maxf(2, v->em * 0.25f);
    const float w = readout_plate_w(f);
    /* the columns' places: right of the line, left of it, then further out
       on either side, skipping those past the plot's ends */
    const float places[4] = {x + gap, x - gap - w, x + 2 * gap + w, x - 2 * gap - 2 * w};
    float column_x[2];
    int found = 0;
    for (int k = 0; k < 4 && found < columns; k++)
        if (places[k] >= v->plot_x && places[k] + w <= v->plot_x + v->plot_w)
            column_x[found++] = places[k];
    if (found < columns)
        return;
    for (int r = 0; r < v->ranks; r++) {
        char s[16];
        snprintf(s, sizeof s, "%d", timeline_memory_live_at(&p->memory.rank[r], t));
        const float x0 = column_x[r % columns];
        const float yc = v->mem_y + sub * ((float)r + 0.5f);
        draw2d_rect(f->d, x0, yc - plate_h * 0.5f, w, plate_h,
                    colour_with_alpha(f->pal->background, 235));
        draw2d_rect_outline(f->d, x0, yc - plate_h * 0.5f, w, plate_h, maxf(1, v->em * 0.05f),
                            f->pal->memory);
        text_draw(f->font, f->d, f->size, x0 + w * 0.5f, yc + f->digit_h * 0.5f, s, f->pal->text,
                  TEXT_ALIGN_CENTER);
    }
}
