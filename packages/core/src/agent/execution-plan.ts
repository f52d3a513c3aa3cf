/**
 * Order of execution for one model turn: consecutive read-only calls form a batch that runs
 * concurrently; each side-effect call runs alone, in the order the model gave. Keeping the
 * model's order across batches means a read after a write sees the write.
 */
export function planBatches<T>(calls: readonly T[], isReadOnly: (call: T) => boolean): T[][] {
  const batches: T[][] = [];
  let reads: T[] = [];
  for (const call of calls) {
    if (isReadOnly(call)) {
      reads.push(call);
      continue;
    }
    if (reads.length > 0) batches.push(reads);
    reads = [];
    batches.push([call]);
  }
  if (reads.length > 0) batches.push(reads);
  return batches;
}
