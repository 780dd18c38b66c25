# expect (container jail, --jobs 2): this notebook is the answer key plus an added cell that fills the world-writable folders (its home is in /tmp) and waits; it may lose its own points, but a right notebook graded beside it must keep 12/12 and be graded
# %% [new after imports]
import os, time

def _ballast():
    for folder in (os.getcwd(), "/var/tmp", "/dev/shm"):
        try:
            with open(os.path.join(folder, "ballast%d" % os.getpid()), "wb") as sink:
                while True:
                    sink.write(bytes(1 << 20))
        except OSError:
            pass

_ballast()
time.sleep(9)
# %% [new after sdpa]
_ballast()
time.sleep(9)
