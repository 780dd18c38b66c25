# expect: loses lora_linear -- initialises A with torch.rand(...) / sqrt(in_features): uniform on [0, 1/sqrt(in)], never negative; spec: "initialised ... with nn.init.kaiming_uniform_(self.A, a=math.sqrt(5)) (uniform between +-1/sqrt(in_features), as nn.Linear initialises its own weight)"
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        for p in self.base.parameters():
            p.requires_grad_(False)
        bound = 1 / math.sqrt(base.in_features)  # what kaiming_uniform_(a=sqrt(5)) gives
        self.A = nn.Parameter(torch.rand(r, base.in_features) * bound)
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha / r
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
