/* stop_signals.c - SIGINT and SIGTERM into a flag during an export. See
 * stop_signals.h. */
#include "stop_signals.h"

#include <stddef.h>

/* Set by the handler, polled by the recorder between frames. */
static volatile sig_atomic_t caught;

static void on_stop_signal(int sig)
{
    caught = sig;
}

void stop_signals_install(stop_signals *saved)
{
    struct sigaction act = {0};
    act.sa_handler = on_stop_signal;
    sigemptyset(&act.sa_mask);
    caught = 0;
    sigaction(SIGINT, &act, &saved->old_int);
    sigaction(SIGTERM, &act, &saved->old_term);
}

void stop_signals_restore(const stop_signals *saved)
{
    sigaction(SIGINT, &saved->old_int, NULL);
    sigaction(SIGTERM, &saved->old_term, NULL);
}

volatile sig_atomic_t *stop_signals_flag(void)
{
    return &caught;
}

int stop_signals_caught(void)
{
    return caught;
}
