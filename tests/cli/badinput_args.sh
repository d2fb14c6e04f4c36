# Bad values for every flag of every subcommand: huge, negative, not a number, empty, unknown flags and
# fields. Each is refused with exit 2 and one line that names the flag and the problem, before any machine
# is booted (so every row is quick); none crashes or hangs. Then the CLI-argument fuzz regressions.
set -e
. "$(dirname "$0")/badinput_lib.bash"
zi="$src/tests/fixtures/zoneinfo/linux-6.18-kvm-1node-2cpu.txt"
big=99999999999999999999999999
R="run --preset classroom --workload kernbench"

for cmd in zoneinfo buddyinfo pagesets; do
    check_table <<ROWS
2	--init-threads	is too large	$cmd --preset classroom --patch parallel-deferred-init=on --init-threads $big
2	--init-threads	must be at least 1, not -4	$cmd --preset classroom --patch parallel-deferred-init=on --init-threads -4
2	--init-threads	is not a whole number	$cmd --preset classroom --init-threads 2.5
2	--init-threads	missing value	$cmd --preset classroom --init-threads=
2	--era	is not a kernel version	$cmd --preset classroom --era v$big
2	--era	is not a kernel version	$cmd --preset classroom --era -5.4
2	--at	is not a boot stage	$cmd --preset classroom --at -1
2	--patch	unknown	$cmd --preset classroom --patch colour=on
2	--patch	batched-bulk-free=-1	$cmd --preset classroom --patch batched-bulk-free=-1
2	--colour	unknown flag	$cmd --preset classroom --colour blue
2	--preset	missing value	$cmd --preset
ROWS
done

check_table <<ROWS
2	--duration	is too long	$R --duration ${big}s
2	--duration	is not a duration	$R --duration -5s
2	--duration	must be at least 1ns	$R --duration 0.0001ns
2	--duration	is not a duration	$R --duration nan
2	--duration	is not a duration	$R --duration 10parsecs
2	--work	must be at most 1e+15	$R --work $big
2	--work	must be more than 0	$R --work -3
2	--work	is not a number	$R --work inf
2	--work	cannot be combined with --duration	$R --work 5 --duration 1s
2	--seed	is too large	$R --seed $big
2	--seed	is not a whole number	$R --seed -1
2	--repeat	is too large	$R --repeat $big
2	--repeat	must be at least 1	$R --repeat -2
2	--repeat	at most 1000 runs	$R --repeat 1001
2	--record-holds	needs --record FILE	$R --record-holds all
2	--record-holds	is not a rule	$R --record /nonexistent-dir/r.db --record-holds 1/0
2	--record-holds	is not a rule	$R --record /nonexistent-dir/r.db --record-holds 1/$big
2	--record-holds	is not a rule	$R --record /nonexistent-dir/r.db --record-holds -1/10
2	--record-holds	is not a rule	$R --record /nonexistent-dir/r.db --record-holds 1/10+over:-5us
2	--seed	too large for 3 runs	$R --seed 18446744073709551615 --repeat 3
2	--intensity	must be at most 100	$R --intensity 1e300
2	--intensity	must be more than 0	$R --intensity -1
2	--intensity	is not a number	$R --intensity 1e999
2	--hold-threshold	is too long	$R --hold-threshold ${big}s
2	--hold-threshold	is not a duration	$R --hold-threshold -1ms
2	--param	is not a number	$R --param jobs=lots
2	--param	is not a number	$R --param jobs=nan
2	--param	expected KEY=VALUE	$R --param =5
2	--param colour=	colour	$R --param colour=5
2	--param jobs=	jobs	$R --param jobs=-5
2	--param jobs=	jobs	$R --param jobs=1e300
2	--workload	unknown workload	run --preset classroom --workload fork-bomb
2	--workload	required	run --preset classroom
2	--preset	required	run --workload kernbench
2	--cpus-per-node	is too large	check-zoneinfo $zi --cpus-per-node $big
2	--cpus-per-node	must be at least 0, not -1	check-zoneinfo $zi --cpus-per-node -1
2	--cpus-per-node	empty item	check-zoneinfo $zi --cpus-per-node 2,,2
2	--era	is not a kernel version	check-zoneinfo $zi --era 5.4.0-rc$big
2	--page-size	is not a page size in KiB (4, 16 or 64)	check-zoneinfo $zi --page-size 8
2	--page-size	is not a whole number	check-zoneinfo $zi --page-size x
2	FILE	missing FILE	check-zoneinfo
2	unexpected argument	extra	check-zoneinfo $zi extra
2	--only	$big	seeds --only $big
2	--only	-1	seeds --only -1
2	--class	colour	costs --class colour
2	--json	takes no value	costs --preset classroom --json=yes
2	--preset	missing value	demo --preset
2	unexpected argument	extra	demo extra
ROWS

# The CLI-argument fuzz regressions: one argument per line, given to each subcommand. Whatever they say,
# the answer is an exit status of 0, 1 or 2 and no crash (sanitizers, signals, "internal error").
for f in "$src"/tests/fixtures/fuzz-regressions/fuzz_cli_args/*; do
    [ -f "$f" ] || continue
    mapfile -t words <"$f"
    for cmd in zoneinfo check-zoneinfo run seeds costs; do
        rows=$((rows + 1))
        set +e
        timeout "$badinput_timeout" "$cli" "$cmd" "${words[@]}" >"$tmp/out" 2>"$tmp/err" </dev/null
        rc=$?
        set -e
        if [ "$rc" -gt 2 ] || grep -qE 'Sanitizer|runtime error:|internal error' "$tmp/err"; then
            fail "$cmd $(basename "$f"): exit $rc: $(head -c 400 "$tmp/err")"
        fi
    done
done

finish_table
