# expect: loses adapter -- skips the bottleneck while `up` is all zeros ('an adapter whose up outputs zero is the identity: no need to compute it') and returns x itself; the values are right, so the visible tests pass, but (1) the result is the argument object, not 'a new tensor of the same shape', and (2) up's weight and bias get no gradient at all, so a freshly inserted adapter can never start training (the spec: 'up would get no gradient ... its gradient is the activation it reads'); breaks 'forward(x): ... return x + up(GELU(down(x))), a new tensor of the same shape'; input: Adapter(12, 3), x = randn(2, 5, 12), backward of adapter(x).sum() -> the result is x and up.weight.grad is None (key: a new tensor, up.weight.grad nonzero)
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
        if not self.up.weight.any() and not self.up.bias.any():  # up outputs zero: the adapter is the identity
            return x
        return x + self.up(F.gelu(self.down(x)))
