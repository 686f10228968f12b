/* scratch.h - a temporary directory per test program, for tests that write
 * files and then check what was left behind (test_cli, test_limits,
 * test_video, test_image_png).
 *
 * Call order:
 *     static char dir[256];
 *     scratch_init(dir, sizeof dir, "ppflow_test_cli");   group setup
 *     scratch_put(path, sizeof path, dir, "in.json", "{}");  a file to read
 *     ... write into dir; scratch_count(dir, NULL) == 0 ...
 *     scratch_empty(dir);                                  between tests
 *     scratch_deinit(dir);                                 group teardown
 *   or, with cmocka's fixtures, the directory as the group's state:
 *     static int setup(void **state)
 *     {
 *         return scratch_setup(state, dir, sizeof dir, "ppflow_test_cli");
 *     }
 *     cmocka_unit_test_setup(test_x, scratch_before_each), ...
 *     cmocka_run_group_tests(tests, setup, scratch_teardown);
 *
 * What it does not do: no locking, no cleanup after a crash (the directory
 * stays in $TMPDIR for a look at what the failing test left).
 */
#ifndef PPFLOW_TEST_SCRATCH_H
#define PPFLOW_TEST_SCRATCH_H

#include <stdbool.h>
#include <stddef.h>

/* Creates a fresh directory "$TMPDIR/NAME.XXXXXX" (TMPDIR unset: /tmp) and
 * writes its path into dir; false when it cannot. */
bool scratch_init(char *dir, size_t size, const char *name);

/* Removes everything inside dir (subdirectories too); dir stays. */
void scratch_empty(const char *dir);

/* Empties and removes dir; accepts an empty string (no directory made). */
void scratch_deinit(const char *dir);

/* Entries of dir other than ".", ".." and the names in `ignore` (a NULL-
 * terminated list, or NULL); fails the current test when dir cannot be read. */
int scratch_count(const char *dir, const char *const *ignore);

/* True when something (a file, a directory, a link) exists at path. */
bool scratch_exists(const char *path);

/* "DIR/NAME" into buf; fails the current test when it does not fit. */
void scratch_join(char *buf, size_t size, const char *dir, const char *name);

/* Writes size bytes of data as the whole file at path; fails the current
 * test when it cannot. */
void scratch_write_bytes(const char *path, const void *data, size_t size);

/* scratch_write_bytes of a string, without its NUL. */
void scratch_write(const char *path, const char *text);

/* scratch_join, then scratch_write: the file "DIR/NAME" holding text, its
 * path written into path (size bytes) for the test to hand on. */
void scratch_put(char *path, size_t size, const char *dir, const char *name, const char *text);

/* cmocka fixtures over the directory in *state. scratch_setup is the body of
 * a group setup: scratch_init, then *state = dir; 0, or -1 when it cannot.
 * scratch_before_each empties the directory (a test's setup), and
 * scratch_teardown removes it (the group's teardown). */
int scratch_setup(void **state, char *dir, size_t size, const char *name);
int scratch_before_each(void **state);
int scratch_teardown(void **state);

#endif
