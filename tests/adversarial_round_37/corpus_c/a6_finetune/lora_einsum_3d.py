# expect: loses lora_linear -- the update is an einsum over (batch, time, features), so a 2-D (N, in) or 1-D input fails; spec: "forward(x): x has shape (..., in_features), any number of leading dimensions"
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
        self.scale = alpha / r
        self.merged = False

    def forward(self, x):
        if self.merged:
            return self.base(x)
        update = torch.einsum("bti,ri,or->bto", x, self.A, self.B)  # (B, T, out)
        return self.base(x) + self.scale * update

    def merge(self):
        if not self.merged:
            with torch.no_grad():
                self.base.weight += self.scale * self.B @ self.A
            self.merged = True
