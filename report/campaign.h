/*
 * campaign.h - finding the instances of a fuzzing campaign's output
 * directory, as fz-fuzz and afl-fuzz lay it out: OUT_DIR itself when it is
 * one instance (it holds fuzzer_stats, plot_data or queue/), else each
 * subdirectory that is one (`-o out` gives out/default; -M/-S and -j give
 * out/NAME per instance).  Symlinks are never followed.
 */
#ifndef FZ_REPORT_CAMPAIGN_H
#define FZ_REPORT_CAMPAIGN_H

#include <stddef.h>

typedef struct {
    char *name; /* "default", "main", ... (OUT_DIR's own name when it is one) */
    char *dir;  /* path of the instance directory */
} fz_instance_t;

/* Lists the instances under out, sorted by name.  Returns the count (0:
 * none found) and a malloc'ed array in *list, or -1 if out cannot be
 * read (errno set). */
int fz_campaign_instances(const char *out, fz_instance_t **list);
void fz_campaign_free(fz_instance_t *list, int n);

/* Reads dir/name into a NUL-terminated malloc'ed buffer without following
 * a symlink; NULL with errno set when it is missing, a symlink or
 * unreadable. */
char *fz_campaign_read(const char *dir, const char *name, size_t *len);

/* The value of "key : value" in fuzzer_stats text, copied into buf
 * (trimmed); NULL if the key is absent. */
const char *fz_stats_value(const char *stats, const char *key, char *buf, size_t n);

#endif
