import { type Serde, serde } from "@restatedev/restate-sdk";

/**
 * The SDK's JSON serde typed for one message. `serde.json` is a `JsonSerde<any>` whose
 * `jsonSchema?: object | undefined` the SDK's own `Serde<T>` rejects under
 * `exactOptionalPropertyTypes`; this hands every call to it, so the bytes are the same.
 */
export function jsonSerde<T>(): Serde<T> {
  const json = serde.json;
  return {
    contentType: json.contentType,
    serialize: (value: T) => json.serialize(value),
    deserialize: (data: Uint8Array): T => json.deserialize(data),
  };
}
