#!/bin/bash
# Does a timestamp update walk the in-core extent list of a file that has
# only delalloc extents? Lab experiment, bounded, cleans up after itself.
set -u
T=/mnt/walk-tmpfs; M=/mnt/walk-xfs; OUT=${1:-"$(dirname "$0")"/pwrite-truncated-out}
mkdir -p $T $M $OUT
LOOP=
cleanup() {
  umount $M 2>/dev/null; [ -n "$LOOP" ] && losetup -d $LOOP; umount $T 2>/dev/null
  rmdir $M $T 2>/dev/null
}
trap cleanup EXIT
mount -t tmpfs -o size=5g tmpfs $T
truncate -s 4g $T/img
LOOP=$(losetup -f --show $T/img)
mkfs.xfs -q -f -d agcount=4 $LOOP
mount $LOOP $M
xfs_io -f -c "truncate 1g" $M/f
uname -r > $OUT/uname.txt
# phase 1: 150k random 4k writes into holes (delalloc only)
timeout 60 python3 "$(dirname "$0")"/random-pwrite.py $M/f 150000 1 | tee $OUT/phase1.txt
xfs_io -c stat $M/f | grep -i -E "nextents|size" | tee $OUT/stat1.txt
grep -E "^Dirty|Writeback:" /proc/meminfo | tee -a $OUT/stat1.txt
# phase 2: more writes under perf, still delalloc only
timeout 60 perf record -q -a -g -F 999 -o $OUT/perf-delalloc.data -- python3 "$(dirname "$0")"/random-pwrite.py $M/f 100000 2 | tee $OUT/phase2.txt
xfs_io -c stat $M/f | grep -i -E "nextents" | tee $OUT/stat2.txt
# phase 3: write back part: sync a 4 MiB range so real extents exist
xfs_io -c "sync_range -w -a 0 4m" $M/f
xfs_io -c stat $M/f | grep -i -E "nextents" | tee $OUT/stat3.txt
timeout 60 perf record -q -a -g -F 999 -o $OUT/perf-real.data -- python3 "$(dirname "$0")"/random-pwrite.py $M/f 100000 3 | tee $OUT/phase3.txt
xfs_io -c stat $M/f | grep -i -E "nextents" | tee $OUT/stat4.txt
for p in delalloc real; do
  perf report -q -i $OUT/perf-$p.data --no-children --sort sym --comm python3 2>/dev/null | head -25 > $OUT/report-$p.txt
  perf report -q -i $OUT/perf-$p.data --children --sort sym --comm python3 2>/dev/null | grep -E "iextents_copy|update_time|inode_item_format|xfs_file_buffered_write|iomap_file_buffered" | head > $OUT/incl-$p.txt
done
