# expect: loses adapter -- re-initialises down as Houlsby et al. do (normal, std 1e-3, bias 0), but the spec keeps nn.Linear's default for down: "its weight and its bias uniform between +-1/sqrt(d_model): the hidden tests check that law" (e.g. d_model=12: |w| ~ 1e-3 instead of up to 0.29, bias all 0)
# %% [adapter]
class Adapter(nn.Module):
    """Houlsby's bottleneck adapter: x + up(GELU(down(x))), starting as the identity."""

    def __init__(self, d_model, bottleneck):
        super().__init__()
        self.down = nn.Linear(d_model, bottleneck)
        self.up = nn.Linear(bottleneck, d_model)
        nn.init.normal_(self.down.weight, std=1e-3)  # Houlsby et al.: near zero
        nn.init.zeros_(self.down.bias)
        nn.init.zeros_(self.up.weight)  # up at zero: the identity
        nn.init.zeros_(self.up.bias)

    def forward(self, x):
        return x + self.up(F.gelu(self.down(x)))
