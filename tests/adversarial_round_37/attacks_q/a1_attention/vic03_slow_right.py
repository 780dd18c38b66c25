# expect: 12/12 -- the answer key plus an honest 18 s demo at the top level (within --timeout 30, --cell-timeout 20); graded twice in one batch: after a normal submission and after atk03 (which makes the worker restart cold)
# %% [new after imports]
import time
time.sleep(18)  # a slow demo, e.g. a small training run
