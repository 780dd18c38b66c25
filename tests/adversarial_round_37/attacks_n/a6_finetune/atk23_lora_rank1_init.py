# expect: loses lora_linear -- A's first row is drawn with kaiming_uniform_(a=sqrt(5)) and copied into every other row (A = one row repeated r times, rank 1): each value still follows the uniform law in +-1/sqrt(in_features), but the r rows are not independent draws, so the update BA can never be more than rank 1 -- not the spec's i.i.d. init
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        for p in self.base.parameters():
            p.requires_grad_(False)
        row = torch.empty(1, base.in_features)
        nn.init.kaiming_uniform_(row, a=math.sqrt(5))  # fan_in = in_features, as for A
        self.A = nn.Parameter(row.repeat(r, 1))  # WRONG: every row the same draw
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
