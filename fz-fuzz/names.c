/*
 * names.c - AFL-style file names (see names.h).  Pure: no state, no I/O.
 */
#include "fz-fuzz/names.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fz_name_seed(char *buf, size_t n, uint32_t id, const char *orig)
{
    const char *base = strrchr(orig, '/');
    base = base ? base + 1 : orig;
    /* A file name has at most NAME_MAX bytes: a long seed name is cut in
     * orig: (the id keeps names unique) instead of failing the write. */
    int r = snprintf(buf, n < NAME_MAX + 1 ? n : NAME_MAX + 1, "id:%06u,time:0,execs:0,orig:%s",
                     id, base);
    /* A ',' in the original name would confuse tools that split on it. */
    for (char *p = strstr(buf, "orig:"); p && *p; p++)
        if (*p == ',')
            *p = '_';
    return r;
}

int fz_name_find(char *buf, size_t n, uint32_t id, int sig, const fz_origin_t *o,
                 uint64_t time_ms, uint64_t execs, int new_edge)
{
    char sigpart[16] = "";
    if (sig > 0)
        snprintf(sigpart, sizeof(sigpart), ",sig:%02d", sig);
    const char *cov = new_edge ? ",+cov" : "";
    if (o->peer)
        return snprintf(buf, n, "id:%06u%s,sync:%s,src:%06u%s", id, sigpart, o->peer, o->peer_id,
                        cov);
    char srcpart[16] = ""; /* none for an input made from nothing (the empty input) */
    if (!o->no_parent)
        snprintf(srcpart, sizeof(srcpart), ",src:%06u", o->src);
    return snprintf(buf, n, "id:%06u%s%s,time:%llu,execs:%llu,op:%s%s", id, sigpart, srcpart,
                    (unsigned long long)time_ms, (unsigned long long)execs, o->op, cov);
}

long fz_name_id(const char *name)
{
    if (strncmp(name, "id:", 3) != 0)
        return -1;
    char *end;
    long v = strtol(name + 3, &end, 10);
    if (end == name + 3 || (*end && *end != ','))
        return -1;
    return v;
}
