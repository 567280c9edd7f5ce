/*
 * sqlite_exec.c - bench/coverage.sh's harness for Debian's sqlite3 (the
 * large target: the amalgamation is ~250k lines): run the file named by
 * argv[1] as SQL on an in-memory database.  No attached databases (which
 * also stops VACUUM INTO from writing files), no extensions, defensive
 * mode, and a progress handler that stops a statement after ~1M VM steps
 * so that a slow query is not a hang.
 */
#include <stdio.h>
#include <stdlib.h>

#include "sqlite3.h"

static int steps;

static int progress(void *ud)
{
    (void)ud;
    return ++steps > 10000; /* called every 100 VM instructions */
}

int main(int argc, char **argv)
{
    static char in[1 << 20];
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!f)
        return 1;
    size_t n = fread(in, 1, sizeof in - 1, f);
    fclose(f);
    in[n] = 0;
    sqlite3 *db;
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, NULL) != SQLITE_OK)
        return 1;
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1 << 20);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
    sqlite3_progress_handler(db, 100, progress, NULL);
    sqlite3_exec(db, in, NULL, NULL, NULL);
    sqlite3_close(db);
    return 0;
}
