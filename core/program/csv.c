#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "csv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "budget.h"
#include "file_read.h"
#include "quote.h"

enum { CSV_MAX_BYTES = 256 << 20 };

/* One parsed row before the program's sizes are known. */
typedef struct csv_rows {
    action *cells;
    int *row_start; /* [rows + 1] */
    int rows, row_cap;
    int count, cap;
} csv_rows;

static void rows_push(csv_rows *t, action a)
{
    if (t->count == t->cap) {
        /* Doubling, but never past what the budget lets a CSV hold. */
        t->cap = t->cap ? t->cap * 2 : 256;
        if (t->cap > BUDGET_MAX_ACTIONS)
            t->cap = (int)BUDGET_MAX_ACTIONS;
        t->cells = ppf_realloc(t->cells, sizeof(action) * (size_t)t->cap);
    }
    t->cells[t->count++] = a;
}

static void rows_end_row(csv_rows *t)
{
    if (t->rows + 2 > t->row_cap) {
        t->row_cap = t->row_cap ? t->row_cap * 2 : 16;
        t->row_start = ppf_realloc(t->row_start, sizeof(int) * (size_t)t->row_cap);
    }
    t->rows++;
    t->row_start[t->rows] = t->count;
}

/* Reads one cell starting at text[*pos]; leaves *pos on the ',' or line end
 * that follows. A quoted cell may hold "" for a quote; its text goes to buf. */
static bool read_cell(const char *text, size_t len, size_t *pos, char *buf, size_t cap,
                      size_t *out_len, const char **why)
{
    size_t p = *pos, n = 0;
    if (p < len && text[p] == '"') {
        p++;
        for (;;) {
            if (p >= len) {
                *why = "a quoted cell is not closed";
                return false;
            }
            if (text[p] == '"') {
                if (p + 1 < len && text[p + 1] == '"') {
                    p++;
                } else {
                    p++;
                    break;
                }
            }
            if (n + 1 >= cap) {
                *why = "a cell is longer than any action";
                return false;
            }
            buf[n++] = text[p++];
        }
        if (p < len && text[p] != ',' && text[p] != '\n' && text[p] != '\r') {
            *why = "text after a closing quote";
            return false;
        }
    } else {
        while (p < len && text[p] != ',' && text[p] != '\n' && text[p] != '\r') {
            if (n + 1 >= cap) {
                *why = "a cell is longer than any action";
                return false;
            }
            buf[n++] = text[p++];
        }
    }
    buf[n] = 0;
    *out_len = n;
    *pos = p;
    return true;
}

/* The tightest layout name for an inferred stage map. */
static program_layout detect_layout(const program *p)
{
    program_layout candidates[] = {PROGRAM_LAYOUT_LOOP, PROGRAM_LAYOUT_V};
    for (int c = 0; c < 2; c++) {
        bool match = p->stages % p->ranks == 0;
        for (int s = 0; s < p->stages && match; s++)
            match = p->stage_rank[s] == program_layout_rank(candidates[c], p->ranks, p->stages, s);
        if (match)
            return candidates[c];
    }
    return PROGRAM_LAYOUT_CUSTOM;
}

/* Reads every cell of text[0..len) with the checks that need no program
 * (each cell an action, the budget, rows, the stage x micro-batch grid),
 * measuring the sizes into *m; keeps the cells in *t, unless t is NULL
 * (csv_measure: the sizes only, nothing kept). */
static bool walk(const char *text, size_t len, const char *origin, csv_rows *t, csv_size *m,
                 ppf_error *err)
{
    size_t pos = 0;
    int col = 0;
    long max_stage = -1, max_mb = -1;
    int64_t cells = 0, rows = 0;
    char cellbuf[ACTION_TEXT_MAX * 2];
    bool ok = true;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        pos = 3; /* a UTF-8 byte-order mark from a spreadsheet */
    while (pos < len && ok) {
        if (col == 0) { /* blank lines at the end are not ranks */
            size_t rest = pos;
            while (rest < len && (text[rest] == '\r' || text[rest] == '\n'))
                rest++;
            if (rest == len)
                break;
        }
        size_t n;
        const char *why = NULL;
        if (!read_cell(text, len, &pos, cellbuf, sizeof cellbuf, &n, &why)) {
            ok = ppf_fail(err, "%s: row %lld (rank %lld), column %d: %s", origin,
                          (long long)rows + 1, (long long)rows, col + 1, why);
            break;
        }
        action a;
        ppf_error cell_err = {{0}};
        if (!action_parse(cellbuf, n, &a, &cell_err)) {
            ok = ppf_fail(err, "%s: row %lld (rank %lld), column %d: %s", origin,
                          (long long)rows + 1, (long long)rows, col + 1, cell_err.message);
            break;
        }
        if (action_is_compute((action_kind)a.kind)) {
            if (a.stage > max_stage)
                max_stage = a.stage;
            if (a.microbatch > max_mb)
                max_mb = a.microbatch;
            if (a.kind == ACTION_OVERLAP_F_B) {
                if ((long)a.stage2 > max_stage)
                    max_stage = a.stage2;
                if (a.microbatch2 > max_mb)
                    max_mb = a.microbatch2;
            }
        }
        /* Memory follows the cells held, not the file's bytes: a file of
         * empty cells stops at the budget, not at the end of the file.
         * Checked when the array would grow (per cell when nothing is
         * kept), not per cell. */
        if ((t ? t->count + 2 > t->cap : cells + 2 > BUDGET_MAX_ACTIONS) &&
            !budget_check_cells(cells + 2, origin, err)) {
            ok = false;
            break;
        }
        cells++;
        if (t)
            rows_push(t, a);
        col++;
        if (pos < len && text[pos] == ',') {
            pos++;
            if (pos == len) { /* "a,b," at the very end: one more empty cell */
                cells++;
                rows++;
                if (t) {
                    rows_push(t, action_idle());
                    rows_end_row(t);
                }
            }
            continue;
        }
        /* end of line (or of text) */
        if (pos < len && text[pos] == '\r')
            pos++;
        if (pos < len && text[pos] == '\n')
            pos++;
        rows++;
        if (t)
            rows_end_row(t);
        col = 0;
    }
    if (ok && rows == 0)
        ok = ppf_fail(err, "%s: no rows; a schedule CSV has one row per pipeline rank", origin);
    if (ok && max_stage < 0)
        ok = ppf_fail(err, "%s: no compute actions (F, B, I, W or OVERLAP_F_B) in any row", origin);
    if (ok && rows > PROGRAM_MAX_RANKS)
        ok = ppf_fail(err, "%s: %lld rows; at most %d pipeline ranks", origin, (long long)rows,
                      PROGRAM_MAX_RANKS);
    ppf_error grid_err = {{0}};
    if (ok && !budget_check_grid(max_stage + 1, max_mb + 1, &grid_err))
        ok = ppf_fail(err, "%s: %s", origin, grid_err.message);
    *m = (csv_size){.cells = cells,
                    .rows = (int)(rows < PROGRAM_MAX_RANKS ? rows : PROGRAM_MAX_RANKS),
                    .stages = max_stage + 1,
                    .microbatches = max_mb + 1};
    return ok;
}

bool csv_parse(const char *text, size_t len, const char *origin, program *out, ppf_error *err)
{
    memset(out, 0, sizeof *out);
    csv_rows t = {0};
    t.row_cap = 16;
    t.row_start = ppf_malloc(sizeof(int) * (size_t)t.row_cap);
    t.row_start[0] = 0;
    csv_size m;
    bool ok = walk(text, len, origin, &t, &m, err);
    if (ok) {
        program_init(out, t.rows, (int)m.stages, (int)m.microbatches, PROGRAM_LAYOUT_CUSTOM);
        snprintf(out->schedule, sizeof out->schedule, "csv");
        for (int r = 0; r < t.rows; r++) {
            program_rank *pr = &out->rank[r];
            int n = t.row_start[r + 1] - t.row_start[r];
            pr->actions = ppf_malloc(sizeof(action) * (size_t)(n ? n : 1));
            memcpy(pr->actions, t.cells + t.row_start[r], sizeof(action) * (size_t)n);
            pr->count = pr->capacity = n;
            pr->owned = true;
        }
        ppf_error verr = {{0}};
        if (!program_validate(out, &verr)) {
            ok = ppf_fail(err, "%s: %s", origin, verr.message);
            program_deinit(out);
        } else {
            out->layout = detect_layout(out);
            out->stages_per_rank = (out->stages + out->ranks - 1) / out->ranks;
        }
    }
    free(t.cells);
    free(t.row_start);
    return ok;
}

/* Parses the open file into *out, or with out NULL counts it into *size
 * keeping nothing (*measured says whether it was read): a regular file
 * mapped, not copied (its pages stay in the page cache and the parser's
 * memory is the actions it keeps), anything else read as a stream, or, when
 * counting, not read at all (a stream can be read once, and the build
 * reads it). `shown` is the path as messages show it (already quoted);
 * with conceal the cells are parsed concealed (quote.h). */
static bool read_fd(int fd, const struct stat *st, const char *shown, bool conceal, program *out,
                    csv_size *size, bool *measured, ppf_error *err)
{
    bool ok = true;
    if (conceal)
        quote_conceal_begin();
    if (S_ISDIR(st->st_mode)) {
        ok = ppf_fail(err, "schedule = \"csv:%s\": is a directory, not a CSV file", shown);
    } else if (S_ISREG(st->st_mode)) {
        if (st->st_size > CSV_MAX_BYTES) {
            ok = ppf_fail(err, "schedule = \"csv:%s\": larger than %d MiB", shown,
                          CSV_MAX_BYTES >> 20);
        } else {
            void *map = st->st_size == 0
                            ? NULL
                            : mmap(NULL, (size_t)st->st_size, PROT_READ, MAP_PRIVATE, fd, 0);
            if (map == MAP_FAILED) {
                ok =
                    ppf_fail(err, "schedule = \"csv:%s\": cannot read: %s", shown, strerror(errno));
            } else {
                const char *text = map ? map : "";
                ok = out ? csv_parse(text, (size_t)st->st_size, shown, out, err)
                         : walk(text, (size_t)st->st_size, shown, NULL, size, err);
                if (!out)
                    *measured = true;
                if (map)
                    munmap(map, (size_t)st->st_size);
            }
        }
    } else if (out) {
        file_text ft;
        switch (file_read_fd(&ft, fd, CSV_MAX_BYTES)) {
        case FILE_READ_OK:
            ok = csv_parse(ft.text, ft.len, shown, out, err);
            break;
        case FILE_READ_TOO_BIG:
            ok = ppf_fail(err, "schedule = \"csv:%s\": larger than %d MiB", shown,
                          CSV_MAX_BYTES >> 20);
            break;
        default:
            ok = ppf_fail(err, "schedule = \"csv:%s\": read error: %s", shown,
                          strerror(ft.errno_value));
            break;
        }
        file_text_deinit(&ft);
    }
    if (conceal)
        quote_conceal_end();
    return ok;
}

/* A path from the command line, opened without blocking (a FIFO with no
 * writer must not hang): the descriptor and *st, or -1 with one line. */
static int open_path(const char *path, const char *shown, struct stat *st, ppf_error *err)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        ppf_fail(err, "schedule = \"csv:%s\": cannot open: %s", shown, strerror(errno));
        return -1;
    }
    if (fstat(fd, st) != 0) {
        ppf_fail(err, "schedule = \"csv:%s\": cannot read: %s", shown, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

/* A reference, by file_read.h's rules: the descriptor and *st, or -1 with
 * one line. */
static int open_ref(const file_ref *ref, const char *shown, struct stat *st, ppf_error *err)
{
    file_read_status status;
    int errno_value;
    const int fd = file_ref_open(ref, st, &status, &errno_value);
    if (fd >= 0)
        return fd;
    if (status == FILE_READ_CANNOT_OPEN)
        ppf_fail(err, "schedule = \"csv:%s\": cannot open: %s", shown, strerror(errno_value));
    else if (status == FILE_READ_DIRECTORY)
        ppf_fail(err, "schedule = \"csv:%s\": is a directory, not a CSV file", shown);
    else
        ppf_fail(err, "schedule = \"csv:%s\": %s", shown, file_read_status_text(status, st));
    return -1;
}

bool csv_load(const char *path, program *out, ppf_error *err)
{
    memset(out, 0, sizeof *out);
    const quoted shown = quote_path(path);
    struct stat st;
    const int fd = open_path(path, shown.s, &st, err);
    if (fd < 0)
        return false;
    const bool ok = read_fd(fd, &st, shown.s, false, out, NULL, NULL, err);
    close(fd);
    return ok;
}

bool csv_load_ref(const file_ref *ref, const char *path, bool conceal, program *out, ppf_error *err)
{
    memset(out, 0, sizeof *out);
    const quoted shown = quote_path(path); /* before any concealing of the cells */
    struct stat st;
    const int fd = open_ref(ref, shown.s, &st, err);
    if (fd < 0)
        return false;
    const bool ok = read_fd(fd, &st, shown.s, conceal, out, NULL, NULL, err);
    close(fd);
    return ok;
}

bool csv_measure(const char *path, csv_size *out, bool *measured, ppf_error *err)
{
    *out = (csv_size){0};
    *measured = false;
    const quoted shown = quote_path(path);
    struct stat st;
    const int fd = open_path(path, shown.s, &st, err);
    if (fd < 0)
        return false;
    const bool ok = read_fd(fd, &st, shown.s, false, NULL, out, measured, err);
    close(fd);
    return ok;
}

bool csv_measure_ref(const file_ref *ref, const char *path, bool conceal, csv_size *out,
                     bool *measured, ppf_error *err)
{
    *out = (csv_size){0};
    *measured = false;
    const quoted shown = quote_path(path);
    struct stat st;
    const int fd = open_ref(ref, shown.s, &st, err);
    if (fd < 0)
        return false;
    const bool ok = read_fd(fd, &st, shown.s, conceal, NULL, out, measured, err);
    close(fd);
    return ok;
}

void csv_write(const program *p, FILE *f)
{
    char text[ACTION_TEXT_MAX];
    for (int r = 0; r < p->ranks; r++) {
        const program_rank *pr = &p->rank[r];
        for (int k = 0; k < pr->count; k++) {
            if (k)
                fputc(',', f);
            size_t n = action_format(&pr->actions[k], text);
            fwrite(text, 1, n, f);
        }
        fputc('\n', f);
    }
}
