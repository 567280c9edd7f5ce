"""fzmap.py - one run's coverage map as a set of features, for the bench
scripts that replay a queue (map-kept.py, map-lineage.py)."""
import os
import subprocess
import sys


def showmap(script):
    """bin/fz-showmap beside the calling script's bench/, or exit."""
    here = os.path.dirname(os.path.abspath(script))
    path = os.path.join(here, "..", "bin", "fz-showmap")
    if not os.access(path, os.X_OK):
        sys.exit(f"{os.path.basename(script)}: bin/fz-showmap not built (run make)")
    return path


def features(showmap_path, build, path, stdin=False):
    """The (slot, hit-count bucket) pairs of one run of BUILD on the file
    PATH (given as its argument, or on stdin)."""
    cmd = [showmap_path, "-q", "-o", "-", "--", build]
    if stdin:
        with open(path, "rb") as f:
            out = subprocess.run(cmd, stdin=f, capture_output=True, text=True).stdout
    else:
        out = subprocess.run(cmd + [path], capture_output=True, text=True).stdout
    got = set()
    for word in out.split():
        slot, _, bucket = word.partition(":")
        if bucket:
            got.add((int(slot), int(bucket)))
    return got
