/*
 * dictfile.c - the file and directory side of -x (see dictfile.h).  The
 * syntax lives in mutators/dict.c; this file only finds and reads bytes.
 */
#include "fz-fuzz/dictfile.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/fileio.h"

static int load_file(fz_dict_t *d, const char *path, long level, char *err, size_t errlen)
{
    size_t len = 0;
    uint8_t *text = fz_file_read(path, FZ_DICTFILE_MAX_BYTES, 0, &len);
    if (!text)
        return fz_dict_error(
            err, errlen, "cannot read dictionary '%s': %s; check the -x path", path,
            errno == EFBIG ? "larger than 16 MiB, not a dictionary" : strerror(errno));
    int rc = fz_dict_parse(d, (const char *)text, len, path, level, err, errlen);
    free(text);
    return rc;
}

/* AFL's other -x form: a directory whose files are one token each. */
static int load_dir(fz_dict_t *d, const char *path, char *err, size_t errlen)
{
    DIR *dir = opendir(path);
    if (!dir)
        return fz_dict_error(err, errlen, "cannot read dictionary directory '%s': %s", path,
                             strerror(errno));
    int added = 0, rc = 0;
    struct dirent *e;
    char file[4096 + 512];
    while (rc == 0 && (e = readdir(dir))) {
        struct stat st;
        int fn = snprintf(file, sizeof(file), "%s/%.255s", path, e->d_name);
        if (fn < 0 || fn >= (int)sizeof(file) || e->d_name[0] == '.' || stat(file, &st) != 0 ||
            !S_ISREG(st.st_mode) || st.st_size == 0)
            continue;
        if (st.st_size > FZ_DICT_TOKEN_MAX) {
            rc = fz_dict_error(err, errlen,
                               "%s: token file is %lld bytes, longer than %d; shorten it", file,
                               (long long)st.st_size, FZ_DICT_TOKEN_MAX);
            break;
        }
        size_t n = 0;
        uint8_t *tok = fz_file_read(file, FZ_DICT_TOKEN_MAX, 0, &n);
        if (!tok)
            rc = fz_dict_error(err, errlen, "cannot read dictionary token '%s'", file);
        else if (fz_dict_add(d, tok, n) == 1)
            added++;
        free(tok);
    }
    closedir(dir);
    return rc < 0 ? -1 : added;
}

int fz_dictfile_load(fz_dict_t *d, const char *path, char *err, size_t errlen)
{
    char name[4096];
    long level = 0;
    if (snprintf(name, sizeof(name), "%s", path) >= (int)sizeof(name))
        return fz_dict_error(err, errlen, "dictionary path is too long: %.64s...", path);
    /* "file@N" sets the level, as with afl-fuzz -x; a file whose real name
     * ends in @digits is still found, since the suffix is only stripped
     * when the full name does not exist. */
    char *at = strrchr(name, '@');
    struct stat st;
    if (at && at[1] && strspn(at + 1, "0123456789") == strlen(at + 1) && stat(name, &st) != 0) {
        level = strtol(at + 1, NULL, 10);
        *at = '\0';
    }
    if (stat(name, &st) == 0 && S_ISDIR(st.st_mode))
        return load_dir(d, name, err, errlen);
    return load_file(d, name, level, err, errlen);
}
