/* action.h - one step of a pipeline program, and its PyTorch text form.
 *
 * An action is what one pipeline rank does next: a compute action on one
 * (stage, micro-batch) - F forward, B full backward, I backward for inputs,
 * W backward for weights - an overlapped F+B pair, a communication or FSDP
 * marker that PyTorch's runtime schedules carry (SEND_F, RECV_F, SEND_B,
 * RECV_B, UNSHARD, RESHARD, REDUCE_GRAD), or an idle step (an empty cell).
 *
 * The text form is exactly PyTorch's torch.distributed.pipelining IR:
 *     "2F5"  stage 2 forward of micro-batch 5     "1I0", "0W3", "0B3"
 *     "3SEND_F1", "1RECV_B2", "1UNSHARD", "0REDUCE_GRAD"
 *     "(0F7;7B3)OVERLAP_F_B"  forward of 0/7 overlapped with backward of 7/3
 *     ""     an idle step
 * action_parse() and action_format() are inverses: every string that parses
 * formats back to itself, byte for byte (no spaces, no leading zeros).
 *
 * An overlapped pair holds exactly one F half and one B half, in either text
 * order; `stage`/`microbatch` are the F half's and `stage2`/`microbatch2` the B
 * half's, and ACTION_FLAG_B_FIRST remembers the order for printing.
 *
 * Errors: action_parse() returns false and names the text and the rule.
 */
#ifndef PPFLOW_ACTION_H
#define PPFLOW_ACTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

typedef enum action_kind {
    ACTION_IDLE = 0,    /* empty cell: nothing to do at this step */
    ACTION_F,           /* forward */
    ACTION_B,           /* full backward (inputs and weights) */
    ACTION_I,           /* backward for inputs only */
    ACTION_W,           /* backward for weights only */
    ACTION_OVERLAP_F_B, /* an F and a B run overlapped as one block */
    ACTION_SEND_F,
    ACTION_RECV_F,
    ACTION_SEND_B,
    ACTION_RECV_B,
    ACTION_UNSHARD,
    ACTION_RESHARD,
    ACTION_REDUCE_GRAD,
    ACTION_KIND_COUNT
} action_kind;

enum { ACTION_FLAG_B_FIRST = 1 }; /* overlapped pair printed as (B;F) */

/* 16 bytes: programs of millions of actions stay small. */
typedef struct action {
    uint8_t kind;        /* action_kind */
    uint8_t flags;       /* ACTION_FLAG_* */
    uint16_t stage2;     /* OVERLAP_F_B: stage of the B half */
    int32_t stage;       /* stage index; F half's for OVERLAP_F_B; -1 for IDLE */
    int32_t microbatch;  /* micro-batch; -1 when the kind has none (UNSHARD, ...) */
    int32_t microbatch2; /* OVERLAP_F_B: micro-batch of the B half; else -1 */
} action;

enum { ACTION_TEXT_MAX = 64 }; /* longest formatted action, with the NUL */
enum { ACTION_MAX_STAGE = 65535, ACTION_MAX_MICROBATCH = 100000000 };

/* Constructors for the common cases. */
action action_make(action_kind kind, int stage, int microbatch);
action action_make_overlap(int f_stage, int f_microbatch, int b_stage, int b_microbatch);
static inline action action_idle(void)
{
    return action_make(ACTION_IDLE, -1, -1);
}

/* True for F, B, I, W and OVERLAP_F_B: the kinds that take compute time.
 * Inline: the simulator asks it once per action. */
static inline bool action_is_compute(action_kind kind)
{
    return kind >= ACTION_F && kind <= ACTION_OVERLAP_F_B;
}

/* The kind's name in the text form: "F", "SEND_F", "OVERLAP_F_B", "" for idle. */
const char *action_kind_name(action_kind kind);
/* What a compute kind does, in the words every caption, card and beat
 * uses: "forward", "backward", "backward for inputs", "backward for
 * weights", "overlapped forward and backward"; any other kind, its name. */
const char *action_kind_words(action_kind kind);

/* Parses one cell of PyTorch's text form (surrounding spaces allowed; an empty
 * or all-space string is an idle step). Returns false with a message naming
 * the text and the rule when it is not a valid action. */
bool action_parse(const char *text, size_t len, action *out, ppf_error *err);

/* Writes the canonical text form into buf (at least ACTION_TEXT_MAX bytes).
 * Returns the length written, without the NUL. */
size_t action_format(const action *a, char *buf);

/* Equality of every field that the text form carries. */
bool action_equal(const action *a, const action *b);

#endif
