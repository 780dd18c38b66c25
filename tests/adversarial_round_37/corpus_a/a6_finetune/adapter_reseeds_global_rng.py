# expect: loses adapter  -- calls torch.manual_seed(0) in __init__ "for reproducible adapters": every adapter gets the same down weights and the caller's global RNG is reset; spec: "self.down: an nn.Linear from d_model to bottleneck features, with nn.Linear's default initialisation (its weight and its bias uniform between +-1/sqrt(d_model): the hidden tests check that law)"
# %% [adapter]
class Adapter(nn.Module):
    """Houlsby's bottleneck adapter: x + up(GELU(down(x))), starting as the identity."""

    def __init__(self, d_model, bottleneck):
        super().__init__()
        torch.manual_seed(0)  # the same adapter on every run
        self.down = nn.Linear(d_model, bottleneck)
        self.up = nn.Linear(bottleneck, d_model)
        with torch.no_grad():
            self.up.weight.zero_()
            self.up.bias.zero_()

    def forward(self, x):
        return x + self.up(F.gelu(self.down(x)))
