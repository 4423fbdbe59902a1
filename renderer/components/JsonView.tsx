import { useEffect, useMemo, useRef, useState } from 'react';
import { jsonLines, type JsonLine } from '../json/json-lines';
import { yamlLines } from '../json/yaml-lines';
import { useFind } from '../hooks/use-find';
import { downloadText } from '../bridge/download-text';
import { MarkedRuns } from './MarkedRuns';

/**
 * What differs between kubectl's JSON and its YAML here: how lines split and fold, the depth the Fold button
 * folds from (JSON's outer braces are a level of their own), and whether a fold's last line is a closing
 * bracket that the count of hidden lines leaves out.
 */
const FORMATS = {
  json: { label: 'JSON', split: jsonLines, foldDepth: 2, closer: 1 },
  yaml: { label: 'YAML', split: yamlLines, foldDepth: 1, closer: 0 },
} satisfies Record<string, { label: string; split: (text: string) => JsonLine[]; foldDepth: number; closer: number }>;

const linesText = (n: number) => `${n} line${n === 1 ? '' : 's'}`;

/** kubectl JSON or YAML with highlighting, folding, search, copy and save. */
export function JsonView(props: { text: string; fileName: string; format?: keyof typeof FORMATS }) {
  const format = FORMATS[props.format ?? 'json'];
  const lines = useMemo(() => format.split(props.text), [format, props.text]);
  const [folded, setFolded] = useState<ReadonlySet<number>>(new Set());
  const [notice, setNotice] = useState<string | null>(null);
  const bodyRef = useRef<HTMLDivElement>(null);

  const texts = useMemo(() => lines.map((l) => l.tokens.map((t) => t.text).join('')), [lines]);
  const find = useFind(texts);
  const { needle, currentLine } = find;

  // Moving to a match inside a folded block unfolds it, so search never points at hidden text;
  // folding afterwards is the user's choice and stays.
  useEffect(() => {
    if (currentLine === undefined) return;
    setFolded((folded) => {
      const hiding = [...folded].filter((start) => start < currentLine && (lines[start]?.foldEnd ?? -1) >= currentLine);
      return hiding.length > 0 ? new Set([...folded].filter((s) => !hiding.includes(s))) : folded;
    });
  }, [currentLine, lines]);
  useEffect(() => {
    if (currentLine !== undefined) bodyRef.current?.querySelector(`[data-line="${currentLine}"]`)?.scrollIntoView({ block: 'center' });
  }, [currentLine]);

  const visible: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    visible.push(i);
    if (folded.has(i)) i = lines[i]!.foldEnd ?? i;
  }

  const toggle = (i: number) => {
    const next = new Set(folded);
    if (!next.delete(i)) next.add(i);
    setFolded(next);
  };
  const foldAllFrom = (depth: number) => setFolded(new Set(lines.flatMap((l, i) => (l.foldEnd !== undefined && l.depth >= depth ? [i] : []))));
  const flash = (text: string) => {
    setNotice(text);
    setTimeout(() => setNotice(null), 1800);
  };

  async function copy() {
    try {
      await navigator.clipboard.writeText(props.text);
      flash('Copied to the clipboard');
    } catch {
      flash('The clipboard is not available here; use Save instead');
    }
  }

  return (
    <div className="json-view">
      <div className="json-tools">
        <input
          type="search"
          className="search"
          placeholder={`Find in ${format.label}`}
          aria-label={`Find in ${format.label}`}
          {...find.inputProps}
        />
        <span className="muted small match-count" aria-live="polite">
          {find.countText}
        </span>
        <span className="spacer" />
        <button type="button" className="button small" onClick={() => foldAllFrom(format.foldDepth)}>
          Fold
        </button>
        <button type="button" className="button small" onClick={() => setFolded(new Set())}>
          Unfold
        </button>
        <button type="button" className="button small" onClick={() => void copy()}>
          Copy
        </button>
        <button type="button" className="button small" onClick={() => downloadText(props.fileName, props.text, props.format ?? 'json')}>
          Save…
        </button>
      </div>
      {notice && (
        <div className="toast" role="status">
          {notice}
        </div>
      )}
      <div className="json-body" ref={bodyRef} role="region" aria-label={`Pod ${format.label}`}>
        {visible.map((i) => {
          const line = lines[i]!;
          const isFolded = folded.has(i);
          return (
            <div key={i} data-line={i} className={`json-line${i === currentLine ? ' current' : ''}`}>
              <span className="json-gutter">{i + 1}</span>
              <span className="json-fold">
                {line.foldEnd !== undefined && (
                  <button type="button" aria-label={isFolded ? `Unfold line ${i + 1}` : `Fold line ${i + 1}`} aria-expanded={!isFolded} onClick={() => toggle(i)}>
                    {isFolded ? '▸' : '▾'}
                  </button>
                )}
              </span>
              <code>
                <MarkedRuns runs={line.tokens.map((t) => ({ text: t.text, className: `j-${t.kind}` }))} needle={needle} />
                {isFolded && (
                  <button type="button" className="json-ellipsis" onClick={() => toggle(i)} aria-label={`Unfold ${linesText(line.foldEnd! - i - format.closer)}`}>
                    … {linesText(line.foldEnd! - i - format.closer)}
                  </button>
                )}
              </code>
            </div>
          );
        })}
      </div>
    </div>
  );
}
