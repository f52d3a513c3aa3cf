// What the groups of the provider contract suite's cases are given by the suite.
import type {
  ProviderContractCase,
  ProviderContractHarness,
  ProviderContractObservation,
  ProviderContractServer,
} from "./provider-contract-harness.js";

/** What the suite's cases share: the harness, its running server and the wire checks. */
export interface ContractCases<Wire> {
  readonly harness: ProviderContractHarness<Wire>;
  /** The server the suite started before its first case. */
  server(): ProviderContractServer<Wire>;
  /** Each case's time limit, so a provider that hangs fails instead of stalling the run. */
  readonly timeout: number;
  /** Run the harness's own assertions for a case, on what the case saw. */
  wireCheck(
    name: ProviderContractCase,
    seen?: Omit<ProviderContractObservation<Wire>, "requests">,
  ): Promise<void>;
}

/** A request with only a user's "hi", for cases about everything but the request. */
export const HI = { messages: [{ role: "user" as const, content: "hi" }] };
