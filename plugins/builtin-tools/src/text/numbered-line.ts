/** `     7\tline`: the line-number layout of `cat -n`, which models read reliably. */
export function numberedLine(number: number, text: string): string {
  return `${String(number).padStart(6)}\t${text}`;
}
