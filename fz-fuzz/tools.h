/*
 * tools.h - small helpers the stand-alone tools (fz-showmap, fz-tmin,
 * fz-cmin) share: number parsing, whole-file reads, atomic writes.
 */
#ifndef FZ_TOOLS_H
#define FZ_TOOLS_H

#include <stddef.h>
#include <stdint.h>

/* Parses a decimal option value in [min, max] or dies naming the flag. */
uint32_t fz_tool_parse_u32(const char *s, const char *flag, uint32_t min, uint32_t max);

/* Reads all of fd (up to FZ_MAX_INPUT + 1 bytes) into a malloc'ed buffer;
 * NULL on error (errno set). */
uint8_t *fz_tool_read_fd(int fd, size_t *len);

/* Reads a whole file; NULL on error (errno set).  Files larger than
 * FZ_MAX_INPUT are read whole; callers check the size. */
uint8_t *fz_tool_read_file(const char *path, size_t *len);

/* "path.tmp.PID", malloc'ed: a sibling name to rename() into path. */
char *fz_tool_tmp_name(const char *path);

/* Writes buf to path through a temp file and rename, so readers never see
 * half a file.  Returns 0 or -1 (errno set, temp file removed). */
int fz_tool_write_atomic(const char *path, const uint8_t *buf, size_t len);

/* FZ_DEBUG_CHILD=1 (or AFL_DEBUG_CHILD=1): keep the target's output. */
int fz_tool_debug_child(void);

#endif
