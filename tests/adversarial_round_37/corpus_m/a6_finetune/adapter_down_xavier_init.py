# expect: loses adapter -- re-initialises down's weight with xavier_uniform_ (bound sqrt(6/(d+m))) instead of keeping nn.Linear's default (bound 1/sqrt(d)); up is zero, so the visible identity and count checks pass; breaks 'self.down: ... with nn.Linear's default initialisation (its weight and its bias uniform between +-1/sqrt(d_model): the hidden tests check that law)'; input: Adapter(64, 8) -> key max|down.weight| <= 0.125, this about 0.29
# %% [adapter]
class Adapter(nn.Module):
    """Houlsby's bottleneck adapter: x + up(GELU(down(x))), starting as the identity."""

    def __init__(self, d_model, bottleneck):
        super().__init__()
        self.down = nn.Linear(d_model, bottleneck)
        self.up = nn.Linear(bottleneck, d_model)
        nn.init.xavier_uniform_(self.down.weight)  # a well-scaled random projection
        nn.init.zeros_(self.up.weight)  # up at zero: the adapter starts as the identity
        nn.init.zeros_(self.up.bias)

    def forward(self, x):
        return x + self.up(F.gelu(self.down(x)))  # the residual: the input plus the bottleneck's output
