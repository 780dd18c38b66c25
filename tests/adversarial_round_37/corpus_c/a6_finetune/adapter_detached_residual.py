# expect: loses adapter -- adds the bottleneck to x.detach(), so the gradient with respect to x misses the residual path (the identity); spec: "return x + up(GELU(down(x))), a new tensor of the same shape"
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
        residual = x.detach()  # a new tensor, so that x is left as it is
        return residual + self.up(F.gelu(self.down(x)))
