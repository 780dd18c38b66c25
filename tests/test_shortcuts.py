"""Forbidden shortcuts cannot score (issue 26, item 3): :mod:`course_grading.sandbox.shortcuts` reads the
submitted source in the trusted grader and holds for review every part whose code may reach a
function it forbids (or, in a6, a fine-tuning library), by any route.

Most tests read source strings (milliseconds). Then: nothing of the course's own answers (answer
keys, ``solutions/``, the reference parts, the correct fixtures in other styles) is flagged; every
attack of tests/hostile_submissions.py really gets round the refusal in the student's process (so it
would have scored); and, end to end through ``course grade`` (one batch for a1, one for a6), each
attack scores 0 on the parts it may cheat, with the evidence in a note and the status "needs
attention", in the feedback and in nbgrader's gradebook, until the instructor's override.
"""

from __future__ import annotations

import ast
import csv
import inspect
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import nbformat
import pytest

from course_grading import grade as grading
from course_grading.markers import answer_code, is_answer, is_test, nbgrader_meta, part_of, with_answers
from course_grading.sandbox import limits as sandbox
from course_grading.sandbox import shortcuts
from course_grading.sandbox.shortcuts import (
    COURSE_RULES,
    STANDARD_IMPORTS,
    TORCH_ATTENTION,
    TORCH_NORMS,
    Rules,
    evidence_by_part,
)
from course_grading.sandbox.student_server import stand_ins
from course_grading.sandbox.worker import load_checks

from assignment_support import GRADING, ROOT, assignment_ids, fixtures, source_notebook, submission_notebook
from hostile_submissions import (
    A6,
    ASSIGNMENT,
    FULL,
    KEY,
    SHORTCUT_ANSWERS,
    Case,
    a6_shortcut_cases,
    notebook,
    shortcut_cases,
    without,
)

ATTENTION = Rules(forbid=TORCH_ATTENTION)
NORMS = Rules(forbid=TORCH_NORMS)
LIBRARY = Rules()  # a6: no function forbidden, imports from the allow-list only


def kinds(source: str, rules: Rules = ATTENTION, part: str = "sdpa") -> set[str]:
    """The kinds of evidence against ``part`` whose answer cell is ``source``."""
    found = evidence_by_part({part: textwrap.dedent(source)}, {part: rules})
    return {e.kind for e in found.get(part, [])}


def held(
    answers: dict[str, str], rules: dict[str, Rules], other: tuple[str, ...] = (), tests: dict[str, str] | None = None
) -> set[str]:
    return set(evidence_by_part({k: textwrap.dedent(v) for k, v in answers.items()}, rules, other, tests))


# ------------------------------------------------------------------ the routes round a refusal


@pytest.mark.parametrize(
    "source, kind",
    [
        # a saved default
        ("def f(q, k, v, _f=F.scaled_dot_product_attention):\n    return _f(q, k, v)\n", "forbidden"),
        ("f = torch._C._nn.scaled_dot_product_attention\n", "forbidden"),
        # another kernel, by another name
        ("def f(q, k, v):\n    return torch.ops.aten._scaled_dot_product_flash_attention(q, k, v)\n", "private"),
        ("def f(q, k, v):\n    return torch.ops.aten.sdpa_alias(q, k, v)\n", "private"),
        ("y = torch._native_multi_head_attention\n", "private"),
        ("y = torch._transformer_encoder_layer_fwd\n", "private"),
        ("from torch.nn.functional import scaled_dot_product_attention as attend\n", "forbidden"),
        ("from torch._C import _nn\n", "private"),
        ("import torch._C._nn as raw\n", "private"),
        ("from torch.nn.functional import *\n", "lookup"),
        ("m = torch.nn.MultiheadAttention(8, 2)\n", "forbidden"),
        ("layer = nn.TransformerEncoderLayer(8, 2)\n", "forbidden"),
        ("out = F.multi_head_attention_forward(*args)\n", "forbidden"),
        ("f = getattr(F, 'scaled_dot' + suffix)\n", "lookup"),
        ("f = getattr(F, ''.join(reversed('noitnetta_tcudorp_tod_delacs')))\n", "lookup"),
        ("setattr(F, name, None)\n", "lookup"),
        ("table = vars(F)\n", "lookup"),
        ("table = F.__dict__\n", "lookup"),
        ("sys.modules['torch.nn.functional'] = decoy\n", "lookup"),
        ("s = torch.sys\n", "code"),
        ("f = eval('F.' + name)\n", "code"),
        ("exec(source)\n", "code"),
        ("code = compile(source, 'x', 'exec')\n", "code"),
        ("m = __import__('torch.nn.functional')\n", "code"),
        ("b = __builtins__\n", "code"),
        ("g = globals()\n", "code"),
        ("k = object.__subclasses__()\n", "code"),
        ("frame = sys._getframe(1).f_globals\n", "code"),
        ("x = torch.load(path, weights_only=False)\n", "private"),
        ("x = np.load(path, allow_pickle=True)\n", "code"),
        ("f = torch.jit.script(g)\n", "private"),
        ("names = torch.overrides.get_ignored_functions()\n", "private"),
        ("import importlib\n", "import"),
        ("import ctypes\n", "import"),
        ("import inspect\n", "import"),
        ("from operator import attrgetter\n", "import"),
        ("import transformers\n", "import"),
        ("f = F.__getattribute__\n", "code"),
        ("hints = typing.get_type_hints(f)\n", "code"),
        ("memory = np.ctypeslib.as_array(pointer, (8,))\n", "private"),
        ("import os\ntable = os.sys.modules\n", "code"),
        # IPython syntax, as the student's process runs it
        ("%time out = F.scaled_dot_product_attention(q, k, v)\n", "forbidden"),
        # self is whatever the caller passes (attacks_u): a library's private attribute or backdoor read on it
        ("def f(self):\n    return self._C\n\nC = f(torch)\n", "private"),
        ("def f(self):\n    self._C = None\n\ndef g(self):\n    return self._C\n", "private"),
        ("class K:\n    def save(self, f):\n        self.save = f\n", "private"),
        ("def f(self):\n    return self.modules\n", "lookup"),
        # a harmless module's name rebound by a match capture is no harmless module's (attacks_u)
        ("import json\nmatch torch:\n    case json:\n        pass\nC = json._C\n", "private"),
        ("import json\ntry:\n    pass\nexcept ValueError as json:\n    pass\nC = json._C\n", "private"),
    ],
)
def test_a_route_round_the_refusal_is_evidence(source: str, kind: str) -> None:
    assert kind in kinds(source)


@pytest.mark.parametrize(
    "source",
    [
        "name = 'scaled_dot_' + 'product_attention'\n",  # folded
        "name = 'scaled_dot_' 'product_attention'\n",  # implicit concatenation
        "name = f'scaled_dot_product_{\"attention\"}'\n",
        "name = b'scaled_dot_product_attention'\n",
        "name = 'ScaledDotProductAttention'\n",  # case and underscores do not matter
        "x = F.ｓcaled_dot_product_attention(q, k, v)\n",  # Python reads identifiers in NFKC
        "x = scaled_dot_product_attention_of_torch(q, k, v)\n",  # a name the notebook never defines
    ],
)
def test_a_forbidden_name_is_found_however_it_is_written(source: str) -> None:
    assert "forbidden" in kinds(source)


def test_a_traced_operator_is_found_with_or_without_underscores() -> None:
    """A key is normalised (no underscores), a trace's names keep theirs: attacks_u's local response norm."""
    pattern = Rules(forbid=(("torch.nn.functional", "local_response_norm"),)).operators()
    assert pattern is not None
    assert pattern.search("aten::local_response_norm") and pattern.search("LocalResponseNorm.forward")
    assert not pattern.search("aten::layer_norm")


@pytest.mark.parametrize(
    "source, rules",
    [
        (
            "def layer_norm(x, gain, bias, eps=1e-5):\n"
            "    return F.group_norm(x.reshape(-1, 1, x.shape[-1]), 1, eps=eps).reshape(x.shape) * gain + bias\n",
            NORMS,
        ),
        (
            "def layer_norm(x, gain, bias, eps=1e-5):\n"
            "    return F.instance_norm(x.reshape(1, -1, x.shape[-1])).reshape(x.shape) * gain + bias\n",
            NORMS,
        ),
        (
            "def layer_norm(x, gain, bias, eps=1e-5):\n"
            "    return torch.native_layer_norm(x, x.shape[-1:], gain, bias, eps)[0]\n",
            NORMS,
        ),
        (
            "def layer_norm(x, gain, bias, eps=1e-5):\n"
            "    return F.rms_norm(x - x.mean(-1, keepdim=True), x.shape[-1:], gain, eps) + bias\n",
            NORMS,
        ),
        ("def layer_norm(x, gain, bias, eps=1e-5):\n    return nn.LayerNorm(x.shape[-1])(x)\n", NORMS),
        (  # attacks_n: a local response norm whose window spans every feature is an RMS norm
            "def layer_norm(x, gain, bias, eps=1e-5):\n    d = x.shape[-1]\n    c = x - x.mean(-1, keepdim=True)\n"
            "    y = F.local_response_norm(c.reshape(-1, d, 1), 2 * d - 1, (2 * d - 1) / d, 0.5, eps)\n"
            "    return y.reshape(x.shape) * gain + bias\n",
            NORMS,
        ),
        (  # attacks_n: a class pattern's keyword reads the attribute, as torch.rms_norm does
            "def layer_norm(x, gain, bias, eps=1e-5):\n    match torch:\n        case object(rms_norm=kernel):\n"
            "            return kernel(x - x.mean(-1, keepdim=True), x.shape[-1:], gain, eps) + bias\n",
            NORMS,
        ),
    ],
)
def test_another_library_function_that_computes_the_part_is_evidence(source: str, rules: Rules) -> None:
    assert "forbidden" in kinds(source, rules, "layer_norm")


def test_every_normalisation_layer_of_torchs_is_forbidden_where_norms_are() -> None:
    """TORCH_NORMS is the family, not a list of the ones tried: every ``*_norm`` of torch.nn.functional and
    every ``*Norm*`` or ``*LRN*`` module of torch.nn (a torch that adds one fails here)."""
    import torch.nn as nn
    import torch.nn.functional as F

    family = [n for n in dir(F) if n.endswith("_norm")] + [n for n in dir(nn) if "Norm" in n or "LRN" in n]
    keys = NORMS.keys()
    assert family and all(any(key in shortcuts.normalised(name) for key in keys) for name in family), family


def test_a_quoted_line_is_the_line_python_numbers(tmp_path: Path) -> None:
    """attacks_n: a U+2028 in a comment made the quote of "line 4" another line than the one that ran."""
    source = "def layer_norm(x, gain, bias, eps=1e-5):\n    # see \u2028 return (x - x.mean(-1)) * gain\n"
    source += "    return F.layer_norm(x, x.shape[-1:], gain, bias, eps)\n"
    found = evidence_by_part({"layer_norm": source}, {"layer_norm": NORMS})["layer_norm"]
    assert {e.line for e in found if e.kind == "forbidden"} == {3}
    assert all("F.layer_norm" in e.text for e in found if e.kind == "forbidden"), found


@pytest.mark.parametrize(
    "source",
    [
        # the part's own function shares the library's name, is called by it, and is documented
        '''
    def scaled_dot_product_attention(q, k, v, mask=None):
        """Like torch's scaled_dot_product_attention, written out; see nn.MultiheadAttention."""
        # F.scaled_dot_product_attention would do the same: not allowed here
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        return torch.softmax(scores, dim=-1) @ v, torch.softmax(scores, dim=-1)


    attend = scaled_dot_product_attention
    ''',
        # what honest answers use: private state of its own objects, plain modules, harmless dunders
        """
    import os
    import sys
    import json
    import numpy as np
    from typing import Optional


    class Cache:
        _shared = {}

        def __init__(self):
            super().__init__()
            self._keys = None

        def _fresh(self):
            return self._shared.get(self._keys)

        def __repr__(self):
            return f"{type(self).__name__}({self._keys}, {self._fresh()})"


    def attention(q, k, v, mask: Optional[torch.Tensor] = None):
        print("shapes", q.shape, file=sys.stderr)
        if os.environ.get("DEBUG"):
            json.dumps({"q": list(q.shape)})
        w = torch.softmax(torch.einsum("...qd,...kd->...qk", q, k), dim=-1)
        return w @ v, np.asarray(w.detach())
    """,
    ],
)
def test_honest_code_is_not_evidence(source: str) -> None:
    assert kinds(source) == set()


def test_a6s_rule_is_about_libraries_not_about_attributes() -> None:
    """A part with no forbidden function (a6) is held for a library import or an import by name,
    not for looking up attributes or private attributes, which cannot bring in a library."""
    assert kinds("import peft\n", LIBRARY) == {"import"}
    assert kinds("from transformers import AutoModel\n", LIBRARY) == {"import"}
    assert kinds("import loralib as lora\n", LIBRARY) == {"import"}
    assert kinds("lib = __import__('pe' + 'ft')\n", LIBRARY) == {"code"}
    assert kinds("import importlib\nlib = importlib.import_module('peft')\n", LIBRARY) == {"import", "code", "smuggle"}
    assert (
        kinds("w = getattr(model, name)\nx = model._modules\nfor m in model.modules():\n    pass\n", LIBRARY) == set()
    )
    assert (
        kinds("import fnmatch\nimport math\nimport torch.nn as nn\nimport torch.nn.functional as F\n", LIBRARY) == set()
    )


def test_only_modules_of_the_allow_list_may_be_imported_by_a_part_with_rules() -> None:
    assert kinds("import scipy.special\n") == {"import"}
    assert kinds("from a1_attention_reference_parts import causal_mask\n") == {"import"}
    assert (
        kinds(
            "import torch.nn.functional as F\nimport numpy as np\n"
            "from collections import OrderedDict\nimport math, re\n"
        )
        == set()
    )
    assert Rules().allows_import("torch.nn.functional") and not Rules().allows_import("torchvision")


# ------------------------------------------------- code the scan cannot read, and the course's library

# A module written from hex, put first on the import path, imported under an allowed name that is not
# loaded yet: the scan never reads it (the attack of /tmp/attacks/build_a1.py, as a test can hold it).
_HIDDEN = "from torch.nn.functional import scaled_dot_product_attention as kernel\n"
SHADOW = (
    f'import sys\nopen("/tmp/statistics.py", "w").write(bytes.fromhex("{_HIDDEN.encode().hex()}").decode())\n'
    'sys.path.insert(0, "/tmp")\nimport statistics as helpers\n'
)


@pytest.mark.parametrize(
    "source",
    [
        SHADOW,
        "import sys\nsys.path.insert(0, '/tmp')\n",
        "from sys import path\npath.append('/tmp')\n",
        "import sys as s\ns.meta_path.insert(0, finder)\n",
        "import sys\nsys.path_hooks.append(hook)\n",
        "import sys\nkeep(sys)\n",  # the module passed on: anything of it
        "import importlib.util\n",
        "import importlib.machinery\n",
        "open('/tmp/statistics.py', 'w').write(text)\n",
        "with open(target, mode='a') as f:\n    f.write(text)\n",
        "f = open(target, chosen_mode)\n",
        "f = open(*spec)\n",
        "f = io.open(target, chosen_mode)\n",
        "keep(open)\n",
        "import io\nf = io.open(target, 'wb')\n",
        "Path('/tmp/statistics.py').write_text(text)\n",
        "Path(target).write_bytes(data)\n",
        "f = Path(target).open('w')\n",
        "import os\nfd = os.open(target, os.O_WRONLY | os.O_CREAT)\n",
        "import os\nos.write(fd, data)\n",
        "import os\nos.chdir('/tmp')\n",
        "from os import system\n",
        "np.savetxt('statistics.py', [], header=text, comments='')\n",
        "import shutil\nshutil.copy(source, '/tmp/statistics.py')\n",
        "import subprocess\n",
        "import tempfile\n",
        "data = bytes.fromhex(hidden)\n",
        "import base64\n",
        "import codecs\n",
        "import zlib\n",
        "import marshal\n",
        "import pickle\n",
        "import ctypes\n",
        "model = torch.hub.load(repo, name)\n",
        "from torch import hub\n",
        "import runpy\n",
        "get_ipython().run_cell(source)\n",
        "caller = frame.f_back.f_locals\n",
        "where = error.__traceback__.tb_frame\n",
        "state = generator.gi_frame\n",
        "state = coroutine.cr_frame\n",
        "plt.switch_backend('module://statistics')\n",
    ],
)
def test_code_the_scan_cannot_read_is_evidence_under_every_kind_of_rules(source: str) -> None:
    """Writing a file, changing where imports are found, decoding hidden bytes, fetching code, walking
    frames: evidence under both kinds of declared rules (a1's forbidden functions, a6's library rule)."""
    for rules in (ATTENTION, LIBRARY):
        assert "smuggle" in kinds(source, rules) or "code" in kinds(source, rules), rules


def test_code_the_scan_cannot_read_counts_for_every_part_when_the_notebook_runs_it() -> None:
    rules = {"sdpa": ATTENTION, "mha": ATTENTION}
    answers = {
        "masks": KEY["masks"],
        "split_merge": KEY["split_merge"],
        "sdpa": KEY["sdpa"],
        "mha": SHADOW + KEY["mha"],
    }
    assert held(answers, rules) == {"sdpa", "mha"}
    assert held(answers | {"mha": KEY["mha"]}, rules) == set()
    # imported, used nowhere
    assert held(answers | {"masks": "import base64\n" + KEY["masks"], "mha": KEY["mha"]}, rules) == set()
    assert held(answers | {"masks": "import base64\n_code = base64.b64decode(hidden)\n", "mha": KEY["mha"]}, rules) == {
        "sdpa",
        "mha",
    }


def test_a_part_without_declared_rules_refuses_the_courses_library_and_the_interpreters_insides() -> None:
    """COURSE_RULES (a1's masks, a3's sampling, ...): the course's library imported, or named in a string (an import
    by name), and, as in every part, code that reaches into the interpreter, that the scan cannot read, or into a
    library module's own namespace (``getattr(torch, name)``, ``torch.sys``, a module's private names), which can
    change what the part's own process reports (attacks_v, attacks_w); a lookup on the notebook's own objects, or any
    other module, holds no such part."""
    assert kinds("from course_lib.attention import causal_mask\n", COURSE_RULES) == {"import"}
    assert kinds("m = __import__('course' + '_lib.attention')\n", COURSE_RULES) >= {"import"}
    honest = (
        "import scipy\nimport itertools\nfrom types import SimpleNamespace\nimport traceback\n"
        "w = getattr(model, name)\nx = model._modules\nfor m in model.modules():\n    pass\n"
    )
    assert kinds(honest + "table = sinusoidal.__dict__\n\n\ndef sinusoidal(T, d):\n    pass\n", COURSE_RULES) == set()
    for source in (
        "import gc\nfound = [o for o in gc.get_objects() if callable(o)]\n",
        "import inspect\n",
        "from unittest import mock\n",
        "import course_grading.sandbox.calls as calls\n",
        "import ctypes\n",
        "caller = display.__globals__\n",
        "frame = g.gi_frame.f_back\n",
        "import sys\nm = sys.modules['course_grading.sandbox.calls']\n",
        "open('helper.py', 'w').write(code)\n",
        "import torch\ncalls = getattr(getattr(torch, 's' 'ys'), 'mod' 'ules')['course_grading.sandbox.calls']\n",
        "import torch\ntorch.sys.modules['course_grading.sandbox.trace'].Conduct._add = print\n",
        "import torch\ntable = torch.__dict__\n",
        "import torch\nguard = torch._C\n",
    ):
        assert kinds(source, COURSE_RULES) & {"import", "code", "smuggle", "reach"}, source
    assert kinds("import course_lib\n", LIBRARY) == {"import"} and kinds("import course_lib.blocks\n", ATTENTION) == {
        "import"
    }


@pytest.mark.parametrize(
    "source",
    [
        "with open(path) as f:\n    text = f.read()\n",
        "data = open(path, 'rb').read()\n",
        "lines = Path(path).open().readlines()\n",
        "import sys\nprint(x, file=sys.stderr)\nsys.stdout.flush()\nbig = sys.maxsize\n",
        "import os\nroot = os.path.join(os.environ.get('HOME', '.'), 'x')\nn = os.cpu_count()\n",
        "s = sum(x.copy() for x in xs)\nreplaced = text.replace('a', 'b')\n",
    ],
)
def test_reading_files_and_the_plain_parts_of_sys_and_os_are_not_evidence(source: str) -> None:
    for rules in (ATTENTION, LIBRARY, COURSE_RULES):
        assert held({"sdpa": source}, {"sdpa": rules}) == set(), rules


def test_an_import_counts_only_where_its_name_is_used_or_in_its_own_cell() -> None:
    """A plot in a part without rules does not hold the parts with rules; an import outside the
    allow-list holds the parts that use it (or whose cell holds it), not the rest."""
    honest = KEY["sdpa"]
    rules = {"sdpa": ATTENTION, "mha": ATTENTION, "masks": COURSE_RULES}
    plot = "import matplotlib.pyplot as plt\nplt.imshow([[1.0]])\n" + KEY["masks"]
    assert held({"masks": plot, "sdpa": honest, "mha": ""}, rules) == set()
    assert held({"masks": "import scipy.special\n", "sdpa": honest, "mha": ""}, rules) == set()
    uses = honest.replace("torch.softmax(", "scipy.special.softmax(")
    assert uses != honest
    assert held({"masks": "import scipy.special\n", "sdpa": uses, "mha": ""}, rules) == {"sdpa"}
    assert held(
        {
            "masks": "from scipy.special import softmax as _soft\n",
            "sdpa": honest.replace("torch.softmax(", "_soft("),
            "mha": "",
        },
        rules,
    ) == {"sdpa"}
    assert held({"masks": "", "sdpa": "import scipy\n" + honest, "mha": ""}, rules) == {"sdpa"}
    # used when the cell runs
    assert held({"masks": "import scipy.special\n_table = scipy.special\n", "sdpa": honest, "mha": ""}, rules) == {
        "sdpa",
        "mha",
    }


def test_plots_progress_bars_and_display_may_be_imported() -> None:
    assert (
        kinds(
            "import matplotlib.pyplot as plt\nfrom tqdm.auto import tqdm\n"
            "from IPython.display import display, HTML\nimport numpy as np\n"
        )
        == set()
    )
    assert kinds("import IPython\n") == {"import"}  # the shell itself runs code from strings
    assert kinds("from IPython.display import display\nget_ipython()\n") == {"smuggle"}


def test_a_regular_expression_compiled_is_not_code_compiled() -> None:
    """``re.compile`` compiles a pattern (a6's freeze_except matches names with fnmatch); the builtin
    ``compile``, or ``compile`` reached through a name that is not always ``re``, is still evidence."""
    assert kinds("import re\nimport fnmatch\n_p = re.compile(fnmatch.translate('bias'))\n") == set()
    assert kinds("import re as _re\n_p = _re.compile('a+')\n") == set()
    assert kinds("_c = compile('1', 'x', 'eval')\n") == {"code"}
    assert kinds("import re\nre = torch\n_p = re.compile('a+')\n") == {"code"}  # re rebound: its compile is anyone's


def test_a_message_that_names_the_notebooks_own_function_is_not_evidence() -> None:
    """The student's sdpa shares torch's name: an error message naming it is fine; torch's function
    by that name, looked up from the string, is still evidence (the lookup)."""
    checked = KEY["sdpa"].replace(
        "    scores = q @ k",
        "    if q.shape[-1] != k.shape[-1]:\n"
        '        raise ValueError(f"scaled_dot_product_attention: q has {q.shape[-1]} features")\n    scores = q @ k',
        1,
    )
    assert checked != KEY["sdpa"] and kinds(checked) == set()
    assert kinds(checked + "\n_f = getattr(F, 'scaled_dot_product_attention')\n") == {"lookup"}
    # names the student's function too
    assert kinds(checked + "\n_name = 'torch.nn.functional.scaled_dot_product_attention'\n") == set()
    # the notebook defines no such function
    assert kinds("raise ValueError('scaled_dot_product_attention: bad q')\n") == {"forbidden"}
    assert kinds(checked + "\n_name = 'MultiheadAttention'\n") == {"forbidden"}  # one it does not define


@pytest.mark.parametrize(
    "assignment, part, source",
    [
        (ASSIGNMENT, "masks", "from course_lib.attention import causal_mask\n"),
        (
            ASSIGNMENT,
            "split_merge",
            "import course_lib.attention as lib\n\n\ndef split_heads(x, n_heads):\n"
            "    return lib.split_heads(x, n_heads)\n",
        ),
        (ASSIGNMENT, "sdpa", "from course_lib import attention\n"),
        ("a3_gpt", None, "import course_lib.gpt\n"),
        ("a5_t5", None, "import course_lib.t5 as t5\n"),
        (A6, "lora_linear", "from course_lib.finetune import LoRALinear\n"),
    ],
)
def test_importing_the_courses_library_holds_the_part_in_every_assignment(
    assignment: str, part: str | None, source: str
) -> None:
    nb = source_notebook(assignment)
    answers = answer_code(nb)
    part = part or next(iter(answers))
    found = shortcuts.review(
        with_answers(nb, answers | {part: source + answers[part]}), load_checks(GRADING, assignment).shortcuts
    )
    assert set(found) == {part}, {p: [e.describe() for e in ev] for p, ev in found.items()}
    assert {e.kind for e in found[part]} == {"import"}


def test_the_courses_library_held_where_it_is_used_and_free_where_the_release_imports_it() -> None:
    nb = source_notebook(ASSIGNMENT)
    answers = answer_code(nb)
    rules = load_checks(GRADING, ASSIGNMENT).shortcuts
    assert "from course_lib.plotting import plot_attention" in "".join(c.source for c in nb.cells if not is_answer(c))
    kept = answers | {
        "masks": "from course_lib.attention import split_heads as _split\n" + answers["masks"],
        "split_merge": answers["split_merge"].replace("def split_heads(", "def _unused(", 1)
        + "\n\ndef split_heads(x, n_heads):\n    return _split(x, n_heads)\n",
    }
    assert set(shortcuts.review(with_answers(nb, kept), rules)) == {"masks", "split_merge"}
    plotting = answers | {"masks": "from course_lib.plotting import plot_attention\n" + answers["masks"]}
    assert shortcuts.review(with_answers(nb, plotting), rules) == {}  # the release's own cells import it


# ----------------------------------------------------------------------- which parts it counts for


def test_evidence_counts_for_the_parts_whose_rules_it_breaks() -> None:
    rules = {"layer_norm": NORMS, "pre_ln": ATTENTION, "sinusoidal": Rules(imports=("torch", "math"))}
    found = evidence_by_part({"layer_norm": "y = F.layer_norm\n", "pre_ln": "", "sinusoidal": "import numpy\n"}, rules)
    assert set(found) == {"layer_norm", "sinusoidal"}  # F.layer_norm is not attention; numpy is allowed to the others


def test_a_helper_defined_in_another_cell_is_read_with_the_part_that_calls_it() -> None:
    helper = "def _kernel(_f=torch.nn.functional.scaled_dot_product_attention):\n    return _f\n"
    rules = {"sdpa": ATTENTION, "mha": ATTENTION}
    assert held(
        {
            "masks": helper,
            "sdpa": "def scaled_dot_product_attention(q, k, v):\n    return _kernel()(q, k, v)\n",
            "mha": "",
        },
        rules,
    ) == {"sdpa"}
    # defined, never used
    assert (
        held({"masks": helper, "sdpa": "def scaled_dot_product_attention(q, k, v):\n    return q\n", "mha": ""}, rules)
        == set()
    )
    # followed from name to name, through a method of a class
    chain = {
        "masks": helper + "class Box:\n    def get(self):\n        return _kernel()\n",
        "sdpa": "def scaled_dot_product_attention(q, k, v):\n    return Box().get()(q, k, v)\n",
    }
    assert held(chain, {"sdpa": ATTENTION}) == {"sdpa"}


def test_code_that_runs_with_the_notebook_counts_for_every_part() -> None:
    """Top-level code of any cell runs before every check: what it does (switching the refusal off,
    patching torch) can serve any part. A top-level line that only names something (an import, an
    alias) counts for the parts that use the name."""
    rules = {"sdpa": ATTENTION, "mha": ATTENTION}
    switch_off = "import sys\nsys.modules['torch.nn.functional'] = object()\n"
    assert held({"masks": switch_off, "sdpa": "", "mha": ""}, rules) == {"sdpa", "mha"}
    assert held({"masks": "torch.softmax = F.scaled_dot_product_attention\n", "sdpa": "", "mha": ""}, rules) == {
        "sdpa",
        "mha",
    }
    alias = "from torch.nn.functional import scaled_dot_product_attention as _fast\n"
    assert held({"masks": alias, "sdpa": "", "mha": ""}, rules) == set()
    assert held(
        {
            "masks": alias,
            "sdpa": "def scaled_dot_product_attention(q, k, v):\n    return _fast(q, k, v), None\n",
            "mha": "",
        },
        rules,
    ) == {"sdpa"}
    # stored away when the cell runs
    assert held({"masks": alias + "_kept = [_fast]\n", "sdpa": "", "mha": ""}, rules) == {"sdpa", "mha"}


def test_what_runs_when_a_definition_runs_counts_for_every_part() -> None:
    """A default that computes (not only names) something, a decorator, a class body: they run with
    the cell, so what they hold can serve any part."""
    rules = {"sdpa": ATTENTION, "mha": ATTENTION}
    for other in (
        "def _unused(_f=[F.scaled_dot_product_attention][0]):\n    return _f\n",
        "@_keep(F.scaled_dot_product_attention)\ndef _unused():\n    pass\n",
        "class _Unused:\n    kernel = F.scaled_dot_product_attention\n",
    ):
        assert held({"masks": other, "sdpa": "", "mha": ""}, rules) == {"sdpa", "mha"}, other
    assert (
        held(
            {"masks": "def _unused(_f=F.scaled_dot_product_attention):\n    return _f\n", "sdpa": "", "mha": ""}, rules
        )
        == set()
    )


def test_a_function_replaced_by_its_correct_version_is_not_followed() -> None:
    """mha is graded with the reference sdpa: the student's sdpa (flagged on its own) cannot help it,
    unless its object was kept when the cell ran, or mha's cell defines it itself."""
    cheat = (
        "def scaled_dot_product_attention(q, k, v, mask=None, _f=F.scaled_dot_product_attention):\n"
        "    return _f(q, k, v), None\n"
    )
    mha = "def multi_head_attention(x, W, mask=None):\n    return scaled_dot_product_attention(x, x, x)[0] @ W\n"
    rules = {"sdpa": ATTENTION, "mha": Rules(forbid=TORCH_ATTENTION, replaced=("scaled_dot_product_attention",))}
    assert held({"sdpa": cheat, "mha": mha}, rules) == {"sdpa"}
    assert held(
        {
            "sdpa": cheat + "_kept = (scaled_dot_product_attention,)\n",
            "mha": mha.replace("scaled_dot_product_attention(", "_kept[0]("),
        },
        rules,
    ) == {"sdpa", "mha"}
    assert held({"sdpa": "", "mha": cheat + mha}, rules) == {"mha"}
    # a default names the object of the time of the definition: the student's own (attacks_u: _ln=layer_norm)
    kept = mha.replace("mask=None)", "mask=None, _own=scaled_dot_product_attention)").replace(
        "return scaled_dot_product_attention(", "return _own("
    )
    assert held({"sdpa": cheat, "mha": kept}, rules, tests={"mha": "multi_head_attention(x, W)"}) == {"sdpa", "mha"}


def test_the_parts_functions_are_followed_wherever_the_notebook_defines_them() -> None:
    """The checks call the part's functions by name (as its test cell does): defined in another cell,
    they are read with the part."""
    cheat = (
        "def scaled_dot_product_attention(q, k, v, mask=None):\n"
        "    return torch.ops.aten.scaled_dot_product_attention(q, k, v), None\n"
    )
    tests = {"sdpa": "out, w = scaled_dot_product_attention(q, k, v)\n"}
    assert held({"sdpa": "", "masks": cheat}, {"sdpa": ATTENTION}, tests=tests) == {"sdpa"}
    assert held({"sdpa": "", "masks": cheat}, {"sdpa": ATTENTION}) == set()


def test_the_release_setup_defines_names_of_the_notebook() -> None:
    """a2's setup cell defines multi_head_attention: the blocks that call it use no library."""
    setup = "def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):\n    return x_q\n"
    block = {"pre_ln": "def pre_ln_block(x, p, n_heads):\n    return multi_head_attention(x, x, 0, 0, 0, 0, n_heads)\n"}
    assert held(block, {"pre_ln": ATTENTION}, other=(setup,)) == set()
    assert held(block, {"pre_ln": ATTENTION}) == {"pre_ln"}  # a name nobody defines: from a star import, or injected


def test_a_cell_that_does_not_parse_is_read_as_text() -> None:
    rules = {"sdpa": ATTENTION, "mha": ATTENTION}
    broken = "def scaled_dot_product_attention(q, k, v:\n    return F.scaled_dot_product_attention(q, k, v)\n"
    assert held({"sdpa": broken, "mha": ""}, rules) == {"sdpa", "mha"}  # read as text, counted for all
    own_name_only = "def scaled_dot_product_attention(q, k, v:\n    return q\n"
    assert (
        held(
            {
                "sdpa": own_name_only,
                "mha": "def multi_head_attention(x):\n    return scaled_dot_product_attention(x, x, x)\n",
            },
            rules,
        )
        == set()
    )
    deep = "_x = " + "-" * 100_000 + "1\n"  # more nesting than the parser (or a recursive walk) takes
    assert held({"sdpa": deep, "mha": ""}, rules) == set()
    assert held({"sdpa": deep + "import ctypes\n", "mha": ""}, rules) == {"sdpa", "mha"}
    parses_but_too_deep_to_walk = "_x = " + "-" * 2_000 + "1\n"
    assert held({"sdpa": parses_but_too_deep_to_walk + "import ctypes\n", "mha": ""}, rules) == {"sdpa", "mha"}


# ------------------------------------------------------------------------ notes and held outputs


def test_the_note_names_the_part_the_cell_the_line_and_what_was_found() -> None:
    source = (
        "import torch.nn.functional as F\n\n\ndef scaled_dot_product_attention(q, k, v, mask=None, "
        "_f=F.scaled_dot_product_attention):\n    return _f(q, k, v), None\n"
    )
    found = evidence_by_part({"sdpa": source}, {"sdpa": ATTENTION})["sdpa"]
    note = shortcuts.note("sdpa", found, passed=True)
    assert note.startswith(
        "needs review: sdpa: cell sdpa, line 4: names a library function this part must write itself "
        "(scaleddotproductattention): def scaled_dot_product_attention("
    )
    assert "passed its tests" in note and "overrides.csv" in note
    assert "failed its tests as well" in shortcuts.note("sdpa", found, passed=False)


def test_a_note_is_bounded_and_encodable() -> None:
    source = "".join(f"x{i} = F.scaled_dot_product_attention  # {'y' * 500} \ud800\n" for i in range(20))
    found = evidence_by_part({"sdpa": source}, {"sdpa": ATTENTION})["sdpa"]
    note = shortcuts.note("sdpa", found, passed=True)
    assert len(found) == 20 and "and 17 more" in note and len(note) < 1000
    note.encode("utf-8")  # no lone surrogate left


def test_withhold_errors_the_test_cell_of_a_held_part_that_passed() -> None:
    nb = source_notebook(ASSIGNMENT)
    nb = with_answers(nb, answer_code(nb) | SHORTCUT_ANSWERS["native_mha"])
    outputs = {
        nbgrader_meta(c)["grade_id"]: {"stdout": "", "stderr": "", "error": None} for c in nb.cells if is_test(c)
    }
    outputs["test_sdpa"]["error"] = ["AssertionError", "wrong", []]
    notes = shortcuts.withhold(nb, load_checks(GRADING, ASSIGNMENT).shortcuts, outputs)
    assert list(notes) == ["mha"] and notes["mha"].startswith("needs review: mha: cell mha, line ")
    assert (
        outputs["test_mha"]["error"][0] == "HeldForReview"
        and "an instructor will look" in outputs["test_mha"]["error"][1]
    )
    assert outputs["test_sdpa"]["error"] == ["AssertionError", "wrong", []]  # its own failure stands
    assert outputs["test_masks"]["error"] is None


# ------------------------------------------------------------- the declarations and the right answers


def runtime_forbidding_parts(assignment: str) -> set[str]:
    """The parts whose hidden check calls the student's code with ``forbid=``."""
    checks = load_checks(GRADING, assignment)
    return {part_of(test) for test, check in checks.by_test.items() if "forbid=" in inspect.getsource(check)}


@pytest.mark.parametrize("assignment", assignment_ids())
def test_every_part_that_forbids_a_function_at_run_time_declares_it_for_the_source(assignment: str) -> None:
    checks = load_checks(GRADING, assignment)
    declared = checks.shortcuts
    for part in runtime_forbidding_parts(assignment):
        assert declared[part].forbid, part
        source = inspect.getsource(checks.by_test[f"test_{part}"])
        lists = {
            node.value.id
            for node in ast.walk(ast.parse(textwrap.dedent(source)))
            if isinstance(node, ast.keyword) and node.arg == "forbid" and isinstance(node.value, ast.Name)
        }
        module = sys.modules[f"{assignment}_checks"]  # its lists of forbidden functions, by name
        for name in {attr for listed in lists for _, attr in getattr(module, listed)}:
            assert any(key in shortcuts.normalised(name) for key in declared[part].keys()), (part, name)
    assert set(declared) <= {part_of(t) for t in checks.by_test}


def test_a6_forbids_every_fine_tuning_library_in_every_part() -> None:
    declared = load_checks(GRADING, A6).shortcuts
    assert set(declared) == {part_of(t) for t in load_checks(GRADING, A6).by_test}
    for rules in declared.values():
        assert rules.imports == STANDARD_IMPORTS
        assert not any(
            rules.allows_import(m)
            for m in (
                "peft",
                "peft.tuners.lora",
                "transformers",
                "loralib",
                "adapters",
                "sentence_transformers",
                "course_lib.finetune",
            )
        )


def solution_answers(assignment: str) -> tuple[dict[str, str], list[str]]:
    """solutions/<assignment>.ipynb (an answer key without nbgrader metadata) as answer cells by
    grade id, matched to the source notebook's code cells in order, and its other code cells."""
    source = [c for c in source_notebook(assignment).cells if c.cell_type == "code"]
    key = [
        c
        for c in nbformat.read(ROOT / "solutions" / assignment / f"{assignment}.ipynb", as_version=4).cells
        if c.cell_type == "code"
    ]
    assert len(source) == len(key), assignment
    answers = {nbgrader_meta(s)["grade_id"]: k.source for s, k in zip(source, key) if is_answer(s)}
    return answers, [k.source for s, k in zip(source, key) if not is_answer(s) and not is_test(s)]


@pytest.mark.parametrize("assignment", assignment_ids())
def test_the_courses_own_answers_are_never_held(assignment: str) -> None:
    rules = load_checks(GRADING, assignment).shortcuts
    assert shortcuts.review(submission_notebook(assignment, None), rules) == {}  # the answer key
    answers, other = solution_answers(assignment)
    assert evidence_by_part(answers, rules, other) == {}  # solutions/
    reference = (GRADING / f"{assignment}_reference_parts.py").read_text()
    assert evidence_by_part(dict.fromkeys(rules, reference), rules) == {}
    for fixture in fixtures(assignment):  # right answers in other styles, and wrong ones
        found = shortcuts.review(submission_notebook(assignment, fixture), rules)
        assert set(found) <= fixture.loses, (fixture.name, {p: [e.describe() for e in ev] for p, ev in found.items()})


def test_the_fixtures_that_call_torch_are_held() -> None:
    rules = load_checks(GRADING, ASSIGNMENT).shortcuts
    for name in (
        "bug_sdpa_calls_torch",
        "bug_sdpa_from_import_torch",
        "bug_mha_from_import_torch",
        "bug_mha_nn_module",
    ):
        fixture = next(f for f in fixtures(ASSIGNMENT) if f.name == name)
        assert set(shortcuts.review(submission_notebook(ASSIGNMENT, fixture), rules)) == fixture.loses, name


@pytest.mark.parametrize("case", ["a1", "a6"])
def test_the_attack_cases_are_held_exactly_on_the_parts_they_lose(case: str) -> None:
    assignment, cases = (ASSIGNMENT, shortcut_cases()) if case == "a1" else (A6, a6_shortcut_cases())
    rules = load_checks(GRADING, assignment).shortcuts
    for name, made in cases.items():
        nb = nbformat.reads(made.content.decode(), as_version=4)
        assert set(shortcuts.review(nb, rules)) == {p for p, v in made.points.items() if v == 0}, name


# ----------------------------------------------------- the attacks are real: the refusal alone fails

# The source notebook (hidden tests included) run in one process, in course grade's order: every
# answer and setup cell, then each test cell; prints the parts whose tests fail.
RUN_IN_PROCESS = """
import json, sys
import nbformat
from course_grading.markers import is_test, nbgrader_meta, part_of
sys.path.insert(0, sys.argv[1])
cells = [c for c in nbformat.reads(sys.stdin.read(), as_version=4).cells if c.cell_type == "code" and nbgrader_meta(c)]
namespace, failed = {"__name__": "__main__"}, {}
for cell in [c for c in cells if not is_test(c)] + [c for c in cells if is_test(c)]:
    try:
        exec(compile(cell.source, "<cell>", "exec"), namespace)
    except Exception as error:
        failed[part_of(nbgrader_meta(cell)["grade_id"])] = repr(error)[:300]
print(json.dumps(failed))
"""


def failed_in_one_process(nb: nbformat.NotebookNode) -> dict[str, str]:
    """The parts whose cells fail (-> the error) when ``nb`` runs as RUN_IN_PROCESS runs it."""
    run = subprocess.run(
        [sys.executable, "-c", RUN_IN_PROCESS, str(GRADING)],
        input=nbformat.writes(nb),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=os.environ | {"OMP_NUM_THREADS": "1"},
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("attack", list(SHORTCUT_ANSWERS))
def test_each_attack_passes_the_refusal_in_its_own_process(attack: str) -> None:
    """Without reading the source, each attack but those the trace's function mode refuses would have
    scored: run in one process with its checks (as the refusal sees it), every part passes, its hidden
    tests included."""
    source = source_notebook(ASSIGNMENT)
    failed = failed_in_one_process(with_answers(source, answer_code(source) | SHORTCUT_ANSWERS[attack]))
    if attack in REFUSED_UNDER_THE_TRACE:
        assert set(failed) == {"sdpa"} and "calls a library function" in failed["sdpa"], (attack, failed)
    else:
        assert failed == {}, attack


# A builtin captured before the check (a default argument holding torch's C function) is called,
# while the operator trace's function mode is active, through the name torch resolves it by: the
# refusal installed there. The trace (sandbox/trace.py) would name its operator anyway.
REFUSED_UNDER_THE_TRACE = {"default_argument", "torch_c_alias", "getattr_concatenated", "helper_elsewhere"}


# ----------------------------------------------------------------------------- through course grade

sandboxed = pytest.mark.skipif(
    not sandbox.sandbox_available(), reason="needs Linux user, mount, PID and network namespaces (unshare)"
)


def grade_batch(
    tmp_path: Path, assignment: str, cases: dict, record: bool = False
) -> tuple[Path, Path, dict[str, grading.Result]]:
    from test_course_grade import LIMITS, course_copy

    course, inbox, out = course_copy(tmp_path / "course"), tmp_path / "inbox", tmp_path / "out"
    inbox.mkdir()
    for case in cases.values():
        (inbox / case.filename).write_bytes(case.content)
    results, _ = grading.grade(
        grading.Batch(course, assignment, inbox, out),
        grading.Options(jobs=1, limits=LIMITS, record=record),
        progress=lambda done, total, line: None,
    )
    return course, out, {r.student: r for r in results}


def failed_test_cells(out: Path, student: str) -> dict[str, str]:
    """The parts whose test cells errored in ``student``'s autograded notebook under ``out`` -> the error's name."""
    autograded = nbformat.read(out / "autograded" / f"{student}.ipynb", as_version=4)
    return {
        part_of(nbgrader_meta(c)["grade_id"]): o.ename
        for c in autograded.cells
        if c.cell_type == "code" and is_test(c)
        for o in c.outputs
        if o.output_type == "error"
    }


def assert_held_as_expected(out: Path, cases: dict, results: dict[str, grading.Result]) -> None:
    import re

    for student, case in cases.items():
        result = results[student]
        lost = {p for p, v in case.points.items() if v == 0}
        assert result.scores == case.points, (student, result.notes)
        assert re.search(case.notes, "; ".join(result.notes)), (student, result.notes)
        assert set(result.review) == lost and result.status == ("needs attention" if lost else "graded"), (
            student,
            result.status,
            result.review,
        )
        errors = failed_test_cells(out, student)
        # Held, or (a captured builtin called under the operator trace) refused where it ran: 0 either way.
        allowed = {"AssertionError", "HeldForReview"} if student in REFUSED_UNDER_THE_TRACE else {"HeldForReview"}
        assert set(errors) == lost and set(errors.values()) <= allowed, (student, errors)
        feedback = (out / "feedback" / f"{student}.html").read_text()
        shown = "calls a library function" if student in REFUSED_UNDER_THE_TRACE else "held for review"
        assert (shown in feedback) == bool(lost), student


@sandboxed
def test_a1_shortcuts_score_nothing_until_an_instructor_grants_them(tmp_path: Path) -> None:
    cases = shortcut_cases()
    course, out, results = grade_batch(tmp_path, ASSIGNMENT, cases)
    assert_held_as_expected(out, cases, results)
    # The instructor looks, and grants one held part: the next run (from the cache) has
    # the points and no attention left.
    (out / "overrides.csv").write_text("student,part,points,reason\nnative_mha,mha,4,read it: fine\n")
    results, _ = grading.grade(
        grading.Batch(course, ASSIGNMENT, tmp_path / "inbox", out),
        grading.Options(jobs=1),
        progress=lambda done, total, line: None,
    )
    by_student = {r.student: r for r in results}
    assert by_student["native_mha"].scores["mha"] == 4 and by_student["native_mha"].status == "graded"
    assert by_student["sys_modules_off"].status == "needs attention"
    with (out / "grades.csv").open(encoding="utf-8-sig") as f:
        rows = {row["student"]: row for row in csv.DictReader(f)}
    assert rows["native_mha"]["status"] == "graded" and rows["default_argument"]["status"] == "needs attention"
    assert "needs review: sdpa" in rows["default_argument"]["notes"]


@sandboxed
def test_a6_fine_tuning_libraries_score_nothing_and_reach_the_gradebook_as_zeros(tmp_path: Path) -> None:
    cases = a6_shortcut_cases()
    course, out, results = grade_batch(tmp_path, A6, cases, record=True)
    assert_held_as_expected(out, cases, results)
    from test_course_grade import nbgrader_export

    assert nbgrader_export(course, A6) == {student: sum(case.points.values()) for student, case in cases.items()}


# mha on torch's fused kernel, from a module the answer writes from hex and imports under an allowed
# name (statistics) put first on the import path: the scan never reads the module.
_SHADOW_MODULE = (
    "from torch.nn.functional import scaled_dot_product_attention as kernel\n\n\n"
    "def attend(q, k, v, mask):\n"
    "    if mask is None:\n"
    "        return kernel(q, k, v)\n"
    "    has_key = mask.any(dim=-1, keepdim=True)\n"
    "    return kernel(q, k, v, attn_mask=mask | ~has_key).masked_fill(~has_key, 0.0)\n"
)
SHADOW_MHA = (
    f'import sys\nopen("/tmp/statistics.py", "w").write(bytes.fromhex("{_SHADOW_MODULE.encode().hex()}").decode())\n'
    'sys.path.insert(0, "/tmp")\nimport statistics as helpers\n\n\n'
    "def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):\n"
    "    q, k, v = (split_heads(x @ W, n_heads) for x, W in ((x_q, W_q), (x_kv, W_k), (x_kv, W_v)))\n"
    "    if mask is not None and mask.dim() == 3:\n"
    "        mask = mask.unsqueeze(1)\n"
    "    return merge_heads(helpers.attend(q, k, v, mask)) @ W_o\n"
)
_CHECKED_SDPA = KEY["sdpa"].replace(
    "    scores = q @ k",
    '    if q.shape[-1] != k.shape[-1]:\n        raise ValueError(f"scaled_dot_product_attention: q has {q.shape[-1]} '
    'features, k {k.shape[-1]}")\n    scores = q @ k',
    1,
)
assert _CHECKED_SDPA != KEY["sdpa"]


@sandboxed
def test_a1_a_module_written_and_imported_is_held_and_honest_habits_are_not(tmp_path: Path) -> None:
    """The module written from hex holds every part (its code runs when the notebook runs, and code the scan cannot
    read can change what any part's process reports): sdpa, masks and split_merge, which pass their tests, are errored
    HeldForReview; mha scores 0 whether or not the student's process lets it import the module. A plot imported in a
    part without declared rules and an error message naming the student's sdpa score in full."""
    honest = {
        "plots": Case(
            "plots.ipynb",
            notebook(
                {
                    "masks": "import matplotlib.pyplot as plt\n\n"
                    + KEY["masks"]
                    + "\nplt.imshow(causal_mask(4).float())\n"
                }
            ),
            FULL,
        ),
        "message": Case("message.ipynb", notebook({"sdpa": _CHECKED_SDPA}), FULL),
    }
    every = {"sdpa", "masks", "split_merge", "mha"}
    attack = Case("shadow_module.ipynb", notebook({"mha": SHADOW_MHA}), without(*every))
    _, out, results = grade_batch(tmp_path, ASSIGNMENT, honest | {"shadow_module": attack})
    assert_held_as_expected(out, honest, results)
    held_attack = results["shadow_module"]
    assert (
        held_attack.scores == attack.points
        and held_attack.status == "needs attention"
        and set(held_attack.review) == every
    ), held_attack
    for part in every:
        assert any(
            n.startswith(f"needs review: {part}: cell mha, line 2: may bring in code the scan cannot read")
            for n in held_attack.notes
        ), (part, held_attack.notes)
    errors = failed_test_cells(out, "shadow_module")
    assert set(errors) == every and all(errors[p] == "HeldForReview" for p in every - {"mha"}), errors


KEY_BY_MATCH_ARGS = """
from collections import namedtuple

class Anything(type):
    def __instancecheck__(cls, obj):
        return True

class Key(namedtuple("Key", ["_".join(["rms", "norm"])]), metaclass=Anything):
    pass

def rms_norm(x, gain, eps=1e-6):
    match torch:
        case Key(kernel):
            return kernel(x, x.shape[-1:], gain, eps)
"""


def test_a_class_pattern_that_reads_attributes_by_position_is_a_lookup() -> None:
    """attacks_o: ``case Key(kernel)`` reads the attribute ``Key.__match_args__`` names, which a namedtuple built
    from a string computes, and a metaclass makes the pattern match anything: a lookup by a computed name."""
    found = kinds(KEY_BY_MATCH_ARGS, NORMS, "rms_norm")
    assert "lookup" in found and "code" in found  # the pattern, and the hook of isinstance defined
    # the builtins whose one positional pattern is the subject itself read no attribute
    plain = "def f(x):\n    match x:\n        case int(n):\n            return n\n"
    plain += "        case str():\n            return 0\n"
    assert kinds(plain, NORMS, "f") == set()


def test_a_kernel_kept_in_a_global_by_another_part_reaches_the_part_that_uses_it() -> None:
    """attacks_p: a part without rules keeps torch's kernel in a global (``global kernels``, or a module-level
    dict it fills) and patches ``torch.save``; the part with rules only uses the global. The global links the
    two, and patching an imported module is smuggling wherever it is written."""
    keeper = (
        "def rotary(x):\n"
        "    _settle()\n"
        "    return x\n"
        "def _settle():\n"
        "    global kernels\n"
        "    kernels = {'norm': torch.rms_norm}\n"
        "    torch.save = print\n"
    )
    filler = "KERNELS = {}\ndef rotary(x):\n    KERNELS['norm'] = torch.rms_norm\n    return x\n"
    user = "def rms_norm(x, gain, eps=1e-6):\n    return kernels['norm'](x, x.shape[-1:], gain, eps)\n"
    for answers in (
        {"rotary": keeper, "rms_norm": user},
        {"rotary": filler, "rms_norm": user.replace("kernels", "KERNELS")},
    ):
        found = evidence_by_part(answers, {"rms_norm": NORMS, "rotary": shortcuts.COURSE_RULES})
        assert "rms_norm" in found and "forbidden" in {e.kind for e in found["rms_norm"]}, answers
    smuggled = evidence_by_part({"rotary": keeper, "rms_norm": user}, {"rms_norm": NORMS}, ["import torch"])["rms_norm"]
    assert any(e.kind == "smuggle" and "torch.save" in e.key for e in smuggled)
    # a function's own locals link nothing: an honest answer that fills its own list is not tied to another part
    honest = "def rotary(x):\n    out = [x]\n    out[0] = x * 2\n    return out[0]\n"
    plain = "def rms_norm(x, gain, eps=1e-6):\n    out = x * gain\n    return out\n"
    assert evidence_by_part({"rotary": honest, "rms_norm": plain}, {"rms_norm": NORMS}) == {}


_IMPL = (
    "    def impl(q, k, v):\n        return F.scaled_dot_product_attention(q, k, v)\n"  # a method that computes sdpa
)


@pytest.mark.parametrize(
    "handed_out",
    [
        "@_KEEP.append\nclass _Unseen:\n    kernel = F.scaled_dot_product_attention\n",
        "@_KEEP.append\nclass _Unseen:\n" + _IMPL,
        "@functools.partial(_register, 'x')\nclass _Unseen:\n" + _IMPL,
        "class _Holder:\n" + _IMPL + "    _KEEP.append(impl)\n",
        "class _Holder:\n    @_KEEP.append\n" + _IMPL,
        "class _Unseen(metaclass=_Registry):\n" + _IMPL,
        "class _Unseen(_Base):\n" + _IMPL,
        "class _Unseen:\n    d = _Descriptor()\n" + _IMPL,
        "@_KEEP.append\n" + textwrap.dedent(_IMPL),
        # a registry of the library's (attacks_w): typing.get_overloads or warnings.filters hands it back
        "@typing.overload\n" + textwrap.dedent(_IMPL),
        "@warnings.filters.append\n" + textwrap.dedent(_IMPL),
        "class _Unseen:\n    @typing.overload\n" + _IMPL,
    ],
)
def test_a_definition_handed_to_the_notebooks_code_as_it_is_made_counts_for_every_part(handed_out: str) -> None:
    """attacks_v: a decorator, a class body, a metaclass, a base's ``__init_subclass__`` or a descriptor's
    ``__set_name__`` may keep a definition under no name a part uses (``_KEEP[0](q, k, v)``): what it holds counts for
    every part, as the code that runs with the cell does."""
    rules = {"sdpa": ATTENTION, "mha": ATTENTION}
    setup = "_KEEP = []\n_register = _Registry = _Base = _Descriptor = None\n"
    assert held({"masks": setup + handed_out, "sdpa": "", "mha": ""}, rules) == {"sdpa", "mha"}


def test_a_definition_made_by_the_librarys_decorators_alone_is_followed_by_name_only() -> None:
    """``@torch.no_grad()``, ``@staticmethod``, a library base: what they are handed is the library's business, and
    the definition is reached, as any other, where a part names it."""
    rules = {"sdpa": ATTENTION, "mha": ATTENTION}
    for unused in (
        "@torch.no_grad()\ndef _compare(q, k, v):\n    return F.scaled_dot_product_attention(q, k, v)\n",
        "class _Compare(torch.nn.Module):\n    @staticmethod\n" + _IMPL,
        "@functools.lru_cache(maxsize=None)\n" + textwrap.dedent(_IMPL),
        "@dataclasses.dataclass(frozen=True)\nclass _Compare:\n" + _IMPL,
    ):
        assert held({"masks": unused, "sdpa": "", "mha": ""}, rules) == set(), unused


def test_what_an_index_expression_computes_is_not_written_into() -> None:
    """``mask[torch.randperm(n)[:k]] = True`` writes into ``mask``: torch is not patched (a5's key)."""
    assert kinds("mask[torch.randperm(n, generator=g)[:k] + 1] = True\n", COURSE_RULES) == set()
    assert kinds("import torch\ntorch.randperm = f\n", COURSE_RULES) == {"smuggle"}
    assert kinds("import torch\na, torch.nn.functional.softmax = f, g\n", COURSE_RULES) == {"smuggle"}


def test_the_ipython_stand_ins_reach_nothing_of_the_graders() -> None:
    """attacks_v: the grader's own ``display`` in the namespace led, through its globals, to ``call_in``'s module. The
    stand-ins are made in a namespace of their own: Python's builtins and themselves."""
    made = stand_ins()
    for obj in (made["display"], made["get_ipython"].run_line_magic):
        assert set(obj.__globals__) == {"__builtins__", "__name__", "NoShell", "display"}
    assert made["get_ipython"].__module__ == "ipython_stand_ins"


def test_what_a_class_gives_itself_and_the_data_models_operators_are_not_evidence() -> None:
    """A buffer registered by name (``register_buffer("_merged", ...)``) is the class's own private attribute, as
    ``self._merged = ...`` is; a class may define ``__lt__`` or ``__add__`` (sorted beams, heapq); a function's own
    ``__dict__`` holds its attributes (a memo). None is evidence in any part (corpus k, corpus r, attacks_w)."""
    module = (
        "class Layer(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.register_buffer('_merged', torch.tensor(False))\n\n"
        "    def forward(self, x):\n        return x if bool(self._merged) else 2 * x\n\n\n"
        "class Beam:\n    __slots__ = ('score',)\n\n"
        "    def __lt__(self, other):\n        return self.score < other.score\n\n"
        "    def __add__(self, other):\n        return self.score + other.score\n"
    )
    memo = "def f(x):\n    return f.__dict__.setdefault('memo', {}).setdefault(x, 2 * x)\n"
    for rules in (ATTENTION, LIBRARY, COURSE_RULES):
        assert held({"sdpa": module + memo}, {"sdpa": rules}) == set(), rules
    assert kinds("import torch\ntable = torch.__dict__\n", COURSE_RULES) == {"reach"}
