/* presenter.c - the presenter's window and the windows' monitors. See
 * presenter.h. */
#include "presenter.h"

#include <assert.h>

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "beats.h"

/* The presenter's window before it is placed: a 720p screen's worth. */
enum { PRESENTER_WIDTH = 1280, PRESENTER_HEIGHT = 720 };

/* ---- monitors ------------------------------------------------------------------ */

static void monitor_name(int index, char *name, size_t size)
{
    int w, h;
    bool primary;
    if (!window_monitor_describe(index, name, size, &w, &h, &primary))
        name[0] = '\0';
}

bool presenter_choose_monitor(viewer_window *audience, int monitor, bool with_presenter,
                              ppf_error *err)
{
    const int n = window_monitor_count();
    if (monitor > n) {
        /* one line that says which there are: "1 eDP-1 1920x1080 (primary), 2 HDMI-1 ..." */
        char list[400] = "";
        size_t used = 0;
        for (int k = 1; k <= n && used < sizeof list; k++) {
            char name[64];
            int w = 0, h = 0;
            bool primary = false;
            window_monitor_describe(k, name, sizeof name, &w, &h, &primary);
            int wrote = snprintf(list + used, sizeof list - used, "%s%d %s %dx%d%s",
                                 k > 1 ? ", " : "", k, name, w, h, primary ? " (primary)" : "");
            used += wrote > 0 ? (size_t)wrote : 0;
        }
        if (n == 0)
            return ppf_fail(err, "--monitor %d: the display reports no monitors", monitor);
        return ppf_fail(err, "--monitor %d: no such monitor; there %s %d: %s", monitor,
                        n == 1 ? "is" : "are", n, list);
    }
    audience->monitor[0] = '\0';
    if (monitor > 0) {
        monitor_name(monitor, audience->monitor, sizeof audience->monitor);
    } else if (with_presenter && n >= 2) {
        /* the projector: the first monitor that is not the laptop's own */
        for (int k = 1; k <= n && !audience->monitor[0]; k++) {
            char name[64];
            int w, h;
            bool primary = true;
            if (window_monitor_describe(k, name, sizeof name, &w, &h, &primary) && !primary)
                snprintf(audience->monitor, sizeof audience->monitor, "%s", name);
        }
    }
    return true;
}

/* ---- the window ----------------------------------------------------------------- */

bool presenter_open(presenter *p, viewer_window *audience, const session *s, viewer_input *in,
                    ppf_error *err)
{
    *p = (presenter){.audience = audience, .s = s};
    char title[200];
    snprintf(title, sizeof title, "ppflow presenter — %s", s->hud_title);
    window_desc d = {
        .title = title,
        .width = PRESENTER_WIDTH,
        .height = PRESENTER_HEIGHT,
        .input = in,
        .share = audience,
        .no_vsync = true,
        .keys_only = true,
        .no_auto_iconify = true,
    };
    if (!window_open(&p->win, &d, err))
        goto fail;
    if (!frame_renderer_init(&p->frame, err) ||
        !frame_cache_init(&p->cache, &p->frame, &s->scene, &s->tl, err))
        goto fail;
    if (!presenter_view_init(&p->page, err))
        goto fail;
    window_make_current(audience);
    presenter_place(p, audience, false, false); /* on the other monitor, if there is one */
    return true;
fail:
    presenter_close(p);
    window_make_current(audience);
    return false;
}

void presenter_show_slide(presenter *p, const session *s, const char *notes, const char *next_slide)
{
    if (p->win.glfw && !frame_cache_of(&p->cache, &s->scene, &s->tl)) {
        window_make_current(&p->win);
        frame_cache next;
        ppf_error err = {{0}};
        const bool ok = frame_cache_init(&next, &p->frame, &s->scene, &s->tl, &err);
        assert(ok && "a built session's cache");
        (void)ok;
        frame_cache_deinit(&p->cache);
        p->cache = next;
        window_make_current(p->audience);
    }
    p->s = s;
    p->slide_notes = notes;
    p->next_slide = next_slide;
}

void presenter_close(presenter *p)
{
    if (!p)
        return;
    if (p->win.glfw) {
        window_make_current(&p->win); /* its GL objects are freed in its context */
        presenter_view_deinit(&p->page);
        frame_cache_deinit(&p->cache);
        frame_renderer_deinit(&p->frame);
    }
    window_close(&p->win);
    if (p->audience)
        window_make_current(p->audience);
    *p = (presenter){.audience = p->audience,
                     .s = p->s,
                     .slide_notes = p->slide_notes,
                     .next_slide = p->next_slide};
}

/* ---- placing the windows ----------------------------------------------------------- */

void presenter_place(presenter *p, viewer_window *audience, bool presenting, bool monitors_changed)
{
    if (!presenting) {
        window_set_fullscreen(audience, false);
    } else if (!monitors_changed) {
        window_set_fullscreen(audience, true);
        const int on = window_monitor_of(audience);
        monitor_name(on, p->audience_on, sizeof p->audience_on);
    } else {
        /* the monitor the show went to: still there (or back), fullscreen
         * on it; gone, the audience window is a window again */
        const int on = window_monitor_find(p->audience_on);
        if (on)
            window_fullscreen_on(audience, on);
        else
            window_set_fullscreen(audience, false);
    }
    if (!p->win.glfw)
        return;
    const int n = window_monitor_count();
    const int a = window_monitor_of(audience);
    const int other = n < 2 ? 0 : a != 1 ? 1 : 2;
    if (presenting && other) {
        window_fullscreen_on(&p->win, other);
        return;
    }
    window_set_fullscreen(&p->win, false);
    if (other)
        window_move_to_monitor(&p->win, other);
    else if (!window_monitor_of(&p->win))
        window_move_to_monitor(&p->win, 1); /* its monitor went away: where it is seen */
}

/* ---- the page ------------------------------------------------------------------------- */

static void clock_text(double seconds, char *out, size_t n)
{
    const long s = seconds > 0 ? (long)seconds : 0;
    snprintf(out, n, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
}

void presenter_draw(presenter *p, const viewer_state *st, const frame_view *audience_view,
                    double clock, const char *screenshot)
{
    if (p->win.glfw && window_should_close(&p->win))
        presenter_close(p); /* closed by its user: the talk goes on */
    if (!p->win.glfw) {
        if (screenshot)
            ppf_print(stderr, "%s not saved: there is no presenter window (--presenter)",
                      screenshot);
        return;
    }
    const session *s = p->s;
    const beat_list *bl = &s->beats;
    const int k = viewer_state_shown_beat(st);
    const int next = k >= 0 ? (k + 1 < bl->count ? k + 1 : -1) : (bl->count > 0 ? 0 : -1);
    const beat *b = k >= 0 ? &bl->beats[k] : NULL;

    char beat_text[64], next_label[BEAT_TITLE_MAX + 64], next_status[BEAT_TITLE_MAX + 64];
    char elapsed[32], wall[16];
    if (k >= 0)
        snprintf(beat_text, sizeof beat_text, "beat %d/%d", k + 1, bl->count);
    else
        snprintf(beat_text, sizeof beat_text, "beat –/%d", bl->count);
    if (next >= 0) {
        snprintf(next_label, sizeof next_label, "next · beat %d: %s", next + 1,
                 bl->beats[next].title);
        snprintf(next_status, sizeof next_status, "beat %d/%d · %s", next + 1, bl->count,
                 bl->beats[next].title);
    } else if (p->next_slide) {
        snprintf(next_label, sizeof next_label, "next · the next slide: %s",
                 p->next_slide[0] ? p->next_slide : "(untitled)");
    } else {
        snprintf(next_label, sizeof next_label, "next · nothing: the last beat");
    }
    const double talk = viewer_state_talk_seconds(st, clock);
    clock_text(talk, elapsed, sizeof elapsed);
    const time_t now = time(NULL);
    struct tm tm;
    if (localtime_r(&now, &tm))
        strftime(wall, sizeof wall, "%H:%M", &tm);
    else
        snprintf(wall, sizeof wall, "--:--");

    window_make_current(&p->win);
    const int fw = p->win.fb_w, fh = p->win.fb_h;
    const float aspect = st->fb_h > 0 ? (float)st->fb_w / (float)st->fb_h : 0;
    const presenter_layout l = presenter_layout_compute(fw, fh, aspect, st->look.ui_scale);
    const presenter_page page = {
        .theme = st->look.theme,
        .beat = beat_text,
        .title = b ? b->title : "",
        .caption = b ? b->caption : "",
        .notes = b && b->notes[0] ? b->notes
                 : p->slide_notes ? p->slide_notes
                                  : "",
        .now_label = st->talk.blackout ? "now · the screen is black (B)" : "now",
        .next_label = next_label,
        .has_next = next >= 0,
        .no_next = p->next_slide ? "next slide" : "the end",
        .elapsed = elapsed,
        .elapsed_running = talk >= 0,
        .wall = wall,
    };
    presenter_view_draw(&p->page, &l, &page, fw, fh);

    /* what the audience sees, small, the laser dot where they see it */
    if (l.now.w > 0 && l.now.h > 0 && st->fb_w > 0 && st->fb_h > 0) {
        frame_view now = *audience_view;
        now.viewport = l.now;
        now.laser_x = (float)l.now.x + audience_view->laser_x * (float)l.now.w / (float)st->fb_w;
        now.laser_y = (float)l.now.y + audience_view->laser_y * (float)l.now.h / (float)st->fb_h;
        now.hover = (timeline_panel_hover){0};
        now.bare = true; /* the cards at a preview's size would hide the scene */
        now.timeline.for_file = true; /* no one zooms a preview: no "numbers: ..." hint */
        frame_renderer_draw(&p->frame, &p->cache, &now, fw, fh);
    }
    /* the next beat's end state, as the audience will see it */
    if (next >= 0 && l.next.w > 0 && l.next.h > 0) {
        frame_view nx = *audience_view;
        nx.viewport = l.next;
        nx.t = bl->beats[next].t;
        nx.status = next_status;
        nx.caption = bl->beats[next].caption[0] ? bl->beats[next].caption : NULL;
        nx.blackout = false;
        nx.laser = false;
        nx.show_help = false;
        nx.hover = (timeline_panel_hover){0};
        nx.caption_rank = -1;
        nx.bare = true;
        nx.timeline.for_file = true;
        frame_renderer_draw(&p->frame, &p->cache, &nx, fw, fh);
    }
    if (screenshot)
        window_screenshot(&p->win, screenshot);
    window_swap(&p->win);
    window_make_current(p->audience);
}

void presenter_state(const presenter *p, const viewer_window *audience, char *out, size_t n)
{
    snprintf(out, n, "fullscreen=%d monitor=%d presenter_monitor=%d presenter_fb=%dx%d",
             window_is_fullscreen(audience), window_monitor_of(audience),
             p->win.glfw ? window_monitor_of(&p->win) : 0, p->win.glfw ? p->win.fb_w : 0,
             p->win.glfw ? p->win.fb_h : 0);
}
