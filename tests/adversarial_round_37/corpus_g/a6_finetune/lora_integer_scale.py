# expect: loses lora_linear -- the scale is alpha // r (floor division): 16 // 3 = 5 instead of 5.33, 1 // 2 = 0 (right only when r divides alpha)
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        self.base.weight.requires_grad = False
        if self.base.bias is not None:
            self.base.bias.requires_grad = False
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scaling = alpha // r
        self.merged = False

    def forward(self, x):
        out = self.base(x)
        if not self.merged:
            out = out + self.scaling * ((x @ self.A.t()) @ self.B.t())
        return out

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if self.merged:
            return
        with torch.no_grad():
            self.base.weight.add_(self.scaling * (self.B @ self.A))
        self.merged = True
