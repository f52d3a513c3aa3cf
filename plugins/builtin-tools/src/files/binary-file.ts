import { isBinaryFileSync } from "isbinaryfile";

/** Thrown by readers that only take text when the file looks binary. */
export class BinaryFileError extends Error {
  constructor(readonly file: string) {
    super(`${file} looks like a binary file.`);
    this.name = "BinaryFileError";
  }
}

/** Whether the first bytes of a file look binary (NUL bytes, invalid encodings, control bytes). */
export function looksBinary(firstBytes: Buffer): boolean {
  if (firstBytes.length === 0) return false;
  return isBinaryFileSync(firstBytes, firstBytes.length);
}
