#!/bin/bash
# E6's shape by fio, io_uring at iodepth 1024 against psync: does the
# timestamp update walk the extent list (xfs_iextents_copy)? Bounded, cleans up.
set -u
T=/mnt/walk-tmpfs; M=/mnt/walk-xfs; OUT=${1:-"$(dirname "$0")"/fio-e6-shape-out}
mkdir -p $T $M $OUT
LOOP=
cleanup() {
  umount $M 2>/dev/null; [ -n "$LOOP" ] && losetup -d $LOOP; LOOP=; umount $T 2>/dev/null
}
trap 'cleanup; rmdir $M $T 2>/dev/null' EXIT
for v in "uring io_uring 1024" "psync psync 1"; do
  set -- $v
  mount -t tmpfs -o size=5g tmpfs $T
  truncate -s 4g $T/img
  LOOP=$(losetup -f --show $T/img)
  mkfs.xfs -q -f -d agcount=4 $LOOP
  mount $LOOP $M
  timeout 120 perf record -q -a -g -F 999 -o $OUT/perf-$1.data -- fio --name=e6 --filename=$M/testfile --bs=4k --rw=randwrite --ioengine=$2 --iodepth=$3 --fallocate=none --size=1G --direct=0 --output=$OUT/fio-$1.txt
  xfs_io -c stat $M/testfile | grep nextents > $OUT/stat-$1.txt
  grep -E "^Dirty" /proc/meminfo >> $OUT/stat-$1.txt
  perf report -q -i $OUT/perf-$1.data --no-children -g none --sort comm,sym 2>/dev/null | head -30 > $OUT/flat-$1.txt
  perf report -q -i $OUT/perf-$1.data --children -g none --sort comm,sym 2>/dev/null | grep -E "iextents_copy|update_time|inode_item_format|io_wq_submit|rwsem_spin|xfs_file_buffered" > $OUT/incl-$1.txt
  cleanup
done
