import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../i18n/format';
import type { FieldProblem } from '../../machines/agent-studio-form';

/** A part of the editor with its heading. */
export const EditorSection = ({ id, title, hint, children }: { id: string; title: string; hint?: string; children: ReactNode }) => (
  <section aria-labelledby={`${id}-title`} className="flex flex-col gap-4 rounded-xl border border-line bg-surface p-4 sm:p-5">
    <div>
      <h2 id={`${id}-title`} className="m-0 text-base font-semibold">
        {title}
      </h2>
      {hint && <p className="m-0 mt-1 text-sm text-muted">{hint}</p>}
    </div>
    {children}
  </section>
);

/** The sentence for a field's problem, with the limit it broke. */
export const useProblemText = () => {
  const { t, i18n } = useTranslation();
  return (problem: FieldProblem | undefined, limits: { max?: number; min?: number; integer?: boolean } = {}): string | null => {
    if (!problem) return null;
    const max = limits.max === undefined ? '' : formatNumber(limits.max, i18n.language);
    const min = limits.min === undefined ? '' : formatNumber(limits.min, i18n.language);
    if (problem === 'format') return t(limits.integer ? 'studio.problems.formatInteger' : 'studio.problems.format');
    if (problem === 'tooLong') return t('studio.problems.tooLong', { max });
    if (problem === 'range') return t('studio.problems.range', { min, max });
    if (problem === 'noOrganisation') return t('studio.problems.noOrganisation');
    return t('studio.problems.required');
  };
};

type CountedFieldProps = {
  id: string;
  label: string;
  hint?: string;
  value: string;
  max: number;
  error: string | null;
  disabled: boolean;
  multiline?: 'short' | 'long';
  /** The count trims as the contract does (a name, an intro), or counts every character (a prompt). */
  trims?: boolean;
  onValue: (value: string) => void;
};

/** A text field with its length against the contract's limit beneath it. */
export const CountedField = ({ id, label, hint, value, max, error, disabled, multiline, trims = true, onValue }: CountedFieldProps) => {
  const { t, i18n } = useTranslation();
  const length = trims ? value.trim().length : value.length;
  const over = length > max;
  const describedBy = [error ? `${id}-error` : null, `${id}-count`, hint ? `${id}-hint` : null].filter(Boolean).join(' ');
  const common = {
    id,
    value,
    disabled,
    'aria-invalid': error || over ? true : undefined,
    'aria-describedby': describedBy,
    className: `field ${error || over ? 'border-danger' : ''} ${multiline === 'long' ? 'min-h-72 font-mono text-sm leading-relaxed' : ''}`,
  } as const;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {multiline ? (
        <textarea {...common} rows={multiline === 'long' ? 14 : 3} onChange={(event) => onValue(event.target.value)} />
      ) : (
        <input {...common} onChange={(event) => onValue(event.target.value)} />
      )}
      <div className="flex flex-wrap items-start justify-between gap-x-3">
        <div className="min-w-0 flex-1">
          {error && (
            <p id={`${id}-error`} className="m-0 flex items-center gap-1 text-sm text-danger" data-testid={`${id}-error`}>
              <span className="i-lucide-triangle-alert shrink-0" aria-hidden="true" />
              {error}
            </p>
          )}
          {hint && (
            <p id={`${id}-hint`} className="m-0 text-xs text-muted">
              {hint}
            </p>
          )}
        </div>
        <p id={`${id}-count`} className={`m-0 shrink-0 text-xs tabular-nums ${over ? 'text-danger' : 'text-muted'}`} data-testid={`${id}-count`}>
          {t('studio.fields.count', { length: formatNumber(length, i18n.language), max: formatNumber(max, i18n.language) })}
        </p>
      </div>
    </div>
  );
};
