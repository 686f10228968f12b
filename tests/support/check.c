/* check.c - the function behind assert_message. See check.h. */
#include "check.h"

#include <stdio.h>
#include <string.h>

void check_message_at(const char *message, const char *const *pieces, const char *file, int line)
{
    for (const char *const *p = pieces; *p; p++) {
        if (!strstr(message, *p)) {
            print_error("message \"%s\" lacks \"%s\"\n", message, *p);
            _fail(file, line);
        }
    }
    for (const unsigned char *c = (const unsigned char *)message; *c; c++) {
        if (*c < 0x20 || *c == 0x7F) {
            print_error("message has control byte 0x%02X: %s\n", *c, message);
            _fail(file, line);
        }
    }
}
