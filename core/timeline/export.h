/* export.h - machine-readable forms of a simulated iteration.
 *
 * Writers for the JSON timeline (`ppflow schedule --format json`) and the
 * Chrome Trace Event JSON that Perfetto and chrome://tracing open
 * (`--format chrome-trace`). Both write straight to a FILE* (no document
 * tree in memory: a P=64, M=2048 timeline has half a million actions).
 *
 * JSON timeline keys: schedule, ranks, stages, virtual, microbatches, dp,
 * makespan, compute_end, bubble_fraction, bubble_ratio, allreduce_exposed,
 * per_rank [{rank, busy, idle, peak_activations}], actions [{rank, stage,
 * microbatch, kind, start, end, text}] (compute actions only; an overlapped
 * pair is one entry of kind "OVERLAP_F_B" whose stage/microbatch are the F
 * half's and b_stage/b_microbatch the B half's), transfers [{kind ("p2p_f",
 * "p2p_b", "allreduce"), src_rank, dst_rank, stage, microbatch, start, end}]
 * (the p2p transfers first, in timeline_next_p2p() order, then the
 * all-reduces), and with export_timeline_json_beats beats [{t, title,
 * caption, and camera and notes when set}] (beats.h), in the form a
 * scenario's "beats" takes, so they can be copied into one.
 *
 * Chrome trace: one process "pipeline", one thread (track) per rank named
 * "rank R", compute actions as complete ("X") events, p2p transfers as flow
 * arrows ("s"/"f") from the producing action to the consuming rank, and one
 * track per rank for its all-reduces. Times are written in microseconds with
 * one time unit = 1000 us, so Perfetto shows time units as milliseconds.
 */
#ifndef PPFLOW_EXPORT_H
#define PPFLOW_EXPORT_H

#include <stdio.h>

#include "beats.h"
#include "timeline.h"

void export_timeline_json(const timeline *tl, FILE *f);
/* export_timeline_json with "beats" last (`ppflow schedule --format json`);
 * beats NULL writes none. */
void export_timeline_json_beats(const timeline *tl, const beat_list *beats, FILE *f);
void export_chrome_trace(const timeline *tl, FILE *f);

#endif
