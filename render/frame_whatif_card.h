/* frame_whatif_card.h - the what-if command line's card, part of the frame
 * (frame.h's frame_whatif_card): drawn by frame_renderer_draw after the
 * timeline and before the key card, so the key card covers it and it
 * covers the caption.
 *
 * The card spans the foot of the 3D view down to the divider: the typed
 * text in the large size after a ":" prompt, with a cursor (its start cut
 * off when it is wider than the card, so the end being typed shows), then
 * the hint and the error in the body size, each shortened with an ellipsis
 * to one line. Closed (text NULL) with an error, only the error shows (a
 * direct key's change that was refused). Nothing else of the frame moves.
 *
 * Private to render/ (frame.c calls it); no state.
 */
#ifndef PPFLOW_FRAME_WHATIF_CARD_H
#define PPFLOW_FRAME_WHATIF_CARD_H

#include "frame.h"

/* Appends the card to f's 2D batch in the layout's 3D view. */
void frame_whatif_card_draw(frame_renderer *f, const frame_layout *l, const frame_whatif_card *c,
                            const theme *th);

#endif
