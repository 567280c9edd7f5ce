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
#define SPARE_NAME ".fz-spare"

/* Names fz-fuzz reads or writes at the top of OUT/NAME.  Each is refused
 * when it is a symlink or another user's: rename() would replace a link
 * safely, but reads (resume) and the lock would go through it. */
static const char *const top_entries[] = {
    LOCK_NAME, "cmdline", "fuzzer_stats", "fuzzer_setup", "plot_data", "is_main_node",
    ".synced", SPARE_NAME, "fuzzer_stats.json",
};
static const char *const sub_names[3] = {"queue", "crashes", "hangs"};

/* Dies if st (of path) is a symlink or not ours. */
static void check_owned(const struct stat *st, const char *path)
{
    if (S_ISLNK(st->st_mode))
        fz_die("'%s' in the output directory is a symlink; fz-fuzz does not follow links there "
               "(someone else may have planted it): remove it or use another -o",
               path);
    if (st->st_uid != geteuid())
        fz_die("'%s' in the output directory belongs to another user (uid %u); fz-fuzz writes "
               "only to its own user's files: remove it or use another -o",
               path, (unsigned)st->st_uid);
}

/* Opens (creating it if missing) the directory name under at without
 * following a link, and checks it is a directory of ours. */
static int open_dir(int at, const char *name, const char *path)
{
    if (mkdirat(at, name, 0700) != 0 && errno != EEXIST)
        fz_die("cannot create output directory '%s': %s; check the path and permissions or use "
               "another -o",
               path, strerror(errno));
    struct stat st;
    if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        fz_die("cannot examine output directory '%s': %s", path, strerror(errno));
    if (S_ISLNK(st.st_mode))
        fz_die("output directory '%s' is a symlink; fz-fuzz does not follow links in its output "
               "directory (someone else may have planted it): give the real path or another -o",
               path);
    if (!S_ISDIR(st.st_mode))
        fz_die("output directory '%s' exists but is not a directory; remove it or use another -o",
               path);
    int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        fz_die("cannot open output directory '%s': %s; check its permissions or use another -o",
               path, strerror(errno));
    if (fstat(fd, &st) != 0 || st.st_uid != geteuid())
        fz_die("output directory '%s' belongs to another user (uid %u); fz-fuzz writes only to "
               "its own user's directories: use another -o",
               path, (unsigned)st.st_uid);
    return fd;
}

/* Refuses the entries fz uses in the directory at fd if any is a link or
 * another user's. */
static void check_entries(int fd, const char *dir, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (fstatat(fd, names[i], &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        char *p = fz_path_join(dir, names[i], NULL);
        check_owned(&st, p);
        free(p);
    }
}

/* Removes the temp files a killed run left in the directory at fd
 * (fz_write_atomic_at's ".fz-tmp.PID"): we hold the lock, so no live
 * writer owns one. */
static void remove_stale_temps(int fd)
{
    int dup_fd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
    if (!d) {
        if (dup_fd >= 0)
            close(dup_fd);
        return;
    }
    for (struct dirent *de; (de = readdir(d));)
        if (strncmp(de->d_name, ".fz-tmp.", 8) == 0)
            unlinkat(fd, de->d_name, 0);
    closedir(d);
}

/* Names in the directory at fd that are not hidden, or -1 on error. */
static long count_entries(int fd)
{
    int dup_fd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
    if (!d) {
        if (dup_fd >= 0)
            close(dup_fd);
        return -1;
    }
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
    int fd = openat(od->dir_fd, LOCK_NAME, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        fz_die("cannot open lock file '%s': %s; check permissions or use another -o", lock,
               strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        fz_die("lock file '%s' is not a regular file; remove it or use another -o", lock);
    check_owned(&st, lock);
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
    od->lock_fd = od->spare_fd = od->dir_fd = -1;
    for (int i = 0; i < 3; i++)
        od->sub_fd[i] = -1;
    int root_fd = open_dir(AT_FDCWD, root, root);
    od->dir = fz_path_join(root, name, NULL);
    od->dir_fd = open_dir(root_fd, name, od->dir);
    close(root_fd);
    check_entries(od->dir_fd, od->dir, top_entries, sizeof top_entries / sizeof top_entries[0]);
    check_entries(od->dir_fd, od->dir, sub_names, 3);
    take_lock(od);

    struct stat st;
    int q = openat(od->dir_fd, "queue", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    long n = q >= 0 ? count_entries(q) : 0;
    if (q >= 0)
        close(q);
    int campaign = n > 0 || fstatat(od->dir_fd, "fuzzer_stats", &st, AT_SYMLINK_NOFOLLOW) == 0;
    if (campaign && !resume)
        fz_die("output directory '%s' holds an earlier campaign (%ld queue entries); resume it "
               "with -i - (or FZ_AUTORESUME=1) or use another -o (nothing was deleted)",
               od->dir, n > 0 ? n : 0);
    od->resumed = campaign && n > 0;
    remove_stale_temps(od->dir_fd);
    for (int i = 0; i < 3; i++) {
        char *p = fz_path_join(od->dir, sub_names[i], NULL);
        od->sub_fd[i] = open_dir(od->dir_fd, sub_names[i], p);
        remove_stale_temps(od->sub_fd[i]);
        free(p);
    }
    static const char *const readme[] = {"README.txt"};
    char *crashes = fz_path_join(od->dir, "crashes", NULL);
    check_entries(od->sub_fd[1], crashes, readme, 1);
    free(crashes);
}

void fz_outdir_close(fz_outdir_t *od)
{
    if (od->lock_fd >= 0)
        close(od->lock_fd); /* drops the flock; the file stays, harmless */
    if (od->spare_fd >= 0)
        close(od->spare_fd);
    if (od->dir_fd >= 0)
        close(od->dir_fd);
    for (int i = 0; i < 3; i++)
        if (od->sub_fd[i] >= 0)
            close(od->sub_fd[i]);
    od->lock_fd = od->spare_fd = od->dir_fd = od->sub_fd[0] = od->sub_fd[1] = od->sub_fd[2] = -1;
    free(od->dir);
    od->dir = NULL;
}

int fz_write_atomic(const char *dir, const char *name, const void *data, size_t len)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    int rc = fz_write_atomic_at(fd, name, data, len, 0600) ? -errno : 0;
    close(fd);
    return rc;
}

/* The descriptor of SUB: one of those held, or a new one (*opened). */
static int sub_dir(const fz_outdir_t *od, const char *sub, int *opened)
{
    *opened = 0;
    if (!sub[0])
        return od->dir_fd;
    for (int i = 0; i < 3; i++)
        if (strcmp(sub, sub_names[i]) == 0)
            return od->sub_fd[i];
    *opened = 1;
    return openat(od->dir_fd, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

int fz_outdir_try_save(fz_outdir_t *od, const char *sub, const char *name, const void *data,
                       size_t len)
{
    int opened, fd = sub_dir(od, sub, &opened);
    if (fd < 0)
        return errno == ELOOP || errno == ENOTDIR ? -ELOOP : -errno;
    int rc = fz_write_atomic_at(fd, name, data, len, 0600) ? -errno : 0;
    if (opened)
        close(fd);
    return rc;
}

void fz_outdir_describe(const fz_outdir_t *od, const char *sub, const char *name, int rc,
                        char *msg, size_t n)
{
    const char *slash = sub[0] ? "/" : "";
    if (rc == -ENOSPC || rc == -EDQUOT)
        snprintf(msg, n,
                 "disk full while writing '%s/%s%s%s'; free some space and resume with -i - "
                 "(everything saved before is intact)",
                 od->dir, sub, slash, name);
    else if (rc == -ELOOP)
        snprintf(msg, n,
                 "'%s/%s' is a symlink (or not a directory); fz-fuzz does not follow links in "
                 "its output directory: remove it",
                 od->dir, sub);
    else
        snprintf(msg, n, "cannot write '%s/%s%s%s': %s; check the output directory", od->dir,
                 sub, slash, name, strerror(-rc));
}

void fz_outdir_save(fz_outdir_t *od, const char *sub, const char *name, const void *data,
                    size_t len)
{
    int rc = fz_outdir_try_save(od, sub, name, data, len);
    if (rc == 0)
        return;
    char msg[1024];
    fz_outdir_describe(od, sub, name, rc, msg, sizeof msg);
    fz_die("%s", msg);
}

/* Makes the spare file (see fz_outdir_save_reserved) if there is none. */
static void make_spare(fz_outdir_t *od)
{
    if (od->spare_fd >= 0)
        return;
    int fd = openat(od->dir_fd, SPARE_NAME, O_RDWR | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
                    0600);
    if (fd < 0)
        return;
    if (posix_fallocate(fd, 0, FZ_OUTDIR_SPARE) != 0) {
        close(fd);
        unlinkat(od->dir_fd, SPARE_NAME, 0);
        return;
    }
    od->spare_fd = fd;
}

int fz_outdir_save_reserved(fz_outdir_t *od, const char *name, const void *data, size_t len)
{
    int rc = fz_outdir_try_save(od, "", name, data, len);
    if (rc == 0) {
        make_spare(od);
        return 0;
    }
    if ((rc != -ENOSPC && rc != -EDQUOT) || od->spare_fd < 0 || len > FZ_OUTDIR_SPARE)
        return rc;
    /* The spare's blocks are allocated already: overwriting them and
     * shrinking the file needs no new space, and the rename keeps the
     * replacement atomic.  The old file's blocks are freed by it. */
    if (pwrite(od->spare_fd, data, len, 0) != (ssize_t)len || ftruncate(od->spare_fd, (off_t)len) ||
        renameat(od->dir_fd, SPARE_NAME, od->dir_fd, name))
        return rc;
    close(od->spare_fd);
    od->spare_fd = -1;
    make_spare(od); /* may fit again in the freed space */
    return 0;
}

void fz_outdir_remove(fz_outdir_t *od, const char *sub, const char *name)
{
    int opened, fd = sub_dir(od, sub, &opened);
    if (fd < 0)
        return;
    unlinkat(fd, name, 0);
    if (opened)
        close(fd);
}

char *fz_outdir_read(const fz_outdir_t *od, const char *name, size_t max)
{
    int fd = openat(od->dir_fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) == 0 && (uint64_t)st.st_size < max)
        max = (size_t)st.st_size;
    char *buf = malloc(max + 1);
    if (!buf)
        fz_die("out of memory");
    size_t got = 0;
    for (ssize_t r; got < max && (r = read(fd, buf + got, max - got)) != 0;) {
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    buf[got] = 0;
    return buf;
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
    int r = flags & FZ_FILES_NO_LINKS ? lstat(path, &st) : stat(path, &st);
    if (r == 0 && S_ISLNK(st.st_mode))
        fz_die("'%s' in the %s is a symlink; fz-fuzz does not follow links in its output "
               "directory (someone else may have planted it): remove it",
               path, what);
    if (r != 0 || !S_ISREG(st.st_mode)) {
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
    int opened, fd = sub_dir(od, sub, &opened);
    int dup_fd = fd >= 0 ? openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (opened && fd >= 0)
        close(fd);
    DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
    uint32_t next = 0;
    if (!d) {
        if (dup_fd >= 0)
            close(dup_fd);
        return 0;
    }
    for (struct dirent *de; (de = readdir(d));) {
        long id = fz_name_id(de->d_name);
        if (id >= 0 && (uint32_t)id + 1 > next)
            next = (uint32_t)id + 1;
    }
    closedir(d);
    return next;
}
