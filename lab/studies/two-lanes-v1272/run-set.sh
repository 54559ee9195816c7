#!/bin/bash
# Issue 40/35: the two lanes of io_uring on XFS, held to the kernel in one
# hour of the host: the calibration set (lab/calibrate, 3 runs each) first,
# then the prediction of each validation workload with that profile, then
# the workloads, 3 runs each, a new loop device each run. Run it alone.
cd "$(dirname "$0")/../../.."   # the repository
S=lab/studies/two-lanes-v1272
SET=lab/results-v1272d
PROFILE=lib/core/hosts/lab-v1272-20261207c.inc
V="e6-lab-ram-xfs e1-lab-ram-xfs-2cpu e1-sparse-lab-ram-xfs e1-lab-ram-xfs-1cpu e6-lab-ram-ext4 smoke-lab-ram-xfs"
mkdir -p $SET /tmp/tl
echo "calibration $(date -u +%T)"
timeout 1500 lab/calibrate --keep $S/calibration-runs --base lib/core/hosts/lab-v1272-20261207b.inc $PROFILE > /tmp/tl/cal.log 2>&1 || { echo "calibration failed"; exit 1; }
echo "predictions $(date -u +%T)"
for w in $V; do
  printf '[scenario]\ninclude = ../../workloads/%s.ini\ninclude = ../../../%s\n' $w $PROFILE > $S/predict-$w.ini
  echo "== $w $(date -u +%FT%TZ)" >> $S/predictions.txt
  build/sim/sim-writeback $S/predict-$w.ini 2>&1 | grep -E "WRITE:|^  job [0-9]|punted|CPU time|i_rwsem" >> $S/predictions.txt
  rm -f $S/predict-$w.ini
done
for k in 1 2 3; do
  for w in $V; do
    [ -e /tmp/tl-stop ] && break
    echo "round $k $w $(date -u +%T)"
    timeout 400 lab/run-kernel --sim build/sim/sim-writeback lab/workloads/$w.ini $SET/$w/run$k > /tmp/tl/$w-$k.log 2>&1 || echo "FAIL $w $k"
  done
done
echo "# recorded in the hour of this calibration ($S/calibration-runs)" > $SET/profile.txt
echo "$PROFILE" >> $SET/profile.txt
echo "end $(date -u +%T)"
