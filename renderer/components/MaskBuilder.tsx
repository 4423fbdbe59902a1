import { useEffect, useMemo, useState } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import type { NodeInfo } from '../../app/contract/nodes';
import type { JobProgress } from '../../app/contract/jobs';
import type { MaskPreview } from '../../app/contract/requests';
import { FieldMaskError } from '../../app/mask/field-mask';
import type { Coverage } from '../../app/mask/mask-coverage';
import { BUILT_IN_PRESETS, parseMaskWithPresets, type MaskPreset } from '../../app/mask/mask-presets';
import { choosePath, dropPath, unionPaths } from '../../app/mask/mask-selection';
import { maskTree } from '../../app/mask/mask-tree';
import { formatBytes } from '../format/age';
import { errorText } from '../format/error-text';
import { maskCommands } from '../format/mask-commands';
import { MaskTree } from './MaskTree';
import { Modal } from './Modal';
import { useDebounced } from './use-model';

interface TextProblem {
  message: string;
  position: number;
}

const percent = (part: number, whole: number) => (whole === 0 ? '0%' : `${Math.round((100 * part) / whole)}%`);

/**
 * The field-mask builder: the pod's fields as a tree with presets, two-way with the mask text, a live
 * preview on a real pod of the node, and the mask ready to copy for the command line. Parsing runs
 * here, with the schema the app core uses, so ticks and keystrokes answer at once.
 */
export function MaskBuilder(props: { bridge: Bridge; node: NodeInfo; onClose: () => void }) {
  const { bridge, node } = props;
  const roots = useMemo(() => maskTree(), []);
  const [presets, setPresets] = useState<MaskPreset[]>([...BUILT_IN_PRESETS]);
  const [paths, setPaths] = useState<string[]>(node.maskPaths);
  const [text, setText] = useState(node.maskPaths.join(','));
  const [problem, setProblem] = useState<TextProblem | null>(null);
  const [query, setQuery] = useState('');
  const [preview, setPreview] = useState<MaskPreview | null>(null);
  const [presetName, setPresetName] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const mask = paths.join(',');
  const settledMask = useDebounced(mask, 250);
  const [previewProgress, setPreviewProgress] = useState<JobProgress | null>(null);

  useEffect(() => {
    bridge.request('mask.presets', {}).then(setPresets, (err: unknown) => setError(errorText(err)));
  }, [bridge]);
  // A newer mask, or the builder closed: the preview under way (seconds on a node of 30,000 pods) is of
  // no use any more, and is cancelled in the core.
  useEffect(() => {
    if (!settledMask) {
      setPreview(null);
      return;
    }
    const shown = new AbortController();
    setPreviewProgress(null);
    bridge.request('mask.preview', { nodeId: node.id, mask: settledMask }, { signal: shown.signal, onProgress: setPreviewProgress }).then(
      (p) => !shown.signal.aborted && setPreview(p),
      (err: unknown) => !shown.signal.aborted && setError(errorText(err)),
    );
    return () => shown.abort();
  }, [bridge, node.id, settledMask]);

  /** Ticks and presets write the canonical text; the text box keeps whatever the user typed. */
  const choose = (next: string[]) => {
    setPaths(next);
    setText(next.join(','));
    setProblem(null);
  };
  const onType = (value: string) => {
    setText(value);
    if (!value.trim()) {
      setPaths([]);
      setProblem(null);
      return;
    }
    try {
      setPaths([...parseMaskWithPresets(value, presets).paths]);
      setProblem(null);
    } catch (err) {
      if (!(err instanceof FieldMaskError)) throw err;
      setProblem({ message: err.message, position: err.position });
    }
  };
  const onToggle = (path: string, state: Coverage) => choose(state === 'all' ? dropPath(paths, path) : choosePath(paths, path));

  async function apply() {
    setError(null);
    try {
      const result = await bridge.request('nodes.setMask', { nodeId: node.id, mask });
      if (result.ok) props.onClose();
      else setError(result.error);
    } catch (err) {
      setError(errorText(err));
    }
  }
  async function savePreset() {
    setError(null);
    try {
      setPresets(await bridge.request('mask.savePreset', { name: presetName.trim(), mask }));
      setNote(`Saved as @${presetName.trim()}.`);
      setPresetName('');
    } catch (err) {
      setError(errorText(err));
    }
  }
  async function deletePreset(name: string) {
    try {
      setPresets(await bridge.request('mask.deletePreset', { name }));
    } catch (err) {
      setError(errorText(err));
    }
  }
  const commands = maskCommands(mask, node);
  async function copy(label: string, value: string) {
    try {
      await navigator.clipboard.writeText(value);
      setNote(`Copied the ${label}.`);
    } catch {
      setNote(`Copy did not work here: select the ${label} below and copy it.`);
    }
  }

  const footer = (
    <>
      <button type="button" className="button" onClick={() => choose([])} disabled={paths.length === 0}>
        Clear
      </button>
      <span className="spacer" />
      <button type="button" className="button" onClick={props.onClose}>
        Cancel
      </button>
      <button type="button" className="button primary" onClick={() => void apply()} disabled={problem !== null}>
        {paths.length ? 'Apply mask' : 'Apply: whole pods'}
      </button>
    </>
  );

  return (
    <Modal title={`Field mask for ${node.label}`} onClose={props.onClose} wide footer={footer}>
      <div className="mask-builder">
        <div className="mask-builder-left">
          <div className="preset-row" role="group" aria-label="Presets">
            {presets.map((p) => (
              <span key={p.name} className="preset">
                <button type="button" className="button small" title={`${p.description}: ${p.paths.join(', ')}`} onClick={() => choose(unionPaths(paths, p.paths))}>
                  @{p.name}
                </button>
                {!p.builtIn && (
                  <button type="button" className="icon-button" aria-label={`Delete preset ${p.name}`} onClick={() => void deletePreset(p.name)}>
                    ✕
                  </button>
                )}
              </span>
            ))}
          </div>
          <input
            type="search"
            className="search mono"
            placeholder="Search fields by name or path"
            aria-label="Search fields"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown' || e.key === 'Enter') {
                e.preventDefault();
                document.querySelector<HTMLElement>('.mask-tree')?.focus();
              }
            }}
          />
          <MaskTree roots={roots} paths={paths} query={query} onToggle={onToggle} />
        </div>
        <div className="mask-builder-right">
          <label className="field">
            <span>Mask</span>
            <textarea
              className="mono"
              rows={3}
              spellCheck={false}
              aria-label="Mask text"
              aria-invalid={problem ? true : undefined}
              aria-describedby="mask-builder-problem"
              value={text}
              onChange={(e) => onType(e.target.value)}
            />
          </label>
          <div id="mask-builder-problem" role={problem ? 'alert' : undefined}>
            {problem && (
              <>
                <pre className="mono mask-caret" aria-hidden="true">
                  {text.slice(Math.max(0, problem.position - 40), problem.position)}
                  <mark>{text.slice(problem.position, problem.position + 30) || ' '}</mark>
                </pre>
                <p className="field-error">
                  At character {problem.position + 1}: {problem.message}
                </p>
              </>
            )}
          </div>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          {note && (
            <p className="muted" role="status">
              {note}
            </p>
          )}
          <section aria-label="Preview">
            <h3>Preview</h3>
            {!paths.length ? (
              <p className="muted">No mask: whole pods. Tick fields or pick a preset.</p>
            ) : preview?.ok ? (
              <>
                <p className="mask-savings">
                  Keeps {preview.maskedFields.toLocaleString()} of {preview.fullFields.toLocaleString()} values ({percent(preview.maskedFields, preview.fullFields)}) and{' '}
                  {formatBytes(preview.maskedBytes)} of {formatBytes(preview.fullBytes)} of JSON across {preview.pods} pods: saves {formatBytes(preview.fullBytes - preview.maskedBytes)}.
                  {preview.fetchedWith && <span className="muted"> Measured on the pods as fetched with the current mask ({preview.fetchedWith}).</span>}
                </p>
                {preview.sample ? (
                  <>
                    <p className="muted">
                      {preview.sample.namespace}/{preview.sample.name} through the mask:
                    </p>
                    <pre className="mono mask-sample">{preview.sample.json}</pre>
                  </>
                ) : (
                  <p className="muted">The node has no pods to show.</p>
                )}
              </>
            ) : (
              <p className="muted">{previewProgress ? `Previewing… ${previewProgress.done.toLocaleString()} of ${previewProgress.total.toLocaleString()} pods` : 'Loading…'}</p>
            )}
          </section>
          {paths.length > 0 && (
            <section aria-label="Copy the mask">
              <h3>Copy</h3>
              {(
                [
                  ['--mask argument', commands.argument],
                  ['metadata line', commands.metadata],
                  ['nodescope command', commands.command],
                ] as const
              ).map(([label, value]) => (
                <div key={label} className="copy-row">
                  <input className="mono" readOnly value={value} aria-label={label} onFocus={(e) => e.target.select()} />
                  <button type="button" className="button small" onClick={() => void copy(label, value)}>
                    Copy {label}
                  </button>
                </div>
              ))}
              <div className="copy-row">
                <input
                  className="mono"
                  placeholder="preset name"
                  aria-label="Preset name"
                  value={presetName}
                  onChange={(e) => setPresetName(e.target.value)}
                  onKeyDown={(e) => e.key === 'Enter' && presetName.trim() && void savePreset()}
                />
                <button type="button" className="button small" disabled={!presetName.trim()} onClick={() => void savePreset()}>
                  Save as preset
                </button>
              </div>
            </section>
          )}
        </div>
      </div>
    </Modal>
  );
}
