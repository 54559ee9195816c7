#!/bin/bash
# phase study: calibration set and a validation subset, interleaved, with the path probe
cd "$(dirname "$0")/../../.."   # the repository
V="smoke-lab-ram-xfs e1-lab-ram-xfs-1cpu e1-lab-ram-ext4-1cpu e1-lab-ram-xfs-2cpu e1-lab-ram-ext4-2cpu e1-sparse-lab-ram-xfs e1-sparse-lab-ram-ext4 e2-lab-ram-xfs xfs-paths-sparse-lab-ram xfs-paths-prealloc-lab-ram e6-lab-ram-xfs e6-lab-ram-ext4 invalidate1-lab-ram-xfs"
mkdir -p lab/results-v1272b
for k in 1 2 3; do
  [ -e /tmp/phase-stop ] && break
  echo "round $k cal $(date -u +%T)"
  timeout 1500 lab/calibrate --keep lab/studies/phase-v1272/calibration-runs --runs $k /tmp/prof-round$k.inc > /tmp/cal-round$k.log 2>&1 || echo "cal round $k failed" >> /tmp/phase-fail.txt
  for w in $V; do
    [ -e /tmp/phase-stop ] && break
    echo "round $k $w $(date -u +%T)"
    timeout 400 lab/run-kernel --sim build/sim/sim-writeback lab/workloads/$w.ini lab/results-v1272b/$w/run$k > /tmp/phase-$w-$k.log 2>&1 || echo "FAIL $w $k" >> /tmp/phase-fail.txt
  done
done
echo "end $(date -u +%T)"
