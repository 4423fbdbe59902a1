import { useMemo, useState } from 'react';
import { DEFAULT_NOISE_RULES, IgnorePatternError, onByDefault, parsePattern, type NoiseSettings } from '../../app/diff/noise-rules';

export interface NoiseChoice {
  /** Whether the default rule hides what it covers here. */
  isOn(id: string): boolean;
  /** Switches a default rule on or off. */
  toggle(id: string): void;
  /** The user's own paths to ignore, as typed (space or comma separated). */
  extraText: string;
  setExtraText(text: string): void;
  /** What is wrong with one of those paths; while set, the paths are not applied. */
  patternError: string | null;
  /** The settings for the diff engine (or diff.run). */
  settings: NoiseSettings;
  /** Changes whenever the settings do, for memos and effects. */
  key: string;
}

/**
 * The noise rules the user chose: every default rule, on as it is by default for the comparison (the
 * rules for two pods off for a pod against itself, where a new IP or timestamp is news), some switched,
 * paths of their own.
 */
export function useNoiseChoice(differentPods: boolean): NoiseChoice {
  const [switched, setSwitched] = useState<ReadonlySet<string>>(new Set());
  const isOn = (id: string) => {
    const rule = DEFAULT_NOISE_RULES.find((r) => r.id === id);
    return rule !== undefined && onByDefault(rule, differentPods) !== switched.has(id);
  };
  const disabled = DEFAULT_NOISE_RULES.filter((r) => onByDefault(r, differentPods) && !isOn(r.id)).map((r) => r.id);
  const enabled = DEFAULT_NOISE_RULES.filter((r) => !onByDefault(r, differentPods) && isOn(r.id)).map((r) => r.id);
  const [extraText, setExtraText] = useState('');
  const extra = extraText.split(/[\s,]+/).filter((s) => s !== '');
  const patternError = useMemo(() => {
    for (const path of extra) {
      try {
        parsePattern(path);
      } catch (err) {
        if (err instanceof IgnorePatternError) return err.message;
        throw err;
      }
    }
    return null;
  }, [extraText]);
  const applied = patternError ? [] : extra;
  return {
    isOn,
    toggle: (id) => {
      const next = new Set(switched);
      if (!next.delete(id)) next.add(id);
      setSwitched(next);
    },
    extraText,
    setExtraText,
    patternError,
    settings: { defaults: true, disabled, enabled, extra: applied },
    key: `${disabled.join()}|${enabled.join()}|${applied.join()}`,
  };
}

/** Every default rule (the same list in every comparison), each switchable, with how many changes each hides when known, and "Also ignore". */
export function NoiseRulesFields(props: { choice: NoiseChoice; hidden?: ReadonlyMap<string, number> }) {
  const { choice } = props;
  return (
    <fieldset className="diff-rules">
      <legend className="small muted">Hidden as noise</legend>
      {DEFAULT_NOISE_RULES.map((rule) => (
        <label key={rule.id} className="small">
          <input
            type="checkbox"
            checked={choice.isOn(rule.id)}
            onChange={() => choice.toggle(rule.id)}
          />{' '}
          {rule.title}
          {props.hidden?.get(rule.id) ? <span className="muted"> ({props.hidden.get(rule.id)})</span> : null}
        </label>
      ))}
      <label className="small diff-ignore">
        Also ignore{' '}
        <input
          type="text"
          className="mono"
          placeholder="e.g. spec.containers.image **.startedAt"
          aria-invalid={choice.patternError !== null}
          value={choice.extraText}
          onChange={(e) => choice.setExtraText(e.target.value)}
        />
      </label>
      {choice.patternError && (
        <p className="form-error small" role="alert">
          {choice.patternError}
        </p>
      )}
    </fieldset>
  );
}
