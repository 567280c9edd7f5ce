#!/bin/bash
# bench/coverage.sh - coverage, speed and corpus size of fz-fuzz beside the
# strongest peers, on real Debian-source projects, from the same seeds,
# two fuzzers at a time, each on its own CPU.
#
#   bench/coverage.sh                       # zlib expat lua png sqlite, 300 s, 3 trials
#   BENCH_SECONDS=60 BENCH_TRIALS=3 bench/coverage.sh sqlite lua
#   BENCH_SECONDS=1800 BENCH_TRIALS=1 bench/coverage.sh sqlite   # the 30-minute trial
#   bench/coverage.sh zlib-lf expat-lf      # the in-process harnesses
#
# Targets (arguments; every file harness reads the file @@ names, a new
# process per run, and is built -g -O2 as the project's users build it):
#   zlib      Debian's zlib, bench/real/zlib_inflate.c (inflate into a 4 KiB window)
#   expat     Debian's expat, bench/real/expat_parse.c (XML_Parse in two chunks)
#   lua       Debian's lua5.4, bench/real/lua_run.c (compile and run a chunk, no io/os)
#   png       Debian's libpng1.6, bench/real/png_read.c (decode with the usual transforms)
#   sqlite    Debian's sqlite3 (the large one: 244k-line amalgamation, ~40k edges),
#             bench/real/sqlite_exec.c (run the file as SQL on an in-memory database)
#   zlib-lf, expat-lf   the zlib and expat work as LLVMFuzzerTestOneInput
#             (bench/real/*_fuzzer.c): persistent, shared-memory input
#   toy       bench/coverage_target.c, no download
#
# Fuzzers (BENCH_FUZZERS, default "fz aflpp hfuzz afl aflcmp", plus
# libfuzzer on -lf targets; the order is the pairing: the first two run
# side by side, then the next two, ...):
#   fz        bin/fz-fuzz on a bin/fz-cc build (BENCH_FZ, BENCH_FZ_CC, BENCH_FZ_CFLAGS)
#   aflpp     AFL++ built from source (bench/peers.sh; BENCH_AFLPP = its bin
#             dir, default /work/peers/build/aflpp/bin) with CmpLog and its
#             defaults, as its docs recommend: afl-clang-fast build,
#             AFL_LLVM_CMPLOG=1 build, `afl-fuzz -c ./cmplog-build`
#   hfuzz     honggfuzz built from source (BENCH_HFUZZ, default
#             /work/peers/build/honggfuzz/bin), hfuzz-clang build,
#             `honggfuzz -n 1 --run_time S -i corpus -- ./h ___FILE___`
#             (for -lf targets its persistent mode)
#   afl, aflcmp  Debian's afl++ 4.04c (/usr/bin), without and with CmpLog
#   libfuzzer clang -fsanitize=fuzzer, `./h -seed=N -max_total_time=S corpus/`
# Each run is bound to one CPU of BENCH_CPUS (default "0 1") with taskset
# (the fuzzers' own binding is turned off; the pair swaps CPUs from one
# trial to the next), and as many runs as there are CPUs in that list go
# at the same time; BENCH_CPUS=0 runs one at a time.
#
# Measured per run, the same way for every fuzzer: execs/s over the whole
# run (fuzzer_stats execs_done / run_time; honggfuzz's Summary line;
# libFuzzer's -print_final_stats average) and in its last minute (fz and
# AFL only), corpus entries, largest entry, bytes; edges over time: every
# corpus entry replayed through fz-showmap on one neutral build (fz-cc,
# GCC -O1, FZ_LOOP_TRIPS=0 FZ_NO_FOLDED=1: block slots only), union of slots by the
# time:MS in its name (honggfuzz's and libFuzzer's files carry no time:
# their corpus is hard-linked at each mark and a file counts from the
# first snapshot holding it); and line and branch coverage of the final
# corpus: every entry replayed through one gcc --coverage -O0 build,
# summed over the project's .c files by gcov ("taken at least once" for
# branches).  Prints one row per run and the median per fuzzer; it never
# fails on the numbers.
#
# Environment: BENCH_SECONDS (per run, default 300), BENCH_TRIALS (default
# 3; trial N gives -s N to fz-fuzz and afl-fuzz, -seed=N to libFuzzer),
# BENCH_FIRST_TRIAL (default 1: the number of the first trial, so that
# one fuzzer's trials can be split over two scripts, one per CPU, and
# still get seeds 1, 2, 3),
# BENCH_CFLAGS (default "-g -O2"), BENCH_FZ_CFLAGS (default BENCH_CFLAGS),
# BENCH_FZ_ARGS (more fz-fuzz options), BENCH_FZ_TARGET (a ready fz build
# of the one target named, instead of building it), BENCH_AFL=0 (drop afl, aflcmp),
# BENCH_LIBFUZZER=0, BENCH_KEEP=DIR (keep each run's final corpus in
# DIR/TARGET-FUZZER-TRIAL and gcov's per-line files of its replay in
# DIR/TARGET-FUZZER-TRIAL.gcov, for bench/search-lines.py).  Peer and
# measuring builds are cached under bench/out/build (delete it after
# changing compilers); fz's build is made afresh each time.  Sources are
# Debian source packages (scripts/debsrc.sh; kept in bench/out/src, never
# committed).
cd "$(dirname "$0")/.." || exit 1
root=$PWD
secs=${BENCH_SECONDS:-300}
trials=${BENCH_TRIALS:-3}
first=${BENCH_FIRST_TRIAL:-1}
read -r -a cpus <<<"${BENCH_CPUS:-0 1}"
cflags=${BENCH_CFLAGS:--g -O2}
fzcflags=${BENCH_FZ_CFLAGS:-$cflags}
fzbin=$(realpath "${BENCH_FZ:-bin/fz-fuzz}")
# Absolute, but not through the link: bin/fz-clang is a link to fz-cc
# whose name picks the compiler (realpath would make it fz-cc, gcc).
fzcc=$(realpath -s "${BENCH_FZ_CC:-bin/fz-cc}")
aflpp=${BENCH_AFLPP:-/work/peers/build/aflpp/bin}
hfuzz=${BENCH_HFUZZ:-/work/peers/build/honggfuzz/bin}
targets=("$@")
[ $# -eq 0 ] && targets=(zlib expat lua png sqlite)
src=$root/bench/out/src
cache=$root/bench/out/build
w=$(mktemp -d "${TMPDIR:-/tmp}/fz-bench-cov.XXXXXX")
trap 'rm -rf "$w"' EXIT
affenv=(FZ_NO_AFFINITY=1 AFL_NO_AFFINITY=1)
aflenv=(AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_QUIET=1)

# The fuzzers asked for that are installed.
want=(${BENCH_FUZZERS:-fz aflpp hfuzz afl aflcmp})
avail=()
for f in "${want[@]}"; do
    case $f in
    fz) avail+=(fz) ;;
    aflpp) [ -x "$aflpp/afl-fuzz" ] && avail+=(aflpp) ||
        echo "no AFL++ at $aflpp (run bench/peers.sh or set BENCH_AFLPP): aflpp skipped" ;;
    hfuzz) [ -x "$hfuzz/honggfuzz" ] && avail+=(hfuzz) ||
        echo "no honggfuzz at $hfuzz (run bench/peers.sh or set BENCH_HFUZZ): hfuzz skipped" ;;
    afl | aflcmp) [ "${BENCH_AFL:-1}" != 0 ] && [ -x /usr/bin/afl-fuzz ] && avail+=("$f") ||
        echo "Debian afl++ not installed (or BENCH_AFL=0): $f skipped" ;;
    libfuzzer) ;; # added per -lf target
    *) echo "unknown fuzzer $f (fz aflpp hfuzz afl aflcmp libfuzzer)"; exit 2 ;;
    esac
done

# fetch PKG: the unpacked Debian source of PKG, $src/PKG (the package kept
# in $src/pkgs; scripts/debsrc.sh).
. "$root/scripts/debsrc.sh"
fetch() {
    local d=$src/$1
    [ -d "$d/debian" ] || fz_debsrc_unpack "$1" "$src/pkgs" "$d" || return 1
    # sqlite: Debian ships the source tree; the amalgamation is generated
    # once (needs tclsh), with the system compiler.
    if [ "$1" = sqlite3 ] && [ ! -e "$d/bld/sqlite3.c" ]; then
        mkdir -p "$d/bld"
        (cd "$d/bld" && ../configure --disable-tcl && make sqlite3.c) >"$w/amalg.log" 2>&1 ||
            { tail -n 3 "$w/amalg.log" >&2; return 1; }
    fi
    echo "$d"
}

# build TARGET OUT CC [FLAGS...]: the target's harness built with CC FLAGS
# into OUT (an absolute path).  -lf targets get -fsanitize=fuzzer unless
# LF is set to something else (hfuzz: nothing; gcov: lf_file_main.c).
build() {
    local t=$1 out=$2 d h
    shift 2
    local cc=("$@") lf=()
    case $t in *-lf) lf=(${LF--fsanitize=fuzzer}) ;; esac
    case $t in
    zlib | zlib-lf)
        d=$(fetch zlib) || return 1
        h=$root/bench/real/zlib_inflate.c
        [ "$t" = zlib-lf ] && h=$root/bench/real/zlib_fuzzer.c
        "${cc[@]}" "${lf[@]}" -w -I"$d" -o "$out" "$h" "$d"/{adler32,crc32,inffast,inflate,inftrees,zutil}.c ;;
    expat | expat-lf)
        d=$(fetch expat) || return 1
        h=$root/bench/real/expat_parse.c
        [ "$t" = expat-lf ] && h=$root/bench/real/expat_fuzzer.c
        "${cc[@]}" "${lf[@]}" -w -DHAVE_EXPAT_CONFIG_H -I"$root/bench/real" -I"$d/expat/lib" -o "$out" \
            "$h" "$d"/expat/lib/{xmlparse,xmlrole,xmltok}.c ;;
    lua)
        d=$(fetch lua5.4) || return 1
        # The library's sources; lua.c and luac.c are the programs.  Debian's
        # luaconf.h includes a header its build generates.
        mkdir -p "$w/luainc"
        echo '#define DEB_HOST_MULTIARCH "x86_64-linux-gnu"' >"$w/luainc/lua5.4-deb-multiarch.h"
        "${cc[@]}" -w -DLUA_USE_LINUX -I"$w/luainc" -I"$d/src" -o "$out" "$root/bench/real/lua_run.c" \
            $(ls "$d"/src/l*.c | grep -v '/lua\.c$\|/luac\.c$') -lm ;;
    png)
        d=$(fetch libpng1.6) || return 1
        mkdir -p "$w/pnginc" && cp "$d/scripts/pnglibconf.h.prebuilt" "$w/pnginc/pnglibconf.h"
        "${cc[@]}" -w -I"$w/pnginc" -I"$d" -o "$out" "$root/bench/real/png_read.c" \
            "$d"/{png,pngerror,pngget,pngmem,pngpread,pngread,pngrio,pngrtran,pngrutil,pngset,pngtrans}.c \
            "$d"/{pngwio,pngwrite,pngwtran,pngwutil}.c -lz -lm ;;
    sqlite)
        d=$(fetch sqlite3) || return 1
        "${cc[@]}" -w -I"$d/bld" -o "$out" "$root/bench/real/sqlite_exec.c" "$d/bld/sqlite3.c" -lm ;;
    toy)
        "${cc[@]}" -w -o "$out" "$root/bench/coverage_target.c" ;;
    *) echo "unknown target $t" >&2; return 1 ;;
    esac
}

# cached KIND TARGET CC...: build into $cache/TARGET/KIND once; print its path.
cached() {
    local k=$1 t=$2 out=$cache/$2/$1
    shift 2
    if [ ! -x "$out" ]; then
        mkdir -p "$cache/$t"
        (cd "$cache/$t" && build "$t" "$out.tmp" "$@") >"$cache/$t/$k.log" 2>&1 || return 1
        mv "$out.tmp" "$out"
    fi
    echo "$out"
}

# neutralbuild TARGET: the one fz-cc -O1 build every fuzzer's corpus is
# replayed through for the edges column; FZ_LOOP_TRIPS=0 and FZ_NO_FOLDED=1
# keep it a count of block slots whatever fz-cc's default map is.
neutralbuild() {
    FZ_QUIET=1 FZ_LOOP_TRIPS=0 FZ_NO_FOLDED=1 cached neutral "$1" "$root/bin/fz-cc" -O1
}

# gcovbuild TARGET: a gcc --coverage -O0 build in its own directory, the
# .gcno/.gcda files beside it (gcc names them OUT-SOURCE.gc*).
gcovbuild() {
    local t=$1 g=$cache/$1/gcov
    if [ ! -x "$g/h" ]; then
        rm -rf "$g" && mkdir -p "$g"
        (cd "$g" && LF="$root/bench/real/lf_file_main.c" build "$t" "$g/h" gcc --coverage -O0) \
            >"$cache/$t/gcov.log" 2>&1 || return 1
    fi
    echo "$g"
}

# privategcov TARGET: gcovdir, a private copy of gcovbuild's build in $w.
# Two coverage.sh or search.sh runs of one target at once (each on its own
# CPU) would otherwise replay into the same .gcda files and read each
# other's lines.  The binary writes them under GCOV_PREFIX with its build
# directory's components stripped, so they land beside the copied .gcno
# files.
privategcov() {
    local g
    g=$(gcovbuild "$1") || return 1
    gcovdir=$w/gcov-$1
    rm -rf "$gcovdir" && cp -r "$g" "$gcovdir" && rm -f "$gcovdir"/*.gcda || return 1
    export GCOV_PREFIX=$gcovdir GCOV_PREFIX_STRIP=$(printf %s "$g" | tr -cd / | wc -c)
}

# seeds TARGET DIR: a few small, valid inputs.
seeds() {
    mkdir -p "$2"
    case ${1%-lf} in
    zlib)
        # First byte: &3 == 0 raw deflate, 1 gzip, else zlib (the harness).
        python3 - "$2" <<'EOF'
import sys, zlib, gzip
d = sys.argv[1]
texts = [b"hello, hello, hello world\n", bytes(range(64)) * 2, b"a" * 100 + b"b" * 20]
for i, t in enumerate(texts):
    open(f"{d}/zlib{i}", "wb").write(b"\x02" + zlib.compress(t, 9))
c = zlib.compressobj(6, zlib.DEFLATED, -15)
open(f"{d}/raw", "wb").write(b"\x00" + c.compress(texts[0]) + c.flush())
open(f"{d}/gzip", "wb").write(b"\x01" + gzip.compress(texts[1], mtime=0))
EOF
        ;;
    expat)
        printf '<?xml version="1.0"?>\n<a x="1"><b>text &amp; more</b><c/></a>\n' >"$2/simple.xml"
        printf '<!DOCTYPE r [<!ENTITY e "v"><!ATTLIST r a CDATA "d">]>\n<r>&e;<![CDATA[x]]><?pi d?><!-- c --></r>\n' >"$2/dtd.xml"
        printf '<n:r xmlns:n="urn:x" xmlns="urn:y"><n:e n:a="1">&#65;&#x42;</n:e></n:r>\n' >"$2/ns.xml" ;;
    lua)
        printf 'local t = {1, 2, x = "y"}\nfor i, v in ipairs(t) do t[i] = v * 2 end\nreturn #t\n' >"$2/table.lua"
        printf 'local s = ("abc"):rep(3)\nprint(s:find("b+"), s:gsub("a", "%%0%%0"), string.format("%%5.2f", 1/3))\n' >"$2/string.lua"
        printf 'local function f(n) if n < 2 then return n end return f(n-1) + f(n-2) end\nlocal co = coroutine.wrap(function() coroutine.yield(f(10)) end)\nreturn co(), math.floor(2^10 // 3), utf8.char(72, 228)\n' >"$2/func.lua" ;;
    png)
        python3 - "$2" <<'EOF'
import sys, zlib, struct
d = sys.argv[1]
def chunk(t, b):
    return struct.pack(">I", len(b)) + t + b + struct.pack(">I", zlib.crc32(t + b) & 0xffffffff)
def png(w, h, depth, ctype, rows, extra=b"", interlace=0):
    ihdr = struct.pack(">IIBBBBB", w, h, depth, ctype, 0, 0, interlace)
    raw = b"".join(b"\x00" + r for r in rows)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
open(f"{d}/rgb.png", "wb").write(png(4, 4, 8, 2, [bytes(range(12))] * 4))
open(f"{d}/gray16.png", "wb").write(png(3, 2, 16, 0, [b"\x00\x01\x80\x00\xff\xff"] * 2, chunk(b"gAMA", struct.pack(">I", 45455))))
open(f"{d}/pal.png", "wb").write(png(4, 4, 4, 3, [b"\x01\x23"] * 4, chunk(b"PLTE", bytes(range(48))) + chunk(b"tRNS", b"\x00\x80"), 1))
EOF
        ;;
    sqlite)
        printf 'CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c REAL);\nINSERT INTO t VALUES(1,'"'x'"',2.5),(2,NULL,-1);\nSELECT a, upper(b), sum(c) OVER (ORDER BY a) FROM t WHERE b IS NOT NULL GROUP BY a;\n' >"$2/table.sql"
        printf 'CREATE TABLE p(x); CREATE INDEX px ON p(x);\nWITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM r WHERE n<20) INSERT INTO p SELECT n FROM r;\nSELECT x FROM p WHERE x BETWEEN 3 AND 7 ORDER BY x DESC LIMIT 2;\n' >"$2/cte.sql"
        printf 'CREATE TABLE j(d); INSERT INTO j VALUES(json_object('"'a'"', 1, '"'b'"', json_array(1,2)));\nSELECT json_extract(d, '"'\$.b[1]'"'), substr('"'hello'"', 2, 3), printf('"'%%08.3f'"', 3.14159) FROM j;\nCREATE TRIGGER tr AFTER INSERT ON j BEGIN DELETE FROM j WHERE rowid < new.rowid; END;\n' >"$2/json.sql" ;;
    toy)
        printf 'let x = 1;\n' >"$2/a" ;;
    esac
}

# snapshot PID DIR: hard-link DIR to DIR.snap-M at each mark while PID
# lives, and at the end (for fuzzers whose files carry no time).
snapshot() {
    local pid=$1 dir=$2 t0=$SECONDS m
    for m in $marks; do
        [ "$m" -lt "$secs" ] || break
        while [ $((SECONDS - t0)) -lt "$m" ] && kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
        kill -0 "$pid" 2>/dev/null || break
        cp -al "$dir" "$dir.snap-$m" 2>/dev/null
    done
    wait "$pid"
    cp -al "$dir" "$dir.snap-$secs"
}

# run FUZZER TARGET TRIAL CPU: one run into $w/r-FUZZER (log $w/FUZZER.log).
run() {
    local f=$1 t=$2 s=$3 r=$w/r-$1 ts=()
    [ -n "$4" ] && ts=(taskset -c "$4")
    rm -rf "$r" "$r".* && mkdir -p "$r"
    local at=(@@)
    case $t in *-lf) at=() ;; esac
    cd "$w" || return
    case $f in
    fz)
        env "${affenv[@]}" "${ts[@]}" "$fzbin" -q ${BENCH_FZ_ARGS:-} -s "$s" -V "$secs" -i "seeds-$t" -o "$r/out" \
            -- "./fz-$t" "${at[@]}" >fz.log 2>&1 ;;
    afl | aflcmp | aflpp)
        local bin=/usr/bin cmp=()
        [ "$f" = aflpp ] && bin=$aflpp
        [ "$f" != afl ] && cmp=(-c "./${f%cmp}cmp-$t")
        env "${affenv[@]}" "${aflenv[@]}" "${ts[@]}" "$bin/afl-fuzz" -i "seeds-$t" -o "$r/out" -s "$s" -V "$secs" \
            "${cmp[@]}" -- "./${f%cmp}-$t" "${at[@]}" >"$f.log" 2>&1 ;;
    hfuzz)
        # Its corpus is the input dir (no -o): seeds copied in first.
        mkdir -p "$r/corpus" "$r/ws" && cp "seeds-$t"/* "$r/corpus/"
        local file=(___FILE___)
        case $t in *-lf) file=() ;; esac
        "${ts[@]}" "$hfuzz/honggfuzz" -n 1 -v --run_time "$secs" -i "$r/corpus" -W "$r/ws" -l "$w/hfuzz.log" \
            -- "./hfuzz-$t" "${file[@]}" >/dev/null 2>&1 &
        snapshot $! "$r/corpus" ;;
    libfuzzer)
        mkdir -p "$r/corpus" && cp "seeds-$t"/* "$r/corpus/"
        "${ts[@]}" "./libfuzzer-$t" -seed="$s" -max_total_time="$secs" -print_final_stats=1 \
            "$r/corpus/" >libfuzzer.log 2>&1 &
        snapshot $! "$r/corpus" ;;
    esac
}

# corpus FUZZER: the directory of $w/r-FUZZER's corpus (AFL++ layout for
# fz-fuzz and afl-fuzz, the corpus directory itself for the others).
corpus() {
    case $1 in
    hfuzz | libfuzzer) echo "$w/r-$1/corpus" ;;
    *) echo "$w/r-$1/out/default/queue" ;;
    esac
}

# measure FUZZER TARGET: "edges@marks... lines% branches% last_min_eps avg_eps
# runs_per_request largest total entries" of $w/r-FUZZER ("-" where the
# fuzzer has no such figure).
measure() {
    local f=$1 t=$2 r=$w/r-$1 q x m
    q=$(corpus "$f")
    case $f in
    hfuzz | libfuzzer)
        for m in $marks; do
            [ -d "$q.snap-$m" ] && find "$q.snap-$m" -type f -printf "%i $m %p\n"
        done | awk '!seen[$1]++ { print $2 * 1000, $3 }' ;;
    *)
        for x in "$q"/id:*; do
            [ -e "$x" ] || continue
            m=$(basename "$x" | sed -n 's/.*time:\([0-9]*\).*/\1/p')
            echo "${m:-0} $x"
        done ;;
    esac >"$w/files"
    while read -r m x; do
        "$root/bin/fz-showmap" -q -e -o - -- "$neutral" @@ <"$x" 2>/dev/null |
            awk -F: -v t="$m" '{ print t, $1 }'
    done <"$w/files" >"$w/slots"
    for m in $marks; do
        awk -v lim=$((m * 1000)) '$1 <= lim { s[$2] = 1 } END { printf "%d ", length(s) }' "$w/slots"
    done
    # Line and branch coverage of the final corpus, one gcov build for all.
    if [ -n "$gcovdir" ]; then
        rm -f "$gcovdir"/*.gcda
        find "$q" -maxdepth 1 -type f -print0 | xargs -0 -r -n 1 timeout 10 "$gcovdir/h" >/dev/null 2>&1
        (cd "$gcovdir" && gcov -b -n h-*.gcno 2>/dev/null) | awk '
            /^File / { c = ($2 ~ /\.c.$/ && $2 !~ /bench\/real/) }
            c && /^Lines executed:/ { split($0, a, ":"); split(a[2], p, "%"); split($0, b, " of "); lt += b[2]; lh += p[1] * b[2] / 100 }
            c && /^Taken at least once:/ { split($0, a, ":"); split(a[2], p, "%"); split($0, b, " of "); bt += b[2]; bh += p[1] * b[2] / 100 }
            END { printf "%.1f %.1f ", lt ? 100 * lh / lt : 0, bt ? 100 * bh / bt : 0 }'
    else
        printf -- '- - '
    fi
    case $f in
    hfuzz)
        printf -- '- %s - ' "$(sed -n 's/.*Summary iterations:[0-9]* time:[0-9]* speed:\([0-9]*\).*/\1/p' "$w/hfuzz.log" | tail -n 1)" ;;
    libfuzzer)
        printf -- '- %s - ' "$(sed -n 's/^stat::average_exec_per_sec: *//p' "$w/libfuzzer.log")" ;;
    *)
        local stats=$r/out/default/fuzzer_stats
        st() { sed -n "s/^$1 *: *//p" "$stats" 2>/dev/null | head -n 1; }
        local execs rt last rpr
        execs=$(st execs_done) rt=$(st run_time) last=$(st execs_ps_last_min | cut -d. -f1)
        rpr=$(st execs_per_request)
        printf '%s %s %s ' "${last:-0}" \
            "$(awk -v e="$execs" -v t="$rt" 'BEGIN { printf "%d", (t > 0 ? e / t : 0) }')" "${rpr:--}" ;;
    esac
    find "$q" -maxdepth 1 -type f ! -name '.*' -printf '%s\n' 2>/dev/null |
        awk '{ if ($1 > m) m = $1; s += $1; n++ } END { printf "%d %d %d\n", m, s, n }'
}

# keep FUZZER DIR: after measure, copy $w/r-FUZZER's final corpus into DIR
# and gcov's per-line files of its replay into DIR.gcov (for
# bench/search-lines.py, which lists the lines one side reaches more often).
keep() {
    mkdir -p "$2" "$2.gcov" &&
        find "$(corpus "$1")" -maxdepth 1 -type f ! -name '.*' -exec cp {} "$2/" \; &&
        [ -n "$gcovdir" ] &&
        (cd "$gcovdir" && gcov -b h-*.gcno >/dev/null 2>&1 && mv ./*.gcov "$2.gcov/")
}

row() { # print a measured row under its label
    printf '%-12s' "$1"
    echo "$2" | awk '{ for (i = 1; i <= NF - 8; i++) printf "%8s", $i;
        printf "%7s%7s%11s%9s%9s%9s%10s%8s\n", $(NF-7), $(NF-6), $(NF-5), $(NF-4), $(NF-3), $(NF-2), $(NF-1), $NF }'
}

# bench/search.sh sources this file for its functions (fetch, build,
# cached, gcovbuild, seeds, measure) and runs its own campaigns.
[ "${BASH_SOURCE[0]}" != "$0" ] && return 0

marks=""
for m in 10 30 60 120 300 600 1200; do [ "$m" -lt "$secs" ] && marks="$marks $m"; done
marks="$marks $secs"

for t in "${targets[@]}"; do
    echo "== $t: building"
    if [ -n "${BENCH_FZ_TARGET:-}" ]; then
        # A ready fz build of this target (one target per run then).
        cp "$BENCH_FZ_TARGET" "$w/fz-$t" || exit 1
    elif ! FZ_QUIET=1 build "$t" "$w/fz-$t" "$fzcc" $fzcflags >"$w/fz-build.log" 2>&1; then
        echo "$t: fz build failed, skipped; its log ends:"; tail -n 5 "$w/fz-build.log"; continue
    fi
    neutral=$(neutralbuild "$t") || { echo "$t: no neutral build"; continue; }
    privategcov "$t" || { echo "$t: no gcov build: line/branch columns are -"; gcovdir=; }
    fuzzers=()
    for f in "${avail[@]}"; do
        case $f in
        fz) fuzzers+=(fz) ;;
        aflpp | afl | aflcmp)
            local_bin=/usr/bin pre=afl
            [ "$f" = aflpp ] && local_bin=$aflpp pre=aflpp
            x=$(cached "$pre" "$t" "$local_bin/afl-clang-fast" $cflags) &&
                { [ "$f" = afl ] || y=$(AFL_LLVM_CMPLOG=1 cached "${pre}cmp" "$t" "$local_bin/afl-clang-fast" $cflags); } ||
                { echo "$t: $f build failed ($cache/$t/$pre*.log)"; continue; }
            ln -sf "$x" "$w/$pre-$t"
            [ "$f" = afl ] || ln -sf "$y" "$w/${pre}cmp-$t"
            fuzzers+=("$f") ;;
        hfuzz)
            x=$(LF='' cached hfuzz "$t" "$hfuzz/hfuzz-clang" $cflags) &&
                ln -sf "$x" "$w/hfuzz-$t" && fuzzers+=(hfuzz) || echo "$t: hfuzz build failed ($cache/$t/hfuzz.log)" ;;
        esac
    done
    case $t in
    *-lf)
        if [ "${BENCH_LIBFUZZER:-1}" != 0 ] && x=$(cached libfuzzer "$t" clang $cflags); then
            ln -sf "$x" "$w/libfuzzer-$t" && fuzzers+=(libfuzzer)
        else
            echo "$t: no libFuzzer build (clang -fsanitize=fuzzer) or BENCH_LIBFUZZER=0: libFuzzer skipped"
        fi ;;
    esac
    seeds "$t" "$w/seeds-$t"
    echo "== $t: $secs s x $trials trial(s), ${#cpus[@]} at a time on CPUs ${cpus[*]}, pairs: ${fuzzers[*]}"
    echo "   seeds $(ls "$w/seeds-$t" | wc -l) files; edges on the fz-cc -O1 build, lines/branches % by gcov"
    printf '%-12s' run
    for m in $marks; do printf '%7ss' "$m"; done
    printf '%7s%7s%11s%9s%9s%9s%10s%8s\n' line% br% last-min/s avg/s runs/req largest total entries
    for f in "${fuzzers[@]}"; do : >"$w/rows-$f"; done
    n=${#cpus[@]}
    for i in $(seq "$first" $((first + trials - 1))); do
        for ((g = 0; g < ${#fuzzers[@]}; g += n)); do
            group=("${fuzzers[@]:g:n}")
            # Trial by trial the pair swaps CPUs, so neither fuzzer keeps
            # the busier one (other processes, interrupts).
            for ((k = 0; k < ${#group[@]}; k++)); do
                (run "${group[k]}" "$t" "$i" "${cpus[(k + i - 1) % n]}") &
            done
            wait
            for f in "${group[@]}"; do
                [ -e "$w/r-$f/out/default/fuzzer_stats" ] || [ -d "$w/r-$f/corpus" ] ||
                    { echo "$f did not run; its log ends:"; tail -n 5 "$w/$f.log"; }
                r=$(measure "$f" "$t")
                echo "$r" >>"$w/rows-$f"
                row "$f#$i" "$r"
                [ -n "${BENCH_KEEP:-}" ] && keep "$f" "$BENCH_KEEP/$t-$f-$i"
            done
        done
    done
    # Median of each column over the trials (the lower middle one for an even count).
    for f in "${fuzzers[@]}"; do
        row "$f med" "$(awk '{ for (i = 1; i <= NF; i++) v[i, NR] = $i; nf = NF } END {
            for (i = 1; i <= nf; i++) { n = 0; for (r = 1; r <= NR; r++) a[++n] = v[i, r];
                for (x = 1; x <= n; x++) for (y = x + 1; y <= n; y++) if (a[y] + 0 < a[x] + 0) { s = a[x]; a[x] = a[y]; a[y] = s }
                printf "%s ", a[int((n + 1) / 2)] } }' "$w/rows-$f")"
    done
    echo "   (hfuzz, libfuzzer: files carry no time, so each mark counts the files their corpus held then;"
    echo "    no last-minute figure.  execs/s is each fuzzer's own count: AFL++'s leaves out its CmpLog build's runs)"
done
