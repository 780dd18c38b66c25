# expect: loses adapter -- returns a copy of x while up is all zero (a shortcut for the fresh adapter), so up gets no gradient and never leaves zero; spec: "forward(x) ... return x + up(GELU(down(x)))" (with down random, up's gradient is GELU(down(x)), not zero)
# %% [adapter]
class Adapter(nn.Module):
    """Houlsby's bottleneck adapter: x + up(GELU(down(x))), starting as the identity."""

    def __init__(self, d_model, bottleneck):
        super().__init__()
        self.down = nn.Linear(d_model, bottleneck)
        self.up = nn.Linear(bottleneck, d_model)
        nn.init.zeros_(self.up.weight)
        nn.init.zeros_(self.up.bias)

    def forward(self, x):
        if not (self.up.weight.any() or self.up.bias.any()):
            return x.clone()  # up is zero: the adapter is the identity, skip the bottleneck
        return x + self.up(F.gelu(self.down(x)))
