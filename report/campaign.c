/*
 * campaign.c - instances of an output directory (campaign.h).
 */
#define _GNU_SOURCE
#include "report/campaign.h"

#include "core/fileio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_instance(const char *dir)
{
    static const char *const marks[] = {"fuzzer_stats", "plot_data", "queue"};
    struct stat st;
    for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
        char *p;
        if (asprintf(&p, "%s/%s", dir, marks[i]) < 0)
            return 0;
        int ok = lstat(p, &st) == 0 && !S_ISLNK(st.st_mode);
        free(p);
        if (ok)
            return 1;
    }
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const fz_instance_t *)a)->name, ((const fz_instance_t *)b)->name);
}

static int add(fz_instance_t **list, int *n, const char *name, const char *dir)
{
    fz_instance_t *l = realloc(*list, (size_t)(*n + 1) * sizeof **list);
    if (!l)
        return -1;
    *list = l;
    l[*n].name = strdup(name);
    l[*n].dir = strdup(dir);
    (*n)++;
    return 0;
}

int fz_campaign_instances(const char *out, fz_instance_t **list)
{
    *list = NULL;
    int n = 0;
    if (is_instance(out)) {
        char *copy = strdup(out);
        size_t len = strlen(copy);
        while (len > 1 && copy[len - 1] == '/')
            copy[--len] = 0;
        const char *base = strrchr(copy, '/');
        add(list, &n, base ? base + 1 : copy, out);
        free(copy);
        return n;
    }
    DIR *d = opendir(out);
    if (!d)
        return -1;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char *p;
        struct stat st;
        if (asprintf(&p, "%s/%s", out, e->d_name) < 0)
            break;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode) && is_instance(p))
            add(list, &n, e->d_name, p);
        free(p);
    }
    closedir(d);
    qsort(*list, (size_t)n, sizeof **list, by_name);
    return n;
}

void fz_campaign_free(fz_instance_t *list, int n)
{
    for (int i = 0; i < n; i++) {
        free(list[i].name);
        free(list[i].dir);
    }
    free(list);
}

char *fz_campaign_read(const char *dir, const char *name, size_t *len)
{
    char *p = fz_path_join(dir, name, NULL);
    int fd = open(p, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    free(p);
    if (fd < 0)
        return NULL;
    size_t n;
    uint8_t *raw = fz_file_read_fd(fd, 0, &n);
    int e = errno;
    close(fd);
    char *text = raw ? realloc(raw, n + 1) : NULL;
    if (!text) {
        free(raw);
        errno = raw ? ENOMEM : e;
        return NULL;
    }
    text[n] = 0;
    if (len)
        *len = n;
    return text;
}

const char *fz_stats_value(const char *stats, const char *key, char *buf, size_t n)
{
    size_t kl = strlen(key);
    for (const char *l = stats; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        if (strncmp(l, key, kl) != 0 || (l[kl] != ' ' && l[kl] != ':'))
            continue;
        const char *v = strchr(l, ':');
        const char *end = strchr(l, '\n');
        if (!v || (end && v > end))
            continue;
        for (v++; *v == ' '; v++)
            ;
        size_t m = end ? (size_t)(end - v) : strlen(v);
        if (m >= n)
            m = n - 1;
        memcpy(buf, v, m);
        buf[m] = 0;
        while (m && (buf[m - 1] == ' ' || buf[m - 1] == '\r'))
            buf[--m] = 0;
        return buf;
    }
    return NULL;
}
