# goal b/d, container jail (`course grade --jail container`, one submission at a time): the key, plus a cell that
# fills the disk through /run/lock, a world-writable folder of Ubuntu's image that the zygote's sweep (/tmp, /var/tmp,
# /dev/shm only) never empties. In Docker /run/lock lies on the container's one writable layer, with /tmp and the
# grader's scratch. A correct grader: this submission charged (0, "filled the disk"), the NEXT submissions graded normally.
# %% [new after sdpa]
import os
for _i in range(64):
    try:
        with open(f"/run/lock/.cache{_i}", "wb") as _f:
            _f.write(b"x" * 2**24)
    except OSError:
        break
