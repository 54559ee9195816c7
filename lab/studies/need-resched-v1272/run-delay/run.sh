#!/bin/bash
# The small writers' run delay (schedstat): runnable or asleep while off
# their CPUs? Four E8 variants, two runs each, a new loop device each run.
# The model's share first (predictions.txt), with the profile of
# lab/results-e8-v1272d's hour. Run it alone.
cd "$(dirname "$0")/../../../.."   # the repository
D=lab/studies/need-resched-v1272/run-delay
PROFILE=lib/core/hosts/lab-v1272-20261207d.inc
V="e8-noautogroup-lab-ram-xfs e8-lab-ram-xfs e8-synced-noautogroup-lab-ram-xfs e8-t4-lab-ram-xfs"
for w in $V; do
  printf '[scenario]\ninclude = ../../../workloads/%s.ini\ninclude = ../../../../%s\n' $w $PROFILE > $D/predict-$w.ini
  build/sim/sim-writeback --no-wall-time --output-format=json $D/predict-$w.ini 2>/dev/null |
    python3 -c 'import json,sys; sys.path.insert(0, "lab"); from wbsimlab import metrics; print(sys.argv[1], json.dumps(metrics.sim_small_figures(json.load(sys.stdin))))' $w >> $D/predictions.txt
  rm -f $D/predict-$w.ini
done
echo "predicted $(date -u +%FT%TZ)" >> $D/predictions.txt
for k in 1 2; do
  for w in $V; do
    echo "round $k $w $(date -u +%T)"
    timeout 400 lab/run-kernel --sim build/sim/sim-writeback lab/workloads/$w.ini $D/$w/run$k > /tmp/nr/rd-$w-$k.log 2>&1 || echo "FAIL $w $k"
  done
done
echo "end $(date -u +%T)"
