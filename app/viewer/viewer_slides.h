/* viewer_slides.h - a talk's slides in the live viewer: the state moved to
 * another slide's session when Next goes past a slide's last beat or
 * Previous before its first (viewer_state.slide_change).
 *
 * What a slide change keeps and what it resets, as a lecturer expects:
 * kept are presenting mode, the theme, the UI scale, the divider, the
 * speed relative to each slide's default (a slide twice as long plays for
 * as long at the same setting) and the camera: a preset (or key 0's fit)
 * is fitted again to the new scene, a view the user orbited to stays as it
 * is; unless the new slide names a camera (its "camera"), which is placed
 * at once. Reset are the timeline's zoom (fitted to the new iteration), the
 * key card's goto typing, any playback, and the beat: Next lands on the new
 * slide's first beat, Previous on the previous slide's last beat's end
 * state (nothing replayed), as Previous does within a slide.
 *
 * What it does not do: no GL. The frame renderer is made for the new
 * slide's scene by the loop (viewer.c), which calls viewer_slides_target
 * first, makes the renderer, then viewer_slides_show; a renderer that
 * cannot be made leaves the slide as it was.
 *
 * Call order, after each command the state applied:
 *     if (st.slide_change) {
 *         int k = viewer_slides_target(&st);          the request taken
 *         ... a frame renderer for deck->slides[k] ...
 *         viewer_slides_show(&st, deck, k, at_end, clock);
 *     }
 */
#ifndef PPFLOW_VIEWER_SLIDES_H
#define PPFLOW_VIEWER_SLIDES_H

#include <stdbool.h>

#include "deck.h"
#include "viewer_state.h"

/* The slide asked for (the current one and slide_change, within the deck),
 * and the request cleared; *backwards set when it came from Previous. */
int viewer_slides_target(viewer_state *v, bool *backwards);
/* Shows slide k of the deck (its session built whole, scene included): see
 * above. at_end: on its last beat (Previous), else on its first. */
void viewer_slides_show(viewer_state *v, const deck *d, int k, bool at_end, double clock);
/* The window's title for slide k: "ppflow — GPipe (slide 1/4)", or
 * "ppflow — 1F1B   P=4 ..." for a deck of one. */
void viewer_slides_title(const deck *d, int k, char *out, size_t size);

#endif
