# expect: full marks -- A drawn as (2 U - 1) / sqrt(in_features) with torch.rand (the same law as kaiming_uniform_ with a = sqrt(5)), the forward through one F.linear with the weight W + s B A, merge by .data assignment
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        base.requires_grad_(False)
        bound = 1.0 / math.sqrt(base.in_features)
        self.A = nn.Parameter((2 * torch.rand(r, base.in_features) - 1) * bound)
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha / r
        self.merged = False

    def forward(self, x):
        if self.merged:
            return self.base(x)
        return F.linear(x, self.base.weight + self.scale * (self.B @ self.A), self.base.bias)

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if not self.merged:
            with torch.no_grad():
                self.base.weight.data = self.base.weight.data + self.scale * (self.B @ self.A)
            self.merged = True
