/* test_text.c - the glyph atlas and strings drawn with it, headless (EGL,
 * llvmpipe on CI): widths, metrics, where a drawn string lands, the '?'
 * fallback, invalid UTF-8 and re-rendering at new sizes. Needs DejaVu Sans
 * (Debian package fonts-dejavu-core). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw2d.h"
#include "support/check.h"
#include "support/gl_fixture.h"
#include "text.h"

enum { W = 256, H = 128 };
enum { SMALL = 0, LARGE = 1 }; /* size indices */

static const rgba8 BLACK = {0, 0, 0, 255};
static const rgba8 WHITE = {255, 255, 255, 255};

static int setup(void **state)
{
    gl_fixture *fx = gl_fixture_new(
        &(gl_fixture_desc){.width = W, .height = H, .font = {.sizes = {14, 28}, .size_count = 2}});
    if (!fx)
        return -1;
    print_message("font %s: %d glyphs, atlas %d x %d\n", fx->font.path, fx->font.glyph_count,
                  fx->font.atlas_width, fx->font.atlas_height);
    *state = fx;
    return 0;
}

/* The bounding box of non-black pixels; false when there are none. */
static bool ink_box(const gl_fixture *fx, int box[4])
{
    box[0] = W, box[1] = H, box[2] = -1, box[3] = -1;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const rgba8 p = gl_fixture_pixel(fx, x, y);
            if (p.r | p.g | p.b) {
                box[0] = x < box[0] ? x : box[0];
                box[1] = y < box[1] ? y : box[1];
                box[2] = x > box[2] ? x : box[2];
                box[3] = y > box[3] ? y : box[3];
            }
        }
    return box[2] >= 0;
}

static bool has_codepoint(const text_font *f, unsigned cp)
{
    for (int i = 0; i < f->glyph_count; i++)
        if (f->codepoints[i] == cp)
            return true;
    return false;
}

static void test_widths(void **state)
{
    gl_fixture *fx = *state;
    float small = text_width(&fx->font, SMALL, "Hello");
    float large = text_width(&fx->font, LARGE, "Hello");
    print_message("\"Hello\": %.1f px at 14, %.1f px at 28\n", small, large);
    assert_gt(small, 0);
    assert_gt(large, small * 1.5f);
    assert_gt(text_width(&fx->font, SMALL, "W\xe2\x82\x81\xe2\x81\xb0"), /* W₁⁰ */
              text_width(&fx->font, SMALL, "W"));
    assert_true(text_width(&fx->font, SMALL, "") == 0.0f);
    /* Widths add up: no kerning or shaping. */
    float ab = text_width(&fx->font, SMALL, "ab");
    float a = text_width(&fx->font, SMALL, "a"), b = text_width(&fx->font, SMALL, "b");
    assert_true(ab == a + b);
}

/* The glyphs ppflow's labels need are in the atlas (DejaVu Sans has them). */
static void test_glyph_set(void **state)
{
    gl_fixture *fx = *state;
    /* clang-format off */
    const unsigned needed[] = {
        'A', 'z', '~', ' ',  0x03B1, 0x03C9, 0x0394, 0x03A3, 0x03A9, /* α ω Δ Σ Ω */
        0x2207, 0x2080, 0x2089, 0x208A, 0x208B, 0x2099,             /* ∇ ₀ ₉ ₊ ₋ ₙ */
        0x2070, 0x00B9, 0x00B2, 0x00B3, 0x2079, 0x207A, 0x207B, 0x207F, /* ⁰ ¹ ² ³ ⁹ ⁺ ⁻ ⁿ */
        0x00D7, 0x2248, 0x2264, 0x2265, 0x2212, 0x2013, 0x2014, 0x00B7, 0x2026, /* × ≈ ≤ ≥ − – — · … */
        0x2192, 0x2190, 0x2191, 0x2193, 0x25B6, 0x00B5, 0x00B0, 0x00B1, /* → ← ↑ ↓ ▶ µ ° ± */
    };
    /* clang-format on */
    for (size_t i = 0; i < sizeof needed / sizeof needed[0]; i++)
        if (!has_codepoint(&fx->font, needed[i]))
            fail_msg("U+%04X missing from the atlas", needed[i]);
    for (int i = 1; i < fx->font.glyph_count; i++)
        assert_lt(fx->font.codepoints[i - 1], fx->font.codepoints[i]);
}

static void test_metrics(void **state)
{
    gl_fixture *fx = *state;
    for (int s = SMALL; s <= LARGE; s++) {
        text_metrics m = text_font_metrics(&fx->font, s);
        print_message("size %d: ascent %.1f descent %.1f line %.1f\n", fx->font.sizes[s], m.ascent,
                      m.descent, m.line_height);
        assert_gt(m.ascent, 0.6f * fx->font.sizes[s]);
        assert_gt(m.descent, 0.1f * fx->font.sizes[s]);
        assert_ge(m.line_height, m.ascent + m.descent - 1.0f);
    }
}

/* A drawn string lights pixels inside [x, x + width] and between its
 * ascent and descent around the baseline, none outside; the returned
 * width is text_width's. */
static void test_draw_lands_in_box(void **state)
{
    gl_fixture *fx = *state;
    const float x = 20, y = 60;
    gl_fixture_begin(fx, BLACK);
    float w = text_draw(&fx->font, &fx->d, LARGE, x, y, "Hello, gjy!", WHITE, TEXT_ALIGN_LEFT);
    gl_fixture_finish(fx);
    assert_true(w == text_width(&fx->font, LARGE, "Hello, gjy!"));
    text_metrics m = text_font_metrics(&fx->font, LARGE);
    int box[4];
    assert_true(ink_box(fx, box));
    print_message("ink (%d, %d)-(%d, %d), string box x %.0f..%.0f, y %.0f..%.0f\n", box[0], box[1],
                  box[2], box[3], x, x + w, y - m.ascent, y + m.descent);
    assert_true(box[0] >= x - 1 && box[0] <= x + 4);
    assert_true(box[2] <= x + w + 1 && box[2] >= x + w - 10);
    assert_ge(box[1], y - m.ascent - 1);
    assert_le(box[3], y + m.descent + 1);
    assert_ge(box[3], y + 3); /* the descenders of g, j and y are there */
    assert_le(box[1], y - 15);
}

/* text_ink_rows gives the rows a drawn string inks, exactly: the first and
 * last rows with ink, at a fractional baseline too; none for blanks. */
static void test_ink_rows(void **state)
{
    gl_fixture *fx = *state;
    static const char *const strings[] = {"Hello, gjy!", "t = 12.00 / 40.00", "-", "\xe2\x88\x87"};
    for (size_t k = 0; k < sizeof strings / sizeof strings[0]; k++) {
        const float y = 60.4f;
        gl_fixture_begin(fx, BLACK);
        text_draw(&fx->font, &fx->d, LARGE, 20, y, strings[k], WHITE, TEXT_ALIGN_LEFT);
        gl_fixture_finish(fx);
        int box[4], top, bottom;
        assert_true(ink_box(fx, box));
        assert_true(text_ink_rows(&fx->font, LARGE, y, strings[k], &top, &bottom));
        print_message("\"%s\": ink rows %d..%d, text_ink_rows %d..%d\n", strings[k], box[1], box[3],
                      top, bottom - 1);
        assert_true(top <= box[1] && bottom - 1 >= box[3]);         /* nothing inked outside */
        assert_true(box[1] - top <= 1 && bottom - 1 - box[3] <= 1); /* a glyph's faint edge row */
    }
    int top, bottom;
    assert_false(text_ink_rows(&fx->font, LARGE, 60, "   ", &top, &bottom));
}

/* Centre and right alignment move the string by half and all of its width. */
static void test_align(void **state)
{
    gl_fixture *fx = *state;
    int left[4], center[4], right[4];
    float w = text_width(&fx->font, LARGE, "Hello");
    gl_fixture_begin(fx, BLACK);
    text_draw(&fx->font, &fx->d, LARGE, 100, 60, "Hello", WHITE, TEXT_ALIGN_LEFT);
    gl_fixture_finish(fx);
    assert_true(ink_box(fx, left));
    gl_fixture_begin(fx, BLACK);
    text_draw(&fx->font, &fx->d, LARGE, 100, 60, "Hello", WHITE, TEXT_ALIGN_CENTER);
    gl_fixture_finish(fx);
    assert_true(ink_box(fx, center));
    gl_fixture_begin(fx, BLACK);
    text_draw(&fx->font, &fx->d, LARGE, 100, 60, "Hello", WHITE, TEXT_ALIGN_RIGHT);
    gl_fixture_finish(fx);
    assert_true(ink_box(fx, right));
    assert_in_range(left[0] - center[0], (int)(w / 2) - 1, (int)(w / 2) + 1);
    assert_in_range(left[0] - right[0], (int)w - 1, (int)w + 1);
    assert_int_equal(left[1], right[1]);
}

/* Fails unless string a drawn at (ax, ay) and string b at (bx, by), both at
 * size index `size`, give the very same pixels. */
static void expect_same_pixels(gl_fixture *fx, int size, float ax, float ay, const char *a,
                               float bx, float by, const char *b)
{
    static uint8_t first[W * H * 4];
    gl_fixture_begin(fx, BLACK);
    text_draw(&fx->font, &fx->d, size, ax, ay, a, WHITE, TEXT_ALIGN_LEFT);
    gl_fixture_finish(fx);
    memcpy(first, fx->pixels, sizeof first);
    gl_fixture_begin(fx, BLACK);
    text_draw(&fx->font, &fx->d, size, bx, by, b, WHITE, TEXT_ALIGN_LEFT);
    gl_fixture_finish(fx);
    assert_memory_equal(first, fx->pixels, sizeof first);
}

/* Glyphs snap to whole pixels: a string at x + 0.3 is the one at x. */
static void test_snapped(void **state)
{
    expect_same_pixels(*state, SMALL, 10, 40, "Snap W\xe2\x82\x81", 10.3f, 39.8f,
                       "Snap W\xe2\x82\x81");
}

/* Glyphs are clipped exactly at the clip rectangle. */
static void test_clip(void **state)
{
    gl_fixture *fx = *state;
    gl_fixture_begin(fx, BLACK);
    draw2d_clip(&fx->d, 30, 0, 40, H);
    text_draw(&fx->font, &fx->d, LARGE, 10, 60, "MMMMMMMM", WHITE, TEXT_ALIGN_LEFT);
    draw2d_clip_off(&fx->d);
    gl_fixture_finish(fx);
    int box[4];
    assert_true(ink_box(fx, box));
    print_message("clip x 30..69, ink x %d..%d\n", box[0], box[2]);
    assert_in_range(box[0], 30, 33); /* M's stems may leave a column or two blank */
    assert_in_range(box[2], 66, 69);
}

/* Invalid UTF-8 draws one '?' per bad byte and never reads past the NUL. */
static void test_invalid_utf8(void **state)
{
    gl_fixture *fx = *state;
    float q = text_width(&fx->font, SMALL, "?");
    assert_gt(q, 0);
    assert_true(text_width(&fx->font, SMALL, "\xff\xfe") == 2 * q);
    /* A sequence cut short by the end of the string. */
    static const char cut[] = {'a', (char)0xe2, (char)0x82, '\0', 'x', 'x'};
    assert_true(text_width(&fx->font, SMALL, cut) == text_width(&fx->font, SMALL, "a") + 2 * q);
    assert_true(text_width(&fx->font, SMALL, "\xc0\xaf") == 2 * q);         /* overlong '/' */
    assert_true(text_width(&fx->font, SMALL, "\xed\xa0\x80") == 3 * q);     /* surrogate */
    assert_true(text_width(&fx->font, SMALL, "\xf4\x90\x80\x80") == 4 * q); /* > U+10FFFF */
    /* On the heap with nothing after the NUL, so ASan sees any overread. */
    char *lead = malloc(2);
    lead[0] = (char)0xf0, lead[1] = '\0';
    assert_true(text_width(&fx->font, SMALL, lead) == q);
    gl_fixture_begin(fx, BLACK);
    text_draw(&fx->font, &fx->d, SMALL, 10, 40, lead, WHITE, TEXT_ALIGN_LEFT);
    text_draw(&fx->font, &fx->d, SMALL, 10, 60, "\xff\xfe", WHITE, TEXT_ALIGN_LEFT);
    gl_fixture_finish(fx);
    free(lead);
    int box[4];
    assert_true(ink_box(fx, box));
}

/* A character outside the glyph set (U+4E00) draws as '?'. */
static void test_unknown_is_question_mark(void **state)
{
    gl_fixture *fx = *state;
    assert_true(text_width(&fx->font, LARGE, "\xe4\xb8\x80") == text_width(&fx->font, LARGE, "?"));
    expect_same_pixels(fx, LARGE, 10, 60, "?", 10, 60, "\xe4\xb8\x80");
}

/* Resizing re-renders at the new sizes; a bad desc leaves the font as it was. */
static void test_resize(void **state)
{
    gl_fixture *fx = *state;
    ppf_error err = {0};
    float before = text_width(&fx->font, LARGE, "Hello");
    unsigned texture = fx->font.texture;

    assert_false(
        text_font_resize(&fx->font, &(text_font_desc){.sizes = {0}, .size_count = 1}, &err));
    print_message("bad resize: %s\n", err.message);
    assert_non_null(strstr(err.message, "sizes[0] = 0"));
    assert_int_equal(fx->font.texture, texture);
    assert_true(text_width(&fx->font, LARGE, "Hello") == before);

    if (!text_font_resize(&fx->font, &(text_font_desc){.sizes = {10, 20, 40}, .size_count = 3},
                          &err))
        fail_msg("%s", err.message);
    assert_int_equal(fx->font.size_count, 3);
    assert_true(fx->font.texture != 0);
    float w10 = text_width(&fx->font, 0, "Hello"), w40 = text_width(&fx->font, 2, "Hello");
    assert_gt(w40, 3 * w10);
    gl_fixture_begin(fx, BLACK);
    text_draw(&fx->font, &fx->d, 2, 10, 80, "Hello", WHITE, TEXT_ALIGN_LEFT);
    gl_fixture_finish(fx);
    int box[4];
    assert_true(ink_box(fx, box));
    assert_ge(box[3] - box[1], 25);

    /* Back to the fixture's sizes for the tests that follow. */
    if (!text_font_resize(&fx->font, &(text_font_desc){.sizes = {14, 28}, .size_count = 2}, &err))
        fail_msg("%s", err.message);
    assert_true(text_width(&fx->font, LARGE, "Hello") == before);
}

/* A record keeps each non-empty string with its rectangle when asked for
 * the strings, cut to TEXT_STATS_TEXT_MAX - 1 bytes; without the array, only
 * the rectangles, as before. */
static void test_stats_keep_strings(void **state)
{
    gl_fixture *fx = *state;
    text_rect rects[4];
    char texts[4][TEXT_STATS_TEXT_MAX];
    text_stats st = {.rects = rects, .rect_capacity = 4, .texts = texts};
    char long_text[100];
    memset(long_text, 'a', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = 0;
    fx->font.stats = &st;
    gl_fixture_begin(fx, BLACK);
    text_draw(&fx->font, &fx->d, SMALL, 10, 20, "GPU 2 \xc2\xb7 replica 1", WHITE, TEXT_ALIGN_LEFT);
    text_draw(&fx->font, &fx->d, SMALL, 10, 40, "", WHITE, TEXT_ALIGN_LEFT);
    text_draw(&fx->font, &fx->d, LARGE, 100, 80, long_text, WHITE, TEXT_ALIGN_CENTER);
    gl_fixture_finish(fx);
    assert_int_equal(st.count, 3);
    assert_int_equal(st.rect_count, 2);
    assert_string_equal(texts[0], "GPU 2 \xc2\xb7 replica 1");
    assert_int_equal(strlen(texts[1]), TEXT_STATS_TEXT_MAX - 1);
    assert_true(strncmp(texts[1], long_text, TEXT_STATS_TEXT_MAX - 1) == 0);
    assert_true(rects[0].x0 == 10 && rects[1].y1 > 80);
    /* reset keeps the arrays; without texts only rectangles are kept */
    text_stats_reset(&st);
    assert_int_equal(st.rect_count, 0);
    assert_ptr_equal(st.texts, texts);
    st.texts = NULL;
    gl_fixture_begin(fx, BLACK);
    text_draw(&fx->font, &fx->d, SMALL, 10, 20, "x", WHITE, TEXT_ALIGN_LEFT);
    gl_fixture_finish(fx);
    assert_int_equal(st.rect_count, 1);
    fx->font.stats = NULL;
}

static void test_bad_desc(void **state)
{
    (void)state;
    ppf_error err = {0};
    text_font f = {0};
    assert_false(text_font_init(&f, &(text_font_desc){0}, &err));
    print_message("empty desc: %s\n", err.message);
    assert_non_null(strstr(err.message, "size_count = 0"));
    assert_int_equal(f.texture, 0);
    text_font_deinit(&f);
    text_font_deinit(&f);
    text_font_deinit(NULL);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_widths),
        cmocka_unit_test(test_glyph_set),
        cmocka_unit_test(test_metrics),
        cmocka_unit_test(test_ink_rows),
        cmocka_unit_test(test_draw_lands_in_box),
        cmocka_unit_test(test_align),
        cmocka_unit_test(test_snapped),
        cmocka_unit_test(test_clip),
        cmocka_unit_test(test_invalid_utf8),
        cmocka_unit_test(test_unknown_is_question_mark),
        cmocka_unit_test(test_resize),
        cmocka_unit_test(test_stats_keep_strings),
        cmocka_unit_test(test_bad_desc),
    };
    return cmocka_run_group_tests(tests, setup, gl_fixture_teardown) == 0 ? EXIT_SUCCESS
                                                                          : EXIT_FAILURE;
}
