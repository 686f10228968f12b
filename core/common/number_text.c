/* number_text.c - numbers as a person reads them. See number_text.h. */
#include "number_text.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

const char *number_text_format(double v, char buf[NUMBER_TEXT_MAX])
{
    if (!isfinite(v) || fabs(v) >= 1e15) {
        snprintf(buf, NUMBER_TEXT_MAX, "%.6g", v);
        return buf;
    }
    if (fabs(v - round(v)) < 1e-9) {
        snprintf(buf, NUMBER_TEXT_MAX, "%.0f", round(v) == 0 ? 0.0 : round(v));
        return buf;
    }
    snprintf(buf, NUMBER_TEXT_MAX, "%.4f", v);
    char *end = buf + strlen(buf);
    while (end > buf && end[-1] == '0')
        *--end = '\0';
    if (end > buf && end[-1] == '.')
        end[-1] = '\0';
    if (strcmp(buf, "-0") == 0)
        strcpy(buf, "0");
    return buf;
}

number_text number_text_of(double v)
{
    number_text n;
    number_text_format(v, n.s);
    return n;
}

const char *number_text_list(const double *v, int n, char buf[NUMBER_TEXT_MAX])
{
    double lo = v[0], hi = v[0];
    bool same = true;
    for (int k = 1; k < n; k++) {
        same &= v[k] == v[0];
        lo = fmin(lo, v[k]);
        hi = fmax(hi, v[k]);
    }
    if (same)
        return number_text_format(v[0], buf);
    char a[NUMBER_TEXT_MAX], b[NUMBER_TEXT_MAX];
    snprintf(buf, NUMBER_TEXT_MAX, "%s..%s", number_text_format(lo, a), number_text_format(hi, b));
    return buf;
}
