/*
 * rt_afl_macros.h - the harness macros as fz-cc defines them (see
 * docs/internals.md, "Harness macros"), for building runtime tests with a
 * plain compiler before or without fz-cc:  gcc -include rt_afl_macros.h ...
 * Nothing in fz itself uses this file.
 */
#ifndef RT_AFL_MACROS_H
#define RT_AFL_MACROS_H

#define __AFL_COMPILER 1
#define __FZ_COMPILER 1
#define __AFL_HAVE_MANUAL_CONTROL 1
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION 1
#endif

#define __AFL_LOOP(n)                                                                  \
    ({                                                                                 \
        static volatile const char *rt_sig_ __attribute__((used));                     \
        rt_sig_ = "##SIG_AFL_PERSISTENT##";                                            \
        extern int rt_loop_(unsigned int) __asm__("__fz_persistent_loop");             \
        rt_loop_(n);                                                                   \
    })

#define __AFL_INIT()                                                                   \
    do {                                                                               \
        static volatile const char *rt_sig_ __attribute__((used));                     \
        rt_sig_ = "##SIG_AFL_DEFER_FORKSRV##";                                         \
        extern void rt_init_(void) __asm__("__fz_manual_init");                        \
        rt_init_();                                                                    \
    } while (0)

#define __AFL_FUZZ_INIT()                                                              \
    int __afl_sharedmem_fuzzing = 1;                                                   \
    extern unsigned char *__afl_fuzz_ptr;                                              \
    extern unsigned int *__afl_fuzz_len;                                               \
    extern unsigned int rt_len_(void) __asm__("__fz_testcase_len")

#define __AFL_FUZZ_TESTCASE_BUF __afl_fuzz_ptr
#define __AFL_FUZZ_TESTCASE_LEN rt_len_()

#endif
