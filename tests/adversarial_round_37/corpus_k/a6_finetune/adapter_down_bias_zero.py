# expect: loses adapter -- keeps nn.Linear's random weight for down but zeroes its bias, against "down keeps nn.Linear's own random initialisation (its weight and its bias uniform between +-1/sqrt(d_model))": the bias law is a point mass at 0
# %% [adapter]
class Adapter(nn.Module):
    """Houlsby's bottleneck adapter: x + up(GELU(down(x))), starting as the identity."""

    def __init__(self, d_model, bottleneck):
        super().__init__()
        self.down = nn.Linear(d_model, bottleneck)
        nn.init.zeros_(self.down.bias)  # biases start at zero
        self.up = nn.Linear(bottleneck, d_model)
        nn.init.zeros_(self.up.weight)
        nn.init.zeros_(self.up.bias)

    def forward(self, x):
        return x + self.up(F.gelu(self.down(x)))
