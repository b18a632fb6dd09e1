import subprocess
import sys
import time

# a child process that would outlive us, and then a loop that never ends
subprocess.Popen([sys.executable, "-c", "import time; open(sys.argv[1], 'w').write('x'); time.sleep(600)"
                  .replace("sys.argv[1]", repr(sys.argv[1]))])
while True:
    time.sleep(0.01)
