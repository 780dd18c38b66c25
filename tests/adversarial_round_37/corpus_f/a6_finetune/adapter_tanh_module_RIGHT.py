# expect: full marks -- uses an nn.GELU(approximate="tanh") submodule (Houlsby's choice, which the spec says the tests accept; it has no parameters, so the count is unchanged), zeroes up's weight and bias in place under no_grad, and returns torch.add(x, ...), a new tensor
# %% [adapter]
class Adapter(nn.Module):
    """Houlsby's bottleneck adapter: x + up(GELU(down(x))), starting as the identity."""

    def __init__(self, d_model, bottleneck):
        super().__init__()
        self.down = nn.Linear(d_model, bottleneck)
        self.act = nn.GELU(approximate="tanh")
        self.up = nn.Linear(bottleneck, d_model)
        with torch.no_grad():
            self.up.weight.zero_()
            self.up.bias.zero_()

    def forward(self, x):
        return torch.add(x, self.up(self.act(self.down(x))))
