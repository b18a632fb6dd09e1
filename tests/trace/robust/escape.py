# Leaves a sleeper behind that left the program's session (setsid, then a double fork so that
# it is an orphan), writes its pid to argv[1], and ends normally.
import os
import sys
import time

pidfile = sys.argv[1]
pid = os.fork()
if pid == 0:
    os.setsid()
    if os.fork() != 0:
        os._exit(0)
    with open(pidfile + ".tmp", "w") as f:
        f.write(str(os.getpid()))
    os.replace(pidfile + ".tmp", pidfile)
    time.sleep(120)
    os._exit(0)
os.waitpid(pid, 0)  # the middle process: only the orphaned sleeper is left
deadline = time.monotonic() + 10
while not os.path.exists(pidfile) and time.monotonic() < deadline:
    time.sleep(0.01)
