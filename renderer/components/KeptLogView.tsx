import { useEffect, useState } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import type { KeptLogInfo } from '../../app/contract/history';
import { LOG_LINES_MAX } from '../../app/contract/logs';
import { errorText } from '../format/error-text';
import { ansiPlain } from '../format/ansi-text';

/** How an instance ended and what of its log was kept, in one line of the pod's timeline. */
export function keptLogText(log: KeptLogInfo): string {
  const how = [log.reason, log.exitCode !== undefined ? `exit code ${log.exitCode}` : undefined].filter(Boolean).join(', ');
  const ended = `container ${log.container} (instance ${log.instance}) ${log.ended === 'restarted' ? 'restarted' : 'ended'}${how ? `: ${how}` : ''}`;
  if (log.missing !== undefined) return `${ended} · no log kept: ${log.missing}`;
  return `${ended} · its last ${log.lines} line${log.lines === 1 ? '' : 's'} kept${log.truncated ? ' (earlier ones were not)' : ''}`;
}

/**
 * The last lines of an instance that ended, as the pod's history kept them (logs.read with its instance):
 * there even after the node removed the file. Colour codes are shown as plain text here.
 */
export function KeptLogView(props: { bridge: Bridge; nodeId: string; uid: string; log: KeptLogInfo }) {
  const { bridge, nodeId, uid, log } = props;
  const [lines, setLines] = useState<string[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    setLines(null);
    setProblem(null);
    bridge.request('logs.read', { nodeId, uid, container: log.container, instance: log.instance, tailLines: LOG_LINES_MAX }).then(
      (r) => {
        if (!current) return;
        if (r.status === 'ok') setLines(r.lines);
        else setProblem(`${r.message} ${r.nextStep}`);
      },
      (err: unknown) => current && setProblem(errorText(err)),
    );
    return () => {
      current = false;
    };
  }, [bridge, nodeId, uid, log.container, log.instance, log.time]);

  const title = `Last lines of ${log.container}, instance ${log.instance}`;
  return (
    <section className="version-detail" aria-label={title}>
      <header className="version-head">
        <strong>{title}</strong>
      </header>
      <p className="log-captured small">
        {keptLogText(log)}
        {log.finishedAt ? `, at ${new Date(log.finishedAt).toLocaleString()}` : ''}. Kept when it ended: the node may have removed the file since.
      </p>
      {problem && <p className="muted">{problem}</p>}
      {!problem && !lines && <p className="muted">Loading…</p>}
      {lines && (lines.length ? <pre className="kept-log mono small">{lines.map(ansiPlain).join('\n')}</pre> : <p className="muted">The instance wrote nothing before it ended.</p>)}
    </section>
  );
}
