#!/bin/sh
# Record real fio's JSON and json+ for the job files here (see README.md):
#   record.sh DIR
# DIR: an empty directory on a tmpfs (as root: mkdir /tmp/fio-rec &&
# mount -t tmpfs -o size=256m tmpfs /tmp/fio-rec); fio runs there, on the
# small files the job files name, removed after each job file.
# Writes NAME.json and NAME.plus.json beside this script: fio's report
# from its first "{" line (fio prints some warnings to standard output
# before it, as cross-stripe-verify's "multiple writers may overwrite").
set -eu
dir=${1:?usage: record.sh DIR (an empty directory on a tmpfs)}
here=$(cd "$(dirname "$0")" && pwd)
fio --version | grep -qx 'fio-3.33' || { echo "record.sh: fio 3.33 is needed, found $(fio --version)" >&2; exit 2; }
for job in "$here"/*.fio; do
	name=$(basename "$job" .fio)
	cp "$job" "$dir/$name.fio"
	(cd "$dir" && fio --output-format=json "$name.fio") | sed -n '/^{/,$p' > "$here/$name.json"
	(cd "$dir" && fio --output-format=json+ "$name.fio") | sed -n '/^{/,$p' > "$here/$name.plus.json"
	rm -f "$dir"/*
	for out in "$here/$name.json" "$here/$name.plus.json"; do
		[ -s "$out" ] || { echo "record.sh: fio wrote no JSON for $name.fio" >&2; exit 1; }
	done
done
