#!/bin/bash
# Issue 35, item 3: ext4's on-disk extent tree after the E6 shape (one
# 2 GiB file, 4 KiB random writes, io_uring iodepth 1024, no preallocation)
# on a lab-ram device as lab/run-kernel makes it (a 4 GiB loop device over
# a sparse file on tmpfs, mkfs.ext4 -F -q): the tree's leaves and records
# (debugfs "ex"), filefrag -v before and after the remount. With
# ALLOC_TRACE=1, mballoc's allocations and inode preallocations as its
# tracepoints report them (alloc-trace.txt.gz), recorded in a tracefs
# instance of its own that is removed at the end. Run it alone, as root;
# it changes no sysctl.
# Usage: [ALLOC_TRACE=1] run.sh OUTDIR [SIZE]
set -u
OUT=$1; SIZE=${2:-2G}
mkdir -p "$OUT"
IMG=/dev/shm/wbsim-ext4tree.img; MNT=/tmp/wbsim-ext4tree; DEV=
INST=/sys/kernel/tracing/instances/wbsim-ext4tree
cleanup() {
	[ -d $INST ] && rmdir $INST
	mountpoint -q $MNT && umount $MNT
	[ -n "$DEV" ] && losetup -d $DEV
	rm -f $IMG; rmdir $MNT 2>/dev/null
}
trap cleanup EXIT
truncate -s 4G $IMG && DEV=$(losetup --show -f $IMG) || exit 1
mkfs.ext4 -F -q $DEV && mkdir -p $MNT && mount $DEV $MNT || exit 1
uname -r > "$OUT/machine.txt"; dumpe2fs -h $DEV 2>/dev/null >> "$OUT/machine.txt"
if [ -n "${ALLOC_TRACE:-}" ]; then
	mkdir $INST && echo 131072 > $INST/buffer_size_kb || exit 1
	for e in ext4_mballoc_alloc ext4_mballoc_prealloc ext4_mb_new_inode_pa \
		 ext4_mb_release_inode_pa ext4_discard_preallocations \
		 ext4_mb_discard_preallocations; do
		echo 1 > $INST/events/ext4/$e/enable || exit 1
	done
fi
timeout 300 fio --name=test --filename=$MNT/testfile --bs=4k --iodepth=1024 \
	--rw=randwrite --ioengine=io_uring --fallocate=none --size=$SIZE \
	--direct=0 --output="$OUT/fio.txt"
filefrag -v $MNT/testfile > "$OUT/filefrag-v-after-jobs.txt"
sleep 30
filefrag -v $MNT/testfile > "$OUT/filefrag-v-after-jobs+30s.txt"
sync
debugfs -R "ex /testfile" $DEV > "$OUT/debugfs-ex-before-remount.txt" 2>&1
umount $MNT
if [ -d $INST ]; then
	echo 0 > $INST/tracing_on
	gzip -9 < $INST/trace > "$OUT/alloc-trace.txt.gz"
	grep -H . $INST/per_cpu/cpu*/stats | grep overrun >> "$OUT/alloc-trace-overruns.txt"
fi
debugfs -R "ex /testfile" $DEV > "$OUT/debugfs-ex.txt" 2>&1
mount $DEV $MNT || exit 1
filefrag -v $MNT/testfile > "$OUT/filefrag-v-remount.txt"
