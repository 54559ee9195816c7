#!/bin/bash
cd "$(dirname "$0")/../../.."   # the repository
mkdir -p lab/results-e8-v1272b /tmp/e8b
timeout 300 lab/run-kernel --sim build/sim/sim-writeback lab/calibration/cal-uring-xfs.ini lab/studies/phase-v1272/phase-check/cal-before > /tmp/e8b/cal-before.log 2>&1
for k in 1 2 3; do
  for w in e8-lab-ram-xfs e8-synced-lab-ram-xfs e8-noautogroup-lab-ram-xfs; do
    echo "$k $w $(date -u +%T)"
    timeout 400 lab/run-kernel --sim build/sim/sim-writeback lab/workloads/$w.ini lab/results-e8-v1272b/$w/run$k > /tmp/e8b/$w-$k.log 2>&1 || echo "FAIL $w $k"
  done
done
timeout 300 lab/run-kernel --sim build/sim/sim-writeback lab/calibration/cal-uring-xfs.ini lab/studies/phase-v1272/phase-check/cal-after > /tmp/e8b/cal-after.log 2>&1
echo "end $(date -u +%T)"
