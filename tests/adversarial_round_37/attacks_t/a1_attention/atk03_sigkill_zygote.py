# expect: 0/12 for this notebook (release stubs for sdpa), and no effect on any other submission
# %% [sdpa]
def scaled_dot_product_attention(q, k, v, mask=None):
    raise NotImplementedError()
# %% [new after imports]
# SIGKILL every other process of the jail that the student's uid may signal.
import os, signal
_me = os.getpid()
_done = []
for _p in (int(p) for p in os.listdir('/proc') if p.isdigit()):
    if _p == _me:
        continue
    try:
        os.kill(_p, signal.SIGKILL); _done.append((_p, 'ok'))
    except Exception as e:
        _done.append((_p, repr(e)))
print('ATK03', _done)
