# expect: loses adapter — zeroes down's bias along with up ('biases start at zero'), where the spec keeps nn.Linear's own random initialisation for down, 'its weight and its bias uniform between +-1/sqrt(d_model): the hidden tests check that law'; the visible tests look at down's weight only; input: Adapter(12, 3) -> down.bias is all zeros (key: uniform in +-1/sqrt(12), nonzero)
# %% [adapter]
class Adapter(nn.Module):
    """Houlsby's bottleneck adapter: x + up(GELU(down(x))), starting as the identity."""

    def __init__(self, d_model, bottleneck):
        super().__init__()
        self.down = nn.Linear(d_model, bottleneck)
        self.up = nn.Linear(bottleneck, d_model)
        with torch.no_grad():
            self.down.bias.zero_()  # biases start at zero
            self.up.weight.zero_()
            self.up.bias.zero_()

    def forward(self, x):
        return x + self.up(F.gelu(self.down(x)))
