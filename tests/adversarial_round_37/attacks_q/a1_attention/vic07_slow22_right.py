# expect: 12/12 -- the answer key plus an honest 22 s demo at the top level (within --timeout 30, --cell-timeout 25); graded twice in one batch (--jobs 1): after a normal submission, and after atk03 (whose timeout makes the worker restart cold)
# %% [new after imports]
import time
time.sleep(22)  # a slow demo, e.g. a small training run
