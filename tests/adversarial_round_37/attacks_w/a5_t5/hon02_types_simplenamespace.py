# expect: 12/12 (honest: the key, plus an added cell keeping a demo's settings in types.SimpleNamespace)
# %% [new after beam_search]
from types import SimpleNamespace

demo = SimpleNamespace(beam_width=4, eos_id=1)
print(demo)
