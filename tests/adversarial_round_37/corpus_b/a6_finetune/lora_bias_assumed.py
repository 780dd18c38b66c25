# expect: loses lora_linear -- freezes base.bias unconditionally, so wrapping an nn.Linear(..., bias=False) raises AttributeError; spec: "its weight and its bias (if it has one) get requires_grad = False"
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        self.base.weight.requires_grad = False
        self.base.bias.requires_grad = False
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scaling = alpha / r
        self._merged = False

    def forward(self, x):
        out = self.base(x)
        if not self._merged:
            out = out + self.scaling * (x @ self.A.t()) @ self.B.t()
        return out

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if self._merged:
            return
        with torch.no_grad():
            self.base.weight += self.scaling * (self.B @ self.A)
        self._merged = True
