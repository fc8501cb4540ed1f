/*
 * CGPS shim: the single seam between FollowMe and libgps (Debian libgps-dev).
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

/* Longest device path gps_stream's 80-byte command buffer carries intact (docs/gpsd.md §1.5 #1). */
#define FM_WATCH_DEVICE_MAX_STREAM 32

static const int fm_api_major = GPSD_API_MAJOR_VERSION;
static const int fm_api_minor = GPSD_API_MINOR_VERSION;
static const int fm_json_response_max = GPS_JSON_RESPONSE_MAX;

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

/* Subscribe to JSON reports, optionally of one device only. Paths longer than 32 characters
 * overflow gps_stream's 80-byte buffer and silently watch *all* devices, so send them whole
 * with gps_send. Returns 0 on success, -1 on error. */
static inline int fm_watch(struct gps_data_t *g, const char *device) {
    if (device == NULL || device[0] == '\0')
        return gps_stream(g, WATCH_ENABLE | WATCH_JSON, NULL);
    if (strlen(device) <= FM_WATCH_DEVICE_MAX_STREAM)
        return gps_stream(g, WATCH_ENABLE | WATCH_JSON | WATCH_DEVICE, (void *)device);
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

/* One JSON line. Zeroes `set` first: libgps only ORs most bits, so stale bits would survive
 * (docs/gpsd.md §1.2). Returns bytes consumed, 0 for a partial line, -1 on error/EOF. */
static inline int fm_read(struct gps_data_t *g, char *message, int message_len) {
    g->set = 0;
    if (message && message_len > 0) message[0] = '\0';
    return gps_read(g, message, message_len);
}

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

#endif
