/* Tests of the what-if command line without a window (whatif.h): the
 * flags' names and values parsed into a new scenario, a bad value's
 * one-line message with nothing changed, Tab's completion of names and
 * values, the hint under the text, the direct keys' steps, undo, and the
 * HUD's line of what differs from the scenario opened. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "whatif.h"

/* now with "NAME VALUE" applied; fails the test when it does not parse. */
static scenario parsed(const scenario *now, const char *text)
{
    scenario out;
    ppf_error err = {{0}};
    if (!whatif_parse(now, text, &out, &err))
        fail_msg("\"%s\": %s", text, err.message);
    return out;
}

static void test_parse_the_flags_names(void **state)
{
    (void)state;
    scenario sc;
    scenario_init(&sc);
    scenario a = parsed(&sc, "stages 8");
    assert_int_equal(a.stages, 8);
    assert_int_equal(sc.stages, 4); /* now is not changed */
    scenario b = parsed(&a, "  schedule   ZB1P ");
    assert_string_equal(b.schedule, "zb-h1");
    assert_int_equal(b.stages, 8);
    scenario c = parsed(&b, "microbatches 16");
    assert_int_equal(c.microbatches, 16);
    scenario d = parsed(&c, "p2p 0.3");
    assert_int_equal(d.p2p.count, 1);
    assert_near(d.p2p.values[0], 0.3, 0);
    scenario e = parsed(&d, "allreduce 4");
    assert_int_equal(e.allreduce.mode, ALLREDUCE_TIME);
    scenario f = parsed(&e, "dp 4");
    assert_int_equal(f.dp, 4);
    scenario g = parsed(&f, "f 1,1,1,2");
    assert_int_equal(g.f.count, 4);
    assert_near(g.f.values[3], 2, 0);
    /* the JSON names too */
    scenario h = parsed(&g, "layers_per_stage 3");
    assert_int_equal(h.layers_per_stage, 3);
    scenario *all[] = {&sc, &a, &b, &c, &d, &e, &f, &g, &h};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
        scenario_deinit(all[k]);
}

static void test_schedule_drops_a_v_it_cannot_run(void **state)
{
    (void)state;
    scenario sc;
    scenario_init(&sc);
    scenario a = parsed(&sc, "schedule interleaved-1f1b");
    scenario b = parsed(&a, "virtual 4");
    assert_int_equal(b.virtual_stages, 4);
    scenario c = parsed(&b, "schedule 1f1b");
    assert_int_equal(c.virtual_stages, 0);
    scenario d = parsed(&b, "schedule looped-bfs"); /* runs any V */
    assert_int_equal(d.virtual_stages, 4);
    scenario_deinit(&sc), scenario_deinit(&a), scenario_deinit(&b), scenario_deinit(&c);
    scenario_deinit(&d);
}

/* A bad line: false, the flag's own message, *out zeroed. */
static void expect_error(const scenario *now, const char *text, const char *piece1,
                         const char *piece2)
{
    scenario out;
    memset(&out, 0xab, sizeof out);
    ppf_error err = {{0}};
    if (whatif_parse(now, text, &out, &err))
        fail_msg("\"%s\" parsed", text);
    assert_message(&err, piece1, piece2);
    assert_null(out.f.values);
    assert_int_equal(out.stages, 0);
}

static void test_bad_values_say_why(void **state)
{
    (void)state;
    scenario sc;
    scenario_init(&sc);
    expect_error(&sc, "microbatches 0", "microbatches = \"0\"", "from 1 to 1000000");
    expect_error(&sc, "schedule nope", "schedule = \"nope\"", "unknown schedule");
    expect_error(&sc, "p2p -1", "costs.p2p", ">= 0");
    expect_error(&sc, "stages", "stages needs a value", "now 4");
    expect_error(&sc, "stagez 8", "no field \"stagez\"", "microbatches");
    expect_error(&sc, "", "type a name and a value", "stages");
    expect_error(&sc, "beats none", "beats", "cannot be changed live");
    expect_error(&sc, "f 1,x", "costs.f", "item 2");
    assert_int_equal(sc.microbatches, 8);
    assert_string_equal(sc.schedule, "1f1b");
    scenario_deinit(&sc);
}

/* Tab on text: the text after it and the candidates shown. */
static int complete(const char *text, char *after, const char *shown_want)
{
    whatif_line l;
    whatif_line_open(&l);
    for (const char *p = text; *p; p++)
        assert_true(whatif_line_insert(&l, (unsigned char)*p));
    char shown[400];
    int n = whatif_complete(&l, shown, sizeof shown);
    strcpy(after, l.text);
    assert_int_equal(l.len, strlen(l.text));
    if (shown_want)
        assert_string_equal(shown, shown_want);
    return n;
}

static void test_completion(void **state)
{
    (void)state;
    char after[WHATIF_TEXT_MAX];
    assert_int_equal(complete("mic", after, "microbatches"), 1);
    assert_string_equal(after, "microbatches "); /* ready for the value */
    assert_int_equal(complete("st", after, "stages  stage-gap"), 2);
    assert_string_equal(after, "stage");
    assert_int_equal(complete("schedule zb", after, "zb-h1  zbv"), 2);
    assert_string_equal(after, "schedule zb");
    assert_int_equal(complete("schedule inter", after, "interleaved-1f1b  interleaved-zb"), 2);
    assert_string_equal(after, "schedule interleaved-");
    assert_int_equal(complete("schedule g", after, "gpipe"), 1);
    assert_string_equal(after, "schedule gpipe");
    assert_int_equal(complete("allreduce n", after, "none"), 1);
    assert_string_equal(after, "allreduce none");
    assert_int_equal(complete("stages 4", after, ""), 0); /* numbers: nothing to offer */
    assert_string_equal(after, "stages 4");
    assert_int_equal(complete("xyz", after, ""), 0);
    assert_string_equal(after, "xyz");
    assert_ge(complete("", after, NULL), 17); /* every name but beats */
    assert_null(strstr(after, "beats"));
}

static void test_hint_shows_the_current_value(void **state)
{
    (void)state;
    scenario sc;
    scenario_init(&sc);
    char hint[400];
    whatif_hint(&sc, "stages", hint, sizeof hint);
    assert_non_null(strstr(hint, "now 4"));
    whatif_hint(&sc, "stages 1", hint, sizeof hint);
    assert_non_null(strstr(hint, "from 1 to 4096"));
    whatif_hint(&sc, "schedule z", hint, sizeof hint);
    assert_non_null(strstr(hint, "now 1f1b"));
    assert_non_null(strstr(hint, "zb-h1  zbv"));
    assert_null(strstr(hint, "gpipe"));
    whatif_hint(&sc, "p2p", hint, sizeof hint);
    assert_non_null(strstr(hint, "now 0.25"));
    whatif_hint(&sc, "allreduce ", hint, sizeof hint);
    assert_non_null(strstr(hint, "now 3/1/ring"));
    whatif_hint(&sc, "mi", hint, sizeof hint);
    assert_string_equal(hint, "microbatches");
    whatif_hint(&sc, "nope 3", hint, sizeof hint);
    assert_non_null(strstr(hint, "no field \"nope\""));
    scenario_deinit(&sc);
}

static void test_steps(void **state)
{
    (void)state;
    scenario sc, out;
    ppf_error err = {{0}};
    scenario_init(&sc);
    assert_true(whatif_step(&sc, WHATIF_STEP_STAGES, +1, &out, &err));
    assert_int_equal(out.stages, 5);
    scenario_deinit(&out);
    assert_true(whatif_step(&sc, WHATIF_STEP_MICROBATCHES, +1, &out, &err));
    assert_int_equal(out.microbatches, 16);
    scenario_deinit(&out);
    assert_true(whatif_step(&sc, WHATIF_STEP_MICROBATCHES, -1, &out, &err));
    assert_int_equal(out.microbatches, 4);
    scenario_deinit(&out);
    /* next and previous schedules, in the table's order */
    assert_true(whatif_step(&sc, WHATIF_STEP_SCHEDULE, +1, &out, &err));
    assert_string_equal(out.schedule, "interleaved-1f1b");
    scenario_deinit(&out);
    assert_true(whatif_step(&sc, WHATIF_STEP_SCHEDULE, -1, &out, &err));
    assert_string_equal(out.schedule, "gpipe");
    scenario_deinit(&out);
    /* at P=4, M=4 dualpipev (M >= 2P) is skipped going backwards from gpipe */
    scenario m4 = parsed(&sc, "microbatches 4");
    scenario g = parsed(&m4, "schedule gpipe");
    assert_true(whatif_step(&g, WHATIF_STEP_SCHEDULE, -1, &out, &err));
    assert_string_equal(out.schedule, "zbv");
    scenario_deinit(&out);
    /* M = 1 cannot halve; P = 1 cannot drop */
    scenario one = parsed(&sc, "microbatches 1");
    assert_false(whatif_step(&one, WHATIF_STEP_MICROBATCHES, -1, &out, &err));
    assert_message(&err, "microbatches = \"0\"");
    scenario p1 = parsed(&sc, "stages 1");
    assert_false(whatif_step(&p1, WHATIF_STEP_STAGES, -1, &out, &err));
    assert_message(&err, "stages = \"0\"");
    scenario_deinit(&sc), scenario_deinit(&m4), scenario_deinit(&g), scenario_deinit(&one);
    scenario_deinit(&p1);
}

static void test_undo_and_diff(void **state)
{
    (void)state;
    scenario sc;
    scenario_init(&sc);
    whatif *w = calloc(1, sizeof *w);
    whatif_init(w, &sc);
    char diff[400];
    whatif_diff(&w->opened, &sc, diff, sizeof diff);
    assert_string_equal(diff, "");
    scenario a = parsed(&sc, "stages 8");
    whatif_push(w, &sc, NULL);
    scenario b = parsed(&a, "schedule zb-h1");
    whatif_push(w, &a, NULL);
    scenario c = parsed(&b, "p2p 0.5");
    whatif_push(w, &b, NULL);
    whatif_diff(&w->opened, &c, diff, sizeof diff);
    assert_string_equal(diff, "schedule zb-h1 (was 1f1b), P=8 (was 4), p2p 0.5 (was 0.25)");
    assert_int_equal(w->undo_count, 3);
    whatif_undo back;
    assert_true(whatif_pop(w, &back));
    assert_null(back.kept);
    whatif_diff(&w->opened, &back.sc, diff, sizeof diff);
    assert_string_equal(diff, "schedule zb-h1 (was 1f1b), P=8 (was 4)");
    scenario_deinit(&back.sc);
    assert_true(whatif_pop(w, &back));
    scenario_deinit(&back.sc);
    assert_true(whatif_pop(w, &back));
    whatif_diff(&w->opened, &back.sc, diff, sizeof diff);
    assert_string_equal(diff, "");
    scenario_deinit(&back.sc);
    assert_false(whatif_pop(w, &back));
    /* bounded: the oldest goes */
    for (int k = 0; k < WHATIF_UNDO_MAX + 5; k++) {
        scenario s = parsed(&sc, k % 2 ? "stages 5" : "stages 6");
        s.microbatches = 100 + k;
        whatif_push(w, &s, NULL);
        scenario_deinit(&s);
    }
    assert_int_equal(w->undo_count, WHATIF_UNDO_MAX);
    assert_int_equal(w->undo[0].sc.microbatches, 105);
    assert_true(whatif_pop(w, &back));
    assert_int_equal(back.sc.microbatches, 100 + WHATIF_UNDO_MAX + 4);
    scenario_deinit(&back.sc);
    /* costs per rank and V left to the schedule */
    scenario d = parsed(&sc, "f 1,1,1,2");
    scenario e = parsed(&d, "virtual 1");
    whatif_diff(&sc, &e, diff, sizeof diff);
    assert_string_equal(diff, "V=1 (was default), f 1,1,1,2 (was 1)");
    whatif_deinit(w);
    whatif_deinit(w); /* twice is fine */
    free(w);
    scenario *all[] = {&sc, &a, &b, &c, &d, &e};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
        scenario_deinit(all[k]);
}

/* A session of base changed by a command line, built, scene included. */
static session *built(const scenario *base, const char *text)
{
    scenario sc = parsed(base, text);
    ppf_error err = {{0}};
    session *s = session_new(&sc, true, &err);
    assert_non_null(s);
    scenario_deinit(&sc);
    return s;
}

/* Undo keeps the sessions a change replaced while the budget lets it, the
 * newest longest: undo then swaps one back without building. Pushing past
 * the bound and letting go free them (ASan's leak check holds it). */
static void test_undo_keeps_sessions_within_the_budget(void **state)
{
    (void)state;
    scenario sc;
    scenario_init(&sc);
    whatif *w = calloc(1, sizeof *w);
    whatif_init(w, &sc);
    session *older = built(&sc, "stages 8");
    session *newer = built(&sc, "stages 6");
    whatif_push(w, &older->sc, older);
    whatif_push(w, &newer->sc, newer);
    const budget_cost each = session_cost(newer);
    assert_gt(each.actions, 0);

    /* room for everything: both stay, and *held counts them */
    budget_cost held = {0};
    whatif_keep_within(w, &held);
    assert_ptr_equal(w->undo[0].kept, older);
    assert_ptr_equal(w->undo[1].kept, newer);
    const budget_cost older_cost = session_cost(older);
    assert_near(held.actions, each.actions + older_cost.actions, 0);

    /* room for the newer only: the older is let go, its scenario stays */
    held = (budget_cost){.actions = BUDGET_MAX_ACTIONS - each.actions};
    whatif_keep_within(w, &held);
    assert_null(w->undo[0].kept);
    assert_ptr_equal(w->undo[1].kept, newer);
    assert_int_equal(w->undo[0].sc.stages, 8);
    assert_near(held.actions, BUDGET_MAX_ACTIONS, 0);

    /* undo takes the newer back whole */
    whatif_undo back;
    assert_true(whatif_pop(w, &back));
    assert_ptr_equal(back.kept, newer);
    assert_int_equal(back.sc.stages, 6);
    session_free(back.kept);
    scenario_deinit(&back.sc);

    /* no room at all: nothing stays kept */
    session *again = built(&sc, "stages 5");
    whatif_push(w, &again->sc, again);
    held = (budget_cost){.actions = BUDGET_MAX_ACTIONS};
    whatif_keep_within(w, &held);
    for (int k = 0; k < w->undo_count; k++)
        assert_null(w->undo[k].kept);

    /* pushed past the bound: the oldest goes, its session freed with it */
    for (int k = 0; k < WHATIF_UNDO_MAX + 2; k++)
        whatif_push(w, &sc, built(&sc, k % 2 ? "stages 3" : "stages 2"));
    assert_int_equal(w->undo_count, WHATIF_UNDO_MAX);
    whatif_deinit(w);
    free(w);
    scenario_deinit(&sc);
}

static void test_line_editing(void **state)
{
    (void)state;
    whatif_line l;
    whatif_line_open(&l);
    assert_true(l.open);
    assert_false(whatif_line_insert(&l, '\n'));
    assert_false(whatif_line_insert(&l, 0x7f));
    assert_false(whatif_line_insert(&l, 0x9b)); /* C1: a terminal's CSI */
    assert_false(whatif_line_insert(&l, 0xd800));
    assert_false(whatif_line_insert(&l, 0x110000));
    assert_true(whatif_line_insert(&l, 'a'));
    assert_true(whatif_line_insert(&l, 0x2212)); /* − : three bytes */
    assert_true(whatif_line_insert(&l, 0x1f600));
    assert_int_equal(l.len, 1 + 3 + 4);
    whatif_line_backspace(&l);
    assert_string_equal(l.text, "a\xe2\x88\x92");
    whatif_line_backspace(&l);
    assert_string_equal(l.text, "a");
    whatif_line_backspace(&l);
    whatif_line_backspace(&l);
    assert_string_equal(l.text, "");
    int n = 0;
    while (whatif_line_insert(&l, 'x'))
        n++;
    assert_int_equal(n, WHATIF_TEXT_MAX - 1);
    assert_int_equal(strlen(l.text), WHATIF_TEXT_MAX - 1);
    whatif_line_close(&l);
    assert_false(l.open);
    assert_string_equal(l.text, "");
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_the_flags_names),
        cmocka_unit_test(test_schedule_drops_a_v_it_cannot_run),
        cmocka_unit_test(test_bad_values_say_why),
        cmocka_unit_test(test_completion),
        cmocka_unit_test(test_hint_shows_the_current_value),
        cmocka_unit_test(test_steps),
        cmocka_unit_test(test_undo_and_diff),
        cmocka_unit_test(test_undo_keeps_sessions_within_the_budget),
        cmocka_unit_test(test_line_editing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
