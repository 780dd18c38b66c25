"""Fine-tuning a pretrained model: heads, freezing, probes, LoRA, adapters and BitFit, for every family.

One small interface joins them: :func:`hidden_states` gives a model's hidden states ``(B, T, d_model)``
for token ids ``input_ids (B, T)`` and a padding mask ``attention_mask (B, T)`` (1 for a token, 0 for
padding), whatever the family (BERT's encoder, GPT's decoder, T5's or BART's encoder). A head reads
them through a pooling (:func:`pool`): the first token (BERT's [CLS]), the mean over real tokens, or
the last real token (GPT-1's [EXTRACT], which only a causal model's last position can summarise).

What is trained is chosen by name. :func:`freeze` keeps ``requires_grad`` only on parameters that
match glob patterns (``"head.*"``, ``"*.bias"`` for BitFit) or that lie in chosen blocks;
:func:`apply_lora` wraps chosen ``nn.Linear`` layers in :class:`LoRALinear` (Hu et al. 2021) and
:func:`add_adapters` wraps them in :class:`AdaptedLinear` (a Houlsby et al. 2019 bottleneck after the
layer's output). A linear probe trains on features computed once (:func:`features`,
:func:`layer_features`), by the course's one loop (:func:`tensor_batches` feeds it). Only the
trained parameters need saving: :func:`save_trained` writes them with a fingerprint of the frozen
base, and :func:`load_trained` refuses a file made for another base model.

Shapes: ``B`` batch, ``T`` tokens, ``d`` the model's width, ``C`` classes, ``L`` blocks.
"""

from __future__ import annotations

import contextlib
import fnmatch
import hashlib
import math
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Literal, NamedTuple

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .attention import check_right_padded
from .bert import BertForPreTraining, mean_pool
from .blocks import DecoderBlock, EncoderBlock
from .families import FAMILIES, ModelFamily
from .losses import IGNORE_INDEX
from .train import Batches

__all__ = [
    "AdaptedLinear",
    "Adapter",
    "LoRALinear",
    "SequenceClassifier",
    "TokenClassifier",
    "TrainingMemory",
    "accuracy",
    "add_adapters",
    "apply_lora",
    "base_fingerprint",
    "blocks_of",
    "check_labels",
    "classification_loss",
    "features",
    "freeze",
    "hidden_states",
    "layer_features",
    "load_trained",
    "lora_disabled",
    "lora_layers",
    "merge_lora",
    "pool",
    "predict",
    "save_trained",
    "tensor_batches",
    "trainable_parameters",
    "training_memory",
]

Pooling = Literal["cls", "mean", "last"]
POOLINGS: tuple[Pooling, ...] = ("cls", "mean", "last")


# ------------------------------------------------------------------ hidden states and pooling


def _body(model: nn.Module) -> nn.Module:
    """The part of ``model`` that gives hidden states (a BERT with pretraining heads gives its encoder)."""
    return model.bert if isinstance(model, BertForPreTraining) else model


def _width(model: nn.Module) -> int:
    """The width ``d_model`` of the hidden states ``model`` gives (every family's config names it so)."""
    config = getattr(_body(model), "config", None)
    if not isinstance(getattr(config, "d_model", None), int):
        raise TypeError(f"{type(model).__name__} has no config with an integer d_model: not a course_lib model")
    return int(config.d_model)  # type: ignore[union-attr]


def hidden_states(model: nn.Module, input_ids: Tensor, attention_mask: Tensor | None = None) -> Tensor:
    """The hidden states ``(B, T, d)`` of ``input_ids (B, T)`` for any course_lib family: its
    :meth:`~course_lib.families.ModelFamily.hidden_states` (BERT with its pretraining heads: its encoder's).

    BERT: the encoder's output. T5 and BART: the encoder's. GPT and Llama: the last block's (after the
    final norm), padding on either side (a left-padded row's real tokens read as the row alone).
    """
    body = _body(model)
    if not isinstance(body, ModelFamily):
        raise TypeError(
            f"no hidden states for a {type(model).__name__}: expected a model of a course_lib family "
            f"({', '.join(f.model.__name__ for f in FAMILIES.values())}) or a BertForPreTraining"
        )
    if attention_mask is not None and attention_mask.shape != input_ids.shape:
        raise ValueError(
            "attention_mask must have the shape of input_ids "
            f"{tuple(input_ids.shape)}, got {tuple(attention_mask.shape)}"
        )
    return body.hidden_states(input_ids, attention_mask)


def pool(hidden: Tensor, attention_mask: Tensor | None, pooling: Pooling) -> Tensor:
    """One vector per sequence, ``(B, d)``, from ``hidden (B, T, d)``.

    ``"cls"``: the first position (BERT's [CLS]). ``"mean"``: the mean over real tokens (padding, 0 in
    ``attention_mask``, left out), as sentence-transformers pools all-MiniLM-L6-v2. ``"last"``: the last
    real token of each right-padded row (GPT-1's [EXTRACT]).
    """
    if pooling not in POOLINGS:
        raise ValueError(f"pooling must be one of {POOLINGS}, got {pooling!r}")
    if pooling == "cls":
        return hidden[:, 0]
    if attention_mask is None:
        attention_mask = torch.ones(hidden.shape[:2], dtype=torch.long, device=hidden.device)
    if pooling == "mean":
        return mean_pool(hidden, attention_mask)
    check_right_padded(attention_mask)
    last = attention_mask.long().sum(dim=1) - 1  # (B,): the index of each row's last token
    return hidden[torch.arange(hidden.shape[0], device=hidden.device), last]


class SequenceClassifier(nn.Module):
    """A pretrained model with a linear head on a pooled vector: ``forward(input_ids (B, T), attention_mask)
    -> logits (B, C)``. The model is ``self.body``, the head ``self.head`` (``nn.Linear(d, C)``, BERT's
    initialisation N(0, 0.02)); dropout before the head, as BERT's fine-tuning does. Columns that are
    padding in every row (right padding) are cut off first: they cost time and change nothing."""

    def __init__(self, body: nn.Module, n_classes: int, pooling: Pooling = "cls", dropout: float = 0.1) -> None:
        super().__init__()
        if n_classes < 2:
            raise ValueError(f"a classifier needs at least 2 classes, got {n_classes}")
        if pooling not in POOLINGS:
            raise ValueError(f"pooling must be one of {POOLINGS}, got {pooling!r}")
        self.body, self.pooling, self.n_classes = body, pooling, n_classes
        self.drop = nn.Dropout(dropout)
        self.head = nn.Linear(_width(body), n_classes)
        nn.init.normal_(self.head.weight, std=0.02)
        nn.init.zeros_(self.head.bias)

    def forward(self, input_ids: Tensor, attention_mask: Tensor | None = None) -> Tensor:
        if attention_mask is not None and attention_mask.shape == input_ids.shape and input_ids.shape[1]:
            used = int(attention_mask.sum(dim=1).max())  # columns past every row's last token change nothing pooled
            input_ids, attention_mask = input_ids[:, : max(used, 1)], attention_mask[:, : max(used, 1)]
        pooled = pool(hidden_states(self.body, input_ids, attention_mask), attention_mask, self.pooling)  # (B, d)
        return self.head(self.drop(pooled))  # (B, C)


class TokenClassifier(nn.Module):
    """A label per token: ``forward(input_ids (B, T), attention_mask) -> logits (B, T, C)``; labels at padding
    (or at any position not scored) are ``IGNORE_INDEX``."""

    def __init__(self, body: nn.Module, n_classes: int, dropout: float = 0.1) -> None:
        super().__init__()
        if n_classes < 2:
            raise ValueError(f"a classifier needs at least 2 classes, got {n_classes}")
        self.body, self.n_classes = body, n_classes
        self.drop = nn.Dropout(dropout)
        self.head = nn.Linear(_width(body), n_classes)
        nn.init.normal_(self.head.weight, std=0.02)
        nn.init.zeros_(self.head.bias)

    def forward(self, input_ids: Tensor, attention_mask: Tensor | None = None) -> Tensor:
        return self.head(self.drop(hidden_states(self.body, input_ids, attention_mask)))  # (B, T, C)


def check_labels(labels: Tensor, n_classes: int) -> None:
    """Refuse labels outside ``0 .. n_classes - 1`` (``IGNORE_INDEX`` allowed), naming the offenders."""
    real = labels[labels != IGNORE_INDEX]
    if real.numel() and not 0 <= int(real.min()) <= int(real.max()) < n_classes:
        bad = sorted({int(v) for v in real[(real < 0) | (real >= n_classes)].tolist()})
        raise ValueError(f"labels must be in 0 .. {n_classes - 1} (the head's classes), got {bad[:10]}")


def classification_loss(model: nn.Module, inputs: Tensor | tuple[Tensor, ...], labels: Tensor) -> Tensor:
    """Cross-entropy of ``model(*inputs)`` (logits ``(B, C)`` or ``(B, T, C)``) against ``labels``
    (``(B,)`` or ``(B, T)``, ``IGNORE_INDEX`` not scored): the ``loss_fn`` for :func:`course_lib.train.train`."""
    logits = model(*inputs) if isinstance(inputs, tuple) else model(inputs)
    check_labels(labels, logits.shape[-1])
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1), ignore_index=IGNORE_INDEX)


@torch.no_grad()
def predict(model: nn.Module, inputs: Sequence[Tensor], batch_size: int = 64) -> Tensor:
    """``model``'s class predictions ``(N,)`` (or ``(N, T)``) for inputs given as tensors of ``N`` rows
    each (e.g. ``(input_ids, attention_mask)``), in eval mode and in batches; the mode is restored after.

    With an attention mask ``(N, T)`` second, the rows are batched shortest first (the predictions come back
    in the given order): a batch of similar lengths loses its padding columns in a model that cuts them
    (:class:`SequenceClassifier`), so that a test set of short and long rows costs what its tokens cost.
    """
    was_training = model.training
    model.eval()
    try:
        n = inputs[0].shape[0]
        masked = len(inputs) > 1 and inputs[1].ndim == 2 and inputs[1].shape == inputs[0].shape
        order = inputs[1].ne(0).sum(dim=1).argsort(stable=True) if masked else torch.arange(n)  # (N,)
        rows = [t[order] for t in inputs]
        out = torch.cat([model(*(t[i : i + batch_size] for t in rows)).argmax(dim=-1) for i in range(0, n, batch_size)])
        return out[order.argsort()]  # back to the given order
    finally:
        model.train(was_training)


def accuracy(model: nn.Module, inputs: Sequence[Tensor], labels: Tensor, batch_size: int = 64) -> float:
    """The fraction of ``labels (N,)`` that ``model`` predicts (see :func:`predict`)."""
    return float((predict(model, inputs, batch_size) == labels).float().mean())


# ---------------------------------------------------------------------------------- freezing


def _matching(names: Sequence[str], pattern: str) -> list[str]:
    return [n for n in names if fnmatch.fnmatchcase(n, pattern)]


def _no_match(kind: str, pattern: str, names: Sequence[str]) -> ValueError:
    stems = sorted({".".join(part if not part.isdigit() else "*" for part in n.split(".")) for n in names})
    shown = ", ".join(stems[:40]) + (f", ... ({len(stems)} in all)" if len(stems) > 40 else "")
    return ValueError(f"the pattern {pattern!r} matches no {kind}; the {kind}s are named like: {shown}")


def blocks_of(model: nn.Module) -> tuple[str, int]:
    """The name of ``model``'s stack of blocks and its length, e.g. ``("body.encoder.layers", 6)``;
    refused when the model has no stack or more than one (T5: name the blocks by pattern)."""
    stacks = [
        (name, len(m)) for name, m in model.named_modules()
        if isinstance(m, nn.ModuleList) and len(m) and all(isinstance(b, EncoderBlock | DecoderBlock) for b in m)
    ]  # fmt: skip
    if len(stacks) != 1:
        found = ", ".join(n for n, _ in stacks) or "none"
        raise ValueError(
            f"choose blocks by index only in a model with one stack of blocks; found: {found} (use name patterns)"
        )
    return stacks[0]


def freeze(model: nn.Module, train: Sequence[str] = (), *, blocks: Sequence[int] = ()) -> int:
    """Freeze every parameter of ``model`` except those to train, and return how many are trained.

    ``train``: glob patterns over parameter names (``"head.*"``, ``"*.bias"``, ``"*lora_*"``), each of
    which must match something. ``blocks``: indices into the model's stack of blocks (``-1`` the last).
    A parameter is trained if a pattern matches it or it lies in a chosen block.
    """
    names = [n for n, _ in model.named_parameters()]
    patterns = list(train)
    for pattern in patterns:
        if not _matching(names, pattern):
            raise _no_match("parameter", pattern, names)
    if blocks:
        stack, n_blocks = blocks_of(model)
        for i in blocks:
            if not -n_blocks <= i < n_blocks:
                raise ValueError(f"block {i} does not exist: the model has {n_blocks} blocks ({stack})")
            patterns.append(f"{stack}.{i % n_blocks}.*")
    for name, p in model.named_parameters():
        p.requires_grad_(any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns))
    return trainable_parameters(model)


def trainable_parameters(model: nn.Module) -> int:
    """The number of parameters (elements) that ``requires_grad``."""
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


# ------------------------------------------------------------------------------------ probes


@torch.no_grad()
def layer_features(
    model: nn.Module, input_ids: Tensor, attention_mask: Tensor | None, poolings: Sequence[Pooling] = ("cls", "mean")
) -> dict[str, Tensor]:
    """The pooled hidden state after the embeddings and after every block, ``(L + 1, B, d)`` for each
    pooling: what a probe on each layer reads (row 0 is the input to the first block). Read through
    forward hooks on the stack's blocks (see :func:`blocks_of`), the model run once in eval mode."""
    stack, _ = blocks_of(model)
    blocks = model.get_submodule(stack)
    assert isinstance(blocks, nn.ModuleList)  # blocks_of names a ModuleList
    states: list[Tensor] = []
    hooks = [blocks[0].register_forward_pre_hook(lambda module, args: states.append(args[0]))]
    hooks += [b.register_forward_hook(lambda module, args, out: states.append(out)) for b in blocks]
    was_training = model.training
    model.eval()
    try:
        hidden_states(model, input_ids, attention_mask)
    finally:
        model.train(was_training)
        for h in hooks:
            h.remove()
    return {
        pooling: torch.stack([pool(s, attention_mask, pooling) for s in states]) for pooling in poolings
    }  # each (L + 1, B, d)


def features(
    model: nn.Module,
    input_ids: Tensor,
    attention_mask: Tensor | None,
    poolings: Sequence[Pooling] = ("cls", "mean"),
    batch_size: int = 128,
    every_layer: bool = False,
) -> dict[str, Tensor]:
    """Pooled features of ``N`` sequences, computed once with the model frozen (no gradient, eval mode),
    in batches, for each pooling: ``(N, d)``, or ``(L + 1, N, d)`` with ``every_layer``."""
    parts: dict[str, list[Tensor]] = {pooling: [] for pooling in poolings}
    for i in range(0, input_ids.shape[0], batch_size):
        rows = slice(i, i + batch_size)
        mask = attention_mask[rows] if attention_mask is not None else None
        for pooling, feats in layer_features(model, input_ids[rows], mask, poolings).items():
            parts[pooling].append(feats)
    every = {pooling: torch.cat(p, dim=1) for pooling, p in parts.items()}  # each (L + 1, N, d)
    return every if every_layer else {pooling: f[-1] for pooling, f in every.items()}


def tensor_batches(train: tuple[Tensor, Tensor], val: tuple[Tensor, Tensor], batch_size: int) -> Batches:
    """``batches(split, generator) -> (inputs, labels)`` for :func:`course_lib.train.train`: rows drawn at
    random (with the generator) from ``train = (inputs (N, ...), labels (N, ...))`` or ``val``."""
    splits = {"train": train, "val": val}
    for split, (x, y) in splits.items():
        if x.shape[0] != y.shape[0] or x.shape[0] == 0:
            raise ValueError(
                f"{split}: inputs and labels need the same number of "
                f"rows (at least 1), got {x.shape[0]} and {y.shape[0]}"
            )

    def batches(split: str, generator: torch.Generator) -> tuple[Tensor, Tensor]:
        x, y = splits[split]
        rows = torch.randint(x.shape[0], (batch_size,), generator=generator)
        return x[rows], y[rows]

    return batches


# -------------------------------------------------------------------------------------- LoRA


class LoRALinear(nn.Module):
    """``base(x) + (alpha / r) * x A^T B^T``: a frozen ``nn.Linear`` plus a trained rank-``r`` update.

    ``lora_A (r, in)`` starts as loralib and peft start it (Kaiming-uniform, ``a = sqrt(5)``) and
    ``lora_B (out, r)`` at zero, so the wrapped model starts equal to the base. :meth:`merge` adds
    ``scale * B A`` into the base weight (inference at the base's cost), :meth:`unmerge` takes it out;
    while ``enabled`` is False the layer is the base alone. ``dropout`` drops the LoRA path's input.
    """

    def __init__(
        self, base: nn.Linear, r: int, alpha: float, dropout: float = 0.0, generator: torch.Generator | None = None
    ) -> None:
        super().__init__()
        if not isinstance(base, nn.Linear) or isinstance(base, LoRALinear):
            raise TypeError(f"LoRA wraps an nn.Linear, got {type(base).__name__}")
        if not 1 <= r <= min(base.in_features, base.out_features):
            raise ValueError(
                f"rank r={r} must be in 1 .. {min(base.in_features, base.out_features)} "
                f"(the layer is {base.in_features} -> {base.out_features})"
            )
        self.base, self.r, self.scale = base, r, alpha / r
        base.weight.requires_grad_(False)
        if base.bias is not None:
            base.bias.requires_grad_(False)
        device, dtype = base.weight.device, base.weight.dtype
        self.lora_A = nn.Parameter(torch.empty(r, base.in_features, device=device, dtype=dtype))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r, device=device, dtype=dtype))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5), generator=generator)
        self.drop = nn.Dropout(dropout) if dropout > 0 else nn.Identity()  # Dropout(0) would still copy its input
        self.merged, self.enabled = False, True

    def delta(self) -> Tensor:
        """The update ``scale * B A``, ``(out, in)``: what merging adds to the base weight."""
        return self.scale * self.lora_B @ self.lora_A

    def update(self, x: Tensor) -> Tensor | None:
        """What the layer adds to ``base(x)``: ``scale * x A^T B^T`` ``(..., out)``, or None while merged or disabled.
        (:func:`~course_lib.projections.fused_projections` makes the base products of attention together and adds each
        ``update``.)"""
        if not self.enabled or self.merged:
            return None
        return self.scale * (self.drop(x) @ self.lora_A.T @ self.lora_B.T)  # (..., in) -> (..., r) -> (..., out)

    def forward(self, x: Tensor) -> Tensor:
        out, update = self.base(x), self.update(x)  # (..., out)
        return out if update is None else out + update

    @torch.no_grad()
    def merge(self) -> None:
        if self.merged:
            raise RuntimeError("this LoRA layer is merged already")
        self.base.weight += self.delta()
        self.merged = True

    @torch.no_grad()
    def unmerge(self) -> None:
        if not self.merged:
            raise RuntimeError("this LoRA layer is not merged")
        self.base.weight -= self.delta()
        self.merged = False


def _wrap_linears(model: nn.Module, targets: Sequence[str], wrap: Callable[[nn.Linear], nn.Module]) -> list[str]:
    """Replace every plain ``nn.Linear`` whose module name matches a target pattern by ``wrap(linear)``."""
    wrapped = {n for n, m in model.named_modules() if isinstance(m, LoRALinear | AdaptedLinear)}
    linears = [n for n, m in model.named_modules() if type(m) is nn.Linear and n.rpartition(".")[0] not in wrapped]
    chosen: list[str] = []
    for pattern in targets:
        matched = _matching(linears, pattern)
        if not matched:
            raise _no_match("linear layer", pattern, linears)
        chosen += [n for n in matched if n not in chosen]
    for name in chosen:
        parent, _, attr = name.rpartition(".")
        setattr(model.get_submodule(parent), attr, wrap(model.get_submodule(name)))  # type: ignore[arg-type]
    return chosen


def apply_lora(
    model: nn.Module,
    targets: Sequence[str],
    r: int,
    alpha: float,
    dropout: float = 0.0,
    generator: torch.Generator | None = None,
) -> list[str]:
    """Wrap the linear layers of ``model`` whose names match ``targets`` (globs, e.g. ``"*.q_proj"``,
    ``"*.v_proj"`` as Hu et al. adapt) in :class:`LoRALinear`; return their names. Each pattern must
    match a plain ``nn.Linear``. The base weights are frozen; call :func:`freeze` to choose the rest."""
    return _wrap_linears(model, targets, lambda linear: LoRALinear(linear, r, alpha, dropout, generator))


def lora_layers(model: nn.Module) -> list[LoRALinear]:
    return [m for m in model.modules() if isinstance(m, LoRALinear)]


def merge_lora(model: nn.Module) -> None:
    """Merge every LoRA layer of ``model`` into its base weight."""
    for layer in lora_layers(model):
        layer.merge()


@contextlib.contextmanager
def lora_disabled(model: nn.Module) -> Iterator[None]:
    """Inside, every (unmerged) LoRA layer of ``model`` is its base alone: the pretrained model comes back."""
    layers = lora_layers(model)
    if any(layer.merged for layer in layers):
        raise RuntimeError("unmerge the LoRA layers before disabling them (merged, the base weight holds the update)")
    for layer in layers:
        layer.enabled = False
    try:
        yield
    finally:
        for layer in layers:
            layer.enabled = True


# ---------------------------------------------------------------------------------- adapters


class Adapter(nn.Module):
    """Houlsby et al.'s bottleneck: ``x + up(GELU(down(x)))``, ``(..., d) -> (..., d)`` through a width
    ``m``. Weights start small (N(0, 1e-3)) and biases at zero: the adapter starts near the identity."""

    def __init__(self, d: int, bottleneck: int, std: float = 1e-3) -> None:
        super().__init__()
        if not 1 <= bottleneck:
            raise ValueError(f"bottleneck must be at least 1, got {bottleneck}")
        self.down, self.up = nn.Linear(d, bottleneck), nn.Linear(bottleneck, d)
        for layer in (self.down, self.up):
            nn.init.normal_(layer.weight, std=std)
            nn.init.zeros_(layer.bias)

    def forward(self, x: Tensor) -> Tensor:
        return x + self.up(F.gelu(self.down(x)))  # (..., d)


class AdaptedLinear(nn.Module):
    """A linear layer followed by an :class:`Adapter` on its output: ``adapter(base(x))``."""

    def __init__(self, base: nn.Linear, bottleneck: int) -> None:
        super().__init__()
        self.base, self.adapter = base, Adapter(base.out_features, bottleneck)

    def forward(self, x: Tensor) -> Tensor:
        return self.adapter(self.base(x))


def add_adapters(model: nn.Module, targets: Sequence[str], bottleneck: int) -> list[str]:
    """Put an adapter after each linear layer of ``model`` whose name matches ``targets``; Houlsby et al.
    place them after the attention's output projection and the feed-forward's second layer, before the
    residual sum (``"*.out_proj"``, ``"*.linear2"`` here). Return the wrapped layers' names."""
    return _wrap_linears(model, targets, lambda linear: AdaptedLinear(linear, bottleneck))


# -------------------------------------------------------------------------- what training costs


class TrainingMemory(NamedTuple):
    """Bytes a training step of a model holds, by kind: the weights, the gradients of the trained
    parameters, AdamW's two moments for each of them, and the activations autograd saves for the
    backward pass (each tensor counted once; the weights themselves not again)."""

    weights: int
    gradients: int
    optimizer: int
    activations: int

    @property
    def total(self) -> int:
        return self.weights + self.gradients + self.optimizer + self.activations


def training_memory(model: nn.Module, loss: Callable[[], Tensor]) -> TrainingMemory:
    """What one training step of ``model`` holds at its peak (before the backward pass frees the
    activations), counted from the tensors themselves: ``loss()`` runs the forward pass once under
    :class:`torch.autograd.graph.saved_tensors_hooks`, which sees every tensor saved for backward."""
    params = list(model.parameters())
    weight_storage = {p.untyped_storage().data_ptr() for p in params}
    saved: dict[tuple[int, int], int] = {}

    def pack(t: Tensor) -> Tensor:
        storage = t.untyped_storage()
        if storage.data_ptr() not in weight_storage:
            saved[(storage.data_ptr(), storage.nbytes())] = storage.nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        loss()
    trained = sum(p.numel() * p.element_size() for p in params if p.requires_grad)
    return TrainingMemory(sum(p.numel() * p.element_size() for p in params), trained, 2 * trained, sum(saved.values()))


# ------------------------------------------------------------------- saving what was trained


def base_fingerprint(model: nn.Module) -> str:
    """A SHA-256 of the frozen parameters' names (as before any LoRA or adapter wrapped them), shapes
    and values: the base a trained file belongs to."""
    wrappers = [n + "." for n, m in model.named_modules() if isinstance(m, LoRALinear | AdaptedLinear)]
    digest = hashlib.sha256()
    for name, p in model.named_parameters():
        if not p.requires_grad:
            # as before wrapping
            base_name = next((w + name[len(w) + 5 :] for w in wrappers if name.startswith(w + "base.")), name)
            digest.update(f"{base_name}:{tuple(p.shape)}:{p.dtype}".encode())
            digest.update(p.detach().to("cpu").contiguous().view(torch.uint8).numpy().tobytes())
    return digest.hexdigest()


def save_trained(model: nn.Module, path: str | Path) -> int:
    """Save only the parameters that ``requires_grad`` (a LoRA's A and B, adapters, a head), with the
    base's fingerprint; return the file's size in bytes."""
    if any(layer.merged for layer in lora_layers(model)):
        raise RuntimeError("unmerge the LoRA layers before saving: merged, the base weights are not the base")
    trained = {n: p.detach().cpu() for n, p in model.named_parameters() if p.requires_grad}
    if not trained:
        raise ValueError("no parameter requires grad: nothing was trained to save")
    torch.save({"base": base_fingerprint(model), "parameters": trained}, path)
    return Path(path).stat().st_size


def load_trained(model: nn.Module, path: str | Path) -> None:
    """Load parameters saved by :func:`save_trained` into ``model`` (the same base, wrapped and frozen
    the same way); a file saved for another base, or for other parameters, is refused."""
    saved = torch.load(path, weights_only=True)
    if saved["base"] != base_fingerprint(model):
        raise ValueError(f"{path} was saved for a different base model (its frozen weights differ from this model's)")
    own = dict(model.named_parameters())
    expected = {n for n, p in own.items() if p.requires_grad}
    if set(saved["parameters"]) != expected:
        missing, extra = sorted(expected - set(saved["parameters"])), sorted(set(saved["parameters"]) - expected)
        raise ValueError(
            f"{path} does not hold this model's trained parameters: missing {missing[:5]}, unexpected {extra[:5]}"
        )
    with torch.no_grad():
        for name, tensor in saved["parameters"].items():
            if own[name].shape != tensor.shape:
                raise ValueError(f"{name}: saved shape {tuple(tensor.shape)}, the model has {tuple(own[name].shape)}")
            own[name].copy_(tensor)
