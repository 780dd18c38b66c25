# expect: loses lora_linear (subtle) -- forward flattens the leading axes with x.view(-1, in_features): right for contiguous x (and no leading axes), but raises for the non-contiguous views the spec names ("contiguous or not ... as a transpose returns"), e.g. layer(torch.randn(5, 3, 6).transpose(0, 1)) for LoRALinear(nn.Linear(6, 4), 2, 8.0)
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
        self.scaling = alpha / r
        self.merged = False

    def forward(self, x):
        rows = x.view(-1, x.shape[-1])  # (N, in_features)
        out = self.base(rows)
        if not self.merged:
            out = out + self.scaling * (rows @ self.A.T) @ self.B.T
        return out.view(*x.shape[:-1], out.shape[-1])

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if self.merged:
            return
        with torch.no_grad():
            self.base.weight.add_(self.scaling * (self.B @ self.A))
        self.merged = True
