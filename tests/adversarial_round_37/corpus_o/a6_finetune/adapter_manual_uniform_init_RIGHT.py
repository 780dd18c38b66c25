# expect: full marks — adapter: down's weight and bias re-drawn by hand with uniform_(-1/sqrt(d_model), 1/sqrt(d_model)) (the same law as nn.Linear's default), up zeroed with fill_, forward through nn.GELU() held as a submodule and torch.addmm-free nn.Linear calls
# %% [adapter]
class Adapter(nn.Module):
    """Houlsby's bottleneck adapter: x + up(GELU(down(x))), starting as the identity."""

    def __init__(self, d_model, bottleneck):
        super().__init__()
        self.down = nn.Linear(d_model, bottleneck)
        self.up = nn.Linear(bottleneck, d_model)
        self.act = nn.GELU()
        bound = 1.0 / math.sqrt(d_model)
        with torch.no_grad():
            self.down.weight.uniform_(-bound, bound)
            self.down.bias.uniform_(-bound, bound)
            self.up.weight.fill_(0.0)
            self.up.bias.fill_(0.0)

    def forward(self, x):
        return torch.add(x, self.up(self.act(self.down(x))))
