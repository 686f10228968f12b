/* Tests of the timeline figure (app/export/svg.h, pdf.h): its structure
 * rather than its bytes (a root with a viewBox and a font stack, the title
 * and description carrying the alt text, one bar per compute action, one
 * arrow per p2p transfer, one lane bar per all-reduce, the patterns every
 * fill names, ticks on the axis), the labels in its <text> elements (rank
 * names, micro-batch numbers), well-formed XML by a small checker here and,
 * when installed (tools/deps.sh installs them), by xmllint and rsvg-convert;
 * and the program's paths to it: schedule --format svg|pdf, render --still
 * T -o fig.svg, and bad targets handled like every other -o. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "action.h"
#include "pdf.h"
#include "support/check.h"
#include "support/child.h"
#include "support/run_fixture.h"
#include "support/scratch.h"
#include "svg.h"
#include "timeline.h"

static char dir[256];

/* ---- helpers ------------------------------------------------------------- */

/* The figure of x's timeline as a string (to free). */
static char *figure_of(const timeline *tl, const svg_desc *d)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    ppf_error err = {{0}};
    assert_true(svg_write_timeline(f, tl, d, &err));
    assert_int_equal(fclose(f), 0);
    return text;
}

static int count_of(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static int compute_actions(const timeline *tl)
{
    int n = 0;
    for (int r = 0; r < tl->program->ranks; r++)
        for (int k = 0; k < tl->program->rank[r].count; k++)
            n += action_is_compute((action_kind)tl->program->rank[r].actions[k].kind);
    return n;
}

/* Well-formed enough for the figure's subset of XML: every element closed in
 * order, attributes quoted, text free of raw '<' and stray '&'. Fails the
 * test at the first fault, naming the offset. */
static void expect_well_formed(const char *s)
{
    const char *stack[64];
    size_t stack_len[64];
    int depth = 0, roots = 0;
    const char *p = strstr(s, "?>");
    assert_non_null(p);
    for (p += 2; *p; p++) {
        if (*p == '&') {
            const char *semi = strchr(p, ';');
            assert_non_null(semi);
            assert_le(semi - p, 6);
            continue;
        }
        if (*p != '<')
            continue;
        const char *name = p + 1 + (p[1] == '/');
        const size_t n = strcspn(name, " \t\n/>");
        const char *end = strchr(p, '>');
        assert_non_null(end);
        /* attributes: name="value" pairs with no '<' inside */
        int quotes = 0;
        for (const char *q = name + n; q < end; q++) {
            assert_false(*q == '<');
            quotes += *q == '"';
        }
        assert_true(quotes % 2 == 0);
        if (p[1] == '/') {
            assert_gt(depth, 0);
            depth--;
            if (stack_len[depth] != n || strncmp(stack[depth], name, n) != 0)
                fail_msg("closing </%.*s> at offset %ld closes <%.*s>", (int)n, name, (long)(p - s),
                         (int)stack_len[depth], stack[depth]);
        } else if (end[-1] != '/') {
            assert_lt(depth, 64);
            if (depth == 0)
                roots++;
            stack[depth] = name;
            stack_len[depth++] = n;
        } else if (depth == 0) {
            roots++;
        }
        p = end;
    }
    assert_int_equal(depth, 0);
    assert_int_equal(roots, 1);
}

/* Every url(#id) a fill or marker names is defined as id="id". */
static void expect_references_defined(const char *s)
{
    for (const char *p = strstr(s, "url(#"); p; p = strstr(p + 1, "url(#")) {
        char id[64];
        const size_t n = strcspn(p + 5, ")");
        assert_lt(n, sizeof id - 8);
        snprintf(id, sizeof id, "id=\"%.*s\"", (int)n, p + 5);
        if (!strstr(s, id))
            fail_msg("url(#%.*s) is used but not defined", (int)n, p + 5);
    }
}

static const char *tool(const char *path)
{
    return access(path, X_OK) == 0 ? path : NULL;
}

/* xmllint --noout and rsvg-convert on the figure, each when installed. */
static void expect_tools_accept(const char *svg)
{
    char path[512], png[512];
    scratch_join(path, sizeof path, dir, "tools.svg");
    scratch_join(png, sizeof png, dir, "tools.png");
    scratch_write(path, svg);
    if (tool("/usr/bin/xmllint")) {
        child_result r = child_run(&(child_desc){
            .exe = "/usr/bin/xmllint", .capture_dir = dir, .args = CHILD_ARGS("--noout", path)});
        if (r.status != 0)
            fail_msg("xmllint: %s", r.err);
        child_result_deinit(&r);
    }
    if (tool("/usr/bin/rsvg-convert")) {
        child_result r = child_run(&(child_desc){.exe = "/usr/bin/rsvg-convert",
                                                 .capture_dir = dir,
                                                 .args = CHILD_ARGS("-o", png, path)});
        if (r.status != 0)
            fail_msg("rsvg-convert: %s", r.err);
        assert_true(scratch_exists(png));
        child_result_deinit(&r);
    }
}

/* ---- the golden structure ------------------------------------------------ */

static void test_alt_text(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "1f1b", .P = 4, .M = 8});
    char alt[128];
    svg_alt_text(&x.tl, alt, sizeof alt);
    assert_string_equal(alt, "1F1B schedule, 4 ranks, 8 micro-batches, bubble 27.3%");
    char *svg = figure_of(&x.tl, &(svg_desc){0});
    assert_non_null(
        strstr(svg, "<title id=\"title\">1F1B schedule, 4 ranks, 8 micro-batches, bubble 27.3%"));
    assert_non_null(strstr(svg, "<desc id=\"desc\">1F1B schedule, 4 ranks"));
    free(svg);
    run_fixture_deinit(&x);

    char name[64];
    assert_string_equal(svg_schedule_title("zb-h1", name, sizeof name), "Zero Bubble H1");
    assert_string_equal(svg_schedule_title("gpipe", name, sizeof name), "GPipe");
    assert_string_equal(svg_schedule_title("dualpipev", name, sizeof name), "DualPipeV");
}

/* 1F1B, P=4, M=8, D=2, p2p 0.3, all-reduce 2: every kind of mark. */
static void test_structure(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_init(&x,
                     &(run_fixture_desc){
                         .schedule = "1f1b", .P = 4, .M = 8, .D = 2, .p2p = 0.3, .allreduce = 2});
    char *svg = figure_of(&x.tl, &(svg_desc){0});
    expect_well_formed(svg);
    expect_references_defined(svg);
    assert_true(strncmp(svg, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 44) == 0);
    assert_non_null(strstr(svg, "xmlns=\"http://www.w3.org/2000/svg\""));
    assert_non_null(strstr(svg, " viewBox=\"0 0 1000 "));
    assert_non_null(strstr(svg, "font-family=\"" SVG_FONT_FAMILY "\""));
    assert_int_equal(count_of(svg, "<title id=\"title\">"), 1);
    assert_int_equal(count_of(svg, "<desc id=\"desc\">"), 1);
    /* text is text: no glyph outlines */
    assert_null(strstr(svg, "<glyph"));
    assert_int_equal(count_of(svg, "class=\"bar bar-"), compute_actions(&x.tl));
    assert_int_equal(count_of(svg, "class=\"bar bar-F\""), 4 * 8);
    assert_int_equal(count_of(svg, "class=\"bar bar-B\""), 4 * 8);
    assert_int_equal(count_of(svg, "class=\"bar dense\""), 0);
    assert_int_equal(count_of(svg, "marker-end=\"url(#arrow)\""), x.tl.p2p_count + 1 /* legend */);
    assert_int_equal(x.tl.p2p_count, 2 * 3 * 8);
    assert_int_equal(x.tl.allreduce_count, 4);
    const char *lane = strstr(svg, "<g class=\"allreduce\"");
    assert_non_null(lane);
    assert_int_equal(count_of(lane, "all-reduce of stage"), 4);
    assert_non_null(strstr(svg, "id=\"pattern-B\""));
    assert_non_null(strstr(svg, "id=\"pattern-bubble\""));
    assert_non_null(strstr(svg, "fill=\"#009E73\"")); /* F in the window's green */
    /* ticks every 5 over a makespan past 35 */
    assert_true(x.tl.makespan > 35 && x.tl.makespan < 45);
    assert_int_equal(count_of(svg, "class=\"tick\""), (int)(x.tl.makespan / 5) + 1);
    assert_non_null(strstr(svg, ">35</text>"));
    assert_null(strstr(svg, "class=\"cursor\""));
    free(svg);
    run_fixture_deinit(&x);
}

/* The labels are <text> elements: one per rank name, and every micro-batch
 * number on the bars that carry it. */
static void test_text_carries_labels(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "1f1b", .P = 4, .M = 8});
    char *svg = figure_of(&x.tl, &(svg_desc){0});
    for (int r = 0; r < 4; r++) {
        char label[32];
        snprintf(label, sizeof label, ">rank %d</text>", r);
        assert_int_equal(count_of(svg, label), 1);
    }
    /* each micro-batch's F and B on each of the 4 ranks; 0..7 are not tick
     * labels (those are 0, 5, 10, ...) except 0 and 5, counted apart; the
     * memory lane's counts (its own group, after the axis's) set aside */
    char *memory_labels = strstr(svg, "<g class=\"memory-labels\">");
    assert_non_null(memory_labels);
    char *end = strstr(memory_labels, "</g>");
    assert_non_null(end);
    const size_t cut = (size_t)(memory_labels - svg), cut_end = (size_t)(end - svg);
    char *counts = strndup(memory_labels, cut_end - cut);
    memmove(memory_labels, end, strlen(end) + 1);
    for (int m = 0; m < 8; m++) {
        char label[32];
        snprintf(label, sizeof label, ">%d</text>", m);
        const int ticks = (m == 0 || m == 5) ? 1 : 0;
        assert_int_equal(count_of(svg, label), 2 * 4 + ticks);
    }
    assert_non_null(strstr(svg, ">memory</text>"));
    assert_non_null(strstr(svg, ">peak 4</text>"));
    /* each rank's memory sub-lane named with its peak (1F1B: 4, 3, 2, 1),
     * its plateaus counted, in a colour other than F's green */
    for (int r = 0; r < 4; r++) {
        char label[48];
        snprintf(label, sizeof label, ">rank %d · peak %d</text>", r, 4 - r);
        assert_int_equal(count_of(counts, label), 1);
        snprintf(label, sizeof label, ">%d</text>", 4 - r);
        assert_true(count_of(counts, label) >= 2);
    }
    free(counts);
    char *path = strstr(svg, "<path data-rank=\"0\"");
    assert_non_null(path);
    const char *path_end = strstr(path, "/>");
    const char *fill = strstr(path, "fill=\"#56B4E9\""); /* sky blue, not #009E73 */
    assert_true(fill != NULL && path_end != NULL && fill < path_end);
    assert_non_null(strstr(svg, ">idle (bubble)</text>"));
    free(svg);
    run_fixture_deinit(&x);
}

static void test_schedules_and_tools(void **state)
{
    (void)state;
    const run_fixture_desc cases[] = {
        {.schedule = "zb-h1", .P = 4, .M = 8, .D = 2, .p2p = 0.3, .allreduce = 2},
        {.schedule = "dualpipev", .P = 4, .M = 8, .D = 2, .p2p = 0.1, .allreduce = 2},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        run_fixture x = {0};
        run_fixture_init(&x, &cases[k]);
        char *svg = figure_of(&x.tl, &(svg_desc){.dark = k == 1, .cursor = true, .cursor_t = 6});
        expect_well_formed(svg);
        expect_references_defined(svg);
        assert_int_equal(count_of(svg, "class=\"bar bar-") + count_of(svg, "class=\"bar dense\""),
                         compute_actions(&x.tl));
        assert_int_equal(count_of(svg, "<g class=\"cursor\">"), 1);
        assert_non_null(strstr(svg, k == 0 ? "class=\"bar bar-W\"" : "class=\"bar bar-FB\""));
        expect_tools_accept(svg);
        free(svg);
        run_fixture_deinit(&x);
    }
}

/* Thousands of bars thinner than a unit become a few runs per rank. */
static void test_dense(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "1f1b", .P = 4, .M = 4000});
    char *svg = figure_of(&x.tl, &(svg_desc){0});
    expect_well_formed(svg);
    assert_ge(count_of(svg, "class=\"bar dense\""), 4);
    assert_lt(count_of(svg, "class=\"bar bar-"), 100);
    assert_lt(strlen(svg), 200000);
    free(svg);
    run_fixture_deinit(&x);
}

/* ---- the program --------------------------------------------------------- */

static child_result run_ppflow(const char *const *args)
{
    return child_run(&(child_desc){.exe = PPFLOW_EXE, .capture_dir = dir, .args = args});
}

static void test_cli(void **state)
{
    (void)state;
    char fig[512], still[512], bad[512], pdf[512];
    scratch_join(fig, sizeof fig, dir, "fig.svg");
    scratch_join(still, sizeof still, dir, "still.svg");
    scratch_join(bad, sizeof bad, dir, "missing/fig.svg");
    scratch_join(pdf, sizeof pdf, dir, "fig.pdf");

    child_result r = run_ppflow(CHILD_ARGS("schedule", "--format", "svg", "-o", fig));
    assert_int_equal(r.status, 0);
    child_result_deinit(&r);
    size_t len;
    char *text = child_read_file(fig, &len);
    expect_well_formed(text);
    assert_non_null(strstr(text, "fill=\"#EDEDE8\"")); /* the light panel, for print */
    free(text);

    r = run_ppflow(CHILD_ARGS("schedule", "--format", "svg", "--theme", "dark", "-o", fig));
    assert_int_equal(r.status, 0);
    child_result_deinit(&r);
    text = child_read_file(fig, &len);
    assert_non_null(strstr(text, "fill=\"#1F2228\"")); /* the dark panel */
    free(text);

    r = run_ppflow(CHILD_ARGS("render", "--still", "7.5", "-o", still));
    assert_int_equal(r.status, 0);
    child_result_deinit(&r);
    text = child_read_file(still, &len);
    assert_non_null(strstr(text, "<g class=\"cursor\">"));
    assert_non_null(strstr(text, ">7.50</text>"));
    free(text);

    /* bad targets: exit 2 and nothing left, as for every other -o */
    r = run_ppflow(CHILD_ARGS("schedule", "--format", "svg", "-o", bad));
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "missing"));
    child_result_deinit(&r);
    r = run_ppflow(CHILD_ARGS("render", "--still", "1", "-o", bad));
    assert_int_equal(r.status, 2);
    child_result_deinit(&r);
    r = run_ppflow(CHILD_ARGS("render", "-o", fig));
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--still"));
    child_result_deinit(&r);
    assert_false(scratch_exists(bad));

    /* PDF: with no converter, one line saying what to install, exit 1 */
    char *old_path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
    setenv("PATH", "/nonexistent", 1);
    r = run_ppflow(CHILD_ARGS("schedule", "--format", "pdf", "-o", pdf));
    if (old_path)
        setenv("PATH", old_path, 1);
    else
        unsetenv("PATH");
    free(old_path);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "librsvg2-bin"));
    assert_false(scratch_exists(pdf));
    child_result_deinit(&r);
    ppf_error err = {{0}};
    if (pdf_converter_found(&err)) {
        r = run_ppflow(CHILD_ARGS("render", "--still", "3", "-o", pdf));
        assert_int_equal(r.status, 0);
        child_result_deinit(&r);
        text = child_read_file(pdf, &len);
        assert_true(len > 1000 && strncmp(text, "%PDF-", 5) == 0);
        free(text);
    }
}

static int setup(void **state)
{
    return scratch_setup(state, dir, sizeof dir, "ppflow_test_svg");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alt_text),
        cmocka_unit_test_setup(test_structure, scratch_before_each),
        cmocka_unit_test_setup(test_text_carries_labels, scratch_before_each),
        cmocka_unit_test_setup(test_schedules_and_tools, scratch_before_each),
        cmocka_unit_test_setup(test_dense, scratch_before_each),
        cmocka_unit_test_setup(test_cli, scratch_before_each),
    };
    return cmocka_run_group_tests(tests, setup, scratch_teardown);
}
