# expect: full marks -- keeps down and up as attributes and also runs them through an nn.Sequential(down, GELU, up) holding the same modules: parameters() and named_parameters() list each tensor once under down.* / up.* (87 numbers for 12, 3), the same init calls in the same order, and the same outputs and gradients (only state_dict() lists the tensors twice, under net.0/net.2 too, which the spec does not constrain)
# %% [adapter]
class Adapter(nn.Module):
    """Houlsby's bottleneck adapter: x + up(GELU(down(x))), starting as the identity."""

    def __init__(self, d_model, bottleneck):
        super().__init__()
        self.down = nn.Linear(d_model, bottleneck)
        self.up = nn.Linear(bottleneck, d_model)
        nn.init.zeros_(self.up.weight)  # up at zero: the adapter starts as the identity
        nn.init.zeros_(self.up.bias)
        self.net = nn.Sequential(self.down, nn.GELU(), self.up)  # the same two modules, run in order

    def forward(self, x):
        return x + self.net(x)  # the residual: the input plus the bottleneck's output
