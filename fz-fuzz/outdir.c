/*
 * outdir.c - the output directory: creation, the lock, resume detection,
 * atomic writes, and reading directories of inputs.  See outdir.h.
 */
#include "outdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fileio.h"
#include "fz-fuzz/names.h"
#include "fz-log.h"

#define LOCK_NAME ".fz.lock"

static void make_dir(const char *path, const char *what)
{
    if (mkdir(path, 0700) != 0 && errno != EEXIST)
        fz_die("cannot create %s '%s': %s; check the path and permissions or use another -o", what,
               path, strerror(errno));
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        fz_die("%s '%s' exists but is not a directory; remove it or use another -o", what, path);
}

/* Names in dir that are not hidden, or -1 if dir cannot be opened. */
static long count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    long n = 0;
    for (struct dirent *de; (de = readdir(d));)
        if (de->d_name[0] != '.')
            n++;
    closedir(d);
    return n;
}

static void take_lock(fz_outdir_t *od)
{
    char *lock = fz_path_join(od->dir, LOCK_NAME, NULL);
    int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        fz_die("cannot open lock file '%s': %s; check permissions or use another -o", lock,
               strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        char buf[32] = "";
        ssize_t r = pread(fd, buf, sizeof(buf) - 1, 0);
        buf[r > 0 ? r : 0] = 0;
        buf[strcspn(buf, "\n")] = 0;
        fz_die("output directory '%s' is in use by fz-fuzz pid %s; stop that run or use another "
               "-o",
               od->dir, buf[0] ? buf : "(unknown)");
    }
    /* The lock file is the one file not replaced by rename: renaming would
     * swap the inode that carries the lock.  It only ever holds our pid. */
    char pid[32];
    int n = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, n, 0) != n)
        fz_warn("cannot write pid to '%s': %s", lock, strerror(errno));
    od->lock_fd = fd;
    free(lock);
}

void fz_outdir_open(fz_outdir_t *od, const char *root, const char *name, int resume)
{
    memset(od, 0, sizeof(*od));
    od->lock_fd = -1;
    make_dir(root, "output directory");
    od->dir = fz_path_join(root, name, NULL);
    make_dir(od->dir, "output directory");
    take_lock(od);

    char *q = fz_path_join(od->dir, "queue", NULL);
    char *stats = fz_path_join(od->dir, "fuzzer_stats", NULL);
    long n = count_entries(q);
    int campaign = n > 0 || access(stats, F_OK) == 0;
    if (campaign && !resume)
        fz_die("output directory '%s' holds an earlier campaign (%ld queue entries); resume it "
               "with -i - (or FZ_AUTORESUME=1) or use another -o (nothing was deleted)",
               od->dir, n > 0 ? n : 0);
    od->resumed = campaign && n > 0;
    free(q);
    free(stats);
    const char *subs[] = {"queue", "crashes", "hangs"};
    for (int i = 0; i < 3; i++) {
        char *p = fz_path_join(od->dir, subs[i], NULL);
        make_dir(p, "output directory");
        free(p);
    }
}

void fz_outdir_close(fz_outdir_t *od)
{
    if (od->lock_fd >= 0)
        close(od->lock_fd); /* drops the flock; the file stays, harmless */
    od->lock_fd = -1;
    free(od->dir);
    od->dir = NULL;
}

int fz_write_atomic(const char *dir, const char *name, const void *data, size_t len)
{
    char *dst = fz_path_join(dir, name, NULL);
    int rc = fz_file_write_atomic(dst, data, len, 0600) ? -errno : 0;
    free(dst);
    return rc;
}

void fz_outdir_save(const fz_outdir_t *od, const char *sub, const char *name, const void *data,
                    size_t len)
{
    char *dir = fz_path_join(od->dir, sub, NULL);
    int rc = fz_write_atomic(dir, name, data, len);
    if (rc == -ENOSPC || rc == -EDQUOT)
        fz_die("disk full while writing '%s/%s'; free some space and resume with -i - "
               "(everything saved before is intact)",
               dir, name);
    if (rc != 0)
        fz_die("cannot write '%s/%s': %s; check the output directory", dir, name, strerror(-rc));
    free(dir);
}

static int cmp_file(const void *a, const void *b)
{
    return strcmp(((const fz_file_t *)a)->name, ((const fz_file_t *)b)->name);
}

static int read_file(const char *path, uint32_t max_len, fz_file_t *f)
{
    size_t len = 0;
    f->data = fz_file_read(path, max_len, FZ_FILE_REGULAR, &len);
    f->len = (uint32_t)len;
    return f->data ? 0 : -errno; /* EFBIG: grew since the caller's stat() */
}

/* Adds one directory entry to files if it is a regular, non-empty file. */
static void load_one(fz_files_t *files, const char *dir, const char *name, const char *what,
                     uint32_t max_len, int flags)
{
    char *path = fz_path_join(dir, name, NULL);
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
        free(path);
        return;
    }
    if ((uint64_t)st.st_size > max_len && (flags & FZ_FILES_SKIP_BIG)) {
        fz_warn("skipping '%s' in the %s: %lld bytes, over fz-fuzz's input limit of %u bytes",
                path, what, (long long)st.st_size, max_len);
        free(path);
        return;
    }
    if ((uint64_t)st.st_size > max_len)
        fz_die("file '%s' in the %s is %lld bytes, over the %u-byte limit; shrink it or remove it",
               path, what, (long long)st.st_size, max_len);
    if (st.st_size == 0 && !(flags & FZ_FILES_KEEP_EMPTY)) {
        fz_warn("skipping empty file '%s' in the %s", path, what);
        free(path);
        return;
    }
    fz_file_t f = {0};
    int rc = read_file(path, max_len, &f);
    if (rc != 0)
        fz_die("cannot read %s file '%s': %s; fix its permissions or remove it", what, path,
               strerror(-rc));
    f.name = strdup(name);
    fz_file_t *grown = realloc(files->f, (files->n + 1) * sizeof(*grown));
    if (!grown || !f.name)
        fz_die("out of memory");
    files->f = grown;
    files->f[files->n++] = f;
    free(path);
}

void fz_files_load(fz_files_t *files, const char *dir, const char *what, uint32_t max_len,
                   int flags)
{
    memset(files, 0, sizeof(*files));
    DIR *d = opendir(dir);
    if (!d) {
        if (errno == ENOENT)
            fz_die("%s '%s' does not exist; create it and put at least one example input in it",
                   what, dir);
        fz_die("cannot read %s '%s': %s; check that it is a readable directory", what, dir,
               strerror(errno));
    }
    for (struct dirent *de; (de = readdir(d));) {
        if (de->d_name[0] == '.' || strcmp(de->d_name, "README.txt") == 0)
            continue;
        load_one(files, dir, de->d_name, what, max_len, flags);
    }
    closedir(d);
    if (!files->n && !(flags & FZ_FILES_MAY_BE_EMPTY))
        fz_die("%s '%s' holds no usable input files; put at least one non-empty example input in "
               "it",
               what, dir);
    qsort(files->f, files->n, sizeof(fz_file_t), cmp_file);
}

void fz_files_free(fz_files_t *files)
{
    for (uint32_t i = 0; i < files->n; i++) {
        free(files->f[i].name);
        free(files->f[i].data);
    }
    free(files->f);
    memset(files, 0, sizeof(*files));
}

uint32_t fz_outdir_next_id(const fz_outdir_t *od, const char *sub)
{
    char *dir = fz_path_join(od->dir, sub, NULL);
    DIR *d = opendir(dir);
    free(dir);
    uint32_t next = 0;
    if (!d)
        return 0;
    for (struct dirent *de; (de = readdir(d));) {
        long id = fz_name_id(de->d_name);
        if (id >= 0 && (uint32_t)id + 1 > next)
            next = (uint32_t)id + 1;
    }
    closedir(d);
    return next;
}
