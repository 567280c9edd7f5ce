/*
 * fz-clock.h - the front end's one clock (fz-fuzz, the tools, core/):
 * monotonic microseconds for durations (a run, a timeout, a status
 * interval), and the calendar time in milliseconds for the stamps people
 * and files read (fuzzer_stats' start_time, plot_data).  Header-only, so
 * every program that needs the time reads it the same way.
 */
#ifndef FZ_CLOCK_H
#define FZ_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Microseconds on CLOCK_MONOTONIC: never jumps; for differences only. */
static inline uint64_t fz_clock_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* Milliseconds since the epoch (CLOCK_REALTIME), for reports and file
 * names only: no decision of the fuzz loop depends on it when -s is given. */
static inline uint64_t fz_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

#endif
