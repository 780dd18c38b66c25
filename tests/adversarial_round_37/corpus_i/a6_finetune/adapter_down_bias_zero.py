# expect: loses adapter -- zeroes down's bias ("biases start at zero"), keeping only its weight's default law: Adapter(64, 16).down.bias is all zeros instead of uniform(+-1/8)
# %% [adapter]
class Adapter(nn.Module):
    """Houlsby's bottleneck adapter: x + up(GELU(down(x))), starting as the identity."""

    def __init__(self, d_model, bottleneck):
        super().__init__()
        self.down = nn.Linear(d_model, bottleneck)
        self.up = nn.Linear(bottleneck, d_model)
        with torch.no_grad():
            self.down.bias.zero_()
            self.up.weight.zero_()
            self.up.bias.zero_()

    def forward(self, x):
        h = F.gelu(self.down(x))
        return x + self.up(h)
