"""BERT's input representation and its masked-language-model loss (chapter 4), drawn from the model.

Each figure runs the model it is given once, on the example it draws, with a hook on every
submodule (:func:`_calls`), and labels what the code called, in the order it called it: renaming a
layer of :mod:`course_lib.bert` renames it in the figure. The model's weights, mode and the global
random state are left as they were.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import torch
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from torch import Tensor, nn

from ..bert import IGNORE_INDEX, Bert, BertForPreTraining, mask_tokens, mlm_loss
from ..blocks import ACTIVATIONS, LayerNorm, RMSNorm
from ._kit import _BACKING, FILL, FONT, INK, MUTED, SMALL, _arrow, _box, _canvas, _code_width, _text, _text_width
from ._trace import _Call, _calls, _children, _shape, _shown

__all__ = ["bert_embeddings", "bert_masking"]

SEGMENT_FILLS = ("#c9e4de", "#f6c89f", "#e6dbf2", "#d5efcf")  # segment A, B, C, D
ACTION_FILLS = {"[MASK]": FILL["new"], "random": "#c7b3e5", "unchanged": FILL["norm"]}


# ------------------------------------------------------------------------------ reading the trace


def _joined(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def _tensor_arg(call: _Call) -> Tensor:
    return call.args[0] if call.args else next(iter(call.kwargs.values()))


def _encoder_of(model: Bert | BertForPreTraining) -> tuple[Bert, str]:
    """The :class:`~course_lib.bert.Bert` inside ``model`` and its name there ("" for ``model`` itself)."""
    if isinstance(model, Bert):
        return model, ""
    if isinstance(model, BertForPreTraining):
        name, bert = next((n, m) for n, m in model.named_modules() if isinstance(m, Bert))
        return bert, name  # type: ignore[return-value]
    raise TypeError(f"model must be a course_lib.bert.Bert or BertForPreTraining, got {type(model).__name__}")


def _mathtt(token: str) -> str:
    """``token`` set in mathtext's typewriter face, its special characters escaped."""
    escaped = "".join("\\" + c if c in "#$%&_{}" else c for c in token)
    escaped = escaped.replace("^", r"\^{}").replace("~", r"\~{}").replace(" ", r"\ ")
    return rf"\mathtt{{{escaped}}}"


def _line(
    ax: Axes,
    x: float,
    y: float,
    pieces: Sequence[tuple[str, dict[str, Any]]],
    *,
    gap: float = 0.1,
    centred: bool = False,
) -> float:
    """Texts set one after the other on one line, from ``x`` (or centred on it), each with its own
    ``_text`` options (``code``, ``size``, ``colour``...), ``gap`` inches apart, measured as drawn;
    returns where the line ends."""
    # Agg's canvases (the book's, Jupyter's) measure text as drawn
    get_renderer = getattr(ax.figure.canvas, "get_renderer", None)
    drawn, end = [], x
    for s, options in pieces:
        options = {"size": SMALL, "ha": "left", **options}
        _text(ax, end, y, s, **options)
        drawn.append(ax.texts[-1])
        if get_renderer is not None:
            end += drawn[-1].get_window_extent(get_renderer()).width / ax.figure.dpi + gap
        else:  # estimated from the glyphs, a little wide
            end += (
                1.08 * (_code_width(s, options["size"]) if options.get("code") else _text_width(s, options["size"]))
                + gap
            )
    end -= gap
    if centred:
        for t in drawn:
            t.set_x(t.get_position()[0] - (end - x) / 2)
        end -= (end - x) / 2
    return end


def _check_tokens(tokens: Sequence[str], what: str) -> list[str]:
    if isinstance(tokens, str) or not all(isinstance(t, str) and t for t in tokens):
        raise TypeError(f"{what} must be a sequence of non-empty token strings, got {tokens!r}")
    return list(tokens)


# ------------------------------------------------------------------------ input representation


@dataclass(frozen=True)
class _Embeddings:
    """What tracing a BERT's embeddings found: the names (in the model passed) of each part."""

    word: str
    segment: str
    position: str
    norm: str | None
    dropout: str | None
    encoder: str  # the first block the embeddings feed


def _trace_embeddings(model: Bert | BertForPreTraining, T: int, token_type_ids: Tensor) -> _Embeddings:
    """Which submodules of ``model`` embed tokens, segments and positions, normalise and drop, found
    by running its encoder on ``T`` tokens: the table that looks up the token ids, the one that looks
    up ``token_type_ids``, the module that adds positions to their sum."""
    bert, prefix = _encoder_of(model)
    idx = torch.zeros(1, T, dtype=torch.long)
    calls, _ = _calls(bert, lambda: bert(idx, token_type_ids))
    top = _children(calls, "")
    container = next((c for c in top if c.args and c.args[0] is idx), None)
    if container is None:
        raise ValueError(f"{type(bert).__name__} called no submodule with the token ids: cannot find its embeddings")
    roles: dict[str, str] = {}
    for call in _children(calls, container.name):
        module, arg = call.module, _tensor_arg(call)
        if isinstance(module, nn.Embedding) and arg is idx:
            roles["word"] = call.name
        elif isinstance(module, nn.Embedding) and arg is token_type_ids:
            roles["segment"] = call.name
        elif any(isinstance(m, nn.Embedding) for m in module.modules()) and arg.ndim == 3:
            roles["position"] = call.name  # adds a table's rows to the sum it is given
        elif isinstance(module, (LayerNorm, RMSNorm, nn.LayerNorm)):
            roles["norm"] = call.name
        elif isinstance(module, nn.Dropout):
            roles["dropout"] = call.name
    if missing := [r for r in ("word", "segment", "position") if r not in roles]:
        raise ValueError(
            f"the embeddings {container.name!r} have no {', '.join(missing)} embedding that this figure can find"
        )
    consumer = next(c for c in top if c.args and c.args[0] is container.output)  # the stack the embeddings feed
    first_block = next(iter(_children(calls, consumer.name)), consumer).name
    named = {role: _joined(prefix, name) for role, name in roles.items()}
    return _Embeddings(
        named["word"],
        named["segment"],
        named["position"],
        named.get("norm"),
        named.get("dropout"),
        _joined(prefix, first_block),
    )


def _table(model: nn.Module, name: str) -> Tensor:
    """The one embedding table (weight) of submodule ``name``."""
    return next(m.weight for m in model.get_submodule(name).modules() if isinstance(m, nn.Embedding))


def bert_embeddings(model: Bert | BertForPreTraining, tokens: Sequence[str], token_type_ids: Sequence[int]) -> Figure:
    """BERT's input representation of ``tokens`` (e.g. ``[CLS] A [SEP] B [SEP]``), as ``model`` computes it.

    Each column is one position ``t``: its token, its segment id (``token_type_ids``, 0 for A and 1
    for B) and its position. Below them, the three rows the embedding tables give it: the token's row
    of the token embedding ``E_tok``, the segment's ``E_A`` or ``E_B`` and the position's ``E_t``,
    each row labelled with the submodule that holds the table (found by running ``model``: the
    table that looks up the token ids, the one that looks up the segment ids, the module that adds
    the positions) and the table's shape. They are summed, normalised and dropped out by the
    submodules the model calls next, giving ``(B, T, d_model)`` for the first encoder block.
    """
    tokens = _check_tokens(tokens, "tokens")
    if isinstance(token_type_ids, (str, Tensor)) or not all(
        isinstance(s, int) and not isinstance(s, bool) for s in token_type_ids
    ):
        raise TypeError(f"token_type_ids must be a sequence of integers, got {token_type_ids!r}")
    T = len(tokens)
    if not 1 <= T <= 16:
        raise ValueError(f"tokens must hold 1 to 16 tokens (the columns this figure has room for), got {T}")
    if len(token_type_ids) != T:
        raise ValueError(f"token_type_ids must give one segment per token: {len(token_type_ids)} for {T} tokens")
    # the model refuses segments or lengths it has no rows for
    found = _trace_embeddings(model, T, torch.tensor([list(token_type_ids)]))
    word, segment, position = (_table(model, n) for n in (found.word, found.segment, found.position))

    left = 1.1  # where position 0's column starts: the input rows' labels are to its left
    pitch = min(0.75, (9.92 - left) / T)
    if max(_code_width(t) for t in tokens) > pitch - 0.08:
        raise ValueError(f"the tokens are too wide for {T} columns of {pitch:.2f} inches: draw fewer or shorter tokens")
    fig, ax = _canvas(10.0, 5.0)
    xs = [left + (t + 0.5) * pitch for t in range(T)]
    cell = pitch - 0.05

    rows = {"tokens": 4.75, "segment ids": 4.4, "positions": 4.12, "word": 3.5, "segment": 2.75, "position": 2.0}
    _text(ax, 0.1, rows["tokens"], "tokens", ha="left")
    _text(ax, 0.1, rows["segment ids"], "token_type_ids", size=SMALL, code=True, ha="left")
    _text(ax, 0.1, rows["positions"], "position t", size=SMALL, ha="left")
    for t, (x, token, s) in enumerate(zip(xs, tokens, token_type_ids, strict=True)):
        _box(ax, x, rows["tokens"], cell, 0.3, "", kind="data", gid="token")
        _text(ax, x, rows["tokens"], token, size=SMALL, code=True)
        _text(ax, x, rows["segment ids"], str(s), size=SMALL, code=True)
        _text(ax, x, rows["positions"], str(t), size=SMALL, code=True)

    box_h = 0.34
    titles = (("word", "token embedding", found.word, word, "(V, d_model)"),
              ("segment", "segment embedding", found.segment, segment, f"({segment.shape[0]}, d_model)"),
              ("position", "position embedding", found.position, position, "(T_max, d_model)"))  # fmt: skip
    for i, (row, title, name, table, symbols) in enumerate(titles):
        _line(
            ax,
            left,
            rows[row] + box_h / 2 + 0.13,
            [
                (title, {"size": FONT}),
                (_shown(name), {"code": True}),
                (f"{symbols} = {_shape(table)}", {"colour": MUTED}),
            ],
        )
        if i:
            _text(ax, 0.45, rows[row] + 0.05, "+", size=14, fontweight="bold")
    for t, (x, token, s) in enumerate(zip(xs, tokens, token_type_ids, strict=True)):
        _box(ax, x, rows["word"], cell, box_h, f"$E_{{{_mathtt(token)}}}$", kind="embedding", gid="embed-token")
        seg = _box(ax, x, rows["segment"], cell, box_h, "", kind="data", gid=f"embed-segment-{s}")
        ax.patches[-1].set_facecolor(SEGMENT_FILLS[s % len(SEGMENT_FILLS)])
        _text(ax, seg.x, seg.y, f"$E_{{{chr(ord('A') + s)}}}$")
        _box(ax, x, rows["position"], cell, box_h, f"$E_{{{t}}}$", kind="tensor", gid="embed-position")
        _arrow(ax, (x, rows["position"] - box_h / 2), (x, 1.47), width=0.8)
    _text(ax, 0.1, 1.65, "the sum at", size=SMALL, ha="left")
    _text(ax, 0.1, 1.5, "each position", size=SMALL, ha="left")

    # then what the model calls on the sum: its norm and its dropout, one wide box each (at least as wide as its label)
    steps = []
    for part, kind in ((found.norm, "norm"), (found.dropout, "dropout")):
        if part is not None:
            module = model.get_submodule(part)
            eps = getattr(module, "eps", None)
            label = (
                (type(module).__name__ + (f", eps {eps:g}" if eps is not None else ""))
                if kind == "norm"
                else f"dropout, p = {getattr(module, 'p', 0.0):g}"
            )
            steps.append((part, kind, label))
    span_w = max(
        [xs[-1] - xs[0] + cell]
        + [2 * max(_text_width(label, FONT), _code_width(_shown(part))) + 0.5 for part, _, label in steps]
    )
    centre = xs[0] - cell / 2 + span_w / 2
    y, above = 1.3, 1.47  # the next box's centre; where the arrow into it starts
    for part, kind, label in steps:
        box = _box(ax, centre, y, span_w, 0.34, "", kind="norm" if kind == "norm" else "data", gid=kind)
        _text(ax, box.x - 0.08, box.y, label, ha="right")
        _text(ax, box.x + 0.08, box.y, _shown(part), size=SMALL, code=True, ha="left")
        if above < 1.47:
            _arrow(ax, (centre, above), box.top)
        y, above = y - 0.58, box.bottom[1]
    _arrow(ax, (centre, above), (centre, y + 0.17))
    _line(
        ax,
        centre,
        y + 0.02,
        [(f"(B, T, d_model) = (1, {T}, {word.shape[1]}), to", {}), (_shown(found.encoder), {"code": True})],
        gap=0.1,
        centred=True,
    )
    return fig


# ------------------------------------------------------------------------- masking and the loss


class _Vocabulary(Protocol):
    """What :func:`bert_masking` needs of a tokenizer: each id's token and the id of ``[MASK]``."""

    tokens: Sequence[str]
    mask_id: int


def _row(t: Tensor, name: str) -> Tensor:
    if not isinstance(t, Tensor) or t.dtype != torch.long or not (t.ndim == 1 or (t.ndim == 2 and t.shape[0] == 1)):
        raise TypeError(f"{name} must be a LongTensor of shape (T,) or (1, T), got {t!r}")
    return t.reshape(-1)


def _actions(idx: Tensor, inputs: Tensor, labels: Tensor, mask_id: int) -> list[str | None]:
    """For each position: None (not chosen), or what :func:`~course_lib.bert.mask_tokens` put there."""
    actions: list[str | None] = []
    for t, (original, given, label) in enumerate(zip(idx.tolist(), inputs.tolist(), labels.tolist(), strict=True)):
        if label == IGNORE_INDEX:
            if given != original:
                raise ValueError(
                    f"position {t} is not chosen (label {IGNORE_INDEX}) but its input "
                    "differs from idx: inputs and labels are not one masking of idx"
                )
            actions.append(None)
        elif label != original:
            raise ValueError(
                f"position {t} is labelled {label}, not its token {original}: "
                "labels must hold the original token at each chosen position"
            )
        else:
            actions.append("[MASK]" if given == mask_id else "unchanged" if given == original else "random")
    return actions


def bert_masking(
    model: BertForPreTraining, tokenizer: _Vocabulary, idx: Tensor, inputs: Tensor, labels: Tensor
) -> Figure:
    """One masking of token ids ``idx`` by :func:`~course_lib.bert.mask_tokens` (its ``inputs`` and
    ``labels``), and where ``model`` computes the MLM loss.

    Top: each position's token, the input the encoder reads there and its label. The chosen
    positions (each token with probability ``rate``, never a special one; hatched) hold ``[MASK]``,
    a random token or their own token (``replace``'s shares); every other position is labelled -100
    and gives no loss. Bottom: the encoder's hidden states ``(B, T, d_model)``; the chosen rows,
    gathered by the ``masked`` argument of ``model``'s forward into ``(N, d_model)``, are the only
    ones the MLM head projects to ``(N, V)`` logits, against the ``(B, T, V)`` it computes without
    it. The names and the shapes are those of running ``model`` on ``inputs``, both ways.
    """
    if not isinstance(model, BertForPreTraining):
        raise TypeError(
            f"model must be a course_lib.bert.BertForPreTraining (the MLM head is drawn), got {type(model).__name__}"
        )
    if not isinstance(getattr(tokenizer, "mask_id", None), int) or not isinstance(
        getattr(tokenizer, "tokens", None), Sequence
    ):
        raise TypeError(f"tokenizer must have tokens (one string per id) and mask_id, got {type(tokenizer).__name__}")
    idx, inputs, labels = _row(idx, "idx"), _row(inputs, "inputs"), _row(labels, "labels")
    T = len(idx)
    if not inputs.shape == labels.shape == idx.shape:
        raise ValueError(
            f"idx, inputs and labels must have one entry per position: {T}, {len(inputs)} and {len(labels)}"
        )
    if not 1 <= T <= 16:
        raise ValueError(f"idx must hold 1 to 16 tokens (the columns this figure has room for), got {T}")
    V = model.config.vocab_size
    if int(torch.cat([idx, inputs]).min()) < 0 or int(torch.cat([idx, inputs]).max()) >= min(V, len(tokenizer.tokens)):
        raise ValueError(
            f"token ids must be in 0 .. {min(V, len(tokenizer.tokens)) - 1} "
            "(the model's and the tokenizer's vocabulary)"
        )
    actions = _actions(idx, inputs, labels, tokenizer.mask_id)
    chosen = [t for t, a in enumerate(actions) if a is not None]
    if not chosen:
        raise ValueError("no position is chosen (every label is -100): the MLM loss would have nothing to count")
    N = len(chosen)
    masked, read = labels != IGNORE_INDEX, inputs[None]

    forward = inspect.signature(type(model).forward).parameters
    masked_name = list(forward)[4]  # self, idx, token_type_ids, attention_mask, then the positions to gather
    gathered, _ = _calls(model, lambda: model(read, None, None, masked[None]))
    everywhere, _ = _calls(model, lambda: model(read))

    def head_of(calls: list[_Call]) -> _Call:
        return next(c for c in _children(calls, "") if isinstance(c.output, Tensor) and c.output.shape[-1] == V)

    head, head_all = head_of(gathered), head_of(everywhere)
    encoder = next(c for c in _children(gathered, "") if c.args and c.args[0] is read)
    hidden = encoder.output
    parts = _children(gathered, head.name)
    activation = next((n for n, f in ACTIVATIONS.items() if any(v is f for v in vars(head.module).values())), None)
    decoder = parts[-1].module
    tied = next(
        (
            n
            for n, m in model.named_modules()
            if isinstance(m, nn.Embedding) and m.weight is getattr(decoder, "weight", None)
        ),
        None,
    )
    rate = inspect.signature(mask_tokens).parameters["rate"].default
    replace = inspect.signature(mask_tokens).parameters["replace"].default

    tokens = [tokenizer.tokens[i] for i in idx.tolist()]
    given = [tokenizer.tokens[i] for i in inputs.tolist()]
    left = 1.05  # where position 0's column starts: the rows' labels are to its left
    pitch = min(0.75, (9.92 - left) / T)
    if max(_code_width(t) for t in tokens + given) > pitch - 0.08:
        raise ValueError(f"the tokens are too wide for {T} columns of {pitch:.2f} inches: draw fewer or shorter tokens")
    fig, ax = _canvas(10.0, 5.95)
    xs = [left + (t + 0.5) * pitch for t in range(T)]
    cell = pitch - 0.05

    # the legend: what a chosen position becomes, in the shares of mask_tokens' defaults
    key_y, shares = 5.75, dict(zip(ACTION_FILLS, replace, strict=True))
    for x, kind, what in (
        (0.1, "[MASK]", "replaced by [MASK]"),
        (3.3, "random", "replaced by a random token"),
        (6.8, "unchanged", "left as it is"),
    ):
        ax.add_patch(
            Rectangle(
                (x, key_y - 0.08), 0.16, 0.16, facecolor=ACTION_FILLS[kind], edgecolor=INK, linewidth=0.8, gid="key"
            )
        )
        _text(ax, x + 0.24, key_y, f"chosen, {what}: {shares[kind]:.0%}", size=SMALL, ha="left")
    _text(ax, 0.1, key_y - 0.3, f"{mask_tokens.__name__} chooses each token that is not special with probability "
          f"rate = {rate:g} (hatched columns): N = {N} of these {T}", size=SMALL, ha="left")  # fmt: skip

    rows = {"idx": 4.95, "labels": 4.55, "inputs": 4.15, "action": 3.88}
    top, bottom = rows["idx"] + 0.2, rows["action"] - 0.12
    for t in chosen:
        ax.add_patch(
            Rectangle(
                (xs[t] - pitch / 2 + 0.005, bottom),
                pitch - 0.01,
                top - bottom,
                facecolor="none",
                edgecolor="#b0b0b0",
                hatch="////",
                linewidth=0,
                zorder=0.4,
                gid="chosen",
            )
        )
    for row, what in (("idx", "the text"), ("labels", "loss targets"), ("inputs", "what is read")):
        _text(ax, 0.1, rows[row] + 0.07, row, size=SMALL, code=True, ha="left")
        _text(ax, 0.1, rows[row] - 0.09, what, size=SMALL, ha="left", colour=MUTED)
    for t, x in enumerate(xs):
        action = actions[t]
        _box(ax, x, rows["idx"], cell, 0.28, "", kind="data", gid="token")
        _text(ax, x, rows["idx"], tokens[t], size=SMALL, code=True)
        label = str(IGNORE_INDEX) if action is None else tokens[t]
        _text(
            ax,
            x,
            rows["labels"],
            label,
            size=SMALL,
            code=True,
            colour=MUTED if action is None else INK,
            fontweight="normal" if action is None else "bold",
            bbox=_BACKING if action else None,
        )
        _box(ax, x, rows["inputs"], cell, 0.28, "", kind="data", gid=f"input-{action or 'not-chosen'}")
        ax.patches[-1].set_facecolor(ACTION_FILLS[action] if action is not None else "white")
        _text(ax, x, rows["inputs"], given[t], size=SMALL, code=True)
        if action is not None:
            _text(
                ax,
                x,
                rows["action"],
                {"[MASK]": "masked", "random": "random", "unchanged": "same"}[action],
                size=SMALL,
                bbox=_BACKING,
            )

    # the encoder's hidden states; the chosen rows gathered; the head; the loss
    y_hidden, y_gather = 3.05, 1.85
    _text(
        ax,
        (xs[0] + xs[-1]) / 2,
        (rows["action"] + y_hidden) / 2 + 0.02,
        f"{_shown(encoder.name)}(inputs): every position attends to every other",
        size=SMALL,
        colour=MUTED,
    )
    _text(ax, 0.1, y_hidden + 0.07, "hidden", size=SMALL, code=True, ha="left")
    _text(ax, 0.1, y_hidden - 0.09, _shape(hidden), size=SMALL, ha="left", colour=MUTED)
    for t, x in enumerate(xs):
        ax.add_patch(
            Rectangle(
                (x - cell / 2, y_hidden - 0.15),
                cell,
                0.3,
                facecolor=FILL["tensor"],
                edgecolor=INK,
                linewidth=0.8,
                hatch="////" if t in chosen else None,
                gid="hidden-chosen" if t in chosen else "hidden",
            )
        )
    _text(ax, xs[-1] + pitch / 2, y_hidden - 0.27, "(B, T, d_model)", size=SMALL, ha="right", va="top", colour=MUTED)

    g_pitch = min(pitch, 0.45)
    g_xs = [left + 0.15 + (i + 0.5) * g_pitch for i in range(N)]
    for i, t in enumerate(chosen):
        _arrow(ax, (xs[t], y_hidden - 0.15), (g_xs[i], y_gather + 0.15), colour=MUTED, width=0.7)
        ax.add_patch(
            Rectangle(
                (g_xs[i] - (g_pitch - 0.06) / 2, y_gather - 0.15),
                g_pitch - 0.06,
                0.3,
                facecolor=FILL["tensor"],
                edgecolor=INK,
                linewidth=0.8,
                hatch="////",
                gid="gathered",
            )
        )
    _text(ax, 0.1, y_gather + 0.07, f"hidden[{masked_name}]", size=SMALL, code=True, ha="left")
    _text(ax, 0.1, y_gather - 0.09, _shape(_tensor_arg(head)), size=SMALL, ha="left", colour=MUTED)
    _text(ax, g_xs[0] - g_pitch / 2, y_gather - 0.27, "(N, d_model)", size=SMALL, ha="left", va="top", colour=MUTED)

    chain = [_shown(c.name).removeprefix(_shown(head.name) + ".") for c in parts]
    if activation is not None and len(chain) >= 2:
        chain.insert(1, activation)
    code = f"{_shown(head.name)}: " + " → ".join(chain)
    head_w = _code_width(code) + 0.3
    x = g_xs[-1] + g_pitch / 2 + 0.35
    hb = _box(ax, x + head_w / 2, y_gather, head_w, 0.5, "MLM head", kind="linear", code=code, gid="head")
    _arrow(ax, (g_xs[-1] + g_pitch / 2 + 0.03, y_gather), hb.left)
    logits = _box(
        ax,
        hb.right[0] + 0.3 + 0.75,
        y_gather,
        1.5,
        0.5,
        "logits (N, V)",
        kind="data",
        code=_shape(head.output),
        gid="logits",
    )
    _arrow(ax, hb.right, logits.left)
    if tied is not None:
        _text(
            ax,
            hb.left[0],
            y_gather - 0.4,
            f"{_shown(parts[-1].name)}.weight is {_shown(tied)}.weight (tied)",
            size=SMALL,
            code=True,
            ha="left",
            colour=MUTED,
        )

    targets = str([tokens[t] for t in chosen])
    _text(
        ax,
        0.1,
        0.95,
        f"loss: {mlm_loss.__name__}(logits, labels), the cross-entropy of the N = "
        f"{N} rows of logits against labels[labels != {IGNORE_INDEX}] = {targets}",
        size=SMALL,
        ha="left",
    )
    _text(
        ax,
        0.1,
        0.6,
        f"Without {masked_name}=, the head projects every position: logits (B, "
        f"T, V) = {_shape(head_all.output)}, {T} rows for the {N} the loss counts",
        size=SMALL,
        ha="left",
        colour=MUTED,
    )
    _text(
        ax,
        0.1,
        0.4,
        f"(it skips the rows labelled {IGNORE_INDEX}); gathering first, "
        f"the head's projection to V logits costs N / T = {N}/{T} of that.",
        size=SMALL,
        ha="left",
        colour=MUTED,
    )
    return fig
