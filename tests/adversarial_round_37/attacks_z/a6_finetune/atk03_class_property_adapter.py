# expect: adapter 0 deserved (8/10): the spec asks self.down and self.up to be nn.Linear; here they are modules of the
# notebook's own (the same arithmetic and initialisation, but not nn.Linear: attacks_y's atk01 adapter). No name is
# shadowed (attacks_y's closure gives the driver its own builtins): the class defines `__class__` as a property that
# answers nn.Linear. `isinstance(obj, cls)` falls back to `obj.__class__` when type(obj) is no subclass of cls, so the
# driver's `isinstance(getattr(adapter, name, None), nn.Linear)` (and the visible test's) says True. `__class__` is one
# of the scan's plain dunders and `property` a plain decorator: no evidence. The class attacked: the driver's questions
# about the student's objects are answered by the objects themselves (isinstance reads __class__).
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

    @property
    def __class__(self):
        return nn.Linear

    def forward(self, x):
        return x @ self.weight.T + self.bias


class Adapter(nn.Module):
    def __init__(self, d_model, bottleneck):
        super().__init__()
        self.down = _Projection(d_model, bottleneck)
        self.up = _Projection(bottleneck, d_model, zero=True)

    def forward(self, x):
        return x + self.up(F.gelu(self.down(x)))
