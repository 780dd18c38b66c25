# resources (goal e): the key, plus an added cell of 9,000,000 comment lines `#` (18 MiB of source, under the 20 MiB
# limit; cheap for ast, but every copy of the notebook holds it as 9 million JSON lines, and the feedback page
# highlights it). A correct grader: 12/12 (or a refusal), its processes and outputs of bounded size.
# %% [new after sdpa]
#EXPAND '#\n' 9000000
