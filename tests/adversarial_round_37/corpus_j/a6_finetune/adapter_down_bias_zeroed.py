# expect: loses adapter -- zeroes down's bias as well as up's, but the spec keeps nn.Linear's default initialisation for down (weight and bias uniform in +-1/sqrt(d_model)): Adapter(16, 4).down.bias is all zeros
# %% [adapter]
class Adapter(nn.Module):
    """Houlsby's bottleneck adapter: x + up(GELU(down(x))), starting as the identity."""

    def __init__(self, d_model, bottleneck):
        super().__init__()
        self.down = nn.Linear(d_model, bottleneck)
        self.up = nn.Linear(bottleneck, d_model)
        nn.init.zeros_(self.down.bias)  # biases start at zero
        nn.init.zeros_(self.up.weight)
        nn.init.zeros_(self.up.bias)

    def forward(self, x):
        h = F.gelu(self.down(x))
        return x + self.up(h)
