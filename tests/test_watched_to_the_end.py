"""Everything a student's code runs during a hidden call is watched (attacks_o): what it returned is read by exact
types inside the guard and the trace, compiled code is refused, a reply arrives whole within its time, the hash
seed is fixed, and the caller's autograd mode is one a check can choose."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest
import torch
import torch.nn.functional as F

from course_grading.sandbox import policy
from course_grading.sandbox.calls import OWN_TYPE, Opaque, Refused, call_in, plain, receive_frame, with_defaults

DEFERRED = '''
import torch
import torch.nn.functional as F

class Later(torch.Tensor):
    """Zeros now; the real work when the grader reads it."""
    def detach(self):
        return F.layer_norm(saved[0], saved[0].shape[-1:])

saved = []

def norm(x):
    saved.append(x.detach().clone())
    return torch.zeros_like(x).as_subclass(Later)

class Sneaky(dict):
    def items(self):
        F.layer_norm(saved[0], saved[0].shape[-1:])
        return super().items()

def norm_in_a_dict(x):
    saved.append(x.detach().clone())
    return Sneaky(out=torch.zeros_like(x))

def norm_by_instance(x):
    out = torch.zeros_like(x)
    out.detach = lambda: F.layer_norm(x, x.shape[-1:])  # a method the instance carries
    return out

def reseed_later(x):
    class Reseeds(torch.Tensor):
        def detach(self):
            torch.manual_seed(0)
            return torch.Tensor.detach(self)
    return torch.ones_like(x).as_subclass(Reseeds)
'''


def namespace() -> dict:
    found: dict = {}
    exec(compile(DEFERRED, "<cell part>", "exec"), found)
    return found


@pytest.mark.parametrize("name", ["norm", "norm_in_a_dict", "norm_by_instance"])
def test_work_put_off_until_the_reply_is_read_never_runs_outside_the_guard(name: str) -> None:
    x = torch.randn(2, 5)
    reply = call_in(namespace(), name, (x,), forbid=[("torch.nn.functional", "layer_norm")])
    # the value is read without calling anything the student's objects define: a subclass is opaque,
    # a plain tensor's own method never runs, and the layer norm is never computed
    value = reply.value
    if name == "norm_in_a_dict":
        assert value == Opaque(OWN_TYPE)
    elif name == "norm":
        assert value == Opaque(OWN_TYPE)
    else:
        assert type(value) is torch.Tensor and bool((value == 0).all())
    assert "layer_norm" not in reply.operators and "aten::native_layer_norm" not in reply.operators


def test_a_reseed_put_off_until_the_reply_is_read_is_seen_or_never_runs() -> None:
    reply = call_in(namespace(), "reseed_later", (torch.randn(3),), global_seed=5)
    assert reply.value == Opaque(OWN_TYPE) and not reply.global_rng_moved


def test_plain_reads_exact_types_and_keeps_the_graph_only_when_asked() -> None:
    w = torch.randn(3, requires_grad=True)
    y = w * 2
    value = plain({"a": (y, [1, 2.0, "s", None]), "b": torch.Size([2, 3]), "c": torch.float64})
    assert value["a"][0].grad_fn is None and torch.equal(value["a"][0], y.detach())
    assert value["a"][1] == [1, 2.0, "s", None] and value["b"] == (2, 3) and value["c"] is torch.float64
    values, indices = plain(torch.sort(torch.tensor([3.0, 1.0])))  # torch's named tuples: plain tuples
    assert values.tolist() == [1.0, 3.0] and indices.tolist() == [1, 0]
    assert plain(y, detach=False) is y
    assert plain(torch.nn.Parameter(torch.ones(2))).__class__ is torch.Tensor
    assert plain({1: y}) == Opaque("dict") and plain(object()) == Opaque("object")

    class Mine(list):
        pass

    assert plain(Mine([1])) == Opaque(OWN_TYPE)
    deep: list = [[[[[1]]]]]
    assert plain(deep) == [[[[Opaque("list")]]]]


def test_the_callers_grad_mode_is_the_checks_choice() -> None:
    seen: dict = {}

    def probe_mode(x: torch.Tensor) -> torch.Tensor:
        seen["grad"], seen["inference"] = torch.is_grad_enabled(), torch.is_inference_mode_enabled()
        return x * 2

    space = {"f": probe_mode}
    for mode, expected in (("enabled", (True, False)), ("no_grad", (False, False)), ("inference", (False, True))):
        reply = call_in(space, "f", (torch.ones(2),), grad_mode=mode)
        assert (seen["grad"], seen["inference"]) == expected and torch.equal(reply.value, torch.full((2,), 2.0))
    with pytest.raises(TypeError, match="grad_mode"):
        with_defaults({"grad_mode": "off"})  # type: ignore[typeddict-item]
    with pytest.raises(TypeError, match="no gradient"):
        with_defaults({"grad_mode": "no_grad", "grad_args": (0,)})


COMPILE_CHILD = r"""
import json, torch, torch._dynamo
import torch.nn.functional as F
from course_grading.sandbox.compilers import refuse_compilers
refused = refuse_compilers()
found = {}
attempts = {
    "CompilationUnit": lambda: torch.jit.CompilationUnit("def f(x):\n    return torch.rms_norm(x, [4])"),
    "script": lambda: torch.jit.script(lambda x: x),
    "compile": lambda: torch.compile(lambda x: x)(torch.ones(1)),
    "by the module's dict": lambda: vars(torch._C)["CompilationUnit"](),
}
for name, attempt in attempts.items():
    try:
        attempt()
        found[name] = "ran"
    except Exception as error:
        found[name] = type(error).__name__
x = torch.randn(2, 4, requires_grad=True)
F.layer_norm(x, (4,)).sum().backward()  # torch itself still works, and so does TorchScript's own test
found["torch"] = bool(x.grad is not None and not torch.jit.is_scripting())
print(json.dumps([refused, found]))
"""


def test_no_compiler_runs_in_the_students_process() -> None:
    """attacks_o: rms_norm and torch's attention in TorchScript compiled from a string scored full marks (C++
    calls them past the trace and the guard)."""
    import json

    run = subprocess.run([sys.executable, "-c", COMPILE_CHILD], capture_output=True, text=True, timeout=120, check=True)
    refused, found = json.loads(run.stdout.strip().splitlines()[-1])
    assert {"torch._C.CompilationUnit", "torch.jit.script", "torch.compile", "torch.jit.load"} <= set(refused)
    assert found == {
        "CompilationUnit": "Refused",
        "script": "Refused",
        "compile": "Refused",
        "by the module's dict": "Refused",
        "torch": True,
    }


def test_a_reply_trickled_a_byte_at_a_time_runs_out_of_its_time() -> None:
    """attacks_o: a frame's header, then one byte every few seconds: the deadline was per read, so the
    worker waited for ever and the submission's limit zeroed every part."""
    read, write = os.pipe()

    def trickle() -> None:
        os.write(write, (10**6).to_bytes(8, "little"))
        for _ in range(8):
            time.sleep(0.4)
            try:
                os.write(write, b"x")
            except OSError:
                return

    feeder = threading.Thread(target=trickle, daemon=True)
    feeder.start()
    began = time.monotonic()
    try:
        with pytest.raises(TimeoutError):
            receive_frame(read, 1.0)
        assert time.monotonic() - began < 2.0  # the frame's limit, not a limit per byte
    finally:
        os.close(read)
        feeder.join()
        os.close(write)


def test_every_student_process_gets_the_same_hash_seed() -> None:
    env = policy.environment({})
    assert env["PYTHONHASHSEED"] == "0"
    orders = {
        subprocess.run(
            [sys.executable, "-c", "print(list({'alpha', 'beta', 'gamma', 'delta', 'epsilon'}))"],
            capture_output=True,
            text=True,
            env=env | {"PATH": os.environ["PATH"]},
            check=True,
        ).stdout
        for _ in range(3)
    }
    assert len(orders) == 1


def test_refused_is_what_a_forbidden_call_raises() -> None:
    with pytest.raises(Refused):
        call_in(
            {"f": lambda x: F.layer_norm(x, (2,))},
            "f",
            (torch.ones(2),),
            forbid=[("torch.nn.functional", "layer_norm")],
        )


def test_autograd_left_off_by_the_notebook_is_on_again_for_the_next_call() -> None:
    """attacks_p: one part's ``torch.set_grad_enabled(False)``, never undone, failed every later part's gradient
    cases; a call asks for its own mode, whatever the process was left in."""
    seen: dict = {}

    def f(x: torch.Tensor) -> torch.Tensor:
        seen["grad"], seen["inference"] = torch.is_grad_enabled(), torch.is_inference_mode_enabled()
        return x * 2

    left = torch.inference_mode()
    previous = torch.is_grad_enabled()
    try:
        torch.set_grad_enabled(False)
        left.__enter__()  # a mode entered and never left, as a notebook's code may do
        reply = call_in({"f": f}, "f", (torch.ones(2),), grad_args=(0,))
        assert seen == {"grad": True, "inference": False} and reply.differentiable and reply.grads is not None
    finally:
        left.__exit__(None, None, None)
        torch.set_grad_enabled(previous)
