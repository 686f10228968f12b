/* text.h - text from a glyph atlas: FreeType renders the glyphs of one font
 * (found through fontconfig, DejaVu Sans by default) once, at the pixel
 * sizes asked for, into one single-channel GL texture; drawing a string
 * appends one glyph quad per character to a draw2d batch.
 *
 * For: every label, the HUD, the legend, the timeline's numbers and the help
 * card. Strings are UTF-8; the atlas holds printable ASCII plus the Unicode
 * ppflow writes (Greek, ∇, sub- and superscript digits and letters, ×, ≈,
 * ≤, ≥, −, –, —, ·, …, →, ←, ▶, ⏸, µ), those of them the font has (DejaVu
 * Sans lacks ⏸); other characters draw as '?'.
 *
 * What it does not do: no shaping, no kerning beyond FreeType's advances,
 * no line wrapping (the caller places lines), no right-to-left text.
 *
 * Call order:
 *     text_font font = {0};
 *     text_font_init(&font, &(text_font_desc){ .sizes = {14, 20, 28}, .size_count = 3 }, &err);
 *     each frame: text_draw(&font, &batch, 1, x, y, "W₁⁰", color, TEXT_ALIGN_LEFT) ...
 *     when the window's size class changes: text_font_resize(&font, new_desc, &err)
 *     text_font_deinit(&font);
 * Sizes are addressed by their index in desc.sizes (0 = the first).
 *
 * Errors: text_font_init returns false with one line in *err (no font
 * found: names the Debian package fonts-dejavu-core; FreeType's error).
 */
#ifndef PPFLOW_TEXT_H
#define PPFLOW_TEXT_H

#include <stdbool.h>

#include "draw2d.h"
#include "error.h"

enum { TEXT_MAX_SIZES = 4 };

typedef struct text_font_desc {
    const char *family;        /* fontconfig family; NULL = "DejaVu Sans" */
    int sizes[TEXT_MAX_SIZES]; /* pixel heights (the em size), each > 0 */
    int size_count;            /* 1..TEXT_MAX_SIZES */
} text_font_desc;

/* How a string sits on its anchor point (x, y). y is always the baseline. */
typedef enum text_align {
    TEXT_ALIGN_LEFT = 0, /* x is where the string starts */
    TEXT_ALIGN_CENTER,   /* x is the string's middle */
    TEXT_ALIGN_RIGHT,    /* x is where the string ends */
} text_align;

typedef struct text_metrics {
    float ascent;      /* pixels above the baseline */
    float descent;     /* pixels below the baseline (positive) */
    float line_height; /* baseline to baseline */
    float cap_height;  /* pixels of a capital above the baseline ('H' as rendered): the
                          height legibility rules speak of */
} text_metrics;

/* The ink box of one drawn string, framebuffer pixels (y down). */
typedef struct text_rect {
    float x0, y0, x1, y1;
} text_rect;

/* The bytes of a drawn string a text_stats keeps with its rectangle: longer
 * strings are cut at TEXT_STATS_TEXT_MAX - 1 bytes (perhaps inside a UTF-8
 * character), always NUL-terminated. */
enum { TEXT_STATS_TEXT_MAX = 64 };

/* A record of what was drawn, for tests that hold the picture to its
 * legibility promises and its labels to their objects: set
 * text_font.stats, draw, read it. */
typedef struct text_stats {
    int count;         /* strings drawn (empty ones too) */
    float min_cap_px;  /* smallest cap height drawn; 0 when none was */
    text_rect *rects;  /* caller's array; NULL: no rectangles kept */
    int rect_capacity; /* its length (and texts' when set) */
    int rect_count;    /* rectangles kept: one per non-empty string, while room lasts */
    char (*texts)[TEXT_STATS_TEXT_MAX]; /* caller's array, rect_capacity long: texts[i] is the
                                           string of rects[i]; NULL: strings not kept */
} text_stats;

typedef struct text_font {
    unsigned texture; /* GL_R8 atlas; 0 when not initialised */
    int atlas_width, atlas_height;
    int size_count;
    int sizes[TEXT_MAX_SIZES];
    text_metrics metrics[TEXT_MAX_SIZES];
    struct text_glyph *glyphs; /* [size_count x glyph_count], implementation's layout */
    int glyph_count;
    unsigned *codepoints; /* [glyph_count] sorted, for lookup */
    char path[512];       /* the font file fontconfig chose */
    text_stats *stats;    /* not owned; when set, text_draw records every string here */
} text_font;

/* Finds the font, renders the atlas for every size; needs a current GL context. */
bool text_font_init(text_font *f, const text_font_desc *desc, ppf_error *err);
/* Re-renders the atlas at new sizes (same family); false leaves f as it was. */
bool text_font_resize(text_font *f, const text_font_desc *desc, ppf_error *err);
/* Releases the texture and memory; accepts a zeroed or deinited font. */
void text_font_deinit(text_font *f);

/* Width in pixels of the string at size index `size`. */
float text_width(const text_font *f, int size, const char *utf8);
/* The size's vertical metrics. */
text_metrics text_font_metrics(const text_font *f, int size);
/* The pixel rows the string's glyphs cover drawn with their baseline at y
 * (text_draw rounds it): rows *top to *bottom - 1, framebuffer y down;
 * false when it draws no ink. */
bool text_ink_rows(const text_font *f, int size, float y, const char *utf8, int *top, int *bottom);
/* Empties a record (keeps its arrays). */
void text_stats_reset(text_stats *st);
/* Appends the string's glyph quads to the batch (setting the batch's atlas)
 * with its baseline at y; returns the width drawn. Newlines are not special.
 * With f->stats set, the string's size and ink box (and the string, when
 * the record keeps texts) are recorded there. */
float text_draw(const text_font *f, draw2d *batch, int size, float x, float y, const char *utf8,
                rgba8 color, text_align align);

#endif
