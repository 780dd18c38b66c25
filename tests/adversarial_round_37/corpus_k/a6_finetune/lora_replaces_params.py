# expect: loses lora_linear -- freezes base by REPLACING its weight and bias with new frozen nn.Parameters, against "its weight and its bias (if it has one) get requires_grad = False (the same parameters: do not replace them)": the caller's references to base.weight (and any optimizer or tied module holding them) no longer belong to the layer
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        base.weight = nn.Parameter(base.weight.detach().clone(), requires_grad=False)  # frozen copy
        if base.bias is not None:
            base.bias = nn.Parameter(base.bias.detach().clone(), requires_grad=False)
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
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
