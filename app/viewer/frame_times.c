/* frame_times.c - the viewer's frame times. See frame_times.h. */
#include "frame_times.h"

#include <stdio.h>
#include <stdlib.h>

void frame_times_init(frame_times *ft)
{
    ft->next = ft->count = 0;
    ft->last = -1;
}

void frame_times_mark(frame_times *ft, double clock, bool counted)
{
    if (counted && ft->last >= 0 && clock >= ft->last) {
        ft->ms[ft->next] = (clock - ft->last) * 1e3;
        ft->end[ft->next] = clock;
        ft->next = (ft->next + 1) % FRAME_TIMES_KEPT;
        if (ft->count < FRAME_TIMES_KEPT)
            ft->count++;
    }
    ft->last = clock;
}

static int compare_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The newest n frames, summed up. */
static frame_times_summary newest(frame_times *ft, int n)
{
    frame_times_summary s = {0};
    if (n > ft->count)
        n = ft->count;
    if (n <= 0)
        return s;
    double total = 0;
    for (int k = 0; k < n; k++) {
        const double ms = ft->ms[(ft->next - 1 - k + FRAME_TIMES_KEPT) % FRAME_TIMES_KEPT];
        ft->scratch[k] = ms;
        total += ms;
        s.worst_ms = ms > s.worst_ms ? ms : s.worst_ms;
    }
    qsort(ft->scratch, (size_t)n, sizeof *ft->scratch, compare_double);
    s.count = n;
    s.mean_ms = total / n;
    s.median_ms = n % 2 ? ft->scratch[n / 2] : 0.5 * (ft->scratch[n / 2 - 1] + ft->scratch[n / 2]);
    s.fps = total > 0 ? 1e3 * n / total : 0;
    return s;
}

frame_times_summary frame_times_last(frame_times *ft, int n)
{
    return newest(ft, n);
}

frame_times_summary frame_times_since(frame_times *ft, double seconds)
{
    if (ft->count == 0)
        return (frame_times_summary){0};
    const double newest_end = ft->end[(ft->next - 1 + FRAME_TIMES_KEPT) % FRAME_TIMES_KEPT];
    int n = 0;
    while (n < ft->count &&
           newest_end - ft->end[(ft->next - 1 - n + FRAME_TIMES_KEPT) % FRAME_TIMES_KEPT] < seconds)
        n++;
    return newest(ft, n);
}

void frame_times_format(const frame_times_summary *s, char *out, size_t size)
{
    if (s->count == 0)
        snprintf(out, size, "– fps");
    else
        snprintf(out, size, "%.0f fps · %.1f ms (worst %.1f)", s->fps, s->mean_ms, s->worst_ms);
}
