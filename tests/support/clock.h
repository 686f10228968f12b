/* clock.h - a monotonic clock and a sleep, for tests that wait for
 * something outside them (a child process reaching a state, a window, a
 * screenshot) with a bound, or that time how long a child took.
 *
 * What it does not do: nothing in ppflow reads a clock outside the viewer's
 * loop, so these are for the tests' own waiting only, never for what a
 * test compares (times in ppflow come from frame numbers).
 *
 * Use:
 *     const double end = now_seconds() + 20;
 *     while (!ready() && now_seconds() < end)
 *         sleep_seconds(0.002);
 */
#ifndef PPFLOW_TEST_CLOCK_H
#define PPFLOW_TEST_CLOCK_H

/* Seconds on CLOCK_MONOTONIC: differences only, the origin is arbitrary. */
double now_seconds(void);

/* Sleeps for s seconds (s >= 0), resumed after a signal interrupts it. */
void sleep_seconds(double s);

#endif
