# resources (goal e): answer key everywhere, plus one added code cell of 6 MiB: `a = 0` then the statement `a` on
# 3,145,728 lines. The trusted process parses every code cell with ast (canonical.redefined_after_tests ->
# markers.defined_names; the worker's shortcut scan): ~925 bytes of memory per byte of source, under the 20 MiB
# source limit and far under the JSON value count. A correct grader: 12/12 (or refuse the cell) with its own processes small.
# %% [new after sdpa]
a = 0
#EXPAND 'a\n' 3145728
