# expect: loses adapter -- flattens x with x.view(-1, d) to run the linears on a 2-D batch, which raises for a non-contiguous input (e.g. a transposed (T, B, d) tensor); spec: "forward(x): x has shape (..., d_model); return x + up(GELU(down(x))), a new tensor of the same shape"
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

    def forward(self, x):
        flat = x.view(-1, x.shape[-1])  # (N, d_model): one row per position
        return (flat + self.up(F.gelu(self.down(flat)))).view(x.shape)
