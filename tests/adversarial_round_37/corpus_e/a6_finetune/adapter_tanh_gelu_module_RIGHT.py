# expect: full marks -- Houlsby's code's tanh approximation of GELU, held as an nn.GELU(approximate="tanh") submodule (no parameters, so the count stays 2 d m + d + m), up zeroed through torch.no_grad and fill_, the residual written torch.add(x, ...): a new tensor; spec: "with the exact GELU ... Houlsby et al.'s code uses BERT's tanh approximation (`F.gelu(h, approximate="tanh")`), which the tests accept too" and "its weight and its bias set to zero"
# %% [adapter]
class Adapter(nn.Module):
    """Houlsby's bottleneck adapter: x + up(GELU(down(x))), starting as the identity."""

    def __init__(self, d_model, bottleneck):
        super().__init__()
        self.down = nn.Linear(d_model, bottleneck)
        self.act = nn.GELU(approximate="tanh")
        self.up = nn.Linear(bottleneck, d_model)
        with torch.no_grad():
            self.up.weight.fill_(0.0)
            self.up.bias.fill_(0.0)

    def forward(self, x):
        return torch.add(x, self.up(self.act(self.down(x))))
