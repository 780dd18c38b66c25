# expect: loses adapter -- returns x itself while up is all zero (a shortcut for the identity): up never receives a gradient, so the adapter cannot start training, and the output aliases the input
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
        if not self.up.weight.any() and not self.up.bias.any():
            return x  # up is zero: the adapter is the identity, skip the work
        return x + self.up(F.gelu(self.down(x)))
