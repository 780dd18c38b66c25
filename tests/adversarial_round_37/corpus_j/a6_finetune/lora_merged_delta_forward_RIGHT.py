# expect: full marks -- forward goes through F.linear with the weight W + s BA formed on the fly (a differentiable function of A and B); merge copies that sum into base.weight with copy_ under no_grad and flips a flag
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        base.requires_grad_(False)
        self.A = nn.Parameter(base.weight.new_empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(base.weight.new_zeros(base.out_features, r))
        self.s = alpha / r
        self.is_merged = False

    def delta(self):
        return self.s * (self.B @ self.A)  # (out, in), the same shape as base.weight

    def forward(self, x):
        if self.is_merged:
            return self.base(x)
        return F.linear(x, self.base.weight + self.delta(), self.base.bias)

    def merge(self):
        if self.is_merged:
            return
        with torch.no_grad():
            self.base.weight.copy_(self.base.weight + self.delta())
        self.is_merged = True
