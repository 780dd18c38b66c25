# expect: loses adapter -- initialises down as Houlsby et al. did (normal, std 1e-3, zero bias) instead of nn.Linear's default; spec: "self.down: an nn.Linear ... with nn.Linear's default initialisation (its weight and its bias uniform between ±1/sqrt(d_model): the hidden tests check that law)"
# %% [adapter]
class Adapter(nn.Module):
    """Houlsby's bottleneck adapter: x + up(GELU(down(x))), starting as the identity."""

    def __init__(self, d_model, bottleneck):
        super().__init__()
        self.down = nn.Linear(d_model, bottleneck)
        self.up = nn.Linear(bottleneck, d_model)
        nn.init.normal_(self.down.weight, std=1e-3)  # near the identity, as in the paper
        nn.init.zeros_(self.down.bias)
        nn.init.zeros_(self.up.weight)
        nn.init.zeros_(self.up.bias)

    def forward(self, x):
        return x + self.up(F.gelu(self.down(x)))
