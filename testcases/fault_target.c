/*
 * fault_target.c - one small target for the fault suite (tests/e2e/faults_*.sh):
 * argv[1] picks a misbehaviour, argv[2] is the input file (stdin without it).
 *
 *   crash      an input starting with 'C' aborts; anything else exits 0
 *   fork       every run forks a child that outlives the run (sleeps 60 s);
 *              'C' aborts as above
 *   killparent an input starting with 'K' kills its parent (the forkserver);
 *              nothing else crashes
 *   alloc      an input starting with 'M' mallocs 2 GiB and touches a page
 *              of it; a failed malloc (under -m) aborts; nothing else crashes
 *   spew       writes 100 MB to stdout, then behaves like crash
 *   handler    installs its own SIGSEGV handler that exits 0, then an input
 *              starting with 'C' dereferences NULL (the crash is swallowed)
 *   hang       never exits
 *   hangon     an input starting with 'H' never exits; 'C' aborts
 *   unlink     deletes its input file after reading it; 'C' aborts
 *   move       renames its input file to FILE.moved; 'C' aborts
 *
 * Every branch is its own function so each is an edge of its own.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int first_byte(const char *path)
{
    FILE *f = path ? fopen(path, "rb") : stdin;
    int c = f ? fgetc(f) : EOF;
    if (f && f != stdin)
        fclose(f);
    return c;
}

static void on_segv(int sig)
{
    (void)sig;
    _exit(0);
}

__attribute__((noinline)) static void do_fork(void)
{
    if (fork() == 0) {
        sleep(60);
        _exit(0);
    }
}

__attribute__((noinline)) static void do_alloc(void)
{
    char *p = malloc((size_t)2 << 30);
    if (!p)
        abort();
    p[4096] = 1;
    free(p);
}

__attribute__((noinline)) static void do_spew(void)
{
    static char block[1 << 16];
    memset(block, 'x', sizeof block);
    for (int i = 0; i < 100 * 16; i++)
        if (write(1, block, sizeof block) < 0)
            break;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "crash";
    int c = first_byte(argc > 2 ? argv[2] : NULL);
    if (!strcmp(mode, "hang") || (!strcmp(mode, "hangon") && c == 'H'))
        for (;;)
            pause();
    if (!strcmp(mode, "fork"))
        do_fork();
    if (!strcmp(mode, "killparent")) {
        if (c == 'K')
            kill(getppid(), SIGKILL);
        return 0;
    }
    if (!strcmp(mode, "alloc")) {
        if (c == 'M')
            do_alloc();
        return 0;
    }
    if (!strcmp(mode, "spew"))
        do_spew();
    if (!strcmp(mode, "unlink") && argc > 2)
        unlink(argv[2]);
    if (!strcmp(mode, "move") && argc > 2) {
        char to[4096];
        snprintf(to, sizeof to, "%s.moved", argv[2]);
        rename(argv[2], to);
    }
    if (!strcmp(mode, "handler")) {
        signal(SIGSEGV, on_segv);
        if (c == 'C')
            *(volatile int *)(long)(c - 'C') = 1;
    }
    if (c == 'C')
        abort();
    return 0;
}
