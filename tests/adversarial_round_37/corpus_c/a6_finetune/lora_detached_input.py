# expect: loses lora_linear -- feeds x.detach() to the low-rank branch, so no gradient flows back to x through the update (the layer's input gradient is base's alone); spec: "forward(x) ... return base(x) + s (x A^T) B^T", "compare outputs, gradients ... with peft's"
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        for p in self.base.parameters():
            p.requires_grad_(False)
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha / r
        self.merged = False

    def forward(self, x):
        if self.merged:
            return self.base(x)
        low_rank = (x.detach() @ self.A.T) @ self.B.T  # only A and B train: the update needs no gradient to x
        return self.base(x) + self.scale * low_rank

    def merge(self):
        if not self.merged:
            with torch.no_grad():
                self.base.weight += self.scale * self.B @ self.A
            self.merged = True
