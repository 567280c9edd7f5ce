/*
 * fsrv_killer.c - a target that kills its own forkserver (kill(getppid(),
 * SIGKILL), as a target can) at one chosen point of fz-fuzz's work, for
 * tests/e2e/faults_fsrv.sh.  argv[1] picks the point, argv[2] is the input
 * file.  Marker files are made in the current directory.
 *
 *   min    "CRASI" and 8 bytes or more aborts; "CRASI" shorter than 8
 *          bytes (what crash minimization tries) kills the forkserver
 *   trim   'q' first makes new coverage; 'q' in exactly 8 bytes (trimming
 *          a 16-byte entry by half) kills the forkserver
 *   calib  'q' first: new coverage the first time, then (calibration runs
 *          it again) kills the forkserver
 *   hang   'h' first: hangs the first time, then (the hang's
 *          confirmation) kills the forkserver
 *   i2s    "KILLME!!" (an input-to-state solution) kills the forkserver
 *   sync   'K' first kills the forkserver (an import from a peer)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) static void kill_server(void)
{
    kill(getppid(), SIGKILL);
}

/* The first call for name creates the marker and returns 1. */
static int first_time(const char *name)
{
    if (access(name, F_OK) == 0)
        return 0;
    FILE *f = fopen(name, "w");
    if (f)
        fclose(f);
    return 1;
}

__attribute__((noinline)) static void new_edge(void)
{
    static volatile int n;
    n++;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    const char *m = argv[1];
    FILE *f = fopen(argv[2], "rb");
    if (!f)
        return 2;
    unsigned char b[64] = {0};
    size_t n = fread(b, 1, sizeof b, f);
    fclose(f);
    if (!strcmp(m, "min") && n >= 5 && !memcmp(b, "CRASI", 5)) {
        if (n < 8)
            kill_server();
        else
            abort();
    } else if (!strcmp(m, "trim") && n && b[0] == 'q') {
        new_edge();
        if (n == 8)
            kill_server();
    } else if (!strcmp(m, "calib") && n && b[0] == 'q') {
        new_edge();
        if (!first_time("calib.mark"))
            kill_server();
    } else if (!strcmp(m, "hang") && n && b[0] == 'h') {
        if (first_time("hang.mark"))
            for (;;)
                pause();
        kill_server();
    } else if (!strcmp(m, "i2s") && n >= 8 && !memcmp(b, "KILLME!!", 8)) {
        kill_server();
    } else if (!strcmp(m, "sync") && n && b[0] == 'K') {
        kill_server();
    }
    return 0;
}
