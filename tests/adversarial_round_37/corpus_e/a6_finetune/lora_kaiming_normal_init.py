# expect: loses lora_linear -- initialises A with kaiming_normal_(a=sqrt(5)) instead of kaiming_uniform_(a=sqrt(5)): the same variance 1/(3 in_features), but a normal law, unbounded, with about 8% of the values outside +-1/sqrt(in_features) (the visible bound check on 12 values can pass by luck); spec: "`self.A`: an `nn.Parameter` of shape `(r, in_features)`, initialised as `peft` and Microsoft's `loralib` do, with `nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))` (uniform between +-1/sqrt(in_features) ...)"
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        for p in self.base.parameters():
            p.requires_grad_(False)  # the pretrained weight and bias stay as they are
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.kaiming_normal_(self.A, a=math.sqrt(5))  # random, with nn.Linear's fan-in scaling
        self.B = nn.Parameter(torch.zeros(base.out_features, r))  # zero: the layer starts as base
        self.scale = alpha / r
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
