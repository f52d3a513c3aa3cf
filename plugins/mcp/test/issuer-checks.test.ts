// Who an authorization server says it is: the metadata's issuer against where it was fetched
// (RFC 8414 §3.3), and the redirect's `iss` against that issuer (RFC 9207). Both refuse with a
// sentence that says what differed; the conformance suite drives them through real logins.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkMetadataIssuer, checkResponseIssuer } from "../src/oauth/issuer-checks.js";

const issuer = "https://auth.example.com";

describe("checkMetadataIssuer", () => {
  it("takes the same identifier, and a derived one that differs by its trailing slash", () => {
    checkMetadataIssuer(issuer, { issuer });
    checkMetadataIssuer(`${issuer}/`, { issuer });
    checkMetadataIssuer(issuer, undefined);
  });

  it("refuses metadata that names another issuer, or the same one with a slash added", () => {
    assert.throws(
      () => checkMetadataIssuer(issuer, { issuer: "https://evil.example.com" }),
      /names the issuer "https:\/\/evil\.example\.com".*RFC 8414/,
    );
    assert.throws(() => checkMetadataIssuer(issuer, { issuer: `${issuer}/` }), /RFC 8414/);
  });
});

describe("checkResponseIssuer", () => {
  const advertised = { issuer, authorization_response_iss_parameter_supported: true };

  it("takes the exact issuer, and no iss from a server that does not advertise it", () => {
    checkResponseIssuer(issuer, advertised, false);
    checkResponseIssuer(undefined, { issuer }, false);
    checkResponseIssuer("anything", undefined, false);
  });

  it("refuses another issuer, compared without normalising", () => {
    assert.throws(() => checkResponseIssuer(`${issuer}/`, { issuer }, false), /RFC 9207/);
    assert.throws(
      () => checkResponseIssuer("https://AUTH.example.com", advertised, false),
      /names the issuer "https:\/\/AUTH\.example\.com"/,
    );
  });

  it("refuses a missing iss where the server advertises it, and says what to do about a bare code", () => {
    assert.throws(() => checkResponseIssuer(undefined, advertised, false), /did not \(RFC 9207\)/);
    assert.throws(
      () => checkResponseIssuer(undefined, advertised, true),
      /returned only the code\. Return the redirect's query \(URLSearchParams\)/,
    );
  });
});
