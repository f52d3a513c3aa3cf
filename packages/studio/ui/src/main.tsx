import { render } from "preact";
import { followEvents } from "./api.js";
import { App } from "./app.js";
import {
  applyEvent,
  connected,
  refreshAgent,
  refreshPending,
  refreshRuns,
  refreshTools,
} from "./state.js";

render(<App />, document.getElementById("app") as HTMLElement);

followEvents(applyEvent, (open) => {
  connected.value = open;
  // After a reconnect the page may have missed events: read the state again.
  if (open) void Promise.all([refreshAgent(), refreshTools(), refreshPending(), refreshRuns()]);
});
