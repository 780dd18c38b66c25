# expect: full marks -- relabelled by the maintainers: the spec's 'add s BA into self.base.weight, in place' is read as into the same nn.Parameter (it goes on 'self.base.weight stays the same nn.Parameter'), which assigning its .data keeps; tests/fixtures/a6_finetune/alt_functional.py merges so, as peft's safe merge does. The writer's reading: merge() rebinds the weight's storage, base.weight.data = base.weight.data + s B A: the nn.Parameter object is the same (the visible `is` check passes) but the merge is not in place, so every tensor that shares the weight's storage (a tied weight, a detach()ed view, a state_dict taken before) keeps the old values and the storage pointer changes; breaks "merge(): add s BA into self.base.weight, in place (under torch.no_grad())"; input: base = nn.Linear(6, 4), layer = LoRALinear(base, 2, 8.0), B set to randn, view = base.weight.detach(), layer.merge() -> view still holds the unmerged weight (spec: view == merged weight, same data_ptr)
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        base.weight.requires_grad_(False)
        if base.bias is not None:
            base.bias.requires_grad_(False)
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha / r
        self.merged = False

    def forward(self, x):
        out = self.base(x)
        if not self.merged:
            out = out + self.scale * (x @ self.A.T) @ self.B.T
        return out

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if self.merged:
            return
        with torch.no_grad():
            self.base.weight.data = self.base.weight.data + self.scale * (self.B @ self.A)
        self.merged = True
