#!/usr/bin/env bash
# Export and import of a GPT-2-small-sized model (12 layers, d_model 768,
# 12 heads, vocabulary 50257, context 1024: about 124M parameters, tied
# embeddings) through dfa-export-fx and the FX importer, with weights by
# reference. Reports the export time, and the import's median time and peak
# RSS (target < 200 MB).
source "$(dirname "$0")/common.sh"
/usr/bin/python3 - "$root" "$bin" "$work" <<'PY' 2>/dev/null
import os, sys, time
import torch, torch.nn as nn, torch.nn.functional as F
sys.path.insert(0, os.path.join(sys.argv[1], "test", "models"))
sys.path.insert(0, sys.argv[2])
import torch_models, dfa_fx

class GPT2(nn.Module):
    def __init__(self, vocab=50257, ctx=1024, d=768, layers=12, heads=12):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(ctx, d)
        self.blocks = nn.ModuleList([torch_models.GPTBlock(d, heads, ctx) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(d)
        self.register_buffer("pos", torch.arange(ctx))
    def forward(self, tokens):
        t = tokens.size(1)
        x = self.wte(tokens) + self.wpe(self.pos[:t])
        for b in self.blocks:
            x = b(x)
        return F.linear(self.ln_f(x), self.wte.weight)

torch.manual_seed(0)
m = GPT2().eval()
n = sum(p.numel() for p in m.parameters())
tokens = torch.randint(0, 50257, (1, 128))
t0 = time.time()
dfa_fx.export(m, (tokens,), os.path.join(sys.argv[3], "gpt2"))
print("GPT-2-small: %.1fM parameters, export %.1f s" % (n / 1e6, time.time() - t0))
PY
times=() ; rss=()
for i in $(seq "$runs"); do
  out=$( { /usr/bin/time -f "%e %M" "$bin/dfa-compile" "$work/gpt2.fx.json" -o "$work/gpt2.mlir"; } 2>&1 | tail -1)
  times+=("${out% *}") ; rss+=("${out#* }")
done
t=$(median "${times[@]}") ; m=$(median "${rss[@]}")
echo "  weights file: $(( $(stat -c %s "$work/gpt2.weights.bin") / 1000000 )) MB, graph JSON: $(( $(stat -c %s "$work/gpt2.fx.json") / 1000 )) kB"
echo "  import (dfa-compile), median of ${runs}: ${t} s, peak RSS $((m / 1024)) MB (target < 200 MB, ratio $(awk "BEGIN{printf \"%.2f\", $m/1024/200}")), $(grep -c ' = graph\.' "$work/gpt2.mlir") graph ops"
