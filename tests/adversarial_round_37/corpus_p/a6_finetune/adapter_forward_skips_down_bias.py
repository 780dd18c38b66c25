# expect: loses adapter -- projects down with F.linear(x, self.down.weight), leaving out down's bias (it is created, initialised by nn.Linear's law and trained, but never used); the visible numeric check sets down.bias to zero, and with up at zero every output is x anyway. Breaks "return x + up(GELU(down(x)))" with down the nn.Linear (weight and bias); input: torch.manual_seed(0); a = Adapter(4, 2), up.weight and up.bias set to randn, x = randn(3, 4) -> key vs this answer max abs diff 0.088
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
        hidden = F.gelu(F.linear(x, self.down.weight))  # the bottleneck
        return x + self.up(hidden)
