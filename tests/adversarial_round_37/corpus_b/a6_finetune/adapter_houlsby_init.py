# expect: loses adapter -- re-initialises down with Houlsby's normal(0, 1e-3) (the law of down is no longer nn.Linear's uniform); spec: "self.down: an nn.Linear ..., with nn.Linear's default initialisation (its weight and its bias uniform between +-1/sqrt(d_model): the hidden tests check that law)"
# %% [adapter]
class Adapter(nn.Module):
    """Houlsby's bottleneck adapter: x + up(GELU(down(x))), starting as the identity."""

    def __init__(self, d_model, bottleneck):
        super().__init__()
        self.down = nn.Linear(d_model, bottleneck)
        self.up = nn.Linear(bottleneck, d_model)
        nn.init.normal_(self.down.weight, std=1e-3)  # Houlsby et al.: near-identity start
        nn.init.normal_(self.down.bias, std=1e-3)
        nn.init.zeros_(self.up.weight)
        nn.init.zeros_(self.up.bias)

    def forward(self, x):
        return x + self.up(F.gelu(self.down(x)))
