# expect: the notebook's own grade is irrelevant (answer key otherwise); the submissions graded after it by the same worker must keep 12/12 (a cell added after the imports sets the soft RLIMIT_CPU of the jail's zygote, PID 1, to 1 s: every student process forked after it, the next students' included, dies of SIGXCPU after one CPU-second)
# %% [new after imports]
import resource
resource.prlimit(1, resource.RLIMIT_CPU, (1, resource.prlimit(1, resource.RLIMIT_CPU)[1]))
