#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 180), one after the other,
# seeded with the repository's sheets; a crash stops with the input saved
# under fuzz/artifacts/<target>/. Needs the nightly toolchain and cargo-fuzz
# (cargo install cargo-fuzz).
#   fuzz/run.sh            # three minutes each
#   fuzz/run.sh 20         # a smoke run
#   fuzz/run.sh 180 yaml   # one target
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-180}
shift || true
targets=${*:-text yaml csv pgn trf decision convert collection}
for target in $targets; do
    corpus=fuzz/corpus/$target
    mkdir -p "$corpus"
    case $target in
        text) seeds=$(find examples tests/sheets tests/real -name '*.txt' 2>/dev/null | head -200) ;;
        yaml | decision) seeds=$(find examples tests/sheets -name '*.yaml' -o -name '*.yml' 2>/dev/null | head -200) ;;
        csv) seeds=$(find examples tests/sheets -name '*.csv' -o -name '*.tsv' 2>/dev/null | head -200) ;;
        pgn | collection) seeds=$(find examples tests/sheets tests/data -name '*.pgn' 2>/dev/null | head -200) ;;
        trf) seeds=$(find examples tests -name '*.trf' 2>/dev/null | head -200) ;;
        convert) seeds=$(find examples tests/sheets -type f 2>/dev/null | head -200) ;;
    esac
    for s in $seeds; do cp -n "$s" "$corpus/" 2>/dev/null || true; done
    # The pipeline's targets on sheet-sized inputs (each runs a search);
    # the readers' up to 100 KB (megabyte lines are refused by size first).
    case $target in convert | collection) max_len=8192 ;; *) max_len=100000 ;; esac
    echo "== $target: $seconds s"
    cargo +nightly fuzz run -O "$target" "$corpus" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" -print_final_stats=1 2>&1 |
        grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==|SUMMARY|Done)" || true
    if compgen -G "fuzz/artifacts/$target/crash-*" >/dev/null || compgen -G "fuzz/artifacts/$target/timeout-*" >/dev/null ||
        compgen -G "fuzz/artifacts/$target/oom-*" >/dev/null; then
        echo "$target: a crash or a hang, kept in fuzz/artifacts/$target/"
        exit 1
    fi
done
