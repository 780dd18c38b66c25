"""Hidden checks for assignment a6 (fine-tuning). Instructor-only; never released.

Parts 1, 2, 4 and 5 are classes, or functions of a model and an optimizer, which cannot cross to
the grader: their checks call the drivers of ``a6_finetune_drivers.py`` (``Student.call(...,
driver=DRIVERS)``), which build the layer, model or optimizer from the weights a check chose beside
the student's code, call it, and return plain values. Every weight is the check's own, copied in
after the student's initialisation has been checked, and every input is new on each run.

Oracles, none of them course_lib, each written out here (importing peft or sentence-transformers
would cost every graded notebook seconds) and checked against the library it transcribes in
tests/test_assignment_oracles.py:

* part 1: LoRA's forward, its gradients with respect to A and B, and the merged weight, in float64;
  checked equal to ``peft``'s ``lora.Linear`` with the same A and B copied in. Its initialisation:
  B exactly zero, A within +-1/sqrt(in_features) and, in law, uniform there (a test of the law, not
  of moments: :func:`_expect_uniform`), as ``kaiming_uniform_(a=sqrt(5))`` draws it and peft does
  (checked on peft's fresh layers);
* part 2: the names a pattern matches are ``fnmatch.fnmatchcase``'s (the standard library itself);
  the models are named as BERT and GPT-2 name theirs in ``transformers``, and with near misses
  (``pre_head``, ``blocks.11`` beside ``blocks.1``) that substring and regex matching get wrong;
* part 3: the three poolings in float64, the mean as sentence-transformers' ``mean_pooling``;
  checked equal to the function in all-MiniLM-L6-v2's model card (shipped with its weights);
* part 4: ``torch.optim``'s own optimizers stepping a float64 copy of the probe (SGD, SGD with
  momentum and weight decay, Adam, AdamW; Adam's ``eps`` set to 1e-3, so that where it divides by
  a gradient near zero, float32's rounding of that gradient moves the update by at most lr / eps
  times it, about 1e-6; checked on many float32 steps);
* part 5: the adapter in float64, with the exact GELU or its tanh approximation (the one that every
  output and gradient of the answer fits), checked against ``nn.Linear`` and ``nn.GELU`` modules.

The only draws a check reads are the initialisations of A (part 1) and of down (part 5): see
``_expect_uniform`` for the probability, per grading run, that a correct answer fails (below 6e-10
in part 1, 1.3e-9 in part 5) and that each plausible wrong law passes (below 1e-9; most never do).
"""

from __future__ import annotations

import fnmatch
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from torch import Tensor

from course_grading.sandbox.calls import Student, StudentRaised
from course_grading.sandbox.shortcuts import STANDARD_IMPORTS, Rules

import gradinglib
from contracts import CONDITIONING, Contract, Size, contract_cases, float32_spread
from gradinglib import (
    CheckFailed,
    as_student,
    describe,
    expect_close,
    expect_gradients,
    expect_tensor,
    expect_unchanged,
    fresh_generator,
    kind,
    run_cases,
)

REFERENCE_PARTS = Path(__file__).with_name("a6_finetune_reference_parts.py").read_text()
DRIVERS = Path(__file__).with_name("a6_finetune_drivers.py").read_text()
# Not a fine-tuning library (peft, transformers, loralib, adapters, ...): every part imports only
# from the standard allow-list, and nothing by a computed name; read by the grader from the
# submitted source (course_grading.sandbox.shortcuts), a part that may break this is held for review.
SHORTCUTS = {
    part: Rules(imports=STANDARD_IMPORTS)
    for part in ("lora_linear", "freeze_except", "pooled_head", "probe_step", "adapter")
}
LAW_MIN = 2048  # the fewest values whose law a test reads (fewer: the bound alone)
LAW_DRAW = 8192  # a case with fewer draws a bigger layer beside it, of at least this many values, for the law
# The tolerances of the float comparisons, each |answer - float64 oracle| <= atol + rtol |oracle|,
# from an error analysis: the worst ratio of the error to that bound, over 100 graded runs of each of
# five correct float32 answers (the key; tests/fixtures/a6_finetune/alt_functional, alt_loops,
# alt_float64 (float64 inside, then cast), alt_reordered (loops over the rank, addmm, masked_fill and
# a reciprocal, a one-hot product, a closure, einsum, the tanh GELU by hand)), at every case and input
# scale the checks draw (alpha / r up to 32, features of scale 10, padding of scale 1000), gradients
# included; against the same ratio at the first failing comparison of the wrong answers there (20
# runs each). A bound holds at least 5 times the worst correct error and at most 1/500 of the
# smallest wrong one (gradient clipping aside, which a case may barely trigger: the case of scale 10
# triggers it, at 1,100 times the bound or more over 3,000 draws).
# Part 1's SGD step over the layer's parameters(): its rate moves no entry of A or B by more than this,
# so that the outputs after it keep their scale (a fixed rate moved A by up to 10 times its size, and
# float32's rounding of the step put a right answer 20 tolerances off). A layer whose A or B the step
# misses (not parameters), or whose base it moves (not frozen), is off by about this much times the
# inputs, far beyond the tolerance; the base's weight and bias are compared exactly. Right answers: the
# key over 100 runs (600 cases), worst 0.053 of LORA_TOL.
STEP_SIZE = 0.05
# part 1's outputs and gradients: worst correct 0.18 (the gradient w.r.t. A, 4.1e-5 off); wrong >= 5.3e3 (alpha // r)
LORA_TOL = {"atol": 1e-4, "rtol": 1e-4}
# the rest. Worst correct: part 1's fresh output 0.068 and merged weight 0.027 (wrong >= 1.2e4); part 3's logits 0.032
# and gradients 0.018 (wrong >= 4.1e3); part 4's weights 0.058 and biases 0.014 (wrong >= 1.8e4); part 5's outputs 0.068
# and gradients 0.18 (w.r.t. down.weight, 5.1e-6 off; wrong >= 515, the sigmoid GELU). The returned loss: 1e-5 + 1e-5
# |loss|, worst correct 0.029, wrong >= 2.3e3 (the loss after the step).
TOL = {"atol": 1e-5, "rtol": 1e-4}


def _randint(g: torch.Generator, low: int, high: int) -> int:
    """An int in [low, high)."""
    return int(torch.randint(low, high, (1,), generator=g))


def _probe(out: Tensor) -> Tensor:
    """The drivers' probe weights (float32, as they make them) in float64."""
    return torch.linspace(-1, 1, out.numel()).view(out.shape).double()


def _expect_global_states_kept(found: Any, what: str, case: str) -> None:
    """The global random states a driver read before and after the student's code (``found["rng"]``:
    tensors, compared here): ``what`` draws nothing, so they must be equal (issue 37: global state)."""
    before, after = (
        found["rng"]
        if isinstance(found, dict) and isinstance(found.get("rng"), list) and len(found["rng"]) == 2
        else ({}, None)
    )
    if (
        not isinstance(after, dict)
        or after.keys() != before.keys()
        or not all(
            isinstance(after[k], Tensor) and isinstance(before[k], Tensor) and torch.equal(before[k], after[k])
            for k in before
        )
    ):
        raise CheckFailed(
            f"{what} changed the global random state (torch.manual_seed, random.seed, a draw from the global "
            f"generator): it should draw nothing ({case})"
        )


def _expect_fresh_draws(first: Tensor, second: Tensor, what: str, case: str) -> None:
    """Two fresh layers built with the global generator in different states: their random
    initialisations must differ (equal only if the code reseeds, or draws from a generator of its own
    seeded with a constant: every layer of a model would start the same)."""
    if (
        isinstance(first, Tensor)
        and isinstance(second, Tensor)
        and first.shape == second.shape
        and torch.equal(first, second)
    ):
        raise CheckFailed(
            f"{what} came out the same in two fresh layers: draw it from torch's global generator as it is "
            f"(nn.init, as nn.Linear does), without reseeding it ({case})"
        )


def _expect_gradient(grad: Tensor | None, what: str, case: str) -> Tensor:
    if grad is None:
        raise CheckFailed(f"no gradient reached {what}: training could not change it ({case})")
    return grad


# ------------------------------------------------------------------------------- part 1: LoRA


def _ref_lora(weight: Tensor, bias: Tensor | None, A: Tensor, B: Tensor, alpha: float, x: Tensor) -> Tensor:
    """LoRA's output in float64: x W^T + b + (alpha / r) (x A^T) B^T."""
    x = x.double()
    out = x @ weight.double().T + (0.0 if bias is None else bias.double())
    return out + alpha / A.shape[0] * (x @ A.double().T) @ B.double().T


def _ref_lora_grads(
    weight: Tensor, bias: Tensor | None, A: Tensor, B: Tensor, alpha: float, x: Tensor
) -> tuple[Tensor, Tensor, Tensor]:
    """The gradients of probe . output with respect to A, B and the input x (float64 autograd)."""
    a, b, x = A.double().requires_grad_(True), B.double().requires_grad_(True), x.double().requires_grad_(True)
    out = _ref_lora(weight, bias, a, b, alpha, x)
    grad_a, grad_b, grad_x = torch.autograd.grad((out * _probe(out)).sum(), (a, b, x))
    return grad_a, grad_b, grad_x


def _ref_merged(weight: Tensor, A: Tensor, B: Tensor, alpha: float) -> Tensor:
    """The merged weight: W + (alpha / r) B A."""
    return weight.double() + alpha / A.shape[0] * B.double() @ A.double()


def _expect_uniform(values: Tensor, bound: float, what: str, rule: str, case: str) -> None:
    """``values`` within +-``bound`` and, when there are at least LAW_MIN of them, uniform there in
    law: gradinglib's ``expect_uniform_law``, their counts in 10 equal bins by the likelihood ratio,
    and their repeated values. A case whose own sample is smaller (a bias, a low rank) draws a bigger
    layer with the same bound beside it (at least LAW_DRAW values), so that every case reads the law.

    A correct answer (``kaiming_uniform_(a=sqrt(5))``, nn.Linear's own initialisation, a uniform by
    hand from torch.rand; float32 or float64) never fails the bound (float32 rounding moves a value
    by 6e-8 of it; 1e-6 is allowed) and fails a law test with probability at most 1e-10, whatever
    its size: 5e-11 for the bins (Agrawal's finite-sample bound, gradinglib.divergence_bound), 5e-11
    for the repeats (a Chernoff bound that holds where no value is drawn with probability above
    gradinglib.ATOM = 2^-22: torch's float32 uniform_ gives 2^24 values each 2^-24, the affine maps
    written by hand put at most two on one float, enumerated for every bound 1/sqrt(n), n < 81).
    Part 1 makes 6 law tests per run (A in the wide case, and beside each of the five others), part
    5 makes 13 (down's weights in the wide case; its weights and biases beside each of the six
    cases): below 6e-10 and 1.3e-9 per run. Measured: none of 80,000 law tests of correct draws
    failed (2,000 each: kaiming_uniform_ in float32 and float64, nn.Linear's weight and bias,
    torch.rand by hand two ways and in float64, float32 cast to float64; at 2,048, 8,192 to 8,214
    and 9,600 values); the smallest bound seen, 0.03, is far from 5e-11.

    A plausible wrong law passes a run (beside each case, a law test of at least 8,192 values;
    Chernoff bounds of the likelihood ratio under the wrong law's bin probabilities, and the chance
    that every value lies inside the bound) with probability at most:

    * 0 (every law test fails, on every draw), whatever its mean and mean square: a law on a few
      values (two points +-bound/sqrt(3), three points -bound, 0, bound with 1/6, 2/3, 1/6: both
      have the uniform's mean and mean square), values on a grid (multiples of bound/8, of
      bound/1024), one draw repeated (A's rows equal): of n values, n - 2,049 or more repeat one
      already drawn, where 34 is the most a correct draw of 8,192 may (40 of 9,600); uniform between
      0 and the bound, or within half of it: half the bins empty, n times the divergence at least
      n log 2 = 5,678 at 8,192 values, where below 47.7 is allowed; xavier_uniform_ for down (within
      0.22 of the bound beside each case: six bins empty);
    * uniform on +-bound/2 mixed with mass 3/11 at +-bound (the uniform's mean square again): below
      1e-2400 per test by the bins alone, and about 3n/11 repeats besides (with the ends spread over
      the outer tenth instead, no repeats: the bins' 1e-2400); a normal clamped to the bound (mass at
      the ends, 8% of the values: repeats); uniform within 0.9 of the bound: 1e-35 per test, 1e-178
      per run;
    * a normal of the right variance (bound^2 / 3): 1e-2300 (values outside the bound), redrawn
      inside the bound (a truncated normal, sd bound/sqrt(3)): 1e-780; trunc_normal_ of sd bound/2
      cut at the bound: 1e-1500; BERT's normal of sd 0.02 (trunc_normal_'s default too) and
      Houlsby's of sd 1e-3: 1e-37000; of sd bound cut at the bound, the nearest of these to
      uniform (0.01 nats a value from it): 1e-9.8 for down, 1e-11 for A (measured: it passes
      every test of 2,048 values, none of 200 of 8,192);
    * kaiming_uniform_'s default a = 0 (sqrt 6 times the bound), xavier_uniform_ for A, the bound
      from the rows (fan-out) or from out_features, for down 1/sqrt(bottleneck): below 1e-10000.
    A zero bias, or up not at zero, fails for certain."""
    values = values.detach().flatten()
    wide = values.double()
    largest = float(wide.abs().max()) if values.numel() else 0.0
    if not bool(torch.isfinite(wide).all()) or largest > bound * (1 + 1e-6):
        raise CheckFailed(
            f"{what} should lie between -{bound:.4g} and {bound:.4g} ({rule}); the largest is {largest:.4g} ({case})"
        )
    if values.numel() >= LAW_MIN:
        gradinglib.expect_uniform_law(values, -bound, bound, f"{what} ({rule})", case)


def _expect_lora_init(A: Any, B: Any, r: int, n_in: int, n_out: int, case: str) -> None:
    """B exactly zero; A within +-1/sqrt(in_features) and, in law, uniform there (:func:`_expect_uniform`)."""
    A = expect_tensor(A, (r, n_in), "A (r, in_features)", case)
    B = expect_tensor(B, (n_out, r), "B (out_features, r)", case)
    if not int(torch.count_nonzero(A)):
        raise CheckFailed(
            f"A should start random, not at zero: with A and B both at zero neither would get a gradient ({case})"
        )
    if int(torch.count_nonzero(B)):
        raise CheckFailed(
            "B should start at zero, so that the layer starts as the pretrained one; "
            f"{int(torch.count_nonzero(B))} of its entries are not ({case})"
        )
    _expect_uniform(
        A,
        1 / math.sqrt(n_in),
        "A's initial values",
        "kaiming_uniform_ with a=sqrt(5): uniform between -1/sqrt(in_features) and 1/sqrt(in_features)",
        case,
    )


def _expect_same_parameters(state: dict[str, dict[str, bool]], after: str, how: str, case: str) -> None:
    """base's weight and bias after ``after``: still the nn.Parameters base was made with (an
    optimizer, a tied weight or a caller holding them sees every change), leaves, frozen."""
    for name, found in state.items():
        if not found["same"]:
            raise CheckFailed(
                f"after {after}, base.{name} is another tensor than the nn.Parameter base was given: {how}, so that "
                f"whoever holds base.{name} sees the change ({case})"
            )
        if not found["leaf"]:
            raise CheckFailed(
                f"after {after}, base.{name} is no longer a leaf: it was computed with autograd recording (its grad_fn "
                f"reaches A and B); {how} ({case})"
            )
        if found["requires_grad"]:
            raise CheckFailed(f"after {after}, base.{name} requires a gradient: base stays frozen ({case})")


def check_lora_linear(notebook: Student | dict[str, Any]) -> str | None:
    """``LoRALinear(base, r, alpha)``: fresh (base and its own parameters kept, what trains, A, B,
    output; A's law, where r in_features < LAW_MIN read on a fresh layer of a higher rank beside the
    case), then with A and B set: outputs, gradients, ``merge()`` once and twice (the weight
    changed in place: the same parameter, a leaf, frozen)."""
    g = fresh_generator()
    student = as_student(notebook)

    def case(
        n_in: int, n_out: int, r: int, alpha: float, with_bias: bool, lead: tuple[int, ...], label: str
    ) -> Callable[[], None]:
        def run() -> None:
            weight = torch.randn(n_out, n_in, generator=g) / math.sqrt(n_in)
            bias = torch.randn(n_out, generator=g) if with_bias else None
            xs = [torch.randn(*lead, n_in, generator=g) for _ in range(2)]
            where = (
                f"{label}: base nn.Linear({n_in}, {n_out}{'' if with_bias else ', bias=False'}), r={r}, "
                f"alpha={alpha:g}, x {tuple(xs[0].shape)}"
            )
            fresh = student.call("_grading_lora_fresh", (weight, bias, r, alpha, xs[0]), driver=DRIVERS).value
            if not fresh["kept"]:
                raise CheckFailed(
                    f"keep base itself as self.base, not a copy: merge() must change the layer it was given ({where})"
                )
            _expect_same_parameters(
                fresh["base_params"],
                "LoRALinear(base, r, alpha)",
                "freeze them with requires_grad_(False), do not replace them",
                where,
            )
            if fresh["are_parameters"] != [True, True]:
                raise CheckFailed(
                    f"A and B should be nn.Parameters (so that the optimizer sees them); at least one is not ({where})"
                )
            trains = sorted(name for name, flag in fresh["requires_grad"].items() if flag)
            if trains != ["A", "B"]:
                raise CheckFailed(
                    "only A and B should be trainable (base frozen, weight and bias); trainable: "
                    f"{', '.join(trains) or 'nothing'} ({where})"
                )
            expected_frozen = ["base.weight"] + (["base.bias"] if with_bias else [])
            missing = [name for name in expected_frozen if name not in fresh["requires_grad"]]
            if missing:
                raise CheckFailed(
                    f"the layer's parameters should include base's, frozen: {', '.join(missing)} not found among "
                    f"{', '.join(fresh['requires_grad'])} ({where})"
                )
            _expect_lora_init(fresh["A"], fresh["B"], r, n_in, n_out, where)
            again = student.call("_grading_lora_fresh", (weight, bias, r, alpha, xs[0]), driver=DRIVERS).value
            _expect_fresh_draws(fresh["A"], again["A"], "A", where)
            if r * n_in < LAW_MIN:  # too few values for A's law: a fresh layer of a higher rank beside it, same bound
                big_r = math.ceil(LAW_DRAW / n_in)
                big = student.call("_grading_lora_fresh", (weight, bias, big_r, alpha, xs[0]), driver=DRIVERS).value
                beside = f"{where}; A's law read on a fresh LoRALinear(base, r={big_r}, alpha={alpha:g}) beside it"
                _expect_lora_init(big["A"], big["B"], big_r, n_in, n_out, beside)
            zero_b = torch.zeros(n_out, r)
            expect_close(
                fresh["out"],
                _ref_lora(weight, bias, fresh["A"], zero_b, alpha, xs[0]),
                "the fresh layer's output (B = 0: base(x))",
                where,
                **TOL,
            )
            # the gradients at the start (B = 0): B's is not zero, else training never leaves the start (a layer
            # that skips the update while B is zero computes the same outputs)
            start = where + ", the fresh layer (B = 0)"
            start_refs = _ref_lora_grads(weight, bias, fresh["A"], zero_b, alpha, xs[0])
            for name, ref in zip(("A", "B", "x"), start_refs):
                what = "the input x" if name == "x" else name
                expect_close(
                    _expect_gradient(fresh["start_grad_" + name], what, start),
                    ref,
                    f"the gradient with respect to {what}",
                    start,
                    **LORA_TOL,
                )

            A = torch.randn(r, n_in, generator=g) / math.sqrt(n_in)
            B = torch.randn(n_out, r, generator=g)
            trained = where + ", random A and B copied in"
            reply = student.call("_grading_lora_run", (weight, bias, r, alpha, A, B, xs), driver=DRIVERS).value
            _expect_global_states_kept(reply, "forward, backward and merge()", trained)
            for i, (x, out) in enumerate(zip(xs, reply["outs"])):
                expect_close(
                    out, _ref_lora(weight, bias, A, B, alpha, x), f"the output for input {i + 1}", trained, **LORA_TOL
                )
            grad_a, grad_b, grad_x = _ref_lora_grads(weight, bias, A, B, alpha, xs[0])
            expect_close(
                _expect_gradient(reply["grad_A"], "A", trained),
                grad_a,
                "the gradient with respect to A",
                trained,
                **LORA_TOL,
            )
            expect_close(
                _expect_gradient(reply["grad_B"], "B", trained),
                grad_b,
                "the gradient with respect to B",
                trained,
                **LORA_TOL,
            )
            # the input's gradient flows through the frozen base too (issue 37: a base run under no_grad,
            # or an input detached, stops it; a layer inside a network must pass it on)
            expect_close(
                _expect_gradient(reply["grad_x"], "the input x", trained),
                grad_x,
                "the gradient with respect to the input x",
                trained,
                **LORA_TOL,
            )
            if any(reply["base_grads"]):
                raise CheckFailed(f"a gradient reached base's weight or bias: they should be frozen ({trained})")
            merged = _ref_merged(weight, A, B, alpha)
            _expect_same_parameters(
                reply["merged_state"],
                "merge()",
                "add the update into the weight in place, under torch.no_grad()",
                trained,
            )
            _expect_same_parameters(
                reply["twice_state"],
                "a second merge()",
                "add the update into the weight in place, under torch.no_grad()",
                trained,
            )
            expect_close(
                reply["merged_weight"], merged, "base.weight after merge() (W + (alpha / r) B A)", trained, **TOL
            )
            if with_bias:
                expect_close(
                    reply["merged_bias"], bias.double(), "base.bias after merge() (unchanged)", trained, atol=0, rtol=0
                )
            merged_outputs = (
                ("base_outs", "base alone after merge(), input {} (what the layer computed)"),
                ("merged_outs", "the layer's output after merge(), input {} (the update added once, in the weight)"),
                ("twice_outs", "the layer's output after a second merge(), input {}"),
            )
            for i, x in enumerate(xs):
                expected = _ref_lora(weight, bias, A, B, alpha, x)
                for key, what in merged_outputs:
                    expect_close(reply[key][i], expected, what.format(i + 1), trained, **LORA_TOL)
            expect_close(
                reply["twice_weight"], merged, "base.weight after a second merge() (unchanged by it)", trained, **TOL
            )

            # One SGD step over the layer's parameters(): only A and B move, by their gradients; base, the
            # Linear it was given, stays as it was. The grader computes every value itself (the driver
            # returns outputs and weights, no flag), so that what trains is judged by what it computes.
            lr = STEP_SIZE / float(max(grad_a.abs().max(), grad_b.abs().max()))  # no entry moves by more than STEP_SIZE
            stepped = student.call("_grading_lora_step", (weight, bias, r, alpha, A, B, xs, lr), driver=DRIVERS).value
            after = f"{trained}, then one SGD step (lr={lr:.3g}) over layer.parameters()"
            _expect_global_states_kept(stepped, "forward", after)
            for name, frozen in (("weight", weight), ("bias", bias if with_bias else None)):
                if frozen is not None:
                    expect_close(
                        stepped[name],
                        frozen.double(),
                        f"base.{name} after the step (frozen: unchanged)",
                        after,
                        atol=0,
                        rtol=0,
                    )
            A_after, B_after = A.double() - lr * grad_a, B.double() - lr * grad_b
            for i, x in enumerate(xs):
                expected = _ref_lora(weight, bias, A_after, B_after, alpha, x)
                expect_close(
                    stepped["outs"][i],
                    expected,
                    f"the output after the step, input {i + 1} (A and B moved by their gradients)",
                    after,
                    **LORA_TOL,
                )

        return run

    cases = [
        case(37, 23, 4, 8.0, True, (5,), "a rectangular layer"),
        case(30, 40, 1, 1.0, False, (2, 3), "rank 1, no bias, a batch of sequences"),
        case(64, 64, 8, 16.0, True, (7,), "a square layer, alpha = 2 r"),
        case(24, 9, 3, 5.0, True, (2, 2, 2), "alpha / r = 5 / 3"),
        case(600, 5, 16, 32.0, False, (3,), "a wide layer: A's law over 9,600 values"),
        case(
            _randint(g, 24, 80),
            _randint(g, 2, 50),
            _randint(g, 1, 7),
            float(_randint(g, 1, 33)),
            bool(_randint(g, 0, 2)),
            (_randint(g, 1, 6),),
            "random sizes",
        ),
    ]
    return run_cases("LoRALinear", cases + contract_cases(LORA, student, g))


def _lora_args(g: torch.Generator, size: Size) -> tuple[Any, ...]:
    """nn.Linear(13, 6) with a bias, r 3, alpha 6, random A and B, two inputs of leading dimensions ``size.lead``."""
    weight, bias = torch.randn(6, 13, generator=g) / math.sqrt(13), torch.randn(6, generator=g)
    A, B = torch.randn(3, 13, generator=g) / math.sqrt(13), torch.randn(6, 3, generator=g)
    return weight, bias, 3, 6.0, A, B, [torch.randn(*size.lead, 13, generator=g) for _ in range(2)]


def _judge_lora(found: Any, args: tuple[Any, ...], where: str, size: Size) -> None:
    """The outputs of a layer with A and B set, and the gradients of the first one's probe."""
    weight, bias, r, alpha, A, B, xs = args
    _expect_global_states_kept(found, "forward, backward and merge()", where)
    for i, (x, out) in enumerate(zip(xs, found["outs"])):
        expect_close(out, _ref_lora(weight, bias, A, B, alpha, x), f"the output for input {i + 1}", where, **LORA_TOL)
    for i, (x, out) in enumerate(zip(xs, found["frozen_outs"])):  # only merge() folds the update in (corpus r)
        expect_close(
            out,
            _ref_lora(weight, bias, A, B, alpha, x),
            f"the output for input {i + 1} with A and B frozen (requires_grad False: the update still applies)",
            where,
            **LORA_TOL,
        )
    # a forward without autograd after A and B changed in place (corpus t: W + s BA built at the first such forward,
    # before A and B were set, and reused)
    for i, (x, out) in enumerate(zip(xs, found["no_grad_outs"])):
        expect_close(
            out,
            _ref_lora(weight, bias, A, B, alpha, x),
            f"the output for input {i + 1} under torch.no_grad(), after A and B changed in place since an earlier "
            "forward (use the parameters as they are now)",
            where,
            **LORA_TOL,
        )
    # the other layer, of rank r + 1 and alpha three times as large, made right after this one
    A2, B2 = torch.cat([A, A[:1]]), torch.cat([B, B[:, :1]], dim=1)
    for i, (x, out) in enumerate(zip(xs, found["other_outs"])):
        expect_close(
            out,
            _ref_lora(weight, bias, A2, B2, alpha * 3, x),
            f"the output for input {i + 1} of another LoRALinear (r={r + 1}, alpha={alpha * 3}) made right after the "
            "first, before either was used (each layer keeps its own scale)",
            where,
            **LORA_TOL,
        )
    for name, ref in zip(("A", "B", "x"), _ref_lora_grads(weight, bias, A, B, alpha, xs[0])):
        what = "the input x" if name == "x" else name
        expect_close(
            _expect_gradient(found["grad_" + name], what, where),
            ref,
            f"the gradient with respect to {what}",
            where,
            **LORA_TOL,
        )


# x of shape (..., in_features): one vector with no batch, one row, several leading dimensions, a
# non-contiguous view (as a transpose returns: the spec says so). (The contract calls the driver, which
# builds the student's layer from these plain values.)
LORA = Contract(
    "_grading_lora_run",
    ("weight", "bias", "r", "alpha", "A", "B", "xs"),
    _lora_args,
    None,
    base=Size((5,), 0),
    leads=((), (1,), (2, 3, 4)),
    views=Size((2, 3, 4), 0),
    verify=_judge_lora,
    # no case of MANY_ROWS: the drivers reply with gradients summed over the rows and the GELU's form is read from
    # the outputs (at 8,192 rows a right adapter's read fails); a module's forward has no batch to cut into chunks
    rows=False,
    options=(("driver", DRIVERS),),
    whole=(3,),
    grad_modes=(),  # the driver trains (a backward pass, optimizer steps): it needs autograd on
)


# ----------------------------------------------------------------------- part 2: freeze_except


def _bert_names(n_layers: int) -> list[str]:
    """BertForSequenceClassification's parameter names in ``transformers``."""
    names = [f"bert.embeddings.{e}.weight" for e in ("word_embeddings", "position_embeddings", "token_type_embeddings")]
    names += ["bert.embeddings.LayerNorm.weight", "bert.embeddings.LayerNorm.bias"]
    for i in range(n_layers):
        for sub in ("attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense",
                    "attention.output.LayerNorm", "intermediate.dense", "output.dense",
                    "output.LayerNorm"):  # fmt: skip
            names += [f"bert.encoder.layer.{i}.{sub}.weight", f"bert.encoder.layer.{i}.{sub}.bias"]
    return names + ["bert.pooler.dense.weight", "bert.pooler.dense.bias", "classifier.weight", "classifier.bias"]


def _bert_buffers() -> dict[str, Tensor]:
    """BertForSequenceClassification's buffers in ``transformers`` (integer ids, not parameters)."""
    return {
        "bert.embeddings.position_ids": torch.arange(6)[None],
        "bert.embeddings.token_type_ids": torch.zeros(1, 6, dtype=torch.long),
    }


def _gpt2_buffers(n_layers: int) -> dict[str, Tensor]:
    """GPT2ForSequenceClassification's buffers in ``transformers`` (the causal mask, and in older
    versions a float ``masked_bias``): a float buffer that ``state_dict`` lists beside the parameters."""
    buffers: dict[str, Tensor] = {}
    for i in range(n_layers):
        buffers[f"transformer.h.{i}.attn.bias"] = torch.ones(1, 1, 4, 4, dtype=torch.bool).tril()
        buffers[f"transformer.h.{i}.attn.masked_bias"] = torch.tensor(-1e4)
    return buffers


def _gpt2_names(n_layers: int) -> list[str]:
    """GPT2ForSequenceClassification's parameter names in ``transformers``."""
    names = ["transformer.wte.weight", "transformer.wpe.weight"]
    for i in range(n_layers):
        for sub in ("ln_1", "attn.c_attn", "attn.c_proj", "ln_2", "mlp.c_fc", "mlp.c_proj"):
            names += [f"transformer.h.{i}.{sub}.weight", f"transformer.h.{i}.{sub}.bias"]
    return names + ["transformer.ln_f.weight", "transformer.ln_f.bias", "score.weight"]


NEAR_MISSES = [
    "head.weight", "head.bias", "pre_head.weight", "head_norm.weight", "heads.0.weight", "norm.weight", "norm.bias",
    "blocks.0.norm.weight", "blocks.1.attn.weight", "blocks.1.attn.bias", "blocks.11.attn.weight",
    "blocks.11.norm.bias", "encoder.blocks.1.attn.weight", "embed.weight", "Head.weight",
]  # fmt: skip


NEAR_MISS_BUFFERS = {
    "norm.running_mean": torch.zeros(3),
    "norm.running_var": torch.ones(3),
    "norm.num_batches_tracked": torch.tensor(0),
    "blocks.1.attn.mask": torch.ones(2, 2),
}


def _shapes(g: torch.Generator, names: list[str]) -> dict[str, tuple[int, ...]]:
    """A small shape for each name (a weight 2-D, anything else 1-D): the counts differ by name."""
    return {
        name: (_randint(g, 1, 5), _randint(g, 1, 4))
        if name.endswith("weight") and _randint(g, 0, 3)
        else (_randint(g, 1, 7),)
        for name in names
    }


def _ref_freeze(shapes: dict[str, tuple[int, ...]], patterns: list[str]) -> tuple[dict[str, bool], int]:
    """Whether each parameter trains (its name matches a pattern, by fnmatchcase), and how many numbers train."""
    trains = {name: any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns) for name in shapes}
    return trains, sum(math.prod(shape) for name, shape in shapes.items() if trains[name])


def check_freeze_except(notebook: Student | dict[str, Any]) -> str | None:
    """``freeze_except(model, patterns)`` on models named as transformers names BERT and GPT-2 and
    on near misses, some parameters frozen beforehand, with buffers (which are no parameters: never
    trainable, never counted, never a pattern's match); a ValueError names its pattern."""
    g = fresh_generator()
    student = as_student(notebook)

    def case(names: list[str], patterns: list[str], label: str, buffers: dict[str, Tensor]) -> Callable[[], None]:
        def run() -> None:
            shapes = _shapes(g, names)
            frozen = [name for name in names if _randint(g, 0, 2)]
            where = (
                f"{label}: {len(names)} parameters and {len(buffers)} buffers, {len(frozen)} parameters frozen "
                f"beforehand, patterns {patterns}"
            )
            args = (shapes, frozen, patterns, buffers)
            _judge_freeze(student.call("_grading_freeze", args, driver=DRIVERS).value, args, where, FREEZE.base)

        return run

    n_bert, n_gpt = _randint(g, 11, 14), _randint(g, 2, 5)
    bert, gpt2 = _bert_names(n_bert), _gpt2_names(n_gpt)
    bert_buffers, gpt2_buffers = _bert_buffers(), _gpt2_buffers(n_gpt)
    cases = [
        case(bert, ["classifier.*"], "BERT, a linear probe", bert_buffers),
        case(bert, ["*.bias", "classifier.*"], "BERT, BitFit (the classifier's bias matched twice)", bert_buffers),
        case(bert, ["*LayerNorm*", "classifier.*"], "BERT, LayerNorms and head", bert_buffers),
        case(
            bert,
            ["bert.encoder.layer.1.*", "classifier.weight"],
            f"BERT ({n_bert} layers), layer 1 only, not 10 or 11",
            bert_buffers,
        ),
        case(
            bert,
            ["*attention.self.query*", "*attention.self.value*"],
            "BERT, queries and values (LoRA's usual targets)",
            bert_buffers,
        ),
        case(
            bert,
            ["bert.encoder.layer.1[01].*", "bert.pooler.*"],
            "BERT, layers 10 and 11 and the pooler, a set in the pattern",
            bert_buffers,
        ),
        case(gpt2, ["score.*"], "GPT-2, a linear probe", gpt2_buffers),
        case(
            gpt2,
            ["transformer.h.?.ln_*", "transformer.ln_f.*", "score.weight"],
            "GPT-2, LayerNorms and head",
            gpt2_buffers,
        ),
        case(gpt2, ["*c_attn*", "*c_attn*"], "GPT-2, a pattern given twice", gpt2_buffers),
        case(gpt2, ["*"], "GPT-2, everything", gpt2_buffers),
        case(gpt2, [], "GPT-2, no pattern: everything frozen", gpt2_buffers),
        case(
            NEAR_MISSES,
            ["head.*"],
            "near misses: 'head.*' is not pre_head, head_norm, heads or Head",
            NEAR_MISS_BUFFERS,
        ),
        case(NEAR_MISSES, ["norm.weight"], "near misses: the whole name, not a part of it", NEAR_MISS_BUFFERS),
        case(
            NEAR_MISSES, ["blocks.1.*"], "near misses: blocks.1, not blocks.11 or encoder.blocks.1", NEAR_MISS_BUFFERS
        ),
        case(NEAR_MISSES, ["?ead.*", "*.[0-9].*"], "near misses: ? and a set", NEAR_MISS_BUFFERS),
        # the rest of fnmatch's grammar: a negated set and a range (a pattern turned into a regex by hand reads
        # "[!0]" as "one of ! and 0")
        case(
            bert, ["bert.encoder.layer.[!0].*"], "BERT, a negated set: layers 1 to 9, not 0 nor 10 or 11", bert_buffers
        ),
        case(gpt2, ["transformer.h.[1-3].*", "score.*"], "GPT-2, a range in a set: blocks 1 to 3", gpt2_buffers),
        case(bert, ["classifier.*", "clasifier.*"], "BERT, a typo", bert_buffers),
        case(bert, ["*layernorm*"], "BERT, the case of LayerNorm wrong", bert_buffers),
        case(NEAR_MISSES, ["head"], "near misses: a module's name, not a parameter's", NEAR_MISS_BUFFERS),
        case(
            NEAR_MISSES,
            ["ead.weight", "norm.*"],
            "near misses: a part of a name matches no whole name",
            NEAR_MISS_BUFFERS,
        ),
        case(
            NEAR_MISSES,
            ["norm.*", "blocks.1.*"],
            "near misses beside BatchNorm's and a mask's buffers: 'norm.*' and 'blocks.1.*' name parameters only",
            NEAR_MISS_BUFFERS,
        ),
        case(gpt2, ["*.masked_bias"], "GPT-2, a pattern that names buffers only", gpt2_buffers),
        case(bert, ["classifier.*", "*position_ids"], "BERT, a pattern that names a buffer only", bert_buffers),
    ]
    # parameters of the model itself, beside its submodules' (corpus x: names joined by hand as module + "." + name
    # gave ".cls_token" for one of the root's)
    rooted = [*NEAR_MISSES, "cls_token", "pos_embed"]
    cases += [
        case(rooted, ["cls_token"], "parameters of the model itself: 'cls_token' is a whole name", NEAR_MISS_BUFFERS),
        case(rooted, ["pos_*", "head.*"], "parameters of the model itself: 'pos_*' matches one", NEAR_MISS_BUFFERS),
    ]
    # every dotted head and tail of a name that is no whole name, each alone beside a pattern that matches: a pattern
    # tried against a part of the name (corpus w: its last part, so that "bias" made every bias trainable) shows
    cases += [
        case(
            NEAR_MISSES,
            ["norm.*", part],
            f"near misses: {part!r}, a part of names, is no whole name",
            NEAR_MISS_BUFFERS,
        )
        for part in _name_parts(NEAR_MISSES)
    ]
    return run_cases("freeze_except", cases + contract_cases(FREEZE, student, g))


def _name_parts(names: list[str]) -> list[str]:
    """Every dotted head and tail of ``names`` (``blocks.1``, ``attn.weight``, ``weight``) that is no name itself."""
    parts = {".".join(pieces[i:]) for pieces in (n.split(".") for n in names) for i in range(1, len(pieces))}
    parts |= {".".join(pieces[:i]) for pieces in (n.split(".") for n in names) for i in range(1, len(pieces))}
    return sorted(parts - set(names))


def _judge_freeze(found: Any, args: tuple[Any, ...], where: str, size: Size) -> None:
    """What the driver saw after one call: what trains, the buffers, the count returned, or the ValueError."""
    shapes, _, patterns, _ = args
    names = list(shapes)
    unused = [p for p in patterns if not any(fnmatch.fnmatchcase(name, p) for name in names)]
    if unused and "named" not in found:
        raise CheckFailed(
            f"the pattern {unused[0]!r} matches no parameter name: freeze_except should raise ValueError ({where})"
        )
    if "named" in found:
        if not unused:
            raise CheckFailed(f"freeze_except raised ValueError, but every pattern matches a parameter ({where})")
        if not set(found["named"]) & set(unused):
            raise CheckFailed(
                "the ValueError should name the pattern that matches no parameter "
                f"({unused[0]!r}); its message does not ({where})"
            )
        return
    _expect_global_states_kept(found, "freeze_except", where)
    returned, trains, buffer_flags = found["returned"], found["trains"], found["buffers"]
    expected, count = _ref_freeze(shapes, patterns)
    wrong = [name for name in names if trains.get(name) != expected[name]]
    if wrong:
        name = wrong[0]
        state = "trainable" if expected[name] else "frozen"
        raise CheckFailed(
            f"{len(wrong)} parameter(s) wrongly frozen or trainable, {name!r} among "
            f"them: it should be {state} ({where})"
        )
    touched = [name for name, flag in buffer_flags.items() if flag]
    if touched:
        raise CheckFailed(
            f"the buffer {touched[0]!r} requires a gradient after freeze_except: buffers are not parameters "
            f"(model.named_parameters(), not state_dict()) ({where})"
        )
    if not isinstance(returned, int) or isinstance(returned, bool):
        raise CheckFailed(f"return the number of trainable numbers as a Python int, got {kind(returned)} ({where})")
    if returned != count:
        raise CheckFailed(f"returned {returned}, but the trainable parameters hold {count} numbers ({where})")


def _freeze_args(g: torch.Generator, size: Size) -> tuple[Any, ...]:
    """A GPT-2-named model of ``size.length`` blocks, half its parameters frozen beforehand, and patterns for
    the LayerNorms of blocks 1, 10 .. 19 and 100 .. 199 (at the long size, past any fixed list of names)."""
    names = _gpt2_names(size.length)
    return (
        _shapes(g, names),
        [name for name in names if _randint(g, 0, 2)],
        ["transformer.h.1*.ln_*", "score.*"],
        _gpt2_buffers(size.length),
    )


def _freeze_again(first: tuple[Any, ...], fresh: tuple[Any, ...], g: torch.Generator) -> list[tuple[Any, ...]]:
    """Every shape one larger in each dimension; then as many other parameters frozen beforehand (each
    argument keeps its size: a memo keyed by the number of parameters shows)."""
    shapes, frozen = first[0], first[1]
    names = list(shapes)
    shifted = [names[(names.index(name) + 1) % len(names)] for name in frozen]
    return [({n: tuple(k + 1 for k in s) for n, s in shapes.items()}, *first[1:]), (shapes, shifted, *first[2:])]


# Names past any fixed table of them (a model of 1,100 blocks, 13,200 parameters: past Python's recursion limit
# too); BERT's names beside its buffers.
FREEZE = Contract(
    "_grading_freeze",
    ("shapes", "frozen", "patterns", "buffers"),
    _freeze_args,
    None,
    base=Size((), 3),
    long=1100,
    verify=_judge_freeze,
    options=(("driver", DRIVERS),),
    again=_freeze_again,
    edges=(
        (
            "BERT, LayerNorms of layer 1 and the head",
            lambda g, size: (_shapes(g, _bert_names(12)), [], ["*.1.*LayerNorm*", "classifier.*"], _bert_buffers()),
        ),
        # a pattern matches what it matches whatever the others match: one whose every parameter an earlier pattern
        # matches too matches something all the same (corpus r: each parameter credited to its first pattern)
        (
            "overlapping patterns: every parameter the second matches, the first matches too",
            lambda g, size: (
                _shapes(g, _gpt2_names(size.length)),
                [],
                ["*", "score.*"],
                _gpt2_buffers(size.length),
            ),
        ),
        (
            "overlapping patterns: the second within the first, the first not everything",
            lambda g, size: (
                _shapes(g, _gpt2_names(size.length)),
                [],
                ["*.bias", "transformer.h.0.ln_1.bias"],
                _gpt2_buffers(size.length),
            ),
        ),
        # a list holds what it holds: a pattern given twice matches its one parameter twice (corpus t: one
        # occurrence crossed off per matched parameter left the second unmatched), and a parameter with no elements
        # is matched like any other (corpus t: "matches nothing" judged by the count of elements it unfroze)
        (
            "one pattern twice, matching one parameter",
            lambda g, size: (
                _shapes(g, _gpt2_names(size.length)),
                [],
                ["transformer.h.0.ln_1.weight", "score.weight", "transformer.h.0.ln_1.weight"],
                _gpt2_buffers(size.length),
            ),
        ),
        (
            "a pattern whose only parameter has no elements (the head of a model with 0 labels)",
            lambda g, size: (
                _shapes(g, _gpt2_names(size.length)) | {"score.weight": (0, 4)},
                [],
                ["transformer.ln_f.*", "score.*"],
                _gpt2_buffers(size.length),
            ),
        ),
    ),
)


# ------------------------------------------------------------------------ part 3: pooled head


def _mean_pooling(token_embeddings: Tensor, attention_mask: Tensor) -> Tensor:
    """sentence-transformers' mean_pooling (all-MiniLM-L6-v2's model card), in the embeddings' dtype."""
    input_mask_expanded = attention_mask.unsqueeze(-1).expand(token_embeddings.size()).to(token_embeddings.dtype)
    return torch.sum(token_embeddings * input_mask_expanded, 1) / torch.clamp(input_mask_expanded.sum(1), min=1e-9)


def _ref_classify(hidden: Tensor, mask: Tensor, weight: Tensor, bias: Tensor, pooling: str) -> Tensor:
    """The head's logits in float64 on the pooled hidden states."""
    if pooling == "cls":
        pooled = hidden[:, 0]
    elif pooling == "mean":
        pooled = _mean_pooling(hidden, mask)
    else:
        pooled = hidden[torch.arange(hidden.shape[0]), mask.sum(1) - 1]
    return pooled @ weight.T + bias


def _classify_args(pooling: str) -> Callable[[torch.Generator, Size], tuple[Any, ...]]:
    def make(g: torch.Generator, size: Size) -> tuple[Any, ...]:
        B, T, d, C = size.lead[0], size.length, 6, 4
        lengths = torch.randint(1, T + 1, (B,), generator=g)
        lengths[0], lengths[-1] = T, 1
        mask = (torch.arange(T)[None, :] < lengths[:, None]).long()
        hidden = torch.where(
            mask[..., None].bool(), torch.randn(B, T, d, generator=g), 1000 * torch.randn(B, T, d, generator=g)
        )
        weight, bias = torch.randn(C, d, generator=g) / math.sqrt(d), torch.randn(C, generator=g)
        return hidden.to(size.dtype), mask, weight.to(size.dtype), bias.to(size.dtype), pooling

    return make


# Each pooling at 1,100 positions and a batch of 1,100, and its gradients with respect to the hidden states, the
# weight and the bias (contracts.py); the padding's hidden states are about 1000, so the tolerance is
# scaled as the part's own (TOL) is.
CLASSIFY = [
    Contract(
        "classify",
        ("hidden", "attention_mask", "weight", "bias", "pooling"),
        _classify_args(pooling),
        _ref_classify,
        base=Size((3,), 5),
        leads=((1100,),),
        long=1100,
        differentiable=(0, 2, 3),
        scale=10.0,
    )
    for pooling in ("cls", "mean", "last")
]


def check_pooled_head(notebook: Student | dict[str, Any]) -> str | None:
    """``classify(hidden, attention_mask, weight, bias, pooling)``: logits (inputs left as they
    were), then on hidden states and a weight that require a gradient, the logits' gradients."""
    g = fresh_generator()
    student = as_student(notebook)

    def case(B: int, T: int, d: int, C: int, pooling: str, label: str) -> Callable[[], None]:
        def run() -> None:
            lengths = torch.randint(1, T + 1, (B,), generator=g)
            lengths[0] = T
            if B > 1:
                lengths[-1] = 1
            mask = (torch.arange(T)[None, :] < lengths[:, None]).long()
            hidden = torch.randn(B, T, d, generator=g)
            # what the encoder wrote at the padding
            hidden = torch.where(mask[..., None].bool(), hidden, 1000 * torch.randn(B, T, d, generator=g))
            weight, bias = torch.randn(C, d, generator=g) / math.sqrt(d), torch.randn(C, generator=g)
            where = (
                f"{label}: pooling {pooling!r}, "
                + describe(hidden=hidden, weight=weight)
                + f", real lengths {lengths.tolist()}"
            )
            h, w = hidden.double().requires_grad_(True), weight.double().requires_grad_(True)
            expected = _ref_classify(h, mask, w, bias.double(), pooling)
            inputs = {"hidden": hidden, "attention_mask": mask, "weight": weight, "bias": bias}
            # no gradient asked: an in-place change can happen, and shows
            plain = student.call("classify", (hidden, mask, weight, bias, pooling))
            expect_unchanged(inputs, dict(zip(inputs, plain.inputs_after)), where)
            expect_close(plain.value, expected, "the head's output (the logits)", where, **TOL)
            reply = student.call("classify", (hidden, mask, weight, bias, pooling), grad_args=(0, 2))
            expect_close(
                reply.value,
                expected,
                "the head's output (the logits) on hidden states that require a gradient",
                where,
                **TOL,
            )
            failure = (
                "the logits do not depend differentiably on the hidden states and the head's weight: the head "
                "could not be trained"
            )
            grad_h, grad_w = expect_gradients(reply, failure, where, count=2)
            ref_h, ref_w = torch.autograd.grad((expected * _probe(expected)).sum(), (h, w))
            expect_close(grad_h, ref_h, "the gradient with respect to the hidden states", where, **TOL)
            expect_close(grad_w, ref_w, "the gradient with respect to the head's weight", where, **TOL)

        return run

    def unknown() -> None:
        hidden, mask = torch.randn(2, 3, 4, generator=g), torch.ones(2, 3, dtype=torch.long)
        for pooling in ("max", "first", "CLS"):
            try:
                student.call("classify", (hidden, mask, torch.randn(2, 4, generator=g), torch.zeros(2), pooling))
            except StudentRaised as error:
                if error.type_name == "ValueError":
                    continue
                raise
            raise CheckFailed(
                f"pooling={pooling!r} is none of 'cls', 'mean' and 'last': classify should raise ValueError"
            )

    cases = []
    for pooling in ("cls", "mean", "last"):
        cases += [
            case(4, 7, 5, 3, pooling, "rows of different lengths"),
            case(1, 1, 3, 2, pooling, "one token"),
            case(_randint(g, 2, 7), _randint(g, 2, 12), _randint(g, 1, 20), _randint(g, 2, 9), pooling, "random sizes"),
        ]
    cases.append(unknown)
    return run_cases(
        "classify", cases + [case for contract in CLASSIFY for case in contract_cases(contract, student, g)]
    )


# ------------------------------------------------------------------------- part 4: probe step


def _ref_probe_steps(
    weight: Tensor,
    bias: Tensor,
    optimizer: str,
    settings: dict[str, float],
    batches: list[tuple[Tensor, Tensor, bool]],
    dtype: torch.dtype = torch.float64,
    loss_of: Callable[[Tensor, Tensor], Tensor] = F.cross_entropy,
) -> list[tuple[float, Tensor, Tensor]]:
    """torch.optim's ``optimizer`` training a copy of the probe in ``dtype`` (float64: the exact answer; float32:
    one float32 answer), the mean cross-entropy computed by ``loss_of(logits, labels)``: (loss before, weight, bias)
    after each step."""
    probe = torch.nn.Linear(weight.shape[1], weight.shape[0], dtype=dtype)
    with torch.no_grad():
        probe.weight.copy_(weight)
        probe.bias.copy_(bias)
    opt = getattr(torch.optim, optimizer)(probe.parameters(), **settings)
    steps = []
    for features, labels, _ in batches:
        opt.zero_grad()
        loss = loss_of(probe(features.to(dtype)), labels)
        loss.backward()
        opt.step()
        steps.append((loss.item(), probe.weight.detach().clone(), probe.bias.detach().clone()))
    return steps


def _losses(steps: list[tuple[float, Tensor, Tensor]]) -> Tensor:
    """The loss before each step, as one float64 tensor (n_steps,)."""
    return torch.tensor([loss for loss, _, _ in steps], dtype=torch.float64)


def _lse_loss(logits: Tensor, labels: Tensor) -> Tensor:
    """The mean cross-entropy written as log-sum-exp minus the label's logit: right, and in float32 less exact
    than ``F.cross_entropy`` where logits are large (the log-sum-exp is rounded at their scale)."""
    return (logits.logsumexp(-1) - logits.gather(-1, labels[:, None])[:, 0]).mean()


def _expect_loss(returned: Any, loss: float, case: str, spread: float) -> None:
    """The returned loss: a Python float within 1e-5 + 1e-5 |loss| of the float64 reference, or within
    ``CONDITIONING`` times ``spread`` (how far float32 losses of right answers move from it, :func:`float32_spread`)."""
    if not isinstance(returned, float):
        raise CheckFailed(f"return the loss as a Python float (loss.item()), got {kind(returned)} ({case})")
    if abs(returned - loss) > max(1e-5 + 1e-5 * abs(loss), CONDITIONING * spread):
        raise CheckFailed(f"returned {returned:.6g}, but the mean cross-entropy before the step is {loss:.6g} ({case})")


def check_probe_step(notebook: Student | dict[str, Any]) -> str | None:
    """``probe_step(probe, optimizer, features, labels)``, three calls in a row on one probe and
    optimizer, the probe's ``.grad`` holding stale gradients before the first: the loss, the step,
    and the caller's features (some a leaf that requires a gradient, some the output of a graph)
    neither reached by a gradient nor changed."""
    g = fresh_generator()
    student = as_student(notebook)

    def case(
        B: int,
        d: int,
        C: int,
        optimizer: str,
        settings: dict[str, float],
        label: str,
        needs_grad: bool = False,
        scale: float = 1.0,
    ) -> Callable[[], None]:
        def run() -> None:
            weight, bias = torch.randn(C, d, generator=g) / math.sqrt(d), 0.1 * torch.randn(C, generator=g)
            # how the caller holds each batch's features
            kinds = ("leaf", "plain", "graph") if needs_grad else ("plain",) * 3
            batches = [
                (scale * torch.randn(B, d, generator=g), torch.randint(0, C, (B,), generator=g), kind) for kind in kinds
            ]
            # gradients left in .grad by earlier work
            stale = (torch.randn(C, d, generator=g), torch.randn(C, generator=g))
            setting = ", ".join(f"{k}={v:g}" for k, v in settings.items())
            where = (
                f"{label}: probe nn.Linear({d}, {C}) with gradients already in .grad, "
                f"torch.optim.{optimizer}({setting}), batches of {B}"
            )
            args = (weight, bias, optimizer, settings, batches, stale)
            _judge_probe_steps(
                student.call("_grading_probe_steps", args, driver=DRIVERS).value, args, where, PROBE.base
            )

        return run

    cases = [
        case(16, 7, 3, "SGD", {"lr": 0.5}, "plain SGD"),
        case(
            9,
            5,
            4,
            "SGD",
            {"lr": 0.1, "momentum": 0.9, "weight_decay": 0.01},
            "SGD with momentum and weight decay",
            needs_grad=True,
        ),
        case(12, 6, 5, "Adam", {"lr": 0.02, "eps": 1e-3}, "Adam"),
        case(5, 11, 2, "AdamW", {"lr": 0.02, "eps": 1e-3, "weight_decay": 0.1}, "AdamW, two classes", needs_grad=True),
        case(1, 4, 3, "SGD", {"lr": 1.0}, "one example per batch", needs_grad=True),
        case(8, 16, 5, "SGD", {"lr": 0.01}, "features of scale 10: a gradient norm far above 1", scale=10.0),
        case(
            _randint(g, 2, 40),
            _randint(g, 1, 20),
            _randint(g, 2, 10),
            "SGD",
            {"lr": 0.3},
            "random sizes, large features",
            needs_grad=True,
            scale=5.0,
        ),
    ]
    return run_cases("probe_step", cases + contract_cases(PROBE, student, g))


def _judge_probe_steps(steps: Any, args: tuple[Any, ...], where: str, size: Size) -> None:
    """Three calls in a row: each loss returned, the caller's features kept and reached by no gradient,
    the probe after each step against PyTorch's optimizer stepping a copy."""
    weight, bias, optimizer, settings, batches, _ = args
    expected = _ref_probe_steps(weight, bias, optimizer, settings, batches)
    # features 1,000 times larger make a gradient entry that nearly cancels over the batch flip Adam's step: the
    # weights may be off by more than TOL in any float32 answer (the key's was 1.02e-4 off in 1 run of 90, corpus p).
    # Most of it is rounding inside float32, which depends on how the loss is written: softmax - one-hot where a
    # probability is within 1e-5 of 1 (the key 1.3e-4 off where the inputs' rounding moved the answer by 1.3e-5,
    # avx2 kernels, CI of stop 65), or a log-sum-exp of 1,500 rounded to 1e-4 (0.013 off): both ways count
    spread = float32_spread(
        lambda *a: _ref_probe_steps(*a[:5]),
        args,
        expected,
        in_float32=[lambda *a, f=f: _ref_probe_steps(*a[:5], torch.float32, f) for f in (F.cross_entropy, _lse_loss)],
    )
    tol = {"atol": max(TOL["atol"], CONDITIONING * spread), "rtol": TOL["rtol"]}
    # the losses on their own scale: before the second and third calls they carry the first steps' float32 error
    # times the features (1,000 times larger: a right answer's loss of 1,051 was 0.84 off, 1 batch of 300 at length 1)
    loss_spread = float32_spread(
        lambda *a: _losses(_ref_probe_steps(*a[:5])),
        args,
        _losses(expected),
        in_float32=[
            lambda *a, f=f: _losses(_ref_probe_steps(*a[:5], torch.float32, f)) for f in (F.cross_entropy, _lse_loss)
        ],
    )
    if not isinstance(steps, list) or len(steps) != len(expected):
        raise CheckFailed(f"the driver got no steps back ({where})")
    _expect_global_states_kept(steps[-1], "probe_step", where)
    for i, (step, (loss, w, b), batch) in enumerate(zip(steps, expected, batches)):
        at = (
            f"{where}, call {i + 1} of 3"
            + {
                "plain": "",
                "leaf": ", features a leaf that requires a gradient",
                "graph": ", features computed from a tensor that requires a gradient",
            }[batch[2]]
        )
        _expect_loss(step["returned"], loss, at, loss_spread)
        if not step["features_kept"]:
            raise CheckFailed(
                "probe_step changed the caller's features (their values, requires_grad or graph: detach_(), "
                f"requires_grad_(False)); features.detach() gives a new tensor and leaves them as they are ({at})"
            )
        if step["features_grad"]:
            raise CheckFailed(
                f"a gradient flowed into the cached features (or what they were computed from): detach them ({at})"
            )
        expect_close(step["weight"], w, "the probe's weight after the step", at, **tol)
        expect_close(step["bias"], b, "the probe's bias after the step", at, **tol)


def _probe_args(g: torch.Generator, size: Size) -> tuple[Any, ...]:
    """A probe nn.Linear(6, 4) with stale gradients, Adam, three batches of ``size.length`` examples (a leaf
    that requires a gradient, plain, computed from one that does)."""
    weight, bias = torch.randn(4, 6, generator=g) / math.sqrt(6), 0.1 * torch.randn(4, generator=g)
    batches = [
        (torch.randn(size.length, 6, generator=g), torch.randint(0, 4, (size.length,), generator=g), kind)
        for kind in ("leaf", "plain", "graph")
    ]
    return (
        weight,
        bias,
        "Adam",
        {"lr": 0.02, "eps": 1e-3},
        batches,
        (torch.randn(4, 6, generator=g), torch.randn(4, generator=g)),
    )


# A protocol of three steps on one optimizer (its state carried from step to step); a batch past any fixed buffer.
PROBE = Contract(
    "_grading_probe_steps",
    ("weight", "bias", "optimizer", "settings", "batches", "stale"),
    _probe_args,
    None,
    base=Size((), 8),
    long=1100,
    verify=_judge_probe_steps,
    options=(("driver", DRIVERS),),
    same_objects=False,  # the driver judges each call's global random state against the call's own seed
    # logits of order 1,000: a wrong class's softmax underflows float32 to 0, so log(softmax(...)) gives an
    # infinite loss and NaN weights where cross-entropy computed as log-softmax stays finite
    extremes=(
        (
            "features 1,000 times larger",
            lambda a: (*a[:4], [(features * 1000, labels, kind) for features, labels, kind in a[4]], a[5]),
            1.0,
        ),
    ),
    grad_modes=(),  # the driver trains (a backward pass, optimizer steps): it needs autograd on
)


# --------------------------------------------------------------------------- part 5: adapter


def _ref_adapter(x: Tensor, weights: dict[str, Tensor], approximate: str) -> Tensor:
    """x + up(GELU(down(x))) in float64."""
    w = {name: value.double() for name, value in weights.items()}
    hidden = F.gelu(x.double() @ w["down.weight"].T + w["down.bias"], approximate=approximate)
    return x.double() + hidden @ w["up.weight"].T + w["up.bias"]


def _adapter_expected(
    xs: list[Tensor], weights: dict[str, Tensor], approximate: str
) -> tuple[list[Tensor], tuple[Tensor, ...]]:
    """The inputs' outputs, and the gradients of the first's probe (the input's, then each weight's), under one GELU."""
    x0 = xs[0].double().requires_grad_(True)
    w = {name: value.double().requires_grad_(True) for name, value in weights.items()}
    out = _ref_adapter(x0, w, approximate)
    return [_ref_adapter(x, weights, approximate) for x in xs], torch.autograd.grad(
        (out * _probe(out)).sum(), [x0, *w.values()]
    )


def _adapter_gelu(reply: dict[str, Any], xs: list[Tensor], weights: dict[str, Tensor]) -> str:
    """Which GELU the answer computes ("none" when neither fits): the one every output and gradient it gave
    fits, never one value alone (where the two GELUs agree to float32's last bits, one value cannot tell
    them apart, and a choice made on it failed a right answer, 5.7e-4 off)."""

    def matches(approximate: str) -> bool:
        outs, refs = _adapter_expected(xs, weights, approximate)
        got = [*reply["outs"], reply.get("grad_x"), *(reply.get("grads", {}).get(name) for name in weights)]
        return all(
            isinstance(a, Tensor) and a.shape == b.shape and torch.allclose(a.double(), b, **TOL)
            for a, b in zip(got, [*outs, *refs])
        )

    return next((a for a in ("none", "tanh") if matches(a)), "none")  # the exact GELU or its tanh approximation


def _expect_adapter_gradients(
    reply: dict[str, Any], xs: list[Tensor], weights: dict[str, Tensor], approximate: str, case: str
) -> None:
    """The gradients of the first input's probe, with respect to the input and every parameter."""
    refs = _adapter_expected(xs, weights, approximate)[1]
    expect_close(
        _expect_gradient(reply.get("grad_x"), "the input", case),
        refs[0],
        "the gradient with respect to the input",
        case,
        **TOL,
    )
    for name, ref in zip(weights, refs[1:]):
        expect_close(
            _expect_gradient(reply.get("grads", {}).get(name), name, case),
            ref,
            f"the gradient with respect to {name}",
            case,
            **TOL,
        )


def _adapter_args(g: torch.Generator, size: Size) -> tuple[Any, ...]:
    """Adapter(10, 4) with random weights, two inputs of leading dimensions ``size.lead``."""
    weights = {
        "down.weight": torch.randn(4, 10, generator=g) / math.sqrt(10),
        "down.bias": 0.5 * torch.randn(4, generator=g),
        "up.weight": torch.randn(10, 4, generator=g) / 2,
        "up.bias": 0.5 * torch.randn(10, generator=g),
    }
    return 10, 4, weights, [torch.randn(*size.lead, 10, generator=g) for _ in range(2)]


def _judge_adapter(found: Any, args: tuple[Any, ...], where: str, size: Size) -> None:
    """The outputs of an adapter with weights set, and the gradients of the first one's probe."""
    _, _, weights, xs = args
    _expect_global_states_kept(found, "forward", where)
    if not all(found["inputs_kept"]):
        raise CheckFailed(
            "forward changed its input x in place (x += ... or an in-place op on x): return x + up(GELU(down(x))), a "
            f"new tensor, and leave x as it was ({where})"
        )
    approximate = _adapter_gelu(found, xs, weights)
    for i, (ref, out) in enumerate(zip(_adapter_expected(xs, weights, approximate)[0], found["outs"])):
        expect_close(out, ref, f"the output for input {i + 1}", where, **TOL)
    # without autograd, after its weights changed in place since an earlier such forward: what a memo shows
    for i, (ref, out) in enumerate(zip(_adapter_expected(xs, weights, approximate)[0], found["no_grad_outs"])):
        what = f"the output for input {i + 1} under torch.no_grad(), weights changed since"
        expect_close(out, ref, what, where, **TOL)
    _expect_adapter_gradients(found, xs, weights, approximate, where)


# x of shape (..., d_model): one vector with no batch, one row, several leading dimensions, a
# non-contiguous view (the spec says so: flattening with .view fails on one).
ADAPTER = Contract(
    "_grading_adapter_run",
    ("d_model", "bottleneck", "weights", "xs"),
    _adapter_args,
    None,
    base=Size((5,), 0),
    leads=((), (1,), (2, 3, 4)),
    views=Size((2, 3, 4), 0),
    verify=_judge_adapter,
    # no case of MANY_ROWS: the drivers reply with gradients summed over the rows and the GELU's form is read from
    # the outputs (at 8,192 rows a right adapter's read fails); a module's forward has no batch to cut into chunks
    rows=False,
    options=(("driver", DRIVERS),),
    grad_modes=(),  # the driver trains (a backward pass, optimizer steps): it needs autograd on
)


def check_adapter(notebook: Student | dict[str, Any]) -> str | None:
    """``Adapter(d_model, bottleneck)``: fresh (its layers, what trains, down's initial law, read
    on a fresh Adapter(d_model, LAW_DRAW) beside each case, up at zero, the identity, a new tensor),
    then with weights copied in: the input left as it was, outputs and gradients, either GELU."""
    g = fresh_generator()
    student = as_student(notebook)

    def case(d: int, m: int, lead: tuple[int, ...], label: str) -> Callable[[], None]:
        def run() -> None:
            xs = [torch.randn(*lead, d, generator=g) for _ in range(2)]
            where = f"{label}: Adapter(d_model={d}, bottleneck={m}), x {tuple(xs[0].shape)}"
            fresh = student.call("_grading_adapter_fresh", (d, m, xs[0]), driver=DRIVERS).value
            if not all(fresh["linear"]):
                raise CheckFailed(f"down and up should be nn.Linear layers ({where})")
            shapes = {"down.weight": [m, d], "down.bias": [m], "up.weight": [d, m], "up.bias": [d]}
            if fresh["shapes"] != shapes:
                got = ", ".join(f"{name} {tuple(shape)}" for name, shape in fresh["shapes"].items())
                raise CheckFailed(
                    f"the adapter's parameters should be down.weight ({m}, {d}), down.bias ({m},), up.weight ({d}, "
                    f"{m}), up.bias ({d},): down from d_model to the bottleneck, up back; got {got} ({where})"
                )
            if not all(fresh["requires_grad"].values()):
                raise CheckFailed(f"every parameter of the adapter should be trainable ({where})")
            if int(torch.count_nonzero(fresh["up.weight"])) or int(torch.count_nonzero(fresh["up.bias"])):
                raise CheckFailed(
                    f"up's weight and bias should start at zero, so that the adapter starts as the identity ({where})"
                )
            if not int(torch.count_nonzero(fresh["down.weight"])):
                raise CheckFailed(
                    "down's weight should keep nn.Linear's random initialisation: at zero, neither projection "
                    f"would get a gradient ({where})"
                )
            if not int(torch.count_nonzero(fresh["down.bias"])):
                raise CheckFailed(
                    "down's bias should keep nn.Linear's random initialisation (uniform between -1/sqrt(d_model) and "
                    f"1/sqrt(d_model)), not zero ({where})"
                )
            rule = "nn.Linear's default: uniform between -1/sqrt(d_model) and 1/sqrt(d_model)"
            _expect_uniform(fresh["down.weight"], 1 / math.sqrt(d), "down's initial weights", rule, where)
            again = student.call("_grading_adapter_fresh", (d, m, xs[0]), driver=DRIVERS).value
            _expect_fresh_draws(fresh["down.weight"], again.get("down.weight"), "down's initial weight", where)
            _expect_uniform(fresh["down.bias"], 1 / math.sqrt(d), "down's initial biases", rule, where)
            if m < LAW_MIN:  # too few biases for their law: a fresh adapter of a wider bottleneck beside it
                big = student.call("_grading_adapter_fresh", (d, LAW_DRAW, xs[0]), driver=DRIVERS).value
                beside = f"{where}; down's law read on a fresh Adapter(d_model={d}, bottleneck={LAW_DRAW}) beside it"
                down = {name: big["shapes"].get(name) for name in ("down.weight", "down.bias")}
                if not all(big["linear"]) or down != {"down.weight": [LAW_DRAW, d], "down.bias": [LAW_DRAW]}:
                    raise CheckFailed(f"down should be nn.Linear(d_model, bottleneck) for every bottleneck ({beside})")
                rows = math.ceil(LAW_DRAW / d)  # as many weights as the other law tests read: its first rows
                _expect_uniform(big["down.weight"][:rows], 1 / math.sqrt(d), "down's initial weights", rule, beside)
                _expect_uniform(big["down.bias"], 1 / math.sqrt(d), "down's initial biases", rule, beside)
            if fresh["returned_input"]:
                raise CheckFailed(
                    "forward returned its input x itself (changed in place, as x += ... does): return x + "
                    f"up(GELU(down(x))), a new tensor ({where})"
                )
            expect_close(
                fresh["out"], xs[0].double(), "the fresh adapter's output (the identity)", where, atol=1e-6, rtol=0
            )
            # the gradients at the start (up at zero): up's are not zero, else training never leaves the identity
            # (an adapter that returns x while up is zero computes the same outputs)
            start, at_start = (
                {name: fresh[name] for name in ("down.weight", "down.bias", "up.weight", "up.bias")},
                where + ", the fresh adapter (up at zero)",
            )
            _expect_adapter_gradients(
                fresh,
                [xs[0]],
                start,
                _adapter_gelu(fresh | {"outs": [fresh["out"]]}, [xs[0]], start),
                at_start,
            )

            weights = {"down.weight": torch.randn(m, d, generator=g) / math.sqrt(d),
                       "down.bias": 0.5 * torch.randn(m, generator=g),
                       "up.weight": torch.randn(d, m, generator=g) / math.sqrt(m),
                       "up.bias": 0.5 * torch.randn(d, generator=g)}  # fmt: skip
            trained = where + ", random weights copied in"
            reply = student.call("_grading_adapter_run", (d, m, weights, xs), driver=DRIVERS).value
            _expect_global_states_kept(reply, "forward", trained)
            if not all(reply["inputs_kept"]):
                raise CheckFailed(
                    "forward changed its input x in place (x += ... or an in-place op on x): return x + "
                    f"up(GELU(down(x))), a new tensor, and leave x as it was ({trained})"
                )
            approximate = _adapter_gelu(reply, xs, weights)
            outs, refs = _adapter_expected(xs, weights, approximate)
            for i, (ref, out) in enumerate(zip(outs, reply["outs"])):
                expect_close(out, ref, f"the output for input {i + 1}", trained, **TOL)
            _expect_adapter_gradients(reply, xs, weights, approximate, trained)

        return run

    cases = [
        case(12, 3, (2, 5), "a batch of sequences"),
        case(7, 1, (4,), "a bottleneck of 1"),
        case(32, 8, (3, 2), "d_model 32"),
        case(5, 9, (6,), "a bottleneck wider than d_model"),
        case(64, 32, (2, 3), "a wide adapter: down's law over its own 2,048 weights"),
        case(_randint(g, 2, 40), _randint(g, 1, 12), (_randint(g, 1, 5), _randint(g, 1, 5)), "random sizes"),
    ]
    return run_cases("Adapter", cases + contract_cases(ADAPTER, student, g))


# The hidden check of each test cell, by the cell's grade id (course grade runs them outside the kernel).
CHECKS: dict[str, Callable[[Student], str | None]] = {
    "test_lora_linear": check_lora_linear,
    "test_freeze_except": check_freeze_except,
    "test_pooled_head": check_pooled_head,
    "test_probe_step": check_probe_step,
    "test_adapter": check_adapter,
}
