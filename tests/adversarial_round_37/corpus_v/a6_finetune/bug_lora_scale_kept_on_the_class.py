# expect: loses lora_linear -- the scale is stored on the class (LoRALinear.scale = alpha / r), not on the instance: every layer uses the scale of the last LoRALinear constructed, so a layer built before another one with another alpha / r computes with the wrong scale: l1 = LoRALinear(base, 2, 8); l2 = LoRALinear(base2, 8, 16); l1(x) adds 2 (x A^T) B^T, not 4; a layer tested right after its construction (the visible tests, which merge before building the next) agrees with the key
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    scale = 1.0

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        for p in base.parameters():
            p.requires_grad_(False)
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        type(self).scale = alpha / r  # the hyperparameter, kept with the layer type
        self.merged = False

    def forward(self, x):
        if self.merged:
            return self.base(x)
        return self.base(x) + self.scale * (x @ self.A.T) @ self.B.T

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if not self.merged:
            with torch.no_grad():
                self.base.weight += self.scale * self.B @ self.A
            self.merged = True
