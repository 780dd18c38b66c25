# expect: loses lora_linear — freezes base by naming its weight and its bias (self.base.bias.requires_grad_(False)), which raises AttributeError for an nn.Linear built with bias=False (bias is None), a base the spec allows ('its bias (if it has one)'); input: LoRALinear(nn.Linear(6, 4, bias=False), r=2, alpha=8.0) -> file raises AttributeError, key builds the layer
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        self.base.weight.requires_grad_(False)
        self.base.bias.requires_grad_(False)
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha / r
        self.merged = False

    def forward(self, x):
        y = self.base(x)
        if self.merged:
            return y
        return y + self.scale * (x @ self.A.T) @ self.B.T

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if self.merged:
            return
        with torch.no_grad():
            self.base.weight.add_(self.scale * (self.B @ self.A))
        self.merged = True
