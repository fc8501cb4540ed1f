/*
 * CGPS shim: the single seam between FollowMe and libgps (Debian libgps-dev), and the host clock's
 * synchronisation state gpsd's time reports are judged by.
 *
 * Every libgps call FollowMe makes goes through a function here, and all API-version drift
 * lives in this file (docs/gpsd.md §1.4). Supported: API 9 (gpsd 3.20) … 16 (3.27).
 *  - API < 9: fix.time is a double, not a timespec → refuse.
 *  - API 12 moved `attitude` out of a union: `g->attitude.heading` reads the same either way.
 *  - API 14 (3.25) changed gps_stream's third parameter to `const char *`: passing a `void *`
 *    converts implicitly in C, so one call fits both prototypes.
 *  - 3.23.1 renamed STATUS_* without an API bump: we never use fix.status or STATUS_*.
 */
#ifndef FOLLOWME_CGPS_SHIM_H
#define FOLLOWME_CGPS_SHIM_H

#include <gps.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/timex.h>

#if !defined(GPSD_API_MAJOR_VERSION)
#error "FollowMe CGPS: <gps.h> defines no GPSD_API_MAJOR_VERSION; install Debian's libgps-dev (gpsd >= 3.20)."
#elif GPSD_API_MAJOR_VERSION < 9
#error "FollowMe CGPS: libgps API < 9 (gpsd < 3.20) is not supported: fix.time must be a timespec."
#elif GPSD_API_MAJOR_VERSION > 16
#error "FollowMe CGPS: unknown libgps API > 16. Review the API changes (docs/gpsd.md §1.4) and extend Sources/CGPS/shim.h."
#endif

/* gps_json.h (which defines it) is not installed before 3.25. */
#ifndef GPS_JSON_RESPONSE_MAX
#define GPS_JSON_RESPONSE_MAX 10240
#endif

/* Longest device path gps_stream's 80-byte command buffer carries intact (docs/gpsd.md §1.5 #1);
 * with `"pps":true` the prefix is 11 characters longer (docs/gps-latency.md §1.3). */
#define FM_WATCH_DEVICE_MAX_STREAM 32
#define FM_WATCH_DEVICE_MAX_STREAM_PPS 21

static const int fm_api_major = GPSD_API_MAJOR_VERSION;
static const int fm_api_minor = GPSD_API_MINOR_VERSION;
static const int fm_json_response_max = GPS_JSON_RESPONSE_MAX;

/* Whether the host clock is disciplined (NTP, or chrony fed by gpsd's SHM refclock): ntp_adjtime(3)
 * with no modes reads the kernel's state without changing it; synchronised = neither TIME_ERROR nor
 * STA_UNSYNC. The fix age trusts gpsd's TOFF clock and TPV times against this clock only then
 * (docs/gps-latency.md §3). Here beside libgps because Swift's Glibc module lacks <sys/timex.h>. */
static inline int fm_host_clock_synchronised(void) {
    struct timex t;
    memset(&t, 0, sizeof t);
    int state = ntp_adjtime(&t);
    return state != -1 && state != TIME_ERROR && (t.status & STA_UNSYNC) == 0;
}

/* Set-mask bits as plain 64-bit values (the macros are `1llu<<n` expressions). */
static const unsigned long long fm_mask_online = ONLINE_SET;
static const unsigned long long fm_mask_time = TIME_SET;
static const unsigned long long fm_mask_latlon = LATLON_SET;
static const unsigned long long fm_mask_altitude = ALTITUDE_SET;
static const unsigned long long fm_mask_speed = SPEED_SET;
static const unsigned long long fm_mask_track = TRACK_SET;
static const unsigned long long fm_mask_climb = CLIMB_SET;
static const unsigned long long fm_mask_mode = MODE_SET;
static const unsigned long long fm_mask_attitude = ATTITUDE_SET;
static const unsigned long long fm_mask_device = DEVICE_SET;
static const unsigned long long fm_mask_error = ERROR_SET;

/* gps_open; on failure *errtext gets libgps' message (socket errors put the NL_* code in errno). */
static inline int fm_open(const char *host, const char *port, struct gps_data_t *g, const char **errtext) {
    errno = 0;
    int rc = gps_open(host, port, g);
    if (rc != 0 && errtext) *errtext = gps_errstr(rc == -1 ? errno : rc);
    return rc;
}

static inline int fm_close(struct gps_data_t *g) { return gps_close(g); }

/* Subscribe to JSON reports, optionally of one device only; with `pps` nonzero also to gpsd's TOFF
 * reports (`"pps":true`, gpsd >= 3.13; docs/gps-latency.md §1). Paths too long for gps_stream's 80-byte
 * buffer (32 characters, 21 with pps) would silently watch *all* devices, so those are sent whole
 * with gps_send. Returns 0 on success, -1 on error. */
static inline int fm_watch(struct gps_data_t *g, const char *device, int pps) {
    unsigned int flags = WATCH_ENABLE | WATCH_JSON | (pps ? WATCH_PPS : 0);
    if (device == NULL || device[0] == '\0')
        return gps_stream(g, flags, NULL);
    if (strlen(device) <= (pps ? FM_WATCH_DEVICE_MAX_STREAM_PPS : FM_WATCH_DEVICE_MAX_STREAM))
        return gps_stream(g, flags | WATCH_DEVICE, (void *)device);
    if (pps)
        return gps_send(g, "?WATCH={\"enable\":true,\"json\":true,\"pps\":true,\"device\":\"%s\"};", device);
    return gps_send(g, "?WATCH={\"enable\":true,\"json\":true,\"device\":\"%s\"};", device);
}

/* Ask gpsd to run one device at `cycle` seconds per fix: `?DEVICE={"path":…,"cycle":…};`
 * (gpsd_json(5) ?DEVICE). gps_send has its own buffer, so long paths are fine. The caller keeps
 * `"` and `\` out of the path (it is not JSON-escaped here). Returns 0 on success, -1 on error. */
static inline int fm_send_device_cycle(struct gps_data_t *g, const char *path, double cycle) {
    return gps_send(g, "?DEVICE={\"path\":\"%s\",\"cycle\":%.3f};", path, cycle);
}

/* True if data is ready within timeout_us MICROseconds (not ms: docs/gpsd.md §1.1). */
static inline int fm_waiting(const struct gps_data_t *g, int timeout_us) { return gps_waiting(g, timeout_us) ? 1 : 0; }

static inline const char *fm_device_path(const struct gps_data_t *g) { return g->dev.path; }
static inline void fm_set_device_path(struct gps_data_t *g, const char *path) {
    snprintf(g->dev.path, sizeof g->dev.path, "%s", path);
}
static inline int fm_device_activated(const struct gps_data_t *g) {
    return g->dev.activated.tv_sec != 0 || g->dev.activated.tv_nsec != 0;
}
static inline double fm_attitude_heading(const struct gps_data_t *g) { return g->attitude.heading; }
static inline void fm_set_attitude_heading(struct gps_data_t *g, double h) { g->attitude.heading = h; }
static inline unsigned long long fm_set_mask(const struct gps_data_t *g) { return (unsigned long long)g->set; }
static inline void fm_set_set_mask(struct gps_data_t *g, unsigned long long m) { g->set = (gps_mask_t)m; }
static inline const char *fm_error_message(const struct gps_data_t *g) { return g->error; }
/* SKY (docs/gpsd.md §1.2): satellites used in the solution and in view, dilutions of precision (NAN = absent). */
static const unsigned long long fm_mask_satellite = SATELLITE_SET;
static inline int fm_satellites_used(const struct gps_data_t *g) { return g->satellites_used; }
static inline int fm_satellites_visible(const struct gps_data_t *g) { return g->satellites_visible; }
static inline double fm_dop_hdop(const struct gps_data_t *g) { return g->dop.hdop; }
static inline double fm_dop_vdop(const struct gps_data_t *g) { return g->dop.vdop; }
static inline double fm_dop_pdop(const struct gps_data_t *g) { return g->dop.pdop; }

/* --- Reading lines ourselves (docs/fuzzing.md, finding gpsd-json 1) ---------------------------
 * libgps 3.22's gps_unpack (called by gps_read) re-calls libgps_json_unpack on the rest of a line
 * until it returns -1; an object that fails after its class tag (`{x"class":"SKY"}`) returns a
 * positive error and leaves `end` at the offending character, so gps_read never returns: one such
 * line from gpsd (or anyone between us and it) froze the client thread for good. So FollowMe reads
 * the socket itself and runs libgps' unpack loop with that exit added, dropping such a line. */

/* libgps' one-object JSON unpacker (exported by libgps; declared in gps_json.h, not installed before 3.25). */
extern int libgps_json_unpack(const char *buf, struct gps_data_t *gpsdata, const char **end);

/* gps_unpack without the endless loop: the same calls as libgps' own loop (an object that fails part
 * way still sets what it parsed, as `"activated":0` in a DEVICE deactivation does), stopping where
 * libgps would retry the same position forever. Zeroes `set` first (docs/gpsd.md §1.2). Returns 0 as
 * gps_unpack does (also for a line that is not JSON: nothing is set), -1 where gps_unpack would have
 * looped (then `set` is zeroed again: the line is dropped). */
static inline int fm_unpack_line(const char *line, struct gps_data_t *g) {
    g->set = 0;
    if (line[0] != '{') return 0;
    /* TOFF: libgps 3.13 ... 3.24 hands it to its PPS decoder, which fails and zeroes gps.pps; the
     * caller parses the raw line instead (docs/gps-latency.md §1.2). */
    if (strncmp(line, "{\"class\":\"TOFF\"", 15) == 0) return 0;
    const char *next = line;
    while (next != NULL && next[0] != '\0') {
        const char *end = NULL;
        if (libgps_json_unpack(next, g, &end) == -1) break;
        if (end == NULL || end <= next) { g->set = 0; return -1; }
        next = end;
    }
    return 0;
}

/* Bytes received from gpsd, not yet taken as lines. Two responses long: a line longer than the whole
 * buffer is dropped (gpsd's own responses are at most GPS_JSON_RESPONSE_MAX). */
struct fm_line_reader {
    char buf[2 * GPS_JSON_RESPONSE_MAX];
    size_t used;
    int skipping;  /* inside an over-long line: drop it up to its newline */
};

static inline void fm_reader_reset(struct fm_line_reader *r) { r->used = 0; r->skipping = 0; }

/* 1 if a whole line is buffered (then fm_waiting need not be asked). */
static inline int fm_reader_has_line(const struct fm_line_reader *r) {
    return memchr(r->buf, '\n', r->used) != NULL;
}

/* Receives what the socket has (call after fm_waiting said so). Returns the byte count, 0 if
 * interrupted, -1 on error or EOF (errno 0 for EOF). */
static inline int fm_reader_fill(struct gps_data_t *g, struct fm_line_reader *r) {
    if (r->used == sizeof r->buf) { r->used = 0; r->skipping = 1; }
    errno = 0;
    ssize_t n = recv(g->gps_fd, r->buf + r->used, sizeof r->buf - r->used, 0);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return 0;
    if (n <= 0) return -1;
    r->used += (size_t)n;
    return (int)n;
}

/* Takes the next whole line out of `r`, copies it (NUL-terminated, cut to message_len) into
 * `message` and unpacks it into `g`. Returns 1: unpacked; 0: no whole line yet; -1: dropped
 * (libgps would have looped on it, or it was longer than the buffer). */
static inline int fm_reader_take_line(struct gps_data_t *g, struct fm_line_reader *r, char *message, int message_len) {
    char *eol = memchr(r->buf, '\n', r->used);
    if (eol == NULL) return 0;
    *eol = '\0';
    size_t taken = (size_t)(eol - r->buf) + 1;
    int overlong = r->skipping;
    r->skipping = 0;
    if (message && message_len > 0) snprintf(message, (size_t)message_len, "%s", r->buf);
    int rc = -1;
    if (overlong) g->set = 0; else rc = fm_unpack_line(r->buf, g);
    memmove(r->buf, eol + 1, r->used - taken);
    r->used -= taken;
    return rc == 0 ? 1 : -1;
}

#endif
