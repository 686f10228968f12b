/* check.c - the functions behind assert_message and assert_printable. See
 * check.h. */
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
    check_printable_at(message, file, line);
}

void check_printable_at(const char *s, const char *file, int line)
{
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c < 0x20 || *c == 0x7F || (c[0] == 0xC2 && c[1] >= 0x80 && c[1] <= 0x9F)) {
            print_error("control byte 0x%02X in \"%s\"\n", *c, s);
            _fail(file, line);
        }
    }
}
