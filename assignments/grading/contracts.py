"""Contracts: what a graded function promises, declared once beside its checks, and the generic checks
every part gets from it (instructor-only; never released).

A part's own checks test what is special to it (masks, edges, laws). Bugs of whole classes hide where
no part-specific case looks: an output built in float32, a table precomputed for 128 positions, a
detached parameter, a batch dimension taken for granted, a cache kept for one step. A :class:`Contract`
names what the spec allows (leading dimensions, lengths, dtypes, the differentiable inputs, the steps
of a stateful protocol) and :func:`contract_cases` turns it into cases, each deterministic (it exposes
its class of bug on every draw, not on a lucky one):

* **leading dimensions**: each of ``leads`` (none, one, several), where the spec says ``(..., d)``;
* **length**: ``long`` positions, past any fixed buffer and past Python's recursion limit (:data:`RECURSION_LIMIT`,
  which a recursion once per position meets): :data:`PAST_EVERY_BUFFER` wherever a part could keep a table by
  position and its cost grows with the length alone (a padding mask, encodings, rotations, buckets); about 1,100
  where it grows with the square of the length (attention; a causal mask, which right answers may build by looping
  over every pair of positions);
* **layout**: every tensor input as a non-contiguous view of the same values, three ways, for every contract (a
  spec that names a shape takes any tensor of that shape: a caller's slice, a transpose, the heads ``split_heads``
  returns): leading dimensions swapped in memory (:func:`strided`), the last dimension not contiguous
  (:func:`transposed`), and a slice of wider rows with odd strides and offset (:func:`sliced`: corpus p's
  ``view_as_complex`` on pairs needs even strides); ``views=`` gives its size where not ``base``;
* **shortest**: the smallest length the spec allows (``shortest``, 1 unless it says more), with the lengths that
  may differ drawn equal: a plain case, and every edge there too (a shortcut for one key that forgets a
  fully masked row shows);
* **dtypes**: each of ``dtypes``; a floating output keeps the inputs' dtype and matches at that
  dtype's tolerance (:data:`TOLERANCE`); float64 inputs carry float64's precision, sent twice: every value just
  below the float32 it rounds to, then just above (:func:`past_float32`), so that an answer that passes a float64
  value through float32 (a threshold, a sum) meets a rounding that goes the wrong way for it on every draw, which
  values drawn in float32 and cast up would hide;
* **gradients**: of ``probe(output) . output`` with respect to every input in ``differentiable``
  (``"*"`` for every tensor of a dict or tuple argument: a cache's keys and values), against the oracle's, by
  autograd in float64;
* **protocol**: a ``steps`` function, for a part whose state goes out and comes back (a cache), runs
  every step with what the previous step returned (``base.length`` steps, in each dtype);
* **text forms** (``text=``, the indices of arguments read as text): each such string (or list of
  strings) sent composed (NFC) and decomposed (NFD), where the spec takes text as it comes; and every
  argument's letters as letters outside the Basic Multilingual Plane (:func:`astral`, one code point each, two
  UTF-16 units and four UTF-8 bytes), every edge too: a length or a position counted in bytes or UTF-16 units
  shows;
* **singular points** (``singular``): inputs where the function's formula is singular but its value and
  gradients are not (a norm's input of variance 0, where a root's derivative is infinite): the value there, and the
  gradients finite wherever the oracle's are (corpus v: eps outside the root, ``x / (std + eps)``, has the right value
  and a NaN gradient there);
* **every small size** (``every_small``): where the answer is a law of sizes (which tokens a truncation keeps),
  every combination of the small sizes, in one call beside the student's code, each result judged: a closed form
  wrong at one combination (corpus v: ``len(A) == n // 2`` with ``n`` odd, 198 of 13,750) shows on every draw;
* **edges**: the spec's special values at special places (an EOS id already last, a special id first),
  named argument makers checked like every other case, and, where the contract has differentiable inputs,
  their gradients there finite wherever the oracle's are (a log of 0 or a division by zero on the way back
  behind a right value); an edge that leaves an argument to its default has no gradient of it asked;
* **sizes that coincide** (``coincide=True``, where the spec lets two lengths differ, as queries' and
  keys'): a case with them equal (``Size.coincide``), so that an answer that tells its arguments apart by
  their shapes (self- from cross-attention) shows; every other case keeps them distinct, so that an
  answer that mixes up two axes shows;
* **every free size equal** (:func:`all_equal`): the base case and every edge with every leading dimension as
  long as the length, and the lengths that may differ equal, so that an answer that tells an argument's form by
  its sizes (a ``(T_q, T_k)`` mask taken for ``(B, T_k)`` where ``T_q`` is ``B``) meets the sizes where it cannot;
* **extreme values** (``extremes``): the arguments transformed as the spec allows (logits offset past
  float32's ``exp`` range or scaled until softmax underflows, features offset far from zero), judged
  against the oracle on the same arguments, within the tolerance times a declared factor, and, where the
  contract has differentiable inputs, their gradients there finite wherever the oracle's are: a softmax
  without its maximum subtracted, a choice made on probabilities that underflow, a one-pass variance, or a
  formula whose value survives and whose gradient is NaN (``z / (1 + exp(-z))``) shows; every edge is also
  sent at every extreme (the two meet where neither case alone goes). There the float32 tolerance is at least
  ten times what float32's rounding of the inputs alone moves the exact answer by (:func:`float32_spread`):
  huge scores that nearly tie make any float32 answer that far off, a wrong one stays off by far more;
* **ignored values** (``ignored``): where the spec says some values do not matter (logits at ignored
  positions, a finished beam's row), those filled with ``inf``, ``-inf``, NaN or another tensor, judged on
  the arguments as drawn: an answer whose result depends on them shows;
* **mixed dtypes** (``mixed``): arguments whose dtypes the spec lets differ sent in different dtypes, each
  output judged in the dtype the spec gives it;
* **integer dtypes** (``integers``, the indices of arguments the spec calls integer tensors without naming a
  dtype): each such tensor sent in every narrower integer dtype its values fit (int32, int16, uint8), and, where
  the contract has a ``long`` length, in int16 and uint8 at that length too (values clamped into the dtype's
  range: counts and positions stay valid), where a position made in the argument's dtype wraps; judged
  on the arguments as drawn (int64): an answer that needs int64 (``one_hot``, an index into a table) shows;
* **fresh outputs** (``fresh=True``, where the spec promises a new tensor): no returned tensor may share
  memory with an argument;
* **every differentiable output** (``grad_outputs``): the gradients compared are of the sum of the probes
  of every output the spec makes differentiable (an attention's weights as well as its output);
* **no state between calls**: a call, then calls that each change one of its arguments alone
  (``again(first, fresh, g)``: by default each argument of a fresh draw, put alone into the first call's, the
  draw made with every argument a draw can change changed (``apart``: a k drawn from ten values, an eps from three,
  redrawn until it differs); a part whose arguments are drawn to fit each other, or whose answer must change for
  sure, declares its own): a result kept from an earlier call under a key that leaves out any one
  argument (a memo, a table built once, a mutable default) shows. A changed argument keeps its summary
  (type, length, shape, dtype: tests/test_contracts.py holds every contract to it), so that a key made of
  a summary (``len(vocab)``, ``x.shape``) shows too; and the same calls run again one after another beside
  the student's code on the *same* argument objects (as a decoder's loop passes its memory to every
  layer; a changed tensor gets its new values in place, as a reused buffer), so that a key made of an
  object's identity (``id(memory)``, ``is``) shows. Between those calls every tensor a call returned (a view of
  an argument excepted) is changed in place, as a caller may, and the first call's arguments come once more at the
  end: a tensor the function keeps and hands out again (a memoised mask, a slice of a table built once) shows; and
  what each call returned must be, after the calls that follow it, as its caller left it (corpus w: a list returned
  from a mutable default, cleared and refilled by the next call).
* **initial values** (``initial``, where the part is a module's computation): the parameters at the values that
  module starts from (norm gains 1, biases 0), the values and the full gradients judged: a fast path for the identity
  that returns a right value with no gradient reaching the parameters shows;
* **zeros** (``zeros``, numeric arguments the spec lets be 0): each sent as 0 in an edge of its own, where a falsy
  test (``eps or 1e-6``, ``if p:``) turns an explicit 0 into something else;
* **edges in float64**: each edge (zeros included) also with its floating tensors in float64 where ``dtypes``
  allows it, where a special value meets float64's precision (an ``eps`` passed through float32 shows where it
  decides the output).
* **whole numbers** (``whole``, the indices of arguments the spec calls floats): each sent as a Python
  ``int`` of a whole value (what a caller writes as ``poisson_lambda=3``), judged as that float; and every edge
  whose such arguments are whole (a temperature of 0: greedy decoding) sent with them as ints too.
* **one size on** (in the again case): after the first call, an independent call one position longer (the
  size a step's state has after the first call): a result kept under a key of shapes (the last cache grown,
  reused when the next cache has its length) shows.
* **the caller's autograd mode** (``grad_modes``): the base case called under ``torch.no_grad()`` and under
  ``torch.inference_mode()``, judged as usual: a function whose values change with the caller's mode (an
  "inference fast path" in bfloat16 when no gradient is wanted) shows; and, where gradients are asked, the
  gradient case with the same call made first under each mode (a memo of tables built under
  ``inference_mode`` cannot be saved for backward: corpus p);
* **the caller's thread count**: the base case at an odd length (twice the base's, plus one) with
  ``torch.get_num_threads()`` saying ``OTHER_THREADS`` (7) for the call, judged as usual: a function whose values
  follow it shows (a graded process computes on one thread, which the others report);
* **graded entries** (``graded``, where the spec grades some outputs only: padded positions): the rest must be
  finite, the graded ones are judged;
* **unbounded integers** (``unbounded``, integer arguments the spec gives no range: relative positions): sent
  times 2**33 as well, past int32's range, where a cast to a narrower integer wraps; and with the dtype's
  extremes in the first places (one and two above its least value, its greatest, one below it, -1, 0 and 1),
  where a sum, a difference or a product on the way overflows. The least value itself is not promised (its
  negation and absolute value are itself: transformers' own T5 gives it bucket -2**63).
* **arguments by name**: the base case with every argument passed by its name (``names``, the spec's), where every
  other case passes them by position: a parameter renamed, positional-only or keyword-only shows;
* **dicts in another order**: where an argument is a dict (a block's weights), the base case with its entries in
  the reverse order: weights read by their order, not their keys, show;
* **large integers** (``large``, Python integers the spec does not bound: a vocabulary's size, an id): sent plus
  2**33 as well, where a count or an id carried in int32 wraps.

Where a right answer is one of a set rather than one value (a draw from a law, a sampler replayed, a
bucket within float rounding of a boundary), ``verify`` checks one reply against its arguments in place
of the oracle's value (the part's own exact check of one call).

Every call also goes through :class:`gradinglib.Guarded` (global random states untouched, no argument
changed in place). False-pass bound per class, over any seed: 0 for each class a case names (the case is
built to expose it whatever the draw: the length past every power of two up to 1,024, the dtype sent,
the leaf asked); false-fail: the oracle's own float64 error, far below the tolerances (measured in each
module that declares a contract).
"""

from __future__ import annotations

import ast
import functools
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import torch
from torch import Tensor

from course_grading.sandbox.calls import GradArg, GradMode, probe

from gradinglib import CheckFailed, Guarded, StudentRaised, expect_close, expect_equal, kind, same_value

# The sizes people give a table by position: BERT's 512, GPT-2's 1,024, 2,048, Llama 2's 4,096, the Transformer
# tutorials' max_len of 5,000 and 8,192. A length past them all shows a table sliced (or raising) past its end.
PAST_EVERY_BUFFER = 8200
# Rows past any chunk a function might cut its batch or its rows into (blocks of 16 sequences, of 1,024 or 4,096 rows),
# and a multiple of every power of two up to it, so that a last chunk cut as rows[-0:] (the whole tensor) shows too
# (corpus r: a padding mask not advanced past the first block of 16, SwiGLU over rows in blocks of 4,096)
MANY_ROWS = 8192
MANY_ROWS_FACTOR = 100.0  # that case's tolerance factor: a wrong row is off by its whole size
# Python's default recursion limit: every ``long`` goes past it, so that code which recurses once per position,
# piece or token (a recursive longest match, a truncation that calls itself per token cut) meets the limit the
# spec says there is not (corpus m).
RECURSION_LIMIT = 1000
# (atol, rtol) of a value, by dtype; gradients get ten times these (float32: 1e-4, 1e-3).
TOLERANCE: dict[torch.dtype, tuple[float, float]] = {torch.float32: (1e-5, 1e-4), torch.float64: (1e-11, 1e-10)}
EVERY = "*"  # in ``differentiable``: (index, EVERY) is every floating tensor of the dict or tuple argument at index
# The tolerance factor of the cases whose attention scores lie far below -10,000 (a mask filled with, or added
# as, a finite value shows there): float32 holds such a score to about 0.004, so two keys within that of each
# other share their weight differently in any two right answers (1e-3 off in 1 draw of 60 at a factor of
# 10); a finite mask puts weight of order 1 on a masked key: an error of order 1, 100 times this tolerance.
FAR_BELOW_FACTOR = 1000.0
# What the queries of those cases are scaled by on top where the spec names the fill (a4's and a5's: -inf or
# torch.finfo(dtype).min, "a fixed value is not enough"; the queries alone: the scores scale by it, the values and
# outputs do not), so that the real keys' scores lie near -1e34 to -1e35: a masked key filled with, or moved by, any
# finite value above -1e33 (-1e4, -1e9 [corpus t], -1e30) outranks them; the spec's two fills do not. float32 holds such
# a score to about 1e28, so the float32 spread (``conditioned``) still judges near-ties.
FAR_BELOW_SCALE = 1e30


@dataclass(frozen=True)
class Size:
    """One case's free sizes: the leading dimensions, the length (positions, or the spec's free size)
    and the floating dtype of the inputs."""

    lead: tuple[int, ...] = (2,)
    length: int = 5
    dtype: torch.dtype = torch.float32
    coincide: bool = False  # the lengths the spec lets differ (queries' and keys') drawn equal


EQUAL_SIZE = 8  # the largest size all_equal gives every free size


def all_equal(contract: Contract) -> Size | None:
    """The base size with every leading dimension and the length one number (the length, at most EQUAL_SIZE) and
    the lengths that may differ drawn equal (None where the base has a size that is not free): code that tells an
    argument's axes apart by their sizes (a (T_q, T_k) mask read as (B, T_k) because its first size is B, a (T_k,)
    mask read per query because T_k is T_q) meets the sizes where its guess is wrong (corpus v)."""
    base = contract.base
    # a lead or length that is no free size (a6's length 0, a5's -1 "as many as fit") has no equal: nothing to send
    if (not base.lead and not contract.coincide) or base.length < 1 or any(n < 1 for n in base.lead):
        return None
    n = min(base.length, EQUAL_SIZE)  # every size n: a few positions to a side, not n ** (dimensions + 1) of them
    return replace(base, lead=(n,) * len(base.lead), length=n, coincide=contract.coincide)


def each_alone(first: tuple[Any, ...], fresh: tuple[Any, ...], g: torch.Generator) -> list[tuple[Any, ...]]:
    """The arguments of the calls after a first one: each argument of a fresh draw that differs from the
    first call's, put alone in the first call's arguments."""
    return [(*first[:i], fresh[i], *first[i + 1 :]) for i in range(len(first)) if not same_value(first[i], fresh[i])]


# Draws ``apart`` makes at most: an argument drawn from n values comes out equal to the first call's in all of them
# with odds n^-APART_DRAWS (1e-15 for an eps drawn from three values), so every argument a draw can change is changed.
APART_DRAWS = 32


def apart(
    make: Callable[[torch.Generator, Size], tuple[Any, ...]], first: tuple[Any, ...], g: torch.Generator, size: Size
) -> tuple[Any, ...]:
    """A fresh draw at ``size`` whose every argument differs from ``first``'s where any of APART_DRAWS draws
    differs there: each argument taken from the first draw that changes it (one draw alone left an argument
    drawn from a few values, a top-k's k or an eps, equal to the first call's, and the again case then skipped
    it: a memo keyed without it passed on such draws). An argument no draw changes at this size (a count the
    size fixes) stays the first call's."""
    fresh = list(make(g, size))
    for _ in range(APART_DRAWS - 1):
        same = [i for i in range(len(first)) if same_value(first[i], fresh[i])]
        if not same:
            break
        draw = make(g, size)
        for i in same:
            fresh[i] = draw[i]
    return tuple(fresh)


@dataclass(frozen=True)
class Contract:
    """What one function promises. ``make(g, size)`` draws its arguments at a size; ``oracle(*args)``
    computes the expected value (tensors, or tuples of them) from the same arguments in float64,
    differentiably where ``differentiable`` names inputs; ``names`` name the arguments in messages.
    ``verify(value, args, where, size)``, if given, judges a reply instead (raises CheckFailed)."""

    function: str
    names: tuple[str, ...]
    make: Callable[[torch.Generator, Size], tuple[Any, ...]]
    oracle: Callable[..., Any] | None  # None where ``verify`` judges every reply
    base: Size = Size()
    leads: tuple[tuple[int, ...], ...] = ()  # other leading dimensions the spec allows
    long: int | None = None  # a length past any fixed buffer, where the spec sets no limit
    dtypes: tuple[torch.dtype, ...] = ()  # other floating dtypes the spec allows
    differentiable: tuple[GradArg, ...] = ()
    scale: float = 1.0  # tolerances times this (a sum over many terms, a chain of layers)
    # the size of the case whose tensor inputs are non-contiguous views (a caller's slice or transpose, the heads
    # split_heads returns): ``base`` unless given; every spec that names a shape takes any tensor of that shape
    views: Size | None = None
    # the smallest length the spec allows (one position, one key): a plain case there, and every edge there too
    shortest: int = 1
    options: tuple[tuple[str, Any], ...] = ()  # passed to every call (forbid=..., references=...)
    steps: Callable[[Guarded, torch.Generator, Size], None] | None = None  # a stateful protocol, step by step
    verify: Callable[[Any, tuple[Any, ...], str, Size], None] | None = None  # a set of right answers: one reply judged
    text: tuple[int, ...] = ()  # the arguments read as text: each sent in NFC and in NFD
    edges: tuple[tuple[str, Callable[[torch.Generator, Size], tuple[Any, ...]]], ...] = ()  # special values, named
    # points where the function is singular (a norm's input of variance 0), named: a value case and its gradients
    # there, finite wherever the oracle's are; at the base size only, since at an extreme the point is another
    singular: tuple[tuple[str, Callable[[torch.Generator, Size], tuple[Any, ...]]], ...] = ()
    # (label, every argument tuple of the small sizes, from a generator): a law of sizes that a closed form may get
    # wrong at one combination only, sent whole in one call beside the student's code (a driver), each result judged
    every_small: tuple[str, Callable[[torch.Generator], list[tuple[Any, ...]]]] | None = None
    # (first, fresh, g)
    again: Callable[[tuple[Any, ...], tuple[Any, ...], torch.Generator], list[tuple[Any, ...]]] = each_alone
    coincide: bool = False  # a case with the lengths that may differ drawn equal
    # (label, transform, tolerance factor)
    extremes: tuple[tuple[str, Callable[[tuple[Any, ...]], tuple[Any, ...]], float], ...] = ()
    ignored: tuple[tuple[str, Callable[[tuple[Any, ...], torch.Generator], tuple[Any, ...]]], ...] = ()  # (label, fill)
    # (label, cast, output dtype)
    mixed: tuple[tuple[str, Callable[[tuple[Any, ...]], tuple[Any, ...]], torch.dtype], ...] = ()
    integers: tuple[int, ...] = ()  # arguments the spec calls integer tensors, in any integer dtype
    fresh: bool = False  # the spec promises new tensors: none returned may share memory with an argument
    grad_outputs: tuple[int, ...] = (0,)  # the outputs the spec makes differentiable
    whole: tuple[int, ...] = ()  # arguments the spec calls floats: also sent as a whole-valued int
    # the again case's calls also on the same objects; off only where a driver judges each call against its own
    # seeding of the global random state (which the calls before it, in one driver call, have moved)
    same_objects: bool = True
    # the caller's autograd modes the base case is also called under: a function's values must not change with
    # them (an "inference fast path" in bfloat16 under no_grad); empty only where the spec's function trains
    grad_modes: tuple[GradMode, ...] = ("no_grad", "inference")
    # the output entries the spec grades (a boolean mask over the output's leading dimensions, from the arguments),
    # None: all; the others must be finite only ("the outputs at padded positions are not graded")
    graded: Callable[[tuple[Any, ...]], Tensor] | None = None
    # integer arguments whose values the spec does not bound (relative positions): also sent times 2**33, past
    # int32's range, where a cast to a narrower integer wraps
    unbounded: tuple[int, ...] = ()
    # Python integers the spec does not bound (a vocabulary's size, an id): also sent plus 2**33, past int32's range,
    # where one carried in a narrower integer (a count made int32, then subtracted from it) wraps (corpus w)
    large: tuple[int, ...] = ()
    # numeric arguments the spec lets be 0: each sent as 0 in an edge of its own (corpus q: `eps or 1e-6` turns an
    # explicit 0 into the default)
    zeros: tuple[int, ...] = ()
    # the first leading dimension is a batch of any size (of sequences, of rows): also sent as MANY_ROWS; off only
    # where the spec fixes it or draws no leading dimension
    rows: bool = True
    # a state a call returns and a later call takes (a cache): (argument index, output index) pairs. One call's state
    # is given to two continuations (another new input at ``branch_input`` each), in the student's process, on the
    # same objects: both are judged, and the state must be as it was returned (corpus r: a cache appended in place
    # into a buffer it views, so that the second continuation of a prefix overwrote the first's)
    state: tuple[tuple[int, int], ...] = ()
    branch_input: int = 0
    # the parameters at the values the module the part implements starts from (nn.LayerNorm's gain 1 and bias 0):
    # values and the full gradients there (corpus t: a fast path for the identity affine returned the normalised x,
    # right in value, with no gradient reaching the gain or the bias), :func:`at_initial_values`
    initial: Callable[[tuple[Any, ...]], tuple[Any, ...]] | None = None

    def __post_init__(self) -> None:
        if self.long is not None and self.long <= RECURSION_LIMIT:
            raise ValueError(
                f"{self.function}: long={self.long} stays within Python's recursion limit ({RECURSION_LIMIT}): a case "
                "past every usual buffer goes past it too"
            )

    @property
    def many_rows_dtype(self) -> torch.dtype:
        """The dtype of the case of MANY_ROWS: float64 where the spec allows it. A row computed from the wrong row
        of i.i.d. inputs moves a mean over the rows (a loss) by about 1/sqrt(rows), which float32's tolerance for
        that mean (MANY_ROWS_FACTOR) hides, and float64's does not (lm_loss with its second block of 4,096
        sequences' logits taken from the first: 0.003 off)."""
        return torch.float64 if torch.float64 in (self.base.dtype, *self.dtypes) else self.base.dtype

    def sizes(self) -> list[tuple[str, Size]]:
        """The generic cases' sizes, each with what it is for."""
        found: list[tuple[str, Size]] = [
            (f"leading dimensions {lead or 'none'}", replace(self.base, lead=lead)) for lead in self.leads
        ]
        if self.long is not None:
            found.append((f"{self.long} positions (past any fixed buffer)", replace(self.base, length=self.long)))
        if self.rows and self.base.lead:
            many = replace(self.base, lead=(MANY_ROWS, *self.base.lead[1:]), dtype=self.many_rows_dtype)
            found.append((f"{MANY_ROWS} in the first leading dimension (past any chunk of the batch)", many))
        found += [(f"{dtype} inputs", replace(self.base, dtype=dtype)) for dtype in self.dtypes]
        return found


def at_initial_values(
    ones: Sequence[GradArg] = (), zeros: Sequence[GradArg] = ()
) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    """A :attr:`Contract.initial` transform: the tensors at ``ones`` (an argument's index, or (index, key) of a dict
    argument's entry) filled with 1 and those at ``zeros`` with 0, every other argument as drawn."""

    def transform(args: tuple[Any, ...]) -> tuple[Any, ...]:
        filled = [dict(a) if isinstance(a, dict) else a for a in args]
        for value, paths in ((1.0, ones), (0.0, zeros)):
            for path in paths:
                index, key = (path, None) if isinstance(path, int) else path
                holder = filled[index]
                if key is None:
                    filled[index] = torch.full_like(holder, value)
                else:
                    holder[key] = torch.full_like(holder[key], value)
        return tuple(filled)

    return transform


def _zero_edges(contract: Contract) -> list[tuple[str, Callable[[torch.Generator, Size], tuple[Any, ...]]]]:
    """An edge per argument the spec lets be 0 (``zeros``): the base arguments with that one 0, of the type drawn
    (``0.0`` for a float, ``0`` for an int), so that a falsy test (``eps or 1e-6``, ``if p:``) shows."""

    def make(g: torch.Generator, size: Size, index: int) -> tuple[Any, ...]:
        args = contract.make(g, size)
        if index >= len(args) or isinstance(args[index], bool) or not isinstance(args[index], (int, float)):
            raise AssertionError(
                f"{contract.function}: zeros names {contract.names[index]}, which is drawn as no number"
            )
        return (*args[:index], type(args[index])(0), *args[index + 1 :])

    return [(f"{contract.names[i]} = 0", functools.partial(make, index=i)) for i in contract.zeros]


def contract_cases(contract: Contract, student: Guarded, g: torch.Generator) -> list[Callable[[], None]]:
    """The generic cases of one contract, to run with the part's own (:func:`gradinglib.run_cases`)."""
    # first, before any other call has filled a memo the student keeps: the gradients of a call made just before
    # under each autograd mode (a table built under inference_mode cannot be saved for backward), at a length of
    # their own, so that no earlier call's entry stands in for the one the mode builds
    cases = [
        _gradient_case(
            contract, student, g, f"gradients, the same call made first under torch.{_MODE_NAMES[mode]}", before=mode
        )
        for mode in (contract.grad_modes if contract.differentiable else ())
    ]
    # the case of MANY_ROWS looks for rows computed wrongly (a chunk's mask, a last chunk), not for precision: in
    # float32 (where the spec allows no float64) a mean over its rows (a loss) carries error that grows with them
    cases += [
        _value_case(
            contract,
            student,
            g,
            f"{label}{where}",
            size,
            nudge=nudge,
            factor=MANY_ROWS_FACTOR if many and size.dtype == torch.float32 else 1.0,
        )
        for label, size in contract.sizes()
        for many in (size.lead[:1] == (MANY_ROWS,),)
        for where, nudge in (
            ((", each value just below its float32", -1), (", each value just above its float32", 1))
            if size.dtype == torch.float64 and not many
            else (("", 0),)
        )
    ]
    # where the case of MANY_ROWS is in float32, a reduction over the rows (a loss) hides a row computed from the
    # wrong row in its value: each row's gradient shows it (lm_loss with its second block of 4,096 sequences' logits
    # taken from the first: 0.0002 off in the value, the gradients of the second block 0 where they are of order 1)
    many = [size for _, size in contract.sizes() if size.lead[:1] == (MANY_ROWS,) and size.dtype == torch.float32]
    cases += [
        _gradient_case(contract, student, g, f"gradients, {MANY_ROWS} in the first leading dimension", at=size)
        for size in many
        if contract.differentiable
    ]
    for label, layout in (
        ("inputs as non-contiguous views (a caller's slice or transpose, the heads split_heads returns)", strided),
        ("inputs whose last dimension is not contiguous (a caller's transpose; every second element)", transposed),
        ("inputs as slices of wider rows (odd strides and offset: a caller's x[..., 1:-2])", sliced),
        ("arguments sharing memory (a shorter one a view of a longer one's first positions: the same address)", shared),
    ):
        cases.append(_value_case(contract, student, g, label, contract.views or contract.base, layout=layout))
    # the smallest sizes, where a shortcut for one position or one key lives; lengths that may differ drawn equal
    shortest = replace(contract.base, length=contract.shortest, coincide=contract.coincide)
    cases.append(
        _value_case(contract, student, g, f"the shortest length the spec allows ({contract.shortest})", shortest)
    )
    for form in ("NFC", "NFD") if contract.text else ():
        cases.append(
            _value_case(contract, student, g, f"text in {form}", contract.base, layout=_in_form(contract, form))
        )
    if contract.text:
        cases.append(_value_case(contract, student, g, "letters outside the BMP", contract.base, layout=astral))
    # every edge in every other dtype the spec allows too: a special value meets float64's precision there (an eps
    # rounded to float32 shows where eps decides the output; a default as small as 1e-6 put in place of a 0 shows)
    cases += [
        _value_case(
            replace(contract, make=lambda g, size, make=make: in_float64(make(g, size))),
            student,
            g,
            f"{label}, in float64",
            replace(contract.base, dtype=torch.float64),
        )
        for label, make in (*contract.edges, *_zero_edges(contract))
        if torch.float64 in contract.dtypes
    ]
    equal = all_equal(contract)
    for label, make in (*contract.edges, *_zero_edges(contract)):
        cases.append(_value_case(replace(contract, make=make), student, g, label, contract.base))
        # each edge with every free size the same number too: a form of an argument read by its sizes meets the
        # sizes where it cannot be told from another form
        if equal is not None:
            at = f"{label}, every free size {equal.length}"
            cases.append(_value_case(replace(contract, make=make), student, g, at, equal))
        # each edge at the shortest length too: a special value meets a shortcut for one position there
        cases.append(
            _value_case(replace(contract, make=make), student, g, f"{label}, at length {shortest.length}", shortest)
        )
        # each edge at each extreme too: a special value of one argument can meet an extreme of another (p = 1
        # with probabilities that underflow to 0), and neither case alone has both
        cases += [
            _value_case(
                replace(contract, make=make),
                student,
                g,
                f"{label}, {extreme}",
                contract.base,
                transform,
                factor,
                conditioned=True,
            )
            for extreme, transform, factor in contract.extremes
        ]
        # where text is read, the edge in letters outside the BMP (a limit on a length meets text whose bytes or
        # UTF-16 units outnumber its characters); where floats may come as ints, its whole ones as ints (0: greedy)
        if contract.text:
            cases.append(
                _value_case(
                    replace(contract, make=make), student, g, f"{label}, letters outside the BMP", contract.base, astral
                )
            )
        if contract.whole:
            cases.append(
                _value_case(
                    replace(contract, make=make),
                    student,
                    g,
                    f"{label}, whole-number floats sent as ints",
                    contract.base,
                    fill=lambda args: _as_ints(contract, args),
                )
            )
        # and its gradients: a special value (a masked row, a probability of 1, a zero input) is where a formula
        # divides by zero or takes the log of 0 on the way back while its value is right (finite where the
        # oracle's are: the values there may sit where float32's gradients are rough)
        if contract.differentiable:
            edge = replace(contract, make=make)
            cases.append(_gradient_case(edge, student, g, f"gradients, {label}", finite_only=True))
    if contract.every_small is not None:
        cases.append(_every_small_case(contract, student, g))
    for label, make in contract.singular:
        cases.append(_value_case(replace(contract, make=make), student, g, label, contract.base))
        if contract.differentiable:
            cases.append(
                _gradient_case(replace(contract, make=make), student, g, f"gradients, {label}", finite_only=True)
            )
    if contract.coincide:
        cases.append(
            _value_case(contract, student, g, "lengths that may differ, equal", replace(contract.base, coincide=True))
        )
    if equal is not None:
        cases.append(_value_case(contract, student, g, f"every free size {equal.length}", equal))
    if contract.initial is not None:
        label = "the parameters at their initial values (norm gains 1, biases 0)"
        cases.append(_value_case(contract, student, g, label, contract.base, layout=contract.initial))
        if contract.differentiable:
            cases.append(_gradient_case(contract, student, g, f"gradients, {label}", contract.initial))
    for label, transform, factor in contract.extremes:
        cases.append(
            _value_case(contract, student, g, label, contract.base, layout=transform, factor=factor, conditioned=True)
        )
    for label, fill in contract.ignored:
        cases.append(
            _value_case(contract, student, g, label, contract.base, fill=lambda args, fill=fill: fill(args, g))
        )
    for label, cast, dtype in contract.mixed:  # drawn at the base dtype, some arguments cast; judged in ``dtype``
        cases.append(_value_case(contract, student, g, label, contract.base, layout=cast, dtype=dtype))
    for dtype in (torch.int32, torch.int16, torch.uint8) if contract.integers else ():
        cases.append(
            _value_case(
                contract,
                student,
                g,
                f"integer arguments as {dtype}",
                contract.base,
                fill=lambda args, dtype=dtype: _narrowed(contract, args, dtype),
            )
        )
    # every edge in each of them too: a special value meets the dtype's wrap there (corpus u: ``lengths - 1`` is 255
    # for a length of 0 in uint8)
    for dtype in (torch.int32, torch.int16, torch.uint8) if contract.integers else ():
        for label, make in (*contract.edges, *_zero_edges(contract)):
            cases.append(
                _value_case(
                    replace(contract, make=make),
                    student,
                    g,
                    f"{label}, integer arguments as {dtype}",
                    contract.base,
                    fill=lambda args, dtype=dtype: _narrowed(contract, args, dtype),
                )
            )
    # the integer dtypes at the long length too: a position or count made in the argument's own dtype
    # (torch.arange(T, dtype=lengths.dtype)) wraps past that dtype's range, which only a long length reaches
    for dtype in (torch.int16, torch.uint8) if contract.integers and contract.long is not None else ():
        cases.append(
            _value_case(
                contract,
                student,
                g,
                f"integer arguments as {dtype}, {contract.long} positions",
                replace(contract.base, length=contract.long),
                layout=lambda args, dtype=dtype: _clamped(contract, args, dtype),
            )
        )
    if contract.whole:
        cases.append(
            _value_case(
                contract,
                student,
                g,
                "whole-number floats sent as ints",
                contract.base,
                layout=lambda args: tuple(
                    float(max(1, round(a))) if i in contract.whole else a for i, a in enumerate(args)
                ),
                fill=lambda args: _as_ints(contract, args),
            )
        )
    for mode in contract.grad_modes:
        cases.append(
            _value_case(contract, student, g, f"called under torch.{_MODE_NAMES[mode]}", contract.base, mode=mode)
        )
    label = f"called where torch.get_num_threads() reports {OTHER_THREADS}"
    odd = replace(contract.base, length=2 * contract.base.length + 1)  # cut into one chunk per thread: unequal ones
    cases.append(_value_case(contract, student, g, label, odd, threads=OTHER_THREADS))
    if contract.unbounded:
        cases.append(
            _value_case(
                contract,
                student,
                g,
                "integer values past int32's range (times 2**33)",
                contract.base,
                layout=lambda args: tuple(a * 2**33 if i in contract.unbounded else a for i, a in enumerate(args)),
            )
        )
        cases.append(
            _value_case(
                contract,
                student,
                g,
                "the integer dtype's extremes (one above its least value, its greatest)",
                contract.base,
                layout=lambda args: tuple(
                    _at_extremes(a) if i in contract.unbounded else a for i, a in enumerate(args)
                ),
            )
        )
    if not contract.function.startswith(DRIVEN):
        cases.append(_keyword_case(contract, student, g))
    if any(type(a) is dict for a in contract.make(torch.Generator().manual_seed(0), contract.base)):
        label = "every dict argument's entries in the reverse order (a dict is read by its keys)"
        cases.append(_value_case(contract, student, g, label, contract.base, layout=_reversed_dicts))
    if contract.large:
        cases.append(
            _value_case(
                contract,
                student,
                g,
                "integers past int32's range (plus 2**33)",
                contract.base,
                layout=lambda args: tuple(a + 2**33 if i in contract.large else a for i, a in enumerate(args)),
            )
        )
    cases.append(_again_case(contract, student, g))
    if contract.same_objects:
        cases.append(_same_objects_case(contract, student, g))
    if contract.state:
        cases.append(_branch_case(contract, student, g))
    if contract.differentiable:
        cases.append(_gradient_case(contract, student, g))
        cases += [
            _gradient_case(contract, student, g, f"gradients, {label}", transform, finite_only=True)
            for label, transform, _ in contract.extremes
        ]
    if contract.steps is not None:
        steps = contract.steps
        sizes = [contract.base] + [replace(contract.base, dtype=dtype) for dtype in contract.dtypes]
        cases += [lambda size=size: steps(student, g, size) for size in sizes]
    return cases


def describe_args(names: Sequence[str], args: Sequence[Any]) -> str:
    """``x (2, 5, 8), p {12 tensors}, n_heads=2``: a case's arguments, for messages."""
    shown = []
    for name, value in zip(names, args):
        if isinstance(value, Tensor):
            shown.append(f"{name} {tuple(value.shape)}" + ("" if value.dtype == torch.float32 else f" {value.dtype}"))
        elif isinstance(value, dict):
            shown.append(f"{name} {{{len(value)} entries}}")
        elif isinstance(value, (list, tuple)) and (
            len(value) > 8 or not all(isinstance(v, (int, float, str)) for v in value)
        ):
            shown.append(f"{name} ({len(value)} items)")
        else:
            shown.append(f"{name}={value!r}")
    return ", ".join(shown)


def in_float64(value: Any) -> Any:
    """Floating tensors as float64 copies laid out contiguously (inside tuples, lists and dicts too), for an oracle:
    the layouts a case sends (:func:`transposed`, :func:`sliced`) test the student's code, not the oracle's."""
    if isinstance(value, Tensor):
        if value.is_floating_point():
            return value.detach().to(torch.float64, memory_format=torch.contiguous_format, copy=True)
        return value
    if isinstance(value, (tuple, list)):
        return type(value)(in_float64(v) for v in value)
    if isinstance(value, dict):
        return {k: in_float64(v) for k, v in value.items()}
    return value


def past_float32(value: Any, direction: int) -> Any:
    """``value`` with every float64 tensor (inside tuples, lists and dicts too) moved by 2**-26 of each entry toward
    ``direction`` (-1: down, +1: up): less than half a float32 step, so each entry rounds to float32 back to where
    it was drawn (float32, cast up) and that rounding goes up for every entry (``direction`` -1) or down for every
    one (+1); far above float64's own rounding. Zeros, infinities and NaN stay; a leaf that asks for gradients
    still does."""
    if isinstance(value, Tensor):
        if value.dtype != torch.float64:
            return value
        with torch.no_grad():
            moved = value * (1 + torch.sign(value) * direction * 2**-26)
        return moved.requires_grad_(value.requires_grad)
    if isinstance(value, (tuple, list)):
        return type(value)(past_float32(v, direction) for v in value)
    if isinstance(value, dict):
        return {k: past_float32(v, direction) for k, v in value.items()}
    return value


# every Latin letter's counterpart outside the Basic Multilingual Plane (mathematical bold, U+1D400 on): one code
# point, two UTF-16 units and four UTF-8 bytes each; NFC and NFD leave them as they are
_ASTRAL = {ord(c): chr(0x1D400 + i) for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")}


def astral(value: Any) -> Any:
    """``value`` with the Latin letters of every string in it (dict keys too) as letters outside the Basic
    Multilingual Plane, one for one: what a function of the text's characters does is the same, what counts bytes
    or UTF-16 units is not."""
    if isinstance(value, str):
        return value.translate(_ASTRAL)
    if isinstance(value, (tuple, list)):
        return type(value)(astral(v) for v in value)
    if isinstance(value, dict):
        return {astral(k): astral(v) for k, v in value.items()}
    return value


def widened(dtype: torch.dtype, scale: float) -> float:
    """What a tolerance in ``dtype`` is multiplied by: ``scale`` in float32, whose rounding grows with the
    size of the values and the length of a computation; never in float64. There a right answer is within
    about 1e-13 of the oracle, and an answer that computes in float32 inside (Hugging Face's RMSNorm casts
    to float32 and back) is off by about 1e-7 relative: ten times float64's ``rtol``, which a scale of 10
    would let through."""
    return 1.0 if dtype == torch.float64 else scale


def expect_like(actual: Any, expected: Any, what: str, where: str, dtype: torch.dtype, scale: float = 1.0) -> None:
    """``actual`` against the oracle's ``expected``, entry by entry: a floating tensor in ``dtype``
    within :data:`TOLERANCE` (times ``scale``, see :func:`widened`), any other tensor exactly, tuples and lists
    item by item."""
    if isinstance(expected, Tensor):
        if not expected.is_floating_point():
            expect_equal(actual, expected, what, where)
            return
        if isinstance(actual, Tensor) and actual.dtype != dtype:  # first: its rounding would show as an error
            raise CheckFailed(f"{what} is {actual.dtype} for {dtype} inputs; keep the inputs' dtype ({where})")
        atol, rtol = TOLERANCE[dtype]
        scale = widened(dtype, scale)
        expect_close(actual, expected, what, where, atol=atol * scale, rtol=rtol * scale)
    elif isinstance(expected, (tuple, list)):
        if not isinstance(actual, (tuple, list)) or len(actual) != len(expected):
            raise CheckFailed(
                f"{what} should be a {type(expected).__name__} of {len(expected)} items, got {kind(actual)} ({where})"
            )
        for i, (a, e) in enumerate(zip(actual, expected)):
            expect_like(a, e, f"{what}[{i}]", where, dtype, scale)
    elif actual != expected:
        raise CheckFailed(f"{what} is {actual!r}, expected {expected!r} ({where})")


def _call(student: Guarded, contract: Contract, args: tuple[Any, ...], where: str, **options: Any) -> Any:
    """The student's reply; an exception the student's code raised names the case it raised on (not
    implemented and refused stay as they are: :func:`gradinglib.run_cases` words them)."""
    try:
        return student.call(contract.function, args, fresh=contract.fresh, **options, **dict(contract.options))
    except StudentRaised as error:
        if error.type_name in ("NotImplementedError", "Refused"):
            raise
        raise CheckFailed(f"raised {error} ({where})") from None


def _each_tensor(value: Any, view: Callable[[Tensor], Tensor]) -> Any:
    """``value`` with ``view`` applied to every tensor in it (inside tuples, lists and dicts too)."""
    if isinstance(value, Tensor):
        return view(value)
    if isinstance(value, (tuple, list)):
        return type(value)(_each_tensor(v, view) for v in value)
    if isinstance(value, dict):
        return {k: _each_tensor(v, view) for k, v in value.items()}
    return value


def strided(value: Any) -> Any:
    """``value`` with every tensor of two or more dimensions as a non-contiguous view of the same shape and values:
    its third-last and second-last dimensions swapped in memory (as ``split_heads``' ``(B, T, h, d) -> (B, h, T, d)``
    transpose leaves them; ``.view`` merging the leading dimensions fails on it), or a matrix's two."""

    def view(t: Tensor) -> Tensor:
        if t.dim() >= 3:
            return t.transpose(-3, -2).contiguous().transpose(-3, -2)
        return t.transpose(-1, -2).contiguous().transpose(-1, -2) if t.dim() == 2 else t

    return _each_tensor(value, view)


def transposed(value: Any) -> Any:
    """``value`` with every tensor of two or more dimensions as a view whose last dimension is not the one laid out
    next to each other (the last two swapped in memory: a caller's ``.transpose(-1, -2)``), and every vector as
    every second element of a buffer: code that needs the last stride to be 1 (``view_as_complex``, a ``.view`` of
    the last dimension) shows."""

    def view(t: Tensor) -> Tensor:
        if t.dim() >= 2:
            return t.transpose(-1, -2).contiguous().transpose(-1, -2)
        if t.dim() == 1:
            buffer = t.new_zeros(2 * len(t))
            buffer[::2] = t
            return buffer[::2]
        return t

    return _each_tensor(value, view)


def sliced(value: Any) -> Any:
    """``value`` with every tensor of one or more dimensions as a slice of wider rows: three more entries in the
    last dimension, starting one in (an odd row stride and an odd offset, as ``x[..., 1:-2]`` of a caller's buffer):
    code that pairs neighbouring entries through strides it assumes even shows."""

    def view(t: Tensor) -> Tensor:
        if t.dim() == 0:
            return t
        buffer = t.new_zeros(*t.shape[:-1], t.shape[-1] + 3)
        inner = buffer[..., 1 : 1 + t.shape[-1]]
        inner.copy_(t)
        return inner

    return _each_tensor(value, view)


def shared(args: tuple[Any, ...]) -> tuple[Any, ...]:
    """``args`` with every floating tensor argument that has a longer one of the same shape but for its length (the
    second-to-last dimension) replaced by a view of that longer one's first positions: the same address, other
    values (corpus s: multi-head attention that took memory starting where x_q starts for x_q itself)."""
    tensors = [i for i, a in enumerate(args) if isinstance(a, Tensor) and a.is_floating_point() and a.dim() >= 2]

    def family(t: Tensor) -> tuple[Any, ...]:
        return (t.dtype, t.dim(), *t.shape[:-2], t.shape[-1])

    out = list(args)
    for i in tensors:
        longer = [j for j in tensors if family(args[j]) == family(args[i]) and args[j].shape[-2] > args[i].shape[-2]]
        if longer:
            source = max(longer, key=lambda j: args[j].shape[-2])
            out[i] = args[source][..., : args[i].shape[-2], :]
    return tuple(out)


# the thread count ``torch.get_num_threads()`` reports in one case (the others report the grader's): more than a
# laptop's cores, and prime, so that a last axis cut into one chunk per thread is cut unequally (corpus r: an RMSNorm
# whose mean square is a mean of per-thread means when there are more than 4 threads)
OTHER_THREADS = 7
_MODE_NAMES = {"no_grad": "no_grad()", "inference": "inference_mode()"}


def _narrowed(contract: Contract, args: tuple[Any, ...], dtype: torch.dtype) -> tuple[Any, ...]:
    """The arguments with each of ``contract.integers`` in ``dtype`` (drawn so that their values fit it)."""
    info = torch.iinfo(dtype)
    narrowed = []
    for i, value in enumerate(args):
        if i in contract.integers:
            assert info.min <= int(value.min()) and int(value.max()) <= info.max, f"{contract.names[i]} fits {dtype}"
            value = value.to(dtype)
        narrowed.append(value)
    return tuple(narrowed)


def _clamped(contract: Contract, args: tuple[Any, ...], dtype: torch.dtype) -> tuple[Any, ...]:
    """The arguments with each of ``contract.integers`` in ``dtype``, its values clamped into that dtype's range
    (the contracts that send integers at a long length take counts and positions there: lengths stay lengths)."""
    info = torch.iinfo(dtype)
    return tuple(
        value.clamp(info.min, info.max).to(dtype) if i in contract.integers else value for i, value in enumerate(args)
    )


def _at_extremes(values: Tensor) -> Tensor:
    """``values`` (an integer tensor of at least 7 elements) with the first places set to its dtype's extremes and
    their neighbours: least + 1 (the least whose negation it holds), least + 2, greatest, greatest - 1, -1, 0, 1
    (same shape and dtype; a copy). The least value itself is promised to no one: its absolute value is itself."""
    info = torch.iinfo(values.dtype)
    extremes = torch.tensor([info.min + 1, info.min + 2, info.max, info.max - 1, -1, 0, 1], dtype=values.dtype)
    if values.numel() < len(extremes):
        raise ValueError(f"the extremes need {len(extremes)} places; the base case has {values.numel()}")
    flat = values.flatten().clone()
    flat[: len(extremes)] = extremes
    return flat.view(values.shape)


def _as_ints(contract: Contract, args: tuple[Any, ...]) -> tuple[Any, ...]:
    """The arguments with each of ``contract.whole`` that holds a whole number as an ``int``."""
    return tuple(
        int(a) if i in contract.whole and isinstance(a, float) and a.is_integer() else a for i, a in enumerate(args)
    )


def _in_form(contract: Contract, form: Literal["NFC", "NFD"]) -> Callable[[Any], Any]:
    """The arguments with every string of ``contract.text``'s (or of a list there) in Unicode form ``form``."""

    def normal(value: Any) -> Any:
        if isinstance(value, str):
            return unicodedata.normalize(form, value)
        return type(value)(normal(v) for v in value) if isinstance(value, (list, tuple)) else value

    return lambda args: tuple(normal(a) if i in contract.text else a for i, a in enumerate(args))


def _value_case(
    contract: Contract,
    student: Guarded,
    g: torch.Generator,
    label: str,
    size: Size,
    layout: Callable[[Any], Any] = lambda value: value,
    factor: float = 1.0,
    fill: Callable[[Any], Any] | None = None,
    dtype: torch.dtype | None = None,
    mode: GradMode = "enabled",
    nudge: int = 0,
    conditioned: bool = False,
    threads: int | None = None,
) -> Callable[[], None]:
    """One case: the arguments ``make`` draws at ``size``, through ``layout`` (judged as sent), then through
    ``fill`` (sent so, judged as before it: values the spec says do not matter); tolerances times ``factor``;
    floating outputs expected in ``dtype`` (default: ``size``'s); called under the autograd ``mode``; float64
    values moved off float32's by ``nudge`` (:func:`past_float32`) where it is not 0."""
    judged = size if dtype is None else replace(size, dtype=dtype)

    def run() -> None:
        drawn = contract.make(g, size)
        args = layout(past_float32(drawn, nudge) if nudge else drawn)
        sent = args if fill is None else fill(args)
        where = f"{label}: {describe_args(contract.names, sent)}"
        reply = _call(student, contract, sent, where, grad_mode=mode, threads=threads)
        _judge(contract, reply.value, args, where, judged, factor, conditioned)

    return run


# How many times its inputs' own float32 rounding a right float32 answer may be off by, on the cases where that is
# what decides (the extremes: near-ties of scores multiplied into the thousands). Measured: the key's
# grouped-query attention off by 0.0067 where float32-size changes of its inputs moved the exact answer by 0.0089
# (corpus p, 1 draw in about 150), against a fixed tolerance of 0.001.
CONDITIONING = 10.0


def float32_spread(
    oracle: Callable[..., Any],
    args: tuple[Any, ...],
    expected: Any,
    in_float32: Sequence[Callable[..., Any]] = (),
) -> float:
    """How far the exact answer ``expected`` (``oracle`` on ``args`` in float64) moves when every floating input
    moves by float32's rounding (each entry times ``1 + 2**-24 z``, ``z`` standard normal; the largest of three
    draws, over every finite entry of every floating output): what any float32 computation on these inputs may be
    off by before its own rounding, large where huge scores nearly tie. ``in_float32``: the same computation carried
    out in float32 in each way a right answer may carry it out (each casts the float64 arguments it gets); their
    distance from ``expected`` on each draw counts too, for the rounding inside a float32 computation that no change
    of the inputs reproduces (``1 - p`` for a probability ``p`` within 1e-5 of 1, or a log-sum-exp of 1,500 rounded
    to 1e-4: a gradient that cancels, divided by Adam's ``eps``). Deterministic (its own generator)."""
    g = torch.Generator().manual_seed(0)
    exact = in_float64(args)

    def moved(t: Tensor) -> Tensor:
        if not t.is_floating_point():
            return t
        return t * (1 + 2**-24 * torch.randn(t.shape, generator=g, dtype=t.dtype))

    spread = 0.0
    for _ in range(3):
        inputs = _each_tensor(exact, moved)
        # with autograd: an oracle may train (a6's optimizer steps)
        for value in [oracle(*inputs)] + [float32(*inputs) for float32 in in_float32]:
            for a, b in zip(_floats(value), _floats(expected)):
                finite = torch.isfinite(a) & torch.isfinite(b)
                if bool(finite.any()):
                    spread = max(spread, float((a - b)[finite].abs().max()))
    return spread


def _floats(value: Any) -> list[Tensor]:
    """The floating tensors of an output, in order (inside tuples and lists)."""
    if isinstance(value, Tensor):
        return [value.double()] if value.is_floating_point() else []
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in _floats(v)]
    return []


def _judge(
    contract: Contract,
    value: Any,
    args: tuple[Any, ...],
    where: str,
    size: Size,
    factor: float = 1.0,
    conditioned: bool = False,
) -> None:
    """One reply's value against the oracle on ``args`` (or the contract's ``verify``), in ``size``'s dtype; with
    ``conditioned``, a float32 tolerance of at least ten times what float32's rounding of the inputs alone moves the
    exact answer by (:func:`float32_spread`)."""
    if contract.verify is not None:
        contract.verify(value, args, where, size)
        return
    assert contract.oracle is not None, f"{contract.function}: a contract needs an oracle or a verify"
    with torch.no_grad():
        expected = contract.oracle(*in_float64(args))
    if conditioned and size.dtype == torch.float32:
        spread = float32_spread(contract.oracle, args, expected)
        factor = max(factor, CONDITIONING * spread / (TOLERANCE[torch.float32][0] * contract.scale))
    if contract.graded is not None and isinstance(value, Tensor) and value.shape == expected.shape:
        if not bool(torch.isfinite(value).all()):
            raise CheckFailed(
                f"{contract.function}(...) has NaN or inf where the spec asks for finite numbers ({where})"
            )
        graded = contract.graded(args)
        value, expected = value[graded], expected[graded]  # the entries the spec grades
    expect_like(value, expected, f"{contract.function}(...)", where, size.dtype, contract.scale * factor)


# Run beside the student's code (``Student.call(..., driver=...)``), finding the function by its name in the
# notebook: the calls of the again case on the same argument objects, as a caller's loop passes them.
# A copy of what a call returned, as it is now (every driver's): later calls may change the objects themselves.
SNAPSHOT_DRIVER = """
def _grading_snapshot(value):
    import torch

    if issubclass(type(value), torch.Tensor):
        return value.detach().clone()
    if issubclass(type(value), (tuple, list)):
        return type(value)(_grading_snapshot(v) for v in value)
    if issubclass(type(value), dict):
        return {k: _grading_snapshot(v) for k, v in value.items()}
    return value
"""
SAME_OBJECTS_DRIVER = (
    SNAPSHOT_DRIVER
    + """
def _grading_same_objects(function, width, changed, *values):
    import torch

    snapshot = _grading_snapshot

    def storages(value):
        if issubclass(type(value), torch.Tensor):
            storage = torch.Tensor.untyped_storage(value)
            return {storage.data_ptr()} if storage.nbytes() > 0 else set()
        if issubclass(type(value), (tuple, list)):
            return set().union(set(), *(storages(v) for v in value))
        if issubclass(type(value), dict):
            return set().union(set(), *(storages(v) for v in value.values()))
        return set()

    def scribble(value, theirs):
        # what a caller may do with what it was given: change it in place (a view of an argument excepted)
        if issubclass(type(value), torch.Tensor):
            if storages(value) & theirs:
                return
            try:
                with torch.no_grad():
                    if value.dtype == torch.bool:
                        value.logical_not_()
                    else:
                        value.add_(1)
            except Exception:
                pass  # a tensor that cannot be written (expanded, an inference tensor): no caller changes it
        elif issubclass(type(value), (tuple, list)):
            for v in value:
                scribble(v, theirs)
        elif issubclass(type(value), dict):
            for v in value.values():
                scribble(v, theirs)

    first, rest = list(values[:width]), iter(values[width:])
    kept = snapshot(first)
    returned = globals()[function](*first)
    results = [snapshot(returned)]
    scribble(returned, storages(first))
    # what the caller holds, as it held it after changing it (a view of an argument changes with the argument: none)
    held = [(None, None) if storages(returned) & storages(first) else (returned, snapshot(returned))]
    for indices in changed:
        args, refilled = list(first), []
        for index in indices:
            value = next(rest)
            same = issubclass(type(value), torch.Tensor) and isinstance(first[index], torch.Tensor)
            if same and value.shape == first[index].shape and value.dtype == first[index].dtype:
                with torch.no_grad():
                    first[index].copy_(value)  # new values in the same object, as a caller's buffer
                refilled.append(index)
            else:
                args[index] = value
        returned = globals()[function](*args)
        results.append(snapshot(returned))
        theirs = storages(first) | storages(args)
        scribble(returned, theirs)
        held.append((None, None) if storages(returned) & theirs else (returned, snapshot(returned)))
        with torch.no_grad():
            for index in refilled:
                first[index].copy_(kept[index])
    results.append(snapshot(globals()[function](*first)))  # the first call's arguments again
    # each result as the caller holds it after every call: a later call must not change an earlier one's result
    # one flat list, as deep as a plain call's results: the results, then what the caller held after each call as it
    # left it, then the same after every call
    return results + [before for _, before in held] + [snapshot(value) for value, _ in held]
"""
)


BRANCH_DRIVER = (
    SNAPSHOT_DRIVER
    + """
def _grading_branches(function, pairs, first, a, b, fresh):
    snapshot = _grading_snapshot

    prefix = globals()[function](*first)
    returned, results = [prefix], [snapshot(prefix)]
    for then in (a, b):
        args = list(then)
        for argument, output in pairs:
            args[argument] = prefix[output]
        returned.append(globals()[function](*args))
        results.append(snapshot(returned[-1]))
    results.append(snapshot(globals()[function](*fresh)))  # another first call, of the same sizes
    # what the first call and the first continuation returned, after the second continuation and the other first call
    return results + [snapshot(returned[0]), snapshot(returned[1])]
"""
)


def _branch_case(contract: Contract, student: Guarded, g: torch.Generator) -> Callable[[], None]:
    """One call, then two continuations of it, each given the state it returned (:attr:`Contract.state`), then
    another first call on a new draw of the same sizes: each judged, and what the first call and the first
    continuation returned unchanged after the calls that came later (a state kept in buffers shared between calls,
    one per size, is overwritten by the next call of that size)."""

    def run() -> None:
        first, fresh = contract.make(g, contract.base), contract.make(g, contract.base)
        i = contract.branch_input
        branches = [
            (*first[:i], torch.randn(first[i].shape, generator=g).to(first[i].dtype), *first[i + 1 :]) for _ in "ab"
        ]
        where = (
            "one call, then two continuations each given the state it returned, then another first call of the same "
            f"sizes: {describe_args(contract.names, first)}"
        )
        options = _driven_options(contract, BRANCH_DRIVER)
        try:
            reply = student.call(
                "_grading_branches", (contract.function, contract.state, first, *branches, fresh), **options
            )
        except StudentRaised as error:
            if error.type_name in ("NotImplementedError", "Refused"):
                raise
            raise CheckFailed(f"raised {error} ({where})") from None
        results = reply.value
        if not isinstance(results, list) or len(results) != 6 or not isinstance(results[0], tuple | list):
            raise CheckFailed(f"the calls gave no results back ({where})")
        _judge(contract, results[0], first, where, contract.base)
        for n, (branch, result) in enumerate(zip(branches, results[1:3]), 1):
            args = list(branch)
            for argument, output in contract.state:
                args[argument] = results[0][output]
            _judge(contract, result, tuple(args), f"{where}; continuation {n}", contract.base)
        _judge(contract, results[3], fresh, f"{where}; the other first call", contract.base)
        earlier = ((results[0], results[4], "the first call"), (results[1], results[5], "the first continuation"))
        for before, after, which in earlier:
            if not same_value(after, before):
                raise CheckFailed(
                    f"what {which} returned changed when later calls ran (a second continuation of the same state, "
                    "another first call of the same sizes): a later call wrote over an earlier one's cache; each call "
                    f"must return tensors of its own ({where})"
                )

    return run


# The prefix of the drivers' names: a contract whose function is one calls the student's code itself
DRIVEN = "_grading_"
KEYWORD_DRIVER = """
def _grading_by_keyword(function, names, *values):
    return globals()[function](**dict(zip(names, values)))
"""


def _keyword_case(contract: Contract, student: Guarded, g: torch.Generator) -> Callable[[], None]:
    """The base case with every argument passed by its name, the spec's (``contract.names``; tests/test_contracts.py
    holds them to the answer key's parameters): a parameter renamed, made positional-only or keyword-only, or two of
    them swapped, shows, where every other case passes them by position (corpus x)."""

    def run() -> None:
        args = contract.make(g, contract.base)
        where = f"every argument passed by its name: {describe_args(contract.names, args)}"
        try:
            reply = student.call(
                "_grading_by_keyword",
                (contract.function, list(contract.names[: len(args)]), *args),
                fresh=contract.fresh,
                **_driven_options(contract, KEYWORD_DRIVER),
            )
        except StudentRaised as error:
            if error.type_name in ("NotImplementedError", "Refused"):
                raise
            raise CheckFailed(f"raised {error} ({where})") from None
        _judge(contract, reply.value, args, where, contract.base)

    return run


def _reversed_dicts(args: tuple[Any, ...]) -> tuple[Any, ...]:
    """The arguments with every dict's entries in the reverse order (corpus x: weights unpacked with
    ``p.values()`` in the order the spec lists them)."""
    return tuple(dict(reversed(list(a.items()))) if type(a) is dict else a for a in args)


def _driven_options(contract: Contract, driver: str) -> dict[str, Any]:
    """The contract's call options with ``driver`` run before its own: the driver calls the function by its name,
    so a reference source that defines it (the correct parts swapped in) leaves it out, and it stays the student's."""
    options = dict(contract.options)
    options["driver"] = driver + (options.get("driver") or "")
    if options.get("references") is not None:
        options["references"] = _without_function(options["references"], contract.function)
    return options


def _without_function(source: str, name: str) -> str:
    """Python ``source`` without its top-level function ``name``."""
    tree = ast.parse(source)
    tree.body = [node for node in tree.body if not (isinstance(node, ast.FunctionDef) and node.name == name)]
    return ast.unparse(tree)


# How far outside the tolerance the first call's exact answer must lie from each later call's for the again case
# to take a draw: a memo of the first call's answer then fails by ten times the tolerance.
VISIBLE_FACTOR = 10.0


def _again_draw(contract: Contract, g: torch.Generator) -> tuple[tuple[Any, ...], list[tuple[Any, ...]]]:
    """The again case's first call and the calls after it: of up to APART_DRAWS draws, the first where every later
    call's exact answer lies outside VISIBLE_FACTOR times the tolerance of the first call's, so that an answer kept
    from the first call fails each of them. A change that does not show passes any memo that leaves it out: an eps
    changed a hundredfold beside rows whose mean square is 900, a p that moves no token across the nucleus'
    boundary, a query when only one key is there to attend to (measured on one draw: 1 in 3 for an eps, 1 in 6 for
    a p, 1 in 30 for a query). Where every draw hides one (or ``verify`` judges, with no answer to compare), the
    last draw."""
    for _ in range(APART_DRAWS):
        first = contract.make(g, contract.base)
        thens = contract.again(first, apart(contract.make, first, g, contract.base), g)
        if contract.oracle is None or all(_shows(contract, first, then) for then in thens):
            break
    return first, thens


def _shows(contract: Contract, first: tuple[Any, ...], then: tuple[Any, ...]) -> bool:
    """Whether the first call's exact answer, as the base dtype holds it, fails ``then``'s judgement by
    VISIBLE_FACTOR times the tolerance."""
    assert contract.oracle is not None
    with torch.no_grad():
        kept = _each_tensor(
            contract.oracle(*in_float64(first)), lambda t: t.to(contract.base.dtype) if t.is_floating_point() else t
        )
    try:
        _judge(contract, kept, then, "", contract.base, VISIBLE_FACTOR)
    except CheckFailed:
        return True
    return False


# Run beside the student's code: the function, found by its name in the notebook, on each argument tuple in turn.
EACH_DRIVER = (
    SNAPSHOT_DRIVER
    + """
def _grading_each(function, width, *values):
    return [_grading_snapshot(globals()[function](*values[i : i + width])) for i in range(0, len(values), width)]
"""
)


def _every_small_case(contract: Contract, student: Guarded, g: torch.Generator) -> Callable[[], None]:
    """Every argument tuple of ``contract.every_small`` in one call of :data:`EACH_DRIVER`, each result judged."""
    assert contract.every_small is not None
    label, draw = contract.every_small

    def run() -> None:
        calls = draw(g)
        width = len(calls[0])
        options = _driven_options(contract, EACH_DRIVER)
        values = tuple(value for args in calls for value in args)  # flat: as deep as a plain call's arguments
        where = f"{label} ({len(calls)} calls, one after another)"
        try:
            reply = student.call("_grading_each", (contract.function, width, *values), **options)
        except StudentRaised as error:
            if error.type_name in ("NotImplementedError", "Refused"):
                raise
            raise CheckFailed(f"raised {error} ({where})") from None
        if not isinstance(reply.value, list) or len(reply.value) != len(calls):
            raise CheckFailed(f"the calls gave no results back ({where})")
        for args, result in zip(calls, reply.value):
            _judge(contract, result, args, f"{label}: {describe_args(contract.names, args)}", contract.base)

    return run


def _same_objects_case(contract: Contract, student: Guarded, g: torch.Generator) -> Callable[[], None]:
    """The again case's calls one after another on the same argument objects, each judged on its own: a
    changed tensor of the same shape and dtype gets its new values in place (a caller's buffer, reused), any
    other changed argument is replaced; each result is copied as it comes (a view of an argument stays as it
    was)."""

    def run() -> None:
        first, thens = _again_draw(contract, g)
        changes = [[i for i, (a, b) in enumerate(zip(first, then)) if not same_value(a, b)] for then in thens]
        # flat, so that every value crosses the wire as deep as a plain call's arguments
        values = (*first, *(then[i] for then, indices in zip(thens, changes) for i in indices))
        where = f"the same argument objects passed again, one changed at a time: {describe_args(contract.names, first)}"
        options = _driven_options(contract, SAME_OBJECTS_DRIVER)
        try:
            reply = student.call(
                "_grading_same_objects",
                (contract.function, len(first), changes, *values),
                fresh=contract.fresh,
                **options,
            )
        except StudentRaised as error:
            if error.type_name in ("NotImplementedError", "Refused"):
                raise
            raise CheckFailed(f"raised {error} ({where})") from None
        n = 1 + len(changes)  # the calls whose results the caller holds
        if not isinstance(reply.value, list) or len(reply.value) != 3 * n + 1:
            raise CheckFailed(f"the calls gave no results back ({where})")
        results, held, later = reply.value[: n + 1], reply.value[n + 1 : 2 * n + 1], reply.value[2 * n + 1 :]
        for call, (before, after) in enumerate(zip(held, later)):
            if not same_value(before, after):
                raise CheckFailed(
                    f"what call {call + 1} returned changed during the calls after it, though its caller still held it "
                    f"(an object the function keeps and hands out again: a mutable default, a reused buffer) ({where})"
                )
        for then, change, result in zip([first, *thens], [[], *changes], results):
            named = " and ".join(contract.names[i] for i in change)
            at = f"{where}; then {named} changed" if change else where
            _judge(contract, result, then, at, contract.base)
        again = (
            f"{where}; then the first call's arguments again, after the caller changed in place every tensor the "
            "earlier calls returned (none of them may be kept by the function)"
        )
        _judge(contract, results[-1], first, again, contract.base)

    return run


def _again_case(contract: Contract, student: Guarded, g: torch.Generator) -> Callable[[], None]:
    """A call, then calls that each change one of its arguments, each judged on its own."""

    def run() -> None:
        first, thens = _again_draw(contract, g)
        _value_case(replace(contract, make=lambda g, size: first), student, g, "a first call", contract.base)()
        for then in thens:
            changed = [name for name, a, b in zip(contract.names, first, then) if not same_value(a, b)]
            label = f"then a call with only {' and '.join(changed)} changed (nothing kept from the first)"
            _value_case(replace(contract, make=lambda g, size, then=then: then), student, g, label, contract.base)()
        on = replace(contract.base, length=contract.base.length + 1)
        label = f"then an independent call one position longer ({on.length}: nothing kept from the first)"
        _value_case(contract, student, g, label, on)()

    return run


def _leaves(contract: Contract, args: Sequence[Any]) -> list[tuple[str, GradArg]]:
    """Every differentiable input of one call, by name: ``EVERY`` expanded over a dict's or a tuple's tensors."""
    found: list[tuple[str, GradArg]] = []
    for path in contract.differentiable:
        if (path if isinstance(path, int) else path[0]) >= len(args):
            continue  # an argument left to its default (an edge that omits it): none of the caller's to differentiate
        if isinstance(path, int):
            found.append((contract.names[path], path))
        elif path[1] == EVERY:
            holder = args[path[0]]
            items = holder.items() if isinstance(holder, dict) else enumerate(holder or ())
            found += [
                (f"{contract.names[path[0]]}[{key!r}]", (path[0], key))
                for key, value in items
                if isinstance(value, Tensor) and value.is_floating_point()
            ]
        else:
            found.append((f"{contract.names[path[0]]}[{path[1]!r}]", path))
    return found


def _leaf(args: Sequence[Any], path: GradArg) -> Tensor:
    return args[path] if isinstance(path, int) else args[path[0]][path[1]]


def _gradient_case(
    contract: Contract,
    student: Guarded,
    g: torch.Generator,
    label: str = "gradients",
    layout: Callable[[Any], Any] = lambda value: value,
    finite_only: bool = False,
    before: GradMode | None = None,
    at: Size | None = None,
) -> Callable[[], None]:
    """The gradients of every differentiable input, on the arguments through ``layout``; with ``finite_only``,
    only finite wherever the oracle's are (at extreme values float32's gradients of a right answer may be far
    off: a softmax that is nearly one-hot, its rounded scores close to a tie; a NaN or an inf is never right).
    With ``before``, the same call is made first under that autograd mode (its value judged as usual). ``at``: the
    size (default: the base's), for a function whose output reduces over the rows of that size (a loss; where every
    output keeps them, the value case sees each row and this case does nothing: thousands of rows of float32 hold
    some ill-conditioned one, a LayerNorm of a row of nearly equal entries, whose gradient right answers differ on);
    only the gradients of the inputs whose first dimension is its first leading one (a row's own inputs, not the
    parameters, whose float32 gradients sum over every row) are judged then, relative to the largest entry of any (a
    mean over thousands of rows gives each row's inputs a gradient of order 1/rows, below any absolute tolerance)."""

    def run() -> None:
        size = at or (contract.base if before is None else replace(contract.base, length=contract.base.length + 2))
        args = layout(contract.make(g, size))
        leaves = _leaves(contract, args)
        where = f"{label}: {describe_args(contract.names, args)}"
        outputs = contract.grad_outputs
        if at is not None and contract.oracle is not None:
            value = contract.oracle(*in_float64(args))
            kept = [value[i] for i in outputs] if isinstance(value, (tuple, list)) else [value]
            if all(out.shape[:1] == at.lead[:1] for out in kept):
                return  # every output keeps the rows: the value case of this size sees each row already
        if before is not None:
            first = f"{where}, the call under torch.{_MODE_NAMES[before]}"
            _judge(contract, _call(student, contract, args, first, grad_mode=before).value, args, first, size)
        reply = _call(student, contract, args, where, grad_args=[path for _, path in leaves], grad_outputs=outputs)
        if not reply.differentiable or reply.grads is None:
            what = (
                "the output does not carry a gradient back to its inputs"
                if outputs == (0,)
                else (
                    f"outputs {', '.join(map(str, outputs))} should each carry a gradient back to "
                    "the inputs, and one does not"
                )
            )
            raise CheckFailed(f"{what}; use torch operations ({where})")
        ref_args = in_float64(args)
        assert contract.oracle is not None, f"{contract.function}: gradients are compared with an oracle's"
        wrt = [_leaf(ref_args, path).requires_grad_(True) for _, path in leaves]
        value = contract.oracle(*ref_args)
        outs = [value[i] for i in outputs] if isinstance(value, (tuple, list)) else [value]
        probed = sum((out * probe(out.to(size.dtype)).double()).sum() for out in outs)
        refs = torch.autograd.grad(probed, wrt, allow_unused=True)
        atol, rtol = TOLERANCE[size.dtype]
        judged = [
            (leaf, got, ref)
            for leaf, got, ref in zip(leaves, reply.grads, refs)
            if at is None or _leaf(ref_args, leaf[1]).shape[:1] == at.lead[:1]
        ]
        largest = max((float(r.abs().max()) for _, _, r in judged if r is not None and r.numel()), default=0.0)
        largest = largest if at is not None else 0.0
        for (name, path), got, ref in judged:
            ref = torch.zeros_like(_leaf(ref_args, path)) if ref is None else ref
            if got is None:  # fine where the true gradient is zero (a key's bias under softmax): compared with zero
                if bool((ref.abs() > 10 * atol * widened(size.dtype, contract.scale)).any()) and not finite_only:
                    raise CheckFailed(
                        f"no gradient reaches {name} (computed without autograd, detached or under no_grad?) ({where})"
                    )
                continue
            if finite_only:
                if not isinstance(got, Tensor) or bool((torch.isfinite(ref) & ~torch.isfinite(got)).any()):
                    raise CheckFailed(
                        f"the gradient with respect to {name} is NaN or infinite where it is finite "
                        f"(a formula that overflows inside: exp of a large value?) ({where})"
                    )
                continue
            if largest > 0 and isinstance(got, Tensor):
                got, ref = got / largest, ref / largest
            expect_close(
                got,
                ref,
                f"the gradient with respect to {name}" + (" (relative to the largest gradient)" if largest > 0 else ""),
                where,
                atol=10 * atol * widened(size.dtype, contract.scale),
                rtol=10 * rtol * widened(size.dtype, contract.scale),
            )

    return run


# ------------------------------------------------------------------------------- what the student is told

EVERY_CALL = (
    "Every function: its tensor arguments may be any tensors of the shapes its part gives, contiguous or not (a "
    "slice, a transpose: use `reshape`, not `view`, on them), one of them a view of another's memory (the same "
    "address, other values), down to the smallest sizes the part allows; it "
    "changes none of its arguments in place and leaves torch's, Python's and NumPy's global random states "
    "alone, unless its part says otherwise; its values are the same whether or not the caller asks for "
    "gradients (under `torch.no_grad()` or `torch.inference_mode()` too) and whatever torch's thread count "
    "(`torch.set_num_threads`); and it keeps none of the tensors it "
    "returns (other than views of its arguments): a caller may change them in place without changing what a "
    "later call returns (so none is an inference tensor, made under `torch.inference_mode()`, which a caller outside "
    "it cannot change)."
)


def promises(contracts: Sequence[Contract]) -> str:
    """What the hidden tests hold each of ``contracts``' functions to, as the student's notebook says it (the end
    of its first cell, generated from the declarations that make the cases: tests/test_contracts.py holds every
    release to it, so that no case asks for what the spec does not say). Drivers' contracts (a function named
    ``_grading_...``, a6's) are left out: their parts say what they ask in their own words."""
    lines = ["**What the hidden tests hold your functions to**, besides what each part says:", "", f"- {EVERY_CALL}"]
    seen: set[str] = set()
    for contract in contracts:
        if contract.function.startswith("_") or contract.function in seen:
            continue
        seen.add(contract.function)
        lines.append(f"- `{contract.function}`: {'; '.join(_clauses(contract))}.")
    return "\n".join(lines)


def _clauses(contract: Contract) -> list[str]:
    names = contract.names
    clauses = []
    if () in contract.leads:
        clauses.append("any number of leading dimensions (none, one or several)")
    elif contract.leads:
        clauses.append("a batch of one as well as several")
    if contract.long is not None:
        # the length itself is not told: a table one past it would pass
        clauses.append(
            "no fixed limit on its length (the tests go past every usual buffer and past Python's recursion limit)"
        )
    if torch.float64 in contract.dtypes:
        clauses.append("float32 and float64 inputs, floating outputs in the inputs' dtype and at its precision")
    if contract.differentiable:
        leaves = [
            f"`{names[path]}`" if isinstance(path, int) else f"every tensor of `{names[path[0]]}`"
            for path in contract.differentiable
        ]
        clauses.append("gradients (first derivatives: no second is asked) flow back to " + _joined(leaves))
    if contract.integers:
        clauses.append(_joined([f"`{names[i]}`" for i in contract.integers]) + " in any integer dtype")
    if contract.unbounded:
        clauses.append(
            _joined([f"`{names[i]}`" for i in contract.unbounded])
            + " of any int64 value above -2**63 (which has no negation)"
        )
    if contract.large:
        clauses.append(_joined([f"`{names[i]}`" for i in contract.large]) + " of any size an int64 holds")
    if contract.whole:
        clauses.append(_joined([f"`{names[i]}`" for i in contract.whole]) + " also given as a whole number (`int`)")
    if contract.text:
        clauses.append(
            "text as it comes, composed or decomposed Unicode (NFC or NFD), any characters (outside the Basic "
            "Multilingual Plane too: a length is counted in characters)"
        )
    if contract.fresh:
        clauses.append("the tensors it returns are new (none is an argument or a view of one)")
    if contract.extremes:
        finite = "its values and gradients" if contract.differentiable else "its values"
        clauses.append(
            f"inputs of extreme magnitude ({'; '.join(label for label, _, _ in contract.extremes)}), {finite} "
            "finite wherever the exact ones are"
        )
    if contract.singular:
        clauses.append(
            _joined([label for label, _ in contract.singular])
            + (", with finite gradients" if contract.differentiable else "")
        )
    if contract.zeros:
        clauses.append(_joined([f"`{names[i]}`" for i in contract.zeros]) + " may be 0")
    if contract.rows and contract.base.lead:
        clauses.append("a batch of any size (the tests send thousands of rows)")
    if contract.state:
        given = _joined([f"`{names[argument]}`" for argument, _ in contract.state])
        clauses.append(
            f"the {given} it returns may be given to several later calls (two continuations of one prefix), with "
            "other calls in between: each must find it as it was returned"
        )
    return clauses or ["what its part says"]


def _joined(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def module_contracts(module: Any) -> list[Contract]:
    """The contracts a checks module declares (a name bound to a :class:`Contract` or a tuple of them), in order."""
    found: list[Contract] = []
    for value in vars(module).values():
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, Contract) and item not in found:
                found.append(item)
    return found
