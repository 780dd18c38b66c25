# expect: full marks -- style: forward through one F.linear with an effective weight base.weight + s B A built on every call (the same function and gradients for A and B), merge by assigning to .data, the merged state as a registered buffer
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        self.base.requires_grad_(False)
        self.A = nn.Parameter(torch.empty(r, base.in_features, dtype=torch.float32))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(torch.zeros(base.out_features, r, dtype=torch.float32))
        self.s = float(alpha) / float(r)
        self.register_buffer("is_merged", torch.tensor(False))

    def forward(self, x):
        if bool(self.is_merged):
            return self.base(x)
        weight = self.base.weight + self.s * (self.B @ self.A)
        return F.linear(x, weight, self.base.bias)

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if not bool(self.is_merged):
            with torch.no_grad():
                self.base.weight.data = self.base.weight.data + self.s * (self.B @ self.A)
            self.is_merged.fill_(True)
