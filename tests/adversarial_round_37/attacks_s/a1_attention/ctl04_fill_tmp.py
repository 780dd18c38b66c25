# control for atk03 on Gradescope's path: the same fill, but into the student's own home ($TMPDIR, under /tmp), which
# the zygote sweeps. README: "a notebook that fills it ... scores 0 on every part ('filled the disk')". Expected: 0, graded.
# %% [new after sdpa]
import os
for _i in range(64):
    try:
        with open(os.path.join(os.environ["TMPDIR"], f"fill{_i}"), "wb") as _f:
            _f.write(b"x" * 2**24)
    except OSError:
        break
