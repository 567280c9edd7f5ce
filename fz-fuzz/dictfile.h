/*
 * dictfile.h - reading -x dictionaries from disk: an AFL-format file (parsed
 * by mutators/dict.h's fz_dict_parse) or a directory holding one token per
 * file, AFL's two -x forms.  Kept out of mutators/ so the engine has no I/O.
 */
#ifndef FZ_FUZZ_DICTFILE_H
#define FZ_FUZZ_DICTFILE_H

#include <stddef.h>

#include "mutators/dict.h"

/* Largest dictionary file read: far above any real one (AFL++'s own
 * dictionaries are a few KiB), low enough that a wrong path (a core file,
 * a disk image) fails at once with a message instead of eating memory. */
#define FZ_DICTFILE_MAX_BYTES (16u << 20)

/*
 * Add the tokens of path to d.  path may end in "@N" (as with afl-fuzz -x
 * file@N) to set the level, 0 when absent; the suffix is only taken as a
 * level when the full name does not exist.  A directory adds each regular,
 * non-empty file in it as one token.  Returns the number of tokens added,
 * or -1 with a one-line message in err ("dict.txt:12: ..." for syntax
 * errors, "cannot read ..." for I/O).  err may be NULL.
 */
int fz_dictfile_load(fz_dict_t *d, const char *path, char *err, size_t errlen);

#endif
