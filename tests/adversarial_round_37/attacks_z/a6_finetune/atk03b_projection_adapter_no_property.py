# expect: adapter 0 (8/10): atk03 without the `__class__` property (its baseline; attacks_y's atk01b)
# %% [adapter]
class _Projection(nn.Module):
    def __init__(self, n_in, n_out, zero=False):
        super().__init__()
        bound = 1 / math.sqrt(n_in)
        self.in_features, self.out_features = n_in, n_out
        self.weight = nn.Parameter(torch.empty(n_out, n_in).uniform_(-bound, bound))
        self.bias = nn.Parameter(torch.empty(n_out).uniform_(-bound, bound))
        if zero:
            with torch.no_grad():
                self.weight.zero_()
                self.bias.zero_()

    def forward(self, x):
        return x @ self.weight.T + self.bias


class Adapter(nn.Module):
    def __init__(self, d_model, bottleneck):
        super().__init__()
        self.down = _Projection(d_model, bottleneck)
        self.up = _Projection(bottleneck, d_model, zero=True)

    def forward(self, x):
        return x + self.up(F.gelu(self.down(x)))
