# scripts/debsrc.sh - Debian source packages for fz's tests, farm and
# benchmarks: the one place that asks apt for them.  Sourced, not run:
#
#   . "$FZ_ROOT/scripts/debsrc.sh"
#   dsc=$(fz_debsrc_fetch zlib "$cache") || ...     # download once
#   fz_debsrc_unpack zlib "$cache" "$dir" || ...    # a fresh tree in $dir
#
# Every function returns non-zero with one line on stderr when it cannot
# do its job, and never exits: the caller decides between failing and
# skipping.

# fz_debsrc_enable: apt knows about source packages afterwards.  Adds a
# deb-src entry for bookworm (root only) when the machine has none.
fz_debsrc_enable() {
    grep -rqs '^deb-src\|^Types:.*deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/ && return 0
    if [ "$(id -u)" != 0 ]; then
        echo "apt has no deb-src entry and adding one needs root" >&2
        return 1
    fi
    printf '%s\n' "# Added by fz (scripts/debsrc.sh): source packages for its tests and benchmarks." \
        'Types: deb-src' 'URIs: http://deb.debian.org/debian' 'Suites: bookworm' 'Components: main' \
        'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' \
        >/etc/apt/sources.list.d/fz-deb-src.sources
    apt-get update -qq >&2 || { echo "apt-get update failed (no network?)" >&2; return 1; }
}

# fz_debsrc_fetch PKG CACHE: prints the .dsc of PKG in the directory CACHE,
# downloading it (`apt-get source --download-only`) when CACHE has none.
# A mirror may lack the files of the newest security upload its index
# already names, so each version apt knows is tried, newest first.
fz_debsrc_fetch() {
    local pkg=$1 cache=$2 dsc v log
    dsc=$(ls "$cache/${pkg}"_*.dsc 2>/dev/null | sort -V | tail -n 1)
    if [ -z "$dsc" ]; then
        command -v apt-get >/dev/null || { echo "no apt-get to fetch the $pkg source" >&2; return 1; }
        fz_debsrc_enable || return 1
        mkdir -p "$cache" || return 1
        log=$cache/fetch-$pkg.log
        for v in $(apt-cache showsrc --only-source "$pkg" 2>/dev/null | sed -n 's/^Version: //p' | sort -rV | uniq); do
            (cd "$cache" && apt-get source --download-only -qq "$pkg=$v") >"$log" 2>&1 && break
        done
        dsc=$(ls "$cache/${pkg}"_*.dsc 2>/dev/null | sort -V | tail -n 1)
        if [ -z "$dsc" ]; then
            echo "apt-get source $pkg failed: $(grep -m 1 '^E:' "$log" 2>/dev/null || echo 'apt knows no such source package')" >&2
            return 1
        fi
    fi
    echo "$dsc"
}

# fz_debsrc_unpack PKG CACHE DIR: a fresh, patched source tree of PKG in
# DIR (removed first), from the .dsc fz_debsrc_fetch keeps in CACHE.
fz_debsrc_unpack() {
    local dsc
    command -v dpkg-source >/dev/null ||
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq dpkg-dev >&2 ||
        { echo "no dpkg-source to unpack the $1 source (apt-get install dpkg-dev)" >&2; return 1; }
    dsc=$(fz_debsrc_fetch "$1" "$2") || return 1
    rm -rf "$3" && mkdir -p "$(dirname "$3")" || return 1
    dpkg-source --no-check -x "$dsc" "$3" >"$3.unpack.log" 2>&1 ||
        { echo "dpkg-source could not unpack $dsc (see $3.unpack.log)" >&2; return 1; }
    rm -f "$3.unpack.log"
    # dpkg-source leaves copies of the tarballs beside the tree (unless
    # that is where the package is kept).
    [ "$(cd "$(dirname "$3")" && pwd -P)" = "$(cd "$2" && pwd -P)" ] ||
        find "$(dirname "$3")" -maxdepth 1 -name "${1}_*" -delete
}
