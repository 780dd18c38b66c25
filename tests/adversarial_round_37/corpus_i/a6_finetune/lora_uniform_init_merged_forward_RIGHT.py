# expect: full marks -- A drawn with nn.init.uniform_(-1/sqrt(in), 1/sqrt(in)) (the same law as kaiming_uniform_(a=sqrt(5))), the update as F.linear(F.linear(x, A), B), merge as an in-place add_ under no_grad, the merged state kept in a private flag
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        for p in base.parameters():
            p.requires_grad = False
        bound = 1.0 / math.sqrt(base.in_features)
        self.A = nn.Parameter(torch.empty(r, base.in_features, dtype=base.weight.dtype))
        nn.init.uniform_(self.A, -bound, bound)
        self.B = nn.Parameter(torch.zeros(base.out_features, r, dtype=base.weight.dtype))
        self.scale = alpha / r
        self._merged = False

    def forward(self, x):
        if self._merged:
            return self.base(x)
        return self.base(x) + self.scale * F.linear(F.linear(x, self.A), self.B)

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if self._merged:
            return
        with torch.no_grad():
            self.base.weight.add_(self.scale * (self.B @ self.A))
        self._merged = True
