# expect: loses adapter -- zeroes down's bias along with up's (a "cleaner" start), so down's bias does not keep nn.Linear's uniform law; spec: "`self.down`: an `nn.Linear` ... with `nn.Linear`'s default initialisation (its weight and its bias uniform between $\pm 1/\sqrt{d_\text{model}}$: the hidden tests check that law)"
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
            self.down.bias.zero_()  # biases start at zero

    def forward(self, x):
        return x + self.up(F.gelu(self.down(x)))
