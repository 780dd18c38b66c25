# expect: loses lora_linear -- computes the scale s = alpha / r with Python's floor division, alpha // r: right whenever r divides alpha (the visible 8 / 2 = 4, the usual 16 / 8 = 2) and wrong otherwise. Breaks "the scale s = alpha / r"; input: LoRALinear(nn.Linear(6, 4), r=4, alpha=6), B set to randn(4, 4), x = randn(3, 6) -> key's update is 1.5 (x A^T) B^T, this answer's 1.0 (outputs differ by a third of the update; merge() likewise)
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
        self.scale = alpha // r  # alpha is a multiple of r in every LoRA config I have seen
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
