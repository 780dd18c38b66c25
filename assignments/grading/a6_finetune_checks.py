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
  B exactly zero, A within +-1/sqrt(in_features) and, in law, uniform there (z-tests at 7 standard
  errors on the mean and the mean square), as ``kaiming_uniform_(a=sqrt(5))`` draws it and peft
  does (checked on peft's fresh layers);
* part 2: the names a pattern matches are ``fnmatch.fnmatchcase``'s (the standard library itself);
  the models are named as BERT and GPT-2 name theirs in ``transformers``, and with near misses
  (``pre_head``, ``blocks.11`` beside ``blocks.1``) that substring and regex matching get wrong;
* part 3: the three poolings in float64, the mean as sentence-transformers' ``mean_pooling``;
  checked equal to the function in all-MiniLM-L6-v2's model card (shipped with its weights);
* part 4: ``torch.optim``'s own optimizers stepping a float64 copy of the probe (SGD, SGD with
  momentum and weight decay, Adam, AdamW; Adam's ``eps`` set to 1e-3, so that where it divides by
  a gradient near zero, float32's rounding of that gradient moves the update by at most lr / eps
  times it, about 1e-6; checked on many float32 steps);
* part 5: the adapter in float64, with the exact GELU or its tanh approximation (the one closer to
  the answer), checked against ``nn.Linear`` and ``nn.GELU`` modules.

A correct answer fails a statistical test with probability below 1e-9 per grading run (each z-test
at 7 standard errors of a mean of at least 24 bounded draws; 12 of them).
"""

from __future__ import annotations

import fnmatch
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from course_grading.calls import Opaque, Student, StudentRaised
from course_grading.shortcuts import STANDARD_IMPORTS, Rules
from gradinglib import CheckFailed, as_student, describe, expect_close, expect_tensor, expect_unchanged, fresh_generator, run_cases
from torch import Tensor

REFERENCE_PARTS = Path(__file__).with_name("a6_finetune_reference_parts.py").read_text()
DRIVERS = Path(__file__).with_name("a6_finetune_drivers.py").read_text()
# Not a fine-tuning library (peft, transformers, loralib, adapters, ...): every part imports only
# from the standard allow-list, and nothing by a computed name; read by the grader from the
# submitted source (course_grading.shortcuts), a part that may break this is held for review.
SHORTCUTS = {part: Rules(imports=STANDARD_IMPORTS) for part in ("lora_linear", "freeze_except", "pooled_head", "probe_step", "adapter")}
SIGMAS = 7.0


def _randint(g: torch.Generator, low: int, high: int) -> int:
    """An int in [low, high)."""
    return int(torch.randint(low, high, (1,), generator=g))


def _kind(value: Any) -> str:
    return value.type_name if isinstance(value, Opaque) else type(value).__name__


def _probe(out: Tensor) -> Tensor:
    """The drivers' probe weights (float32, as they make them) in float64."""
    return torch.linspace(-1, 1, out.numel()).view(out.shape).double()


def _expect_z(observed: float, expected: float, variance: float, what: str, case: str) -> None:
    if abs(observed - expected) > SIGMAS * math.sqrt(variance):
        raise CheckFailed(f"{what}: {observed:.4g}, where a correct answer gives {expected:.4g} +- {SIGMAS * math.sqrt(variance):.2g} ({case})")


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


def _ref_lora_grads(weight: Tensor, bias: Tensor | None, A: Tensor, B: Tensor, alpha: float, x: Tensor) -> tuple[Tensor, Tensor]:
    """The gradients of probe . output with respect to A and B (float64 autograd)."""
    a, b = A.double().requires_grad_(True), B.double().requires_grad_(True)
    out = _ref_lora(weight, bias, a, b, alpha, x)
    grad_a, grad_b = torch.autograd.grad((out * _probe(out)).sum(), (a, b))
    return grad_a, grad_b


def _ref_merged(weight: Tensor, A: Tensor, B: Tensor, alpha: float) -> Tensor:
    """The merged weight: W + (alpha / r) B A."""
    return weight.double() + alpha / A.shape[0] * B.double() @ A.double()


def _expect_lora_init(A: Any, B: Any, r: int, n_in: int, n_out: int, case: str) -> None:
    """B exactly zero; A within +-1/sqrt(in_features) and uniform there (mean 0, mean square bound^2 / 3)."""
    A = expect_tensor(A, (r, n_in), "A (r, in_features)", case)
    B = expect_tensor(B, (n_out, r), "B (out_features, r)", case)
    if not int(torch.count_nonzero(A)):
        raise CheckFailed(f"A should start random, not at zero: with A and B both at zero neither would get a gradient ({case})")
    if int(torch.count_nonzero(B)):
        raise CheckFailed(f"B should start at zero, so that the layer starts as the pretrained one; {int(torch.count_nonzero(B))} of its entries are not ({case})")
    bound = 1 / math.sqrt(n_in)
    values = A.double().flatten()
    if not bool(torch.isfinite(values).all()) or float(values.abs().max()) > bound * (1 + 1e-6):
        raise CheckFailed(f"A's initial values should lie between -1/sqrt(in_features) and 1/sqrt(in_features) = {bound:.4g} (kaiming_uniform_ with a=sqrt(5)); the largest is {float(values.abs().max()):.4g} ({case})")
    n = values.numel()
    what = f"the mean of A's {n} initial values"
    _expect_z(float(values.mean()), 0.0, bound**2 / 3 / n, what, case)
    _expect_z(float((values**2).mean()), bound**2 / 3, 4 * bound**4 / 45 / n, f"the mean square of A's {n} initial values (uniform between -1/sqrt(in_features) and 1/sqrt(in_features))", case)


def check_lora_linear(notebook: Student | dict[str, Any]) -> str | None:
    """``LoRALinear(base, r, alpha)``: fresh (what trains, A, B, output), then with A and B set:
    outputs, gradients, ``merge()`` once and twice."""
    g = fresh_generator()
    student = as_student(notebook)

    def case(n_in: int, n_out: int, r: int, alpha: float, with_bias: bool, lead: tuple[int, ...], label: str) -> Callable[[], None]:
        def run() -> None:
            weight = torch.randn(n_out, n_in, generator=g) / math.sqrt(n_in)
            bias = torch.randn(n_out, generator=g) if with_bias else None
            xs = [torch.randn(*lead, n_in, generator=g) for _ in range(2)]
            where = f"{label}: base nn.Linear({n_in}, {n_out}{'' if with_bias else ', bias=False'}), r={r}, alpha={alpha:g}, x {tuple(xs[0].shape)}"
            fresh = student.call("_grading_lora_fresh", (weight, bias, r, alpha, xs[0]), driver=DRIVERS).value
            if not fresh["kept"]:
                raise CheckFailed(f"keep base itself as self.base, not a copy: merge() must change the layer it was given ({where})")
            if fresh["are_parameters"] != ["Parameter", "Parameter"]:
                raise CheckFailed(f"A and B should be nn.Parameters (so that the optimizer sees them), got {', '.join(fresh['are_parameters'])} ({where})")
            trains = sorted(name for name, flag in fresh["requires_grad"].items() if flag)
            if trains != ["A", "B"]:
                raise CheckFailed(f"only A and B should be trainable (base frozen, weight and bias); trainable: {', '.join(trains) or 'nothing'} ({where})")
            expected_frozen = ["base.weight"] + (["base.bias"] if with_bias else [])
            missing = [name for name in expected_frozen if name not in fresh["requires_grad"]]
            if missing:
                raise CheckFailed(f"the layer's parameters should include base's, frozen: {', '.join(missing)} not found among {', '.join(fresh['requires_grad'])} ({where})")
            _expect_lora_init(fresh["A"], fresh["B"], r, n_in, n_out, where)
            zero_b = torch.zeros(n_out, r)
            expect_close(fresh["out"], _ref_lora(weight, bias, fresh["A"], zero_b, alpha, xs[0]), "the fresh layer's output (B = 0: base(x))", where, atol=1e-5, rtol=1e-4)

            A = torch.randn(r, n_in, generator=g) / math.sqrt(n_in)
            B = torch.randn(n_out, r, generator=g)
            trained = where + ", random A and B copied in"
            reply = student.call("_grading_lora_run", (weight, bias, r, alpha, A, B, xs), driver=DRIVERS).value
            for i, (x, out) in enumerate(zip(xs, reply["outs"])):
                expect_close(out, _ref_lora(weight, bias, A, B, alpha, x), f"the output for input {i + 1}", trained, atol=1e-4, rtol=1e-4)
            grad_a, grad_b = _ref_lora_grads(weight, bias, A, B, alpha, xs[0])
            expect_close(_expect_gradient(reply["grad_A"], "A", trained), grad_a, "the gradient with respect to A", trained, atol=1e-4, rtol=1e-4)
            expect_close(_expect_gradient(reply["grad_B"], "B", trained), grad_b, "the gradient with respect to B", trained, atol=1e-4, rtol=1e-4)
            if any(reply["base_grads"]):
                raise CheckFailed(f"a gradient reached base's weight or bias: they should be frozen ({trained})")
            merged = _ref_merged(weight, A, B, alpha)
            expect_close(reply["merged_weight"], merged, "base.weight after merge() (W + (alpha / r) B A)", trained, atol=1e-5, rtol=1e-4)
            if with_bias:
                expect_close(reply["merged_bias"], bias.double(), "base.bias after merge() (unchanged)", trained, atol=0, rtol=0)
            for i, x in enumerate(xs):
                expected = _ref_lora(weight, bias, A, B, alpha, x)
                expect_close(reply["base_outs"][i], expected, f"base alone after merge(), input {i + 1} (what the layer computed)", trained, atol=1e-4, rtol=1e-4)
                expect_close(reply["merged_outs"][i], expected, f"the layer's output after merge(), input {i + 1} (the update added once, in the weight)", trained, atol=1e-4, rtol=1e-4)
                expect_close(reply["twice_outs"][i], expected, f"the layer's output after a second merge(), input {i + 1}", trained, atol=1e-4, rtol=1e-4)
            expect_close(reply["twice_weight"], merged, "base.weight after a second merge() (unchanged by it)", trained, atol=1e-5, rtol=1e-4)

        return run

    cases = [
        case(37, 23, 4, 8.0, True, (5,), "a rectangular layer"),
        case(30, 40, 1, 1.0, False, (2, 3), "rank 1, no bias, a batch of sequences"),
        case(64, 64, 8, 16.0, True, (7,), "a square layer, alpha = 2 r"),
        case(24, 9, 3, 5.0, True, (2, 2, 2), "alpha / r = 5 / 3"),
        case(600, 5, 16, 32.0, False, (3,), "a wide layer: A's law over 9,600 values"),
        case(_randint(g, 24, 80), _randint(g, 2, 50), _randint(g, 1, 7), float(_randint(g, 1, 33)), bool(_randint(g, 0, 2)), (_randint(g, 1, 6),), "random sizes"),
    ]
    return run_cases("LoRALinear", cases)


# ----------------------------------------------------------------------- part 2: freeze_except


def _bert_names(n_layers: int) -> list[str]:
    """BertForSequenceClassification's parameter names in ``transformers``."""
    names = [f"bert.embeddings.{e}.weight" for e in ("word_embeddings", "position_embeddings", "token_type_embeddings")]
    names += ["bert.embeddings.LayerNorm.weight", "bert.embeddings.LayerNorm.bias"]
    for i in range(n_layers):
        for sub in ("attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense",
                    "attention.output.LayerNorm", "intermediate.dense", "output.dense", "output.LayerNorm"):  # fmt: skip
            names += [f"bert.encoder.layer.{i}.{sub}.weight", f"bert.encoder.layer.{i}.{sub}.bias"]
    return names + ["bert.pooler.dense.weight", "bert.pooler.dense.bias", "classifier.weight", "classifier.bias"]


def _gpt2_names(n_layers: int) -> list[str]:
    """GPT2ForSequenceClassification's parameter names in ``transformers``."""
    names = ["transformer.wte.weight", "transformer.wpe.weight"]
    for i in range(n_layers):
        for sub in ("ln_1", "attn.c_attn", "attn.c_proj", "ln_2", "mlp.c_fc", "mlp.c_proj"):
            names += [f"transformer.h.{i}.{sub}.weight", f"transformer.h.{i}.{sub}.bias"]
    return names + ["transformer.ln_f.weight", "transformer.ln_f.bias", "score.weight"]


NEAR_MISSES = [
    "head.weight", "head.bias", "pre_head.weight", "head_norm.weight", "heads.0.weight", "norm.weight", "norm.bias",
    "blocks.0.norm.weight", "blocks.1.attn.weight", "blocks.1.attn.bias", "blocks.11.attn.weight", "blocks.11.norm.bias",
    "encoder.blocks.1.attn.weight", "embed.weight", "Head.weight",
]  # fmt: skip


def _shapes(g: torch.Generator, names: list[str]) -> dict[str, tuple[int, ...]]:
    """A small shape for each name (a weight 2-D, anything else 1-D): the counts differ by name."""
    return {name: (_randint(g, 1, 5), _randint(g, 1, 4)) if name.endswith("weight") and _randint(g, 0, 3) else (_randint(g, 1, 7),) for name in names}


def _ref_freeze(shapes: dict[str, tuple[int, ...]], patterns: list[str]) -> tuple[dict[str, bool], int]:
    """Whether each parameter trains (its name matches a pattern, by fnmatchcase), and how many numbers train."""
    trains = {name: any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns) for name in shapes}
    return trains, sum(math.prod(shape) for name, shape in shapes.items() if trains[name])


def check_freeze_except(notebook: Student | dict[str, Any]) -> str | None:
    """``freeze_except(model, patterns)`` on models named as transformers names BERT and GPT-2 and
    on near misses, some parameters frozen beforehand."""
    g = fresh_generator()
    student = as_student(notebook)

    def case(names: list[str], patterns: list[str], label: str) -> Callable[[], None]:
        def run() -> None:
            shapes = _shapes(g, names)
            frozen = [name for name in names if _randint(g, 0, 2)]
            where = f"{label}: {len(names)} parameters, {len(frozen)} frozen beforehand, patterns {patterns}"
            unused = [p for p in patterns if not any(fnmatch.fnmatchcase(name, p) for name in names)]
            if unused:
                try:
                    student.call("_grading_freeze", (shapes, frozen, patterns), driver=DRIVERS)
                except StudentRaised as error:
                    if error.type_name == "ValueError":
                        return
                    raise
                raise CheckFailed(f"the pattern {unused[0]!r} matches no parameter name: freeze_except should raise ValueError ({where})")
            returned, trains = student.call("_grading_freeze", (shapes, frozen, patterns), driver=DRIVERS).value
            expected, count = _ref_freeze(shapes, patterns)
            wrong = [name for name in names if trains.get(name) != expected[name]]
            if wrong:
                name = wrong[0]
                state = "trainable" if expected[name] else "frozen"
                raise CheckFailed(f"{len(wrong)} parameter(s) wrongly frozen or trainable, {name!r} among them: it should be {state} ({where})")
            if not isinstance(returned, int) or isinstance(returned, bool):
                raise CheckFailed(f"return the number of trainable numbers as a Python int, got {_kind(returned)} ({where})")
            if returned != count:
                raise CheckFailed(f"returned {returned}, but the trainable parameters hold {count} numbers ({where})")

        return run

    n_bert, n_gpt = _randint(g, 11, 14), _randint(g, 2, 5)
    bert, gpt2 = _bert_names(n_bert), _gpt2_names(n_gpt)
    cases = [
        case(bert, ["classifier.*"], "BERT, a linear probe"),
        case(bert, ["*.bias", "classifier.*"], "BERT, BitFit (the classifier's bias matched twice)"),
        case(bert, ["*LayerNorm*", "classifier.*"], "BERT, LayerNorms and head"),
        case(bert, ["bert.encoder.layer.1.*", "classifier.weight"], f"BERT ({n_bert} layers), layer 1 only, not 10 or 11"),
        case(bert, ["*attention.self.query*", "*attention.self.value*"], "BERT, queries and values (LoRA's usual targets)"),
        case(bert, ["bert.encoder.layer.1[01].*", "bert.pooler.*"], "BERT, layers 10 and 11 and the pooler, a set in the pattern"),
        case(gpt2, ["score.*"], "GPT-2, a linear probe"),
        case(gpt2, ["transformer.h.?.ln_*", "transformer.ln_f.*", "score.weight"], "GPT-2, LayerNorms and head"),
        case(gpt2, ["*c_attn*", "*c_attn*"], "GPT-2, a pattern given twice"),
        case(gpt2, ["*"], "GPT-2, everything"),
        case(gpt2, [], "GPT-2, no pattern: everything frozen"),
        case(NEAR_MISSES, ["head.*"], "near misses: 'head.*' is not pre_head, head_norm, heads or Head"),
        case(NEAR_MISSES, ["norm.weight"], "near misses: the whole name, not a part of it"),
        case(NEAR_MISSES, ["blocks.1.*"], "near misses: blocks.1, not blocks.11 or encoder.blocks.1"),
        case(NEAR_MISSES, ["?ead.*", "*.[0-9].*"], "near misses: ? and a set"),
        case(bert, ["classifier.*", "clasifier.*"], "BERT, a typo"),
        case(bert, ["*layernorm*"], "BERT, the case of LayerNorm wrong"),
        case(NEAR_MISSES, ["head"], "near misses: a module's name, not a parameter's"),
        case(NEAR_MISSES, ["ead.weight", "norm.*"], "near misses: a part of a name matches no whole name"),
    ]
    return run_cases("freeze_except", cases)


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


def check_pooled_head(notebook: Student | dict[str, Any]) -> str | None:
    """``classify(hidden, attention_mask, weight, bias, pooling)``: logits and their gradients."""
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
            hidden = torch.where(mask[..., None].bool(), hidden, 1000 * torch.randn(B, T, d, generator=g))  # what the encoder wrote at the padding
            weight, bias = torch.randn(C, d, generator=g) / math.sqrt(d), torch.randn(C, generator=g)
            where = f"{label}: pooling {pooling!r}, " + describe(hidden=hidden, weight=weight) + f", real lengths {lengths.tolist()}"
            reply = student.call("classify", (hidden, mask, weight, bias, pooling), grad_args=(0, 2))
            h, w = hidden.double().requires_grad_(True), weight.double().requires_grad_(True)
            expected = _ref_classify(h, mask, w, bias.double(), pooling)
            expect_close(reply.value, expected, "the head's output (the logits)", where, atol=1e-5, rtol=1e-4)
            if not reply.differentiable or reply.grads is None or reply.grads[0] is None or reply.grads[1] is None:
                raise CheckFailed(f"the logits do not depend differentiably on the hidden states and the head's weight: the head could not be trained ({where})")
            ref_h, ref_w = torch.autograd.grad((expected * _probe(expected)).sum(), (h, w))
            expect_close(reply.grads[0], ref_h, "the gradient with respect to the hidden states", where, atol=1e-5, rtol=1e-4)
            expect_close(reply.grads[1], ref_w, "the gradient with respect to the head's weight", where, atol=1e-5, rtol=1e-4)
            expect_unchanged({"hidden": hidden, "attention_mask": mask, "weight": weight, "bias": bias}, dict(zip(("hidden", "attention_mask", "weight", "bias"), reply.inputs_after)), where)

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
            raise CheckFailed(f"pooling={pooling!r} is none of 'cls', 'mean' and 'last': classify should raise ValueError")

    cases = []
    for pooling in ("cls", "mean", "last"):
        cases += [
            case(4, 7, 5, 3, pooling, "rows of different lengths"),
            case(1, 1, 3, 2, pooling, "one token"),
            case(_randint(g, 2, 7), _randint(g, 2, 12), _randint(g, 1, 20), _randint(g, 2, 9), pooling, "random sizes"),
        ]
    cases.append(unknown)
    return run_cases("classify", cases)


# ------------------------------------------------------------------------- part 4: probe step


def _ref_probe_steps(weight: Tensor, bias: Tensor, optimizer: str, settings: dict[str, float], batches: list[tuple[Tensor, Tensor, bool]]) -> list[tuple[float, Tensor, Tensor]]:
    """torch.optim's ``optimizer`` training a float64 copy of the probe: (loss before, weight, bias) after each step."""
    probe = torch.nn.Linear(weight.shape[1], weight.shape[0], dtype=torch.float64)
    with torch.no_grad():
        probe.weight.copy_(weight)
        probe.bias.copy_(bias)
    opt = getattr(torch.optim, optimizer)(probe.parameters(), **settings)
    steps = []
    for features, labels, _ in batches:
        opt.zero_grad()
        loss = F.cross_entropy(probe(features.double()), labels)
        loss.backward()
        opt.step()
        steps.append((loss.item(), probe.weight.detach().clone(), probe.bias.detach().clone()))
    return steps


def check_probe_step(notebook: Student | dict[str, Any]) -> str | None:
    """``probe_step(probe, optimizer, features, labels)``, three calls in a row on one probe and optimizer."""
    g = fresh_generator()
    student = as_student(notebook)

    def case(B: int, d: int, C: int, optimizer: str, settings: dict[str, float], label: str, needs_grad: bool = False, scale: float = 1.0) -> Callable[[], None]:
        def run() -> None:
            weight, bias = torch.randn(C, d, generator=g) / math.sqrt(d), 0.1 * torch.randn(C, generator=g)
            batches = [(scale * torch.randn(B, d, generator=g), torch.randint(0, C, (B,), generator=g), needs_grad and step != 1) for step in range(3)]
            setting = ", ".join(f"{k}={v:g}" for k, v in settings.items())
            where = f"{label}: probe nn.Linear({d}, {C}), torch.optim.{optimizer}({setting}), batches of {B}"
            steps = student.call("_grading_probe_steps", (weight, bias, optimizer, settings, batches), driver=DRIVERS).value
            expected = _ref_probe_steps(weight, bias, optimizer, settings, batches)
            if not isinstance(steps, list) or len(steps) != len(expected):
                raise CheckFailed(f"the driver got no steps back ({where})")
            for i, (step, (loss, w, b), batch) in enumerate(zip(steps, expected, batches)):
                at = f"{where}, call {i + 1} of 3"
                returned = step["returned"]
                if not isinstance(returned, float):
                    raise CheckFailed(f"return the loss as a Python float (loss.item()), got {_kind(returned)} ({at})")
                if abs(returned - loss) > 1e-5 + 1e-5 * abs(loss):
                    raise CheckFailed(f"returned {returned:.6g}, but the mean cross-entropy before the step is {loss:.6g} ({at})")
                expect_close(step["weight"], w, "the probe's weight after the step", at, atol=1e-5, rtol=1e-4)
                expect_close(step["bias"], b, "the probe's bias after the step", at, atol=1e-5, rtol=1e-4)
                if batch[2] and step["features_grad"]:
                    raise CheckFailed(f"a gradient flowed into the cached features (features.grad is set): detach them ({at}, features that require a gradient)")

        return run

    cases = [
        case(16, 7, 3, "SGD", {"lr": 0.5}, "plain SGD"),
        case(9, 5, 4, "SGD", {"lr": 0.1, "momentum": 0.9, "weight_decay": 0.01}, "SGD with momentum and weight decay", needs_grad=True),
        case(12, 6, 5, "Adam", {"lr": 0.02, "eps": 1e-3}, "Adam"),
        case(5, 11, 2, "AdamW", {"lr": 0.02, "eps": 1e-3, "weight_decay": 0.1}, "AdamW, two classes", needs_grad=True),
        case(1, 4, 3, "SGD", {"lr": 1.0}, "one example per batch", needs_grad=True),
        case(_randint(g, 2, 40), _randint(g, 1, 20), _randint(g, 2, 10), "SGD", {"lr": 0.3}, "random sizes, large features", needs_grad=True, scale=5.0),
    ]
    return run_cases("probe_step", cases)


# --------------------------------------------------------------------------- part 5: adapter


def _ref_adapter(x: Tensor, weights: dict[str, Tensor], approximate: str) -> Tensor:
    """x + up(GELU(down(x))) in float64."""
    w = {name: value.double() for name, value in weights.items()}
    hidden = F.gelu(x.double() @ w["down.weight"].T + w["down.bias"], approximate=approximate)
    return x.double() + hidden @ w["up.weight"].T + w["up.bias"]


def check_adapter(notebook: Student | dict[str, Any]) -> str | None:
    """``Adapter(d_model, bottleneck)``: fresh (its layers, what trains, the identity), then with
    weights copied in: outputs and gradients, either GELU."""
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
                raise CheckFailed(f"the adapter's parameters should be down.weight ({m}, {d}), down.bias ({m},), up.weight ({d}, {m}), up.bias ({d},): down from d_model to the bottleneck, up back; got {got} ({where})")
            if not all(fresh["requires_grad"].values()):
                raise CheckFailed(f"every parameter of the adapter should be trainable ({where})")
            if int(torch.count_nonzero(fresh["up.weight"])) or int(torch.count_nonzero(fresh["up.bias"])):
                raise CheckFailed(f"up's weight and bias should start at zero, so that the adapter starts as the identity ({where})")
            if not int(torch.count_nonzero(fresh["down.weight"])):
                raise CheckFailed(f"down's weight should keep nn.Linear's random initialisation: at zero, neither projection would get a gradient ({where})")
            expect_close(fresh["out"], xs[0].double(), "the fresh adapter's output (the identity)", where, atol=1e-6, rtol=0)

            weights = {"down.weight": torch.randn(m, d, generator=g) / math.sqrt(d), "down.bias": 0.5 * torch.randn(m, generator=g),
                       "up.weight": torch.randn(d, m, generator=g) / math.sqrt(m), "up.bias": 0.5 * torch.randn(d, generator=g)}  # fmt: skip
            trained = where + ", random weights copied in"
            reply = student.call("_grading_adapter_run", (d, m, weights, xs), driver=DRIVERS).value
            errors = {a: float((reply["outs"][0].double() - _ref_adapter(xs[0], weights, a)).abs().max()) for a in ("none", "tanh")} if isinstance(reply["outs"][0], Tensor) and reply["outs"][0].shape == xs[0].shape else {"none": 0.0}
            approximate = min(errors, key=errors.__getitem__)  # the exact GELU or its tanh approximation, whichever the answer is closer to
            for i, (x, out) in enumerate(zip(xs, reply["outs"])):
                expect_close(out, _ref_adapter(x, weights, approximate), f"the output for input {i + 1}", trained, atol=1e-5, rtol=1e-4)
            x0 = xs[0].double().requires_grad_(True)
            w = {name: value.double().requires_grad_(True) for name, value in weights.items()}
            out = _ref_adapter(x0, w, approximate)
            refs = torch.autograd.grad((out * _probe(out)).sum(), [x0, *w.values()])
            expect_close(_expect_gradient(reply["grad_x"], "the input", trained), refs[0], "the gradient with respect to the input", trained, atol=1e-5, rtol=1e-4)
            for name, ref in zip(w, refs[1:]):
                expect_close(_expect_gradient(reply["grads"][name], name, trained), ref, f"the gradient with respect to {name}", trained, atol=1e-5, rtol=1e-4)

        return run

    cases = [
        case(12, 3, (2, 5), "a batch of sequences"),
        case(7, 1, (4,), "a bottleneck of 1"),
        case(32, 8, (3, 2), "d_model 32"),
        case(5, 9, (6,), "a bottleneck wider than d_model"),
        case(_randint(g, 2, 40), _randint(g, 1, 12), (_randint(g, 1, 5), _randint(g, 1, 5)), "random sizes"),
    ]
    return run_cases("Adapter", cases)


# The hidden check of each test cell, by the cell's grade id (course grade runs them outside the kernel).
CHECKS: dict[str, Callable[[Student], str | None]] = {
    "test_lora_linear": check_lora_linear,
    "test_freeze_except": check_freeze_except,
    "test_pooled_head": check_pooled_head,
    "test_probe_step": check_probe_step,
    "test_adapter": check_adapter,
}
