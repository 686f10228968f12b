/* Tests of the schedule generators: their constraints, their orders on
 * hand-worked cases, and the programs they build. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedules.h"
#include "support/check.h"

/* The rank's actions in text form, idle steps as "_", joined by spaces. */
static void rank_text(const program *p, int r, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = 0;
    for (int k = 0; k < p->rank[r].count; k++) {
        char t[ACTION_TEXT_MAX];
        action_format(&p->rank[r].actions[k], t);
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", k ? " " : "", t[0] ? t : "_");
    }
}

static void expect_order(const char *name, int P, int M, int V, const char *const *rows)
{
    program p;
    ppf_error err = {{0}};
    schedule_params sp = {.ranks = P, .microbatches = M, .stages_per_rank = V};
    if (!schedule_generate(name, &sp, &p, &err))
        fail_msg("%s: %s", name, err.message);
    for (int r = 0; r < P; r++) {
        char got[4096];
        rank_text(&p, r, got, sizeof got);
        if (strcmp(got, rows[r]) != 0)
            fail_msg("%s rank %d:\n  got    %s\n  wanted %s", name, r, got, rows[r]);
    }
    program_deinit(&p);
}

static void test_gpipe_order(void **state)
{
    (void)state;
    const char *rows[] = {
        "0F0 0F1 0F2 _ _ _ 0B0 0B1 0B2",
        "_ 1F0 1F1 1F2 1B0 1B1 1B2",
    };
    expect_order("gpipe", 2, 3, 0, rows);
}

static void test_1f1b_order(void **state)
{
    (void)state;
    /* rank r: P-1-r warm-up forwards, then F/B pairs, then the rest of the
     * backwards; PyTorch's idle padding keeps the ranks' steps aligned */
    const char *rows[] = {
        "0F0 0F1 _ _ _ _ 0F2 0B0 0F3 0B1 _ 0B2 _ 0B3",
        "_ 1F0 _ _ 1F1 1B0 1F2 1B1 1F3 1B2 _ 1B3",
        "_ _ 2F0 2B0 2F1 2B1 2F2 2B2 2F3 2B3",
    };
    expect_order("1f1b", 3, 4, 0, rows);
}

static void test_looped_bfs_order(void **state)
{
    (void)state;
    const char *rows[] = {
        "0F0 0F1 2F0 2F1 _ _ 2B1 2B0 0B1 0B0",
        "_ 1F0 1F1 3F0 3F1 3B1 3B0 1B1 1B0",
    };
    expect_order("looped-bfs", 2, 2, 2, rows);
}

static void test_interleaved_order(void **state)
{
    (void)state;
    /* PyTorch's Interleaved1F1B worked by hand for P=2, V=2, M=2 (one round of
     * 2 micro-batches): rank 0 warms up with 4 forwards, rank 1 with 2 */
    const char *rows[] = {
        "0F0 0F1 2F0 2F1 _ _ _ 2B0 _ 2B1 _ 0B0 _ 0B1",
        "_ 1F0 1F1 _ 3F0 3B0 3F1 3B1 _ 1B0 _ 1B1",
    };
    expect_order("interleaved-1f1b", 2, 2, 2, rows);
}

static void test_zbv_and_dualpipev_layout(void **state)
{
    (void)state;
    const char *names[] = {"zbv", "dualpipev"};
    for (int k = 0; k < 2; k++) {
        program p;
        ppf_error err = {{0}};
        schedule_params sp = {.ranks = 4, .microbatches = 8};
        assert_true(schedule_generate(names[k], &sp, &p, &err));
        assert_int_equal(p.layout, PROGRAM_LAYOUT_V);
        assert_int_equal(p.stages, 8);
        for (int r = 0; r < 4; r++) {
            assert_int_equal(p.stage_rank[r], r);
            assert_int_equal(p.stage_rank[7 - r], r);
        }
        program_deinit(&p);
    }
}

static void test_dualpipev_uses_overlapped_pairs(void **state)
{
    (void)state;
    program p;
    ppf_error err = {{0}};
    schedule_params sp = {.ranks = 4, .microbatches = 10};
    assert_true(schedule_generate("dualpipev", &sp, &p, &err));
    char got[4096];
    rank_text(&p, 0, got, sizeof got);
    /* PyTorch's DualPipeV, rank 0, 4 ranks, 10 micro-batches */
    assert_string_equal(got,
                        "0F0 0F1 0F2 0F3 0F4 0F5 0F6 7F0 7I0 7W0 7F1 7I1 7W1 7F2 7I2 7W2 7F3 "
                        "(0F7;7B3)OVERLAP_F_B (7F4;0B0)OVERLAP_F_B (0F8;7B4)OVERLAP_F_B "
                        "(7F5;0B1)OVERLAP_F_B (0F9;7B5)OVERLAP_F_B (7F6;0B2)OVERLAP_F_B 7B6 "
                        "(7F7;0B3)OVERLAP_F_B 7B7 (7F8;0B4)OVERLAP_F_B 7B8 (7F9;0B5)OVERLAP_F_B "
                        "7B9 0I6 0W6 0I7 0W7 0I8 0W8 0I9 0W9");
    program_deinit(&p);
}

static void test_names_and_aliases(void **state)
{
    (void)state;
    assert_string_equal(schedule_find("ZB1P")->name, "zb-h1");
    assert_string_equal(schedule_find("Interleaved1F1B")->name, "interleaved-1f1b");
    assert_string_equal(schedule_find("interleaved_1f1b")->name, "interleaved-1f1b");
    assert_string_equal(schedule_find("DualPipeV")->name, "dualpipev");
    assert_string_equal(schedule_find("ZBVZeroBubble")->name, "zbv");
    assert_null(schedule_find("gpip"));
    assert_null(schedule_find(""));
    int n;
    const schedule_info *list = schedule_list(&n);
    assert_int_equal(n, 8);
    for (int k = 0; k < n; k++)
        assert_ptr_equal(schedule_find(list[k].name), &list[k]);
}

static void test_constraints_name_field_value_and_rule(void **state)
{
    (void)state;
    const struct {
        const char *name;
        int P, M, V;
        const char *expect;
    } bad[] = {
        {"gpip", 4, 8, 0, "schedule = \"gpip\": unknown schedule"},
        {"gpipe", 0, 8, 0, "stages = 0"},
        {"gpipe", -3, 8, 0, "stages = -3"},
        {"gpipe", 4, 0, 0, "microbatches = 0"},
        {"gpipe", 4, 8, 2, "virtual = 2: gpipe runs exactly 1 stage per rank"},
        {"1f1b", 4, 3, 0, "microbatches = 3: 1f1b needs at least as many micro-batches as ranks"},
        {"1f1b", 4, 8, 2, "virtual = 2"},
        {"zb-h1", 4, 8, 3, "virtual = 3"},
        {"interleaved-1f1b", 4, 8, 1, "virtual = 1: interleaved-1f1b needs at least 2"},
        {"interleaved-zb", 4, 8, 1, "virtual = 1: interleaved-zb needs at least 2"},
        {"interleaved-1f1b", 4, 9, 2,
         "microbatches = 9: interleaved-1f1b needs M to be a multiple"},
        {"interleaved-zb", 3, 7, 2, "microbatches = 7"},
        {"zbv", 4, 8, 3, "virtual = 3: zbv runs exactly 2 stages per rank"},
        {"dualpipev", 4, 7, 0,
         "microbatches = 7: dualpipev needs at least as many micro-batches as stages (2P = 8)"},
        {"dualpipev", 4, 8, 1, "virtual = 1: dualpipev runs exactly 2"},
        {"looped-bfs", 40000, 1, 2, "stages = 40000"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        program p;
        ppf_error err = {{0}};
        schedule_params sp = {
            .ranks = bad[k].P, .microbatches = bad[k].M, .stages_per_rank = bad[k].V};
        if (schedule_generate(bad[k].name, &sp, &p, &err))
            fail_msg("case %zu (%s P=%d M=%d V=%d) generated", k, bad[k].name, bad[k].P, bad[k].M,
                     bad[k].V);
        if (!strstr(err.message, bad[k].expect))
            fail_msg("case %zu: \"%s\" lacks \"%s\"", k, err.message, bad[k].expect);
        assert_null(p.rank);
        assert_false(schedule_check(bad[k].name, &sp, NULL));
    }
}

static void test_every_schedule_builds_valid_programs(void **state)
{
    (void)state;
    int n;
    const schedule_info *list = schedule_list(&n);
    for (int k = 0; k < n; k++)
        for (int P = 1; P <= 6; P++)
            for (int M = 1; M <= 14; M++)
                for (int V = 1; V <= 4; V++) {
                    schedule_params sp = {.ranks = P, .microbatches = M, .stages_per_rank = V};
                    if (!schedule_check(list[k].name, &sp, NULL))
                        continue;
                    program p;
                    ppf_error err = {{0}};
                    if (!schedule_generate(list[k].name, &sp, &p, &err))
                        fail_msg("%s P=%d M=%d V=%d: %s", list[k].name, P, M, V, err.message);
                    if (!program_validate(&p, &err))
                        fail_msg("%s P=%d M=%d V=%d: invalid program: %s", list[k].name, P, M, V,
                                 err.message);
                    assert_int_equal(p.stages, P * V);
                    assert_int_equal(p.stages_per_rank, V);
                    assert_string_equal(p.schedule, list[k].name);
                    program_deinit(&p);
                }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpipe_order),
        cmocka_unit_test(test_1f1b_order),
        cmocka_unit_test(test_looped_bfs_order),
        cmocka_unit_test(test_interleaved_order),
        cmocka_unit_test(test_zbv_and_dualpipev_layout),
        cmocka_unit_test(test_dualpipev_uses_overlapped_pairs),
        cmocka_unit_test(test_names_and_aliases),
        cmocka_unit_test(test_constraints_name_field_value_and_rule),
        cmocka_unit_test(test_every_schedule_builds_valid_programs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
