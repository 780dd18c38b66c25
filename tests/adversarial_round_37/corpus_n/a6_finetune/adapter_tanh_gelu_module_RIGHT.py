# expect: full marks -- uses nn.GELU(approximate="tanh"), Houlsby et al.'s BERT approximation, which the part accepts explicitly ('Houlsby et al.'s code uses BERT's tanh approximation ..., which the tests accept too'), kept as a submodule self.act (no parameters, so the count 2 d m + d + m is unchanged), and adds the residual with torch.add; down keeps nn.Linear's initialisation, up zeroed in place; outputs and gradients (x, down, up) within ~5e-3 of the exact GELU's, the tanh approximation's own error
# %% [adapter]
class Adapter(nn.Module):
    """Houlsby's bottleneck adapter: x + up(GELU(down(x))), starting as the identity."""

    def __init__(self, d_model, bottleneck):
        super().__init__()
        self.down = nn.Linear(d_model, bottleneck)
        self.act = nn.GELU(approximate="tanh")  # Houlsby et al.'s (BERT's) GELU
        self.up = nn.Linear(bottleneck, d_model)
        with torch.no_grad():
            self.up.weight.zero_()
            self.up.bias.zero_()

    def forward(self, x):
        return torch.add(x, self.up(self.act(self.down(x))))
