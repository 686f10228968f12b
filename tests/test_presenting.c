/* Tests of presenting mode without a window: beats, a clicker's commands
 * and the layers Esc backs out of, applied to the default scenario's
 * session (1F1B, P=4, M=8, D=2) with a clock the test moves.
 *
 *   - Next plays to the next beat and stops with t equal to the beat's time
 *     (not a frame near it), through every beat; Next while it plays lands
 *     at once; Previous lands on the previous beat's end state, paused;
 *     after a scrub between beats both go on from the beat landed on;
 *   - R replays the current beat from the one before; V plays backwards to
 *     the previous beat and stops on it;
 *   - G, digits, Enter lands on beat N; a wrong number goes nowhere;
 *   - blackout ignores every key but Esc, B and ., and holds a play still
 *     until the picture is back; Esc backs out one layer
 *     at a time and never quits; F5 again keeps the talk where it is;
 *   - presenting draws text at 1/40 of the height. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session.h"
#include "support/check.h"
#include "viewer_state.h"

static session *default_session(void)
{
    session *s = calloc(1, sizeof *s);
    ppf_error err = {{0}};
    if (!session_build(s, NULL, NULL, 0, &err) || !session_build_scene(s, &err))
        fail_msg("default session: %s", err.message);
    return s;
}

static viewer_state presenting(const session *s)
{
    viewer_state v;
    viewer_state_init(&v, s, 1920, 1080);
    viewer_state_set_speed(&v, session_default_speed(s));
    viewer_state_place_timeline(&v);
    viewer_state_set_camera(&v, CAMERA_PRESET_DEFAULT);
    viewer_state_set_presenting(&v, true);
    return v;
}

static void apply(viewer_state *v, command_kind kind, double a, double clock)
{
    viewer_state_apply(v, &(command){kind, a, 0}, clock);
}

/* Draws frames every 1/60 s from *clock until playback stops (or a limit). */
static void play_out(viewer_state *v, double *clock)
{
    char status[192];
    for (int k = 0; k < 100000 && v->play.playing; k++) {
        *clock += 1.0 / 60;
        viewer_state_frame_view(v, *clock, status, sizeof status);
    }
    assert_false(v->play.playing);
}

static void test_next_lands_exactly_on_every_beat(void **state)
{
    (void)state;
    session *s = default_session();
    const beat_list *bl = &s->beats;
    assert_ge(bl->count, 3);
    viewer_state v = presenting(s);
    double clock = 100;
    assert_int_equal(v.play.t, 0);
    for (int k = 1; k < bl->count; k++) {
        apply(&v, CMD_BEAT_NEXT, 0, clock);
        assert_true(v.play.playing);
        play_out(&v, &clock);
        if (v.play.t != bl->beats[k].t) /* exactly, not a frame near it */
            fail_msg("Next %d: t = %.17g, beat %d is at %.17g", k, v.play.t, k + 1, bl->beats[k].t);
        char status[192];
        viewer_state_frame_view(&v, clock + 5, status, sizeof status);
        assert_true(v.play.t == bl->beats[k].t); /* and stays there */
        char want[64];
        snprintf(want, sizeof want, "beat %d/%d · ", k + 1, bl->count);
        assert_non_null(strstr(status, want));
    }
    /* past the last beat, Next does nothing */
    apply(&v, CMD_BEAT_NEXT, 0, clock);
    assert_false(v.play.playing);
    assert_true(v.play.t == bl->beats[bl->count - 1].t);
    print_message("%d beats, each landed on exactly\n", bl->count);
    session_deinit(s);
    free(s);
}

static void test_next_while_playing_and_previous(void **state)
{
    (void)state;
    session *s = default_session();
    const beat_list *bl = &s->beats;
    viewer_state v = presenting(s);
    double clock = 0;
    char status[192];
    apply(&v, CMD_BEAT_NEXT, 0, clock);
    clock += 0.01;
    viewer_state_frame_view(&v, clock, status, sizeof status);
    assert_true(v.play.playing && v.play.t > 0 && v.play.t < bl->beats[1].t);
    /* on the way, the HUD names beat 2 as where it is going, not where it is */
    char want[192];
    snprintf(want, sizeof want, "→ beat 2/%d · %s", bl->count, bl->beats[1].title);
    if (strcmp(status, want) != 0)
        fail_msg("heading for beat 2: \"%s\", want \"%s\"", status, want);
    apply(&v, CMD_BEAT_NEXT, 0, clock); /* finishes the animation: on the beat, paused */
    assert_false(v.play.playing);
    assert_true(v.play.t == bl->beats[1].t);
    viewer_state_frame_view(&v, clock, status, sizeof status);
    assert_string_equal(status, want + strlen("→ ")); /* there: no arrow */
    apply(&v, CMD_BEAT_NEXT, 0, clock);
    play_out(&v, &clock);
    assert_true(v.play.t == bl->beats[2].t);
    /* Previous: the previous beat's end state at once, no replay */
    apply(&v, CMD_BEAT_PREV, 0, clock);
    assert_false(v.play.playing);
    assert_true(v.play.t == bl->beats[1].t);
    apply(&v, CMD_BEAT_PREV, 0, clock);
    assert_true(v.play.t == bl->beats[0].t);
    apply(&v, CMD_BEAT_PREV, 0, clock); /* at the first: stays */
    assert_true(v.play.t == bl->beats[0].t);
    /* Previous while playing to beat 2 lands on beat 1 */
    apply(&v, CMD_BEAT_LAST, 0, clock);
    assert_true(v.play.t == bl->beats[bl->count - 1].t);
    apply(&v, CMD_BEAT_FIRST, 0, clock);
    apply(&v, CMD_BEAT_NEXT, 0, clock);
    apply(&v, CMD_BEAT_NEXT, 0, clock);
    apply(&v, CMD_BEAT_NEXT, 0, clock); /* playing to beat 3 */
    assert_true(v.play.playing);
    apply(&v, CMD_BEAT_PREV, 0, clock);
    assert_false(v.play.playing);
    assert_true(v.play.t == bl->beats[1].t);
    /* a look aside (a scrub past later beats) does not move the talk: Next
       goes on from beat 2 to beat 3, Previous back to beat 1 */
    viewer_state_set_time(&v, 0.5 * (bl->beats[bl->count - 2].t + bl->beats[bl->count - 1].t),
                          clock);
    apply(&v, CMD_BEAT_NEXT, 0, clock);
    assert_true(v.play.playing && v.play.t == bl->beats[1].t);
    play_out(&v, &clock);
    assert_true(v.play.t == bl->beats[2].t);
    viewer_state_set_time(&v, bl->beats[bl->count - 1].t, clock); /* scrubbed onto the last */
    viewer_state_set_time(&v, 0.5 * (bl->beats[0].t + bl->beats[1].t), clock);
    apply(&v, CMD_BEAT_PREV, 0, clock);
    assert_true(v.play.t == bl->beats[1].t);
    session_deinit(s);
    free(s);
}

static void test_replay_reverse_and_goto(void **state)
{
    (void)state;
    session *s = default_session();
    const beat_list *bl = &s->beats;
    viewer_state v = presenting(s);
    double clock = 0;
    char status[192];
    apply(&v, CMD_BEAT_LAST, 0, clock);
    const int last = bl->count - 1;
    /* R: from the beat before, playing to this one */
    apply(&v, CMD_BEAT_REPLAY, 0, clock);
    assert_true(v.play.playing && v.play.t == bl->beats[last - 1].t);
    play_out(&v, &clock);
    assert_true(v.play.t == bl->beats[last].t);
    /* V: backwards to the previous beat, stopping on it */
    apply(&v, CMD_BEAT_REVERSE, 0, clock);
    clock += 0.01;
    viewer_state_frame_view(&v, clock, status, sizeof status);
    assert_true(v.play.playing && v.play.t < bl->beats[last].t && v.play.t > bl->beats[last - 1].t);
    play_out(&v, &clock);
    assert_true(v.play.t == bl->beats[last - 1].t);
    /* G 3 Enter: beat 3 (the HUD counts from 1) */
    apply(&v, CMD_BEAT_GOTO, 0, clock);
    apply(&v, CMD_DIGIT, 3, clock);
    viewer_state_frame_view(&v, clock, status, sizeof status);
    assert_non_null(strstr(status, "go to beat 3"));
    const camera cam = v.camera.cam;
    apply(&v, CMD_ENTER, 0, clock);
    assert_true(v.play.t == bl->beats[2].t && !v.play.playing);
    assert_true(v.camera.cam.yaw == cam.yaw); /* the digit typed a number, not a camera preset */
    /* a beat that does not exist goes nowhere; Esc abandons the typing */
    apply(&v, CMD_BEAT_GOTO, 0, clock);
    apply(&v, CMD_DIGIT, 9, clock);
    apply(&v, CMD_DIGIT, 9, clock);
    apply(&v, CMD_ENTER, 0, clock);
    assert_true(v.play.t == bl->beats[2].t && !v.talk.goto_typing);
    apply(&v, CMD_BEAT_GOTO, 0, clock);
    apply(&v, CMD_DIGIT, 1, clock);
    apply(&v, CMD_ESCAPE, 0, clock);
    assert_false(v.talk.goto_typing);
    assert_true(v.talk.presenting && v.play.t == bl->beats[2].t);
    session_deinit(s);
    free(s);
}

static void test_blackout_and_escape_layers(void **state)
{
    (void)state;
    session *s = default_session();
    viewer_state v = presenting(s);
    double clock = 0;
    char status[192];
    apply(&v, CMD_BEAT_NEXT, 0, clock);
    apply(&v, CMD_BEAT_NEXT, 0, clock); /* on beat 2 */
    const double t = v.play.t;
    apply(&v, CMD_BLACKOUT, 0, clock);
    assert_true(v.talk.blackout);
    frame_view fv = viewer_state_frame_view(&v, clock, status, sizeof status);
    assert_true(fv.blackout);
    /* nothing acts unseen: beats, time, camera, theme, quitting by q */
    const command_kind ignored[] = {CMD_BEAT_NEXT, CMD_BEAT_PREV, CMD_PLAY_TOGGLE, CMD_END,
                                    CMD_DIGIT,     CMD_THEME,     CMD_HELP,        CMD_BEAT_LAST};
    const camera cam = v.camera.cam;
    for (size_t k = 0; k < sizeof ignored / sizeof ignored[0]; k++)
        apply(&v, ignored[k], 3, clock);
    assert_true(v.play.t == t && !v.play.playing && v.camera.cam.yaw == cam.yaw &&
                v.look.theme == THEME_DARK);
    assert_false(v.look.show_help);
    apply(&v, CMD_BLACKOUT, 0, clock); /* B again: back */
    assert_false(v.talk.blackout);
    /* Esc: key card, then blackout, then presenting; never quits */
    apply(&v, CMD_BLACKOUT, 0, clock);
    apply(&v, CMD_ESCAPE, 0, clock);
    assert_false(v.talk.blackout);
    assert_true(v.talk.presenting);
    apply(&v, CMD_HELP, 0, clock);
    apply(&v, CMD_ESCAPE, 0, clock);
    assert_false(v.look.show_help);
    assert_true(v.talk.presenting);
    apply(&v, CMD_ESCAPE, 0, clock);
    assert_false(v.talk.presenting);
    for (int k = 0; k < 5; k++)
        apply(&v, CMD_ESCAPE, 0, clock);
    assert_false(v.quit);
    /* F5 comes back at the current beat; F5 again (a clicker's start button) resets nothing */
    apply(&v, CMD_PRESENT, 0, clock);
    assert_true(v.talk.presenting && v.play.t == t);
    apply(&v, CMD_PRESENT, 0, clock);
    assert_true(v.talk.presenting && v.play.t == t);
    apply(&v, CMD_QUIT, 0, clock); /* ctrl+Q */
    assert_true(v.quit);
    session_deinit(s);
    free(s);
}

/* B while Next plays: the picture holds where it was while the screen is
 * black (however long the lecturer talks), and the play goes on to its
 * beat after it, landing exactly. */
static void test_blackout_holds_a_play(void **state)
{
    (void)state;
    session *s = default_session();
    const beat_list *bl = &s->beats;
    viewer_state v = presenting(s);
    double clock = 10;
    char status[192];
    apply(&v, CMD_BEAT_NEXT, 0, clock); /* to beat 2 */
    assert_true(v.play.playing);
    const double half = bl->beats[1].t / 2 / v.play.speed;
    clock += half;
    apply(&v, CMD_BLACKOUT, 0, clock);
    assert_false(v.play.playing);
    assert_near(v.play.t, bl->beats[1].t / 2, 1e-9); /* where the play had got to */
    const double held = v.play.t;
    clock += 600; /* ten minutes of talk over a black screen */
    viewer_state_frame_view(&v, clock, status, sizeof status);
    assert_true(v.play.t == held);
    apply(&v, CMD_ESCAPE, 0, clock); /* the picture back: the play goes on */
    assert_false(v.talk.blackout);
    assert_true(v.play.playing);
    viewer_state_frame_view(&v, clock + half / 2, status, sizeof status);
    assert_true(v.play.t > held && v.play.t < bl->beats[1].t);
    clock += 2 * half;
    viewer_state_frame_view(&v, clock, status, sizeof status);
    assert_false(v.play.playing);
    assert_true(v.play.t == bl->beats[1].t);
    assert_int_equal(v.talk.beat, 1);
    session_deinit(s);
    free(s);
}

/* A beat's camera: the camera eases there as the talk heads for the beat
 * (Next, Previous, Home alike); a beat without one keeps the lecturer's. */
static void test_beat_camera(void **state)
{
    (void)state;
    ppf_error err = {{0}};
    scenario sc;
    scenario_init(&sc);
    const char *json = "{\"auto_beats\": false, \"beats\": [{\"t\": 0, \"title\": \"a\"},"
                       "{\"t\": 10, \"title\": \"b\", \"camera\": \"top\"},"
                       "{\"t\": 20, \"title\": \"c\"}]}";
    assert_true(scenario_parse_json(&sc, json, strlen(json), &err));
    session *s = calloc(1, sizeof *s);
    if (!session_build_from(s, &sc, &err) || !session_build_scene(s, &err))
        fail_msg("session: %s", err.message);
    scenario_deinit(&sc);
    viewer_state v = presenting(s);
    double clock = 100;
    assert_int_equal(v.camera.preset, CAMERA_PRESET_DEFAULT);
    apply(&v, CMD_BEAT_NEXT, 0, clock);
    assert_int_equal(v.camera.preset, CAMERA_PRESET_TOP); /* on its way with the time */
    assert_true(v.camera.moving);
    play_out(&v, &clock);
    assert_true(v.play.t == 10);
    const camera top = session_camera(s, CAMERA_PRESET_TOP, v.fb_w, v.fb_h, v.look.split,
                                      viewer_state_ui_scale(&v));
    assert_near(v.camera.cam.pitch, top.pitch, 1e-6);
    /* the next beat has none: the camera stays as it is */
    apply(&v, CMD_BEAT_NEXT, 0, clock);
    play_out(&v, &clock);
    assert_true(v.play.t == 20);
    assert_int_equal(v.camera.preset, CAMERA_PRESET_TOP);
    /* the lecturer looks aside, then Previous lands on b: top again */
    apply(&v, CMD_PRESET, CAMERA_PRESET_FRONT, clock);
    assert_int_equal(v.camera.preset, CAMERA_PRESET_FRONT);
    apply(&v, CMD_BEAT_PREV, 0, clock);
    assert_true(v.play.t == 10);
    assert_int_equal(v.camera.preset, CAMERA_PRESET_TOP);
    session_deinit(s);
    free(s);
}

/* A beat's caption shows while the animation stands on the beat, not in
 * the frame that plays through it (a video must not flash it). */
static void test_beat_caption_while_standing(void **state)
{
    (void)state;
    session *s = default_session();
    const beat *b = &s->beats.beats[2];
    assert_true(b->caption[0]);
    viewer_state v = presenting(s);
    char status[192];
    double clock = 100;
    viewer_state_set_time(&v, b->t, clock);
    frame_view fv = viewer_state_frame_view(&v, clock, status, sizeof status);
    assert_ptr_equal(fv.caption, b->caption);
    assert_ptr_equal(session_beat_caption(s, b->t), b->caption);
    /* playing from just before it: the frame at exactly its t is passing through */
    viewer_state_set_time(&v, b->t - 1, clock);
    apply(&v, CMD_PLAY_TOGGLE, 0, clock);
    assert_true(v.play.playing);
    fv = viewer_state_frame_view(&v, clock + 1 / v.play.speed, status, sizeof status);
    assert_true(v.play.t == b->t);
    assert_true(v.play.playing);
    assert_null(fv.caption);
    assert_null(session_beat_caption(s, b->t + 0.5));
    session_deinit(s);
    free(s);
}

/* Presenting draws every text a quarter larger: capitals of 1/40 of the
 * height where the window's are 1/50 (27 px at 1080). */
static void test_presenting_text_is_larger(void **state)
{
    (void)state;
    session *s = default_session();
    viewer_state v = presenting(s);
    frame_layout on = viewer_state_layout(&v);
    viewer_state_set_presenting(&v, false);
    frame_layout off = viewer_state_layout(&v);
    print_message("small text: %d px em presenting, %d px in the window\n", on.small_px,
                  off.small_px);
    assert_ge(on.small_px * 0.729f, 1080.0f / 40.0f);
    assert_gt(on.small_px, off.small_px);
    session_deinit(s);
    free(s);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_next_lands_exactly_on_every_beat),
        cmocka_unit_test(test_next_while_playing_and_previous),
        cmocka_unit_test(test_replay_reverse_and_goto),
        cmocka_unit_test(test_blackout_and_escape_layers),
        cmocka_unit_test(test_blackout_holds_a_play),
        cmocka_unit_test(test_beat_camera),
        cmocka_unit_test(test_beat_caption_while_standing),
        cmocka_unit_test(test_presenting_text_is_larger),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
