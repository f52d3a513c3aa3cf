// The contract suite on a provider written against the Provider contract alone, with no SDK:
// what the suite asks holds for any provider that keeps the contract, not only the shipped ones.
import { describeProviderContract } from "../src/index.js";
import { jsonLinesHarness } from "./support/json-lines-harness.js";

describeProviderContract(jsonLinesHarness());
