/*
 * check_fzcc.c - unit tests for fz-cc's argument rewriting (fz-cc/args.c):
 * a compiler argv in, the expected argv out, for every kind of call a build
 * system makes.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <signal.h>
#include <sys/wait.h>

#include "fz-cc/args.h"
#include "fz-cc/fallback.h"
#include "tests/check-run.h"

const char *fz_log_prog = "check_fzcc";

#define PLUGIN "-fplugin=/L/fz-gcc-plugin.so"
#define PASS "-fpass-plugin=/L/fz-llvm-pass.so"
#define RT "-Wl,--export-dynamic-symbol=__fz_register /L/fz-rt.o"
#define N_MACROS 9

/* Rewrites the space-separated command line cmd (argv[0] included) and
 * renders the result space-separated, with the harness macros shown once
 * as "<M>" (test_macros checks them). */
static char *rewrite(fz_cc_kind_t kind, const char *cmd, fz_args_t *out)
{
    char *copy = strdup(cmd), *argv[64], *save;
    int argc = 0;
    for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save))
        argv[argc++] = t;
    argv[argc] = NULL;
    fz_args_cfg_t cfg = {
        .kind = kind, .compiler = kind == FZ_CC_KIND_CLANG ? "clang" : "gcc", .lib_dir = "/L"};
    fz_args_rewrite(&cfg, argc, argv, out);
    static char buf[8192];
    buf[0] = '\0';
    int macros = 0;
    for (int i = 0; i < out->argc; i++) {
        const char *a = out->argv[i];
        bool macro = !strncmp(a, "-D__AFL_", 8) || !strncmp(a, "-D__FZ_", 7) ||
                     !strncmp(a, "-DFUZZING_BUILD_MODE", 20);
        if (macro && macros++)
            continue;
        strcat(buf, i ? " " : "");
        strcat(buf, macro ? "<M>" : a);
    }
    ck_assert_ptr_null(out->argv[out->argc]);
    ck_assert(macros == 0 || macros == N_MACROS);
    /* argv points into copy: keep it alive for the assertions; tests are
     * short-lived processes. */
    return buf;
}

#define EXPECT(kind, in, want)                                                                     \
    do {                                                                                           \
        fz_args_t a_;                                                                              \
        ck_assert_str_eq(rewrite(kind, in, &a_), want);                                            \
        fz_args_free(&a_);                                                                         \
    } while (0)
#define GCC(in, want) EXPECT(FZ_CC_KIND_GCC, in, want)
#define CLANG(in, want) EXPECT(FZ_CC_KIND_CLANG, in, want)

START_TEST(test_compile)
{
    fz_args_t a;
    ck_assert_str_eq(rewrite(FZ_CC_KIND_GCC, "fz-cc -O2 -c foo.c", &a),
                     "gcc " PLUGIN " <M> -O2 -c foo.c");
    ck_assert(a.compiles && !a.links && !a.probe);
    ck_assert_str_eq(a.needs[0], "/L/fz-gcc-plugin.so");
    ck_assert_ptr_null(a.needs[1]);
    fz_args_free(&a);
    GCC("fz-cc -S foo.c", "gcc " PLUGIN " <M> -S foo.c");
    GCC("fz-cc -c foo.cpp -fPIC -g -O0", "gcc " PLUGIN " <M> -c foo.cpp -fPIC -g -O0");
    /* -MD / -MMD write dependencies on the side of a real compile. */
    GCC("fz-cc -MMD -MF foo.d -c foo.c", "gcc " PLUGIN " <M> -MMD -MF foo.d -c foo.c");
}
END_TEST

START_TEST(test_compile_dash_o)
{
    GCC("fz-cc -c -o out.o src.c", "gcc " PLUGIN " <M> -c -o out.o src.c");
    GCC("fz-cc -c src.c -oout.o", "gcc " PLUGIN " <M> -c src.c -oout.o");
    /* An -o value that looks like a source is still the output. */
    GCC("fz-cc -c -o x.c in.s", "gcc -c -o x.c in.s");
}
END_TEST

START_TEST(test_link)
{
    fz_args_t a;
    ck_assert_str_eq(rewrite(FZ_CC_KIND_GCC, "fz-cc foo.o bar.o -o prog -lm", &a),
                     "gcc " PLUGIN " foo.o bar.o -o prog -lm " RT);
    ck_assert(!a.compiles && a.links && a.plugin_at_link && !a.lto);
    ck_assert_str_eq(a.needs[0], "/L/fz-gcc-plugin.so");
    ck_assert_str_eq(a.needs[1], "/L/fz-rt.o");
    fz_args_free(&a);
    GCC("fz-cc -static main.o libx.a -o p", "gcc " PLUGIN " -static main.o libx.a -o p " RT);
    GCC("fz-cc -Xlinker -rpath -Xlinker /opt a.o",
        "gcc " PLUGIN " -Xlinker -rpath -Xlinker /opt a.o " RT);
    GCC("fz-cc a.o -l m -L /usr/lib", "gcc " PLUGIN " a.o -l m -L /usr/lib " RT);
}
END_TEST

START_TEST(test_compile_link)
{
    fz_args_t a;
    ck_assert_str_eq(rewrite(FZ_CC_KIND_GCC, "fz-cc -O2 foo.c -o prog", &a),
                     "gcc " PLUGIN " <M> -O2 foo.c -o prog " RT);
    ck_assert(a.compiles && a.links);
    ck_assert_str_eq(a.needs[0], "/L/fz-gcc-plugin.so");
    ck_assert_str_eq(a.needs[1], "/L/fz-rt.o");
    fz_args_free(&a);
}
END_TEST

START_TEST(test_lto)
{
    /* GCC generates -flto code at link time, in lto1: every GCC link gets
     * the plugin (the linker plugin may do LTO without -flto on the link
     * line), never the harness macros. */
    fz_args_t a;
    ck_assert_str_eq(rewrite(FZ_CC_KIND_GCC, "fz-cc -O2 -flto a.o b.o -o p", &a),
                     "gcc " PLUGIN " -O2 -flto a.o b.o -o p " RT);
    ck_assert(a.plugin_at_link && a.lto && !a.compiles && a.links);
    fz_args_free(&a);
    GCC("fz-cc -flto=auto -shared a.o -o l.so", "gcc " PLUGIN " -flto=auto -shared a.o -o l.so");
    GCC("fz-cc -flto -c a.c", "gcc " PLUGIN " <M> -flto -c a.c");
    rewrite(FZ_CC_KIND_GCC, "fz-cc -flto -fno-lto a.o -o p", &a);
    ck_assert(a.plugin_at_link && !a.lto);
    fz_args_free(&a);
    rewrite(FZ_CC_KIND_GCC, "fz-cc -flto=4 -c a.c", &a);
    ck_assert(a.compiles && !a.plugin_at_link && a.lto);
    fz_args_free(&a);
    /* Clang runs the pass before writing bitcode: its links stay as they
     * were; nothing that compiles nothing gets the plugin. */
    CLANG("fz-clang -flto a.o -o p", "clang -flto a.o -o p " RT);
    GCC("fz-cc -flto -E a.c", "gcc -flto -E a.c");
    GCC("fz-cc -flto --version", "gcc -flto --version");
}
END_TEST

START_TEST(test_several_sources)
{
    GCC("fz-cc -c a.c b.cc c.cxx", "gcc " PLUGIN " <M> -c a.c b.cc c.cxx");
    GCC("fz-cc a.c b.c x.o -o p", "gcc " PLUGIN " <M> a.c b.c x.o -o p " RT);
}
END_TEST

START_TEST(test_lang)
{
    /* -x c makes any name a source; our objects must not be read as C. */
    GCC("fz-cc -x c foo.txt -o p", "gcc " PLUGIN " <M> -x c foo.txt -o p -x none " RT);
    GCC("fz-cc -xc++ -c foo.inc", "gcc " PLUGIN " <M> -xc++ -c foo.inc");
    GCC("fz-cc -c -x c -", "gcc " PLUGIN " <M> -c -x c -");
    /* Assembly is not instrumented; -x none goes back to names. */
    GCC("fz-cc -c -x assembler foo.c", "gcc -c -x assembler foo.c");
    GCC("fz-cc -c -x assembler a.s -x none b.c",
        "gcc " PLUGIN " <M> -c -x assembler a.s -x none b.c");
    GCC("fz-cc -c start.S", "gcc -c start.S");
}
END_TEST

START_TEST(test_passthrough)
{
    static const char *const calls[] = {
        "fz-cc -E foo.c",
        "fz-cc -E -c foo.c -o foo.i",
        "fz-cc -M foo.c",
        "fz-cc -MM -c foo.c",
        "fz-cc --version",
        "fz-cc -v",
        "fz-cc -dumpversion",
        "fz-cc -dumpfullversion",
        "fz-cc -dumpmachine",
        "fz-cc -print-file-name=libc.so",
        "fz-cc -print-search-dirs",
        "fz-cc --print-prog-name=ld",
        "fz-cc -### foo.c -o foo",
        "fz-cc --help",
        "fz-cc --help=optimizers",
        "fz-cc -fsyntax-only foo.c",
        "fz-cc -O2 -g",
        "fz-cc",
    };
    for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
        fz_args_t a;
        const char *want = calls[i] + strlen("fz-cc");
        char expect[256];
        snprintf(expect, sizeof(expect), "gcc%s", want);
        ck_assert_str_eq(rewrite(FZ_CC_KIND_GCC, calls[i], &a), expect);
        ck_assert(!a.compiles && !a.links);
        ck_assert_ptr_null(a.needs[0]);
        fz_args_free(&a);
    }
}
END_TEST

START_TEST(test_shared)
{
    /* Shared libraries are instrumented but get no runtime: they register
     * with the executable's runtime through a weak reference. */
    fz_args_t a;
    ck_assert_str_eq(rewrite(FZ_CC_KIND_GCC, "fz-cc -shared -fPIC a.c -o liba.so", &a),
                     "gcc " PLUGIN " <M> -shared -fPIC a.c -o liba.so");
    ck_assert(a.compiles && !a.links);
    fz_args_free(&a);
    GCC("fz-cc -shared a.o b.o -o liba.so", "gcc " PLUGIN " -shared a.o b.o -o liba.so");
    GCC("fz-cc -r a.o b.o -o all.o", "gcc " PLUGIN " -r a.o b.o -o all.o");
    GCC("fz-cc -fsanitize=fuzzer -shared a.o -o l.so", "gcc " PLUGIN " -shared a.o -o l.so");
    /* Links without libc cannot take the runtime (it needs libc). */
    GCC("fz-cc -nostdlib a.o -o a", "gcc " PLUGIN " -nostdlib a.o -o a");
    GCC("fz-cc -nodefaultlibs a.o -lc -o a", "gcc " PLUGIN " -nodefaultlibs a.o -lc -o a");
    GCC("fz-cc -nolibc a.o -o a", "gcc " PLUGIN " -nolibc a.o -o a");
}
END_TEST

START_TEST(test_options_with_values)
{
    /* Values of these options are not input files. */
    GCC("fz-cc -I inc.c -include cfg.h -c a.c",
        "gcc " PLUGIN " <M> -I inc.c -include cfg.h -c a.c");
    GCC("fz-cc -MF x.c -MT y.c -M z.c", "gcc -MF x.c -MT y.c -M z.c");
    GCC("fz-cc -D X -U Y", "gcc -D X -U Y");
}
END_TEST

START_TEST(test_clang)
{
    fz_args_t a;
    ck_assert_str_eq(rewrite(FZ_CC_KIND_CLANG, "fz-clang -c a.c", &a), "clang " PASS " <M> -c a.c");
    ck_assert_str_eq(a.needs[0], "/L/fz-llvm-pass.so");
    fz_args_free(&a);
    CLANG("fz-clang a.c -o p", "clang " PASS " <M> a.c -o p " RT);
    CLANG("fz-clang -E a.c", "clang -E a.c");
}
END_TEST

START_TEST(test_fsanitize_fuzzer)
{
    fz_args_t a;
    ck_assert_str_eq(rewrite(FZ_CC_KIND_CLANG, "fz-clang -fsanitize=fuzzer h.c -o h", &a),
                     "clang " PASS " <M> h.c -o h /L/fz-libfuzzer.o " RT);
    ck_assert_str_eq(a.needs[0], "/L/fz-llvm-pass.so");
    ck_assert_str_eq(a.needs[1], "/L/fz-libfuzzer.o");
    ck_assert_str_eq(a.needs[2], "/L/fz-rt.o");
    fz_args_free(&a);
    /* Other sanitizers in the same list stay. */
    GCC("fz-cc -g -fsanitize=fuzzer,address h.c -o h",
        "gcc " PLUGIN " <M> -g -fsanitize=address h.c -o h /L/fz-libfuzzer.o " RT);
    GCC("fz-cc -fsanitize=address,fuzzer,undefined h.o",
        "gcc " PLUGIN " -fsanitize=address,undefined h.o /L/fz-libfuzzer.o " RT);
    /* Compile only: instrumentation, no driver. */
    GCC("fz-cc -fsanitize=fuzzer -c h.c", "gcc " PLUGIN " <M> -c h.c");
    /* fuzzer-no-link only instruments, even when linking. */
    GCC("fz-cc -fsanitize=fuzzer-no-link -c lib.c", "gcc " PLUGIN " <M> -c lib.c");
    GCC("fz-cc -fsanitize=fuzzer-no-link,address m.c -o m",
        "gcc " PLUGIN " <M> -fsanitize=address m.c -o m " RT);
    GCC("fz-cc -fsanitize=fuzzer -fno-sanitize=fuzzer m.o", "gcc " PLUGIN " m.o " RT);
    /* Plain sanitizers pass through untouched. */
    GCC("fz-cc -fsanitize=address,undefined -c a.c",
        "gcc " PLUGIN " <M> -fsanitize=address,undefined -c a.c");
    /* gcc rejects the name even when only preprocessing. */
    GCC("fz-cc -fsanitize=fuzzer-no-link -E a.c", "gcc -E a.c");
}
END_TEST

START_TEST(test_conftest)
{
    fz_args_t a;
    rewrite(FZ_CC_KIND_GCC, "fz-cc -o conftest -g -O2 conftest.c", &a);
    ck_assert(a.probe && a.compiles && a.links);
    fz_args_free(&a);
    rewrite(FZ_CC_KIND_GCC, "fz-cc -c conftest.c", &a);
    ck_assert(a.probe);
    fz_args_free(&a);
    rewrite(FZ_CC_KIND_GCC, "fz-cc -o conftest.exe x.o", &a);
    ck_assert(a.probe);
    fz_args_free(&a);
    rewrite(FZ_CC_KIND_GCC, "fz-cc -c sub/foo.c -o conftest/foo.o", &a);
    ck_assert(!a.probe);
    fz_args_free(&a);
    static const char *const probes[] = {
        "fz-cc -c -O3 ztest1234.c",
        "fz-cc -o cmTC_1a2b3 CMakeFiles/cmTC_1a2b3.dir/src.c.o",
        "fz-cc -c /b/CMakeFiles/CMakeScratch/TryCompile-x/src.c -o src.c.o",
        "fz-cc -c /b/CMakeFiles/CMakeTmp/src.c",
        "fz-cc -c _configtest.c",
        "fz-cc CMakeCCompilerId.c",
        "fz-cc -v -o cmTC_1 -c /usr/share/cmake-3.25/Modules/CMakeCXXCompilerABI.cpp",
        "fz-cc /b/meson-private/tmpab12/testfile.c -o output.exe",
    };
    for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
        rewrite(FZ_CC_KIND_GCC, probes[i], &a);
        ck_assert_msg(a.probe, "not seen as a probe: %s", probes[i]);
        fz_args_free(&a);
    }
}
END_TEST

static char rsp_paths[8][64];
static int rsp_count;

/* Writes text to a fresh temporary file and returns "@path". */
static char *rsp(const char *text)
{
    ck_assert_int_lt(rsp_count, 8);
    char *p = rsp_paths[rsp_count++];
    strcpy(p, "@/tmp/check_fzcc.XXXXXX");
    int fd = mkstemp(p + 1);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return p;
}

static void rsp_cleanup(void)
{
    for (int i = 0; i < rsp_count; i++)
        unlink(rsp_paths[i] + 1);
    rsp_count = 0;
}

START_TEST(test_response_files)
{
    char in[256], want[512];
    /* The file decides the call type, and is passed on as it was. */
    char *r = rsp("-c foo.c\n-o foo.o\n");
    snprintf(in, sizeof(in), "fz-cc %s", r);
    snprintf(want, sizeof(want), "gcc " PLUGIN " <M> %s", r);
    GCC(in, want);
    r = rsp("main.o util.o -o prog");
    snprintf(in, sizeof(in), "fz-cc %s -lm", r);
    snprintf(want, sizeof(want), "gcc " PLUGIN " %s -lm " RT, r);
    GCC(in, want);
    r = rsp("-E foo.c");
    snprintf(in, sizeof(in), "fz-cc %s", r);
    snprintf(want, sizeof(want), "gcc %s", r);
    GCC(in, want);
    /* Quotes and backslashes group; nested files are followed. */
    char *inner = rsp("-c 'my file.c'");
    char text[128];
    snprintf(text, sizeof(text), "\"-DX=a b\" %s", inner);
    r = rsp(text);
    snprintf(in, sizeof(in), "fz-cc %s", r);
    snprintf(want, sizeof(want), "gcc " PLUGIN " <M> %s", r);
    GCC(in, want);
    /* An option fz-cc removes makes it expand the file in place. */
    r = rsp("-fsanitize=fuzzer,address 'a b.c' -o h");
    snprintf(in, sizeof(in), "fz-cc %s -g", r);
    GCC(in, "gcc " PLUGIN " <M> -fsanitize=address a b.c -o h -g /L/fz-libfuzzer.o " RT);
    /* A file that cannot be read is an input, as for GCC. */
    GCC("fz-cc -c @/nonexistent/x", "gcc -c @/nonexistent/x");
    GCC("fz-cc @/nonexistent/x", "gcc " PLUGIN " @/nonexistent/x " RT);
    rsp_cleanup();
}
END_TEST

/* The macro text itself: signatures and asm-bound runtime names. */
START_TEST(test_macros)
{
    fz_args_t a;
    rewrite(FZ_CC_KIND_GCC, "fz-cc -c h.c", &a);
    const char *want[] = {"-D__AFL_COMPILER=1",
                          "-D__FZ_COMPILER=1",
                          "-DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION=1",
                          "-D__AFL_HAVE_MANUAL_CONTROL=1",
                          "-D__AFL_LOOP(",
                          "-D__AFL_INIT()=",
                          "-D__AFL_FUZZ_INIT()=",
                          "-D__AFL_FUZZ_TESTCASE_BUF=__afl_fuzz_ptr",
                          "-D__AFL_FUZZ_TESTCASE_LEN=__fz_testcase_len()"};
    for (int i = 0; i < N_MACROS; i++)
        ck_assert_int_eq(strncmp(a.argv[2 + i], want[i], strlen(want[i])), 0);
    ck_assert_ptr_nonnull(strstr(a.argv[6], "\"##SIG_AFL_PERSISTENT##\""));
    ck_assert_ptr_nonnull(strstr(a.argv[6], "__asm__(\"__fz_persistent_loop\")"));
    ck_assert_ptr_nonnull(strstr(a.argv[7], "\"##SIG_AFL_DEFER_FORKSRV##\""));
    ck_assert_ptr_nonnull(strstr(a.argv[7], "__asm__(\"__fz_manual_init\")"));
    ck_assert_ptr_nonnull(strstr(a.argv[8], "__afl_sharedmem_fuzzing"));
    fz_args_free(&a);
}
END_TEST

/* What fz-cc's fallback needs: where the plugin flag is, the file, and
 * whether the output goes to stdout. */
START_TEST(test_fallback_fields)
{
    fz_args_t a;
    rewrite(FZ_CC_KIND_GCC, "gcc -O2 -g -c inffast.c -o inffast.o", &a);
    ck_assert_int_eq(a.plugin_at, 1);
    ck_assert_str_eq(a.argv[a.plugin_at], PLUGIN);
    ck_assert_str_eq(a.source, "inffast.c");
    ck_assert_int_eq(a.n_sources, 1);
    ck_assert(!a.out_stdout);
    fz_args_free(&a);
    rewrite(FZ_CC_KIND_CLANG, "clang -c a.c b.c -S -o -", &a);
    ck_assert_str_eq(a.argv[a.plugin_at], PASS);
    ck_assert_str_eq(a.source, "a.c");
    ck_assert_int_eq(a.n_sources, 2);
    ck_assert(a.out_stdout);
    fz_args_free(&a);
    rewrite(FZ_CC_KIND_GCC, "gcc -E a.c", &a);
    ck_assert_int_eq(a.plugin_at, 0);
    fz_args_free(&a);
    rewrite(FZ_CC_KIND_GCC, "gcc a.o -o prog", &a); /* the plugin, for -flto */
    ck_assert_int_eq(a.plugin_at, 1);
    ck_assert_ptr_null(a.source);
    fz_args_free(&a);
}
END_TEST

/* A crash is a crash signal or a compiler's crash report with a failure;
 * an ordinary error is not, nor is a success that mentions the words. */
START_TEST(test_crash_detection)
{
    int exit1 = 1 << 8, exit4 = 4 << 8; /* wait statuses of exit(1), exit(4) */
    ck_assert(fz_fallback_crashed(exit4, "x.c:50:20: internal compiler error: in version"));
    ck_assert(fz_fallback_crashed(exit1, "x.c:1:5: internal compiler error: Segmentation fault"));
    ck_assert(fz_fallback_crashed(exit1, "PLEASE submit a bug report to https://github.com/llvm"));
    ck_assert(fz_fallback_crashed(exit1, "LLVM ERROR: Broken function found"));
    ck_assert(fz_fallback_crashed(SIGSEGV, ""));
    ck_assert(fz_fallback_crashed(SIGABRT, ""));
    ck_assert(!fz_fallback_crashed(SIGINT, ""));
    ck_assert(!fz_fallback_crashed(SIGKILL, ""));
    ck_assert(!fz_fallback_crashed(exit1, "x.c:3:1: error: expected ';' before '}' token"));
    ck_assert(!fz_fallback_crashed(0, "x.c:1: warning: #warning internal compiler error"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fzcc");
    TCase *tc = tcase_create("args");
    tcase_add_test(tc, test_compile);
    tcase_add_test(tc, test_compile_dash_o);
    tcase_add_test(tc, test_link);
    tcase_add_test(tc, test_compile_link);
    tcase_add_test(tc, test_lto);
    tcase_add_test(tc, test_several_sources);
    tcase_add_test(tc, test_lang);
    tcase_add_test(tc, test_passthrough);
    tcase_add_test(tc, test_shared);
    tcase_add_test(tc, test_options_with_values);
    tcase_add_test(tc, test_clang);
    tcase_add_test(tc, test_fsanitize_fuzzer);
    tcase_add_test(tc, test_conftest);
    tcase_add_test(tc, test_response_files);
    tcase_add_test(tc, test_macros);
    tcase_add_test(tc, test_fallback_fields);
    tcase_add_test(tc, test_crash_detection);
    suite_add_tcase(s, tc);
    return fz_check_run(s);
}
