/* frame_whatif_card.c - the what-if command line's card. See frame_whatif_card.h. */
#include "frame_whatif_card.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "colour.h"

/* Shortens text (UTF-8, in a buffer of size) from its end, with an
 * ellipsis, until it fits max_w pixels. */
static void shorten(const frame_renderer *f, int font, char *text, size_t size, float max_w)
{
    static const char ellipsis[] = "…";
    size_t n = strlen(text);
    while (n > 0 && text_width(&f->font, font, text) > max_w) {
        do
            n--;
        while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80);
        if (n + sizeof ellipsis <= size)
            memcpy(text + n, ellipsis, sizeof ellipsis);
    }
}

/* The tail of text that fits max_w pixels: its start dropped a character
 * at a time (the end being typed stays in view). */
static const char *tail(const frame_renderer *f, int font, const char *text, float max_w)
{
    while (*text && text_width(&f->font, font, text) > max_w) {
        text++;
        while (((unsigned char)*text & 0xC0) == 0x80)
            text++;
    }
    return text;
}

void frame_whatif_card_draw(frame_renderer *f, const frame_layout *l, const frame_whatif_card *c,
                            const theme *th)
{
    const bool open = c->text != NULL;
    const bool has_hint = open && c->hint && c->hint[0];
    const bool has_error = c->error && c->error[0];
    if (!open && !has_error)
        return;
    const text_metrics big = text_font_metrics(&f->font, FRAME_FONT_LARGE);
    const text_metrics body = text_font_metrics(&f->font, FRAME_FONT_BODY);
    const float pad = body.ascent * 0.6f;
    const float x = l->view_x + pad, w = l->view_w - 2 * pad;
    const float h = 2 * pad + (open ? big.line_height : 0) +
                    body.line_height * (float)((has_hint ? 1 : 0) + (has_error ? 1 : 0));
    /* down to the divider: the caption under it does not peek out */
    const float y = l->view_y + l->view_h - 2 * l->line_px - h;
    if (w <= 4 * pad)
        return;
    draw2d_rect(&f->batch, x, y, w, h,
                colour_with_alpha(th->panel, 255)); /* opaque: no ghost of the caption */
    draw2d_rect_outline(&f->batch, x, y, w, h, 2 * l->line_px, th->text_dim);
    const float room = w - 2 * pad;
    float base = y + pad;
    if (open) {
        base += big.ascent;
        const float prompt = text_draw(&f->font, &f->batch, FRAME_FONT_LARGE, x + pad, base, ": ",
                                       th->text_dim, TEXT_ALIGN_LEFT);
        const float cursor_w = fmaxf(2.0f, 2 * l->line_px);
        const char *shown = tail(f, FRAME_FONT_LARGE, c->text, room - prompt - 2 * cursor_w);
        const float tw = text_draw(&f->font, &f->batch, FRAME_FONT_LARGE, x + pad + prompt, base,
                                   shown, th->text, TEXT_ALIGN_LEFT);
        draw2d_rect(&f->batch, x + pad + prompt + tw + cursor_w * 0.5f, base - big.ascent, cursor_w,
                    big.ascent + big.descent, th->text);
        base += big.descent;
    }
    char line[PPF_ERROR_MAX + 64];
    if (has_hint) {
        snprintf(line, sizeof line, "%s", c->hint);
        shorten(f, FRAME_FONT_BODY, line, sizeof line, room);
        base += body.line_height - body.descent;
        text_draw(&f->font, &f->batch, FRAME_FONT_BODY, x + pad, base, line, th->text_dim,
                  TEXT_ALIGN_LEFT);
        base += body.descent;
    }
    if (has_error) {
        snprintf(line, sizeof line, "nothing changed: %s", c->error);
        shorten(f, FRAME_FONT_BODY, line, sizeof line, room);
        base += body.line_height - body.descent;
        text_draw(&f->font, &f->batch, FRAME_FONT_BODY, x + pad, base, line, th->text,
                  TEXT_ALIGN_LEFT);
    }
}
