// Guest code run before the program: what the program sees of time and chance depends only on
// the run's start record and the answers delivered, never on the machine. Evaluated as a
// function `(now, seedJson)`, where `now()` reads the host's virtual clock: it starts at the
// start record's time and moves only to each delivered answer's time.
//
// QuickJS takes local time from the host's time zone. Here local time IS UTC: every local
// getter, setter and formatter is its UTC twin, getTimezoneOffset() is 0, `new Date(y, m, …)`
// means Date.UTC, and a date string without a zone is read as UTC. Date strings that name a
// zone keep it. WeakRef and FinalizationRegistry expose the garbage collector's timing: gone.
export const DETERMINISM_PRELUDE = String.raw`(function (now, seedJson) {
  "use strict";
  const seed = JSON.parse(seedJson);
  const defineProperty = Object.defineProperty;
  let a = seed[0] >>> 0, b = seed[1] >>> 0, c = seed[2] >>> 0, d = seed[3] >>> 0;
  // sfc32: small, fast, and the same sequence for the same seed on any engine.
  const random = function random() {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  // Mix the seed in first: the opening outputs of a small seed are close to zero.
  for (let i = 0; i < 15; i++) random();
  defineProperty(Math, "random", { value: random, writable: false, configurable: false });

  const RealDate = Date, realParse = Date.parse, UTC = Date.UTC, proto = RealDate.prototype;
  const isNaN = Number.isNaN, pad = (n, w = 2) => String(n).padStart(w, "0");
  const hasZone = /\d[zZ]|\d[+-]\d\d:?\d\d|\b(?:GMT|UTC|UT|Z|[ECMP][SD]T)\b/;
  const parseUtc = (text) => {
    const s = String(text);
    if (hasZone.test(s)) return realParse(s);
    const asUtc = realParse(s + "Z");
    return isNaN(asUtc) ? realParse(s) : asUtc;
  };
  const method = (name, fn) =>
    defineProperty(proto, name, { value: fn, writable: true, configurable: true, enumerable: false });
  for (const part of ["FullYear", "Month", "Date", "Day", "Hours", "Minutes", "Seconds", "Milliseconds"]) {
    method("get" + part, proto["getUTC" + part]);
    if (part !== "Day") method("set" + part, proto["setUTC" + part]);
  }
  method("getYear", function getYear() { return this.getUTCFullYear() - 1900; });
  method("setYear", function setYear(year) {
    const y = Number(year);
    return this.setUTCFullYear(y >= 0 && y <= 99 ? 1900 + Math.trunc(y) : y);
  });
  method("getTimezoneOffset", function getTimezoneOffset() { return isNaN(this.getTime()) ? NaN : 0; });
  const days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  const year = (t) => { const y = t.getUTCFullYear(); return y < 0 ? "-" + pad(-y, 6) : pad(y, 4); };
  const datePart = (t) => days[t.getUTCDay()] + " " + months[t.getUTCMonth()] + " " + pad(t.getUTCDate()) + " " + year(t);
  const timePart = (t) => pad(t.getUTCHours()) + ":" + pad(t.getUTCMinutes()) + ":" + pad(t.getUTCSeconds()) + " GMT+0000";
  const valid = (t, fn) => (isNaN(t.getTime()) ? "Invalid Date" : fn(t));
  method("toString", function toString() { return valid(this, (t) => datePart(t) + " " + timePart(t)); });
  method("toDateString", function toDateString() { return valid(this, datePart); });
  method("toTimeString", function toTimeString() { return valid(this, timePart); });
  const localeDate = (t) => pad(t.getUTCMonth() + 1) + "/" + pad(t.getUTCDate()) + "/" + year(t);
  const localeTime = (t) => {
    const h = t.getUTCHours();
    return ((h + 11) % 12 + 1) + ":" + pad(t.getUTCMinutes()) + ":" + pad(t.getUTCSeconds()) + (h < 12 ? " AM" : " PM");
  };
  method("toLocaleString", function toLocaleString() { return valid(this, (t) => localeDate(t) + ", " + localeTime(t)); });
  method("toLocaleDateString", function toLocaleDateString() { return valid(this, localeDate); });
  method("toLocaleTimeString", function toLocaleTimeString() { return valid(this, localeTime); });

  // Not named Date: a function declaration is hoisted, and RealDate above must be the engine's.
  function SandboxDate(...args) {
    if (new.target === undefined) return new RealDate(now()).toString();
    let time;
    if (args.length === 0) time = now();
    else if (args.length === 1) time = typeof args[0] === "string" ? parseUtc(args[0]) : new RealDate(args[0]).getTime();
    else time = UTC(...args);
    const made = new RealDate(time);
    if (new.target !== SandboxDate) Object.setPrototypeOf(made, new.target.prototype);
    return made;
  }
  defineProperty(SandboxDate, "name", { value: "Date" });
  defineProperty(SandboxDate, "length", { value: 7 });
  defineProperty(SandboxDate, "prototype", { value: proto, writable: false, enumerable: false, configurable: false });
  const dateNow = { now() { return now(); } }.now, dateParse = { parse(s) { return parseUtc(s); } }.parse;
  for (const [name, fn] of [["now", dateNow], ["parse", dateParse], ["UTC", UTC]])
    defineProperty(SandboxDate, name, { value: fn, writable: true, configurable: true, enumerable: false });
  method("constructor", SandboxDate);
  defineProperty(globalThis, "Date", { value: SandboxDate, writable: true, configurable: true, enumerable: false });
  delete globalThis.WeakRef;
  delete globalThis.FinalizationRegistry;
})`;
