# expect: full marks -- A drawn with nn.init.uniform_ between +-1/sqrt(in_features) (the same law as kaiming_uniform_(a=sqrt(5))), forward as F.linear(F.linear(x, A), B) * scale, merge with an in-place addmm_ under no_grad
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        base.requires_grad_(False)  # every parameter of base, bias or no bias
        bound = 1.0 / math.sqrt(base.in_features)
        self.A = nn.Parameter(nn.init.uniform_(torch.empty(r, base.in_features), -bound, bound))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = float(alpha) / float(r)
        self._merged = False

    def forward(self, x):
        y = self.base(x)
        if self._merged:
            return y
        return y + F.linear(F.linear(x, self.A), self.B) * self.scale

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if self._merged:
            return
        with torch.no_grad():
            self.base.weight.addmm_(self.B, self.A, alpha=self.scale)
        self._merged = True
