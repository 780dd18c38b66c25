# expect: loses lora_linear (the scale as alpha // r, floor division: right whenever r divides alpha (the visible 8 / 2 and 16 / 8), wrong otherwise: base Linear(6, 4), r 4, alpha 6.0, B randn: the answer's update is scaled by 1.0 instead of 1.5 (outputs differ by 1.77) (and r 4, alpha 2 gives 0: the update vanishes); alpha a multiple of r agrees)
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        for p in self.base.parameters():
            p.requires_grad_(False)
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha // r  # alpha over the rank
        self.merged = False

    def forward(self, x):
        if self.merged:
            return self.base(x)
        return self.base(x) + self.scale * (x @ self.A.T) @ self.B.T

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if not self.merged:
            with torch.no_grad():
                self.base.weight += self.scale * self.B @ self.A
            self.merged = True
