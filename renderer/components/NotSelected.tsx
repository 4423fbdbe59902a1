/**
 * The mark for a value the node's field mask left out: not absent, not zero, just not asked for.
 * Distinct from "—" (the kubelet sent nothing there).
 */
export function NotSelected({ mask, short = false }: { mask?: string; short?: boolean }) {
  const title = mask ? `Not selected: left out by the mask ${mask}` : 'Not selected: left out by the mask';
  return (
    <span className="not-selected" role="img" title={title} aria-label={title}>
      {short ? '⊘' : 'not selected'}
    </span>
  );
}
