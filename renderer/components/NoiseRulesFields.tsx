import { useMemo, useState } from 'react';
import { IgnorePatternError, parsePattern, type NoiseRule, type NoiseSettings } from '../../app/diff/noise-rules';

export interface NoiseChoice {
  /** Default rule ids switched off. */
  disabled: ReadonlySet<string>;
  setDisabled(next: ReadonlySet<string>): void;
  /** The user's own paths to ignore, as typed (space or comma separated). */
  extraText: string;
  setExtraText(text: string): void;
  /** What is wrong with one of those paths; while set, the paths are not applied. */
  patternError: string | null;
  /** The settings for the diff engine (or diff.start). */
  settings: NoiseSettings;
  /** Changes whenever the settings do, for memos and effects. */
  key: string;
}

/** The noise rules the user chose: defaults on, some switched off, paths of their own. */
export function useNoiseChoice(): NoiseChoice {
  const [disabled, setDisabled] = useState<ReadonlySet<string>>(new Set());
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
    disabled,
    setDisabled,
    extraText,
    setExtraText,
    patternError,
    settings: { defaults: true, disabled: [...disabled], extra: applied },
    key: `${[...disabled].join()}|${applied.join()}`,
  };
}

/** The rules in view, each switchable, with how many changes each hides when known, and "Also ignore". */
export function NoiseRulesFields(props: { choice: NoiseChoice; rules: readonly NoiseRule[]; hidden?: ReadonlyMap<string, number> }) {
  const { choice } = props;
  return (
    <fieldset className="diff-rules">
      <legend className="small muted">Hidden as noise</legend>
      {props.rules.map((rule) => (
        <label key={rule.id} className="small">
          <input
            type="checkbox"
            checked={!choice.disabled.has(rule.id)}
            onChange={(e) => {
              const next = new Set(choice.disabled);
              if (e.target.checked) next.delete(rule.id);
              else next.add(rule.id);
              choice.setDisabled(next);
            }}
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
