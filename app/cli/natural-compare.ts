/**
 * The order kubectl's --sort-by gives text (github.com/fvbommel/sortorder's NaturalLess): runs of digits
 * compare by their value (pod-9 before pod-10), everything else byte by byte.
 */
export function naturalCompare(a: string, b: string): number {
  const runs = /\d+|\D+/g;
  const ra = a.match(runs) ?? [];
  const rb = b.match(runs) ?? [];
  for (let i = 0; i < Math.min(ra.length, rb.length); i++) {
    const x = ra[i]!;
    const y = rb[i]!;
    if (x === y) continue;
    const digits = /^\d/.test(x) && /^\d/.test(y);
    if (digits) {
      const tx = x.replace(/^0+/, '');
      const ty = y.replace(/^0+/, '');
      if (tx.length !== ty.length) return tx.length - ty.length;
      if (tx !== ty) return tx < ty ? -1 : 1;
      // Equal values: fewer leading zeros first.
      return x.length - y.length;
    }
    return x < y ? -1 : 1;
  }
  return ra.length - rb.length;
}
