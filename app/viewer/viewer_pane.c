/* viewer_pane.c - the window's panes. See viewer_pane.h. */
#include "viewer_pane.h"

void viewer_panes_close_from(viewer_panes *p, int from)
{
    for (int k = from; k < p->count; k++) {
        viewer_pane *q = &p->pane[k];
        frame_cache_deinit(&q->cache);
        if (q->owned)
            session_free(q->s);
        *q = (viewer_pane){0};
    }
    if (p->count > from)
        p->count = from;
}
