/* pdf.c - the figure as a PDF through rsvg-convert. See pdf.h. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "pdf.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "quote.h"
#include "stop_signals.h"

/* ---- finding the converter ------------------------------------------------- */

static bool is_executable_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

bool pdf_converter_path(char *out, size_t size, ppf_error *err)
{
    const char *named = getenv(PDF_CONVERTER_ENV);
    if (named && named[0]) {
        if (named[0] != '/' || strlen(named) >= size || !is_executable_file(named))
            return ppf_fail(err,
                            PDF_CONVERTER_ENV " = %s: must be the absolute path of an executable "
                                              "file (" PDF_CONVERTER ", or a program that takes "
                                              "its arguments: SVG in, PDF out)",
                            quote_string(named).s);
        memcpy(out, named, strlen(named) + 1);
        return true;
    }
    /* execvp's own default when PATH is unset */
    const char *path = getenv("PATH") ? getenv("PATH") : "/bin:/usr/bin";
    const char *relative = NULL; /* the first relative entry that holds one */
    size_t relative_len = 0;
    for (const char *p = path;;) {
        const size_t len = strcspn(p, ":");
        char file[PDF_PATH_MAX];
        /* an empty entry means the current directory, as for execvp */
        const int n =
            snprintf(file, sizeof file, "%.*s/" PDF_CONVERTER, (int)(len ? len : 1), len ? p : ".");
        if (n > 0 && (size_t)n < sizeof file && is_executable_file(file)) {
            if (p[0] == '/' && (size_t)n < size) {
                memcpy(out, file, (size_t)n + 1);
                return true;
            }
            if (p[0] != '/' && !relative) {
                relative = len ? p : ".";
                relative_len = len ? len : 1;
            }
        }
        if (!p[len])
            break;
        p += len + 1;
    }
    if (relative)
        return ppf_fail(
            err,
            "a PDF needs " PDF_CONVERTER ": the one in PATH's relative entry %s is "
            "not run (only absolute entries are searched); name it with " PDF_CONVERTER_ENV
            "=/absolute/path, or install librsvg2-bin (Debian, Ubuntu)",
            quote_value(relative, relative_len).s);
    return ppf_fail(
        err, "a PDF needs " PDF_CONVERTER " in a directory of PATH: install librsvg2-bin "
             "(Debian, Ubuntu) or librsvg (Homebrew, Fedora), name it with " PDF_CONVERTER_ENV
             "=/absolute/path, or write --format svg");
}

bool pdf_converter_found(ppf_error *err)
{
    char path[PDF_PATH_MAX];
    return pdf_converter_path(path, sizeof path, err);
}

bool pdf_looks_whole(const char *bytes, size_t len)
{
    if (len < PDF_MIN_BYTES || memcmp(bytes, "%PDF-", 5) != 0)
        return false;
    /* The end-of-file marker, in the last KiB: a file cut short has none. */
    const size_t from = len > 1024 ? len - 1024 : 0;
    for (size_t k = len - 5; k + 1 > from; k--)
        if (memcmp(bytes + k, "%%EOF", 5) == 0)
            return true;
    return false;
}

/* ---- running it ------------------------------------------------------------ */

/* The converter while it runs: the leader of its own process group, so
 * that what it starts (a script's children) ends with it. */
typedef struct converter {
    pid_t pid;
    int in_fd;  /* its standard input, ours to write; -1 once closed */
    int out_fd; /* its standard output, ours to read; -1 once closed */
} converter;

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* Starts exe with the SVG's pipe as its standard input and the PDF's as its
 * standard output, in a process group of its own, with child_mask as its
 * signal mask. Called with SIGINT and SIGTERM blocked. */
static bool start_converter(converter *c, const char *exe, const sigset_t *child_mask,
                            ppf_error *err)
{
    *c = (converter){.pid = -1, .in_fd = -1, .out_fd = -1};
    int in[2], out[2];
    if (pipe(in) != 0)
        return ppf_fail(err, "cannot start %s: pipe: %s", quote_path(exe).s, strerror(errno));
    if (pipe(out) != 0) {
        const int e = errno;
        close(in[0]);
        close(in[1]);
        return ppf_fail(err, "cannot start %s: pipe: %s", quote_path(exe).s, strerror(e));
    }
    /* Every end closes on exec: the child keeps only its dup2'd 0 and 1. */
    for (int k = 0; k < 2; k++) {
        fcntl(in[k], F_SETFD, FD_CLOEXEC);
        fcntl(out[k], F_SETFD, FD_CLOEXEC);
    }
    const pid_t pid = fork();
    if (pid < 0) {
        const int e = errno;
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        return ppf_fail(err, "cannot start %s: fork: %s", quote_path(exe).s, strerror(e));
    }
    if (pid == 0) {
        /* the child: async-signal-safe calls only */
        setpgid(0, 0);
        struct sigaction dfl = {.sa_handler = SIG_DFL};
        sigemptyset(&dfl.sa_mask);
        sigaction(SIGPIPE, &dfl, NULL);
        sigaction(SIGINT, &dfl, NULL);
        sigaction(SIGTERM, &dfl, NULL);
        pthread_sigmask(SIG_SETMASK, child_mask, NULL);
        if (dup2(in[0], STDIN_FILENO) < 0 || dup2(out[1], STDOUT_FILENO) < 0)
            _exit(127);
        char *const argv[] = {(char *)exe, "--format", "pdf", NULL};
        execv(exe, argv);
        _exit(127);
    }
    setpgid(pid, pid); /* also here: no moment where a kill of the group misses it */
    close(in[0]);
    close(out[1]);
    /* Writes that never block: the loop waits for both pipes at once. */
    fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
    *c = (converter){.pid = pid, .in_fd = in[1], .out_fd = out[0]};
    return true;
}

/* The SVG to the converter and its output back, both at once (a converter
 * may write before it has read all), until it closes its standard output
 * or a stop signal comes. *fed says whether the whole SVG went in. The
 * stop signals are unblocked only while waiting (wait_mask), so none can
 * come between the check of the flag and the wait. False with one line on
 * a failure of ppflow's side (too much output, a read error). */
static bool exchange(converter *c, const char *exe, const char *svg, size_t svg_len, char **pdf,
                     size_t *pdf_len, bool *fed, const sigset_t *wait_mask, ppf_error *err)
{
    size_t sent = 0, len = 0, cap = 0;
    char *buf = NULL;
    bool ok = true;
    if (c->in_fd >= FD_SETSIZE || c->out_fd >= FD_SETSIZE) {
        ok = ppf_fail(err, "cannot talk to %s: too many open files", quote_path(exe).s);
        goto done;
    }
    while (c->out_fd >= 0 && !stop_signals_caught()) {
        fd_set readable, writable;
        FD_ZERO(&readable);
        FD_ZERO(&writable);
        FD_SET(c->out_fd, &readable);
        if (c->in_fd >= 0)
            FD_SET(c->in_fd, &writable);
        const int top = c->in_fd > c->out_fd ? c->in_fd : c->out_fd;
        if (pselect(top + 1, &readable, &writable, NULL, NULL, wait_mask) < 0) {
            if (errno == EINTR)
                continue; /* a stop signal: the loop's condition looks */
            ok = ppf_fail(err, "talking to %s: %s", quote_path(exe).s, strerror(errno));
            goto done;
        }
        if (c->in_fd >= 0 && FD_ISSET(c->in_fd, &writable)) {
            const size_t chunk = svg_len - sent < 65536 ? svg_len - sent : 65536;
            const ssize_t w = write(c->in_fd, svg + sent, chunk);
            if (w > 0)
                sent += (size_t)w;
            else if (w < 0 && errno != EAGAIN && errno != EINTR)
                close_fd(&c->in_fd); /* it stopped reading (EPIPE): *fed says so */
            if (sent == svg_len)
                close_fd(&c->in_fd); /* the end of the SVG */
        }
        if (FD_ISSET(c->out_fd, &readable)) {
            if (len == cap) {
                if (cap >= PDF_MAX_BYTES) {
                    ok = ppf_fail(err, "%s wrote more than %d MiB: no figure's PDF is that big",
                                  quote_path(exe).s, PDF_MAX_BYTES >> 20);
                    goto done;
                }
                cap = cap ? 2 * cap : 65536;
                buf = ppf_realloc(buf, cap);
            }
            const ssize_t got = read(c->out_fd, buf + len, cap - len);
            if (got > 0) {
                len += (size_t)got;
            } else if (got == 0) {
                close_fd(&c->out_fd);
            } else if (errno != EINTR && errno != EAGAIN) {
                ok = ppf_fail(err, "reading from %s: %s", quote_path(exe).s, strerror(errno));
                goto done;
            }
        }
    }
done:
    close_fd(&c->in_fd);
    close_fd(&c->out_fd);
    *fed = sent == svg_len;
    *pdf = buf;
    *pdf_len = len;
    return ok;
}

/* True once the converter has exited, left unreaped (WNOWAIT) so that its
 * process group's id stays its own; false when a stop signal came first or
 * it still runs PDF_EXIT_SECONDS after closing its output (it has nothing
 * left to do: it is then ended like a stopped one). */
static bool await_exit(pid_t pid, const sigset_t *wait_mask)
{
    for (int tick = 0; tick < PDF_EXIT_SECONDS * 50; tick++) {
        siginfo_t info = {0};
        if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid == pid)
            return true; /* exited, or nothing to wait for (ECHILD) */
        if (stop_signals_caught())
            return false;
        const struct timespec wait = {0, 20 * 1000 * 1000};
        pselect(0, NULL, NULL, NULL, &wait, wait_mask);
    }
    return false;
}

/* Ends the converter's process group and reaps its leader; returns the
 * leader's wait status. With sig (a stop signal ppflow caught), the group
 * gets that signal first and up to a second to go. Then SIGKILL goes to
 * whatever is left in the group (a script's children), while the leader,
 * exited or not, still holds the group's id; then the leader is reaped. */
static int end_converter(pid_t pid, int sig)
{
    if (sig) {
        kill(-pid, sig);
        for (int k = 0; k < 50; k++) {
            siginfo_t info = {0};
            if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0 ||
                info.si_pid == pid)
                break;
            const struct timespec tick = {0, 20 * 1000 * 1000};
            nanosleep(&tick, NULL);
        }
    }
    kill(-pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return status;
}

/* What the converter's exit and output say, as one line (false) or true. */
static bool judge(const char *exe, int status, bool fed, const char *pdf, size_t len,
                  ppf_error *err)
{
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        return ppf_fail(err, "cannot run %s (exit status 127): install librsvg2-bin",
                        quote_path(exe).s);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return ppf_fail(err, "%s failed (%s %d) converting the figure", quote_path(exe).s,
                        WIFEXITED(status) ? "exit status" : "signal",
                        WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    if (!fed)
        return ppf_fail(err, "%s stopped reading the figure before its end", quote_path(exe).s);
    if (!pdf_looks_whole(pdf, len))
        return ppf_fail(err,
                        "%s exited 0 but wrote no whole PDF (%zu bytes; a PDF starts with %%PDF- "
                        "and ends with %%%%EOF): nothing written",
                        quote_path(exe).s, len);
    return true;
}

bool pdf_write_timeline(FILE *f, const timeline *tl, const svg_desc *d, ppf_error *err)
{
    char exe[PDF_PATH_MAX];
    if (!pdf_converter_path(exe, sizeof exe, err))
        return false;
    /* The figure whole in memory first: the converter is started only for
     * a figure that exists, and the loop below feeds it at its own pace. */
    char *svg = NULL;
    size_t svg_len = 0;
    FILE *mem = open_memstream(&svg, &svg_len);
    if (!mem)
        ppf_oom("the figure's SVG");
    ppf_error why = {{0}};
    const bool drawn = svg_write_timeline(mem, tl, d, &why);
    if (fclose(mem) != 0 || !drawn) {
        free(svg);
        return ppf_fail(err, "the figure: %s", why.message[0] ? why.message : "out of memory");
    }

    /* From before the fork until the earlier handlers are back, SIGINT and
     * SIGTERM are blocked but while waiting: caught into the stop flag,
     * never lost, never leaving the converter behind. A converter that
     * dies early breaks the pipe: a write error, not a SIGPIPE. */
    sigset_t stop, old_mask, wait_mask;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, &old_mask);
    stop_signals saved;
    stop_signals_install(&saved);
    struct sigaction ignore = {.sa_handler = SIG_IGN}, old_pipe;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, &old_pipe);
    wait_mask = old_mask;
    sigdelset(&wait_mask, SIGINT);
    sigdelset(&wait_mask, SIGTERM);

    converter c;
    char *pdf = NULL;
    size_t pdf_len = 0;
    bool fed = false, exchanged = false;
    int status = 0, sig = 0;
    const bool started = start_converter(&c, exe, &old_mask, err);
    bool exited = false;
    if (started) {
        exchanged = exchange(&c, exe, svg, svg_len, &pdf, &pdf_len, &fed, &wait_mask, err);
        exited = exchanged && !stop_signals_caught() && await_exit(c.pid, &wait_mask);
        sig = stop_signals_caught();
        /* one that has not exited by now (a failure of ours, or it hangs)
         * is ended as a stopped one is */
        status = end_converter(c.pid, sig ? sig : exited ? 0 : SIGTERM);
    }
    free(svg);
    sigaction(SIGPIPE, &old_pipe, NULL);
    stop_signals_restore(&saved);
    pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
    if (sig) {
        /* The converter is gone; now ppflow ends as the signal asks
         * elsewhere (output.h's guard: the temporary deleted, exit 130).
         * A handler that returns leaves the failure below. */
        free(pdf);
        raise(sig);
        return ppf_fail(err, "interrupted (%s) while %s converted the figure",
                        sig == SIGTERM ? "SIGTERM" : "SIGINT", quote_path(exe).s);
    }
    bool ok = started && exchanged;
    if (ok && !exited)
        ok = ppf_fail(err, "%s closed its output but did not exit within %d s: ended",
                      quote_path(exe).s, PDF_EXIT_SECONDS);
    ok = ok && judge(exe, status, fed, pdf, pdf_len, err);
    if (ok && fwrite(pdf, 1, pdf_len, f) != pdf_len)
        ok = ppf_fail(err, "writing the PDF failed: %s", strerror(errno ? errno : EIO));
    free(pdf);
    return ok;
}
