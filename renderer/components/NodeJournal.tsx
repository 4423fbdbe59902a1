import { useEffect, useRef, useState } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import type { NodeContextView } from '../../app/contract/node-context';
import type { RequestInput } from '../../app/contract/requests';
import { errorText } from '../format/error-text';

type Journal = Extract<NodeContextView['journal'], { value: unknown }>['value'];
type JournalLine = Journal['lines'][number];
/** node.info names the unit from the kubelet units Nodescope asks systemctl about, which the follow accepts. */
type Unit = RequestInput<'node.journalFollow'>['unit'];

/** The most journal lines kept while following: the oldest go first (a chatty kubelet runs for days). */
const FOLLOW_LINES_MAX = 5000;

const lineText = (l: JournalLine) => [l.time, l.identifier, l.message].filter((s) => s !== undefined).join(' ');

/**
 * The kubelet unit's journal in the node panel: the tail node.info read, and with Follow each new line as
 * the journal grows (node.journalFollow, a subscription that starts with the same tail). Turning Follow
 * off or closing the panel cancels it, which stops the command on the node.
 */
export function NodeJournal(props: { bridge: Bridge; nodeId: string; journal: Journal }) {
  const { bridge, nodeId, journal } = props;
  const [follow, setFollow] = useState(false);
  const [followed, setFollowed] = useState<JournalLine[] | null>(null);
  const [ended, setEnded] = useState<string | null>(null);
  const box = useRef<HTMLPreElement>(null);

  useEffect(() => {
    if (!follow) return;
    let current = true;
    const cancel = new AbortController();
    setEnded(null);
    let lines: JournalLine[] = [];
    bridge
      .request('node.journalFollow', { nodeId, unit: journal.unit.unit as Unit }, {
        signal: cancel.signal,
        onProgress: (p) => {
          lines = lines.concat(p.lines).slice(-FOLLOW_LINES_MAX);
          setFollowed(lines);
        },
      })
      .then(
        (r) => {
          if (!current) return;
          setEnded(`${r.message} ${r.nextStep}`);
          setFollow(false);
        },
        (err: unknown) => {
          if (!current) return;
          setEnded(errorText(err));
          setFollow(false);
        },
      );
    return () => {
      current = false;
      cancel.abort();
    };
  }, [bridge, nodeId, journal.unit.unit, follow]);

  const shown = followed ?? journal.lines;
  // Kept at the newest line while following, as a terminal's tail -f.
  useEffect(() => {
    if (follow && box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [follow, shown]);

  return (
    <>
      <p>
        Unit {journal.unit.unit}: {[journal.unit.loadState, journal.unit.activeState, journal.unit.subState].filter((s) => s !== undefined).join(', ')}{' '}
        <label className="small" title="Show the journal's lines as the kubelet writes them">
          <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} /> Follow
        </label>
      </p>
      {ended && <p role="status">{ended}</p>}
      {shown.length > 0 ? (
        <pre ref={box} className="node-info-journal" aria-label="Kubelet journal lines">
          {shown.map(lineText).join('\n')}
        </pre>
      ) : (
        <p>The journal has no lines for this unit.</p>
      )}
    </>
  );
}
