/* stop_signals.h - SIGINT and SIGTERM turned into a flag for the length of
 * a long export (render_command.c, per_beat.c), so that a user's ctrl+C
 * stops it between frames and leaves no half-written file.
 *
 * What it does: stop_signals_install clears the flag and sets one handler
 * for SIGINT and SIGTERM that stores the signal's number in it, keeping the
 * handlers it replaces; stop_signals_restore puts those back. The recorder
 * polls the flag (recorder_desc.stop); the caller reads which signal came
 * with stop_signals_caught, before or after restoring (restoring leaves the
 * flag as it is).
 *
 * What it does not do: no files and no exit (the recorder removes its
 * temporaries, the caller chooses the message and the exit status; a signal
 * outside install/restore is output.h's guard's or the default's). One
 * flag for the process: one export at a time.
 *
 * Call order:
 *     stop_signals saved;
 *     stop_signals_install(&saved);
 *     ... recorder_run with .stop = stop_signals_flag() ...
 *     stop_signals_restore(&saved);
 *     if (stop_signals_caught() == SIGTERM) ...
 *
 * Errors: none; sigaction cannot fail for these two signals.
 */
#ifndef PPFLOW_STOP_SIGNALS_H
#define PPFLOW_STOP_SIGNALS_H

#include <signal.h>

/* The handlers install replaced, for restore. */
typedef struct stop_signals {
    struct sigaction old_int, old_term;
} stop_signals;

/* Clears the flag and catches SIGINT and SIGTERM into it; saved keeps the
 * handlers they had. */
void stop_signals_install(stop_signals *saved);

/* Puts back the handlers install saved; the flag keeps its value. */
void stop_signals_restore(const stop_signals *saved);

/* The flag, for recorder_desc.stop: nonzero once a signal came. */
volatile sig_atomic_t *stop_signals_flag(void);

/* The signal that came since install (SIGINT or SIGTERM), 0 if none. */
int stop_signals_caught(void);

#endif
