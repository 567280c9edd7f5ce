/*
 * env.c - yes-or-no environment variables (see env.h).
 */
#include "core/env.h"

#include <stdlib.h>
#include <strings.h>

#include "fz-log.h"

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
