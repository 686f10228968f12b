/* fuzz_support.c - the checks every ppflow fuzz target runs. See fuzz_support.h. */
#include "fuzz_support.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "beats.h"
#include "budget.h"
#include "closed_forms.h"
#include "csv.h"
#include "export.h"
#include "report.h"
#include "frame.h"
#include "scene.h"
#include "schedules.h"

/* ---- failing loudly ------------------------------------------------------ */

/* The code point of the UTF-8 sequence at s[0..len) and its length; 0
 * when it is none (RFC 3629, strictly). Written apart from core/common/utf8.c,
 * whose promises it checks. */
static size_t decode(const unsigned char *s, size_t len, unsigned long *cp)
{
    size_t n = s[0] < 0x80                   ? 1
               : s[0] >= 0xC0 && s[0] < 0xE0 ? 2
               : s[0] >= 0xE0 && s[0] < 0xF0 ? 3
               : s[0] >= 0xF0 && s[0] < 0xF8 ? 4
                                             : 0;
    if (n == 0 || n > len)
        return 0;
    static const unsigned long least[] = {0, 0, 0x80, 0x800, 0x10000};
    unsigned long v = n == 1 ? s[0] : s[0] & (0x3F >> (n - 1));
    for (size_t k = 1; k < n; k++) {
        if ((s[k] & 0xC0) != 0x80)
            return 0;
        v = v << 6 | (s[k] & 0x3F);
    }
    if (v < least[n] || (v >= 0xD800 && v <= 0xDFFF) || v > 0x10FFFF)
        return 0;
    *cp = v;
    return n;
}

void fuzz_check_text(const char *s, size_t len, int rule, const char *what)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t k = 0; k < len;) {
        unsigned long cp = 0;
        const size_t n = decode(u + k, len - k, &cp);
        if (n == 0)
            FUZZ_FAIL("%s: byte 0x%02X at offset %zu is not UTF-8: \"%.80s\"", what, u[k], k, s);
        const bool acts = cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 ||
                          cp == 0x061C || cp == 0x200E || cp == 0x200F ||
                          (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
        const bool allowed = rule == FUZZ_TEXT_LINES && (cp == '\n' || cp == '\t');
        if (rule != FUZZ_TEXT_UTF8 && acts && !allowed)
            FUZZ_FAIL("%s: U+%04lX at offset %zu would act on a terminal: \"%.80s\"", what, cp, k,
                      s);
        k += n;
    }
}

void fuzz_check_scenario_text(const scenario *sc)
{
    for (int k = 0; k < sc->beats.count; k++) {
        const beat_spec *b = &sc->beats.items[k];
        /* Bidi controls are text a reader takes (quote.h escapes them where
         * they are shown); controls and invalid UTF-8 it does not. */
        const char *const texts[] = {b->title, b->caption, b->camera, b->after, b->notes};
        for (int j = 0; j < 5; j++) {
            const unsigned char *u = (const unsigned char *)texts[j];
            fuzz_check_text(texts[j], strlen(texts[j]), FUZZ_TEXT_UTF8, "a beat's text");
            for (size_t i = 0; u[i]; i++)
                if ((u[i] < 0x20 && !(j == 4 && (u[i] == '\n' || u[i] == '\t'))) || u[i] == 0x7F ||
                    (u[i] == 0xC2 && u[i + 1] >= 0x80 && u[i + 1] <= 0x9F))
                    FUZZ_FAIL("beats[%d]: a control character at %zu of \"%.80s\"", k, i, texts[j]);
        }
    }
}

void fuzz_check_message(const ppf_error *err)
{
    if (err->message[0] == '\0')
        FUZZ_FAIL("a rejection with an empty message");
    fuzz_check_text(err->message, strlen(err->message), FUZZ_TEXT_LINE, "a rejection's message");
}

unsigned fuzz_hash(const uint8_t *data, size_t size)
{
    unsigned h = 2166136261u; /* FNV-1a */
    for (size_t k = 0; k < size; k++)
        h = (h ^ data[k]) * 16777619u;
    return h;
}

fuzz_view fuzz_view_from_scenario(const scenario *sc, unsigned pick)
{
    /* The same desc as app/session.c session_build_scene. */
    static const int widths[] = {REPORT_DEFAULT_WIDTH,
                                 REPORT_MIN_WIDTH,
                                 73,
                                 REPORT_MAX_WIDTH,
                                 0,
                                 -5,
                                 REPORT_MAX_WIDTH + 1,
                                 41};
    return (fuzz_view){
        .layers_per_stage = sc->layers_per_stage,
        .d_model = (float)sc->d_model,
        .d_hidden = (float)sc->d_hidden,
        .batch = (float)sc->batch,
        .stage_gap = (float)sc->stage_gap,
        .replica_gap = (float)sc->replica_gap,
        .report_width = widths[pick % 8],
        .colour = (pick >> 3) & 1,
        .pick = pick >> 4,
        .beats = &sc->beats,
    };
}

/* ---- the timeline --------------------------------------------------------- */

static bool near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(1.0, fmax(fabs(a), fabs(b)));
}

/* End of each (stage, micro-batch)'s F and of its B or I, for checking the
 * dependency rules of timeline.h (rule 2) on the simulated times. */
typedef struct dep_table {
    int S, M;
    double *f_end, *bi_end, *i_end;
} dep_table;

static void dep_table_fill(dep_table *d, const timeline *tl)
{
    const program *p = tl->program;
    d->S = p->stages;
    d->M = p->microbatches;
    size_t n = (size_t)d->S * (size_t)d->M;
    d->f_end = malloc(n * sizeof(double));
    d->bi_end = malloc(n * sizeof(double));
    d->i_end = malloc(n * sizeof(double));
    if (!d->f_end || !d->bi_end || !d->i_end)
        ppf_oom("fuzz dependency table");
    for (size_t k = 0; k < n; k++)
        d->f_end[k] = d->bi_end[k] = d->i_end[k] = -1;
    for (int r = 0; r < p->ranks; r++)
        for (int k = 0; k < p->rank[r].count; k++) {
            const action *a = &p->rank[r].actions[k];
            double end = tl->time[r][k].end;
            size_t c = (size_t)a->stage * (size_t)d->M + (size_t)a->microbatch;
            switch (a->kind) {
            case ACTION_F:
                d->f_end[c] = end;
                break;
            case ACTION_B:
                d->bi_end[c] = end;
                break;
            case ACTION_I:
                d->bi_end[c] = d->i_end[c] = end;
                break;
            case ACTION_OVERLAP_F_B:
                d->f_end[c] = end;
                d->bi_end[(size_t)a->stage2 * (size_t)d->M + (size_t)a->microbatch2] = end;
                break;
            default:
                break;
            }
        }
}

static void dep_table_free(dep_table *d)
{
    free(d->f_end);
    free(d->bi_end);
    free(d->i_end);
}

/* When the output of `stage`'s half (F, or B/I) for mb is usable on `rank`. */
static double dep_at(const dep_table *d, const timeline *tl, const double *ends, int stage, int mb,
                     int rank)
{
    double end = ends[(size_t)stage * (size_t)d->M + (size_t)mb];
    if (end < 0)
        FUZZ_FAIL("stage %d micro-batch %d: a dependency never ran in a simulated program", stage,
                  mb);
    int producer = tl->program->stage_rank[stage];
    return producer == rank ? end : end + tl->p2p[producer];
}

/* The earliest start rule 2 allows for one compute half. */
static double half_ready(const dep_table *d, const timeline *tl, int rank, int kind, int stage,
                         int mb)
{
    double t = 0;
    switch (kind) {
    case ACTION_F:
        return stage > 0 ? dep_at(d, tl, d->f_end, stage - 1, mb, rank) : 0;
    case ACTION_B:
    case ACTION_I:
        if (stage < d->S - 1)
            t = dep_at(d, tl, d->bi_end, stage + 1, mb, rank);
        return fmax(t, dep_at(d, tl, d->f_end, stage, mb, rank));
    case ACTION_W:
        return dep_at(d, tl, d->i_end, stage, mb, rank);
    default:
        return 0;
    }
}

/* Duration of a compute kind on a rank that holds `held` stages. */
static double kind_cost(const timeline_costs *c, int rank, int held, int kind)
{
    const double *per_rank[] = {
        [ACTION_F] = c->f,
        [ACTION_B] = c->b,
        [ACTION_I] = c->i,
        [ACTION_W] = c->w,
        [ACTION_OVERLAP_F_B] = c->fb,
    };
    return per_rank[kind][rank] / (held > 0 ? held : 1);
}

/* The rules of timeline.h, on every action and transfer. */
static void check_timeline(const timeline *tl, const timeline_costs *costs)
{
    const program *p = tl->program;
    FUZZ_CHECK(isfinite(tl->makespan) && tl->makespan >= 0, tl->makespan, 0);
    FUZZ_CHECK(tl->makespan <= BUDGET_MAX_TIME, tl->makespan, BUDGET_MAX_TIME);
    FUZZ_CHECK(tl->compute_end >= 0 && tl->compute_end <= tl->makespan, tl->compute_end,
               tl->makespan);
    FUZZ_CHECK(tl->allreduce_exposed >= 0, tl->allreduce_exposed, 0);
    FUZZ_CHECK(tl->bubble_fraction >= -1e-9 && tl->bubble_fraction <= 1 + 1e-9, tl->bubble_fraction,
               0);
    FUZZ_CHECK(isfinite(tl->bubble_ratio) && tl->bubble_ratio >= -1e-9, tl->bubble_ratio, 0);
    FUZZ_CHECK(tl->dp == costs->dp, tl->dp, costs->dp);

    dep_table deps = {0};
    dep_table_fill(&deps, tl);
    int *held = calloc((size_t)p->ranks, sizeof(int));
    if (!held)
        ppf_oom("fuzz stages held");
    for (int s = 0; s < p->stages; s++)
        held[p->stage_rank[s]]++;
    double busy = 0;
    for (int r = 0; r < p->ranks; r++) {
        const program_rank *pr = &p->rank[r];
        double free_at = 0, rank_busy = 0, compute_end = 0;
        for (int k = 0; k < pr->count; k++) {
            const action *a = &pr->actions[k];
            action_time at = tl->time[r][k];
            FUZZ_CHECK(isfinite(at.start) && at.start >= 0, at.start, 0);
            FUZZ_CHECK(at.end >= at.start, at.end, at.start);
            FUZZ_CHECK(at.end <= tl->makespan, at.end, tl->makespan);
            if (!action_is_compute((action_kind)a->kind)) {
                FUZZ_CHECK(at.end == at.start, at.end, at.start);
                continue;
            }
            /* Rule 1: one action at a time, in program order. */
            FUZZ_CHECK(at.start >= free_at, at.start, free_at);
            /* Rule 2: never before the dependencies' outputs arrive. */
            double ready = a->kind == ACTION_OVERLAP_F_B
                               ? fmax(half_ready(&deps, tl, r, ACTION_F, a->stage, a->microbatch),
                                      half_ready(&deps, tl, r, ACTION_B, a->stage2, a->microbatch2))
                               : half_ready(&deps, tl, r, a->kind, a->stage, a->microbatch);
            FUZZ_CHECK(at.start >= ready, at.start, ready);
            /* ... and as soon as both allow. */
            FUZZ_CHECK(at.start == fmax(free_at, ready), at.start, fmax(free_at, ready));
            /* Rule 5: the rank's cost shared among the stages it holds. */
            FUZZ_CHECK(at.end == at.start + kind_cost(costs, r, held[r], a->kind), at.end,
                       at.start + kind_cost(costs, r, held[r], a->kind));
            free_at = at.end;
            rank_busy += at.end - at.start;
            compute_end = at.end;
        }
        const rank_metrics *m = &tl->per_rank[r];
        FUZZ_CHECK(near(m->busy, rank_busy), m->busy, rank_busy);
        FUZZ_CHECK(near(m->busy + m->idle, tl->makespan), m->busy + m->idle, tl->makespan);
        FUZZ_CHECK(m->compute_end == compute_end, m->compute_end, compute_end);
        FUZZ_CHECK(m->peak_activations >= 0 &&
                       (long)m->peak_activations <= (long)p->stages * p->microbatches,
                   m->peak_activations, (long)p->stages * p->microbatches);
        busy += m->busy;
    }
    free(held);
    dep_table_free(&deps);
    FUZZ_CHECK(near(tl->busy, busy), tl->busy, busy);

    /* Rule 4: one all-reduce per stage with D > 1, none without. */
    FUZZ_CHECK(tl->allreduce_count == (tl->dp > 1 ? p->stages : 0), tl->allreduce_count, p->stages);
    for (int k = 0; k < tl->allreduce_count; k++) {
        const transfer *x = &tl->allreduces[k];
        FUZZ_CHECK(x->kind == TRANSFER_ALLREDUCE, x->kind, TRANSFER_ALLREDUCE);
        FUZZ_CHECK(x->start >= 0 && x->end >= x->start, x->start, x->end);
        FUZZ_CHECK(x->end <= tl->makespan, x->end, tl->makespan);
        FUZZ_CHECK(x->src_rank == p->stage_rank[x->stage], x->src_rank, p->stage_rank[x->stage]);
    }
    /* Rules 3 and 6: p2p transfers are finite and end within the iteration. */
    p2p_cursor cur = {0};
    transfer x;
    int n = 0;
    while (timeline_next_p2p(tl, &cur, &x)) {
        n++;
        FUZZ_CHECK(x.kind == TRANSFER_P2P_F || x.kind == TRANSFER_P2P_B, x.kind, 0);
        FUZZ_CHECK(x.start >= 0 && x.end >= x.start, x.start, x.end);
        FUZZ_CHECK(x.end <= tl->makespan, x.end, tl->makespan);
        FUZZ_CHECK(x.src_rank != x.dst_rank, x.src_rank, x.dst_rank);
        FUZZ_CHECK(n <= tl->p2p_count, n, tl->p2p_count);
    }
    FUZZ_CHECK(n == tl->p2p_count, n, tl->p2p_count);
}

/* ---- the exporters -------------------------------------------------------- */

/* Text written to a memory stream; free(text) when done. */
typedef struct captured {
    char *text;
    size_t len;
    FILE *f;
} captured;

static FILE *capture_begin(captured *c)
{
    *c = (captured){0};
    c->f = open_memstream(&c->text, &c->len);
    if (!c->f)
        ppf_oom("fuzz memory stream");
    return c->f;
}

static void capture_end(captured *c)
{
    if (fclose(c->f) != 0)
        FUZZ_FAIL("a memory stream failed");
    c->f = NULL;
}

/* Every value in a document is a finite number, a string, a bool, an array
 * or an object: an exporter writes null only for a number that is not. */
static void check_json_values(const cJSON *item, const char *what)
{
    for (; item; item = item->next) {
        if (cJSON_IsNull(item))
            FUZZ_FAIL("%s: null at \"%s\" (a number that is not finite)", what,
                      item->string ? item->string : "(array item)");
        if (cJSON_IsNumber(item) && !isfinite(item->valuedouble))
            FUZZ_FAIL("%s: %g at \"%s\"", what, item->valuedouble,
                      item->string ? item->string : "(array item)");
        if (cJSON_IsArray(item) || cJSON_IsObject(item))
            check_json_values(item->child, what);
    }
}

static cJSON *parse_json(const captured *c, const char *what)
{
    cJSON *doc = cJSON_ParseWithLength(c->text, c->len);
    if (!doc) {
        const char *at = cJSON_GetErrorPtr();
        FUZZ_FAIL("%s does not parse as JSON near \"%.40s\"", what, at ? at : "?");
    }
    check_json_values(doc->child, what);
    return doc;
}

static double json_number(const cJSON *doc, const char *key, const char *what)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(doc, key);
    if (!cJSON_IsNumber(item))
        FUZZ_FAIL("%s: no number \"%s\"", what, key);
    return item->valuedouble;
}

static int json_array_size(const cJSON *doc, const char *key, const char *what)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(doc, key);
    if (!cJSON_IsArray(item))
        FUZZ_FAIL("%s: no array \"%s\"", what, key);
    return cJSON_GetArraySize(item);
}

static void check_export_json(const timeline *tl)
{
    const char *what = "export_timeline_json";
    captured c;
    export_timeline_json(tl, capture_begin(&c));
    capture_end(&c);
    cJSON *doc = parse_json(&c, what);
    /* The exporter's numbers read back exactly (export.c format_number). */
    FUZZ_CHECK(json_number(doc, "makespan", what) == tl->makespan,
               json_number(doc, "makespan", what), tl->makespan);
    FUZZ_CHECK(json_number(doc, "bubble_fraction", what) == tl->bubble_fraction,
               json_number(doc, "bubble_fraction", what), tl->bubble_fraction);
    const program *p = tl->program;
    long compute = 0;
    for (int r = 0; r < p->ranks; r++)
        for (int k = 0; k < p->rank[r].count; k++)
            compute += action_is_compute((action_kind)p->rank[r].actions[k].kind);
    FUZZ_CHECK(json_array_size(doc, "actions", what) == compute,
               json_array_size(doc, "actions", what), compute);
    FUZZ_CHECK(json_array_size(doc, "per_rank", what) == p->ranks,
               json_array_size(doc, "per_rank", what), p->ranks);
    FUZZ_CHECK(json_array_size(doc, "transfers", what) == tl->p2p_count + tl->allreduce_count,
               json_array_size(doc, "transfers", what), tl->p2p_count + tl->allreduce_count);
    cJSON_Delete(doc);
    free(c.text);
}

static void check_chrome_trace(const timeline *tl)
{
    const char *what = "export_chrome_trace";
    captured c;
    export_chrome_trace(tl, capture_begin(&c));
    capture_end(&c);
    cJSON *doc = parse_json(&c, what);
    const cJSON *events = cJSON_GetObjectItemCaseSensitive(doc, "traceEvents");
    if (!cJSON_IsArray(events))
        FUZZ_FAIL("%s: no traceEvents array", what);
    const cJSON *e;
    cJSON_ArrayForEach(e, events)
    {
        const cJSON *ts = cJSON_GetObjectItemCaseSensitive(e, "ts");
        const cJSON *dur = cJSON_GetObjectItemCaseSensitive(e, "dur");
        if (ts)
            FUZZ_CHECK(cJSON_IsNumber(ts) && ts->valuedouble >= 0, ts->valuedouble, 0);
        if (dur)
            FUZZ_CHECK(cJSON_IsNumber(dur) && dur->valuedouble >= 0, dur->valuedouble, 0);
    }
    cJSON_Delete(doc);
    free(c.text);
}

/* The text without the newlines at its end (trailing ranks that hold
 * nothing are blank lines, and blank lines at the end are not ranks). */
static size_t trimmed(const captured *c)
{
    size_t n = c->len;
    while (n > 0 && c->text[n - 1] == '\n')
        n--;
    return n;
}

/* csv_write's text reads back with csv_parse into a program that writes the
 * same text: PyTorch's form round-trips cell for cell. */
static void check_csv_write(const program *p)
{
    captured first, second;
    csv_write(p, capture_begin(&first));
    capture_end(&first);
    program back;
    ppf_error err = {0};
    if (!csv_parse(first.text, first.len, "csv_write", &back, &err))
        FUZZ_FAIL("csv_write's output does not read back: %s", err.message);
    csv_write(&back, capture_begin(&second));
    capture_end(&second);
    size_t n1 = trimmed(&first), n2 = trimmed(&second);
    if (n1 != n2 || memcmp(first.text, second.text, n1) != 0)
        FUZZ_FAIL("csv_write -> csv_parse -> csv_write changes the text (%zu vs %zu bytes)", n1,
                  n2);
    FUZZ_CHECK(back.stages == p->stages, back.stages, p->stages);
    FUZZ_CHECK(back.microbatches == p->microbatches, back.microbatches, p->microbatches);
    for (int s = 0; s < p->stages; s++)
        FUZZ_CHECK(back.stage_rank[s] == p->stage_rank[s], back.stage_rank[s], p->stage_rank[s]);
    program_deinit(&back);
    free(first.text);
    free(second.text);
}

/* "nan" or "inf" standing alone (not inside a word such as "info"). */
static const char *find_nonfinite(const char *text)
{
    static const char *words[] = {"nan", "inf", "NAN", "INF"};
    for (int w = 0; w < 4; w++)
        for (const char *at = text; (at = strstr(at, words[w])) != NULL; at++) {
            bool before = at > text && ((at[-1] | 0x20) >= 'a' && (at[-1] | 0x20) <= 'z');
            bool after = (at[3] | 0x20) >= 'a' && (at[3] | 0x20) <= 'z';
            if (!before && !after)
                return at;
        }
    return NULL;
}

/* Display columns of one line: UTF-8 code points outside ANSI escapes. */
static int line_columns(const char *s, const char *end)
{
    int w = 0;
    while (s < end) {
        if (*s == '\x1b') {
            while (s < end && *s != 'm')
                s++;
            s++;
            continue;
        }
        w += ((unsigned char)*s & 0xC0) != 0x80;
        s++;
    }
    return w;
}

static void check_report(const timeline *tl, const timeline_costs *costs, const fuzz_view *view)
{
    captured c;
    report_table(tl, costs, capture_begin(&c));
    capture_end(&c);
    const char *bad = find_nonfinite(c.text);
    if (bad)
        FUZZ_FAIL("report_table writes a number that is not finite: \"%.40s\"", bad);
    free(c.text);

    report_gantt(tl, capture_begin(&c), view->report_width, view->colour);
    capture_end(&c);
    if ((bad = find_nonfinite(c.text)))
        FUZZ_FAIL("report_gantt writes a number that is not finite: \"%.40s\"", bad);
    /* Every line fits the width: header, rows, axis, legend and notes. */
    int width = view->report_width < REPORT_MIN_WIDTH   ? REPORT_MIN_WIDTH
                : view->report_width > REPORT_MAX_WIDTH ? REPORT_MAX_WIDTH
                                                        : view->report_width;
    for (const char *line = c.text; *line;) {
        const char *nl = strchr(line, '\n');
        const char *end = nl ? nl : line + strlen(line);
        int cols = line_columns(line, end);
        if (cols > width)
            FUZZ_FAIL("report_gantt: a line of %d columns in a width of %d: \"%.*s\"", cols, width,
                      (int)(end - line), line);
        line = nl ? nl + 1 : end;
    }
    free(c.text);

    char line[256], tiny[8];
    closed_forms_bubble_line(tl, costs, line, sizeof line);
    if ((bad = find_nonfinite(line)))
        FUZZ_FAIL("closed_forms_bubble_line writes a number that is not finite: \"%s\"", line);
    closed_forms_bubble_line(tl, costs, tiny, sizeof tiny);
    FUZZ_CHECK(strlen(tiny) < sizeof tiny, strlen(tiny), sizeof tiny);
}

/* ---- the scene ------------------------------------------------------------ */

static void check_state(const scene *s, const scene_state *st)
{
    for (int k = 0; k < SCENE_KIND_COUNT; k++) {
        int64_t n = scene_kind_count(s, (scene_kind)k);
        for (int64_t j = 0; j < n; j++) {
            const object_state *o = &st->kind[k][j];
            FUZZ_CHECK(o->visible <= 1, o->visible, 1);
            FUZZ_CHECK(o->role < SCENE_ROLE_COUNT, o->role, SCENE_ROLE_COUNT);
            FUZZ_CHECK(o->label <= SCENE_LABEL_GRAD, o->label, SCENE_LABEL_GRAD);
            FUZZ_CHECK(o->opacity >= 0 && o->opacity <= 1, o->opacity, k);
            FUZZ_CHECK(o->flash >= 0 && o->flash <= 1, o->flash, k);
        }
    }
    for (int g = 0; g < s->stages; g++) {
        const stage_focus *f = &st->focus[g];
        bool idle = f->kind == ACTION_IDLE;
        FUZZ_CHECK(idle || f->kind == ACTION_F || f->kind == ACTION_B || f->kind == ACTION_I ||
                       f->kind == ACTION_W,
                   f->kind, g);
        FUZZ_CHECK(idle ? f->microbatch == -1
                        : f->microbatch >= 0 && f->microbatch < s->microbatches,
                   f->microbatch, s->microbatches);
        FUZZ_CHECK(idle ? f->layer == -1 : f->layer >= 0 && f->layer < s->layers, f->layer,
                   s->layers);
        FUZZ_CHECK(f->progress >= 0 && f->progress <= 1, f->progress, g);
    }
}

/* Copies of the per-object states, to compare two calls. */
static void state_copy(const scene *s, const scene_state *st, object_state **out)
{
    for (int k = 0; k < SCENE_KIND_COUNT; k++) {
        size_t n = (size_t)scene_kind_count(s, (scene_kind)k) * sizeof(object_state);
        out[k] = malloc(n ? n : 1);
        if (!out[k])
            ppf_oom("fuzz state copy");
        if (n)
            memcpy(out[k], st->kind[k], n);
    }
}

static void state_compare(const scene *s, const scene_state *st, object_state **copy, double t,
                          const char *why)
{
    for (int k = 0; k < SCENE_KIND_COUNT; k++) {
        size_t n = (size_t)scene_kind_count(s, (scene_kind)k) * sizeof(object_state);
        if (n && memcmp(copy[k], st->kind[k], n) != 0)
            FUZZ_FAIL("scene_state_at(%.17g): kind %d differs from %s", t, k, why);
    }
}

static void state_free(object_state **copy)
{
    for (int k = 0; k < SCENE_KIND_COUNT; k++)
        free(copy[k]);
}

static void check_box(scene_box b)
{
    for (int a = 0; a < 3; a++) {
        FUZZ_CHECK(isfinite(b.min[a]) && isfinite(b.max[a]), b.min[a], b.max[a]);
        FUZZ_CHECK(b.min[a] <= b.max[a], b.min[a], b.max[a]);
    }
}

static void check_caption(const scene *s, const timeline *tl, double t, unsigned pick)
{
    int rank = (int)(pick % (unsigned)s->ranks);
    char buf[320];
    scene_caption(s, t, rank, buf, sizeof buf);
    if (buf[0] == '\0')
        FUZZ_FAIL("scene_caption(%.17g, rank %d) is empty", t, rank);
    for (const unsigned char *c = (const unsigned char *)buf; *c; c++)
        if (*c < 0x20 || *c == 0x7F)
            FUZZ_FAIL("control character 0x%02X in the caption \"%s\"", *c, buf);
    /* A small buffer is cut, never overrun (ASan watches its end). */
    size_t small = 1 + pick % 24;
    char *cut = malloc(small);
    if (!cut)
        ppf_oom("fuzz caption");
    scene_caption(s, t, rank, cut, small);
    FUZZ_CHECK(strlen(cut) < small, strlen(cut), small);
    free(cut);
    int subject = scene_caption_rank(s, t);
    FUZZ_CHECK(subject >= 0 && subject < s->ranks, subject, s->ranks);
    int k = timeline_action_at(tl, rank, t);
    if (k >= 0) {
        action_time at = tl->time[rank][k];
        FUZZ_CHECK(at.start <= t && t < at.end, at.start, t);
        FUZZ_CHECK(action_is_compute((action_kind)tl->program->rank[rank].actions[k].kind), k,
                   rank);
    }
}

/* The first frame's layout, as a window or an export lays it out before
 * anything is drawn (frame_layout_*, render/frame_layout.c: no GL): a
 * window's size and UI scale chosen by pick, the free rectangles of its 3D
 * view, the camera preset fitted into the best of them as session_camera
 * fits it, and the timeline panel's rows, all finite and inside the window. */
static void check_first_frame(const scene *s, const timeline *tl, unsigned pick)
{
    static const int sizes[][2] = {{1920, 1080}, {1280, 720}, {640, 360},
                                   {320, 200},   {800, 1280}, {3840, 2160}};
    const int *z = sizes[pick % (sizeof sizes / sizeof sizes[0])];
    const float ui = (pick >> 4) & 1 ? 1.25f : 1.0f;
    const frame_layout l = frame_layout_compute(z[0], z[1], 0, ui);
    FUZZ_CHECK(l.view_w > 0 && l.view_h > 0 && l.panel_h > 0, l.view_w, l.view_h);
    FUZZ_CHECK(l.view_y + l.view_h <= l.panel_y + 0.5f &&
                   l.panel_y + l.panel_h <= (float)z[1] + 0.5f,
               l.panel_y, z[1]);
    camera_rect free[FRAME_FREE_MAX];
    const int n = frame_layout_free_rects(&l, free);
    FUZZ_CHECK(n >= 1 && n <= FRAME_FREE_MAX, n, FRAME_FREE_MAX);
    for (int k = 0; k < n; k++)
        FUZZ_CHECK(free[k].x0 >= 0 && free[k].y0 >= 0 && free[k].x1 <= 1 && free[k].y1 <= 1 &&
                       free[k].x0 < free[k].x1 && free[k].y0 < free[k].y1,
                   free[k].x0, free[k].y1);
    camera_bounds b = {.points = (const float(*)[3])s->fit_points,
                       .point_count = s->fit_point_count};
    memcpy(b.min, s->bounds.min, sizeof b.min);
    memcpy(b.max, s->bounds.max, sizeof b.max);
    const camera_preset preset = (camera_preset)((pick >> 5) % CAMERA_PRESET_COUNT);
    const camera c = camera_preset_view_best(preset, &b, l.view_w / l.view_h, free, n);
    FUZZ_CHECK(isfinite(c.distance) && c.distance > 0, c.distance, preset);
    FUZZ_CHECK(isfinite(c.yaw) && isfinite(c.pitch) && isfinite(c.fov_y), c.yaw, c.pitch);
    for (int a = 0; a < 3; a++)
        FUZZ_CHECK(isfinite(c.target[a]), c.target[a], a);
    FUZZ_CHECK(isfinite(c.shift[0]) && isfinite(c.shift[1]), c.shift[0], c.shift[1]);
    timeline_view tv;
    timeline_view_init(&tv, tl->makespan, tl->program->ranks, tl->allreduce_count > 0);
    frame_layout_place_timeline(&l, &tv);
    FUZZ_CHECK(isfinite(tv.row_pitch) && tv.row_pitch >= 0, tv.row_pitch, tv.ranks);
    FUZZ_CHECK(tv.plot_x >= l.panel_x - 0.5f &&
                   tv.plot_x + tv.plot_w <= l.panel_x + l.panel_w + 0.5f,
               tv.plot_x, tv.plot_w);
}

static void check_scene(const timeline *tl, const fuzz_view *view)
{
    const program *p = tl->program;
    int K = view->layers_per_stage > 0 ? view->layers_per_stage : SCENE_DEFAULT_LAYERS_PER_STAGE;
    int dp = tl->dp > 0 ? tl->dp : 1;
    ppf_error err = {0};
    if (!scene_check_budget(p->stages, K, p->microbatches, dp, &err)) {
        fuzz_check_message(&err);
        return;
    }
    /* One replica's state is what scene_state_at fills; the copies share it. */
    int64_t objects = scene_count_objects(p->stages, K, p->microbatches, 1);
    if (objects > FUZZ_MAX_OBJECTS || program_action_count(p) > FUZZ_MAX_WORK)
        return;
    scene s;
    scene_init(&s,
               &(scene_desc){
                   .layers_per_stage = view->layers_per_stage,
                   .d_model = view->d_model,
                   .d_hidden = view->d_hidden,
                   .batch = view->batch,
                   .stage_gap = view->stage_gap,
                   .replica_gap = view->replica_gap,
               },
               tl);
    FUZZ_CHECK(s.layers == p->stages * K, s.layers, p->stages * K);
    check_box(s.bounds);
    check_first_frame(&s, tl, view->pick);
    for (int k = 0; k < SCENE_KIND_COUNT; k++) {
        if (scene_kind_count(&s, (scene_kind)k) == 0 || scene_kind_copies(&s, (scene_kind)k) == 0)
            continue;
        int per = scene_kind_slots(&s, (scene_kind)k);
        int index = (int)(view->pick % (unsigned)(scene_kind_count(&s, (scene_kind)k) / per));
        int copy = scene_kind_copies(&s, (scene_kind)k) - 1;
        scene_box b = scene_object_box(&s, (scene_kind)k, index, per - 1, copy);
        check_box(b);
        char label[64];
        scene_object_label(&s, (scene_kind)k, index, (scene_label_variant)(view->pick & 1), label,
                           sizeof label);
    }

    scene_state st;
    scene_state_init(&st, &s);
    const double m = tl->makespan;
    const double times[] = {0, m / 3, m, -1, 2 * m + 1};
    object_state *first[SCENE_KIND_COUNT], *at_end[SCENE_KIND_COUNT];
    for (int k = 0; k < 5; k++) {
        scene_state_at(&s, times[k], &st);
        check_state(&s, &st);
        check_caption(&s, tl, times[k], view->pick + (unsigned)k);
        if (k == 1)
            state_copy(&s, &st, first);
        if (k == 2)
            state_copy(&s, &st, at_end);
    }
    /* t outside [0, makespan] is clamped, and nothing is kept between calls. */
    scene_state_at(&s, 2 * m + 1, &st);
    state_compare(&s, &st, at_end, 2 * m + 1, "the state at the makespan");
    scene_state_at(&s, m / 3, &st);
    state_compare(&s, &st, first, m / 3, "the same call made earlier");
    state_free(first);
    state_free(at_end);
    scene_state_deinit(&st);
    scene_deinit(&s);
}

/* ---- the whole way --------------------------------------------------------- */

/* The beats' text where it leaves ppflow: `--format json` is valid UTF-8
 * whatever the titles hold and reads back to them, and `--format beats`
 * shows them by quote.h's rule (nothing a terminal acts on). */
static void check_beats_text(const timeline *tl, const beat_list *bl)
{
    captured c;
    export_timeline_json_beats(tl, bl, capture_begin(&c));
    capture_end(&c);
    fuzz_check_text(c.text, c.len, FUZZ_TEXT_LINES, "export_timeline_json_beats");
    cJSON *doc = parse_json(&c, "export_timeline_json_beats");
    const cJSON *beats = cJSON_GetObjectItemCaseSensitive(doc, "beats");
    FUZZ_CHECK(cJSON_GetArraySize(beats) == bl->count, cJSON_GetArraySize(beats), bl->count);
    const cJSON *item = beats ? beats->child : NULL;
    for (int k = 0; k < bl->count && item; k++, item = item->next) {
        const cJSON *title = cJSON_GetObjectItemCaseSensitive(item, "title");
        if (!cJSON_IsString(title) || strcmp(title->valuestring, bl->beats[k].title) != 0)
            FUZZ_FAIL("beat %d's title does not read back from the JSON: \"%.80s\"", k,
                      bl->beats[k].title);
    }
    cJSON_Delete(doc);
    free(c.text);

    report_beats(bl, capture_begin(&c));
    capture_end(&c);
    fuzz_check_text(c.text, c.len, FUZZ_TEXT_LINES, "report_beats");
    free(c.text);
}

/* The session's beats: refused with one line (an "after" that names no
 * action, a t past the end, two at one moment), or sorted, distinct and
 * within the iteration, and navigation agrees with the list. */
static void check_beats(const timeline *tl, const beat_specs *specs)
{
    static const beat_specs none = {0};
    beat_list bl = {0};
    ppf_error err = {0};
    if (!beats_build(&bl, tl, specs ? specs : &none, &err)) {
        fuzz_check_message(&err);
        FUZZ_CHECK(bl.count == 0 && !bl.beats, bl.count, 0);
        return;
    }
    const double eps = beats_epsilon(tl);
    FUZZ_CHECK(bl.count <= BEATS_MAX, bl.count, BEATS_MAX);
    if (program_action_count(tl->program) <= FUZZ_MAX_WORK)
        check_beats_text(tl, &bl);
    for (int k = 0; k < bl.count; k++) {
        const beat *b = &bl.beats[k];
        FUZZ_CHECK(b->t >= 0 && b->t <= tl->makespan + eps, b->t, tl->makespan);
        if (k > 0)
            FUZZ_CHECK(b->t - bl.beats[k - 1].t > eps, b->t, bl.beats[k - 1].t);
        if (!b->title[0])
            FUZZ_FAIL("beat %d at %g has no title", k, b->t);
        FUZZ_CHECK(beats_at(&bl, tl, b->t) == k, beats_at(&bl, tl, b->t), k);
        FUZZ_CHECK(beats_next(&bl, tl, b->t) == (k + 1 < bl.count ? k + 1 : -1),
                   beats_next(&bl, tl, b->t), k + 1);
        FUZZ_CHECK(beats_prev(&bl, tl, b->t) == k - 1, beats_prev(&bl, tl, b->t), k - 1);
    }
    beat_list_deinit(&bl);
}

void fuzz_run_program(const program *prog, const timeline_costs *costs, const fuzz_view *view)
{
    timeline tl;
    ppf_error err = {0};
    if (!timeline_simulate(&tl, prog, costs, &err)) {
        fuzz_check_message(&err);
        return;
    }
    check_timeline(&tl, costs);
    check_beats(&tl, view->beats);
    if (program_action_count(prog) <= FUZZ_MAX_WORK) {
        check_export_json(&tl);
        check_chrome_trace(&tl);
        check_csv_write(prog);
        check_report(&tl, costs, view);
    }
    check_scene(&tl, view);
    timeline_deinit(&tl);
}

void fuzz_run_scenario(const scenario *sc, unsigned pick)
{
    if (strncmp(sc->schedule, "csv:", 4) == 0)
        return;
    const schedule_info *info = schedule_find(sc->schedule);
    int v = info && sc->virtual_stages <= 0 ? info->default_v : sc->virtual_stages;
    if (v <= 0)
        v = 1;
    /* The budget's own count (budget_check_generated). */
    double bound =
        (double)sc->stages * (double)budget_generated_per_rank(sc->stages, v, sc->microbatches);
    if (bound <= (double)BUDGET_MAX_ACTIONS && bound > FUZZ_MAX_BUILD)
        return; /* accepted by the budget, too slow to fuzz: see FUZZ_MAX_BUILD */
    program prog;
    timeline_costs costs;
    ppf_error err = {0};
    if (!scenario_build(sc, &prog, &costs, &err)) {
        fuzz_check_message(&err);
        return;
    }
    /* What the budget counted is an upper bound of what was built. */
    FUZZ_CHECK(bound <= (double)BUDGET_MAX_ACTIONS, bound, BUDGET_MAX_ACTIONS);
    FUZZ_CHECK((double)program_action_count(&prog) <= bound, program_action_count(&prog), bound);
    FUZZ_CHECK(costs.ranks == prog.ranks, costs.ranks, prog.ranks);
    FUZZ_CHECK(costs.dp == sc->dp, costs.dp, sc->dp);
    fuzz_view view = fuzz_view_from_scenario(sc, pick);
    fuzz_run_program(&prog, &costs, &view);
    timeline_costs_deinit(&costs);
    program_deinit(&prog);
}
