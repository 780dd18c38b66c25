"""The generic checks (issue 37): every call held to the global random states and to unchanged inputs,
and a contract's cases (leading dimensions, a length past any buffer, dtypes, the gradients of every
input, a protocol step by step), each tried on a right function and on one wrong one per class, on
many seeds: the right one always passes, each wrong one always fails."""

from __future__ import annotations

import ast
import importlib
import random
import sys

import nbformat
import pytest
import torch
import torch.nn.functional as F

from course_grading.markers import answer_code
from course_grading.sandbox.calls import LocalStudent, call_in

from assignment_support import ASSIGNMENTS, submission_notebook

sys.path.insert(0, str(ASSIGNMENTS / "grading"))
gradinglib = importlib.import_module("gradinglib")
contracts = importlib.import_module("contracts")

SEEDS = range(5)


def right(x, gain, bias):  # noqa: ANN001, ANN201 (a student's function)
    return F.layer_norm(x, x.shape[-1:], gain, bias, 1e-5)


_TABLE = torch.arange(1024)


def buffer(x, gain, bias):  # noqa: ANN001, ANN201
    d = _TABLE[: x.shape[-1]].numel()  # a width past 1,024 is cut
    return F.layer_norm(x[..., :d], (d,), gain[:d], bias[:d], 1e-5)


def float32(x, gain, bias):  # noqa: ANN001, ANN201
    out = torch.zeros(x.shape)
    out += right(x, gain, bias)
    return out


def detached(x, gain, bias):  # noqa: ANN001, ANN201
    return right(x, gain.detach(), bias)


def needs_batch(x, gain, bias):  # noqa: ANN001, ANN201
    flat = x.reshape(x.shape[0], -1, x.shape[-1])
    return right(flat, gain, bias).reshape(x.shape)


def reseeds(x, gain, bias):  # noqa: ANN001, ANN201
    torch.manual_seed(0)
    return right(x, gain, bias)


def python_reseeds(x, gain, bias):  # noqa: ANN001, ANN201
    random.seed(1)
    return right(x, gain, bias)


def in_place(x, gain, bias):  # noqa: ANN001, ANN201
    x -= x.mean(-1, keepdim=True)
    return right(x, gain, bias)


def one_pass(x, gain, bias):  # noqa: ANN001, ANN201
    mean = x.mean(-1, keepdim=True)
    var = (x * x).mean(-1, keepdim=True) - mean * mean  # E[x^2] - E[x]^2: cancels far from zero
    return gain * (x - mean) / torch.sqrt(var + 1e-5) + bias


def renamed(x, g, bias):  # noqa: ANN001, ANN201 (corpus x: a parameter renamed)
    return right(x, g, bias)


def positional_only(x, gain, bias, /):  # noqa: ANN001, ANN201 (corpus x)
    return right(x, gain, bias)


def recursive_sum(values, i=0):  # noqa: ANN001, ANN201 (one call per feature: as deep as the width is long)
    return values[..., i] + recursive_sum(values, i + 1) if i < values.shape[-1] else torch.zeros(values.shape[:-1])


def recursive(x, gain, bias):  # noqa: ANN001, ANN201
    d = x.shape[-1]
    mean = (recursive_sum(x) / d).unsqueeze(-1).to(x.dtype)
    var = (recursive_sum((x - mean) ** 2) / d).unsqueeze(-1).to(x.dtype)
    return gain * (x - mean) / torch.sqrt(var + 1e-5) + bias


def float32_inside(x, gain, bias):  # noqa: ANN001, ANN201 (Hugging Face's norms: float32 inside, cast back)
    return right(x.float(), gain.float(), bias.float()).to(x.dtype)


def bfloat16_without_grad(x, gain, bias):  # noqa: ANN001, ANN201 (corpus n: an "inference fast path")
    if torch.is_grad_enabled():
        return right(x, gain, bias)
    return right(x.bfloat16(), gain.bfloat16(), bias.bfloat16()).to(x.dtype)


@torch.inference_mode()
def inference_output(x, gain, bias):  # noqa: ANN001, ANN201 (corpus t: a table made under inference_mode)
    return right(x, gain, bias)


def identity_fast_path(x, gain, bias):  # noqa: ANN001, ANN201 (corpus t: the identity affine skipped)
    if bool((gain == 1).all()) and bool((bias == 0).all()):
        return F.layer_norm(x, x.shape[-1:], None, None, 1e-5)
    return right(x, gain, bias)


def per_thread_means(x, gain, bias):  # noqa: ANN001, ANN201 (corpus r: values that follow the thread count)
    threads = torch.get_num_threads()
    if threads <= 4:
        return right(x, gain, bias)
    mean = torch.stack([c.mean(-1, keepdim=True) for c in x.chunk(threads, -1)]).mean(0)  # a mean of chunk means
    var = ((x - mean) ** 2).mean(-1, keepdim=True)
    return gain * (x - mean) / torch.sqrt(var + 1e-5) + bias


def _args(g: torch.Generator, size) -> tuple:  # noqa: ANN001
    d = size.length
    return (
        torch.randn(*size.lead, d, generator=g).to(size.dtype),
        (1 + 0.3 * torch.randn(d, generator=g)).to(size.dtype),
        (0.3 * torch.randn(d, generator=g)).to(size.dtype),
    )


LAYER_NORM = contracts.Contract(
    "layer_norm",
    ("x", "gain", "bias"),
    _args,
    lambda x, gain, bias: F.layer_norm(x, x.shape[-1:], gain, bias, 1e-5),
    base=contracts.Size((2, 3), 8),
    leads=((), (1,), (4,)),
    long=1100,
    dtypes=(torch.float64,),
    differentiable=(0, 1, 2),
    scale=10.0,
    extremes=(("features offset by 4,096", lambda a: (a[0] + 4096, *a[1:]), 100.0),),
    initial=contracts.at_initial_values(ones=(1,), zeros=(2,)),
)


def failures_by_seed(function) -> list[list[str]]:  # noqa: ANN001
    """The messages of the contract's cases that fail ``function`` (named layer_norm), seed by seed."""
    found = []
    for seed in SEEDS:
        gradinglib.seed_checks(seed)
        found.append([])
        try:
            student = gradinglib.as_student({"layer_norm": function})
            g = gradinglib.fresh_generator()
            for case in contracts.contract_cases(LAYER_NORM, student, g):
                try:
                    case()
                except gradinglib.CheckFailed as failure:
                    found[-1].append(str(failure))
        finally:
            gradinglib.seed_checks(None)
    return found


def failures(function) -> list[str]:  # noqa: ANN001
    """The messages of the contract's cases that fail ``function``, on every seed."""
    return [message for messages in failures_by_seed(function) for message in messages]


def test_a_right_function_passes_every_generic_case_on_every_seed() -> None:
    assert failures(right) == []


@pytest.mark.parametrize("function, words", [
    (buffer, "1100 positions"), (float32, "keep the inputs' dtype"), (detached, "reaches gain"),
    (needs_batch, "leading dimensions none"), (reseeds, "global random state"), (python_reseeds, "global random state"),
    (in_place, "in place"), (one_pass, "offset by 4,096"), (float32_inside, "float64"),
    (recursive, "1100 positions"), (bfloat16_without_grad, "torch.no_grad()"),
    (inference_output, "inference tensor"), (identity_fast_path, "initial values"),
    (per_thread_means, "get_num_threads() reports 7"), (renamed, "passed by its name"),
    (positional_only, "passed by its name"),
])  # fmt: skip
def test_each_class_of_wrong_function_fails_on_every_seed(function, words: str) -> None:  # noqa: ANN001
    for messages in failures_by_seed(function):  # the case of its class fails it on every seed
        assert any(words in message for message in messages), messages


def test_every_call_reseeds_the_global_generators_first_and_reports_what_moved() -> None:
    """call_in seeds torch's, Python's and NumPy's generators with the seed it is given, so that a
    function reseeding them to any constant moves them, and says whether they moved."""
    namespace = {"draws": lambda: torch.rand(()), "quiet": lambda: 1, "fixed": lambda: torch.manual_seed(12345) and 1}
    assert call_in(namespace, "draws", (), global_seed=3).global_rng_moved
    assert not call_in(namespace, "quiet", (), global_seed=3).global_rng_moved
    assert call_in(namespace, "fixed", (), global_seed=3).global_rng_moved  # a reseed to any other seed shows
    first = call_in(namespace, "draws", (), global_seed=7).value
    assert torch.equal(call_in(namespace, "draws", (), global_seed=7).value, first)  # the seed decides the draw


def test_gradients_reach_tensors_inside_dict_arguments() -> None:
    namespace = {"f": lambda x, p: x @ p["W"] + p["b"].detach()}
    x, p = torch.randn(3, 4), {"W": torch.randn(4, 2), "b": torch.randn(2)}
    reply = LocalStudent(namespace).call("f", (x, p), grad_args=(0, (1, "W"), (1, "b")))
    assert reply.grads is not None and reply.grads[0] is not None and reply.grads[1] is not None
    assert reply.grads[2] is None  # the detached bias: no gradient
    assert torch.allclose(reply.grads[1], x.T @ torch.linspace(-1, 1, 6).view(3, 2))


def test_gradients_reach_tensors_inside_tuple_arguments() -> None:
    """A cache passed as a tuple: each of its tensors is an input the gradient case asks about (one detached
    inside the function shows), and EVERY names them all."""
    namespace = {"f": lambda x, cache: x @ cache[0] + cache[1].detach()}
    x, cache = torch.randn(3, 4), (torch.randn(4, 2), torch.randn(2))
    reply = LocalStudent(namespace).call("f", (x, cache), grad_args=(0, (1, 0), (1, 1)))
    assert reply.grads is not None and reply.grads[1] is not None and reply.grads[2] is None
    assert torch.allclose(reply.grads[1], x.T @ torch.linspace(-1, 1, 6).view(3, 2))
    contract = contracts.Contract(
        "f", ("x", "cache"), lambda g, size: (), None, differentiable=(0, (1, contracts.EVERY))
    )
    assert contracts._leaves(contract, (x, cache)) == [("x", 0), ("cache[0]", (1, 0)), ("cache[1]", (1, 1))]
    assert contracts._leaves(contract, (x, None)) == [("x", 0)]  # no cache: nothing inside it to ask about


def test_float64_is_never_judged_at_a_widened_tolerance() -> None:
    """A scale widens float32's tolerance (its rounding grows with the values and the length of the computation);
    float64's stays, so float32 arithmetic inside (about 1e-7 relative) fails there whatever the scale."""
    exact = torch.randn(64, dtype=torch.float64) * 3
    rounded = exact.float().double()
    contracts.expect_like(rounded.float(), exact, "x", "case", torch.float32, scale=10.0)  # float32: fine
    with pytest.raises(gradinglib.CheckFailed):
        contracts.expect_like(rounded, exact, "x", "case", torch.float64, scale=10.0)
    contracts.expect_like(exact + 1e-12, exact, "x", "case", torch.float64, scale=10.0)  # float64 rounding: fine


def test_an_infinite_expected_entry_is_compared_exactly() -> None:
    """|finite - inf| is not within rtol * inf: a finite value where -inf is expected (a filter that keeps a
    token it should drop) fails, as does a number where NaN is expected, and NaN where a number is."""
    inf = float("inf")
    for actual, expected in (([1.0, 2.0], [-inf, 2.0]), ([-inf, 2.0], [inf, 2.0]), ([1.0, 2.0], [1.0, float("nan")]),
                             ([float("nan"), 2.0], [1.0, float("nan")])):  # fmt: skip
        with pytest.raises(gradinglib.CheckFailed):
            gradinglib.expect_close(torch.tensor(actual), torch.tensor(expected), "x", "case")
    gradinglib.expect_close(
        torch.tensor([-inf, 2.0, float("nan")]), torch.tensor([-inf, 2.0, float("nan")]), "x", "case"
    )


def test_padding_patterns_are_not_only_right_padding() -> None:
    mask = gradinglib.padding_pattern(torch.Generator().manual_seed(0), 4, 9)
    assert mask.dtype == torch.long and bool((mask.sum(1) >= 1).all()) and bool((mask[0] == 1).all())
    assert mask[-1, 0] == 0 and mask[-1, -1] == 1  # the last row is left-padded: no lengths describe it


@pytest.mark.parametrize("seed", range(200))
def test_random_masks_always_hide_something(seed: int) -> None:
    """A mask drawn for a case hides at least one key wherever it has two (an answer that ignores the mask, or
    drops it for one query, passes a mask that hides nothing): a1's attention masks per row, the padding
    patterns per call, a single row included; and each row keeps one key."""
    g = torch.Generator().manual_seed(seed)
    a1 = importlib.import_module("a1_attention_checks")
    for shape in [(1, 1, 2), (1, 1, 3), (2, 4, 5), (3, 1, 7)]:
        mask = a1._random_mask(g, *shape)
        assert bool((~mask).any(-1).all()) and bool(mask.any(-1).all()), shape
    for B, T in [(1, 2), (1, 6), (3, 5)]:
        padding = gradinglib.padding_pattern(g, B, T)
        assert bool((padding == 0).any()) and bool((padding.sum(1) >= 1).all()), (B, T)


def _kinds_of_failure(contract, function) -> list[str]:  # noqa: ANN001
    """The messages of ``contract``'s generic cases that fail ``function``."""
    student = gradinglib.as_student({contract.function: function})
    found = []
    for case in contracts.contract_cases(contract, student, torch.Generator().manual_seed(0)):
        try:
            case()
        except gradinglib.CheckFailed as failure:
            found.append(str(failure))
    return found


def _attention(x_q, x_kv):  # noqa: ANN001, ANN201
    return torch.softmax(x_q @ x_kv.transpose(-1, -2), -1) @ x_kv, torch.softmax(x_q @ x_kv.transpose(-1, -2), -1)


ATTENTION = contracts.Contract(
    "attend", ("x_q", "x_kv"),
    lambda g, size: (torch.randn(2, size.length, 4, generator=g),
                     torch.randn(2, size.length if size.coincide else size.length + 2, 4, generator=g)),
    _attention, differentiable=(0, 1), grad_outputs=(0, 1), coincide=True,
    extremes=(("scores 40 times larger", lambda a: (a[0] * 40, a[1]), 10.0),),
)  # fmt: skip


def test_the_output_and_gradient_classes_each_fail_their_wrong_function() -> None:
    assert _kinds_of_failure(ATTENTION, _attention) == []
    by_shape = lambda x_q, x_kv: _attention(x_q, x_q if x_kv.shape == x_q.shape else x_kv)  # noqa: E731
    assert [m for m in _kinds_of_failure(ATTENTION, by_shape) if "lengths that may differ, equal" in m]
    detached = lambda x_q, x_kv: (_attention(x_q, x_kv)[0], _attention(x_q, x_kv)[1].detach())  # noqa: E731
    assert [m for m in _kinds_of_failure(ATTENTION, detached) if "outputs 0, 1 should each carry a gradient" in m]

    def naive(x_q, x_kv):  # noqa: ANN001, ANN202
        e = torch.exp(x_q @ x_kv.transpose(-1, -2))
        return (e / e.sum(-1, keepdim=True)) @ x_kv, e / e.sum(-1, keepdim=True)

    assert [m for m in _kinds_of_failure(ATTENTION, naive) if "40 times larger" in m]


def _junk_second_half(args, g):  # noqa: ANN001, ANN202
    x, n = args
    return torch.cat([x[:n], torch.full_like(x[n:], float("inf"))]), n


def _mixed(args):  # noqa: ANN001, ANN202
    return args[0].double(), args[1]


SUM_FIRST = contracts.Contract(
    "sum_first", ("x", "n"), lambda g, size: (torch.randn(size.length, generator=g), size.length // 2),
    lambda x, n: x[:n].clone(), fresh=True, ignored=(("the values past n inf", _junk_second_half),),
    mixed=(("x in float64", _mixed, torch.float64),),
)  # fmt: skip


def test_ignored_values_fresh_outputs_and_mixed_dtypes_each_fail_their_wrong_function() -> None:
    assert _kinds_of_failure(SUM_FIRST, lambda x, n: x[:n].clone()) == []
    reads_all = lambda x, n: (x + 0 * x.sum())[:n].clone()  # noqa: E731  (0 * inf is NaN)
    assert [m for m in _kinds_of_failure(SUM_FIRST, reads_all) if "past n inf" in m]
    assert [m for m in _kinds_of_failure(SUM_FIRST, lambda x, n: x[:n]) if "return a copy" in m]  # a view of x
    assert [m for m in _kinds_of_failure(SUM_FIRST, lambda x, n: x[:n].float()) if "x in float64" in m]


def by_identity(x, gain, bias, _kept={}):  # noqa: ANN001, ANN201, B006 (a memo under the input's identity)
    if id(x) in _kept and _kept[id(x)][0] is x:
        return _kept[id(x)][1]
    out = right(x, gain, bias)
    _kept[id(x)] = (x, out)
    return out


def nan_gradient_far_out(x, gain, bias):  # noqa: ANN001, ANN201 (a branch never taken whose gradient is 0 * inf)
    return right(x, gain, bias) + torch.where(x > 1e30, torch.exp(x), torch.zeros_like(x))


@pytest.mark.parametrize("function, words", [
    (by_identity, "the same argument objects"), (nan_gradient_far_out, "gradients, features offset by 4,096"),
])  # fmt: skip
def test_state_under_an_objects_identity_and_gradients_far_out_fail_on_every_seed(function, words: str) -> None:  # noqa: ANN001
    for messages in failures_by_seed(function):  # that case alone, on every seed
        assert messages and all(words in message for message in messages), messages


def _summary(value: object, top: bool = True) -> object:
    """What a memo could be keyed by without the value itself: type, length, shape, dtype (inside
    containers too; a string's length where it is an argument itself)."""
    if isinstance(value, torch.Tensor):
        return ("tensor", tuple(value.shape), value.dtype)
    if isinstance(value, dict):
        return ("dict", len(value), sorted(repr(_summary(v, False)) for v in value.values()))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_summary(v, False) for v in value))
    return ("str", len(value)) if isinstance(value, str) and top else type(value).__name__


def _every_contract() -> list[tuple[str, object]]:
    found = []
    for path in sorted((ASSIGNMENTS / "grading").glob("a*_checks.py")):
        module = importlib.import_module(path.stem)
        # a tuple of contracts too (a7's two rotary layouts)
        found += [(f"{path.stem}.{c.function}", c) for c in contracts.module_contracts(module)]
    return found


def test_no_contract_stays_within_pythons_recursion_limit() -> None:
    """A contract's long case goes past Python's recursion limit (corpus m: a recursion per piece or per token cut
    passed a case of 300): declaring a shorter one is refused."""
    with pytest.raises(ValueError, match="recursion limit"):
        contracts.Contract("f", ("x",), _args, None, long=contracts.RECURSION_LIMIT)
    assert all(c.long is None or c.long > sys.getrecursionlimit() for _, c in _every_contract())


@pytest.mark.parametrize("path", sorted((ASSIGNMENTS / "grading").glob("a*_checks.py")), ids=lambda p: p.stem)
def test_every_release_says_what_its_contracts_hold_its_functions_to(path) -> None:  # noqa: ANN001
    """No generic case asks for what the student's notebook does not say: the release's first cell ends with
    the promises generated from the very contracts that make the cases (contracts.promises), once. Edit the
    end of the source notebook's first cell to the text below and run ``course release``."""
    assignment = path.stem.removesuffix("_checks")
    expected = contracts.promises(contracts.module_contracts(importlib.import_module(path.stem)))
    release = nbformat.read(ASSIGNMENTS / "release" / assignment / f"{assignment}.ipynb", as_version=4)
    intro = release.cells[0].source
    heading = expected.splitlines()[0]
    assert intro.endswith("\n\n" + expected) and intro.count(heading) == 1, expected


@pytest.mark.parametrize("path", sorted((ASSIGNMENTS / "grading").glob("a*_checks.py")), ids=lambda p: p.stem)
def test_every_contract_names_its_arguments_as_the_answer_key_does(path) -> None:  # noqa: ANN001
    """The keyword case passes each argument by the contract's name for it: those are the parameters of the answer
    key's function, in order (a driver's contract, whose function calls the student's, excepted)."""
    assignment = path.stem.removesuffix("_checks")
    parameters = {}
    for code in answer_code(submission_notebook(assignment, None)).values():
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, ast.FunctionDef):
                parameters[node.name] = [a.arg for a in (*node.args.posonlyargs, *node.args.args)]
    for contract in contracts.module_contracts(importlib.import_module(path.stem)):
        if not contract.function.startswith(contracts.DRIVEN):
            named = parameters[contract.function][: len(contract.names)]
            assert list(contract.names) == named, (contract.function, contract.names, named)


@pytest.mark.parametrize("name, contract", _every_contract())
def test_every_contracts_again_case_changes_values_and_keeps_their_summary(name: str, contract) -> None:  # noqa: ANN001
    """A memo keyed by an argument's size, length or shape shows only if the changed argument keeps them."""
    g = torch.Generator().manual_seed(0)
    first = contract.make(g, contract.base)
    thens = contract.again(first, contract.make(g, contract.base), g)
    for then in thens:  # none where every argument is a size the base fixes (causal_mask(T))
        changed = [i for i, (a, b) in enumerate(zip(first, then)) if not gradinglib.same_value(a, b)]
        assert changed, f"{name}: a call of the again case changes nothing"
        for i in changed:
            assert _summary(then[i]) == _summary(first[i]), f"{name}: {contract.names[i]} changes its size or type"


@pytest.mark.parametrize("name, contract", [(n, c) for n, c in _every_contract() if c.oracle is not None])
def test_every_contracts_again_case_shows_each_change_on_every_seed(name: str, contract) -> None:  # noqa: ANN001
    """A memo that leaves out one argument passes every call of the again case where changing that argument alone
    does not move the answer past the tolerance (an eps changed a hundredfold beside rows whose mean square is 900:
    1 draw in 3). On each of 20 seeds, the first call's exact answer fails every later call's judgement."""
    for seed in range(20):
        g = torch.Generator().manual_seed(seed)
        first, thens = contracts._again_draw(contract, g)
        for then in thens:
            assert contracts._shows(contract, first, then), f"{name}, seed {seed}: a change the answer hides"


def test_the_again_case_changes_an_argument_drawn_from_two_values_on_every_seed() -> None:
    """An argument drawn from a few values (a top-k's k, an eps) equals the first call's on one fresh draw in a
    few, and the again case then left it unchanged: a memo keyed without it passed (a7's rms_norm, 7 draws in 30)."""

    def make(g: torch.Generator, size: contracts.Size) -> tuple[torch.Tensor, int]:
        return torch.randn(3, generator=g), int(torch.randint(1, 3, (), generator=g))

    for seed in range(200):
        g = torch.Generator().manual_seed(seed)
        first = make(g, contracts.Size())
        fresh = contracts.apart(make, first, g, contracts.Size())
        assert fresh[1] != first[1] and not torch.equal(fresh[0], first[0]), seed


def _floating_tensors(value: object) -> list[torch.Tensor]:
    if isinstance(value, torch.Tensor):
        return [value] if value.is_floating_point() and value.numel() >= 4 else []
    if isinstance(value, dict):
        return [t for v in value.values() for t in _floating_tensors(v)]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _floating_tensors(v)]
    return []


def _root_mean_squares(args: tuple[object, ...]) -> list[list[float]]:
    return [[float(t.double().pow(2).mean().sqrt()) for t in _floating_tensors(a)] for a in args]


@pytest.mark.parametrize("name, contract", _every_contract())
def test_every_contracts_again_case_keeps_the_scale_of_its_draws(name: str, contract) -> None:  # noqa: ANN001
    """A changed tensor is drawn as the contract's own maker draws: weights of another scale (unit normal where
    the maker scales them by 1/sqrt(d)) make the arithmetic far worse conditioned than any case the tolerance
    was set for, and a right float32 answer fails by rounding (a7's block, on the answer key, 1 call in 300).
    Each floating tensor's root mean square lies within a factor of 3 of the range the maker draws."""
    g = torch.Generator().manual_seed(0)
    first = contract.make(g, contract.base)
    drawn = [_root_mean_squares(contract.make(g, contract.base)) for _ in range(20)]
    for then in contract.again(first, contract.make(g, contract.base), g):
        for i, scales in enumerate(_root_mean_squares(then)):
            for j, rms in enumerate(scales):
                low, high = min(d[i][j] for d in drawn), max(d[i][j] for d in drawn)
                assert low / 3 <= rms <= 3 * high, f"{name}: {contract.names[i]} drawn at a scale its maker never draws"


def test_graded_entries_and_unbounded_integers_each_fail_their_wrong_function() -> None:
    """corpus n: a contract that grades some entries only judges those (the rest finite), and integer arguments
    the spec leaves unbounded are sent past int32's range, where a cast to int32 wraps."""

    def masked_args(g: torch.Generator, size) -> tuple:  # noqa: ANN001
        return torch.randn(2, size.length, generator=g), torch.arange(size.length) % 2 == 0

    def keep_graded(x, keep):  # noqa: ANN001, ANN201
        return torch.where(keep, x * 2, x * 3)  # the ungraded entries are the function's own business

    def nan_ungraded(x, keep):  # noqa: ANN001, ANN201
        return torch.where(keep, x * 2, torch.nan)

    graded = contracts.Contract(
        "double", ("x", "keep"), masked_args, lambda x, keep: x * 2, graded=lambda a: a[1].expand_as(a[0])
    )

    def signs(g: torch.Generator, size) -> tuple:  # noqa: ANN001
        return (torch.randint(-5, 6, (size.length,), generator=g),)

    def wraps(rel):  # noqa: ANN001, ANN201
        return rel.to(torch.int32).sign().long()

    def doubled(rel):  # noqa: ANN001, ANN201
        return (2 * rel).sign()  # right past int32's range, wrong where 2 rel overflows int64

    unbounded = contracts.Contract(
        "sign", ("rel",), signs, lambda rel: rel.sign(), unbounded=(0,), base=contracts.Size((), 9)
    )
    _kinds(graded, keep_graded, nan_ungraded, "finite")
    _kinds(unbounded, lambda rel: rel.sign(), wraps, ("past int32", "extremes"))
    _kinds(unbounded, lambda rel: rel.sign(), doubled, ("extremes",))


def _kinds(contract, good, bad, words: str | tuple[str, ...]) -> None:  # noqa: ANN001
    """``good`` passes every generic case of ``contract`` and ``bad`` fails, only cases whose message has
    ``words`` (one of them, where a tuple), on every seed."""
    words = (words,) if isinstance(words, str) else words
    for seed in SEEDS:
        gradinglib.seed_checks(seed)
        try:
            for function, expected in ((good, False), (bad, True)):
                student = gradinglib.as_student({contract.function: function})
                found = []
                for case in contracts.contract_cases(contract, student, gradinglib.fresh_generator()):
                    try:
                        case()
                    except gradinglib.CheckFailed as failure:
                        found.append(str(failure))
                assert bool(found) == expected and all(any(w in m for w in words) for m in found), (
                    seed,
                    function,
                    found,
                )
        finally:
            gradinglib.seed_checks(None)


def test_float64_values_past_float32_are_sent_whatever_the_draw() -> None:
    """corpus o: a threshold read back through float32 keeps the largest entry only where float32 holds it; a
    contract that draws in float32 and casts up would never show it: its float64 cases carry float64's precision."""

    def draws(g: torch.Generator, size) -> tuple:  # noqa: ANN001
        return (torch.randn(*size.lead, size.length, generator=g).to(size.dtype),)  # float32 values, cast up

    def largest(x):  # noqa: ANN001, ANN201
        return torch.where(x >= x.amax(-1, keepdim=True), x, torch.zeros_like(x))

    def rounded(x):  # noqa: ANN001, ANN201
        threshold = x.amax(-1, keepdim=True).float().to(x.dtype)
        return torch.where(x >= threshold, x, torch.zeros_like(x))

    contract = contracts.Contract(
        "largest", ("x",), draws, largest, base=contracts.Size((8,), 9), dtypes=(torch.float64,)
    )
    _kinds(contract, largest, rounded, "float64")


def test_text_in_letters_outside_the_bmp_meets_every_edge() -> None:
    """corpus o: a length limit counted in UTF-16 units passes every word of the BMP; the text case and each edge
    in letters outside it (one code point, two units) show it."""

    def words(g: torch.Generator, size) -> tuple:  # noqa: ANN001
        word = "".join("abc"[i] for i in torch.randint(0, 3, (size.length,), generator=g).tolist())
        return word, 2 * len(word)

    def at_limit(g: torch.Generator, size) -> tuple:  # noqa: ANN001
        word, _ = words(g, size)
        return word, len(word)

    def fits(word, limit):  # noqa: ANN001, ANN201
        return [word] if len(word) <= limit else []

    def utf16(word, limit):  # noqa: ANN001, ANN201
        return [word] if len(word.encode("utf-16-le")) // 2 <= limit else []

    contract = contracts.Contract(
        "fits", ("word", "limit"), words, fits, text=(0,), edges=(("at the limit", at_limit),)
    )
    _kinds(contract, fits, utf16, "outside the BMP")


def test_each_edge_is_sent_with_its_whole_floats_as_ints() -> None:
    """corpus o: greedy decoding recognised only at the float 0.0; the whole-number case alone sends a temperature of
    at least 1, the edge at 0 sent as the int 0 shows it."""

    def draws(g: torch.Generator, size) -> tuple:  # noqa: ANN001
        return torch.randn(*size.lead, size.length, generator=g), 1.5

    def greedy(g: torch.Generator, size) -> tuple:  # noqa: ANN001
        return draws(g, size)[0], 0.0

    def sharpen(x, t):  # noqa: ANN001, ANN201
        return F.one_hot(x.argmax(-1), x.shape[-1]).float() if t == 0 else torch.softmax(x / t, dim=-1)

    def float_zero_only(x, t):  # noqa: ANN001, ANN201
        greedy = isinstance(t, float) and t == 0.0
        return F.one_hot(x.argmax(-1), x.shape[-1]).float() if greedy else torch.softmax(x / t, dim=-1)

    contract = contracts.Contract("sharpen", ("x", "t"), draws, sharpen, whole=(1,), edges=(("t 0", greedy),))
    _kinds(contract, sharpen, float_zero_only, "sent as ints")


def test_a_result_kept_under_the_shape_of_the_last_output_shows_one_position_on() -> None:
    """corpus o: a step that keeps the state it grew and reuses it when the next state has its length (two
    sequences decoded in turn mix); the calls of the again case keep the length, the call one position longer
    does not."""

    def draws(g: torch.Generator, size) -> tuple:  # noqa: ANN001
        return (torch.randn(2, size.length, 3, generator=g),)

    def grow(cache):  # noqa: ANN001, ANN201
        return torch.cat([cache, cache.sum(-2, keepdim=True)], dim=-2)

    def kept(cache, _last={}):  # noqa: ANN001, ANN201, B006
        if "grown" in _last and _last["grown"].shape == cache.shape:
            cache = _last["grown"]
        _last["grown"] = grow(cache)
        return _last["grown"]

    contract = contracts.Contract("grow", ("cache",), draws, grow, base=contracts.Size((), 3), same_objects=False)
    _kinds(contract, grow, kept, "one position longer")


def _pairs_turned(x):  # noqa: ANN001, ANN201
    """Each neighbouring pair of the last dimension turned by 90 degrees: ``(a, b) -> (-b, a)``."""
    return torch.stack([-x[..., 1::2], x[..., 0::2]], dim=-1).flatten(-2)


def test_inputs_laid_out_three_ways_show_code_that_assumes_strides() -> None:
    """corpus p: ``view_as_complex`` on pairs needs the last stride 1 and every other stride even, which neither
    a contiguous input nor one with leading dimensions swapped in memory breaks; a transposed last dimension and a
    slice of wider rows do."""

    def draws(g: torch.Generator, size) -> tuple:  # noqa: ANN001
        return (torch.randn(*size.lead, size.length, 8, generator=g).to(size.dtype),)

    def complex_pairs(x):  # noqa: ANN001, ANN201
        return torch.view_as_real(torch.view_as_complex(x.reshape(*x.shape[:-1], -1, 2)) * 1j).flatten(-2)

    contract = contracts.Contract("turn", ("x",), draws, _pairs_turned, base=contracts.Size((2,), 5))
    _kinds(contract, _pairs_turned, complex_pairs, ("last dimension is not contiguous", "slices of wider rows"))


def test_a_memo_made_under_inference_mode_shows_in_the_gradients_of_the_same_call() -> None:
    """corpus p: a table kept from a call under ``torch.inference_mode()`` is an inference tensor, which autograd
    cannot save for the same call made later with gradients; the values alone, in any mode, are right."""

    def draws(g: torch.Generator, size) -> tuple:  # noqa: ANN001
        return (torch.randn(*size.lead, size.length, 4, generator=g).to(size.dtype),)

    def scales(x):  # noqa: ANN001, ANN201
        return x * torch.arange(1, 5, dtype=x.dtype)

    def memo(x, _kept={}):  # noqa: ANN001, ANN201, B006
        key = (x.shape, x.dtype, float(x.flatten()[0]))  # the call's own entry, as (T, start, base) keep one
        if key not in _kept:
            _kept[key] = torch.arange(1, 5, dtype=x.dtype)  # made in the caller's mode
        return x * _kept[key]

    contract = contracts.Contract("scale", ("x",), draws, scales, base=contracts.Size((2,), 3), differentiable=(0,))
    _kinds(contract, scales, memo, "made first under torch.inference_mode")


def test_the_float32_spread_is_large_where_huge_scores_nearly_tie_and_tiny_elsewhere() -> None:
    """corpus p: the key's grouped-query attention, its scores multiplied into the thousands, was 0.0067 off where
    float32's rounding of the inputs alone moves the exact answer by 0.0089; the extremes' tolerance follows that
    spread (ten times it), which a well-conditioned input leaves at its declared factor."""

    def weighted(s, v):  # noqa: ANN001, ANN201
        return torch.softmax(s, -1) @ v

    v = torch.tensor([0.0, 100.0])
    tie = (torch.tensor([30000.0, 30000.0]), v)
    calm = (torch.tensor([0.0, 5.0]), v)
    spread = {
        name: contracts.float32_spread(weighted, args, weighted(*contracts.in_float64(args)))
        for name, args in (("tie", tie), ("calm", calm))
    }
    assert spread["tie"] > 0.01 and spread["calm"] < 1e-4, spread
    # a float32 answer computed another way sits within ten times the spread there, not within the fixed tolerance
    off = float((weighted(tie[0] + torch.tensor([0.0, 2**-9]), v) - weighted(*contracts.in_float64(tie))).abs())
    assert contracts.TOLERANCE[torch.float32][0] * 100 < off < contracts.CONDITIONING * spread["tie"], (off, spread)


def _tensors(value: object) -> list[torch.Tensor]:
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _tensors(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _tensors(v)]
    return []


def _dimensions(value: object) -> set[int]:
    return set().union(*(set(t.shape) for t in _tensors(value)))


@pytest.mark.parametrize("name, contract", _every_contract())
def test_every_contracts_many_rows_case_sends_them(name: str, contract) -> None:  # noqa: ANN001
    """The case of MANY_ROWS sequences or rows means something only if the contract's arguments have them: a draw that
    fixes the batch at 2 (corpus r: five contracts did) hides a batch cut into chunks whatever the case is called.
    A contract whose first leading dimension is no batch says so (``rows=False``)."""
    if not (contract.rows and contract.base.lead):
        return
    from course_grading.class_mutants import CHUNK

    [many] = [size for _, size in contract.sizes() if size.lead[:1] == (contracts.MANY_ROWS,)]
    args = contract.make(torch.Generator().manual_seed(0), many)
    assert contracts.MANY_ROWS in _dimensions(args), f"{name}: its arguments ignore size.lead"
    # and rows with values of their own: an empty tensor of MANY_ROWS rows, or one row repeated, cannot show a row
    # computed from another row's inputs (a5's relative positions were (8192, 0, 3): its draw filled a shape of
    # 809 values, and none was left for each row)
    batched = [a for a in _tensors(args) if a.shape[:1] == (contracts.MANY_ROWS,)]
    assert batched and all(a.numel() for a in batched), f"{name}: {[tuple(a.shape) for a in batched]}"
    assert any(not a[CHUNK:].equal(a[: contracts.MANY_ROWS - CHUNK]) for a in batched), f"{name}: rows repeat"


def test_a_call_with_other_threads_reports_them_and_computes_as_before() -> None:
    """``threads`` makes ``torch.get_num_threads()`` (under its name in torch and any alias in the notebook) say that
    count for the call only; torch's real thread count, which a jailed process cannot raise, stays as it was."""
    namespace: dict = {"torch": torch, "seen": [], "alias": torch.get_num_threads}
    exec("def reads(x):\n    seen.append((torch.get_num_threads(), alias()))\n    return x + 1\n", namespace)
    before = torch.get_num_threads()
    student = gradinglib.as_student(namespace)
    student.call("reads", (torch.zeros(2),), threads=contracts.OTHER_THREADS)
    student.call("reads", (torch.zeros(2),))
    assert namespace["seen"] == [(contracts.OTHER_THREADS, contracts.OTHER_THREADS), (before, before)]
    assert namespace["alias"] is torch.get_num_threads and torch.get_num_threads() == before
    with pytest.raises(TypeError, match="threads"):
        student.call("reads", (torch.zeros(2),), threads=0)
