# expect: loses lora_linear -- the merged flag is written on the class (`LoRALinear.merged = True`), so merging one layer makes every LoRALinear, existing or made later, skip its update; "After merging, forward(x) returns self.base(x) alone" is for that layer, and a fresh layer must compute base(x) + s (x A^T) B^T; layer 1 = LoRALinear(Linear(6,4), 2, 8) merged, then layer 2 = LoRALinear(Linear(6,4), 2, 8) with B = randn: key's layer 2 output differs from its base by the update (max abs 2.19), this answer's equals base(x)
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    merged = False  # becomes True once the update is in base.weight

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        base.weight.requires_grad = False
        if base.bias is not None:
            base.bias.requires_grad = False
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha / r

    def forward(self, x):
        if LoRALinear.merged:
            return self.base(x)
        return self.base(x) + self.scale * ((x @ self.A.T) @ self.B.T)

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if LoRALinear.merged:
            return
        with torch.no_grad():
            self.base.weight.add_(self.scale * (self.B @ self.A))
        LoRALinear.merged = True
