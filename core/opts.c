/*
 * opts.c - option helpers (see opts.h).
 */
#include "core/opts.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>

#include "fz-log.h"

uint32_t fz_opt_u32(const char *s, const char *flag, uint32_t min, uint32_t max)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || end == s || *end || v < min || v > max || s[0] == '-')
        fz_die("%s needs a number from %u to %u, not '%s'", flag, min, max, s);
    return (uint32_t)v;
}

int fz_opt_exec(int c, const char *arg, fz_fsrv_cfg_t *cfg)
{
    if (c == 't')
        cfg->timeout_ms = fz_opt_u32(arg, "-t", 1, 3600000);
    else if (c == 'm')
        cfg->mem_limit_mb = fz_opt_u32(arg, "-m", 0, 1u << 30);
    else
        return 0;
    return 1;
}

int fz_opt_parse(int argc, char **argv, const char *optstring, fz_fsrv_cfg_t *cfg,
                 fz_opt_own_fn own, void *ctx)
{
    int c;
    while ((c = getopt(argc, argv, optstring)) != -1)
        if (!(own && own(c, optarg, ctx)) && !fz_opt_exec(c, optarg, cfg))
            return -1;
    return optind < argc ? optind : -1;
}
