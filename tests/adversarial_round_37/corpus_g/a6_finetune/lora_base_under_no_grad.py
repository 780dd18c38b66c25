# expect: loses lora_linear -- runs the frozen base under torch.no_grad() "since it does not train": the gradient with respect to x then only flows through the low-rank path (wrong for any layer below)
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        for param in base.parameters():
            param.requires_grad = False
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha / r
        self.merged = False

    def forward(self, x):
        with torch.no_grad():  # base is frozen: no need to track it
            frozen = self.base(x)
        if self.merged:
            return frozen
        return frozen + self.scale * (x @ self.A.T) @ self.B.T

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if not self.merged:
            with torch.no_grad():
                self.base.weight += self.scale * (self.B @ self.A)
            self.merged = True
