# expect: loses lora_linear -- writes the update with einsum("bti,ri->btr"), i.e. for (B, T, in_features) inputs only: a (N, in) batch or a single vector raises; spec: "forward(x): x has shape (..., in_features), any number of leading dimensions"
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        for p in base.parameters():
            p.requires_grad = False
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.s = alpha / r
        self.merged = False

    def forward(self, x):
        y = self.base(x)
        if self.merged:
            return y
        h = torch.einsum("bti,ri->btr", x, self.A)  # (batch, time, r)
        return y + self.s * torch.einsum("btr,or->bto", h, self.B)

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if not self.merged:
            with torch.no_grad():
                self.base.weight += self.s * torch.einsum("or,ri->oi", self.B, self.A)
            self.merged = True
