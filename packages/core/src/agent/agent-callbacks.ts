import type { Approver, Elicitor } from "./callbacks.js";

/** The person-facing callbacks of one agent. */
export interface AgentCallbacks {
  approve?: Approver;
  elicit?: Elicitor;
}
