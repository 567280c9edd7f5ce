/*
 * names.h - where an input came from, and the AFL-style file names of
 * queue entries, crashes and hangs built from it.  Every file name fz-fuzz
 * gives a queue, crash or hang file is made here (tools that parse AFL
 * names, afl-plot, afl-whatsup and triage scripts, rely on the format).
 */
#ifndef FZ_FUZZ_NAMES_H
#define FZ_FUZZ_NAMES_H

#include <stddef.h>
#include <stdint.h>

/* The origin of an input, passed with it to the helper that judges and
 * keeps it (fz_run_one) and on to the file name. */
typedef struct fz_origin {
    const char *op;     /* the stage that made it: "havoc", "flip1", "sync", ... */
    uint32_t src;       /* the parent: queue id in fz-fuzz, its file id in a name */
    const char *peer;   /* another instance's name when synced from it, else NULL */
    uint32_t peer_id;   /* the id of that peer's file */
    int no_parent;      /* made from no input (the empty input, run once at the
                         * start): no src in its name, depth 1 */
} fz_origin_t;

/* A seed: "id:000000,time:0,execs:0,orig:NAME" (NAME's base name with any
 * ',' replaced by '_').  Returns snprintf's value. */
int fz_name_seed(char *buf, size_t n, uint32_t id, const char *orig);

/* A find: "id:000042,src:000007,time:1234,execs:5678,op:havoc", without
 * the src part when it has no parent ("id:000005,time:9,execs:31,op:empty"),
 * or for a peer's file "id:000042,sync:PEER,src:PEER_ID"; then ",+cov" when it
 * reached a never-seen edge.  A crash adds ",sig:NN" after the id.  o->src
 * is the parent's file id here.  Returns snprintf's value. */
int fz_name_find(char *buf, size_t n, uint32_t id, int sig, const fz_origin_t *o,
                 uint64_t time_ms, uint64_t execs, int new_edge);

/* The id in an AFL-style name ("id:000042,..." -> 42); -1 if there is none. */
long fz_name_id(const char *name);

#endif
