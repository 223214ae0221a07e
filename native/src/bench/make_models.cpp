// Writes a qwen3 target + dflash draft pair where Node is not available (the GPU check). Same kinds as
// native/testModels (TypeScript): "random" weights, "constructed" weights with a known greedy cycle that the
// draft predicts exactly (see native/testModels/pairs.ts for the construction), and "falling", the
// constructed pair whose draft forgets letter k of the cycle past 1024 + 256·k tokens of context (see
// native/testModels/falling.ts; quantized weights move those thresholds by a few positions). Large shapes are
// streamed to disk tensor by tensor, rows filled and quantized in parallel.
#include "make_models.h"

#include "ggml.h"
#include "gguf.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Shape {
    int n_layer, n_embd, n_head, n_head_kv, head_dim, n_ff;
};

struct PairShape {
    Shape target, draft;
    int n_vocab, block_size;
    std::vector<int32_t> target_layers;
};

PairShape pair_shape(const std::string & name) {
    if (name == "tiny") {
        return {{4, 64, 4, 2, 16, 128}, {1, 64, 1, 1, 64, 64}, 512, 16, {1, 3}};
    }
    if (name == "qwen3-8b") {
        // Qwen3-8B and the layout of z-lab's Qwen3-8B DFlash draft (5 layers reading 5 target layers)
        return {{36, 4096, 32, 8, 128, 12288}, {5, 4096, 32, 8, 128, 12288}, 151936, 16, {2, 10, 18, 26, 34}};
    }
    throw std::runtime_error("unknown shape '" + name + "' (tiny, qwen3-8b)");
}

constexpr int CYCLE = 24;
constexpr int LOOKBACK = CYCLE + 1;
constexpr float GAIN_HEAD = 4.0f;
constexpr float GAIN_QK = 3.0f;
const double DRAFT_ROPE_BASE = 1.0 / M_PI;
// the falling pair (native/testModels/falling.ts): free embedding dimensions, the gate's gain, the thresholds.
// Quantized matrix products quantize the activations too, in blocks of 32 (q8_0), so the small count s needs
// a block of its own (dimension 64, on shapes wide enough; the tiny one keeps falling.ts's 32 and so needs f32
// weights), and the gain keeps q8_0's f16 block scale of the gate's largest weight (gain × 462 / 127) finite.
constexpr int DIM_Z = 33;
constexpr double GAIN_GATE = 1e4;
constexpr int FALL_START = 1024, FALL_STEP = 256;

// what an RMS norm (weight 1, eps 1e-6) makes of each of `ones` unit entries of an n-wide vector
double normed(int ones, int64_t n) {
    return 1.0 / std::sqrt((double)ones / (double)n + 1e-6);
}

// GPT-2's byte-to-unicode map, so the first 256 tokens are the byte tokens of a byte-level BPE vocabulary.
std::string byte_token(int b) {
    auto printable = [](int c) { return (c >= 33 && c <= 126) || (c >= 161 && c <= 172) || (c >= 174 && c <= 255); };
    int cp = b;
    if (!printable(b)) {
        int extra = 0;
        for (int c = 0; c < b; c++)
            extra += printable(c) ? 0 : 1;
        cp = 256 + extra;
    }
    std::string s;
    if (cp < 0x80) {
        s += (char)cp;
    } else {
        s += (char)(0xC0 | (cp >> 6));
        s += (char)(0x80 | (cp & 0x3F));
    }
    return s;
}

struct Vocab {
    std::vector<std::string> tokens;
    std::vector<int32_t> types;
    int32_t eos, bos, mask;
};

Vocab make_vocab(int n_vocab) {
    static const char * specials[] = {"<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|mask|>"};
    Vocab v;
    for (int b = 0; b < 256; b++) {
        v.tokens.push_back(byte_token(b));
        v.types.push_back(1);
    }
    while ((int)v.tokens.size() < n_vocab - 4) {
        v.tokens.push_back("<unused_" + std::to_string(v.tokens.size()) + ">");
        v.types.push_back(1);
    }
    for (const char * s : specials) {
        v.tokens.push_back(s);
        v.types.push_back(3);
    }
    v.bos = n_vocab - 4;
    v.eos = n_vocab - 2;
    v.mask = n_vocab - 1;
    return v;
}

// cycle[k] = byte token 'a' + k; the target's greedy successor of every token
std::vector<int> successor_table(int n_vocab) {
    std::vector<int> succ(n_vocab);
    for (int t = 0; t < n_vocab; t++) {
        const int k = t - 'a';
        succ[t] = k >= 0 && k < CYCLE ? 'a' + (k + 1) % CYCLE : 'a' + t % CYCLE;
    }
    return succ;
}

// fills one row of a tensor (ne0 floats); returns false for an all-zero row
using RowFn = std::function<bool(int64_t row, float * dst)>;

struct TensorSpec {
    std::string name;
    std::vector<int64_t> ne;
    ggml_type type;
    RowFn fill;
};

uint64_t mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

RowFn random_rows(uint64_t seed, int64_t ne0, float scale) {
    return [seed, ne0, scale](int64_t row, float * dst) {
        uint64_t s = mix(seed ^ mix((uint64_t)row));
        for (int64_t i = 0; i < ne0; i++) {
            s = mix(s);
            // uniform with the variance of N(0, scale^2)
            dst[i] = (float)(((double)(s >> 11) / 9007199254740992.0) * 2.0 - 1.0) * scale * 1.7320508f;
        }
        return true;
    };
}

RowFn zero_rows() {
    return [](int64_t, float *) { return false; };
}

void write_gguf(const std::string & path, gguf_context * meta, const std::vector<TensorSpec> & tensors) {
    ggml_init_params ip = {ggml_tensor_overhead() * (tensors.size() + 1), nullptr, true};
    ggml_context * ctx = ggml_init(ip);
    for (const auto & t : tensors) {
        ggml_tensor * g = ggml_new_tensor(ctx, t.type, (int)t.ne.size(), t.ne.data());
        ggml_set_name(g, t.name.c_str());
        gguf_add_tensor(meta, g);
    }
    FILE * f = fopen(path.c_str(), "wb");
    if (!f)
        throw std::runtime_error("cannot write " + path);
    std::vector<uint8_t> head(gguf_get_meta_size(meta));
    gguf_get_meta_data(meta, head.data());
    fwrite(head.data(), 1, head.size(), f);
    const size_t data_start = head.size();
    const unsigned n_threads = std::max(1u, std::thread::hardware_concurrency());
    for (size_t ti = 0; ti < tensors.size(); ti++) {
        const auto & t = tensors[ti];
        const int64_t ne0 = t.ne[0];
        int64_t rows = 1;
        for (size_t d = 1; d < t.ne.size(); d++)
            rows *= t.ne[d];
        const size_t row_bytes = ggml_row_size(t.type, ne0);
        const size_t offset = data_start + gguf_get_tensor_offset(meta, (int64_t)ti);
        fseek(f, (long)offset, SEEK_SET);
        const int64_t chunk = std::max<int64_t>(1, (64 << 20) / (int64_t)row_bytes);
        std::vector<uint8_t> out;
        for (int64_t r0 = 0; r0 < rows; r0 += chunk) {
            const int64_t n = std::min(chunk, rows - r0);
            out.assign((size_t)n * row_bytes, 0);
            std::vector<std::thread> pool;
            for (unsigned w = 0; w < n_threads; w++) {
                pool.emplace_back([&, w] {
                    std::vector<float> buf(ne0);
                    for (int64_t r = w; r < n; r += n_threads) {
                        std::fill(buf.begin(), buf.end(), 0.0f);
                        if (!t.fill(r0 + r, buf.data()))
                            continue;  // zero bytes are a zero row in every type used here
                        uint8_t * dst = out.data() + (size_t)r * row_bytes;
                        if (t.type == GGML_TYPE_F32) {
                            memcpy(dst, buf.data(), row_bytes);
                        } else {
                            ggml_quantize_chunk(t.type, buf.data(), dst, 0, 1, ne0, nullptr);
                        }
                    }
                });
            }
            for (auto & th : pool)
                th.join();
            fwrite(out.data(), 1, out.size(), f);
        }
    }
    // pad the file to the alignment, as gguf-py does
    const long end = ftell(f);
    const long pad = (long)((gguf_get_alignment(meta) - (size_t)end % gguf_get_alignment(meta)) % gguf_get_alignment(meta));
    for (long i = 0; i < pad; i++)
        fputc(0, f);
    fclose(f);
    ggml_free(ctx);
}

void set_hparams(gguf_context * g, const std::string & arch, const Shape & s, float rope_base) {
    gguf_set_val_str(g, "general.architecture", arch.c_str());
    gguf_set_val_u32(g, (arch + ".context_length").c_str(), 32768);
    gguf_set_val_u32(g, (arch + ".embedding_length").c_str(), s.n_embd);
    gguf_set_val_u32(g, (arch + ".block_count").c_str(), s.n_layer);
    gguf_set_val_u32(g, (arch + ".feed_forward_length").c_str(), s.n_ff);
    gguf_set_val_u32(g, (arch + ".attention.head_count").c_str(), s.n_head);
    gguf_set_val_u32(g, (arch + ".attention.head_count_kv").c_str(), s.n_head_kv);
    gguf_set_val_u32(g, (arch + ".attention.key_length").c_str(), s.head_dim);
    gguf_set_val_u32(g, (arch + ".attention.value_length").c_str(), s.head_dim);
    gguf_set_val_f32(g, (arch + ".rope.freq_base").c_str(), rope_base);
    gguf_set_val_f32(g, (arch + ".attention.layer_norm_rms_epsilon").c_str(), 1e-6f);
}

void set_vocab(gguf_context * g, const Vocab & v) {
    std::vector<const char *> ptrs;
    for (const auto & t : v.tokens)
        ptrs.push_back(t.c_str());
    gguf_set_val_str(g, "tokenizer.ggml.model", "gpt2");
    gguf_set_val_str(g, "tokenizer.ggml.pre", "qwen2");
    gguf_set_arr_str(g, "tokenizer.ggml.tokens", ptrs.data(), ptrs.size());
    gguf_set_arr_data(g, "tokenizer.ggml.token_type", GGUF_TYPE_INT32, v.types.data(), v.types.size());
    gguf_set_arr_str(g, "tokenizer.ggml.merges", nullptr, 0);
    gguf_set_val_u32(g, "tokenizer.ggml.bos_token_id", v.bos);
    gguf_set_val_u32(g, "tokenizer.ggml.eos_token_id", v.eos);
    gguf_set_val_bool(g, "tokenizer.ggml.add_bos_token", false);
}

// Layer tensors; `weight(name, ne0, ne1)` gives the row filler of each matrix.
void add_layers(std::vector<TensorSpec> & out, const Shape & s, ggml_type type, float qk_norm,
                const std::function<RowFn(const std::string &, int64_t, int64_t)> & weight) {
    for (int i = 0; i < s.n_layer; i++) {
        const std::string p = "blk." + std::to_string(i) + ".";
        auto mat = [&](const std::string & n, int64_t ne0, int64_t ne1) {
            out.push_back({p + n, {ne0, ne1}, type, weight(p + n, ne0, ne1)});
        };
        auto norm = [&](const std::string & n, int64_t ne0, float v) {
            out.push_back({p + n, {ne0}, GGML_TYPE_F32, [v, ne0](int64_t, float * d) {
                               std::fill(d, d + ne0, v);
                               return true;
                           }});
        };
        norm("attn_norm.weight", s.n_embd, 1.0f);
        mat("attn_q.weight", s.n_embd, s.n_head * s.head_dim);
        mat("attn_k.weight", s.n_embd, s.n_head_kv * s.head_dim);
        mat("attn_v.weight", s.n_embd, s.n_head_kv * s.head_dim);
        mat("attn_output.weight", s.n_head * s.head_dim, s.n_embd);
        norm("attn_q_norm.weight", s.head_dim, qk_norm);
        norm("attn_k_norm.weight", s.head_dim, qk_norm);
        norm("ffn_norm.weight", s.n_embd, 1.0f);
        mat("ffn_gate.weight", s.n_embd, s.n_ff);
        mat("ffn_up.weight", s.n_embd, s.n_ff);
        mat("ffn_down.weight", s.n_ff, s.n_embd);
    }
}

}  // namespace

namespace cts_bench {

ModelPair make_models(const std::string & dir, const std::string & shape_name, const std::string & kind, const std::string & type_name,
                      uint64_t seed) {
    PairShape ps = pair_shape(shape_name);
    if (kind != "random" && kind != "constructed" && kind != "falling")
        throw std::runtime_error("kind must be random, constructed or falling");
    const bool falling = kind == "falling";
    const bool constructed = kind == "constructed" || falling;
    if (falling && ps.draft.n_head_kv < 2) {  // the counting head needs a key/value head of its own
        ps.draft.n_head = ps.draft.n_head_kv = 2;
    }
    ggml_type type = GGML_TYPE_COUNT;
    for (ggml_type t : {GGML_TYPE_F32, GGML_TYPE_F16, GGML_TYPE_Q8_0}) {
        if (type_name == ggml_type_name(t))
            type = t;
    }
    if (type == GGML_TYPE_COUNT)
        throw std::runtime_error("weight type must be f32, f16 or q8_0");
    if (falling && ps.draft.n_embd < 128 && type != GGML_TYPE_F32)
        throw std::runtime_error("the falling pair of shape " + shape_name + " needs --type f32 (its count shares a quantization block)");
    const Vocab vocab = make_vocab(ps.n_vocab);
    const std::vector<int> succ = successor_table(ps.n_vocab);
    const Shape & T = ps.target;
    const Shape & D = ps.draft;
    const int A = T.n_embd - 2, M = T.n_embd - 1;
    ModelPair files{dir + "/" + kind + "-target.gguf", dir + "/" + kind + "-draft.gguf"};

    // target
    {
        gguf_context * g = gguf_init_empty();
        gguf_set_val_str(g, "general.name", (kind + " " + shape_name + " target").c_str());
        set_hparams(g, "qwen3", T, 1e6f);
        set_vocab(g, vocab);
        std::vector<TensorSpec> ts;
        const int64_t E = T.n_embd;
        if (constructed) {
            ts.push_back({"token_embd.weight", {E, ps.n_vocab}, type, [&, E](int64_t t, float * d) {
                              if (t == vocab.mask) {
                                  d[M] = 1;
                              } else {
                                  d[succ[t] - 'a'] = 1;
                                  d[A] = 1;
                              }
                              return true;
                          }});
            ts.push_back({"output_norm.weight", {E}, GGML_TYPE_F32, [E](int64_t, float * d) {
                              std::fill(d, d + E, 1.0f);
                              return true;
                          }});
            ts.push_back({"output.weight", {E, ps.n_vocab}, type, [falling](int64_t t, float * d) {
                              if (falling && t == 'z') {  // what the falling draft proposes instead of a forgotten letter
                                  d[DIM_Z] = GAIN_HEAD;
                                  return true;
                              }
                              if (t < 'a' || t >= 'a' + CYCLE)
                                  return false;
                              d[t - 'a'] = GAIN_HEAD;
                              return true;
                          }});
            add_layers(ts, T, type, 1.0f, [](const std::string &, int64_t, int64_t) { return zero_rows(); });
        } else {
            ts.push_back({"token_embd.weight", {E, ps.n_vocab}, type, random_rows(seed + 1, E, 1.0f)});
            ts.push_back({"output_norm.weight", {E}, GGML_TYPE_F32, [E](int64_t, float * d) {
                              std::fill(d, d + E, 1.0f);
                              return true;
                          }});
            ts.push_back({"output.weight", {E, ps.n_vocab}, type, random_rows(seed + 2, E, 3.0f / std::sqrt((float)E))});
            uint64_t n = 0;
            add_layers(ts, T, type, 1.0f, [&](const std::string &, int64_t ne0, int64_t) {
                return random_rows(seed + 100 + n++, ne0, 1.0f / std::sqrt((float)ne0));
            });
        }
        write_gguf(files.target, g, ts);
        gguf_free(g);
    }

    // draft
    {
        gguf_context * g = gguf_init_empty();
        gguf_set_val_str(g, "general.name", (kind + " " + shape_name + " draft").c_str());
        set_hparams(g, "dflash", D, constructed ? (float)DRAFT_ROPE_BASE : 1e6f);

        gguf_set_val_u32(g, "dflash.block_size", ps.block_size);
        gguf_set_arr_data(g, "dflash.target_layers", GGUF_TYPE_INT32, ps.target_layers.data(), ps.target_layers.size());
        set_vocab(g, vocab);
        gguf_set_val_u32(g, "tokenizer.ggml.mask_token_id", vocab.mask);
        std::vector<TensorSpec> ts;
        const int64_t E = D.n_embd, hd = D.head_dim, n_in = (int64_t)ps.target_layers.size() * E;
        const auto ones = [E](int64_t, float * d) {
            std::fill(d, d + E, 1.0f);
            return true;
        };
        if (constructed) {
            ts.push_back({"fc.weight", {n_in, E}, type, [](int64_t o, float * d) {
                              d[o] = 1;
                              return true;
                          }});
            ts.push_back({"enc.output_norm.weight", {E}, GGML_TYPE_F32, ones});
            ts.push_back({"output_norm.weight", {E}, GGML_TYPE_F32, ones});
            // layer 0, query head 0 (and its key/value head 0): attend LOOKBACK positions back, copy the code
            add_layers(ts, D, type, GAIN_QK, [&](const std::string & name, int64_t, int64_t) -> RowFn {
                if (name == "blk.0.attn_q.weight") {
                    return [hd, M](int64_t o, float * d) {
                        if (o >= hd)
                            return false;
                        const int64_t i = o % (hd / 2);
                        const double theta = std::pow(DRAFT_ROPE_BASE, -2.0 * (double)i / (double)hd);
                        d[M] = (float)(o < hd / 2 ? std::cos(-LOOKBACK * theta) : std::sin(-LOOKBACK * theta));
                        return true;
                    };
                }
                if (name == "blk.0.attn_k.weight") {
                    return [hd, A](int64_t o, float * d) {
                        if (o >= hd / 2)
                            return false;
                        d[A] = 1;
                        return true;
                    };
                }
                if (falling) {
                    // key/value head 1 counts the block's masks for query head `counter`, its first, whose
                    // query is zero (uniform attention): s = 15 / (n + 16); FFN unit k turns letter k into "z"
                    // once s falls below 1 / T_k (native/testModels/falling.ts)
                    const int64_t counter = D.n_head / D.n_head_kv, masks = ps.block_size - 1, dim_s = E >= 128 ? 64 : 32;
                    if (name == "blk.0.attn_v.weight") {
                        return [hd, M, E](int64_t o, float * d) {
                            if (o < CYCLE)
                                d[o] = (float)(1 / normed(2, E));
                            else if (o == hd)
                                d[M] = (float)(1 / normed(1, E));
                            else
                                return false;
                            return true;
                        };
                    }
                    if (name == "blk.0.attn_output.weight") {
                        return [hd, counter, dim_s](int64_t o, float * d) {
                            if (o < CYCLE)
                                d[o] = 1;
                            else if (o == dim_s)
                                d[counter * hd] = 1;
                            else
                                return false;
                            return true;
                        };
                    }
                    if (name == "blk.0.ffn_gate.weight") {
                        return [masks, dim_s, &ps](int64_t k, float * d) {
                            if (k >= CYCLE)
                                return false;
                            d[k] = (float)GAIN_GATE;
                            d[dim_s] = (float)(-GAIN_GATE * (FALL_START + k * FALL_STEP + ps.block_size + 0.5) / (double)masks);
                            return true;
                        };
                    }
                    if (name == "blk.0.ffn_up.weight") {
                        return [M](int64_t k, float * d) {
                            if (k >= CYCLE)
                                return false;
                            d[M] = 1;
                            return true;
                        };
                    }
                    if (name == "blk.0.ffn_down.weight") {
                        return [](int64_t o, float * d) {
                            if (o != DIM_Z)
                                return false;
                            std::fill(d, d + CYCLE, 1.0f);
                            return true;
                        };
                    }
                }
                if (name == "blk.0.attn_v.weight" || name == "blk.0.attn_output.weight") {
                    return [](int64_t o, float * d) {
                        if (o >= CYCLE)
                            return false;
                        d[o] = 1;
                        return true;
                    };
                }
                return zero_rows();
            });
        } else {
            ts.push_back({"fc.weight", {n_in, E}, type, random_rows(seed + 3, n_in, 1.0f / std::sqrt((float)n_in))});
            ts.push_back({"enc.output_norm.weight", {E}, GGML_TYPE_F32, ones});
            ts.push_back({"output_norm.weight", {E}, GGML_TYPE_F32, ones});
            uint64_t n = 0;
            add_layers(ts, D, type, 1.0f, [&](const std::string &, int64_t ne0, int64_t) {
                return random_rows(seed + 1000 + n++, ne0, 1.0f / std::sqrt((float)ne0));
            });
        }
        write_gguf(files.draft, g, ts);
        gguf_free(g);
    }
    return files;
}

}  // namespace cts_bench
