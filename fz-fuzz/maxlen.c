/*
 * maxlen.c - the maximum input length (see maxlen.h).
 */
#include "fz-fuzz/maxlen.h"

#include "fz-config.h"
#include "fz-log.h"

void fz_maxlen_start(fz_len_ctl_t *l, uint32_t cfg_max, const fz_files_t *inputs,
                     const char *what)
{
    uint32_t largest = 0, smallest = UINT32_MAX;
    const char *small_name = "?";
    for (uint32_t i = 0; i < inputs->n; i++) {
        largest = inputs->f[i].len > largest ? inputs->f[i].len : largest;
        if (inputs->f[i].len < smallest) {
            smallest = inputs->f[i].len;
            small_name = inputs->f[i].name;
        }
    }
    l->fixed = cfg_max != 0;
    if (l->fixed) {
        l->max = cfg_max;
        if (inputs->n && smallest > l->max)
            fz_die("-l %u is below the smallest %s ('%s', %u bytes): every one would be skipped; "
                   "raise -l to at least %u or shrink the inputs (fz-tmin)",
                   l->max, what, small_name, smallest, smallest);
        return;
    }
    l->max = largest > FZ_MAXLEN_MIN ? largest : FZ_MAXLEN_MIN;
    if (l->max > FZ_MAX_INPUT)
        l->max = FZ_MAX_INPUT;
    l->cap = l->max > FZ_MAXLEN_AUTO_MAX ? l->max : FZ_MAXLEN_AUTO_MAX;
}

int fz_maxlen_fits(const fz_len_ctl_t *l, uint32_t len)
{
    return len <= l->max;
}

size_t fz_maxlen_room(const fz_len_ctl_t *l, size_t len)
{
    return l->max > len ? l->max : len;
}

size_t fz_maxlen_custom(const fz_len_ctl_t *l)
{
    return l->fixed ? l->max : FZ_MAX_INPUT;
}

void fz_maxlen_found(fz_len_ctl_t *l, uint64_t execs)
{
    l->quiet_since = execs;
}

uint64_t fz_maxlen_grow(fz_len_ctl_t *l, uint64_t execs)
{
    /* FZ_MAXLEN_STALL_EXECS, four times that after the first growth, ... */
    uint64_t wait = (uint64_t)FZ_MAXLEN_STALL_EXECS << (l->grows < 12 ? 2 * l->grows : 24);
    if (l->fixed || l->max >= l->cap || execs - l->quiet_since < wait)
        return 0;
    uint64_t grown = (uint64_t)l->max + l->max / 2;
    l->max = grown > l->cap ? l->cap : (uint32_t)grown;
    l->grows++;
    l->quiet_since = execs;
    return wait;
}
