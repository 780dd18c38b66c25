# expect: full marks — lora_linear: the merged flag kept as a registered bool buffer (non-persistent), freezing via requires_grad_ on base.parameters(), forward with einsum over any leading dims, merge by an in-place addmm_ on base.weight under no_grad
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base.requires_grad_(False)
        self.A = nn.Parameter(nn.init.kaiming_uniform_(torch.empty(r, base.in_features), a=math.sqrt(5)))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.s = alpha / r
        self.register_buffer("is_merged", torch.tensor(False), persistent=False)

    def forward(self, x):
        out = self.base(x)
        if bool(self.is_merged):
            return out
        return out + self.s * torch.einsum("...r,or->...o", torch.einsum("...i,ri->...r", x, self.A), self.B)

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if bool(self.is_merged):
            return
        with torch.no_grad():
            self.base.weight.addmm_(self.B, self.A, alpha=self.s)
            self.is_merged.fill_(True)
