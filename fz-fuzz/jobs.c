/*
 * jobs.c - `fz-fuzz -j N` (see jobs.h): the coordinator that forks, watches
 * and stops the instances, and its status screen; the instances' side of
 * the shared segment is jobs-link.c (counters, sharing finds) and sync.c
 * (taking them).
 */
#define _GNU_SOURCE
#include "fz-fuzz/jobs.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/cpu.h"
#include "core/opts.h"
#include "fz-config.h"
#include "fz-fuzz/crashinfo.h"
#include "fz-fuzz/state.h"
#include "fz-fuzz/status.h"
#include "fz-log.h"
#include "fz-version.h"

/* How often the coordinator looks at its instances, redraws, logs. */
#define JOBS_POLL_MS 50
#define JOBS_DRAW_MS 250
#define JOBS_LOG_MS 5000
/* Crashes per instance whose reports the end of the campaign prints. */
#define FZ_JOBS_REPORTS 5

/* ---- Coordinator ---- */

/* Processes running or ready to run on the machine besides this one
 * (procs_running of /proc/stat), or 0 when unknown: unbound busy
 * processes hold CPUs too, though no affinity mask says so. */
static uint32_t busy_procs(void)
{
    FILE *f = fopen("/proc/stat", "r");
    char line[256];
    unsigned long n = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "procs_running %lu", &n) == 1)
            break;
    if (f)
        fclose(f);
    return n > 1 ? (uint32_t)(n - 1) : 0;
}

/* How many instances to start, and which CPU each is bound to: -j N starts
 * N, whatever else runs (a user who asks for N gets N).  The first ones get
 * a free core each (one no other process is bound to) unless
 * FZ_NO_AFFINITY; the rest run unbound, as every instance does when no core
 * is free.  When the instances will share CPUs with each other or with
 * other processes, one warning says so.  -j 0 means one per free core (one
 * per online core when none is free or with FZ_NO_AFFINITY). */
static uint32_t job_count(const fz_cfg_t *cfg, int *cpus, int *n_cpus)
{
    int no_aff = fz_env_flag("FZ_NO_AFFINITY", "AFL_NO_AFFINITY");
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (online < 1)
        online = 1;
    int n_free = fz_cpu_free(cpus, FZ_JOBS_MAX);
    uint32_t want = cfg->jobs;
    if (want == 0)
        want = !no_aff && n_free ? (uint32_t)n_free : (uint32_t)online;
    if (want > FZ_JOBS_MAX) {
        fz_warn("-j %u: at most %d instances; starting %d", want, FZ_JOBS_MAX, FZ_JOBS_MAX);
        want = FZ_JOBS_MAX;
    }
    *n_cpus = no_aff ? 0 : n_free < (int)want ? n_free : (int)want;
    uint32_t busy = busy_procs();
    if (want > (uint32_t)n_free || want + busy > (uint32_t)online) {
        char why[160];
        if (want > (uint32_t)n_free)
            snprintf(why, sizeof why, "only %d of %ld cores are free (the others run processes "
                     "bound to them)", n_free, online);
        else
            snprintf(why, sizeof why, "%u other process(es) are running on %ld cores", busy,
                     online);
        fz_warn("-j %u oversubscribes the machine: %s; starting all %u instances anyway, they "
                "share the CPUs and each runs slower (use a smaller -j for full speed)",
                want, why, want);
    }
    return want;
}

/* The instance's own configuration: its name and role, its share of -E,
 * its seed, and no screen (the coordinator draws one for all). */
static void child_cfg(fz_cfg_t *cfg, uint32_t i, uint32_t n, const char *name)
{
    cfg->name = name;
    cfg->is_main = i == 0;
    cfg->is_secondary = i != 0;
    cfg->quiet = 1;
    if (cfg->max_execs)
        cfg->max_execs = cfg->max_execs / n + (i < cfg->max_execs % n);
    if (cfg->seed_given)
        cfg->seed += i; /* reproducible, but not n copies of one search */
}

static __attribute__((noreturn)) void child_main(fz_state_t *st, uint32_t i, int cpu, int argc,
                                                 char **argv, fz_jobs_campaign_fn campaign,
                                                 pid_t parent)
{
    fz_jobs_shared_t *sh = st->jobs.shared;
    /* A coordinator killed by SIGKILL must not leave instances behind. */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent)
        _exit(FZ_EXIT_ERROR);
    if (cpu >= 0) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        sched_setaffinity(0, sizeof one, &one); /* fsrv's own binding then keeps it */
    }
    child_cfg(&st->cfg, i, sh->n, sh->slot[i].name);
    st->cfg.unbound = cpu < 0; /* no free core was left for it: its forkserver must not bind */
    static char prog[64];
    snprintf(prog, sizeof prog, "fz-fuzz[%s]", sh->slot[i].name);
    fz_log_prog = prog;
    /* Messages go to stderr with the instance's name; the per-instance
     * status lines would only interleave with the coordinator's. */
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null >= 0) {
        dup2(null, STDOUT_FILENO);
        close(null);
    }
    st->jobs.self = i;
    exit(campaign(st, argc, argv));
}

/* Totals over the instances. */
typedef struct jobs_total {
    uint64_t execs, crashes, new_crashes, hangs, pass_ms;
    uint32_t corpus, edges, running, passed, died;
    uint32_t seeds; /* the most seeds any instance holds (counted once in corpus) */
    uint64_t pass_max;
    double eps;
} jobs_total_t;

static void total(const fz_jobs_shared_t *sh, jobs_total_t *t, uint64_t secs)
{
    memset(t, 0, sizeof *t);
    for (uint32_t i = 0; i < sh->n; i++) {
        const fz_jobs_slot_t *s = &sh->slot[i];
        t->execs += s->execs;
        t->crashes += s->crashes;
        t->new_crashes += s->crashes - s->crashes_at_start;
        t->hangs += s->hangs;
        t->passed += s->passed;
        t->pass_ms += s->pass_ms_total;
        if (s->pass_ms_max > t->pass_max)
            t->pass_max = s->pass_ms_max;
        /* The campaign's corpus: every instance's own finds, plus the seeds
         * once (each instance holds them all; imports are others' finds).
         * fz-plot's total counts the same way. */
        uint32_t seeds = s->corpus > s->found + s->imported ? s->corpus - s->found - s->imported : 0;
        t->corpus += s->found;
        if (seeds > t->seeds)
            t->seeds = seeds;
        if (s->edges > t->edges)
            t->edges = s->edges;
        if (s->state == FZ_JOB_RUNNING || s->state == FZ_JOB_STARTING) {
            t->running++;
            t->eps += s->eps;
        }
        t->died += s->state == FZ_JOB_DIED;
    }
    t->corpus += t->seeds;
    if (!t->running && secs) /* all ended: the campaign's average */
        t->eps = (double)t->execs / (double)secs;
}

static const char *state_word(const fz_jobs_slot_t *s, char *buf, size_t n)
{
    switch (s->state) {
    case FZ_JOB_STARTING:
        return "starting";
    case FZ_JOB_RUNNING:
        return "running";
    case FZ_JOB_DONE:
        return WEXITSTATUS(s->status) == FZ_EXIT_CRASH ? "done, crash" : "done";
    default:
        if (WIFSIGNALED(s->status))
            snprintf(buf, n, "DIED (signal %d)", WTERMSIG(s->status));
        else
            snprintf(buf, n, "DIED (exit %d)", WEXITSTATUS(s->status));
        return buf;
    }
}

/* ", 1m40s left" when the campaign has an end: the -V limit, or the -E
 * budget at the current rate (whichever comes first); "" otherwise. */
static void time_left(const fz_cfg_t *cfg, const jobs_total_t *t, uint64_t secs, char *buf,
                      size_t n)
{
    uint64_t left = UINT64_MAX;
    buf[0] = 0;
    if (cfg->max_secs)
        left = cfg->max_secs > secs ? cfg->max_secs - secs : 0;
    if (cfg->max_execs && t->eps > 0) {
        uint64_t todo = cfg->max_execs > t->execs ? cfg->max_execs - t->execs : 0;
        uint64_t by_execs = (uint64_t)((double)todo / t->eps + 0.5);
        if (by_execs < left)
            left = by_execs;
    }
    if (left == UINT64_MAX || !t->running)
        return;
    if (left >= 3600)
        snprintf(buf, n, ", %lluh%02llum left", (unsigned long long)(left / 3600),
                 (unsigned long long)(left / 60 % 60));
    else if (left >= 60)
        snprintf(buf, n, ", %llum%02llus left", (unsigned long long)(left / 60),
                 (unsigned long long)(left % 60));
    else
        snprintf(buf, n, ", %llus left", (unsigned long long)left);
}

/* One line for the whole campaign (the -q / non-tty log and the end). */
static void campaign_line(FILE *f, const fz_cfg_t *cfg, const fz_jobs_shared_t *sh, uint64_t secs)
{
    jobs_total_t t;
    char left[48];
    total(sh, &t, secs);
    time_left(cfg, &t, secs, left, sizeof left);
    fprintf(f,
            "[%llus] -j %u: execs %llu (%.0f/s), corpus %u (own finds), edges %u (best instance), crashes "
            "%llu, hangs %llu, finds passed %u (mean %llu ms, max %llu ms), running %u/%u%s%s\n",
            (unsigned long long)secs, sh->n, (unsigned long long)t.execs, t.eps, t.corpus, t.edges,
            (unsigned long long)t.crashes, (unsigned long long)t.hangs, t.passed,
            (unsigned long long)(t.passed ? t.pass_ms / t.passed : 0),
            (unsigned long long)t.pass_max, t.running, sh->n, left,
            t.died ? ", an instance DIED" : "");
    fflush(f);
}

/* The campaign's screen: totals, then a line per instance.  Kept here, not
 * in status.c: it draws the coordinator, which runs no target itself. */
static void draw(const fz_cfg_t *cfg, const fz_jobs_shared_t *sh, uint64_t secs)
{
    jobs_total_t t;
    char left[48];
    total(sh, &t, secs);
    time_left(cfg, &t, secs, left, sizeof left);
    printf("\033[H  fz-fuzz %s -j %u  --  %s\033[K\n\n"
           "  run time   %lluh %02llum %02llus%s\033[K\n"
           "  execs      %llu  (%.0f/s)\033[K\n"
           "  corpus     %u entries (the instances' own finds and the seeds), %u edges (the best "
           "instance's)\033[K\n"
           "  crashes    %llu saved (%llu new), hangs %llu\033[K\n"
           "  passing    %u finds taken from another instance (mean %llu ms, max %llu ms)\033[K\n\n"
           "  %-10s %4s %-18s %12s %9s %7s %6s %8s %6s\033[K\n",
           FZ_VERSION, sh->n, cfg->out_root, (unsigned long long)(secs / 3600),
           (unsigned long long)(secs / 60 % 60), (unsigned long long)(secs % 60), left,
           (unsigned long long)t.execs, t.eps, t.corpus, t.edges, (unsigned long long)t.crashes,
           (unsigned long long)t.new_crashes, (unsigned long long)t.hangs, t.passed,
           (unsigned long long)(t.passed ? t.pass_ms / t.passed : 0),
           (unsigned long long)t.pass_max, "instance", "cpu", "state", "execs", "execs/s",
           "corpus", "edges", "crashes", "hangs");
    for (uint32_t i = 0; i < sh->n; i++) {
        const fz_jobs_slot_t *s = &sh->slot[i];
        char cpu[16] = "-", st[40];
        if (s->cpu >= 0)
            snprintf(cpu, sizeof cpu, "%d", s->cpu);
        printf("  %-10s %4s %-18s %12llu %9.0f %7u %6u %8llu %6llu\033[K\n", s->name, cpu,
               state_word(s, st, sizeof st), (unsigned long long)s->execs, s->eps, s->corpus,
               s->edges, (unsigned long long)s->crashes, (unsigned long long)s->hangs);
    }
    printf("\033[J");
    fflush(stdout);
}

/* Reaps the instances that ended; returns how many are still alive. */
static uint32_t reap(fz_jobs_shared_t *sh, const fz_cfg_t *cfg, int stopping)
{
    uint32_t alive = 0, died[FZ_JOBS_MAX], n_died = 0;
    for (uint32_t i = 0; i < sh->n; i++) {
        fz_jobs_slot_t *s = &sh->slot[i];
        if (s->state == FZ_JOB_DONE || s->state == FZ_JOB_DIED)
            continue;
        int status;
        if (waitpid(s->pid, &status, WNOHANG) != s->pid) {
            alive++;
            continue;
        }
        s->status = status;
        int ok = WIFEXITED(status) &&
                 (WEXITSTATUS(status) == FZ_EXIT_OK || WEXITSTATUS(status) == FZ_EXIT_CRASH);
        __atomic_store_n(&s->state, ok ? FZ_JOB_DONE : FZ_JOB_DIED, __ATOMIC_RELAXED);
        if (!ok && !stopping)
            died[n_died++] = i;
    }
    for (uint32_t k = 0; k < n_died; k++) {
        const fz_jobs_slot_t *s = &sh->slot[died[k]];
        char w[40];
        if (alive)
            fz_warn("instance '%s' (pid %d) %s; the others go on (its directory: %s/%s)",
                    s->name, s->pid, state_word(s, w, sizeof w), cfg->out_root, s->name);
        else
            fz_warn("instance '%s' (pid %d) %s (its directory: %s/%s)", s->name, s->pid,
                    state_word(s, w, sizeof w), cfg->out_root, s->name);
    }
    return alive;
}

static void signal_all(const fz_jobs_shared_t *sh, int sig)
{
    for (uint32_t i = 0; i < sh->n; i++)
        if (sh->slot[i].state == FZ_JOB_STARTING || sh->slot[i].state == FZ_JOB_RUNNING)
            kill(sh->slot[i].pid, sig);
}

/* Watches the instances until all have ended: passes a stop on, ends the
 * campaign at the first crash under --until-crash, draws or logs. */
static void watch(fz_state_t *st, fz_jobs_shared_t *sh, uint64_t start)
{
    int tty = !st->cfg.quiet && isatty(STDOUT_FILENO) && fz_status_term_ok(getenv("TERM"));
    uint64_t last_draw = 0, last_log = start;
    int stopping = 0;
    if (tty)
        fputs("\033[?25l\033[2J", stdout);
    while (reap(sh, &st->cfg, stopping)) {
        jobs_total_t t;
        total(sh, &t, 0);
        if (!stopping && (*st->stop || (st->cfg.until_crash && t.new_crashes))) {
            stopping = 1;
            signal_all(sh, SIGINT);
        }
        uint64_t now = fz_now_ms();
        if (tty && now - last_draw >= JOBS_DRAW_MS) {
            draw(&st->cfg, sh, (now - start) / 1000);
            last_draw = now;
        } else if (!tty && now - last_log >= JOBS_LOG_MS) {
            campaign_line(stdout, &st->cfg, sh, (now - start) / 1000);
            last_log = now;
        }
        usleep(JOBS_POLL_MS * 1000);
    }
    if (tty) {
        draw(&st->cfg, sh, (fz_now_ms() - start) / 1000);
        fputs("\033[?25h\n", stdout);
    }
}

/* The end of the campaign: one line, the instances that died, where the
 * crashes are (with the first lines of each one's report). */
static int finish(fz_state_t *st, fz_jobs_shared_t *sh, uint64_t start)
{
    jobs_total_t t;
    total(sh, &t, 0);
    printf("fz-fuzz: %s. ", *st->stop ? "stopped by a signal" : "done");
    campaign_line(stdout, &st->cfg, sh, (fz_now_ms() - start) / 1000);
    uint32_t failed = 0, crashed = 0;
    for (uint32_t i = 0; i < sh->n; i++) {
        fz_jobs_slot_t *s = &sh->slot[i];
        char w[40];
        if (s->state == FZ_JOB_DIED) {
            failed++;
            printf("fz-fuzz: instance '%s' %s; see its messages above and %s/%s\n", s->name,
                   state_word(s, w, sizeof w), st->cfg.out_root, s->name);
            continue;
        }
        if (WEXITSTATUS(s->status) != FZ_EXIT_CRASH)
            continue;
        crashed++;
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/%s/crashes", st->cfg.out_root, s->name);
        printf("fz-fuzz: %llu crash(es) saved in %s (see README.txt there to reproduce)\n",
               (unsigned long long)(s->crashes - s->crashes_at_start), dir);
        fz_crashinfo_dir(&st->cfg, dir, (uint32_t)s->crashes_at_start, FZ_JOBS_REPORTS, NULL, NULL);
    }
    fflush(stdout);
    if (crashed)
        return FZ_EXIT_CRASH;
    if (failed == sh->n)
        return FZ_EXIT_ERROR;
    return failed ? FZ_EXIT_JOB_LOST : FZ_EXIT_OK;
}

/* Whether instance I of a -j campaign (main, sec1, ...) has a queue in the
 * output directory; a link there is not the instance's own, so not one. */
static int instance_has_queue(const fz_cfg_t *cfg, uint32_t i)
{
    char q[4096];
    struct stat sb;
    if (i == 0)
        snprintf(q, sizeof q, "%s/main/queue", cfg->out_root);
    else
        snprintf(q, sizeof q, "%s/sec%u/queue", cfg->out_root, i);
    return lstat(q, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* Resuming (-i -) with another -j than the campaign ran with: say so before
 * any instance starts, instead of letting the new ones fail one by one with
 * "nothing to resume" and the summary call them DIED. */
static void check_resume_count(const fz_cfg_t *cfg, uint32_t n)
{
    if (strcmp(cfg->in_dir, "-") != 0)
        return;
    uint32_t had = 0;
    while (had < FZ_JOBS_MAX && instance_has_queue(cfg, had))
        had++;
    if (!had || had >= n)
        return;
    char names[32] = "main";
    if (had > 1)
        snprintf(names, sizeof names, "main..sec%u", had - 1);
    fz_die("'%s' holds a -j %u campaign (%s), and -j %u would start instances with nothing "
           "to resume; resume it with -j %u, or add fuzzers with -S NAME -i SEEDS",
           cfg->out_root, had, names, n, had);
}

int fz_jobs_run(fz_state_t *st, int argc, char **argv, fz_jobs_campaign_fn campaign)
{
    int cpus[FZ_JOBS_MAX], n_cpus;
    uint32_t n = job_count(&st->cfg, cpus, &n_cpus);
    check_resume_count(&st->cfg, n);
    fz_jobs_shared_t *sh =
        mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED)
        fz_die("cannot map %zu bytes of shared memory for -j: %s", sizeof *sh, strerror(errno));
    sh->n = n;
    for (uint32_t i = 0; i < n; i++) {
        fz_jobs_slot_t *s = &sh->slot[i];
        if (i == 0)
            snprintf(s->name, sizeof s->name, "main");
        else
            snprintf(s->name, sizeof s->name, "sec%u", i);
        s->cpu = i < (uint32_t)n_cpus ? cpus[i] : -1;
    }
    st->jobs.shared = sh;
    int no_aff = fz_env_flag("FZ_NO_AFFINITY", "AFL_NO_AFFINITY");
    char bound[96];
    if (no_aff)
        snprintf(bound, sizeof bound, "all unbound (FZ_NO_AFFINITY)");
    else if ((uint32_t)n_cpus == n)
        snprintf(bound, sizeof bound, "each bound to a free core");
    else if (n_cpus)
        snprintf(bound, sizeof bound, "%d bound to free cores, %u unbound (no free core left)",
                 n_cpus, n - (uint32_t)n_cpus);
    else
        snprintf(bound, sizeof bound, "all unbound (no free core)");
    fz_info("-j %u: instances %s..%s in '%s', %s", n, sh->slot[0].name, sh->slot[n - 1].name,
            st->cfg.out_root, bound);
    fflush(NULL);
    uint64_t start = fz_now_ms();
    pid_t parent = getpid();
    for (uint32_t i = 0; i < n; i++) {
        pid_t pid = fork();
        if (pid < 0) {
            fz_warn("cannot start instance '%s': %s", sh->slot[i].name, strerror(errno));
            sh->slot[i].state = FZ_JOB_DIED;
            sh->slot[i].status = FZ_EXIT_ERROR << 8;
            continue;
        }
        if (pid == 0)
            child_main(st, i, sh->slot[i].cpu, argc, argv, campaign, parent);
        sh->slot[i].pid = pid;
    }
    watch(st, sh, start);
    int rc = finish(st, sh, start);
    munmap(sh, sizeof *sh);
    st->jobs.shared = NULL;
    return rc;
}
