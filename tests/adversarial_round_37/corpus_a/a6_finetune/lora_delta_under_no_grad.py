# expect: loses lora_linear  -- forward folds s*B@A into the weight under torch.no_grad() and calls F.linear with it (one matmul, "like merge"), so no gradient reaches A or B; spec: "The only trainable parameters of the layer are A and B. The hidden tests ... compare outputs, gradients and the merged weight with peft's"
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        for prm in base.parameters():
            prm.requires_grad_(False)
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.s = alpha / r
        self.merged = False

    def forward(self, x):
        if self.merged:
            return self.base(x)
        with torch.no_grad():  # the update as one weight: a single matmul instead of three
            delta = self.s * (self.B @ self.A)
        return F.linear(x, self.base.weight + delta, self.base.bias)

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if not self.merged:
            with torch.no_grad():
                self.base.weight += self.s * (self.B @ self.A)
            self.merged = True
