/* Tests of beats.h without GL: the automatic beats of hand-worked timelines
 * (F=1, B=2, I=W=1, no p2p unless said), "after" names and their errors, how
 * a scenario's beats merge with the automatic ones, navigation around beat
 * times, and properties over random scenarios and imported CSVs.
 *
 * The hand-worked timelines, ranks down:
 *   1F1B P=4 M=8: rank r's F0 starts at r; rank 3 runs F0[3,4] B0[4,6] and
 *     then F(k)[3k+3, 3k+4] B(k) (k >= 1), so its F7 ends at 25; B0 comes back
 *     2 a stage: rank 0's B0 starts at 10; the end is (M+P-1)(F+B) = 33.
 *     Beats: 0, 3, 4, 10, 25, 33 (the last backward ends with the iteration).
 *   GPipe P=4 M=8: the forwards end on rank 3 at 11, where its B0 starts (one
 *     beat: "all forwards done"); B0 reaches rank 0 at 11 + 3 x 2 = 17; 33.
 *   ZB-H1 P=4 M=8 (I=W=1): I0 on rank 3 at 4, on rank 0 at 4 + 3 = 7; the
 *     last forward ends at 22, the last I at 26, its W at 27 = M(F+I+W) +
 *     (P-1)(F+I-W).
 *   1F1B P=4 M=8 D=2, all-reduce 4: stage 3's last B ends at 27 and its
 *     all-reduce runs [27, 31]; stage 0's last B ends at 33, its all-reduce
 *     at 37, the end. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "beats.h"
#include "scenario.h"
#include "support/check.h"
#include "support/run_fixture.h"

/* The beat at time t (exactly), or fails. */
static const beat *beat_at_time(const beat_list *bl, double t)
{
    for (int k = 0; k < bl->count; k++)
        if (bl->beats[k].t == t)
            return &bl->beats[k];
    fail_msg("no beat at t = %g (%d beats)", t, bl->count);
    return NULL;
}

/* Fails unless the list holds exactly these times, in order. */
static void expect_times(const beat_list *bl, const double *t, int n)
{
    for (int k = 0; k < bl->count && k < n; k++)
        if (bl->beats[k].t != t[k])
            fail_msg("beat %d (%s) at t = %.17g, expected %.17g", k, bl->beats[k].title,
                     bl->beats[k].t, t[k]);
    assert_int_equal(bl->count, n);
}

/* Sorted, more than the epsilon apart, within the iteration, titled. */
static void expect_well_formed(const beat_list *bl, const timeline *tl)
{
    const double eps = beats_epsilon(tl);
    assert_le(bl->count, BEATS_MAX);
    for (int k = 0; k < bl->count; k++) {
        const beat *b = &bl->beats[k];
        if (!(b->t >= 0 && b->t <= tl->makespan + eps))
            fail_msg("beat %d at %.17g, outside [0, %.17g]", k, b->t, tl->makespan);
        if (k > 0 && !(b->t - bl->beats[k - 1].t > eps))
            fail_msg("beats %d and %d at %.17g and %.17g: not distinct", k - 1, k,
                     bl->beats[k - 1].t, b->t);
        assert_true(b->title[0] != '\0');
        assert_printable(b->title);
        assert_printable(b->caption);
    }
}

static beat_spec spec_t(double t, const char *title)
{
    beat_spec s = {.t = t};
    snprintf(s.title, sizeof s.title, "%s", title);
    return s;
}

static beat_spec spec_after(const char *after, const char *title)
{
    beat_spec s = {0};
    snprintf(s.after, sizeof s.after, "%s", after);
    snprintf(s.title, sizeof s.title, "%s", title);
    return s;
}

/* ---- automatic beats of hand-worked timelines ------------------------------------- */

static void test_1f1b_by_hand(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "1f1b", .P = 4, .M = 8});
    beat_list bl = {0};
    beats_auto(&bl, &x.tl);
    const double t[] = {0, 3, 4, 10, 25, 33};
    expect_times(&bl, t, 6);
    assert_string_equal(bl.beats[0].title, "start");
    assert_string_equal(bl.beats[1].title, "first forward reaches rank 3");
    assert_string_equal(bl.beats[2].title, "steady state: one forward, one backward");
    assert_string_equal(bl.beats[3].title, "backward reaches stage 0");
    assert_string_equal(bl.beats[4].title, "cool-down: only backwards left");
    assert_string_equal(bl.beats[5].title, "end of the iteration");
    for (int k = 0; k < bl.count; k++)
        assert_true(bl.beats[k].automatic);
    /* The numbers are this iteration's. */
    assert_non_null(strstr(bl.beats[1].caption, "t = 3:"));
    assert_non_null(strstr(bl.beats[2].caption, "Rank 3"));
    assert_non_null(strstr(bl.beats[3].caption, "all 4 stages"));
    assert_non_null(strstr(bl.beats[4].caption, "micro-batch 7, stage 3"));
    assert_non_null(strstr(bl.beats[5].caption, "27.3%"));
    assert_null(strstr(bl.beats[0].caption, "replicas")); /* D = 1 */
    beat_list_deinit(&bl);
    beat_list_deinit(&bl); /* twice is fine */
    run_fixture_deinit(&x);
}

static void test_gpipe_by_hand(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "gpipe", .P = 4, .M = 8});
    beat_list bl = {0};
    beats_auto(&bl, &x.tl);
    const double t[] = {0, 3, 11, 17, 33};
    expect_times(&bl, t, 5);
    /* No forward follows a backward on any rank: no steady state, and the
     * cool-down (the last forward's end) is the same moment. */
    assert_string_equal(beat_at_time(&bl, 11)->title, "all forwards done: backward pass begins");
    assert_non_null(strstr(beat_at_time(&bl, 11)->caption, "no steady state"));
    assert_string_equal(beat_at_time(&bl, 17)->title, "backward reaches stage 0");
    beat_list_deinit(&bl);
    run_fixture_deinit(&x);
}

static void test_zero_bubble_by_hand(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "zb-h1", .P = 4, .M = 8});
    beat_list bl = {0};
    beats_auto(&bl, &x.tl);
    const double t[] = {0, 3, 4, 7, 22, 26, 27};
    expect_times(&bl, t, 7);
    const beat *steady = beat_at_time(&bl, 4);
    assert_string_equal(steady->title, "steady state: one forward, one backward");
    assert_non_null(strstr(steady->caption, "backward for inputs"));
    assert_non_null(strstr(steady->caption, "W in the gaps"));
    assert_non_null(strstr(beat_at_time(&bl, 22)->caption, "for weights (W)"));
    const beat *last = beat_at_time(&bl, 26);
    assert_string_equal(last->title, "last backward: weight gradients remain");
    assert_non_null(strstr(last->caption, "4 backwards for weights (W) remain"));
    /* The last W ends the iteration: that moment is the end. */
    assert_string_equal(beat_at_time(&bl, 27)->title, "end of the iteration");
    beat_list_deinit(&bl);
    run_fixture_deinit(&x);
}

static void test_allreduce_beats(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_init(
        &x, &(run_fixture_desc){.schedule = "1f1b", .P = 4, .M = 8, .D = 2, .allreduce = 4});
    beat_list bl = {0};
    beats_auto(&bl, &x.tl);
    const double t[] = {0, 3, 4, 10, 25, 27, 33, 37};
    expect_times(&bl, t, 8);
    const beat *ar = beat_at_time(&bl, 27);
    assert_string_equal(ar->title, "all-reduce begins");
    assert_non_null(strstr(ar->caption, "Stage 3's"));
    assert_non_null(strstr(ar->caption, "2 replicas"));
    assert_non_null(strstr(ar->caption, "while other stages compute"));
    assert_string_equal(beat_at_time(&bl, 33)->title, "last backward: compute done");
    assert_non_null(strstr(beat_at_time(&bl, 33)->caption, "all-reduces still run"));
    /* The last all-reduce ends with the iteration: one beat, the end, which
     * says what the all-reduce added. */
    assert_string_equal(beat_at_time(&bl, 37)->title, "end of the iteration");
    assert_non_null(strstr(beat_at_time(&bl, 37)->caption, "the all-reduce adds 4"));
    assert_non_null(strstr(bl.beats[0].caption, "2 replicas"));
    beat_list_deinit(&bl);
    run_fixture_deinit(&x);

    /* D = 2 with all-reduces that take no time: nothing to show. */
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "1f1b", .P = 4, .M = 8, .D = 2});
    beats_auto(&bl, &x.tl);
    const double t0[] = {0, 3, 4, 10, 25, 33};
    expect_times(&bl, t0, 6);
    beat_list_deinit(&bl);
    run_fixture_deinit(&x);
}

/* The overlapped schedule gets its own steady state, and its first backward
 * says only that warm-up is over. */
static void test_overlapped(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "dualpipev", .P = 4, .M = 8});
    beat_list bl = {0};
    beats_auto(&bl, &x.tl);
    expect_well_formed(&bl, &x.tl);
    int overlap = -1, first_bwd = -1;
    for (int k = 0; k < bl.count; k++) {
        if (strcmp(bl.beats[k].title, "steady state: forward and backward overlapped") == 0)
            overlap = k;
        if (strcmp(bl.beats[k].title, "first backward") == 0)
            first_bwd = k;
    }
    assert_true(first_bwd >= 0 && overlap > first_bwd);
    /* At the earliest start of an overlapped pair. */
    double first_fb = INFINITY;
    for (int r = 0; r < x.p.ranks; r++)
        for (int k = 0; k < x.p.rank[r].count; k++)
            if (x.p.rank[r].actions[k].kind == ACTION_OVERLAP_F_B)
                first_fb = fmin(first_fb, x.tl.time[r][k].start);
    assert_same_double(bl.beats[overlap].t, first_fb);
    beat_list_deinit(&bl);
    run_fixture_deinit(&x);
}

/* Every built-in schedule, with and without p2p and all-reduces, D = 1 and
 * D > 1: well formed, from the start to the end, each title once. */
static void test_every_schedule(void **state)
{
    (void)state;
    static const char *names[] = {"gpipe",      "1f1b",     "interleaved-1f1b",
                                  "looped-bfs", "zb-h1",    "interleaved-zb",
                                  "zbv",        "dualpipev"};
    for (int n = 0; n < 8; n++)
        for (int variant = 0; variant < 4; variant++) {
            run_fixture x = {0};
            run_fixture_init(&x, &(run_fixture_desc){.schedule = names[n],
                                                     .P = 4,
                                                     .M = 8,
                                                     .D = variant >= 2 ? 2 : 1,
                                                     .p2p = variant & 1 ? 0.25 : 0,
                                                     .allreduce = variant >= 2 ? 3 : 0});
            beat_list bl = {0};
            beats_auto(&bl, &x.tl);
            expect_well_formed(&bl, &x.tl);
            if (bl.count < 5)
                fail_msg("%s variant %d: only %d beats", names[n], variant, bl.count);
            assert_string_equal(bl.beats[0].title, "start");
            assert_same_double(bl.beats[0].t, 0);
            assert_string_equal(bl.beats[bl.count - 1].title, "end of the iteration");
            assert_same_double(bl.beats[bl.count - 1].t, x.tl.makespan);
            bool has_ar = false;
            for (int k = 0; k < bl.count; k++) {
                has_ar |= strcmp(bl.beats[k].title, "all-reduce begins") == 0;
                for (int j = 0; j < k; j++)
                    if (strcmp(bl.beats[j].title, bl.beats[k].title) == 0)
                        fail_msg("%s variant %d: \"%s\" twice", names[n], variant,
                                 bl.beats[k].title);
            }
            if (has_ar != (variant >= 2))
                fail_msg("%s variant %d: all-reduce beat %s", names[n], variant,
                         has_ar ? "without all-reduces" : "missing");
            beat_list_deinit(&bl);
            run_fixture_deinit(&x);
        }
}

/* A schedule read from PyTorch's CSV gets the beats of the same program
 * generated: they come from the timeline, not from the schedule's name. */
static void test_csv_same_as_generated(void **state)
{
    (void)state;
    scenario sc;
    scenario_init(&sc);
    ppf_error err = {{0}};
    char schedule[512];
    snprintf(schedule, sizeof schedule, "csv:%s/tests/data/dualpipev_4rank_10mb.csv",
             PPFLOW_SOURCE_DIR);
    assert_true(scenario_set(&sc, "schedule", schedule, &err));
    program p;
    timeline_costs c;
    timeline tl;
    if (!scenario_build(&sc, &p, &c, &err) || !timeline_simulate(&tl, &p, &c, &err))
        fail_msg("%s", err.message);
    assert_string_equal(p.schedule, "csv");
    run_fixture x = {0};
    run_fixture_prepare(&x, &(run_fixture_desc){.schedule = "dualpipev", .P = 4, .M = 10});
    timeline_costs_deinit(&x.c);
    x.c = c; /* the same costs (the scenario's defaults), owned by the fixture now */
    run_fixture_simulate(&x);
    beat_list from_csv = {0}, generated = {0};
    beats_auto(&from_csv, &tl);
    beats_auto(&generated, &x.tl);
    expect_well_formed(&from_csv, &tl);
    assert_int_equal(from_csv.count, generated.count);
    for (int k = 0; k < from_csv.count; k++) {
        assert_same_double(from_csv.beats[k].t, generated.beats[k].t);
        assert_string_equal(from_csv.beats[k].title, generated.beats[k].title);
        assert_string_equal(from_csv.beats[k].caption, generated.beats[k].caption);
    }
    beat_list_deinit(&from_csv);
    beat_list_deinit(&generated);
    run_fixture_deinit(&x);
    timeline_deinit(&tl);
    program_deinit(&p);
    scenario_deinit(&sc);
}

/* ---- the scenario's beats ------------------------------------------------------------ */

static void test_after_names(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "1f1b", .P = 4, .M = 8});
    beat_spec items[] = {spec_after("3B0", "loss known"), spec_after("0F0", "first"),
                         spec_after("2F1", "second")};
    beat_specs specs = {items, 3, true};
    beat_list bl = {0};
    ppf_error err = {{0}};
    if (!beats_build(&bl, &x.tl, &specs, &err))
        fail_msg("%s", err.message);
    /* The end of each: 3B0 [4, 6], 0F0 [0, 1], 2F1 [3, 4]; sorted by time. */
    const double t[] = {1, 4, 6};
    expect_times(&bl, t, 3);
    assert_string_equal(bl.beats[0].title, "first");
    assert_string_equal(bl.beats[2].title, "loss known");
    assert_false(bl.beats[2].automatic);
    beat_list_deinit(&bl);
    run_fixture_deinit(&x);

    /* A split backward's parts, and an overlapped pair by its name and by
     * its B half. */
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "zb-h1", .P = 4, .M = 8});
    beat_spec zb[] = {spec_after("3I0", "I"), spec_after("0W7", "W")};
    specs = (beat_specs){zb, 2, true};
    assert_true(beats_build(&bl, &x.tl, &specs, &err));
    const double tz[] = {5, 27};
    expect_times(&bl, tz, 2);
    beat_list_deinit(&bl);
    run_fixture_deinit(&x);

    run_fixture_init(&x, &(run_fixture_desc){.schedule = "dualpipev", .P = 4, .M = 8});
    const action *pair = NULL;
    double end = 0;
    for (int r = 0; r < x.p.ranks && !pair; r++)
        for (int k = 0; k < x.p.rank[r].count && !pair; k++)
            if (x.p.rank[r].actions[k].kind == ACTION_OVERLAP_F_B) {
                pair = &x.p.rank[r].actions[k];
                end = x.tl.time[r][k].end;
            }
    assert_non_null(pair);
    beat_spec ov[2];
    char name[ACTION_TEXT_MAX];
    action_format(pair, name);
    ov[0] = spec_after(name, "the pair");
    snprintf(name, sizeof name, "%dB%d", pair->stage2, pair->microbatch2);
    specs = (beat_specs){ov, 1, true};
    assert_true(beats_build(&bl, &x.tl, &specs, &err));
    assert_same_double(bl.beats[0].t, end);
    beat_list_deinit(&bl);
    ov[0] = spec_after(name, "its backward half");
    assert_true(beats_build(&bl, &x.tl, &specs, &err));
    assert_same_double(bl.beats[0].t, end);
    beat_list_deinit(&bl);
    run_fixture_deinit(&x);
}

/* Fails unless beats_build refuses the one spec with a message holding the
 * pieces, leaving the list zeroed. */
static void expect_refused(const timeline *tl, beat_spec s, const char *a, const char *b)
{
    beat_specs specs = {&s, 1, false};
    beat_list bl = {(beat *)&specs, 99}; /* not zeroed: the call must zero it */
    ppf_error err = {{0}};
    if (beats_build(&bl, tl, &specs, &err))
        fail_msg("accepted %s / %g", s.after, s.t);
    assert_message(&err, "beats[0]", a, b);
    assert_null(bl.beats);
    assert_int_equal(bl.count, 0);
}

static void test_after_errors(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "1f1b", .P = 4, .M = 8});
    expect_refused(&x.tl, spec_after("9B0", "x"), "after = \"9B0\"",
                   "no such action (stages 0..3, micro-batches 0..7)");
    expect_refused(&x.tl, spec_after("0F8", "x"), "after = \"0F8\"", "micro-batches 0..7");
    expect_refused(&x.tl, spec_after("3I0", "x"), "\"3I0\"", "whole: 3B0");
    expect_refused(&x.tl, spec_after("0SEND_F0", "x"), "\"0SEND_F0\"", "compute action");
    expect_refused(&x.tl, spec_after("xyz", "x"), "\"xyz\"", "PyTorch's notation");
    expect_refused(&x.tl, spec_t(33.5, "x"), "beats[0].t = 33.5", "within the iteration, 0 to 33");
    expect_refused(&x.tl, spec_t(-1, "x"), "beats[0].t = -1", "0 to 33");
    run_fixture_deinit(&x);

    run_fixture_init(&x, &(run_fixture_desc){.schedule = "zb-h1", .P = 4, .M = 8});
    expect_refused(&x.tl, spec_after("3B0", "x"), "\"3B0\"",
                   "splits that backward into 3I0 and 3W0");
    run_fixture_deinit(&x);

    /* Two of the scenario's beats at one moment: both named. */
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "1f1b", .P = 4, .M = 8});
    beat_spec two[] = {spec_t(6, "a"), spec_t(1, "b"), spec_after("3B0", "c")};
    beat_specs specs = {two, 3, false};
    beat_list bl = {0};
    ppf_error err = {{0}};
    assert_false(beats_build(&bl, &x.tl, &specs, &err));
    assert_message(&err, "beats[2]", "beats[0]", "t = 6");
    assert_int_equal(bl.count, 0);
    run_fixture_deinit(&x);
}

static void test_merge_rules(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "1f1b", .P = 4, .M = 8});
    const double eps = beats_epsilon(&x.tl);
    /* At the automatic steady state (4, and within the epsilon of it), at
     * the end, and at a time of its own (5), given out of order, with a
     * camera and notes. */
    beat_spec items[] = {spec_t(33, "done"), spec_t(5, "mine"), spec_t(4 + eps / 2, "steady")};
    snprintf(items[1].camera, sizeof items[1].camera, "top");
    snprintf(items[1].notes, sizeof items[1].notes, "say it\nslowly");
    snprintf(items[1].caption, sizeof items[1].caption, "my words");
    beat_specs specs = {items, 3, false};
    beat_list bl = {0};
    ppf_error err = {{0}};
    assert_true(beats_build(&bl, &x.tl, &specs, &err));
    const double t[] = {0, 3, 4 + eps / 2, 5, 10, 25, 33};
    expect_times(&bl, t, 7);
    assert_string_equal(bl.beats[2].title, "steady");
    assert_false(bl.beats[2].automatic);
    assert_string_equal(bl.beats[2].caption, ""); /* replaced whole */
    assert_string_equal(bl.beats[3].title, "mine");
    assert_string_equal(bl.beats[3].caption, "my words");
    assert_string_equal(bl.beats[3].camera, "top");
    assert_string_equal(bl.beats[3].notes, "say it\nslowly");
    assert_string_equal(bl.beats[6].title, "done");
    assert_true(bl.beats[1].automatic);
    expect_well_formed(&bl, &x.tl);
    beat_list_deinit(&bl);

    /* Just past the epsilon it is a moment of its own. */
    items[2] = spec_t(4 + 2 * eps, "beside");
    assert_true(beats_build(&bl, &x.tl, &specs, &err));
    assert_int_equal(bl.count, 8);
    expect_well_formed(&bl, &x.tl);
    beat_list_deinit(&bl);

    /* no_auto: the scenario's alone; none at all is an empty list. */
    specs.no_auto = true;
    assert_true(beats_build(&bl, &x.tl, &specs, &err));
    const double mine[] = {4 + 2 * eps, 5, 33};
    expect_times(&bl, mine, 3);
    beat_list_deinit(&bl);
    specs.count = 0;
    assert_true(beats_build(&bl, &x.tl, &specs, &err));
    assert_int_equal(bl.count, 0);
    beat_list_deinit(&bl);
    /* No specs, automatic ones: beats_auto's list. */
    specs.no_auto = false;
    beat_list autos = {0};
    beats_auto(&autos, &x.tl);
    assert_true(beats_build(&bl, &x.tl, &specs, &err));
    assert_int_equal(bl.count, autos.count);
    for (int k = 0; k < bl.count; k++)
        assert_string_equal(bl.beats[k].title, autos.beats[k].title);
    beat_list_deinit(&autos);
    beat_list_deinit(&bl);
    run_fixture_deinit(&x);
}

static void test_too_many(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "1f1b", .P = 4, .M = 8});
    beat_spec *items = calloc(BEATS_MAX, sizeof *items);
    for (int k = 0; k < BEATS_MAX; k++)
        items[k] = spec_t(0.5 + 32.0 * k / BEATS_MAX, "b");
    beat_specs specs = {items, BEATS_MAX, true};
    beat_list bl = {0};
    ppf_error err = {{0}};
    assert_true(beats_build(&bl, &x.tl, &specs, &err));
    assert_int_equal(bl.count, BEATS_MAX);
    beat_list_deinit(&bl);
    specs.no_auto = false; /* the automatic ones would make more than BEATS_MAX */
    assert_false(beats_build(&bl, &x.tl, &specs, &err));
    assert_message(&err, "beats", "at most 1000");
    free(items);
    run_fixture_deinit(&x);
}

static void test_specs_copy(void **state)
{
    (void)state;
    beat_specs a = {0}, b = {0};
    a.items = calloc(2, sizeof *a.items);
    a.count = 2;
    a.no_auto = true;
    a.items[1] = spec_after("3B0", "x");
    beat_specs_copy(&b, &a);
    assert_ptr_not_equal(a.items, b.items);
    assert_int_equal(b.count, 2);
    assert_true(b.no_auto);
    a.items[1].title[0] = 'y';
    assert_string_equal(b.items[1].title, "x");
    beat_specs_deinit(&a);
    beat_specs_deinit(&a);
    beat_specs_copy(&a, &b);
    beat_specs_deinit(&b);
    assert_string_equal(a.items[1].after, "3B0");
    beat_specs_deinit(&a);
    beat_specs empty = {0};
    beat_specs_copy(&a, &empty);
    assert_null(a.items);
    beat_specs_deinit(&a);
}

/* ---- navigation ------------------------------------------------------------------------ */

static void test_navigation(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "1f1b", .P = 4, .M = 8});
    beat_list bl = {0};
    beats_auto(&bl, &x.tl); /* 0, 3, 4, 10, 25, 33 */
    const timeline *tl = &x.tl;
    const double eps = beats_epsilon(tl);
    assert_same_double(eps, BEATS_EPSILON * 33);
    /* Next: strictly after, a t within the epsilon of a beat being on it. */
    assert_int_equal(beats_next(&bl, tl, 0), 1);
    assert_int_equal(beats_next(&bl, tl, 2.9), 1);
    assert_int_equal(beats_next(&bl, tl, 3), 2);
    assert_int_equal(beats_next(&bl, tl, 3 - eps / 2), 2);
    assert_int_equal(beats_next(&bl, tl, 3 - 2 * eps), 1);
    assert_int_equal(beats_next(&bl, tl, 25.5), 5);
    assert_int_equal(beats_next(&bl, tl, 33), -1);
    assert_int_equal(beats_next(&bl, tl, -1), 0);
    /* Previous: strictly before. */
    assert_int_equal(beats_prev(&bl, tl, 3), 0);
    assert_int_equal(beats_prev(&bl, tl, 3 + eps / 2), 0);
    assert_int_equal(beats_prev(&bl, tl, 3 + 2 * eps), 1);
    assert_int_equal(beats_prev(&bl, tl, 0), -1);
    assert_int_equal(beats_prev(&bl, tl, 100), 5);
    /* At: within the epsilon. */
    assert_int_equal(beats_at(&bl, tl, 3), 1);
    assert_int_equal(beats_at(&bl, tl, 3 + eps / 2), 1);
    assert_int_equal(beats_at(&bl, tl, 3 - eps / 2), 1);
    assert_int_equal(beats_at(&bl, tl, 3 + 2 * eps), -1);
    assert_int_equal(beats_at(&bl, tl, 3.5), -1);
    assert_int_equal(beats_at(&bl, tl, 33), 5);
    /* Current: the last at or before. */
    assert_int_equal(beats_current(&bl, tl, 3.5), 1);
    assert_int_equal(beats_current(&bl, tl, 3 - eps / 2), 1);
    assert_int_equal(beats_current(&bl, tl, 3 - 2 * eps), 0);
    assert_int_equal(beats_current(&bl, tl, -1), -1);
    assert_int_equal(beats_current(&bl, tl, 100), 5);
    /* Stepping through with next from 0 visits every beat once. */
    int visited = 1;
    for (int k = beats_next(&bl, tl, 0); k >= 0; k = beats_next(&bl, tl, bl.beats[k].t))
        assert_int_equal(k, visited++);
    assert_int_equal(visited, bl.count);
    beat_list empty = {0};
    assert_int_equal(beats_next(&empty, tl, 0), -1);
    assert_int_equal(beats_prev(&empty, tl, 9), -1);
    assert_int_equal(beats_at(&empty, tl, 0), -1);
    assert_int_equal(beats_current(&empty, tl, 9), -1);
    beat_list_deinit(&bl);
    run_fixture_deinit(&x);
}

/* ---- properties --------------------------------------------------------------------------- */

static unsigned long long rng_state = 0x9E3779B97F4A7C15ull;

static unsigned rng(unsigned n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % n);
}

/* Random schedules, sizes and costs; automatic beats, and random scenario
 * beats (times and "after" names of real actions) merged with them: always
 * sorted, distinct, within [0, makespan], at most BEATS_MAX; a failure only
 * for two scenario beats at one moment. */
static void test_random_scenarios(void **state)
{
    (void)state;
    static const char *names[] = {"gpipe",      "1f1b",     "interleaved-1f1b",
                                  "looped-bfs", "zb-h1",    "interleaved-zb",
                                  "zbv",        "dualpipev"};
    int built = 0;
    for (int iter = 0; iter < 400; iter++) {
        scenario sc;
        scenario_init(&sc);
        char v[32];
        ppf_error err = {{0}};
        bool ok = scenario_set(&sc, "schedule", names[rng(8)], &err);
        snprintf(v, sizeof v, "%u", 1 + rng(6));
        ok = ok && scenario_set(&sc, "stages", v, &err);
        snprintf(v, sizeof v, "%u", 1 + rng(16));
        ok = ok && scenario_set(&sc, "microbatches", v, &err);
        snprintf(v, sizeof v, "%u", 1 + rng(3));
        ok = ok && scenario_set(&sc, "dp", v, &err);
        snprintf(v, sizeof v, "%g", rng(4) * 0.25);
        ok = ok && scenario_set(&sc, "p2p", v, &err);
        snprintf(v, sizeof v, "%g", 0.5 + rng(4) * 0.5);
        ok = ok && scenario_set(&sc, "f", v, &err);
        snprintf(v, sizeof v, "%g", 0.5 + rng(6) * 0.5);
        ok = ok && scenario_set(&sc, "b", v, &err);
        snprintf(v, sizeof v, "%u", rng(5));
        ok = ok && scenario_set(&sc, "allreduce", v, &err);
        assert_true(ok);
        program p;
        timeline_costs c;
        if (!scenario_build(&sc, &p, &c, &err)) { /* the schedule's own limits (M >= P, ...) */
            scenario_deinit(&sc);
            continue;
        }
        timeline tl;
        if (!timeline_simulate(&tl, &p, &c, &err))
            fail_msg("%s: %s", sc.schedule, err.message);
        built++;
        beat_list bl = {0};
        beats_auto(&bl, &tl);
        expect_well_formed(&bl, &tl);
        assert_ge(bl.count, 1);
        assert_same_double(bl.beats[bl.count - 1].t, tl.makespan);
        beat_list_deinit(&bl);

        beat_spec items[6];
        int n = (int)rng(7);
        for (int k = 0; k < n; k++) {
            if (rng(2)) {
                items[k] = spec_t(tl.makespan * rng(1001) / 1000.0, "t");
            } else {
                int r = (int)rng((unsigned)p.ranks), count = p.rank[r].count;
                const action *a = count ? &p.rank[r].actions[rng((unsigned)count)] : NULL;
                char name[ACTION_TEXT_MAX] = "0F0";
                if (a && action_is_compute((action_kind)a->kind))
                    action_format(a, name);
                items[k] = spec_after(name, "after");
            }
        }
        beat_specs specs = {items, n, rng(2) == 0};
        if (beats_build(&bl, &tl, &specs, &err)) {
            expect_well_formed(&bl, &tl);
            assert_ge(bl.count, n);
            int mine = 0;
            for (int k = 0; k < bl.count; k++)
                mine += !bl.beats[k].automatic;
            assert_int_equal(mine, n);
        } else {
            assert_message(&err, "is the moment of", "give each moment one beat");
            assert_int_equal(bl.count, 0);
        }
        beat_list_deinit(&bl);
        timeline_deinit(&tl);
        timeline_costs_deinit(&c);
        program_deinit(&p);
        scenario_deinit(&sc);
    }
    assert_gt(built, 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_1f1b_by_hand),
        cmocka_unit_test(test_gpipe_by_hand),
        cmocka_unit_test(test_zero_bubble_by_hand),
        cmocka_unit_test(test_allreduce_beats),
        cmocka_unit_test(test_overlapped),
        cmocka_unit_test(test_every_schedule),
        cmocka_unit_test(test_csv_same_as_generated),
        cmocka_unit_test(test_after_names),
        cmocka_unit_test(test_after_errors),
        cmocka_unit_test(test_merge_rules),
        cmocka_unit_test(test_too_many),
        cmocka_unit_test(test_specs_copy),
        cmocka_unit_test(test_navigation),
        cmocka_unit_test(test_random_scenarios),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
