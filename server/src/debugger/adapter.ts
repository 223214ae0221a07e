// The Debug Adapter Protocol over a debugged render (@vscode/debugadapter's DebugSession): launch resolves the
// template, scenario and engine and binds breakpoints; configurationDone starts the render in its worker thread;
// the rest asks that thread. One thread ("render"), one template.
import { basename, resolve } from "node:path";
import {
  Breakpoint,
  DebugSession,
  Event,
  InitializedEvent,
  OutputEvent,
  Scope,
  Source,
  StackFrame,
  StoppedEvent,
  TerminatedEvent,
  Thread,
  ExitedEvent,
} from "@vscode/debugadapter";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { bindBreakpoint, statementPlaces, type StatementPlace } from "./breakpoints";
import { type Launch, type LaunchArguments, LaunchError, resolveLaunch } from "./launch";
import type { BreakpointSpec, ExceptionFilters, FrameInfo, Query, ScopeInfo, StepKind, VariableInfo } from "./protocol";
import { RenderThread } from "./renderThread";

const THREAD_ID = 1;

/** A custom event at each stop and at the end: the rendered output so far, for an editor to show as it grows. */
export const OUTPUT_EVENT = "chatTemplateOutput";
export interface OutputSoFar {
  output: string;
  /** The UTF-16 range of `output` written since the previous stop. */
  written: [number, number];
}
/** The exception breakpoint filters: stop where the engine throws; where its output first differs from Jinja2's. */
const ERROR_FILTER = "error";
const DIVERGES_FILTER = "diverges";

export class ChatTemplateDebugSession extends DebugSession {
  private launch: Launch | null = null;
  private places: StatementPlace[] = [];
  private breakpoints: BreakpointSpec[] = [];
  private exceptions: ExceptionFilters = { error: false, diverges: false };
  private thread: RenderThread | null = null;
  /** The output so far (the render's stdout events), and its length at the last stop. */
  private rendered = "";
  private renderedAtStop = 0;

  constructor(private readonly onShutdown?: () => void) {
    super();
    this.setDebuggerLinesStartAt1(true);
    this.setDebuggerColumnsStartAt1(true);
  }

  protected override initializeRequest(response: DebugProtocol.InitializeResponse): void {
    response.body = {
      supportsConfigurationDoneRequest: true,
      supportsConditionalBreakpoints: true,
      supportsHitConditionalBreakpoints: true,
      supportsLogPoints: true,
      supportsEvaluateForHovers: true,
      supportsTerminateRequest: true,
      exceptionBreakpointFilters: [
        { filter: ERROR_FILTER, label: "Template errors", description: "Stop where the engine throws", default: false },
        {
          filter: DIVERGES_FILTER,
          label: "Output differs from Jinja2's",
          description: "Stop after the statement whose output first differs from what Jinja2 renders for the same context",
          default: false,
        },
      ],
    };
    this.sendResponse(response);
  }

  protected override launchRequest(response: DebugProtocol.LaunchResponse, args: DebugProtocol.LaunchRequestArguments): void {
    try {
      this.launch = resolveLaunch(args as LaunchArguments);
    } catch (e) {
      if (!(e instanceof LaunchError)) throw e;
      this.sendErrorResponse(response, { id: 1, format: e.message, showUser: true });
      return;
    }
    this.places = statementPlaces(this.launch.doc);
    this.sendResponse(response);
    this.sendEvent(new InitializedEvent());
  }

  protected override setBreakPointsRequest(
    response: DebugProtocol.SetBreakpointsResponse,
    args: DebugProtocol.SetBreakpointsArguments,
  ): void {
    const asked = args.breakpoints ?? [];
    const launch = this.launch;
    if (!launch || !args.source.path || resolve(args.source.path) !== launch.templatePath) {
      response.body = { breakpoints: asked.map(() => ({ verified: false, message: "not the template being debugged" })) };
      this.sendResponse(response);
      return;
    }
    const specs: BreakpointSpec[] = [];
    const bound: DebugProtocol.Breakpoint[] = asked.map((b) => {
      const place = bindBreakpoint(this.places, b.line - 1);
      if (!place) return { verified: false, line: b.line, message: "no statement or output expression on or after this line" };
      specs.push({ offset: place.offset, condition: b.condition, hitCondition: b.hitCondition, logMessage: b.logMessage });
      const bp: DebugProtocol.Breakpoint = new Breakpoint(true, place.line + 1, undefined, this.source());
      return bp;
    });
    this.breakpoints = specs;
    this.thread?.setBreakpoints(specs);
    response.body = { breakpoints: bound };
    this.sendResponse(response);
  }

  protected override setExceptionBreakPointsRequest(
    response: DebugProtocol.SetExceptionBreakpointsResponse,
    args: DebugProtocol.SetExceptionBreakpointsArguments,
  ): void {
    this.exceptions = { error: args.filters.includes(ERROR_FILTER), diverges: args.filters.includes(DIVERGES_FILTER) };
    this.thread?.setExceptions(this.exceptions);
    this.sendResponse(response);
  }

  protected override configurationDoneRequest(response: DebugProtocol.ConfigurationDoneResponse): void {
    const launch = this.launch;
    if (!launch) {
      this.sendErrorResponse(response, { id: 2, format: "configurationDone before launch", showUser: false });
      return;
    }
    this.sendResponse(response);
    this.thread = new RenderThread(
      {
        source: launch.doc.text,
        contextJson: launch.contextJson,
        engine: launch.engine,
        stopOnEntry: launch.stopOnEntry,
        breakpoints: this.breakpoints,
        exceptions: this.exceptions,
      },
      {
        stopped: (reason, text) => {
          this.sendOutputSoFar();
          this.sendEvent(new StoppedEvent(reason, THREAD_ID, text));
        },
        output: (category, text) => {
          if (category === "stdout") this.rendered += text;
          this.sendEvent(new OutputEvent(text, category));
        },
        done: (_output, error) => {
          this.sendOutputSoFar();
          if (error)
            this.sendEvent(
              new OutputEvent(`\n${basename(launch.templatePath)}:${error.line}:${error.column}: ${error.message}\n`, "stderr"),
            );
          this.finish(error ? 1 : 0);
        },
        failed: (message) => {
          this.sendEvent(new OutputEvent(`\n${message}\n`, "stderr"));
          this.finish(1);
        },
      },
    );
  }

  /** The editor's growing output document (OUTPUT_EVENT): the output so far, and what was written since the last stop. */
  private sendOutputSoFar(): void {
    const body: OutputSoFar = { output: this.rendered, written: [this.renderedAtStop, this.rendered.length] };
    this.renderedAtStop = this.rendered.length;
    this.sendEvent(new Event(OUTPUT_EVENT, body));
  }

  private finish(code: number): void {
    this.sendEvent(new ExitedEvent(code));
    this.sendEvent(new TerminatedEvent());
  }

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    response.body = { threads: [new Thread(THREAD_ID, "render")] };
    this.sendResponse(response);
  }

  protected override stackTraceRequest(response: DebugProtocol.StackTraceResponse): void {
    this.ask(response, { kind: "stackTrace" }, (frames: FrameInfo[]) => ({
      stackFrames: frames.map((f) => {
        const frame: DebugProtocol.StackFrame = new StackFrame(f.id, f.name, this.source(), f.line, f.column);
        frame.endLine = f.endLine;
        frame.endColumn = f.endColumn;
        return frame;
      }),
      totalFrames: frames.length,
    }));
  }

  protected override scopesRequest(response: DebugProtocol.ScopesResponse, args: DebugProtocol.ScopesArguments): void {
    this.ask(response, { kind: "scopes", frameId: args.frameId }, (scopes: ScopeInfo[]) => ({
      scopes: scopes.map((s) => {
        const scope: DebugProtocol.Scope = new Scope(s.name, s.variablesReference, false);
        if (s.presentationHint) scope.presentationHint = s.presentationHint;
        return scope;
      }),
    }));
  }

  protected override variablesRequest(response: DebugProtocol.VariablesResponse, args: DebugProtocol.VariablesArguments): void {
    this.ask(response, { kind: "variables", ref: args.variablesReference }, (variables: VariableInfo[]) => ({ variables }));
  }

  protected override evaluateRequest(response: DebugProtocol.EvaluateResponse, args: DebugProtocol.EvaluateArguments): void {
    this.ask(
      response,
      { kind: "evaluate", expression: args.expression, frameId: args.frameId },
      (body: DebugProtocol.EvaluateResponse["body"]) => body,
    );
  }

  protected override continueRequest(response: DebugProtocol.ContinueResponse): void {
    response.body = { allThreadsContinued: true };
    this.resume(response, "continue");
  }
  protected override nextRequest(response: DebugProtocol.NextResponse): void {
    this.resume(response, "next");
  }
  protected override stepInRequest(response: DebugProtocol.StepInResponse): void {
    this.resume(response, "stepIn");
  }
  protected override stepOutRequest(response: DebugProtocol.StepOutResponse): void {
    this.resume(response, "stepOut");
  }

  protected override pauseRequest(response: DebugProtocol.PauseResponse): void {
    this.thread?.pause();
    this.sendResponse(response);
  }

  protected override terminateRequest(response: DebugProtocol.TerminateResponse): void {
    this.thread?.stop();
    this.sendResponse(response);
    this.sendEvent(new TerminatedEvent());
  }

  protected override disconnectRequest(response: DebugProtocol.DisconnectResponse): void {
    this.thread?.stop();
    this.sendResponse(response);
    this.shutdown();
  }

  /** The client is gone (disconnect, or its stream closed): the render ends, and whoever runs the session is told. */
  override shutdown(): void {
    this.thread?.stop();
    this.onShutdown?.();
  }

  private resume(response: DebugProtocol.Response, how: StepKind): void {
    this.thread?.resume(how);
    this.sendResponse(response);
  }

  /** Asks the stopped render and answers with what `shape` makes of its reply, or with its error. */
  private ask<T, R extends DebugProtocol.Response>(response: R, query: Query, shape: (reply: T) => R["body"]): void {
    if (!this.thread) {
      this.sendErrorResponse(response, { id: 3, format: "the render has not started", showUser: false });
      return;
    }
    this.thread.query(query).then(
      (reply) => {
        response.body = shape(reply as T);
        this.sendResponse(response);
      },
      (e: Error) => this.sendErrorResponse(response, { id: 4, format: e.message, showUser: false }),
    );
  }

  private source(): Source {
    const path = this.launch!.templatePath;
    return new Source(basename(path), path);
  }
}
