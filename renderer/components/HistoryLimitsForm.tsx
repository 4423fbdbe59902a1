import { useState } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import type { HistoryLimitsView } from '../../app/contract/history';
import { errorText } from '../format/error-text';

const MIB = 1024 * 1024;
const MINUTE = 60_000;

/** How much history every source keeps, in the units an operator thinks in (versions, MiB, minutes). */
export function HistoryLimitsForm(props: { bridge: Bridge; limits: HistoryLimitsView; onSaved: (limits: HistoryLimitsView) => void }) {
  const [perPod, setPerPod] = useState(String(props.limits.perPod));
  const [mib, setMib] = useState(String(Math.round(props.limits.totalBytes / MIB)));
  const [minutes, setMinutes] = useState(String(Math.round(props.limits.deletedRetentionMs / MINUTE)));
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    setError(null);
    const numbers = [perPod, mib, minutes].map((t) => (/^\d+$/.test(t.trim()) ? Number(t) : NaN));
    if (numbers.some(Number.isNaN)) return setError('Enter whole numbers.');
    const [p, m, min] = numbers as [number, number, number];
    try {
      props.onSaved(await props.bridge.request('history.setLimits', { perPod: p, totalBytes: m * MIB, deletedRetentionMs: min * MINUTE }));
    } catch (err) {
      setError(errorText(err));
    }
  };
  const field = (label: string, value: string, set: (v: string) => void) => (
    <label className="small">
      {label}{' '}
      <input className="mono limit-input" inputMode="numeric" value={value} onChange={(e) => set(e.target.value)} />
    </label>
  );
  return (
    <form
      className="history-limits"
      aria-label="History limits"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      {field('Versions per pod', perPod, setPerPod)}
      {field('MiB per source', mib, setMib)}
      {field('Keep deleted pods (min)', minutes, setMinutes)}
      <button type="submit" className="button">
        Apply to all sources
      </button>
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </form>
  );
}
