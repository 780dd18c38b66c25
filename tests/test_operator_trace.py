"""Forbidden routes found by what executes (issue 36): every spelling of torch's attention or
normalisation ends in an operator that the trace of a hidden call names, and a recorder left or
tampered with is evidence in itself."""

from __future__ import annotations

import pytest
import torch

from course_grading.sandbox.calls import call_in
from course_grading.sandbox.shortcuts import TORCH_ATTENTION, TORCH_NORMS, Rules, traced
from course_grading.sandbox.trace import trace_names

ROUTES = """
import importlib, sys
import torch, torch.nn.functional as F
from torch import nn
_kept = F.scaled_dot_product_attention

def honest(q, k, v):
    return torch.softmax(q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5, -1) @ v

def default_argument(q, k, v, f=_kept):
    return f(q, k, v)

def aten(q, k, v):
    return torch.ops.aten._scaled_dot_product_flash_attention_for_cpu(q, k, v)[0]

def through_sys_modules(q, k, v):
    return getattr(sys.modules["torch.nn.functional"], "scaled_dot_" + "product_attention")(q, k, v)

def module(q, k, v):
    mha = nn.MultiheadAttention(q.shape[-1], 1, batch_first=True)
    return mha(q[0], k[0], v[0])[0].unsqueeze(0)

def c_nn(q, k, v):
    return torch._C._nn.scaled_dot_product_attention(q, k, v)

def honest_norm(x):
    return (x - x.mean(-1, keepdim=True)) / (x.var(-1, keepdim=True, unbiased=False) + 1e-5).sqrt()

def group_norm(x):
    return torch.group_norm(x.unsqueeze(0), 1).squeeze(0)

def rms_of_centred(x):
    return F.rms_norm(x - x.mean(-1, keepdim=True), (x.shape[-1],))
"""

RULES = {"attention": Rules(forbid=TORCH_ATTENTION), "norm": Rules(forbid=TORCH_NORMS)}


def evidence(name: str, part: str, *args: torch.Tensor) -> list[str]:
    namespace: dict = {}
    exec(ROUTES, namespace)
    reply = call_in(namespace, name, args, grad_args=(0,))
    found = traced(RULES, {part: set(reply.operators)}, [] if reply.trace_intact else [part])
    return [e.kind for e in found.get(part, [])]


@pytest.mark.parametrize("route", ["default_argument", "aten", "through_sys_modules", "module", "c_nn"])
def test_every_route_to_torchs_attention_ends_in_a_forbidden_operator(route: str) -> None:
    q = torch.randn(1, 2, 5, 4)
    assert "operator" in evidence(route, "attention", q, q.clone(), q.clone())


@pytest.mark.parametrize("route", ["group_norm", "rms_of_centred"])
def test_every_route_to_torchs_normalisations_ends_in_a_forbidden_operator(route: str) -> None:
    assert "operator" in evidence(route, "norm", torch.randn(3, 8))


def test_honest_answers_leave_no_evidence() -> None:
    q = torch.randn(1, 2, 5, 4)
    assert evidence("honest", "attention", q, q.clone(), q.clone()) == []
    assert evidence("honest_norm", "norm", torch.randn(3, 8)) == []


def test_a_trace_from_the_students_process_is_checked_before_it_is_used() -> None:
    assert trace_names(["aten::mm", "softmax"]) == (frozenset({"aten::mm", "softmax"}), True)
    for forged in ("aten::mm", ["aten::mm", 3], ["attention q=0.123 k=\x1b[31m"], ["a"] * 5000):
        assert trace_names(forged) == (frozenset(), False)


def test_an_empty_or_abandoned_trace_is_evidence_for_a_part_that_forbids_functions() -> None:
    assert [e.kind for e in traced(RULES, {"attention": {"softmax"}}, [])["attention"]] == ["tampered"]
    assert [e.kind for e in traced(RULES, {"attention": {"aten::mm"}}, ["attention"])["attention"]] == ["tampered"]
    assert traced({"free": Rules()}, {"free": set()}, ["free"]) == {}  # a part without forbidden functions


# ----------------------------------------------------------------------------- imports and programs

CONDUCT_CHILD = r'''
import json, sys
from course_grading.sandbox.trace import Conduct
conduct = Conduct()
sys.addaudithook(conduct.hook)
cell = """
import builtins, importlib, os
def by_getattr():
    return getattr(builtins, "__imp" + "ort__")("fractions")
def by_importlib():
    return importlib.import_module("_".join(["course", "lib"]))
def by_exec():
    exec("import wave")
by_getattr(); by_importlib(); by_exec()
os.system("true")
"""
exec(compile(cell, "<cell part>", "exec"), {})
import decimal  # a library's own import, from a file: not the notebook's
first = conduct.drain()
# loaded once, then forgotten at the drain: another part's import of it is seen again
exec(compile("import importlib\nimportlib.import_module('course_lib')", "<cell other>", "exec"), {})
print(json.dumps([first, conduct.drain()]))
'''


def test_the_notebooks_imports_by_any_spelling_and_its_programs_are_recorded() -> None:
    import json
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", CONDUCT_CHILD], capture_output=True, text=True, timeout=120, check=True)
    first, second = json.loads(run.stdout.strip().splitlines()[-1])
    events = {tuple(e) for e in first}
    assert {
        ("import", "fractions", "part"),
        ("import", "course_lib", "part"),
        ("import", "wave", ""),
        ("program", "os.system", "part"),
    } <= events
    assert not any(name == "decimal" for _, name, _ in events)
    assert ["import", "course_lib", "other"] in second


def test_what_the_notebook_loaded_holds_the_parts_that_did_it_or_ran_it() -> None:
    from course_grading.sandbox.shortcuts import STANDARD_IMPORTS, conducted

    rules = {"lora": Rules(imports=STANDARD_IMPORTS), "adapter": Rules(imports=STANDARD_IMPORTS)}
    cells = {"masks": "masks", "lora": "lora", "adapter": "adapter", "student-cell-1": None}
    parts = ["masks", "free", "lora", "adapter"]

    def held(*events: tuple[str, str, str, str]) -> dict[str, set[str]]:
        return {part: {e.key for e in found} for part, found in conducted(rules, events, cells, parts).items()}

    # the course's library by a computed name in a part without rules, called in its own tests
    assert held(("import", "course_lib", "masks", "part:masks")) == {"masks": {"course_lib"}}
    # peft loaded by the LoRA cell's method during its hidden call: that part alone
    assert held(("import", "peft", "lora", "part:lora")) == {"lora": {"peft"}}
    # a helper in the LoRA cell loads it while the adapter's check runs: both parts
    assert held(("import", "peft", "lora", "part:adapter")) == {"lora": {"peft"}, "adapter": {"peft"}}
    # an added cell, or code compiled from a string: every part its rules refuse it in
    assert held(("import", "peft", "student-cell-1", "cell:student-cell-1")) == {"lora": {"peft"}, "adapter": {"peft"}}
    assert held(("program", "os.system", "", "part:adapter")) == {"lora": {"os.system"}, "adapter": {"os.system"}}
    # a program started by the adapter's own code while its check runs: that part alone
    assert held(("program", "os.system", "adapter", "part:adapter")) == {"adapter": {"os.system"}}
    assert held(("import", "numpy", "lora", "part:lora")) == {}  # allowed
    assert held(("import", "course_lib", "imports", "cell:imports")) == {}  # the release's own set-up


TRAMPOLINE_CHILD = r'''
import json, sys
from course_grading.sandbox.trace import Conduct
conduct = Conduct()
sys.addaudithook(conduct.hook)
through_the_standard_library = """
import contextlib, importlib
with contextlib.ExitStack() as stack:  # contextlib calls import_module: a standard library frame in between
    stack.callback(importlib.import_module, "_".join(["course", "lib"]) + ".tokenization")
"""
exec(compile(through_the_standard_library, "<cell part>", "exec"), {})
first = conduct.drain()
through_another_library = """
import torch._utils
torch._utils._import_dotted_name("_".join(["course", "lib"]))  # torch's frame calls __import__
"""
exec(compile(through_another_library, "<cell other>", "exec"), {})
second = conduct.drain()
under_its_name = """
code = compile("import course_lib.data", "/opt/site/course_lib/shim.py", "exec")  # a course_lib file name
exec(code, {})
"""
exec(compile(under_its_name, "<cell third>", "exec"), {})
print(json.dumps([first, second, conduct.drain()]))
'''


def test_an_import_the_notebook_asks_a_library_to_make_is_the_notebooks() -> None:
    """attacks_o: course_lib imported by contextlib.ExitStack's callback (a standard library frame between
    the import and the cell) escaped the record; so would one made by another library's import-by-name, or
    (attacks_p) by code the notebook compiled under a file name of the course's library."""
    import json
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-c", TRAMPOLINE_CHILD], capture_output=True, text=True, timeout=120, check=True
    )
    first, second, third = json.loads(run.stdout.strip().splitlines()[-1])
    assert ["import", "course_lib.tokenization", "part"] in first or ["import", "course_lib", "part"] in first
    assert ["import", "course_lib", "other"] in second
    # code the notebook compiled under a course_lib file name is still the notebook's (attacks_p)
    assert ["import", "course_lib.data", "third"] in third or ["import", "course_lib", "third"] in third
    # the standard library's own imports (contextlib's, torch's) stay theirs
    assert not any(name.startswith(("torch", "json", "re")) for _, name, _ in first + second)
