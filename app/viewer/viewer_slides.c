/* viewer_slides.c - moving the viewer's state to another slide. See
 * viewer_slides.h. */
#include "viewer_slides.h"

#include "viewer_core.h"

#include <stdio.h>

#include "timeline_panel.h"

int viewer_slides_target(viewer_state *v, bool *backwards)
{
    int k = v->talk.slide + v->talk.slide_change;
    *backwards = v->talk.slide_change < 0;
    v->talk.slide_change = 0;
    return k < 0 ? 0 : k >= v->talk.slide_count ? v->talk.slide_count - 1 : k;
}

void viewer_slides_show(viewer_state *v, const deck *d, int k, bool at_end, double clock)
{
    const session *s = d->slides[k];
    v->talk.slide = k;
    v->talk.slide_count = d->count;
    v->talk.slide_change = 0;
    /* nothing of the old slide's time goes on; the slide's own camera, and
     * its first beat (or its last, going back) */
    const int beats = s->beats.count;
    viewer_state_follow(v, s,
                        &(viewer_follow){
                            .relative_speed = v->play.speed / session_default_speed(v->s),
                            .camera = d->info[k].has_camera ? (int)d->info[k].camera : -1,
                            .land = beats > 0 ? (at_end ? beats - 1 : 0) : -1,
                            .beat = -1,
                            .t = at_end ? s->tl.makespan : 0,
                        },
                        clock);
}

void viewer_slides_title(const deck *d, int k, char *out, size_t size)
{
    if (d->count > 1)
        snprintf(out, size, "ppflow — %s (slide %d/%d)", deck_slide_title(d, k), k + 1, d->count);
    else
        snprintf(out, size, "ppflow — %s", deck_slide_title(d, k));
}

/* ---- in the running viewer ------------------------------------------------ */

/* The title the presenter names after slide k's last beat; NULL after the
 * talk's last. */
const char *viewer_next_slide_title(const deck *d, int k)
{
    return k + 1 < d->count ? d->info[k + 1].title : NULL;
}

/* Next past a slide's last beat, or Previous before its first: the other
 * slide (viewer_slides.h). The renderers follow the session they draw
 * (frame.h): nothing is made here that could fail. */
void viewer_change_slide(viewer *v, double clock)
{
    bool backwards;
    const int k = viewer_slides_target(&v->st, &backwards);
    const session *s = v->deck->slides[k];
    presenter_show_slide(&v->pres, s, v->deck->info[k].notes, viewer_next_slide_title(v->deck, k));
    whatif_line_close(&v->whatifs[v->st.talk.slide].line); /* the slide left keeps its changes */
    v->whatifs[v->st.talk.slide].error[0] = '\0';
    viewer_slides_show(&v->st, v->deck, k, backwards, clock);
    char title[200];
    viewer_slides_title(v->deck, k, title, sizeof title);
    window_set_title(&v->win, title);
}
