#!/bin/sh
# SPDX-License-Identifier: MIT
#
# test-install.sh BUILD_DIR - meson install into a temporary DESTDIR, then
# the installed sim-writeback, from another directory: runs a bundled
# scenario by name, and one naming a device preset installed beside it,
# lists the scenarios, has its man page and a bash
# completion that completes options, scenario keys and scenario names.
set -eu
build=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wbsim-install-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "test-install: $*" >&2; exit 1; }

meson install -C "$build" --destdir "$tmp/stage" --no-rebuild --quiet >/dev/null ||
	fail "meson install failed"
prog=$(find "$tmp/stage" -path '*/bin/sim-writeback' -type f)
[ -x "$prog" ] || fail "no bin/sim-writeback installed"
root=${prog%/bin/sim-writeback}
# built on the public API: it links the installed libwbsim.so.0, found
# through its relative rpath (not the build tree's LD_LIBRARY_PATH)
unset LD_LIBRARY_PATH
lib=$(ldd "$prog" | awk '$1 == "libwbsim.so.0" { print $3 }')
case $lib in
"$root"/*) ;;
*) fail "the program does not find the installed libwbsim.so.0 (ldd: '$lib')" ;;
esac
[ -f "$root/share/wbsim/scenarios/e1-pmem-xfs-parallel.ini" ] || fail "scenarios not installed"
[ -f "$root/share/wbsim/scenarios/presets/e1-server.inc" ] || fail "scenario presets not installed"
[ -f "$root/share/wbsim/presets/pmem-dram-6g.ini" ] || fail "device presets not installed"
man=$root/share/man/man1/sim-writeback.1
[ -f "$man" ] || fail "no man page"
grep -q '^\.SH SYNOPSIS' "$man" || fail "man page without SYNOPSIS"
grep -q 'list\\-scenarios' "$man" || fail "man page without the options"
comp=$root/share/bash-completion/completions/sim-writeback
[ -f "$comp" ] || fail "no bash completion"

# by name, from a directory with no scenario in it
mkdir "$tmp/elsewhere"
cd "$tmp/elsewhere"
out=$("$prog" --no-wall-time validate-minimal) || fail "validate-minimal by name failed"
printf '%s\n' "$out" | grep -q '^writer: (groupid=0, jobs=1)' || fail "no report: $out"
"$prog" --list-scenarios | grep -q '^e1-pmem-xfs-parallel  *E1 pmem xfs parallel' ||
	fail "--list-scenarios does not list e1-pmem-xfs-parallel"
"$prog" --parse-only e1-pmem-xfs-parallel || fail "e1-pmem-xfs-parallel by name does not load"
# found beside the program, not in the source tree: a renamed copy of the
# staged share/ is what a relocated install reads
mv "$root/share/wbsim/scenarios/validate-minimal.ini" "$root/share/wbsim/scenarios/only-installed.ini"
"$prog" --parse-only only-installed || fail "the installed folder is not the one read"
# a device preset found beside the program too: a preset and a scenario
# naming it that exist only in the staged share/ (the configured prefix
# and the source tree have neither)
cp "$root/share/wbsim/presets/pmem-dram-6g.ini" "$root/share/wbsim/presets/only-installed-pmem.ini"
printf '[scenario]\ndescription = a preset installed beside the program\n\n[device]\npreset = only-installed-pmem\n\n[fio:writer]\nrw=write\nbs=4k\nsize=1m\n' \
	> "$root/share/wbsim/scenarios/staged-preset.ini"
out=$("$prog" --no-wall-time staged-preset) || fail "a scenario naming an installed preset failed"
printf '%s\n' "$out" | grep -q '^writer: (groupid=0, jobs=1)' || fail "no report: $out"
"$prog" --dump-config staged-preset | grep -q '^preset = only-installed-pmem' ||
	fail "the staged preset is not the one used"
err=$("$prog" no-such-scenario 2>&1) && fail "an unknown name ran"
case $err in *no-such-scenario*) ;; *) fail "unknown name: $err" ;; esac

# bash completion: options, keys after --set, tracepoints, scenario names
if command -v bash >/dev/null; then
	got=$(bash -c '. "$1"; COMP_WORDS=("$2" --list-sc); COMP_CWORD=1; _sim_writeback; echo "${COMPREPLY[*]}"' \
		_ "$comp" "$prog")
	[ "$got" = "--list-scenarios" ] || fail "completion of --list-sc: '$got'"
	got=$(bash -c '. "$1"; COMP_WORDS=("$2" --set vm.dirty_rat); COMP_CWORD=2; _sim_writeback; echo "${COMPREPLY[*]}"' \
		_ "$comp" "$prog")
	[ "$got" = "vm.dirty_ratio=" ] || fail "completion of --set vm.dirty_rat: '$got'"
	got=$(bash -c '. "$1"; COMP_WORDS=("$2" e1-pmem-xfs-p); COMP_CWORD=1; _sim_writeback; echo "${COMPREPLY[*]}"' \
		_ "$comp" "$prog")
	[ "$got" = "e1-pmem-xfs-parallel" ] || fail "completion of e1-pmem-xfs-p: '$got'"
	# tracepoints after --trace-events, the list's last item
	got=$(bash -c '. "$1"; COMP_WORDS=("$2" --trace-events balance_dirty_pages,inode_sw); COMP_CWORD=2; _sim_writeback; echo "${COMPREPLY[*]}"' \
		_ "$comp" "$prog")
	[ "$got" = "balance_dirty_pages,inode_switch_wbs_queue balance_dirty_pages,inode_switch_wbs" ] ||
		fail "completion of --trace-events balance_dirty_pages,inode_sw: '$got'"
fi
# examples/standalone, copied elsewhere, builds against the staged install
# (its wbsim.pc moved to the staging prefix) and runs: a program with its
# own affinity policy, and a device model of its own
src=${WBSIM_SOURCE_ROOT:?}
pc=$(find "$root" -name wbsim.pc | head -n 1)
[ -f "$pc" ] || fail "no wbsim.pc installed"
mkdir "$tmp/pc"
sed "s|^prefix=.*|prefix=$root|" "$pc" > "$tmp/pc/wbsim.pc"
cp -r "$src/examples/standalone" "$tmp/example"
cd "$tmp/example"
# a sanitized library needs a program built with the same sanitizers
# (the ASan runtime must come first in the program's library list)
san=$(meson introspect --buildoptions "$build" |
	python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "b_sanitize"))')
set --
[ "$san" = none ] || set -- "-Db_sanitize=$san" -Db_lundef=false
PKG_CONFIG_PATH=$tmp/pc meson setup b --wrap-mode=nofallback "$@" >"$tmp/example.log" 2>&1 ||
	fail "examples/standalone: meson setup failed: $(tail -n 5 "$tmp/example.log")"
meson compile -C b >>"$tmp/example.log" 2>&1 ||
	fail "examples/standalone: build failed: $(tail -n 5 "$tmp/example.log")"
libdir=$(dirname "$(find "$root" -name 'libwbsim.so*' | head -n 1)")
LD_LIBRARY_PATH=$libdir ./b/affinity-by-ag 1 4m | grep -q '^contexts  *inode  *none  *by-ag' ||
	fail "examples/standalone: the program did not print its table"
# the out-of-tree device model, built against the installed headers only
# (wbsim/param.h for its parameter table): the grammar's values, then a run
# on the model, every byte of the job's 64 MiB on the device
out=$(LD_LIBRARY_PATH=$libdir ./b/device-fixed-latency 20us 1g/s) ||
	fail "examples/standalone: device-fixed-latency failed: $out"
printf '%s\n' "$out" | grep -qx 'defaults  latency 100000 ns  rate 524288000 B/s  capacity 68719476736 B' ||
	fail "examples/standalone: device-fixed-latency's defaults: $out"
printf '%s\n' "$out" | grep -qx 'set       latency 20000 ns  rate 1073741824 B/s' ||
	fail "examples/standalone: device-fixed-latency's settings: $out"
printf '%s\n' "$out" | grep -q '^device    67108864 bytes in ' ||
	fail "examples/standalone: device-fixed-latency's run: $out"
echo "test-install: ok ($root)"
