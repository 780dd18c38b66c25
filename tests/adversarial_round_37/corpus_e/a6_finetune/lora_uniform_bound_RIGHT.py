# expect: full marks -- initialises A with nn.init.uniform_ between +-1/sqrt(in_features), which is exactly the law kaiming_uniform_(a=sqrt(5)) draws from (gain sqrt(2 / 6), bound sqrt(3) gain / sqrt(fan_in) = 1/sqrt(fan_in)); the merged flag is a registered buffer; spec: "initialised as `peft` and Microsoft's `loralib` do, with `nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))` (uniform between +-1/sqrt(in_features), as `nn.Linear` initialises its own weight)"
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        self.base.requires_grad_(False)  # every parameter of base, the bias too if there is one
        bound = 1 / math.sqrt(base.in_features)
        self.A = nn.Parameter(nn.init.uniform_(torch.empty(r, base.in_features), -bound, bound))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))  # zero: the layer starts as base
        self.scale = alpha / r
        self.register_buffer("is_merged", torch.tensor(False), persistent=False)

    def forward(self, x):
        out = self.base(x)
        if bool(self.is_merged):
            return out
        return out + self.scale * (x @ self.A.T) @ self.B.T

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if not bool(self.is_merged):
            with torch.no_grad():
                self.base.weight.add_(self.B @ self.A, alpha=self.scale)
                self.is_merged.fill_(True)
