// Where a helper process's render is, told to the process that started it over an extra pipe: the language
// server's analysis process and the extension host's render helpers use it, so that a render that ends its process
// (a time limit, an exhausted heap) is reported at the statement it was running.
export { reportRenderProgress, reportRendersOf, type ProgressReporting } from "./reportProgress";
export { ReportedProgress } from "./reportedProgress";
