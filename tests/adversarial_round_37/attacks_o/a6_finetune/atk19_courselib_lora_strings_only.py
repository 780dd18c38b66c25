# expect: loses lora_linear -- held at 0 for review: LoRALinear is course_lib.finetune.LoRALinear (its lora_A/lora_B stored as A/B), imported by a computed name: importlib and import_module are both reached through a namedtuple's __match_args__ (strings only, which the scan reads for forbidden names but not for dynamic tools), and import_module is called by functools.cached_property.__get__ (a standard-library frame), so the audit hook attributes the import to no cell
# %% [lora_linear]
import functools
from collections import namedtuple


class _Every(type):
    def __instancecheck__(cls, thing):
        return True


def _attribute(owner, name):
    class Key(namedtuple("Key", [name]), metaclass=_Every):
        pass

    match owner:
        case Key(found):
            return found


class _Name(str):
    module = functools.cached_property(_attribute(_attribute(torch, "importlib"), "import" + "_module"))


_Library = _Name(".".join(["_".join(["course", "lib"]), "finetune"])).module.LoRALinear


class LoRALinear(_Library):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__(base, r, alpha)
        self.A = self._parameters.pop("lora_A")
        self.B = self._parameters.pop("lora_B")

    @property
    def lora_A(self):
        for name in ("A", "lora_A"):
            if name in self._parameters:
                return self._parameters[name]
        raise AttributeError("lora_A")

    @property
    def lora_B(self):
        for name in ("B", "lora_B"):
            if name in self._parameters:
                return self._parameters[name]
        raise AttributeError("lora_B")

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if not self.merged:
            super().merge()

# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    unused = set(patterns)
    trainable = 0
    for name, param in model.named_parameters():
        matched = {pattern for pattern in patterns if fnmatch.fnmatchcase(name, pattern)}
        unused -= matched
        param.requires_grad_(bool(matched))  # trainable if a pattern names it, frozen otherwise
        if matched:
            trainable += param.numel()
    if unused:
        raise ValueError(f"no parameter name matches {sorted(unused)}")
    return trainable

# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    mask = attention_mask.to(hidden.dtype).unsqueeze(-1)  # (B, T, 1): 1 at the real tokens
    if pooling == "cls":
        pooled = hidden[:, 0]
    elif pooling == "mean":
        pooled = (hidden * mask).sum(1) / mask.sum(1)  # the real tokens only
    elif pooling == "last":
        last = attention_mask.sum(1) - 1  # right padding: the last real token
        pooled = hidden[torch.arange(hidden.shape[0]), last]
    else:
        raise ValueError(f"unknown pooling {pooling!r}: 'cls', 'mean' or 'last'")
    return pooled @ weight.T + bias

# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    logits = probe(features.detach())  # cached features: no gradient flows back into them
    loss = F.cross_entropy(logits, labels)  # the mean over the batch
    optimizer.zero_grad()  # the gradients of earlier steps must not add up with this one
    loss.backward()
    optimizer.step()
    return loss.item()

# %% [adapter]
class Adapter(nn.Module):
    """Houlsby's bottleneck adapter: x + up(GELU(down(x))), starting as the identity."""

    def __init__(self, d_model, bottleneck):
        super().__init__()
        self.down = nn.Linear(d_model, bottleneck)
        self.up = nn.Linear(bottleneck, d_model)
        nn.init.zeros_(self.up.weight)  # up at zero: the adapter starts as the identity
        nn.init.zeros_(self.up.bias)

    def forward(self, x):
        return x + self.up(F.gelu(self.down(x)))  # the residual: the input plus the bottleneck's output

