# expect: full marks -- Houlsby et al.'s tanh approximation of GELU (F.gelu(h, approximate="tanh"), which the spec says the tests accept), up zeroed by in-place zero_ under no_grad
# %% [adapter]
class Adapter(nn.Module):
    """Houlsby's bottleneck adapter: x + up(GELU(down(x))), starting as the identity."""

    def __init__(self, d_model, bottleneck):
        super().__init__()
        self.down = nn.Linear(d_model, bottleneck)
        self.up = nn.Linear(bottleneck, d_model)
        with torch.no_grad():
            self.up.weight.zero_()
            self.up.bias.zero_()

    def forward(self, x):
        return x + self.up(F.gelu(self.down(x), approximate="tanh"))
