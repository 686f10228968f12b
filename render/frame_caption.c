/* frame_caption.c - the caption at the foot of the 3D view: one line, or
 * a long one (a beat's, read out in a hall) wrapped onto balanced lines
 * that grow upwards over the scene. Part of the frame (frame.h); private to
 * render/frame*.c through frame_internal.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "colour.h"
#include "frame_internal.h"

/* A caption wraps onto at most this many lines (a beat's caption of 255
 * bytes needs three at 720p), and they cover at most this share of the 3D
 * view's height, growing upwards from its foot; what does not fit them
 * ends in an ellipsis. */
enum { CAPTION_LINES_MAX = 6 };
#define CAPTION_HEIGHT_SHARE 0.45f

/* The width of text[start, end). */
static float span_width(const frame_renderer *f, const char *text, int start, int end)
{
    char part[256];
    const int n = end - start < (int)sizeof part ? end - start : (int)sizeof part - 1;
    memcpy(part, text + start, (size_t)(n > 0 ? n : 0));
    part[n > 0 ? n : 0] = '\0';
    return text_width(&f->font, FRAME_FONT_BODY, part);
}

/* Whether a line may break at the space text[k]: the first of a run of
 * spaces, not at the text's ends, never next to an "=" ("t = 11.5" stays
 * whole). */
static bool caption_may_break(const char *text, int k)
{
    if (k <= 0 || text[k] != ' ' || text[k - 1] == ' ')
        return false;
    const char *tail = text + k;
    while (*tail == ' ')
        tail++;
    return *tail && text[k - 1] != '=' && *tail != '=';
}

/* Where a caption too long for one line breaks into two: among the spaces
 * whose two lines both fit max_w, the one that makes the longer line
 * shortest (balanced lines read better than a full line over a short one),
 * a break after a clause's punctuation counting a fifth shorter. -1 when
 * no break lets both lines fit. */
static int caption_break(const frame_renderer *f, const char *text, float max_w)
{
    int best = -1;
    float best_cost = 0;
    for (int k = 1; text[k] && k < 256; k++) {
        if (!caption_may_break(text, k))
            continue;
        int tail = k;
        while (text[tail] == ' ')
            tail++;
        const float longer =
            fmaxf(span_width(f, text, 0, k), span_width(f, text, tail, (int)strlen(text)));
        const float cost = strchr(":;,.", text[k - 1]) ? longer * 0.8f : longer;
        if (longer <= max_w && (best < 0 || cost < best_cost))
            best = k, best_cost = cost;
    }
    return best;
}

/* Lines of text no wider than w, each as long as fits (breaking at a space
 * caption_may_break allows, or between two characters inside a word wider
 * than the line, such as a long compound, a path or a run of CJK); their
 * [start, end) into starts/ends when not NULL, at most max. Returns how
 * many lines the whole text takes (which may exceed max). */
static int caption_wrap(const frame_renderer *f, const char *text, float w, int *starts, int *ends,
                        int max)
{
    const int len = (int)strlen(text);
    int count = 0, at = 0;
    while (at < len) {
        while (text[at] == ' ')
            at++;
        if (at >= len)
            break;
        int end = -1;
        for (int k = at + 1; k <= len; k++) { /* the last break that fits */
            if (k < len && !caption_may_break(text, k))
                continue;
            if (span_width(f, text, at, k) > w)
                break;
            end = k;
        }
        if (end < 0) { /* a word wider than the line: as many characters as fit, one at least */
            int k = at;
            do
                k++;
            while (k < len && ((unsigned char)text[k] & 0xC0) == 0x80);
            end = k;
            while (end < len) {
                int next = end + 1;
                while (next < len && ((unsigned char)text[next] & 0xC0) == 0x80)
                    next++;
                if (span_width(f, text, at, next) > w)
                    break;
                end = next;
            }
        }
        if (starts && count < max)
            starts[count] = at, ends[count] = end;
        count++;
        at = end;
    }
    return count;
}

/* The caption: one line centred at the view's foot; a longer one (a beat's
 * caption, read out in a hall) wraps onto lines above it, its plate
 * growing upwards over the bottom of the scene: two balanced lines when
 * two do (caption_break), else as many as it takes (caption_wrap, at the
 * narrowest width that needs no more lines, so that they are balanced
 * too), up to CAPTION_LINES_MAX within CAPTION_HEIGHT_SHARE of the view and
 * never over a card already placed (a narrow pane's legend). Only what
 * does not fit those lines ends in an ellipsis. */
void frame_draw_caption(frame_renderer *f, const scene *s, const frame_layout *l,
                        const frame_view *v, const theme *th, label_set *ls)
{
    char text[256];
    if (v->caption) {
        snprintf(text, sizeof text, "%s", v->caption);
    } else {
        int rank = v->caption_rank >= 0 && v->caption_rank < s->ranks ? v->caption_rank
                                                                      : scene_caption_rank(s, v->t);
        scene_caption(s, v->t, rank, text, sizeof text);
    }
    text_metrics m = text_font_metrics(&f->font, FRAME_FONT_BODY);
    const float pad = m.ascent * 0.5f, max_w = l->view_w - 4 * pad;
    const float bottom = l->view_y + l->view_h - m.line_height - pad; /* the last line's top */
    int starts[CAPTION_LINES_MAX], ends[CAPTION_LINES_MAX];
    int n = 1, len = (int)strlen(text);
    starts[0] = 0, ends[0] = len;
    if (max_w > 0 && text_width(&f->font, FRAME_FONT_BODY, text) > max_w) {
        const int cut = caption_break(f, text, max_w);
        if (cut > 0) {
            int tail = cut;
            while (text[tail] == ' ')
                tail++;
            n = 2, ends[0] = cut, starts[1] = tail, ends[1] = len;
        } else {
            n = caption_wrap(f, text, max_w, NULL, NULL, 0);
            float lo = 0, hi = max_w; /* the narrowest width that needs no more lines */
            for (int k = 0; k < 14 && n <= CAPTION_LINES_MAX; k++) {
                const float mid = 0.5f * (lo + hi);
                if (caption_wrap(f, text, mid, NULL, NULL, 0) <= n)
                    hi = mid;
                else
                    lo = mid;
            }
            caption_wrap(f, text, n <= CAPTION_LINES_MAX ? hi : max_w, starts, ends,
                         CAPTION_LINES_MAX);
        }
    }
    /* the lines above the last grow upwards: within the view's share, and
       not over a card already placed, where fewer lines must do */
    while (n > 1) {
        const float top = bottom - (float)(n - 1) * m.line_height;
        const label_rect above = {l->view_x, top - pad * 0.5f, l->view_x + l->view_w, bottom};
        if (n <= CAPTION_LINES_MAX &&
            bottom + m.line_height - top <= CAPTION_HEIGHT_SHARE * l->view_h &&
            !overlaps(ls, above))
            break;
        n--;
    }
    char lines[CAPTION_LINES_MAX][256];
    float w[CAPTION_LINES_MAX], plate_w = 0;
    for (int k = 0; k < n; k++) {
        const int end = k == n - 1 ? len : ends[k]; /* the last line takes the rest */
        snprintf(lines[k], sizeof lines[k], "%.*s", end - starts[k], text + starts[k]);
        w[k] = frame_fit_with_ellipsis(f, FRAME_FONT_BODY, lines[k], sizeof lines[k], max_w);
        plate_w = fmaxf(plate_w, w[k]);
    }
    const float top = bottom - (float)(n - 1) * m.line_height;
    const float x = l->view_x + (l->view_w - plate_w) / 2;
    draw2d_rect(&f->batch, x - pad, top - pad * 0.5f, plate_w + 2 * pad,
                (float)n * m.line_height + pad, colour_with_alpha(th->panel, 215));
    ls->placed[ls->count++] = (label_rect){x - pad, top - pad * 0.5f, x + plate_w + pad,
                                           bottom + m.line_height + pad * 0.5f};
    for (int k = 0; k < n; k++)
        text_draw(&f->font, &f->batch, FRAME_FONT_BODY, l->view_x + (l->view_w - w[k]) / 2,
                  top + (float)k * m.line_height + m.ascent, lines[k], th->text, TEXT_ALIGN_LEFT);
}
