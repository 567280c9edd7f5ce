/*
 * opts.c - option and environment helpers (see opts.h).
 */
#include "core/opts.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* The one boolean parser: 1, yes, true, on / 0, no, false, off (any
 * case), and "" for off. */
static int parse_bool(const char *v)
{
    static const char *const on[] = {"1", "yes", "true", "on"};
    static const char *const off[] = {"", "0", "no", "false", "off"};
    for (size_t i = 0; i < sizeof on / sizeof on[0]; i++)
        if (!strcasecmp(v, on[i]))
            return 1;
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++)
        if (!strcasecmp(v, off[i]))
            return 0;
    return -1;
}

int fz_env_bool(const char *fz_name, const char *afl_name, int unset)
{
    const char *names[2] = {fz_name, afl_name};
    for (int i = 0; i < 2; i++) {
        const char *v = names[i] ? getenv(names[i]) : NULL;
        if (!v)
            continue;
        int b = parse_bool(v);
        if (b < 0)
            fz_die("%s=%s: a yes-or-no setting takes 1 or 0 (also yes/no, true/false, on/off); "
                   "fix or unset it",
                   names[i], v);
        return b;
    }
    return unset;
}

int fz_env_flag(const char *fz_name, const char *afl_name)
{
    return fz_env_bool(fz_name, afl_name, 0);
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
