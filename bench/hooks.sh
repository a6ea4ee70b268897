#!/bin/sh
# hooks.sh: the cost of Lua hooks in `gerules eval` (issue #4). Runs the
# built binary on a generated graph without a hook, with a trivial hook on
# every node, with a hook filtered to one op type (SoftmaxV2) and with a hook
# filtered to an op type the graph does not have, and prints a table with
# the median wall and CPU (user + sys) time of 3 runs of each (interleaved,
# after a warm-up run) and the CPU overhead per visited node: the difference
# of the fastest CPU time with the hook and without any hook (the minimum is
# the figure least disturbed by other processes on a shared machine), divided
# by the nodes the callback visited. Rows without visited nodes give the
# difference for the whole run; "<30 ms" means it is below time(1)'s 10 ms
# steps and run-to-run noise, i.e. not measurable.
#
# usage: bench/hooks.sh [GRAPH.json ...]
#   default graphs: /tmp/g100k.json and /tmp/g1m.json, made with
#   python3 bench/gen_graph.py --ops 100000 -o /tmp/g100k.json
#   python3 bench/gen_graph.py --ops 1000000 -o /tmp/g1m.json
# environment: GERULES (default: _build/src/gerules next to this script),
#   GERULES_RULES (default: the rules/ of this source tree), CHIP (default
#   Ascend910B1), RUNS (default 3).

here=$(cd "$(dirname "$0")/.." && pwd)
GERULES=${GERULES:-$here/_build/src/gerules}
GERULES_RULES=${GERULES_RULES:-$here/rules}; export GERULES_RULES
CHIP=${CHIP:-Ascend910B1}
RUNS=${RUNS:-3}
test $# -gt 0 || set -- /tmp/g100k.json /tmp/g1m.json
test -x "$GERULES" || { echo "hooks.sh: no binary at $GERULES (build first, or set GERULES)" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gerules-hooks.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/all.lua" <<'EOF'
local visited = 0
gr.on_node(function(node) visited = visited + 1 end)
gr.on_end(function() print("visited " .. visited) end)
EOF
cat >"$tmp/fixed.lua" <<'EOF'
gr.on_end(function() print("visited 0") end)
EOF
cat >"$tmp/type.lua" <<'EOF'
local visited = 0
gr.on_node("SoftmaxV2", function(node) visited = visited + 1 end)
gr.on_end(function() print("visited " .. visited) end)
EOF
cat >"$tmp/absent.lua" <<'EOF'
local visited = 0
gr.on_node("NoSuchOpType", function(node) visited = visited + 1 end)
gr.on_end(function() print("visited " .. visited) end)
EOF
cat >"$tmp/read.lua" <<'EOF'
local visited, n16 = 0, 0
gr.on_node(function(node)
  visited = visited + 1
  if node:decision("precision_mode") == "keep_fp16" then n16 = n16 + 1 end
end)
gr.on_end(function() print("visited " .. visited) end)
EOF

# run GRAPH [HOOK...]: prints "wall_seconds cpu_seconds visited" (cpu = user + sys)
run () {
	g=$1; shift
	/usr/bin/time -f "%e %U %S" -o "$tmp/time" \
		"$GERULES" eval "$g" --chip "$CHIP" --format json --no-provenance --hook-instructions 1000000000000 "$@" \
		>/dev/null 2>"$tmp/err"
	rc=$?
	if test $rc -gt 1; then echo "hooks.sh: gerules failed:" >&2; cat "$tmp/err" >&2; exit 2; fi
	v=$(sed -n 's/.*: visited \([0-9]*\)$/\1/p' "$tmp/err")
	awk -v v="${v:-0}" '{printf "%s %.3f %s\n", $1, $2 + $3, v}' "$tmp/time"
}

median () { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
minimum () { sort -n | head -1; }

printf "%-12s %-28s %9s %9s %9s %11s\n" GRAPH HOOK "WALL_S" "CPU_S" VISITED "NS/VISITED"   # medians; ns from minima
hooks="none fixed all type absent read"
for g in "$@"; do
	test -f "$g" || { echo "hooks.sh: $g not found (see the usage in this script)" >&2; exit 2; }
	run "$g" >/dev/null || exit 2            # warm the page cache
	for h in $hooks; do : >"$tmp/wall.$h"; : >"$tmp/cpu.$h"; done
	i=0
	while test $i -lt "$RUNS"; do            # interleaved, so drift hits every row alike
		for h in $hooks; do
			if test $h = none; then r=$(run "$g"); else r=$(run "$g" --hook "$tmp/$h.lua"); fi || exit 2
			set -- $r "$@"
			echo "$1" >>"$tmp/wall.$h"; echo "$2" >>"$tmp/cpu.$h"; echo "$3" >"$tmp/visited.$h"
			shift 3
		done
		i=$((i + 1))
	done
	base=$(minimum <"$tmp/cpu.none")
	for h in $hooks; do
		wall=$(median <"$tmp/wall.$h")
		cpu=$(median <"$tmp/cpu.$h")
		best=$(minimum <"$tmp/cpu.$h")
		v=$(cat "$tmp/visited.$h")
		if test $h = none; then per="-"
		elif test "$(echo "$best - $base < 0.03" | bc -l)" = 1; then per="<30 ms"   # below time(1)'s resolution
		elif test "$v" -gt 0; then per=$(echo "($best - $base) * 1000000000 / $v" | bc -l | xargs printf "%.0f")
		else per=$(echo "($best - $base) * 1000" | bc -l | xargs printf "%+.0f ms"); fi
		case $h in
			none) name="no hook";;
			fixed) name="a hook, no node callback";;
			all) name="every node (trivial)";;
			type) name="type filter SoftmaxV2";;
			absent) name="type filter, absent type";;
			read) name="every node, reads decision";;
		esac
		printf "%-12s %-28s %9.3f %9.3f %9s %11s\n" "$(basename "$g")" "$name" "$wall" "$cpu" "$v" "$per"
	done
done
