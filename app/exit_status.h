/* exit_status.h - the process exit statuses every ppflow command returns.
 *
 *     EXIT_STATUS_OK            success
 *     EXIT_STATUS_IO            a failure after the input was found good (a
 *                               full disk, no EGL, no display)
 *     EXIT_STATUS_USAGE         bad input: an unknown command, flag or format,
 *                               a bad scenario or script, a scenario over the
 *                               budget (budget.h), an -o target refused
 *     EXIT_STATUS_INTERRUPTED   SIGINT or SIGTERM while an -o file or an
 *                               export was being written (nothing is left)
 *
 * Its own header so that a command (render_command.c, viewer.c) need not
 * include the command line that calls it.
 */
#ifndef PPFLOW_EXIT_STATUS_H
#define PPFLOW_EXIT_STATUS_H

enum {
    EXIT_STATUS_OK = 0,
    EXIT_STATUS_IO = 1,
    EXIT_STATUS_USAGE = 2,
    EXIT_STATUS_INTERRUPTED = 130,
};

#endif
