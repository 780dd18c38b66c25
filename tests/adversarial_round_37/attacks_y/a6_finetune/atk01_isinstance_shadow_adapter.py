# expect: adapter 0 deserved: the spec asks self.down and self.up to be nn.Linear; here they are modules of the
# notebook's own (the same arithmetic and initialisation, but not nn.Linear). A top-level `isinstance` shadows the
# builtin in the notebook's namespace: the visible tests (which run there) and the hidden checks' drivers (compiled with
# that namespace as their globals) resolve `isinstance` to it, and it says yes for these modules and nn.Linear. The
# class attacked: the check's own code, run in the student's process, resolves names (builtins, exception classes)
# through the student's globals.
# %% [new after setup]
_builtin_isinstance = isinstance


def isinstance(obj, kinds):
    if kinds is nn.Linear and type(obj) is _Projection:
        return True
    return _builtin_isinstance(obj, kinds)
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
