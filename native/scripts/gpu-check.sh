#!/usr/bin/env bash
# GPU check for the DFlash engine, for a CUDA machine with nvcc, CMake, a C++ compiler and cuBLAS (system
# or a pip wheel) but no Node and no network. It
#   1. unpacks llama.cpp from node-llama-cpp's git bundle (the exact release the extension links),
#   2. builds llama.cpp's CUDA backend for sm_90 and native/src/bench (dflash-bench) against it,
#   3. writes Qwen3-8B-shaped q8_0 pairs: "constructed" (hand-set weights, acceptance known to be ~100%),
#      "falling" (the constructed pair whose draft forgets letter k of the cycle past 1024 + 256·k tokens of
#      context: acceptance 1 at 512, ~0.5 at 2048, 0 at 8192) and "random" (random weights, acceptance ~0: the
#      cost of drafting that never pays),
#   4. prints plain vs DFlash throughput, acceptance and the per-step costs, then a context sweep (plain,
#      fixed-block and adaptive DFlash at each prompt length, --sweep, default 512,2048,8192),
#   5. compares the engine with a plain llama.cpp context on the constructed target (prefill and decode at
#      --compare prompt lengths, default 8192,32768,65536; llama.cpp's best of flash attention x batch size).
# Everything lands in WORK (default /tmp/cts-gpu-check); the report also in $OUT/gpu-check.txt when $OUT is set.
#
# usage: native/scripts/gpu-check.sh BUNDLE [--work DIR] [--arch 90] [--tokens 256] [--shape qwen3-8b|tiny] [--sweep 512,2048,8192] [--compare 8192,32768,65536] [--no-random] [--cpu]
#   --cpu builds without CUDA (a dry run of everything else, e.g. on a laptop, with --shape tiny)
# It resumes: a rerun keeps the build and the models already in WORK.
#
# On this project's device machine (only the working tree and carried files travel, 64 MiB; the bundle is 35 MB):
#   run(command="native/scripts/gpu-check.sh node_modules/node-llama-cpp/llama/gitRelease.bundle",
#       carry=["node_modules/node-llama-cpp/llama/gitRelease.bundle"], timeout_s=600)
# and, if the 10 minutes run out, the same call again at once (the machine stays warm for 30 s).
# Expected: build about 5 minutes on 16 cores, each pair about 10 GB written in under a minute.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
bundle=${1:?usage: gpu-check.sh BUNDLE [--work DIR] [--arch 90] [--tokens N] [--shape qwen3-8b|tiny] [--sweep N,N,…] [--no-random] [--cpu]}
shift
work=/tmp/cts-gpu-check arch=90 tokens=256 shape=qwen3-8b random=1 cuda=1 sweep=512,2048,8192 compare=8192,32768,65536
while [ $# -gt 0 ]; do
  case $1 in
    --work) work=$2; shift ;;
    --arch) arch=$2; shift ;;
    --tokens) tokens=$2; shift ;;
    --shape) shape=$2; shift ;;
    --sweep) sweep=$2; shift ;;
    --compare) compare=$2; shift ;;
    --no-random) random=0 ;;
    --cpu) cuda=0 ;;
    *) echo "gpu-check: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
start=$(date +%s)
mkdir -p "$work"
report=${OUT:+$OUT/}gpu-check.txt
[ -n "${OUT:-}" ] || report=$work/gpu-check.txt
log() { echo "[$(( $(date +%s) - start ))s] $*" | tee -a "$report"; }
: > "$report"

for tool in git cmake c++; do command -v $tool >/dev/null || { echo "gpu-check: $tool is required" >&2; exit 1; }; done
[ $cuda = 0 ] || command -v nvcc >/dev/null || { echo "gpu-check: nvcc is required (or --cpu)" >&2; exit 1; }

# 1. llama.cpp source
src=$work/llama.cpp
head=$(git bundle list-heads "$bundle" | awk '{print $1; exit}')
if [ "$(git -C "$src" rev-parse HEAD 2>/dev/null || true)" != "$head" ]; then
  rm -rf "$src"
  git -c advice.detachedHead=false clone --quiet "$bundle" "$src"
  git -C "$src" checkout --quiet "$head"
fi
log "llama.cpp $head from $(basename "$bundle")"

# 2. cuBLAS: the toolkit's, else a pip wheel's (nvidia/cu13 or nvidia/cublas), whose libraries lack the
# unversioned names CMake looks for
flags=()
if [ $cuda = 1 ]; then
  nvcc --version | tail -1 | tee -a "$report"
  cuda_home=$(dirname "$(dirname "$(readlink -f "$(command -v nvcc)")")")
  if ! ls "$cuda_home"/lib64/libcublas.so* "$cuda_home"/targets/*/lib/libcublas.so* >/dev/null 2>&1; then
    roots="/usr/local /opt /usr/lib $(python3 -c 'import site; print(" ".join(site.getsitepackages()))' 2>/dev/null || true)"
    lib=$(find $roots -name 'libcublas.so.*' -not -name '*Lt*' 2>/dev/null | head -1)
    inc=$(find $roots -name cublas_v2.h 2>/dev/null | head -1)
    [ -n "$lib" ] && [ -n "$inc" ] || { echo "gpu-check: cuBLAS not found (no libcublas.so.* / cublas_v2.h)" >&2; exit 1; }
    links=$work/cublas-links
    mkdir -p "$links"
    for f in "$(dirname "$lib")"/libcublas*.so.*; do
      base=$(basename "$f"); ln -sf "$f" "$links/${base%%.so.*}.so"; ln -sf "$f" "$links/$base"
    done
    log "cuBLAS from $(dirname "$lib"), headers $(dirname "$inc")"
    flags+=("-DCMAKE_LIBRARY_PATH=$links" "-DCMAKE_CUDA_FLAGS=-I$(dirname "$inc")" "-DCMAKE_CXX_FLAGS=-I$(dirname "$inc")")
    export LD_LIBRARY_PATH=$links:${LD_LIBRARY_PATH:-}
  fi
  # sm_90 only, f16 flash-attention kernels only (the bench's KV cache is f16): a build of minutes, not an hour
  flags+=(-DGGML_CUDA=ON "-DCMAKE_CUDA_ARCHITECTURES=$arch" "-DGGML_CUDA_FA_QUANTS=f16-f16")
fi

# 3. build
build=$work/build
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
cmake -S "$here" -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCTS_LLAMA_FROM_SOURCE=ON -DCTS_NODE_ADDON=OFF \
  "-DLLAMA_SRC=$src" "${flags[@]}" > "$work/configure.log" 2>&1 || { tail -30 "$work/configure.log"; exit 1; }
cmake --build "$build" --target dflash-bench --parallel "$(nproc)" > "$work/build.log" 2>&1 || { tail -40 "$work/build.log"; exit 1; }
bench=$build/bin/dflash-bench
log "built $bench"

# 4. models (kept between runs)
models=$work/models-$shape
mkdir -p "$models"
kinds="constructed falling"
[ $random = 0 ] || kinds="constructed falling random"
for kind in $kinds; do
  [ -f "$models/$kind-draft.gguf" ] || "$bench" make-models "$models" --shape "$shape" --kind "$kind" --type q8_0 > /dev/null
  log "$kind pair: $(du -sh "$models/$kind-target.gguf" | cut -f1) target, $(du -sh "$models/$kind-draft.gguf" | cut -f1) draft"
done

# 5. benchmarks
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee -a "$report"
for kind in $kinds; do
  log "== $kind pair: $tokens tokens, greedy"
  # not lossless exits 1; the report says where the outputs diverge, and the other pair still runs
  # the sweep's longest prompt + the generated tokens must fit the context
  ctx=$(( $(echo "$sweep" | tr ',' '\n' | sort -n | tail -1) + tokens + 64 ))
  [ $ctx -ge 4096 ] || ctx=4096
  "$bench" run --target "$models/$kind-target.gguf" --draft "$models/$kind-draft.gguf" --tokens "$tokens" --prompt 128 --ctx "$ctx" \
    --context-sweep "$sweep" --json 2>&1 | tee -a "$report" || true
done
# 6. the engine against a plain llama.cpp context at long context (issue 30): prefill and decode, ratio to llama's best
log "== engine vs llama.cpp, constructed target"
"$bench" compare-llama --target "$models/constructed-target.gguf" --prompts "$compare" --tokens 64 --json 2>&1 | tee -a "$report" || true
log "done"
