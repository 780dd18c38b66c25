# expect: loses lora_linear -- merge() sets the merged flag on the class instead of the instance, so merging one layer makes every other LoRALinear (existing or new) drop its update in forward and skip its own merge; spec: "After merging, `forward(x)` returns `self.base(x)` alone" (for that layer) and "`forward(x)`: ... return $\text{base}(x) + s\,(x A^\top) B^\top$"
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    merged = False  # becomes True once the update is folded into base.weight

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

    def forward(self, x):
        out = self.base(x)
        if LoRALinear.merged:
            return out
        return out + self.scale * F.linear(F.linear(x, self.A), self.B)

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if LoRALinear.merged:
            return
        with torch.no_grad():
            self.base.weight.add_(self.B @ self.A, alpha=self.scale)
        LoRALinear.merged = True
