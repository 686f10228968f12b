/* Tests of the session (scenario -> program -> timeline -> scene): built
 * whole, a changed scenario built beside it and taking its place (as a
 * window that stays open does, session_new), a second one built beside the
 * first, and a build that fails leaving the shown session as it was. Each session's makespan is
 * checked against its own scenario: the textbook (M + P - 1)(F + B) for GPipe and 1F1B, and a
 * separate simulation of the scenario for the rest. Under ASan a leak or a stale pointer into a
 * replaced session fails the run. Its beats are built, rebuilt and refused with it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session.h"
#include "support/check.h"

/* A scenario: the built-in default with these flags (name, value, ...). */
static void scenario_with(scenario *sc, const char *const *flags, int n)
{
    ppf_error err = {{0}};
    scenario_init(sc);
    for (int k = 0; k + 1 < n; k += 2)
        if (!scenario_set(sc, flags[k], flags[k + 1], &err))
            fail_msg("--%s %s: %s", flags[k], flags[k + 1], err.message);
}

/* The makespan of the scenario, simulated apart from any session. */
static double makespan_of(const scenario *sc)
{
    program p;
    timeline_costs c;
    timeline tl;
    ppf_error err = {{0}};
    if (!scenario_build(sc, &p, &c, &err) || !timeline_simulate(&tl, &p, &c, &err))
        fail_msg("%s", err.message);
    const double m = tl.makespan;
    timeline_deinit(&tl);
    timeline_costs_deinit(&c);
    program_deinit(&p);
    return m;
}

/* The parts of a session point at each other, never at another session. */
static void expect_whole(const session *s, const scenario *sc)
{
    assert_ptr_equal(s->tl.program, &s->prog);
    assert_int_equal(s->prog.ranks, sc->stages);
    assert_int_equal(s->prog.microbatches, sc->microbatches);
    assert_string_equal(s->sc.schedule, sc->schedule);
    assert_non_null(strstr(s->hud_title, sc->schedule));
    if (s->has_scene) {
        assert_ptr_equal(s->scene.timeline, &s->tl);
        assert_int_equal(s->scene.ranks, sc->stages);
        assert_int_equal(s->scene.microbatches, sc->microbatches);
    }
    /* state(t) reads the scene and its timeline: a stale one is caught here */
    if (s->has_scene) {
        scene_state st;
        scene_state_init(&st, &s->scene);
        scene_state_at(&s->scene, s->tl.makespan * 0.5, &st);
        scene_state_deinit(&st);
    }
}

/* What a window does with a changed scenario: a session built beside *s
 * (its scene too when *s has one) takes its place; false with one line,
 * *s as it was. */
static bool replace(session **s, const scenario *sc, ppf_error *err)
{
    session *next = session_new(sc, (*s)->has_scene, err);
    if (!next)
        return false;
    session_free(*s);
    *s = next;
    return true;
}

/* A session on the heap, built from the flags (scene when with_scene). */
static session *built(const session_flag *flags, int n, bool with_scene)
{
    ppf_error err = {{0}};
    session *s = calloc(1, sizeof *s);
    if (!session_build(s, NULL, flags, n, &err) || (with_scene && !session_build_scene(s, &err)))
        fail_msg("%s", err.message);
    return s;
}

static void test_build_rebuild_and_beside(void **state)
{
    (void)state;
    ppf_error err = {{0}};
    session *a = built(NULL, 0, true);
    scenario def;
    scenario_init(&def);
    expect_whole(a, &def);
    /* the default's transfers take time: longer than 1F1B's (M + P - 1)(F + B) */
    assert_near(a->tl.makespan, makespan_of(&def), 1e-9);
    assert_gt(a->tl.makespan, (8 + 4 - 1) * 3.0);

    /* another schedule, P and M, in its place, with free transfers: the textbook's */
    scenario gpipe;
    scenario_with(&gpipe,
                  (const char *const[]){"schedule", "gpipe", "stages", "3", "microbatches", "5",
                                        "p2p", "0", "allreduce", "none"},
                  10);
    assert_true(replace(&a, &gpipe, &err));
    assert_true(a->has_scene);
    expect_whole(a, &gpipe);
    assert_near(a->tl.makespan, (5 + 3 - 1) * 3.0, 1e-9);

    /* and again, with costs of its own */
    scenario zb;
    scenario_with(&zb,
                  (const char *const[]){"schedule", "zb-h1", "stages", "4", "microbatches", "12",
                                        "p2p", "0.25", "b", "2,2,3,2"},
                  10);
    assert_true(replace(&a, &zb, &err));
    expect_whole(a, &zb);
    assert_near(a->tl.makespan, makespan_of(&zb), 1e-9);

    /* a second session beside the first, from a scenario, without a scene */
    scenario dual;
    scenario_with(
        &dual, (const char *const[]){"schedule", "dualpipev", "stages", "4", "microbatches", "10"},
        6);
    session *b = session_new(&dual, false, &err);
    assert_non_null(b);
    assert_false(b->has_scene);
    expect_whole(b, &dual);
    expect_whole(a, &zb);
    assert_near(b->tl.makespan, makespan_of(&dual), 1e-9);
    assert_near(a->tl.makespan, makespan_of(&zb), 1e-9);
    /* replacing one leaves the other alone */
    assert_true(replace(&b, &gpipe, &err));
    assert_false(b->has_scene);
    expect_whole(b, &gpipe);
    expect_whole(a, &zb);
    assert_near(b->tl.makespan, (5 + 3 - 1) * 3.0, 1e-9);

    /* the session keeps its own copy: the caller's scenario may go */
    scenario_deinit(&zb);
    expect_whole(b, &gpipe);
    assert_string_equal(a->sc.schedule, "zb-h1");

    session_free(b);
    session_deinit(a);
    session_deinit(a); /* twice is fine */
    free(a);
    session_free(NULL);
    scenario_deinit(&dual);
    scenario_deinit(&gpipe);
    scenario_deinit(&def);
}

/* A scenario that fails leaves the session as it was, whatever part fails,
 * and session_new leaves nothing behind (ASan's leak check). */
static void test_rebuild_failure_keeps_the_old(void **state)
{
    (void)state;
    ppf_error err = {{0}};
    static const session_flag flags[] = {{"schedule", "gpipe"}, {"microbatches", "6"}};
    session *s = built(flags, 2, true);
    const double makespan = s->tl.makespan;
    char title[sizeof s->hud_title];
    memcpy(title, s->hud_title, sizeof title);

    struct {
        const char *const *flags;
        int n;
        const char *why; /* in the message */
    } bad[] = {
        /* the program cannot be built */
        {(const char *const[]){"schedule", "csv:/nonexistent/ppflow-test.csv"}, 2,
         "ppflow-test.csv"},
        /* it builds and simulates, but its scene is over the budget */
        {(const char *const[]){"dp", "1000000", "layers-per-stage", "64"}, 4, "objects to draw"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        scenario sc;
        scenario_with(&sc, bad[k].flags, bad[k].n);
        err = (ppf_error){{0}};
        assert_false(replace(&s, &sc, &err));
        print_message("refused: %s\n", err.message);
        assert_non_null(strstr(err.message, bad[k].why));
        assert_true(s->has_scene);
        assert_true(s->tl.makespan == makespan);
        assert_string_equal(s->hud_title, title);
        assert_string_equal(s->sc.schedule, "gpipe");
        assert_int_equal(s->scene.microbatches, 6);
        scenario_deinit(&sc);
    }
    /* the scene was the only trouble: without one it builds */
    scenario big;
    scenario_with(&big, (const char *const[]){"dp", "1000000", "layers-per-stage", "64"}, 4);
    session t;
    assert_true(session_build_from(&t, &big, &err));
    assert_false(session_build_scene(&t, &err));
    session_deinit(&t);
    scenario_deinit(&big);
    session_free(s);
}

/* A session's beats: the automatic ones of its own timeline, the
 * scenario's merged in, built with it; a beat naming no action fails the
 * build, leaving the shown session. */
static void test_session_beats(void **state)
{
    (void)state;
    ppf_error err = {{0}};
    session *s = built(NULL, 0, false);
    beat_list autos = {0};
    beats_auto(&autos, &s->tl);
    assert_ge(s->beats.count, 5);
    assert_int_equal(s->beats.count, autos.count);
    for (int k = 0; k < autos.count; k++)
        assert_string_equal(s->beats.beats[k].title, autos.beats[k].title);
    beat_list_deinit(&autos);

    /* A scenario's beat, found by its action, in the session that replaces it. */
    scenario sc;
    scenario_with(&sc, (const char *const[]){"schedule", "gpipe", "p2p", "0", "dp", "1"}, 6);
    const char *json = "{\"beats\": [{\"after\": \"3F7\", \"title\": \"x\"}]}";
    assert_true(scenario_parse_json(&sc, json, strlen(json), &err));
    assert_true(replace(&s, &sc, &err));
    assert_same_double(s->beats.beats[s->beats.count - 1].t, 33); /* the end, GPipe's */
    int mine = beats_at(&s->beats, &s->tl, 11);                   /* 3F7 ends at 11 */
    assert_ge(mine, 0);
    assert_string_equal(s->beats.beats[mine].title, "x");
    const int count = s->beats.count;

    /* No such action: refused with its one line, the old session kept. */
    scenario bad;
    scenario_copy(&bad, &sc);
    snprintf(bad.beats.items[0].after, sizeof bad.beats.items[0].after, "3F8");
    assert_false(replace(&s, &bad, &err));
    assert_message(&err, "beats[0].after = \"3F8\"", "no such action");
    assert_int_equal(s->beats.count, count);
    assert_string_equal(s->beats.beats[mine].title, "x");
    session t;
    assert_false(session_build_from(&t, &bad, &err));
    session_deinit(&t);

    /* A camera that names no preset: refused, naming the presets. */
    snprintf(bad.beats.items[0].after, sizeof bad.beats.items[0].after, "3F7");
    snprintf(bad.beats.items[0].camera, sizeof bad.beats.items[0].camera, "tpo");
    assert_false(replace(&s, &bad, &err));
    assert_message(&err, "beats[0].camera = \"tpo\"", "not a camera preset (default, ");
    snprintf(bad.beats.items[0].camera, sizeof bad.beats.items[0].camera, "top");
    assert_true(session_build_from(&t, &bad, &err));
    session_deinit(&t);
    scenario_deinit(&bad);

    /* --beats none, in command-line order after the file's. */
    static const session_flag none[] = {{"beats", "none"}};
    session u;
    assert_true(session_build(&u, NULL, none, 1, &err));
    assert_int_equal(u.beats.count, 0);
    session_deinit(&u);
    scenario_deinit(&sc);
    session_free(s);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_build_rebuild_and_beside),
        cmocka_unit_test(test_rebuild_failure_keeps_the_old),
        cmocka_unit_test(test_session_beats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
