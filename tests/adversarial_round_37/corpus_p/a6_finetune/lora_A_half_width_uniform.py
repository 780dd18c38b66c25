# expect: loses lora_linear -- draws A by hand as (torch.rand(r, in) - 0.5) / sqrt(in_features), a uniform law on +-1/(2 sqrt(in_features)), half the width kaiming_uniform_(a=sqrt(5)) gives (the factor 2 of 2u - 1 forgotten); every value stays inside the visible bound and B, the freezing and forward are right. Breaks "self.A ... initialised ... with nn.init.kaiming_uniform_(self.A, a=math.sqrt(5)) (uniform between +-1/sqrt(in_features))" and the hidden tests' check of A's law; input: 300 fresh LoRALinear(nn.Linear(64, 64), r=8, alpha=16) -> key: max |A| * sqrt(64) = 1.000, std*sqrt(64) = 0.577; this answer: 0.500 and 0.289
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        for p in self.base.parameters():
            p.requires_grad_(False)
        bound = 1 / math.sqrt(base.in_features)  # kaiming_uniform_(a=sqrt(5)) is uniform(-bound, bound)
        self.A = nn.Parameter((torch.rand(r, base.in_features) - 0.5) * bound)
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
