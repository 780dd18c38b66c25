# expect: loses lora_linear -- the scale is alpha // r (floor division), right only when r divides alpha: LoRALinear(nn.Linear(6, 4), r=3, alpha=8.0) with B set to randn scales the update by 2.0 instead of 2.667
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        self.base.weight.requires_grad = False
        if self.base.bias is not None:
            self.base.bias.requires_grad = False
        self.A = nn.Parameter(torch.zeros(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scaling = alpha // r
        self.merged = False

    def forward(self, x):
        result = self.base(x)
        if not self.merged:
            result = result + (x @ self.A.t() @ self.B.t()) * self.scaling
        return result

    def merge(self):
        if self.merged:
            return
        with torch.no_grad():
            self.base.weight.add_(self.B @ self.A, alpha=self.scaling)
        self.merged = True
