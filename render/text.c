/* text.c - a FreeType glyph atlas and UTF-8 strings drawn as glyph quads.
 * See text.h.
 *
 * At init every glyph of the set below that the font has is rendered at
 * every size (normal antialiased bitmaps, hinted advances) and shelf-packed
 * into one GL_R8 texture; the FreeType face is closed again. Drawing is a
 * binary search per character and one quad, placed on whole pixels so that
 * texels map 1:1 to pixels (nearest filtering, no blur).
 */
#include "text.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <glad/gl.h>

static const char *const DEFAULT_FAMILY = "DejaVu Sans";
enum {
    MAX_PIXEL_SIZE = 256, /* beyond this one size alone would fill a 4096^2 atlas */
    ATLAS_PAD = 1,        /* empty texels around each glyph */
    MIN_ATLAS_WIDTH = 256,
};

/* One glyph at one size. */
struct text_glyph {
    int x, y, w, h; /* texels in the atlas; w = 0 for blank glyphs (space) */
    int left, top;  /* bitmap offset from the pen on the baseline (top: up) */
    float advance;  /* pen advance, pixels */
};

/* The glyph set beyond printable ASCII (U+0020..U+007E): what ppflow's
 * labels, HUD and help card write. Glyphs missing from the font are left
 * out at bake time and draw as '?'. */
static const unsigned EXTRA_RANGES[][2] = {
    {0x00B0, 0x00B3}, /* ° ± ² ³ */
    {0x00B5, 0x00B5}, /* µ */
    {0x00B7, 0x00B7}, /* · */
    {0x00B9, 0x00B9}, /* ¹ */
    {0x00D7, 0x00D7}, /* × */
    {0x00F7, 0x00F7}, /* ÷ */
    {0x0391, 0x03A9}, /* Greek capitals Α-Ω (Δ Σ Ω) */
    {0x03B1, 0x03C9}, /* Greek small α-ω */
    {0x1D40, 0x1D40}, /* ᵀ (transpose) */
    {0x2013, 0x2014}, /* – — */
    {0x2022, 0x2022}, /* • */
    {0x2026, 0x2026}, /* … */
    {0x2070, 0x2071}, /* ⁰ ⁱ */
    {0x2074, 0x207F}, /* ⁴-⁹ ⁺ ⁻ ⁼ ⁽ ⁾ ⁿ */
    {0x2080, 0x208E}, /* ₀-₉ ₊ ₋ ₌ ₍ ₎ */
    {0x2090, 0x209C}, /* subscript letters ₐ ₑ ₒ ₓ ... ₙ ₚ ₛ ₜ */
    {0x2190, 0x2194}, /* ← ↑ → ↓ ↔ */
    {0x2202, 0x2202}, /* ∂ */
    {0x2207, 0x2207}, /* ∇ */
    {0x2211, 0x2212}, /* ∑ − */
    {0x221A, 0x221A}, /* √ */
    {0x221E, 0x221E}, /* ∞ */
    {0x2248, 0x2248}, /* ≈ */
    {0x2260, 0x2260}, /* ≠ */
    {0x2264, 0x2265}, /* ≤ ≥ */
    {0x23F8, 0x23F8}, /* ⏸ */
    {0x25A0, 0x25A0}, /* ■ */
    {0x25B6, 0x25B6}, /* ▶ */
    {0x25C0, 0x25C0}, /* ◀ */
    {0x25CF, 0x25CF}, /* ● */
};

/* Decodes the character at *s (which must not point at the NUL) and moves
 * *s past it. A byte that does not start a valid, shortest-form sequence of
 * a scalar value decodes as '?' and only that byte is consumed. Continuation
 * bytes are read only while the previous ones were valid, and a NUL is never
 * a continuation byte, so this never reads past the terminator. */
static unsigned utf8_next(const char **s)
{
    const unsigned char *p = (const unsigned char *)*s;
    unsigned c = p[0], min;
    int extra;
    if (c < 0x80) {
        *s += 1;
        return c;
    } else if ((c & 0xE0) == 0xC0) {
        extra = 1, c &= 0x1F, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        extra = 2, c &= 0x0F, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        extra = 3, c &= 0x07, min = 0x10000;
    } else {
        *s += 1;
        return '?';
    }
    for (int i = 1; i <= extra; i++) {
        if ((p[i] & 0xC0) != 0x80) {
            *s += 1;
            return '?';
        }
        c = (c << 6) | (p[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
        *s += 1;
        return '?';
    }
    *s += 1 + extra;
    return c;
}

/* Index of the codepoint in f->codepoints, or -1. */
static int glyph_index(const text_font *f, unsigned cp)
{
    int lo = 0, hi = f->glyph_count - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (f->codepoints[mid] < cp)
            lo = mid + 1;
        else if (f->codepoints[mid] > cp)
            hi = mid - 1;
        else
            return mid;
    }
    return -1;
}

/* The glyph for the next character of *s at size index `size`: '?' for
 * anything outside the set, NULL if even '?' is missing. */
static const struct text_glyph *next_glyph(const text_font *f, int size, const char **s)
{
    int i = glyph_index(f, utf8_next(s));
    if (i < 0)
        i = glyph_index(f, '?');
    return i < 0 ? NULL : &f->glyphs[(size_t)size * f->glyph_count + i];
}

/* Asks fontconfig for the file of the family's regular face. A private
 * configuration, destroyed afterwards, leaves no global fontconfig state
 * behind (FcInit's global configuration leaks in fontconfig 2.14, which
 * LeakSanitizer reports); loading it costs a few milliseconds, once. */
static bool find_font(const char *family, char *path, size_t path_size, ppf_error *err)
{
    bool ok = false;
    FcConfig *config = NULL;
    FcPattern *pattern = NULL, *match = NULL;
    FcResult result = FcResultNoMatch;
    FcChar8 *file = NULL;

    config = FcInitLoadConfigAndFonts();
    if (!config) {
        ppf_fail(err, "font \"%s\": fontconfig failed to load its configuration", family);
        goto fail;
    }
    pattern = FcPatternCreate();
    if (!pattern)
        ppf_oom("FcPatternCreate");
    FcPatternAddString(pattern, FC_FAMILY, (const FcChar8 *)family);
    FcConfigSubstitute(config, pattern, FcMatchPattern);
    FcDefaultSubstitute(pattern);
    match = FcFontMatch(config, pattern, &result);
    if (!match || FcPatternGetString(match, FC_FILE, 0, &file) != FcResultMatch || !file) {
        ppf_fail(err,
                 "font \"%s\": fontconfig found no font file: install the Debian package "
                 "fonts-dejavu-core",
                 family);
        goto fail;
    }
    if (strlen((const char *)file) >= path_size) {
        ppf_fail(err, "font \"%s\": path too long: %s", family, (const char *)file);
        goto fail;
    }
    strcpy(path, (const char *)file);
    ok = true;

fail:
    if (match)
        FcPatternDestroy(match);
    if (pattern)
        FcPatternDestroy(pattern);
    if (config)
        FcConfigDestroy(config);
    return ok;
}

static int cmp_unsigned(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

/* A growing single-channel image with a fixed width, packed in shelves. */
struct packer {
    uint8_t *pixels;
    int width, rows; /* rows allocated */
    int x, y;        /* where the next glyph goes */
    int shelf;       /* height of the current shelf, padding included */
};

/* Places a w x h glyph; returns false when the width cannot hold it. */
static bool pack_glyph(struct packer *p, int w, int h, int *out_x, int *out_y)
{
    if (w + 2 * ATLAS_PAD > p->width)
        return false;
    if (p->x + w + ATLAS_PAD > p->width) {
        p->y += p->shelf;
        p->x = ATLAS_PAD;
        p->shelf = 0;
    }
    int need = p->y + h + ATLAS_PAD;
    if (need > p->rows) {
        int rows = p->rows ? p->rows : 64;
        while (rows < need)
            rows *= 2;
        p->pixels = ppf_realloc(p->pixels, (size_t)p->width * rows);
        memset(p->pixels + (size_t)p->width * p->rows, 0, (size_t)p->width * (rows - p->rows));
        p->rows = rows;
    }
    *out_x = p->x;
    *out_y = p->y;
    p->x += w + ATLAS_PAD;
    if (h + ATLAS_PAD > p->shelf)
        p->shelf = h + ATLAS_PAD;
    return true;
}

/* Copies a rendered FreeType bitmap (8-bit grey or 1-bit mono, either row
 * order) into the atlas at (x, y). */
static void copy_bitmap(struct packer *p, const FT_Bitmap *bm, int x, int y)
{
    for (unsigned r = 0; r < bm->rows; r++) {
        /* A negative pitch stores the bottom row first. */
        const unsigned char *src = bm->pitch >= 0
                                       ? bm->buffer + (size_t)r * bm->pitch
                                       : bm->buffer + (size_t)(bm->rows - 1 - r) * -bm->pitch;
        uint8_t *dst = p->pixels + (size_t)(y + (int)r) * p->width + x;
        if (bm->pixel_mode == FT_PIXEL_MODE_MONO) {
            for (unsigned c = 0; c < bm->width; c++)
                dst[c] = (src[c / 8] >> (7 - c % 8)) & 1 ? 255 : 0;
        } else {
            memcpy(dst, src, bm->width);
        }
    }
}

/* Renders the atlas for desc's sizes from the font file at path into *out
 * (which the caller zeroed). On failure releases what it made. */
static bool font_build(text_font *out, const char *path, const text_font_desc *desc, ppf_error *err)
{
    FT_Library lib = NULL;
    FT_Face face = NULL;
    FT_Error fterr;
    struct packer pk = {0};
    unsigned *cps = NULL;
    int n_cps = 0;

    if (desc->size_count < 1 || desc->size_count > TEXT_MAX_SIZES) {
        ppf_fail(err, "text: size_count = %d: must be 1..%d", desc->size_count, TEXT_MAX_SIZES);
        goto fail;
    }
    for (int s = 0; s < desc->size_count; s++) {
        if (desc->sizes[s] < 1 || desc->sizes[s] > MAX_PIXEL_SIZE) {
            ppf_fail(err, "text: sizes[%d] = %d: must be 1..%d pixels", s, desc->sizes[s],
                     MAX_PIXEL_SIZE);
            goto fail;
        }
    }
    snprintf(out->path, sizeof out->path, "%s", path);

    if ((fterr = FT_Init_FreeType(&lib)) != 0) {
        ppf_fail(err, "text: FreeType failed to start (error %d)", fterr);
        goto fail;
    }
    if ((fterr = FT_New_Face(lib, path, 0, &face)) != 0) {
        ppf_fail(err, "text: FreeType cannot open %s (error %d): install fonts-dejavu-core", path,
                 fterr);
        goto fail;
    }

    /* The glyph set: what the font has of ASCII and EXTRA_RANGES, sorted. */
    int max_cps = 0x7E - 0x20 + 1;
    for (size_t r = 0; r < sizeof EXTRA_RANGES / sizeof EXTRA_RANGES[0]; r++)
        max_cps += (int)(EXTRA_RANGES[r][1] - EXTRA_RANGES[r][0] + 1);
    cps = ppf_malloc((size_t)max_cps * sizeof *cps);
    for (unsigned c = 0x20; c <= 0x7E; c++)
        if (FT_Get_Char_Index(face, c))
            cps[n_cps++] = c;
    for (size_t r = 0; r < sizeof EXTRA_RANGES / sizeof EXTRA_RANGES[0]; r++)
        for (unsigned c = EXTRA_RANGES[r][0]; c <= EXTRA_RANGES[r][1]; c++)
            if (FT_Get_Char_Index(face, c))
                cps[n_cps++] = c;
    qsort(cps, (size_t)n_cps, sizeof *cps, cmp_unsigned);

    out->size_count = desc->size_count;
    out->glyph_count = n_cps;
    out->codepoints = cps;
    cps = NULL;
    out->glyphs = ppf_calloc((size_t)out->size_count * n_cps, sizeof *out->glyphs);

    /* Width: a power of two about the square root of the area needed (a
     * glyph's box is roughly 0.7 x 1.2 em), so the atlas comes out squarish. */
    GLint max_texture = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_texture);
    double area = 0;
    int max_size = 0;
    for (int s = 0; s < desc->size_count; s++) {
        area += n_cps * (0.7 * desc->sizes[s] + ATLAS_PAD) * (1.2 * desc->sizes[s] + ATLAS_PAD);
        if (desc->sizes[s] > max_size)
            max_size = desc->sizes[s];
    }
    pk.width = MIN_ATLAS_WIDTH;
    while ((pk.width < 2 * max_size + 2 * ATLAS_PAD || (double)pk.width * pk.width < area) &&
           pk.width < max_texture)
        pk.width *= 2;
    pk.x = pk.y = ATLAS_PAD;

    for (int s = 0; s < desc->size_count; s++) {
        out->sizes[s] = desc->sizes[s];
        if ((fterr = FT_Set_Pixel_Sizes(face, 0, (FT_UInt)desc->sizes[s])) != 0) {
            ppf_fail(err, "text: %s has no size %d px (FreeType error %d)", path, desc->sizes[s],
                     fterr);
            goto fail;
        }
        const FT_Size_Metrics *m = &face->size->metrics;
        out->metrics[s] = (text_metrics){
            .ascent = m->ascender / 64.0f,
            .descent = -m->descender / 64.0f,
            .line_height = m->height / 64.0f,
            /* Until 'H' is rendered below: FreeType's scaled cap height is
             * not in every font, the rendered glyph is. */
            .cap_height = m->ascender / 64.0f * 0.75f,
        };
        for (int i = 0; i < n_cps; i++) {
            struct text_glyph *g = &out->glyphs[(size_t)s * n_cps + i];
            if ((fterr = FT_Load_Char(face, out->codepoints[i], FT_LOAD_RENDER)) != 0) {
                ppf_fail(err, "text: %s: cannot render U+%04X at %d px (FreeType error %d)", path,
                         out->codepoints[i], desc->sizes[s], fterr);
                goto fail;
            }
            const FT_GlyphSlot slot = face->glyph;
            const FT_Bitmap *bm = &slot->bitmap;
            *g = (struct text_glyph){
                .w = (int)bm->width,
                .h = (int)bm->rows,
                .left = slot->bitmap_left,
                .top = slot->bitmap_top,
                .advance = slot->advance.x / 64.0f,
            };
            if (out->codepoints[i] == 'H' && bm->rows > 0)
                out->metrics[s].cap_height = (float)slot->bitmap_top;
            if (g->w == 0 || g->h == 0) {
                g->w = g->h = 0;
                continue;
            }
            if (!pack_glyph(&pk, g->w, g->h, &g->x, &g->y)) {
                ppf_fail(err, "text: glyph U+%04X at %d px is %d px wide: more than the atlas (%d)",
                         out->codepoints[i], desc->sizes[s], g->w, pk.width);
                goto fail;
            }
            copy_bitmap(&pk, bm, g->x, g->y);
        }
    }
    int height = pk.y + pk.shelf + ATLAS_PAD;
    if (height > max_texture) {
        ppf_fail(err, "text: the glyph atlas needs %d x %d texels, more than GL allows (%d)",
                 pk.width, height, max_texture);
        goto fail;
    }
    if (height > pk.rows) { /* only when no glyph had pixels at all */
        pk.pixels = ppf_realloc(pk.pixels, (size_t)pk.width * height);
        memset(pk.pixels + (size_t)pk.width * pk.rows, 0, (size_t)pk.width * (height - pk.rows));
        pk.rows = height;
    }

    GLint old_alignment = 4;
    glGetIntegerv(GL_UNPACK_ALIGNMENT, &old_alignment);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1); /* rows of any width */
    glGenTextures(1, &out->texture);
    glBindTexture(GL_TEXTURE_2D, out->texture);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, pk.width, height, 0, GL_RED, GL_UNSIGNED_BYTE, pk.pixels);
    /* Glyph quads sit on whole pixels, so nearest sampling is exact (and
     * cheaper than linear on llvmpipe). */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);
    glPixelStorei(GL_UNPACK_ALIGNMENT, old_alignment);
    GLenum gl_err = glGetError();
    if (gl_err != GL_NO_ERROR) {
        ppf_fail(err, "text: creating the %d x %d glyph atlas failed (GL error 0x%04x)", pk.width,
                 height, gl_err);
        goto fail;
    }
    out->atlas_width = pk.width;
    out->atlas_height = height;

    free(pk.pixels);
    FT_Done_Face(face);
    FT_Done_FreeType(lib);
    return true;

fail:
    text_font_deinit(out);
    free(cps);
    free(pk.pixels);
    if (face)
        FT_Done_Face(face);
    if (lib)
        FT_Done_FreeType(lib);
    return false;
}

bool text_font_init(text_font *f, const text_font_desc *desc, ppf_error *err)
{
    assert(f && desc);
    *f = (text_font){0};
    const char *family = desc->family ? desc->family : DEFAULT_FAMILY;
    char path[sizeof f->path];
    if (!find_font(family, path, sizeof path, err))
        return false;
    return font_build(f, path, desc, err);
}

bool text_font_resize(text_font *f, const text_font_desc *desc, ppf_error *err)
{
    assert(f && f->texture && desc);
    /* Build the new atlas first so that a failure leaves f untouched. */
    text_font fresh = {0};
    if (!font_build(&fresh, f->path, desc, err))
        return false;
    fresh.stats = f->stats; /* the caller's record goes on */
    text_font_deinit(f);
    *f = fresh;
    return true;
}

void text_font_deinit(text_font *f)
{
    if (!f)
        return;
    if (f->texture)
        glDeleteTextures(1, &f->texture);
    free(f->glyphs);
    free(f->codepoints);
    *f = (text_font){0};
}

float text_width(const text_font *f, int size, const char *utf8)
{
    assert(f && utf8 && size >= 0 && size < f->size_count);
    float width = 0;
    for (const char *s = utf8; *s;) {
        const struct text_glyph *g = next_glyph(f, size, &s);
        if (g)
            width += g->advance;
    }
    return width;
}

bool text_ink_rows(const text_font *f, int size, float y, const char *utf8, int *top, int *bottom)
{
    assert(f && utf8 && size >= 0 && size < f->size_count);
    const int base = (int)floorf(y + 0.5f); /* as text_draw places glyphs */
    bool any = false;
    for (const char *s = utf8; *s;) {
        const struct text_glyph *g = next_glyph(f, size, &s);
        if (!g || g->w == 0)
            continue;
        const int t = base - g->top, b = t + g->h;
        *top = any && *top < t ? *top : t;
        *bottom = any && *bottom > b ? *bottom : b;
        any = true;
    }
    return any;
}

text_metrics text_font_metrics(const text_font *f, int size)
{
    assert(f && size >= 0 && size < f->size_count);
    return f->metrics[size];
}

void text_stats_reset(text_stats *st)
{
    st->count = 0;
    st->min_cap_px = 0;
    st->rect_count = 0;
}

/* Counts the string and keeps its ink box: from a little over the cap
 * height (ascenders) to the descent; and the string when asked. */
static void record(const text_font *f, int size, float x, float y, float width, const char *utf8)
{
    text_stats *st = f->stats;
    const text_metrics *m = &f->metrics[size];
    if (st->count == 0 || m->cap_height < st->min_cap_px)
        st->min_cap_px = m->cap_height;
    st->count++;
    if (!utf8[0] || !st->rects || st->rect_count >= st->rect_capacity)
        return;
    const float base = floorf(y + 0.5f);
    if (st->texts)
        snprintf(st->texts[st->rect_count], TEXT_STATS_TEXT_MAX, "%s", utf8);
    st->rects[st->rect_count++] =
        (text_rect){x, base - m->cap_height * 1.05f, x + width, base + m->descent};
}

float text_draw(const text_font *f, draw2d *batch, int size, float x, float y, const char *utf8,
                rgba8 color, text_align align)
{
    assert(f && batch && utf8 && size >= 0 && size < f->size_count);
    float width = text_width(f, size, utf8);
    if (align == TEXT_ALIGN_CENTER)
        x -= 0.5f * width;
    else if (align == TEXT_ALIGN_RIGHT)
        x -= width;
    if (f->stats)
        record(f, size, x, y, width, utf8);
    draw2d_set_atlas(batch, f->texture);

    /* Whole pixels for every glyph: the pen stays fractional, each glyph's
     * origin and the baseline are rounded, so texels land on pixels. */
    const float base = floorf(y + 0.5f);
    const float su = 1.0f / f->atlas_width, sv = 1.0f / f->atlas_height;
    float pen = x;
    for (const char *s = utf8; *s;) {
        const struct text_glyph *g = next_glyph(f, size, &s);
        if (!g)
            continue;
        if (g->w > 0) {
            float gx = floorf(pen + 0.5f) + (float)g->left;
            float gy = base - (float)g->top;
            draw2d_glyph(batch, gx, gy, gx + (float)g->w, gy + (float)g->h, (float)g->x * su,
                         (float)g->y * sv, (float)(g->x + g->w) * su, (float)(g->y + g->h) * sv,
                         color);
        }
        pen += g->advance;
    }
    return width;
}
