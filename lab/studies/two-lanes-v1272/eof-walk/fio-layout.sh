#!/bin/bash
# What does fio's layout (fallocate=none) leave in the file? Bounded, cleans up.
set -u
T=/mnt/walk-tmpfs; M=/mnt/walk-xfs; OUT=${1:-"$(dirname "$0")"/fio-layout-out}
mkdir -p $T $M $OUT
LOOP=
cleanup() { umount $M 2>/dev/null; [ -n "$LOOP" ] && losetup -d $LOOP; LOOP=; umount $T 2>/dev/null; }
trap 'cleanup; rmdir $M $T 2>/dev/null' EXIT
mount -t tmpfs -o size=5g tmpfs $T
truncate -s 4g $T/img
LOOP=$(losetup -f --show $T/img)
mkfs.xfs -q -f -d agcount=4 $LOOP
mount $LOOP $M
fio --name=e6 --filename=$M/testfile --bs=4k --rw=randwrite --ioengine=psync --fallocate=none --size=1G --create_only=1 --output=$OUT/fio-create.txt
strace -f -e trace=openat,ftruncate,fallocate,pwrite64,write,fadvise64 -o $OUT/strace.txt fio --name=e6b --filename=$M/testfile2 --bs=4k --rw=randwrite --ioengine=psync --fallocate=none --size=64M --number_ios=3 --output=$OUT/fio-b.txt
grep -E "testfile2|ftruncate|fallocate|fadvise" $OUT/strace.txt | head -20 > $OUT/strace-short.txt
filefrag -v $M/testfile > $OUT/filefrag-create.txt 2>&1
xfs_io -c stat $M/testfile | grep -E "nextents|size" >> $OUT/filefrag-create.txt
filefrag -v $M/testfile2 > $OUT/filefrag-b.txt 2>&1
