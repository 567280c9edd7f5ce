/*
 * custom_mutator_min.c - fz's own small AFL++ custom mutator, for the
 * tests that must run without AFL++'s source (tests/e2e/custom_aflpp.sh).
 * Written against AFL++'s documented C API (no afl-fuzz.h): every
 * optional function, each counting its calls; deinit writes the counts to
 * $FZ_TEST_MUT_LOG.  fuzz writes one of three commands at the start of
 * the input (as AFL++'s example.c does), post_process puts "AFL++" in
 * front, the trim drops the last byte while coverage stays.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OUT_MAX (1u << 20)

typedef struct {
    unsigned long long rng;
    unsigned char *out, *post, *trim;
    size_t trim_len;
    int trim_steps, trim_cur;
    unsigned long init, fuzz, post_n, havoc, describe, trim_n, new_entry, get, count;
    char desc[32];
} mut_t;

static unsigned next(mut_t *m)
{
    m->rng = m->rng * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(m->rng >> 33);
}

void *afl_custom_init(void *afl, unsigned int seed)
{
    (void)afl; /* only kept by real mutators; never read here */
    mut_t *m = calloc(1, sizeof *m);
    if (!m || !(m->out = malloc(OUT_MAX)) || !(m->post = malloc(OUT_MAX + 5)) ||
        !(m->trim = malloc(OUT_MAX)))
        return NULL;
    m->rng = seed;
    m->init++;
    return m;
}

unsigned int afl_custom_fuzz_count(mut_t *m, const unsigned char *buf, size_t n)
{
    (void)buf;
    (void)n;
    m->count++;
    return 64;
}

size_t afl_custom_fuzz(mut_t *m, unsigned char *buf, size_t n, unsigned char **out,
                       unsigned char *add, size_t add_n, size_t max)
{
    static const char *cmds[] = {"GET", "PUT", "DEL"};
    (void)add;
    (void)add_n;
    if (n > max)
        n = max;
    if (n < 4)
        n = 4 <= max ? 4 : max;
    memset(m->out, 'x', n);
    memcpy(m->out, buf, n);
    const char *c = cmds[next(m) % 3];
    memcpy(m->out, c, 3);
    m->out[3 + next(m) % (n - 3 ? n - 3 : 1)] ^= (unsigned char)next(m);
    snprintf(m->desc, sizeof m->desc, "min_%s", c);
    m->fuzz++;
    *out = m->out;
    return n;
}

const char *afl_custom_describe(mut_t *m, size_t max)
{
    (void)max;
    m->describe++;
    return m->desc;
}

size_t afl_custom_post_process(mut_t *m, unsigned char *buf, size_t n, unsigned char **out)
{
    if (n > OUT_MAX)
        n = OUT_MAX;
    memcpy(m->post, "AFL++", 5);
    memcpy(m->post + 5, buf, n);
    m->post_n++;
    *out = m->post;
    return n + 5;
}

size_t afl_custom_havoc_mutation(mut_t *m, unsigned char *buf, size_t n, unsigned char **out,
                                 size_t max)
{
    (void)max;
    if (n)
        buf[next(m) % n] ^= 1;
    m->havoc++;
    *out = buf;
    return n;
}

unsigned char afl_custom_havoc_mutation_probability(mut_t *m)
{
    (void)m;
    return 20;
}

int afl_custom_init_trim(mut_t *m, unsigned char *buf, size_t n)
{
    memcpy(m->trim, buf, n);
    m->trim_len = n;
    m->trim_cur = 0;
    m->trim_steps = n > 4 ? (int)(n - 4) : 0;
    return m->trim_steps;
}

size_t afl_custom_trim(mut_t *m, unsigned char **out)
{
    m->trim_n++;
    *out = m->trim;
    return m->trim_len - 1;
}

int afl_custom_post_trim(mut_t *m, unsigned char success)
{
    if (!success)
        return m->trim_steps; /* the last byte matters: done */
    m->trim_len--;
    return ++m->trim_cur;
}

unsigned char afl_custom_queue_get(mut_t *m, const unsigned char *name)
{
    (void)name;
    m->get++;
    return 1;
}

unsigned char afl_custom_queue_new_entry(mut_t *m, const unsigned char *name,
                                         const unsigned char *orig)
{
    (void)orig;
    FILE *f = fopen((const char *)name, "rb");
    if (f) { /* the file must exist when it is announced */
        m->new_entry++;
        fclose(f);
    }
    return 0;
}

void afl_custom_deinit(mut_t *m)
{
    const char *p = getenv("FZ_TEST_MUT_LOG");
    FILE *f = p ? fopen(p, "w") : NULL;
    if (f) {
        fprintf(f, "init=%lu fuzz=%lu post=%lu havoc=%lu describe=%lu trim=%lu new_entry=%lu "
                   "get=%lu count=%lu\n",
                m->init, m->fuzz, m->post_n, m->havoc, m->describe, m->trim_n, m->new_entry,
                m->get, m->count);
        fclose(f);
    }
    free(m->out);
    free(m->post);
    free(m->trim);
    free(m);
}
