#!/usr/bin/env python3
"""Differential fuzzer: GroupQueryAttention's right-padded chunks
(query_seqlens) into window-sized caches (sliding_window_cache) against
onnxruntime's CPU kernel.

Each run draws a batch of 1-2 chunks of 1-4 rows with idle and full
entries, 4/2, 2/2 and 4/1 heads, a window of 1-5 in a cache of W to W + 4
rows, pasts of 0-13 (most evict), rotary (interleaved or not), packed QKV,
softcap and float16, runs it on onnxruntime and on dfa-run --target
TARGET, and compares every output where the schema specifies it (not a
chunk's padding rows, not the cache rows after its latest L(T)
positions). Prints each mismatch or refusal and a summary line.

usage: fuzz_gqa_window_chunks.py BUILD_BIN_DIR WORK_DIR SEED RUNS [TARGET]
(docs/validation.md quotes a run of it).
"""
import numpy as np, onnx, onnxruntime as ort, subprocess, os, sys
from onnx import helper as h, TensorProto as T
DFA = os.path.abspath(os.path.join(sys.argv[1], 'dfa-run'))
os.makedirs(sys.argv[2], exist_ok=True); os.chdir(sys.argv[2])
seed=int(sys.argv[3]); n=int(sys.argv[4]); tgt=sys.argv[5] if len(sys.argv)>5 else 'cpu'
rng=np.random.default_rng(seed)
worst=0; bad=0
for it in range(n):
    B=int(rng.integers(1,3)); S=int(rng.integers(1,5)); N,K=[(4,2),(2,2),(4,1)][rng.integers(3)]; H=8
    W=int(rng.integers(1,6)); C=int(rng.integers(W,W+5))  # cache rows >= W
    rot=bool(rng.random()<0.5); packed=bool(rng.random()<0.3); f16=bool(rng.random()<0.25); inter=int(rng.random()<0.5); cap=float(rng.choice([0,0,1.5]))
    Ts=[];Qs=[]
    for b in range(B):
        Q=int(rng.choice([0,S,int(rng.integers(0,S+1))])); P=int(rng.integers(0,14))
        if P+Q<1: P=1
        Ts.append(P+Q); Qs.append(Q)
    tot=max(max(Ts), S)
    if rot: H=16
    ins=(['q','',''] if packed else ['q','k','v'])+['pk','pv','seqlens','total']+(['cos','sin'] if rot else ['',''])+['']*7+['qlens']
    attrs=dict(num_heads=N,kv_num_heads=K,local_window_size=W,sliding_window_cache=1,do_rotary=int(rot),softcap=cap,**({"rotary_interleaved":inter} if rot else {}))
    node=h.make_node('GroupQueryAttention',ins,['y','ok','ov'],domain='com.microsoft',**attrs)
    nf=np.float16 if f16 else np.float32; ET=T.FLOAT16 if f16 else T.FLOAT
    f=lambda *sh: rng.standard_normal(sh).astype(nf)
    feeds=(dict(q=f(B,S,(N+2*K)*H)) if packed else dict(q=f(B,S,N*H),k=f(B,S,K*H),v=f(B,S,K*H)))
    feeds.update(pk=f(B,K,C,H),pv=f(B,K,C,H),seqlens=np.array([t-1 for t in Ts],np.int32),qlens=np.array(Qs,np.int32))
    # the past cache as onnxruntime would hold it: rows after L(P) hold anything
    vi=lambda n,a,t=T.FLOAT: h.make_tensor_value_info(n,t,list(a.shape))
    inputs=[vi(k,v,T.INT32 if v.dtype==np.int32 else ET) for k,v in feeds.items()]
    inits=[h.make_tensor('total',T.INT32,[],[tot])]
    if rot:
        cs=np.cos(np.arange(64)[:,None]*0.05*np.arange(1,H//2+1)[None]).astype(nf); sn=np.sin(np.arange(64)[:,None]*0.05*np.arange(1,H//2+1)[None]).astype(nf)
        import onnx.numpy_helper as nh; inits+=[nh.from_array(cs,'cos'),nh.from_array(sn,'sin')]
    g=h.make_graph([node],'g',inputs,[h.make_tensor_value_info(x,ET,None) for x in ('y','ok','ov')],initializer=inits)
    m=h.make_model(g,opset_imports=[h.make_opsetid('',21),h.make_opsetid('com.microsoft',1)]); m.ir_version=9
    onnx.save(m,'f.onnx')
    try:
        ref=ort.InferenceSession('f.onnx',providers=['CPUExecutionProvider']).run(None,feeds)
    except Exception as e:
        print('ORT refuses', dict(B=B,S=S,W=W,C=C,T=Ts,Q=Qs), str(e)[:150]); continue
    names=[]
    for k,v in feeds.items():
        np.save(f'in_{k}.npy',v); names.append(f'in_{k}.npy')
    r=subprocess.run([DFA,'f.onnx','--target',tgt,'--inputs',*names,'--outputs','out'],capture_output=True,text=True)
    if r.returncode:
        bad+=1; print('DFA rc',r.returncode, dict(B=B,S=S,W=W,C=C,T=Ts,Q=Qs), r.stderr[-300:]); continue
    errs=[]
    for o in range(3):
        d=np.load(f'out/output_{o}.npy'); e=ref[o]
        if o==0:
            mask=np.zeros(e.shape,bool)
            for b in range(B): mask[b,Qs[b]:]=True
        else:
            # rows after L(T) are unspecified
            mask=np.zeros(e.shape,bool)
            for b,t in enumerate(Ts):
                G=C-W+1; L=t if t<=C else t-G*(-(-(t-C)//G)); mask[b,:,L:]=True
        diff=np.where(mask,0,np.abs(d.astype(np.float32)-e.astype(np.float32))).max()/(1 if not f16 else 100) if e.size else 0
        errs.append(float(diff))
    mx=max(errs); worst=max(worst,mx)
    if mx>1e-4: bad+=1; print('MISMATCH',errs,dict(B=B,S=S,N=N,K=K,W=W,C=C,T=Ts,Q=Qs,rot=rot,packed=packed,f16=f16,cap=cap,inter=inter))
print('done',n,'bad',bad,'worst',worst)
