# 2 GiB of shared memory (MAP_SHARED): the per-process memory limit does not count it.
import mmap
import time

m = mmap.mmap(-1, 2 << 30)
for i in range(0, len(m), 4096):
    m[i] = 1
time.sleep(30)
