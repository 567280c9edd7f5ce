/*
 * fz-protocol.h - the wire contract between fz-fuzz (and fz-showmap, fz-tmin,
 * fz-cmin) and the runtime linked into every instrumented program.
 *
 * The forkserver speaks AFL++'s protocol so that afl-fuzz can drive an fz-cc
 * binary and fz-fuzz can drive an afl-cc binary.  Two handshakes exist:
 *
 *  Legacy (AFL++ <= 4.1x, e.g. Debian's 4.04c):
 *    target -> fuzzer : options word. FZ_FS_OPT_ENABLED plus any of
 *                       FZ_FS_OPT_MAPSIZE (size encoded with
 *                       FZ_FS_OPT_SET_MAPSIZE) and FZ_FS_OPT_SHDMEM_FUZZ;
 *                       or FZ_FS_OPT_ERROR | FZ_FS_OPT_SET_ERROR(code).
 *                       A bare word without FZ_FS_OPT_ENABLED is plain AFL.
 *    fuzzer -> target : only when the target asked for shared-memory test
 *                       cases (or an autodictionary): the options the fuzzer
 *                       accepts, FZ_FS_OPT_ENABLED | FZ_FS_OPT_SHDMEM_FUZZ.
 *
 *  Version 1 (AFL++ >= 4.20):
 *    target -> fuzzer : FZ_FS_NEW_VERSION  (0x41464c00 + 1)
 *    fuzzer -> target : FZ_FS_NEW_VERSION ^ 0xffffffff
 *    target -> fuzzer : options word (FZ_FS_NEW_OPT_*)
 *    target -> fuzzer : map size (u32), because FZ_FS_NEW_OPT_MAPSIZE is set
 *    target -> fuzzer : FZ_FS_NEW_VERSION again, closing the handshake
 *    On a set-up error the target sends FZ_FS_NEW_ERROR | code instead of
 *    the options word.
 *
 *  The runtime speaks version 1 when the fuzzer sets FZ_ENV_FSRV_VERSION=1
 *  (fz-fuzz always does); otherwise it speaks the legacy handshake, which
 *  every AFL++ release understands.
 *
 *  Direct persistent mode (fz only; on top of version 1):
 *    When the fuzzer sets FZ_ENV_FSRV_DIRECT=1 and names a control page in
 *    FZ_ENV_CTL_SHM_ID, and the binary is persistent (FZ_ENV_PERSISTENT),
 *    the runtime adds FZ_FS_NEW_OPT_FZ_DIRECT to the version-1 options
 *    word (no parameter follows it).  If the fuzzer sees the bit, every run
 *    after the handshake goes through the control page (fz_ctl_t below)
 *    instead of was_killed -> pid -> status on the pipes; otherwise nothing
 *    changes.  afl-fuzz never sets the variables, so it never sees the bit,
 *    and an afl-cc binary never sends it: both keep the classic protocol.
 *
 *    Every run is a sequence number seq in 1..FZ_FS_DIRECT_SEQ (never 0,
 *    wrapping).  The words live in shared memory; who waits on one spins
 *    at most fz_ctl_t.spin polls, then sleeps on it with FUTEX_WAIT, and
 *    who changes it calls FUTEX_WAKE when the *_sleeping flag beside it is
 *    set (both sides use sequentially consistent stores and loads, so a
 *    wake-up is never lost).
 *    fuzzer : writes the input (test-case shm), then req = seq.
 *    Taken by whoever waits on req: a live persistent child between two
 *    passes, or, when no child is alive, the forkserver, which sets
 *    taken = cur = seq and forks a child for it.  The child sets
 *    taken = cur = seq when it takes a request, pid = its pid when it
 *    starts, and closes 198/199 like a classic child.
 *    The run's result is then one of:
 *    child  : ans = FZ_FS_DIRECT_OK | seq     the pass finished; then
 *             cur = 0 (idle) and it waits for req != taken.
 *    forkserver, when the child died: if cur != 0 and ans is not already
 *             OK | cur, dead_pid = pid, dead_status = wait status, then
 *             ans = FZ_FS_DIRECT_DIED | cur; in every case pid = 0 and
 *             cur = 0.  A child that died idle (after its last pass, or
 *             killed between runs) belongs to no run and is not reported;
 *             a request it did not take is served by a new child, since
 *             the forkserver forks whenever req != taken and no child
 *             lives.  So every request gets exactly one answer.
 *    A timeout: the fuzzer kills pid (if 0, no child has started yet: it
 *    waits longer for the fork) and waits for ans == DIED | seq (or an OK
 *    that raced with the kill).
 *    Lifetimes: the forkserver polls a pidfd of its child together with
 *    fd 198 and, when 198 hangs up (the fuzzer is gone, even by SIGKILL),
 *    kills the child and exits; between children it sleeps on req with a
 *    timeout and checks 198 each time.  The child has PR_SET_PDEATHSIG
 *    (SIGKILL) and checks getppid() when a sleep times out.  Spinning is
 *    only ever done when the fuzzer asked for it (spin > 0: it put the
 *    target on a CPU of its own) and the machine has more than one CPU.
 *    Why: the classic loop passes every run through three processes
 *    (fuzzer -> forkserver -> SIGCONT -> child -> SIGSTOP -> forkserver's
 *    wait4 -> fuzzer) and two pipes; this one is a store and, at worst,
 *    one futex wake-up each way (docs/persistent-mode.md has the numbers).
 *
 * Classic per run (both handshakes):
 *    fuzzer -> target : u32 was_killed (non-zero if the fuzzer killed the
 *                       previous child, e.g. on a timeout)
 *    target -> fuzzer : u32 child pid
 *    target -> fuzzer : u32 wait status of the child (waitpid() format; a
 *                       persistent-mode child that paused itself reports
 *                       WIFSTOPPED)
 *
 * All words are host-endian u32.
 */
#ifndef FZ_PROTOCOL_H
#define FZ_PROTOCOL_H

#include <stdint.h>

/* Descriptors: the runtime reads commands on FZ_FORKSRV_FD and writes
 * replies on FZ_FORKSRV_FD + 1. */
#define FZ_FORKSRV_FD 198

/* Environment variables set by the fuzzer for the target. */
#define FZ_ENV_SHM_ID "__AFL_SHM_ID"           /* SysV id of the coverage map */
#define FZ_ENV_SHM_FUZZ_ID "__AFL_SHM_FUZZ_ID" /* SysV id of the test-case shm */
#define FZ_ENV_MAP_SIZE "AFL_MAP_SIZE"         /* bytes usable in the map */
#define FZ_ENV_PERSISTENT "__AFL_PERSISTENT"   /* binary holds the persistent signature */
#define FZ_ENV_DEFER "__AFL_DEFER_FORKSRV"     /* binary holds the deferred-init signature */
#define FZ_ENV_FSRV_VERSION "__FZ_FSRV_VERSION" /* "1": speak the version-1 handshake */

/* Signatures compiled into binaries that use __AFL_LOOP / __AFL_INIT; the
 * fuzzer searches the target file for them (as afl-fuzz does) and sets
 * FZ_ENV_PERSISTENT / FZ_ENV_DEFER accordingly. */
#define FZ_SIG_PERSISTENT "##SIG_AFL_PERSISTENT##"
#define FZ_SIG_DEFER "##SIG_AFL_DEFER_FORKSRV##"

/* Legacy handshake words (values fixed by AFL++). */
#define FZ_FS_OPT_ENABLED 0x80000001u
#define FZ_FS_OPT_MAPSIZE 0x40000000u
#define FZ_FS_OPT_SNAPSHOT 0x20000000u
#define FZ_FS_OPT_AUTODICT 0x10000000u
#define FZ_FS_OPT_SHDMEM_FUZZ 0x01000000u
#define FZ_FS_OPT_NEWCMPLOG 0x02000000u
#define FZ_FS_OPT_MAX_MAPSIZE ((0x00fffffeu >> 1) + 1)
#define FZ_FS_OPT_GET_MAPSIZE(x) ((((x)&0x00fffffeu) >> 1) + 1)
#define FZ_FS_OPT_SET_MAPSIZE(x) \
    ((x) <= 1 || (x) > FZ_FS_OPT_MAX_MAPSIZE ? 0 : (((x)-1) << 1))
#define FZ_FS_OPT_ERROR 0xf800008fu
#define FZ_FS_OPT_GET_ERROR(x) (((x)&0x00ffff00u) >> 8)
#define FZ_FS_OPT_SET_ERROR(x) (((x)&0x0000ffffu) << 8)

/* Version-1 handshake words (values fixed by AFL++ 4.20+). */
#define FZ_FS_NEW_VERSION (0x41464c00u + 1)
#define FZ_FS_NEW_ERROR 0xeffe0000u
#define FZ_FS_NEW_OPT_MAPSIZE 0x00000001u
#define FZ_FS_NEW_OPT_SHDMEM_FUZZ 0x00000002u
#define FZ_FS_NEW_OPT_AUTODICT 0x00000800u

/* Direct persistent mode (fz's own; see the top of this file).  AFL++'s
 * version-1 options use bits 0x1, 0x2 and 0x800 (and some builds OR in the
 * legacy 0x02000000); bit 21 is unused by AFL++ and its forks we know of,
 * and is only ever sent to a fuzzer that set FZ_ENV_FSRV_DIRECT.  (Bit 20,
 * 0x00100000, meant an earlier pipe-based direct mode; it is retired.) */
#define FZ_FS_NEW_OPT_FZ_DIRECT 0x00200000u
#define FZ_ENV_FSRV_DIRECT "__FZ_FSRV_DIRECT" /* "1": fuzzer speaks direct mode */
#define FZ_ENV_CTL_SHM_ID "__FZ_CTL_SHM_ID"   /* SysV id of the fz_ctl_t page */

/* Batches (fz's own, on top of direct mode).  A fast persistent harness
 * spends most of a run on the hand-over itself (two context switches on
 * one CPU), so fz-fuzz can hand over many inputs at once and let the child
 * run them back to back, judging each run against fz-fuzz's virgin map
 * itself:
 *    The fuzzer names two more segments: FZ_ENV_BATCH_SHM_ID (the inputs,
 *    fz_batch_t) and FZ_ENV_VIRGIN_SHM_ID (its virgin map for queue runs,
 *    FZ_MAP_SIZE_MAX bytes, 0xff = never seen; the target maps it read-only).
 *    A direct-mode runtime with shared-memory input that attached both adds
 *    FZ_FS_NEW_OPT_FZ_BATCH to the options word.
 *    A request with req_n > 0 runs batch inputs req_from .. req_from+req_n-1
 *    in order: before each pass the child sets bcur to the input's index
 *    and copies it into the test-case segment (length word and bytes, as
 *    the fuzzer would have).  After a pass it goes on to the next input
 *    without answering, unless the run's map holds a bucket the virgin map
 *    has not seen (the fuzzer's own test, include/fz-buckets.h), the pass
 *    was the batch's last, or its __AFL_LOOP count is used up.  Then it
 *    answers OK | seq as for a single run, with bcur the run whose map is
 *    in the coverage segment.  A death (crash, exit, the fuzzer's kill) is
 *    reported as for a single run; bcur says which input was running.
 *    Every input before bcur ran to its end, found nothing new and is
 *    counted as a run.  The fuzzer judges run bcur itself and, to go on,
 *    posts the rest as a new request.  The virgin map only changes while
 *    no request is outstanding, so the child never reads it mid-update.
 *    A timeout is per run: the fuzzer kills the child only when bcur has
 *    not moved for a whole timeout. */
#define FZ_FS_NEW_OPT_FZ_BATCH 0x00800000u
#define FZ_ENV_BATCH_SHM_ID "__FZ_BATCH_SHM_ID"
#define FZ_ENV_VIRGIN_SHM_ID "__FZ_VIRGIN_SHM_ID"
#define FZ_BATCH_MAX 1024u        /* inputs in one batch segment */
#define FZ_BATCH_DATA (4u << 20)  /* bytes of inputs in one batch segment */

/* The batch segment: input i is data[off[i] .. off[i] + len[i]).  The
 * target checks every offset and length against the sizes here. */
typedef struct {
    uint32_t off[FZ_BATCH_MAX];
    uint32_t len[FZ_BATCH_MAX];
    uint8_t data[FZ_BATCH_DATA];
} fz_batch_t;

/* Harness-side mutation (fz's own, on top of batches).  A libFuzzer-style
 * harness may carry its own mutator (LLVMFuzzerCustomMutator and/or
 * LLVMFuzzerCustomCrossOver), which can only run inside the harness.
 * fz's driver (runtime/lf-mutate.c) then has the runtime add
 * FZ_FS_NEW_OPT_FZ_CUSTOM and/or FZ_FS_NEW_OPT_FZ_XOVER to the options
 * word, next to FZ_FS_NEW_OPT_FZ_BATCH or when the fuzzer named a
 * diagnostics page (only fz's tools do; without batches the bits only let
 * the fuzzer say why the mutator is not used).  A fuzzer that knows the
 * bits may then send, among a batch's inputs, requests: an input whose length
 * in fz_batch_t.len has FZ_BATCH_CUSTOM set is not run as it is but holds
 *    u32 seed, u32 max (largest result), u32 n (bytes of the base input),
 *    the n bytes, then a crossover partner (the rest; empty: mutate).
 * The runtime copies it into the test-case segment with the flag kept in
 * the length word; the driver builds the input from it (the harness's
 * mutator, seeded by seed, so the fuzzer's -s reproduces it), writes that
 * input back into the test-case segment (plain length word and bytes)
 * before running it, and clears the map the mutator's own code touched.
 * So after the run the fuzzer judges (bcur), the test-case segment holds
 * the bytes that ran, crash or not; a length word that still has the flag
 * means the mutator itself died before writing. */
#define FZ_FS_NEW_OPT_FZ_CUSTOM 0x00080000u
#define FZ_FS_NEW_OPT_FZ_XOVER 0x00040000u
#define FZ_BATCH_CUSTOM 0x80000000u
#define FZ_CUSTOM_HDR 12u /* seed, max, n */
#define FZ_CTL_SIZE 4096u
#define FZ_FS_DIRECT_TAG_MASK 0xff000000u
#define FZ_FS_DIRECT_SEQ 0x00ffffffu  /* sequence numbers: 1..this */
#define FZ_FS_DIRECT_OK 0x4f000000u   /* 'O' | seq: run done, child alive */
#define FZ_FS_DIRECT_DIED 0x44000000u /* 'D' | seq: the child died in run seq */

/* The control page of direct mode.  The fuzzer's words and the target's
 * words sit on different cache lines, so a side spinning on one line does
 * not slow the other side's writes to its own. */
typedef struct {
    /* Written by the fuzzer. */
    volatile uint32_t req;  /* newest run asked for (futex word) */
    volatile uint32_t spin; /* polls before sleeping; 0 = never spin */
    /* Batches (FZ_FS_NEW_OPT_FZ_BATCH, below), written before req: the
     * request runs inputs req_from .. req_from + req_n - 1 of the batch
     * segment; req_n 0 is one run of the test-case segment as before. */
    volatile uint32_t req_from;
    volatile uint32_t req_n;
    uint32_t pad0[12];
    /* Written by the target (child and forkserver). */
    volatile uint32_t ans;         /* OK | seq or DIED | seq (futex word) */
    volatile uint32_t pid;         /* the live child, 0 when there is none */
    volatile uint32_t cur;         /* run the child is in, 0 between runs */
    volatile uint32_t taken;       /* newest run a child took */
    volatile uint32_t dead_pid;    /* DIED: the child that died... */
    volatile uint32_t dead_status; /* ...and its wait status */
    volatile uint32_t bcur;        /* a batch: the input being run, set before its pass */
    uint32_t pad1[9];
    /* Set by a side about to sleep on the word, read by the other side. */
    volatile uint32_t req_sleeping; /* the child or the forkserver */
    uint32_t pad2[15];
    volatile uint32_t ans_sleeping; /* the fuzzer */
} fz_ctl_t;

/* Error codes carried by either handshake's error word. */
#define FZ_FS_ERROR_MAP_SIZE 1
#define FZ_FS_ERROR_MAP_ADDR 2
#define FZ_FS_ERROR_SHM_OPEN 4
#define FZ_FS_ERROR_SHMAT 8
#define FZ_FS_ERROR_MMAP 16

/* The test-case shared memory: a u32 length followed by the bytes. */
#define FZ_SHM_FUZZ_HDR 4

/* Target diagnostics (fz's own).  fz-fuzz creates a small SysV segment,
 * names it in FZ_ENV_DIAG_SHM_ID and zeroes it before each target start;
 * the runtime sets bits in it for behaviour the fuzzer cannot see from
 * wait statuses and maps alone (docs/persistent-mode.md, "Faults").  Only
 * the runtime writes flags, only the fuzzer clears them; afl-fuzz never
 * sets the variable, so the runtime does nothing there. */
#define FZ_ENV_DIAG_SHM_ID "__FZ_DIAG_SHM_ID"
#define FZ_DIAG_SIZE 4096u
#define FZ_DIAG_FORK 0x1u         /* a child forked during a run */
#define FZ_DIAG_EXEC 0x2u         /* a run exec'd another program (exec_name) */
#define FZ_DIAG_EXEC_INSTR 0x4u   /* ...which is instrumented: its counters
                                     overlap the target's in the map */
#define FZ_DIAG_HANDLER 0x8u      /* the program installed a handler for a
                                     crash signal (handler_sigs) */
#define FZ_DIAG_EXIT_IN_LOOP 0x10u /* exit(), _exit() or a return from main
                                      inside __AFL_LOOP */
#define FZ_DIAG_FDS_EARLY 0x20u    /* the program closed or replaced fds
                                      198/199 before the forkserver started
                                      (the runtime then exits 1) */
/* 0x40u: not used (an older pipe-based direct mode's "lost 198/199 inside
 * __AFL_LOOP"; every child now closes them after fork()).  Not reused, so
 * a target built by an older fz is never misread. */
#define FZ_DIAG_NOMEM 0x80u        /* the runtime could not map or attach memory
                                      (ENOMEM: the fuzzer's -m address-space
                                      limit) and the handshake failed */

/* Under a diagnostics page each child the forkserver forks makes itself
 * the leader of its own process group (setpgid(0, 0), before any program
 * code runs), so whatever a run leaves behind (children of a forking
 * target) shares the group the fuzzer can kill as a whole, and `forks`
 * counts the fork() calls made inside runs (counted before the fork, so a
 * grandchild is counted before its parent can end): when the count moved
 * during a run, the fuzzer kills the ended run's group. */

/* Crash sites (fz's own, on the same page).  When a run dies of a crash
 * signal the runtime's handler (runtime/rt-crash.c), or the sanitizer's
 * report hook, describes where: a hash of the faulting address and the
 * next return addresses, each made module-relative (the address in the file
 * of the shared object or executable it lies in, i.e. minus its load bias,
 * one byte back for return addresses so addr2line names the call; plus
 * that object's file name), so the same bug has the same site in every child and after every
 * forkserver restart, whatever ASLR did.  Frames in code that was not
 * instrumented (libc's abort/raise, the sanitizer runtime as a separate
 * library) are skipped, so abort() at one place in the program is one
 * site.  The handler fills the site_* fields and writes site_pid last; the
 * fuzzer trusts them only when site_pid is the pid of the child whose
 * death it is judging, and zeroes site_pid after reading.  The handler
 * then restores the default action and re-raises, so the wait status is
 * the one the program would have had. */
#define FZ_SITE_FRAMES 3      /* frames hashed: the fault and two callers */
#define FZ_SITE_FROM_HANDLER 1 /* the runtime's signal handler unwound the stack */
#define FZ_SITE_FROM_ASAN 2    /* ASan's report (its first stack) */
#define FZ_SITE_FROM_UBSAN 3   /* UBSan's report (source file, line, column, kind) */

typedef struct {
    volatile uint32_t flags;        /* FZ_DIAG_* */
    volatile uint32_t handler_sigs; /* bit n: signal n has the program's handler */
    volatile uint32_t fsrv_pid;     /* the forkserver's pid, 0 until it starts */
    char exec_name[16];             /* comm of the exec'd program (NUL-terminated) */
    /* Crash site of the last crash (see above). */
    volatile uint32_t site_pid;     /* the process it describes; written last; 0 = none */
    uint32_t site_sig;              /* the signal it died of */
    uint32_t site_from;             /* FZ_SITE_FROM_* */
    uint32_t site_nframes;          /* frames in site_off (<= FZ_SITE_FRAMES) */
    uint64_t site;                  /* the hash; never 0 */
    uint64_t site_off[FZ_SITE_FRAMES]; /* module-relative address of each frame */
    char site_module[FZ_SITE_FRAMES][24]; /* file name (no directory) of each frame's
                                             module ("exe": the program) */
    volatile uint32_t forks;        /* fork() calls inside runs so far (see above) */
    /* Loaded modules (fz's own): the forkserver writes these once, before
     * its handshake, from dl_iterate_phdr() (runtime/rt-map.c).  mods_instr
     * counts the objects (the program included) that registered edges with
     * __fz_register; plain_libs names, one path per line, the shared
     * libraries without fz's instrumentation that the program itself
     * depends on (the C library, the loader, the C++ and compiler runtimes
     * and the sanitizer runtimes aside), mods_plain of them (the list is
     * cut at a whole line when it does not fit). */
    uint32_t mods_instr;
    uint32_t mods_plain;
    char plain_libs[2048];
} fz_diag_t;

#endif
