# expect: loses lora_linear -- flattens the leading dimensions with x.view(-1, in_features), which raises on a non-contiguous input such as a transposed activation; spec: "forward(x): x has shape (..., in_features), any number of leading dimensions (none too), contiguous or not (a layer inside a model may be handed a view, as a transpose returns)"
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        for param in base.parameters():
            param.requires_grad = False
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha / r
        self.merged = False

    def forward(self, x):
        lead = x.shape[:-1]
        flat = x.view(-1, x.shape[-1])  # (N, in_features): plain 2-D matrix products
        out = self.base(flat)
        if not self.merged:
            out = out + self.scale * (flat @ self.A.T) @ self.B.T
        return out.view(*lead, out.shape[-1])

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if not self.merged:
            with torch.no_grad():
                self.base.weight += self.scale * self.B @ self.A
            self.merged = True
