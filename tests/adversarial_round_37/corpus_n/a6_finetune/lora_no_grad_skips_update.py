# expect: loses lora_linear -- returns base(x) alone whenever autograd is off ('under no_grad we are evaluating: the update only matters for training'), so with gradients enabled (all the visible tests) the layer is right, but evaluated under torch.no_grad() or torch.inference_mode() a trained, unmerged layer forgets its update; the output must not depend on the caller's grad mode: breaks 'forward(x): ... return base(x) + s (x A^T) B^T'; input: LoRALinear(nn.Linear(6, 4), 2, 8.0) with B = randn(4, 2), x = randn(3, 6), called under torch.no_grad() -> equals base(x) (key: differs from base(x) by ~1)
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        for p in self.base.parameters():
            p.requires_grad_(False)
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha / r
        self.merged = False

    def forward(self, x):
        if self.merged or not torch.is_grad_enabled():  # merged, or evaluating: base alone
            return self.base(x)
        return self.base(x) + self.scale * (x @ self.A.T) @ self.B.T

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if not self.merged:
            with torch.no_grad():
                self.base.weight += self.scale * self.B @ self.A
            self.merged = True
