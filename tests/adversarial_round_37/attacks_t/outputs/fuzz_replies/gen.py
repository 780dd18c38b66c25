# Make reply-like payloads with exotic tensors, as the student's process could send them (torch.save of anything).
import io, sys, torch
cases = {}
def add(name, fn):
    try:
        cases[name] = fn()
    except Exception as e:
        print("skip", name, type(e).__name__, str(e)[:100])
x = torch.randn(2, 3, 4)
add("expanded_huge", lambda: torch.zeros(1).expand(1, 4, 200_000_000, 8))
add("qint8_per_tensor", lambda: torch.quantize_per_tensor(x, 0.1, 3, torch.qint8))
add("qint8_per_channel", lambda: torch.quantize_per_channel(x, torch.ones(3), torch.zeros(3, dtype=torch.long), 1, torch.qint8))
add("quint4x2", lambda: torch.quantize_per_tensor(torch.rand(2, 4), 0.1, 0, torch.quint4x2))
add("sparse_coo", lambda: x.to_sparse())
add("sparse_csr", lambda: torch.randn(3, 4).to_sparse_csr())
add("sparse_bsr", lambda: torch.randn(4, 4).to_sparse_bsr((2, 2)))
add("complex32", lambda: x.to(torch.complex32))
add("float8", lambda: x.to(torch.float8_e4m3fn))
add("uint1", lambda: torch.zeros(8, dtype=torch.uint8).view(torch.uint1) if hasattr(torch, "uint1") else None)
add("bits8", lambda: torch.zeros(8, dtype=torch.uint8).view(torch.bits8))
add("meta", lambda: torch.empty(2, 3, 4, device="meta"))
add("parameter", lambda: torch.nn.Parameter(x))
add("nested", lambda: torch.nested.nested_tensor([torch.randn(2, 4), torch.randn(3, 4)]))
add("zero_dim_storage_offset", lambda: torch.randn(10)[9:].view(1, 1))
add("overlap_neg", lambda: torch.randn(100).as_strided((10, 10), (1, 1)))
for name, value in cases.items():
    if value is None:
        continue
    buf = io.BytesIO()
    try:
        torch.save({"value": value, "operators": [], "trace_intact": True}, buf)
    except Exception as e:
        print("unsavable", name, type(e).__name__, str(e)[:100]); continue
    open(f"/tmp/at/fz/{name}.pt", "wb").write(buf.getvalue())
    print("wrote", name, len(buf.getvalue()))
