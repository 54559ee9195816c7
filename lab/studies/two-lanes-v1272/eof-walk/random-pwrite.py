import os, random, sys, time
path, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
fd = os.open(path, os.O_WRONLY)
rnd = random.Random(seed)
buf = b'x' * 4096
nblk = (1 << 30) // 4096
t = time.time()
for i in range(n):
    os.pwrite(fd, buf, rnd.randrange(nblk) * 4096)
el = time.time() - t
print(f"{n} writes in {el:.3f} s: {el/n*1e6:.2f} us a write")
os.close(fd)
