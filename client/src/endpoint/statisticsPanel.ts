// The Endpoint Statistics view: one webview panel that reads the endpoint's /metrics when it opens, every few
// seconds while it is visible, and on its Refresh button, and draws the figures (statisticsView.ts).
import { randomBytes } from "node:crypto";
import * as vscode from "vscode";
import { EndpointClient } from "./http";
import type { EndpointService } from "./service";
import { endpointStatistics, parsePrometheus } from "./statisticsModel";
import { statisticsBody, statisticsPage, type StatisticsState } from "./statisticsView";

const REFRESH_MS = 5000;
const newNonce = () => randomBytes(18).toString("base64url");

export class StatisticsPanel implements vscode.Disposable {
  private static current: StatisticsPanel | undefined;
  private readonly timer: NodeJS.Timeout;
  private loading = false;
  /** The first figures replace the whole page; later ones go to its script, which keeps the scroll position. */
  private pageShown = false;

  static show(service: EndpointService): void {
    if (StatisticsPanel.current) {
      StatisticsPanel.current.panel.reveal();
      void StatisticsPanel.current.refresh();
      return;
    }
    const panel = vscode.window.createWebviewPanel("chatTemplate.endpointStatistics", "Endpoint Statistics", vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [],
    });
    StatisticsPanel.current = new StatisticsPanel(panel, service);
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly service: EndpointService,
  ) {
    panel.webview.html = statisticsPage({ kind: "message", text: "Reading the endpoint's /metrics…" }, newNonce());
    panel.webview.onDidReceiveMessage((m: { type?: string }) => m?.type === "refresh" && void this.refresh());
    panel.onDidDispose(() => this.dispose());
    this.timer = setInterval(() => this.panel.visible && void this.refresh(), REFRESH_MS);
    void this.refresh();
  }

  private async read(): Promise<StatisticsState> {
    const connection = await this.service.connection();
    if (!connection)
      return { kind: "message", text: "No endpoint is running: start it (Chat Template: Start Endpoint) to see its statistics." };
    try {
      const text = await new EndpointClient(connection).text("/metrics", AbortSignal.timeout(10_000));
      return { kind: "figures", url: connection.url, stats: endpointStatistics(parsePrometheus(text)), updated: new Date() };
    } catch (e) {
      return { kind: "message", text: `Cannot read ${connection.url}/metrics: ${(e as Error).message}` };
    }
  }

  async refresh(): Promise<void> {
    if (this.loading) return;
    this.loading = true;
    try {
      const state = await this.read();
      if (this.pageShown) await this.panel.webview.postMessage({ type: "figures", html: statisticsBody(state) });
      else this.panel.webview.html = statisticsPage(state, newNonce());
      this.pageShown = true;
    } finally {
      this.loading = false;
    }
  }

  dispose(): void {
    clearInterval(this.timer);
    if (StatisticsPanel.current === this) StatisticsPanel.current = undefined;
  }
}
