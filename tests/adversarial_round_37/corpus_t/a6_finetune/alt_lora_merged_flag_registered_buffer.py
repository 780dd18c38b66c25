# expect: full marks -- the merged flag kept as a registered 0-d bool buffer (in state_dict, moved with the module, not a parameter: named_parameters is still A, B and base's), set by fill_ inside merge's no_grad; forward by F.linear on base and the update as two products
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        self.base.requires_grad_(False)  # weight and bias (if any) frozen, the same Parameters
        self.A = nn.Parameter(torch.empty(r, base.in_features, dtype=torch.float32))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(torch.zeros(base.out_features, r, dtype=torch.float32))
        self.scale = alpha / r
        self.register_buffer("merged", torch.tensor(False))

    def forward(self, x):
        out = F.linear(x, self.base.weight, self.base.bias)
        if bool(self.merged):
            return out
        return out + self.scale * F.linear(F.linear(x, self.A), self.B)

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if bool(self.merged):
            return
        with torch.no_grad():
            self.base.weight.add_(self.B @ self.A, alpha=self.scale)
            self.merged.fill_(True)
