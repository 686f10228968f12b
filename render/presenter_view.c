/* presenter_view.c - the presenter window's page. See presenter_view.h. */
#include "presenter_view.h"

#include <math.h>
#include <string.h>

#include <glad/gl.h>

/* Text sizes as fractions of the height: ems, so capitals are ~0.73 of them. */
#define BODY_EM 24.0f  /* notes and labels: 30 px em, 22 px capitals at 720 */
#define TITLE_EM 16.0f /* the beat's title */
#define CLOCK_EM 14.0f /* the top bar */
/* The previews take at most this share of the width: the notes need the rest. */
#define PREVIEW_MAX_SHARE 0.45f

static int em_px(int h, float per, float scale)
{
    int px = (int)lroundf((float)h / per * scale);
    return px < 10 ? 10 : px;
}

presenter_layout presenter_layout_compute(int fb_w, int fb_h, float aspect, float ui_scale)
{
    presenter_layout l = {.width = fb_w, .height = fb_h};
    if (!(aspect > 0.1f && aspect < 10.0f))
        aspect = 16.0f / 9.0f;
    const float s = frame_ui_scale_clamp(ui_scale);
    l.body_px = em_px(fb_h, BODY_EM, s);
    l.title_px = em_px(fb_h, TITLE_EM, s);
    l.clock_px = em_px(fb_h, CLOCK_EM, s);
    l.margin = fmaxf(4.0f, (float)fb_h / 40.0f);
    l.bar_y0 = l.margin;
    l.bar_y1 = l.bar_y0 + (float)l.clock_px * 1.25f;
    const float top = l.bar_y1 + l.margin, bottom = (float)fb_h - l.margin;
    const float label_h = (float)l.body_px * 1.35f;
    /* two previews stacked, each under its label, as tall as fits */
    float ph = (bottom - top - 2 * label_h - l.margin) / 2;
    float pw = ph * aspect;
    if (pw > (float)fb_w * PREVIEW_MAX_SHARE) {
        pw = (float)fb_w * PREVIEW_MAX_SHARE;
        ph = pw / aspect;
    }
    pw = fmaxf(pw, 1.0f), ph = fmaxf(ph, 1.0f);
    const float px = fmaxf(0.0f, (float)fb_w - l.margin - pw);
    l.now_label_y = top + (float)l.body_px * 0.95f;
    l.now = (frame_viewport){(int)px, (int)(top + label_h), (int)pw, (int)ph};
    const float next_top = (float)l.now.y + (float)l.now.h + l.margin;
    l.next_label_y = next_top + (float)l.body_px * 0.95f;
    l.next = (frame_viewport){(int)px, (int)(next_top + label_h), (int)pw, (int)ph};
    /* a window too short for both: the previews stay inside it */
    frame_viewport *vp[2] = {&l.now, &l.next};
    for (int k = 0; k < 2; k++) {
        if (vp[k]->x + vp[k]->w > fb_w)
            vp[k]->w = fb_w - vp[k]->x;
        if (vp[k]->y + vp[k]->h > fb_h)
            vp[k]->h = fb_h - vp[k]->y;
        if (vp[k]->w < 0 || vp[k]->h < 0 || vp[k]->y >= fb_h)
            *vp[k] = (frame_viewport){0, 0, 0, 0};
    }
    l.text = (frame_rect){l.margin, top, fmaxf(l.margin + 1, px - 1.5f * l.margin), bottom};
    return l;
}

static text_font_desc font_desc_of(const presenter_layout *l)
{
    return (text_font_desc){.sizes = {l->body_px, l->title_px, l->clock_px}, .size_count = 3};
}

bool presenter_view_init(presenter_view *pv, ppf_error *err)
{
    *pv = (presenter_view){0};
    presenter_layout l = presenter_layout_compute(1280, 720, 0, 1);
    text_font_desc fd = font_desc_of(&l);
    if (!draw2d_init(&pv->batch, err))
        goto fail;
    if (!text_font_init(&pv->font, &fd, err))
        goto fail;
    pv->ready = true;
    return true;
fail:
    presenter_view_deinit(pv);
    return false;
}

void presenter_view_deinit(presenter_view *pv)
{
    if (!pv)
        return;
    text_font_deinit(&pv->font);
    draw2d_deinit(&pv->batch);
    *pv = (presenter_view){0};
}

/* ---- text in a column ------------------------------------------------------ */

/* Bytes of the longest prefix of s[0..n) that is whole UTF-8 characters and
 * fits w pixels (at least one character, so a line always moves on). */
static size_t fit_bytes(const text_font *f, int size, const char *s, size_t n, float w, char *buf,
                        size_t cap)
{
    size_t best = 0;
    for (size_t k = 1; k <= n && k < cap; k++) {
        if (k < n && ((unsigned char)s[k] & 0xC0) == 0x80)
            continue; /* inside a character */
        memcpy(buf, s, k);
        buf[k] = '\0';
        if (text_width(f, size, buf) > w && best > 0)
            break;
        best = k;
        if (text_width(f, size, buf) > w)
            break;
    }
    return best;
}

/* Draws text wrapped at word boundaries into the column [x, x + w), lines
 * from baseline y on, newlines starting new lines; stops before a line
 * would pass `bottom`, ending the last one drawn with "…" when text was
 * left. Returns the y under the last line drawn. */
static float draw_wrapped(presenter_view *pv, int size, float x, float y_top, float w, float bottom,
                          const char *text, rgba8 colour)
{
    if (!text || !text[0])
        return y_top;
    const text_font *f = &pv->font;
    const text_metrics m = text_font_metrics(f, size);
    char line[1024];
    float y = y_top;
    const char *p = text;
    while (*p) {
        if (y + m.line_height > bottom + 0.5f)
            break;
        /* the next line: as many words as fit, up to a newline */
        const size_t para = strcspn(p, "\n");
        size_t take = 0; /* bytes of p on this line */
        size_t k = 0;
        while (k < para) {
            size_t word_end = k;
            while (word_end < para && p[word_end] == ' ')
                word_end++;
            while (word_end < para && p[word_end] != ' ')
                word_end++;
            const size_t len = word_end < sizeof line ? word_end : sizeof line - 1;
            memcpy(line, p, len);
            line[len] = '\0';
            if (text_width(f, size, line) > w)
                break;
            take = k = word_end;
        }
        if (take == 0 && para > 0) /* one word wider than the column: cut it */
            take = fit_bytes(f, size, p, para, w, line, sizeof line);
        const size_t len = take < sizeof line - 4 ? take : sizeof line - 4;
        memcpy(line, p, len);
        line[len] = '\0';
        const char *rest = p + take;
        while (*rest == ' ')
            rest++;
        if (*rest == '\n')
            rest++;
        const bool last = y + 2 * m.line_height > bottom + 0.5f;
        if (last && *rest) {
            /* the last line that fits, and more to say: an ellipsis shows it */
            size_t n = strlen(line);
            while (n > 0 && text_width(f, size, line) + text_width(f, size, "…") > w) {
                do
                    n--;
                while (n > 0 && ((unsigned char)line[n] & 0xC0) == 0x80);
                line[n] = '\0';
            }
            memcpy(line + n, "…", sizeof "…");
        }
        text_draw(f, &pv->batch, size, x, y + m.ascent, line, colour, TEXT_ALIGN_LEFT);
        y += m.line_height;
        p = rest;
        if (last)
            break;
    }
    return y;
}

static float label_w(const presenter_view *pv, int size, const char *s)
{
    return s && s[0] ? text_width(&pv->font, size, s) : 0;
}

/* One line, shortened with "…" to fit w. */
static void draw_line_fit(presenter_view *pv, int size, float x, float y, float w, const char *s,
                          rgba8 colour)
{
    if (!s || !s[0])
        return;
    draw_wrapped(pv, size, x, y - text_font_metrics(&pv->font, size).ascent, w,
                 y - text_font_metrics(&pv->font, size).ascent +
                     text_font_metrics(&pv->font, size).line_height,
                 s, colour);
}

/* ---- the page ------------------------------------------------------------------ */

void presenter_view_draw(presenter_view *pv, const presenter_layout *l, const presenter_page *pg,
                         int fb_w, int fb_h)
{
    if (!pv->ready || fb_w <= 0 || fb_h <= 0)
        return;
    const text_font_desc want = font_desc_of(l);
    if (memcmp(want.sizes, pv->font.sizes, sizeof want.sizes) != 0)
        text_font_resize(&pv->font, &want, NULL); /* failing, the old sizes stay */
    const theme th = theme_get(pg->theme);

    glViewport(0, 0, fb_w, fb_h);
    glDisable(GL_SCISSOR_TEST);
    glClearColor(th.panel.r / 255.0f, th.panel.g / 255.0f, th.panel.b / 255.0f, 1);
    glClearDepth(1);
    glDepthMask(GL_TRUE);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT); /* as frame.c */

    draw2d *b = &pv->batch;
    draw2d_begin(b, fb_w, fb_h);
    const float m = l->margin;
    const float line = fmaxf(1.0f, (float)fb_h / 360.0f);

    /* the top bar: where the talk is, how long it has run, the time of day */
    const text_metrics cm = text_font_metrics(&pv->font, PRESENTER_FONT_CLOCK);
    const float bar_base = l->bar_y0 + cm.ascent;
    text_draw(&pv->font, b, PRESENTER_FONT_CLOCK, m, bar_base, pg->beat ? pg->beat : "", th.text,
              TEXT_ALIGN_LEFT);
    text_draw(&pv->font, b, PRESENTER_FONT_CLOCK, (float)fb_w / 2, bar_base,
              pg->elapsed ? pg->elapsed : "", pg->elapsed_running ? th.text : th.text_dim,
              TEXT_ALIGN_CENTER);
    text_draw(&pv->font, b, PRESENTER_FONT_CLOCK, (float)fb_w - m, bar_base,
              pg->wall ? pg->wall : "", th.text, TEXT_ALIGN_RIGHT);
    draw2d_rect(b, m, l->bar_y1 + m / 2 - line / 2, (float)fb_w - 2 * m, line, th.grid);

    /* the left column: the beat's title, caption and notes */
    const frame_rect tr = l->text;
    const float tw = tr.x1 - tr.x0;
    draw2d_clip(b, tr.x0, tr.y0, tw, tr.y1 - tr.y0);
    float y = draw_wrapped(
        pv, PRESENTER_FONT_TITLE, tr.x0, tr.y0, tw,
        fminf(tr.y1, tr.y0 + 2 * text_font_metrics(&pv->font, PRESENTER_FONT_TITLE).line_height),
        pg->title, th.text);
    const text_metrics bm = text_font_metrics(&pv->font, PRESENTER_FONT_BODY);
    if (pg->caption && pg->caption[0])
        y = draw_wrapped(pv, PRESENTER_FONT_BODY, tr.x0, y + bm.line_height * 0.3f, tw, tr.y1,
                         pg->caption, th.text_dim);
    if (pg->notes && pg->notes[0]) {
        y += bm.line_height * 0.4f;
        draw2d_rect(b, tr.x0, y, tw, line, th.grid);
        y = draw_wrapped(pv, PRESENTER_FONT_BODY, tr.x0, y + bm.line_height * 0.3f, tw, tr.y1,
                         pg->notes, th.text);
    }
    draw2d_clip_off(b);

    /* the previews' labels and rims; a placeholder where no next beat is */
    const frame_viewport *pv_now = &l->now, *pv_next = &l->next;
    if (pv_now->w > 0 && pv_now->h > 0) {
        draw_line_fit(pv, PRESENTER_FONT_BODY, (float)pv_now->x, l->now_label_y, (float)pv_now->w,
                      pg->now_label, th.text_dim);
        draw2d_rect_outline(b, (float)pv_now->x - line, (float)pv_now->y - line,
                            (float)pv_now->w + 2 * line, (float)pv_now->h + 2 * line, line,
                            th.grid);
    }
    if (pv_next->w > 0 && pv_next->h > 0) {
        draw_line_fit(pv, PRESENTER_FONT_BODY, (float)pv_next->x, l->next_label_y,
                      (float)pv_next->w, pg->next_label, th.text_dim);
        draw2d_rect_outline(b, (float)pv_next->x - line, (float)pv_next->y - line,
                            (float)pv_next->w + 2 * line, (float)pv_next->h + 2 * line, line,
                            th.grid);
        if (!pg->has_next) {
            draw2d_rect(b, (float)pv_next->x, (float)pv_next->y, (float)pv_next->w,
                        (float)pv_next->h, th.background);
            const char *end = pg->no_next ? pg->no_next : "the end";
            if (label_w(pv, PRESENTER_FONT_BODY, end) < (float)pv_next->w)
                text_draw(&pv->font, b, PRESENTER_FONT_BODY,
                          (float)pv_next->x + (float)pv_next->w / 2,
                          (float)pv_next->y + (float)pv_next->h / 2 + bm.ascent / 2, end,
                          th.text_dim, TEXT_ALIGN_CENTER);
        }
    }
    draw2d_flush(b);
}
