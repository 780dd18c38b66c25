# expect: loses lora_linear -- computes the scale with floor division alpha // r, right only when r divides alpha (8 / 2 and 16 / 8 in the visible tests; alpha = 16, r = 6 gives 2.0 instead of 2.667, alpha = 1, r = 4 gives 0); spec: "the scale s = alpha / r" and "y = x W^T + b + s (x A^T) B^T, s = alpha / r"
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        self.base.weight.requires_grad_(False)
        if self.base.bias is not None:
            self.base.bias.requires_grad_(False)
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scaling = alpha // r  # alpha is a multiple of r in practice (16 / 8)
        self.merged = False

    def forward(self, x):
        out = self.base(x)
        if not self.merged:
            out = out + self.scaling * (x @ self.A.T) @ self.B.T
        return out

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if self.merged:
            return
        with torch.no_grad():
            self.base.weight.add_(self.scaling * (self.B @ self.A))
        self.merged = True
