/**
 * The Restate SDK calls `Promise.withResolvers` on every invocation. Node 22 has it and Node 20
 * (this project's floor) does not. So it is defined here, once, only where it is missing, with
 * the standard behaviour. Importing this package is what installs it: nothing else changes.
 */
interface Resolvers<T> {
  promise: Promise<T>;
  resolve: (value: T | PromiseLike<T>) => void;
  reject: (reason?: unknown) => void;
}

const withResolvers = Promise as unknown as { withResolvers?: <T>() => Resolvers<T> };
if (typeof withResolvers.withResolvers !== "function") {
  Object.defineProperty(Promise, "withResolvers", {
    configurable: true,
    writable: true,
    value: function withResolversPolyfill<T>(this: PromiseConstructor): Resolvers<T> {
      let resolve!: Resolvers<T>["resolve"];
      let reject!: Resolvers<T>["reject"];
      const promise = new this<T>((yes, no) => {
        resolve = yes;
        reject = no;
      });
      return { promise, resolve, reject };
    },
  });
}
