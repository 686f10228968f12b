/* Tests of the JSON timeline and Chrome trace writers: the output parses,
 * carries the keys export.h promises, and every number reads back exactly
 * as the timeline holds it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "export.h"
#include "support/check.h"
#include "support/run_fixture.h"

/* Writes with `writer` into a temporary file and parses what came out. */
static cJSON *export_and_parse(const run_fixture *x, void (*writer)(const timeline *, FILE *))
{
    FILE *f = tmpfile();
    assert_non_null(f);
    writer(&x->tl, f);
    assert_false(ferror(f));
    long n = ftell(f);
    assert_gt(n, 0);
    rewind(f);
    char *text = malloc((size_t)n + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithOpts(text, &end, true);
    if (!doc)
        fail_msg("output is not valid JSON near: %.60s", end ? end : "?");
    free(text);
    return doc;
}

static const cJSON *get(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v)
        fail_msg("missing key \"%s\"", key);
    return v;
}

static double num(const cJSON *obj, const char *key)
{
    const cJSON *v = get(obj, key);
    if (!cJSON_IsNumber(v))
        fail_msg("\"%s\" is not a number", key);
    return v->valuedouble;
}

static const char *str(const cJSON *obj, const char *key)
{
    const cJSON *v = get(obj, key);
    if (!cJSON_IsString(v))
        fail_msg("\"%s\" is not a string", key);
    return v->valuestring;
}

static const char *kind_name(int kind)
{
    return kind == TRANSFER_P2P_F ? "p2p_f" : kind == TRANSFER_P2P_B ? "p2p_b" : "allreduce";
}

/* Checks a whole JSON timeline against the timeline it came from. */
static void check_timeline_json(const run_fixture *x, const cJSON *doc)
{
    const timeline *tl = &x->tl;
    const program *p = &x->p;
    assert_string_equal(str(doc, "schedule"), p->schedule);
    assert_int_equal((int)num(doc, "ranks"), p->ranks);
    assert_int_equal((int)num(doc, "stages"), p->stages);
    assert_int_equal((int)num(doc, "virtual"), p->stages_per_rank);
    assert_int_equal((int)num(doc, "microbatches"), p->microbatches);
    assert_int_equal((int)num(doc, "dp"), tl->dp);
    assert_same_double(num(doc, "makespan"), tl->makespan);
    assert_same_double(num(doc, "compute_end"), tl->compute_end);
    assert_same_double(num(doc, "bubble_fraction"), tl->bubble_fraction);
    assert_same_double(num(doc, "bubble_ratio"), tl->bubble_ratio);
    assert_same_double(num(doc, "allreduce_exposed"), tl->allreduce_exposed);

    const cJSON *per_rank = get(doc, "per_rank");
    assert_true(cJSON_IsArray(per_rank));
    assert_int_equal(cJSON_GetArraySize(per_rank), p->ranks);
    int r = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, per_rank)
    {
        assert_int_equal((int)num(row, "rank"), r);
        assert_same_double(num(row, "busy"), tl->per_rank[r].busy);
        assert_same_double(num(row, "idle"), tl->per_rank[r].idle);
        assert_int_equal((int)num(row, "peak_activations"), tl->per_rank[r].peak_activations);
        r++;
    }

    /* Actions: the compute actions of each rank, in program order. */
    const cJSON *actions = get(doc, "actions");
    assert_true(cJSON_IsArray(actions));
    const cJSON *item = actions->child;
    int compute = 0;
    for (r = 0; r < p->ranks; r++) {
        for (int k = 0; k < p->rank[r].count; k++) {
            const action *a = &p->rank[r].actions[k];
            if (!action_is_compute((action_kind)a->kind))
                continue;
            compute++;
            if (!item)
                fail_msg("actions end early at rank %d action %d", r, k);
            char text[ACTION_TEXT_MAX];
            action_format(a, text);
            assert_int_equal((int)num(item, "rank"), r);
            assert_int_equal((int)num(item, "stage"), a->stage);
            assert_int_equal((int)num(item, "microbatch"), a->microbatch);
            assert_string_equal(str(item, "kind"), action_kind_name((action_kind)a->kind));
            assert_string_equal(str(item, "text"), text);
            assert_same_double(num(item, "start"), tl->time[r][k].start);
            assert_same_double(num(item, "end"), tl->time[r][k].end);
            if (a->kind == ACTION_OVERLAP_F_B) {
                assert_int_equal((int)num(item, "b_stage"), a->stage2);
                assert_int_equal((int)num(item, "b_microbatch"), a->microbatch2);
            } else {
                assert_null(cJSON_GetObjectItemCaseSensitive(item, "b_stage"));
            }
            item = item->next;
        }
    }
    assert_null(item);
    assert_int_equal(cJSON_GetArraySize(actions), compute);

    const cJSON *transfers = get(doc, "transfers");
    assert_true(cJSON_IsArray(transfers));
    assert_int_equal(cJSON_GetArraySize(transfers), tl->p2p_count + tl->allreduce_count);
    /* the p2p transfers in the timeline's order, then the all-reduces */
    p2p_cursor cur = {0};
    int t = 0;
    cJSON_ArrayForEach(item, transfers)
    {
        transfer p2p;
        const transfer *x_t = timeline_next_p2p(tl, &cur, &p2p) ? &p2p : &tl->allreduces[t++];
        assert_string_equal(str(item, "kind"), kind_name(x_t->kind));
        assert_int_equal((int)num(item, "src_rank"), x_t->src_rank);
        assert_int_equal((int)num(item, "dst_rank"), x_t->dst_rank);
        assert_int_equal((int)num(item, "stage"), x_t->stage);
        assert_int_equal((int)num(item, "microbatch"), x_t->microbatch);
        assert_same_double(num(item, "start"), x_t->start);
        assert_same_double(num(item, "end"), x_t->end);
    }
}

static void test_json_matches_the_timeline(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_init(&x,
                     &(run_fixture_desc){
                         .schedule = "1f1b", .P = 4, .M = 8, .D = 2, .p2p = 0.1, .allreduce = 4});
    cJSON *doc = export_and_parse(&x, export_timeline_json);
    check_timeline_json(&x, doc);
    /* 3 cross-rank hops forward and back per micro-batch, one all-reduce per stage */
    assert_int_equal(cJSON_GetArraySize(get(doc, "transfers")), 2 * 3 * 8 + 4);
    cJSON_Delete(doc);
    run_fixture_deinit(&x);
}

static void test_json_overlapped_pairs(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_init(
        &x, &(run_fixture_desc){.schedule = "dualpipev", .P = 4, .M = 10, .D = 3, .allreduce = 2});
    cJSON *doc = export_and_parse(&x, export_timeline_json);
    check_timeline_json(&x, doc);
    int pairs = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, get(doc, "actions"))
    {
        pairs += strcmp(str(item, "kind"), "OVERLAP_F_B") == 0;
    }
    assert_gt(pairs, 0);
    cJSON_Delete(doc);
    run_fixture_deinit(&x);
}

/* Costs that are not short decimals in binary (0.1, 1/3, 0.7) make times
 * like 0.30000000000000004: they must still read back exactly. */
static void test_json_numbers_round_trip(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "zb-h1",
                                             .P = 3,
                                             .M = 7,
                                             .f = 0.1,
                                             .i = 1.0 / 3,
                                             .w = 0.7,
                                             .p2p = 1e-7,
                                             .D = 2,
                                             .allreduce = 123456.789});
    cJSON *doc = export_and_parse(&x, export_timeline_json);
    check_timeline_json(&x, doc);
    cJSON_Delete(doc);
    run_fixture_deinit(&x);

    run_fixture_init(
        &x, &(run_fixture_desc){
                .schedule = "interleaved-1f1b", .P = 4, .M = 8, .V = 2, .f = 1e-300, .b = 3e10});
    doc = export_and_parse(&x, export_timeline_json);
    check_timeline_json(&x, doc);
    cJSON_Delete(doc);
    run_fixture_deinit(&x);
}

/* Values chosen to defeat shortcuts in number formatting: neighbours of
 * short decimals (0.043000000000000003 times 1000 is exactly 43), -0,
 * subnormals, the extremes, and integers beyond 2^53. */
static void test_json_hard_numbers(void **state)
{
    (void)state;
    const double values[] = {
        0.043000000000000003,
        nextafter(0.1, 1),
        nextafter(0.1, 0),
        0.1 + 0.2,
        1.0 / 3,
        -0.0,
        5e-324,
        2.2250738585072014e-308,
        1.7976931348623157e308,
        9007199254740993.0,
        1e15 + 0.5,
        999999999999999.9,
        123456.789,
        1e21,
        1e-7,
        4.35,
    };
    run_fixture x = {0};
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "gpipe", .P = 1, .M = 1});
    for (size_t k = 0; k < sizeof values / sizeof values[0]; k++) {
        x.tl.makespan = values[k];
        x.tl.bubble_ratio = -values[k];
        cJSON *doc = export_and_parse(&x, export_timeline_json);
        assert_same_double(num(doc, "makespan"), values[k]);
        assert_same_double(num(doc, "bubble_ratio"), -values[k]);
        cJSON_Delete(doc);
    }
    run_fixture_deinit(&x);
}

static void test_json_escapes_strings(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "gpipe", .P = 2, .M = 2});
    strcpy(x.p.schedule, "a\"b\\c\nd\t\x01/é");
    cJSON *doc = export_and_parse(&x, export_timeline_json);
    assert_string_equal(str(doc, "schedule"), "a\"b\\c\nd\t\x01/é");
    cJSON_Delete(doc);
    run_fixture_deinit(&x);
}

/* Text that slipped past every check still makes a document that JSON
 * readers take: each byte that is not UTF-8 becomes U+FFFD, and what a
 * terminal would act on (C1 controls, DEL, bidi controls, U+2028) is a
 * \uXXXX escape, so `ppflow schedule --format json` shown raw acts on
 * nothing. Valid UTF-8 stays as it is. */
static void test_json_text_always_valid_utf8(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_init(&x, &(run_fixture_desc){.schedule = "gpipe", .P = 2, .M = 2});
    beat_list bl = {0};
    beats_auto(&bl, &x.tl);
    /* a stray byte, overlong NUL, a surrogate, past U+10FFFF, a cut one */
    snprintf(bl.beats[0].title, sizeof bl.beats[0].title,
             "a\xFF"
             "b\xC0\x80"
             "c\xED\xA0\x80"
             "d\xF4\x90\x80\x80"
             "e\xE2\x80");
    snprintf(bl.beats[0].caption, sizeof bl.beats[0].caption,
             "\xC2\x9B"
             "31m\x7F \xE2\x80\xAE"
             "evil \xE2\x80\xA8 ∇é");
    snprintf(bl.beats[0].notes, sizeof bl.beats[0].notes, "\x1b]0;t\x07");
    FILE *f = tmpfile();
    assert_non_null(f);
    export_timeline_json_beats(&x.tl, &bl, f);
    const long n = ftell(f);
    rewind(f);
    char *text = malloc((size_t)n + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    assert_valid_utf8(text, (size_t)n);
    assert_terminal_safe(text, (size_t)n);
    assert_non_null(strstr(text, "\"title\":\"a\\ufffdb\\ufffd\\ufffdc\\ufffd\\ufffd\\ufffdd"
                                 "\\ufffd\\ufffd\\ufffd\\ufffde\\ufffd\\ufffd\""));
    assert_non_null(strstr(text, "\"caption\":\"\\u009b31m\\u007f \\u202eevil \\u2028 ∇é\""));
    assert_non_null(strstr(text, "\"notes\":\"\\u001b]0;t\\u0007\""));
    cJSON *doc = cJSON_Parse(text);
    assert_non_null(doc);
    const cJSON *first = cJSON_GetArrayItem(get(doc, "beats"), 0);
    assert_string_equal(str(first, "caption"), bl.beats[0].caption);
    cJSON_Delete(doc);
    free(text);
    beat_list_deinit(&bl);
    run_fixture_deinit(&x);
}

/* ---- beats ---- */

static const beat_list *beats_to_write; /* export_and_parse takes a writer of two arguments */

static void write_with_beats(const timeline *tl, FILE *f)
{
    export_timeline_json_beats(tl, beats_to_write, f);
}

/* "beats" lists every beat in the form a scenario's "beats" takes, after
 * the rest of the timeline, which is unchanged; without beats there is no
 * such key. */
static void test_json_beats(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_init(
        &x, &(run_fixture_desc){.schedule = "1f1b", .P = 4, .M = 8, .D = 2, .allreduce = 4});
    cJSON *doc = export_and_parse(&x, export_timeline_json);
    assert_null(cJSON_GetObjectItemCaseSensitive(doc, "beats"));
    cJSON_Delete(doc);

    beat_list bl = {0};
    beats_auto(&bl, &x.tl);
    snprintf(bl.beats[1].camera, sizeof bl.beats[1].camera, "top");
    snprintf(bl.beats[1].notes, sizeof bl.beats[1].notes, "say \"why\"\nslowly");
    beats_to_write = &bl;
    doc = export_and_parse(&x, write_with_beats);
    check_timeline_json(&x, doc);
    const cJSON *beats = get(doc, "beats");
    assert_true(cJSON_IsArray(beats));
    assert_int_equal(cJSON_GetArraySize(beats), bl.count);
    int k = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, beats)
    {
        const beat *b = &bl.beats[k];
        assert_same_double(num(item, "t"), b->t);
        assert_string_equal(str(item, "title"), b->title);
        assert_string_equal(str(item, "caption"), b->caption);
        if (k == 1) {
            assert_string_equal(str(item, "camera"), "top");
            assert_string_equal(str(item, "notes"), "say \"why\"\nslowly");
        } else {
            assert_null(cJSON_GetObjectItemCaseSensitive(item, "camera"));
            assert_null(cJSON_GetObjectItemCaseSensitive(item, "notes"));
        }
        k++;
    }
    cJSON_Delete(doc);

    /* None: an empty list. */
    beat_list none = {0};
    beats_to_write = &none;
    doc = export_and_parse(&x, write_with_beats);
    assert_int_equal(cJSON_GetArraySize(get(doc, "beats")), 0);
    cJSON_Delete(doc);
    beat_list_deinit(&bl);
    run_fixture_deinit(&x);
}

/* ---- Chrome trace ---- */

typedef struct slice {
    int tid;
    double ts, dur;
} slice;

/* True when some complete event on tid strictly encloses ts: where viewers
 * bind a flow end. */
static bool inside_a_slice(const slice *s, int n, int tid, double ts)
{
    for (int k = 0; k < n; k++)
        if (s[k].tid == tid && s[k].ts < ts && ts < s[k].ts + s[k].dur)
            return true;
    return false;
}

static void check_chrome_trace(const run_fixture *x)
{
    const timeline *tl = &x->tl;
    const program *p = &x->p;
    cJSON *doc = export_and_parse(x, export_chrome_trace);
    assert_string_equal(str(doc, "displayTimeUnit"), "ms");
    const cJSON *events = get(doc, "traceEvents");
    assert_true(cJSON_IsArray(events));

    int compute = 0, p2p = 0, allreduce = 0;
    for (int r = 0; r < p->ranks; r++)
        for (int k = 0; k < p->rank[r].count; k++)
            compute += action_is_compute((action_kind)p->rank[r].actions[k].kind);
    p2p_cursor cur = {0};
    transfer x_t;
    while (timeline_next_p2p(tl, &cur, &x_t))
        p2p++;
    assert_int_equal(p2p, tl->p2p_count);
    allreduce = tl->allreduce_count;

    int n = cJSON_GetArraySize(events);
    slice *slices = calloc((size_t)n, sizeof *slices);
    int *flow_s = calloc((size_t)p2p + 2, sizeof(int)),
        *flow_f = calloc((size_t)p2p + 2, sizeof(int));
    int x_compute = 0, x_allreduce = 0, threads = 0, nslices = 0;
    bool process_named = false;
    const cJSON *e;

    /* Compute events appear rank by rank in program order: check each one
     * against its action. */
    int r = 0, k = -1;
    cJSON_ArrayForEach(e, events)
    {
        const char *ph = str(e, "ph");
        if (strcmp(ph, "M") == 0) {
            const char *name = str(e, "name");
            if (strcmp(name, "process_name") == 0) {
                assert_string_equal(str(get(e, "args"), "name"), "pipeline");
                process_named = true;
            } else if (strcmp(name, "thread_name") == 0) {
                int tid = (int)num(e, "tid");
                char want[64];
                if (tid < p->ranks)
                    snprintf(want, sizeof want, "rank %d", tid);
                else
                    snprintf(want, sizeof want, "rank %d all-reduce", tid - p->ranks);
                assert_string_equal(str(get(e, "args"), "name"), want);
                threads++;
            }
            continue;
        }
        if (strcmp(ph, "X") == 0) {
            int tid = (int)num(e, "tid");
            slices[nslices++] = (slice){tid, num(e, "ts"), num(e, "dur")};
            if (tid >= p->ranks) {
                x_allreduce++;
                assert_string_equal(str(e, "cat"), "allreduce");
                continue;
            }
            x_compute++;
            /* the next compute action in program order */
            for (k++; r < p->ranks; k++) {
                if (k >= p->rank[r].count) {
                    r++;
                    k = -1;
                    continue;
                }
                if (action_is_compute((action_kind)p->rank[r].actions[k].kind))
                    break;
            }
            assert_lt(r, p->ranks);
            const action *a = &p->rank[r].actions[k];
            char text[ACTION_TEXT_MAX];
            action_format(a, text);
            assert_int_equal(tid, r);
            assert_string_equal(str(e, "name"), text);
            const cJSON *args = get(e, "args");
            assert_int_equal((int)num(args, "stage"), a->stage);
            assert_int_equal((int)num(args, "microbatch"), a->microbatch);
            assert_string_equal(str(args, "kind"), action_kind_name((action_kind)a->kind));
            /* microseconds, 1 time unit = 1000 us, to the nanosecond */
            assert_le(fabs(num(e, "ts") - tl->time[r][k].start * 1000),
                      1e-3 + 1e-12 * num(e, "ts"));
            double end = num(e, "ts") + num(e, "dur");
            assert_le(fabs(end - tl->time[r][k].end * 1000), 2e-3 + 1e-12 * end);
            continue;
        }
        if (strcmp(ph, "s") == 0 || strcmp(ph, "f") == 0) {
            assert_string_equal(str(e, "cat"), "p2p");
            int id = (int)num(e, "id");
            assert_true(id >= 1 && id <= p2p);
            if (ph[0] == 's') {
                flow_s[id]++;
            } else {
                flow_f[id]++;
                assert_string_equal(str(e, "bp"), "e");
            }
            continue;
        }
        fail_msg("unexpected event phase \"%s\"", ph);
    }
    assert_true(process_named);
    assert_int_equal(x_compute, compute);
    assert_int_equal(x_allreduce, allreduce);
    assert_int_equal(threads, p->ranks * (allreduce ? 2 : 1));
    for (int id = 1; id <= p2p; id++) {
        if (flow_s[id] != 1 || flow_f[id] != 1)
            fail_msg("flow %d has %d starts and %d ends", id, flow_s[id], flow_f[id]);
    }

    /* Second pass: every flow end lies inside a slice on its rank's track,
     * so that viewers can bind the arrow to the actions. */
    cJSON_ArrayForEach(e, events)
    {
        const char *ph = str(e, "ph");
        if (strcmp(ph, "s") != 0 && strcmp(ph, "f") != 0)
            continue;
        if (!inside_a_slice(slices, nslices, (int)num(e, "tid"), num(e, "ts")))
            fail_msg("flow %d (%s) at ts %.17g on tid %d is not inside a slice", (int)num(e, "id"),
                     ph, num(e, "ts"), (int)num(e, "tid"));
    }
    free(slices);
    free(flow_s);
    free(flow_f);
    cJSON_Delete(doc);
}

static void test_chrome_trace_events(void **state)
{
    (void)state;
    static const run_fixture_desc cases[] = {
        {.schedule = "1f1b", .P = 4, .M = 8},
        {.schedule = "1f1b", .P = 4, .M = 8, .D = 2, .p2p = 0.25, .allreduce = 3},
        {.schedule = "interleaved-1f1b", .P = 3, .M = 6, .V = 2, .D = 4, .allreduce = 1},
        {.schedule = "zbv", .P = 4, .M = 8, .p2p = 0.1},
        {.schedule = "dualpipev", .P = 4, .M = 10, .D = 2, .allreduce = 5},
        {.schedule = "gpipe", .P = 1, .M = 3},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        run_fixture x = {0};
        run_fixture_init(&x, &cases[c]);
        check_chrome_trace(&x);
        run_fixture_deinit(&x);
    }
}

/* A big timeline goes through both writers (the streaming path, buffer
 * boundaries included) and still parses with the right counts. */
static void test_large_timeline(void **state)
{
    (void)state;
    run_fixture x = {0};
    run_fixture_init(
        &x, &(run_fixture_desc){
                .schedule = "1f1b", .P = 32, .M = 512, .D = 2, .allreduce = 2, .p2p = 0.05});
    cJSON *doc = export_and_parse(&x, export_timeline_json);
    assert_int_equal(cJSON_GetArraySize(get(doc, "actions")), 2 * 32 * 512);
    assert_int_equal(cJSON_GetArraySize(get(doc, "transfers")),
                     x.tl.p2p_count + x.tl.allreduce_count);
    cJSON_Delete(doc);
    doc = export_and_parse(&x, export_chrome_trace);
    int xs = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, get(doc, "traceEvents"))
    {
        xs += strcmp(str(e, "ph"), "X") == 0;
    }
    assert_int_equal(xs, 2 * 32 * 512 + 32);
    cJSON_Delete(doc);
    run_fixture_deinit(&x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_matches_the_timeline),
        cmocka_unit_test(test_json_overlapped_pairs),
        cmocka_unit_test(test_json_numbers_round_trip),
        cmocka_unit_test(test_json_hard_numbers),
        cmocka_unit_test(test_json_escapes_strings),
        cmocka_unit_test(test_json_text_always_valid_utf8),
        cmocka_unit_test(test_json_beats),
        cmocka_unit_test(test_chrome_trace_events),
        cmocka_unit_test(test_large_timeline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
