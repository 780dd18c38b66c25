# expect: loses lora_linear -- forward flattens x with .view(-1, in_features), which raises on a non-contiguous x (e.g. x = torch.randn(6, 5, 3).transpose(0, 1), shape (5, 6, 3)): the spec says x may be "contiguous or not (a layer inside a model may be handed a view, as a transpose returns)"
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
        flat = x.view(-1, self.base.in_features)  # (N, in): every leading position as a row
        update = (flat @ self.A.T) @ self.B.T
        return self.base(x) + self.scale * update.view(*x.shape[:-1], self.base.out_features)

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if not self.merged:
            with torch.no_grad():
                self.base.weight += self.scale * self.B @ self.A
            self.merged = True
