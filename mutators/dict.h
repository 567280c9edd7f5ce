/*
 * dict.h - dictionaries: byte strings ("tokens") the mutators insert into or
 * write over the input, so a fuzzer gets past magic values and keywords that
 * random bytes would take forever to guess.
 *
 * Tokens come from -x files in AFL's format (fz_dict_parse on the file's
 * text; fz-fuzz/dictfile.h reads the files) and from anything else that
 * collects them later (fz_dict_add).  Nothing here does I/O, prints or
 * exits: errors come back as text ("file:line: what is wrong") for the
 * caller to show.
 */
#ifndef FZ_DICT_H
#define FZ_DICT_H

#include <stddef.h>
#include <stdint.h>

/* Longest token, in bytes.  128 is AFL's MAX_DICT_FILE: tokens are keywords
 * and magic numbers, and a longer one is almost always a mistake (a whole
 * file pasted in), so the loader rejects it rather than silently cutting. */
#define FZ_DICT_TOKEN_MAX 128

/* Most tokens one dictionary holds; fz_dict_add refuses more.  Havoc picks a
 * token uniformly, so past a few thousand each token is rarely tried. */
#define FZ_DICT_MAX_TOKENS 65536

typedef struct {
    uint32_t len; /* 1..FZ_DICT_TOKEN_MAX */
    uint8_t data[FZ_DICT_TOKEN_MAX];
} fz_dict_token_t;

typedef struct {
    fz_dict_token_t *tokens;
    size_t count;
    size_t cap;
} fz_dict_t;

/* An empty dictionary (no allocation until the first token). */
void fz_dict_init(fz_dict_t *d);

/*
 * Add one token.  Returns 1 if added, 0 if it was already present (tokens are
 * kept unique so a repeated token is not tried more often), -1 if it is empty,
 * longer than FZ_DICT_TOKEN_MAX, the dictionary is full, or memory ran out.
 */
int fz_dict_add(fz_dict_t *d, const uint8_t *tok, size_t len);

/*
 * Parse the text of an AFL-format dictionary (buf[0..len), need not end in
 * a NUL or a newline) and add its tokens:
 *
 *     # comment
 *     name="value"          keyword name is free text, ignored
 *     name@3="value"        only loaded when the level is <= level
 *     "value"               bare value
 *     "\x00\xff\"\\"        \xNN, \" and \\ escapes; other bytes must be printable
 *
 * An entry "name@L=..." loads only when L <= level; entries without "@L"
 * always load (AFL's rule).  name is the file name errors start with.
 *
 * Returns the number of tokens added (duplicates are not counted), or -1 with
 * a one-line message in err ("dict.txt:12: unterminated string; close it with
 * a double quote") and the dictionary holding whatever was added before the
 * error.  err may be NULL.
 */
int fz_dict_parse(fz_dict_t *d, const char *buf, size_t len, const char *name, long level,
                  char *err, size_t errlen);

/* A dictionary error: the message, printf-style, into err (which may be
 * NULL).  Returns -1.  For the file side of -x (fz-fuzz/dictfile.c) too, so
 * both report in one form. */
__attribute__((format(printf, 3, 4))) int fz_dict_error(char *err, size_t errlen,
                                                        const char *fmt, ...);

/* Release the tokens; the dictionary is empty and reusable afterwards. */
void fz_dict_free(fz_dict_t *d);

#endif
