/*
 * outdir.h - the output directory in AFL++'s layout:
 *
 *   OUT/NAME/{queue,crashes,hangs}/  fuzzer_stats  fuzzer_setup  plot_data  cmdline
 *
 * NAME is "default" or the -M/-S name.  This module creates it, refuses one a
 * running fz-fuzz holds (lock file with its pid) or one that holds an earlier
 * campaign unless resuming, never deletes anything, and writes every file
 * atomically (temp file + rename) so a kill or a full disk at any moment
 * leaves only whole files.  It also reads seed directories.
 *
 * The directory may have been prepared by someone else (a shared /tmp, a CI
 * cache), and fz-fuzz often runs as root, so it is walked without following
 * symlinks: OUT, OUT/NAME and its subdirectories are opened once with
 * O_DIRECTORY | O_NOFOLLOW and every file is created relative to those
 * descriptors (core/fileio.h's fz_write_atomic_at).  An OUT, or any entry fz
 * uses in it, that is a symlink or belongs to another user is refused with
 * one line naming it.
 */
#ifndef FZ_FUZZ_OUTDIR_H
#define FZ_FUZZ_OUTDIR_H

#include <stddef.h>
#include <stdint.h>

typedef struct fz_outdir {
    char *dir;      /* OUT/NAME */
    int dir_fd;     /* OUT/NAME, opened without following links; -1 if closed */
    int sub_fd[3];  /* queue, crashes, hangs (the same way) */
    int lock_fd;    /* holds the flock while we run; -1 if none */
    int spare_fd;   /* a preallocated hidden file fuzzer_stats can become on a full disk */
    int resumed;    /* an earlier campaign's queue was found and kept */
} fz_outdir_t;

/* One input file read from a directory. */
typedef struct fz_file {
    char *name; /* file name (no directory) */
    uint8_t *data;
    uint32_t len;
} fz_file_t;

typedef struct fz_files {
    fz_file_t *f;
    uint32_t n;
} fz_files_t;

/* Create (or, with resume, reopen) OUT/NAME and take its lock.  Dies with a
 * one-line message when the directory is in use, holds a campaign and
 * resume is off, or cannot be created. */
void fz_outdir_open(fz_outdir_t *od, const char *root, const char *name, int resume);

/* Release the lock (the directory and its files stay). */
void fz_outdir_close(fz_outdir_t *od);

/* Write DIR/NAME atomically: a temp file in DIR, then rename.  Returns 0, or
 * -errno with no file left behind (neither the temp nor a partial NAME). */
int fz_write_atomic(const char *dir, const char *name, const void *data, size_t len);

/* Writes OUT/NAME/SUB/NAME atomically (SUB may be "" for the top; a SUB
 * other than queue, crashes, hangs is opened without following links).
 * Returns 0 or -errno; nothing is left behind on failure. */
int fz_outdir_try_save(fz_outdir_t *od, const char *sub, const char *name, const void *data,
                       size_t len);

/* fz_outdir_try_save, dying with a message naming the file and the fix
 * (e.g. a full disk) if it fails. */
void fz_outdir_save(fz_outdir_t *od, const char *sub, const char *name, const void *data,
                    size_t len);

/* fz_outdir_try_save for a small top-level file that must stay current
 * (fuzzer_stats): when the disk is full, the content goes into a spare file
 * preallocated on an earlier write (at most FZ_OUTDIR_SPARE bytes), renamed
 * over NAME, so the counts of a run that ends on a full disk are still
 * right.  Returns 0 or -errno. */
#define FZ_OUTDIR_SPARE 8192
int fz_outdir_save_reserved(fz_outdir_t *od, const char *name, const void *data, size_t len);

/* Removes OUT/NAME/SUB/NAME (rolling back files of an unfinished step). */
void fz_outdir_remove(fz_outdir_t *od, const char *sub, const char *name);

/* The message for a failed write of SUB/NAME (rc = -errno): a full disk
 * says so and how to go on. */
void fz_outdir_describe(const fz_outdir_t *od, const char *sub, const char *name, int rc,
                        char *msg, size_t n);

/* fz_files_load flags. */
#define FZ_FILES_MAY_BE_EMPTY 1 /* a directory without files is fine (replay) */
#define FZ_FILES_KEEP_EMPTY 2   /* load zero-byte files too (a resumed queue) */
#define FZ_FILES_NO_LINKS 8     /* a symlink is an error (fz's own output directory) */
#define FZ_FILES_SKIP_BIG 4     /* a file over max_len is skipped with a warning (seeds) */

/* Read every regular, non-hidden file of dir (but README.txt), sorted by
 * name, into files.  what names the directory in messages ("seed
 * directory").  Dies when dir is missing, unreadable, has no files (unless
 * FZ_FILES_MAY_BE_EMPTY), or holds a file over max_len (naming it); warns
 * about and skips zero-byte files unless FZ_FILES_KEEP_EMPTY. */
void fz_files_load(fz_files_t *files, const char *dir, const char *what, uint32_t max_len,
                   int flags);
void fz_files_free(fz_files_t *files);

/* Largest "id:N" among the names in OUT/NAME/SUB, plus one (0 if none). */
uint32_t fz_outdir_next_id(const fz_outdir_t *od, const char *sub);

/* Reads the top-level file NAME of OUT/NAME (fuzzer_stats, plot_data,
 * cmdline, fuzzer_setup: checked at open, never followed) into a malloc'ed,
 * NUL-terminated buffer of at most max bytes; NULL if it does not exist. */
char *fz_outdir_read(const fz_outdir_t *od, const char *name, size_t max);

#endif
