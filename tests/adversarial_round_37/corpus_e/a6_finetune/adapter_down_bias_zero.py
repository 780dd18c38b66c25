# expect: loses adapter -- zeroes down's bias as well ("biases start at zero"): the weight keeps nn.Linear's law, so the visible test (down.weight nonzero) passes, but the bias is not uniform between +-1/sqrt(d_model); spec: "`self.down`: an `nn.Linear` ... with `nn.Linear`'s default initialisation (its weight and its bias uniform between +-1/sqrt(d_model): the hidden tests check that law)"
# %% [adapter]
class Adapter(nn.Module):
    """Houlsby's bottleneck adapter: x + up(GELU(down(x))), starting as the identity."""

    def __init__(self, d_model, bottleneck):
        super().__init__()
        self.down = nn.Linear(d_model, bottleneck)
        nn.init.zeros_(self.down.bias)  # biases start at zero
        self.up = nn.Linear(bottleneck, d_model)
        nn.init.zeros_(self.up.weight)  # up at zero: the adapter starts as the identity
        nn.init.zeros_(self.up.bias)

    def forward(self, x):
        return x + self.up(F.gelu(self.down(x)))  # the residual: the input plus the bottleneck's output
