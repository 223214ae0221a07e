// The Node binding. It never blocks the JS thread: loading and generation run on one worker thread per
// engine (requests are served in order), quick calls (tokenize, templates, parsing) on libuv's pool, and
// results and streamed tokens come back through thread-safe functions.
#include "backend.h"
#include "convert.h"

#include <napi.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

namespace cts_addon {

namespace {

// A thread that runs posted jobs in order.
class Worker {
public:
    Worker() : thread_([this] { run(); }) {}
    ~Worker() { stop(); }

    void post(std::function<void()> job) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            jobs_.push_back(std::move(job));
        }
        cv_.notify_one();
    }

    // Finishes the running job, drops the queued ones and joins.
    void stop() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stopping_ = true;
            jobs_.clear();
        }
        cv_.notify_one();
        if (thread_.joinable()) {
            thread_.join();
        }
    }

private:
    void run() {
        for (;;) {
            std::function<void()> job;
            {
                std::unique_lock<std::mutex> lock(mutex_);
                cv_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
                if (stopping_) {
                    return;
                }
                job = std::move(jobs_.front());
                jobs_.pop_front();
            }
            job();
        }
    }

    std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<std::function<void()>> jobs_;
    bool stopping_ = false;
    std::thread thread_;
};

using JsFn = std::function<void(Napi::Env)>;

// The longest a streamed token waits to be batched with the next ones (generate()).
constexpr std::chrono::milliseconds DELIVERY_INTERVAL{40};

// Set by shutdown(), at process exit: workers then stop touching N-API.
std::atomic<bool> g_exiting{false};

// Runs closures on the JS thread, from any thread. Lives for one request.
class JsQueue {
public:
    JsQueue(Napi::Env env, const char * name)
        : tsfn_(Napi::ThreadSafeFunction::New(env, Napi::Function::New(env, [](const Napi::CallbackInfo &) {}), name, 0, 1)) {}

    void call(JsFn fn) {
        if (g_exiting.load()) {
            return;
        }
        auto * f = new JsFn(std::move(fn));
        const napi_status status = tsfn_.BlockingCall(f, [](Napi::Env env, Napi::Function, JsFn * g) {
            (*g)(env);
            delete g;
        });
        if (status != napi_ok) {
            delete f;  // the environment is shutting down
        }
    }

    void release() { tsfn_.Release(); }

private:
    Napi::ThreadSafeFunction tsfn_;
};

// A promise settled on the JS thread from a worker thread, with the JS object that started it kept alive.
struct Pending {
    Napi::Promise::Deferred deferred;
    Napi::ObjectReference keep;
    JsQueue queue;
    Napi::FunctionReference callback;  // progress or token callback, when given
    Napi::ObjectReference callback_error;  // what the callback threw

    Pending(Napi::Env env, Napi::Object owner, Napi::Value callback_value, const char * name)
        : deferred(Napi::Promise::Deferred::New(env)), keep(Napi::Persistent(owner)), queue(env, name) {
        if (callback_value.IsFunction()) {
            callback = Napi::Persistent(callback_value.As<Napi::Function>());
        }
    }

    // Calls the JS callback; true when it threw (the error is kept to reject with).
    bool invoke(Napi::Env env, std::initializer_list<napi_value> args) {
        if (callback.IsEmpty() || !callback_error.IsEmpty()) {
            return !callback_error.IsEmpty();
        }
        try {
            callback.Call(args);
        } catch (const Napi::Error & e) {
            callback_error = Napi::Persistent(e.Value());
            return true;
        }
        return false;
    }

    // Settles from a worker thread and frees this.
    void settle(std::function<Napi::Value(Napi::Env)> value, std::optional<cts::EngineError> error, std::string other_error = "") {
        queue.call([this, value = std::move(value), error = std::move(error), other_error = std::move(other_error)](Napi::Env env) {
            if (!callback_error.IsEmpty()) {
                deferred.Reject(callback_error.Value());
            } else if (error) {
                deferred.Reject(engine_error(env, *error).Value());
            } else if (!other_error.empty()) {
                deferred.Reject(Napi::Error::New(env, other_error).Value());
            } else {
                try {
                    deferred.Resolve(value(env));
                } catch (const Napi::Error & e) {
                    deferred.Reject(e.Value());
                }
            }
            queue.release();
            delete this;
        });
    }
};

// Runs work on a worker thread and settles `pending` with its converted result.
template <typename T>
void run_pending(Pending * pending, const std::function<T()> & work, std::function<Napi::Value(Napi::Env, const T &)> convert) {
    try {
        auto value = std::make_shared<T>(work());
        pending->settle([value, convert](Napi::Env env) { return convert(env, *value); }, std::nullopt);
    } catch (const cts::EngineError & e) {
        pending->settle(nullptr, e);
    } catch (const std::exception & e) {
        pending->settle(nullptr, std::nullopt, std::string("native engine error: ") + e.what());
    }
}

// Quick work on libuv's pool.
template <typename T>
class PromiseWorker : public Napi::AsyncWorker {
public:
    PromiseWorker(Napi::Env env, std::function<T()> work, std::function<Napi::Value(Napi::Env, const T &)> convert)
        : Napi::AsyncWorker(env), deferred_(Napi::Promise::Deferred::New(env)), work_(std::move(work)), convert_(std::move(convert)) {}

    static Napi::Promise start(Napi::Env env, std::function<T()> work, std::function<Napi::Value(Napi::Env, const T &)> convert) {
        auto * w = new PromiseWorker<T>(env, std::move(work), std::move(convert));
        auto promise = w->deferred_.Promise();
        w->Queue();
        return promise;
    }

    void Execute() override {
        try {
            value_ = work_();
        } catch (const cts::EngineError & e) {
            error_ = e;
        } catch (const std::exception & e) {
            other_ = std::string("native engine error: ") + e.what();
        }
    }

    void OnOK() override {
        if (error_) {
            deferred_.Reject(engine_error(Env(), *error_).Value());
        } else if (!other_.empty()) {
            deferred_.Reject(Napi::Error::New(Env(), other_).Value());
        } else {
            deferred_.Resolve(convert_(Env(), value_));
        }
    }

private:
    Napi::Promise::Deferred deferred_;
    std::function<T()> work_;
    std::function<Napi::Value(Napi::Env, const T &)> convert_;
    T value_{};
    std::optional<cts::EngineError> error_;
    std::string other_;
};

struct EngineState;
std::mutex g_states_mutex;
std::set<EngineState *> g_states;

struct EngineState {
    std::mutex mutex;
    std::shared_ptr<cts::Engine> engine;
    bool loading = false;
    bool closed = false;
    std::set<std::shared_ptr<std::atomic<bool>>> aborts;  // of queued and running generations
    Worker worker;

    EngineState() {
        std::lock_guard<std::mutex> lock(g_states_mutex);
        g_states.insert(this);
    }

    ~EngineState() {
        shutdown();
        std::lock_guard<std::mutex> lock(g_states_mutex);
        g_states.erase(this);
    }

    void abort_all() {
        std::lock_guard<std::mutex> lock(mutex);
        for (const auto & a : aborts)
            a->store(true);
    }

    void shutdown() {
        abort_all();
        worker.stop();
    }

    std::shared_ptr<cts::Engine> get(Napi::Env env) {
        std::lock_guard<std::mutex> lock(mutex);
        if (closed)
            throw Napi::Error::New(env, "the engine is closed");
        if (!engine)
            throw Napi::Error::New(env, loading ? "the engine is still loading" : "the engine is not loaded");
        return engine;
    }
};

// What the chat layer made of a request (cts::ChatPrompt), kept here: generate() and parseChatOutput() take
// the handle, so its grammar and serialized parser never become JavaScript values. JavaScript reads the prompt
// text (`prompt`), and the rest only when it asks (describe(): tests, inspection).
class ChatPromptHandle : public Napi::ObjectWrap<ChatPromptHandle> {
public:
    static Napi::FunctionReference constructor;

    static void init(Napi::Env env, Napi::Object exports) {
        Napi::Function cls = DefineClass(env, "ChatPrompt",
                                         {
                                             InstanceAccessor("prompt", &ChatPromptHandle::prompt, nullptr),
                                             InstanceMethod("describe", &ChatPromptHandle::describe),
                                         });
        constructor = Napi::Persistent(cls);
        exports.Set("ChatPrompt", cls);
    }

    static Napi::Object wrap(Napi::Env env, std::shared_ptr<const cts::ChatPrompt> p) {
        Napi::Object o = constructor.New({});
        Unwrap(o)->prompt_ = std::move(p);
        return o;
    }

    // The prompt behind `v`, a handle from apply(); `what` names the argument in the TypeError otherwise.
    static std::shared_ptr<const cts::ChatPrompt> of(const Napi::Value & v, const char * what) {
        if (!v.IsObject() || !v.As<Napi::Object>().InstanceOf(constructor.Value()) || !Unwrap(v.As<Napi::Object>())->prompt_) {
            throw Napi::TypeError::New(v.Env(), std::string("'") + what + "' must be a chat prompt from ChatTemplates.apply()");
        }
        return Unwrap(v.As<Napi::Object>())->prompt_;
    }

    explicit ChatPromptHandle(const Napi::CallbackInfo & info) : Napi::ObjectWrap<ChatPromptHandle>(info) {}

private:
    Napi::Value prompt(const Napi::CallbackInfo & info) { return Napi::String::New(info.Env(), of(info.This(), "this")->prompt); }

    Napi::Value describe(const Napi::CallbackInfo & info) { return to_js(info.Env(), *of(info.This(), "this")); }

    std::shared_ptr<const cts::ChatPrompt> prompt_;
};

Napi::FunctionReference ChatPromptHandle::constructor;

class ChatTemplatesHandle : public Napi::ObjectWrap<ChatTemplatesHandle> {
public:
    static Napi::FunctionReference constructor;

    static void init(Napi::Env env, Napi::Object exports) {
        Napi::Function cls = DefineClass(env, "ChatTemplates",
                                         {
                                             InstanceMethod("apply", &ChatTemplatesHandle::apply),
                                             InstanceMethod("templateInputs", &ChatTemplatesHandle::template_inputs),
                                             InstanceMethod("caps", &ChatTemplatesHandle::caps),
                                             InstanceMethod("source", &ChatTemplatesHandle::source),
                                         });
        constructor = Napi::Persistent(cls);
        exports.Set("ChatTemplates", cls);
    }

    static Napi::Object wrap(Napi::Env env, std::shared_ptr<cts::ChatTemplates> t) {
        Napi::Object o = constructor.New({});
        Unwrap(o)->templates_ = std::move(t);
        return o;
    }

    explicit ChatTemplatesHandle(const Napi::CallbackInfo & info) : Napi::ObjectWrap<ChatTemplatesHandle>(info) {}

private:
    std::shared_ptr<cts::ChatTemplates> get(Napi::Env env) {
        if (!templates_)
            throw Napi::Error::New(env, "create chat templates with createChatTemplates() or engine.chatTemplates()");
        return templates_;
    }

    Napi::Value apply(const Napi::CallbackInfo & info) {
        if (!info[0].IsString())
            throw Napi::TypeError::New(info.Env(), "apply(requestJson: string)");
        auto t = get(info.Env());
        const std::string request = info[0].As<Napi::String>().Utf8Value();
        return PromiseWorker<std::shared_ptr<const cts::ChatPrompt>>::start(
            info.Env(), [t, request] { return std::make_shared<const cts::ChatPrompt>(t->apply(request)); },
            [](Napi::Env env, const std::shared_ptr<const cts::ChatPrompt> & p) -> Napi::Value { return ChatPromptHandle::wrap(env, p); });
    }

    // templateInputs(requestJson: string): Promise<string>, the JSON apply() hands the chat layer
    Napi::Value template_inputs(const Napi::CallbackInfo & info) {
        if (!info[0].IsString())
            throw Napi::TypeError::New(info.Env(), "templateInputs(requestJson: string)");
        auto t = get(info.Env());
        const std::string request = info[0].As<Napi::String>().Utf8Value();
        return PromiseWorker<std::string>::start(
            info.Env(), [t, request] { return t->template_inputs(request); },
            [](Napi::Env env, const std::string & s) -> Napi::Value { return Napi::String::New(env, s); });
    }

    Napi::Value caps(const Napi::CallbackInfo & info) {
        auto t = get(info.Env());
        return PromiseWorker<std::map<std::string, bool>>::start(
            info.Env(), [t] { return t->caps(); },
            [](Napi::Env env, const std::map<std::string, bool> & c) -> Napi::Value { return to_js(env, c); });
    }

    Napi::Value source(const Napi::CallbackInfo & info) { return Napi::String::New(info.Env(), get(info.Env())->source()); }

    std::shared_ptr<cts::ChatTemplates> templates_;
};

Napi::FunctionReference ChatTemplatesHandle::constructor;

class EngineHandle : public Napi::ObjectWrap<EngineHandle> {
public:
    static void init(Napi::Env env, Napi::Object exports) {
        exports.Set("Engine", DefineClass(env, "Engine",
                                          {
                                              InstanceMethod("load", &EngineHandle::load),
                                              InstanceMethod("info", &EngineHandle::info),
                                              InstanceMethod("promptCache", &EngineHandle::prompt_cache),
                                              InstanceMethod("tokenize", &EngineHandle::tokenize),
                                              InstanceMethod("detokenize", &EngineHandle::detokenize),
                                              InstanceMethod("tokenPieces", &EngineHandle::token_pieces),
                                              InstanceMethod("chatTemplates", &EngineHandle::chat_templates),
                                              InstanceMethod("generate", &EngineHandle::generate),
                                              InstanceMethod("close", &EngineHandle::close),
                                          }));
    }

    explicit EngineHandle(const Napi::CallbackInfo & info)
        : Napi::ObjectWrap<EngineHandle>(info), state_(std::make_shared<EngineState>()) {}

    // Joins the worker here, on the JS thread: a job finishing on the worker must never drop the last
    // reference to the state, whose destructor would then join its own thread.
    ~EngineHandle() override { state_->shutdown(); }

private:
    // load(params, onProgress?: (stage, progress) => void): Promise<void>
    Napi::Value load(const Napi::CallbackInfo & info) {
        Napi::Env env = info.Env();
        if (!info[0].IsObject())
            throw Napi::TypeError::New(env, "load(params: object, onProgress?)");
        const cts::LoadParams params = load_params(info[0].As<Napi::Object>());
        {
            std::lock_guard<std::mutex> lock(state_->mutex);
            if (state_->engine || state_->loading || state_->closed)
                throw Napi::Error::New(env, "an engine loads once");
            state_->loading = true;
        }
        auto * pending = new Pending(env, info.This().As<Napi::Object>(), info[1], "cts.load");
        auto promise = pending->deferred.Promise();
        std::shared_ptr<EngineState> state = state_;
        state_->worker.post([state, params, pending] {
            auto progress = [pending](const std::string & stage, float p) {
                pending->queue.call([pending, stage, p](Napi::Env env) {
                    pending->invoke(env, {Napi::String::New(env, stage), Napi::Number::New(env, p)});
                });
            };
            run_pending<bool>(
                pending,
                [&] {
                    struct Loaded {
                        EngineState & s;
                        std::shared_ptr<cts::Engine> engine;
                        ~Loaded() {
                            std::lock_guard<std::mutex> lock(s.mutex);
                            s.loading = false;
                            s.engine = std::move(engine);
                        }
                    } loaded{*state, nullptr};
                    loaded.engine = cts::Engine::load(params, progress);
                    return true;
                },
                [](Napi::Env env, const bool &) -> Napi::Value { return env.Undefined(); });
        });
        return promise;
    }

    Napi::Value info(const Napi::CallbackInfo & info) { return to_js(info.Env(), state_->get(info.Env())->info()); }

    // promptCache(): what the prompt cache holds (a snapshot; safe while a generation runs)
    Napi::Value prompt_cache(const Napi::CallbackInfo & info) { return to_js(info.Env(), state_->get(info.Env())->prompt_cache_info()); }

    // tokenize(text, addSpecial, parseSpecial): Promise<Int32Array>
    Napi::Value tokenize(const Napi::CallbackInfo & info) {
        if (!info[0].IsString())
            throw Napi::TypeError::New(info.Env(), "tokenize(text: string, addSpecial: boolean, parseSpecial: boolean)");
        auto engine = state_->get(info.Env());
        const std::string text = info[0].As<Napi::String>().Utf8Value();
        const bool add_special = info[1].ToBoolean(), parse_special = info[2].ToBoolean();
        return PromiseWorker<std::vector<int32_t>>::start(
            info.Env(), [engine, text, add_special, parse_special] { return engine->tokenize(text, add_special, parse_special); },
            [](Napi::Env env, const std::vector<int32_t> & t) -> Napi::Value { return to_js(env, t); });
    }

    // detokenize(tokens, special): Promise<string>
    Napi::Value detokenize(const Napi::CallbackInfo & info) {
        auto engine = state_->get(info.Env());
        const std::vector<int32_t> tokens = token_array(info[0], "tokens");
        const bool special = info[1].ToBoolean();
        return PromiseWorker<std::string>::start(
            info.Env(), [engine, tokens, special] { return engine->detokenize(tokens, special); },
            [](Napi::Env env, const std::string & s) -> Napi::Value { return Napi::String::New(env, s); });
    }

    // tokenPieces(tokens): Promise<Uint8Array[]>, each token's bytes
    Napi::Value token_pieces(const Napi::CallbackInfo & info) {
        auto engine = state_->get(info.Env());
        const std::vector<int32_t> tokens = token_array(info[0], "tokens");
        return PromiseWorker<std::vector<std::string>>::start(
            info.Env(), [engine, tokens] { return engine->token_pieces(tokens); },
            [](Napi::Env env, const std::vector<std::string> & pieces) -> Napi::Value {
                auto a = Napi::Array::New(env, pieces.size());
                for (size_t i = 0; i < pieces.size(); i++) {
                    a.Set((uint32_t)i, Napi::Buffer<char>::Copy(env, pieces[i].data(), pieces[i].size()));
                }
                return a;
            });
    }

    // chatTemplates(overrideSource: string): Promise<ChatTemplates>; "" uses the model's own template
    Napi::Value chat_templates(const Napi::CallbackInfo & info) {
        if (!info[0].IsString())
            throw Napi::TypeError::New(info.Env(), "chatTemplates(overrideSource: string)");
        auto engine = state_->get(info.Env());
        const std::string source = info[0].As<Napi::String>().Utf8Value();
        return PromiseWorker<std::shared_ptr<cts::ChatTemplates>>::start(
            info.Env(), [engine, source] { return engine->chat_templates(source); },
            [](Napi::Env env, const std::shared_ptr<cts::ChatTemplates> & t) -> Napi::Value { return ChatTemplatesHandle::wrap(env, t); });
    }

    // generate(params, onToken?: (token: number | null, text, logprobs?, cachedTokens, deltas?) => void):
    // {done: Promise, abort()}; params.aborted starts it aborted, params.chat is a ChatPrompt handle
    Napi::Value generate(const Napi::CallbackInfo & info) {
        Napi::Env env = info.Env();
        if (!info[0].IsObject())
            throw Napi::TypeError::New(env, "generate(params: object, onToken?)");
        cts::GenerateParams params = generate_params(info[0].As<Napi::Object>());
        const Napi::Value chat = info[0].As<Napi::Object>().Get("chat");
        if (!chat.IsUndefined() && !chat.IsNull()) {
            params.chat = ChatPromptHandle::of(chat, "chat");
        }
        if (params.parse_message && !params.chat) {
            throw Napi::TypeError::New(env, "'parseMessage' needs 'chat', the prompt whose format the output is parsed by");
        }
        // a stream gets the message as it grows; a plain request only the final parse
        params.stream_message = params.parse_message && info[1].IsFunction();
        std::shared_ptr<cts::Engine> engine = state_->get(env);
        // a caller whose signal is already aborted must not race the worker to set the flag
        const Napi::Value aborted = info[0].As<Napi::Object>().Get("aborted");
        auto abort = std::make_shared<std::atomic<bool>>(aborted.IsBoolean() && aborted.As<Napi::Boolean>().Value());
        {
            std::lock_guard<std::mutex> lock(state_->mutex);
            state_->aborts.insert(abort);
        }
        auto * pending = new Pending(env, info.This().As<Napi::Object>(), info[1], "cts.generate");
        auto handle = Napi::Object::New(env);
        handle.Set("done", pending->deferred.Promise());
        handle.Set("abort", Napi::Function::New(env, [abort](const Napi::CallbackInfo &) { abort->store(true); }));
        std::shared_ptr<EngineState> state = state_;
        const bool streaming = info[1].IsFunction();
        state_->worker.post([state, engine, params, pending, abort, streaming] {
            // Tokens go to the JS thread in batches: a step's tokens together (a DFlash step accepts several), and
            // while steps are shorter than DELIVERY_INTERVAL, at most one delivery per interval. Each delivery wakes
            // the JS thread (a cross-thread hop, the callbacks, an HTTP write): one per token cost a small model's
            // stream 5.1 % of the generating thread's CPU at 8k tokens, batched 2.0 % (the endpointStream bench). A
            // token waits the interval plus one step at most; a slower model's steps are delivered as they end.
            struct Queued {
                int32_t token;
                std::string text;
                std::optional<cts::TokenLogprobs> logprobs;  // the event's pointers do not outlive the call
                int cached_tokens;
                std::vector<cts::MessageDelta> deltas;
            };
            struct Outbox {
                std::mutex mutex;
                std::vector<Queued> events;
                bool scheduled = false;
                std::chrono::steady_clock::time_point last_delivery, last_step_end;
            };
            auto outbox = std::make_shared<Outbox>();
            const auto deliver = [pending, abort, outbox] {
                pending->queue.call([pending, abort, outbox](Napi::Env env) {
                    std::vector<Queued> events;
                    {
                        std::lock_guard<std::mutex> lock(outbox->mutex);
                        events.swap(outbox->events);
                        outbox->scheduled = false;
                    }
                    for (const auto & e : events) {
                        Napi::Value token = e.token < 0 ? env.Null() : Napi::Number::New(env, e.token);
                        Napi::Value logprobs = e.logprobs ? (Napi::Value)to_js(env, *e.logprobs) : env.Undefined();
                        Napi::Value deltas = e.deltas.empty() ? env.Undefined() : (Napi::Value)to_js(env, e.deltas);
                        if (pending->invoke(
                                env, {token, Napi::String::New(env, e.text), logprobs, Napi::Number::New(env, e.cached_tokens), deltas})) {
                            abort->store(true);
                            return;
                        }
                    }
                });
            };
            // at a step's end, or `now` at the end of generation: delivers what waits, unless a delivery is already
            // on its way (it takes all) or steps are short and the last delivery recent
            const auto schedule = [outbox, deliver](bool now) {
                {
                    std::lock_guard<std::mutex> lock(outbox->mutex);
                    const auto t = std::chrono::steady_clock::now();
                    const auto step = t - outbox->last_step_end;
                    outbox->last_step_end = t;
                    if (outbox->events.empty() || outbox->scheduled) {
                        return;
                    }
                    if (!now && step < DELIVERY_INTERVAL && t - outbox->last_delivery < DELIVERY_INTERVAL) {
                        return;
                    }
                    outbox->scheduled = true;
                    outbox->last_delivery = t;
                }
                deliver();
            };
            auto on_token = [outbox, streaming, schedule](const cts::TokenEvent & ev) {
                if (!streaming)
                    return;
                {
                    std::lock_guard<std::mutex> lock(outbox->mutex);
                    outbox->events.push_back({ev.token, ev.text, ev.logprobs ? std::make_optional(*ev.logprobs) : std::nullopt,
                                              ev.cached_tokens, ev.deltas ? *ev.deltas : std::vector<cts::MessageDelta>()});
                }
                if (!ev.more_follow) {
                    schedule(false);
                }
            };
            run_pending<cts::GenerateResult>(
                pending,
                [&] {
                    // the tokens held back reach the callback before the promise settles, also when generation throws
                    struct Flush {
                        const std::function<void(bool)> deliver_held;
                        ~Flush() { deliver_held(true); }
                    } flush{schedule};
                    return engine->generate(params, on_token, *abort);
                },
                [](Napi::Env env, const cts::GenerateResult & r) -> Napi::Value { return to_js(env, r); });
            std::lock_guard<std::mutex> lock(state->mutex);
            state->aborts.erase(abort);
        });
        return handle;
    }

    // close(): Promise<void>; aborts running and queued generations, frees the models
    Napi::Value close(const Napi::CallbackInfo & info) {
        Napi::Env env = info.Env();
        std::shared_ptr<EngineState> state = state_;
        {
            std::lock_guard<std::mutex> lock(state->mutex);
            state->closed = true;
        }
        state->abort_all();
        auto * pending = new Pending(env, info.This().As<Napi::Object>(), env.Undefined(), "cts.close");
        auto promise = pending->deferred.Promise();
        state->worker.post([state, pending] {
            run_pending<bool>(
                pending,
                [&] {
                    std::lock_guard<std::mutex> lock(state->mutex);
                    state->engine.reset();
                    return true;
                },
                [](Napi::Env env, const bool &) -> Napi::Value { return env.Undefined(); });
        });
        return promise;
    }

    std::shared_ptr<EngineState> state_;
};

void stop_all_engines() {
    std::vector<EngineState *> states;
    {
        std::lock_guard<std::mutex> lock(g_states_mutex);
        states.assign(g_states.begin(), g_states.end());
    }
    for (auto * s : states)
        s->shutdown();
}

// shutdown(): aborts every generation and joins every worker, for the process's 'exit' event. It must
// run before exit(): llama.cpp's and ggml's static objects are destroyed by exit handlers, and a worker
// still decoding then crashes.
Napi::Value shutdown(const Napi::CallbackInfo & info) {
    g_exiting = true;
    stop_all_engines();
    return info.Env().Undefined();
}

// init(libDirs: string[], verbose: boolean): loads the ggml backends of those folders, once per process
Napi::Value init_backend(const Napi::CallbackInfo & info) {
    if (!info[0].IsArray())
        throw Napi::TypeError::New(info.Env(), "init(libDirs: string[], verbose: boolean)");
    std::vector<std::string> dirs;
    const auto a = info[0].As<Napi::Array>();
    for (uint32_t i = 0; i < a.Length(); i++) {
        if (!a.Get(i).IsString())
            throw Napi::TypeError::New(info.Env(), "init(libDirs: string[], verbose: boolean)");
        dirs.push_back(a.Get(i).As<Napi::String>().Utf8Value());
    }
    cts::backend_init(dirs, info[1].ToBoolean());
    return info.Env().Undefined();
}

// llamaBuild(): "b<number>-<commit>" of the llama.cpp this process runs on
Napi::Value llama_build(const Napi::CallbackInfo & info) {
    return Napi::String::New(info.Env(), cts::llama_build());
}

Napi::Value devices(const Napi::CallbackInfo & info) {
    Napi::Env env = info.Env();
    const auto list = cts::backend_devices();
    auto a = Napi::Array::New(env, list.size());
    for (size_t i = 0; i < list.size(); i++) {
        auto d = Napi::Object::New(env);
        d.Set("name", list[i].name);
        d.Set("description", list[i].description);
        d.Set("type", list[i].type);
        d.Set("backend", list[i].backend);
        d.Set("memoryTotal", (double)list[i].memory_total);
        d.Set("memoryFree", (double)list[i].memory_free);
        a.Set((uint32_t)i, d);
    }
    return a;
}

// createChatTemplates(source, bosText, eosText): Promise<ChatTemplates>, no model needed
Napi::Value create_chat_templates(const Napi::CallbackInfo & info) {
    if (!info[0].IsString() || !info[1].IsString() || !info[2].IsString()) {
        throw Napi::TypeError::New(info.Env(), "createChatTemplates(source: string, bosText: string, eosText: string)");
    }
    const std::string source = info[0].As<Napi::String>().Utf8Value(), bos = info[1].As<Napi::String>().Utf8Value(),
                      eos = info[2].As<Napi::String>().Utf8Value();
    return PromiseWorker<std::shared_ptr<cts::ChatTemplates>>::start(
        info.Env(), [source, bos, eos] { return std::make_shared<cts::ChatTemplates>(nullptr, source, bos, eos); },
        [](Napi::Env env, const std::shared_ptr<cts::ChatTemplates> & t) -> Napi::Value { return ChatTemplatesHandle::wrap(env, t); });
}

// parseChatOutput(text, isPartial, chatPrompt): Promise<{content, reasoningContent, toolCalls}>
Napi::Value parse_chat_output(const Napi::CallbackInfo & info) {
    if (!info[0].IsString()) {
        throw Napi::TypeError::New(info.Env(), "parseChatOutput(text: string, isPartial: boolean, chatPrompt: ChatPrompt)");
    }
    const std::string text = info[0].As<Napi::String>().Utf8Value();
    const bool partial = info[1].ToBoolean();
    const std::shared_ptr<const cts::ChatPrompt> prompt = ChatPromptHandle::of(info[2], "chatPrompt");
    return PromiseWorker<cts::ParsedMessage>::start(
        info.Env(), [text, partial, prompt] { return cts::parse_chat_output(text, partial, *prompt); },
        [](Napi::Env env, const cts::ParsedMessage & m) -> Napi::Value { return to_js(env, m); });
}

// renderJinja(source, contextJson): Promise<string>
Napi::Value render_jinja(const Napi::CallbackInfo & info) {
    if (!info[0].IsString() || !info[1].IsString())
        throw Napi::TypeError::New(info.Env(), "renderJinja(source: string, contextJson: string)");
    const std::string source = info[0].As<Napi::String>().Utf8Value(), context = info[1].As<Napi::String>().Utf8Value();
    return PromiseWorker<std::string>::start(
        info.Env(), [source, context] { return cts::render_jinja(source, context); },
        [](Napi::Env env, const std::string & s) -> Napi::Value { return Napi::String::New(env, s); });
}

Napi::Object init_module(Napi::Env env, Napi::Object exports) {
    EngineHandle::init(env, exports);
    ChatPromptHandle::init(env, exports);
    ChatTemplatesHandle::init(env, exports);
    exports.Set("init", Napi::Function::New(env, init_backend));
    exports.Set("devices", Napi::Function::New(env, devices));
    exports.Set("llamaBuild", Napi::Function::New(env, llama_build));
    exports.Set("createChatTemplates", Napi::Function::New(env, create_chat_templates));
    exports.Set("parseChatOutput", Napi::Function::New(env, parse_chat_output));
    exports.Set("renderJinja", Napi::Function::New(env, render_jinja));
    exports.Set("shutdown", Napi::Function::New(env, shutdown));
    // a worker thread's environment ending: stop its engines' threads (the main thread's exit goes through
    // shutdown(), since process.exit() reaches exit() without running these hooks)
    env.AddCleanupHook(stop_all_engines);
    return exports;
}

}  // namespace

}  // namespace cts_addon

static Napi::Object init_addon(Napi::Env env, Napi::Object exports) {
    return cts_addon::init_module(env, exports);
}

NODE_API_MODULE(cts_engine, init_addon)
