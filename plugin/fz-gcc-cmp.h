/*
 * fz-gcc-cmp.h - the GCC plugin's comparison hooks (plugin/fz-gcc-cmp.cc),
 * as seen by the edge pass in fz-gcc-plugin.cc, which registers the pass
 * and calls the end-of-unit step.  Include after GCC's headers.
 */
#ifndef FZ_GCC_CMP_H
#define FZ_GCC_CMP_H

struct fz_cmp_state;

/* Whether the edge pass leaves a function (bb NULL) or a block of it
 * alone (deny-list, attributes); compares there are not hooked either. */
typedef bool (*fz_cmp_skip_fn)(void *user, function *fn, basic_block bb);

/* The state of one translation unit; hooks nothing when !enabled
 * (FZ_NO_CMP), but the pass may still be registered. */
fz_cmp_state *fz_cmp_new(bool enabled, fz_cmp_skip_fn skip, void *user);

/* Registers the trees the state keeps across functions as GC roots. */
void fz_cmp_register_roots(fz_cmp_state *st, const char *plugin_name);

/* The GIMPLE pass that hooks the comparisons of each function; run it
 * after the edge pass so the blocks it adds get no counters. */
opt_pass *fz_cmp_pass_new(gcc::context *ctx, fz_cmp_state *st);

/* The GIMPLE pass that marks switches for it; run it right before GCC
 * lowers switches ("switchlower", "switchlower_O0": one instance each). */
opt_pass *fz_switch_pass_new(gcc::context *ctx, fz_cmp_state *st);

/* At the end of the unit: defines the module's flag and base and adds its
 * registration constructor when it hooked any site.  Returns the number
 * of sites (log slots) the module uses. */
unsigned fz_cmp_finish_unit(fz_cmp_state *st);

void fz_cmp_free(fz_cmp_state *st);

#endif
