#!/bin/sh
# tools/snapshot.sh PPFLOW OUTDIR [quick]: everything ppflow writes for the
# scenarios in assets/ and the notebook's scene, into OUTDIR, so that a change
# meant to keep behaviour can be checked byte for byte:
#
#     tools/snapshot.sh build/release/ppflow /tmp/before      # on the old commit
#     tools/snapshot.sh build/release/ppflow /tmp/after       # on the new one
#     diff -r /tmp/before /tmp/after && echo identical
#
# Per scenario: schedule in every format (json, csv, chrome-trace, table, gantt,
# gantt with colours), --help of each command, --still PNGs at four times in
# both themes, and the MP4 at the defaults. With "quick", MP4s are 320x180 at
# 5 fps (seconds instead of minutes). Viewer screenshots are taken under Xvfb
# when xvfb-run is installed. MP4s are byte-identical only on the same machine
# (x264 chooses code paths by CPU).
set -eu
bin=$(realpath "$1")
out=$2
quick=${3:-}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"

for cmd in "" run render schedule; do
    "$bin" $cmd --help >"$out/help-${cmd:-top}.txt" 2>&1 || true
done

render_only=""  # flags for render alone (schedule refuses them), set per scene
scene() { # NAME ARGS...: one scenario's outputs
    name=$1
    shift
    for fmt in json csv chrome-trace table gantt; do
        "$bin" schedule "$@" --format "$fmt" -o "$out/$name.$fmt" 2>"$out/$name.$fmt.err" || true
    done
    # Colours only go to a terminal: script(1) gives the command one.
    if command -v script >/dev/null 2>&1; then
        args=$(printf " '%s'" "$bin" schedule "$@" --format gantt)
        COLUMNS=160 COLORTERM= script -qec "$args" /dev/null >"$out/$name.gantt-256" 2>&1 || true
        COLUMNS=160 COLORTERM=truecolor script -qec "$args" /dev/null \
            >"$out/$name.gantt-truecolor" 2>&1 || true
    fi
    for theme in dark light; do
        for t in 0 0.3 0.5 1; do
            "$bin" render "$@" $render_only --theme "$theme" --still "$t" \
                -o "$out/$name-$theme-$t.png" -q \
                2>"$out/$name-still.err" || true
        done
    done
    if [ "$quick" = quick ]; then
        "$bin" render "$@" --size 320x180 --fps 5 -o "$out/$name.mp4" -q || true
    else
        "$bin" render "$@" $render_only -o "$out/$name.mp4" -q || true
    fi
}

for f in "$here"/assets/*.json; do
    # a talk (its "slides") holds scenarios, not one: its slides are the assets' own
    grep -q '"slides"' "$f" && continue
    scene "$(basename "$f" .json)" "$f"
done
if [ "$quick" = quick ]; then
    scene notebook --schedule gpipe --dp 2 --stages 3 --layers-per-stage 2 --microbatches 12
else
    render_only="--size 1600x1600 --fps 15 --duration 17.27 --preset medium --crf 23"
    scene notebook --schedule gpipe --dp 2 --stages 3 --layers-per-stage 2 --microbatches 12
fi

# The viewer: a paused window driven by a script (no playback, no eased
# camera move, so every frame is a function of the input alone).
if command -v xvfb-run >/dev/null 2>&1; then
    script="$out/viewer.script"
    cat >"$script" <<EOF
frames 2
screenshot $out/viewer-0.png
key right
key right
key right
move 640 600
scroll 3
frames 2
screenshot $out/viewer-1.png
down left 500 620
move 700 620
up left 700 620
key h
frames 2
screenshot $out/viewer-2.png
key h
key t
move 400 650
frames 2
screenshot $out/viewer-3.png
print
quit
EOF
    xvfb-run -a -s '-screen 0 1280x720x24' "$bin" "$here/assets/default.json" --script "$script" \
        >"$out/viewer.out" 2>/dev/null || true
    rm -f "$script"
fi
