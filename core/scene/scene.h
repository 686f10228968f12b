/* scene.h - the 3D picture of one iteration, and what every object in it
 * looks like at any instant t.
 *
 * Layout: a grid of GPUs on a floor, z up. Pipeline rank r runs along x,
 * data-parallel replica d along y (replica 0 in front): each GPU (r, d) is
 * a plate (SCENE_GPU) with, side by side along x in stage order, a block
 * per stage it holds (SCENE_BLOCK: one for 1F1B, two for interleaved and V
 * placements, whatever a CSV gives), beside its first block one tower of
 * activation tiles (SCENE_STACK), and between neighbouring plates the
 * wires: p2p lanes along x (what goes towards higher ranks in front,
 * towards lower ranks behind; sends past other GPUs arc over the row) and
 * all-reduce wires along y, one per layer under its share of the block.
 * Sizes come from the matmul detail (below): a block is the stage's detail
 * scaled by DETAIL_SCALE (16 x 24 x 8 at the defaults), margins and gaps
 * are in `unit` (a sixteenth of the block's smaller side), and the
 * scenario's stage_gap and replica_gap set the gaps between plates.
 *
 * The matmul detail (DESIGN.md, "The 3D picture"): inside each block, a
 * linear layer's matmul is a box with edges (batch, input width, output
 * width) and its input activation, weight and output activation are three
 * faces of that box. In the detail's own axes (detail_box maps them into
 * the block):
 *     x  the stage's layers in model order, each d_hidden long.
 *     y  the batch, micro-batch m a slice of it; weights stand at its far end.
 *     z  the model width: layer l reads x^l from one half (z in [0, d_model]
 *        for even l, [-d_model, 0] for odd l), writes h^l on the plane z = 0
 *        and x^(l+1) into the other half: residuals alternate above and below.
 * Objects (kind, index, micro-batch, replica): per layer W1, W2 (faces) and an
 * all-reduce wire in every gap between neighbouring replicas; per layer and
 * micro-batch the hidden face h^l, the residual face x^(l+1) at the layer's
 * end and the two matmul boxes; per stage and micro-batch the stage's input
 * face x^(first layer) and, between stage s and s+1, a p2p wire and a slab
 * (the tensor crossing it); per layer and replica one gradient chunk of the
 * all-reduce; per stage its block and tiles; per rank its plate. Replicas
 * run the same schedule, so an object's state does not depend on its
 * replica; where a moving object is does (scene_object_place).
 *
 * Levels (scene_level): what a frame draws follows how large the GPUs are
 * on screen. The GPU level is the default: plates, blocks in the colour
 * and pattern of the action running (the timeline's: F solid green, B
 * hatched vermillion, I lighter, W blue dots, F+B crosshatched, idle a
 * low grey block, an idle stage being all-reduced solid purple), tiles,
 * wires and tensors. Blocks SCENE_LEVEL_DETAIL_PX wide or more (zoomed in)
 * show the matmul detail inside them over a low base in the action's
 * colour. Plates under SCENE_LEVEL_GPU_PX (P=64 and more at 1080p) are
 * the cluster level: each stage one column in its action's colour whose
 * height is the activations it holds, no tensors, axes labelled.
 *
 * Depth: nothing drawn with depth shares a plane with another face seen
 * from the same side (tests/test_scene.c holds it): blocks and tiles stand
 * on plates, tensors and chunks ride on their wires, matmul boxes stand a
 * hair inside the faces on them; shadows and lanes lie on the floor, drawn
 * without depth writes after what stands on them.
 *
 * state(t) - scene_state_at() - is a pure function of (scene, t), the scene
 * holding its timeline: it keeps nothing between calls, so any t in any
 * order gives the same answer (scrubbing, reverse play and export rely on
 * it). Inside an action's [start, end] its sub-steps - each layer's two
 * matmuls, in model order for F and reversed for B, I and W - take equal
 * shares of the time.
 *   F        lights the stage's matmul boxes one after another (only the
 *            running one is visible); each output
 *            face (h, then x) fades in in the activation role.
 *   B, I     sweep back: each matmul's backward turns its input face into a
 *            gradient (label ∇h, ∇x); the gradient for the stage's output
 *            shows from its arrival.
 *   W, or the weight half of B: each matmul's weight face fills with the
 *            gradient colour, 1/M per micro-batch (fill accumulates).
 *   Memory   a (stage, micro-batch)'s activations vanish when freed, at the
 *            end of its last backward part (B, or W when split): GPipe piles
 *            up M micro-batches, 1F1B at most P. Each stage's tiles count
 *            them: tile k shows while more than k are live (timeline.h's
 *            rule), and a GPU's tiles stand on one tower, so GPipe's grows
 *            to M while 1F1B's stays at P - rank. A stage's last output leaves
 *            when its p2p send completes (the next stage's input face takes over;
 *            it shows faintly until the stage's F starts, since the timeline
 *            counts a micro-batch as live from the start of its F).
 *   Flashes  p2p wires during each send (forward: activation; backward:
 *            gradient, label variant GRAD), all-reduce boxes during their
 *            stage's all-reduce.
 *   Tensors  during a send, a slab in the tensor's colour (activation
 *   flow     forward, gradient backward, hatched) travels along its lane from
 *            the sender's plate to the receiver's: travel 0 at the send's
 *            start, 1 at its end (eased: smoothstep in t). During an
 *            all-reduce each replica's chunk of every layer's gradient moves
 *            between replicas' weights: a ring runs 2(D-1) equal steps (D-1
 *            reduce-scatter, D-1 all-gather) in which every replica r sends
 *            one of the D chunks of the layer to replica r+1 mod D (chunk
 *            r-k mod D at reduce-scatter step k, r+1-k mod D at all-gather
 *            step k); a tree runs 2 ceil(log2 D) steps, reducing up a binary
 *            tree to replica 0 (step k: r = 2^k mod 2^(k+1) sends to
 *            r - 2^k) and broadcasting back down, each step carrying the
 *            whole gradient (the pipelined tree streams it; drawn as one
 *            block). A chunk that passes over other replicas (the ring's
 *            wrap, long tree edges) arcs above the picture.
 *   Zero     a transfer shorter than flash_min is shown over [start,
 *   time     start + flash_min]: its tensor crosses in max(its time,
 *            flash_min / 2) and waits at the receiver's edge for the rest.
 *            flash_min defaults to 1/40 of the iteration: at the default
 *            playback (the iteration in 20 s) half a second, 15 frames of a
 *            30 fps video, enough to follow; the timeline stays exact, and
 *            a tensor shown past its arrival fades to SCENE_ARRIVED_OPACITY
 *            (within flash_min / 10 of it) and draws unlabelled: what is
 *            solid is what the schedule has in flight at that t. A still
 *            (scene_state_exact_at) has no motion to follow: it shows each
 *            transfer over its own time only, nothing faint (readers of
 *            stills could not tell a faint tensor's way from one arriving).
 *   Blocks   a stage's block wears what runs on it (action; flash 1 while
 *            one runs), one height whatever it does.
 *   Towers   the tiles of a GPU's stages stand on one tower (travel: a
 *            tile's level), so its height counts the GPU's activations.
 *
 * Level    a band is drawn in at most max_slots slices (512 by default).
 * of       With more micro-batches than that, consecutive micro-batches
 * detail   share a slot: slot_size = ceil(M / max_slots) of them (the last
 *          slot may hold fewer). Their slices would be thinner than a pixel
 *          unless the band stood over 512 pixels tall on screen. A slot
 *          shows its most opaque member (then the one that flashes most,
 *          then the first), so a running matmul or a tensor in flight is
 *          never lost in the merge; stack block j shows while more than
 *          j * slot_size micro-batches are live. Memory and the work of
 *          state(t) grow with slots, not with M, and a scenario with
 *          M <= max_slots is drawn exactly as without this rule.
 *
 * What it does not do: no GL, no pixels, no camera; render/ turns states into
 * instances, and picks which labels to draw. No timing rules of its own: when
 * a (stage, micro-batch) is computed, arrives and is freed, and what runs or
 * waits at t, come from timeline_query.h.
 *
 * Files: scene.c lays the picture out and labels it; scene_state.c holds
 * state(t) and the caption.
 *
 * Call order:
 *     scene sc; scene_init(&sc, &(scene_desc){ .d_model = 8, ... }, &timeline);
 *     scene_state st; scene_state_init(&st, &sc);
 *     each frame: scene_state_at(&sc, t, &st); read st.kind[...] ...
 *     scene_state_deinit(&st); scene_deinit(&sc);
 * The timeline (and its program) must outlive the scene.
 *
 * Errors: none at run time; scene_init asserts on a timeline that is not a
 * simulated, validated program. Sizes are checked where the scenario is read.
 */
#ifndef PPFLOW_SCENE_H
#define PPFLOW_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "timeline.h"
#include "timeline_query.h"

/* The picture's sizes when a scene_desc leaves them zero, in scene units;
 * the scenario's defaults (scenario.h) are these. */
enum {
    SCENE_DEFAULT_LAYERS_PER_STAGE = 2,
    SCENE_DEFAULT_D_MODEL = 8,
    SCENE_DEFAULT_D_HIDDEN = 16,
    SCENE_DEFAULT_BATCH = 48,
    SCENE_DEFAULT_STAGE_GAP = 12,
    SCENE_DEFAULT_REPLICA_GAP = 16,
    SCENE_DEFAULT_MAX_SLOTS = 512,
};

/* Sizes of the picture. Start from scene_desc_defaults(); a size at or
 * below zero takes its default (nothing can be drawn without it), a gap
 * below zero is no gap. */
typedef struct scene_desc {
    int layers_per_stage; /* K layers drawn per stage (virtual stages included) */
    float d_model;        /* z extent of a residual face */
    float d_hidden;       /* x extent of a layer */
    float batch;          /* y extent of a replica's band */
    float stage_gap;      /* x gap between stages; 0 = none */
    float replica_gap;    /* y gap between replicas; 0 = none */
    float flash_min;      /* shortest visible flash, timeline units; 0: makespan / 200 */
    bool allreduce_tree;  /* chunks follow the tree's pattern; false: the ring's */
    int max_slots;        /* micro-batch slices drawn per band ("Level of detail"); 0: default */
} scene_desc;

/* The SCENE_DEFAULT_* sizes. */
scene_desc scene_desc_defaults(void);

typedef enum scene_kind {
    SCENE_WEIGHT1 = 0, /* per layer: W1, the first matmul's weight */
    SCENE_WEIGHT2,     /* per layer: W2 */
    SCENE_HIDDEN,      /* per layer x micro-batch: h^l */
    SCENE_RESIDUAL,    /* per layer x micro-batch: x^(l+1), the layer's output */
    SCENE_INPUT,       /* per stage x micro-batch: x^(first layer), the stage's input */
    SCENE_MATMUL1,     /* per layer x micro-batch: x^l W1 -> h^l */
    SCENE_MATMUL2,     /* per layer x micro-batch: h^l W2 -> x^(l+1) */
    SCENE_P2P,         /* per stage boundary (s, s+1) x micro-batch */
    SCENE_ALLREDUCE,   /* per layer, in every gap between neighbouring replicas */
    SCENE_SLAB,        /* per stage boundary x micro-batch: the tensor a send carries */
    SCENE_CHUNK,       /* per layer, one per replica: its gradient chunk in the all-reduce */
    SCENE_STACK,       /* per stage x slot k: block k of the stage's live-activation stack */
    SCENE_GPU,         /* per rank: the GPU's plate, on the ground */
    SCENE_BLOCK,       /* per stage: the stage's block on its GPU, in the colour of what runs */
    SCENE_KIND_COUNT
} scene_kind;

/* What colour an object takes; render/ maps roles to a theme's palette. */
typedef enum scene_role {
    SCENE_ROLE_WEIGHT = 0,
    SCENE_ROLE_ACTIVATION,
    SCENE_ROLE_GRADIENT,
    SCENE_ROLE_MATMUL,
    SCENE_ROLE_P2P,
    SCENE_ROLE_ALLREDUCE,
    SCENE_ROLE_GPU,     /* a GPU's plate */
    SCENE_ROLE_COMPUTE, /* a stage block: its colour and pattern are object_state.action's */
    SCENE_ROLE_COUNT
} scene_role;

typedef enum scene_label_variant {
    SCENE_LABEL_PLAIN = 0, /* x³, h², W₁⁰; a forward send */
    SCENE_LABEL_GRAD,      /* ∇x³, ∇h²; a backward send */
} scene_label_variant;

/* One object's look at t. 16 bytes. */
typedef struct object_state {
    uint8_t visible; /* 0: not drawn at all */
    uint8_t role;    /* scene_role */
    uint8_t label;   /* scene_label_variant; a slab's GRAD: a backward send */
    uint8_t action;  /* a stage block's: the action_kind running (ACTION_IDLE: none) */
    float opacity;   /* 0..1: fades in while being computed */
    float flash;     /* 0..1: a matmul running now, a transfer in flight (a slab's: 1
                        until it has arrived); for weights, the fraction of their
                        gradient accumulated */
    float travel;    /* 0..1: a slab's or chunk's way through its transfer; a stack tile's
                        level on its GPU's tower (0, 1, ...); else 0 */
} object_state;

/* What a stage is doing at t. */
typedef struct stage_focus {
    int8_t kind;        /* ACTION_F, B, I, W (an overlapped pair's halves count as F and B),
                           or ACTION_IDLE when the stage's rank works on no action of it */
    int32_t microbatch; /* -1 when idle */
    int32_t layer;      /* layer whose matmul runs now; -1 when idle */
    float progress;     /* 0..1 through the action */
} stage_focus;

typedef struct scene_box {
    float min[3], max[3]; /* a face has min == max along its normal */
} scene_box;

typedef struct scene {
    const timeline *timeline; /* not owned */
    uint64_t generation;      /* the timeline's generation when the scene was laid out: a
                                 scene is of one build of its timeline */
    int stages, layers, microbatches, replicas, ranks;
    int layers_per_stage;
    int slots;     /* micro-batch slices drawn per band: ceil(M / slot_size) */
    int slot_size; /* micro-batches per slot: ceil(M / max_slots), 1 when M fits */
    float d_model, d_hidden, batch, stage_gap, replica_gap;
    float flash_min;
    bool allreduce_tree;
    const int *stage_rank;   /* [stages], the program's map */
    timeline_cells cells;    /* each (stage, micro-batch)'s timing, gathered once */
    double *allreduce_start; /* [stages]; equal to end when none */
    double *allreduce_end;
    /* The GPU grid (see "Layout"), in scene units. */
    int stages_per_rank; /* V: the most stages one rank holds */
    int *stage_slot;     /* [stages]: the stage's place on its rank's plate, 0 .. V-1 */
    int *rank_stage0;    /* [ranks]: the rank's first stage (its tower stands beside it) */
    float detail_scale;  /* the matmul detail's size in its block: scene units per detail unit */
    float unit;          /* margins and gaps: a sixteenth of the block's smaller side */
    float block_w, block_d, block_h; /* a stage block's footprint, and its height when running */
    float plate_w, plate_d, plate_h; /* a GPU's plate */
    float pitch_x, pitch_y;          /* from one GPU to the next along ranks, replicas */
    float tile;                      /* an activation tile's side (the stack beside a block) */
    scene_box bounds;                /* everything, for fitting the camera */
    /* The corners of the parts of `bounds` that hold something (each
     * replica's band, the gaps between them, each stage's stack up to its
     * rank's peak): cameras frame these, not the box's empty corners. */
    float (*fit_points)[3];
    int fit_point_count;
    /* Per (stage, slot): the earliest and latest t at which any object of
     * the slot's micro-batches on that stage shows ([stage * slots + slot]);
     * state(t) skips slots whose span does not hold t. */
    double *slot_lo, *slot_hi;
} scene;

/* Every object's state at one t. Arrays are indexed [index * slots + j]
 * where index is the layer (or stage, or boundary) and j the micro-batch
 * slot (the micro-batch itself when slot_size is 1). */
typedef struct scene_state {
    double t;
    object_state *kind[SCENE_KIND_COUNT]; /* per kind, sized as scene_kind_count() */
    stage_focus *focus;                   /* [stages] */
    /* The scene the arrays were sized for: its generation and sizes, which
     * a scene rebuilt at the same address changes (scene_state_at checks
     * them, so state sized for another scene is never written). */
    uint64_t generation;
    int64_t sized[SCENE_KIND_COUNT];
    int sized_stages;
} scene_state;

/* Lays out the picture for a simulated timeline. */
void scene_init(scene *s, const scene_desc *desc, const timeline *tl);
void scene_deinit(scene *s); /* accepts a zeroed or deinited scene */

/* Number of objects of a kind in one replica (state array length). Below
 * 2^31 for every scene that passed scene_check_budget. */
int64_t scene_kind_count(const scene *s, scene_kind kind);

/* Slots drawn for this many micro-batches, at most max_slots
 * (SCENE_DEFAULT_MAX_SLOTS when 0): see "Level of detail". */
int scene_slots_for(int64_t microbatches, int max_slots);

/* Number of objects a scene of these sizes draws at the default level of
 * detail, over all replicas (the sum of scene_kind_count x
 * scene_kind_copies), in 64 bits so that it can be checked before the
 * scene exists. */
/* The same in double, for any sizes a scenario may ask (exact below 2^53,
 * a rough product past what 64 bits hold): what the budget compares. */
double scene_count_objects_rough(int64_t stages, int64_t layers_per_stage, int64_t microbatches,
                                 int64_t replicas);
/* scene_count_objects_rough against the budget (budget_check_objects):
 * false with one line naming the product and the limit. */
bool scene_check_budget(int64_t stages, int64_t layers_per_stage, int64_t microbatches,
                        int64_t replicas, ppf_error *err);
int64_t scene_count_objects(int64_t stages, int64_t layers_per_stage, int64_t microbatches,
                            int64_t replicas);
/* How many micro-batch slots an object of this kind has (slots, or 1 for
 * weights, all-reduce boxes and chunks, which are per layer). */
int scene_kind_slots(const scene *s, scene_kind kind);
/* The slot that draws micro-batch m, and the micro-batches [first, end) a
 * slot draws. */
int scene_slot_of(const scene *s, int microbatch);
void scene_slot_members(const scene *s, int slot, int *first, int *end);
/* Number of copies of a kind drawn: replicas, or replicas - 1 gaps for all-reduce boxes. */
int scene_kind_copies(const scene *s, scene_kind kind);

/* Merges one member's state into a slot's (scene.h, "Level of detail"):
 * the member replaces it when it is more opaque, or as opaque and flashing
 * more. Start from a hidden (zeroed) state. The renderer merges slots thinner
 * than a pixel by the same rule. */
void scene_slot_merge(object_state *slot, object_state member);

/* Where an object is, for copy `replica` (the gap index for all-reduce boxes);
 * `index` is the layer, stage or boundary; `slot` is the micro-batch slot
 * (scene_slot_of), ignored for per-layer kinds. Per-micro-batch objects are
 * inset slightly within their slice so neighbouring slots stay apart. */
scene_box scene_object_box(const scene *s, scene_kind kind, int index, int slot, int replica);

/* Where an object in state *o is drawn, for copy `replica`: scene_object_box
 * for still kinds; a slab or chunk where its travel puts it. False when this
 * copy is not drawn now (a tree step in which the replica sends nothing). A
 * moving object's place at travel 0 (and scene_object_box's for it) is at
 * its sender; at travel 1, at its receiver. Pure, like state(t). */
bool scene_object_place(const scene *s, scene_kind kind, int index, int slot, int replica,
                        const object_state *o, scene_box *out);

/* One all-reduce chunk move: in the step that `travel` falls in, replica
 * `replica` sends chunk `chunk` (of D, along the layer's x) to replica `to`,
 * `progress` (0..1) of the way. False when it sends nothing in that step.
 * The pattern is in the header's "Tensors flow". */
typedef struct scene_chunk_move {
    int step, steps; /* 0 .. steps - 1: 2(D-1) for a ring, 2 ceil(log2 D) for a tree */
    int chunk;       /* 0 .. D - 1; -1: the whole gradient (tree) */
    int to;          /* receiving replica */
    float progress;  /* 0..1 through the step */
} scene_chunk_move;
bool scene_chunk_move_at(const scene *s, int replica, float travel, scene_chunk_move *out);

/* Levels of detail (scene.h, "Levels"): what a frame draws, from how
 * large the GPUs are on screen. */
/* A tensor's opacity once its transfer is over, while it stays in sight
 * ("Zero time"): faint enough not to be counted as in flight, seen enough to
 * follow it to its receiver. */
#define SCENE_ARRIVED_OPACITY 0.3f

typedef enum scene_level {
    SCENE_LEVEL_CLUSTER = 0, /* plates under SCENE_LEVEL_GPU_PX: plates, blocks, stacks and
                                all-reduce wires; no tensors in flight, no per-GPU labels */
    SCENE_LEVEL_GPU,         /* GPUs, stage blocks, stacks, wires and the tensors on them */
    SCENE_LEVEL_DETAIL,      /* blocks of SCENE_LEVEL_DETAIL_PX and more: each stage's matmul
                                picture (weights, activations, matmul boxes) in its block */
} scene_level;
#define SCENE_LEVEL_GPU_PX 56.0f     /* a plate at least this wide on screen: GPU level */
#define SCENE_LEVEL_DETAIL_PX 320.0f /* a block at least this wide: the detail */
#define SCENE_LEVEL_TEXT_PX                                                                        \
    31.0f /* both are pixels of a frame whose small text's em is                                   \
             this (1080p's): labels need room in ems, not pixels */

/* The level for a plate and a block this many pixels wide on screen (where
 * the scene comes nearest the eye). */
scene_level scene_level_for(float plate_px, float block_px);
/* Whether a level draws (and picks) objects of this kind. */
bool scene_level_draws(scene_level level, scene_kind kind);

/* The most tiles one GPU's tower holds in the iteration: the most live
 * activations any rank holds at once (at most M), in slots. */
int scene_tallest_stack(const scene *s);

/* The stage a layer belongs to, and the x range of a stage. */
int scene_layer_stage(const scene *s, int layer);
void scene_stage_x(const scene *s, int stage, float *x0, float *x1);
/* The y range of a replica's band. */
void scene_replica_y(const scene *s, int replica, float *y0, float *y1);

/* Label of an object as UTF-8 ("W₁⁰", "h²", "x³", "∇x³", "x⁰"), "" for boxes. */
void scene_object_label(const scene *s, scene_kind kind, int index, scene_label_variant variant,
                        char *buf, size_t size);

/* Arrays sized for this scene; a state is of one scene (scene_state_of). */
void scene_state_init(scene_state *st, const scene *s);
void scene_state_deinit(scene_state *st); /* accepts a zeroed or deinited state */
/* Whether st was sized for s as it is now: its generation and sizes
 * (another build at the same address is another scene). */
bool scene_state_of(const scene_state *st, const scene *s);

/* Fills every object's state at t (clamped to [0, makespan]) from the
 * scene's own timeline. Pure: the result depends only on (s, t). The state
 * must be of this scene (scene_state_of; asserted). */
void scene_state_at(const scene *s, double t, scene_state *out);
/* The same with every transfer shown over its own time alone, none held on
 * screen past its arrival ("Zero time"): for a still, which has no motion
 * for the eye to follow. */
void scene_state_exact_at(const scene *s, double t, scene_state *out);

/* One line saying what a rank is doing at t, for the caption under the 3D
 * view: "rank 2: forward of micro-batch 5 on stage 2, then p2p to rank 3",
 * "rank 1: idle, waiting for micro-batch 0's gradient from rank 2"; the
 * idle case says what timeline_idle_wait() finds. */
void scene_caption(const scene *s, double t, int rank, char *buf, size_t size);

/* The rank whose current compute action started last at t (the natural
 * subject of the caption), or the rank with the latest end before t when
 * none is busy; 0 before anything starts. */
int scene_caption_rank(const scene *s, double t);

#endif
