#!/bin/bash
# bench/zlib-stages.sh - how far into zlib's dynamic Huffman blocks the
# corpora of bench/coverage.sh's zlib target get: the step fz-fuzz was
# slowest at (bench/README.md, "Depth in the schedule").  Every file of
# each DIR goes through bench/zlib_stages.c (the coverage harness on a
# zlib with its debug trace on) and the entries reaching each step are
# counted:
#   dynamic   a dynamic block's header (BTYPE 2) was read
#   codelens  its code-length code is complete (inflate_table(CODES) took it)
#   complete  its literal/length and distance codes are built too: the
#             block's data is decoded (inflate.c's "codes ok")
#   long      a complete block whose literal/length code has codes longer
#             than 9 bits, the root table's: its data can reach the
#             second-level lookup (inffast.c's "2nd level length code")
#
#   bench/zlib-stages.sh DIR...     # e.g. BENCH_KEEP's DIR/zlib-fz-1 DIR/zlib-aflpp-1
#
# The probe is built once into bench/out/build/zlib/stages from the Debian
# source coverage.sh uses.
export BENCH_FUZZERS=fz
# shellcheck source=bench/coverage.sh
. "$(dirname "$0")/coverage.sh"
[ $# -gt 0 ] || { echo "usage: bench/zlib-stages.sh DIR..." >&2; exit 2; }
probe=$cache/zlib/stages
if [ ! -x "$probe" ] || [ "$root/bench/zlib_stages.c" -nt "$probe" ]; then
    d=$(fetch zlib) || exit 1
    mkdir -p "$cache/zlib"
    gcc -O1 -DZLIB_DEBUG -w -Dinflate_table=inflate_table_real -c -o "$probe-inftrees.o" \
        "$d"/inftrees.c || exit 1
    gcc -O1 -DZLIB_DEBUG -w -I"$d" -I"$root/bench" -o "$probe" "$root/bench/zlib_stages.c" \
        "$probe-inftrees.o" "$d"/{adler32,crc32,inffast,inflate,zutil}.c || exit 1
fi
printf '%-40s %8s %8s %9s %9s %5s\n' corpus entries dynamic codelens complete long
for dir in "$@"; do
    [ -d "$dir" ] || { echo "$dir: not a directory" >&2; continue; }
    n=0 dyn=0 cl=0 ok=0 long=0
    for f in "$dir"/*; do
        [ -f "$f" ] || continue
        n=$((n + 1))
        s=$(timeout 10 "$probe" "$f" 2>&1 >/dev/null |
            grep -E -o "dynamic codes block|code lengths ok|codes ok|long literal/length codes" |
            tr '\n' ,)
        case $s in *"dynamic codes block"*) dyn=$((dyn + 1)) ;; esac
        case $s in *"code lengths ok"*) cl=$((cl + 1)) ;; esac
        case $s in *"codes ok"*) ok=$((ok + 1)) ;; esac
        case $s in *"long literal/length codes,codes ok"*) long=$((long + 1)) ;; esac
    done
    printf '%-40s %8d %8d %9d %9d %5d\n' "$dir" "$n" "$dyn" "$cl" "$ok" "$long"
done
