"""Mutation operators for whole classes of bugs (issue 37), beside :mod:`course_grading.mutants`'
small edits: each turns a right function into one with a bug that only a check of that class sees.

* ``fixed buffer``: a size passed to a tensor constructor (``torch.arange(T)``, ``torch.ones(T, T)``)
  capped at :data:`BUFFER` (a table built once for 1,024 positions and sliced);
* ``float32 output``: the function's output (the first item of a returned tuple) cast to float32;
* ``detach <name>``: the first use of a tensor argument's values, or of one entry of a dict argument, detached;
* ``no_grad statement``: one assignment of the function's body that reads tensor values, run under
  ``torch.no_grad()``;
* ``reseed global``: ``torch.manual_seed(0)`` as the function's first statement;
* ``drop state <name>``: an argument named ``cache...`` dropped (None, or its time axis emptied);
* ``needs batch <rank>``: the function refuses an input of fewer than two (or three) dimensions (where the
  key does not unpack that input's shape into a fixed number of names);
* ``skip present <ID>``: a special id in a list is left out when the first argument already ends with it;
* ``detach output <i>``: item ``i`` (after the first) of a returned tuple detached (an attention's weights);
* ``naive softmax``: each ``softmax`` / ``log_softmax`` written as ``exp(x) / sum(exp(x))`` without the
  maximum subtracted (it overflows past float32's ``exp`` range);
* ``no copy``: each ``.clone()`` dropped, so that the function returns (a view of) what it was given;
* ``memo by identity``: the result kept under the first tensor argument's identity (``id(x)``, checked with
  ``is``) and returned whenever that object comes again, whatever the other arguments;
* ``memo by summary``: the result kept under the arguments' summaries (a tensor's shape and dtype, a
  container's length, any other value itself) and returned whenever they come again;
* ``memo by value``: the result kept under the arguments' values (``functools.lru_cache`` with tensors as keys)
  and the same objects handed out whenever those values come again;
* ``falsy <name>``: an argument with a numeric default replaced by that default where it is 0
  (``eps = eps or 1e-6``);
* ``batch chunk <name>``: the batch cut into blocks of :data:`CHUNK` rows with the offset of one argument never
  advanced (the first tensor argument, or a mask): past the first block, that argument's rows are the first
  block's again (corpus r: a padding mask not advanced past the first block of sequences);
* ``mask head axis <name>``: a three-dimensional mask given a head axis (``mask.unsqueeze(1)``), where a mask
  broadcasts from the right (corpus r: multi_head_attention's convention carried into the attention under it);
* ``inference output``: the function run under ``torch.inference_mode()`` (a decorator): what it returns is an
  inference tensor, which its caller can neither change in place nor use where autograd saves it (corpus t: a table
  made so);
* ``shared state <i>``: item ``i`` of a returned tuple (the state of a function that takes a ``cache``) copied into
  a buffer kept between calls, one per shape and dtype, and that buffer returned: a later call of the same size
  overwrites what an earlier one returned (corpus r: a static KV cache appended into in place).

A mutant of a class the part's spec does not allow (a float32 output where the spec names float32 only,
a batch required where the spec requires one) is equivalent: it goes, with that reason, in the
assignment's equivalents file as any other.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

__all__ = ["BUFFER", "CHUNK", "CLASSES", "CONSTRUCTORS", "class_mutations", "is_class_mutant"]

BUFFER = 1024  # the size a fixed buffer is built for (GPT-2's context; BERT's is half of it)
CHUNK = 4096  # the rows of one block of a batch cut into blocks (the last block a batch of 8,192 rows shows)
CONSTRUCTORS = frozenset({"arange", "ones", "zeros", "full", "empty", "eye", "rand", "randn", "randint"})
_SIZES = (ast.Name, ast.Subscript, ast.BinOp)  # a size written as a name, an index (x.shape[1]) or arithmetic


CLASSES = (
    "fixed buffer",
    "float32 output",
    "detach ",
    "no_grad statement",
    "reseed global",
    "drop state",
    "needs batch",
    "skip present",
    "detach output",
    "naive softmax",
    "no copy",
    "memo by",
    "falsy ",
    "batch chunk",
    "mask head axis",
    "shared state",
    "inference output",
)  # how each operator's mutants are named (the last part of a mutant's id)


def is_class_mutant(ident: str) -> bool:
    """Whether the mutant ``part:line:columns:what`` is one of this module's."""
    return ident.split(":", 3)[-1].startswith(CLASSES)


def class_mutations(func: ast.FunctionDef) -> Iterator[tuple[str, ast.FunctionDef]]:
    """(what, the mutated copy of ``func``) for every class operator that applies to ``func``."""
    yield from _fixed_buffers(func)
    yield from _float32_outputs(func)
    yield from _detached_arguments(func)
    yield from _no_grad_statements(func)
    yield "reseed global", _prepended(func, "torch.manual_seed(0)")
    yield from _dropped_state(func)
    first = [name for name in _tensor_like_arguments(func)[:1] if not _rank_fixed(func, name)]
    for name in first:
        for rank in (2, 3):  # one vector refused; a (T, d) matrix refused
            yield (
                f"needs batch {rank}",
                _prepended(func, f"if {name}.dim() < {rank}:\n    raise ValueError('expected a batch dimension')"),
            )
    yield from _skipped_special_ids(func)
    yield from _detached_outputs(func)
    yield from _naive_softmaxes(func)
    yield from _falsy_defaults(func)
    yield from _copies_dropped(func)
    yield from _memos(func)
    yield from _batch_chunks(func)
    yield from _mask_head_axes(func)
    yield from _shared_states(func)
    yield "inference output", _decorated(func, "torch.inference_mode()")


def _arguments(func: ast.FunctionDef) -> list[str]:
    return [a.arg for a in func.args.args if a.arg != "self"]


def _tensor_like_arguments(func: ast.FunctionDef) -> list[str]:
    """Arguments the body uses as tensors (an attribute such as ``.shape``, ``.dim()``, an operator)."""
    names = set(_arguments(func))
    used: list[str] = []
    for node in ast.walk(func):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in names:
            if node.value.id not in used and node.attr in {
                "shape",
                "dim",
                "size",
                "dtype",
                "transpose",
                "view",
                "reshape",
                "unsqueeze",
                "masked_fill",
                "softmax",
                "double",
                "float",
                "abs",
            }:
                used.append(node.value.id)
    return sorted(used, key=_arguments(func).index)


META = frozenset(
    {"shape", "dim", "ndim", "size", "dtype", "device", "numel"}
)  # what a tensor says of itself, not its values


def _rank_fixed(func: ast.FunctionDef, name: str) -> bool:
    """Whether the function unpacks ``name``'s shape into a fixed number of names (``B, T, d = x.shape``):
    it requires that rank, and a mutant requiring a batch dimension would change nothing."""
    for node in ast.walk(func):
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Tuple)
            and not any(isinstance(e, ast.Starred) for e in node.targets[0].elts)
        ):
            value = node.value.func if isinstance(node.value, ast.Call) else node.value
            if (
                isinstance(value, ast.Attribute)
                and value.attr in {"shape", "size"}
                and isinstance(value.value, ast.Name)
                and value.value.id == name
            ):
                return True
    return False


def _tainted(func: ast.FunctionDef) -> set[str]:
    """The names that hold tensor values computed from the tensor arguments (their shapes excluded), in
    the order the body assigns them."""
    tainted = set(_tensor_like_arguments(func)) | {a for a in _arguments(func) if _has_entries(func, a)}
    for node in ast.walk(func):
        if isinstance(node, (ast.Assign, ast.AugAssign)) and _reads_values(node.value, tainted):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            tainted |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return tainted


def _has_entries(func: ast.FunctionDef, name: str) -> bool:
    return any(
        isinstance(n, ast.Subscript)
        and isinstance(n.value, ast.Name)
        and n.value.id == name
        and isinstance(n.slice, ast.Constant)
        and isinstance(n.slice.value, str)
        for n in ast.walk(func)
    )


def _reads_values(expr: ast.AST, tainted: set[str]) -> bool:
    """Whether ``expr`` reads the values (not only the shape) of a tainted name."""
    metadata = {
        id(m) for n in ast.walk(expr) if isinstance(n, ast.Attribute) and n.attr in META for m in ast.walk(n.value)
    }
    return any(isinstance(n, ast.Name) and n.id in tainted and id(n) not in metadata for n in ast.walk(expr))


def _decorated(func: ast.FunctionDef, decorator: str) -> ast.FunctionDef:
    """``func`` with ``@decorator`` outermost."""
    new = copy.deepcopy(func)
    new.decorator_list = [ast.parse(decorator, mode="eval").body, *new.decorator_list]
    return new


def _prepended(func: ast.FunctionDef, code: str) -> ast.FunctionDef:
    new = copy.deepcopy(func)
    start = 1 if ast.get_docstring(new) is not None else 0
    new.body[start:start] = ast.parse(code).body
    return new


def _call_name(node: ast.Call) -> str | None:
    return (
        node.func.attr
        if isinstance(node.func, ast.Attribute)
        else node.func.id
        if isinstance(node.func, ast.Name)
        else None
    )


def _fixed_buffers(func: ast.FunctionDef) -> Iterator[tuple[str, ast.FunctionDef]]:
    def sizes(call: ast.Call) -> list[ast.expr]:
        return call.args[:1] if _call_name(call) == "full" else call.args  # full(size, value): the size only

    def sites(tree: ast.AST) -> list[ast.Call]:
        return [
            n
            for n in ast.walk(tree)
            if isinstance(n, ast.Call)
            and _call_name(n) in CONSTRUCTORS
            and any(isinstance(a, _SIZES) for a in sizes(n))
        ]

    for index, site in enumerate(sites(func)):
        new = copy.deepcopy(func)
        call = sites(new)[index]
        capped = sizes(call)
        call.args = [
            ast.Call(ast.Name("min", ast.Load()), [a, ast.Constant(BUFFER)], [])
            if a in capped and isinstance(a, _SIZES)
            else a
            for a in call.args
        ]
        yield f"fixed buffer {_call_name(call)}@{site.lineno}.{site.col_offset}", new


def _float32_outputs(func: ast.FunctionDef) -> Iterator[tuple[str, ast.FunctionDef]]:
    new = copy.deepcopy(func)
    changed = False
    for node in ast.walk(new):
        if isinstance(node, ast.Return) and node.value is not None:
            target = node.value.elts[0] if isinstance(node.value, ast.Tuple) and node.value.elts else node.value
            cast = ast.Call(ast.Attribute(target, "float", ast.Load()), [], [])
            if isinstance(node.value, ast.Tuple) and node.value.elts:
                node.value.elts[0] = cast
            else:
                node.value = cast
            changed = True
    if changed:
        yield "float32 output", new


def _detached_arguments(func: ast.FunctionDef) -> Iterator[tuple[str, ast.FunctionDef]]:
    """The first use of each tensor argument, and of each constant-key entry of a dict argument, detached."""
    names = set(_arguments(func)) - {"self"}
    seen: set[str] = set()
    sites: list[tuple[str, int]] = []  # (label, position among the walk's nodes)
    nodes = list(ast.walk(func))
    metadata = {id(m) for n in nodes if isinstance(n, ast.Attribute) and n.attr in META for m in ast.walk(n.value)}
    for i, node in enumerate(nodes):
        if id(node) in metadata:
            continue
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Name)
            and node.value.id in names
            and isinstance(node.slice, ast.Constant)
            and isinstance(node.slice.value, str)
            and isinstance(node.ctx, ast.Load)
        ):
            label = f"{node.value.id}[{node.slice.value!r}]"
        elif (
            isinstance(node, ast.Name)
            and node.id in names
            and isinstance(node.ctx, ast.Load)
            and node.id in _tensor_like_arguments(func)
        ):
            label = node.id
        else:
            continue
        if label not in seen:
            seen.add(label)
            sites.append((label, i))
    for label, i in sites:
        new = copy.deepcopy(func)
        target = list(ast.walk(new))[i]
        assert isinstance(target, ast.expr)
        _swap(new, target, ast.Call(ast.Attribute(copy.deepcopy(target), "detach", ast.Load()), [], []))
        yield f"detach {label}", new


def _no_grad_statements(func: ast.FunctionDef) -> Iterator[tuple[str, ast.FunctionDef]]:
    start = 1 if ast.get_docstring(func) is not None else 0
    tainted = _tainted(func)
    for i in range(start, len(func.body)):
        statement = func.body[i]
        if isinstance(statement, (ast.Assign, ast.AugAssign)) and _reads_values(statement.value, tainted):
            new = copy.deepcopy(func)
            no_grad = ast.parse("torch.no_grad()", mode="eval").body
            new.body[i] = ast.With([ast.withitem(no_grad)], [new.body[i]])
            yield f"no_grad statement {func.body[i].lineno}", new


def _dropped_state(func: ast.FunctionDef) -> Iterator[tuple[str, ast.FunctionDef]]:
    args = func.args.args
    defaults = [None] * (len(args) - len(func.args.defaults)) + list(func.args.defaults)
    for arg, default in zip(args, defaults):
        if arg.arg.startswith("cache"):
            if isinstance(default, ast.Constant) and default.value is None:
                yield f"drop state {arg.arg}", _prepended(func, f"{arg.arg} = None")
            else:
                yield f"drop state {arg.arg}", _prepended(func, f"{arg.arg} = {arg.arg}[:, :, :0]")


def _skipped_special_ids(func: ast.FunctionDef) -> Iterator[tuple[str, ast.FunctionDef]]:
    """``[..., EOS_ID]`` becomes the same list without ids the first argument already ends with."""
    first = _arguments(func)[:1]
    if not first:
        return
    lists = [n for n in ast.walk(func) if isinstance(n, ast.List) and any(_is_special(e) for e in n.elts)]
    for index, site in enumerate(lists):
        new = copy.deepcopy(func)
        target = [n for n in ast.walk(new) if isinstance(n, ast.List) and any(_is_special(e) for e in n.elts)][index]
        ids = ", ".join(ast.unparse(e) for e in target.elts)
        _swap(
            new,
            target,
            ast.parse(f"[e for e in [{ids}] if not (len({first[0]}) and int({first[0]}[-1]) == e)]", mode="eval").body,
        )
        yield f"skip present {ids}@{site.lineno}.{site.col_offset}", new


def _swap(tree: ast.AST, old: ast.expr, new: ast.expr) -> None:
    """Put ``new`` where ``old`` is in ``tree``."""
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, field, new)
            elif isinstance(value, list):
                value[:] = [new if v is old else v for v in value]


def _is_special(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id.lower().endswith("_id")


def _detached_outputs(func: ast.FunctionDef) -> Iterator[tuple[str, ast.FunctionDef]]:
    """Item ``i >= 1`` of every returned tuple of at least two items detached, one ``i`` at a time."""
    widths = [len(n.value.elts) for n in ast.walk(func) if isinstance(n, ast.Return) and isinstance(n.value, ast.Tuple)]
    for i in range(1, min(widths, default=1)):
        new = copy.deepcopy(func)
        for node in ast.walk(new):
            if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple):
                item = node.value.elts[i]
                node.value.elts[i] = ast.Call(ast.Attribute(item, "detach", ast.Load()), [], [])
        yield f"detach output {i}", new


def _softmax_sites(tree: ast.AST) -> list[ast.Call]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and _call_name(n) in ("softmax", "log_softmax")]


def _naive_softmaxes(func: ast.FunctionDef) -> Iterator[tuple[str, ast.FunctionDef]]:
    """Each ``softmax``/``log_softmax`` call (``torch.softmax(x, dim)``, ``F.softmax(x, dim=...)``,
    ``x.softmax(dim)``) written out without the maximum subtracted."""
    for index, site in enumerate(_softmax_sites(func)):
        new = copy.deepcopy(func)
        call = _softmax_sites(new)[index]
        receiver = call.func.value if isinstance(call.func, ast.Attribute) else None
        module = isinstance(receiver, ast.Name) and receiver.id in ("torch", "F", "functional")
        args = list(call.args)
        x = receiver if receiver is not None and not module else (args.pop(0) if args else None)
        dim = args[0] if args else next((k.value for k in call.keywords if k.arg == "dim"), ast.Constant(-1))
        if x is None:
            continue
        e, d = ast.unparse(x), ast.unparse(dim)
        naive = f"torch.exp({e}) / torch.exp({e}).sum({d}, keepdim=True)"
        if _call_name(call) == "log_softmax":
            naive = f"({e}) - torch.log(torch.exp({e}).sum({d}, keepdim=True))"
        _swap(new, call, ast.parse(naive, mode="eval").body)
        yield f"naive softmax {_call_name(site)}@{site.lineno}.{site.col_offset}", new


def _copies_dropped(func: ast.FunctionDef) -> Iterator[tuple[str, ast.FunctionDef]]:
    """Each ``x.clone()`` (no arguments) replaced by ``x``."""

    def sites(tree: ast.AST) -> list[ast.Call]:
        return [
            n
            for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "clone" and not n.args
        ]

    for index, site in enumerate(sites(func)):
        new = copy.deepcopy(func)
        call = sites(new)[index]
        assert isinstance(call.func, ast.Attribute)
        _swap(new, call, call.func.value)
        yield f"no copy @{site.lineno}.{site.col_offset}", new


# The body of a memoised function: ``{call}`` computes the result as before; the store lives in the notebook's
# globals, one per function, so that it outlasts a call.
_BY_IDENTITY = """
_store = globals().setdefault({store!r}, {{}})
_hit = _store.get(id({first}))
if _hit is not None and _hit[0] is {first}:
    return _hit[1]
_out = {call}
_store[id({first})] = ({first}, _out)
return _out
"""
# A result kept under a key of the arguments: ``{key}`` makes it (a TypeError, an unhashable key: nothing kept)
_KEPT = """
_store = globals().setdefault({store!r}, {{}})
try:
    _key = {key}
    if _key in _store:
        return _store[_key]
except TypeError:
    return {call}
_store[_key] = _out = {call}
return _out
"""
_SUMMARY = """tuple(
        (tuple(a.shape), a.dtype) if hasattr(a, "shape") and hasattr(a, "dtype")
        else len(a) if isinstance(a, (list, tuple, dict))
        else a
        for a in ({values},)
    )"""
_FROZEN = """
def _frozen(a):
    if hasattr(a, "shape") and hasattr(a, "dtype"):
        return (tuple(a.shape), a.dtype, tuple(a.detach().reshape(-1).tolist()))
    if isinstance(a, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in a.items()))
    if isinstance(a, (list, tuple)):
        return tuple(_frozen(v) for v in a)
    return a
"""


def _memos(func: ast.FunctionDef) -> Iterator[tuple[str, ast.FunctionDef]]:
    """The function's result kept between calls, under the first tensor argument's identity and under the
    arguments' summaries: the original body runs as an inner function called with every argument."""
    tensors = _tensor_like_arguments(func)
    if not tensors or func.args.vararg or func.args.kwarg or func.args.kwonlyargs or func.args.posonlyargs:
        return
    every = [a.arg for a in func.args.args]
    inner = copy.deepcopy(func)
    inner.name, inner.decorator_list = "_course_original", []
    call = f"_course_original({', '.join(every)})"
    store = f"_course_memo_{func.name}_{func.lineno}"
    values = ", ".join(_arguments(func))
    for what, code in (
        ("memo by identity", _BY_IDENTITY.format(store=store, first=tensors[0], call=call)),
        ("memo by summary", _KEPT.format(store=store, key=_SUMMARY.format(values=values), call=call)),
        ("memo by value", _FROZEN + _KEPT.format(store=store, key=f"_frozen(({values},))", call=call)),
    ):
        new = copy.deepcopy(func)
        docstring = new.body[:1] if ast.get_docstring(new) is not None else []
        new.body = [*docstring, inner, *ast.parse(code).body]
        yield what, new


def _falsy_defaults(func: ast.FunctionDef) -> Iterator[tuple[str, ast.FunctionDef]]:
    """Each argument whose default is a number other than 0 replaced by that default where the caller passed 0
    (``eps = eps or 1e-6``): an explicit 0 read as "not given"."""
    positional = [*func.args.posonlyargs, *func.args.args]
    pairs = [*zip(positional[len(positional) - len(func.args.defaults) :], func.args.defaults)]
    pairs += [(a, d) for a, d in zip(func.args.kwonlyargs, func.args.kw_defaults) if d is not None]
    for argument, default in pairs:
        if isinstance(default, ast.Constant) and type(default.value) in (int, float) and default.value != 0:
            yield f"falsy {argument.arg}", _prepended(func, f"{argument.arg} = {argument.arg} or {default.value!r}")


def _mask_arguments(func: ast.FunctionDef) -> list[str]:
    return [name for name in _arguments(func) if name.lower().endswith("mask")]  # not mask_prob, mask_id


def _batch_chunks(func: ast.FunctionDef) -> Iterator[tuple[str, ast.FunctionDef]]:
    """The rows of the first tensor argument, and of each mask argument, past the first :data:`CHUNK` replaced by
    the first block's: a batch processed in blocks with that argument's offset never advanced."""
    names = [*_tensor_like_arguments(func)[:1], *_mask_arguments(func)]
    for name in dict.fromkeys(names):
        code = (
            f"if isinstance({name}, torch.Tensor) and {name}.dim() and {name}.shape[0] > {CHUNK}:\n"
            f"    {name} = torch.cat([{name}[:{CHUNK}], {name}[: {name}.shape[0] - {CHUNK}]])"
        )
        yield f"batch chunk {name}", _prepended(func, code)


def _mask_head_axes(func: ast.FunctionDef) -> Iterator[tuple[str, ast.FunctionDef]]:
    """Each mask argument of three dimensions given a head axis in second place, as a (B, T_q, T_k) mask is for
    (B, h, T_q, T_k) scores, where the spec broadcasts a mask from the right."""
    for name in _mask_arguments(func):
        code = f"if isinstance({name}, torch.Tensor) and {name}.dim() == 3:\n    {name} = {name}.unsqueeze(1)"
        yield f"mask head axis {name}", _prepended(func, code)


# The body of a function whose returned state lives in buffers kept between calls: ``{call}`` computes the result as
# before; item {index} of the returned tuple is copied into the store's buffer of its shape and dtype (its gradient
# flows through the copy), and the buffer is returned in its place.
_SHARED = """
_store = globals().setdefault({store!r}, {{}})
_out = {call}


def _kept(value, path):
    if isinstance(value, torch.Tensor):
        key = (path, tuple(value.shape), value.dtype)
        if key not in _store:
            _store[key] = torch.zeros(value.shape, dtype=value.dtype)
        return _store[key].copy_(value)
    if isinstance(value, (tuple, list)):
        return type(value)(_kept(v, (*path, i)) for i, v in enumerate(value))
    return value


if not isinstance(_out, tuple) or len(_out) <= {index}:
    return _out
return (*_out[:{index}], _kept(_out[{index}], ({index},)), *_out[{index} + 1 :])
"""


def _shared_states(func: ast.FunctionDef) -> Iterator[tuple[str, ast.FunctionDef]]:
    """For a function with a ``cache...`` argument: each item ``i >= 1`` of its returned tuples kept in buffers
    shared between calls (:data:`_SHARED`), the original body run as an inner function."""
    if not any(a.arg.startswith("cache") for a in func.args.args) or func.args.vararg or func.args.kwarg:
        return
    widths = [len(n.value.elts) for n in ast.walk(func) if isinstance(n, ast.Return) and isinstance(n.value, ast.Tuple)]
    every = [a.arg for a in func.args.args]
    inner = copy.deepcopy(func)
    inner.name, inner.decorator_list = "_course_original", []
    for index in range(1, max(widths, default=1)):
        store = f"_course_shared_{func.name}_{func.lineno}"
        code = _SHARED.format(store=store, call=f"_course_original({', '.join(every)})", index=index)
        new = copy.deepcopy(func)
        docstring = new.body[:1] if ast.get_docstring(new) is not None else []
        new.body = [*docstring, copy.deepcopy(inner), *ast.parse(code).body]
        yield f"shared state {index}", new
