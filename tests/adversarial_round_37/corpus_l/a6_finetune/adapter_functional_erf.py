# expect: full marks -- down and up are nn.Linear(d_model, m) and nn.Linear(m, d_model) (down keeps its default init; up's weight and bias zeroed in place under no_grad), and forward writes the exact GELU by hand, 0.5 h (1 + erf(h / sqrt 2)) = h Phi(h), then returns up(...) + x as a new tensor; any leading dims, views fine
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
        h = self.down(x)
        h = 0.5 * h * (1.0 + torch.erf(h / math.sqrt(2.0)))
        return F.linear(h, self.up.weight, self.up.bias) + x
