#!/bin/bash
# structure.sh - checks the shape of the tree that docs/internals.md
# promises ("Rooms"), so it does not drift again:
#
#   size    no .c file in core/, fz-fuzz/ or runtime/ is over 600 lines
#           (one module, one job: a file that grows past that holds two);
#   cycle   no import circle between modules: a module is a .c and its .h,
#           and it imports another when either file #includes the other's
#           header; A imports B while B imports A (or longer rings) is a
#           circle.  A header and its own .c are one module, not a circle
#           (nor is NAME-priv.h, NAME's private header);
#   room    calls and includes between the top folders go only the ways
#           docs/internals.md draws (fz-fuzz uses core and mutators, ...);
#   fsrv    nothing outside core/ reads fz_fsrv_t's fields (`exec.fs.`,
#           `->fs.`): the forkserver is core's, a run's outcome is the
#           exec record (core/exec.h).
#
# Each violation is one line "KIND WHAT: why" (a cycle's WHAT: its members,
# sorted).  A line of the allowance file (scripts/structure.allow, "KIND
# WHAT" per line, WHAT may be a glob, # comments) turns a violation it
# matches into a note: that is for work under way, named there with its
# issue; an allowance that no longer matches anything is reported so it
# can be deleted.  Exit 0 when nothing but allowed violations remain, 1
# otherwise.  Run from anywhere: scripts/structure.sh [ROOT].
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2
allow_file=scripts/structure.allow
max_lines=600
size_dirs=(core fz-fuzz runtime)
# Every folder of fz's own C sources (tests are not modules).
src_dirs=(core fz-fuzz runtime mutators plugin fz-cc tools report include)

found=() # "KIND WHAT<TAB>why"

# --- size
for d in "${size_dirs[@]}"; do
    for f in "$d"/*.c; do
        [ -e "$f" ] || continue
        n=$(wc -l <"$f")
        [ "$n" -le $max_lines ] || found+=("size $f"$'\t'"$n lines (at most $max_lines)")
    done
done

# --- fsrv
while IFS= read -r hit; do
    found+=("fsrv ${hit%%:*}"$'\t'"reads fz_fsrv_t fields: ${hit#*:}")
done < <(grep -rn -E 'exec\.fs\.|->fs\.' --include=*.c --include=*.h "${src_dirs[@]}" 2>/dev/null |
    grep -v '^core/' | awk -F: '{ line = $0; sub(/^[^:]*:[^:]*:[ \t]*/, "", line);
        if (!($1 in seen)) { seen[$1] = 1; print $1 ":" $2 ": " line } }')

# --- cycle
# A module is a path without .c/.h (NAME-priv.h, a header of NAME's own
# private fields, is part of NAME).  It imports another when it #includes
# that one's header (beside the file, under the root or under include/, the
# -I list of the Makefile), or when its object calls a function the other's
# object defines (build/, after make; a header shared by several .c files,
# like runtime/lf-cli.h, hides the second kind from the first).
include_edges() {
    for d in "${src_dirs[@]}"; do
        for f in "$d"/*.c "$d"/*.h "$d"/*.cc; do
            [ -e "$f" ] || continue
            from=${f%.*}
            sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
                for cand in "$(dirname "$f")/$inc" "$inc" "include/$inc"; do
                    [ -e "$cand" ] || continue
                    to=$(realpath --relative-to=. "$cand")
                    to=${to%.*}
                    echo "${from%-priv} ${to%-priv} includes"
                    break
                done
            done
        done
    done
}
# Objects of fz's own modules: build/DIR/NAME.o, the runtime's under
# build/rt/runtime/ (build/rt/mutators/ are copies for the libFuzzer driver).
call_edges() {
    for o in build/*/*.o build/rt/runtime/*.o; do
        [ -e "$o" ] || continue
        m=${o#build/}
        m=${m#rt/}
        m=${m%.o}
        [ -e "$m.c" ] || [ -e "$m.cc" ] || continue
        nm "$o" 2>/dev/null | awk -v m="$m" '$1 == "U" { print "U", m, $2; next }
            NF == 3 && $2 ~ /^[TDBRVWG]$/ { print "D", m, $3 }'
    done | awk '$1 == "D" { def[$3] = $2; times[$3]++; next }
        { use[++n] = $2 " " $3 }
        END { for (i = 1; i <= n; i++) { split(use[i], u, " ");
            # A name every program defines for itself (fz_log_prog, main)
            # belongs to no one module.
            if ((u[2] in def) && times[u[2]] == 1 && def[u[2]] != u[1]) print u[1], def[u[2]], "calls" } }'
}
[ -d build ] || echo "note: no build/ (run make first): calls between modules not checked"
edges=$( { include_edges; call_edges; } | sort -u)

# --- room
# Calls and includes between rooms (top folders) go only the ways
# docs/internals.md ("Rooms") draws; include/ is everyone's and includes
# only itself.
allowed_rooms=" fz-fuzz>core fz-fuzz>mutators tools>core tools>report report>core core>mutators runtime>mutators "
while read -r from to how; do
    [ -n "$from" ] || continue
    a=${from%%/*} b=${to%%/*}
    [ "$a" != "$b" ] && [ "$b" != include ] || continue
    case $allowed_rooms in *" $a>$b "*) continue ;; esac
    found+=("room $from"$'\t'"$how $to: $a/ may not use $b/")
done <<<"$edges"
# Rings: the strongly connected components of the import graph (Tarjan's
# algorithm); each is reported once, with the imports inside it.
# A module split over several files: NAME-priv.h holds NAME's private
# fields, shared by NAME.c and its NAME-PART.c files, which are then all one
# module (core/fsrv.c and core/fsrv-*.c).
families=$(for d in "${src_dirs[@]}"; do
    for p in "$d"/*-priv.h; do [ -e "$p" ] && echo "${p%-priv.h}"; done
done)
family_of() {
    awk -v fams="$families" 'BEGIN { n = split(fams, f, "\n") }
        function fam(m,    i) { for (i = 1; i <= n; i++)
            if (f[i] != "" && (m == f[i] || index(m, f[i] "-") == 1)) return f[i]
            return m }
        { print fam($1), fam($2), $3 }'
}
cycles=$(printf '%s\n' "$edges" | family_of | awk '$1 != $2' | sort -u | awk '
    function visit(v,    i, w) {
        idx[v] = low[v] = ++counter; stack[++sp] = v; on[v] = 1
        for (i = 1; i <= deg[v]; i++) {
            w = adj[v, i]
            if (!(w in idx)) { visit(w); if (low[w] < low[v]) low[v] = low[w] }
            else if (on[w] && idx[w] < low[v]) low[v] = idx[w]
        }
        if (low[v] == idx[v]) {
            comp = ""; size = 0
            do { w = stack[sp--]; on[w] = 0; member[w] = v; comp = comp " " w; size++ } while (w != v)
            if (size > 1) { ring[v] = comp; nring++ }
        }
    }
    { if (!(($1, $2) in seen)) { seen[$1, $2] = 1; adj[$1, ++deg[$1]] = $2; nodes[$1]; nodes[$2] }
      h = (($1, $2) in how) ? how[$1, $2] "+" $3 : $3; how[$1, $2] = h; from[++ne] = $1; to[ne] = $2 }
    END {
        for (v in nodes) if (!(v in idx)) visit(v)
        for (r in ring) {
            detail = ""
            for (e = 1; e <= ne; e++)
                if (member[from[e]] == r && member[to[e]] == r && !((from[e], to[e]) in done)) {
                    done[from[e], to[e]] = 1
                    detail = detail "; " from[e] " " how[from[e], to[e]] " " to[e]
                }
            print ring[r] "\t" substr(detail, 3)
        }
    }')
while IFS=$'\t' read -r members detail; do
    [ -n "$members" ] || continue
    # Canonical form: the members sorted, so an allowance does not depend
    # on where the search entered the ring.
    key=$(tr ' ' '\n' <<<"$members" | sed '/^$/d' | sort | tr '\n' ' ' | sed 's/ $//')
    found+=("cycle $key"$'\t'"these modules import each other: $detail")
done <<<"$cycles"

# --- report
allowed=()
[ -f "$allow_file" ] && mapfile -t allowed < <(sed -e 's/#.*//' -e 's/[ \t]*$//' -e '/^$/d' "$allow_file")
fails=0
declare -A used=()
for v in "${found[@]+"${found[@]}"}"; do
    key=${v%%$'\t'*} why=${v#*$'\t'}
    ok=0
    for a in "${allowed[@]+"${allowed[@]}"}"; do
        # shellcheck disable=SC2053 # an allowance may be a glob
        [[ $key == $a ]] && ok=1 used[$a]=1
    done
    if [ $ok = 1 ]; then
        echo "allowed: $key: $why"
    else
        echo "FAIL $key: $why"
        fails=$((fails + 1))
    fi
done
for a in "${allowed[@]+"${allowed[@]}"}"; do
    [ -n "${used[$a]+x}" ] || echo "stale allowance (nothing matches; delete it from $allow_file): $a"
done
if [ $fails -gt 0 ]; then
    echo "structure: $fails violation(s); see docs/internals.md, \"Rooms\""
    exit 1
fi
echo "structure: ok (${#found[@]} allowed)"
