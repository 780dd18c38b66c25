"""In-process: honest code (no forbidden route, nothing of the grader's touched) that the new rules hold in every part."""
from course_grading.sandbox import shortcuts as s
R = {"beam_search": s.COURSE_RULES, "noise_mask": s.Rules(forbid=()), "cross_attention": s.Rules(forbid=s.TORCH_ATTENTION)}
part = "def beam_search_step(a):\n    return a\n"
cases = {
"from types import SimpleNamespace (a config)": "from types import SimpleNamespace\ncfg = SimpleNamespace(width=4)\n",
"a class with __lt__ (for heapq)": "class Hyp:\n    def __init__(self, s):\n        self.s = s\n    def __lt__(self, other):\n        return self.s < other.s\n",
"a class with __slots__": "class Hyp:\n    __slots__ = ('s', 'ids')\n",
"an operator overload __add__": "class Vec:\n    def __add__(self, o):\n        return self\n",
"import traceback to print an error": "import traceback\ntry:\n    1/0\nexcept ZeroDivisionError:\n    traceback.print_exc()\n",
"x.__array__ / __file__ none; torch.__version__ (plain)": "import torch\nprint(torch.__version__)\n",
"import time; time.perf_counter (harmless)": "import time\nt0 = time.perf_counter()\n",
}
for name, helper in cases.items():
    ev = s.evidence_by_part({"beam_search": part, "noise_mask": "", "cross_attention": "", "student-cell-1": helper}, R,
                            tests={"beam_search": "beam_search_step(1)"})
    print(f"{name}:")
    for p in R:
        print(f"   {p}: {[e.describe() for e in ev.get(p, [])][:2]}")
