// The requests an agent made, from the endpoint's own counters: what each run reports and some runs check.

/** A route's answers by status (`"200"` → count), from the endpoint's /metrics. */
export async function requestCounts(url: string, route: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const counts = new Map<string, number>();
  for (const line of text.split("\n")) {
    const m = /^cts_requests_total\{route="([^"]+)",status="(\d+)"\} (\d+)$/.exec(line);
    if (m && m[1] === route) counts.set(m[2], Number(m[3]));
  }
  return counts;
}

/** `2×200, 1×400`. */
export const describeCounts = (counts: Map<string, number>) => [...counts].map(([status, n]) => `${n}×${status}`).join(", ") || "none";
