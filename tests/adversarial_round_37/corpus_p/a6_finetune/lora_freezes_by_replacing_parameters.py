# expect: loses lora_linear -- freezes base by replacing its parameters with detached copies (base.weight = nn.Parameter(base.weight.detach(), requires_grad=False), the same for the bias): base is still self.base and what it computes is unchanged, but its weight and bias are new Parameter objects, so an optimizer or a model that holds the old ones no longer sees them and the old ones still train. Breaks "freeze it: its weight and its bias get requires_grad = False (the same parameters: do not replace them)"; input: base = nn.Linear(6, 4); w, b = base.weight, base.bias; LoRALinear(base, 2, 8.0) -> key: base.weight is w True, w.requires_grad False; this answer: base.weight is w False, w.requires_grad True
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        # frozen copies of the pretrained weights, cut off from any graph
        base.weight = nn.Parameter(base.weight.detach(), requires_grad=False)
        if base.bias is not None:
            base.bias = nn.Parameter(base.bias.detach(), requires_grad=False)
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
                self.base.weight += self.scale * self.B @ self.A
            self.merged = True
