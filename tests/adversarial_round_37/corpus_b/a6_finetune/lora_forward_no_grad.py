# expect: loses lora_linear -- forward builds the effective weight W + s B A under torch.no_grad() (to keep base frozen), so A and B never get a gradient; spec: "The only trainable parameters of the layer are A and B" and the hidden tests "compare outputs, gradients and the merged weight with peft's"
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        base.weight.requires_grad_(False)
        if base.bias is not None:
            base.bias.requires_grad_(False)
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha / r
        self.merged = False

    def forward(self, x):
        if self.merged:
            return self.base(x)
        with torch.no_grad():  # the base weight must not be trained
            weight = self.base.weight + self.scale * self.B @ self.A
        return F.linear(x, weight, self.base.bias)

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if not self.merged:
            with torch.no_grad():
                self.base.weight.add_(self.scale * self.B @ self.A)
            self.merged = True
