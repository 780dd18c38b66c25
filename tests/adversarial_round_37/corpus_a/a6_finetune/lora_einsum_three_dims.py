# expect: loses lora_linear  -- forward's update is einsum("btd,rd->btr") / ("btr,or->bto"), which only accepts (B, T, in_features) inputs: a (N, in) batch or a 4-D input crashes; spec: "forward(x): x has shape (..., in_features), any number of leading dimensions; return base(x) + s (x A^T) B^T, of shape (..., out_features)"
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        self.base.weight.requires_grad = False
        if self.base.bias is not None:
            self.base.bias.requires_grad = False
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scaling = alpha / r
        self.merged = False

    def forward(self, x):
        out = self.base(x)
        if self.merged:
            return out
        low = torch.einsum("btd,rd->btr", x, self.A)  # (batch, tokens, r)
        return out + self.scaling * torch.einsum("btr,or->bto", low, self.B)

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if self.merged:
            return
        with torch.no_grad():
            self.base.weight.add_(self.scaling * (self.B @ self.A))
        self.merged = True
