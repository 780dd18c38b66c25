# expect: full marks -- the update through F.linear twice (no bias), merge with addmm_ under no_grad, the merged state a boolean buffer-free flag
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        base.weight.requires_grad = False
        if base.bias is not None:
            base.bias.requires_grad = False
        self.base = base
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.scale = alpha / r
        self._merged = False

    def forward(self, x):
        out = self.base(x)
        if not self._merged:
            out = out + self.scale * F.linear(F.linear(x, self.A), self.B)
        return out

    def merge(self):
        if self._merged:
            return
        with torch.no_grad():
            self.base.weight.addmm_(self.B, self.A, alpha=self.scale)
        self._merged = True
