/* pdf.c - the figure as a PDF through rsvg-convert. See pdf.h. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "pdf.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

bool pdf_converter_found(ppf_error *err)
{
    const char *path = getenv("PATH");
    if (path && *path) {
        const char *p = path;
        for (;;) {
            const size_t len = strcspn(p, ":");
            char file[4096];
            /* an empty entry is the current directory, as for execvp */
            if (snprintf(file, sizeof file, "%.*s/" PDF_CONVERTER, (int)(len ? len : 1),
                         len ? p : ".") < (int)sizeof file &&
                access(file, X_OK) == 0)
                return true;
            if (!p[len])
                break;
            p += len + 1;
        }
    }
    return ppf_fail(err, "a PDF needs " PDF_CONVERTER " on PATH: install librsvg2-bin (Debian, "
                         "Ubuntu) or librsvg (Homebrew, Fedora), or write --format svg");
}

bool pdf_write_timeline(FILE *f, const timeline *tl, const svg_desc *d, ppf_error *err)
{
    if (fflush(f) != 0)
        return ppf_fail(err, "writing the PDF failed: %s", strerror(errno));
    int fds[2];
    if (pipe(fds) != 0)
        return ppf_fail(err, "cannot start " PDF_CONVERTER ": pipe: %s", strerror(errno));
    const pid_t pid = fork();
    if (pid < 0) {
        const int e = errno;
        close(fds[0]);
        close(fds[1]);
        return ppf_fail(err, "cannot start " PDF_CONVERTER ": fork: %s", strerror(e));
    }
    if (pid == 0) {
        /* the child: the SVG in, the PDF out to f's descriptor */
        if (dup2(fds[0], STDIN_FILENO) < 0 || dup2(fileno(f), STDOUT_FILENO) < 0)
            _exit(127);
        close(fds[0]);
        close(fds[1]);
        execlp(PDF_CONVERTER, PDF_CONVERTER, "--format", "pdf", (char *)NULL);
        _exit(127);
    }
    close(fds[0]);
    /* A converter that dies early breaks the pipe: a write error here and
     * its exit status below, not a SIGPIPE that ends ppflow. */
    struct sigaction ignore = {.sa_handler = SIG_IGN}, old;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, &old);
    FILE *in = fdopen(fds[1], "w");
    bool wrote = false;
    ppf_error why = {{0}};
    if (in) {
        wrote = svg_write_timeline(in, tl, d, &why);
        wrote = fclose(in) == 0 && wrote;
    } else {
        close(fds[1]);
    }
    int status = 0;
    pid_t w;
    while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    sigaction(SIGPIPE, &old, NULL);
    if (w < 0)
        return ppf_fail(err, PDF_CONVERTER ": waitpid: %s", strerror(errno));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        return ppf_fail(err, "cannot run " PDF_CONVERTER ": install librsvg2-bin");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return ppf_fail(err, PDF_CONVERTER " failed (%s %d) converting the figure",
                        WIFEXITED(status) ? "exit status" : "signal",
                        WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    if (!wrote)
        return ppf_fail(err, "sending the figure to " PDF_CONVERTER " failed%s%s",
                        why.message[0] ? ": " : "", why.message);
    return true;
}
