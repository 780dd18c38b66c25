# expect: loses lora_linear -- the scale is alpha // r: the same as alpha / r when r divides alpha (16 // 8, 8.0 // 2 as in the visible test), but alpha = 16, r = 6 gives 2 instead of 2.67 and alpha = 4, r = 8 gives 0 (the update vanishes); spec: "the scale s = alpha / r" and "y = x W^T + b + s (x A^T) B^T, s = alpha / r"
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        for p in self.base.parameters():
            p.requires_grad_(False)  # the pretrained weight and bias stay as they are
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))  # random, as nn.Linear's own weight
        self.B = nn.Parameter(torch.zeros(base.out_features, r))  # zero: the layer starts as base
        self.scale = alpha // r
        self.merged = False

    def forward(self, x):
        if self.merged:  # the update is in base.weight already
            return self.base(x)
        return self.base(x) + self.scale * (x @ self.A.T) @ self.B.T

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if not self.merged:
            with torch.no_grad():
                self.base.weight += self.scale * self.B @ self.A
            self.merged = True
