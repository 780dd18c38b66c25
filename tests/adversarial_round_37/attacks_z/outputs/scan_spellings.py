"""scan_spellings.py: what the source scan (course_grading.sandbox.shortcuts.evidence_by_part) finds in one-cell
answers that patch a library object or reach torch's `sys`, spelled directly and through a name or expression that
no import binds. Run from the course copy: `.venv/bin/python scan_spellings.py`. Rules: COURSE_RULES (a part without
declared rules), Rules() (an import allow-list, nothing forbidden: a6's kind) and Rules(forbid=TORCH_ATTENTION)."""
from course_grading.sandbox.shortcuts import COURSE_RULES, TORCH_ATTENTION, Rules, evidence_by_part

F = "def f(*a, **k):\n    return None\n"
SPELLINGS = {
    "direct: torch.Tensor.unique = f": "import torch\n" + F + "torch.Tensor.unique = f\n",
    "from-import: Tensor.unique = f": "from torch import Tensor\n" + F + "Tensor.unique = f\n",
    "alias: T = torch.Tensor; T.unique = f": "import torch\n" + F + "T = torch.Tensor\nT.unique = f\n",
    "call: type(torch.empty(0)).unique = f": "import torch\n" + F + "type(torch.empty(0)).unique = f\n",
    "parameter: def p(o): o.unique = f": "import torch\n" + F + "def p(o):\n    o.unique = f\np(torch.Tensor)\n",
    "loop: for o in (torch.Tensor,)": "import torch\n" + F + "for o in (torch.Tensor,):\n    o.unique = f\n",
    "module alias: R = torch.random; R.get_rng_state = f": "import torch\n" + F + "R = torch.random\nR.get_rng_state = f\n",
    "direct setattr(torch.Tensor, ...)": "import torch\n" + F + "setattr(torch.Tensor, 'unique', f)\n",
    "alias setattr(T, ...)": "import torch\n" + F + "T = torch.Tensor\nsetattr(T, 'unique', f)\n",
    "direct getattr(torch, 'sys')": "import torch\nS = getattr(torch, 's' + 'ys')\n",
    "alias getattr(M, 'sys'), getattr(S, 'modules')": "import torch\nM = torch\nS = getattr(M, 's' + 'ys')\n"
    "table = getattr(S, 'mod' + 'ules')\ntable['course_grading.sandbox.trace'].Conduct.drain = f\n",
    "alias builtins: b = builtins; b.isinstance = f": "import builtins\n" + F + "b = builtins\nb.isinstance = f\n",
    "class body: @property def __class__": "import torch\nclass P(torch.nn.Module):\n    @property\n"
    "    def __class__(self):\n        return torch.nn.Linear\n",
}
for label, source in SPELLINGS.items():
    found = []
    for rules_name, rules in (("course", COURSE_RULES), ("allow-list", Rules()), ("forbid", Rules(forbid=TORCH_ATTENTION))):
        evidence = evidence_by_part({"part": source}, {"part": rules}).get("part", [])
        found.append(f"{rules_name}: {sorted({(e.kind, e.key) for e in evidence}) or 'nothing'}")
    print(f"{label}\n    " + "\n    ".join(found))
