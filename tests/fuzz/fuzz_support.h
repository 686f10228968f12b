/* fuzz_support.h - what every ppflow fuzz target checks of a rejection. */
#ifndef PPFLOW_FUZZ_SUPPORT_H
#define PPFLOW_FUZZ_SUPPORT_H

#include "error.h"

/* Every rejection explains itself on one non-empty printable line; anything
 * else stops the fuzzer with the input that caused it. */
static inline void fuzz_check_message(const ppf_error *err)
{
    if (err->message[0] == '\0')
        __builtin_trap();
    for (const unsigned char *c = (const unsigned char *)err->message; *c; c++)
        if (*c < 0x20 || *c == 0x7F)
            __builtin_trap();
}

#endif
