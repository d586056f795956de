import type { InputHTMLAttributes, ReactNode } from 'react';

type FormFieldProps = {
  id: string;
  label: string;
  /** The field's rule, beneath it. */
  hint?: string | undefined;
  error: string | null;
  children: (describedBy: string | undefined) => ReactNode;
};

/** A labelled field with its rule beneath it and, when broken, the message beside it. */
export const FormField = ({ id, label, hint, error, children }: FormFieldProps) => {
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children(describedBy)}
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
  );
};

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className' | 'value' | 'onChange' | 'aria-invalid' | 'aria-describedby'> & {
  id: string;
  label: string;
  hint?: string | undefined;
  /** What is wrong with the value, already in the person's language. */
  error: string | null;
  value: string;
  onValue: (value: string) => void;
};

/** A labelled text input whose broken value is outlined, marked invalid and described by its message. */
export const TextField = ({ id, label, hint, error, value, onValue, ...input }: TextFieldProps) => (
  <FormField id={id} label={label} hint={hint} error={error}>
    {(describedBy) => (
      <input
        id={id}
        className={`field ${error ? 'border-danger' : ''}`}
        {...input}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => onValue(event.target.value)}
      />
    )}
  </FormField>
);
