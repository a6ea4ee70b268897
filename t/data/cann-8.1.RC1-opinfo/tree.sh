#!/bin/sh
# tree.sh DIR: lays the xz-compressed CANN 8.1.RC1 op information files next
# to this script out below DIR as an installed CANN's opp/ tree (the paths of
# SOURCE), for `gerules import-oplib --cann-root DIR`.
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=$1
test -n "$out" || { echo "usage: tree.sh DIR" >&2; exit 2; }
grep -E '^[a-z].*\.json +opp/' "$here/SOURCE" | while read -r file path
do
	mkdir -p "$out/$(dirname "$path")"
	xz -dc "$here/$file.xz" >"$out/$path"
done
