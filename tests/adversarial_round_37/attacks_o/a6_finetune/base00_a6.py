# expect: full marks -- the answer key unchanged (baseline)
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        for p in self.base.parameters():
            p.requires_grad_(False)  # the pretrained weight and bias stay as they are
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))  # random, as nn.Linear's own weight
        self.B = nn.Parameter(torch.zeros(base.out_features, r))  # zero: the layer starts as base
        self.scale = alpha / r
        self.merged = False

    def forward(self, x):
        if self.merged:  # the update is in base.weight already
            return self.base(x)
        return self.base(x) + self.scale * (x @ self.A.T) @ self.B.T

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if not self.merged:
            with torch.no_grad():
                self.base.weight += self.scale * self.B @ self.A
            self.merged = True

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

