#!/bin/bash
# instrument_loop_trips.sh - FZ_LOOP_TRIPS (GCC plugin; docs/coverage.md
# "Loop trip counts").
# FZ_LOOP_TRIPS=1: a program built with it behaves like the plain build,
# gets 16 more slots per loop exit, and its map tells apart inputs that run
# a loop the same number of times in all but in differently long goes
# (words "aa aa aa aa" against "a a a aaaaa": 8 letters in 4 words each),
# which the FZ_LOOP_TRIPS=0 map and the default one, hit-count buckets
# included, do not.
# FZ_LOOP_TRIPS=counted, the default: 16 slots only on the early exit of a
# loop of a constant count (the search for the longest code length in a
# table of 16 counts), one slot per count below 16, so a map tells apart a
# search that stopped after 4 rounds from one that stopped after 5, and
# after 8 from after 9; loops whose count GCC cannot know get none.  Any
# other value is refused with a one-line error.
. "$(dirname "$0")/../lib.sh"

[ -x "$FZ_BIN/fz-showmap" ] || fz_skip "bin/fz-showmap is not built"

cat >"$T/words.c" <<'SRC'
#include <stdio.h>
#include <string.h>
/* letters per word (an inner loop per word), a nested loop, a loop left by
 * a break and one left by a return */
static int find(const char *s, char c)
{
    for (int i = 0; s[i]; i++)
        if (s[i] == c)
            return i;
    return -1;
}
int main(void)
{
    char buf[512];
    size_t n = fread(buf, 1, sizeof(buf) - 1, stdin);
    buf[n] = 0;
    unsigned long sum = 0;
    int words = 0;
    char *p = buf;
    while (*p) {
        while (*p == ' ')
            p++;
        int len = 0;
        while (p[len] && p[len] != ' ')
            len++;
        if (!len)
            break;
        for (int i = 0; i < len; i++)
            sum = sum * 31 + (unsigned char)p[i];
        words++;
        p += len;
        if (words > 40)
            break;
    }
    for (int i = 0; i < words; i++)
        for (int j = 0; j <= i; j++)
            sum += (unsigned long)i * j;
    printf("%d words, sum %lu, x at %d\n", words, sum, find(buf, 'x'));
    return 0;
}
SRC

cat >"$T/maxlen.c" <<'SRC'
#include <stdio.h>
/* the longest code length in use, as inflate's table builder finds it: a
 * loop of a constant count left early by a break */
int main(void)
{
    unsigned char buf[64];
    size_t n = fread(buf, 1, sizeof(buf), stdin);
    unsigned count[16] = {0};
    for (size_t k = 0; k < n; k++)
        count[buf[k] & 15]++;
    int max;
    for (max = 15; max >= 1; max--)
        if (count[max] != 0)
            break;
    printf("longest %d\n", max);
    return 0;
}
SRC

slots() { sed -n 's/^fz-cc: \([0-9][0-9]*\) edges instrumented in .*/\1/p' "$1"; }

for opt in -O0 -O2; do
    plaincc $opt "$T/words.c" -o "$T/plain" || fail "plain build failed"
    FZ_QUIET= fzcc $opt "$T/words.c" -o "$T/base" 2>"$T/base.rep" || fail "fz-cc build failed"
    FZ_QUIET= FZ_LOOP_TRIPS=0 fzcc $opt "$T/words.c" -o "$T/zero" 2>"$T/zero.rep" ||
        fail "FZ_LOOP_TRIPS=0 build failed"
    FZ_QUIET= FZ_LOOP_TRIPS=1 fzcc $opt "$T/words.c" -o "$T/trips" 2>"$T/trips.rep" ||
        fail "FZ_LOOP_TRIPS=1 build failed"
    b=$(slots "$T/base.rep") z=$(slots "$T/zero.rep") t=$(slots "$T/trips.rep")
    [ -n "$b" ] && [ -n "$z" ] && [ "$z" -le "$b" ] && [ $(((b - z) % 16)) = 0 ] ||
        fail "$opt: the default (counted) build is not FZ_LOOP_TRIPS=0's plus 16 slots per early exit ($z -> $b)"
    [ -n "$t" ] && [ "$t" -gt "$b" ] && [ $(((t - z) % 16)) = 0 ] ||
        fail "$opt: FZ_LOOP_TRIPS=1 did not add 16 slots per exit ($z -> $t)"

    for in in '' 'aa aa aa aa' 'a a a aaaaa' 'x' 'abc   defx ghij' "$(printf 'w%.0s ' {1..60})"; do
        printf '%s' "$in" | "$T/plain" >"$T/want" 2>&1
        printf '%s' "$in" | "$T/trips" >"$T/got" 2>&1
        cmp -s "$T/want" "$T/got" || fail "$opt: the FZ_LOOP_TRIPS=1 build printed something else on '$in'"
    done

    # map BIN INPUT: the map with hit-count buckets
    map() { printf '%s' "$2" | "$FZ_BIN/fz-showmap" -q -o - -- "$1" 2>/dev/null; }
    for m in zero base; do
        [ "$(map "$T/$m" 'aa aa aa aa')" = "$(map "$T/$m" 'a a a aaaaa')" ] ||
            fail "$opt: the $m map already tells the two inputs apart; the test shows nothing"
    done
    [ "$(map "$T/trips" 'aa aa aa aa')" != "$(map "$T/trips" 'a a a aaaaa')" ] ||
        fail "$opt: FZ_LOOP_TRIPS=1 does not tell 4 words of 2 letters from 3 of 1 and one of 5"
    [ "$(map "$T/trips" 'aa aa aa aa')" = "$(map "$T/trips" 'bb cc dd ee')" ] ||
        fail "$opt: FZ_LOOP_TRIPS=1 maps differ for inputs that take the same paths"
    ok "$opt: $z -> $b (default) -> $t slots; the same output; trip counts told apart"
done

# map BIN INPUT (printf format): the map with hit-count buckets
mapf() { printf "$2" | "$FZ_BIN/fz-showmap" -q -o - -- "$1" 2>/dev/null; }
for opt in -O0 -O2; do
    FZ_QUIET= FZ_LOOP_TRIPS=0 fzcc $opt "$T/maxlen.c" -o "$T/mbase" 2>"$T/mbase.rep" ||
        fail "FZ_LOOP_TRIPS=0 build failed"
    FZ_QUIET= FZ_LOOP_TRIPS=counted fzcc $opt "$T/maxlen.c" -o "$T/mcount" 2>"$T/mcount.rep" ||
        fail "FZ_LOOP_TRIPS=counted build failed"
    FZ_QUIET= fzcc $opt "$T/maxlen.c" -o "$T/mdef" 2>"$T/mdef.rep" || fail "fz-cc build failed"
    b=$(slots "$T/mbase.rep") c=$(slots "$T/mcount.rep") d=$(slots "$T/mdef.rep")
    [ -n "$b" ] && [ "$c" = $((b + 16)) ] ||
        fail "$opt: FZ_LOOP_TRIPS=counted did not add 16 slots for the one early exit ($b -> $c)"
    [ "$d" = "$c" ] && cmp -s "$T/mdef" "$T/mcount" ||
        fail "$opt: the default build is not the FZ_LOOP_TRIPS=counted one ($d slots, counted $c)"
    printf '\x0b\x0b' | "$T/mcount" | grep -qx 'longest 11' || fail "$opt: the counted build printed something else"
    # 11 / 10 stop after 4 / 5 rounds, 7 / 6 after 8 / 9: one hit-count bucket each
    for pair in '\x0b\x0b\x0b\x0b \x0a\x0a\x0a\x0a' '\x07\x07\x07\x07 \x06\x06\x06\x06'; do
        set -- $pair
        [ "$(mapf "$T/mbase" "$1")" = "$(mapf "$T/mbase" "$2")" ] ||
            fail "$opt: the FZ_LOOP_TRIPS=0 map already tells $1 from $2; the test shows nothing"
        [ "$(mapf "$T/mcount" "$1")" != "$(mapf "$T/mcount" "$2")" ] ||
            fail "$opt: FZ_LOOP_TRIPS=counted does not tell $1 from $2"
    done
    [ "$(mapf "$T/mcount" '\x0b\x0b\x0b\x0b')" = "$(mapf "$T/mcount" '\x0b\x01\x02\x03')" ] ||
        fail "$opt: FZ_LOOP_TRIPS=counted maps differ for inputs that take the same paths"
    ok "$opt: counted: $b -> $c slots; stops after 4, 5, 8 and 9 rounds told apart"
done

FZ_LOOP_TRIPS=sometimes fzcc -O2 "$T/maxlen.c" -o "$T/bad" 2>"$T/bad.err" &&
    fail "FZ_LOOP_TRIPS=sometimes was accepted"
grep -q 'fz-cc: error: FZ_LOOP_TRIPS=sometimes: expected 0, counted or 1' "$T/bad.err" ||
    fail "no clear error for FZ_LOOP_TRIPS=sometimes: $(head -c 300 "$T/bad.err")"
ok "an unknown FZ_LOOP_TRIPS value is refused"
