/* Tests of core/timeline/closed_forms.h against values worked by hand (the formula,
 * its numbers and its value), of each assumption's refusal in words, of the
 * HUD's bubble line, and of the forms against the simulation over a grid of
 * sizes; and of core/common/number_text.h, whose numbers the forms are written in. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "closed_forms.h"
#include "number_text.h"
#include "support/check.h"
#include "support/run_fixture.h"

static closed_forms forms_of(const run_fixture *x)
{
    closed_forms m;
    closed_forms_find(&x->tl, &x->c, &m);
    return m;
}

static void expect_form(const closed_form *cf, const char *formula, const char *numbers,
                        double value)
{
    assert_string_equal(cf->formula, formula);
    assert_string_equal(cf->numbers, numbers);
    assert_near_rel(cf->value, value, 1e-9);
}

/* ---- numbers ------------------------------------------------------------- */

static void test_number_text(void **state)
{
    (void)state;
    char buf[NUMBER_TEXT_MAX];
    assert_string_equal(number_text_format(28.5, buf), "28.5");
    assert_string_equal(number_text_format(1.0 / 3, buf), "0.3333");
    assert_string_equal(number_text_format(6333, buf), "6333");
    assert_string_equal(number_text_format(2.50001, buf), "2.5");
    assert_string_equal(number_text_format(-1e-5, buf), "0"); /* never "-0" */
    assert_string_equal(number_text_format(-0.0, buf), "0");
    assert_string_equal(number_text_format(1e15, buf), "1e+15");
    assert_string_equal(number_text_format(INFINITY, buf), "inf");
    const double same[] = {2, 2, 2}, differ[] = {2, 2.5, 1.5};
    assert_string_equal(number_text_list(same, 3, buf), "2");
    assert_string_equal(number_text_list(differ, 3, buf), "1.5..2.5");
}

/* ---- forms worked by hand -------------------------------------------------- */

static void test_gpipe_by_hand(void **state)
{
    (void)state;
    /* P=4, M=8, F=1, B=2: (8+4-1) x 3 = 33; bubble 3/11 of the time, 3/8 of the work */
    run_fixture x = {0};
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "gpipe", .P = 4, .M = 8});
    closed_forms m = forms_of(&x);
    assert_true(m.has);
    assert_string_equal(m.why_not, "");
    expect_form(&m.makespan, "(M+P-1)(F+B)", "11 × 3", 33);
    expect_form(&m.bubble_fraction, "(P-1)/(M+P-1)", "3/11", 3.0 / 11);
    expect_form(&m.bubble_ratio, "(P-1)/M", "3/8", 3.0 / 8);
    assert_true(m.has_peak);
    assert_string_equal(m.peak, "M = 8 on every rank");
    for (int r = 0; r < 4; r++)
        assert_int_equal(closed_forms_peak(&x.p, r), 8);
    run_fixture_deinit(&x);
}

static void test_1f1b_peak_by_hand(void **state)
{
    (void)state;
    /* P-rank micro-batches in flight on each rank: 4 3 2 1 */
    run_fixture x = {0};
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "1f1b", .P = 4, .M = 8});
    closed_forms m = forms_of(&x);
    assert_true(m.has_peak);
    assert_string_equal(m.peak, "P-rank = 4 .. 1 (rank 0 .. rank 3)");
    for (int r = 0; r < 4; r++)
        assert_int_equal(closed_forms_peak(&x.p, r), 4 - r);
    expect_form(&m.makespan, "(M+P-1)(F+B)", "11 × 3", 33); /* the same as GPipe's */
    run_fixture_deinit(&x);

    run_fixture one = {0};
    run_fixture_init(&one, &(run_fixture_desc){.schedule = "1f1b", .P = 1, .M = 3});
    m = forms_of(&one);
    assert_string_equal(m.peak, "P-rank = 1");
    expect_form(&m.bubble_fraction, "(P-1)/(M+P-1)", "0/3", 0);
    run_fixture_deinit(&one);
}

static void test_interleaved_by_hand(void **state)
{
    (void)state;
    /* P=4, M=8, V=2, F=1, B=2: 8 x 3 + 3 x 3/2 = 28.5; Megatron's (P-1)/(V M) = 3/16 */
    run_fixture x = {0};
    run_fixture_init(&x,
                     &(run_fixture_desc){.schedule = "interleaved-1f1b", .P = 4, .M = 8, .V = 2});
    closed_forms m = forms_of(&x);
    assert_true(m.has);
    assert_string_equal(m.why_not, "");
    expect_form(&m.makespan, "M(F+B) + (P-1)(F+B)/V", "8 × 3 + 3 × 3/2", 28.5);
    expect_form(&m.bubble_fraction, "(P-1)/(V·M+P-1)", "3/19", 3.0 / 19);
    expect_form(&m.bubble_ratio, "(P-1)/(V·M)", "3/16", 3.0 / 16);
    assert_false(m.has_peak);
    assert_int_equal(closed_forms_peak(&x.p, 0), -1);
    run_fixture_deinit(&x);

    /* fewer micro-batches than ranks: the schedule's own condition */
    run_fixture few = {0};
    run_fixture_init(&few,
                     &(run_fixture_desc){.schedule = "interleaved-1f1b", .P = 4, .M = 2, .V = 2});
    m = forms_of(&few);
    assert_true(m.has);
    assert_string_equal(m.why_not, "it assumes M >= P (here M = 2, P = 4)");
    run_fixture_deinit(&few);
}

static void test_zb_h1_by_hand(void **state)
{
    (void)state;
    /* P=4, M=8, F=I=W=1: busy 8 x 3 = 24, bubble 3 x (1+1-1) = 3, makespan 27 */
    run_fixture x = {0};
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "zb-h1", .P = 4, .M = 8});
    closed_forms m = forms_of(&x);
    assert_true(m.has);
    assert_string_equal(m.why_not, "");
    expect_form(&m.makespan, "M(F+I+W) + (P-1)(F+I-W)", "8 × 3 + 3 × 1", 27);
    expect_form(&m.bubble_fraction, "(P-1)(F+I-W) / makespan", "3/27", 3.0 / 27);
    expect_form(&m.bubble_ratio, "(P-1)(F+I-W) / M(F+I+W)", "3/24", 0.125);
    run_fixture_deinit(&x);

    /* a W longer than an F cannot hide in the bubble */
    run_fixture slow_w = {0};
    run_fixture_init(&slow_w,
                     &(run_fixture_desc){.schedule = "zb-h1", .P = 4, .M = 8, .b = 3, .w = 2});
    m = forms_of(&slow_w);
    assert_string_equal(m.why_not, "it assumes W <= F and W <= I (here F = 1, I = 1, W = 2)");
    run_fixture_deinit(&slow_w);
}

static void test_schedule_without_forms(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "looped-bfs", .P = 4, .M = 8, .V = 2});
    closed_forms m = forms_of(&x);
    assert_false(m.has);
    assert_false(m.has_peak);
    assert_string_equal(m.why_not, "");
    run_fixture_deinit(&x);
}

/* ---- the shared assumptions, each refused in words ------------------------- */

static void test_assumptions(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_prepare(&x, &(run_fixture_desc){.schedule = "1f1b", .P = 2, .M = 4});
    x.c.f[1] = 2;
    run_fixture_simulate(&x);
    assert_string_equal(forms_of(&x).why_not, "per-rank costs differ (F from 1 to 2)");
    run_fixture_deinit(&x);

    /* a cost of a kind the program does not hold does not count: zb-h1 has no B */
    run_fixture zb = {0};
    run_fixture_prepare(&zb, &(run_fixture_desc){.schedule = "zb-h1", .P = 2, .M = 4});
    zb.c.b[1] = 5;
    run_fixture_simulate(&zb);
    assert_string_equal(forms_of(&zb).why_not, "");
    zb.c.w[1] = 0.5;
    timeline_deinit(&zb.tl);
    run_fixture_simulate(&zb);
    assert_string_equal(forms_of(&zb).why_not, "per-rank costs differ (W from 0.5 to 1)");
    run_fixture_deinit(&zb);

    run_fixture p2p = {0};
    run_fixture_init(&p2p, &(run_fixture_desc){.schedule = "gpipe", .P = 2, .M = 4, .p2p = 0.5});
    closed_forms m = forms_of(&p2p);
    assert_true(m.has);
    assert_string_equal(m.why_not, "it assumes free transfers, p2p = 0.5");
    assert_true(m.has_peak); /* the peak depends on the order alone */
    run_fixture_deinit(&p2p);

    /* 1F1B, P=2, M=2, F=1, B=2, all-reduce 3 per rank: rank 0's B1 ends the
     * compute at 9, its all-reduce at 12 */
    run_fixture ar = {0};
    run_fixture_init(
        &ar, &(run_fixture_desc){.schedule = "1f1b", .P = 2, .M = 2, .D = 2, .allreduce = 3});
    assert_string_equal(forms_of(&ar).why_not, "the all-reduce ends 3 after the last compute");
    run_fixture_deinit(&ar);

    /* the shared assumptions are named before the schedule's own */
    run_fixture both = {0};
    run_fixture_prepare(
        &both, &(run_fixture_desc){.schedule = "interleaved-1f1b", .P = 4, .M = 2, .V = 2});
    both.c.p2p[2] = 0.25;
    run_fixture_simulate(&both);
    assert_string_equal(forms_of(&both).why_not, "it assumes free transfers, p2p = 0..0.25");
    run_fixture_deinit(&both);

    run_fixture none = {0};
    run_fixture_prepare(&none, &(run_fixture_desc){.schedule = "gpipe", .P = 2, .M = 2});
    run_fixture_costs_uniform(&none.c, 0, 0, 0, 0);
    run_fixture_simulate(&none);
    m = forms_of(&none);
    assert_string_equal(m.why_not, "the iteration takes no time");
    assert_false(m.has_peak);
    run_fixture_deinit(&none);
}

/* ---- the HUD's line ------------------------------------------------------------ */

static void test_bubble_line(void **state)
{
    (void)state;
    char line[160];
    run_fixture x = {0};
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "gpipe", .P = 4, .M = 8});
    closed_forms_bubble_line(&x.tl, &x.c, line, sizeof line);
    assert_string_equal(line, "bubble 27.3% = (P-1)/(M+P-1) = 3/11");
    char tiny[8];
    closed_forms_bubble_line(&x.tl, &x.c, tiny, sizeof tiny);
    assert_string_equal(tiny, "bubble ");
    run_fixture_deinit(&x);

    run_fixture p2p = {0};
    run_fixture_init(&p2p,
                     &(run_fixture_desc){
                         .schedule = "1f1b", .P = 2, .M = 2, .b = 1, .i = 0.5, .w = 0.5, .p2p = 1});
    /* rank 0: F0 [0,1] F1 [1,2], B0 [5,6] B1 [7,8]; rank 1: F0 [2,3] B0
     * [3,4] F1 [4,5] B1 [5,6]: 8 busy of 2 x 8 */
    assert_near_rel(p2p.tl.makespan, 8, 1e-9);
    closed_forms_bubble_line(&p2p.tl, &p2p.c, line, sizeof line);
    assert_string_equal(line, "bubble 50.0% = idle / (P × makespan)");
    run_fixture_deinit(&p2p);
}

/* ---- the forms against the simulation ------------------------------------------- */

static void test_forms_match_simulation(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        int P, M, V;
    } cases[] = {
        {"gpipe", 1, 1, 0},
        {"gpipe", 2, 2, 0},
        {"gpipe", 4, 8, 0},
        {"gpipe", 8, 32, 0},
        {"1f1b", 1, 5, 0},
        {"1f1b", 3, 11, 0},
        {"1f1b", 8, 32, 0},
        {"interleaved-1f1b", 2, 4, 2},
        {"interleaved-1f1b", 4, 8, 4},
        {"interleaved-1f1b", 3, 9, 3},
        {"interleaved-1f1b", 4, 12, 3},
        {"zb-h1", 2, 2, 0},
        {"zb-h1", 3, 7, 0},
        {"zb-h1", 8, 16, 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        run_fixture x = {0};
        run_fixture_init(&x, &(run_fixture_desc){.schedule = cases[k].name,
                                                 .P = cases[k].P,
                                                 .M = cases[k].M,
                                                 .V = cases[k].V,
                                                 .f = 1.5,
                                                 .b = 2.5,
                                                 .i = 1.5});
        closed_forms m = forms_of(&x);
        if (!m.has || m.why_not[0])
            fail_msg("%s P=%d M=%d: no form (%s)", cases[k].name, cases[k].P, cases[k].M,
                     m.why_not);
        assert_near_rel(m.makespan.value, x.tl.makespan, 1e-9);
        assert_near_rel(m.bubble_fraction.value, x.tl.bubble_fraction, 1e-9);
        assert_near_rel(m.bubble_ratio.value, x.tl.bubble_ratio, 1e-9);
        for (int r = 0; m.has_peak && r < cases[k].P; r++)
            if (closed_forms_peak(&x.p, r) != x.tl.per_rank[r].peak_activations)
                fail_msg("%s P=%d M=%d rank %d: form %d, simulated %d", cases[k].name, cases[k].P,
                         cases[k].M, r, closed_forms_peak(&x.p, r),
                         x.tl.per_rank[r].peak_activations);
        run_fixture_deinit(&x);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_number_text),
        cmocka_unit_test(test_gpipe_by_hand),
        cmocka_unit_test(test_1f1b_peak_by_hand),
        cmocka_unit_test(test_interleaved_by_hand),
        cmocka_unit_test(test_zb_h1_by_hand),
        cmocka_unit_test(test_schedule_without_forms),
        cmocka_unit_test(test_assumptions),
        cmocka_unit_test(test_bubble_line),
        cmocka_unit_test(test_forms_match_simulation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
