#!/usr/bin/env bash
# The soak, on demand (never in CI): every workload on each seed preset to at least 10^9 engine events, with the
# patch switches flipped and vm.* sysctls written at seeded random moments and verify() every virtual second and
# after each flip and write; and one virtual hour of every workload on classroom. Each (preset, workload) is its own
# pcplab_soak process, --jobs at a time. Prints one table row per run and exits 1 on any invariant failure or memory
# growth (pcplab_soak's rules), 0 otherwise.
#
#   ./scripts/soak.sh [--events 1e9] [--classroom-seconds 3600] [--jobs 2] [--out build/soak] [--seed 1]
#                     [--presets "epyc2-256 ..."] [--workloads "kernbench ..."]   (a subset, to try it quickly)
#   --classroom-seconds 0 runs no classroom hour; --presets "" runs only the classroom hours.
# The body is one compound command: bash reads all of it before it runs any, so a script edited or updated
# (git pull) during a soak of hours cannot change what the running one does next.
{
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${PCPLAB_BUILD_DIR:-$here/build}"
events=1e9; classroom_s=3600; jobs=$(nproc); out="$build/soak"; seed=1
presets=(epyc2-256 skylake-4s intel-2s-224 meta-1t-316 xeon-88-503g)
workloads=() # empty: every workload the engine registers (pcplab_soak --list-workloads)
while [ $# -gt 0 ]; do
  case "$1" in
    --events) events=$2; shift 2 ;;
    --classroom-seconds) classroom_s=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --presets) read -r -a presets <<<"$2"; shift 2 ;;
    --workloads) read -r -a workloads <<<"$2"; shift 2 ;;
    *) echo "soak.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
soak="$build/tests/bench/pcplab_soak"
[ -x "$soak" ] || { echo "soak.sh: no $soak (run ./scripts/build.sh first)" >&2; exit 2; }
[ ${#workloads[@]} -gt 0 ] || mapfile -t workloads < <("$soak" --list-workloads)
mkdir -p "$out"
jobsfile="$out/jobs.txt"
: >"$jobsfile"
# The classroom hours first: page-fault1's and frag-churn's are the soak's longest runs (README's Soak section says
# what they cost); started last, they would set its wall time.
[ "$classroom_s" = 0 ] || for w in "${workloads[@]}"; do
  echo "classroom $w --duration $classroom_s --flips 16 --sysctl-writes 8 --seed $seed" >>"$jobsfile"
done
for p in "${presets[@]}"; do
  for w in "${workloads[@]}"; do
    echo "$p $w --events $events --flips 16 --sysctl-writes 8 --seed $seed" >>"$jobsfile"
  done
done
echo "soak.sh: $(wc -l <"$jobsfile") runs, $jobs at a time; logs in $out" >&2
start=$(date +%s)
# One process per line: the preset, the workload, then pcplab_soak's options. /usr/bin/time -v gives the peak RSS.
xargs -P "$jobs" -L 1 bash -c '
  preset=$1 workload=$2; shift 2
  log="'"$out"'/$preset-$workload.log"
  if /usr/bin/time -f "peak_rss_kib %M" "'"$soak"'" --preset "$preset" --workload "$workload" --quiet "$@" >"$log" 2>&1; then
    echo "soak.sh: $preset $workload ok" >&2
  else
    echo "soak.sh: $preset $workload FAILED (see $log)" >&2
  fi' _ <"$jobsfile" || true
echo "soak.sh: done in $(( $(date +%s) - start )) s wall" >&2

status=0
printf '| preset | workload | virtual s | events | M events/CPU s | CPU s | verifies | flips | sysctl writes | reboots | RSS at 1 s / max / end (MiB) | peak RSS (MiB) | result |\n'
printf '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|\n'
while read -r preset workload _; do
  log="$out/$preset-$workload.log"
  line=$(grep -E "^$workload " "$log" | tail -1 || true)
  peak=$(awk '/^peak_rss_kib/ {print int($2 / 1024)}' "$log")
  if [ -z "$line" ]; then
    printf '| %s | %s | | | | | | | | | | %s | NO RESULT: %s |\n' "$preset" "$workload" "$peak" "$(tail -1 "$log")"
    status=1
    continue
  fi
  python3 - "$preset" "$peak" "$line" <<'PY' || status=1
import re, sys
preset, peak, line = sys.argv[1], sys.argv[2], sys.argv[3]
m = re.match(r"(\S+)\s+([\d.]+) virtual s\s+(\d+) events\s+([\d.]+) s wall\s+([\d.]+) s CPU .*?([\d.]+) M events/CPU s\s+(\d+) verifies\s+(\d+) flips\s+(\d+) sysctl writes\s+(\d+) reboots\s+RSS start (\d+) / at 1 s (\d+) / max (\d+) / end (\d+) MiB\s+(.*)$", line)
if not m:
    print(f"| {preset} | ? | | | | | | | | | | {peak} | UNPARSED: {line} |")
    sys.exit(1)
w, vs, ev, wall, cpu, rate, ver, fl, sw, rb, r0, r1, rmax, rend, res = m.groups()
print(f"| {preset} | {w} | {float(vs):.1f} | {int(ev):,} | {float(rate):.2f} | {float(cpu):.0f} | {ver} | {fl} | {sw} | {rb} | {r1} / {rmax} / {rend} | {peak} | {res} |")
sys.exit(0 if res.strip() == "ok" else 1)
PY
done <"$jobsfile"
exit $status
}
