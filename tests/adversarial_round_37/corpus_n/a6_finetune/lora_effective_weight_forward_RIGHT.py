# expect: full marks -- forward applies the effective weight W + s B A in one F.linear call (plus base's bias, None included) instead of adding a separate low-rank branch; the same function of x, A and B, so outputs agree to rounding and the gradients of x, A and B are the same (d/dA and d/dB through s B A equal those through (x A^T) B^T); merge adds s B A under torch.no_grad() once and a flag makes forward base alone afterwards; frozen base parameters are the same objects
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        self.base.weight.requires_grad_(False)
        if self.base.bias is not None:
            self.base.bias.requires_grad_(False)
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha / r
        self.merged = False

    def forward(self, x):
        if self.merged:
            return self.base(x)
        weight = self.base.weight + self.scale * (self.B @ self.A)  # the effective weight, (out, in)
        return F.linear(x, weight, self.base.bias)

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if self.merged:
            return
        with torch.no_grad():
            self.base.weight.add_(self.B @ self.A, alpha=self.scale)
        self.merged = True
