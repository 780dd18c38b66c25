# expect: loses adapter -- re-initialises down's weight with nn.init.xavier_uniform_ (the transformer habit), a uniform law on +-sqrt(6 / (d_model + bottleneck)) instead of nn.Linear's +-1/sqrt(d_model); up at zero, forward and down's bias are right. Breaks "self.down: ... with nn.Linear's default initialisation (its weight and its bias uniform between +-1/sqrt(d_model): the hidden tests check that law)"; input: 300 fresh Adapter(64, 8) -> key: max |down.weight| * sqrt(64) = 1.000; this answer: 2.309 (sqrt(6 / 72) * 8), std*sqrt(64) 1.334 against 0.577
# %% [adapter]
class Adapter(nn.Module):
    """Houlsby's bottleneck adapter: x + up(GELU(down(x))), starting as the identity."""

    def __init__(self, d_model, bottleneck):
        super().__init__()
        self.down = nn.Linear(d_model, bottleneck)
        nn.init.xavier_uniform_(self.down.weight)  # Glorot for the projection into the bottleneck
        self.up = nn.Linear(bottleneck, d_model)
        nn.init.zeros_(self.up.weight)
        nn.init.zeros_(self.up.bias)

    def forward(self, x):
        return x + self.up(F.gelu(self.down(x)))
