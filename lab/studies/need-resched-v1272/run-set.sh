#!/bin/bash
# Issue 36/40: need_resched() as the scheduler sets it, held to the kernel
# in one hour of the host: the calibration set (lab/calibrate, 3 runs
# each) first, then the prediction of each E8 variant with that profile,
# then the variants, 3 runs each, a new loop device each run. Run it alone.
cd "$(dirname "$0")/../../.."   # the repository
S=lab/studies/need-resched-v1272
SET=lab/results-e8-v1272d
PROFILE=lib/core/hosts/lab-v1272-20261207d.inc
V="e8-lab-ram-xfs e8-noautogroup-lab-ram-xfs e8-synced-noautogroup-lab-ram-xfs e8-t4-lab-ram-xfs"
mkdir -p $SET /tmp/nr
echo "calibration $(date -u +%T)"
timeout 1500 lab/calibrate --keep $S/calibration-runs --base lib/core/hosts/lab-v1272-20261207c.inc $PROFILE > /tmp/nr/cal.log 2>&1 || { echo "calibration failed"; exit 1; }
echo "predictions $(date -u +%T)"
for w in $V; do
  printf '[scenario]\ninclude = ../../workloads/%s.ini\ninclude = ../../../%s\n' $w $PROFILE > $S/predict-$w.ini
  echo "== $w $(date -u +%FT%TZ)" >> $S/predictions.txt
  build/sim/sim-writeback --output-format=json $S/predict-$w.ini 2>/dev/null | python3 -c '
import json,sys
d=json.load(sys.stdin); w=d["wbsim"]
small=[j for j in d["jobs"] if j["jobname"]!="write-2g"]
print("small writes s (max job runtime):", max(j["job_runtime"] for j in small)/1000.0)
print("i_rwsem:", [l for l in w["locks"] if "rwsem" in json.dumps(l)])
' >> $S/predictions.txt 2>&1
  build/sim/sim-writeback $S/predict-$w.ini 2>&1 | grep -E "small-writes x|^  job 1 |i_rwsem|CPU time" >> $S/predictions.txt
  rm -f $S/predict-$w.ini
done
for k in 1 2 3; do
  for w in $V; do
    [ -e /tmp/nr-stop ] && break
    echo "round $k $w $(date -u +%T)"
    timeout 400 lab/run-kernel --sim build/sim/sim-writeback lab/workloads/$w.ini $SET/$w/run$k > /tmp/nr/$w-$k.log 2>&1 || echo "FAIL $w $k"
  done
done
echo "# recorded in the hour of this calibration ($S/calibration-runs)" > $SET/profile.txt
echo "$PROFILE" >> $SET/profile.txt
echo "end $(date -u +%T)"
