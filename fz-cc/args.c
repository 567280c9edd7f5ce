/*
 * args.c - classify a compiler call and rewrite its argv.
 *
 * A call is one of: pass-through (nothing is compiled: -E, -M, --version, no
 * input files...), which gets the user's argv back unchanged; or a build
 * step, which gets the instrumentation plugin and the harness macros when it
 * compiles C/C++ sources, and the runtime appended last when it links an
 * executable.  -fsanitize=fuzzer / fuzzer-no-link are taken over in every
 * call: fz provides their behaviour itself, and gcc does not know them.
 *
 * Response files (@file) are expanded to classify the call, but handed to
 * the compiler as they were unless they hold an option fz-cc must remove.
 */
#include "fz-cc/args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fz-log.h"

/* Nesting limit for response files that name response files; GCC has none,
 * but a file that includes itself must not hang us. */
#define RSP_MAX_DEPTH 16

typedef struct {
    char **v;
    int n, cap;
} strvec_t;

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        fz_die("out of memory while rewriting the command line");
    return p;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xrealloc(NULL, n), s, n);
}

static void sv_push(strvec_t *sv, char *s)
{
    if (sv->n + 1 >= sv->cap) {
        sv->cap = sv->cap ? sv->cap * 2 : 32;
        sv->v = xrealloc(sv->v, sizeof(char *) * sv->cap);
    }
    sv->v[sv->n++] = s;
    sv->v[sv->n] = NULL;
}

/* Remembers s so fz_args_free() releases it; returns s. */
static char *own(fz_args_t *a, char *s)
{
    a->owned = xrealloc(a->owned, sizeof(char *) * (a->n_owned + 1));
    a->owned[a->n_owned++] = s;
    return s;
}

static char *join3(const char *x, const char *y, const char *z)
{
    size_t n = strlen(x) + strlen(y) + strlen(z) + 1;
    char *s = xrealloc(NULL, n);
    snprintf(s, n, "%s%s%s", x, y, z);
    return s;
}

/* ---- response files ---------------------------------------------------- */

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t len = 0, cap = 4096;
    char *buf = xrealloc(NULL, cap);
    size_t got;
    while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len - 1 == 0)
            buf = xrealloc(buf, cap *= 2);
    }
    fclose(f);
    buf[len] = '\0';
    return buf;
}

/* Splits a response file the way GCC's driver does: whitespace separates
 * arguments, single and double quotes group, a backslash escapes the next
 * character.  Tokens are owned by a. */
static void split_rsp(fz_args_t *a, const char *text, strvec_t *out)
{
    const char *p = text;
    char *tok = xrealloc(NULL, strlen(text) + 1);
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v')
            p++;
        if (!*p)
            break;
        size_t n = 0;
        char quote = 0;
        for (; *p; p++) {
            if (*p == '\\' && p[1]) {
                tok[n++] = *++p;
            } else if (quote) {
                if (*p == quote)
                    quote = 0;
                else
                    tok[n++] = *p;
            } else if (*p == '\'' || *p == '"') {
                quote = *p;
            } else if (strchr(" \t\n\r\f\v", *p)) {
                break;
            } else {
                tok[n++] = *p;
            }
        }
        tok[n] = '\0';
        sv_push(out, own(a, xstrdup(tok)));
    }
    free(tok);
}

/* Appends arg to out, or, if arg is a readable @file, its arguments
 * (recursively).  Returns 1 if arg was expanded.  An unreadable @file is
 * kept literally, as GCC does. */
static int expand_arg(fz_args_t *a, const char *arg, strvec_t *out, int depth)
{
    char *text = NULL;
    if (arg[0] == '@' && depth < RSP_MAX_DEPTH)
        text = read_file(arg + 1);
    if (!text) {
        sv_push(out, (char *)arg);
        return 0;
    }
    strvec_t toks = {0};
    split_rsp(a, text, &toks);
    free(text);
    for (int i = 0; i < toks.n; i++)
        expand_arg(a, toks.v[i], out, depth + 1);
    free(toks.v);
    return 1;
}

/* ---- -fsanitize=fuzzer ------------------------------------------------- */

/* For "-fsanitize=LIST" / "-fno-sanitize=LIST": removes fuzzer and
 * fuzzer-no-link from LIST.  Returns arg itself when nothing changes, NULL
 * when nothing is left, else a new string owned by a.  *fuzzer is set to
 * whether the libFuzzer driver is wanted after this argument. */
static const char *strip_fuzzer(fz_args_t *a, const char *arg, bool *fuzzer)
{
    static const char *const prefixes[] = {"-fsanitize=", "-fno-sanitize="};
    for (int k = 0; k < 2; k++) {
        size_t plen = strlen(prefixes[k]);
        if (strncmp(arg, prefixes[k], plen) != 0)
            continue;
        char *list = xstrdup(arg + plen);
        char *kept = xrealloc(NULL, strlen(arg) + 1);
        strcpy(kept, prefixes[k]);
        bool changed = false, any = false;
        for (char *save, *item = strtok_r(list, ",", &save); item;
             item = strtok_r(NULL, ",", &save)) {
            if (!strcmp(item, "fuzzer") || !strcmp(item, "fuzzer-no-link")) {
                if (!strcmp(item, "fuzzer"))
                    *fuzzer = (k == 0);
                changed = true;
                continue;
            }
            if (any)
                strcat(kept, ",");
            strcat(kept, item);
            any = true;
        }
        free(list);
        if (!changed) {
            free(kept);
            return arg;
        }
        if (!any) {
            free(kept);
            return NULL;
        }
        return own(a, kept);
    }
    return arg;
}

/* ---- classification ---------------------------------------------------- */

typedef struct {
    bool opt_c, opt_S, no_code, shared, no_libc, lang_used, probe, lto, out_stdout;
    int n_inputs, n_sources;
    const char *source; /* the first one */
} scan_t;

/* Options whose value is the next argument (when not joined). */
static const char *const takes_arg[] = {"-o",
                                        "-x",
                                        "-I",
                                        "-D",
                                        "-U",
                                        "-include",
                                        "-imacros",
                                        "-isystem",
                                        "-idirafter",
                                        "-iprefix",
                                        "-iwithprefix",
                                        "-iwithprefixbefore",
                                        "-isysroot",
                                        "-iquote",
                                        "-imultilib",
                                        "-iframework",
                                        "-MF",
                                        "-MT",
                                        "-MQ",
                                        "-MJ",
                                        "-L",
                                        "-l",
                                        "-Xlinker",
                                        "-Xassembler",
                                        "-Xpreprocessor",
                                        "-Xclang",
                                        "-mllvm",
                                        "-T",
                                        "-u",
                                        "-z",
                                        "-e",
                                        "--param",
                                        "-aux-info",
                                        "-A",
                                        "-B",
                                        "-dumpbase",
                                        "-dumpbase-ext",
                                        "-dumpdir",
                                        "-wrapper",
                                        "-target",
                                        "-arch",
                                        "-include-pch",
                                        "--sysroot",
                                        "-specs",
                                        "-cxx-isystem",
                                        "-isystem-after",
                                        "-ivfsoverlay",
                                        "-resource-dir",
                                        "-working-directory",
                                        "-F",
                                        NULL};

/* Options after which the compiler generates no code at all. */
static const char *const info_opts[] = {"-E",
                                        "-M",
                                        "-MM",
                                        "-fsyntax-only",
                                        "--version",
                                        "-dumpversion",
                                        "-dumpfullversion",
                                        "-dumpmachine",
                                        "-dumpspecs",
                                        "-###",
                                        "--help",
                                        "--target-help",
                                        NULL};

static bool in_list(const char *const *list, const char *s)
{
    for (; *list; list++)
        if (!strcmp(*list, s))
            return true;
    return false;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* Is a file of language lang ("-x" value, or NULL to go by name) one the
 * plugins instrument: C, C++ or Objective-C source or preprocessed source? */
static bool is_source(const char *lang, const char *name)
{
    static const char *const langs[] = {"c",
                                        "c++",
                                        "objective-c",
                                        "objective-c++",
                                        "cpp-output",
                                        "c++-cpp-output",
                                        "objective-c-cpp-output",
                                        "objective-c++-cpp-output",
                                        "c-header",
                                        "c++-header",
                                        NULL};
    static const char *const exts[] = {"c", "i",  "cc", "cp", "cxx", "cpp", "CPP", "c++",
                                       "C", "ii", "m",  "mi", "mm",  "M",   "mii", NULL};
    if (lang && strcmp(lang, "none") != 0)
        return in_list(langs, lang);
    if (!strcmp(name, "-"))
        return true; /* stdin without -x: GCC refuses unless -E; treat as C */
    const char *dot = strrchr(base_name(name), '.');
    return dot && in_list(exts, dot + 1);
}

/* Configure-style probes compare the compiler's output with nothing, so
 * they must not see the plugins' report line.  Known probe file names:
 * autoconf's conftest*, zlib's ztest*, CMake's compiler identification
 * (CMakeCCompilerId.c, CMakeCXXCompilerABI.cpp...) and try_compile (cmTC_*,
 * in CMakeTmp or CMakeScratch), distutils' _configtest*, meson's private
 * directory. */
static void note_probe(scan_t *s, const char *path)
{
    static const char *const prefixes[] = {
        "conftest", "ztest", "cmTC_", "CMakeCCompiler", "CMakeCXXCompiler", "_configtest", NULL};
    static const char *const dirs[] = {"CMakeFiles/CMakeTmp/", "CMakeFiles/CMakeScratch/",
                                       "meson-private/", NULL};
    const char *base = base_name(path);
    for (int i = 0; prefixes[i]; i++)
        if (!strncmp(base, prefixes[i], strlen(prefixes[i])))
            s->probe = true;
    for (int i = 0; dirs[i]; i++)
        if (strstr(path, dirs[i]))
            s->probe = true;
}

static void scan(const strvec_t *args, scan_t *s)
{
    const char *lang = NULL;
    for (int i = 0; i < args->n; i++) {
        const char *a = args->v[i];
        const char *next = i + 1 < args->n ? args->v[i + 1] : NULL;
        if (a[0] != '-' || !strcmp(a, "-")) {
            s->n_inputs++;
            if (is_source(lang, a) && s->n_sources++ == 0)
                s->source = a;
            note_probe(s, a);
        } else if (!strcmp(a, "-x") || !strncmp(a, "-x", 2)) {
            lang = a[2] ? a + 2 : next;
            s->lang_used = true;
            i += !a[2];
        } else if (!strncmp(a, "-o", 2)) {
            const char *out = a[2] ? a + 2 : next;
            if (out)
                note_probe(s, out);
            s->out_stdout = out && !strcmp(out, "-");
            i += !a[2];
        } else if (!strcmp(a, "-flto") || !strncmp(a, "-flto=", 6) || !strcmp(a, "-fno-lto")) {
            s->lto = a[2] == 'l';
        } else if (!strcmp(a, "-c")) {
            s->opt_c = true;
        } else if (!strcmp(a, "-S")) {
            s->opt_S = true;
        } else if (!strcmp(a, "-shared") || !strcmp(a, "-r")) {
            s->shared = true;
        } else if (!strcmp(a, "-nostdlib") || !strcmp(a, "-nodefaultlibs") ||
                   !strcmp(a, "-nolibc")) {
            /* The runtime needs libc; such a link supplies its own world. */
            s->no_libc = true;
        } else if (in_list(info_opts, a) || !strncmp(a, "-print-", 7) ||
                   !strncmp(a, "--print-", 8) || !strncmp(a, "--help=", 7)) {
            s->no_code = true;
        } else if (in_list(takes_arg, a)) {
            i++;
        }
    }
}

/* ---- the rewrite ------------------------------------------------------- */

/* Macros every compile step gets (docs/internals.md, "Harness macros").
 * The runtime functions are declared inside the expansions with asm labels,
 * so the same text links in C and C++ (no name mangling) without a header.
 * The signature strings are stored through a volatile pointer so they stay
 * in the binary at any -O level; fuzzers search the file for them. */
#define FZ_LOOP_DEFINE(attrs)                                                                      \
    "-D__AFL_LOOP(_fz_n)=({ static volatile const char *__fz_sig __attribute__((used, unused)); "  \
    "__fz_sig = (const char *)\"##SIG_AFL_PERSISTENT##\"; "                                        \
    "__attribute__((visibility(\"default\")" attrs ")) int __fz_loop_fn(unsigned int) "            \
    "__asm__(\"__fz_persistent_loop\"); "                                                          \
    "__fz_loop_fn(_fz_n); })"

/* Clang's __AFL_LOOP: noduplicate keeps loop rotation (and jump threading)
 * from copying the call into the loop's preheader.  With two call sites
 * the branch taken after the call differs between a child's first pass
 * and the later ones, and that edge is counted after the runtime cleared
 * the map, so the same input would show different coverage by its place
 * in the child's life (unstable slots, and a persistent build keeping
 * another queue than a plain one).  GCC does not know the attribute (it
 * would warn), and does not copy the call. */
static const char fz_loop_clang[] = FZ_LOOP_DEFINE(", noduplicate");

static const char *const harness_defines[] = {
    "-D__AFL_COMPILER=1",
    "-D__FZ_COMPILER=1",
    "-DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION=1",
    "-D__AFL_HAVE_MANUAL_CONTROL=1",
    FZ_LOOP_DEFINE(""),
    "-D__AFL_INIT()=do { static volatile const char *__fz_sig __attribute__((used, unused)); "
    "__fz_sig = (const char *)\"##SIG_AFL_DEFER_FORKSRV##\"; "
    "__attribute__((visibility(\"default\"))) void __fz_init_fn(void) "
    "__asm__(\"__fz_manual_init\"); "
    "__fz_init_fn(); } while (0)",
    "-D__AFL_FUZZ_INIT()=int __afl_sharedmem_fuzzing __asm__(\"__afl_sharedmem_fuzzing\") = 1; "
    "extern unsigned char *__afl_fuzz_ptr __asm__(\"__afl_fuzz_ptr\"); "
    "extern unsigned int *__afl_fuzz_len __asm__(\"__afl_fuzz_len\"); "
    "unsigned int __fz_testcase_len(void) __asm__(\"__fz_testcase_len\")",
    "-D__AFL_FUZZ_TESTCASE_BUF=__afl_fuzz_ptr",
    "-D__AFL_FUZZ_TESTCASE_LEN=__fz_testcase_len()",
    NULL};

static const char *lib_file(fz_args_t *a, const fz_args_cfg_t *cfg, const char *name)
{
    char *path = own(a, join3(cfg->lib_dir, "/", name));
    int n = 0;
    while (a->needs[n])
        n++;
    if (n < FZ_ARGS_MAX_NEEDS)
        a->needs[n] = path;
    return path;
}

/* Appends the user's arguments, with -fsanitize=fuzzer* removed; a response
 * file is kept as "@file" unless one of its arguments had to change. */
static void copy_user_args(fz_args_t *a, int argc, char *const argv[], strvec_t *out, bool *fuzzer)
{
    for (int i = 1; i < argc; i++) {
        strvec_t flat = {0};
        int expanded = expand_arg(a, argv[i], &flat, 0);
        strvec_t kept = {0};
        bool changed = false;
        for (int j = 0; j < flat.n; j++) {
            const char *k = strip_fuzzer(a, flat.v[j], fuzzer);
            changed |= k != flat.v[j];
            if (k)
                sv_push(&kept, (char *)k);
        }
        if (expanded && !changed)
            sv_push(out, argv[i]);
        else
            for (int j = 0; j < kept.n; j++)
                sv_push(out, kept.v[j]);
        free(flat.v);
        free(kept.v);
    }
}

void fz_args_rewrite(const fz_args_cfg_t *cfg, int argc, char *const argv[], fz_args_t *out)
{
    memset(out, 0, sizeof(*out));
    strvec_t flat = {0}, res = {0};
    for (int i = 1; i < argc; i++)
        expand_arg(out, argv[i], &flat, 0);
    scan_t s = {0};
    scan(&flat, &s);
    free(flat.v);
    out->n_sources = s.n_sources;
    out->source = s.source ? own(out, xstrdup(s.source)) : NULL;
    out->out_stdout = s.out_stdout;

    bool passthrough = s.no_code || s.n_inputs == 0;
    out->compiles = !passthrough && s.n_sources > 0;
    out->links = !passthrough && !s.opt_c && !s.opt_S && !s.shared && !s.no_libc;
    out->probe = s.probe;

    /* With -flto GCC generates code at link time (lto1 runs the GIMPLE
     * passes then, ours included), so every GCC link step that produces
     * code gets the plugin too: without it an LTO build would come out
     * uninstrumented.  GCC's linker plugin may do LTO even when the link
     * line has no -flto (the objects say so), hence every link, not only
     * those with -flto; a link without LTO never loads the plugin.  Clang
     * runs our pass before writing its LTO bitcode, so it needs nothing. */
    out->lto = s.lto && !passthrough;
    out->plugin_at_link =
        cfg->kind == FZ_CC_KIND_GCC && !passthrough && !out->compiles && !s.opt_c && !s.opt_S;

    sv_push(&res, (char *)cfg->compiler);
    if (out->compiles || out->plugin_at_link) {
        const char *plugin = cfg->kind == FZ_CC_KIND_CLANG ? "fz-llvm-pass.so" : "fz-gcc-plugin.so";
        const char *flag = cfg->kind == FZ_CC_KIND_CLANG ? "-fpass-plugin=" : "-fplugin=";
        out->plugin_at = res.n;
        sv_push(&res, own(out, join3(flag, lib_file(out, cfg, plugin), "")));
    }
    if (out->compiles)
        for (int i = 0; harness_defines[i]; i++)
            sv_push(&res, (char *)(cfg->kind == FZ_CC_KIND_CLANG &&
                                           strncmp(harness_defines[i], "-D__AFL_LOOP(", 13) == 0
                                       ? fz_loop_clang
                                       : harness_defines[i]));
    bool fuzzer = false;
    copy_user_args(out, argc, argv, &res, &fuzzer);
    if (out->links) {
        /* Our objects come after the user's arguments; a "-x LANG" there
         * would make the compiler read them as source. */
        if (s.lang_used) {
            sv_push(&res, "-x");
            sv_push(&res, "none");
        }
        if (fuzzer)
            sv_push(&res, (char *)lib_file(out, cfg, "fz-libfuzzer.o"));
        /* Lets instrumented libraries dlopen'ed later find the runtime's
         * registration function in the executable. */
        sv_push(&res, "-Wl,--export-dynamic-symbol=__fz_register");
        /* Last, so its constructors come last in .init_array order. */
        sv_push(&res, (char *)lib_file(out, cfg, "fz-rt.o"));
    }
    out->argv = res.v;
    out->argc = res.n;
}

void fz_args_free(fz_args_t *a)
{
    for (int i = 0; i < a->n_owned; i++)
        free(a->owned[i]);
    free(a->owned);
    free(a->argv);
    memset(a, 0, sizeof(*a));
}
