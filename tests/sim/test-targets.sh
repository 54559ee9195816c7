#!/bin/sh
# SPDX-License-Identifier: MIT
#
# test-targets.sh SOURCE_ROOT BUILD_DIR - the plots and docs targets exist
# whatever was installed at setup, and without gnuplot or Doxygen they say
# what to install.
set -eu
src=$1
build=$2
fail() { echo "test-targets: $*" >&2; exit 1; }

targets=$(meson introspect --targets "$build")
for t in plots docs; do
	printf '%s' "$targets" | grep -q "\"name\": \"$t\"" || fail "no '$t' target"
done
err=$(sh "$src/plots/make-plots.sh" /bin/true /nonexistent/gnuplot "$src" "$build/no-plots" 2>&1) &&
	fail "make-plots.sh ran without gnuplot"
case $err in *"apt-get install gnuplot-nox"*) ;; *) fail "make-plots.sh without gnuplot: $err" ;; esac
err=$(sh "$src/docs/run-doxygen.sh" /nonexistent/doxygen "$build/docs/Doxyfile" 2>&1) &&
	fail "run-doxygen.sh ran without doxygen"
case $err in *"apt-get install doxygen"*) ;; *) fail "run-doxygen.sh without doxygen: $err" ;; esac
echo "test-targets: ok"
