# expect: loses lora_linear -- "freeze it: its weight and its bias (if it has one) get requires_grad = False": the layer freezes `base.bias` unconditionally (`base.bias.requires_grad_(False)`), which raises AttributeError for an nn.Linear made with bias=False (base.bias is None), a layer every LoRA target of Llama's attention is; with a bias (the visible tests' nn.Linear(6, 4)) all is right
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        base.weight.requires_grad_(False)
        base.bias.requires_grad_(False)
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha / r
        self.merged = False

    def forward(self, x):
        if self.merged:
            return self.base(x)
        return self.base(x) + self.scale * (x @ self.A.T) @ self.B.T

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if not self.merged:
            with torch.no_grad():
                self.base.weight.add_(self.scale * (self.B @ self.A))
            self.merged = True
