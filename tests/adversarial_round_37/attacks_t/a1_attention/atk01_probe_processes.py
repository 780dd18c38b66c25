# expect: 12/12 (a probe: the key's answers, and a cell that lists what the student process can see and signal)
# %% [new after imports]
import os, signal
_me = os.getpid()
_rows = []
for _p in sorted((p for p in os.listdir('/proc') if p.isdigit()), key=int):
    try:
        _st = open(f'/proc/{_p}/status').read().splitlines()
        _info = [l for l in _st if l.startswith(('Name', 'PPid', 'Uid', 'NSpid', 'State'))]
        _cmd = open(f'/proc/{_p}/cmdline', 'rb').read().replace(b'\0', b' ')[:160]
    except Exception as e:
        _info, _cmd = [repr(e)], b''
    try:
        os.kill(int(_p), 0); _k = 'signal 0: allowed'
    except Exception as e:
        _k = f'signal 0: {e!r}'
    _rows.append(f'pid {_p} {_info} {_cmd!r} {_k}')
print('PROBE me', _me, 'ppid', os.getppid(), 'uid', os.getuid())
print('\n'.join(_rows))
