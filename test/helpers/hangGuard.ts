// The time after which a test that waits on events is taken to hang. A guard, not a budget: tests wait on events
// (a process's line, a state change, a metric), so a loaded machine makes them slower, never failed; a test that
// gets here is stuck, and the guard turns the stuck run into a failure naming it.
export const HANG_GUARD_MS = 20 * 60_000;
