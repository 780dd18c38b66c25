# expect: 0/12 for this notebook (release stubs: every part raises NotImplementedError), and no effect on any other submission
# %% [sdpa]
def scaled_dot_product_attention(q, k, v, mask=None):
    raise NotImplementedError()
# %% [new after imports]
# Stop (SIGSTOP) every other process of the jail that the student's uid may signal: the zygote that forks each
# part's fresh process, and whatever else is there. If the zygote is not PID 1 of its namespace, it stops.
import os, signal
_me = os.getpid()
_done = []
for _p in (int(p) for p in os.listdir('/proc') if p.isdigit()):
    if _p in (_me,):
        continue
    for _sig in (signal.SIGSTOP,):
        try:
            os.kill(_p, _sig); _done.append((_p, _sig.name, 'ok'))
        except Exception as e:
            _done.append((_p, _sig.name, repr(e)))
print('ATK02', _done)
