/* export.c - the JSON timeline and the Chrome Trace Event writers.
 *
 * Both writers stream: a P=64, M=2048 timeline holds half a million actions,
 * so nothing is built in memory beyond a 64 KiB text buffer (and, for the
 * trace, an index from (stage, micro-batch) to the action that produced or
 * consumed it). Numbers are formatted by hand on the common paths because
 * snprintf("%.17g") plus a strtod round-trip check per number would dominate
 * the run time of `--format json`.
 */
#include "export.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "action.h"
#include "error.h"
#include "json_text.h"
#include "timeline_query.h"

enum { WRITER_BUFFER = 1 << 16, NUMBER_MAX = 40 };

/* A write buffer in front of the FILE: one fwrite per 64 KiB instead of one
 * stdio call per token. Write errors stay in the FILE's error flag, which the
 * caller checks with ferror() (output_commit does). */
typedef struct writer {
    FILE *file;
    size_t used;
    char buf[WRITER_BUFFER];
} writer;

static void writer_flush(writer *w)
{
    if (w->used)
        fwrite(w->buf, 1, w->used, w->file);
    w->used = 0;
}

static void put_bytes(writer *w, const char *s, size_t n)
{
    if (n > WRITER_BUFFER - w->used) {
        writer_flush(w);
        if (n > WRITER_BUFFER) {
            fwrite(s, 1, n, w->file);
            return;
        }
    }
    memcpy(w->buf + w->used, s, n);
    w->used += n;
}

static void put(writer *w, const char *s)
{
    put_bytes(w, s, strlen(s));
}

/* Writes the decimal digits of v into end-backwards; returns the start. */
static char *format_digits(uint64_t v, char *end)
{
    do {
        *--end = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return end;
}

static void put_int(writer *w, long long v)
{
    char tmp[24];
    char *end = tmp + sizeof tmp;
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    char *s = format_digits(mag, end);
    if (v < 0)
        *--s = '-';
    put_bytes(w, s, (size_t)(end - s));
}

/* Formats an integer count of thousandths ("12345" -> "12.345", "12000" ->
 * "12") into buf; returns the length. */
static size_t format_milli(long long milli, char *buf)
{
    char tmp[32];
    char *end = tmp + sizeof tmp;
    uint64_t mag = milli < 0 ? (uint64_t)0 - (uint64_t)milli : (uint64_t)milli;
    uint64_t whole = mag / 1000, frac = mag % 1000;
    char *p = end;
    if (frac) {
        int digits = 3;
        while (frac % 10 == 0) {
            frac /= 10;
            digits--;
        }
        for (int k = 0; k < digits; k++) {
            *--p = (char)('0' + frac % 10);
            frac /= 10;
        }
        *--p = '.';
    }
    p = format_digits(whole, p);
    if (milli < 0)
        *--p = '-';
    size_t n = (size_t)(end - p);
    memcpy(buf, p, n);
    buf[n] = '\0';
    return n;
}

/* Formats v so that strtod reads back exactly v, in few digits. Simulated
 * times are mostly sums of costs like 1, 2.5 or 0.125, so two exact fast
 * paths (integers, and multiples of 1/1000 whose decimal form round-trips)
 * cover nearly every number; the rest take the shortest %.15g/%.16g/%.17g
 * that round-trips. JSON has no NaN or infinity: those become null. */
static size_t format_number(double v, char *buf)
{
    if (!isfinite(v)) {
        memcpy(buf, "null", 5);
        return 4;
    }
    if (v == 0) { /* also -0, which JSON readers would keep as a negative zero */
        memcpy(buf, "0", 2);
        return 1;
    }
    if (fabs(v) < 1e15) {
        double milli = v * 1000.0;
        if (milli == floor(milli) && milli / 1000.0 == v)
            return format_milli((long long)milli, buf);
    }
    for (int precision = 15; precision <= 17; precision++) {
        int n = snprintf(buf, NUMBER_MAX, "%.*g", precision, v);
        if (precision == 17 || strtod(buf, NULL) == v)
            return (size_t)n;
    }
    return 0; /* not reached */
}

static void put_number(writer *w, double v)
{
    char buf[NUMBER_MAX];
    put_bytes(w, buf, format_number(v, buf));
}

/* A time in the trace's microseconds (1 time unit = 1000 us), rounded to the
 * nanosecond: Perfetto keeps integer nanoseconds anyway, and 1.1 x 1000
 * would otherwise print as 1100.0000000000002. */
static long long time_to_ns(double t)
{
    return llround(t * 1e6);
}

static void put_micros(writer *w, long long ns)
{
    char buf[NUMBER_MAX];
    put_bytes(w, buf, format_milli(ns, buf));
}

/* A JSON string by json_text.h's rule: RFC 8259's escapes, the code points
 * a terminal must not see raw as \uXXXX, and a byte that is not UTF-8 as
 * \ufffd, so that the document is valid UTF-8 whatever a title holds. Runs
 * of bytes that need no escape (all of an action's text) are copied at
 * once. */
static void put_string(writer *w, const char *s)
{
    put_bytes(w, "\"", 1);
    const size_t len = strlen(s);
    size_t run = 0;
    for (size_t k = 0; k < len;) {
        const unsigned char c = (unsigned char)s[k];
        if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
            k++;
            continue;
        }
        char esc[JSON_TEXT_ESCAPE_MAX];
        size_t n;
        const size_t e = json_text_escape_at(s + k, len - k, esc, &n);
        if (e) {
            put_bytes(w, s + run, k - run);
            put_bytes(w, esc, e);
            run = k + n;
        }
        k += n;
    }
    put_bytes(w, s + run, len - run);
    put_bytes(w, "\"", 1);
}

/* An action's stage and micro-batch, and an overlapped pair's backward
 * ones: "stage":S,"microbatch":M[,"b_stage":S2,"b_microbatch":M2] (the
 * JSON rows and the Chrome trace's args alike). */
static void put_action_ids(writer *w, const action *a)
{
    put(w, "\"stage\":");
    put_int(w, a->stage);
    put(w, ",\"microbatch\":");
    put_int(w, a->microbatch);
    if (a->kind == ACTION_OVERLAP_F_B) {
        put(w, ",\"b_stage\":");
        put_int(w, a->stage2);
        put(w, ",\"b_microbatch\":");
        put_int(w, a->microbatch2);
    }
}

/* "key": with the separator before it. */
static void put_key(writer *w, bool first, const char *key)
{
    if (!first)
        put_bytes(w, ",", 1);
    put_string(w, key);
    put_bytes(w, ":", 1);
}

static const char *transfer_kind_name(int kind)
{
    switch (kind) {
    case TRANSFER_P2P_F:
        return "p2p_f";
    case TRANSFER_P2P_B:
        return "p2p_b";
    case TRANSFER_ALLREDUCE:
        return "allreduce";
    default:
        return "unknown";
    }
}

static writer *writer_new(FILE *f)
{
    writer *w = ppf_malloc(sizeof *w);
    w->file = f;
    w->used = 0;
    return w;
}

static void writer_free(writer *w)
{
    writer_flush(w);
    free(w);
}

/* One entry of the JSON "transfers" list, on its own line. */
static void put_transfer(writer *w, const transfer *x, bool first)
{
    put(w, first ? "\n{\"kind\":" : ",\n{\"kind\":");
    put_string(w, transfer_kind_name(x->kind));
    put(w, ",\"src_rank\":");
    put_int(w, x->src_rank);
    put(w, ",\"dst_rank\":");
    put_int(w, x->dst_rank);
    put(w, ",\"stage\":");
    put_int(w, x->stage);
    put(w, ",\"microbatch\":");
    put_int(w, x->microbatch);
    put(w, ",\"start\":");
    put_number(w, x->start);
    put(w, ",\"end\":");
    put_number(w, x->end);
    put(w, "}");
}

/* One entry of the JSON "beats" list, on its own line. */
static void put_beat(writer *w, const beat *b, bool first)
{
    put(w, first ? "\n{\"t\":" : ",\n{\"t\":");
    put_number(w, b->t);
    put(w, ",\"title\":");
    put_string(w, b->title);
    put(w, ",\"caption\":");
    put_string(w, b->caption);
    if (b->camera[0]) {
        put(w, ",\"camera\":");
        put_string(w, b->camera);
    }
    if (b->notes[0]) {
        put(w, ",\"notes\":");
        put_string(w, b->notes);
    }
    put(w, "}");
}

void export_timeline_json(const timeline *tl, FILE *f)
{
    export_timeline_json_beats(tl, NULL, f);
}

void export_timeline_json_beats(const timeline *tl, const beat_list *beats, FILE *f)
{
    assert(tl && tl->program && f);
    const program *p = tl->program;
    writer *w = writer_new(f);

    put(w, "{\"schedule\":");
    put_string(w, p->schedule);
    put(w, ",\"ranks\":");
    put_int(w, p->ranks);
    put(w, ",\"stages\":");
    put_int(w, p->stages);
    put(w, ",\"virtual\":");
    put_int(w, p->stages_per_rank);
    put(w, ",\"microbatches\":");
    put_int(w, p->microbatches);
    put(w, ",\"dp\":");
    put_int(w, tl->dp);
    put(w, ",\"makespan\":");
    put_number(w, tl->makespan);
    put(w, ",\"compute_end\":");
    put_number(w, tl->compute_end);
    put(w, ",\"bubble_fraction\":");
    put_number(w, tl->bubble_fraction);
    put(w, ",\"bubble_ratio\":");
    put_number(w, tl->bubble_ratio);
    put(w, ",\"allreduce_exposed\":");
    put_number(w, tl->allreduce_exposed);

    put(w, ",\n\"per_rank\":[");
    for (int r = 0; r < p->ranks; r++) {
        const rank_metrics *m = &tl->per_rank[r];
        put(w, r ? ",\n{\"rank\":" : "\n{\"rank\":");
        put_int(w, r);
        put(w, ",\"busy\":");
        put_number(w, m->busy);
        put(w, ",\"idle\":");
        put_number(w, m->idle);
        put(w, ",\"peak_activations\":");
        put_int(w, m->peak_activations);
        put(w, "}");
    }

    /* One action per line keeps the file greppable and diffable. */
    put(w, "],\n\"actions\":[");
    bool first = true;
    for (int r = 0; r < p->ranks; r++) {
        const program_rank *pr = &p->rank[r];
        for (int k = 0; k < pr->count; k++) {
            const action *a = &pr->actions[k];
            if (!action_is_compute((action_kind)a->kind))
                continue;
            char text[ACTION_TEXT_MAX];
            action_format(a, text);
            put(w, first ? "\n{\"rank\":" : ",\n{\"rank\":");
            first = false;
            put_int(w, r);
            put(w, ",");
            put_action_ids(w, a);
            put(w, ",\"kind\":");
            put_string(w, action_kind_name((action_kind)a->kind));
            put(w, ",\"start\":");
            put_number(w, tl->time[r][k].start);
            put(w, ",\"end\":");
            put_number(w, tl->time[r][k].end);
            put(w, ",\"text\":");
            put_string(w, text);
            put(w, "}");
        }
    }

    /* p2p transfers (derived, in timeline_next_p2p() order), then all-reduces */
    put(w, "],\n\"transfers\":[");
    first = true;
    p2p_cursor cur = {0};
    transfer x;
    while (timeline_next_p2p(tl, &cur, &x)) {
        put_transfer(w, &x, first);
        first = false;
    }
    for (int t = 0; t < tl->allreduce_count; t++) {
        put_transfer(w, &tl->allreduces[t], first);
        first = false;
    }
    if (beats) {
        put(w, "],\n\"beats\":[");
        for (int k = 0; k < beats->count; k++)
            put_beat(w, &beats->beats[k], k == 0);
    }
    put(w, "]}\n");
    writer_free(w);
}

/* ---- Chrome trace ---- */

enum { TRACE_PID = 1 };

/* Where the action that runs one half of (stage, micro-batch) sits. */
typedef struct action_ref {
    int rank;  /* -1 when no action does it */
    int index; /* into program->rank[rank].actions */
} action_ref;

/* For every (stage, micro-batch): the action running its forward, and the
 * one running its backward for inputs (B, I, or the B half of an overlapped
 * pair). p2p transfers name only the producing stage, so this is how a flow
 * arrow finds the slices at both of its ends. */
typedef struct action_index {
    int stages, microbatches;
    action_ref *fwd, *bwd; /* [stages * microbatches] */
} action_index;

static void index_set(action_index *ix, action_ref *table, int stage, int mb, int rank, int k)
{
    if (stage < 0 || stage >= ix->stages || mb < 0 || mb >= ix->microbatches)
        return;
    table[(size_t)stage * (size_t)ix->microbatches + (size_t)mb] = (action_ref){rank, k};
}

static void index_build(action_index *ix, const program *p)
{
    ix->stages = p->stages;
    ix->microbatches = p->microbatches;
    size_t n = (size_t)p->stages * (size_t)p->microbatches;
    ix->fwd = ppf_malloc(n * sizeof *ix->fwd);
    ix->bwd = ppf_malloc(n * sizeof *ix->bwd);
    for (size_t j = 0; j < n; j++)
        ix->fwd[j] = ix->bwd[j] = (action_ref){-1, -1};
    for (int r = 0; r < p->ranks; r++) {
        const program_rank *pr = &p->rank[r];
        for (int k = 0; k < pr->count; k++) {
            const action *a = &pr->actions[k];
            switch (a->kind) {
            case ACTION_F:
                index_set(ix, ix->fwd, a->stage, a->microbatch, r, k);
                break;
            case ACTION_B:
            case ACTION_I:
                index_set(ix, ix->bwd, a->stage, a->microbatch, r, k);
                break;
            case ACTION_OVERLAP_F_B:
                index_set(ix, ix->fwd, a->stage, a->microbatch, r, k);
                index_set(ix, ix->bwd, a->stage2, a->microbatch2, r, k);
                break;
            default:
                break;
            }
        }
    }
}

static action_ref index_find(const action_index *ix, bool forward, int stage, int mb)
{
    if (stage < 0 || stage >= ix->stages || mb < 0 || mb >= ix->microbatches)
        return (action_ref){-1, -1};
    const action_ref *table = forward ? ix->fwd : ix->bwd;
    return table[(size_t)stage * (size_t)ix->microbatches + (size_t)mb];
}

static void index_free(action_index *ix)
{
    free(ix->fwd);
    free(ix->bwd);
}

/* One metadata event: {"name":NAME,"ph":"M","pid":1,"tid":TID,"args":{KEY:...}}. */
static void put_meta_begin(writer *w, const char *name, int tid, const char *key)
{
    put(w, ",\n{\"name\":");
    put_string(w, name);
    put(w, ",\"ph\":\"M\",\"pid\":1,\"tid\":");
    put_int(w, tid);
    put(w, ",\"args\":{");
    put_key(w, true, key);
}

static void put_thread_meta(writer *w, int tid, const char *label, int sort_index)
{
    put_meta_begin(w, "thread_name", tid, "name");
    put_string(w, label);
    put(w, "}}");
    put_meta_begin(w, "thread_sort_index", tid, "sort_index");
    put_int(w, sort_index);
    put(w, "}}");
}

/* A flow end point must lie strictly inside its slice: Perfetto closes a
 * complete event at its end timestamp before it binds a flow there, and a
 * flow end with "bp":"e" binds to the slice that encloses it. So the arrow's
 * tail sits 1 us (or half the slice, if shorter) before the producing
 * action's end and its head as far after the consuming action's start;
 * viewers draw the arrow from the slice's end to the other slice's start. */
static long long inset_ns(long long start_ns, long long end_ns)
{
    long long dur = end_ns - start_ns;
    return dur >= 2000 ? 1000 : dur / 2;
}

static void put_flow(writer *w, const transfer *x, int id, const char phase, int tid, long long ns)
{
    put(w, ",\n{\"name\":");
    put_string(w, transfer_kind_name(x->kind));
    put(w, phase == 's' ? ",\"cat\":\"p2p\",\"ph\":\"s\""
                        : ",\"cat\":\"p2p\",\"ph\":\"f\",\"bp\":\"e\"");
    put(w, ",\"id\":");
    put_int(w, id);
    put(w, ",\"pid\":1,\"tid\":");
    put_int(w, tid);
    put(w, ",\"ts\":");
    put_micros(w, ns);
    put(w, ",\"args\":{\"stage\":");
    put_int(w, x->stage);
    put(w, ",\"microbatch\":");
    put_int(w, x->microbatch);
    put(w, ",\"transfer_start\":");
    put_number(w, x->start);
    put(w, ",\"transfer_end\":");
    put_number(w, x->end);
    put(w, "}}");
}

/* The flow arrow of one p2p transfer: from the producing action (on the
 * source rank's track) to the action that consumes the transfer (on the
 * destination rank's track). When an end's action cannot be found (a
 * program that skipped validation) the end falls back to the transfer's own
 * start or end time, so s and f always come in pairs. */
static void put_p2p_flow(writer *w, const timeline *tl, const action_index *ix, const transfer *x,
                         int id)
{
    bool forward = x->kind == TRANSFER_P2P_F;
    int consumer_stage =
        timeline_output_stage(tl->program, forward ? ACTION_F : ACTION_B, x->stage);
    action_ref src = index_find(ix, forward, x->stage, x->microbatch);
    action_ref dst = index_find(ix, forward, consumer_stage, x->microbatch);

    long long s_ns = time_to_ns(x->start);
    if (src.rank == x->src_rank) {
        const action_time *at = &tl->time[src.rank][src.index];
        long long a = time_to_ns(at->start), b = time_to_ns(at->end);
        s_ns = b - inset_ns(a, b);
    }
    long long f_ns = time_to_ns(x->end);
    if (dst.rank == x->dst_rank) {
        const action_time *at = &tl->time[dst.rank][dst.index];
        long long a = time_to_ns(at->start), b = time_to_ns(at->end);
        f_ns = a + inset_ns(a, b);
    }
    put_flow(w, x, id, 's', x->src_rank, s_ns);
    put_flow(w, x, id, 'f', x->dst_rank, f_ns);
}

void export_chrome_trace(const timeline *tl, FILE *f)
{
    assert(tl && tl->program && f);
    const program *p = tl->program;
    writer *w = writer_new(f);
    const bool has_allreduce = tl->allreduce_count > 0;

    /* Tracks: rank R computes on tid R and all-reduces on tid P + R; sort
     * indexes keep each rank's all-reduce track right under its compute. */
    put(w, "{\"traceEvents\":[\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,"
           "\"args\":{\"name\":\"pipeline\"}}");
    put_meta_begin(w, "process_sort_index", 0, "sort_index");
    put(w, "0}}");
    for (int r = 0; r < p->ranks; r++) {
        char label[48];
        snprintf(label, sizeof label, "rank %d", r);
        put_thread_meta(w, r, label, 2 * r);
        if (has_allreduce) {
            snprintf(label, sizeof label, "rank %d all-reduce", r);
            put_thread_meta(w, p->ranks + r, label, 2 * r + 1);
        }
    }

    for (int r = 0; r < p->ranks; r++) {
        const program_rank *pr = &p->rank[r];
        for (int k = 0; k < pr->count; k++) {
            const action *a = &pr->actions[k];
            if (!action_is_compute((action_kind)a->kind))
                continue;
            char text[ACTION_TEXT_MAX];
            action_format(a, text);
            const char *kind = action_kind_name((action_kind)a->kind);
            long long start = time_to_ns(tl->time[r][k].start);
            long long end = time_to_ns(tl->time[r][k].end);
            put(w, ",\n{\"name\":");
            put_string(w, text);
            put(w, ",\"cat\":");
            put_string(w, kind);
            put(w, ",\"ph\":\"X\",\"pid\":1,\"tid\":");
            put_int(w, r);
            put(w, ",\"ts\":");
            put_micros(w, start);
            put(w, ",\"dur\":");
            put_micros(w, end - start);
            put(w, ",\"args\":{");
            put_action_ids(w, a);
            put(w, ",\"kind\":");
            put_string(w, kind);
            put(w, "}}");
        }
    }

    action_index ix = {0};
    index_build(&ix, p);
    int flow_id = 0;
    p2p_cursor cur = {0};
    transfer p2p;
    while (timeline_next_p2p(tl, &cur, &p2p))
        put_p2p_flow(w, tl, &ix, &p2p, ++flow_id);
    index_free(&ix);
    for (int t = 0; t < tl->allreduce_count; t++) {
        const transfer *x = &tl->allreduces[t];
        long long start = time_to_ns(x->start), end = time_to_ns(x->end);
        char name[48];
        snprintf(name, sizeof name, "all-reduce stage %d", x->stage);
        put(w, ",\n{\"name\":");
        put_string(w, name);
        put(w, ",\"cat\":\"allreduce\",\"ph\":\"X\",\"pid\":1,\"tid\":");
        put_int(w, p->ranks + x->src_rank);
        put(w, ",\"ts\":");
        put_micros(w, start);
        put(w, ",\"dur\":");
        put_micros(w, end - start);
        put(w, ",\"args\":{\"stage\":");
        put_int(w, x->stage);
        put(w, ",\"dp\":");
        put_int(w, tl->dp);
        put(w, "}}");
    }
    put(w, "\n],\"displayTimeUnit\":\"ms\"}\n");
    writer_free(w);
}
