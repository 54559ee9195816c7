#!/bin/bash
# Issue 35: the fragmentation family held to the kernel in one hour of the
# host. Its first set (lab/results-frag-v1272, 2026-12-06 03:00-04:00 UTC)
# was recorded before the runs carried a copy or path probe and is
# simulated with lab-v1272.inc, calibrated in another phase of the host
# (cal-uring-xfs 735 MiB/s there, 530 in the 2026-12-07 calibrations): its
# bandwidth and CPU rows compare two hours of the host, not the model.
# Here: the calibration set (lab/calibrate, 3 runs each) first, then the
# prediction of each workload with that profile, then the workloads, 3 runs
# each, a new loop device each run. Run it alone.
cd "$(dirname "$0")/../../.."   # the repository
S=lab/studies/frag-v1272e
SET=lab/results-frag-v1272e
PROFILE=lib/core/hosts/lab-v1272-20261207e.inc
V="frag-e6-xfs-256m e6-lab-ram-xfs frag-e6-xfs-2g frag-e6-xfs-256m-ag16 frag-e6-xfs-1g-ag16 frag-e6-xfs-2g-ag16 frag-e6-xfs-1g-wb frag-prealloc-xfs frag-e6-ext4-256m e6-lab-ram-ext4 frag-e6-ext4-2g frag-e2-xfs-fill50 frag-e2-xfs-fill85 frag-e2-xfs-fill95"
mkdir -p $SET /tmp/fr
echo "calibration $(date -u +%T)"
timeout 1500 lab/calibrate --keep $S/calibration-runs --base lib/core/hosts/lab-v1272-20261207d.inc $PROFILE > /tmp/fr/cal.log 2>&1 || { echo "calibration failed"; exit 1; }
echo "predictions $(date -u +%T)"
for w in $V; do
  printf '[scenario]\ninclude = ../../workloads/%s.ini\ninclude = ../../../%s\n' $w $PROFILE > $S/predict-$w.ini
  echo "== $w $(date -u +%FT%TZ)" >> $S/predictions.txt
  timeout 120 build/sim/sim-writeback $S/predict-$w.ini 2>&1 | grep -E "WRITE:|^  job [0-9]|extents|CPU time|reason" >> $S/predictions.txt
  rm -f $S/predict-$w.ini
done
for k in 1 2 3; do
  for w in $V; do
    [ -e /tmp/fr-stop ] && break
    echo "round $k $w $(date -u +%T)"
    timeout 400 lab/run-kernel --sim build/sim/sim-writeback lab/workloads/$w.ini $SET/$w/run$k > /tmp/fr/$w-$k.log 2>&1 || echo "FAIL $w $k"
  done
done
echo "# recorded in the hour of this calibration ($S/calibration-runs)" > $SET/profile.txt
echo "$PROFILE" >> $SET/profile.txt
echo "end $(date -u +%T)"
