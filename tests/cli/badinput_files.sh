# Bad input files for every command that reads one (presets through --preset on every subcommand that
# takes it, /proc/zoneinfo captures through check-zoneinfo): missing, empty, truncated, wrong type, a
# directory, an endless device, huge and negative numbers, unknown fields. Each is refused with exit 2 and
# one line that names the file and the problem; none crashes or hangs.
set -e
. "$(dirname "$0")/badinput_lib.bash"
zi="$src/tests/fixtures/zoneinfo/linux-6.18-kvm-1node-2cpu.txt"

# preset FILE CPUS MEMORY_GIB [EXTRA_FIELDS]: a one-node preset with these values.
preset() {
    printf '{"description": "x", "era": "v5.4", "sockets": 1,\n "nodes": [{"cpus": %s, "memory_gib": %s}]%s}\n' \
        "$2" "$3" "${4:-}" >"$tmp/$1"
}
: >"$tmp/empty.json"
: >"$tmp/empty.txt"
head -c 300 "$src/resources/presets/classroom.json" >"$tmp/truncated.json"
awk '/batch:/ && ++n == 2 { exit } { print }' "$zi" >"$tmp/truncated.txt"
head -c 4096 "$cli" >"$tmp/binary"
mkdir "$tmp/dir"
preset huge_memory.json 2 1e30
preset huge_cpus.json 99999999999999999999 1
preset overflow.json 2 1e400
preset negative_cpus.json -4 1
preset negative_memory.json 2 -1
preset fraction_cpus.json 2.5 1
preset string_cpus.json '"2"' 1
preset unknown_field.json 2 1 ', "colour": "blue"'
preset negative_sysctl.json 2 1 ', "sysctl": {"min_free_kbytes": -1}'
preset huge_init_threads.json 2 1 ', "init_threads": 1e12'

# Every subcommand that boots or reads a preset, with each bad preset file.
for cmd in "zoneinfo" "buddyinfo" "pagesets" "costs" "demo" "run --workload kernbench"; do
    check_table <<ROWS
2	\$tmp/missing.json	No such file or directory	$cmd --preset \$tmp/missing.json
2	\$tmp/empty.json	unexpected end of input	$cmd --preset \$tmp/empty.json
2	\$tmp/truncated.json	truncated.json:4: syntax error	$cmd --preset \$tmp/truncated.json
2	$zi	syntax error	$cmd --preset $zi
2	\$tmp/binary	syntax error	$cmd --preset \$tmp/binary
2	\$tmp/dir	is a directory	$cmd --preset \$tmp/dir
2	/dev/zero	is larger than 1 MiB	$cmd --preset /dev/zero
2	\$tmp/huge_memory.json	nodes[0].memory_gib: must be a number from 0.125 to 16384, not 1e+30	$cmd --preset \$tmp/huge_memory.json
2	\$tmp/huge_cpus.json	nodes[0].cpus: must be an integer from 0 to 8192	$cmd --preset \$tmp/huge_cpus.json
2	\$tmp/overflow.json	overflow.json:2: number overflow parsing '1e400'	$cmd --preset \$tmp/overflow.json
2	\$tmp/negative_cpus.json	nodes[0].cpus: must be an integer from 0 to 8192, not -4	$cmd --preset \$tmp/negative_cpus.json
2	\$tmp/negative_memory.json	nodes[0].memory_gib: must be a number from 0.125 to 16384, not -1	$cmd --preset \$tmp/negative_memory.json
2	\$tmp/fraction_cpus.json	nodes[0].cpus: must be an integer	$cmd --preset \$tmp/fraction_cpus.json
2	\$tmp/string_cpus.json	nodes[0].cpus: must be an integer	$cmd --preset \$tmp/string_cpus.json
2	\$tmp/unknown_field.json	colour: unknown field	$cmd --preset \$tmp/unknown_field.json
2	\$tmp/negative_sysctl.json	sysctl.min_free_kbytes: must be an integer from 0	$cmd --preset \$tmp/negative_sysctl.json
2	\$tmp/huge_init_threads.json	init_threads: must be an integer from 0 to 8192	$cmd --preset \$tmp/huge_init_threads.json
ROWS
done

# /proc/zoneinfo captures.
check_table <<'ROWS'
2	$tmp/missing.txt	cannot open	check-zoneinfo $tmp/missing.txt
2	$tmp/empty.txt	no 'Node N, zone NAME' header	check-zoneinfo $tmp/empty.txt
2	$src/resources/presets/classroom.json	not a /proc/zoneinfo file	check-zoneinfo $src/resources/presets/classroom.json
2	$tmp/binary	not a /proc/zoneinfo file	check-zoneinfo $tmp/binary
2	$tmp/dir	is a directory	check-zoneinfo $tmp/dir
2	/dev/zero	is larger than 256 MiB	check-zoneinfo /dev/zero
ROWS

# Numbers inside a capture: too large for the parser, negative where only a count makes sense.
sed '0,/managed/s/managed *[0-9]*/managed  99999999999999999999999/' "$zi" >"$tmp/huge.txt"
sed '0,/cpu: 0/s/cpu: 0/cpu: -1/' "$zi" >"$tmp/negative_cpu.txt"
sed '0,/nr_free_pages/s/nr_free_pages *[0-9]*/nr_free_pages -/' "$zi" >"$tmp/not_a_number.txt"
sed '0,/pagesets/s/pagesets/pagesets\n  colour blue red/' "$zi" >"$tmp/unknown_line.txt"
check_table <<'ROWS'
2	$tmp/huge.txt	'managed' expects a number	check-zoneinfo $tmp/huge.txt
2	$tmp/not_a_number.txt	not a number	check-zoneinfo $tmp/not_a_number.txt
ROWS

# A capture cut short, and one with a line nobody prints, are read (the cut pageset left out, the line
# skipped) and say so; they are not refused.
run check-zoneinfo "$tmp/truncated.txt"
[ "$rc" -le 1 ] || fail "truncated capture: exit $rc: $(cat "$tmp/err")"
grep -q "reader: line [0-9]*: the pageset of cpu [0-9]* in Node 0, zone .* (cut short?): left out" "$tmp/out" \
    || fail "truncated capture: no note of the pageset left out: $(cat "$tmp/out")"
run check-zoneinfo "$tmp/unknown_line.txt"
[ "$rc" -eq 0 ] || fail "unknown line: exit $rc: $(cat "$tmp/err")"
grep -q "reader: 1 unrecognised line skipped (line [0-9]*)" "$tmp/out" || fail "unknown line: not reported: $(cat "$tmp/out")"

# Recordings (compare, export): what tests/cli/session_bad_files.sh does not try already.
run run --preset classroom --workload bursty --duration 1ms --record "$tmp/good.db"
[ "$rc" -eq 0 ] || fail "recording a run: exit $rc: $(cat "$tmp/err")"
for cmd in "compare \$tmp/good.db" "export --format csv"; do
    check_table <<ROWS
2	\$tmp/dir	is a directory	$cmd \$tmp/dir
2	/dev/zero	not a pcplab recording	$cmd /dev/zero
2	\$tmp/binary	not a pcplab recording	$cmd \$tmp/binary
2	$zi	not a pcplab recording	$cmd $zi
2	$src/resources/presets/classroom.json	not a pcplab recording	$cmd $src/resources/presets/classroom.json
ROWS
done
check_table <<'ROWS'
2	--record $tmp/dir	not overwriting it	run --preset classroom --workload bursty --duration 1ms --record $tmp/dir
2	--record $tmp/no/such/dir/x.db	cannot write the recording	run --preset classroom --workload bursty --duration 1ms --record $tmp/no/such/dir/x.db
2	--run	is too large	export $tmp/good.db --format csv --run 99999999999999999999999
2	--run	must be at least 1, not -1	export $tmp/good.db --format csv --run -1
2	--size	at most 10000 pixels a side	export $tmp/good.db --format svg --series batch --out $tmp/x.svg --size 99999999x99999999
2	--size	is not WIDTHxHEIGHT	export $tmp/good.db --format svg --series batch --out $tmp/x.svg --size -5x-5
2	--format	is not one of	export $tmp/good.db --format colour
2	--series	unknown series 'colour'	export $tmp/good.db --format csv --series colour
ROWS

# Lesson files (lessons list DIR reads and checks every lesson of DIR): one bad file per folder.
lesson_dir() {
    mkdir -p "$tmp/lessons_$1"
    cat >"$tmp/lessons_$1/01-bad.md"
}
step='---\ntitle: T\nsummary: S\n---\n\nIntro.\n\n## Step\n\n```step\npreset: classroom\n%s\n```\n'
lesson_dir empty </dev/null
lesson_dir binary <"$tmp/binary"
printf -- '---\ntitle: T\n' | lesson_dir unclosed
head -c 150 "$src/lessons/03-seed-000-limits-after-deferred-init.md" | lesson_dir truncated
printf -- "$step" 'node_gib: 1e400' | lesson_dir huge
printf -- "$step" 'init_threads: 99999999999' | lesson_dir huge_int
printf -- "$step" 'node_gib: -3' | lesson_dir negative
printf -- "$step" 'colour: blue' | lesson_dir unknown
check_table <<'ROWS'
2	$tmp/lessons_empty/01-bad.md:1:1	front block	lessons list $tmp/lessons_empty
2	$tmp/lessons_binary/01-bad.md:1:1	front block	lessons list $tmp/lessons_binary
2	$tmp/lessons_unclosed/01-bad.md:1:1	never closed	lessons list $tmp/lessons_unclosed
2	$tmp/lessons_truncated/01-bad.md:1:1	never closed	lessons list $tmp/lessons_truncated
2	$tmp/lessons_huge/01-bad.md:12	node_gib: '1e400' is not a number	lessons list $tmp/lessons_huge
2	$tmp/lessons_huge_int/01-bad.md:12	init_threads: must be between	lessons list $tmp/lessons_huge_int
2	$tmp/lessons_negative/01-bad.md:12	node_gib: must be between 0.25 and 16384, not -3	lessons list $tmp/lessons_negative
2	$tmp/lessons_unknown/01-bad.md:12:1	unknown key 'colour'	lessons list $tmp/lessons_unknown
2	$tmp/missing	cannot read the lessons folder	lessons list $tmp/missing
2	$zi:1:1	a lesson starts with a front block	lessons list $zi
ROWS

finish_table
