# expect: loses lora_linear -- freezes base.weight and base.bias by name, so a base layer without a bias (bias=None) raises AttributeError in __init__; breaks 'its weight and its bias (if it has one) get requires_grad = False'; input: LoRALinear(nn.Linear(6, 4, bias=False), r=2, alpha=8) -> key builds the layer, this raises AttributeError ('NoneType' object has no attribute 'requires_grad_')
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        self.base.weight.requires_grad_(False)  # the pretrained weight and bias stay as they are
        self.base.bias.requires_grad_(False)
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))  # random, as nn.Linear's own weight
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
