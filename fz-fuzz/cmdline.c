/*
 * cmdline.c - the campaign's record of what ran (cmdline.h): the command
 * line, cmdline and fuzzer_setup, and the check that a resume goes on with
 * the same target.
 */
#define _GNU_SOURCE
#include "fz-fuzz/cmdline.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/fsrv.h"
#include "fz-fuzz/state.h"
#include "fz-log.h"

extern char **environ;

char *fz_cmdline_join(int argc, char **argv)
{
    size_t n = 1;
    for (int i = 0; i < argc; i++)
        n += strlen(argv[i]) * 4 + 3;
    char *s = malloc(n), *p = s;
    if (!s)
        fz_die("out of memory");
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int quote = !a[0] || strpbrk(a, " \t\n'\"\\$`*?;&|<>(){}") != NULL;
        if (i)
            *p++ = ' ';
        if (quote)
            *p++ = '\'';
        for (; *a; a++) {
            if (quote && *a == '\'') {
                memcpy(p, "'\\''", 4);
                p += 4;
            } else {
                *p++ = *a;
            }
        }
        if (quote)
            *p++ = '\'';
    }
    *p = 0;
    return s;
}

/* The target command as cmdline holds it: one word per line. */
static char *target_lines(const fz_cfg_t *cfg)
{
    size_t n = 1;
    for (int i = 0; i < cfg->target_argc; i++)
        n += strlen(cfg->target_argv[i]) + 1;
    char *buf = malloc(n), *p = buf;
    if (!buf)
        fz_die("out of memory");
    for (int i = 0; i < cfg->target_argc; i++)
        p += sprintf(p, "%s\n", cfg->target_argv[i]);
    *p = 0;
    return buf;
}

/* "# target binary: PATH size=N mtime=S.NS": which build ran, so a resume
 * can tell a rebuilt target (its crashes may be fixed) from the same one. */
static void target_identity(const fz_cfg_t *cfg, char *out, size_t n)
{
    char *path = fz_fsrv_find_program(cfg->target_argv[0]);
    char *real = path ? realpath(path, NULL) : NULL;
    struct stat sb;
    if (real && stat(real, &sb) == 0)
        snprintf(out, n, "# target binary: %s size=%lld mtime=%lld.%09ld\n", real,
                 (long long)sb.st_size, (long long)sb.st_mtim.tv_sec, sb.st_mtim.tv_nsec);
    else
        out[0] = 0;
    free(real);
    free(path);
}

int fz_cmdline_write(fz_state_t *st, const char **failed)
{
    char *buf = target_lines(&st->cfg);
    *failed = "cmdline";
    int rc = fz_outdir_try_save(&st->out, "", "cmdline", buf, strlen(buf));
    free(buf);
    if (rc)
        return rc;
    char ident[PATH_MAX + 128];
    target_identity(&st->cfg, ident, sizeof ident);
    size_t cap = strlen(st->command_line) + strlen(ident) + 64, len = 0;
    for (char **e = environ; *e; e++)
        cap += strlen(*e) + 1;
    if (!(buf = malloc(cap)))
        fz_die("out of memory");
    len += (size_t)sprintf(buf, "# environment variables:\n");
    for (char **e = environ; *e; e++)
        if (strncmp(*e, "FZ_", 3) == 0 || strncmp(*e, "AFL_", 4) == 0)
            len += (size_t)sprintf(buf + len, "%s\n", *e);
    len += (size_t)sprintf(buf + len, "# command line:\n%s\n%s", st->command_line, ident);
    *failed = "fuzzer_setup";
    rc = fz_outdir_try_save(&st->out, "", "fuzzer_setup", buf, len);
    free(buf);
    return rc;
}

/* argv[0]'s file name and the arguments: a resume from another directory
 * may spell the program's path differently. */
static int same_command(const char *a, const char *b)
{
    size_t na = strcspn(a, "\n"), nb = strcspn(b, "\n");
    const char *ba = memrchr(a, '/', na), *bb = memrchr(b, '/', nb);
    ba = ba ? ba + 1 : a;
    bb = bb ? bb + 1 : b;
    return (size_t)(a + na - ba) == (size_t)(b + nb - bb) && !memcmp(ba, bb, a + na - ba) &&
           strcmp(a + na, b + nb) == 0;
}

void fz_cmdline_check_resume(fz_state_t *st)
{
    char *old = fz_outdir_read(&st->out, "cmdline", 1u << 20);
    if (!old)
        return; /* killed before it was written */
    if (!old[strspn(old, " \t\n")])
        fz_die("'%s/cmdline' is empty: the file that names the campaign's target is damaged; "
               "write the target command into it, one word per line as fz-fuzz does (or remove "
               "it to resume with this target), then run again",
               st->out.dir);
    char *now = target_lines(&st->cfg);
    if (!same_command(old, now)) {
        for (char *p = old; (p = strchr(p, '\n')) && p[1]; p++)
            *p = ' ';
        old[strcspn(old, "\n")] = 0;
        fz_die("output directory '%s' holds a campaign of '%s', not of this target; resume it "
               "with that command after -- (a rebuilt binary is fine), or use another -o",
               st->out.dir, old);
    }
    free(old);
    free(now);
    char ident[PATH_MAX + 128], *setup = fz_outdir_read(&st->out, "fuzzer_setup", 1u << 20);
    target_identity(&st->cfg, ident, sizeof ident);
    const char *was = setup ? strstr(setup, "# target binary: ") : NULL;
    if (was && ident[0] && strncmp(was, ident, strlen(ident)) != 0) {
        st->target_changed = 1;
        fz_warn("the target '%s' is not the binary this campaign ran before (rebuilt or "
                "replaced); its saved crashes are re-run against this one",
                st->cfg.target_argv[0]);
    }
    free(setup);
}
